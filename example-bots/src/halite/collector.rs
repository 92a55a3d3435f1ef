//! A bot that mines, returns, builds and stays out of harm's way.

use ludus_sdk::halite::{Actions, Board, Ship, ShipAction, Turn};
use ludus_sdk::Bot;

/// A real Halite strategy in a page:
///
/// * **Build.** Without a shipyard, the ship with the most cargo converts at
///   once (on the first turn: the starting ship). Once the fleet has grown, a
///   ship far from every shipyard converts to shorten the trips.
/// * **Mine.** A ship stays while its cell is rich, else it heads for the
///   cell with the best halite per step of travel, one ship per target.
/// * **Return.** A ship with a full hold, or one that would not make it home
///   before the end, heads for the nearest shipyard; a loaded ship that
///   cannot reach one before the end converts where it is.
/// * **Avoid.** A ship never ends a move where an enemy ship with no more
///   cargo than its own could also end it (the lighter one wins a collision,
///   a tie destroys both), nor on an enemy shipyard, nor where one of its
///   own ships will be.
/// * **Spawn** while there is time for a new ship to pay for itself and the
///   board holds enough halite per ship (every player's) to feed it.
///
/// Everything is decided from the observation alone, deterministically.
#[derive(Debug, Default)]
pub struct Collector;

impl Collector {
    /// Cargo at which a ship heads home.
    pub const FULL_HOLD: f64 = 350.0;
    /// A cell at least this rich is worth staying on.
    pub const RICH_CELL: f64 = 90.0;
    /// No more ships than this.
    pub const MAX_SHIPS: usize = 18;
    /// Ships per shipyard before building another.
    pub const SHIPS_PER_YARD: usize = 7;
    /// No spawning with fewer steps left than this.
    pub const LAST_SPAWN: u32 = 90;
    /// No spawning when the board holds less than this per ship in play,
    /// in units of the spawn cost.
    pub const HALITE_PER_SHIP: f64 = 1.5;
    /// A ship with cargo heads home when no cell it could reach is worth
    /// more than this.
    pub const POOR_CELL: f64 = 40.0;
}

/// One turn's working state.
struct Plan<'a> {
    turn: &'a Turn,
    board: Board,
    /// Per cell: the least cargo of an enemy ship that could end the turn
    /// there (on it or next to it).
    threat: Vec<f64>,
    enemy_yard: Vec<bool>,
    /// Cells where one of our ships (or a new one) ends the turn.
    taken: Vec<bool>,
    /// Cells some ship of ours is heading for.
    targeted: Vec<bool>,
    yards: Vec<usize>,
    bank: f64,
    actions: Actions,
}

impl Plan<'_> {
    fn safe(&self, cell: usize, cargo: f64) -> bool {
        self.threat[cell] > cargo && !self.enemy_yard[cell]
    }

    fn nearest_yard(&self, pos: usize) -> Option<(usize, usize)> {
        self.yards
            .iter()
            .map(|&y| (self.board.distance(pos, y), y))
            .min()
    }

    /// Per cell: the steps to our nearest shipyard (0 without one), and
    /// whether a shipyard (ours or an enemy's) stands there. Worked out once
    /// a turn, after this turn's conversion: every mining target needs them.
    fn home_distances(&self) -> (Vec<usize>, Vec<bool>) {
        let cells = self.board.size * self.board.size;
        let mut back = vec![if self.yards.is_empty() { 0 } else { usize::MAX }; cells];
        for &y in &self.yards {
            for (b, d) in back.iter_mut().zip(self.board.distances_from(y)) {
                *b = (*b).min(d);
            }
        }
        let mut yard = self.enemy_yard.clone();
        for &y in &self.yards {
            yard[y] = true;
        }
        (back, yard)
    }

    /// The cell with the best halite per step of travel (and back).
    fn mining_target(&self, ship: &Ship, back: &[usize], yard: &[bool]) -> usize {
        let halite = &self.turn.observation.halite;
        let to = self.board.distances_from(ship.pos);
        let mut best = (f64::MIN, ship.pos);
        for (cell, &h) in halite.iter().enumerate() {
            // A score is at most the cell's halite: a cell no richer than the
            // best score so far cannot beat it.
            if h <= best.0 || self.targeted[cell] || yard[cell] {
                continue;
            }
            let score = h / (1.0 + to[cell] as f64 + 0.5 * back[cell] as f64);
            if score > best.0 {
                best = (score, cell);
            }
        }
        best.1
    }

    /// Orders `ship` one step towards `target` (or to stay, if it is there),
    /// avoiding danger and our own ships.
    fn go(&mut self, ship: &Ship, target: usize) {
        let board = self.board;
        let towards = board.moves_towards(ship.pos, target);
        let stay_ok = !self.taken[ship.pos] && self.safe(ship.pos, ship.halite);
        let free = |p: &Self, m: ShipAction| {
            let c = board.neighbour(ship.pos, m);
            !p.taken[c] && p.safe(c, ship.halite)
        };
        let choice = if ship.pos == target && stay_ok {
            None
        } else if let Some(m) = towards.iter().copied().find(|m| free(self, *m)) {
            Some(m)
        } else if stay_ok {
            None
        } else if let Some(m) = ShipAction::MOVES.into_iter().find(|m| free(self, *m)) {
            Some(m)
        } else if !self.taken[ship.pos] {
            None
        } else {
            ShipAction::MOVES
                .into_iter()
                .find(|m| !self.taken[board.neighbour(ship.pos, *m)])
        };
        let end = choice.map_or(ship.pos, |m| board.neighbour(ship.pos, m));
        self.taken[end] = true;
        if let Some(m) = choice {
            self.actions.ship(&ship.id, m);
        }
    }
}

