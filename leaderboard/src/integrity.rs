//! The database's invariants, checked and repaired: `ludus ladder check`,
//! `ludus ladder repair`, and the server's watch of a live database.
//!
//! [`check`] reads, in one read-only snapshot (PostgreSQL: one
//! `REPEATABLE READ READ ONLY` transaction; SQLite: one read transaction),
//! what must hold of every ladder whatever its workers did, and says for
//! each invariant how many rows it checked and which, if any, do not hold,
//! each in one line that names the ladder and the match or bot:
//!
//! - [`SCHEDULE`]: the match indices are exactly 0 to n − 1, each once;
//! - [`DONE_RESULTS`]: a match marked done has a result (a void match its
//!   void result), and a result belongs to a match marked done;
//! - [`RATED_PREFIX`]: the ratings cover only finished matches: every
//!   match before `rated_through` is done;
//! - [`SEAT_ELO`]: every rated match before `rated_through` (neither void
//!   nor aborted) has each seat's Elo after it recorded in the seat index,
//!   equal to the Elo recomputed from the results, bit for bit, and no
//!   other match before it has one (a match that rating skipped has none);
//! - [`RATINGS`]: the stored Elo ratings equal [`crate::ratings::recompute`],
//!   bit for bit (every ladder but a challenge's, which is never rated);
//! - [`COUNTERS`]: each bot's counts of scheduled and rated matches equal
//!   the counts over the seat index (a bot seated twice in a match counts
//!   once);
//! - [`CHALLENGE`]: an ended challenge's stored verdict and reason (its
//!   tally: the pairs after which the SPRT decided, the games played) are
//!   those its results give;
//! - [`WASM`], with [`CheckOptions::bytes`] only (it reads every bot's
//!   bytes): every stored bot's wasm hashes to the sha256 it is stored
//!   under.
//!
//! It reports each ladder's rating lag besides: the matches finished at or
//! after `rated_through`, which a worker rates within a second or so. It
//! never writes, takes no lock, and reads each ladder's rows about once
//! (`docs/benchmarks.md` has its time on 100 000 matches), so a server
//! runs it every minute.
//!
//! [`repair`] re-rates each ladder whose ratings do not hold (skipped
//! matches, a wrong Elo, a rated prefix past the finished one, wrong
//! counts of rated matches) from its last consistent point: under the
//! ladder's rating lock, in one transaction, the ratings are set back to
//! those after the matches before the first index whose Elo is missing or
//! wrong (0 is always consistent), and [`crate::ratings::apply`]d from
//! there; afterwards the stored ratings equal the recomputed ones.

use crate::challenge::{self, Test, Verdict, STOPPED};
use crate::error::Error;
use crate::ratings::history::{elo_history, rated_seats};
use crate::ratings::{apply_locked, games_of, recomputed, save_elo, Fit, GameResult};
use crate::store::integrity::ScheduleFigures;
use crate::store::{ChallengeRow, LadderRecord, Store, CHALLENGE_KIND};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The match indices are exactly 0 to n − 1, each once.
pub const SCHEDULE: &str = "schedule";
/// A match marked done has exactly one result, and a result's match is done.
pub const DONE_RESULTS: &str = "done_results";
/// Every match before `rated_through` is done.
pub const RATED_PREFIX: &str = "rated_prefix";
/// Every rated match before `rated_through` has its seats' Elo recorded, as recomputed.
pub const SEAT_ELO: &str = "seat_elo";
/// The stored Elo ratings equal the recomputed ones, bit for bit.
pub const RATINGS: &str = "ratings";
/// Each bot's counts of scheduled and rated matches equal the seat index's.
pub const COUNTERS: &str = "counters";
/// An ended challenge's verdict and reason are those its results give.
pub const CHALLENGE: &str = "challenge";
/// Every stored bot's wasm hashes to its sha256.
pub const WASM: &str = "wasm";

/// Violations listed per invariant at most; the count goes on.
pub const MAX_LISTED: usize = 100;

/// Matches of the seat index read at once.
const SEATS_AT_ONCE: u32 = 16_384;

/// Which ladders to check or repair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Which {
    /// One ladder, by id.
    Ladder(i64),
    /// A game's continuous ladder (its open season), or else its latest.
    Game(String),
    /// Every ladder of the database.
    All,
}

