//! What the server keeps beside the ladders: accounts (a token's hash, never
//! the token), which account owns each bot name and whether it is retired,
//! uploads for the daily quota, and the continuous ladders, which grow: a
//! new bot version gets the next position, and scheduled matches are
//! appended to the stored schedule before anyone plays them.
//!
//! The pages look things up by bot, by match id or by the schedule's end,
//! never by reading a ladder's whole schedule: every seat of every match is
//! indexed by its bot (`match_seats`), with the bot's Elo after the match
//! once it is rated, and each ladder bot keeps its count of rated matches.

use super::db::{vals, Db, DbError, Row};
use super::{
    bot_record, match_result, BotRecord, Lock, MatchResult, Needs, NewLadder, Store, StoreError,
};
use crate::ratings::GameResult;
use crate::schedule::ScheduledMatch;
use std::collections::BTreeSet;

/// An account: who may upload and retire bots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub name: String,
    /// sha256 (hex) of the account's token secret.
    pub token_sha256: String,
}

/// Who owns a bot name, and whether the owner retired it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ownership {
    pub account: i64,
    pub owner: String,
    pub retired: bool,
}

/// A bot's seat in a match, with the match and its result.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatedMatch {
    pub scheduled: ScheduledMatch,
    /// The bot's seat.
    pub seat: usize,
    pub result: Option<MatchResult>,
    /// The bot's Elo after the match, once the match is rated.
    pub elo: Option<f64>,
}

/// Elo over a ladder's rated matches, in schedule order.
#[derive(Debug, Clone, PartialEq)]
pub struct EloHistory {
    /// Every bot's rating after the last match, by position.
    pub ratings: Vec<f64>,
    /// Per rated match from the first index asked for on: its index and
    /// each seat's rating after it.
    pub after: Vec<(u32, Vec<f64>)>,
    /// Every bot's number of rated matches, by position.
    pub rated: Vec<u32>,
}

/// Elo of `bots` bots over `rated` (index, game) in schedule order, applied
/// one at a time as [`crate::ratings::elo::elo_ratings`] does, keeping each
/// seat's rating after every match with an index of `from` or more.
pub fn elo_history(
    bots: usize,
    rated: &[(u32, GameResult)],
    from: u32,
) -> Result<EloHistory, crate::ratings::RatingError> {
    let mut elo = crate::ratings::elo::EloLadder::new(bots, Default::default())?;
    let mut history = EloHistory {
        ratings: Vec::new(),
        after: Vec::new(),
        rated: vec![0; bots],
    };
    for (index, game) in rated {
        elo.apply(game)?;
        let mut seen = BTreeSet::new();
        for &p in &game.bots {
            // A bot seated twice plays one match.
            if seen.insert(p) {
                history.rated[p] += 1;
            }
        }
        if *index >= from {
            history
                .after
                .push((*index, game.bots.iter().map(|&p| elo.rating(p)).collect()));
        }
    }
    history.ratings = elo.ratings().to_vec();
    Ok(history)
}

/// Indexes the seats of newly scheduled matches by bot, and counts them
/// in each bot's scheduled matches.
pub(crate) fn index_seats(
    db: &mut Db,
    ladder: i64,
    matches: &[ScheduledMatch],
) -> Result<(), DbError> {
    let mut scheduled = std::collections::BTreeMap::<usize, u32>::new();
    for m in matches {
        for (seat, &position) in m.seats.iter().enumerate() {
            db.execute(
                "INSERT INTO match_seats (ladder_id, idx, seat, position) VALUES ($1, $2, $3, $4)",
                vals![ladder, m.index, seat, position],
            )?;
            // A bot seated twice plays one match.
            if !m.seats[..seat].contains(&position) {
                *scheduled.entry(position).or_default() += 1;
            }
        }
    }
    for (position, n) in scheduled {
        db.execute(
            "UPDATE ladder_bots SET scheduled_matches = scheduled_matches + $3 WHERE ladder_id = $1 AND position = $2",
            vals![ladder, position, n],
        )?;
    }
    Ok(())
}

