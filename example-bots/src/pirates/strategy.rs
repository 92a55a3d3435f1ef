//! A pirates strategy. Health never comes back but through potions and the
//! hull, so it fights only where it wins with health to spare. Each move,
//! in order:
//!
//! 1. a shot that sinks a ship (gold, and one rival fewer);
//! 2. under fire: a shot in a duel it wins with half its health to spare
//!    (it fires first), or at an NPC it outlasts (NPCs sail as fast as
//!    ships: running only ends against the rim), or else away to the field
//!    the fewest cannons reach;
//! 3. a potion when health is low;
//! 4. next to a shop: the next upgrade it can pay for (hull, cannons, hull,
//!    cannons; then a potion), unless the game is nearly over;
//! 5. one step along the cheapest way to its goal: the shop when it can pay
//!    for the next upgrade, a ship it beats once its cannons are at their
//!    best, else the flag. A vortex costs its three lost moves; fields
//!    where a ship it would lose to could reach it cost more.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use ludus_sdk::pirates::{
    Action, Dir, Hex, Observation, Ship, Terrain, ATTACK_RANGE, FIELDS, MAX_POTIONS, POTION_PRICE,
};
use ludus_sdk::Bot;

#[derive(Debug, Default)]
pub struct Strategy;

/// What a step into a vortex costs: the step and the 3 moves it holds.
const VORTEX_COST: u32 = 4;
/// What a step onto a field a stronger ship could reach costs.
const THREAT_COST: u32 = 12;
/// No purchases in the last moves: gold is the score at the end.
const LAST_PURCHASE_MOVES_LEFT: u32 = 600;
/// Drink below this share of maximum health, in percent.
const DRINK_BELOW_PERCENT: u32 = 40;
/// A duel is worth it when this share of maximum health is left after it,
/// in percent.
const SPARE_PERCENT: u32 = 50;

/// A ship that may fire at us: a rival or an NPC.
#[derive(Debug, Clone, Copy)]
struct Foe {
    id: u8,
    pos: Hex,
    health: u32,
    cannons: u32,
    npc: bool,
}

impl Foe {
    /// How near it can be to threaten a field: a rival sails one field and
    /// fires two; an NPC chases what it sees within 4, after we move.
    fn reach(&self) -> u32 {
        if self.npc {
            5
        } else {
            ATTACK_RANGE + 1
        }
    }
}

/// One move's view of the sea.
struct Sea<'a> {
    obs: &'a Observation,
    me: &'a Ship,
    terrain: Vec<Terrain>,
    foes: Vec<Foe>,
}

impl Bot for Strategy {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        let sea = Sea::new(obs);
        let choice = sea
            .sinking_shot()
            .or_else(|| sea.under_fire())
            .or_else(|| sea.potion())
            .or_else(|| sea.purchase())
            .or_else(|| sea.towards_goal());
        match choice {
            Some(a) if obs.is_legal(a) => a,
            _ => sea.anything(),
        }
    }
}

impl<'a> Sea<'a> {
    fn new(obs: &'a Observation) -> Self {
        let foes = obs
            .rivals()
            .map(|s| Foe {
                id: s.id,
                pos: s.pos(),
                health: s.health,
                cannons: s.cannons,
                npc: false,
            })
            .chain(obs.npcs().map(|n| Foe {
                id: n.id,
                pos: n.pos(),
                health: n.health,
                cannons: n.cannons,
                npc: true,
            }))
            .collect();
        Sea {
            obs,
            me: obs.me(),
            terrain: obs.map.terrain(),
            foes,
        }
    }

    fn terrain(&self, h: Hex) -> Terrain {
        h.index().map_or(Terrain::Island, |i| self.terrain[i])
    }

