//! A fences strategy: enclose a triangle every turn, away from the
//! opponent, and break the opponent's enclosures when they are in reach.
//!
//! A turn of two moves is one triangle: the first move goes from a node `P`
//! of one of its edges `P–R` to a new point `Q`, the second closes `Q–R`.
//! The two new edges are protected during the opponent's next turn, so the
//! triangle's weak side is the old edge `P–R`: triangles whose old side is
//! far from the opponent's nodes are worth more. A move that breaks an
//! opponent edge is worth the area of the opponent regions that edge
//! borders; a closing move found in the legal moves is worth the area of
//! the loop it closes (its own shoelace over the shortest way back through
//! its own edges). Anything else extends its drawing away from the
//! opponent. Ties are broken with the match's seeded random stream.

use std::collections::VecDeque;

use ludus_sdk::fences::{Action, LegalMove, Observation, Point};
use ludus_sdk::Bot;

#[derive(Debug, Default)]
pub struct Strategy {
    /// The closing move planned for the next move of this turn: `Q → R`,
    /// and the move (`obs.turn`) it is meant for.
    plan: Option<(Point, Point, u32)>,
}

/// Chebyshev distance: moves of reach 1 between two points.
fn cheb(a: Point, b: Point) -> i32 {
    (a[0] - b[0]).abs().max((a[1] - b[1]).abs())
}

fn cross(o: Point, a: Point, b: Point) -> i64 {
    let (ax, ay) = (i64::from(a[0] - o[0]), i64::from(a[1] - o[1]));
    let (bx, by) = (i64::from(b[0] - o[0]), i64::from(b[1] - o[1]));
    ax * by - ay * bx
}

/// Whether `p` lies on the segment `a–b` (collinear, within its box).
fn on_segment(a: Point, b: Point, p: Point) -> bool {
    cross(a, b, p) == 0
        && p[0] >= a[0].min(b[0])
        && p[0] <= a[0].max(b[0])
        && p[1] >= a[1].min(b[1])
        && p[1] <= a[1].max(b[1])
}

/// Whether the segments `a–b` and `c–d` share any point.
fn touch(a: Point, b: Point, c: Point, d: Point) -> bool {
    let (d1, d2) = (cross(a, b, c).signum(), cross(a, b, d).signum());
    let (d3, d4) = (cross(c, d, a).signum(), cross(c, d, b).signum());
    if d1 * d2 < 0 && d3 * d4 < 0 {
        return true;
    }
    on_segment(a, b, c) || on_segment(a, b, d) || on_segment(c, d, a) || on_segment(c, d, b)
}

/// Whether `(x, y)` is inside the polygon (ray casting).
fn inside(poly: &[[f64; 2]], x: f64, y: f64) -> bool {
    let mut odd = false;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
        if (a[1] > y) != (b[1] > y) && x < a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1]) {
            odd = !odd;
        }
    }
    odd
}

/// Area of a polygon of grid points.
fn polygon_area(points: &[Point]) -> f64 {
    let mut twice = 0i64;
    for i in 0..points.len() {
        let (p, q) = (points[i], points[(i + 1) % points.len()]);
        twice += i64::from(p[0]) * i64::from(q[1]) - i64::from(q[0]) * i64::from(p[1]);
    }
    twice.abs() as f64 / 2.0
}

/// What the bot knows of the position, in the forms it needs.
struct View<'a> {
    obs: &'a Observation,
    mine: Vec<(Point, Point)>,
    theirs: Vec<(Point, Point)>,
}

impl<'a> View<'a> {
    fn new(obs: &'a Observation) -> Self {
        let mine = obs.my_edges().map(|e| (e.a, e.b)).collect();
        let theirs = obs.opponent_edges().map(|e| (e.a, e.b)).collect();
        View { obs, mine, theirs }
    }

    /// How close the opponent's nearest node is to `p`.
    fn danger(&self, p: Point) -> i32 {
        self.obs
            .opponent
            .nodes
            .iter()
            .map(|&n| cheb(n, p))
            .min()
            .unwrap_or(99)
    }

    fn is_my_node(&self, p: Point) -> bool {
        self.obs.me.nodes.contains(&p)
    }

    /// Whether `(x, y)` is already inside one of its regions.
    fn enclosed(&self, x: f64, y: f64) -> bool {
        let me = self.obs.me.id;
        self.obs
            .regions
            .iter()
            .any(|r| r.owner == me && inside(&r.outline, x, y))
    }

    /// Whether a second move `q → r` will be legal once `q` is a node:
    /// nothing of the opponent touched, none of its nodes passed, not
    /// ending inside one of its edges.
    fn second_move_ok(&self, q: Point, r: Point) -> bool {
        if cheb(q, r) > self.obs.reach || q == r {
            return false;
        }
        if self.theirs.iter().any(|&(a, b)| touch(q, r, a, b)) {
            return false;
        }
        let (dx, dy) = (r[0] - q[0], r[1] - q[1]);
        let g = gcd(dx.abs(), dy.abs());
        (1..g).all(|k| !self.is_my_node([q[0] + dx / g * k, q[1] + dy / g * k]))
    }

