//! The leaderboard, one for every place that shows one: the CLI's table,
//! JSON, CSV and Markdown, the static HTML page (the viewer's), and the
//! server's pages and API. Every table ranks a ladder the same way, by the
//! ladder's ranking system ([`System::ranking`]), and names it; beside the
//! ratings, each bot's results over the ladder's matches.
//!
//! [`standings`] reads only the stored ratings and counts (its cost grows
//! with the bots, not the matches: the server's live boards); [`leaderboard`]
//! adds each bot's results and the list of matches, read from the results.

use crate::continuous::{self, Field};
use crate::error::Error;
use crate::ratings::elo::EloConfig;
use crate::ratings::System;
use crate::season::{self, Season};
use crate::store::{BotRecord, LadderRecord, Store};
use ludus_host::numbers::{count, fixed};
use serde::{Deserialize, Serialize};

/// One bot's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Row {
    pub rank: u32,
    pub bot: String,
    pub version: u32,
    pub sha256: String,
    /// The account that owns the bot (on a server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// A bot of the server's house account, there so that every game has
    /// opponents (on a server; left out when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub house: bool,
    /// The ranking rating ([`Leaderboard::rating_system`]): Bradley–Terry
    /// (Elo scale, mean 0) for two seats, Weng–Lin μ − 3σ for more.
    pub rating: f64,
    /// ± half-width of the 95% interval (Bradley–Terry), or 3σ (Weng–Lin).
    pub interval: f64,
    /// The running Elo, applied in schedule order.
    pub elo: f64,
    /// Rated matches.
    pub games: u32,
    /// Its results, where the board read them ([`leaderboard`]; not the
    /// live boards of [`standings`]).
    #[serde(flatten, default, skip_serializing_if = "Option::is_none")]
    pub results: Option<Results>,
}

/// A bot's results over a ladder's matches.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Results {
    /// First place alone.
    pub wins: u32,
    /// First place shared.
    pub draws: u32,
    pub losses: u32,
    /// Mean final score per game, in the game's own unit
    /// ([`Leaderboard::score_unit`]: share, kore, halite, cells, gold, points).
    pub score: f64,
    /// The share of result points won, in percent, 0 to 100 for every
    /// game: see [`result_points`].
    pub score_pct: f64,
    /// Turns with a fault, over all games.
    pub faults: u32,
    /// Moves the game refused, over all games; `None` when some of its
    /// results were stored before refusals were counted.
    pub refused: Option<u32>,
}

/// One match, for the HTML page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct MatchLine {
    pub index: u32,
    /// The match seed (a u64), as a string of its digits: a JSON number
    /// above 2^53 is rounded where it is read as a double.
    #[serde(with = "crate::exact")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "15337121675167056173"))]
    pub seed: u64,
    pub seats: Vec<String>,
    pub placements: Vec<u32>,
    pub turns: u32,
    pub reason: String,
    pub match_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Leaderboard {
    /// The ladder's id, as a string of its digits (ids, like seeds, are
    /// 64-bit); `None` for a game whose ladder does not exist yet.
    #[serde(with = "crate::exact::option")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "1"))]
    pub ladder: Option<i64>,
    pub game: String,
    pub kind: String,
    pub players: u32,
    pub rounds: u32,
    /// The ladder's seed (a u64), as a string of its digits: a JSON number
    /// above 2^53 is rounded where it is read as a double.
    #[serde(with = "crate::exact")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "1280656469"))]
    pub seed: u64,
    /// Matches with a result / in the schedule / rated (a prefix of it).
    #[cfg_attr(feature = "openapi", schema(value_type = u32))]
    pub played: usize,
    #[cfg_attr(feature = "openapi", schema(value_type = u32))]
    pub scheduled: usize,
    pub rated: u32,
    /// What ranks the rows, and what `rating` and `interval` are.
    pub rating_system: String,
    /// What the game's score counts, heading [`Results::score`].
    pub score_unit: String,
    pub rows: Vec<Row>,
    /// Every match with a result ([`leaderboard`] only).
    #[serde(default)]
    pub matches: Vec<MatchLine>,
}