    /// Foes that can fire at `h` on their next action.
    fn in_range(&self, h: Hex) -> impl Iterator<Item = &Foe> + '_ {
        self.foes
            .iter()
            .filter(move |f| f.pos.distance(h) <= ATTACK_RANGE)
    }

    /// Damage that may reach `h` before our next move.
    fn danger(&self, h: Hex) -> u32 {
        self.in_range(h).map(|f| f.cannons).sum()
    }

    /// Shots to sink `health` with `cannons` a shot.
    fn shots(health: u32, cannons: u32) -> u32 {
        health.div_ceil(cannons.max(1))
    }

    /// The health we would have left after sinking `foe` from `h`, firing
    /// first, while every foe in range of `h` fires back; `None` if we sink
    /// first.
    fn left_after_duel(&self, foe: &Foe, h: Hex) -> Option<u32> {
        let n = Self::shots(foe.health, self.me.cannons);
        let others: u32 = self
            .in_range(h)
            .filter(|f| f.id != foe.id)
            .map(|f| f.cannons)
            .sum();
        let taken = (n - 1) * foe.cannons + n * others;
        self.me.health.checked_sub(taken).filter(|&left| left > 0)
    }

    /// Whether we sink `foe` from `h` with health to spare.
    fn beats(&self, foe: &Foe, h: Hex) -> bool {
        let spare = self.me.max_health * SPARE_PERCENT / 100;
        self.left_after_duel(foe, h)
            .is_some_and(|left| left >= spare)
    }

    fn targets(&self) -> impl Iterator<Item = &Foe> + '_ {
        self.in_range(self.me.pos())
    }

    /// 1. A shot that sinks a ship; a player's before an NPC's.
    fn sinking_shot(&self) -> Option<Action> {
        self.targets()
            .filter(|f| f.health <= self.me.cannons)
            .min_by_key(|f| (f.npc, f.id))
            .map(|f| Action::Attack(f.id))
    }

    /// Under fire (step 2): fight a duel we win with health to spare, or an
    /// NPC we outlast; else get away.
    fn under_fire(&self) -> Option<Action> {
        let at = self.me.pos();
        if self.danger(at) == 0 {
            return None;
        }
        let duel = self
            .targets()
            .filter(|f| self.beats(f, at))
            .min_by_key(|f| (Self::shots(f.health, self.me.cannons), f.npc, f.id));
        if let Some(f) = duel {
            return Some(Action::Attack(f.id));
        }
        // An NPC sails as fast as we do: running from it only ends against
        // the rim. Fight it when we outlast it.
        let npc = self
            .targets()
            .filter(|f| f.npc && self.left_after_duel(f, at).is_some())
            .min_by_key(|f| f.health);
        if let Some(f) = npc {
            return Some(Action::Attack(f.id));
        }
        let (best, step) = self
            .steps()
            .map(|(d, to)| {
                (
                    (self.danger(to), Reverse(self.nearest_foe(to))),
                    Action::Sail(d),
                )
            })
            .min_by_key(|(k, _)| *k)?;
        if best.0 < self.danger(at) {
            return Some(step);
        }
        // Nowhere safer: fire back at whoever we sink soonest.
        self.targets()
            .min_by_key(|f| Self::shots(f.health, self.me.cannons))
            .map(|f| Action::Attack(f.id))
    }

    fn nearest_foe(&self, h: Hex) -> u32 {
        self.foes
            .iter()
            .map(|f| f.pos.distance(h))
            .min()
            .unwrap_or(u32::MAX)
    }

    /// 3. A potion below 40% health.
    fn potion(&self) -> Option<Action> {
        let low = self.me.health * 100 < self.me.max_health * DRINK_BELOW_PERCENT;
        (low && self.me.pot_nums > 0).then_some(Action::Drink)
    }

    /// The next thing to buy, and its price.
    fn wish(&self) -> Option<(Action, u64)> {
        if self.obs.moves_left < LAST_PURCHASE_MOVES_LEFT {
            return None;
        }
        let me = self.me;
        let hull = me.hull_price().map(|p| (Action::BuyHull, p));
        let cannons = me.cannon_price().map(|p| (Action::BuyCannons, p));
        let upgrade = if me.hull_level() <= me.cannon_level() {
            hull.or(cannons)
        } else {
            cannons.or(hull)
        };
        upgrade.or_else(|| {
            (me.pot_nums < MAX_POTIONS - 1).then_some((Action::BuyPotion, POTION_PRICE))
        })
    }

    /// 4. The wished purchase, when at a shop with the gold.
    fn purchase(&self) -> Option<Action> {
        let (a, price) = self.wish()?;
        (self.me.gold >= price && self.obs.is_legal(a)).then_some(a)
    }

    /// The legal steps and where they lead.
    fn steps(&self) -> impl Iterator<Item = (Dir, Hex)> + '_ {
        let at = self.me.pos();
        self.obs.legal_actions.iter().filter_map(move |a| match a {
            Action::Sail(d) => Some((*d, at.step(*d))),
            _ => None,
        })
    }

    /// 5. One step along the cheapest way to the goal.
    fn towards_goal(&self) -> Option<Action> {
        let costs = self.costs_to(&self.goal());
        self.steps()
            .filter_map(|(d, to)| {
                let c = costs[to.index()?];
                (c != u32::MAX).then(|| (c + self.enter_cost(to), Action::Sail(d)))
            })
            .min_by_key(|(c, _)| *c)
            .map(|(_, a)| a)
    }

    /// The fields to head for: next to a shop when we can pay for the next
    /// purchase; within range of a ship we beat once our cannons are at
    /// their best; else next to the flag.
    fn goal(&self) -> Vec<Hex> {
        let me = self.me;
        let at = me.pos();
        let near = |centres: &[Hex], within: u32| -> Vec<Hex> {
            (0..FIELDS)
                .filter_map(Hex::from_index)
                .filter(|h| self.terrain(*h).passable())
                .filter(|h| centres.iter().any(|c| c.distance(*h) <= within))
                .collect()
        };
        if let Some((_, price)) = self.wish() {
            if me.gold >= price {
                return near(&self.obs.map.shops, 1);
            }
        }
        if me.cannon_price().is_none() {
            let prey = self
                .foes
                .iter()
                .filter(|f| self.beats(f, f.pos))
                .min_by_key(|f| f.pos.distance(at));
            if let Some(p) = prey {
                return near(&[p.pos], ATTACK_RANGE);
            }
        }
        near(&[self.obs.flag.pos()], 1)
    }

    /// What sailing onto `h` costs: more for a vortex, and for a field a
    /// ship we would not beat can reach.
    fn enter_cost(&self, h: Hex) -> u32 {
        let base = if self.terrain(h) == Terrain::Vortex {
            VORTEX_COST
        } else {
            1
        };
        let threatened = self
            .foes
            .iter()
            .any(|f| f.pos.distance(h) <= f.reach() && !self.beats(f, h));
        base + if threatened { THREAT_COST } else { 0 }
    }

    /// The cost of the cheapest way from every field to one of `goals`
    /// (`u32::MAX`: none), over passable fields without ships.
    fn costs_to(&self, goals: &[Hex]) -> Vec<u32> {
        let mut cost = vec![u32::MAX; FIELDS];
        let mut heap = BinaryHeap::new();
        let open =
            |h: Hex| self.terrain(h).passable() && (h == self.me.pos() || !self.obs.occupied(h));
        for &g in goals {
            if let Some(i) = g.index().filter(|_| open(g)) {
                cost[i] = 0;
                heap.push(Reverse((0, i)));
            }
        }
        while let Some(Reverse((c, i))) = heap.pop() {
            if c > cost[i] {
                continue;
            }
            let h = Hex::from_index(i).expect("a field");
            let step = c + self.enter_cost(h);
            for n in h.neighbours() {
                let j = n.index().expect("on the sea");
                if step < cost[j] && open(n) {
                    cost[j] = step;
                    heap.push(Reverse((step, j)));
                }
            }
        }
        cost
    }

    /// When nothing above applies: a shot, a potion, else the first legal
    /// action.
    fn anything(&self) -> Action {
        let legal = &self.obs.legal_actions;
        legal
            .iter()
            .find(|a| matches!(a, Action::Attack(_)))
            .or_else(|| {
                (self.me.health < self.me.max_health)
                    .then(|| legal.iter().find(|a| **a == Action::Drink))
                    .flatten()
            })
            .or_else(|| legal.first())
            .copied()
            .unwrap_or_default()
    }
}
