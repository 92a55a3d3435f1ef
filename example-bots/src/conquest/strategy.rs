//! A conquest strategy: an economy first, then an army aimed at the
//! nearest enemy capital.
//!
//! * Economy: soldiers home at first, barracks on its capital at once
//!   (weapons never touch a capital), then mines and more barracks on its
//!   land as gold comes.
//! * Land: claims the neutral cell worth most for the walk: cells near home
//!   with many of its own cells round them (thick land is hard to cut), and,
//!   once it goes to war, cells that lead toward its target.
//! * War: the target is the nearest enemy capital it knows, or, until it
//!   finds one, where its own capital's mirror image would be (capitals
//!   start mirrored). It estimates the defense there from what a team
//!   earns (+3 +0.4 a cell a turn, the whole reserve joining, ×1.6 on a
//!   capital), goes home to `ALLOCATE` an attack large enough, walks to the
//!   front and takes the capital, which puts that team out. Enemy cells
//!   next to its land are taken on the way when the army is strong enough.
//! * Weapons: once it has three barracks, spare gold goes into the strongest
//!   weapon it can afford, aimed by the game.

use std::collections::VecDeque;

use ludus_sdk::conquest::{Action, BuildingKind, Observation, Phase, Pos, Weapon};
use ludus_sdk::Bot;

#[derive(Debug, Default)]
pub struct Strategy {
    /// Its last move: the turn, where it stood, and the move.
    last_move: Option<(u32, Pos, Action)>,
    /// Moves blocked lately (another robot stepping into the same cell);
    /// forgiven one a turn.
    blocked: u32,
    /// A cell it was blocked from, kept out of its walks until a turn.
    avoid: Option<(Pos, u32)>,
}

/// From this turn on, it goes to war.
const WAR_FROM_TURN: u32 = 12;
/// It attacks with this much over the estimated defense...
const ATTACK_MARGIN: f64 = 1.15;
/// ...and raises this much over it when it allocates, for the walk.
const RAISE_MARGIN: f64 = 1.4;
/// Soldiers it keeps home (defense and reserve) when it allocates.
const KEEP_HOME: f64 = 0.3;

/// The board as flat vectors.
struct Map<'a> {
    obs: &'a Observation,
    w: usize,
    h: usize,
    wall: Vec<bool>,
}

impl<'a> Map<'a> {
    fn new(obs: &'a Observation) -> Self {
        let (w, h) = (obs.width, obs.height);
        let mut wall = vec![false; w * h];
        for p in &obs.walls {
            wall[p[1] * w + p[0]] = true;
        }
        Map { obs, w, h, wall }
    }

    fn idx(&self, p: Pos) -> usize {
        p[1] * self.w + p[0]
    }

    fn pos(&self, i: usize) -> Pos {
        [i % self.w, i / self.w]
    }

    fn len(&self) -> usize {
        self.w * self.h
    }

    fn owner(&self, i: usize) -> Option<usize> {
        self.obs.owner(self.pos(i))
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.obs.neighbours(self.pos(i)).map(|p| self.idx(p))
    }

    /// Breadth-first distances from `start` through cells where `open` holds.
    fn distances(&self, start: usize, open: impl Fn(usize) -> bool) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.len()];
        dist[start] = 0;
        let mut queue = VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            for n in self.neighbours(c) {
                if dist[n] == u32::MAX && open(n) {
                    dist[n] = dist[c] + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// The cell `cell` of seat `from`'s quarter mirrored into seat `to`'s.
    fn mirror(&self, cell: usize, from: usize, to: usize) -> usize {
        let flips = |s: usize| match s % 4 {
            0 => (false, false),
            1 => (true, false),
            2 => (true, true),
            _ => (false, true),
        };
        let (fx, fy) = (flips(from).0 ^ flips(to).0, flips(from).1 ^ flips(to).1);
        let [mut x, mut y] = self.pos(cell);
        if fx {
            x = self.w - 1 - x;
        }
        if fy {
            y = self.h - 1 - y;
        }
        self.idx([x, y])
    }
}

/// One turn's plan.
struct Plan<'a> {
    map: Map<'a>,
    me: usize,
    at: usize,
    capital: usize,
    /// Own cells joined to the capital.
    joined: Vec<bool>,
    /// Enemy robots in view, by cell.
    robot: Vec<Option<usize>>,
    /// Walking distance from the robot through joined land.
    walk: Vec<u32>,
    /// Every soldier it could allocate.
    pool: u64,
    /// It may walk home to raise an army (its way home is not blocked).
    may_raise: bool,
}

