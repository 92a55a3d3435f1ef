//! The Ludus host: runs untrusted WebAssembly bots in a wasmtime sandbox under
//! fuel and memory limits, plays matches between them, and records replays
//! that re-run bit for bit.
//!
//! Invariants (see `ARCHITECTURE.md`): nothing a bot does or sends may panic,
//! hang or exhaust the host; every fault becomes data in the replay; no wall
//! clock, OS randomness or thread timing reaches a game or a bot.

pub mod build;
pub mod check;
pub mod component;
pub mod fault;
mod file_memo;
mod function_cache;
pub mod limits;
pub mod play;
pub mod replay;
pub mod sandbox;
pub mod seat;
pub mod summary;
pub mod wasi;

pub use fault::{Fault, FaultKind};
pub use limits::{Limits, FUEL_PER_SECOND};
pub use play::{play, play_observed, play_until, verify, MatchSpec, PlayError, Progress};
pub use replay::{short_id, Divergence, Replay, ReplayError};
pub use sandbox::{BotKind, BotModule, LoadError, Sandbox, SandboxOptions, WASMTIME_VERSION};
pub use seat::HostError;
pub use summary::{SeatSummary, Summary};