/// What [`check`] reads besides the ladders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckOptions {
    /// Hash every stored bot's wasm ([`WASM`]): reads every bot's bytes.
    pub bytes: bool,
}

/// One invariant of one ladder (or of the bots): how many rows it checked
/// and what does not hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Invariant {
    /// [`SCHEDULE`], [`DONE_RESULTS`], ...
    pub name: &'static str,
    /// How many rows it checked, in `unit`.
    pub checked: u64,
    /// What `checked` counts: `matches`, `rated matches`, `bots`, ...
    pub unit: &'static str,
    /// Each violation in one line naming the ladder and the match or bot;
    /// [`MAX_LISTED`] at most, then a line that says how many more.
    pub violations: Vec<String>,
    /// How many violations were found (the listed ones and the others).
    pub violated: u64,
}

impl Invariant {
    fn new(name: &'static str, checked: u64, unit: &'static str) -> Invariant {
        Invariant {
            name,
            checked,
            unit,
            violations: Vec::new(),
            violated: 0,
        }
    }

    /// Whether it holds.
    pub fn holds(&self) -> bool {
        self.violated == 0
    }

    fn violation(&mut self, line: String) {
        self.violated += 1;
        if self.violations.len() < MAX_LISTED {
            self.violations.push(line);
        }
    }

    /// Closes the list: a line for the violations not listed.
    fn close(mut self) -> Invariant {
        let listed = self.violations.len() as u64;
        if self.violated > listed {
            self.violations
                .push(format!("… and {} more", self.violated - listed));
        }
        self
    }
}

/// What [`check`] found of one ladder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LadderReport {
    pub ladder: i64,
    pub game: String,
    pub kind: String,
    /// A continuous ladder's season name, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub season: Option<String>,
    /// Matches in its schedule.
    pub matches: u32,
    /// The ratings cover the matches before this index.
    pub rated_through: u32,
    /// Every match before this index is done.
    pub finished_prefix: u32,
    /// Each invariant, in the order of the module's list.
    pub invariants: Vec<Invariant>,
    /// Matches finished at or after `rated_through`: done, not yet rated
    /// (0 for a challenge's ladder, never rated).
    pub rating_lag: u32,
    /// What holds for now and is not a violation (ratings set back by a
    /// verification, to be applied again; a challenge decided, to be
    /// ended by the scheduler's next look).
    pub notes: Vec<String>,
}

impl LadderReport {
    /// Violations over its invariants.
    pub fn violations(&self) -> u64 {
        self.invariants.iter().map(|i| i.violated).sum()
    }
}

/// What [`check`] found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub ladders: Vec<LadderReport>,
    /// The stored bots' wasm ([`WASM`]), when [`CheckOptions::bytes`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bots: Option<Invariant>,
    /// Violations in all.
    pub violations: u64,
    /// How long the check took, in seconds.
    pub seconds: f64,
}

impl Report {
    fn new(ladders: Vec<LadderReport>, bots: Option<Invariant>, took: Duration) -> Report {
        let violations = ladders.iter().map(LadderReport::violations).sum::<u64>()
            + bots.as_ref().map_or(0, |b| b.violated);
        Report {
            ladders,
            bots,
            violations,
            seconds: took.as_secs_f64(),
        }
    }

    /// Whether every invariant holds.
    pub fn holds(&self) -> bool {
        self.violations == 0
    }

    /// Every violation line, each after its invariant's name.
    pub fn violation_lines(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.ladders
            .iter()
            .flat_map(|l| l.invariants.iter())
            .chain(self.bots.iter())
            .flat_map(|i| i.violations.iter().map(move |v| (i.name, v.as_str())))
    }

    /// Per game, the rating lag over its ladders.
    pub fn rating_lag_by_game(&self) -> BTreeMap<&str, u64> {
        let mut lag = BTreeMap::new();
        for l in &self.ladders {
            *lag.entry(l.game.as_str()).or_default() += u64::from(l.rating_lag);
        }
        lag
    }
}

/// Checks the invariants of the ladders `which` names (and with
/// `options.bytes` the stored bots' wasm), reading in one read-only
/// snapshot: never writes, takes no lock.
pub fn check(store: &Store, which: &Which, options: CheckOptions) -> Result<Report, Error> {
    let started = Instant::now();
    store.integrity().snapshot(|| {
        let ids = ladders_of(store, which)?;
        let mut ladders = Vec::with_capacity(ids.len());
        for id in &ids {
            ladders.push(check_ladder(store, *id)?);
        }
        let bots = match options.bytes {
            true => Some(check_wasm(store, which, &ids)?),
            false => None,
        };
        Ok(Report::new(ladders, bots, started.elapsed()))
    })
}

