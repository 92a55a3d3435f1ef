//! Pirates: what a bot sees ([`Observation`]) and answers ([`Action`]).
//!
//! Four ships on a hexagonal sea of radius 14, in cube coordinates
//! (`q + r + s = 0`), take turns: one move each, player 1 to 4, 5000 moves
//! in all. Your bot is asked only on your move. A move is a step (`nw`,
//! `ne`, `e`, `se`, `sw`, `w`), a purchase next to a shop (`buy-POTION` 150
//! gold, `buy-HULL` and `buy-CANNONS` 200 then 300), `up` (a potion: +10%
//! of maximum health) or `atk-X` (fire at ship X within 2 fields: players
//! 1 to 4, NPCs 5 and 6). The flag pays 500 gold to the first ship next to
//! its island, an elimination 250 (an NPC 300). Vortices hold a ship for 3
//! moves; every 10 illegal moves cost 5% of maximum health. Other players'
//! ships are seen within 5 fields. The last ship afloat wins; after 5000
//! moves, the most gold, then health, then cannons.
//!
//! ```
//! use ludus_sdk::pirates::{Action, Observation};
//!
//! /// Fires when it can, else sails towards the flag.
//! fn act(obs: &Observation) -> Action {
//!     if let Some(shot) = obs.legal_actions.iter().find(|a| matches!(a, Action::Attack(_))) {
//!         return *shot;
//!     }
//!     let flag = obs.flag.pos();
//!     obs.legal_actions
//!         .iter()
//!         .filter_map(|a| Some((a.step_from(obs.me().pos())?.distance(flag), *a)))
//!         .min_by_key(|(d, _)| *d)
//!         .map_or(obs.legal_actions[0], |(_, a)| a)
//! }
//! ```

use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// Fields from the centre to the rim.
pub const RADIUS: i32 = 14;
/// Fields on the sea.
pub const FIELDS: usize = (1 + 3 * RADIUS * (RADIUS + 1)) as usize;
/// Fields a shot reaches.
pub const ATTACK_RANGE: u32 = 2;
pub const POTION_PRICE: u64 = 150;
pub const MAX_POTIONS: u32 = 3;
/// Maximum health by hull upgrades bought (0, 1, 2).
pub const HULLS: [u32; 3] = [400, 600, 1000];
/// Cannons by upgrades bought (0, 1, 2).
pub const CANNONS: [u32; 3] = [100, 150, 250];
/// Price of the first and the second upgrade (hull or cannons).
pub const UPGRADE_PRICES: [u64; 2] = [200, 300];
/// The NPCs' ids (`npc1` is 5, `npc2` is 6).
pub const NPC_IDS: [u8; 2] = [5, 6];

/// A field, `[q, r, s]` in the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

/// One of the six steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    Nw,
    Ne,
    E,
    Se,
    Sw,
    W,
}

impl Dir {
    /// Up-left, up-right, right, down-right, down-left, left.
    pub const ALL: [Dir; 6] = [Dir::Nw, Dir::Ne, Dir::E, Dir::Se, Dir::Sw, Dir::W];

    /// The step as `(dq, dr)`.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Nw => (0, -1),
            Dir::Ne => (1, -1),
            Dir::E => (1, 0),
            Dir::Se => (0, 1),
            Dir::Sw => (-1, 1),
            Dir::W => (-1, 0),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::Nw => "nw",
            Dir::Ne => "ne",
            Dir::E => "e",
            Dir::Se => "se",
            Dir::Sw => "sw",
            Dir::W => "w",
        }
    }
}

impl Hex {
    pub const CENTRE: Hex = Hex { q: 0, r: 0 };

    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    pub fn distance(self, other: Hex) -> u32 {
        ((self.q - other.q).unsigned_abs()
            + (self.r - other.r).unsigned_abs()
            + (self.s() - other.s()).unsigned_abs())
            / 2
    }

