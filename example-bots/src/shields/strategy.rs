//! A shields strategy: SHIELD when a rival that is not frozen is taking one
//! of our cells; otherwise go for the cell worth the most points per turn
//! spent walking and staying: a neutral cell pays its value every turn
//! after, upgrading our own pays its value again, and a rival's cell pays
//! the raid bonus too and costs its owner.

use ludus_sdk::shields::{distance, Action, Observation, Pos};
use ludus_sdk::Bot;

#[derive(Debug, Default)]
pub struct Strategy;

impl Strategy {
    /// Points taking or upgrading `p` is worth from the turn it is done,
    /// per turn after, and once.
    fn worth(obs: &Observation, p: Pos) -> (f64, f64) {
        let v = f64::from(obs.value(p));
        let l = f64::from(obs.level(p));
        match obs.owner(p) {
            None => (v, 0.0),
            Some(o) if o == obs.me.id => (v, 0.0),
            Some(_) => (v + 0.5 * v * l, 8.0 * v * l),
        }
    }
}

impl Bot for Strategy {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        let me = &obs.me;
        if me.frozen > 0 {
            return Action::Stay;
        }
        let raider = obs
            .bots
            .iter()
            .any(|b| b.id != me.id && b.frozen == 0 && b.need > 0 && obs.is_mine(b.position));
        if raider && obs.is_legal(Action::Shield) {
            return Action::Shield;
        }
        let remaining = obs.turns_remaining as f64;
        let mut best: Option<(f64, Pos)> = None;
        for y in 0..obs.height {
            for x in 0..obs.width {
                let p = [x, y];
                if p != me.position && obs.occupied(p) {
                    continue;
                }
                let stays = if p == me.position {
                    me.need
                } else {
                    obs.requirement(me.id, p)
                };
                if stays == 0 {
                    continue;
                }
                let cost = (distance(me.position, p) as u32 + stays) as f64;
                if cost >= remaining {
                    continue;
                }
                let (per_turn, once) = Self::worth(obs, p);
                let score = (per_turn * (remaining - cost) + once) / cost;
                if best.is_none_or(|(s, _)| score > s) {
                    best = Some((score, p));
                }
            }
        }
        let Some((_, target)) = best else {
            return Action::Stay;
        };
        if target == me.position {
            return Action::Stay;
        }
        let d = distance(me.position, target);
        Action::MOVES
            .into_iter()
            .filter(|&m| obs.is_legal(m))
            .find(|m| {
                m.from(me.position, obs.width, obs.height)
                    .is_some_and(|q| distance(q, target) < d)
            })
            .unwrap_or(Action::Stay)
    }
}