/// Records the Elo after each rated match from index `from` to `end`, the
/// finished prefix the history covers (the ones in between rated no more
/// are cleared; none after `end` ever had an Elo, as the finished prefix
/// only grows), and each bot's count of rated matches.
pub(crate) fn write_elo_history(
    db: &mut Db,
    ladder: i64,
    (from, end): (u32, u32),
    history: &EloHistory,
) -> Result<(), DbError> {
    db.execute(
        "UPDATE match_seats SET elo = NULL
         WHERE ladder_id = $1 AND idx >= $2 AND idx < $3 AND elo IS NOT NULL",
        vals![ladder, from, end],
    )?;
    // Many seats a statement: a statement's own cost is most of a row's.
    // A chunk is padded to a power of two with copies of its last seat (the
    // same value written twice), so that few statements are prepared.
    const SEATS_AT_ONCE: usize = 256;
    let seats: Vec<(u32, usize, f64)> = history
        .after
        .iter()
        .filter(|a| a.0 >= from)
        .flat_map(|(index, elos)| {
            elos.iter()
                .enumerate()
                .map(|(seat, &elo)| (*index, seat, elo))
        })
        .collect();
    for chunk in seats.chunks(SEATS_AT_ONCE) {
        let mut params = vals![ladder].to_vec();
        let mut rows = Vec::with_capacity(chunk.len());
        let padded = chunk
            .iter()
            .chain(std::iter::repeat(
                chunk.last().expect("chunks are not empty"),
            ))
            .take(chunk.len().next_power_of_two());
        for (k, &(index, seat, elo)) in padded.enumerate() {
            let p = 2 + 3 * k;
            rows.push(format!(
                "(CAST(${} AS {{int}}), CAST(${} AS {{int}}), CAST(${} AS {{real}}))",
                p,
                p + 1,
                p + 2
            ));
            params.extend(vals![index, seat, elo].iter().cloned());
        }
        db.execute(
            &format!(
                "WITH v (idx, seat, elo) AS (VALUES {})
                 UPDATE match_seats SET elo = v.elo FROM v
                 WHERE match_seats.ladder_id = $1 AND match_seats.idx = v.idx AND match_seats.seat = v.seat",
                rows.join(", ")
            ),
            &params,
        )?;
    }
    let stored = db.query(
        "SELECT position, rated_matches FROM ladder_bots WHERE ladder_id = $1",
        vals![ladder],
    )?;
    for row in stored {
        let (position, count) = (row.i64(0)? as usize, row.u32(1)?);
        let now = history.rated.get(position).copied().unwrap_or(0);
        if now != count {
            db.execute(
                "UPDATE ladder_bots SET rated_matches = $3 WHERE ladder_id = $1 AND position = $2",
                vals![ladder, position, now],
            )?;
        }
    }
    Ok(())
}

/// Fills the bot index of a database written before it existed: every
/// ladder's seats, and the Elo history of its rated prefix.
pub(crate) fn index_older_ladders(db: &mut Db) -> Result<(), DbError> {
    for ladder in db.query("SELECT id, rated_through FROM ladders ORDER BY id", &[])? {
        let (id, through) = (ladder.i64(0)?, ladder.u32(1)?);
        let schedule = db
            .query(
                "SELECT idx, grp, seed, seats FROM matches WHERE ladder_id = $1 ORDER BY idx",
                vals![id],
            )?
            .iter()
            .map(scheduled_match)
            .collect::<Result<Vec<_>, _>>()?;
        index_seats(db, id, &schedule)?;
        let bots = db
            .query_opt(
                "SELECT count(*) FROM ladder_bots WHERE ladder_id = $1",
                vals![id],
            )?
            .map_or(Ok(0), |r| r.i64(0))? as usize;
        let mut rated = Vec::new();
        for row in db.query(
            "SELECT idx, match_id, placements, scores, faults, turns, reason, aborted, replay_sha256
             FROM results WHERE ladder_id = $1 AND idx < $2 ORDER BY idx",
            vals![id, through],
        )? {
            let r = match_result(&row)?;
            if r.aborted.is_none() {
                let seats = schedule
                    .get(r.index as usize)
                    .map(|m| m.seats.clone())
                    .unwrap_or_default();
                rated.push((r.index, GameResult::new(seats, r.placements)));
            }
        }
        let history = elo_history(bots, &rated, 0).map_err(|e| DbError::Decode {
            column: 0,
            wanted: "results the Elo history can be computed from",
            found: format!("ladder {id}: {e}"),
        })?;
        write_elo_history(db, id, (0, through), &history)?;
    }
    Ok(())
}