    /// Whether the field lies on the sea.
    pub fn on_sea(self) -> bool {
        self.q.abs() <= RADIUS && self.r.abs() <= RADIUS && self.s().abs() <= RADIUS
    }

    /// The field one step towards `dir` (maybe off the sea).
    pub fn step(self, dir: Dir) -> Hex {
        let (dq, dr) = dir.delta();
        Hex::new(self.q + dq, self.r + dr)
    }

    /// The neighbours on the sea.
    pub fn neighbours(self) -> impl Iterator<Item = Hex> {
        Dir::ALL
            .into_iter()
            .map(move |d| self.step(d))
            .filter(|h| h.on_sea())
    }

    /// The step from `self` to its neighbour `to`.
    pub fn dir_to(self, to: Hex) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(d) == to)
    }

    /// A number per field of the sea, from 0 to [`FIELDS`] − 1, row by row
    /// from the top (for arrays indexed by field). `None` off the sea.
    pub fn index(self) -> Option<usize> {
        if !self.on_sea() {
            return None;
        }
        let (r, big) = (self.r, RADIUS);
        // Fields in the rows above: row `j` is 2R + 1 − |j| long.
        let before = if r <= 0 {
            let k = r + big;
            k * (big + 1) + k * (k - 1) / 2
        } else {
            (big + 1) * (big + 1) + big * (big + 1) / 2 + (r - 1) * (2 * big + 1) - (r - 1) * r / 2
        };
        let first_q = if r <= 0 { -big - r } else { -big };
        Some((before + self.q - first_q) as usize)
    }

    /// The field numbered `i` by [`Hex::index`].
    pub fn from_index(i: usize) -> Option<Hex> {
        let mut left = i as i32;
        for r in -RADIUS..=RADIUS {
            let len = 2 * RADIUS + 1 - r.abs();
            if left < len {
                let first_q = if r <= 0 { -RADIUS - r } else { -RADIUS };
                return Some(Hex::new(first_q + left, r));
            }
            left -= len;
        }
        None
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.q, self.r, self.s())
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        [self.q, self.r, self.s()].serialize(s)
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Hex, D::Error> {
        let [q, r, s] = <[i32; 3]>::deserialize(d)?;
        if q + r + s != 0 {
            return Err(de::Error::custom(format!(
                "[{q}, {r}, {s}] is not a field: q + r + s must be 0"
            )));
        }
        Ok(Hex::new(q, r))
    }
}

/// What a bot sees on its move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Observation {
    /// Moves played so far (every ship's, NPC actions not counted).
    #[serde(rename = "move")]
    pub move_number: u32,
    pub moves_left: u32,
    /// Your ship's id: 1 to 4 (`player<yourId>` is you).
    pub your_id: u8,
    /// Whose move it is (yours, when you are asked).
    pub to_move: u8,
    pub map: Map,
    /// The island the flag stands on.
    pub flag: Position,
    /// Players' ships by id: yours always, the others only within your
    /// sight and while afloat.
    pub player1: Option<Ship>,
    pub player2: Option<Ship>,
    pub player3: Option<Ship>,
    pub player4: Option<Ship>,
    /// The NPCs (ids 5 and 6), only within your sight and while afloat.
    pub npc1: Option<Npc>,
    pub npc2: Option<Npc>,
    /// Ids of the ships no longer in the game, players' and NPCs'.
    pub eliminated: Vec<u8>,
    /// What you may answer now.
    pub legal_actions: Vec<Action>,
}

impl crate::FromJson for Observation {}

/// The map: every island (shops and flag islands included) and vortex.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Map {
    pub radius: i32,
    pub islands: Vec<Hex>,
    pub shops: Vec<Hex>,
    /// The islands the flag may stand on.
    pub flag_islands: Vec<Hex>,
    pub vortices: Vec<Hex>,
    /// The NPCs circle this many fields from the centre.
    pub npc_ring: u32,
}

/// What is on a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terrain {
    Water,
    Vortex,
    Island,
    Shop,
    FlagIsland,
}

