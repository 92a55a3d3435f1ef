//! Fences' exact geometry against an independent computation.
//!
//! The engine finds enclosed area by tracing the faces of the drawing
//! (crossings as corners) and summing shoelace areas. This test computes it
//! another way, with plain fractions: cut the plane into vertical slabs at
//! every end and crossing, cut each slab into trapezoids between the edges
//! that span it, flood the trapezoids from outside (across slab boundaries,
//! where no vertical edge blocks them), and add up the trapezoids the flood
//! never reaches. Both must agree exactly on thousands of random drawings,
//! crossings, touches and overlaps included.

use ludus_engine::fences::geometry::{enclosed_faces, Area, Point, Segment, AREA_UNIT};
use rand_core::RngCore;
use std::cmp::Ordering;

/// An exact fraction, lowest terms, positive denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Q(i128, i128);

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

impl Q {
    fn new(n: i128, d: i128) -> Q {
        let g = gcd(n, d).max(1) * d.signum();
        Q(n / g, d / g)
    }
    fn int(n: i128) -> Q {
        Q(n, 1)
    }
    fn add(self, o: Q) -> Q {
        Q::new(self.0 * o.1 + o.0 * self.1, self.1 * o.1)
    }
    fn sub(self, o: Q) -> Q {
        Q::new(self.0 * o.1 - o.0 * self.1, self.1 * o.1)
    }
    fn mul(self, o: Q) -> Q {
        Q::new(self.0 * o.0, self.1 * o.1)
    }
    fn div(self, o: Q) -> Q {
        Q::new(self.0 * o.1, self.1 * o.0)
    }
}

impl PartialOrd for Q {
    fn partial_cmp(&self, o: &Q) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Q {
    fn cmp(&self, o: &Q) -> Ordering {
        (self.0 * o.1).cmp(&(o.0 * self.1))
    }
}

type P = (i128, i128);

/// The x of every point where two segments cross or touch.
fn crossing_xs(a: (P, P), b: (P, P)) -> Option<Q> {
    let (p, d) = (a.0, (a.1 .0 - a.0 .0, a.1 .1 - a.0 .1));
    let (q, e) = (b.0, (b.1 .0 - b.0 .0, b.1 .1 - b.0 .1));
    let den = d.0 * e.1 - d.1 * e.0;
    if den == 0 {
        return None; // parallel: where they meet, an end of one is
    }
    let w = (q.0 - p.0, q.1 - p.1);
    let t = Q::new(w.0 * e.1 - w.1 * e.0, den);
    let s = Q::new(w.0 * d.1 - w.1 * d.0, den);
    let unit = |v: Q| v >= Q::int(0) && v <= Q::int(1);
    (unit(t) && unit(s)).then(|| Q::int(p.0).add(t.mul(Q::int(d.0))))
}

/// y of the non-vertical segment `s` at `x`.
fn y_at(s: (P, P), x: Q) -> Q {
    let ((x1, y1), (x2, y2)) = s;
    Q::int(y1).add(x.sub(Q::int(x1)).mul(Q::new(y2 - y1, x2 - x1)))
}

/// Whether `[lo, hi]` minus the union of `blocked` keeps a piece of positive length.
fn open_gap(lo: Q, hi: Q, blocked: &[(Q, Q)]) -> bool {
    if lo >= hi {
        return false;
    }
    let mut cuts: Vec<(Q, Q)> = blocked
        .iter()
        .filter(|(a, b)| *b > lo && *a < hi)
        .copied()
        .collect();
    cuts.sort();
    let mut at = lo;
    for (a, b) in cuts {
        if a > at {
            return true;
        }
        at = at.max(b);
        if at >= hi {
            return false;
        }
    }
    at < hi
}

/// Enclosed area by vertical slabs and a flood from outside.
fn slab_area(segs: &[(P, P)]) -> Q {
    let mut xs: Vec<Q> = Vec::new();
    for (i, s) in segs.iter().enumerate() {
        xs.push(Q::int(s.0 .0));
        xs.push(Q::int(s.1 .0));
        for t in &segs[i + 1..] {
            xs.extend(crossing_xs(*s, *t));
        }
    }
    xs.sort();
    xs.dedup();
    let far = Q::int(1_000_000);
    // Vertical segments as blocked intervals per slab boundary.
    let blocked = |x: Q| -> Vec<(Q, Q)> {
        segs.iter()
            .filter(|s| s.0 .0 == s.1 .0 && Q::int(s.0 .0) == x)
            .map(|s| {
                let (a, b) = (Q::int(s.0 .1), Q::int(s.1 .1));
                (a.min(b), a.max(b))
            })
            .collect()
    };
    // Cells: per slab, intervals at its left and right boundary; index 0
    // is "outside". cells[k] = (slab, left (lo, hi), right (lo, hi), area, bounded).
    struct Cell {
        slab: usize,
        left: (Q, Q),
        right: (Q, Q),
        area: Q,
        bounded: bool,
    }
    let mut cells: Vec<Cell> = Vec::new();
    for slab in 0..xs.len().saturating_sub(1) {
        let (x0, x1) = (xs[slab], xs[slab + 1]);
        let mid = Q::new(x0.0 * x1.1 + x1.0 * x0.1, 2 * x0.1 * x1.1);
        let mut spans: Vec<(Q, Q, Q)> = segs
            .iter()
            .filter(|s| {
                let (a, b) = (s.0 .0.min(s.1 .0), s.0 .0.max(s.1 .0));
                a != b && Q::int(a) <= x0 && Q::int(b) >= x1
            })
            .map(|s| (y_at(*s, mid), y_at(*s, x0), y_at(*s, x1)))
            .collect();
        spans.sort();
        spans.dedup();
        let mut bounds = vec![(far.mul(Q::int(-1)), far.mul(Q::int(-1)))];
        bounds.extend(spans.iter().map(|s| (s.1, s.2)));
        bounds.push((far, far));
        for w in bounds.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            let bounded = lo.0 != far.mul(Q::int(-1)) && hi.0 != far;
            let h0 = hi.0.sub(lo.0);
            let h1 = hi.1.sub(lo.1);
            let area = x1.sub(x0).mul(h0.add(h1)).div(Q::int(2));
            cells.push(Cell {
                slab,
                left: (lo.0, hi.0),
                right: (lo.1, hi.1),
                area,
                bounded,
            });
        }
    }
    let slabs = xs.len().saturating_sub(1);
    let mut reached: Vec<bool> = cells.iter().map(|c| !c.bounded).collect();
    // The left of the first slab and the right of the last open onto outside.
    for c in cells.iter_mut().enumerate() {
        let (k, cell) = c;
        if cell.slab == 0 && open_gap(cell.left.0, cell.left.1, &blocked(xs[0])) {
            reached[k] = true;
        }
        if cell.slab + 1 == slabs && open_gap(cell.right.0, cell.right.1, &blocked(xs[slabs])) {
            reached[k] = true;
        }
    }
    loop {
        let mut grew = false;
        for i in 0..cells.len() {
            for j in 0..cells.len() {
                if reached[i] == reached[j] || cells[j].slab != cells[i].slab + 1 {
                    continue;
                }
                let (a, b) = (&cells[i], &cells[j]);
                let lo = a.right.0.max(b.left.0);
                let hi = a.right.1.min(b.left.1);
                if open_gap(lo, hi, &blocked(xs[b.slab])) {
                    reached[i] = true;
                    reached[j] = true;
                    grew = true;
                }
            }
        }
        if !grew {
            break;
        }
    }
    cells
        .iter()
        .zip(&reached)
        .filter(|(_, r)| !**r)
        .fold(Q::int(0), |s, (c, _)| s.add(c.area))
}

