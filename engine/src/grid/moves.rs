//! Simultaneous moves of the four bots.
//!
//! All bots move at once. A cell with a bot on it is closed for that turn,
//! whether or not that bot moves away, so there are no swaps and no
//! following. Two or more bots stepping into one empty cell: the winner is
//! decided by [`Contest`]; the others are blocked and stay where they are.

use super::{priority_order, PLAYERS};
use crate::Seat;

/// Who wins a cell that several bots step into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contest {
    /// The bot holding the priority token; if it is not among them, the
    /// first of them round the table from the token holder.
    Token,
    /// The cell's owner if it is among them, otherwise as [`Contest::Token`].
    OwnerThenToken,
    /// Nobody: every bot stepping into the cell is blocked (`conquest`).
    Nobody,
}

/// What became of a bot's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveResult {
    /// It did not try to move.
    Stayed,
    /// It stepped into its target.
    Moved,
    /// Its target was closed, or another bot won it: it stays where it is.
    Blocked,
}

/// Resolves one turn's moves. `positions[seat]` is where each bot stands
/// (`None`: it is off the board), `targets[seat]` the cell it steps into
/// (`None`: it does not move), `owner` each cell's owner and `priority` the
/// token holder.
pub fn resolve_moves(
    positions: &[Option<usize>; PLAYERS],
    targets: &[Option<usize>; PLAYERS],
    owner: &[Option<Seat>],
    contest: Contest,
    priority: Seat,
) -> [MoveResult; PLAYERS] {
    let closed = |cell: usize| positions.contains(&Some(cell));
    let mut result = [MoveResult::Stayed; PLAYERS];
    for seat in 0..PLAYERS {
        let Some(target) = targets[seat] else {
            continue;
        };
        if positions[seat].is_none() || closed(target) {
            result[seat] = MoveResult::Blocked;
            continue;
        }
        let rivals: Vec<Seat> = (0..PLAYERS)
            .filter(|&o| positions[o].is_some() && targets[o] == Some(target))
            .collect();
        let winner = if rivals.len() == 1 {
            seat
        } else if contest == Contest::Nobody {
            result[seat] = MoveResult::Blocked;
            continue;
        } else {
            let by_owner = match (contest, owner[target]) {
                (Contest::OwnerThenToken, Some(o)) if rivals.contains(&o) => Some(o),
                _ => None,
            };
            by_owner.unwrap_or_else(|| {
                priority_order(priority)
                    .into_iter()
                    .find(|s| rivals.contains(s))
                    .expect("the seat itself is a rival")
            })
        };
        result[seat] = if winner == seat {
            MoveResult::Moved
        } else {
            MoveResult::Blocked
        };
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: Option<usize> = None;

    #[test]
    fn a_cell_with_a_bot_on_it_is_closed_even_if_that_bot_leaves() {
        // Bot 0 at 0 follows bot 1 (at 1) which steps on to 2.
        let r = resolve_moves(
            &[Some(0), Some(1), Some(8), Some(9)],
            &[Some(1), Some(2), N, N],
            &[None; 10],
            Contest::Token,
            0,
        );
        assert_eq!(r[0], MoveResult::Blocked);
        assert_eq!(r[1], MoveResult::Moved);
        assert_eq!(r[2], MoveResult::Stayed);
    }

    #[test]
    fn bots_cannot_swap() {
        let r = resolve_moves(
            &[Some(0), Some(1), Some(8), Some(9)],
            &[Some(1), Some(0), N, N],
            &[None; 10],
            Contest::Token,
            0,
        );
        assert_eq!(r[..2], [MoveResult::Blocked, MoveResult::Blocked]);
    }

    #[test]
    fn three_into_one_without_the_token_goes_round_the_table_from_it() {
        // Token with seat 3 (not contending): seats 0, 1, 2 step into 5; seat 0
        // is next round the table after 3.
        let r = resolve_moves(
            &[Some(4), Some(6), Some(1), Some(9)],
            &[Some(5), Some(5), Some(5), N],
            &[None; 10],
            Contest::Token,
            3,
        );
        assert_eq!(
            r[..3],
            [MoveResult::Moved, MoveResult::Blocked, MoveResult::Blocked]
        );
        // Token with seat 2, a contender: it wins.
        let r = resolve_moves(
            &[Some(4), Some(6), Some(1), Some(9)],
            &[Some(5), Some(5), Some(5), N],
            &[None; 10],
            Contest::Token,
            2,
        );
        assert_eq!(
            r[..3],
            [MoveResult::Blocked, MoveResult::Blocked, MoveResult::Moved]
        );
    }

    #[test]
    fn with_contest_nobody_two_into_one_are_both_blocked() {
        let r = resolve_moves(
            &[Some(4), Some(6), Some(1), Some(9)],
            &[Some(5), Some(5), Some(2), N],
            &[None; 10],
            Contest::Nobody,
            0,
        );
        assert_eq!(
            r[..3],
            [MoveResult::Blocked, MoveResult::Blocked, MoveResult::Moved]
        );
    }

    #[test]
    fn bots_off_the_board_neither_close_cells_nor_move() {
        let r = resolve_moves(
            &[Some(0), None, Some(8), Some(9)],
            &[Some(1), Some(1), N, N],
            &[None; 10],
            Contest::Token,
            1,
        );
        assert_eq!(r[0], MoveResult::Moved);
        assert_eq!(r[1], MoveResult::Blocked);
    }
}