impl<'a> Plan<'a> {
    fn new(obs: &'a Observation, may_raise: bool, avoid: Option<Pos>) -> Self {
        let map = Map::new(obs);
        let me = obs.me.team;
        let capital = map.idx(obs.me.capital);
        let at = map.idx(obs.me.position);
        let mine = |i: usize| map.owner(i) == Some(me);
        let joined: Vec<bool> = map
            .distances(capital, mine)
            .into_iter()
            .map(|d| d != u32::MAX)
            .collect();
        let mut robot = vec![None; map.len()];
        for r in &obs.robots {
            robot[map.idx(r.position)] = Some(r.team);
        }
        if let Some(p) = avoid.filter(|p| *p != obs.me.position) {
            // Treated as taken by a robot: it walks round it.
            robot[map.idx(p)] = Some(me);
        }
        let walk = map.distances(at, |i| joined[i] && robot[i].is_none());
        let a = &obs.me.army;
        Plan {
            pool: a.attack + a.defense + a.reserve,
            map,
            me,
            at,
            capital,
            joined,
            robot,
            walk,
            may_raise,
        }
    }

    fn obs(&self) -> &'a Observation {
        self.map.obs
    }

    /// Where each enemy team still in has its capital, as far as it knows:
    /// found, or guessed as the mirror image of its own (unless that cell
    /// was seen not to be one).
    fn enemy_capitals(&self) -> Vec<(usize, usize)> {
        let obs = self.obs();
        (0..obs.alive.len())
            .filter(|&e| e != self.me && obs.alive[e])
            .filter_map(|e| {
                if let Some(p) = obs.capital_of(e) {
                    return Some((e, self.map.idx(p)));
                }
                let guess = self.map.mirror(self.capital, self.me, e);
                let seen = obs.known(self.map.pos(guess));
                (!seen && !self.map.wall[guess]).then_some((e, guess))
            })
            .collect()
    }

    /// The defense `team` would put up on `cell`, estimated from what a
    /// team earns: 65% of a defense of 350, a reserve of 150 plus its income
    /// so far, soldiers parked there, ×1.6 on a capital, ×1.4 by a post.
    fn defense_estimate(&self, team: usize, cell: usize, capital: bool) -> f64 {
        let obs = self.obs();
        let m = &self.map;
        let cells = (0..m.len())
            .filter(|&i| m.owner(i) == Some(team))
            .count()
            .max(1) as f64;
        let barracks = obs
            .buildings
            .iter()
            .filter(|b| b.team == team && b.kind == BuildingKind::Barracks)
            .count() as f64;
        let reserve = 150.0 + f64::from(obs.turn) * (3.0 + 0.4 * cells + 12.0 * barracks);
        let parked = obs
            .garrisons
            .iter()
            .filter(|g| m.idx(g.position) == cell)
            .map(|g| g.soldiers as f64)
            .sum::<f64>();
        let mut strength = 0.65 * 350.0 + reserve + parked;
        if capital {
            strength *= obs.rules.capital_defense;
        }
        let post = |i: usize| {
            obs.building_at(m.pos(i))
                .is_some_and(|b| b.team == team && b.kind == BuildingKind::Post && b.ready)
        };
        if post(cell) || m.neighbours(cell).any(post) {
            strength *= obs.rules.post_defense;
        }
        strength
    }

    /// The best cell to step into next, the joined cell to step from, and
    /// the estimated defense there (0 for a claim).
    fn best_step(&self) -> Option<(usize, usize, f64)> {
        let obs = self.obs();
        let m = &self.map;
        let war = obs.turn >= WAR_FROM_TURN;
        let target = self.enemy_capitals().into_iter().min_by_key(|&(_, c)| {
            let d = m.distances(c, |i| !m.wall[i]);
            (d[self.capital], c)
        });
        let toward = target.map(|(_, c)| m.distances(c, |i| !m.wall[i]));
        let attack = obs.me.army.attack as f64;
        let home = obs.me.capital;
        let mut best: Option<(f64, usize, usize, f64)> = None;
        for x in 0..m.len() {
            if m.wall[x] || self.joined[x] {
                continue;
            }
            let Some(from) = m
                .neighbours(x)
                .filter(|&f| self.joined[f] && self.walk[f] != u32::MAX)
                .min_by_key(|&f| (self.walk[f], f))
            else {
                continue;
            };
            let owner = m.owner(x);
            let enemy_capital = target.is_some_and(|(e, c)| c == x && owner == Some(e));
            let siege = enemy_capital && self.robot[x] == owner;
            if self.robot[x].is_some_and(|r| r != self.me) && !siege
                || self.robot[x] == Some(self.me)
            {
                continue;
            }
            let own_round = m.neighbours(x).filter(|&n| self.joined[n]).count() as f64;
            // Room beyond: a dead end is a cell to walk back out of.
            let room = m
                .neighbours(x)
                .filter(|&n| !m.wall[n] && !self.joined[n])
                .count() as f64;
            let from_home = ludus_sdk::conquest::distance(m.pos(x), home) as f64;
            let closer = match &toward {
                Some(d) if war && d[x] != u32::MAX && d[from] != u32::MAX => {
                    f64::from(d[from]) - f64::from(d[x])
                }
                _ => 0.0,
            };
            let (value, need) = match owner {
                None => (
                    100.0 + 6.0 * own_round + 8.0 * room - 5.0 * from_home + 30.0 * closer,
                    0.0,
                ),
                Some(e) => {
                    let capital = obs.capital_of(e).is_some_and(|p| m.idx(p) == x) || enemy_capital;
                    let need = self.defense_estimate(e, x, capital);
                    let value = if capital {
                        5000.0
                    } else {
                        60.0 + 6.0 * own_round - 5.0 * from_home + 30.0 * closer
                    };
                    (value, need)
                }
            };
            // An attack it cannot win is not worth the walk, unless it can
            // raise the army for it at home.
            let can_raise =
                self.may_raise && need * RAISE_MARGIN <= self.pool as f64 * (1.0 - KEEP_HOME);
            if need * ATTACK_MARGIN > attack && !can_raise {
                continue;
            }
            let score = value - 12.0 * f64::from(self.walk[from]);
            if best.is_none_or(|b| score > b.0) {
                best = Some((score, x, from, need));
            }
        }
        best.map(|(_, x, from, need)| (x, from, need))
    }

    /// The first move from the robot toward `cell` through joined land.
    fn step_toward(&self, cell: usize) -> Action {
        let m = &self.map;
        let back = m.distances(cell, |i| self.joined[i] && self.robot[i].is_none());
        m.neighbours(self.at)
            .filter(|&n| back[n] != u32::MAX && back[n] < back[self.at])
            .min_by_key(|&n| (back[n], n))
            .and_then(|n| Action::towards(m.pos(self.at), m.pos(n)))
            .unwrap_or(Action::Wait)
    }

    /// A building for the cell it stands on, if it is a good time.
    fn building(&self) -> Option<Action> {
        let obs = self.obs();
        let m = &self.map;
        if obs.building_at(obs.me.position).is_some() || !self.joined[self.at] {
            return None;
        }
        let mine = |k: BuildingKind| {
            obs.buildings
                .iter()
                .filter(|b| b.team == self.me && b.kind == k)
                .count()
        };
        let inner = m.neighbours(self.at).filter(|&n| self.joined[n]).count() >= 2
            || self.at == self.capital;
        let gold = obs.me.gold;
        if gold >= obs.rules.buildings.barracks.cost
            && mine(BuildingKind::Barracks) < 3
            && (inner || self.at == self.capital)
        {
            return Some(Action::Build(BuildingKind::Barracks));
        }
        if gold >= obs.rules.buildings.mine.cost && mine(BuildingKind::Mine) < 3 && inner {
            return Some(Action::Build(BuildingKind::Mine));
        }
        None
    }

    /// A weapon to fire, once the economy is built and gold is left over:
    /// the strongest one it can afford, aimed by the game at the most
    /// enemy cells (it costs their team defense, kills parked soldiers,
    /// fells buildings).
    fn weapon(&self) -> Option<Action> {
        let obs = self.obs();
        let barracks = obs
            .buildings
            .iter()
            .filter(|b| b.team == self.me && b.kind == BuildingKind::Barracks)
            .count();
        if barracks < 3 || obs.turn < WAR_FROM_TURN {
            return None;
        }
        [Weapon::Hbomb, Weapon::Mirv, Weapon::Missile, Weapon::Bomb]
            .into_iter()
            .filter(|&w| {
                obs.me.gold >= obs.rules.weapons.get(w).cost + obs.rules.buildings.barracks.cost
            })
            .map(|w| Action::Fire(w, Vec::new()))
            .find(|a| obs.is_legal(a))
    }

    fn decide(&self) -> Action {
        let obs = self.obs();
        // Before the war, soldiers stay home: the reserve joins every battle
        // fought on its land, and an early attack on it would cut it apart.
        if obs.turn < WAR_FROM_TURN && self.at == self.capital && obs.me.army.attack * 3 > self.pool
        {
            return Action::Allocate {
                attack: 0.25,
                defense: 0.35,
                reserve: 0.4,
            };
        }
        if let Some(b) = self.building() {
            return b;
        }
        if let Some(w) = self.weapon() {
            return w;
        }
        let Some((x, from, need)) = self.best_step() else {
            return Action::Wait;
        };
        let attack = self.obs().me.army.attack as f64;
        if need * ATTACK_MARGIN > attack {
            // Home first, to raise the army (with room for the walk back).
            if self.at == self.capital {
                let share = (need * RAISE_MARGIN / self.pool as f64).min(1.0 - KEEP_HOME);
                let rest = 1.0 - share;
                return Action::Allocate {
                    attack: (share * 1000.0).round() / 1000.0,
                    defense: (rest * 250.0).round() / 1000.0,
                    reserve: (rest * 750.0).round() / 1000.0,
                };
            }
            return self.step_toward(self.capital);
        }
        if self.at == from {
            return Action::towards(self.map.pos(from), self.map.pos(x)).unwrap_or(Action::Wait);
        }
        self.step_toward(from)
    }
}

