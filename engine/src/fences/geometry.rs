//! Exact plane geometry for fences: grid points, the edges between them,
//! where two edges meet, and the faces a drawing encloses, with exact areas.
//! No floating point: every coordinate is an integer in units of
//! 1/[`SCALE`] of a grid step, and every area an integer in units of
//! 1/[`AREA_UNIT`] of a grid square.
//!
//! Why that is exact: an edge goes at most [`REACH`] = 3 columns and 3 rows,
//! so its direction `d` has components in −3..=3. Two edges `P + t·d` and
//! `Q + s·e` that are not parallel meet at `t = ((Q − P) × e) / (d × e)`,
//! and `|d × e|` is one of 1 to 13, 15 or 18 (every value a difference of
//! two products of numbers in −3..=3 can take). All of them divide
//! `SCALE = 360 360 = 2³·3²·5·7·11·13`, so `P·SCALE + d·(t·SCALE)` is a
//! whole number: every crossing has integer coordinates in `SCALE` units.
//! Polygons with such corners have twice their area in `SCALE²` units as a
//! whole number (the shoelace formula), hence `AREA_UNIT = 2·SCALE²`.

use std::collections::BTreeMap;
use std::ops::{Add, AddAssign, Sub};

/// How far an edge may go: at most this many columns and this many rows.
pub const REACH: i32 = 3;
/// Units of a [`Fine`] coordinate per grid step: the least common multiple
/// of every denominator a crossing of two edges can have.
pub const SCALE: i64 = 360_360;
/// Units of an [`Area`] per grid square: twice `SCALE²`, so that the
/// shoelace sum over [`Fine`] corners is a whole number of units.
pub const AREA_UNIT: i128 = 2 * (SCALE as i128) * (SCALE as i128);

/// A point of the board's grid, `[x, y]` with `[0, 0]` top-left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Point {
    pub x: i32,
    pub y: i32,
}

impl Point {
    pub const fn new(x: i32, y: i32) -> Self {
        Point { x, y }
    }

    /// The same point in [`Fine`] units.
    pub fn fine(self) -> Fine {
        Fine {
            x: i64::from(self.x) * SCALE,
            y: i64::from(self.y) * SCALE,
        }
    }
}

/// A point of the plane whose coordinates are multiples of 1/[`SCALE`]:
/// grid points, and every point where two edges cross.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fine {
    pub x: i64,
    pub y: i64,
}

impl Fine {
    /// The coordinates in grid steps, as the nearest doubles (for drawing).
    pub fn to_f64(self) -> (f64, f64) {
        (self.x as f64 / SCALE as f64, self.y as f64 / SCALE as f64)
    }
}

/// A straight edge between two distinct grid points, at most [`REACH`]
/// columns and rows long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Segment {
    pub a: Point,
    pub b: Point,
}

/// How two segments meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meet {
    /// Not at all.
    Apart,
    /// In exactly one point (a crossing, a touch, or a shared end).
    At(Fine),
    /// Along a piece of positive length: they lie on one line and overlap.
    Overlap,
}

fn cross(ax: i64, ay: i64, bx: i64, by: i64) -> i64 {
    ax * by - ay * bx
}

impl Segment {
    pub fn new(a: Point, b: Point) -> Self {
        Segment { a, b }
    }

    /// The step from `a` to `b`.
    pub fn delta(&self) -> (i64, i64) {
        (
            i64::from(self.b.x - self.a.x),
            i64::from(self.b.y - self.a.y),
        )
    }

    /// Whether it goes at most [`REACH`] columns and rows, and somewhere.
    pub fn within_reach(&self) -> bool {
        let (dx, dy) = self.delta();
        (dx, dy) != (0, 0) && dx.abs() <= i64::from(REACH) && dy.abs() <= i64::from(REACH)
    }

    /// The same edge, ends in order (for comparing edges as unordered pairs).
    pub fn normalized(&self) -> Segment {
        if self.a <= self.b {
            *self
        } else {
            Segment::new(self.b, self.a)
        }
    }

    /// Whether the bounding boxes of the two segments share a point.
    pub fn boxes_meet(&self, o: &Segment) -> bool {
        let (x0, x1) = (self.a.x.min(self.b.x), self.a.x.max(self.b.x));
        let (y0, y1) = (self.a.y.min(self.b.y), self.a.y.max(self.b.y));
        let (u0, u1) = (o.a.x.min(o.b.x), o.a.x.max(o.b.x));
        let (v0, v1) = (o.a.y.min(o.b.y), o.a.y.max(o.b.y));
        x0 <= u1 && u0 <= x1 && y0 <= v1 && v0 <= y1
    }

