//! The turn, phase by phase, in the rule book's order:
//!
//! 1. [construct ships](PlanetWars::construct_ships)
//! 2. [dispatch expeditions](PlanetWars::dispatch_expeditions)
//! 3. [arrivals and combat](PlanetWars::arrivals_and_combat)
//!
//! then [the end check](PlanetWars::record_eliminations).
//!
//! Every phase is public but hidden from the docs, so that a test can run
//! it alone on a hand-made position.

use super::map::travel_time;
use super::moves::{self, parse_answer, read_move, MAX_MOVES_PER_TURN};
use super::{Expedition, PlanetState, PlanetWars};
use crate::{Outcome, Rejection, Seat};

impl PlanetWars {
    /// Phase 1: one additional ship on every player-owned planet; neutral
    /// planets build none.
    #[doc(hidden)]
    pub fn construct_ships(&mut self) {
        for p in &mut self.planets {
            if p.owner.is_some() {
                p.ship_count += 1;
            }
        }
    }

    /// Phase 2: every seat's answer, seats in order, moves in order. Each move
    /// is checked alone against what the seat has left after its earlier
    /// moves; a refused move is dropped and recorded, the others still go.
    #[doc(hidden)]
    pub fn dispatch_expeditions(&mut self, answers: &[Option<&str>]) -> Vec<Rejection> {
        let mut rejections = Vec::new();
        let built: Vec<u64> = self.planets.iter().map(|p| p.ship_count).collect();
        for seat in 0..self.players {
            let Some(raw) = answers.get(seat).copied().flatten() else {
                continue;
            };
            let answer = match parse_answer(raw) {
                Ok(a) => a,
                Err(e) => {
                    rejections.push(moves::unparseable(seat, &e));
                    continue;
                }
            };
            for (index, value) in answer.examined.iter().enumerate() {
                let checked = read_move(index, value).and_then(|m| {
                    self.check_move(seat, index, &m, &built)
                        .map(|(o, d)| (o, d, m.ship_count))
                });
                match checked {
                    Ok((origin, destination, ship_count)) => {
                        self.dispatch(seat, origin, destination, ship_count)
                    }
                    Err(r) => rejections.push(r.at(seat)),
                }
            }
            if answer.total > MAX_MOVES_PER_TURN {
                rejections.push(moves::too_many_moves(seat, answer.total));
            }
        }
        rejections
    }

    /// Sends a checked fleet on its way: its travel time is the ceiled
    /// distance, at least 1.
    fn dispatch(&mut self, owner: Seat, origin: usize, destination: usize, ship_count: u64) {
        self.planets[origin].ship_count -= ship_count;
        let turns_remaining = travel_time(self.positions[origin], self.positions[destination]);
        self.expeditions.push(Expedition {
            id: self.next_expedition_id,
            owner,
            origin,
            destination,
            ship_count,
            turns_remaining,
        });
        self.next_expedition_id += 1;
    }

    /// Phase 3: every expedition advances one turn; those that had at most
    /// one turn left arrive. On each planet with arrivals, the fleets of one
    /// owner merge (with that owner's garrison too), then combat.
    #[doc(hidden)]
    pub fn arrivals_and_combat(&mut self) {
        let mut arrived: Vec<Expedition> = Vec::new();
        self.expeditions.retain_mut(|e| {
            if e.turns_remaining <= 1 {
                arrived.push(*e);
                false
            } else {
                e.turns_remaining -= 1;
                true
            }
        });
        // Stable: fleets stay in id order within a planet.
        arrived.sort_by_key(|e| e.destination);
        for fleets in arrived.chunk_by(|a, b| a.destination == b.destination) {
            let planet = &mut self.planets[fleets[0].destination];
            *planet = combat(*planet, fleets.iter().map(|e| (e.owner, e.ship_count)));
        }
    }

    /// After the turn (and its count): a player with no ship left (on
    /// planets or in flight) is out, as of this turn.
    #[doc(hidden)]
    pub fn record_eliminations(&mut self) {
        let totals = self.ship_totals();
        for (seat, out) in self.eliminated_on.iter_mut().enumerate() {
            if out.is_none() && totals[seat] == 0 {
                *out = Some(self.turn);
            }
        }
    }

