//! The move, rule by rule, in the rule book's order:
//!
//! 1. [whose move it is](Fences::to_move) and [reading the
//!    answers](Fences::read_answers) (rule 2 and "your code": the other
//!    player answers `WAIT`; late, missing or illegal moves are passed)
//! 2. [checking the move](Fences::check_move) (rules 3, 4, 8 and 9)
//! 3. [drawing the edge](Fences::draw_edge) (rule 3)
//! 4. [breaking the opponent edge it touched](Fences::break_edge) (rule 7)
//! 5. [enclosing](Fences::enclose) (rule 5)
//! 6. [scoring at the end of every turn](Fences::score_turn) (rule 6)
//! 7. [a player with no legal move loses](Fences::check_stuck) (rule 10)
//!
//! and [the outcome](Fences::final_outcome) (rule 10). What a player may
//! do now is [`Fences::legal_moves`], built from the same checks.

use super::answer::{kind, parse_answer, Answer};
use super::geometry::{enclosed_faces, Drawing, Meet, Point, Segment, REACH};
use super::{color, mover_of, round_of, Edge, Fences, PLAYERS};
use crate::{Outcome, Rejection, Seat};

/// A move the rules accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checked {
    pub seg: Segment,
    /// The opponent edge it touches, which breaks.
    pub breaks: Option<u32>,
}

/// A legal move as the observation lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LegalMove {
    pub seg: Segment,
    pub breaks: Option<u32>,
    /// Whether it encloses area that was not enclosed.
    pub closes: bool,
}

/// Why a readable move is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    pub kind: &'static str,
    pub reason: String,
}

fn illegal(kind: &'static str, reason: String) -> Illegal {
    Illegal { kind, reason }
}

/// What the checks need of the mover's drawing, built once per position.
struct Lookup<'a> {
    game: &'a Fences,
    seat: Seat,
    /// Per grid point: one of the mover's nodes.
    node: Vec<bool>,
    /// Per grid point: strictly inside one of the mover's edges.
    inner: Vec<bool>,
    /// The mover's edges, ends in order, sorted.
    own: Vec<Segment>,
    opponent: Vec<&'a Edge>,
}

impl<'a> Lookup<'a> {
    fn new(game: &'a Fences, seat: Seat) -> Self {
        let n = (game.width * game.height) as usize;
        let mut node = vec![false; n];
        let mut inner = vec![false; n];
        let mut own = Vec::new();
        for e in game.edges_of(seat) {
            node[game.index(e.seg.a)] = true;
            node[game.index(e.seg.b)] = true;
            for p in e.seg.inner_points() {
                inner[game.index(p)] = true;
            }
            own.push(e.seg.normalized());
        }
        own.sort_unstable();
        let opponent = game.edges.iter().filter(|e| e.owner != seat).collect();
        Lookup {
            game,
            seat,
            node,
            inner,
            own,
            opponent,
        }
    }

    fn is_node(&self, p: Point) -> bool {
        self.node[self.game.index(p)]
    }

    /// Rules 3, 4, 8 and 9, in that order, for a move from `[x1, y1]` to
    /// `[x2, y2]` as written.
    fn check(&self, xy: [i64; 4]) -> Result<Checked, Illegal> {
        self.check_among(xy, &self.opponent)
    }

