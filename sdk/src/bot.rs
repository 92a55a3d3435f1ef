//! What a bot is to the SDK: the [`Bot`] trait a bot author implements, and
//! how its observation type is read ([`FromJson`]). Re-exported at the crate
//! root; [`crate::abi`] calls them.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// A bot: one value of this type plays a whole match, one [`Bot::act`] call
/// per turn.
///
/// The value is created with [`Default`] before the first turn and lives until
/// the match ends, so fields persist from turn to turn.
pub trait Bot: Default + 'static {
    /// What the bot sees each turn, e.g. [`planet_wars::Observation`](crate::planet_wars::Observation).
    type Observation: FromJson;
    /// What the bot answers each turn, e.g. [`planet_wars::Moves`](crate::planet_wars::Moves).
    type Action: Serialize;

    /// Decides this turn's action from what the bot sees.
    fn act(&mut self, obs: &Self::Observation) -> Self::Action;
}

/// How a bot's observation type is read from the JSON text the host sends.
///
/// The provided [`FromJson::from_json`] is `serde_json::from_slice`. Every
/// observation type in this crate implements it (Halite's [`halite::Turn`](crate::halite::Turn)
/// with a faster reader of its own); for a `Deserialize` type of your own,
/// `impl ludus_sdk::FromJson for MyObservation {}` is all it takes.
pub trait FromJson: DeserializeOwned {
    /// Reads one observation.
    fn from_json(json: &[u8]) -> serde_json::Result<Self> {
        serde_json::from_slice(json)
    }
}

impl FromJson for serde_json::Value {}