fn scheduled_match(r: &Row) -> Result<ScheduledMatch, DbError> {
    Ok(ScheduledMatch {
        index: r.u32(0)?,
        group: r.u32(1)?,
        seed: r.i64(2)? as u64,
        seats: r.json(3)?,
    })
}

/// A result from the columns at `at` on, when there is one (LEFT JOIN).
fn result_at(r: &Row, at: usize) -> Result<Option<MatchResult>, DbError> {
    if r.opt_text(at + 1)?.is_none() {
        return Ok(None);
    }
    let tail = Row(r.0[at..].to_vec());
    match_result(&tail).map(Some)
}

const RESULT_COLUMNS: &str = "r.idx, r.match_id, r.placements, r.scores, r.faults, r.turns, r.reason, r.aborted, r.replay_sha256";

/// The key of the continuous ladder of `game`.
pub fn continuous_key(game: &str) -> String {
    format!("continuous/{game}")
}

impl Store {
    /// Adds an account; `None` when the name is taken.
    pub fn add_account(
        &mut self,
        name: &str,
        token_sha256: &str,
        now: &str,
    ) -> Result<Option<i64>, StoreError> {
        self.write(|db| {
            Lock::Names.take(db)?;
            if db
                .query_opt("SELECT id FROM accounts WHERE name = $1", vals![name])?
                .is_some()
            {
                return Ok(None);
            }
            let row = db
                .query_opt(
                    "INSERT INTO accounts (name, token_sha256, created_at) VALUES ($1, $2, $3) RETURNING id",
                    vals![name, token_sha256, now],
                )?
                .expect("INSERT … RETURNING gives a row");
            Ok(Some(row.i64(0)?))
        })
    }

    /// The account with this id.
    pub fn account(&self, id: i64) -> Result<Option<Account>, StoreError> {
        Ok(self
            .rows(
                "SELECT id, name, token_sha256 FROM accounts WHERE id = $1",
                vals![id],
                |r| {
                    Ok(Account {
                        id: r.i64(0)?,
                        name: r.text(1)?,
                        token_sha256: r.text(2)?,
                    })
                },
            )?
            .into_iter()
            .next())
    }

    /// Who owns the bot name, if anyone does.
    pub fn ownership(&self, bot: &str) -> Result<Option<Ownership>, StoreError> {
        Ok(self
            .rows(
                "SELECT o.account_id, a.name, o.retired FROM bot_owners o JOIN accounts a ON a.id = o.account_id WHERE o.bot = $1",
                vals![bot],
                |r| {
                    Ok(Ownership {
                        account: r.i64(0)?,
                        owner: r.text(1)?,
                        retired: r.i64(2)? != 0,
                    })
                },
            )?
            .into_iter()
            .next())
    }

    /// Gives the bot name to `account` unless another account has it; also
    /// un-retires it (a new version is a comeback). Returns the owner's id.
    pub fn take_bot_name(&mut self, bot: &str, account: i64) -> Result<i64, StoreError> {
        self.write(|db| {
            Lock::Names.take(db)?;
            if let Some(row) = db.query_opt(
                "SELECT account_id FROM bot_owners WHERE bot = $1",
                vals![bot],
            )? {
                let owner = row.i64(0)?;
                if owner == account {
                    db.execute(
                        "UPDATE bot_owners SET retired = 0 WHERE bot = $1",
                        vals![bot],
                    )?;
                }
                return Ok(owner);
            }
            db.execute(
                "INSERT INTO bot_owners (bot, account_id, retired) VALUES ($1, $2, 0)",
                vals![bot, account],
            )?;
            Ok(account)
        })
    }

    /// Marks the bot retired: it is scheduled no more.
    pub fn retire_bot(&mut self, bot: &str) -> Result<(), StoreError> {
        self.write(|db| {
            db.execute(
                "UPDATE bot_owners SET retired = 1 WHERE bot = $1",
                vals![bot],
            )?;
            Ok(())
        })
    }

