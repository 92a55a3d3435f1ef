//! Halite IV: what a bot sees ([`Turn`]) and answers ([`Actions`]).
//!
//! Each turn a bot receives exactly what a Kaggle Halite agent's
//! `agent(obs, config)` receives, as one JSON object
//! `{"observation": ..., "configuration": ...}`, and answers what such an
//! agent returns: a JSON object from ship or shipyard uid to action. So a
//! Kaggle agent's logic ports directly.
//!
//! The board is `size` × `size` cells wrapping at the edges; a cell is an
//! index `row * size + column`, row 0 at the top. `NORTH` is one row up,
//! `EAST` one column right. A ship that stays mines a quarter of its cell;
//! it banks its cargo on its own shipyard. When ships end a turn on the
//! same cell the one with strictly the least cargo survives and takes the
//! others' cargo (a tie destroys them all). `CONVERT` turns a ship into a
//! shipyard (500 halite), `SPAWN` builds a ship on a shipyard (500).
//!
//! ```
//! use ludus_sdk::halite::{Actions, ShipAction, Turn};
//!
//! let turn: Turn = serde_json::from_str(r#"{
//!   "observation": {"halite": [0, 5, 0, 9.5, 0, 0, 0, 0, 0], "player": 0, "step": 3,
//!     "players": [[600, {"2-1": 4}, {"1-1": [1, 20], "3-1": [4, 0]}],
//!                 [0, {}, {"0-2": [8, 7]}]],
//!     "remainingOverageTime": 60},
//!   "configuration": {"size": 3, "spawnCost": 500, "convertCost": 500,
//!     "episodeSteps": 400}
//! }"#).unwrap();
//! let board = turn.board();
//! let me = turn.me();
//! assert_eq!(me.ships[0].id, "1-1");
//! assert_eq!(board.neighbour(1, ShipAction::North), 7); // wraps to the bottom row
//! assert_eq!(board.distance(1, 8), 2);
//! let mut actions = Actions::default();
//! actions.ship(&me.ships[0].id, ShipAction::West).spawn(&me.shipyards[0].id);
//! assert_eq!(serde_json::to_string(&actions).unwrap(), r#"{"1-1":"WEST","2-1":"SPAWN"}"#);
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

mod json;

/// What a bot receives each turn.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Turn {
    pub observation: Observation,
    pub configuration: Configuration,
}

/// The reference's `observation`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Observation {
    /// Halite per cell, row-major.
    pub halite: Vec<f64>,
    /// Every player by seat: bank, shipyards, ships.
    pub players: Vec<Player>,
    /// Your seat.
    pub player: usize,
    /// The step (turn) number, from 0.
    pub step: u32,
    #[serde(rename = "remainingOverageTime", default)]
    pub remaining_overage_time: f64,
}

/// The reference's `configuration` (the fields a bot needs; others are
/// ignored).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Configuration {
    pub size: usize,
    #[serde(default = "default_steps")]
    pub episode_steps: u32,
    #[serde(default = "default_cost")]
    pub spawn_cost: f64,
    #[serde(default = "default_cost")]
    pub convert_cost: f64,
    #[serde(default)]
    pub move_cost: f64,
    #[serde(default = "default_collect_rate")]
    pub collect_rate: f64,
    #[serde(default = "default_regen_rate")]
    pub regen_rate: f64,
    #[serde(default = "default_cost")]
    pub max_cell_halite: f64,
}

fn default_steps() -> u32 {
    400
}
fn default_cost() -> f64 {
    500.0
}
fn default_collect_rate() -> f64 {
    0.25
}
fn default_regen_rate() -> f64 {
    0.02
}

/// One player: `[bank, {shipyard uid: cell}, {ship uid: [cell, cargo]}]`,
/// assets in the order the reference lists them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Player {
    /// Banked halite.
    pub halite: f64,
    pub shipyards: Vec<Shipyard>,
    pub ships: Vec<Ship>,
}

/// A shipyard.
#[derive(Debug, Clone, PartialEq)]
pub struct Shipyard {
    pub id: String,
    pub pos: usize,
}

