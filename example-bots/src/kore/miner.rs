//! A mining and expanding Kore bot.

use ludus_sdk::kore::{collection_rate, Actions, Observation, Shipyard};
use ludus_sdk::Bot;

const DIRS: [char; 4] = ['N', 'E', 'S', 'W'];

fn opposite(d: usize) -> usize {
    (d + 2) % 4
}

/// Per shipyard, in order of preference:
///
/// 1. with enough ships and kore, early enough, send a fleet to build a new
///    shipyard on the richest reachable ground not too near its others;
/// 2. with 21 ships or more, send them all round the box loop (out, across,
///    back, home) that mines the most kore per turn;
/// 3. spawn as many ships as the kore and the cap allow, while they can
///    still pay for themselves;
/// 4. with 3 ships or more, send them out and straight back along the
///    richest line.
///
/// Late in the game it stops spawning, so the kore it holds counts.
#[derive(Debug, Default)]
pub struct Miner;

/// Most shipyards it builds.
const MAX_SHIPYARDS: usize = 6;

impl Miner {
    /// Kore a fleet of `ships` would mine along `path` (cells in order),
    /// counting a cell once.
    fn mined(obs: &Observation, path: &[usize], ships: i64) -> f64 {
        let rate = collection_rate(ships);
        let mut seen: Vec<usize> = Vec::with_capacity(path.len());
        let mut total = 0.0;
        for &c in path {
            if !seen.contains(&c) {
                seen.push(c);
                total += obs.observation.kore[c] * rate;
            }
        }
        total
    }

    fn walk(obs: &Observation, from: usize, legs: &[(usize, usize)]) -> Vec<usize> {
        let mut path = Vec::new();
        let mut cell = from;
        for &(d, n) in legs {
            for _ in 0..n {
                cell = obs.step_from(cell, DIRS[d]);
                path.push(cell);
            }
        }
        path
    }

    /// The best box loop for `ships` ships from `s`: (kore per turn, plan).
    fn best_box(obs: &Observation, s: &Shipyard, ships: i64) -> (f64, String) {
        let mut best = (0.0, String::from("N4E4S4W"));
        for d1 in 0..4 {
            for turn in [1, 3] {
                let d2 = (d1 + turn) % 4;
                for a in 1..=7 {
                    for b in 1..=7 {
                        let legs = [
                            (d1, a + 1),
                            (d2, b + 1),
                            (opposite(d1), a + 1),
                            (opposite(d2), b + 1),
                        ];
                        let path = Self::walk(obs, s.cell, &legs);
                        let score = Self::mined(obs, &path, ships) / path.len() as f64;
                        if score > best.0 {
                            let plan = format!(
                                "{}{a}{}{b}{}{a}{}",
                                DIRS[d1],
                                DIRS[d2],
                                DIRS[opposite(d1)],
                                DIRS[opposite(d2)]
                            );
                            best = (score, plan);
                        }
                    }
                }
            }
        }
        best
    }

    /// The best out-and-back line for `ships` ships from `s`.
    fn best_line(obs: &Observation, s: &Shipyard, ships: i64) -> String {
        let mut best = (-1.0, String::from("N3S"));
        for d in 0..4 {
            for a in 1..=8 {
                let path = Self::walk(obs, s.cell, &[(d, a + 1), (opposite(d), a + 1)]);
                let score = Self::mined(obs, &path, ships) / path.len() as f64;
                if score > best.0 {
                    best = (score, format!("{}{a}{}", DIRS[d], DIRS[opposite(d)]));
                }
            }
        }
        best.1
    }

    /// Where to build: an L-shaped trip from `s` to the cell with the most
    /// kore around it, at least 4 moves from every shipyard of ours.
    fn best_site(obs: &Observation, s: &Shipyard, ours: &[Shipyard]) -> Option<String> {
        let size = obs.size();
        let mut best: Option<(f64, String)> = None;
        for d1 in [0usize, 2] {
            for d2 in [1usize, 3] {
                for a in 1..=6 {
                    for b in 0..=6 {
                        let legs = if b == 0 {
                            vec![(d1, a + 1)]
                        } else {
                            vec![(d1, a + 1), (d2, b)]
                        };
                        let path = Self::walk(obs, s.cell, &legs);
                        let target = *path.last()?;
                        if ours.iter().any(|o| obs.distance(o.cell, target) < 4) {
                            continue;
                        }
                        let (r, c) = obs.row_col(target);
                        let mut around = 0.0;
                        for dr in 0..5 {
                            for dc in 0..5 {
                                let rr = (r + size + dr - 2) % size;
                                let cc = (c + size + dc - 2) % size;
                                around += obs.observation.kore[rr * size + cc];
                            }
                        }
                        let score = around / (a + b + 1) as f64;
                        if best.as_ref().is_none_or(|(s, _)| score > *s) {
                            let plan = if b == 0 {
                                format!("{}{a}C", DIRS[d1])
                            } else if b == 1 {
                                format!("{}{a}{}C", DIRS[d1], DIRS[d2])
                            } else {
                                format!("{}{a}{}{}C", DIRS[d1], DIRS[d2], b - 1)
                            };
                            best = Some((score, plan));
                        }
                    }
                }
            }
        }
        best.map(|(_, plan)| plan)
    }
}

impl Bot for Miner {
    type Observation = Observation;
    type Action = Actions;

    fn act(&mut self, obs: &Observation) -> Actions {
        let mut actions = Actions::default();
        let me = obs.me();
        let step = obs.observation.step;
        let last = obs.configuration.episode_steps;
        let cost = obs.configuration.spawn_cost;
        let convert = obs.configuration.convert_cost;
        let mut kore = me.kore;
        let mut shipyards = me.shipyards.len();
        for s in &me.shipyards {
            let left = last.saturating_sub(step);
            if s.ships >= convert + 10 && shipyards < MAX_SHIPYARDS && left > 120 {
                if let Some(plan) = Self::best_site(obs, s, &me.shipyards) {
                    actions.launch(&s.id, s.ships, &plan);
                    shipyards += 1;
                    continue;
                }
            }
            if s.ships >= 21 && left > 25 {
                let (_, plan) = Self::best_box(obs, s, s.ships);
                actions.launch(&s.id, s.ships, &plan);
                continue;
            }
            let n = s.max_spawn().min((kore / cost) as i64);
            if n > 0 && left > 60 {
                kore -= n as f64 * cost;
                actions.spawn(&s.id, n);
                continue;
            }
            if s.ships >= 3 && left > 20 {
                let plan = Self::best_line(obs, s, s.ships);
                actions.launch(&s.id, s.ships, &plan);
            }
        }
        actions
    }
}