/// The ids of the ladders `which` names, oldest first.
fn ladders_of(store: &Store, which: &Which) -> Result<Vec<i64>, Error> {
    let ladders = store.ladders();
    Ok(match which {
        Which::Ladder(id) => vec![ladders.get(*id)?.id],
        Which::Game(game) => {
            ludus_engine::registry::info(game)?;
            vec![match ladders.continuous(game)? {
                Some(id) => id,
                None => ladders.pick(None, Some(game))?,
            }]
        }
        Which::All => ladders.ids()?,
    })
}

/// A ladder's name in a violation's line.
fn named(record: &LadderRecord) -> String {
    format!("ladder {} ({} {})", record.id, record.game, record.kind)
}

/// A ladder bot's name in a violation's line.
fn bot_named(record: &LadderRecord, position: usize) -> String {
    match record.bots.get(position) {
        Some(b) => format!("bot {} v{} (position {position})", b.name, b.version),
        None => format!("the bot at position {position}, which the ladder does not have"),
    }
}

/// The end of the finished prefix, as [`crate::store::Queue::finished_prefix`]
/// counts it: the first match not done, or the schedule's length.
fn finished_prefix(fig: &ScheduleFigures) -> u32 {
    fig.first_open
        .map_or(fig.matches, |i| i.clamp(0, i64::from(u32::MAX)) as u32)
}

fn check_ladder(store: &Store, id: i64) -> Result<LadderReport, Error> {
    let record = store.ladders().get(id)?;
    let season = store.ladders().season_of(id)?.and_then(|s| s.name);
    let name = named(&record);
    let integrity = store.integrity();
    let through = record.rated_through;
    let fig = integrity.schedule_figures(id, through)?;
    let finished = finished_prefix(&fig);
    let rated = record.kind != CHALLENGE_KIND;
    let mut notes = Vec::new();

    let mut invariants = vec![check_schedule(store, &name, id, &fig)?];

    let mut done = Invariant::new(DONE_RESULTS, u64::from(fig.matches), "matches");
    let mismatches = integrity.done_mismatches(id)?;
    for index in mismatches.done_without_result {
        done.violation(format!(
            "{name}, match {index}: marked done, but has no result"
        ));
    }
    for (index, scheduled) in mismatches.results_not_done {
        done.violation(match scheduled {
            true => format!("{name}, match {index}: has a result, but is not marked done"),
            false => format!("{name}: a result of match {index}, which the schedule does not have"),
        });
    }
    invariants.push(done.close());

    let mut prefix = Invariant::new(RATED_PREFIX, u64::from(through), "matches");
    if through > finished {
        prefix.violation(match fig.first_open {
            Some(_) => format!(
                "{name}: the ratings cover the matches before {through}, but match {finished} is not done (the finished prefix ends there)"
            ),
            None => format!(
                "{name}: the ratings cover the matches before {through}, past the end of its schedule of {} matches",
                fig.matches
            ),
        });
    }
    invariants.push(prefix.close());

    let state = read_ratings(store, &record, &fig)?;
    if rated {
        invariants.push(state.seat_elo(&name));
        let mut ratings = Invariant::new(RATINGS, record.bots.len() as u64, "bots");
        match &state.recomputed {
            Err(e) => ratings.violation(format!("{name}: the Elo cannot be recomputed: {e}")),
            Ok(_) if state.elo_past_through > 0 => notes.push(format!(
                "the ratings were set back to match {through} (a verified result replaced one), and {} matches after it keep their earlier Elo: the next application rates them again, and the stored ratings are compared then",
                state.elo_past_through
            )),
            Ok(r) => {
                for (position, (bot, stored, computed)) in r.bots.iter().enumerate() {
                    let who = format!("bot {} v{} (position {position})", bot.name, bot.version);
                    match stored {
                        Some(s) if s.to_bits() != computed.to_bits() => ratings.violation(format!(
                            "{name}, {who}: stored Elo {s:?} differs from {computed:?}, recomputed from its results over the matches before {through}"
                        )),
                        None if state.rated_games_of(position) > 0 => ratings.violation(format!(
                            "{name}, {who}: no stored Elo, yet {} of its matches before {through} are rated (recomputed: {computed:?})",
                            state.rated_games_of(position)
                        )),
                        _ => {}
                    }
                }
            }
        }
        invariants.push(ratings.close());
    }
    invariants.push(state.counters(&name, &record, &integrity.counters(id)?));
    if !rated {
        let (challenge, note) = check_challenge(store, &record)?;
        invariants.push(challenge);
        notes.extend(note);
    }
    Ok(LadderReport {
        ladder: id,
        game: record.game.clone(),
        kind: record.kind.clone(),
        season,
        matches: fig.matches,
        rated_through: through,
        finished_prefix: finished,
        invariants,
        rating_lag: if rated { fig.done_from } else { 0 },
        notes,
    })
}