/// The result points of `seat` in a match that ended in `placements`: the
/// share of its opponents it finished ahead of, a tie counting half. With
/// two seats that is 1 for a win, ½ for a draw and 0 for a loss; with four,
/// a lone first place is 1, a lone second ⅔, and four seats tied ½ each.
pub fn result_points(placements: &[u32], seat: usize) -> f64 {
    let Some(&mine) = placements.get(seat) else {
        return 0.0;
    };
    let opponents = placements.len().saturating_sub(1);
    if opponents == 0 {
        return 0.0;
    }
    let points: f64 = placements
        .iter()
        .enumerate()
        .filter(|&(other, _)| other != seat)
        .map(|(_, &theirs)| match mine.cmp(&theirs) {
            std::cmp::Ordering::Less => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.0,
        })
        .sum();
    points / opponents as f64
}

/// Which of a ladder's bots a board lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed {
    /// Every bot of the ladder (every version that joined it).
    All,
    /// The latest version of each bot not retired: a server's live board.
    Current,
    /// The last version of each bot that played in the ladder, retired
    /// since or not: a closed season's board, as the season ended.
    Final,
}

/// The leaderboard of a game with no ladder yet: no rows.
pub fn empty(game: &str) -> Leaderboard {
    let info = ludus_engine::registry::info(game).ok();
    let players = info.map_or(2, |g| g.fewest_seats() as u32);
    Leaderboard {
        ladder: None,
        game: game.into(),
        kind: String::new(),
        players,
        rounds: 0,
        seed: 0,
        played: 0,
        scheduled: 0,
        rated: 0,
        rating_system: System::ranking(players).describe().into(),
        score_unit: info.map_or("score", |g| g.score_unit).into(),
        rows: Vec::new(),
        matches: Vec::new(),
    }
}

/// The leaderboard of a game whose ladder does not exist yet (it has too
/// few bots to start): the latest version of each of its bots not retired,
/// unrated, by name.
pub fn waiting(store: &Store, game: &str) -> Result<Leaderboard, Error> {
    let mut board = empty(game);
    let retired = store.accounts().retired()?;
    let house = crate::house::bots(store)?;
    let initial = EloConfig::default().initial;
    for b in store.bots().latest(game)? {
        if retired.contains(&b.name) {
            continue;
        }
        board.rows.push(Row {
            rank: 0,
            owner: store.accounts().ownership(&b.name)?.map(|o| o.owner),
            house: house.contains(&b.name),
            bot: b.name,
            version: b.version,
            sha256: b.sha256,
            rating: 0.0,
            interval: 0.0,
            elo: initial,
            games: 0,
            results: None,
        });
    }
    rank(&mut board.rows);
    Ok(board)
}

/// A game's board as its page, the API and the CLI show it: which season,
/// its ranked rows and what the game is waiting for. One call, so that
/// every place that shows a game's board picks the same season and rows.
#[derive(Debug, Clone, PartialEq)]
pub struct GameBoard {
    /// The season shown: the open one unless named; `None` before the
    /// game's first season starts.
    pub season: Option<Season>,
    /// The season shown is the open one (or none has started yet).
    pub open: bool,
    /// Every row, unpaged: the open season's [`Listed::Current`]
    /// standings, a closed one's [`Listed::Final`], or [`waiting`].
    pub board: Leaderboard,
    /// How many more bots the open season needs before its matches start.
    pub needs: u32,
    /// The game is paused and the season shown is the open one.
    pub paused: bool,
    /// Every season of the game, oldest first.
    pub seasons: Vec<Season>,
}

