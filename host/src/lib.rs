//! The Ludus host: runs untrusted WebAssembly bots in a wasmtime sandbox under
//! fuel and memory limits, plays matches between them, and records replays
//! that re-run bit for bit.
//!
//! Invariants (see `ARCHITECTURE.md`): nothing a bot does or sends may panic,
//! hang or exhaust the host; every fault becomes data in the replay; no wall
//! clock, OS randomness or thread timing reaches a game or a bot.
//!
//! Without the default `sandbox` feature the crate is only the replay format
//! (reading, writing, summarising replays), and does not build wasmtime.

mod digest;
mod fault;
mod gzip;
mod limits;
pub mod numbers;
pub mod replay;
mod summary;

#[cfg(feature = "sandbox")]
mod atomic_write;
#[cfg(feature = "sandbox")]
pub mod build;
#[cfg(feature = "sandbox")]
mod cache_dir;
#[cfg(feature = "sandbox")]
pub mod check;
#[cfg(feature = "sandbox")]
mod component;
#[cfg(feature = "sandbox")]
mod file_memo;
#[cfg(feature = "sandbox")]
mod function_cache;
#[cfg(feature = "sandbox")]
mod limiter;
#[cfg(feature = "sandbox")]
mod play;
#[cfg(feature = "sandbox")]
mod sandbox;
#[cfg(feature = "sandbox")]
mod seat;
#[cfg(feature = "sandbox")]
mod wasi;

pub use digest::{is_sha256_hex, sha256_hex};
pub use fault::{Fault, FaultKind};
pub use gzip::{gzip, gzip_best};
pub use limits::{Limits, FUEL_PER_SECOND};
pub use replay::{short_id, Divergence, Replay, ReplayError};
pub use summary::{turn_ranges, Finding, SeatSummary, Summary};

#[cfg(feature = "sandbox")]
pub use cache_dir::cache_dir;
#[cfg(feature = "sandbox")]
pub use check::{check, CheckError, CheckReport};
#[cfg(feature = "sandbox")]
pub use play::{play, play_observed, play_until, verify, MatchSpec, PlayError, Progress};
#[cfg(feature = "sandbox")]
pub use sandbox::{BotKind, BotModule, LoadError, Sandbox, SandboxOptions, WASMTIME_VERSION};
#[cfg(feature = "sandbox")]
pub use seat::{ActResult, HostError, SeatRunner};
#[cfg(feature = "sandbox")]
pub use wasi::{BotIo, VIRTUAL_EPOCH_NS};
