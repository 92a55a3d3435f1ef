//! What databases of older Ludus versions lack, filled in when they are
//! opened, inside the migration's transaction (see [`super::schema`]): the
//! seeds of schema 1, what a ladder needs of a worker before schema 3, the
//! bot index and its Elo history before schema 5. The Elo history is
//! computed by [`crate::ratings::history`], as ratings compute it.

use super::db::{vals, Db, DbError};
use super::records::{rated_games, scheduled_match, Needs};
use super::seats::{index_seats, write_elo_history};
use crate::ratings::games_of;
use crate::ratings::history::{elo_history, rated_seats};

/// Schema 1 → 2: the seeds of matches not yet played are reduced into
/// their game's seed range; played ones keep the seed their replay records.
pub(crate) fn reduce_pending_seeds(db: &mut Db) -> Result<(), DbError> {
    let pending = db.query(
        "SELECT m.ladder_id, m.idx, m.seed, l.game FROM matches m JOIN ladders l ON l.id = m.ladder_id
         WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.ladder_id = m.ladder_id AND r.idx = m.idx)",
        &[],
    )?;
    for row in pending {
        let (ladder, idx, seed, game) = (row.i64(0)?, row.i64(1)?, row.i64(2)?, row.text(3)?);
        let Ok(info) = ludus_engine::registry::info(&game) else {
            continue;
        };
        let reduced = info.game_seed(seed as u64) as i64;
        if reduced != seed {
            db.execute(
                "UPDATE matches SET seed = $3 WHERE ladder_id = $1 AND idx = $2",
                vals![ladder, idx, reduced],
            )?;
        }
    }
    Ok(())
}

/// Ladders stored before ladders recorded what they need were made by the
/// Ludus that upgrades them: they need what this build is.
pub(crate) fn fill_legacy_needs(db: &mut Db) -> Result<(), DbError> {
    for row in db.query("SELECT id, game FROM ladders WHERE ludus_version = ''", &[])? {
        let (id, game) = (row.i64(0)?, row.text(1)?);
        let rules = ludus_engine::registry::info(&game).map_or(0, |g| g.rules_version);
        let needs = Needs::of_this_build(rules);
        db.execute(
            "UPDATE ladders SET ludus_version = $2, rules_version = $3, wasmtime_version = $4 WHERE id = $1",
            vals![id, needs.ludus_version, needs.rules_version, needs.wasmtime_version],
        )?;
    }
    Ok(())
}

/// Fills the bot index of a database written before it existed: every
/// ladder's seats, and the Elo history of its rated prefix with each
/// seat's place and faults.
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
        let stored = rated_games(db, id, 0, through)?;
        let rated = games_of(&stored);
        let history = elo_history(bots, &rated, 0).map_err(|e| DbError::Decode {
            column: 0,
            wanted: "results the Elo history can be computed from",
            found: format!("ladder {id}: {e}"),
        })?;
        let seats = rated_seats(&history.after, &stored);
        write_elo_history(db, id, (0, through), &seats, &history.rated)?;
    }
    Ok(())
}

/// Fills each rated seat's place and faults in a database of schema 5 or
/// 6, which kept only its Elo.
pub(crate) fn fill_seat_outcomes(db: &mut Db) -> Result<(), DbError> {
    for ladder in db.query("SELECT id, rated_through FROM ladders ORDER BY id", &[])? {
        let (id, through) = (ladder.i64(0)?, ladder.u32(1)?);
        for game in rated_games(db, id, 0, through)? {
            for (seat, place) in game.placements.iter().enumerate() {
                db.execute(
                    "UPDATE match_seats SET place = $4, faults = $5
                     WHERE ladder_id = $1 AND idx = $2 AND seat = $3",
                    vals![
                        id,
                        game.index,
                        seat,
                        *place,
                        game.faults.get(seat).copied().unwrap_or(0)
                    ],
                )?;
            }
        }
    }
    Ok(())
}