    /// The area a closing move `from → to` adds: the loop through the
    /// fewest of its edges from `to` back to `from`, less what is already
    /// enclosed (judged by the loop's centre). Closing through a crossing
    /// (not at a node) is worth a little.
    fn closed_area(&self, m: &LegalMove) -> f64 {
        if !self.is_my_node(m.to) {
            return 1.0;
        }
        let Some(path) = self.path(m.to, m.from) else {
            return 1.0;
        };
        let n = path.len() as f64;
        let cx = path.iter().map(|p| f64::from(p[0])).sum::<f64>() / n;
        let cy = path.iter().map(|p| f64::from(p[1])).sum::<f64>() / n;
        if self.enclosed(cx, cy) {
            return 0.2;
        }
        polygon_area(&path)
    }

    /// Its nodes from `a` to `b` along the fewest of its edges.
    fn path(&self, a: Point, b: Point) -> Option<Vec<Point>> {
        let mut back: Vec<(Point, Point)> = vec![(a, a)];
        let mut queue = VecDeque::from([a]);
        while let Some(p) = queue.pop_front() {
            if p == b {
                let mut out = vec![b];
                let mut at = b;
                while at != a {
                    at = back.iter().find(|(n, _)| *n == at)?.1;
                    out.push(at);
                }
                return Some(out);
            }
            for &(u, v) in &self.mine {
                let next = if u == p {
                    v
                } else if v == p {
                    u
                } else {
                    continue;
                };
                if !back.iter().any(|(n, _)| *n == next) {
                    back.push((next, p));
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// What a move is worth now, on its own.
    fn value_now(&self, m: &LegalMove) -> f64 {
        let me = self.obs.me.id;
        let mut v = 0.0;
        if let Some(id) = m.breaks {
            let freed: f64 = self
                .obs
                .regions_bordered_by(id)
                .filter(|r| r.owner != me)
                .map(|r| r.area)
                .sum();
            v += 10.0 * freed + 3.0;
        }
        if m.closes {
            v += 10.0 * self.closed_area(m);
        }
        v
    }

    /// The best triangle opened by `m` (`P → Q`, to be closed by `Q → R`):
    /// its value and `R`.
    fn triangle(&self, m: &LegalMove) -> Option<(f64, Point)> {
        let (p, q) = (m.from, m.to);
        if self.is_my_node(q) {
            return None;
        }
        let mut best: Option<(f64, Point)> = None;
        for &(a, b) in &self.mine {
            let r = if a == p {
                b
            } else if b == p {
                a
            } else {
                continue;
            };
            if !self.second_move_ok(q, r) {
                continue;
            }
            let cx = f64::from(p[0] + q[0] + r[0]) / 3.0;
            let cy = f64::from(p[1] + q[1] + r[1]) / 3.0;
            if self.enclosed(cx, cy) {
                continue;
            }
            // The old side P–R is what the opponent can break first.
            let near = self.danger(p).min(self.danger(r));
            let safety = match near {
                ..=4 => 0.3,
                5..=7 => 0.6,
                _ => 1.0,
            };
            let v = 10.0 * polygon_area(&[p, q, r]) * safety;
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, r));
            }
        }
        best
    }

    /// A move that builds nothing yet: out into open space, away from the
    /// opponent, keeping off the border.
    fn value_spread(&self, m: &LegalMove) -> f64 {
        let (w, h) = (self.obs.width, self.obs.height);
        let q = m.to;
        let edge = q[0].min(q[1]).min(w - 1 - q[0]).min(h - 1 - q[1]);
        f64::from(self.danger(q).min(8)) + f64::from(edge.min(2)) * 0.5
            - if self.is_my_node(q) { 2.0 } else { 0.0 }
    }
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

impl Bot for Strategy {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        if !obs.your_turn {
            return Action::Wait;
        }
        let view = View::new(obs);
        // Ties: a little noise from the match's seeded stream.
        let noise = || ludus_sdk::random::below(1000) as f64 / 100_000.0;
        let mut best: Option<(f64, LegalMove, Option<Point>)> = None;
        let planned = self.plan.take().filter(|p| p.2 == obs.turn);
        for m in &obs.legal_moves {
            let mut v = view.value_now(m);
            if let Some((q, r, _)) = planned {
                if m.from == q && m.to == r {
                    v = v.max(0.0) + 1.0; // finish what was started
                }
            }
            let mut then = None;
            if obs.moves_left == 2 {
                if let Some((tv, r)) = view.triangle(m) {
                    if tv + v * 0.5 > v {
                        v = tv + v * 0.5;
                        then = Some(r);
                    }
                }
            }
            if v <= 0.0 {
                v = view.value_spread(m) * 0.01;
            }
            v += noise();
            if best.as_ref().is_none_or(|(bv, _, _)| v > *bv) {
                best = Some((v, *m, then));
            }
        }
        let Some((_, m, then)) = best else {
            return Action::Wait;
        };
        if let Some(r) = then {
            self.plan = Some((m.to, r, obs.turn + 1));
        }
        m.action()
    }
}
