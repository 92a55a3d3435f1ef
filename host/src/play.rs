//! Playing one match: the engine and one sandboxed bot per seat, turn by turn.

use crate::limits::Limits;
use crate::replay::{
    Refusal, Replay, SeatInfo, SeatTurn, TurnRecord, REPLAY_FORMAT, REPLAY_FORMAT_VERSION,
};
use crate::sandbox::{BotModule, WASMTIME_VERSION};
use crate::seat::{HostError, SeatRunner};
use crate::wasi::BotIo;
use ludus_engine::{EngineError, Seat};
use std::ops::ControlFlow;
use std::sync::Arc;

/// Everything that determines a match.
#[derive(Debug, Clone)]
pub struct MatchSpec {
    pub game: String,
    /// The game's config (`null` for its defaults).
    pub config: serde_json::Value,
    pub seed: u64,
    pub limits: Limits,
    /// One bot per seat, in seat order.
    pub bots: Vec<Arc<BotModule>>,
}

#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Host(#[from] HostError),
    #[error("the match was played under {game} rules v{recorded}; this Ludus plays v{current} and cannot re-run it (Ludus {ludus_version} recorded it: use that version)")]
    RulesVersion {
        game: String,
        recorded: u32,
        current: u32,
        ludus_version: String,
    },
}

/// Plays a match to its end and returns its replay. A bot's faults are
/// recorded in the replay; only a host problem is an error (and a match the
/// wall-clock backstop stopped comes back aborted, without an outcome).
pub fn play(spec: &MatchSpec) -> Result<Replay, PlayError> {
    play_observed(spec, |_| {})
}

/// [`play`], calling `on_turn` after every resolved turn (for progress displays).
pub fn play_observed(
    spec: &MatchSpec,
    mut on_turn: impl FnMut(&TurnRecord),
) -> Result<Replay, PlayError> {
    play_until(spec, |progress| {
        if let Progress::Resolved(turn) = progress {
            on_turn(turn);
        }
        ControlFlow::Continue(())
    })
}

/// How far a match has come, as [`play_until`] reports it.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// A seat has answered (or faulted); the turn is not resolved yet.
    Answered {
        turn: u32,
        seat: Seat,
        played: &'a SeatTurn,
    },
    /// A turn was resolved.
    Resolved(&'a TurnRecord),
}

