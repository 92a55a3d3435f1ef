//! The Ludus leaderboard: bot registry, schedules (round robin, gauntlet,
//! free-for-all tables), ladders and the workers that play them, ratings,
//! storage and reports. It builds on `ludus-host`, which plays single
//! matches.
//!
//! Each job has one function, which the `ludus` commands, the server and
//! the tests all call: [`submit::admit`] lets a bot in only after its
//! validation match for the game; [`ladder::run`] creates or resumes a
//! ladder and plays it; [`worker::work`] plays a database's queue beside
//! other processes and machines; [`ratings::apply`] and
//! [`ratings::recompute`] rate a ladder in schedule order; [`report`]
//! builds the one leaderboard every table shows; [`continuous::top_up`]
//! keeps a server's ladders going, season by season ([`season::start`],
//! [`season::pause`]); [`house::stock`] gives every game of a
//! server opponents from the start; [`submit::store_for`] stores every
//! upload, its name claimed; [`owners`] says who may do what to a bot, and
//! [`accounts`] who may have an account and sign in; [`lookup`] finds what re-running a
//! recorded match needs; [`integrity`] checks the database's invariants in
//! one read-only snapshot, and re-rates a ladder whose ratings do not hold.
//!
//! [`ratings`] (Elo, Bradley–Terry, Weng–Lin) and [`sprt`] are pure and
//! deterministic. [`store`] keeps everything in a SQLite file or a
//! PostgreSQL database, one handle per concern. [`Error`] is the crate's
//! error.

pub mod accounts;
pub mod candidates;
pub mod challenge;
pub mod clock;
pub mod continuous;
mod error;
pub mod exact;
pub mod house;
pub mod integrity;
pub mod ladder;
pub mod lookup;
pub mod matchup;
pub mod operator;
pub mod owners;
pub mod ratings;
pub mod replays;
pub mod report;
pub mod retention;
pub mod schedule;
pub mod season;
pub mod seated;
pub mod sprt;
pub mod store;
pub mod submit;
pub mod worker;

pub use error::Error;
