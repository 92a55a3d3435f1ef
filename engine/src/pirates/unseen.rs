//! What a seat cannot see, changed at random, for the leak test (see
//! [`crate::sight`]): the test checks that the seat's observation, and
//! whether it is asked, stay the same, byte for byte.

use rand_chacha::ChaCha8Rng;

use super::actions::Action;
use super::WHIRLPOOL_MOVES;
use super::{hex, Pirates, Terrain, CANNONS, HULLS, MAX_POTIONS, NPC_HEALTH, PLAYERS};
use crate::sight::{below, one_in, pick, Fog, Hidden};
use crate::Seat;

/// The leak test's entry: a shortened game on each difficulty; the words of
/// what [`Pirates::perturb_unseen`] changes.
pub(super) const FOG: Fog = Fog {
    new: |config, seed, players| Ok(Box::new(Pirates::from_config(config, seed, players)?)),
    configs: &[
        r#"{"difficulty": "easy", "max_turns": 1200}"#,
        r#"{"difficulty": "normal", "max_turns": 1200}"#,
        r#"{"difficulty": "hard", "max_turns": 1200}"#,
    ],
    hidden: &["ships", "npcs", "npc targets"],
};

impl Hidden for Pirates {
    fn fork(&self) -> Box<dyn Hidden> {
        Box::new(self.clone())
    }

    /// The ship to move answers a shot when it has one (so ships and NPCs
    /// fight), else half the time the step nearest the flag (so they meet
    /// round it), else any legal action; the other seats are not asked.
    fn random_answers(&self, rng: &mut ChaCha8Rng) -> Vec<Option<String>> {
        let seat = self.to_move();
        let legal = self.legal_actions(seat);
        let shots: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Attack(_)))
            .collect();
        let ship = self.ships[seat].pos;
        let to_flag = legal
            .iter()
            .copied()
            .filter_map(|a| match a {
                Action::Sail(d) => Some((ship.step(d).distance(self.flag), a)),
                _ => None,
            })
            .min_by_key(|&(d, _)| d)
            .map(|(_, a)| a);
        let action = match (pick(rng, &shots), to_flag) {
            (Some(shot), _) if !one_in(rng, 4) => Some(shot),
            (_, Some(step)) if one_in(rng, 2) => Some(step),
            _ => pick(rng, &legal),
        };
        let mut answers = vec![None; PLAYERS];
        answers[seat] = action.map(Action::name);
        answers
    }

    fn perturb_unseen(&mut self, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<&'static str> {
        Pirates::perturb_unseen(self, seat, rng)
    }
}

impl Pirates {
    /// Changes at random what `seat` does not see now: the ships and NPCs
    /// out of its sight (where they are, their health, upgrades, gold,
    /// potions, illegal moves, vortex hold; whom an NPC chases and fired
    /// at), and whom an NPC in its sight chases and fired at when that is
    /// a ship it does not see. Whether a ship or an NPC is afloat is public,
    /// and stays.
    pub fn perturb_unseen(&mut self, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<&'static str> {
        let mut changed = Vec::new();
        let unseen: Vec<Seat> = (0..PLAYERS)
            .filter(|&s| self.ships[s].alive() && !self.sees_ship(seat, s))
            .collect();
        for &s in &unseen {
            let was = self.ships[s].clone();
            if one_in(rng, 2) {
                if let Some(to) = self.open_field_out_of_sight(seat, rng, Terrain::passable) {
                    self.ships[s].pos = to;
                }
            }
            let held = self.terrain(self.ships[s].pos) == Terrain::Vortex;
            let hull = below(rng, 3) as usize;
            let ship = &mut self.ships[s];
            ship.hull_level = hull as u8;
            ship.max_health = HULLS[hull];
            ship.health = 1 + below(rng, u64::from(HULLS[hull])) as u32;
            ship.cannon_level = below(rng, 3) as u8;
            ship.cannons = CANNONS[usize::from(ship.cannon_level)];
            ship.gold = below(rng, 5000);
            ship.potions = below(rng, u64::from(MAX_POTIONS) + 1) as u32;
            ship.illegal_moves = below(rng, 100) as u32;
            ship.whirlpool = if held {
                below(rng, u64::from(WHIRLPOOL_MOVES) + 1) as u32
            } else {
                0
            };
            if *ship != was {
                changed.push("ships");
            }
        }
        let named: Vec<Option<Seat>> = std::iter::once(None)
            .chain(unseen.iter().map(|&s| Some(s)))
            .collect();
        let hidden = |g: &Pirates, s: Option<Seat>| s.is_none_or(|s| !g.sees_ship(seat, s));
        for k in 0..self.npcs.len() {
            let was = self.npcs[k].clone();
            if !was.alive {
                continue;
            }
            if !self.sees_npc(seat, k) {
                let water = |t: Terrain| t == Terrain::Water;
                if let Some(to) = self.open_field_out_of_sight(seat, rng, water) {
                    self.npcs[k].pos = to;
                }
                self.npcs[k].health = 1 + below(rng, u64::from(NPC_HEALTH)) as u32;
                self.npcs[k].target = pick(rng, &named).flatten();
                self.npcs[k].fired_at = pick(rng, &named).flatten();
                if self.npcs[k] != was {
                    changed.push("npcs");
                }
                continue;
            }
            if hidden(self, was.target) {
                self.npcs[k].target = pick(rng, &named).flatten();
            }
            if hidden(self, was.fired_at) {
                self.npcs[k].fired_at = pick(rng, &named).flatten();
            }
            if self.npcs[k] != was {
                changed.push("npc targets");
            }
        }
        changed.sort_unstable();
        changed.dedup();
        changed
    }

    /// A field of a terrain `fits`, with no ship or NPC on it, that `seat`
    /// does not see; `None` after a few tries.
    fn open_field_out_of_sight(
        &self,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        fits: impl Fn(Terrain) -> bool,
    ) -> Option<hex::Hex> {
        (0..8).find_map(|_| {
            let h = hex::Hex::from_index(below(rng, hex::FIELDS as u64) as usize);
            (fits(self.terrain(h)) && !self.occupied(h) && !self.sees(seat, h)).then_some(h)
        })
    }
}
