//! A loops strategy: every turn, search the closed walks of up to 8 steps
//! that leave our land and come back (a few steps over our land first are
//! allowed) and take the first step of the one that claims the most new
//! cells per step, among those whose trail no rival bot could reach before
//! the loop closes. A rival that has not moved for a few turns is taken to
//! threaten only the cells next to it. With no safe loop, it heads for the
//! nearest way out of its land, or back onto it when it has a trail.

use std::collections::VecDeque;

use ludus_sdk::loops::{Action, Observation, Pos};
use ludus_sdk::Bot;

/// Longest walk searched, in steps.
const MAX_STEPS: usize = 8;
/// Steps over our own land allowed before leaving it.
const MAX_LAND_STEPS: usize = 3;
/// Turns without moving after which a rival counts as idle.
const IDLE_TURNS: u32 = 3;

#[derive(Debug, Default)]
pub struct Strategy {
    /// Each bot's position last turn and how many turns it has not moved.
    last: Vec<(Pos, u32)>,
}

/// The board, flattened for the search.
struct Board {
    w: usize,
    h: usize,
    own: Vec<bool>,
    /// Walls and rivals' pads: never enterable.
    blocked: Vec<bool>,
    /// Walls and every pad: never claimed by a loop.
    unclaimable: Vec<bool>,
    /// Rival bots stand here now.
    occupied: Vec<bool>,
    /// Turns a rival bot needs at best to reach each cell.
    threat: Vec<usize>,
}

impl Board {
    fn idx(&self, p: Pos) -> usize {
        p[1] * self.w + p[0]
    }

    fn pos(&self, i: usize) -> Pos {
        [i % self.w, i / self.w]
    }

    fn step(&self, i: usize, m: Action) -> Option<usize> {
        m.from(self.pos(i), self.w, self.h).map(|p| self.idx(p))
    }

    /// New cells a loop with this full trail claims once it closes.
    fn gain(&self, trail: &[usize]) -> usize {
        let n = self.w * self.h;
        let mut barrier = self.own.clone();
        for &c in trail {
            barrier[c] = true;
        }
        let mut outside = vec![false; n];
        let mut stack: Vec<usize> = (0..n)
            .filter(|&c| {
                let [x, y] = self.pos(c);
                !barrier[c] && (x == 0 || y == 0 || x + 1 == self.w || y + 1 == self.h)
            })
            .collect();
        for &c in &stack {
            outside[c] = true;
        }
        while let Some(c) = stack.pop() {
            for m in Action::MOVES {
                if let Some(nx) = self.step(c, m) {
                    if !outside[nx] && !barrier[nx] {
                        outside[nx] = true;
                        stack.push(nx);
                    }
                }
            }
        }
        (0..n)
            .filter(|&c| {
                let claimed = trail.contains(&c) || (!barrier[c] && !outside[c]);
                claimed && !self.own[c] && !self.unclaimable[c]
            })
            .count()
    }
}

/// The best walk found: (new cells per step, steps, first move).
type Best = Option<(f64, usize, Action)>;

struct Search<'a> {
    board: &'a Board,
    max_steps: usize,
    safe: Best,
    /// The shortest way back onto our land, safe or not (when we have a trail).
    shortest: Best,
}

impl Search<'_> {
    fn walk(
        &mut self,
        at: usize,
        steps: usize,
        first: Action,
        trail: &mut Vec<usize>,
        land_steps: usize,
    ) {
        if steps == self.max_steps {
            return;
        }
        let b = self.board;
        for m in Action::MOVES {
            let Some(next) = b.step(at, m) else {
                continue;
            };
            if b.blocked[next] || b.occupied[next] {
                continue;
            }
            let first = if steps == 0 { m } else { first };
            let taken = steps + 1;
            if b.own[next] {
                if trail.is_empty() {
                    if land_steps < MAX_LAND_STEPS {
                        self.walk(next, taken, first, trail, land_steps + 1);
                    }
                    continue;
                }
                if self.shortest.is_none_or(|(_, s, _)| taken < s) {
                    self.shortest = Some((0.0, taken, first));
                }
                let safe = trail.iter().all(|&c| b.threat[c] > taken);
                if safe {
                    let rate = b.gain(trail) as f64 / taken as f64;
                    if rate > 0.0 && self.safe.is_none_or(|(r, _, _)| rate > r) {
                        self.safe = Some((rate, taken, first));
                    }
                }
                continue;
            }
            if trail.contains(&next) {
                continue;
            }
            trail.push(next);
            self.walk(next, taken, first, trail, land_steps);
            trail.pop();
        }
    }
}

