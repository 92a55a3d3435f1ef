//! What each seat of a game sees. Every registered game says it in its
//! entry ([`GameInfo::sight`](crate::GameInfo::sight)), which has no
//! default: every seat sees the whole state ([`Sight::Full`]), or each sees
//! a part of it ([`Sight::Partial`]), and then the entry also says how to
//! change, at random, what a seat cannot see ([`Hidden::perturb_unseen`]).
//! The leak test (`engine/tests/leaks.rs`) plays every such game at random
//! and checks, at every position and for every seat, that what the host
//! hands the seat's bot (its observation, and whether it is asked) is the
//! same byte for byte after the change. A game with a hidden part cannot be
//! registered without the means to prove that nothing hidden leaks.

use rand_chacha::ChaCha8Rng;

use crate::{EngineError, Game, Seat};

/// What each seat of a game sees.
#[derive(Debug, Clone, Copy)]
pub enum Sight {
    /// Every seat sees the whole state.
    Full,
    /// Each seat sees a part of the state; the game writes the whole of it
    /// for spectators ([`Game::spectator`]).
    Partial(Fog),
}

/// Builds a game with a hidden part from its JSON config, a seed and a seat
/// count, as [`Constructor`](crate::game_info::Constructor) does.
pub type HiddenConstructor =
    fn(&serde_json::Value, u64, usize) -> Result<Box<dyn Hidden>, EngineError>;

/// A game with hidden information, as the leak test plays it.
#[derive(Debug, Clone, Copy)]
pub struct Fog {
    /// Builds the game as [`GameInfo::new`](crate::GameInfo::new) does, with
    /// what the leak test needs of it.
    pub new: HiddenConstructor,
    /// The configs the leak test plays, as JSON text (`null`: the default).
    pub configs: &'static [&'static str],
    /// What the game hides from a seat: a word for each kind of change
    /// [`Hidden::perturb_unseen`] makes. The leak test checks that each is
    /// made, often.
    pub hidden: &'static [&'static str],
}

/// A game whose seats each see a part of the state.
pub trait Hidden: Game {
    /// A copy of the game as it stands.
    fn fork(&self) -> Box<dyn Hidden>;

    /// The answers of one turn of random play, drawn from `rng`: per seat,
    /// a legal answer, or `None` for a seat the turn does not ask.
    fn random_answers(&self, rng: &mut ChaCha8Rng) -> Vec<Option<String>>;

    /// Changes at random, from `rng`, what `seat` cannot see now, and
    /// nothing it can; the state stays one the rules could have made.
    /// Returns the words of [`Fog::hidden`] for what it changed.
    fn perturb_unseen(&mut self, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<&'static str>;
}

/// `true` one time in `n`, drawn from `rng`.
pub fn one_in(rng: &mut ChaCha8Rng, n: u64) -> bool {
    below(rng, n) == 0
}

/// A number from 0 to `n - 1` (`n` > 0), drawn from `rng`.
pub fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    rand_core::RngCore::next_u64(rng) % n
}

/// An element of `items` drawn from `rng`; `None` when it is empty.
pub fn pick<T: Copy>(rng: &mut ChaCha8Rng, items: &[T]) -> Option<T> {
    (!items.is_empty()).then(|| items[below(rng, items.len() as u64) as usize])
}
