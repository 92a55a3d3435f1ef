//! Keeping the running challenges going: each ended at its verdict or its
//! count, or given more pairs to play.

use super::pairs;
use super::request::{sprt_of, test_of, ChallengeId, ChallengeLimits, Test};
use super::tally::{finished, tally, Verdict};
use crate::continuous::{self, PACE_WINDOW};
use crate::error::Error;
use crate::schedule::ScheduledMatch;
use crate::sprt::Hypothesis;
use crate::store::{day_of, ChallengeRow, Store};

/// Pairs waiting to be played per challenge, at least (when it has that
/// many left) and at most. Enough that the workers always find some (a
/// challenge whose queue a claim empties loses its turn until the next
/// top-up, and so its share of the workers), few enough that little runs
/// past its decision: the pairs nobody is playing when it decides are
/// recorded as not played, and given back to the day's games.
pub const FEWEST_PENDING_PAIRS: u32 = 2;
pub const MOST_PENDING_PAIRS: u32 = 64;

/// What one [`top_up`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopUp {
    /// Matches appended to challenges' schedules.
    pub scheduled: u32,
    /// Challenges that ended, with their verdicts.
    pub ended: Vec<(ChallengeId, Verdict)>,
}

/// Keeps every running challenge going, as a server's scheduler does after
/// results arrive: reads its finished results in schedule order; ends it
/// when its SPRT decided (`stronger` for H1, `not stronger` for H0), its
/// fixed count is played, or its maximum reached undecided (`none`); and
/// otherwise appends pairs so that some wait, as a continuous ladder keeps
/// its queue ([`continuous::waiting_target`]): two a live worker thread,
/// or two seconds of play at its pace of the last five, whichever is more
/// ([`FEWEST_PENDING_PAIRS`] to [`MOST_PENDING_PAIRS`]), within its count
/// and its account's games of the day (the UTC day of `now`, unix
/// seconds; a spent day schedules nothing until the next).
pub fn top_up(store: &Store, limits: &ChallengeLimits, now: i64) -> Result<TopUp, Error> {
    let mut done = TopUp::default();
    for row in store.challenges().active()? {
        keep_going(store, &row, limits, now, &mut done)?;
    }
    Ok(done)
}

fn keep_going(
    store: &Store,
    row: &ChallengeRow,
    limits: &ChallengeLimits,
    now: i64,
    done: &mut TopUp,
) -> Result<(), Error> {
    let test = test_of(row)?;
    let sprt = sprt_of(&test).map_err(|e| Error::StoredLadder {
        ladder: row.ladder,
        reason: e.to_string(),
    })?;
    let record = store.ladders().get(row.ladder)?;
    let players = record.players as usize;
    let opponents = record.bots.len().saturating_sub(1);
    let results = finished(store, row.ladder)?;
    let t = tally(&results, players, opponents, sprt.as_ref());
    let end = |verdict: Verdict, reason: String, done: &mut TopUp| -> Result<(), Error> {
        if store
            .challenges()
            .end(row.id, verdict.as_str(), &reason, now)?
        {
            tracing::info!(challenge = row.id, %verdict, "{reason}");
            done.ended.push((row.id, verdict));
        }
        Ok(())
    };
    if let Some(h) = t.decision {
        let pairs = t.counted.div_ceil(2);
        return match h {
            Hypothesis::H1 => end(
                Verdict::Stronger,
                format!("the SPRT accepted H1 after {pairs} pairs"),
                done,
            ),
            Hypothesis::H0 => end(
                Verdict::NotStronger,
                format!("the SPRT accepted H0 after {pairs} pairs"),
                done,
            ),
        };
    }
    let played = results.len() as u32;
    if played >= row.max_games {
        let reason = match test {
            Test::Games { games } => format!("played its {games} games"),
            Test::Sprt(_) => format!("reached its maximum of {} games undecided", row.max_games),
        };
        return end(Verdict::None, reason, done);
    }
    let scheduled = store.ladders().schedule_len(row.ladder)?;
    let queue = store.queue().demand(row.ladder, PACE_WINDOW, false)?;
    let target = continuous::waiting_target(&queue, 2 * FEWEST_PENDING_PAIRS)
        .div_ceil(2)
        .clamp(FEWEST_PENDING_PAIRS, MOST_PENDING_PAIRS);
    let wanted = target.saturating_sub(queue.waiting.div_ceil(2)) * 2;
    let day = day_of(now);
    let today = store.challenges().usage(row.account, day)?;
    let left_today = limits.games_a_day.saturating_sub(today);
    let mut games = wanted.min(row.max_games.saturating_sub(scheduled));
    if games > left_today {
        // Whole pairs only: a day's last odd game waits for the next day.
        games = left_today - left_today % 2;
    }
    if games == 0 {
        return Ok(());
    }
    let info = ludus_engine::registry::info(&record.game)?;
    let new: Vec<ScheduledMatch> = (scheduled..scheduled + games)
        .map(|index| pairs::scheduled(index, players, opponents, record.seed, info))
        .collect();
    if store.challenges().schedule(row, &new, day)? {
        done.scheduled += games;
    }
    Ok(())
}