/// [`play`], asking `go_on` after every seat's answer and every resolved
/// turn whether to play on. A [`ControlFlow::Break`] stops the match there:
/// the replay comes back unfinished (no outcome), without the turn in
/// progress. The validation match of `ludus check` stops this way after its
/// first turns, or at a seat's first fault without calling the other seats.
pub fn play_until(
    spec: &MatchSpec,
    mut go_on: impl FnMut(Progress<'_>) -> ControlFlow<()>,
) -> Result<Replay, PlayError> {
    let players = spec.bots.len();
    let mut game = ludus_engine::new_game(&spec.game, &spec.config, spec.seed, players)?;
    let mut replay = Replay {
        format: REPLAY_FORMAT.into(),
        format_version: REPLAY_FORMAT_VERSION,
        ludus_version: env!("CARGO_PKG_VERSION").into(),
        wasmtime_version: WASMTIME_VERSION.into(),
        match_id: String::new(),
        game: game.id().into(),
        rules_version: game.rules_version(),
        config: spec.config.clone(),
        setup: game.setup(),
        seed: spec.seed,
        limits: spec.limits.clone(),
        seats: spec
            .bots
            .iter()
            .map(|b| SeatInfo {
                name: b.name.clone(),
                sha256: b.sha256.clone(),
            })
            .collect(),
        initial_state_hash: hex::encode(game.state_hash()),
        turns: Vec::new(),
        outcome: None,
        aborted: None,
    };
    replay.match_id = replay.compute_match_id();

    // A seat's answer is read up to the game's own cap, if it is lower.
    let seat_limits = Limits {
        answer_bytes: spec
            .limits
            .answer_bytes
            .min(ludus_engine::registry::info(&spec.game)?.answer_bytes),
        ..spec.limits.clone()
    };
    let mut seats: Vec<SeatRunner> = spec
        .bots
        .iter()
        .enumerate()
        .map(|(seat, bot)| {
            let rng = ludus_engine::rng::stream(spec.seed, &format!("bot-random/seat-{seat}"));
            let io = BotIo::new(
                rng,
                spec.limits.random_bytes_per_call,
                spec.limits.log_bytes,
            );
            SeatRunner::new(bot.clone(), &seat_limits, io)
        })
        .collect();
    let mut consecutive_faults = vec![0u32; players];
    let mut observation = String::new();

    while game.outcome().is_none() {
        let turn = game.turn() + 1;
        let mut record: Vec<SeatTurn> = Vec::with_capacity(players);
        for (seat, runner) in seats.iter_mut().enumerate() {
            if consecutive_faults[seat] >= spec.limits.max_consecutive_faults {
                record.push(SeatTurn {
                    out: true,
                    ..SeatTurn::default()
                });
                continue;
            }
            if !game.asks(seat) {
                record.push(SeatTurn {
                    waiting: true,
                    ..SeatTurn::default()
                });
                continue;
            }
            game.observation(seat, &mut observation);
            let result = match runner.act(&observation, turn) {
                Ok(r) => r,
                Err(e @ HostError::Backstop { .. }) => {
                    replay.aborted = Some(e.to_string());
                    return Ok(replay);
                }
                Err(e) => return Err(e.into()),
            };
            match &result.answer {
                Ok(_) => consecutive_faults[seat] = 0,
                Err(_) => consecutive_faults[seat] += 1,
            }
            let (answer, fault) = match result.answer {
                Ok(a) => (Some(a), None),
                Err(f) => (None, Some(f)),
            };
            let played = SeatTurn {
                answer,
                fault,
                fuel: result.fuel,
                log: String::from_utf8_lossy(&result.log).into_owned(),
                log_dropped: result.log_dropped,
                ..SeatTurn::default()
            };
            let stop = go_on(Progress::Answered {
                turn,
                seat,
                played: &played,
            })
            .is_break();
            if stop {
                return Ok(replay);
            }
            record.push(played);
        }
        let answers: Vec<Option<&str>> = record.iter().map(|s| s.answer.as_deref()).collect();
        for r in game.step(&answers) {
            if let Some(seat) = record.get_mut(r.seat) {
                seat.refused.push(Refusal {
                    kind: r.kind,
                    reason: r.reason,
                });
            }
        }
        let turn_record = TurnRecord {
            turn,
            seats: record,
            scores: game.scores(),
            state_hash: hex::encode(game.state_hash()),
        };
        let stop = go_on(Progress::Resolved(&turn_record)).is_break();
        replay.turns.push(turn_record);
        if stop {
            return Ok(replay);
        }
    }
    replay.outcome = game.outcome();
    Ok(replay)
}

/// Re-runs a recorded match with `bots` (one per seat) and returns the first
/// difference from the record, or `None` when every turn is identical.
pub fn verify(
    recorded: &Replay,
    bots: Vec<Arc<BotModule>>,
) -> Result<Option<crate::replay::Divergence>, PlayError> {
    let current = ludus_engine::registry::info(&recorded.game)?.rules_version;
    if current != recorded.rules_version {
        return Err(PlayError::RulesVersion {
            game: recorded.game.clone(),
            recorded: recorded.rules_version,
            current,
            ludus_version: recorded.ludus_version.clone(),
        });
    }
    let spec = MatchSpec {
        game: recorded.game.clone(),
        // The setup rebuilds the very same game even if a generator changed.
        config: recorded.setup.clone(),
        seed: recorded.seed,
        limits: recorded.limits.clone(),
        bots,
    };
    let mut rerun = play(&spec)?;
    rerun.config = recorded.config.clone();
    Ok(recorded.first_difference(&rerun))
}
