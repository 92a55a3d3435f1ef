//! What a team cannot see, changed at random, for the leak test (see
//! [`crate::sight`]): the test checks that the team's observation stays the
//! same, byte for byte.

use rand_chacha::ChaCha8Rng;

use super::legal::manhattan;
use super::SILENT_TURNS_OUT;
use super::{Battle, Building, BuildingKind, Conquest, Task, Weapon, RELOCATE_EVERY};
use crate::grid::{Action, Dir, PLAYERS};
use crate::sight::{below, one_in, pick, Fog, Hidden};
use crate::Seat;

/// The leak test's entry: the default board, and a small one where teams
/// meet sooner; the words of what [`Conquest::perturb_unseen`] changes.
pub(super) const FOG: Fog = Fog {
    new: |config, seed, players| Ok(Box::new(Conquest::from_config(config, seed, players)?)),
    configs: &[
        "null",
        r#"{"width": 8, "height": 8, "walls": [], "capitals": "corners"}"#,
    ],
    hidden: &[
        "land",
        "buildings",
        "garrisons",
        "former capitals",
        "robots",
        "capitals",
        "armies",
        "treasuries",
        "battles",
        "sieges",
        "memories",
        "quiet turns",
        "strikes",
    ],
};

impl Hidden for Conquest {
    fn fork(&self) -> Box<dyn Hidden> {
        Box::new(self.clone())
    }

    /// Each team a random legal answer: a third of the time the move
    /// nearest to the closest capital of another team, a third of the time
    /// the way home (waiting there), so that robots meet, fight and lay
    /// sieges; else any.
    fn random_answers(&self, rng: &mut ChaCha8Rng) -> Vec<Option<String>> {
        (0..PLAYERS)
            .map(|seat| {
                let legal = self.legal_actions(seat);
                let team = &self.teams[seat];
                // The legal move that brings the robot nearer to `goal`.
                let step_to = |goal: usize| {
                    let dist = |c: usize| manhattan(self.board, c, goal);
                    Dir::ALL
                        .into_iter()
                        .filter_map(|d| Some((self.board.step(team.position, d)?, Action::Move(d))))
                        .filter(|(_, a)| legal.iter().any(|l| l == a.name()))
                        .min_by_key(|&(c, _)| dist(c))
                        .filter(|&(c, _)| dist(c) < dist(team.position))
                        .map(|(_, a)| a.name().to_string())
                };
                let enemy = (0..PLAYERS)
                    .filter(|&t| t != seat && self.teams[t].alive())
                    .map(|t| self.teams[t].capital)
                    .min_by_key(|&c| manhattan(self.board, team.position, c));
                let planned = match below(rng, 3) {
                    0 => enemy.and_then(step_to),
                    1 if team.position == team.capital => Some("WAIT".to_string()),
                    1 => step_to(team.capital),
                    _ => None,
                };
                let any: Vec<&String> = legal.iter().collect();
                Some(
                    planned
                        .filter(|a| legal.contains(a))
                        .or_else(|| pick(rng, &any).cloned())
                        .unwrap_or_else(|| "WAIT".into()),
                )
            })
            .collect()
    }

    fn perturb_unseen(&mut self, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<&'static str> {
        Conquest::perturb_unseen(self, seat, rng)
    }
}

impl Conquest {
    /// Changes at random what `seat` does not see now: the land, buildings,
    /// parked soldiers and former capitals of cells out of its view; the
    /// other teams' robots and capitals out of its view, their armies (a
    /// robot's attack soldiers only out of view), gold, points and clocks;
    /// the battles it is not in, and sieges by robots it does not see, laid
    /// or lifted; what the others remember; the quiet turns; the last
    /// turn's strikes. Cells that a capital, a robot or a battle stands on
    /// keep their owner, so the state stays one the rules could have made.
    pub fn perturb_unseen(&mut self, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<&'static str> {
        let visible = self.visible(seat);
        let mut changed = Vec::new();
        let mut note = |word: &'static str, did: bool| {
            if did && !changed.contains(&word) {
                changed.push(word);
            }
        };
        let others: Vec<Seat> = (0..PLAYERS)
            .filter(|&t| t != seat && self.teams[t].alive())
            .collect();
        let tied: Vec<usize> = self.battles.iter().flat_map(|b| [b.cell, b.from]).collect();
        let free: Vec<usize> = (0..self.board.len())
            .filter(|&c| {
                !visible[c]
                    && !self.wall[c]
                    && !self.is_capital(c)
                    && self.robot_at(c).is_none()
                    && !tied.contains(&c)
            })
            .collect();