    /// The opponent edges that could meet an edge drawn from `from`.
    fn opponents_near(&self, from: Point) -> Vec<&'a Edge> {
        let reach = Segment::new(
            Point::new(from.x - REACH, from.y - REACH),
            Point::new(from.x + REACH, from.y + REACH),
        );
        self.opponent
            .iter()
            .filter(|e| e.seg.boxes_meet(&reach))
            .copied()
            .collect()
    }

    /// [`Lookup::check`], with only the opponent edges in `opponent` (which
    /// must hold every one that could meet the move).
    fn check_among(&self, xy: [i64; 4], opponent: &[&Edge]) -> Result<Checked, Illegal> {
        let g = self.game;
        let [x1, y1, x2, y2] = xy;
        let you = color(self.seat);
        // Rule 3: from one of your nodes, to a point on the board at most 3
        // columns and 3 rows away.
        if !g.on_board(x1, y1) || !self.is_node(Point::new(x1 as i32, y1 as i32)) {
            return Err(illegal(
                kind::NOT_YOUR_NODE,
                format!("({x1}, {y1}) is not one of {you}'s nodes (self.nodes)"),
            ));
        }
        if !g.on_board(x2, y2) {
            return Err(illegal(
                kind::OFF_BOARD,
                format!(
                    "({x2}, {y2}) is off the board (x from 0 to {}, y from 0 to {})",
                    g.width - 1,
                    g.height - 1
                ),
            ));
        }
        let seg = Segment::new(
            Point::new(x1 as i32, y1 as i32),
            Point::new(x2 as i32, y2 as i32),
        );
        if !seg.within_reach() {
            return Err(illegal(
                kind::OUT_OF_REACH,
                format!(
                    "({x2}, {y2}) is not a point at most {REACH} columns and {REACH} rows away \
                     from ({x1}, {y1})"
                ),
            ));
        }
        // Rule 4: not ending in the middle of your own edge, not through
        // your own node, not an edge you have.
        if self.inner[g.index(seg.b)] {
            return Err(illegal(
                kind::ENDS_ON_OWN_EDGE,
                format!("({x2}, {y2}) is in the middle of one of {you}'s edges"),
            ));
        }
        if let Some(p) = seg.inner_points().find(|&p| self.is_node(p)) {
            return Err(illegal(
                kind::THROUGH_OWN_NODE,
                format!(
                    "the edge passes through {you}'s own node ({}, {})",
                    p.x, p.y
                ),
            ));
        }
        if self.is_node(seg.b) && self.own.binary_search(&seg.normalized()).is_ok() {
            return Err(illegal(
                kind::EDGE_EXISTS,
                format!("{you} already has the edge ({x1}, {y1})-({x2}, {y2})"),
            ));
        }
        // Rules 7 to 9: touching at most one opponent edge, unprotected,
        // and never along it.
        let mut touched: Option<&Edge> = None;
        for e in opponent {
            match seg.meet(&e.seg) {
                Meet::Apart => continue,
                Meet::Overlap => {
                    return Err(illegal(
                        kind::RUNS_ALONG,
                        format!("the edge runs along opponent edge {} lengthwise", e.id),
                    ))
                }
                Meet::At(_) => {}
            }
            if g.is_protected(e) {
                return Err(illegal(
                    kind::TOUCHES_PROTECTED,
                    format!(
                        "the edge touches opponent edge {}, protected: it was placed in the \
                         opponent's latest turn",
                        e.id
                    ),
                ));
            }
            if let Some(first) = touched {
                return Err(illegal(
                    kind::TOUCHES_TWO_EDGES,
                    format!(
                        "the edge touches opponent edges {} and {}; a move may touch at most one \
                         (touching a node touches every edge there)",
                        first.id, e.id
                    ),
                ));
            }
            touched = Some(e);
        }
        Ok(Checked {
            seg,
            breaks: touched.map(|e| e.id),
        })
    }

    /// Every move from the mover's nodes that [`Lookup::check`] accepts,
    /// in `(x1, y1, x2, y2)` order; `stop_at_first` for "is there any?".
    fn legal(&self, stop_at_first: bool) -> Vec<Checked> {
        let g = self.game;
        let mut out = Vec::new();
        for from in g.nodes(self.seat) {
            let near = self.opponents_near(from);
            for x in from.x - REACH..=from.x + REACH {
                for y in from.y - REACH..=from.y + REACH {
                    let xy = [from.x, from.y, x, y].map(i64::from);
                    if !g.on_board(xy[2], xy[3]) || (x, y) == (from.x, from.y) {
                        continue;
                    }
                    if let Ok(c) = self.check_among(xy, &near) {
                        out.push(c);
                        if stop_at_first {
                            return out;
                        }
                    }
                }
            }
        }
        out
    }
}

