//! The hexagonal sea: cube coordinates (`q + r + s = 0`), the 631 fields of
//! a hexagon of radius 14 numbered row by row, the six steps, distances, rings
//! and the mirror symmetries that map the four starting fields onto each
//! other.
//!
//! The layout is "pointy-top": `r` is the row (growing downwards), a step
//! `e` adds 1 to `q` and takes 1 from `s`. On the screen a field's centre is
//! at `x = √3 · (q + r / 2)`, `y = 1.5 · r`.

use std::fmt;

/// Fields from the centre to the rim: the sea is "29 diagonals long".
pub const RADIUS: i32 = 14;

/// Fields on the sea: `1 + 3 · R · (R + 1)`.
pub const FIELDS: usize = (1 + 3 * RADIUS * (RADIUS + 1)) as usize;

/// A field in cube coordinates; `s` is `-q - r`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

/// One of the six steps, in the order `legalActions` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    Nw,
    Ne,
    E,
    Se,
    Sw,
    W,
}

impl Dir {
    /// The six steps: up-left, up-right, right, down-right, down-left, left.
    pub const ALL: [Dir; 6] = [Dir::Nw, Dir::Ne, Dir::E, Dir::Se, Dir::Sw, Dir::W];

    /// The action word: `nw`, `ne`, `e`, `se`, `sw`, `w`.
    pub fn name(self) -> &'static str {
        match self {
            Dir::Nw => "nw",
            Dir::Ne => "ne",
            Dir::E => "e",
            Dir::Se => "se",
            Dir::Sw => "sw",
            Dir::W => "w",
        }
    }

    /// The step as `(dq, dr)` (`ds` is `-dq - dr`).
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Nw => (0, -1),
            Dir::Ne => (1, -1),
            Dir::E => (1, 0),
            Dir::Se => (0, 1),
            Dir::Sw => (-1, 1),
            Dir::W => (-1, 0),
        }
    }
}

impl Hex {
    pub const CENTRE: Hex = Hex { q: 0, r: 0 };

    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The field `(q, r, s)`, if the three add up to 0.
    pub fn from_cube(q: i64, r: i64, s: i64) -> Option<Hex> {
        if q + r + s != 0 {
            return None;
        }
        Some(Hex::new(i32::try_from(q).ok()?, i32::try_from(r).ok()?))
    }

    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// `[q, r, s]`.
    pub fn cube(self) -> [i32; 3] {
        [self.q, self.r, self.s()]
    }

    /// Steps between two fields on an open sea.
    pub fn distance(self, other: Hex) -> u32 {
        let dq = (self.q - other.q).unsigned_abs();
        let dr = (self.r - other.r).unsigned_abs();
        let ds = (self.s() - other.s()).unsigned_abs();
        (dq + dr + ds) / 2
    }

    /// Steps from the centre.
    pub fn length(self) -> u32 {
        self.distance(Hex::CENTRE)
    }

    /// Whether the field lies on the sea.
    pub fn on_sea(self) -> bool {
        self.q.abs() <= RADIUS && self.r.abs() <= RADIUS && self.s().abs() <= RADIUS
    }

    /// The field one step towards `dir` (maybe off the sea).
    pub fn step(self, dir: Dir) -> Hex {
        let (dq, dr) = dir.delta();
        Hex::new(self.q + dq, self.r + dr)
    }

    /// `k` steps towards `dir`.
    pub fn scaled_step(self, dir: Dir, k: i32) -> Hex {
        let (dq, dr) = dir.delta();
        Hex::new(self.q + k * dq, self.r + k * dr)
    }

    /// The neighbours on the sea, in [`Dir::ALL`] order.
    pub fn neighbours(self) -> impl Iterator<Item = Hex> {
        Dir::ALL
            .into_iter()
            .map(move |d| self.step(d))
            .filter(|h| h.on_sea())
    }

    /// The step from `self` to its neighbour `to`.
    pub fn dir_to(self, to: Hex) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.step(d) == to)
    }

    /// The mirror image across the vertical line through the centre: `q` and
    /// `s` swap (player 1's start becomes player 2's).
    pub fn mirror_left_right(self) -> Hex {
        Hex::new(self.s(), self.r)
    }

    /// The mirror image across the horizontal line through the centre
    /// (player 1's start becomes player 4's).
    pub fn mirror_up_down(self) -> Hex {
        Hex::new(-self.s(), -self.r)
    }

    /// Half a turn round the centre (player 1's start becomes player 3's).
    pub fn half_turn(self) -> Hex {
        Hex::new(-self.q, -self.r)
    }

    /// The images of `self` under the four symmetries of a fair map, in seat
    /// order: the symmetry taking seat 0's start to seat `k`'s is the `k`th.
    pub fn images(self) -> [Hex; 4] {
        [
            self,
            self.mirror_left_right(),
            self.half_turn(),
            self.mirror_up_down(),
        ]
    }

    /// Field number: rows from the top, fields left to right in a row.
    /// The caller keeps the field on the sea.
    pub fn index(self) -> usize {
        debug_assert!(self.on_sea(), "{self} is off the sea");
        let row = self.r + RADIUS;
        // Rows above the middle grow by one field a row, rows below shrink.
        let before = if self.r <= 0 {
            row * (2 * RADIUS + 1) - RADIUS * row + row * (row - 1) / 2
        } else {
            let top =
                (RADIUS + 1) * (2 * RADIUS + 1) - RADIUS * (RADIUS + 1) + (RADIUS + 1) * RADIUS / 2;
            let below = self.r - 1;
            top + below * (2 * RADIUS) - below * (below - 1) / 2
        };
        (before + self.q - row_first_q(self.r)) as usize
    }

    /// The field numbered `i` (`i < FIELDS`).
    pub fn from_index(i: usize) -> Hex {
        ALL_FIELDS[i]
    }
}