impl Terrain {
    /// Whether a ship may sail onto it.
    pub fn passable(self) -> bool {
        matches!(self, Terrain::Water | Terrain::Vortex)
    }
}

impl Map {
    /// The terrain of every field, indexed by [`Hex::index`].
    pub fn terrain(&self) -> Vec<Terrain> {
        let mut t = vec![Terrain::Water; FIELDS];
        let mut set = |list: &[Hex], v: Terrain| {
            for h in list {
                if let Some(i) = h.index() {
                    t[i] = v;
                }
            }
        };
        set(&self.vortices, Terrain::Vortex);
        set(&self.islands, Terrain::Island);
        set(&self.shops, Terrain::Shop);
        set(&self.flag_islands, Terrain::FlagIsland);
        t
    }
}

/// A field as `{"q", "r", "s"}` (the flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    pub q: i32,
    pub r: i32,
    pub s: i32,
}

impl Position {
    pub fn pos(&self) -> Hex {
        Hex::new(self.q, self.r)
    }
}

/// A player's ship.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Ship {
    pub id: u8,
    pub q: i32,
    pub r: i32,
    pub s: i32,
    pub health: u32,
    pub max_health: u32,
    /// Damage of its shots.
    pub cannons: u32,
    pub gold: u64,
    /// Potions carried.
    pub pot_nums: u32,
    pub illegal_moves: u32,
    /// Held by a vortex: it may not sail.
    pub paralyzed: bool,
    /// Its moves the vortex still holds it for.
    pub whirlpool_duration: u32,
    /// Fields within which it sees other ships.
    pub sight: u32,
}

impl Ship {
    pub fn pos(&self) -> Hex {
        Hex::new(self.q, self.r)
    }

    /// Hull upgrades bought so far (0 to 2).
    pub fn hull_level(&self) -> usize {
        HULLS
            .iter()
            .position(|&h| h >= self.max_health)
            .unwrap_or(2)
    }

    /// Cannon upgrades bought so far (0 to 2).
    pub fn cannon_level(&self) -> usize {
        CANNONS.iter().position(|&c| c >= self.cannons).unwrap_or(2)
    }

    /// The price of the next hull upgrade, if there is one.
    pub fn hull_price(&self) -> Option<u64> {
        UPGRADE_PRICES.get(self.hull_level()).copied()
    }

    /// The price of the next cannon upgrade, if there is one.
    pub fn cannon_price(&self) -> Option<u64> {
        UPGRADE_PRICES.get(self.cannon_level()).copied()
    }
}

/// A non-player pirate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Npc {
    pub id: u8,
    pub q: i32,
    pub r: i32,
    pub s: i32,
    pub health: u32,
    pub max_health: u32,
    pub cannons: u32,
    /// Fields within which it sees (and chases) ships.
    pub sight: u32,
    /// The player it chases, when you see that player (yourself included);
    /// `None` when it chases nobody or a ship you do not see.
    pub chasing: Option<u8>,
    /// The player it fired at in its last action, when you see that player.
    pub fired_at: Option<u8>,
}

impl Npc {
    pub fn pos(&self) -> Hex {
        Hex::new(self.q, self.r)
    }
}

impl Observation {
    /// Your ship.
    pub fn me(&self) -> &Ship {
        self.player(self.your_id)
            .expect("the observation always holds your own ship")
    }

    /// The ship of player `id` (1 to 4), if you see it.
    pub fn player(&self, id: u8) -> Option<&Ship> {
        match id {
            1 => self.player1.as_ref(),
            2 => self.player2.as_ref(),
            3 => self.player3.as_ref(),
            4 => self.player4.as_ref(),
            _ => None,
        }
    }