    /// The retired bot names.
    pub fn retired_bots(&self) -> Result<BTreeSet<String>, StoreError> {
        Ok(self
            .rows("SELECT bot FROM bot_owners WHERE retired = 1", &[], |r| {
                r.text(0)
            })?
            .into_iter()
            .collect())
    }

    /// Records an upload by `account` at `at` (unix seconds).
    pub fn record_upload(&mut self, account: i64, at: i64) -> Result<(), StoreError> {
        self.write(|db| {
            db.execute(
                "INSERT INTO uploads (account_id, at) VALUES ($1, $2)",
                vals![account, at],
            )?;
            Ok(())
        })
    }

    /// The account's uploads at or after `since` (unix seconds).
    pub fn uploads_since(&self, account: i64, since: i64) -> Result<u32, StoreError> {
        let n = self.rows(
            "SELECT count(*) FROM uploads WHERE account_id = $1 AND at >= $2",
            vals![account, since],
            |r| r.i64(0),
        )?;
        Ok(n.first().copied().unwrap_or(0) as u32)
    }

    /// Every version of a bot name, oldest first.
    pub fn bot_versions(&self, name: &str) -> Result<Vec<BotRecord>, StoreError> {
        self.rows(
            "SELECT name, version, game, sha256, submitted_at FROM bot_versions WHERE name = $1 ORDER BY version",
            vals![name],
            bot_record,
        )
    }

    /// The continuous ladder of `game`, created empty the first time.
    pub fn continuous_ladder(
        &mut self,
        game: &str,
        players: u32,
        seed: u64,
        config: &serde_json::Value,
        limits: &serde_json::Value,
        needs: &Needs,
    ) -> Result<i64, StoreError> {
        let key = continuous_key(game);
        self.ensure_ladder(&NewLadder {
            key: &key,
            game,
            kind: "continuous",
            players,
            rounds: 0,
            seed,
            config,
            limits,
            needs,
            bots: &[],
            schedule: &[],
        })
    }

    /// The continuous ladder of `game`, if it exists.
    pub fn find_continuous_ladder(&self, game: &str) -> Result<Option<i64>, StoreError> {
        Ok(self
            .rows(
                "SELECT id FROM ladders WHERE ladder_key = $1",
                vals![continuous_key(game)],
                |r| r.i64(0),
            )?
            .into_iter()
            .next())
    }

    /// Gives `bot` the next position of the ladder (or its position when it
    /// has one).
    pub fn add_ladder_bot(&mut self, ladder: i64, bot: &BotRecord) -> Result<usize, StoreError> {
        self.write(|db| {
            if let Some(row) = db.query_opt(
                "SELECT position FROM ladder_bots WHERE ladder_id = $1 AND name = $2 AND version = $3",
                vals![ladder, &bot.name, bot.version],
            )? {
                return Ok(row.i64(0)? as usize);
            }
            let next = db
                .query_opt(
                    "SELECT count(*) FROM ladder_bots WHERE ladder_id = $1",
                    vals![ladder],
                )?
                .expect("count gives a row")
                .i64(0)?;
            db.execute(
                "INSERT INTO ladder_bots (ladder_id, position, name, version, sha256) VALUES ($1, $2, $3, $4, $5)",
                vals![ladder, next, &bot.name, bot.version, &bot.sha256],
            )?;
            Ok(next as usize)
        })
    }

    /// Appends matches to the ladder's schedule, in one transaction; their
    /// indices must continue the schedule.
    pub fn append_matches(
        &mut self,
        ladder: i64,
        matches: &[ScheduledMatch],
    ) -> Result<(), StoreError> {
        self.write(|db| {
            // The last index, by the primary key: no count over the schedule.
            let next = db
                .query_opt(
                    "SELECT idx FROM matches WHERE ladder_id = $1 ORDER BY idx DESC LIMIT 1",
                    vals![ladder],
                )?
                .map_or(Ok(0), |r| r.u32(0).map(|last| last + 1))?;
            for (i, m) in matches.iter().enumerate() {
                if m.index != next + i as u32 {
                    return Err(DbError::Decode {
                        column: 0,
                        wanted: "the next index of the ladder's schedule",
                        found: format!("{} (the schedule is at {})", m.index, next + i as u32),
                    });
                }
                let seats = serde_json::to_string(&m.seats).expect("seats serialise");
                db.execute(
                    "INSERT INTO matches (ladder_id, idx, grp, seed, seats) VALUES ($1, $2, $3, $4, $5)",
                    vals![ladder, m.index, m.group, m.seed as i64, seats],
                )?;
            }
            index_seats(db, ladder, matches)
        })
    }