fn engine_area(segs: &[(P, P)]) -> (Area, usize) {
    let edges: Vec<(u32, Segment)> = segs
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let p = |v: P| Point::new(v.0 as i32, v.1 as i32);
            (i as u32, Segment::new(p(s.0), p(s.1)))
        })
        .collect();
    let faces = enclosed_faces(&edges);
    for f in &faces {
        assert!(f.area > Area::ZERO, "{segs:?}: a face without area");
    }
    (faces.iter().map(|f| f.area).sum(), faces.len())
}

fn as_q(a: Area) -> Q {
    Q::new(a.0, AREA_UNIT)
}

#[test]
fn hand_made_drawings_have_the_areas_worked_out_by_hand() {
    let square = [
        ((0, 0), (3, 0)),
        ((3, 0), (3, 3)),
        ((3, 3), (0, 3)),
        ((0, 3), (0, 0)),
    ];
    let bow_tie = [
        ((0, 0), (3, 3)),
        ((3, 3), (3, 0)),
        ((3, 0), (0, 3)),
        ((0, 3), (0, 0)),
    ];
    let open_u = [((0, 2), (3, 2)), ((3, 2), (3, 0))];
    // Two shallow edges crossing at (3/2, 1/2): a bow tie on its side.
    let thin = [
        ((0, 0), (3, 1)),
        ((0, 1), (3, 0)),
        ((0, 0), (0, 1)),
        ((3, 0), (3, 1)),
    ];
    for (segs, area) in [
        (&square[..], Q::int(9)),
        (&bow_tie[..], Q::new(9, 2)),
        (&open_u[..], Q::int(0)),
        (&thin[..], Q::new(3, 2)),
    ] {
        assert_eq!(as_q(engine_area(segs).0), area, "{segs:?}");
        assert_eq!(slab_area(segs), area, "{segs:?}");
    }
}

#[test]
fn enclosed_area_equals_an_independent_slab_computation_on_random_drawings() {
    let mut rng = ludus_engine::rng::stream(19, "fences/geometry-test");
    let mut pick = |n: u32| (rng.next_u32() % n) as i128;
    let mut with_area = 0;
    for case in 0..3000 {
        let side = 4 + pick(4);
        let count = 1 + pick(14) as usize;
        let mut segs = Vec::new();
        while segs.len() < count {
            let a = (pick(side as u32), pick(side as u32));
            let b = (a.0 + pick(7) - 3, a.1 + pick(7) - 3);
            if b != a && (0..side).contains(&b.0) && (0..side).contains(&b.1) {
                segs.push((a, b));
            }
        }
        let (engine, faces) = engine_area(&segs);
        let slabs = slab_area(&segs);
        assert_eq!(as_q(engine), slabs, "case {case}: {segs:?} ({faces} faces)");
        if faces > 0 {
            with_area += 1;
        }
    }
    assert!(
        with_area > 1000,
        "only {with_area} drawings enclosed anything"
    );
}
