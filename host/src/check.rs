//! The validation match: whether a bot plays a game, before it is accepted.
//!
//! `ludus check`, `ludus submit` (and a server's upload) load the bot, then
//! play the first [`VALIDATION_TURNS`] turns of a match of the game against
//! copies of itself, on [`VALIDATION_SEED`], at every seat count the game
//! allows, under the limits every match has. The bot passes when no seat
//! faulted and the game could read every answer as its own; a move refused
//! inside a readable answer is a warning. Which refusals mean "unreadable" is
//! the game's to say ([`GameInfo::unreadable`]), so every registered game is
//! covered as it is.
//!
//! The match is the start of a real one (the game's default config, not a
//! shortened game): the bot sees exactly what it will see in a ladder, and
//! its usual answers come up: every example bot has given each of its usual
//! answers by turn 16 (a Kore launch on turn 11, a Shields `SHIELD` on turn
//! 16), so thirty turns leave a margin, and a Rust bot's whole validation
//! stays in the tens of milliseconds.

use crate::fault::{Fault, FaultKind};
use crate::limits::{Limits, FUEL_PER_SECOND};
use crate::play::{play_until, MatchSpec, PlayError, Progress};
use crate::replay::{Refusal, Replay, SeatTurn, TurnRecord};
use crate::sandbox::{BotKind, BotModule};
use ludus_engine::{EngineError, GameInfo, Seat};
use std::ops::ControlFlow;
use std::sync::Arc;

/// The validation as text ([`Validation::report`]).
mod text;

/// Turns of each validation match.
pub const VALIDATION_TURNS: u32 = 30;

/// The seed of every validation match: the same bot gets the same verdict.
pub const VALIDATION_SEED: u64 = 0;

/// Why a validation could not be played: an unknown game, or a host
/// problem. The bot's own failings are in the report, not here.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Play(#[from] PlayError),
}

/// A bot, and the validation matches it played.
#[derive(Debug, Clone)]
pub struct CheckReport {
    pub bot: String,
    pub sha256: String,
    pub kind: BotKind,
    /// One per game tried, in the registry's order.
    pub games: Vec<Validation>,
}

impl CheckReport {
    /// The games the bot passed.
    pub fn plays(&self) -> Vec<&'static str> {
        self.games
            .iter()
            .filter(|v| v.passed())
            .map(|v| v.game)
            .collect()
    }

    /// The validation of `game`, if it was tried.
    pub fn game(&self, game: &str) -> Option<&Validation> {
        self.games.iter().find(|v| v.game == game)
    }
}

/// One bot's validation for one game.
#[derive(Debug, Clone)]
pub struct Validation {
    pub game: &'static str,
    /// One match per seat count, fewest seats first. The first that fails is
    /// the last one played.
    pub matches: Vec<MatchCheck>,
}

impl Validation {
    /// No seat faulted and the game read every answer, at every seat count.
    pub fn passed(&self) -> bool {
        self.matches.iter().all(MatchCheck::passed)
    }

    /// The match that failed, if one did.
    pub fn failed(&self) -> Option<&MatchCheck> {
        self.matches.iter().find(|m| !m.passed())
    }

    /// Why the bot failed, in one line (`4 seats, turn 1, seat 0: ...`);
    /// `None` when it passed.
    pub fn why_failed(&self) -> Option<String> {
        self.failed().and_then(MatchCheck::why_failed)
    }