/// The `q` of the leftmost field of row `r`.
const fn row_first_q(r: i32) -> i32 {
    if r <= 0 {
        -RADIUS - r
    } else {
        -RADIUS
    }
}

/// Every field, in field-number order.
static ALL_FIELDS: [Hex; FIELDS] = all_fields();

const fn all_fields() -> [Hex; FIELDS] {
    let mut out = [Hex::CENTRE; FIELDS];
    let mut i = 0;
    let mut r = -RADIUS;
    while r <= RADIUS {
        let mut q = row_first_q(r);
        while q + r >= -RADIUS && q <= RADIUS && -q - r >= -RADIUS {
            out[i] = Hex::new(q, r);
            i += 1;
            q += 1;
        }
        r += 1;
    }
    out
}

/// Every field of the sea, in field-number order.
pub fn all() -> &'static [Hex; FIELDS] {
    &ALL_FIELDS
}

/// The fields `radius` steps from the centre, clockwise on the screen from
/// the top-left corner of the ring (`radius` ≥ 1).
pub fn ring(radius: i32) -> Vec<Hex> {
    let mut out = Vec::with_capacity(6 * radius as usize);
    let mut h = Hex::CENTRE.scaled_step(Dir::Nw, radius);
    for side in [Dir::E, Dir::Se, Dir::Sw, Dir::W, Dir::Nw, Dir::Ne] {
        for _ in 0..radius {
            out.push(h);
            h = h.step(side);
        }
    }
    out
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.q, self.r, self.s())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sea_has_631_fields_numbered_row_by_row() {
        assert_eq!(FIELDS, 631);
        for (i, h) in all().iter().enumerate() {
            assert!(h.on_sea());
            assert_eq!(h.index(), i, "{h}");
        }
        assert_eq!(all()[0], Hex::new(0, -14));
        assert_eq!(all()[FIELDS - 1], Hex::new(0, 14));
        let on = (-20..=20)
            .flat_map(|q| (-20..=20).map(move |r| Hex::new(q, r)))
            .filter(|h| h.on_sea())
            .count();
        assert_eq!(on, FIELDS);
    }

    #[test]
    fn steps_are_the_rule_books_directions() {
        let h = Hex::new(2, -3);
        assert_eq!(h.step(Dir::Nw).cube(), [2, -4, 2]);
        assert_eq!(h.step(Dir::Ne).cube(), [3, -4, 1]);
        assert_eq!(h.step(Dir::E).cube(), [3, -3, 0]);
        assert_eq!(h.step(Dir::Se).cube(), [2, -2, 0]);
        assert_eq!(h.step(Dir::Sw).cube(), [1, -2, 1]);
        assert_eq!(h.step(Dir::W).cube(), [1, -3, 2]);
        for d in Dir::ALL {
            assert_eq!(h.distance(h.step(d)), 1);
            assert_eq!(h.dir_to(h.step(d)), Some(d));
        }
    }

    #[test]
    fn the_symmetries_map_the_starts_onto_each_other() {
        let starts = [
            Hex::new(-7, -7),
            Hex::new(14, -7),
            Hex::new(7, 7),
            Hex::new(-14, 7),
        ];
        assert_eq!(starts[0].images(), starts);
        for h in all() {
            for g in h.images() {
                assert!(g.on_sea());
                assert_eq!(g.length(), h.length());
            }
            assert_eq!(h.mirror_left_right().mirror_left_right(), *h);
            assert_eq!(h.mirror_up_down().mirror_up_down(), *h);
        }
    }

    #[test]
    fn rings_go_round_clockwise() {
        for r in 1..=RADIUS {
            let ring = ring(r);
            assert_eq!(ring.len(), 6 * r as usize);
            for (k, h) in ring.iter().enumerate() {
                assert_eq!(h.length(), r as u32);
                assert_eq!(h.distance(ring[(k + 1) % ring.len()]), 1);
            }
        }
        // From the top-left corner, eastwards along the top.
        assert_eq!(
            ring(2)[..3],
            [Hex::new(0, -2), Hex::new(1, -2), Hex::new(2, -2)]
        );
    }
}