/// The board of `game`: its open season's, or the season named `season`
/// ([`Error::NoSeason`] if it has none of that name). Reads the standings,
/// never the results, so its cost grows with the bots alone.
pub fn game_board(store: &Store, game: &str, season: Option<&str>) -> Result<GameBoard, Error> {
    let info = ludus_engine::registry::info(game)?;
    let seasons = season::seasons(store, game)?;
    let shown = season::pick(&seasons, game, season)?;
    let open = shown.as_ref().is_none_or(Season::is_open);
    // Read once: the open season's board and how many bots it needs.
    let field = match open {
        true => Some(continuous::field(store, game)?),
        false => None,
    };
    let board = match (&shown, &field) {
        (Some(s), Some(field)) => current_standings(store, s.ladder, field)?,
        (Some(s), None) => standings(store, s.ladder, Listed::Final)?,
        (None, _) => waiting(store, game)?,
    };
    Ok(GameBoard {
        needs: field.map_or(0, |f| f.needs(info.fewest_seats()) as u32),
        paused: open && season::paused(store, game)?,
        season: shown,
        open,
        board,
        seasons,
    })
}

/// The ladder's bots ranked by its stored ratings, with their counts of
/// rated matches: read from the ratings and the ladder's bots alone,
/// whatever the length of its schedule. `played` is left at 0: only
/// [`leaderboard`] reads the results.
pub fn standings(store: &Store, id: i64, listed: Listed) -> Result<Leaderboard, Error> {
    let record = store.ladders().get(id)?;
    let field = match listed {
        Listed::Current => Some(continuous::field(store, &record.game)?),
        Listed::All | Listed::Final => None,
    };
    standings_of(store, record, listed, field.as_ref())
}

/// The [`Listed::Current`] standings of ladder `id` of a game whose
/// `field` the caller has read already (a page that also says how many
/// bots the game needs reads it once).
pub fn current_standings(store: &Store, id: i64, field: &Field) -> Result<Leaderboard, Error> {
    standings_of(
        store,
        store.ladders().get(id)?,
        Listed::Current,
        Some(field),
    )
}

/// [`standings`] of the ladder `record`, `field` given for
/// [`Listed::Current`].
fn standings_of(
    store: &Store,
    record: LadderRecord,
    listed: Listed,
    field: Option<&Field>,
) -> Result<Leaderboard, Error> {
    let id = record.id;
    let system = System::ranking(record.players);
    let ranking = store.ratings().get(id, system.key())?;
    let elo = store.ratings().get(id, System::Elo.key())?;
    let games = store.ratings().rated_counts(id)?;
    let keep = current_versions(&record, listed, field);
    let initial = EloConfig::default().initial;
    let house = match (listed, field) {
        (Listed::Current, Some(f)) => f.house.clone(),
        (Listed::All, _) => Default::default(),
        _ => crate::house::bots(store)?,
    };
    // Every owner in one read, not one a row: a board of a hundred bots
    // was a hundred round trips to PostgreSQL.
    let owners: std::collections::BTreeMap<String, String> = match listed {
        Listed::All => Default::default(),
        Listed::Current | Listed::Final => store
            .accounts()
            .owners()?
            .into_iter()
            .map(|(bot, o)| (bot, o.owner))
            .collect(),
    };
    let mut rows = Vec::new();
    for (position, b) in record.bots.iter().enumerate() {
        if !keep.contains(&position) {
            continue;
        }
        let rated =
            |rows: &[crate::store::RatingRow]| rows.iter().find(|r| r.0 == position).copied();
        let owner = owners.get(&b.name).cloned();
        rows.push(Row {
            rank: 0,
            bot: b.name.clone(),
            version: b.version,
            sha256: b.sha256.clone(),
            house: house.contains(&b.name),
            owner,
            rating: rated(&ranking).map_or(0.0, |r| r.1),
            interval: rated(&ranking).map_or(0.0, |r| r.2),
            elo: rated(&elo).map_or(initial, |r| r.1),
            games: games.get(position).copied().unwrap_or(0),
            results: None,
        });
    }
    rank(&mut rows);
    let info = ludus_engine::registry::info(&record.game).ok();
    Ok(Leaderboard {
        ladder: Some(id),
        game: record.game.clone(),
        kind: record.kind.clone(),
        players: record.players,
        rounds: record.rounds,
        seed: record.seed,
        played: 0,
        scheduled: store.ladders().schedule_len(id)? as usize,
        rated: record.rated_through,
        rating_system: system.describe().into(),
        score_unit: info.map_or("score", |g| g.score_unit).into(),
        rows,
        matches: Vec::new(),
    })
}