fn check_schedule(
    store: &Store,
    name: &str,
    id: i64,
    fig: &ScheduleFigures,
) -> Result<Invariant, Error> {
    let mut schedule = Invariant::new(SCHEDULE, u64::from(fig.matches), "matches");
    let n = i64::from(fig.matches);
    let exact = fig.matches == 0 || (fig.first == Some(0) && fig.last == Some(n - 1));
    if !exact {
        // Indices are unique (the primary key): some are out of 0 to n − 1,
        // and as many in it are missing.
        let indices = store.integrity().indices(id)?;
        let mut expected = 0i64;
        for &i in &indices {
            if !(0..n).contains(&i) {
                schedule.violation(format!(
                    "{name}: match index {i} is outside 0 to {} (the schedule has {} matches)",
                    n - 1,
                    fig.matches
                ));
                continue;
            }
            while expected < i {
                schedule.violation(format!(
                    "{name}: match index {expected} is missing from the schedule of {} matches",
                    fig.matches
                ));
                expected += 1;
            }
            expected = i + 1;
        }
        while expected < n {
            schedule.violation(format!(
                "{name}: match index {expected} is missing from the schedule of {} matches",
                fig.matches
            ));
            expected += 1;
        }
    }
    Ok(schedule.close())
}

/// A ladder's ratings as stored beside those recomputed from its results,
/// and its seat index read once: what [`SEAT_ELO`], [`RATINGS`] and
/// [`COUNTERS`] say, and where a repair starts.
struct RatingState {
    /// The rated games before `rated_through`, in schedule order.
    games: Vec<(u32, GameResult)>,
    /// Per position: rated games before `rated_through` (a bot seated twice
    /// in one, once).
    rated_games: Vec<u32>,
    /// Per match before `rated_through` whose seats' Elo is not the
    /// recomputed one: what is wrong; the first [`MAX_LISTED`], by index.
    seat_problems: BTreeMap<u32, SeatProblems>,
    seat_problem_count: u64,
    /// The match of the last seat found wrong: problems come in (index,
    /// seat) order, so a match is counted once, listed or not.
    last_bad: Option<u32>,
    /// The first such match.
    first_bad_seat: Option<u32>,
    /// Matches at or after `rated_through` with an Elo recorded.
    elo_past_through: u32,
    /// Per position: matches scheduled and rated, over the seat index.
    scheduled: BTreeMap<usize, u32>,
    rated: BTreeMap<usize, u32>,
    /// The stored Elo beside the recomputed one; an error when the results
    /// cannot be rated.
    recomputed: Result<crate::ratings::Recomputed, String>,
    through: u32,
}

impl RatingState {
    /// Before the seat index is read: nothing found wrong yet.
    fn new(
        games: Vec<(u32, GameResult)>,
        rated_games: Vec<u32>,
        recomputed: Result<crate::ratings::Recomputed, String>,
        through: u32,
    ) -> RatingState {
        RatingState {
            games,
            rated_games,
            seat_problems: BTreeMap::new(),
            seat_problem_count: 0,
            last_bad: None,
            first_bad_seat: None,
            elo_past_through: 0,
            scheduled: BTreeMap::new(),
            rated: BTreeMap::new(),
            recomputed,
            through,
        }
    }

    fn rated_games_of(&self, position: usize) -> u32 {
        self.rated_games.get(position).copied().unwrap_or(0)
    }

