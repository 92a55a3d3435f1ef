//! Which games a challenge plays: pair `k`'s two tables, the scheduled
//! match at an index, and a new challenge's seed.

use crate::matchup;
use crate::schedule::ScheduledMatch;
use ludus_engine::registry::GameInfo;

/// A seed for a new challenge, from the operating system's randomness:
/// stored with the challenge, which re-runs from it.
pub fn fresh_seed() -> u64 {
    use std::hash::BuildHasher;
    std::collections::hash_map::RandomState::new().hash_one(0x4C55_4455u64)
}

/// One game of a pair: the ladder positions in seat order (0 the tested
/// bot, 1.. the opponents), and the seats of the tested bot and of the
/// opponent it is measured against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub seats: Vec<usize>,
    pub tested: usize,
    pub opponent: usize,
}

/// The two games of pair `k` for a game of `players` seats and
/// `opponents` opponents. The opponent is B = opponent `k mod opponents`;
/// the tested bot A sits in seat `2k mod players` and B in the next seat
/// in the first game, and they swap seats in the second (two seats: [A, B]
/// then [B, A], as `ludus match-up` plays). The other seats of a larger
/// table take the opponents after B in turn (B again when there are too
/// few), the same in both games.
pub fn pair_tables(k: u64, players: usize, opponents: usize) -> [Table; 2] {
    let opponents = opponents.max(1) as u64;
    let b = 1 + (k % opponents) as usize;
    let a_seat = ((2 * k) % players as u64) as usize;
    let b_seat = (a_seat + 1) % players;
    let mut first = vec![0; players];
    for j in 0..players.saturating_sub(2) {
        first[(a_seat + 2 + j) % players] = 1 + ((k + 1 + j as u64) % opponents) as usize;
    }
    first[a_seat] = 0;
    first[b_seat] = b;
    let mut second = first.clone();
    second.swap(a_seat, b_seat);
    [
        Table {
            seats: first,
            tested: a_seat,
            opponent: b_seat,
        },
        Table {
            seats: second,
            tested: b_seat,
            opponent: a_seat,
        },
    ]
}

/// The scheduled match at `index` of a challenge: game `index mod 2` of
/// pair `index / 2`, on the pair's seed.
pub fn scheduled(
    index: u32,
    players: usize,
    opponents: usize,
    seed: u64,
    game: &GameInfo,
) -> ScheduledMatch {
    let k = u64::from(index / 2);
    let table = &pair_tables(k, players, opponents)[(index % 2) as usize];
    ScheduledMatch {
        index,
        group: index / 2,
        seed: matchup::pair_seed(game, seed, k),
        seats: table.seats.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn two_seat_pairs_are_a_then_b_and_b_then_a_as_match_up_plays_them() {
        for k in 0..6 {
            let [first, second] = pair_tables(k, 2, 3);
            let b = 1 + (k % 3) as usize;
            assert_eq!(first.seats, vec![0, b]);
            assert_eq!((first.tested, first.opponent), (0, 1));
            assert_eq!(second.seats, vec![b, 0]);
            assert_eq!((second.tested, second.opponent), (1, 0));
        }
    }

    #[test]
    fn four_seat_pairs_seat_a_everywhere_and_fill_with_the_next_opponents() {
        let mut a_seats = BTreeSet::new();
        for k in 0..4 {
            for t in pair_tables(k, 4, 3) {
                assert_eq!(t.seats[t.tested], 0);
                assert_eq!(t.seats[t.opponent], 1 + (k % 3) as usize);
                let mut sorted = t.seats.clone();
                sorted.sort();
                assert_eq!(sorted, vec![0, 1, 2, 3], "k {k}: {:?}", t.seats);
                a_seats.insert(t.tested);
            }
        }
        assert_eq!(a_seats.len(), 4, "A sits in every seat");
        // One opponent: it takes every other seat.
        let [first, second] = pair_tables(1, 4, 1);
        assert_eq!(first.seats, vec![1, 1, 0, 1]);
        assert_eq!(second.seats, vec![1, 1, 1, 0]);
        // Two: the other one, then B again.
        let [first, _] = pair_tables(0, 4, 2);
        assert_eq!(first.seats, vec![0, 1, 2, 1]);
    }
}
