//! Schedules: which bots meet in which seats on which seed. Each is a pure
//! function of (kind, number of bots, seats per game, rounds, ladder seed,
//! game), so the same ladder is the same list of matches on every machine
//! and every run.
//!
//! A match's seed is derived from the ladder seed and the match's table and
//! round, then reduced into the game's seed range ([`GameInfo::game_seed`]):
//! the stored seed is the very seed the game's generators take, so a Kore or
//! Halite match's board is the reference's board for that seed. Games whose
//! seeds span every u64 (Planet Wars and the grid games) keep the derived
//! seed as it is.

use ludus_engine::rng::derive_seed;
use ludus_engine::GameInfo;
use serde::{Deserialize, Serialize};

/// The kind of a ladder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Kind {
    /// Every table of `seats` bots (every pair, for two-seat games), in every
    /// rotation of the seats, on one seed per table and round: for two seats
    /// that is a "game pair", both seat orders on the same seed.
    RoundRobin,
    /// The tables that include the challenger (bot position `challenger`),
    /// in every rotation: one bot against a field.
    Gauntlet { challenger: usize },
}

impl Kind {
    pub fn label(&self) -> &'static str {
        match self {
            Kind::RoundRobin => "round-robin",
            Kind::Gauntlet { .. } => "gauntlet",
        }
    }
}

/// One match of a schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledMatch {
    /// Place in the schedule, from 0; results are applied in this order.
    pub index: u32,
    /// Matches of one table and round share a group and a seed.
    pub group: u32,
    pub seed: u64,
    /// Bot positions, in seat order.
    pub seats: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("a {seats}-seat game needs at least {seats} bots; there are {bots}")]
    TooFewBots { bots: usize, seats: usize },
    #[error("the gauntlet challenger is bot {challenger}, but there are only {bots} bots")]
    NoChallenger { challenger: usize, bots: usize },
}

/// The matches of a ladder of `game`, in order.
pub fn schedule(
    kind: &Kind,
    bots: usize,
    seats: usize,
    rounds: u32,
    ladder_seed: u64,
    game: &GameInfo,
) -> Result<Vec<ScheduledMatch>, ScheduleError> {
    if bots < seats || seats == 0 {
        return Err(ScheduleError::TooFewBots { bots, seats });
    }
    if let Kind::Gauntlet { challenger } = *kind {
        if challenger >= bots {
            return Err(ScheduleError::NoChallenger { challenger, bots });
        }
    }
    let tables: Vec<Vec<usize>> = combinations(bots, seats)
        .into_iter()
        .filter(|t| match kind {
            Kind::RoundRobin => true,
            Kind::Gauntlet { challenger } => t.contains(challenger),
        })
        .collect();
    let mut out = Vec::with_capacity(tables.len() * seats * rounds as usize);
    let mut group = 0u32;
    for round in 0..rounds {
        for table in &tables {
            let label = format!(
                "ladder/{}/round-{round}/table-{}",
                kind.label(),
                table
                    .iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join("-")
            );
            let seed = game.game_seed(derive_seed(ladder_seed, &label));
            for rotation in 0..seats {
                let mut seated = table.clone();
                seated.rotate_left(rotation);
                out.push(ScheduledMatch {
                    index: out.len() as u32,
                    group,
                    seed,
                    seats: seated,
                });
            }
            group += 1;
        }
    }
    Ok(out)
}

/// The `k`-subsets of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn go(start: usize, n: usize, k: usize, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..n {
            if n - i < k - current.len() {
                break;
            }
            current.push(i);
            go(i + 1, n, k, current, out);
            current.pop();
        }
    }
    go(0, n, k, &mut current, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pw() -> &'static GameInfo {
        ludus_engine::registry::info("planet-wars").unwrap()
    }

    fn schedule(
        kind: &Kind,
        bots: usize,
        seats: usize,
        rounds: u32,
        seed: u64,
    ) -> Result<Vec<ScheduledMatch>, ScheduleError> {
        super::schedule(kind, bots, seats, rounds, seed, pw())
    }

    #[test]
    fn match_seeds_lie_in_the_games_seed_range_and_planet_wars_seeds_are_unreduced() {
        let kore = ludus_engine::registry::info("kore").unwrap();
        let reduced = super::schedule(&Kind::RoundRobin, 4, 2, 3, 11, kore).unwrap();
        let full = schedule(&Kind::RoundRobin, 4, 2, 3, 11).unwrap();
        assert!(reduced.iter().all(|m| m.seed <= kore.max_seed));
        assert!(
            full.iter().any(|m| m.seed > u32::MAX as u64),
            "Planet Wars seeds span every u64"
        );
        for (r, f) in reduced.iter().zip(&full) {
            assert_eq!(r.seed, f.seed % (1 << 32), "the same derivation, reduced");
        }
        // Stored Planet Wars ladders keep their seeds: the derivation is pinned.
        assert_eq!(
            full[0].seed,
            derive_seed(11, "ladder/round-robin/round-0/table-0-1")
        );
        assert_eq!(full[0].seed, 12563547479345151439);
    }

    #[test]
    fn round_robin_plays_every_pair_in_both_seat_orders_on_one_seed() {
        let s = schedule(&Kind::RoundRobin, 4, 2, 2, 9).unwrap();
        assert_eq!(s.len(), 2 * 6 * 2);
        for pair in s.chunks(2) {
            assert_eq!(pair[0].seed, pair[1].seed);
            assert_eq!(pair[0].group, pair[1].group);
            assert_eq!(pair[0].seats, vec![pair[1].seats[1], pair[1].seats[0]]);
        }
        let seeds: std::collections::BTreeSet<u64> = s.iter().map(|m| m.seed).collect();
        assert_eq!(seeds.len(), 12, "a fresh seed per pair and round");
        assert!(s.iter().enumerate().all(|(i, m)| m.index == i as u32));
    }

    #[test]
    fn a_schedule_is_a_pure_function_of_its_inputs() {
        assert_eq!(
            schedule(&Kind::RoundRobin, 5, 2, 3, 1).unwrap(),
            schedule(&Kind::RoundRobin, 5, 2, 3, 1).unwrap()
        );
        assert_ne!(
            schedule(&Kind::RoundRobin, 5, 2, 3, 1).unwrap(),
            schedule(&Kind::RoundRobin, 5, 2, 3, 2).unwrap()
        );
    }

    #[test]
    fn gauntlet_plays_the_challenger_against_each_of_the_field() {
        let s = schedule(&Kind::Gauntlet { challenger: 2 }, 4, 2, 1, 0).unwrap();
        assert_eq!(s.len(), 6);
        assert!(s.iter().all(|m| m.seats.contains(&2)));
        assert_eq!(s.iter().filter(|m| m.seats[0] == 2).count(), 3);
    }

    #[test]
    fn tables_for_four_seats_rotate_every_seat() {
        let s = schedule(&Kind::RoundRobin, 5, 4, 1, 0).unwrap();
        assert_eq!(s.len(), 5 * 4, "C(5,4) tables, 4 rotations each");
        for table in s.chunks(4) {
            for seat in 0..4 {
                let at: std::collections::BTreeSet<usize> =
                    table.iter().map(|m| m.seats[seat]).collect();
                assert_eq!(at.len(), 4, "each bot sits in each seat once");
            }
        }
    }

    #[test]
    fn too_few_bots_is_an_error() {
        assert_eq!(
            schedule(&Kind::RoundRobin, 1, 2, 1, 0),
            Err(ScheduleError::TooFewBots { bots: 1, seats: 2 })
        );
    }
}