        for &c in &free {
            if one_in(rng, 4) {
                let owner = if one_in(rng, 3) {
                    None
                } else {
                    pick(rng, &others)
                };
                note("land", owner != self.owner[c]);
                self.owner[c] = owner;
            }
            let building = match self.owner[c] {
                Some(_) if one_in(rng, 3) => Some(Building {
                    kind: BuildingKind::ALL[below(rng, 3) as usize],
                    ready: !one_in(rng, 3),
                }),
                Some(_) if one_in(rng, 2) => self.building[c],
                _ => None,
            };
            note("buildings", building != self.building[c]);
            self.building[c] = building;
            let garrison = match self.owner[c] {
                Some(_) if one_in(rng, 4) => below(rng, 300),
                Some(_) => self.garrison[c],
                None => 0,
            };
            note("garrisons", garrison != self.garrison[c]);
            self.garrison[c] = garrison;
            if one_in(rng, 16) {
                self.former_capital[c] = !self.former_capital[c];
                note("former capitals", true);
            }
        }

        for &t in &others {
            let team = &self.teams[t];
            let (position, capital) = (team.position, team.capital);
            let owned = |g: &Conquest, c: usize| {
                g.owner[c] == Some(t) && g.robot_at(c).is_none() && !g.is_capital(c)
            };
            if !visible[position] {
                self.teams[t].attack = below(rng, 2000);
                note("armies", true);
                if self.teams[t].task == Task::Idle {
                    let to: Vec<usize> = free.iter().copied().filter(|&c| owned(self, c)).collect();
                    if let Some(to) = pick(rng, &to) {
                        self.teams[t].position = to;
                        note("robots", true);
                    }
                }
            }
            if !visible[capital] && !tied.contains(&capital) && one_in(rng, 4) {
                let to: Vec<usize> = free
                    .iter()
                    .copied()
                    .filter(|&c| owned(self, c) && self.building[c].is_none())
                    .collect();
                if let Some(to) = pick(rng, &to) {
                    self.former_capital[capital] = true;
                    self.teams[t].capital = to;
                    note("capitals", true);
                }
            }
        }

        for t in (0..PLAYERS).filter(|&t| t != seat) {
            let team = &mut self.teams[t];
            team.defense = below(rng, 2000);
            team.reserve = below(rng, 2000);
            team.gold = below(rng, 1000);
            team.gold_cents = below(rng, 100);
            team.soldier_cents = below(rng, 100);
            team.points = below(rng, 10_000);
            for w in Weapon::ALL {
                team.cooldown[w.index()] = below(rng, u64::from(w.spec().cooldown) + 1) as u32;
            }
            team.relocate_cooldown = below(rng, u64::from(RELOCATE_EVERY) + 1) as u32;
            team.silent = below(rng, u64::from(SILENT_TURNS_OUT)) as u32;
            note("armies", true);
            note("treasuries", true);
        }

        self.perturb_battles(seat, &visible, rng, &mut note);

        for t in (0..PLAYERS).filter(|&t| t != seat) {
            for m in self.memory[t].iter_mut() {
                if m.is_some() && one_in(rng, 8) {
                    *m = None;
                    note("memories", true);
                }
            }
        }
        let quiet = below(rng, u64::from(self.setup.quiet_turns)) as u32;
        note("quiet turns", quiet != self.quiet);
        self.quiet = quiet;
        note("strikes", !self.strikes.is_empty());
        self.strikes.clear();
        changed
    }

    /// The battles `seat` is not in: their soldiers; a siege by a robot it
    /// does not see lifted, or laid by an idle robot it does not see next
    /// to a capital not besieged.
    fn perturb_battles(
        &mut self,
        seat: Seat,
        visible: &[bool],
        rng: &mut ChaCha8Rng,
        note: &mut impl FnMut(&'static str, bool),
    ) {
        let unseen_robot = |g: &Conquest, t: Seat| !visible[g.teams[t].position];
        for i in (0..self.battles.len()).rev() {
            let b = &self.battles[i];
            if b.attacker == seat || b.defender == seat {
                continue;
            }
            if b.siege && unseen_robot(self, b.attacker) && one_in(rng, 3) {
                let b = self.battles.remove(i);
                self.teams[b.attacker].task = Task::Idle;
                note("sieges", true);
                continue;
            }
            let b = &mut self.battles[i];
            b.defense = below(rng, 1000);
            b.reserve = below(rng, 500);
            note("battles", true);
        }
        if self.in_setup() || self.turn == 0 {
            return;
        }
        for a in (0..PLAYERS).filter(|&a| a != seat) {
            let team = &self.teams[a];
            if !team.alive() || team.busy() || !unseen_robot(self, a) || !one_in(rng, 2) {
                continue;
            }
            let from = team.position;
            let besieged: Vec<usize> = self
                .board
                .neighbours(from)
                .filter(|&c| {
                    self.capital_of(c).is_some_and(|d| d != a && d != seat)
                        && self.battle_at(c).is_none()
                })
                .collect();
            let Some(cell) = pick(rng, &besieged) else {
                continue;
            };
            let defender = self.capital_of(cell).expect("a capital");
            self.teams[a].task = Task::Sieging { target: cell };
            self.battles.push(Battle {
                cell,
                attacker: a,
                defender,
                from,
                siege: true,
                started: self.turn - 1,
                defense: below(rng, 1000),
                reserve: 0,
            });
            note("sieges", true);
        }
    }
}