    /// Whether the grid point `p` lies on the segment, ends included.
    pub fn contains(&self, p: Point) -> bool {
        let (dx, dy) = self.delta();
        let (px, py) = (i64::from(p.x - self.a.x), i64::from(p.y - self.a.y));
        cross(dx, dy, px, py) == 0 && {
            let dot = dx * px + dy * py;
            (0..=dx * dx + dy * dy).contains(&dot)
        }
    }

    /// The grid points strictly between the ends.
    pub fn inner_points(&self) -> impl Iterator<Item = Point> {
        let (dx, dy) = self.delta();
        let g = gcd(dx.unsigned_abs() as i128, dy.unsigned_abs() as i128) as i64;
        let (sx, sy) = (dx / g.max(1), dy / g.max(1));
        let a = self.a;
        (1..g).map(move |k| Point::new(a.x + (sx * k) as i32, a.y + (sy * k) as i32))
    }

    /// Where this segment and `o` meet. Both must be [within
    /// reach](Segment::within_reach): that is what makes every crossing a
    /// [`Fine`] point.
    pub fn meet(&self, o: &Segment) -> Meet {
        if !self.boxes_meet(o) {
            return Meet::Apart;
        }
        let (dx, dy) = self.delta();
        let (ex, ey) = o.delta();
        let (qx, qy) = (i64::from(o.a.x - self.a.x), i64::from(o.a.y - self.a.y));
        let den = cross(dx, dy, ex, ey);
        if den == 0 {
            return self.meet_parallel(o);
        }
        // self at t = num_t / den, o at s = num_s / den; both in [0, 1].
        let (mut num_t, mut num_s, mut den) = (cross(qx, qy, ex, ey), cross(qx, qy, dx, dy), den);
        if den < 0 {
            (num_t, num_s, den) = (-num_t, -num_s, -den);
        }
        if !(0..=den).contains(&num_t) || !(0..=den).contains(&num_s) {
            return Meet::Apart;
        }
        assert!(
            SCALE % den == 0,
            "edges beyond the reach of 3 meet off the fine grid"
        );
        let k = num_t * (SCALE / den);
        let a = self.a.fine();
        Meet::At(Fine {
            x: a.x + dx * k,
            y: a.y + dy * k,
        })
    }

    fn meet_parallel(&self, o: &Segment) -> Meet {
        let (dx, dy) = self.delta();
        let (qx, qy) = (i64::from(o.a.x - self.a.x), i64::from(o.a.y - self.a.y));
        if cross(dx, dy, qx, qy) != 0 {
            return Meet::Apart;
        }
        // On one line: compare positions along `self` (0 at a, len at b).
        let along = |p: Point| dx * i64::from(p.x - self.a.x) + dy * i64::from(p.y - self.a.y);
        let len = dx * dx + dy * dy;
        let (u, v) = (along(o.a), along(o.b));
        let lo = u.min(v).max(0);
        let hi = u.max(v).min(len);
        match lo.cmp(&hi) {
            std::cmp::Ordering::Greater => Meet::Apart,
            std::cmp::Ordering::Less => Meet::Overlap,
            // One shared point, which is an end of one of them.
            std::cmp::Ordering::Equal => {
                let p = [self.a, self.b, o.a, o.b]
                    .into_iter()
                    .find(|&p| along(p) == lo && self.contains(p) && o.contains(p))
                    .expect("a single shared point of two segments on one line is an end");
                Meet::At(p.fine())
            }
        }
    }
}

/// Greatest common divisor (of absolute values; `gcd(0, 0) = 0`).
pub fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// An exact area, in units of 1/[`AREA_UNIT`] of a grid square.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Area(pub i128);

impl Area {
    pub const ZERO: Area = Area(0);

    /// A whole number of grid squares.
    pub fn squares(n: i64) -> Area {
        Area(i128::from(n) * AREA_UNIT)
    }

    /// The area as a fraction of grid squares in lowest terms, denominator
    /// positive.
    pub fn fraction(self) -> (i128, i128) {
        let g = gcd(self.0, AREA_UNIT).max(1);
        (self.0 / g, AREA_UNIT / g)
    }

    /// `p/q` in lowest terms, or `p` for a whole number of squares.
    pub fn exact_text(self) -> String {
        match self.fraction() {
            (p, 1) => p.to_string(),
            (p, q) => format!("{p}/{q}"),
        }
    }

