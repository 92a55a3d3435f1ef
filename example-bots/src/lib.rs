//! Example Ludus bots, written with [`ludus_sdk`].
//!
//! The strategies live in this library, one module per game, so that they can
//! be tested natively; each is exported as its own bot module by a tiny
//! example (`examples/<game>_<bot>.rs`, one line of [`ludus_sdk::export_bot!`]).
//! Build every bot module with
//!
//! ```text
//! cargo build --release --target wasm32-wasip1 -p ludus-example-bots --examples
//! ```
//!
//! which writes `target/wasm32-wasip1/release/examples/<game>_<bot>.wasm`.

pub mod claim;
pub mod conquest;
pub mod fences;
pub mod halite;
pub mod kore;
pub mod loops;
pub mod pirates;
pub mod planet_wars;
pub mod shields;
