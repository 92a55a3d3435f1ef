//! The seats' statuses and rewards, and the rules that change them at the
//! end of a step: the references' interpreters knock out a seat with
//! nothing left and end the game when fewer than two are playing; their
//! `core.py` then sets the rewards and applies the step limit.

use serde_json::Value;

use super::Num;
use crate::Seat;

/// A seat's status word, as the references' `env.state[seat].status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Active,
    Done,
    /// The seat's answer would have raised inside the reference (Kore): it
    /// is out, everything it had removed.
    Error,
    /// The seat's answer broke the action schema (Halite): it is out,
    /// everything it had removed.
    Invalid,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Active => "ACTIVE",
            Status::Done => "DONE",
            Status::Error => "ERROR",
            Status::Invalid => "INVALID",
        }
    }

    /// Out of the game for its answer: `ERROR` or `INVALID`.
    pub fn is_disqualified(self) -> bool {
        matches!(self, Status::Error | Status::Invalid)
    }
}

/// Every seat's status and reward (`None` is the references' `null`).
#[derive(Debug, Clone, PartialEq)]
pub struct Seats {
    status: Vec<Status>,
    reward: Vec<Option<Num>>,
}

impl Seats {
    /// Every seat active, its reward what it holds.
    pub fn new(held: &[Num]) -> Self {
        Seats {
            status: vec![Status::Active; held.len()],
            reward: held.iter().map(|&h| Some(h)).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.status.len()
    }

    pub fn is_empty(&self) -> bool {
        self.status.is_empty()
    }

    pub fn statuses(&self) -> &[Status] {
        &self.status
    }

    pub fn rewards(&self) -> &[Option<Num>] {
        &self.reward
    }

    pub fn status(&self, seat: Seat) -> Status {
        self.status[seat]
    }

    pub fn is_active(&self, seat: Seat) -> bool {
        self.status[seat] == Status::Active
    }

    /// The game is over when no seat is active.
    pub fn is_over(&self) -> bool {
        !self.status.contains(&Status::Active)
    }

    /// Puts an active seat out for its answer (`ERROR` or `INVALID`).
    pub fn disqualify(&mut self, seat: Seat, status: Status) {
        debug_assert!(status.is_disqualified());
        self.status[seat] = status;
    }

    /// An active seat with nothing left to play with is out after `step`:
    /// `DONE`, its reward frozen at `step - episodeSteps - 1`, below any
    /// holding.
    pub fn knock_out(&mut self, seat: Seat, step: u32, episode_steps: u32) {
        self.status[seat] = Status::Done;
        self.reward[seat] = Some(Num::Int(i64::from(step) - i64::from(episode_steps) - 1));
    }

    /// With fewer than two seats active (and more than one seat), every
    /// active seat is done, its reward left as it was. Returns whether the
    /// game ended so.
    pub fn end_if_fewer_than_two_active(&mut self) -> bool {
        let active = self.status.iter().filter(|s| **s == Status::Active).count();
        if self.status.len() > 1 && active < 2 {
            self.finish_active();
            true
        } else {
            false
        }
    }

    /// `core.py`: an active seat's reward is what it holds; a disqualified
    /// seat's is `null`; a done seat's stays.
    pub fn update_rewards(&mut self, held: &[Num]) {
        for (seat, status) in self.status.iter().enumerate() {
            match status {
                Status::Active => self.reward[seat] = Some(held[seat]),
                Status::Error | Status::Invalid => self.reward[seat] = None,
                Status::Done => {}
            }
        }
    }

    /// `core.py`: after step `episodeSteps - 1` every active seat is done.
    /// Returns whether the limit is reached.
    pub fn end_at_step_limit(&mut self, step: u32, episode_steps: u32) -> bool {
        let reached = step + 1 >= episode_steps;
        if reached {
            self.finish_active();
        }
        reached
    }

    fn finish_active(&mut self) {
        for s in &mut self.status {
            if *s == Status::Active {
                *s = Status::Done;
            }
        }
    }

    /// Per seat, the score for placements: its reward, or for a seat with
    /// a `null` reward `-(episodeSteps + 1)`, below every knock-out.
    pub fn scores(&self, episode_steps: u32) -> Vec<f64> {
        let disqualified = -(f64::from(episode_steps) + 1.0);
        self.reward
            .iter()
            .map(|r| r.map_or(disqualified, Num::to_f64))
            .collect()
    }

    /// The status words, as the references report them.
    pub fn status_words(&self) -> Vec<&'static str> {
        self.status.iter().map(|s| s.as_str()).collect()
    }

    /// The rewards as the references report them, ints and floats apart.
    pub fn rewards_json(&self) -> Vec<Value> {
        self.reward
            .iter()
            .map(|r| r.map_or(Value::Null, Num::to_json_value))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knocked_out_seat_scores_below_holdings_and_a_disqualified_one_below_that() {
        let mut seats = Seats::new(&[Num::Int(500), Num::Int(500), Num::Int(500)]);
        seats.knock_out(1, 10, 400);
        seats.disqualify(2, Status::Error);
        seats.update_rewards(&[Num::Float(12.5), Num::Int(0), Num::Int(0)]);
        assert_eq!(seats.scores(400), vec![12.5, -391.0, -401.0]);
        assert_eq!(seats.status_words(), vec!["ACTIVE", "DONE", "ERROR"]);
        assert_eq!(
            seats.rewards_json(),
            vec![
                serde_json::json!(12.5),
                serde_json::json!(-391),
                Value::Null
            ]
        );
    }

    #[test]
    fn the_last_active_seat_is_done_and_keeps_its_reward() {
        let mut seats = Seats::new(&[Num::Int(5), Num::Int(7)]);
        seats.knock_out(0, 3, 400);
        assert!(seats.end_if_fewer_than_two_active());
        seats.update_rewards(&[Num::Int(0), Num::Int(99)]);
        assert_eq!(seats.statuses(), &[Status::Done, Status::Done]);
        assert_eq!(seats.rewards()[1], Some(Num::Int(7)));
        assert!(seats.is_over());
    }

    #[test]
    fn the_step_limit_ends_the_game_after_step_episode_steps_minus_one() {
        let mut seats = Seats::new(&[Num::Int(5), Num::Int(7)]);
        assert!(!seats.end_at_step_limit(398, 400));
        assert!(!seats.is_over());
        assert!(seats.end_at_step_limit(399, 400));
        assert!(seats.is_over());
    }
}