    fn seat_elo(&self, name: &str) -> Invariant {
        let mut inv = Invariant::new(SEAT_ELO, self.games.len() as u64, "rated matches");
        for (index, problems) in &self.seat_problems {
            inv.violation(format!(
                "{name}, match {index}: {}",
                problems.describe(self.through)
            ));
        }
        inv.violated = self.seat_problem_count;
        inv.close()
    }

    fn counters(
        &self,
        name: &str,
        record: &LadderRecord,
        stored: &[crate::store::integrity::CounterRow],
    ) -> Invariant {
        let mut inv = Invariant::new(COUNTERS, stored.len() as u64, "bots");
        for &(position, scheduled, rated) in stored {
            let who = bot_named(record, position);
            let (s, r) = (
                self.scheduled.get(&position).copied().unwrap_or(0),
                self.rated.get(&position).copied().unwrap_or(0),
            );
            if scheduled != s {
                inv.violation(format!(
                    "{name}, {who}: scheduled_matches is {scheduled}, but the seat index seats it in {s} matches"
                ));
            }
            if rated != r {
                inv.violation(format!(
                    "{name}, {who}: rated_matches is {rated}, but the seat index has its Elo after {r} matches"
                ));
            }
        }
        for position in self.scheduled.keys() {
            if !stored.iter().any(|c| c.0 == *position) {
                inv.violation(format!(
                    "{name}: the seat index seats position {position}, which the ladder has no bot at"
                ));
            }
        }
        inv.close()
    }

    /// Whether the ratings hold: what a repair looks at.
    fn rating_problems(
        &self,
        finished: u32,
        counters: &[crate::store::integrity::CounterRow],
    ) -> Vec<String> {
        let mut why = Vec::new();
        if self.seat_problem_count > 0 {
            why.push(format!(
                "{} rated matches without their recomputed Elo, the first {}",
                self.seat_problem_count,
                self.first_bad_seat.unwrap_or(0)
            ));
        }
        if self.through > finished {
            why.push(format!(
                "ratings cover the matches before {}, past the finished prefix ({finished})",
                self.through
            ));
        }
        match &self.recomputed {
            Err(e) => why.push(format!("the Elo cannot be recomputed: {e}")),
            Ok(r) if self.elo_past_through == 0 => {
                let differ = r
                    .bots
                    .iter()
                    .enumerate()
                    .filter(|(p, (_, s, c))| match s {
                        Some(s) => s.to_bits() != c.to_bits(),
                        None => self.rated_games_of(*p) > 0,
                    })
                    .count();
                if differ > 0 {
                    why.push(format!("{differ} stored Elo ratings differ"));
                }
                let wrong = counters
                    .iter()
                    .filter(|(p, _, rated)| *rated != self.rated_games_of(*p))
                    .count();
                if wrong > 0 {
                    why.push(format!("{wrong} counts of rated matches differ"));
                }
            }
            Ok(_) => {}
        }
        why
    }
}

/// What is wrong with one seat's Elo.
#[derive(Debug, Clone, Copy)]
enum SeatProblem {
    /// A rated match's seat without an Elo.
    NoElo,
    /// A rated match's seat whose Elo is not the recomputed one: (stored,
    /// recomputed).
    Differs(f64, f64),
    /// A seat of a match not rated with an Elo.
    NotRated(f64),
    /// A rated match's seat the seat index lacks.
    Absent,
}

/// What is wrong with the seats' Elo of one match, seat by seat.
#[derive(Debug, Clone, Default)]
struct SeatProblems(Vec<(usize, SeatProblem)>);

impl SeatProblems {
    /// In one line: the seats of each kind of problem together.
    fn describe(&self, through: u32) -> String {
        let seats = |keep: fn(&SeatProblem) -> bool| -> Vec<String> {
            self.0
                .iter()
                .filter(|(_, p)| keep(p))
                .map(|(s, _)| s.to_string())
                .collect()
        };
        let listed = |seats: Vec<String>| match seats.len() {
            1 => format!("seat {}", seats[0]),
            _ => format!("seats {}", seats.join(", ")),
        };
        let mut parts = Vec::new();
        let no_elo = seats(|p| matches!(p, SeatProblem::NoElo));
        if !no_elo.is_empty() {
            let n = no_elo.len();
            parts.push(format!(
                "rated (neither void nor aborted) and before rated_through {through}, but {} {} no Elo recorded: rating skipped it",
                listed(no_elo),
                if n == 1 { "has" } else { "have" }
            ));
        }
        for (seat, p) in &self.0 {
            match p {
                SeatProblem::Differs(got, want) => parts.push(format!(
                    "seat {seat} has Elo {got:?} recorded, recomputed {want:?}"
                )),
                SeatProblem::NotRated(got) => parts.push(format!(
                    "not rated (void, aborted or without a result), but seat {seat} has Elo {got:?} recorded"
                )),
                _ => {}
            }
        }
        let absent = seats(|p| matches!(p, SeatProblem::Absent));
        if !absent.is_empty() {
            parts.push(format!("{} missing from the seat index", listed(absent)));
        }
        parts.join("; ")
    }
}