    /// The budget the bot exhausted when it failed (`fuel`, `memory`,
    /// `stack`, or `time` when the wall-clock backstop stopped it); `None`
    /// when it passed or failed another way.
    pub fn budget_spent(&self) -> Option<&'static str> {
        self.failed().and_then(MatchCheck::budget_spent)
    }

    /// Moves refused inside readable answers, over every match.
    pub fn warnings(&self) -> usize {
        self.matches
            .iter()
            .flat_map(|m| &m.warnings)
            .map(|w| w.count)
            .sum()
    }

    /// Where to look first: the failure that stopped the validation, else
    /// the first refused move (of the match with fewest seats that had one);
    /// `None` for a clean pass.
    pub fn first_finding(&self) -> Option<Finding<'_>> {
        if let Some(m) = self.failed() {
            let f = m.failures.first()?;
            return Some(Finding {
                game: self.game,
                check: m,
                turn: f.turn,
                seat: f.seat,
            });
        }
        self.matches.iter().find_map(|m| {
            let w = m.warnings.iter().min_by_key(|w| (w.turn, w.seat))?;
            Some(Finding {
                game: self.game,
                check: m,
                turn: w.turn,
                seat: w.seat,
            })
        })
    }
}

/// A turn and seat of a validation match worth a look: where it failed, or
/// where the game first refused a move.
#[derive(Debug, Clone, Copy)]
pub struct Finding<'a> {
    pub game: &'static str,
    pub check: &'a MatchCheck,
    pub turn: u32,
    pub seat: Seat,
}

impl Finding<'_> {
    /// The validation match as a replay that holds this turn whole (every
    /// seat's answer, fault, log and refusals), for `ludus replay show`:
    /// the match as played, or, when a fault stopped it before the turn was
    /// resolved, the same match played again through that turn.
    pub fn replay(&self, bot: &Arc<BotModule>, limits: &Limits) -> Result<Replay, CheckError> {
        let played = &self.check.replay;
        if played.turns.iter().any(|t| t.turn == self.turn) {
            return Ok(played.clone());
        }
        let spec = validation_spec(bot, self.game, self.check.seats, limits);
        let turn = self.turn;
        Ok(play_until(&spec, |progress| match progress {
            Progress::Resolved(record) if record.turn >= turn => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        })?)
    }
}

/// One validation match: the bot in every seat.
#[derive(Debug, Clone)]
pub struct MatchCheck {
    pub seats: usize,
    /// Turns resolved: [`VALIDATION_TURNS`], fewer if the game ended first or
    /// the match stopped at a failure (then the failing turn is not counted).
    pub turns: u32,
    /// The most fuel a seat burnt on its first turn (instantiation included).
    pub first_turn_fuel: u64,
    /// The most fuel a seat burnt on any later turn.
    pub turn_fuel: u64,
    /// What failed on the turn the match stopped at, seat by seat; empty when
    /// the match passed. A fault stops the match at once, before the next
    /// seat is asked.
    pub failures: Vec<Failure>,
    /// Moves the game refused inside readable answers, by kind, in the order
    /// first seen.
    pub warnings: Vec<Warning>,
    /// Why the wall-clock backstop stopped the match: a host problem, never
    /// the bot's, but the bot is not accepted on an unfinished validation.
    pub aborted: Option<String>,
    /// The match as played: unfinished, and without the turn a fault
    /// stopped it on ([`Finding::replay`] has that turn).
    pub replay: Replay,
}

impl MatchCheck {
    pub fn passed(&self) -> bool {
        self.failures.is_empty() && self.aborted.is_none()
    }

    /// The budget the bot exhausted, if that is why the match failed.
    pub fn budget_spent(&self) -> Option<&'static str> {
        match (self.failures.first(), &self.aborted) {
            (Some(f), _) => match &f.problem {
                Problem::Fault(fault) => fault.kind.budget(),
                Problem::Unreadable(_) => None,
            },
            (None, Some(_)) => Some("time"),
            (None, None) => None,
        }
    }

    /// Why the match failed, in one line; `None` when it passed.
    pub fn why_failed(&self) -> Option<String> {
        let seats = self.seats;
        match (self.failures.first(), &self.aborted) {
            (Some(f), _) => Some(format!(
                "{seats} seats, turn {}, seat {}: {}",
                f.turn, f.seat, f.problem
            )),
            (None, Some(why)) => Some(format!("{seats} seats: {why}")),
            (None, None) => None,
        }
    }
}

