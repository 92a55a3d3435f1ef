//! A claim strategy: every turn, value each cell it could capture next (one
//! step off its land that is joined to home) and go for the best value less
//! the turns spent walking and capturing.
//!
//! It hunts: an enemy cell whose loss cuts the enemy's bot off from its
//! home puts that enemy out, and so does an empty enemy home; a neutral
//! cell next to such a cell is worth a detour, to reach it. Otherwise it
//! grows compact land (a neutral cell is worth more the nearer home and the
//! more of its neighbours are ours; compact land is hard to cut) up to the
//! 35-cell cap, and takes enemy cells that cut enemy land off. It guards:
//! when an enemy bot is next to its home, it stays on it (a cell with a bot
//! on it can't be entered) unless it can put an enemy out at once.

use std::collections::VecDeque;

use ludus_sdk::claim::{Action, Observation, Pos};
use ludus_sdk::Bot;

#[derive(Debug, Default)]
pub struct Strategy;

/// The board as flat vectors, for quick floods.
struct Grid<'a> {
    obs: &'a Observation,
    w: usize,
    h: usize,
}

impl Grid<'_> {
    fn idx(&self, p: Pos) -> usize {
        p[1] * self.w + p[0]
    }

    fn pos(&self, i: usize) -> Pos {
        [i % self.w, i / self.w]
    }

    fn owner(&self, i: usize) -> Option<usize> {
        self.obs.owner(self.pos(i))
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.obs.neighbours(self.pos(i)).map(|p| self.idx(p))
    }

    /// Cells of `seat` joined to its home, leaving out `without`.
    fn joined(&self, seat: usize, without: Option<usize>) -> Vec<bool> {
        let mut seen = vec![false; self.w * self.h];
        let home = self.idx(self.obs.bots[seat].home);
        if self.owner(home) != Some(seat) || Some(home) == without {
            return seen;
        }
        seen[home] = true;
        let mut stack = vec![home];
        while let Some(c) = stack.pop() {
            for n in self.neighbours(c) {
                if !seen[n] && Some(n) != without && self.owner(n) == Some(seat) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        seen
    }

    /// Whether `seat`'s bot still touches its joined land in `joined`.
    fn touches(&self, seat: usize, joined: &[bool]) -> bool {
        let at = self.idx(self.obs.bots[seat].position);
        joined[at] || self.neighbours(at).any(|n| joined[n])
    }
}

impl Strategy {
    /// Cells whose capture puts their owner out: its home when its bot is
    /// elsewhere, and any cell of its land whose loss cuts its bot off.
    fn kill_cells(g: &Grid, me: usize) -> Vec<bool> {
        let obs = g.obs;
        let mut kill = vec![false; g.w * g.h];
        for e in obs.bots.iter().filter(|b| b.id != me && b.is_alive()) {
            let home = g.idx(e.home);
            let at = g.idx(e.position);
            if at != home && g.owner(home) == Some(e.id) {
                kill[home] = true;
            }
            let before = g.joined(e.id, None);
            for c in (0..g.w * g.h).filter(|&c| before[c] && c != home && c != at) {
                if !g.touches(e.id, &g.joined(e.id, Some(c))) {
                    kill[c] = true;
                }
            }
        }
        kill
    }

    /// What capturing `t` is worth to `me`.
    fn value(g: &Grid, me: usize, t: usize, at_cap: bool, kill: &[bool]) -> f64 {
        let obs = g.obs;
        if kill[t] {
            return 1000.0;
        }
        match g.owner(t) {
            Some(e) if e != me => {
                if !obs.bots[e].is_alive() {
                    return 0.0;
                }
                let before = g.joined(e, None);
                let after = g.joined(e, Some(t));
                let cut = before
                    .iter()
                    .zip(&after)
                    .filter(|(b, a)| **b && !**a)
                    .count();
                20.0 * cut as f64 + if at_cap { 0.0 } else { 40.0 }
            }
            Some(_) => 0.0,
            None => {
                let near_kill = g.neighbours(t).any(|n| kill[n]);
                if near_kill {
                    return 300.0;
                }
                if at_cap {
                    return 0.0;
                }
                let own = g.neighbours(t).filter(|&n| g.owner(n) == Some(me)).count();
                let from_home = ludus_sdk::claim::distance(g.pos(t), obs.me.home);
                // Touching enemy land opens the way to cutting it.
                let contact = g.neighbours(t).any(|n| {
                    g.owner(n)
                        .is_some_and(|o| o != me && obs.bots[o].is_alive())
                });
                let contact = if contact { 60.0 } else { 0.0 };
                (100.0 + 4.0 * own as f64 - 12.0 * from_home as f64 + contact).max(1.0)
            }
        }
    }
}

impl Bot for Strategy {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        let me = obs.me.id;
        if obs.me.capture_target.is_some() {
            return Action::Stay;
        }
        let g = Grid {
            obs,
            w: obs.width,
            h: obs.height,
        };
        let n = g.w * g.h;
        let occupied: Vec<bool> = (0..n).map(|i| obs.occupied(g.pos(i))).collect();
        let joined = g.joined(me, None);
        let start = g.idx(obs.me.position);
        // Walking distances over our joined land (free moves), from where we stand.
        let mut dist = vec![usize::MAX; n];
        let mut first = vec![Action::Stay; n];
        dist[start] = 0;
        let mut queue = VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            for m in Action::MOVES {
                let Some(p) = m.from(g.pos(c), g.w, g.h) else {
                    continue;
                };
                let nx = g.idx(p);
                if dist[nx] != usize::MAX || !joined[nx] || occupied[nx] {
                    continue;
                }
                dist[nx] = dist[c] + 1;
                first[nx] = if c == start { m } else { first[c] };
                queue.push_back(nx);
            }
        }
        let at_cap = obs.me.owned_count >= obs.cell_cap;
        let kill = Self::kill_cells(&g, me);
        let home = g.idx(obs.me.home);
        // An enemy next to our home walks in the moment we leave it.
        let guard = obs.bots.iter().any(|b| {
            b.id != me && b.is_alive() && ludus_sdk::claim::distance(b.position, obs.me.home) <= 1
        });
        let mut best: Option<(f64, usize, Action)> = None;
        for u in 0..n {
            if dist[u] == usize::MAX {
                continue;
            }
            for m in Action::MOVES {
                let Some(p) = m.from(g.pos(u), g.w, g.h) else {
                    continue;
                };
                let t = g.idx(p);
                if g.owner(t) == Some(me) || occupied[t] {
                    continue;
                }
                let value = Self::value(&g, me, t, at_cap, &kill);
                if value <= 0.0 {
                    continue;
                }
                let dwell = if obs.bots.iter().any(|b| g.idx(b.home) == t) {
                    2
                } else {
                    1
                };
                let turns = dist[u] + 1 + dwell;
                if turns as u32 > obs.turns_remaining {
                    continue;
                }
                // Leaving a guarded home: only for a kill done before the
                // enemy can take it (in, then two turns of staying).
                if guard && start == home && !(kill[t] && turns <= 2) {
                    continue;
                }
                let score = value - 3.0 * turns as f64;
                let action = if u == start { m } else { first[u] };
                if best.is_none_or(|(s, _, _)| score > s) {
                    best = Some((score, turns, action));
                }
            }
        }
        let action = match best {
            Some((_, _, a)) => a,
            None if guard && start != home && dist[home] != usize::MAX => first[home],
            None => Action::Stay,
        };
        if obs.is_legal(action) {
            action
        } else {
            Action::Stay
        }
    }
}