    /// The nearest double, or within an ulp of it (the lowest-terms
    /// numerator and denominator divided in floating point).
    pub fn to_f64(self) -> f64 {
        let (p, q) = self.fraction();
        p as f64 / q as f64
    }
}

impl Add for Area {
    type Output = Area;
    fn add(self, o: Area) -> Area {
        Area(self.0 + o.0)
    }
}

impl AddAssign for Area {
    fn add_assign(&mut self, o: Area) {
        self.0 += o.0;
    }
}

impl Sub for Area {
    type Output = Area;
    fn sub(self, o: Area) -> Area {
        Area(self.0 - o.0)
    }
}

impl std::iter::Sum for Area {
    fn sum<I: Iterator<Item = Area>>(iter: I) -> Area {
        iter.fold(Area::ZERO, Add::add)
    }
}

/// Twice the signed area of a closed polygon, in [`Area`] units: positive
/// when it turns counter-clockwise in `x`-right, `y`-up terms.
pub fn shoelace(poly: &[Fine]) -> Area {
    let n = poly.len();
    let mut sum: i128 = 0;
    for i in 0..n {
        let (p, q) = (poly[i], poly[(i + 1) % n]);
        sum += i128::from(p.x) * i128::from(q.y) - i128::from(q.x) * i128::from(p.y);
    }
    Area(sum)
}

/// Whether the point `(x / den, y / den)` (in [`Fine`] units, `den > 0`)
/// lies inside the closed polygon `poly`. The point must not lie on it.
pub fn inside(poly: &[Fine], x: i128, y: i128, den: i128) -> bool {
    let n = poly.len();
    let mut odd = false;
    for i in 0..n {
        let (a, b) = (poly[i], poly[(i + 1) % n]);
        let (ax, ay) = (i128::from(a.x) * den, i128::from(a.y) * den);
        let (bx, by) = (i128::from(b.x) * den, i128::from(b.y) * den);
        if (ay > y) != (by > y) {
            // The ray to +x crosses this side when x is left of it at height y.
            let lhs = (x - ax) * (by - ay);
            let rhs = (y - ay) * (bx - ax);
            if (by > ay && lhs < rhs) || (by < ay && lhs > rhs) {
                odd = !odd;
            }
        }
    }
    odd
}

/// A face of a player's drawing that does not reach infinity: completely
/// surrounded by the player's edges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Face {
    /// Its own area: inside its outline, less the holes other parts of the
    /// drawing make in it (which are faces of their own, or lines).
    pub area: Area,
    /// Its outer boundary, counter-clockwise (`x`-right, `y`-up terms),
    /// starting at its least corner; crossings of edges are corners.
    pub outline: Vec<Fine>,
    /// The ids of the edges any piece of which borders it, ascending.
    pub edges: Vec<u32>,
}

/// Union-find over `n` items.
#[derive(Debug, Clone)]
pub struct Components(Vec<usize>);

impl Components {
    pub fn new(n: usize) -> Self {
        Components((0..n).collect())
    }

    pub fn find(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    pub fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b)] = a.min(b);
        }
    }
}

/// Every enclosed face of the drawing made of `edges` (each with its id),
/// in order of their least corner. Edges may cross, touch and even overlap:
/// the drawing is cut at every point where two edges meet, and a crossing
/// is a corner like any end. A face is enclosed when it is bounded; the
/// board's border plays no part.
pub fn enclosed_faces(edges: &[(u32, Segment)]) -> Vec<Face> {
    let graph = Graph::cut(edges);
    graph.faces()
}

/// The drawing cut into pieces that meet only at their ends.
struct Graph {
    vertices: Vec<Fine>,
    /// Pieces `(u, v)` with `u < v`, and the ids of the edges they are part of.
    pieces: Vec<(usize, usize, Vec<u32>)>,
}