impl Strategy {
    /// Updates how long each bot has stood still.
    fn track(&mut self, obs: &Observation) {
        if self.last.len() != obs.bots.len() {
            self.last = obs.bots.iter().map(|b| (b.position, 0)).collect();
            return;
        }
        for (b, (pos, idle)) in obs.bots.iter().zip(self.last.iter_mut()) {
            if b.position == *pos {
                *idle += 1;
            } else {
                *pos = b.position;
                *idle = 0;
            }
        }
    }

    fn board(&self, obs: &Observation) -> Board {
        let (w, h) = (obs.width, obs.height);
        let n = w * h;
        let me = obs.me.id;
        let mut blocked = vec![false; n];
        let mut unclaimable = vec![false; n];
        for p in &obs.walls {
            blocked[p[1] * w + p[0]] = true;
            unclaimable[p[1] * w + p[0]] = true;
        }
        for (id, pad) in obs.pads.iter().enumerate() {
            for p in pad {
                unclaimable[p[1] * w + p[0]] = true;
                if id != me {
                    blocked[p[1] * w + p[0]] = true;
                }
            }
        }
        let own = (0..n).map(|i| obs.is_mine([i % w, i / w])).collect();
        let mut occupied = vec![false; n];
        let mut threat = vec![usize::MAX; n];
        for b in obs.bots.iter().filter(|b| b.id != me) {
            occupied[b.position[1] * w + b.position[0]] = true;
            if b.returning {
                continue;
            }
            let idle = self.last.get(b.id).is_some_and(|l| l.1 >= IDLE_TURNS);
            for (i, t) in threat.iter_mut().enumerate() {
                let d = ludus_sdk::loops::distance(b.position, [i % w, i / w]);
                let reach = if idle && d > 1 { usize::MAX } else { d };
                *t = (*t).min(reach);
            }
        }
        Board {
            w,
            h,
            own,
            blocked,
            unclaimable,
            occupied,
            threat,
        }
    }

    /// First move of a shortest path from `from` to a cell where `goal`
    /// holds, through enterable cells off our trail.
    fn towards(b: &Board, from: usize, trail: &[usize], goal: impl Fn(usize) -> bool) -> Action {
        let n = b.w * b.h;
        let mut first: Vec<Option<Action>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[from] = true;
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            for m in Action::MOVES {
                let Some(nx) = b.step(c, m) else { continue };
                if seen[nx] || b.blocked[nx] || b.occupied[nx] || trail.contains(&nx) {
                    continue;
                }
                seen[nx] = true;
                first[nx] = Some(if c == from { m } else { first[c].expect("set") });
                if goal(nx) {
                    return first[nx].expect("set");
                }
                queue.push_back(nx);
            }
        }
        Action::Stay
    }
}

impl Bot for Strategy {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        self.track(obs);
        if obs.me.returning {
            return Action::Stay;
        }
        let b = self.board(obs);
        let at = b.idx(obs.me.position);
        let mut trail: Vec<usize> = obs.me.trail.iter().map(|&p| b.idx(p)).collect();
        let mut search = Search {
            board: &b,
            max_steps: MAX_STEPS.min(obs.turns_remaining as usize),
            safe: None,
            shortest: None,
        };
        search.walk(at, 0, Action::Stay, &mut trail, 0);
        let choice = match (search.safe, search.shortest) {
            (Some((_, _, m)), _) => m,
            (None, Some((_, _, m))) => m,
            (None, None) if !trail.is_empty() => Self::towards(&b, at, &trail, |c| b.own[c]),
            (None, None) => Self::towards(&b, at, &trail, |c| {
                !b.own[c] && b.threat[c] > 2 && b.step(c, Action::North).is_some()
            }),
        };
        if obs.is_legal(choice) {
            choice
        } else {
            Action::Stay
        }
    }
}