    /// Seats still in (not eliminated).
    pub(crate) fn alive(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.players).filter(|s| self.eliminated_on[*s].is_none())
    }

    /// The game is over when at most one player has ships, or at the turn limit.
    pub(crate) fn is_over(&self) -> bool {
        self.alive().count() <= 1 || self.turn >= self.max_turns
    }

    /// The outcome, once the game is over.
    pub(crate) fn final_outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let n = self.players;
        // Rank key: later elimination is better, still in is best.
        let key = |s: Seat| self.eliminated_on[s].map_or(u64::MAX, u64::from);
        let placements: Vec<u32> = (0..n)
            .map(|s| 1 + (0..n).filter(|&o| key(o) > key(s)).count() as u32)
            .collect();
        // Per opponent: 1 if outlasted, 1/2 if level, 0 if outlasted by them;
        // averaged over the opponents.
        let scores: Vec<f64> = (0..n)
            .map(|s| {
                let points: f64 = (0..n)
                    .filter(|&o| o != s)
                    .map(|o| match key(s).cmp(&key(o)) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    })
                    .sum();
                points / (n - 1) as f64
            })
            .collect();
        let alive: Vec<Seat> = self.alive().collect();
        let reason = match alive.as_slice() {
            [winner] => format!(
                "player {} (seat {winner}) is the last with ships",
                winner + 1
            ),
            [] => {
                let last: Vec<Seat> = (0..n).filter(|&s| placements[s] == 1).collect();
                format!(
                    "no player has ships left after turn {}: a tie between seats {}",
                    self.turn,
                    list(&last)
                )
            }
            _ => format!(
                "turn limit ({}) reached: a tie between seats {}",
                self.max_turns,
                list(&alive)
            ),
        };
        Some(Outcome {
            scores,
            placements,
            reason,
        })
    }
}

/// Combat on one planet between its garrison and the arriving fleets
/// (`(owner, ships)`, any order). Fleets of one owner merge with each other
/// and with that owner's garrison; a neutral garrison is a party of its own.
/// One party: it holds the planet with everything. Otherwise the largest
/// party keeps the planet with (largest − second largest); a tie for the
/// largest leaves the planet neutral with 0 ships.
///
/// With two parties this is "every ship destroys one enemy ship"; with more
/// it equals destroying the smallest party against all others, repeatedly.
pub(crate) fn combat(
    garrison: PlanetState,
    fleets: impl IntoIterator<Item = (Seat, u64)>,
) -> PlanetState {
    let mut parties: Vec<(Option<Seat>, u64)> = Vec::with_capacity(5);
    parties.push((garrison.owner, garrison.ship_count));
    for (owner, ships) in fleets {
        match parties.iter_mut().find(|p| p.0 == Some(owner)) {
            Some(p) => p.1 += ships,
            None => parties.push((Some(owner), ships)),
        }
    }
    let mut largest = parties[0];
    let mut second = 0;
    for &p in &parties[1..] {
        if p.1 > largest.1 {
            second = largest.1;
            largest = p;
        } else if p.1 > second {
            second = p.1;
        }
    }
    if parties.len() == 1 {
        return PlanetState {
            owner: largest.0,
            ship_count: largest.1,
        };
    }
    if largest.1 == second {
        return PlanetState {
            owner: None,
            ship_count: 0,
        };
    }
    PlanetState {
        owner: largest.0,
        ship_count: largest.1 - second,
    }
}

fn list(seats: &[Seat]) -> String {
    seats
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(owner: Option<Seat>, ship_count: u64) -> PlanetState {
        PlanetState { owner, ship_count }
    }

    /// The reference resolution: repeatedly, the smallest party is destroyed
    /// and takes as many ships from every other party.
    fn iterative(garrison: PlanetState, fleets: &[(Seat, u64)]) -> PlanetState {
        let mut parties: Vec<(Option<Seat>, u64)> = vec![(garrison.owner, garrison.ship_count)];
        for &(o, s) in fleets {
            match parties.iter_mut().find(|p| p.0 == Some(o)) {
                Some(p) => p.1 += s,
                None => parties.push((Some(o), s)),
            }
        }
        loop {
            parties.retain(|p| p.1 > 0);
            if parties.len() <= 1 {
                break;
            }
            let min = parties.iter().map(|p| p.1).min().unwrap();
            for p in &mut parties {
                p.1 -= min;
            }
        }
        parties.first().map_or(held(None, 0), |&(o, s)| held(o, s))
    }

    #[test]
    fn combat_equals_iterative_smallest_first_subtraction() {
        let mut rng = crate::rng::stream(3, "combat-test");
        use rand_core::RngCore;
        for _ in 0..5000 {
            let owner = match rng.next_u32() % 5 {
                4 => None,
                s => Some(s as usize),
            };
            let g = held(
                owner,
                u64::from(rng.next_u32() % 8) + u64::from(owner.is_some()),
            );
            let fleets: Vec<(Seat, u64)> = (0..rng.next_u32() % 6)
                .map(|_| {
                    (
                        (rng.next_u32() % 4) as usize,
                        u64::from(rng.next_u32() % 8 + 1),
                    )
                })
                .collect();
            let got = combat(g, fleets.iter().copied());
            assert_eq!(got, iterative(g, &fleets), "{g:?} {fleets:?}");
        }
    }
}
