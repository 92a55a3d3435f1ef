//! `ludus check`: is this `.wasm` a bot Ludus can run? Imports, exports,
//! compilation, then one real turn within the limits.

use crate::fault::Fault;
use crate::limits::Limits;
use crate::replay::Refusal;
use crate::sandbox::{LoadError, Sandbox};
use crate::seat::{HostError, SeatRunner};
use crate::wasi::BotIo;
use std::path::Path;

/// The verdict on one bot.
#[derive(Debug, Clone)]
pub struct CheckReport {
    pub bot: String,
    pub sha256: String,
    /// What kind of bot it is.
    pub kind: crate::sandbox::BotKind,
    pub game: String,
    /// Fuel the first turn took (instantiation included).
    pub fuel: u64,
    pub answer: Option<String>,
    pub fault: Option<Fault>,
    /// Parts of the first answer the game refused (a warning, not a failure).
    pub refused: Vec<Refusal>,
    pub log: String,
}

impl CheckReport {
    /// The bot passes when its first turn gave an answer without a fault.
    pub fn passed(&self) -> bool {
        self.fault.is_none()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Engine(#[from] ludus_engine::EngineError),
    #[error(transparent)]
    Host(#[from] HostError),
}

/// Loads the bot at `path` and plays its first turn of `game` in seat 0.
pub fn check(
    sandbox: &Sandbox,
    path: &Path,
    game: &str,
    limits: &Limits,
) -> Result<CheckReport, CheckError> {
    let bot = sandbox.load_file(path)?;
    let info = ludus_engine::registry::info(game)?;
    let mut g = ludus_engine::new_game(game, &serde_json::Value::Null, 0, info.fewest_seats())?;
    let io = BotIo::new(
        ludus_engine::rng::stream(0, "bot-random/seat-0"),
        limits.random_bytes_per_call,
        limits.log_bytes,
    );
    let mut runner = SeatRunner::new(bot.clone(), limits, io);
    let mut observation = String::new();
    g.observation(0, &mut observation);
    let result = runner.act(&observation, 1)?;
    let (answer, fault) = match result.answer {
        Ok(a) => (Some(a), None),
        Err(f) => (None, Some(f)),
    };
    let mut answers: Vec<Option<&str>> = vec![None; info.fewest_seats()];
    answers[0] = answer.as_deref();
    let refused = g
        .step(&answers)
        .into_iter()
        .filter(|r| r.seat == 0)
        .map(|r| Refusal {
            kind: r.kind,
            reason: r.reason,
        })
        .collect();
    Ok(CheckReport {
        bot: bot.name.clone(),
        sha256: bot.sha256.clone(),
        kind: bot.kind(),
        game: game.to_string(),
        fuel: result.fuel,
        answer,
        fault,
        refused,
        log: String::from_utf8_lossy(&result.log).into_owned(),
    })
}