/// The ladder positions a board lists: for [`Listed::Current`], the
/// versions of `field` (the latest of every bot not retired).
fn current_versions(record: &LadderRecord, listed: Listed, field: Option<&Field>) -> Vec<usize> {
    let all = 0..record.bots.len();
    match (listed, field) {
        (Listed::All, _) => all.collect(),
        (Listed::Current, Some(field)) => all
            .filter(|&p| {
                let b = &record.bots[p];
                field
                    .latest
                    .iter()
                    .any(|l| l.name == b.name && l.version == b.version)
            })
            .collect(),
        // The last version of each bot in the ladder: a closed season as
        // it ended (and a current board without its field, which
        // `standings` never asks for).
        _ => {
            let last = |p: usize| {
                let b = &record.bots[p];
                !record
                    .bots
                    .iter()
                    .any(|o| o.name == b.name && o.version > b.version)
            };
            all.filter(|&p| last(p)).collect()
        }
    }
}

/// Best rating first; the name breaks ties, so the order is total.
fn rank(rows: &mut [Row]) {
    rows.sort_by(|a, b| {
        b.rating
            .total_cmp(&a.rating)
            .then_with(|| a.bot.cmp(&b.bot))
    });
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i as u32 + 1;
    }
}

/// The leaderboard of ladder `id`: its [`standings`], each bot's results
/// over every match with an outcome, and the list of those matches.
pub fn leaderboard(store: &Store, id: i64) -> Result<Leaderboard, Error> {
    let mut board = standings(store, id, Listed::All)?;
    let record = store.ladders().get(id)?;
    let schedule = store.ladders().schedule(id)?;
    let results = store.results().all(id)?;
    let n = record.bots.len();
    let mut stats = vec![
        Results {
            refused: Some(0),
            ..Results::default()
        };
        n
    ];
    let mut seated = vec![0u32; n];
    let mut score_sum = vec![0.0; n];
    let mut points_sum = vec![0.0; n];
    for r in results.iter().filter(|r| r.aborted.is_none()) {
        let seats = &schedule[r.index as usize].seats;
        // Bots (not seats: copies of one bot are one) placed first.
        let mut firsts: Vec<usize> = (0..seats.len())
            .filter(|&seat| r.placements.get(seat) == Some(&1))
            .map(|seat| seats[seat])
            .collect();
        firsts.sort_unstable();
        firsts.dedup();
        let firsts = firsts.len();
        let place = |seat: usize| r.placements.get(seat).copied().unwrap_or(u32::MAX);
        for (seat, &bot) in seats.iter().enumerate() {
            let s = &mut stats[bot];
            s.faults += r.faults.get(seat).copied().unwrap_or(0);
            s.refused = match (s.refused, r.refused.get(seat)) {
                (Some(n), Some(&m)) => Some(n + m),
                _ => None,
            };
            // A bot seated several times (a house bot's copies) plays one
            // match: it counts once, at its best-placed seat, as it is rated.
            let best = (0..seats.len())
                .filter(|&o| seats[o] == bot)
                .min_by_key(|&o| (place(o), o));
            if best != Some(seat) {
                continue;
            }
            seated[bot] += 1;
            match r.placements.get(seat) {
                Some(1) if firsts == 1 => s.wins += 1,
                Some(1) => s.draws += 1,
                _ => s.losses += 1,
            }
            score_sum[bot] += r.scores.get(seat).copied().unwrap_or(0.0);
            points_sum[bot] += result_points(&r.placements, seat);
        }
    }
    for row in &mut board.rows {
        // Rows are ranked; positions are found by version.
        let position = record
            .bots
            .iter()
            .position(|b| b.name == row.bot && b.version == row.version)
            .expect("a row is a bot of the ladder");
        let mut s = stats[position].clone();
        let games = seated[position];
        if games > 0 {
            s.score = score_sum[position] / games as f64;
            s.score_pct = 100.0 * points_sum[position] / games as f64;
        }
        row.games = games;
        row.results = Some(s);
    }
    board.matches = results
        .iter()
        .map(|r| {
            let m = &schedule[r.index as usize];
            MatchLine {
                index: r.index,
                seed: m.seed,
                seats: seat_names(&record, &m.seats),
                placements: r.placements.clone(),
                turns: r.turns,
                reason: r.aborted.clone().unwrap_or_else(|| r.reason.clone()),
                match_id: r.match_id.clone(),
            }
        })
        .collect();
    board.played = results.len();
    board.scheduled = schedule.len();
    Ok(board)
}