impl Fences {
    /// The index of a grid point on the board.
    fn index(&self, p: Point) -> usize {
        (p.y * self.width + p.x) as usize
    }

    /// Rule 2: who plays the next move. Blue opens with one move, then
    /// turns alternate with two moves each, the very last turn one.
    pub fn to_move(&self) -> Seat {
        mover_of(self.turn)
    }

    /// Rule 2: whether move `m` (from 0) is the last of its turn.
    pub fn ends_turn(&self, m: u32) -> bool {
        m.is_multiple_of(2) || m + 1 >= self.max_turns
    }

    /// Rule 9: an edge placed in the turn just before the current one
    /// (always the latest turn of the player not to move) is protected.
    /// Starting edges never are.
    pub fn is_protected(&self, e: &Edge) -> bool {
        e.turn > 0 && round_of(e.turn - 1) + 1 == round_of(self.turn)
    }

    /// Rules 3, 4, 8 and 9: whether `seat` may draw from `[x1, y1]` to
    /// `[x2, y2]` now, and which opponent edge that breaks.
    pub fn check_move(&self, seat: Seat, xy: [i64; 4]) -> Result<Checked, Illegal> {
        Lookup::new(self, seat).check(xy)
    }

    /// Every legal move of the player to move, with the edge each breaks
    /// and whether it encloses new area; nothing for the other player or
    /// once the game is over. In `(x1, y1, x2, y2)` order.
    pub fn legal_moves(&self, seat: Seat) -> Vec<LegalMove> {
        if self.is_over() || seat != self.to_move() {
            return Vec::new();
        }
        let moves = Lookup::new(self, seat).legal(false);
        let own: Vec<Segment> = self.edges_of(seat).map(|e| e.seg).collect();
        let drawing = Drawing::new(own, &self.faces[seat]);
        let mut near = (Point::new(-1, -1), Vec::new());
        moves
            .into_iter()
            .map(|c| {
                if near.0 != c.seg.a {
                    near = (c.seg.a, drawing.near(c.seg.a));
                }
                LegalMove {
                    seg: c.seg,
                    breaks: c.breaks,
                    closes: drawing.closes(&c.seg, &near.1),
                }
            })
            .collect()
    }

    /// Whether `seat` has any legal move.
    pub fn has_legal_move(&self, seat: Seat) -> bool {
        !Lookup::new(self, seat).legal(true).is_empty()
    }

    /// Phase 1: every seat's answer. The player to move must answer a legal
    /// `MOVE`: `WAIT`, nothing, an unreadable or an illegal answer passes
    /// the move (refused, except nothing). The other player answers `WAIT`;
    /// a `MOVE` from it is refused and ignored.
    pub fn read_answers(&self, answers: &[Option<&str>]) -> (Option<Checked>, Vec<Rejection>) {
        let mover = self.to_move();
        let mut checked = None;
        let mut rejections = Vec::new();
        let passed = "; the move is passed";
        for seat in 0..PLAYERS {
            let Some(raw) = answers.get(seat).copied().flatten() else {
                continue;
            };
            let refuse = |kind: &str, reason: String| Rejection {
                seat,
                kind: kind.into(),
                reason,
            };
            match parse_answer(raw) {
                Err(reason) => {
                    let tail = if seat == mover { passed } else { "" };
                    rejections.push(refuse(kind::UNPARSEABLE, format!("{reason}{tail}")));
                }
                Ok(Answer::Wait) if seat == mover => rejections.push(refuse(
                    kind::WAITED,
                    format!(
                        "WAIT on {}'s own move{passed}; answer one of legal_actions",
                        color(seat)
                    ),
                )),
                Ok(Answer::Wait) => {}
                Ok(Answer::Move(_)) if seat != mover => rejections.push(refuse(
                    kind::NOT_YOUR_TURN,
                    format!(
                        "it is {}'s move, not {}'s; answer WAIT (ignored)",
                        color(mover),
                        color(seat)
                    ),
                )),
                Ok(Answer::Move(xy)) => match self.check_move(seat, xy) {
                    Ok(c) => checked = Some(c),
                    Err(e) => rejections.push(refuse(e.kind, format!("{}{passed}", e.reason))),
                },
            }
        }
        (checked, rejections)
    }

