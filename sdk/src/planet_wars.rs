//! Planet Wars: what a bot sees ([`Observation`]) and answers ([`Moves`]).
//!
//! Every turn the bot sees every planet and every expedition (fleet in
//! flight). Owners are player numbers from the bot's point of view: the bot is
//! always player [`ME`] (1); `None` is neutral. Each turn, every player-owned
//! planet builds one ship, then expeditions are dispatched, then arrivals
//! fight: every ship destroys one enemy ship and the last one standing keeps
//! the planet (neutral if nobody is left). An expedition takes
//! `ceil(distance)` turns, at least 1 ([`Planet::turns_to`]); one with
//! `turns_remaining: 1` arrives during the coming turn. A planet may not be emptied,
//! but since a ship is built before dispatch, a bot may send up to the
//! `ship_count` it sees.
//!
//! ```
//! use ludus_sdk::planet_wars::{Moves, Observation};
//!
//! let obs: Observation = serde_json::from_str(r#"{
//!     "planets": [
//!         {"name": "home", "x": 0.0, "y": 0.0, "ship_count": 10, "owner": 1},
//!         {"name": "rock", "x": 3.0, "y": 4.0, "ship_count": 4, "owner": null}
//!     ],
//!     "expeditions": []
//! }"#).unwrap();
//! let home = obs.planet("home").unwrap();
//! let rock = obs.planet("rock").unwrap();
//! assert_eq!(home.turns_to(rock), 5);
//! let mut moves = Moves::default();
//! moves.send(&home.name, &rock.name, rock.ship_count + 1);
//! assert_eq!(
//!     serde_json::to_string(&moves).unwrap(),
//!     r#"{"moves":[{"origin":"home","destination":"rock","ship_count":5}]}"#
//! );
//! ```

use serde::{Deserialize, Serialize};

/// The player number a bot always has in its own observations.
pub const ME: u32 = 1;

/// What a bot sees at the start of a turn.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Observation {
    /// Every planet of the map, in the map's order (the same every turn).
    pub planets: Vec<Planet>,
    /// Every fleet in flight.
    #[serde(default)]
    pub expeditions: Vec<Expedition>,
}

impl crate::FromJson for Observation {}

/// A planet. Planets never move.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Planet {
    /// The planet's name, unique on the map; moves refer to planets by name.
    pub name: String,
    /// Horizontal position.
    pub x: f64,
    /// Vertical position.
    pub y: f64,
    /// Ships on the planet.
    pub ship_count: u64,
    /// Who holds it: `Some(1)` is you, `Some(n)` another player, `None` neutral.
    pub owner: Option<u32>,
}

/// A fleet in flight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expedition {
    /// Identifies the expedition for as long as it flies.
    pub id: u64,
    /// Ships in the fleet.
    pub ship_count: u64,
    /// Name of the planet it left.
    pub origin: String,
    /// Name of the planet it flies to.
    pub destination: String,
    /// The player who sent it (1 is you).
    pub owner: u32,
    /// Turns until it arrives at its destination.
    pub turns_remaining: u32,
}

/// A bot's answer: the expeditions to dispatch this turn. The default (no
/// moves) means "do nothing".
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Moves {
    /// The expeditions to dispatch, in order.
    pub moves: Vec<Move>,
}

/// One expedition to dispatch: `ship_count` ships from `origin` (a planet you
/// hold) to `destination` (any other planet).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// Name of the planet the ships leave; it must be yours.
    pub origin: String,
    /// Name of the planet they fly to.
    pub destination: String,
    /// How many ships; at most the `ship_count` you see on `origin`, counted
    /// over all moves from that planet this turn.
    pub ship_count: u64,
}

impl Planet {
    /// Euclidean distance to `other`.
    pub fn distance(&self, other: &Planet) -> f64 {
        let dx = self.x - other.x;
        let dy = self.y - other.y;
        (dx * dx + dy * dy).sqrt()
    }

    /// Turns an expedition from here takes to reach `other`: the distance,
    /// rounded up, and at least 1.
    pub fn turns_to(&self, other: &Planet) -> u32 {
        (self.distance(other).ceil() as u32).max(1)
    }

    /// Held by you (player 1).
    pub fn is_mine(&self) -> bool {
        self.owner == Some(ME)
    }

    /// Held by nobody.
    pub fn is_neutral(&self) -> bool {
        self.owner.is_none()
    }

    /// Held by another player.
    pub fn is_enemy(&self) -> bool {
        matches!(self.owner, Some(o) if o != ME)
    }
}

impl Expedition {
    /// Sent by you (player 1).
    pub fn is_mine(&self) -> bool {
        self.owner == ME
    }

    /// Sent by another player.
    pub fn is_enemy(&self) -> bool {
        self.owner != ME
    }
}

impl Observation {
    /// The planet called `name`, if there is one.
    pub fn planet(&self, name: &str) -> Option<&Planet> {
        self.planets.iter().find(|p| p.name == name)
    }