impl Bot for Collector {
    type Observation = Turn;
    type Action = Actions;

    fn act(&mut self, turn: &Turn) -> Actions {
        let board = turn.board();
        let cells = board.size * board.size;
        let config = &turn.configuration;
        let me = turn.me();
        let left = config
            .episode_steps
            .saturating_sub(1 + turn.observation.step);

        let mut threat = vec![f64::INFINITY; cells];
        for e in turn.enemy_ships() {
            let reach = [e.pos].into_iter().chain(
                ShipAction::MOVES
                    .into_iter()
                    .map(|m| board.neighbour(e.pos, m)),
            );
            for c in reach {
                threat[c] = threat[c].min(e.halite);
            }
        }
        let mut enemy_yard = vec![false; cells];
        for y in turn.enemy_shipyards() {
            enemy_yard[y.pos] = true;
        }
        let mut plan = Plan {
            turn,
            board,
            threat,
            enemy_yard,
            taken: vec![false; cells],
            targeted: vec![false; cells],
            yards: me.shipyards.iter().map(|y| y.pos).collect(),
            bank: me.halite,
            actions: Actions::default(),
        };

        // Heaviest first: they have the most to lose and the fewest options.
        let mut ships: Vec<&Ship> = me.ships.iter().collect();
        ships.sort_by(|a, b| b.halite.total_cmp(&a.halite));

        // Build: a first shipyard, or another one far from the others.
        let mut converted: Option<&str> = None;
        let can_pay = |s: &Ship, bank: f64| s.halite + bank >= config.convert_cost;
        if plan.yards.is_empty() {
            if let Some(s) = ships.first().filter(|s| can_pay(s, plan.bank) && left > 10) {
                converted = Some(&s.id);
            }
        } else if ships.len() >= Collector::SHIPS_PER_YARD * plan.yards.len()
            && left > 120
            && plan.bank >= 2.0 * config.convert_cost
        {
            let far = ships.iter().find(|s| {
                plan.nearest_yard(s.pos).is_some_and(|(d, _)| d >= 6) && plan.safe(s.pos, s.halite)
            });
            if let Some(s) = far {
                converted = Some(&s.id);
            }
        }
        if let Some(id) = converted {
            let s = ships.iter().find(|s| s.id == id).expect("one of ours");
            plan.bank += (s.halite - config.convert_cost).min(0.0);
            plan.actions.ship(id, ShipAction::Convert);
            plan.yards.push(s.pos);
        }

        let (back, yard) = plan.home_distances();
        for ship in ships {
            if Some(ship.id.as_str()) == converted {
                continue;
            }
            let home = plan.nearest_yard(ship.pos);
            let late = home.is_some_and(|(d, _)| left <= d as u32 + 2);
            if let Some((d, _)) = home {
                // Too far to make it home: bank the cargo by converting.
                if ship.halite >= config.convert_cost
                    && left < d as u32
                    && !plan.yards.contains(&ship.pos)
                {
                    plan.actions.ship(&ship.id, ShipAction::Convert);
                    plan.taken[ship.pos] = true;
                    continue;
                }
            }
            let returning = home.is_some()
                && (ship.halite >= Collector::FULL_HOLD || (late && ship.halite > 0.0));
            let here = turn.observation.halite[ship.pos];
            let target = if let (true, Some((_, yard))) = (returning, home) {
                yard
            } else if here >= Collector::RICH_CELL && !plan.yards.contains(&ship.pos) {
                ship.pos
            } else {
                plan.mining_target(ship, &back, &yard)
            };
            plan.targeted[target] = true;
            plan.go(ship, target);
        }

        // Spawn where no ship of ours will stand, while the board can feed
        // every ship in play.
        let mut fleet = me.ships.len() - usize::from(converted.is_some());
        let board_halite: f64 = turn.observation.halite.iter().sum();
        let mut in_play: usize = turn.observation.players.iter().map(|p| p.ships.len()).sum();
        for y in &me.shipyards {
            let fed = board_halite / (in_play + 1) as f64
                >= Collector::HALITE_PER_SHIP * config.spawn_cost;
            if left > Collector::LAST_SPAWN
                && fed
                && fleet < Collector::MAX_SHIPS
                && plan.bank >= config.spawn_cost
                && !plan.taken[y.pos]
            {
                plan.actions.spawn(&y.id);
                plan.bank -= config.spawn_cost;
                plan.taken[y.pos] = true;
                fleet += 1;
                in_play += 1;
            }
        }
        plan.actions
    }
}
