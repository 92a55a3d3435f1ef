//! Ladders and their schedules: what each ladder is (game, seats, seed,
//! config, limits, what a worker needs to play it), its bots by position,
//! and its scheduled matches, indexed seat by seat so that a bot's matches
//! are found without reading the schedule. Continuous ladders (one per
//! game, on a server) grow: bots join, matches are appended. Each is a
//! season of its game: the open one has the key [`continuous_key`], a
//! closed one a key of its own ([`closed_key`]) and its `closed_at`; the
//! games whose open season schedules nothing are in `paused_games`.

use super::conn::{Conn, Lock};
use super::db::{vals, Db, DbError, Row};
use super::error::StoreError;
use super::keep_replays::KeepReplays;
use super::records::{scheduled_match, ContinuousLadder, LadderRecord, Needs, NewLadder};
use crate::schedule::ScheduledMatch;

/// The ladders of a store ([`super::Store::ladders`]).
pub struct Ladders<'s> {
    pub(crate) conn: &'s Conn,
}

/// The key of the continuous ladder of `game`.
pub fn continuous_key(game: &str) -> String {
    format!("continuous/{game}")
}

/// The key a closed season of `game` keeps: the open season's key is free
/// for the next one, and the closed one is found by its id and name.
pub fn closed_key(game: &str, ladder: i64) -> String {
    format!("continuous/{game}/closed/{ladder}")
}

/// A continuous ladder as a season of its game.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SeasonRow {
    pub ladder: i64,
    /// `None` for a game's first ladder, made before seasons had names.
    pub name: Option<String>,
    /// When it was closed (seconds since the Unix epoch); `None` while open.
    pub closed_at: Option<i64>,
}

/// Creates a ladder with its bots and schedule; its id.
pub(super) fn insert_ladder(db: &mut Db, ladder: &NewLadder) -> Result<i64, DbError> {
    let id = db
        .query_opt(
            "INSERT INTO ladders (ladder_key, game, kind, players, rounds, seed, config, limits, ludus_version, rules_version, wasmtime_version, keep_replays)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
            vals![
                ladder.key,
                ladder.game,
                ladder.kind,
                ladder.players,
                ladder.rounds,
                ladder.seed as i64,
                ladder.config.to_string(),
                ladder.limits.to_string(),
                &ladder.needs.ludus_version,
                ladder.needs.rules_version,
                &ladder.needs.wasmtime_version,
                ladder.keep_replays.to_string(),
            ],
        )?
        .expect("INSERT … RETURNING gives a row")
        .i64(0)?;
    for (position, b) in ladder.bots.iter().enumerate() {
        db.execute(
            "INSERT INTO ladder_bots (ladder_id, position, name, version, sha256) VALUES ($1, $2, $3, $4, $5)",
            vals![id, position, &b.name, b.version, &b.sha256],
        )?;
    }
    insert_matches(db, id, ladder.schedule)?;
    Ok(id)
}

/// The continuous ladder of `ladder.game` as a new ladder to insert under `key`.
fn continuous_ladder<'a>(ladder: &'a ContinuousLadder<'a>, key: &'a str) -> NewLadder<'a> {
    NewLadder {
        key,
        game: ladder.game,
        kind: "continuous",
        players: ladder.players,
        rounds: 0,
        seed: ladder.seed,
        config: ladder.config,
        limits: ladder.limits,
        needs: ladder.needs,
        keep_replays: ladder.keep_replays,
        bots: &[],
        schedule: &[],
    }
}

/// Inserts scheduled matches, indexes their seats by bot and counts them
/// in each bot's scheduled matches.
pub(super) fn insert_matches(
    db: &mut Db,
    ladder: i64,
    matches: &[ScheduledMatch],
) -> Result<(), DbError> {
    for m in matches {
        let seats = serde_json::to_string(&m.seats).expect("seats serialise");
        db.execute(
            "INSERT INTO matches (ladder_id, idx, grp, seed, seats) VALUES ($1, $2, $3, $4, $5)",
            vals![ladder, m.index, m.group, m.seed as i64, seats],
        )?;
    }
    super::seats::index_seats(db, ladder, matches)
}