/// A ship.
#[derive(Debug, Clone, PartialEq)]
pub struct Ship {
    pub id: String,
    pub pos: usize,
    /// Cargo.
    pub halite: f64,
}

/// What a ship can do; staying (and mining) is no action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShipAction {
    North,
    East,
    South,
    West,
    Convert,
}

impl ShipAction {
    /// The four moves.
    pub const MOVES: [ShipAction; 4] = [
        ShipAction::North,
        ShipAction::East,
        ShipAction::South,
        ShipAction::West,
    ];

    /// The name the answer uses.
    pub fn name(self) -> &'static str {
        match self {
            ShipAction::North => "NORTH",
            ShipAction::East => "EAST",
            ShipAction::South => "SOUTH",
            ShipAction::West => "WEST",
            ShipAction::Convert => "CONVERT",
        }
    }
}

/// A bot's answer: actions by asset uid, in the order given. The default
/// (no actions) means every ship stays and no shipyard spawns.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Actions {
    pub actions: Vec<(String, &'static str)>,
}

impl Actions {
    /// Orders ship `id` to move or convert. Returns `self` so calls chain.
    pub fn ship(&mut self, id: impl Into<String>, action: ShipAction) -> &mut Self {
        self.actions.push((id.into(), action.name()));
        self
    }

    /// Orders shipyard `id` to spawn a ship.
    pub fn spawn(&mut self, id: impl Into<String>) -> &mut Self {
        self.actions.push((id.into(), "SPAWN"));
        self
    }

    /// No actions at all.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }
}

impl Serialize for Actions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.actions.len()))?;
        for (id, action) in &self.actions {
            map.serialize_entry(id, action)?;
        }
        map.end()
    }
}

/// Board geometry: a torus of `size` × `size` cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    pub size: usize,
}

impl Board {
    /// `(row, column)` of a cell.
    pub fn row_col(self, pos: usize) -> (usize, usize) {
        (pos / self.size, pos % self.size)
    }

    /// The cell one step from `pos` (wrapping); `Convert` stays.
    pub fn neighbour(self, pos: usize, action: ShipAction) -> usize {
        let n = self.size;
        let (r, c) = self.row_col(pos);
        match action {
            ShipAction::North => ((r + n - 1) % n) * n + c,
            ShipAction::South => ((r + 1) % n) * n + c,
            ShipAction::East => r * n + (c + 1) % n,
            ShipAction::West => r * n + (c + n - 1) % n,
            ShipAction::Convert => pos,
        }
    }

    /// Moves on the wrapping board between two cells.
    pub fn distance(self, a: usize, b: usize) -> usize {
        let n = self.size;
        let ((ar, ac), (br, bc)) = (self.row_col(a), self.row_col(b));
        let dr = ar.abs_diff(br);
        let dc = ac.abs_diff(bc);
        dr.min(n - dr) + dc.min(n - dc)
    }

    /// Moves from `from` to every cell, indexed by cell: one pass without
    /// divisions, for strategies that score the whole board.
    pub fn distances_from(self, from: usize) -> Vec<usize> {
        let n = self.size;
        let (fr, fc) = self.row_col(from);
        let wrap = |a: usize, b: usize| {
            let d = a.abs_diff(b);
            d.min(n - d)
        };
        let cols: Vec<usize> = (0..n).map(|c| wrap(fc, c)).collect();
        let mut out = Vec::with_capacity(n * n);
        for r in 0..n {
            let dr = wrap(fr, r);
            out.extend(cols.iter().map(|dc| dr + dc));
        }
        out
    }

    /// The moves from `from` that bring a ship one step closer to `to`.
    pub fn moves_towards(self, from: usize, to: usize) -> Vec<ShipAction> {
        let d = self.distance(from, to);
        ShipAction::MOVES
            .into_iter()
            .filter(|m| self.distance(self.neighbour(from, *m), to) < d)
            .collect()
    }
}