/// What went wrong for one seat on one turn.
#[derive(Debug, Clone)]
pub struct Failure {
    pub turn: u32,
    pub seat: Seat,
    pub problem: Problem,
    /// The bot's answer (none after a fault).
    pub answer: Option<String>,
    /// What the bot wrote to its log on that turn.
    pub log: String,
}

/// Why a seat failed.
#[derive(Debug, Clone)]
pub enum Problem {
    /// The bot faulted: it ran out of fuel, trapped, broke the ABI...
    Fault(Fault),
    /// The game could not read the answer as its own (one of the kinds of
    /// [`GameInfo::unreadable`]).
    Unreadable(Refusal),
}

impl Problem {
    /// What the bot's author can do about it.
    pub fn what_to_do(&self, game: &str, turn: u32, limits: &Limits) -> String {
        let Problem::Fault(fault) = self else {
            return format!(
                "answer as docs/games/{game}.md says a {game} answer looks. If the log says \
                 the bot could not read its observation, it was written for another game: \
                 `ludus check` without --game names the games it plays"
            );
        };
        match fault.kind {
            FaultKind::OutOfFuel => {
                let budget = limits.turn_budget(turn.saturating_sub(1));
                format!(
                    "do less on a turn: turn {turn} may burn {budget} fuel (about {} ms of Rust \
                     code); look for an endless loop or a long sleep",
                    budget * 1000 / FUEL_PER_SECOND
                )
            }
            FaultKind::MemoryCap => format!(
                "keep the bot under {} MiB of memory: hold less, or free what it no longer needs",
                limits.memory_bytes >> 20
            ),
            FaultKind::StackOverflow => format!(
                "recurse less deeply (the wasm stack is {} KiB), or turn the recursion into a loop",
                limits.wasm_stack_bytes >> 10
            ),
            FaultKind::Trap => "fix the crash the log shows: a Rust panic, a Python exception \
                                and an out-of-bounds access all end in a trap"
                .into(),
            FaultKind::Exit => "return an answer from `act` instead of exiting".into(),
            FaultKind::AnswerTooLarge => {
                let cap = ludus_engine::registry::info(game).map_or(limits.answer_bytes, |g| {
                    g.answer_bytes.min(limits.answer_bytes)
                });
                format!("answer {game} in fewer than {cap} bytes: no real answer of it is longer")
            }
            FaultKind::BadAllocPointer | FaultKind::BadAnswerPointer | FaultKind::BadUtf8 => {
                "follow the bot ABI in docs/bot-abi.md (the Rust SDK and `ludus build-bot` do \
                 this part for you)"
                    .into()
            }
            FaultKind::Instantiate => format!(
                "make the module start within the limits ({} MiB of memory, {} fuel for the \
                 first turn)",
                limits.memory_bytes >> 20,
                limits.first_turn_fuel
            ),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Fault(fault) => write!(f, "{fault}"),
            Problem::Unreadable(r) => {
                write!(
                    f,
                    "the game cannot read the answer ({}): {}",
                    r.kind, r.reason
                )
            }
        }
    }
}

/// The refusals of one kind inside readable answers.
#[derive(Debug, Clone)]
pub struct Warning {
    pub kind: String,
    pub count: usize,
    /// The first one: its turn, seat and reason.
    pub turn: u32,
    pub seat: Seat,
    pub reason: String,
}

/// Validates a loaded bot for `game`, or for every game when `None`,
/// calling `on_game` as each game's validation ends (for progress displays).
pub fn check(
    bot: &Arc<BotModule>,
    game: Option<&str>,
    limits: &Limits,
    mut on_game: impl FnMut(&Validation),
) -> Result<CheckReport, CheckError> {
    let infos = match game {
        Some(id) => vec![ludus_engine::registry::info(id)?],
        None => ludus_engine::games().iter().collect(),
    };
    let mut games = Vec::with_capacity(infos.len());
    for info in infos {
        let v = validate(bot, info, limits)?;
        on_game(&v);
        games.push(v);
    }
    Ok(CheckReport {
        bot: bot.name.clone(),
        sha256: bot.sha256.clone(),
        kind: bot.kind(),
        games,
    })
}

