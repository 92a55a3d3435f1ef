//! What the four-bot grid games (`claim`, `loops`, `shields`) share: the
//! [`Action`] strings, positions and board helpers.
//!
//! Coordinates are `[x, y]` with `[0, 0]` top-left and `y` growing south.
//! Bot ids are seats, 0 to 3, clockwise from the top-left corner; `owner`
//! grids use `-1` for neutral.

use serde::{Deserialize, Serialize};

/// A cell, `[x, y]`.
pub type Pos = [usize; 2];

/// An answer. Each game allows a subset (see its `legal_actions`); anything
/// else, or no answer in time, is played as [`Action::Stay`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Action {
    North,
    East,
    South,
    West,
    #[default]
    Stay,
    /// `claim` only: back to the cell the capture started from.
    Retreat,
    /// `shields` only: shield your cells this turn.
    Shield,
}

impl Action {
    /// The four moves, in the rule book's order.
    pub const MOVES: [Action; 4] = [Action::North, Action::East, Action::South, Action::West];

    /// The step `(dx, dy)` of a move; `None` for the other actions.
    pub fn delta(self) -> Option<(i64, i64)> {
        match self {
            Action::North => Some((0, -1)),
            Action::East => Some((1, 0)),
            Action::South => Some((0, 1)),
            Action::West => Some((-1, 0)),
            _ => None,
        }
    }

    /// The cell a move from `from` leads to on a `width` × `height` board,
    /// if it stays on the board.
    pub fn from(self, from: Pos, width: usize, height: usize) -> Option<Pos> {
        let (dx, dy) = self.delta()?;
        let x = from[0] as i64 + dx;
        let y = from[1] as i64 + dy;
        (x >= 0 && y >= 0 && x < width as i64 && y < height as i64)
            .then_some([x as usize, y as usize])
    }

    /// The move from `a` to its neighbour `b`.
    pub fn towards(a: Pos, b: Pos) -> Option<Action> {
        Action::MOVES.into_iter().find(|m| {
            let (dx, dy) = m.delta().expect("a move");
            a[0] as i64 + dx == b[0] as i64 && a[1] as i64 + dy == b[1] as i64
        })
    }
}

/// The on-board neighbours of `p`, north, east, south, west.
pub fn neighbours(p: Pos, width: usize, height: usize) -> impl Iterator<Item = Pos> {
    Action::MOVES
        .into_iter()
        .filter_map(move |m| m.from(p, width, height))
}

/// Manhattan distance.
pub fn distance(a: Pos, b: Pos) -> usize {
    a[0].abs_diff(b[0]) + a[1].abs_diff(b[1])
}

/// The owner of `p` in an `owner[y][x]` grid: `None` for neutral (`-1`).
pub fn owner_at(owner: &[Vec<i32>], p: Pos) -> Option<usize> {
    usize::try_from(owner[p[1]][p[0]]).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_are_the_rule_book_strings() {
        assert_eq!(serde_json::to_string(&Action::East).unwrap(), "\"EAST\"");
        assert_eq!(
            serde_json::to_string(&Action::default()).unwrap(),
            "\"STAY\""
        );
        let a: Action = serde_json::from_str("\"RETREAT\"").unwrap();
        assert_eq!(a, Action::Retreat);
        assert_eq!(Action::West.from([0, 3], 5, 5), None);
        assert_eq!(Action::South.from([0, 3], 5, 5), Some([0, 4]));
        assert_eq!(Action::towards([2, 2], [2, 1]), Some(Action::North));
    }
}