/// The capital pick of the setup turn: the choice nearest the middle of
/// its quarter, with room all round.
fn choose_capital(obs: &Observation) -> Action {
    let (qw, qh) = (obs.width / 2, obs.height / 2);
    let q = obs.me.position;
    let centre = [
        if q[0] < qw { qw / 2 } else { qw + qw / 2 },
        if q[1] < qh { qh / 2 } else { qh + qh / 2 },
    ];
    obs.capital_choices
        .iter()
        .min_by_key(|p| (ludus_sdk::conquest::distance(**p, centre), **p))
        .map_or(Action::Wait, |p| Action::Capital(*p))
}

impl Bot for Strategy {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        // Two robots stepping into one cell are both blocked: after a
        // blocked move it waits a turn or two (at random, so that two robots
        // fall out of step) rather than bump again; blocked often, it stops
        // walking home to raise armies for a while and grows where it is.
        let blocked = self.last_move.as_ref().is_some_and(|(turn, from, _)| {
            *turn + 1 == obs.turn && *from == obs.me.position && !obs.me.busy
        });
        if blocked {
            self.blocked += 6;
            if let Some((_, from, step)) = &self.last_move {
                let to = step.from(*from, obs.width, obs.height);
                self.avoid = to.map(|p| (p, obs.turn + 8));
            }
        } else {
            self.blocked = self.blocked.saturating_sub(1);
        }
        let avoid = self.avoid.filter(|a| a.1 > obs.turn).map(|a| a.0);
        let pause = blocked && ludus_sdk::random::chance(2, 3);
        let action = match obs.phase {
            Phase::Setup => choose_capital(obs),
            Phase::Play if obs.me.busy || !obs.me.alive || pause => Action::Wait,
            Phase::Play => Plan::new(obs, self.blocked < 12, avoid).decide(),
        };
        let action = if obs.is_legal(&action) {
            action
        } else {
            Action::Wait
        };
        self.last_move = action
            .delta()
            .map(|_| (obs.turn, obs.me.position, action.clone()));
        action
    }
}
