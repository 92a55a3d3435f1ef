//! The turn, phase by phase, in the reference's order (`Board.next()` of
//! `envs/halite/helpers.py`, then the elimination block of `interpreter()` in
//! `envs/halite/halite.py`, then the reward and turn-limit rules of
//! `core.py`):
//!
//! 1. [bind actions](Halite::bind_actions)
//! 2. per seat, in seat order:
//!    1. [spawns](Halite::spawn_ships)
//!    2. [converts](Halite::convert_ships)
//!    3. [moves](Halite::move_ships)
//!    4. [the converts' surplus banked](Halite::bank_convert_surplus)
//! 3. [ship–ship collisions](Halite::ship_collisions)
//! 4. [ship–shipyard collisions](Halite::ship_shipyard_collisions)
//! 5. [deposits](Halite::deposit)
//! 6. [mining](Halite::mine)
//! 7. [regeneration](Halite::regenerate)
//! 8. [the turn counter](Halite::advance_turn)
//! 9. [eliminations](Halite::eliminate)
//! 10. [the last-fleet check](Halite::last_fleet_check)
//! 11. [rewards](Halite::update_rewards)
//! 12. [the turn limit](Halite::turn_limit)
//!
//! Every phase is public but hidden from the docs, so that a test can run
//! it alone on a hand-made board.

use super::actions::{parse_answer, Action, Answer};
use super::{EndReason, Halite, Num, Ship, Shipyard, Status, Uid};
use crate::kaggle::Refusals;
use crate::{Outcome, Rejection, Seat};

/// Rejection kinds.
pub mod kind {
    /// The answer is not JSON: read as a string, which binds nothing.
    pub const UNPARSEABLE: &str = "unparseable";
    /// A value outside the action enum: the seat is disqualified (`INVALID`).
    pub const INVALID_ACTION: &str = "invalid_action";
    /// A key that names none of the seat's ships or shipyards: ignored.
    pub const UNKNOWN_ASSET: &str = "unknown_asset";
    /// `SPAWN` for a ship, or a move or `CONVERT` for a shipyard: ignored.
    pub const NOT_APPLICABLE: &str = "not_applicable";
    /// `SPAWN` with less than `spawnCost` in the bank: no ship.
    pub const SPAWN_REFUSED: &str = "spawn_refused";
    /// `CONVERT` on a shipyard or without `convertCost` in ship and bank:
    /// the ship stays (and mines).
    pub const CONVERT_REFUSED: &str = "convert_refused";
    /// More refusals than are recorded one by one in a turn.
    pub use crate::kaggle::MORE_REFUSALS;
}

fn is_move(action: Option<Action>) -> bool {
    matches!(
        action,
        Some(Action::North | Action::East | Action::South | Action::West)
    )
}

impl Halite {
    /// Phase 1: the board as the reference rebuilds it from the observation
    /// (every shipyard's cell holds int 0), and each seat's answer bound to
    /// its assets. An active seat without an answer, with an answer that is
    /// not an object, or with text that is not JSON binds nothing. An answer
    /// the schema rejects makes the seat `INVALID`: it binds nothing and is
    /// out after this step. A key naming none of the
    /// seat's assets, `SPAWN` for a ship and a ship's action for a shipyard
    /// are ignored. Seats that are not active are not asked.
    #[doc(hidden)]
    pub fn bind_actions(&mut self, answers: &[Option<&str>], out: &mut Vec<Rejection>) {
        for y in &mut self.shipyards {
            y.spawn = false;
            self.halite[y.pos] = Num::Int(0);
        }
        for s in &mut self.ships {
            s.action = None;
        }
        for seat in 0..self.players {
            if !self.seats.is_active(seat) {
                continue;
            }
            let Some(text) = answers.get(seat).copied().flatten() else {
                continue;
            };
            match parse_answer(text) {
                Answer::Actions(entries) => {
                    if !entries.is_empty() {
                        self.bind_seat(seat, &entries, out);
                    }
                }
                Answer::Invalid { key, value } => {
                    self.disqualify(seat);
                    out.push(Rejection {
                        seat,
                        kind: kind::INVALID_ACTION.to_string(),
                        reason: format!(
                            "the action for {key} is {value}, not one of NORTH, EAST, SOUTH, \
                             WEST, CONVERT, SPAWN: the seat is out of the game (INVALID), as \
                             in Kaggle"
                        ),
                    });
                }
                Answer::Unparseable(why) => out.push(Rejection {
                    seat,
                    kind: kind::UNPARSEABLE.to_string(),
                    reason: format!(
                        "the answer is not JSON ({why}); as a string it binds no action \
                         (send a JSON object from asset uid to action)"
                    ),
                }),
            }
        }
    }

