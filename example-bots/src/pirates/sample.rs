//! The sample pirates bot (`example-bots/python/pirates.py`, ported).

use ludus_sdk::pirates::{Action, Observation};
use ludus_sdk::Bot;

/// Fires at the first ship in range, drinks below half health, otherwise
/// sails the step that brings it nearest the flag.
#[derive(Debug, Default)]
pub struct Sample;

impl Bot for Sample {
    type Observation = Observation;
    type Action = Action;

    fn act(&mut self, obs: &Observation) -> Action {
        let legal = &obs.legal_actions;
        if let Some(shot) = legal.iter().find(|a| matches!(a, Action::Attack(_))) {
            return *shot;
        }
        let me = obs.me();
        if me.pot_nums > 0 && me.health * 2 < me.max_health && obs.is_legal(Action::Drink) {
            return Action::Drink;
        }
        let flag = obs.flag.pos();
        legal
            .iter()
            .filter_map(|a| Some((a.step_from(me.pos())?.distance(flag), *a)))
            .min_by_key(|(d, _)| *d)
            .map(|(_, a)| a)
            .or_else(|| legal.first().copied())
            .unwrap_or_default()
    }
}
