//! The Ludus bot SDK: what a Rust bot author depends on.
//!
//! A Ludus bot is a WebAssembly module built for `wasm32-wasip1`. Every turn
//! the host hands it the game state as JSON and reads back its answer as JSON.
//! This crate does that plumbing for you: implement [`Bot`] for your type,
//! pick the game's typed observation and action (e.g. [`planet_wars`],
//! [`kore`] or [`halite`], [`claim`], [`loops`] and [`shields`] for the
//! four-bot grid games, [`conquest`], [`pirates`] or [`fences`]), and
//! export it with [`export_bot!`].
//!
//! # A minimal Planet Wars bot
//!
//! ```
//! use ludus_sdk::planet_wars::{Moves, Observation};
//!
//! /// Sends half of every planet's ships to the closest planet it does not own.
//! #[derive(Default)]
//! pub struct Closest;
//!
//! impl ludus_sdk::Bot for Closest {
//!     type Observation = Observation;
//!     type Action = Moves;
//!
//!     fn act(&mut self, obs: &Observation) -> Moves {
//!         let mut moves = Moves::default();
//!         for mine in obs.my_planets() {
//!             let target = obs
//!                 .planets
//!                 .iter()
//!                 .filter(|p| !p.is_mine())
//!                 .min_by(|a, b| mine.distance(a).total_cmp(&mine.distance(b)));
//!             if let (Some(target), true) = (target, mine.ship_count >= 2) {
//!                 moves.send(&mine.name, &target.name, mine.ship_count / 2);
//!             }
//!         }
//!         moves
//!     }
//! }
//!
//! ludus_sdk::export_bot!(Closest);
//! ```
//!
//! Build it as a `cdylib` (`[lib] crate-type = ["cdylib"]`, or an example with
//! `crate-type = ["cdylib"]`) with
//! `cargo build --release --target wasm32-wasip1`, and submit the `.wasm`.
//!
//! # What a bot may use
//!
//! * Write logs to stderr (`eprintln!`); the host keeps them, capped, next to
//!   the replay. Stdout goes to the same log.
//! * A panic ends the turn in a fault that says the panic's message and
//!   place (`panicked at src/lib.rs:10:5: ...`); the usual panic message is
//!   in the log.
//! * Draw randomness from [`random`]: it is a stream the host seeds per match
//!   and seat, so a replay of the match gives your bot the same numbers.
//! * Clocks are virtual: do not count on wall time.
//! * The module instance lives for the whole match, so your bot value (and
//!   anything it keeps) persists from turn to turn.
//!
//! To try a bot natively, without the host, call [`play_turn`] with an
//! observation's JSON text.

pub mod claim;
pub mod conquest;
pub mod fences;
pub mod grid;
pub mod halite;
pub mod kore;
pub mod loops;
pub mod pirates;
pub mod planet_wars;
pub mod random;
pub mod shields;

#[doc(hidden)]
pub mod abi;
mod bot;

pub use bot::{Bot, FromJson};

/// Plays one turn as the host would, natively: parses `observation` (the JSON
/// text the game sends), calls [`Bot::act`] and returns the answer as JSON
/// text.
///
/// If the observation does not parse, the error is written to stderr and the
/// answer is empty, which every game refuses as unreadable, exactly as in
/// the exported module. Handy for tests and local matches.
pub fn play_turn<B: Bot>(bot: &mut B, observation: &str) -> String {
    let mut out = Vec::new();
    abi::answer(bot, observation.as_bytes(), &mut out);
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Exports a [`Bot`] type as a Ludus bot module (bot ABI v1).
///
/// Write it once, at the top level of the crate you build as a `cdylib` for
/// `wasm32-wasip1`:
///
/// ```ignore
/// ludus_sdk::export_bot!(MyBot);
/// ```
///
/// On `wasm32` it defines the exports the host calls:
///
/// * `_initialize()`: the WASI reactor start, called once before anything
///   else (it runs the module's static constructors);
/// * `ludus_alloc(len: i32) -> i32`: a pointer to `len` writable bytes, where
///   the host writes the observation (UTF-8 JSON);
/// * `act(ptr: i32, len: i32) -> i64`: reads the observation at `ptr`, calls
///   [`Bot::act`] on the match's single bot value and returns where the UTF-8
///   JSON answer lies, as `(ptr << 32) | len`. The answer stays valid until
///   the next call into the module.
///
/// On other targets it expands to nothing, so the crate still builds (and its
/// tests run) natively.
#[macro_export]
macro_rules! export_bot {
    ($bot:ty) => {
        #[cfg(target_arch = "wasm32")]
        const _: () = {
            /// WASI reactor start, called once by the host before anything else.
            #[unsafe(no_mangle)]
            pub extern "C" fn _initialize() {
                $crate::abi::initialize()
            }

            /// Bot ABI v1: room for the next observation.
            #[unsafe(no_mangle)]
            pub extern "C" fn ludus_alloc(len: i32) -> i32 {
                $crate::abi::alloc(len)
            }

            /// Bot ABI v1: one turn.
            #[unsafe(no_mangle)]
            pub extern "C" fn act(ptr: i32, len: i32) -> i64 {
                // SAFETY: the host wrote `len` bytes at `ptr`, inside the
                // buffer `ludus_alloc` returned, as the ABI requires.
                unsafe { $crate::abi::act::<$bot>(ptr, len) }
            }
        };
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planet_wars::{Moves, Observation};

    #[derive(Default)]
    struct Counter {
        turns: u32,
    }

    impl Bot for Counter {
        type Observation = Observation;
        type Action = Moves;
        fn act(&mut self, obs: &Observation) -> Moves {
            self.turns += 1;
            let mut m = Moves::default();
            if let Some(p) = obs.my_planets().next() {
                m.send(&p.name, "x", u64::from(self.turns));
            }
            m
        }
    }

    const OBS: &str =
        r#"{"planets":[{"name":"a","x":0.0,"y":0.0,"ship_count":3,"owner":1}],"expeditions":[]}"#;

    #[test]
    fn play_turn_keeps_state_and_answers_json() {
        let mut bot = Counter::default();
        assert_eq!(
            play_turn(&mut bot, OBS),
            r#"{"moves":[{"origin":"a","destination":"x","ship_count":1}]}"#
        );
        assert_eq!(
            play_turn(&mut bot, OBS),
            r#"{"moves":[{"origin":"a","destination":"x","ship_count":2}]}"#
        );
    }

    #[test]
    fn an_observation_the_bot_cannot_read_gets_an_empty_answer() {
        let mut bot = Counter::default();
        assert_eq!(play_turn(&mut bot, "{not json"), "");
        // Another game's observation: JSON, but not this bot's.
        assert_eq!(
            play_turn(&mut bot, r#"{"observation":{},"configuration":{}}"#),
            ""
        );
        assert_eq!(bot.turns, 0);
    }
}