    /// Your planets, in map order.
    pub fn my_planets(&self) -> impl Iterator<Item = &Planet> + '_ {
        self.planets.iter().filter(|p| p.is_mine())
    }

    /// Other players' planets, in map order.
    pub fn enemy_planets(&self) -> impl Iterator<Item = &Planet> + '_ {
        self.planets.iter().filter(|p| p.is_enemy())
    }

    /// Neutral planets, in map order.
    pub fn neutral_planets(&self) -> impl Iterator<Item = &Planet> + '_ {
        self.planets.iter().filter(|p| p.is_neutral())
    }

    /// Planets you do not hold (neutral or enemy), in map order.
    pub fn not_my_planets(&self) -> impl Iterator<Item = &Planet> + '_ {
        self.planets.iter().filter(|p| !p.is_mine())
    }

    /// Your fleets in flight.
    pub fn my_expeditions(&self) -> impl Iterator<Item = &Expedition> + '_ {
        self.expeditions.iter().filter(|e| e.is_mine())
    }

    /// Other players' fleets in flight.
    pub fn enemy_expeditions(&self) -> impl Iterator<Item = &Expedition> + '_ {
        self.expeditions.iter().filter(|e| e.is_enemy())
    }

    /// Fleets (anyone's) flying to the planet called `name`.
    pub fn incoming<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Expedition> + 'a {
        self.expeditions
            .iter()
            .filter(move |e| e.destination == name)
    }

    /// Ships player `owner` has, on planets and in flight.
    pub fn ships_of(&self, owner: u32) -> u64 {
        let on_planets: u64 = self
            .planets
            .iter()
            .filter(|p| p.owner == Some(owner))
            .map(|p| p.ship_count)
            .sum();
        let in_flight: u64 = self
            .expeditions
            .iter()
            .filter(|e| e.owner == owner)
            .map(|e| e.ship_count)
            .sum();
        on_planets + in_flight
    }
}

impl Moves {
    /// Adds a move: send `ship_count` ships from `origin` to `destination`.
    /// Returns `self` so calls chain.
    pub fn send(
        &mut self,
        origin: impl Into<String>,
        destination: impl Into<String>,
        ship_count: u64,
    ) -> &mut Self {
        self.moves.push(Move {
            origin: origin.into(),
            destination: destination.into(),
            ship_count,
        });
        self
    }

    /// No moves at all.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE_BOOK_STATE: &str = r#"{
      "planets": [
        {"ship_count": 2, "x": -2.0, "y": 0.0, "owner": 1, "name": "your planet"},
        {"ship_count": 4, "x": 2.0, "y": 0.0, "owner": 2, "name": "enemy planet"},
        {"ship_count": 2, "x": 0.0, "y": 2.0, "owner": null, "name": "neutral planet"}
      ],
      "expeditions": [
        {"id": 169, "ship_count": 8, "origin": "your planet", "destination": "enemy planet",
         "owner": 1, "turns_remaining": 2}
      ]
    }"#;

    #[test]
    fn parses_the_rule_book_example() {
        let obs: Observation = serde_json::from_str(RULE_BOOK_STATE).unwrap();
        assert_eq!(obs.planets.len(), 3);
        let me = obs.planet("your planet").unwrap();
        let enemy = obs.planet("enemy planet").unwrap();
        let neutral = obs.planet("neutral planet").unwrap();
        assert!(me.is_mine() && !me.is_enemy() && !me.is_neutral());
        assert!(enemy.is_enemy() && !enemy.is_mine());
        assert!(neutral.is_neutral() && !neutral.is_enemy());
        assert_eq!(me.distance(enemy), 4.0);
        assert_eq!(me.turns_to(enemy), 4);
        assert_eq!(me.turns_to(neutral), 3); // ceil(2.83)
        assert_eq!(obs.my_planets().count(), 1);
        assert_eq!(obs.enemy_planets().count(), 1);
        assert_eq!(obs.neutral_planets().count(), 1);
        assert_eq!(obs.not_my_planets().count(), 2);
        assert_eq!(obs.incoming("enemy planet").count(), 1);
        assert_eq!(obs.my_expeditions().next().unwrap().id, 169);
        assert_eq!(obs.enemy_expeditions().count(), 0);
        assert_eq!(obs.ships_of(1), 10);
        assert_eq!(obs.ships_of(2), 4);
    }

    #[test]
    fn moves_serialise_in_the_rule_book_shape() {
        let mut m = Moves::default();
        assert!(m.is_empty());
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"moves":[]}"#);
        m.send("your planet", "enemy planet", 2).send("a", "b", 1);
        let v: serde_json::Value = serde_json::to_value(&m).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"moves": [
                {"origin": "your planet", "destination": "enemy planet", "ship_count": 2},
                {"origin": "a", "destination": "b", "ship_count": 1}
            ]})
        );
    }
}