impl Graph {
    fn cut(edges: &[(u32, Segment)]) -> Graph {
        // Every point where an edge must be cut: its ends, where others meet
        // it, and (for overlaps) the ends of others lying on it.
        let mut cuts: Vec<Vec<Fine>> = edges
            .iter()
            .map(|(_, s)| vec![s.a.fine(), s.b.fine()])
            .collect();
        for i in 0..edges.len() {
            for j in i + 1..edges.len() {
                let (s, o) = (&edges[i].1, &edges[j].1);
                match s.meet(o) {
                    Meet::Apart => {}
                    Meet::At(p) => {
                        cuts[i].push(p);
                        cuts[j].push(p);
                    }
                    Meet::Overlap => {
                        for p in [o.a, o.b] {
                            if s.contains(p) {
                                cuts[i].push(p.fine());
                            }
                        }
                        for p in [s.a, s.b] {
                            if o.contains(p) {
                                cuts[j].push(p.fine());
                            }
                        }
                    }
                }
            }
        }
        let mut vertices: Vec<Fine> = cuts.iter().flatten().copied().collect();
        vertices.sort_unstable();
        vertices.dedup();
        let id = |p: &Fine| vertices.binary_search(p).expect("every cut is a vertex");
        let mut raw: Vec<(usize, usize, u32)> = Vec::new();
        for ((eid, s), points) in edges.iter().zip(&mut cuts) {
            let (dx, dy) = s.delta();
            let a = s.a.fine();
            points.sort_unstable_by_key(|p| dx * (p.x - a.x) + dy * (p.y - a.y));
            points.dedup();
            for w in points.windows(2) {
                let (u, v) = (id(&w[0]), id(&w[1]));
                raw.push((u.min(v), u.max(v), *eid));
            }
        }
        raw.sort_unstable();
        let mut pieces: Vec<(usize, usize, Vec<u32>)> = Vec::new();
        for (u, v, eid) in raw {
            match pieces.last_mut() {
                Some((pu, pv, ids)) if (*pu, *pv) == (u, v) => {
                    if ids.last() != Some(&eid) {
                        ids.push(eid);
                    }
                }
                _ => pieces.push((u, v, vec![eid])),
            }
        }
        Graph { vertices, pieces }
    }

    /// The bounded faces, holes accounted for.
    fn faces(&self) -> Vec<Face> {
        let cycles = self.cycles();
        let mut comps = Components::new(self.vertices.len());
        for (u, v, _) in &self.pieces {
            comps.join(*u, *v);
        }
        let bounded: Vec<usize> = (0..cycles.len())
            .filter(|&c| cycles[c].area > Area::ZERO)
            .collect();
        let mut faces: Vec<Face> = bounded
            .iter()
            .map(|&c| Face {
                area: cycles[c].area,
                outline: cycles[c].corners.clone(),
                edges: cycles[c].edges.clone(),
            })
            .collect();
        // Each part of the drawing has one outer boundary (area ≤ 0). If the
        // part lies inside a face of another part, it is a hole in the
        // smallest such face.
        for outer in cycles.iter().filter(|c| c.area <= Area::ZERO) {
            let p = outer.corners[0];
            let part = comps.find(self.vertex_of(p));
            let mut best: Option<usize> = None;
            for (k, &c) in bounded.iter().enumerate() {
                let cycle = &cycles[c];
                if comps.find(self.vertex_of(cycle.corners[0])) == part {
                    continue;
                }
                let smaller = best.is_none_or(|b| cycle.area < faces[b].outline_area());
                if smaller && inside(&cycle.corners, p.x.into(), p.y.into(), 1) {
                    best = Some(k);
                }
            }
            if let Some(k) = best {
                faces[k].area += outer.area; // outer.area ≤ 0
                faces[k].edges.extend(&outer.edges);
            }
        }
        for f in &mut faces {
            f.edges.sort_unstable();
            f.edges.dedup();
        }
        faces.sort_by(|a, b| a.outline.cmp(&b.outline));
        faces
    }

    fn vertex_of(&self, p: Fine) -> usize {
        self.vertices
            .binary_search(&p)
            .expect("a corner is a vertex")
    }