    /// Phase 3: the edge is drawn; its end becomes the mover's node.
    pub fn draw_edge(&mut self, seat: Seat, seg: Segment) {
        let turn = self.turn + 1;
        self.add_edge(seat, (seg.a.x, seg.a.y), (seg.b.x, seg.b.y), turn);
    }

    /// Phase 4 (rule 7): the touched opponent edge breaks, the whole edge.
    /// Its nodes that have no edge left disappear with it (nodes are the
    /// ends of edges), and what it enclosed goes at the next
    /// [enclosure](Fences::enclose).
    pub fn break_edge(&mut self, id: u32) {
        self.edges.retain(|e| e.id != id);
    }

    /// Phase 5 (rule 5): each player's enclosed regions, from its edges as
    /// they now are: the bounded faces of its drawing, where a crossing of
    /// two of its edges is a corner and the board's border is no wall.
    pub fn enclose(&mut self) {
        for seat in 0..PLAYERS {
            let own: Vec<(u32, Segment)> = self.edges_of(seat).map(|e| (e.id, e.seg)).collect();
            // Ids are never reused, so the same ids are the same edges.
            if own
                .iter()
                .map(|e| e.0)
                .eq(self.enclosed[seat].iter().copied())
            {
                continue;
            }
            self.faces[seat] = enclosed_faces(&own);
            self.enclosed[seat] = own.iter().map(|e| e.0).collect();
        }
    }

    /// Phase 6 (rule 6): at the end of every turn, both players add their
    /// enclosed area to their score.
    pub fn score_turn(&mut self) {
        for seat in 0..PLAYERS {
            self.scores[seat] += self.area(seat);
        }
    }

    /// Phase 7 (rule 10): a player to move with no legal move loses.
    pub fn check_stuck(&mut self) {
        if !self.is_over() && !self.has_legal_move(self.to_move()) {
            self.lost = Some(self.to_move());
        }
    }

    /// Rule 10: after the last move the higher score wins and equal scores
    /// are a draw; a player that had no legal move on its turn loses. The
    /// outcome's scores are the exact scores as the nearest doubles;
    /// placements compare the exact scores.
    pub fn final_outcome(&self) -> Outcome {
        let scores: Vec<f64> = self.scores.iter().map(|s| s.to_f64()).collect();
        let text = |s: Seat| format!("{:.2}", scores[s]);
        let (placements, reason) = match self.lost {
            Some(loser) => {
                let winner = 1 - loser;
                let mut p = vec![1, 1];
                p[loser] = 2;
                (
                    p,
                    format!(
                        "{} has no legal move on its turn: {} wins",
                        color(loser),
                        color(winner)
                    ),
                )
            }
            None => {
                let (b, r) = (self.scores[0], self.scores[1]);
                let limit = format!("move limit ({}) reached", self.max_turns);
                match b.cmp(&r) {
                    std::cmp::Ordering::Equal => (
                        vec![1, 1],
                        format!("{limit}: a draw at {} points each", text(0)),
                    ),
                    o => {
                        let w = if o.is_gt() { 0 } else { 1 };
                        let mut p = vec![1, 1];
                        p[1 - w] = 2;
                        let reason = format!(
                            "{limit}: {} wins, {} points to {} (exact: {} to {})",
                            color(w),
                            text(w),
                            text(1 - w),
                            self.scores[w].exact_text(),
                            self.scores[1 - w].exact_text()
                        );
                        (p, reason)
                    }
                }
            }
        };
        Outcome {
            scores,
            placements,
            reason,
        }
    }
}