/// Records what is wrong with the Elo of seat `seat` of match `index`.
fn problem(state: &mut RatingState, index: u32, seat: usize, what: SeatProblem) {
    if state.first_bad_seat.is_none_or(|f| index < f) {
        state.first_bad_seat = Some(index);
    }
    if state.last_bad.replace(index) != Some(index) {
        state.seat_problem_count += 1;
    }
    let listed = state.seat_problems.len();
    match state.seat_problems.get_mut(&index) {
        Some(problems) => problems.0.push((seat, what)),
        None if listed < MAX_LISTED => {
            state
                .seat_problems
                .insert(index, SeatProblems(vec![(seat, what)]));
        }
        None => {}
    }
}

/// Reads the ladder's rated games before `rated_through` and its seat
/// index (in ranges), and recomputes its Elo from the games alone.
fn read_ratings(
    store: &Store,
    record: &LadderRecord,
    fig: &ScheduleFigures,
) -> Result<RatingState, Error> {
    let id = record.id;
    let through = record.rated_through;
    let n = record.bots.len();
    let rated = record.kind != CHALLENGE_KIND;
    let stored = match rated {
        true => store.results().rated_before(id, through)?,
        false => Vec::new(),
    };
    let games = games_of(&stored);
    let history = elo_history(n, &games, 0).map_err(|e| e.to_string());
    let expected = match &history {
        Ok(h) => rated_seats(&h.after, &stored),
        Err(_) => Vec::new(),
    };
    let recomputed = match history {
        Ok(_) if rated => {
            let plain: Vec<GameResult> = games.iter().map(|(_, g)| g.clone()).collect();
            recomputed(store, record.clone(), &plain).map_err(|e| e.to_string())
        }
        Ok(_) => Err("a challenge's ladder is never rated".into()),
        Err(e) => Err(e),
    };
    let mut rated_games = vec![0u32; n];
    for (_, g) in &games {
        let mut seen = g.bots.clone();
        seen.sort_unstable();
        seen.dedup();
        for p in seen {
            if let Some(c) = rated_games.get_mut(p) {
                *c += 1;
            }
        }
    }
    let mut state = RatingState::new(games, rated_games, recomputed, through);
    // The seats expected before `through`, in (index, seat) order, beside
    // the stored ones in the same order.
    let mut want = expected.iter().peekable();
    // Per position, the last match counted: a bot seated twice counts once.
    let mut last_scheduled: BTreeMap<usize, u32> = BTreeMap::new();
    let mut last_rated: BTreeMap<usize, u32> = BTreeMap::new();
    let mut last_past = None;
    let end = fig
        .last
        .map_or(0, |l| (l.max(-1) + 1).min(i64::from(u32::MAX)) as u32);
    let end = end.max(through);
    let mut from = 0;
    while from < end {
        let to = from.saturating_add(SEATS_AT_ONCE).min(end);
        for (index, seat, position, elo) in store.seats().seats_between(id, from, to)? {
            if last_scheduled.insert(position, index) != Some(index) {
                *state.scheduled.entry(position).or_default() += 1;
            }
            if elo.is_some() && last_rated.insert(position, index) != Some(index) {
                *state.rated.entry(position).or_default() += 1;
            }
            if index >= through {
                if elo.is_some() && last_past != Some(index) {
                    last_past = Some(index);
                    state.elo_past_through += 1;
                }
                continue;
            }
            // Expected seats the index does not have at all.
            while let Some(e) = want.next_if(|e| (e.index, e.seat) < (index, seat)) {
                problem(&mut state, e.index, e.seat, SeatProblem::Absent);
            }
            match (want.next_if(|e| (e.index, e.seat) == (index, seat)), elo) {
                (Some(e), Some(got)) if got.to_bits() == e.elo.to_bits() => {}
                (Some(e), Some(got)) => {
                    problem(&mut state, index, seat, SeatProblem::Differs(got, e.elo))
                }
                (Some(_), None) => problem(&mut state, index, seat, SeatProblem::NoElo),
                (None, Some(got)) => problem(&mut state, index, seat, SeatProblem::NotRated(got)),
                (None, None) => {}
            }
        }
        from = to;
    }
    for e in want {
        problem(&mut state, e.index, e.seat, SeatProblem::Absent);
    }
    Ok(state)
}