    /// Every boundary cycle, tracing each piece once in each direction with
    /// the face on its left.
    fn cycles(&self) -> Vec<Cycle> {
        let n = self.vertices.len();
        // Half-edge h = 2·piece + (0: u→v, 1: v→u).
        let ends = |h: usize| {
            let (u, v, _) = &self.pieces[h / 2];
            if h.is_multiple_of(2) {
                (*u, *v)
            } else {
                (*v, *u)
            }
        };
        let mut around: Vec<Vec<usize>> = vec![Vec::new(); n];
        for h in 0..2 * self.pieces.len() {
            around[ends(h).0].push(h);
        }
        let mut slot = vec![0usize; 2 * self.pieces.len()];
        for (v, list) in around.iter_mut().enumerate() {
            let o = self.vertices[v];
            list.sort_by(|&g, &h| {
                let p = self.vertices[ends(g).1];
                let q = self.vertices[ends(h).1];
                by_angle((p.x - o.x, p.y - o.y), (q.x - o.x, q.y - o.y))
            });
            for (k, &h) in list.iter().enumerate() {
                slot[h] = k;
            }
        }
        let mut seen = vec![false; 2 * self.pieces.len()];
        let mut cycles = Vec::new();
        for start in 0..2 * self.pieces.len() {
            if seen[start] {
                continue;
            }
            let mut corners = Vec::new();
            let mut edges = Vec::new();
            let mut h = start;
            while !seen[h] {
                seen[h] = true;
                let (u, v) = ends(h);
                corners.push(self.vertices[u]);
                edges.extend(&self.pieces[h / 2].2);
                // At v, the next one clockwise from the way back.
                let back = h ^ 1;
                let list = &around[v];
                h = list[(slot[back] + list.len() - 1) % list.len()];
            }
            let area = shoelace(&corners);
            let least = (0..corners.len())
                .min_by_key(|&i| corners[i])
                .expect("a cycle has corners");
            corners.rotate_left(least);
            cycles.push(Cycle {
                corners,
                edges,
                area,
            });
        }
        cycles
    }
}

impl Face {
    /// The area inside its outline, holes included.
    fn outline_area(&self) -> Area {
        shoelace(&self.outline)
    }
}

struct Cycle {
    corners: Vec<Fine>,
    edges: Vec<u32>,
    /// Signed, in Area units (the shoelace sum is twice the area in Fine²
    /// units, which is what an Area unit counts).
    area: Area,
}

/// Orders directions counter-clockwise from +x (in `x`-right, `y`-up terms).
fn by_angle(a: (i64, i64), b: (i64, i64)) -> std::cmp::Ordering {
    let half = |(x, y): (i64, i64)| u8::from(y < 0 || (y == 0 && x < 0));
    half(a).cmp(&half(b)).then_with(|| {
        let c = i128::from(a.0) * i128::from(b.1) - i128::from(a.1) * i128::from(b.0);
        0.cmp(&c)
    })
}

/// The drawing of one player, ready to answer "does this new edge close a
/// region?" for many candidate edges: its edges, the part of the drawing
/// each belongs to, and the outlines of its enclosed faces.
#[derive(Debug, Clone)]
pub struct Drawing {
    edges: Vec<Segment>,
    part: Vec<usize>,
    parts: usize,
    /// Each enclosed outline with its bounding box (least and greatest corner).
    outlines: Vec<(Fine, Fine, Vec<Fine>)>,
}

impl Drawing {
    /// `edges` must meet only at single points, as a player's own edges do.
    pub fn new(edges: Vec<Segment>, faces: &[Face]) -> Self {
        let mut comps = Components::new(edges.len());
        for i in 0..edges.len() {
            for j in i + 1..edges.len() {
                if edges[i].meet(&edges[j]) != Meet::Apart {
                    comps.join(i, j);
                }
            }
        }
        let mut index = BTreeMap::new();
        let part: Vec<usize> = (0..edges.len())
            .map(|i| {
                let root = comps.find(i);
                let next = index.len();
                *index.entry(root).or_insert(next)
            })
            .collect();
        Drawing {
            edges,
            part,
            parts: index.len(),
            outlines: faces
                .iter()
                .map(|f| {
                    let lo = |k: fn(&Fine) -> i64| f.outline.iter().map(k).min().unwrap_or(0);
                    let hi = |k: fn(&Fine) -> i64| f.outline.iter().map(k).max().unwrap_or(0);
                    let (min, max) = (
                        Fine {
                            x: lo(|p| p.x),
                            y: lo(|p| p.y),
                        },
                        Fine {
                            x: hi(|p| p.x),
                            y: hi(|p| p.y),
                        },
                    );
                    (min, max, f.outline.clone())
                })
                .collect(),
        }
    }

    /// The drawing's edges that could meet an edge drawn from `from`: those
    /// whose bounding box meets the square of points within reach.
    pub fn near(&self, from: Point) -> Vec<usize> {
        let reach = Segment::new(
            Point::new(from.x - REACH, from.y - REACH),
            Point::new(from.x + REACH, from.y + REACH),
        );
        (0..self.edges.len())
            .filter(|&i| self.edges[i].boxes_meet(&reach))
            .collect()
    }

