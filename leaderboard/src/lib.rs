//! The Ludus leaderboard: bot registry, schedules (round robin, gauntlet,
//! free-for-all tables), ratings and storage. It builds on `ludus-host`,
//! which plays single matches. [`submit`] lets a bot in only after its
//! validation match for the game.
//!
//! [`ratings`] turns game results into Elo, Bradley–Terry and Weng–Lin
//! ratings; [`sprt`] decides between two bots with a sequential test on game
//! pairs. Both are pure and deterministic. [`store`] keeps everything in a
//! SQLite file or a PostgreSQL database, and its queue lets several
//! processes and machines play one ladder; [`worker`] is the loop that
//! plays it. [`lookup`] finds what re-running
//! a recorded match needs: its replay and its bots, by sha256.

pub mod continuous;
pub mod ladder;
pub mod lookup;
pub mod matchup;
pub mod ratings;
pub mod report;
pub mod schedule;
pub mod sprt;
pub mod store;
pub mod submit;
pub mod worker;
