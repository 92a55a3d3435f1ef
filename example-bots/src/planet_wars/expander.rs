//! A planning bot: forecast every planet, keep what you hold, then spend the
//! spare ships on the targets that pay back fastest.
//!
//! Each turn:
//!
//! 1. **Forecast.** For every planet, replay the known future: the fleets in
//!    flight towards it (turn by turn, with the engine's combat rule) and one
//!    ship built per turn while a player holds it.
//! 2. **Keep.** For each of our planets, the ships it can spare are the most it
//!    can send now and still hold the planet through every arrival already
//!    announced. A planet that falls even if it sends nothing spares nothing,
//!    and becomes a target for reinforcements.
//! 3. **Take.** For each planet not (or no longer) ours, gather spare ships
//!    from our planets nearest first until they are enough to own it once all
//!    known fleets have landed, counting the garrison's growth while ours
//!    travel. The price of a target is those ships plus the travel time; the
//!    gain is one ship per turn, two if it is taken from an enemy (or kept
//!    from one). The best gain per price is served first, then the forecasts
//!    are updated and the next target is chosen, until no target can be paid
//!    for this turn.
//!
//! Everything is ordered by planet index and plain integers, so the bot is
//! deterministic; a turn costs well under a millisecond on generated maps.

use std::collections::BTreeMap;

use ludus_sdk::planet_wars::{Moves, Observation, ME};
use ludus_sdk::Bot;

/// The owner code of a neutral planet in forecasts (players are 1, 2, ...).
const NEUTRAL: u32 = 0;
/// Most sources gathered for one target.
const MAX_SOURCES: usize = 16;
/// Most targets served in one turn.
const MAX_TARGETS_PER_TURN: usize = 32;
/// Price of one turn of travel, in ships.
const TURN_PRICE: f64 = 1.0;

/// Plays Planet Wars by forecasting every planet, keeping what it holds,
/// expanding to cheap nearby planets and attacking the enemy's weakest
/// reachable ones. See the module source for the method.
#[derive(Debug, Default)]
pub struct Expander {
    /// Planet names of the map the travel times belong to.
    names: Vec<String>,
    /// Travel times, `turns[i * n + j]` from planet `i` to planet `j`.
    turns: Vec<u32>,
}

/// A fleet landing on a planet, `turn` turns from now (1 = the coming turn).
#[derive(Debug, Clone, Copy)]
struct Arrival {
    turn: u32,
    owner: u32,
    ships: u64,
}

/// How a planet ends up once every known fleet has landed.
#[derive(Debug, Clone, Copy)]
struct Forecast {
    owner: u32,
    /// The owner at the start held the planet after every arrival.
    held: bool,
}

/// A funded attack (or reinforcement) on one target.
#[derive(Debug, Clone)]
struct Plan {
    score: f64,
    need: u64,
    /// Source planets, nearest first; the last one may give only part of its
    /// spare ships.
    sources: Vec<usize>,
}

/// The parties of one combat, merged by owner.
struct Parties {
    list: [(u32, u64); 8],
    len: usize,
}

impl Parties {
    fn new(owner: u32, ships: u64) -> Self {
        let mut list = [(NEUTRAL, 0); 8];
        list[0] = (owner, ships);
        Parties { list, len: 1 }
    }

    fn add(&mut self, owner: u32, ships: u64) {
        // Fleets always have a player owner, so they never merge with a
        // neutral garrison.
        if let Some(p) = self.list[..self.len]
            .iter_mut()
            .find(|p| p.0 == owner && owner != NEUTRAL)
        {
            p.1 += ships;
        } else if self.len < self.list.len() {
            self.list[self.len] = (owner, ships);
            self.len += 1;
        }
    }

    /// The engine's rule: the largest party keeps the planet with (largest -
    /// second largest) ships; a tie for the largest leaves it neutral and empty.
    fn resolve(&self) -> (u32, u64) {
        let mut largest = self.list[0];
        let mut second = 0;
        for &p in &self.list[1..self.len] {
            if p.1 > largest.1 {
                second = largest.1;
                largest = p;
            } else if p.1 > second {
                second = p.1;
            }
        }
        if self.len == 1 {
            largest
        } else if largest.1 == second {
            (NEUTRAL, 0)
        } else {
            (largest.0, largest.1 - second)
        }
    }
}

/// Replays a planet's future from `(owner, ships)` through `arrivals` (sorted
/// by turn) plus an optional `extra` one.
fn forecast(owner: u32, ships: u64, arrivals: &[Arrival], extra: Option<Arrival>) -> Forecast {
    let start = owner;
    let (mut owner, mut ships) = (owner, ships);
    let mut held = true;
    let mut now = 0u32;
    let mut next = 0usize;
    let mut extra = extra;
    loop {
        let turn = match (arrivals.get(next), extra) {
            (None, None) => break,
            (Some(a), None) => a.turn,
            (None, Some(e)) => e.turn,
            (Some(a), Some(e)) => a.turn.min(e.turn),
        };
        if owner != NEUTRAL {
            ships += u64::from(turn - now);
        }
        now = turn;
        let mut parties = Parties::new(owner, ships);
        while let Some(a) = arrivals.get(next).filter(|a| a.turn == turn) {
            parties.add(a.owner, a.ships);
            next += 1;
        }
        if let Some(e) = extra.filter(|e| e.turn == turn) {
            parties.add(e.owner, e.ships);
            extra = None;
        }
        (owner, ships) = parties.resolve();
        held &= owner == start;
    }
    Forecast { owner, held }
}