impl Ladders<'_> {
    /// Finds the ladder with `ladder.key`, or creates it with its bots and
    /// schedule, in one transaction: two processes starting the same
    /// ladder at once find one ladder, never make two.
    pub fn ensure(&self, ladder: &NewLadder) -> Result<i64, StoreError> {
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            if let Some(row) = db.query_opt(
                "SELECT id FROM ladders WHERE ladder_key = $1",
                vals![ladder.key],
            )? {
                return row.i64(0);
            }
            let id = insert_ladder(db, ladder)?;
            // The planner's statistics, for the queue's indexes: a schedule
            // of 100 000 matches must not be read whole at each claim.
            db.batch("ANALYZE matches")?;
            Ok(id)
        })
    }

    /// A ladder with its bots.
    pub fn get(&self, id: i64) -> Result<LadderRecord, StoreError> {
        let mut l = self
            .conn
            .row(
                "SELECT id, ladder_key, game, kind, players, rounds, seed, config, limits,
                        ludus_version, rules_version, wasmtime_version, rated_through, keep_replays
                 FROM ladders WHERE id = $1",
                vals![id],
                |r| {
                    Ok(LadderRecord {
                        id: r.i64(0)?,
                        key: r.text(1)?,
                        game: r.text(2)?,
                        kind: r.text(3)?,
                        players: r.u32(4)?,
                        rounds: r.u32(5)?,
                        seed: r.i64(6)? as u64,
                        config: r.json(7)?,
                        limits: r.json(8)?,
                        bots: Vec::new(),
                        needs: Needs {
                            ludus_version: r.text(9)?,
                            rules_version: r.u32(10)?,
                            wasmtime_version: r.text(11)?,
                        },
                        rated_through: r.u32(12)?,
                        keep_replays: r.text(13)?.parse().map_err(|e| DbError::Decode {
                            column: 13,
                            wanted: "a replay policy",
                            found: e,
                        })?,
                    })
                },
            )?
            .ok_or_else(|| StoreError::UnknownLadder {
                db: self.conn.location.clone(),
                ladder: id,
            })?;
        l.bots = self.conn.rows(
            "SELECT b.name, b.version, v.game, b.sha256, v.submitted_at FROM ladder_bots b
             JOIN bot_versions v ON v.name = b.name AND v.version = b.version
             WHERE b.ladder_id = $1 ORDER BY b.position",
            vals![id],
            super::records::bot_record,
        )?;
        Ok(l)
    }

    /// Every ladder's id, oldest first.
    pub fn ids(&self) -> Result<Vec<i64>, StoreError> {
        self.conn
            .rows("SELECT id FROM ladders ORDER BY id", &[], |r| r.i64(0))
    }

    /// The most recently created ladder, of `game` if given; never a
    /// challenge's, which a command that names no ladder does not mean.
    pub fn latest(&self, game: Option<&str>) -> Result<Option<i64>, StoreError> {
        match game {
            Some(game) => self.conn.row(
                "SELECT id FROM ladders WHERE game = $1 AND kind <> 'challenge' ORDER BY id DESC LIMIT 1",
                vals![game],
                |r| r.i64(0),
            ),
            None => self.conn.row(
                "SELECT id FROM ladders WHERE kind <> 'challenge' ORDER BY id DESC LIMIT 1",
                &[],
                |r| r.i64(0),
            ),
        }
    }

    /// Ladder `ladder` if it exists, else the most recently created one (of
    /// `game` if given).
    pub fn pick(&self, ladder: Option<i64>, game: Option<&str>) -> Result<i64, StoreError> {
        match ladder {
            Some(id) => self.get(id).map(|l| l.id),
            None => self.latest(game)?.ok_or_else(|| StoreError::NoLadder {
                db: self.conn.location.clone(),
                game: game.map(str::to_string),
            }),
        }
    }

    /// The ladder's schedule.
    pub fn schedule(&self, ladder: i64) -> Result<Vec<ScheduledMatch>, StoreError> {
        self.conn.rows(
            "SELECT idx, grp, seed, seats FROM matches WHERE ladder_id = $1 ORDER BY idx",
            vals![ladder],
            scheduled_match,
        )
    }

    /// The number of matches in the ladder's schedule, from its last index
    /// (schedules are numbered from 0 without gaps): no count over them.
    pub fn schedule_len(&self, ladder: i64) -> Result<u32, StoreError> {
        Ok(self
            .conn
            .row(
                "SELECT idx FROM matches WHERE ladder_id = $1 ORDER BY idx DESC LIMIT 1",
                vals![ladder],
                |r| r.u32(0),
            )?
            .map_or(0, |last| last + 1))
    }

    /// The continuous ladder of `ladder.game`, created empty the first time.
    pub fn ensure_continuous(&self, ladder: &ContinuousLadder) -> Result<i64, StoreError> {
        let key = continuous_key(ladder.game);
        self.ensure(&continuous_ladder(ladder, &key))
    }

    /// Closes the open season of `next.game`, if there is one (it keeps its
    /// name, or takes `closing` when it had none, and its results), and
    /// opens `next` as its new continuous ladder named `name`, in one
    /// transaction: a top-up finds the old season or the new one, never
    /// neither. The closed season's id, and the new one's.
    pub fn start_season(
        &self,
        next: &ContinuousLadder,
        name: &str,
        closing: &str,
        closed_at: i64,
    ) -> Result<(Option<i64>, i64), StoreError> {
        let key = continuous_key(next.game);
        self.conn.write(|db| {
            Lock::Names.take(db)?;
            let open = db
                .query_opt("SELECT id FROM ladders WHERE ladder_key = $1", vals![&key])?
                .map(|r| r.i64(0))
                .transpose()?;
            if let Some(id) = open {
                db.execute(
                    "UPDATE ladders SET ladder_key = $2, closed_at = $3, season = COALESCE(season, $4) WHERE id = $1",
                    vals![id, closed_key(next.game, id), closed_at, closing],
                )?;
            }
            let id = insert_ladder(db, &continuous_ladder(next, &key))?;
            db.execute(
                "UPDATE ladders SET season = $2 WHERE id = $1",
                vals![id, name],
            )?;
            Ok((open, id))
        })
    }

    /// Every season of `game` (its continuous ladders), oldest first.
    pub fn seasons(&self, game: &str) -> Result<Vec<SeasonRow>, StoreError> {
        self.conn.rows(
            "SELECT id, season, closed_at FROM ladders WHERE game = $1 AND kind = 'continuous' ORDER BY id",
            vals![game],
            season_row,
        )
    }

    /// The season of ladder `ladder`, if it is a continuous ladder.
    pub fn season_of(&self, ladder: i64) -> Result<Option<SeasonRow>, StoreError> {
        self.conn.row(
            "SELECT id, season, closed_at FROM ladders WHERE id = $1 AND kind = 'continuous'",
            vals![ladder],
            season_row,
        )
    }

    /// Pauses `game`'s continuous ladder from `at` (seconds since the Unix
    /// epoch); `false` when it was paused already (since then).
    pub fn pause(&self, game: &str, at: i64) -> Result<bool, StoreError> {
        let added = self.conn.write(|db| {
            db.execute(
                "INSERT INTO paused_games (game, paused_at) VALUES ($1, $2) ON CONFLICT (game) DO NOTHING",
                vals![game, at],
            )
        })?;
        Ok(added > 0)
    }

    /// Resumes `game`'s continuous ladder; `false` when it was not paused.
    pub fn resume(&self, game: &str) -> Result<bool, StoreError> {
        let removed = self
            .conn
            .write(|db| db.execute("DELETE FROM paused_games WHERE game = $1", vals![game]))?;
        Ok(removed > 0)
    }

    /// When `game`'s continuous ladder was paused, if it is.
    pub fn paused(&self, game: &str) -> Result<Option<i64>, StoreError> {
        self.conn.row(
            "SELECT paused_at FROM paused_games WHERE game = $1",
            vals![game],
            |r| r.i64(0),
        )
    }

    /// Sets which replays the ladder stores from now on. Workers read it
    /// when they first play the ladder.
    pub fn set_keep_replays(&self, ladder: i64, keep: KeepReplays) -> Result<(), StoreError> {
        self.conn.write(|db| {
            db.execute(
                "UPDATE ladders SET keep_replays = $2 WHERE id = $1",
                vals![ladder, keep.to_string()],
            )
        })?;
        Ok(())
    }

    /// Where pruning of the ladder's replays goes on from: the replays of
    /// the matches before it were pruned as its policy said.
    pub fn replays_pruned_below(&self, ladder: i64) -> Result<u32, StoreError> {
        Ok(self
            .conn
            .row(
                "SELECT replays_pruned_below FROM ladders WHERE id = $1",
                vals![ladder],
                |r| r.u32(0),
            )?
            .unwrap_or(0))
    }

    /// The continuous ladder of `game`, if it exists.
    pub fn continuous(&self, game: &str) -> Result<Option<i64>, StoreError> {
        self.conn.row(
            "SELECT id FROM ladders WHERE ladder_key = $1",
            vals![continuous_key(game)],
            |r| r.i64(0),
        )
    }

    /// Gives `bot` the next position of the ladder (or its position when it
    /// has one).
    pub fn add_bot(&self, ladder: i64, bot: &super::BotRecord) -> Result<usize, StoreError> {
        self.conn.write(|db| {
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
    /// indices must continue the schedule. A closed season takes none
    /// (a top-up that found it open just before it closed): `false`.
    pub fn append(&self, ladder: i64, matches: &[ScheduledMatch]) -> Result<bool, StoreError> {
        self.conn.write(|db| {
            let closed = db
                .query_opt("SELECT closed_at FROM ladders WHERE id = $1", vals![ladder])?
                .map(|r| r.opt_i64(0))
                .transpose()?
                .flatten();
            if closed.is_some() {
                return Ok(false);
            }
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
            }
            insert_matches(db, ladder, matches)?;
            Ok(true)
        })
    }

    /// Every ladder bot's count of scheduled matches, by position.
    pub fn scheduled_counts(&self, ladder: i64) -> Result<Vec<u32>, StoreError> {
        self.conn.rows(
            "SELECT scheduled_matches FROM ladder_bots WHERE ladder_id = $1 ORDER BY position",
            vals![ladder],
            |r| r.u32(0),
        )
    }
}

/// A season as `SELECT id, season, closed_at` reads it.
fn season_row(r: &Row) -> Result<SeasonRow, DbError> {
    Ok(SeasonRow {
        ladder: r.i64(0)?,
        name: r.opt_text(1)?,
        closed_at: r.opt_i64(2)?,
    })
}
