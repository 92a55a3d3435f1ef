//! Seat symmetry. Seat `s`'s corner is the image of seat 0's corner under a
//! mirror: seat 1 across the vertical middle line, seat 3 across the
//! horizontal one, seat 2 across both. A board unchanged by both mirrors
//! gives every seat the same position; the rules break ties between cells
//! and directions in each seat's own mirrored frame, so that no seat is
//! favoured by the numbering of the board.

use super::{Board, Dir};
use crate::Seat;

/// Whether seat `seat`'s frame flips x and y.
fn flips(seat: Seat) -> (bool, bool) {
    match seat % 4 {
        0 => (false, false),
        1 => (true, false),
        2 => (true, true),
        _ => (false, true),
    }
}

/// Seat `seat`'s corner cell: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
pub fn corner(board: Board, seat: Seat) -> usize {
    mirror(board, seat, 0)
}

/// The image of `cell` under the mirror taking seat 0's corner to `seat`'s.
/// Each mirror is its own inverse.
pub fn mirror(board: Board, seat: Seat, cell: usize) -> usize {
    let (fx, fy) = flips(seat);
    let (mut x, mut y) = board.xy(cell);
    if fx {
        x = board.width - 1 - x;
    }
    if fy {
        y = board.height - 1 - y;
    }
    board.index(x, y)
}

/// `cell` as seat `seat` sees it in its own frame, where its corner is `[0, 0]`.
pub fn to_frame(board: Board, seat: Seat, cell: usize) -> usize {
    mirror(board, seat, cell)
}

/// The board direction of `dir` given in seat `seat`'s frame.
pub fn from_frame_dir(seat: Seat, dir: Dir) -> Dir {
    let (fx, fy) = flips(seat);
    match dir {
        Dir::East if fx => Dir::West,
        Dir::West if fx => Dir::East,
        Dir::North if fy => Dir::South,
        Dir::South if fy => Dir::North,
        d => d,
    }
}

/// A whole board from its top-left quarter: cell `[x, y]` takes the value
/// `quarter` gives for `[min(x, w-1-x), min(y, h-1-y)]`, so the board is
/// unchanged by both mirrors.
pub fn mirror_quadrant<T>(board: Board, mut quarter: impl FnMut(usize, usize) -> T) -> Vec<T> {
    (0..board.len())
        .map(|i| {
            let (x, y) = board.xy(i);
            quarter(x.min(board.width - 1 - x), y.min(board.height - 1 - y))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_go_clockwise_from_the_top_left() {
        let b = Board::new(5, 3);
        let xy: Vec<_> = (0..4).map(|s| b.xy(corner(b, s))).collect();
        assert_eq!(xy, vec![(0, 0), (4, 0), (4, 2), (0, 2)]);
    }

    #[test]
    fn mirrors_are_their_own_inverse_and_map_directions() {
        let b = Board::new(6, 4);
        for s in 0..4 {
            for c in 0..b.len() {
                assert_eq!(mirror(b, s, mirror(b, s, c)), c);
                for d in Dir::ALL {
                    // A step in the frame is a step on the board.
                    let framed = b.step(to_frame(b, s, c), d).map(|n| mirror(b, s, n));
                    assert_eq!(framed, b.step(c, from_frame_dir(s, d)));
                }
            }
        }
    }

    #[test]
    fn mirrored_quadrants_are_symmetric() {
        let b = Board::new(7, 4);
        let v = mirror_quadrant(b, |x, y| x * 10 + y);
        for s in 0..4 {
            for c in 0..b.len() {
                assert_eq!(v[mirror(b, s, c)], v[c]);
            }
        }
    }
}