/// Largest `k` in `0..=hi` with `ok(k)`, for `ok` true up to some point and
/// false after; `None` if `ok(0)` is false.
fn largest_ok(hi: u64, ok: impl Fn(u64) -> bool) -> Option<u64> {
    if !ok(0) {
        return None;
    }
    let (mut lo, mut hi) = (0, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

/// Smallest `k` in `1..=hi` with `ok(k)`, for `ok` false up to some point and
/// true after; `None` if `ok(hi)` is false.
fn smallest_ok(hi: u64, ok: impl Fn(u64) -> bool) -> Option<u64> {
    if hi == 0 || !ok(hi) {
        return None;
    }
    let (mut lo, mut hi) = (1, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// One turn's view of the board, in planet indices.
struct Board<'a> {
    n: usize,
    turns: &'a [u32],
    owner: Vec<u32>,
    ships: Vec<u64>,
    /// Known and planned arrivals per planet, sorted by turn.
    arrivals: Vec<Vec<Arrival>>,
    /// Ships each of our planets can still send this turn.
    spare: Vec<u64>,
}

impl Board<'_> {
    fn turns(&self, from: usize, to: usize) -> u32 {
        self.turns[from * self.n + to]
    }

    fn forecast(&self, q: usize, extra: Option<Arrival>) -> Forecast {
        forecast(self.owner[q], self.ships[q], &self.arrivals[q], extra)
    }

    /// The cheapest funded way to own `q` once every known fleet has landed,
    /// or `None` if it is ours anyway or cannot be paid for now.
    fn plan(&self, q: usize) -> Option<Plan> {
        if self.forecast(q, None).owner == ME {
            return None;
        }
        let mut sources: Vec<usize> = (0..self.n)
            .filter(|&j| j != q && self.spare[j] > 0)
            .collect();
        sources.sort_by_key(|&j| (self.turns(j, q), j));
        sources.truncate(MAX_SOURCES);
        let mut total = 0;
        for (k, &j) in sources.iter().enumerate() {
            total += self.spare[j];
            let turn = self.turns(j, q);
            // Sources at the same distance come in together.
            if sources
                .get(k + 1)
                .is_some_and(|&s| self.turns(s, q) == turn)
            {
                continue;
            }
            let wins = |ships: u64| {
                self.forecast(
                    q,
                    Some(Arrival {
                        turn,
                        owner: ME,
                        ships,
                    }),
                )
                .owner
                    == ME
            };
            if let Some(need) = smallest_ok(total, wins) {
                let gain = if self.owner[q] == NEUTRAL { 1.0 } else { 2.0 };
                let price = need as f64 + TURN_PRICE * f64::from(turn);
                sources.truncate(k + 1);
                return Some(Plan {
                    score: gain / price,
                    need,
                    sources,
                });
            }
        }
        None
    }

    /// Sends `plan`'s ships to `q`, nearest sources first.
    fn execute(&mut self, q: usize, plan: &Plan, names: &[String], moves: &mut Moves) {
        let mut left = plan.need;
        for &j in &plan.sources {
            let k = self.spare[j].min(left);
            if k == 0 {
                continue;
            }
            self.spare[j] -= k;
            left -= k;
            let turn = self.turns(j, q);
            let at = self.arrivals[q].partition_point(|a| a.turn <= turn);
            self.arrivals[q].insert(
                at,
                Arrival {
                    turn,
                    owner: ME,
                    ships: k,
                },
            );
            moves.send(&names[j], &names[q], k);
        }
    }
}

impl Expander {
    /// Caches travel times; planets never move, so only a new map recomputes.
    fn learn_map(&mut self, obs: &Observation) {
        let same = self.names.len() == obs.planets.len()
            && self
                .names
                .iter()
                .zip(&obs.planets)
                .all(|(a, p)| *a == p.name);
        if same {
            return;
        }
        self.names = obs.planets.iter().map(|p| p.name.clone()).collect();
        self.turns = obs
            .planets
            .iter()
            .flat_map(|a| obs.planets.iter().map(move |b| a.turns_to(b)))
            .collect();
    }
}

impl Bot for Expander {
    type Observation = Observation;
    type Action = Moves;

    fn act(&mut self, obs: &Observation) -> Moves {
        self.learn_map(obs);
        let n = obs.planets.len();
        let index: BTreeMap<&str, usize> = obs
            .planets
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        let mut arrivals = vec![Vec::new(); n];
        for e in &obs.expeditions {
            if let Some(&d) = index.get(e.destination.as_str()) {
                arrivals[d].push(Arrival {
                    turn: e.turns_remaining.max(1),
                    owner: e.owner,
                    ships: e.ship_count,
                });
            }
        }
        for a in &mut arrivals {
            a.sort_by_key(|a| a.turn);
        }
        let mut board = Board {
            n,
            turns: &self.turns,
            owner: obs
                .planets
                .iter()
                .map(|p| p.owner.unwrap_or(NEUTRAL))
                .collect(),
            ships: obs.planets.iter().map(|p| p.ship_count).collect(),
            arrivals,
            spare: vec![0; n],
        };

        // Keep: what each of our planets can spare and still hold.
        for q in 0..n {
            if board.owner[q] == ME {
                let ships = board.ships[q];
                let holds = |k: u64| forecast(ME, ships - k, &board.arrivals[q], None).held;
                board.spare[q] = largest_ok(ships, holds).unwrap_or(0);
            }
        }

        // Take: best gain per price first, re-planning what changed.
        let mut moves = Moves::default();
        let mut plans: Vec<Option<Plan>> = (0..n).map(|q| board.plan(q)).collect();
        for _ in 0..MAX_TARGETS_PER_TURN {
            let best = plans
                .iter()
                .enumerate()
                .filter_map(|(q, p)| p.as_ref().map(|p| (q, p.score)))
                .fold(None, |best: Option<(usize, f64)>, (q, s)| match best {
                    Some((_, b)) if b >= s => best,
                    _ => Some((q, s)),
                });
            let Some((q, _)) = best else { break };
            let plan = plans[q].take().expect("chosen plan exists");
            board.execute(q, &plan, &self.names, &mut moves);
            plans[q] = board.plan(q);
            for (t, slot) in plans.iter_mut().enumerate() {
                let touched = slot
                    .as_ref()
                    .is_some_and(|p| p.sources.iter().any(|s| plan.sources.contains(s)));
                if touched {
                    *slot = board.plan(t);
                }
            }
        }
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrival(turn: u32, owner: u32, ships: u64) -> Arrival {
        Arrival { turn, owner, ships }
    }

    #[test]
    fn forecast_counts_growth_and_combat() {
        // Neutral 5, we land 6 on turn 3: ours.
        let f = forecast(NEUTRAL, 5, &[arrival(3, ME, 6)], None);
        assert_eq!((f.owner, f.held), (ME, false));
        // Neutral 5, we land 5: neutral and empty.
        assert_eq!(
            forecast(NEUTRAL, 5, &[arrival(3, ME, 5)], None).owner,
            NEUTRAL
        );
        // Enemy 5 grows to 8 by turn 3: 8 is not enough, 9 is.
        assert_eq!(forecast(2, 5, &[], Some(arrival(3, ME, 8))).owner, NEUTRAL);
        assert_eq!(forecast(2, 5, &[], Some(arrival(3, ME, 9))).owner, ME);
        // Ours with 3, an enemy 6 lands on turn 2 (we have 5 then): lost.
        let f = forecast(ME, 3, &[arrival(2, 2, 6)], None);
        assert_eq!((f.owner, f.held), (2, false));
        assert!(!forecast(ME, 4, &[arrival(2, 2, 6)], None).held); // 6 against 6: nobody
        assert!(forecast(ME, 5, &[arrival(2, 2, 6)], None).held);
    }

    #[test]
    fn binary_searches_find_the_edges() {
        assert_eq!(largest_ok(10, |k| k <= 7), Some(7));
        assert_eq!(largest_ok(10, |_| true), Some(10));
        assert_eq!(largest_ok(10, |_| false), None);
        assert_eq!(smallest_ok(10, |k| k >= 4), Some(4));
        assert_eq!(smallest_ok(10, |k| k >= 11), None);
        assert_eq!(smallest_ok(0, |_| true), None);
    }

    fn planet(name: &str, x: f64, ships: u64, owner: Option<u32>) -> serde_json::Value {
        serde_json::json!({"name": name, "x": x, "y": 0.0, "ship_count": ships, "owner": owner})
    }

    #[test]
    fn takes_the_cheap_neighbour_and_keeps_a_threatened_home() {
        let obs: Observation = serde_json::from_value(serde_json::json!({
            "planets": [
                planet("home", 0.0, 10, Some(1)),
                planet("near", 2.5, 3, None),
                planet("far", 20.0, 3, None),
                planet("enemy", 24.0, 10, Some(2)),
            ],
            "expeditions": []
        }))
        .unwrap();
        let moves = Expander::default().act(&obs);
        assert!(moves
            .moves
            .iter()
            .any(|m| m.destination == "near" && m.ship_count == 4));

        // 11 enemy ships land on home in 2 turns, when it has 10 + 2: it holds
        // only if it sends nothing, so the cheap neighbour has to wait.
        let obs: Observation = serde_json::from_value(serde_json::json!({
            "planets": [planet("home", 0.0, 10, Some(1)), planet("near", 2.5, 3, None)],
            "expeditions": [{"id": 1, "ship_count": 11, "origin": "near", "destination": "home",
                             "owner": 2, "turns_remaining": 2}]
        }))
        .unwrap();
        assert!(Expander::default().act(&obs).moves.is_empty());
    }
}