    /// The other players' ships you see.
    pub fn rivals(&self) -> impl Iterator<Item = &Ship> + '_ {
        [&self.player1, &self.player2, &self.player3, &self.player4]
            .into_iter()
            .flatten()
            .filter(|s| s.id != self.your_id)
    }

    /// The NPCs you see.
    pub fn npcs(&self) -> impl Iterator<Item = &Npc> + '_ {
        [&self.npc1, &self.npc2].into_iter().flatten()
    }

    pub fn is_legal(&self, a: Action) -> bool {
        self.legal_actions.contains(&a)
    }

    /// Whether a ship you see (yours, a rival's or an NPC) is on `h`.
    pub fn occupied(&self, h: Hex) -> bool {
        self.me().pos() == h
            || self.rivals().any(|s| s.pos() == h)
            || self.npcs().any(|n| n.pos() == h)
    }

    /// Whether `h` is next to a shop.
    pub fn next_to_shop(&self, h: Hex) -> bool {
        self.map.shops.iter().any(|s| s.distance(h) == 1)
    }
}

/// An answer. [`Action::Idle`] is not one of the game's: it is what the
/// SDK answers when it cannot read the observation, and the game refuses it
/// as an illegal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// One field towards the direction.
    Sail(Dir),
    BuyPotion,
    BuyHull,
    BuyCannons,
    /// `up`: drink a potion.
    Drink,
    /// `atk-X`: fire at ship X.
    Attack(u8),
    #[default]
    Idle,
}

impl Action {
    /// The word the game reads.
    pub fn name(self) -> String {
        match self {
            Action::Sail(d) => d.name().into(),
            Action::BuyPotion => "buy-POTION".into(),
            Action::BuyHull => "buy-HULL".into(),
            Action::BuyCannons => "buy-CANNONS".into(),
            Action::Drink => "up".into(),
            Action::Attack(x) => format!("atk-{x}"),
            Action::Idle => "idle".into(),
        }
    }

    /// Reads an action word (letters in any case).
    pub fn from_name(word: &str) -> Option<Action> {
        let lower = word.to_ascii_lowercase();
        Some(match lower.as_str() {
            "nw" => Action::Sail(Dir::Nw),
            "ne" => Action::Sail(Dir::Ne),
            "e" => Action::Sail(Dir::E),
            "se" => Action::Sail(Dir::Se),
            "sw" => Action::Sail(Dir::Sw),
            "w" => Action::Sail(Dir::W),
            "buy-potion" => Action::BuyPotion,
            "buy-hull" => Action::BuyHull,
            "buy-cannons" => Action::BuyCannons,
            "up" => Action::Drink,
            "idle" => Action::Idle,
            other => Action::Attack(other.strip_prefix("atk-")?.parse().ok()?),
        })
    }

    /// Where a step from `from` leads; `None` for the other actions.
    pub fn step_from(self, from: Hex) -> Option<Hex> {
        match self {
            Action::Sail(d) => Some(from.step(d)),
            _ => None,
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        let word = String::deserialize(d)?;
        Action::from_name(&word)
            .ok_or_else(|| de::Error::custom(format!("{word:?} is not a pirates action")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_numbers_go_row_by_row_over_the_whole_sea() {
        let mut n = 0;
        for r in -RADIUS..=RADIUS {
            for q in -RADIUS..=RADIUS {
                let h = Hex::new(q, r);
                if h.on_sea() {
                    assert_eq!(h.index(), Some(n));
                    assert_eq!(Hex::from_index(n), Some(h));
                    n += 1;
                }
            }
        }
        assert_eq!(n, FIELDS);
        assert_eq!(Hex::new(0, 15).index(), None);
    }

    #[test]
    fn actions_read_and_write_as_the_games_words() {
        for word in [
            "nw",
            "ne",
            "e",
            "se",
            "sw",
            "w",
            "buy-POTION",
            "buy-HULL",
            "buy-CANNONS",
            "up",
            "atk-6",
        ] {
            let a: Action = serde_json::from_str(&format!("\"{word}\"")).unwrap();
            assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{word}\""));
        }
        assert!(serde_json::from_str::<Action>("\"stay\"").is_err());
        assert_eq!(Action::default().name(), "idle");
    }
}