/// The same value `serde_json::from_slice` gives, read in one pass when the
/// text has the plain shape the host writes (see the `json` module); other
/// text goes to serde_json.
impl crate::FromJson for Turn {
    fn from_json(json: &[u8]) -> serde_json::Result<Turn> {
        match json::read_turn(json) {
            Some(turn) => Ok(turn),
            None => serde_json::from_slice(json),
        }
    }
}

impl Turn {
    /// The board's geometry.
    pub fn board(&self) -> Board {
        Board {
            size: self.configuration.size,
        }
    }

    /// Your player.
    pub fn me(&self) -> &Player {
        &self.observation.players[self.observation.player]
    }

    /// Every other player, in seat order.
    pub fn enemies(&self) -> impl Iterator<Item = &Player> + '_ {
        let me = self.observation.player;
        self.observation
            .players
            .iter()
            .enumerate()
            .filter(move |(seat, _)| *seat != me)
            .map(|(_, p)| p)
    }

    /// Every other player's ships.
    pub fn enemy_ships(&self) -> impl Iterator<Item = &Ship> + '_ {
        self.enemies().flat_map(|p| p.ships.iter())
    }

    /// Every other player's shipyards.
    pub fn enemy_shipyards(&self) -> impl Iterator<Item = &Shipyard> + '_ {
        self.enemies().flat_map(|p| p.shipyards.iter())
    }
}

impl<'de> Deserialize<'de> for Player {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Player, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Player;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("[bank, {shipyard uid: cell}, {ship uid: [cell, cargo]}]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Player, A::Error> {
                let missing = || de::Error::custom("a player has 3 entries");
                let halite: f64 = seq.next_element()?.ok_or_else(missing)?;
                let yards: Entries<usize> = seq.next_element()?.ok_or_else(missing)?;
                let ships: Entries<(usize, f64)> = seq.next_element()?.ok_or_else(missing)?;
                Ok(Player {
                    halite,
                    shipyards: yards
                        .0
                        .into_iter()
                        .map(|(id, pos)| Shipyard { id, pos })
                        .collect(),
                    ships: ships
                        .0
                        .into_iter()
                        .map(|(id, (pos, halite))| Ship { id, pos, halite })
                        .collect(),
                })
            }
        }
        d.deserialize_seq(V)
    }
}

/// A JSON object's entries in their written order.
struct Entries<T>(Vec<(String, T)>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Entries<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Entries<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries<T>, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assets_keep_the_reference_order() {
        let p: Player = serde_json::from_str(
            r#"[12.5, {"9-1": 3, "2-1": 0}, {"5-2": [1, 0], "5-1": [2, 7.5]}]"#,
        )
        .unwrap();
        assert_eq!(p.halite, 12.5);
        let yards: Vec<&str> = p.shipyards.iter().map(|y| y.id.as_str()).collect();
        assert_eq!(yards, vec!["9-1", "2-1"]);
        let ships: Vec<(&str, usize, f64)> = p
            .ships
            .iter()
            .map(|s| (s.id.as_str(), s.pos, s.halite))
            .collect();
        assert_eq!(ships, vec![("5-2", 1, 0.0), ("5-1", 2, 7.5)]);
    }

    #[test]
    fn geometry_wraps() {
        let b = Board { size: 5 };
        assert_eq!(b.neighbour(2, ShipAction::North), 22);
        assert_eq!(b.neighbour(22, ShipAction::South), 2);
        assert_eq!(b.neighbour(14, ShipAction::East), 10);
        assert_eq!(b.neighbour(10, ShipAction::West), 14);
        assert_eq!(b.distance(0, 24), 2);
        assert_eq!(
            b.moves_towards(0, 24),
            vec![ShipAction::North, ShipAction::West]
        );
        assert!(b.moves_towards(7, 7).is_empty());
        for from in [0, 7, 12, 24] {
            let map = b.distances_from(from);
            assert_eq!(map.len(), 25);
            for (cell, d) in map.into_iter().enumerate() {
                assert_eq!(d, b.distance(from, cell), "{from} to {cell}");
            }
        }
    }

    #[test]
    fn empty_actions_are_an_empty_object() {
        assert_eq!(serde_json::to_string(&Actions::default()).unwrap(), "{}");
    }
}
