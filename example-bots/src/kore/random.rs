//! A bot that spawns and launches at random.

use ludus_sdk::kore::{max_flight_plan_len, Actions, Observation};
use ludus_sdk::{random, Bot};

/// For each shipyard: one time in three a spawn of 1 to its cap (if the kore
/// is there), one in four a launch of a random number of its ships on a
/// random plan as long as they may fly; otherwise nothing.
#[derive(Debug, Default)]
pub struct Random;

impl Bot for Random {
    type Observation = Observation;
    type Action = Actions;

    fn act(&mut self, obs: &Observation) -> Actions {
        let mut actions = Actions::default();
        let me = obs.me();
        let mut kore = me.kore;
        for s in &me.shipyards {
            let r = random::below(12);
            if r < 4 {
                let n = 1 + random::below(s.max_spawn() as u64) as i64;
                let cost = n as f64 * obs.configuration.spawn_cost;
                if cost <= kore {
                    kore -= cost;
                    actions.spawn(&s.id, n);
                }
            } else if r < 7 && s.ships > 0 {
                let n = 1 + random::below(s.ships as u64) as i64;
                let len = 1 + random::below(max_flight_plan_len(n) as u64) as usize;
                let mut plan = String::new();
                while plan.len() < len {
                    if plan.is_empty() || random::chance(1, 2) {
                        plan.push(['N', 'E', 'S', 'W'][random::below(4) as usize]);
                    } else {
                        plan.push(char::from(b'1' + random::below(9) as u8));
                    }
                }
                actions.launch(&s.id, n, &plan);
            }
        }
        actions
    }
}
