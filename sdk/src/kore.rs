//! Kore 2022: what a bot sees ([`Observation`]) and answers ([`Actions`]).
//!
//! The observation is Kaggle's: `observation` (the board, every player's
//! kore, shipyards and fleets) and `configuration`. Cells are indices
//! `row * size + col`, row 0 at the top; north is row − 1, and the board
//! wraps. Each turn a bot gives each of its shipyards one order:
//! `SPAWN_n` (n ships at `spawnCost` kore each, at most the shipyard's
//! [`max_spawn`]) or `LAUNCH_n_PLAN` (a fleet of n ships flying PLAN, cut to
//! [`max_flight_plan_len`] characters: letters `N E S W` turn, numbers repeat
//! the last move, `C` builds a shipyard with 50 ships or more).
//!
//! ```
//! use ludus_sdk::kore::{Actions, Observation};
//!
//! let obs: Observation = serde_json::from_str(r#"{
//!   "observation": {"kore": [0, 5.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
//!     "players": [[500, {"0-1": [12, 3, 0]}, {}], [500, {"0-2": [6, 0, 0]}, {"4-1": [7, 1.5, 2, 1, "3W"]}]],
//!     "player": 0, "step": 4, "remainingOverageTime": 60},
//!   "configuration": {"size": 5, "spawnCost": 10.0, "convertCost": 50, "episodeSteps": 400}
//! }"#).unwrap();
//! let me = obs.me();
//! assert_eq!(me.shipyards[0].ships, 3);
//! assert_eq!(obs.players()[1].fleets[0].plan, "3W");
//! let mut actions = Actions::default();
//! actions.launch(&me.shipyards[0].id, 2, "N");
//! assert_eq!(serde_json::to_string(&actions).unwrap(), r#"{"0-1":"LAUNCH_2_N"}"#);
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// What a bot receives each turn.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Observation {
    pub observation: Board,
    pub configuration: Configuration,
}

impl crate::FromJson for Observation {}

/// Kaggle's `observation`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Board {
    /// Kore per cell.
    pub kore: Vec<f64>,
    /// Per player: `[kore, {uid: shipyard}, {uid: fleet}]`.
    pub players: Vec<RawPlayer>,
    /// The bot's own player index.
    pub player: usize,
    pub step: u32,
}

/// `[kore, {uid: shipyard}, {uid: fleet}]`.
pub type RawPlayer = (
    f64,
    BTreeMap<String, RawShipyard>,
    BTreeMap<String, RawFleet>,
);
/// `[cell, ships, turns controlled]`.
pub type RawShipyard = (usize, i64, i64);
/// `[cell, kore, ships, direction, plan]`.
pub type RawFleet = (usize, f64, i64, u8, String);

/// Kaggle's `configuration` (the fields a bot needs).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Configuration {
    pub size: usize,
    pub spawn_cost: f64,
    pub convert_cost: i64,
    pub episode_steps: u32,
}

/// A shipyard.
#[derive(Debug, Clone, PartialEq)]
pub struct Shipyard {
    pub id: String,
    pub cell: usize,
    pub ships: i64,
    pub turns_controlled: i64,
}

impl Shipyard {
    /// How many ships it may spawn this turn.
    pub fn max_spawn(&self) -> i64 {
        max_spawn(self.turns_controlled)
    }
}

/// A fleet.
#[derive(Debug, Clone, PartialEq)]
pub struct Fleet {
    pub id: String,
    pub cell: usize,
    pub kore: f64,
    pub ships: i64,
    /// 0 north, 1 east, 2 south, 3 west.
    pub direction: u8,
    pub plan: String,
}

/// A player's holdings.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    pub index: usize,
    pub kore: f64,
    pub shipyards: Vec<Shipyard>,
    pub fleets: Vec<Fleet>,
}

impl Observation {
    /// Every player, in seat order.
    pub fn players(&self) -> Vec<Player> {
        (0..self.observation.players.len())
            .map(|i| self.player(i))
            .collect()
    }

    /// One player's holdings.
    pub fn player(&self, index: usize) -> Player {
        let (kore, shipyards, fleets) = &self.observation.players[index];
        Player {
            index,
            kore: *kore,
            shipyards: shipyards
                .iter()
                .map(|(id, &(cell, ships, turns_controlled))| Shipyard {
                    id: id.clone(),
                    cell,
                    ships,
                    turns_controlled,
                })
                .collect(),
            fleets: fleets
                .iter()
                .map(|(id, (cell, kore, ships, direction, plan))| Fleet {
                    id: id.clone(),
                    cell: *cell,
                    kore: *kore,
                    ships: *ships,
                    direction: *direction,
                    plan: plan.clone(),
                })
                .collect(),
        }
    }

    /// The bot's own holdings.
    pub fn me(&self) -> Player {
        self.player(self.observation.player)
    }

    pub fn size(&self) -> usize {
        self.configuration.size
    }

    /// (row, col) of a cell.
    pub fn row_col(&self, cell: usize) -> (usize, usize) {
        (cell / self.size(), cell % self.size())
    }

    /// The cell one step from `cell` in `direction` (`'N'`, `'E'`, `'S'`, `'W'`).
    pub fn step_from(&self, cell: usize, direction: char) -> usize {
        let n = self.size();
        let (r, c) = self.row_col(cell);
        match direction {
            'N' => ((r + n - 1) % n) * n + c,
            'S' => ((r + 1) % n) * n + c,
            'E' => r * n + (c + 1) % n,
            _ => r * n + (c + n - 1) % n,
        }
    }

    /// Moves on the torus between two cells (Manhattan, shortest way round).
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let n = self.size();
        let (ra, ca) = self.row_col(a);
        let (rb, cb) = self.row_col(b);
        let dr = ra.abs_diff(rb);
        let dc = ca.abs_diff(cb);
        dr.min(n - dr) + dc.min(n - dc)
    }
}

/// The most ships a shipyard spawns in a turn after `turns_controlled` turns.
pub fn max_spawn(turns_controlled: i64) -> i64 {
    [2, 7, 17, 34, 60, 97, 147, 212, 294]
        .iter()
        .filter(|&&t| turns_controlled >= t)
        .count() as i64
        + 1
}

/// The longest plan a fleet of `ships` flies: floor(2 ln ships) + 1.
pub fn max_flight_plan_len(ships: i64) -> usize {
    if ships < 1 {
        return 0;
    }
    ((2.0 * (ships as f64).ln()).floor() + 1.0) as usize
}

/// The share of a cell's kore a fleet of `ships` mines per turn.
pub fn collection_rate(ships: i64) -> f64 {
    if ships < 1 {
        return 0.0;
    }
    ((ships as f64).ln() / 20.0).min(0.99)
}

/// A turn's orders: shipyard uid → `SPAWN_n` or `LAUNCH_n_PLAN`. The default
/// (no orders) does nothing.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(transparent)]
pub struct Actions(pub BTreeMap<String, String>);

impl Actions {
    /// Spawn `ships` at the shipyard.
    pub fn spawn(&mut self, shipyard: &str, ships: i64) {
        self.0
            .insert(shipyard.to_string(), format!("SPAWN_{ships}"));
    }

    /// Launch `ships` from the shipyard on `plan`.
    pub fn launch(&mut self, shipyard: &str, ships: i64, plan: &str) {
        self.0
            .insert(shipyard.to_string(), format!("LAUNCH_{ships}_{plan}"));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