/// The challenge whose ladder this is: its stored verdict and reason
/// against those its results give; and a note when it decided and still
/// runs (the scheduler ends it at its next look).
fn check_challenge(
    store: &Store,
    record: &LadderRecord,
) -> Result<(Invariant, Option<String>), Error> {
    let name = named(record);
    let Some(row) = store.challenges().of_ladder(record.id)? else {
        let mut inv = Invariant::new(CHALLENGE, 0, "results");
        inv.violation(format!(
            "{name}: a challenge's ladder that no challenge plays"
        ));
        return Ok((inv.close(), None));
    };
    let status = challenge::status(store, row.id).map_err(|e| Error::StoredLadder {
        ladder: record.id,
        reason: format!("challenge {} cannot be read: {e}", row.id),
    })?;
    let tallied = status
        .matches
        .iter()
        .filter(|m| m.outcome.is_some())
        .count() as u64;
    let mut inv = Invariant::new(CHALLENGE, tallied, "results");
    let counted = status.matches.iter().filter(|m| m.counted).count() as u32;
    let pairs = counted.div_ceil(2);
    let decided = status.sprt.filter(|_| status.pairs > 0).and_then(|t| {
        if t.llr >= t.upper {
            Some((
                "stronger",
                format!("the SPRT accepted H1 after {pairs} pairs"),
            ))
        } else if t.llr <= t.lower {
            Some((
                "not stronger",
                format!("the SPRT accepted H0 after {pairs} pairs"),
            ))
        } else {
            None
        }
    });
    let what = |row: &ChallengeRow| format!("challenge {} ({name})", row.id);
    let mut note = None;
    match (row.verdict.as_deref(), row.ended_reason.as_deref()) {
        (None, _) => {
            if let Some((verdict, reason)) = &decided {
                note = Some(format!(
                    "challenge {} runs, and its results decide `{verdict}` ({reason}): the scheduler ends it at its next look",
                    row.id
                ));
            }
        }
        // Its owner stopped it, whatever the results said then.
        (Some(v), Some(STOPPED)) if v == Verdict::None.as_str() => {}
        (Some(verdict), reason) => {
            let expected = match (&decided, status.test) {
                (Some((v, r)), _) => Some((v.to_string(), r.clone())),
                (None, test) if status.finished >= row.max_games => Some((
                    Verdict::None.as_str().to_string(),
                    match test {
                        Test::Games { games } => format!("played its {games} games"),
                        Test::Sprt(_) => {
                            format!("reached its maximum of {} games undecided", row.max_games)
                        }
                    },
                )),
                (None, _) => None,
            };
            let stored = format!("`{verdict}` ({})", reason.unwrap_or("no reason"));
            match expected {
                Some((v, r)) if v == verdict && Some(r.as_str()) == reason => {}
                Some((v, r)) => inv.violation(format!(
                    "{}: stored verdict {stored}, but its results give `{v}` ({r})",
                    what(&row)
                )),
                None => inv.violation(format!(
                    "{}: stored verdict {stored}, but its results decide nothing yet: {} of its {} games finished, the SPRT undecided",
                    what(&row),
                    status.finished,
                    row.max_games
                )),
            }
        }
    }
    Ok((inv.close(), note))
}