/// The validation of `bot` for one game: a match at each seat count, fewest
/// first, until one fails.
pub fn validate(
    bot: &Arc<BotModule>,
    game: &'static GameInfo,
    limits: &Limits,
) -> Result<Validation, CheckError> {
    let mut matches = Vec::new();
    for &seats in game.seats {
        let m = validation_match(bot, game, seats, limits)?;
        let failed = !m.passed();
        matches.push(m);
        if failed {
            break;
        }
    }
    Ok(Validation {
        game: game.id,
        matches,
    })
}

/// One validation match, stopped at the first failing seat or turn.
fn validation_match(
    bot: &Arc<BotModule>,
    game: &'static GameInfo,
    seats: usize,
    limits: &Limits,
) -> Result<MatchCheck, CheckError> {
    let spec = validation_spec(bot, game.id, seats, limits);
    let mut tally = Tally::default();
    let replay = play_until(&spec, |progress| match progress {
        Progress::Answered { turn, seat, played } => tally.answered(turn, seat, played),
        Progress::Resolved(record) => tally.resolved(game, record),
    })?;
    Ok(MatchCheck {
        seats,
        turns: tally.turns,
        first_turn_fuel: tally.first_turn_fuel,
        turn_fuel: tally.turn_fuel,
        failures: tally.failures,
        warnings: tally.warnings,
        aborted: replay.aborted.clone(),
        replay,
    })
}

/// What a validation match has shown so far (the fields of [`MatchCheck`]).
#[derive(Default)]
struct Tally {
    turns: u32,
    first_turn_fuel: u64,
    turn_fuel: u64,
    failures: Vec<Failure>,
    warnings: Vec<Warning>,
}

/// The validation match of `game` with `seats` copies of `bot`.
fn validation_spec(bot: &Arc<BotModule>, game: &str, seats: usize, limits: &Limits) -> MatchSpec {
    MatchSpec {
        game: game.into(),
        config: serde_json::Value::Null,
        seed: VALIDATION_SEED,
        limits: limits.clone(),
        bots: vec![bot.clone(); seats],
    }
}

impl Tally {
    /// A seat's answer, before the game reads it: a fault stops the match.
    fn answered(&mut self, turn: u32, seat: Seat, played: &SeatTurn) -> ControlFlow<()> {
        let most = if turn == 1 {
            &mut self.first_turn_fuel
        } else {
            &mut self.turn_fuel
        };
        *most = (*most).max(played.fuel);
        match &played.fault {
            None => ControlFlow::Continue(()),
            Some(fault) => {
                self.failures.push(Failure {
                    turn,
                    seat,
                    problem: Problem::Fault(fault.clone()),
                    answer: None,
                    log: played.log.clone(),
                });
                ControlFlow::Break(())
            }
        }
    }

    /// A resolved turn: unreadable answers stop the match, refused moves are
    /// counted.
    fn resolved(&mut self, game: &GameInfo, record: &TurnRecord) -> ControlFlow<()> {
        for (seat, played) in record.seats.iter().enumerate() {
            for refusal in &played.refused {
                if game.is_unreadable(&refusal.kind) {
                    self.failures.push(Failure {
                        turn: record.turn,
                        seat,
                        problem: Problem::Unreadable(refusal.clone()),
                        answer: played.answer.clone(),
                        log: played.log.clone(),
                    });
                } else {
                    self.warn(record.turn, seat, refusal);
                }
            }
        }
        if !self.failures.is_empty() {
            return ControlFlow::Break(());
        }
        self.turns = record.turn;
        if record.turn >= VALIDATION_TURNS {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn warn(&mut self, turn: u32, seat: Seat, refusal: &Refusal) {
        match self.warnings.iter_mut().find(|w| w.kind == refusal.kind) {
            Some(w) => w.count += 1,
            None => self.warnings.push(Warning {
                kind: refusal.kind.clone(),
                count: 1,
                turn,
                seat,
                reason: refusal.reason.clone(),
            }),
        }
    }
}