    fn disqualify(&mut self, seat: Seat) {
        self.seats.disqualify(seat, Status::Invalid);
        self.invalid_at[seat] = Some(self.step + 1);
    }

    /// Binds one seat's valid entries to its ships and shipyards.
    fn bind_seat(
        &mut self,
        seat: Seat,
        entries: &[(crate::kaggle::pyjson::PyStr<'_>, Action)],
        out: &mut Vec<Rejection>,
    ) {
        // The seat's assets by uid: (uid, is a shipyard, index).
        let mut assets: Vec<(Uid, bool, usize)> = self
            .ships
            .iter()
            .enumerate()
            .filter(|(_, s)| s.owner == seat)
            .map(|(i, s)| (s.uid, false, i))
            .chain(
                self.shipyards
                    .iter()
                    .enumerate()
                    .filter(|(_, y)| y.owner == seat)
                    .map(|(i, y)| (y.uid, true, i)),
            )
            .collect();
        assets.sort_unstable();
        let mut refusals = Refusals::new(out, seat);
        for (key, action) in entries {
            let found = key
                .as_str()
                .and_then(Uid::parse)
                .and_then(|uid| assets.binary_search_by(|a| a.0.cmp(&uid)).ok())
                .map(|k| assets[k]);
            match (found, action) {
                (Some((_, true, i)), Action::Spawn) => self.shipyards[i].spawn = true,
                (Some((_, false, i)), a) if *a != Action::Spawn => self.ships[i].action = Some(*a),
                (Some((uid, is_yard, _)), a) => refusals.push(kind::NOT_APPLICABLE, || {
                    let what = if is_yard { "a shipyard" } else { "a ship" };
                    format!("{uid} is {what}; {} does not apply to it", a.name())
                }),
                (None, _) => refusals.push(kind::UNKNOWN_ASSET, || {
                    format!(
                        "{} is none of your ships or shipyards; ignored",
                        key.describe()
                    )
                }),
            }
        }
    }

    /// Phase 2.1, for one seat: its shipyards, in order, spawn a ship with
    /// no cargo where told to and `spawnCost` is in the bank, which pays it.
    #[doc(hidden)]
    pub fn spawn_ships(&mut self, seat: Seat, out: &mut Vec<Rejection>) {
        let spawn_cost = Num::Int(self.config.spawn_cost);
        let mut refusals = Refusals::new(out, seat);
        for i in 0..self.shipyards.len() {
            let y = &self.shipyards[i];
            if y.owner != seat || !y.spawn {
                continue;
            }
            let (uid, pos) = (y.uid, y.pos);
            self.shipyards[i].spawn = false;
            if self.banks[seat] >= spawn_cost {
                self.banks[seat] = self.banks[seat] - spawn_cost;
                let new = self.new_uids.next(self.step);
                self.ships.push(Ship::new(new, seat, pos, Num::Int(0)));
            } else {
                let bank = self.banks[seat];
                refusals.push(kind::SPAWN_REFUSED, || {
                    format!(
                        "{uid} cannot spawn: the bank holds {} of the {} a ship costs",
                        bank.to_f64(),
                        spawn_cost.to_f64()
                    )
                });
            }
        }
    }

    /// Phase 2.2, for one seat: its ships told to `CONVERT`, in order,
    /// become shipyards where the cell has none and cargo + bank ≥
    /// `convertCost`; the cell's halite becomes the int 0. A shortfall is
    /// taken from the bank at once; the surplus over the cost is returned,
    /// to be banked after the seat's moves (phase 2.4), so that one convert
    /// cannot fund the next.
    #[doc(hidden)]
    pub fn convert_ships(&mut self, seat: Seat, out: &mut Vec<Rejection>) -> Num {
        let convert_cost = Num::Int(self.config.convert_cost);
        let mut refusals = Refusals::new(out, seat);
        let mut surplus = Num::Int(0);
        for i in 0..self.ships.len() {
            let s = &self.ships[i];
            if s.owner != seat || !s.alive || s.action != Some(Action::Convert) {
                continue;
            }
            let (uid, pos, cargo) = (s.uid, s.pos, s.halite);
            let on_yard = self.yard_at.is_taken(pos);
            if !on_yard && cargo + self.banks[seat] >= convert_cost {
                let delta = cargo - convert_cost;
                surplus = surplus + Num::py_max(delta, Num::Int(0));
                self.banks[seat] = self.banks[seat] + Num::py_min(delta, Num::Int(0));
                let new = self.new_uids.next(self.step);
                self.yard_at.set(pos, self.shipyards.len());
                self.shipyards.push(Shipyard::new(new, seat, pos));
                self.halite[pos] = Num::Int(0);
                self.ships[i].alive = false;
            } else {
                refusals.push(kind::CONVERT_REFUSED, || {
                    if on_yard {
                        format!("{uid} cannot convert on a shipyard; it stays")
                    } else {
                        format!(
                            "{uid} cannot convert: its cargo and the bank hold less than \
                             the {} a shipyard costs; it stays",
                            convert_cost.to_f64()
                        )
                    }
                });
            }
        }
        surplus
    }

    /// Phase 2.3, for one seat: its ships told to move go one cell, wrapping;
    /// their cargo is multiplied by `1 - moveCost`.
    #[doc(hidden)]
    pub fn move_ships(&mut self, seat: Seat) {
        let keep_after_move = Num::Int(1) - self.config.move_cost;
        let size = self.config.size;
        for s in &mut self.ships {
            if s.owner != seat || !s.alive {
                continue;
            }
            if let Some(dir) = s.action.and_then(Action::direction) {
                s.pos = dir.step(s.pos, size);
                s.halite = s.halite * keep_after_move;
            }
        }
    }

    /// Phase 2.4, for one seat: the surplus of its converts (phase 2.2) is
    /// banked.
    #[doc(hidden)]
    pub fn bank_convert_surplus(&mut self, seat: Seat, surplus: Num) {
        self.banks[seat] = self.banks[seat] + surplus;
    }

    /// Phase 3: on every cell holding more than one ship, the ship with
    /// strictly the least cargo survives and takes the cargo of the others
    /// (in board order); a tie for the least destroys them all. Owners do
    /// not matter.
    #[doc(hidden)]
    pub fn ship_collisions(&mut self) {
        self.occupant.clear_all();
        let mut crowded: Vec<usize> = Vec::new();
        for (i, s) in self.ships.iter().enumerate() {
            if !s.alive {
                continue;
            }
            if !self.occupant.is_taken(s.pos) {
                self.occupant.set(s.pos, i);
            } else if !crowded.contains(&s.pos) {
                crowded.push(s.pos);
            }
        }
        let mut group: Vec<usize> = Vec::new();
        for cell in crowded {
            group.clear();
            group.extend(
                self.ships
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.alive && s.pos == cell)
                    .map(|(i, _)| i),
            );
            let least = group
                .iter()
                .map(|&i| self.ships[i].halite)
                .reduce(|a, b| if b < a { b } else { a })
                .unwrap_or_default();
            let mut lightest = group.iter().filter(|&&i| self.ships[i].halite == least);
            let winner = match (lightest.next(), lightest.next()) {
                (Some(&w), None) => Some(w),
                _ => None,
            };
            for &i in &group {
                if Some(i) == winner {
                    continue;
                }
                self.ships[i].alive = false;
                if let Some(w) = winner {
                    let taken = self.ships[i].halite;
                    self.ships[w].halite = self.ships[w].halite + taken;
                }
            }
            match winner {
                Some(w) => self.occupant.set(cell, w),
                None => self.occupant.clear(cell),
            }
        }
    }

    /// Phase 4: a ship on another seat's shipyard destroys it and itself.
    #[doc(hidden)]
    pub fn ship_shipyard_collisions(&mut self) {
        for y in &mut self.shipyards {
            let Some(ship) = self.occupant.get(y.pos) else {
                continue;
            };
            if y.alive && self.ships[ship].owner != y.owner {
                y.alive = false;
                self.yard_at.clear(y.pos);
                self.ships[ship].alive = false;
                self.occupant.clear(y.pos);
            }
        }
    }

    /// Phase 5: a ship on its own seat's shipyard banks its cargo.
    #[doc(hidden)]
    pub fn deposit(&mut self) {
        for y in &self.shipyards {
            let Some(ship) = self.occupant.get(y.pos) else {
                continue;
            };
            if y.alive {
                let s = &mut self.ships[ship];
                if s.owner == y.owner {
                    self.banks[y.owner] = self.banks[y.owner] + s.halite;
                    s.halite = Num::Int(0);
                }
            }
        }
    }

    /// Phase 6: every ship that did not move and is not on a shipyard takes
    /// `int(cell * collectRate)` from its cell, if that is positive. Cargo
    /// has no cap. A refused `CONVERT` counts as not moving.
    #[doc(hidden)]
    pub fn mine(&mut self) {
        let rate = self.config.collect_rate;
        for s in &mut self.ships {
            if !s.alive {
                continue;
            }
            let delta = (self.halite[s.pos] * rate).int();
            if !is_move(s.action) && !self.yard_at.is_taken(s.pos) && delta > Num::Int(0) {
                s.halite = s.halite + delta;
                self.halite[s.pos] = self.halite[s.pos] - delta;
                self.mined[s.owner] = self.mined[s.owner] + delta;
            }
            s.action = None;
        }
    }

    /// Phase 7: every cell without a ship becomes
    /// `min(round(halite * (1 + regenRate), 3), maxCellHalite)`.
    #[doc(hidden)]
    pub fn regenerate(&mut self) {
        let factor = Num::Int(1) + self.config.regen_rate;
        let cap = Num::Int(self.config.max_cell_halite);
        for (cell, h) in self.halite.iter_mut().enumerate() {
            if !self.occupant.is_taken(cell) {
                *h = Num::py_min((*h * factor).round3(), cap);
            }
        }
    }

    /// Phase 8: the step counter, and the board as the next observation
    /// lists it: seat by seat, each seat's assets in the order it got them.
    #[doc(hidden)]
    pub fn advance_turn(&mut self) {
        self.step += 1;
        self.ships.retain(|s| s.alive);
        self.ships.sort_by_key(|s| s.owner);
        self.shipyards.retain(|y| y.alive);
        self.shipyards.sort_by_key(|y| y.owner);
        self.index_cells();
    }

    /// Phase 9: an active seat with no ship, and no shipyard or less than
    /// `spawnCost` banked, is done; its reward freezes at
    /// `step - episodeSteps - 1`. An invalid seat's assets and bank vanish.
    #[doc(hidden)]
    pub fn eliminate(&mut self) {
        let spawn_cost = Num::Int(self.config.spawn_cost);
        for seat in 0..self.players {
            if self.seats.is_active(seat)
                && !self.ships.iter().any(|s| s.owner == seat)
                && (!self.shipyards.iter().any(|y| y.owner == seat)
                    || self.banks[seat] < spawn_cost)
            {
                self.seats
                    .knock_out(seat, self.step, self.config.episode_steps);
            }
        }
        for seat in 0..self.players {
            if self.seats.status(seat).is_disqualified() {
                self.ships.retain(|s| s.owner != seat);
                self.shipyards.retain(|y| y.owner != seat);
                self.banks[seat] = Num::Int(0);
            }
        }
        self.index_cells();
    }

    /// Phase 10: with fewer than two active seats the game is over; the
    /// active one is done with its reward of the previous step.
    #[doc(hidden)]
    pub fn last_fleet_check(&mut self) {
        if self.seats.end_if_fewer_than_two_active() {
            self.ended = Some((EndReason::LastFleet, self.step));
        }
    }

    /// Phase 11, the reference's reward update: an active seat's reward is
    /// its bank, an invalid seat's is `null`, a done seat's stays.
    #[doc(hidden)]
    pub fn update_rewards(&mut self) {
        self.seats.update_rewards(&self.banks);
    }

    /// Phase 12, the reference's turn limit: after step `episodeSteps - 1`
    /// every active seat is done.
    #[doc(hidden)]
    pub fn turn_limit(&mut self) {
        if self
            .seats
            .end_at_step_limit(self.step, self.config.episode_steps)
            && self.ended.is_none()
        {
            self.ended = Some((EndReason::TurnLimit, self.step));
        }
    }

    /// Per seat, the final score: the reward, or for an invalid seat
    /// `-(episodeSteps + 1)`, below every elimination.
    pub fn final_scores(&self) -> Vec<f64> {
        self.seats.scores(self.config.episode_steps)
    }

    /// Per seat: ships plus shipyards now.
    pub fn asset_counts(&self) -> Vec<usize> {
        let mut counts = vec![0; self.players];
        for s in &self.ships {
            counts[s.owner] += 1;
        }
        for y in &self.shipyards {
            counts[y.owner] += 1;
        }
        counts
    }

    /// Placements by the ladder: score, then ships + shipyards, then halite
    /// mined, all higher is better; seats equal on all three share a place.
    pub fn placements(&self) -> Vec<u32> {
        let scores = self.final_scores();
        let counts = self.asset_counts();
        let key = |s: usize| (scores[s], counts[s], self.mined[s].to_f64());
        let better = |a: usize, b: usize| {
            let (ka, kb) = (key(a), key(b));
            ka.0.total_cmp(&kb.0)
                .then(ka.1.cmp(&kb.1))
                .then(ka.2.total_cmp(&kb.2))
                .is_gt()
        };
        (0..self.players)
            .map(|s| 1 + (0..self.players).filter(|&o| better(o, s)).count() as u32)
            .collect()
    }

    /// The outcome, once no seat is active.
    pub(crate) fn final_outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let scores = self.final_scores();
        let placements = self.placements();
        let why = match self.ended {
            Some((EndReason::LastFleet, step)) => {
                format!("fewer than two players active after step {step}")
            }
            Some((EndReason::TurnLimit, step)) => {
                format!("the episode's last step ({step}) was played")
            }
            None => format!("no player active after step {}", self.step),
        };
        let firsts: Vec<String> = (0..self.players)
            .filter(|&s| placements[s] == 1)
            .map(|s| format!("seat {s}"))
            .collect();
        let reason = if firsts.len() == 1 {
            format!("{why}: {} wins", firsts[0])
        } else {
            format!("{why}: a tie between {}", firsts.join(", "))
        };
        Some(Outcome {
            scores,
            placements,
            reason,
        })
    }
}