    /// Whether the point `(x / 2, y / 2)` (in [`Fine`] units) is inside an
    /// enclosed outline.
    fn enclosed(&self, x: i64, y: i64) -> bool {
        self.outlines.iter().any(|(min, max, o)| {
            (2 * min.x..=2 * max.x).contains(&x)
                && (2 * min.y..=2 * max.y).contains(&y)
                && inside(o, x.into(), y.into(), 2)
        })
    }

    /// Whether adding `s`, drawn from one of the drawing's nodes `s.a`,
    /// encloses area that was not enclosed. `s` must not overlap the
    /// drawing's edges nor pass through its nodes (a legal move does not).
    ///
    /// Walking along `s` from `s.a`, the drawing is met at points
    /// `p1, p2, …`. The piece between two consecutive points lies in one
    /// face; it splits that face in two exactly when its ends were already
    /// joined (through the drawing or earlier pieces of `s`), and the new
    /// face is new enclosed area exactly when the split face is the
    /// unbounded one, which is when the piece's midpoint lies inside no
    /// enclosed outline.
    ///
    /// `near` lists the edges to consider: [`Drawing::near`] of `s.a`.
    pub fn closes(&self, s: &Segment, near: &[usize]) -> bool {
        let (dx, dy) = s.delta();
        let a = s.a.fine();
        let mut start_part = None;
        let mut meets: Vec<(i64, Fine, usize)> = Vec::new();
        for &i in near {
            match self.edges[i].meet(s) {
                Meet::At(p) if p == a => start_part = Some(self.part[i]),
                Meet::At(p) => meets.push((dx * (p.x - a.x) + dy * (p.y - a.y), p, self.part[i])),
                _ => {}
            }
        }
        let Some(start_part) = start_part else {
            return false;
        };
        meets.sort_unstable();
        let mut comps = Components::new(self.parts);
        let (mut prev, mut prev_part) = (a, start_part);
        let mut i = 0;
        while i < meets.len() {
            let (key, p, _) = meets[i];
            let mut joined = false;
            let mut j = i;
            while j < meets.len() && meets[j].0 == key {
                joined |= comps.find(meets[j].2) == comps.find(prev_part);
                j += 1;
            }
            if joined && !self.enclosed(prev.x + p.x, prev.y + p.y) {
                return true;
            }
            for m in &meets[i..j] {
                comps.join(m.2, prev_part);
            }
            (prev, prev_part, i) = (p, meets[i].2, j);
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: (i32, i32), b: (i32, i32)) -> Segment {
        Segment::new(Point::new(a.0, a.1), Point::new(b.0, b.1))
    }

    #[test]
    fn every_denominator_of_a_crossing_divides_the_scale() {
        for a in -3i64..=3 {
            for b in -3i64..=3 {
                for c in -3i64..=3 {
                    for d in -3i64..=3 {
                        let den = cross(a, b, c, d);
                        if den != 0 {
                            assert_eq!(SCALE % den, 0, "{a} {b} {c} {d}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn segments_meet_at_crossings_touches_and_overlaps() {
        let x = seg((0, 0), (3, 3)).meet(&seg((0, 3), (3, 0)));
        assert_eq!(
            x,
            Meet::At(Fine {
                x: 3 * SCALE / 2,
                y: 3 * SCALE / 2
            })
        );
        assert_eq!(
            seg((0, 0), (3, 1)).meet(&seg((0, 1), (3, 0))),
            Meet::At(Fine {
                x: 3 * SCALE / 2,
                y: SCALE / 2
            })
        );
        assert_eq!(
            seg((0, 0), (2, 0)).meet(&seg((1, 0), (3, 0))),
            Meet::Overlap
        );
        assert_eq!(
            seg((0, 0), (2, 0)).meet(&seg((2, 0), (3, 0))),
            Meet::At(Point::new(2, 0).fine())
        );
        assert_eq!(seg((0, 0), (2, 0)).meet(&seg((3, 0), (5, 0))), Meet::Apart);
        assert_eq!(
            seg((0, 0), (2, 2)).meet(&seg((1, 1), (1, 3))),
            Meet::At(Point::new(1, 1).fine())
        );
        assert_eq!(seg((0, 0), (1, 0)).meet(&seg((0, 1), (1, 1))), Meet::Apart);
    }

    #[test]
    fn areas_print_as_lowest_terms() {
        assert_eq!(Area::squares(3).exact_text(), "3");
        assert_eq!(Area(AREA_UNIT / 2 * 9).exact_text(), "9/2");
        assert_eq!(Area(AREA_UNIT / 2 * 9).to_f64(), 4.5);
        assert_eq!(Area::ZERO.exact_text(), "0");
    }
}