/// The names of the bots in `seats` (ladder positions), in seat order.
fn seat_names(record: &LadderRecord, seats: &[usize]) -> Vec<String> {
    seats.iter().map(|&b| record.bots[b].name.clone()).collect()
}

/// The latest version of every stored bot, game by game, by name.
pub fn bots(store: &Store) -> Result<Vec<BotRecord>, Error> {
    let mut out = Vec::new();
    for game in ludus_engine::games() {
        out.extend(store.bots().latest(game.id)?);
    }
    Ok(out)
}

/// A scheduled match of a ladder and, once played, its result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListedMatch {
    pub index: u32,
    #[serde(with = "crate::exact")]
    pub seed: u64,
    /// Bot names, in seat order.
    pub seats: Vec<String>,
    /// `None` until the match is played.
    pub played: Option<Played>,
}

/// What a played match came to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Played {
    pub placements: Vec<u32>,
    pub turns: u32,
    /// Why it ended, or why it was aborted.
    pub reason: String,
    pub match_id: String,
}

/// A ladder's scheduled matches, as `ludus matches` lists them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchList {
    pub ladder: LadderRecord,
    /// In schedule order.
    pub matches: Vec<ListedMatch>,
}

/// Every scheduled match of ladder `ladder` (or the latest, of `game` if
/// given), in schedule order; only those with bot `bot` in a seat when it
/// is given.
pub fn list_matches(
    store: &Store,
    ladder: Option<i64>,
    game: Option<&str>,
    bot: Option<&str>,
) -> Result<MatchList, Error> {
    let id = crate::ladder::pick(store, ladder, game)?;
    let record = store.ladders().get(id)?;
    if let Some(name) = bot {
        if !record.bots.iter().any(|b| b.name == name) {
            return Err(Error::NotInLadder {
                ladder: id,
                name: name.into(),
                bots: record
                    .bots
                    .iter()
                    .map(|b| b.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    let matches = store
        .results()
        .with_schedule(id)?
        .into_iter()
        .map(|(m, result)| ListedMatch {
            index: m.index,
            seed: m.seed,
            seats: seat_names(&record, &m.seats),
            played: result.map(|r| Played {
                placements: r.placements,
                turns: r.turns,
                reason: r.aborted.unwrap_or(r.reason),
                match_id: r.match_id,
            }),
        })
        .filter(|m| bot.is_none_or(|name| m.seats.iter().any(|s| s == name)))
        .collect();
    Ok(MatchList {
        ladder: record,
        matches,
    })
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Csv,
    Markdown,
    Html,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "table" => Format::Table,
            "json" => Format::Json,
            "csv" => Format::Csv,
            "markdown" | "md" => Format::Markdown,
            "html" => Format::Html,
            other => {
                return Err(format!(
                    "unknown format `{other}`; use table, json, csv, markdown or html"
                ))
            }
        })
    }
}

/// Columns of the table; `SCORE` is headed with the game's unit.
const COLUMNS: usize = 13;
const SCORE: usize = 9;
const HEADERS: [&str; COLUMNS] = [
    "rank", "bot", "rating", "±", "elo", "games", "wins", "draws", "losses", "score", "score %",
    "faults", "refused",
];

impl Row {
    /// The row's cells, as the table, Markdown and HTML show them; a board
    /// without results leaves their cells empty.
    pub fn cells(&self) -> [String; COLUMNS] {
        let r = self.results.as_ref();
        let or_blank = |f: &dyn Fn(&Results) -> String| r.map_or(String::new(), f);
        [
            self.rank.to_string(),
            format!("{} v{}", self.bot, self.version),
            fixed(self.rating, 1),
            fixed(self.interval, 1),
            fixed(self.elo, 0),
            self.games.to_string(),
            or_blank(&|r| r.wins.to_string()),
            or_blank(&|r| r.draws.to_string()),
            or_blank(&|r| r.losses.to_string()),
            or_blank(&|r| fixed(r.score, 1)),
            or_blank(&|r| fixed(r.score_pct, 1)),
            or_blank(&|r| r.faults.to_string()),
            or_blank(&|r| r.refused.map_or("?".into(), |n| n.to_string())),
        ]
    }
}

impl Leaderboard {
    /// The column headers, the score column named after the game's unit.
    pub fn headers(&self) -> [&str; COLUMNS] {
        let mut h = HEADERS;
        h[SCORE] = &self.score_unit;
        h
    }

    /// What the score columns mean, for a line under the table.
    pub fn legend(&self) -> String {
        format!(
            "{}: mean final {} per game; score %: share of result points (win 1, draw ½, loss 0; \
             with more seats, the share of opponents finished ahead of, a tie counting half)",
            self.score_unit, self.score_unit
        )
    }

    pub fn title(&self) -> String {
        format!(
            "{} {} ladder {} ({} seats, {}, seed {}): {}/{} matches played",
            self.game,
            self.kind,
            self.ladder
                .map_or_else(|| "-".to_string(), |l| l.to_string()),
            self.players,
            count(self.rounds.into(), "round", "rounds"),
            self.seed,
            self.played,
            self.scheduled
        )
    }

    /// Renders in a text `format`; `None` for [`Format::Html`], whose page
    /// (with each match's replay page) the viewer writes.
    pub fn render(&self, format: Format) -> Option<String> {
        Some(match format {
            Format::Table => self.table(),
            Format::Json => serde_json::to_string_pretty(self).expect("serialises") + "\n",
            Format::Csv => self.csv(),
            Format::Markdown => self.markdown(),
            Format::Html => return None,
        })
    }

    fn table(&self) -> String {
        let headers = self.headers();
        let rows: Vec<[String; COLUMNS]> = self.rows.iter().map(Row::cells).collect();
        let width = |i: usize| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([headers[i].chars().count()])
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..COLUMNS).map(width).collect();
        let mut out = format!("{}\nrated by {}\n", self.title(), self.rating_system);
        let line = |cells: &[String]| {
            cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if i == 1 {
                        format!("{c:<w$}", w = widths[i])
                    } else {
                        format!("{c:>w$}", w = widths[i])
                    }
                })
                .collect::<Vec<_>>()
                .join("  ")
        };
        out.push_str(&line(&headers.map(String::from)));
        out.push('\n');
        for r in &rows {
            out.push_str(&line(r));
            out.push('\n');
        }
        out.push_str(&self.legend());
        out.push('\n');
        out
    }

    /// CSV with full precision (each number as the shortest text that reads
    /// back to it) and the sha256 of each bot, quoted by the `csv` crate
    /// wherever a name needs it.
    fn csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let unit = self.score_unit.as_str();
        w.write_record([
            "rank",
            "bot",
            "version",
            "sha256",
            "rating",
            "interval",
            "elo",
            "games",
            "wins",
            "draws",
            "losses",
            unit,
            "score_pct",
            "faults",
            "refused",
        ])
        .expect("writing to a Vec");
        for r in &self.rows {
            let s = r.results.clone().unwrap_or_default();
            w.write_record([
                r.rank.to_string(),
                r.bot.clone(),
                r.version.to_string(),
                r.sha256.clone(),
                r.rating.to_string(),
                r.interval.to_string(),
                r.elo.to_string(),
                r.games.to_string(),
                s.wins.to_string(),
                s.draws.to_string(),
                s.losses.to_string(),
                s.score.to_string(),
                s.score_pct.to_string(),
                s.faults.to_string(),
                s.refused.map_or(String::new(), |n| n.to_string()),
            ])
            .expect("writing to a Vec");
        }
        String::from_utf8(w.into_inner().expect("writing to a Vec")).expect("UTF-8 in, UTF-8 out")
    }

    fn markdown(&self) -> String {
        let mut out = format!(
            "## {}\n\nRated by {}.\n\n",
            self.title(),
            self.rating_system
        );
        out.push_str(&format!("| {} |\n", self.headers().join(" | ")));
        out.push_str(&format!("|{}\n", "---|".repeat(COLUMNS)));
        for r in &self.rows {
            let c = r.cells().map(|c| c.replace('|', "\\|"));
            out.push_str(&format!("| {} |\n", c.join(" | ")));
        }
        out.push_str(&format!("\n{}\n", self.legend()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rating: f64, elo: f64, score: f64) -> Leaderboard {
        Leaderboard {
            ladder: Some(1),
            game: "planet-wars".into(),
            kind: "round-robin".into(),
            players: 2,
            rounds: 1,
            seed: 7,
            played: 1,
            scheduled: 1,
            rated: 1,
            rating_system: "Bradley-Terry".into(),
            score_unit: "share".into(),
            rows: vec![Row {
                rank: 1,
                bot: "alpha".into(),
                version: 1,
                sha256: "ab".repeat(32),
                owner: None,
                house: false,
                rating,
                interval: 0.04,
                elo,
                games: 3,
                results: Some(Results {
                    wins: 1,
                    draws: 0,
                    losses: 2,
                    score,
                    score_pct: 100.0 * score,
                    faults: 0,
                    refused: Some(0),
                }),
            }],
            matches: Vec::new(),
        }
    }

    #[test]
    fn tables_round_numbers_and_never_print_minus_zero_while_json_and_csv_stay_exact() {
        let lb = board(-0.0, 2169.2321484071485, 1.0 / 3.0);
        let cells = lb.rows[0].cells();
        assert_eq!(cells[2..5], ["0.0", "0.0", "2169"]);
        assert_eq!(cells[9..11], ["0.3", "33.3"]);
        let near_zero = board(-0.04, 1500.0, 0.0).rows[0].cells();
        assert_eq!(near_zero[2], "0.0");
        for format in [Format::Table, Format::Markdown] {
            let text = lb.render(format).unwrap();
            assert!(!text.contains("-0.0"), "{text}");
            assert!(!text.contains("0.3333"), "{text}");
            assert!(text.contains("(2 seats, 1 round, seed 7)"), "{text}");
        }
        let json = lb.render(Format::Json).unwrap();
        let back: Leaderboard = serde_json::from_str(&json).unwrap();
        assert_eq!(back, lb);
        let csv = lb.render(Format::Csv).unwrap();
        let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        assert_eq!(row[6].parse::<f64>().unwrap(), 2169.2321484071485);
        assert_eq!(row[11].parse::<f64>().unwrap(), 1.0 / 3.0);
    }

    #[test]
    fn result_points_are_one_for_a_win_half_for_a_draw_and_by_place_for_more_seats() {
        assert_eq!(result_points(&[1, 2], 0), 1.0);
        assert_eq!(result_points(&[1, 2], 1), 0.0);
        assert_eq!(result_points(&[1, 1], 0), 0.5);
        // Four seats: the share of opponents finished ahead of, ties half.
        assert_eq!(result_points(&[1, 2, 3, 4], 1), 2.0 / 3.0);
        assert_eq!(result_points(&[1, 1, 3, 4], 0), 2.5 / 3.0);
        assert_eq!(result_points(&[1, 1, 1, 1], 2), 0.5);
        assert_eq!(result_points(&[2, 1, 2, 4], 3), 0.0);
        // A foreign result with too few places counts nothing, never panics.
        assert_eq!(result_points(&[1], 3), 0.0);
    }
}