/// Every stored bot's wasm against its sha256: the bots of the ladders
/// checked, or every stored bot when `which` is every ladder.
fn check_wasm(store: &Store, which: &Which, ids: &[i64]) -> Result<Invariant, Error> {
    let hashes: Vec<String> = match which {
        Which::All => store.integrity().bot_hashes()?,
        _ => {
            let mut all = std::collections::BTreeSet::new();
            for id in ids {
                all.extend(store.ladders().get(*id)?.bots.into_iter().map(|b| b.sha256));
            }
            all.into_iter().collect()
        }
    };
    let mut inv = Invariant::new(WASM, hashes.len() as u64, "bots");
    for sha256 in &hashes {
        let short = ludus_host::short_id(sha256);
        match store.integrity().stored_wasm(sha256)? {
            None => inv.violation(format!(
                "bot {short}: a ladder seats it, but the store has no wasm under its sha256"
            )),
            Some((wasm, size)) => {
                let found = ludus_host::sha256_hex(&wasm);
                if &found != sha256 {
                    inv.violation(format!(
                        "bot {short}: its stored wasm hashes to {}, not to the sha256 it is stored under",
                        ludus_host::short_id(&found)
                    ));
                } else if size != wasm.len() as i64 {
                    inv.violation(format!(
                        "bot {short}: its stored size is {size} bytes, its wasm {} bytes",
                        wasm.len()
                    ));
                }
            }
        }
    }
    Ok(inv.close())
}

/// What [`repair`] did to one ladder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Repaired {
    pub ladder: i64,
    pub game: String,
    pub kind: String,
    #[serde(flatten)]
    pub action: Repair,
}

/// What a repair did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Repair {
    /// A challenge's ladder: never rated, nothing to re-rate.
    Unrated,
    /// Its ratings hold: left as they are.
    Consistent { rated_through: u32 },
    /// Re-rated from match `from` (the ratings set back to those after the
    /// matches before it): they covered the matches before `was`, and now
    /// those before `now`; `why` says what did not hold.
    Rerated {
        from: u32,
        was: u32,
        now: u32,
        why: Vec<String>,
    },
}

/// Re-rates each ladder `which` names whose ratings do not hold, from its
/// last consistent point (see the module's documentation), each under its
/// rating lock in one transaction; says what it did to each.
pub fn repair(store: &Store, which: &Which) -> Result<Vec<Repaired>, Error> {
    let ids = ladders_of(store, which)?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let action = store.with_rating_lock(id, |store| repair_locked(store, id))?;
        let record = store.ladders().get(id)?;
        out.push(Repaired {
            ladder: id,
            game: record.game,
            kind: record.kind,
            action,
        });
    }
    Ok(out)
}

fn repair_locked(store: &Store, id: i64) -> Result<Repair, Error> {
    let record = store.ladders().get(id)?;
    if record.kind == CHALLENGE_KIND {
        return Ok(Repair::Unrated);
    }
    let through = record.rated_through;
    let fig = store.integrity().schedule_figures(id, through)?;
    let finished = finished_prefix(&fig);
    let state = read_ratings(store, &record, &fig)?;
    let why = state.rating_problems(finished, &store.integrity().counters(id)?);
    if why.is_empty() {
        return Ok(Repair::Consistent {
            rated_through: through,
        });
    }
    // The last consistent point: every match before it has its Elo as
    // recomputed, and all of them are finished.
    let from = state
        .first_bad_seat
        .unwrap_or(through)
        .min(through)
        .min(finished);
    // The ratings as they were after the matches before `from`: the Elo,
    // each seat's (none at `from` or after) and the counts of rated
    // matches; then applied from there as a worker applies them.
    let before: Vec<(u32, GameResult)> = state
        .games
        .iter()
        .filter(|(i, _)| *i < from)
        .cloned()
        .collect();
    let n = record.bots.len();
    let history = elo_history(n, &before, from)?;
    save_elo(store, id, &history, (from, u32::MAX), &[])?;
    let now = apply_locked(store, id, Fit::Now)?;
    Ok(Repair::Rerated {
        from,
        was: through,
        now,
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Matches with a wrong seat are counted once each, the listed first
    /// [`MAX_LISTED`] and those past them alike, however many seats each.
    #[test]
    fn a_match_with_several_wrong_seats_counts_once_listed_or_not() {
        let mut state = RatingState::new(Vec::new(), Vec::new(), Err(String::new()), 0);
        let matches = MAX_LISTED as u32 + 20;
        for index in 0..matches {
            for seat in 0..3 {
                problem(&mut state, index, seat, SeatProblem::NoElo);
            }
        }
        assert_eq!(state.seat_problem_count, u64::from(matches));
        assert_eq!(state.seat_problems.len(), MAX_LISTED);
        assert_eq!(state.seat_problems[&0].0.len(), 3);
        assert_eq!(state.first_bad_seat, Some(0));
    }
}