    /// Every match in which the ladder's bot at `position` has a seat, in
    /// schedule order, found through the bot index.
    pub fn bot_matches(
        &self,
        ladder: i64,
        position: usize,
    ) -> Result<Vec<SeatedMatch>, StoreError> {
        self.rows(
            &format!(
                "SELECT m.idx, m.grp, m.seed, m.seats, s.seat, s.elo, {RESULT_COLUMNS}
                 FROM match_seats s
                 JOIN matches m ON m.ladder_id = s.ladder_id AND m.idx = s.idx
                 LEFT JOIN results r ON r.ladder_id = s.ladder_id AND r.idx = s.idx
                 WHERE s.ladder_id = $1 AND s.position = $2
                 ORDER BY s.idx, s.seat"
            ),
            vals![ladder, position],
            |r| {
                Ok(SeatedMatch {
                    scheduled: scheduled_match(r)?,
                    seat: r.i64(4)? as usize,
                    elo: match r.0.get(5) {
                        None | Some(super::db::Value::Null) => None,
                        Some(_) => Some(r.f64(5)?),
                    },
                    result: result_at(r, 6)?,
                })
            },
        )
    }

    /// The scheduled match at `index` of the ladder, with its result.
    pub fn scheduled_match(
        &self,
        ladder: i64,
        index: u32,
    ) -> Result<Option<(ScheduledMatch, Option<MatchResult>)>, StoreError> {
        Ok(self
            .rows(
                &format!(
                    "SELECT m.idx, m.grp, m.seed, m.seats, {RESULT_COLUMNS}
                     FROM matches m
                     LEFT JOIN results r ON r.ladder_id = m.ladder_id AND r.idx = m.idx
                     WHERE m.ladder_id = $1 AND m.idx = $2"
                ),
                vals![ladder, index],
                |r| Ok((scheduled_match(r)?, result_at(r, 4)?)),
            )?
            .into_iter()
            .next())
    }

    /// Where the result with this full match id is: (ladder, index), in
    /// ladder order (the same match may be in several ladders).
    pub fn results_of_match(&self, match_id: &str) -> Result<Vec<(i64, u32)>, StoreError> {
        self.rows(
            "SELECT ladder_id, idx FROM results WHERE match_id = $1 ORDER BY ladder_id, idx",
            vals![match_id],
            |r| Ok((r.i64(0)?, r.u32(1)?)),
        )
    }

    /// The length of the ladder's schedule, from its last index (schedules
    /// are numbered from 0 without gaps).
    pub fn schedule_end(&self, ladder: i64) -> Result<u32, StoreError> {
        Ok(self
            .rows(
                "SELECT idx FROM matches WHERE ladder_id = $1 ORDER BY idx DESC LIMIT 1",
                vals![ladder],
                |r| r.u32(0),
            )?
            .first()
            .map_or(0, |last| last + 1))
    }

    /// Every ladder bot's count of scheduled matches, by position.
    pub fn scheduled_matches(&self, ladder: i64) -> Result<Vec<u32>, StoreError> {
        self.rows(
            "SELECT scheduled_matches FROM ladder_bots WHERE ladder_id = $1 ORDER BY position",
            vals![ladder],
            |r| r.u32(0),
        )
    }

    /// Every ladder bot's count of rated matches, by position.
    pub fn rated_matches(&self, ladder: i64) -> Result<Vec<u32>, StoreError> {
        self.rows(
            "SELECT rated_matches FROM ladder_bots WHERE ladder_id = $1 ORDER BY position",
            vals![ladder],
            |r| r.u32(0),
        )
    }

    /// Records the Elo history from index `from` to the finished prefix
    /// `end` and the counts of rated matches ([`elo_history`]).
    pub fn save_elo_history(
        &self,
        ladder: i64,
        (from, end): (u32, u32),
        history: &EloHistory,
    ) -> Result<(), StoreError> {
        self.write(|db| write_elo_history(db, ladder, (from, end), history))
    }
}
