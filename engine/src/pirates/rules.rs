//! One move, rule by rule, in the rule book's order:
//!
//! 1. [read the answer](Pirates::read_action), [checked](Pirates::check);
//!    an illegal one is [counted](Pirates::count_illegal_move)
//! 2. the action: [sail](Pirates::sail), [buy](Pirates::buy),
//!    [drink](Pirates::drink) or [fire](Pirates::fire)
//! 3. [a vortex's hold counts down](Pirates::count_down_whirlpool)
//! 4. [the flag](Pirates::take_flag), and [where it appears next](Pirates::place_next_flag)
//!
//! then, after the fourth seat's move, [the NPCs act](Pirates::npcs_act)
//! (in `npc.rs`); and [the outcome](Pirates::final_outcome).

use super::actions::{kind, parse_action, Action, Item};
use super::hex::Dir;
use super::{
    Hex, Pirates, Terrain, ATTACK_RANGE, CANNONS, FLAG_GOLD, HULLS, ILLEGAL_MOVES_PER_PENALTY,
    MAX_POTIONS, NPC_BOUNTY, NPC_IDS, PENALTY_PERCENT, PLAYERS, PLAYER_BOUNTY, POTION_PERCENT,
    POTION_PRICE, UPGRADE_PRICES, WHIRLPOOL_MOVES,
};
use crate::{Outcome, Rejection, Seat};

/// Why an action cannot be done: a refusal's kind and reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Illegal {
    pub kind: &'static str,
    pub reason: String,
}

fn illegal(kind: &'static str, reason: impl Into<String>) -> Illegal {
    Illegal {
        kind,
        reason: reason.into(),
    }
}

/// Every action some ship might take: the candidates `legal_actions` checks.
fn candidates() -> impl Iterator<Item = Action> {
    Dir::ALL
        .into_iter()
        .map(Action::Sail)
        .chain(Item::ALL.into_iter().map(Action::Buy))
        .chain(std::iter::once(Action::Drink))
        .chain((1..=PLAYERS as u64 + 2).map(Action::Attack))
}

impl Pirates {
    /// What `seat` may do now: nothing unless it is its move and its ship is
    /// in the game; otherwise every action [`Pirates::check`] accepts, in
    /// the order steps (`nw`, `ne`, `e`, `se`, `sw`, `w`), purchases
    /// (potion, hull, cannons), `up`, shots (`atk-1` to `atk-6`).
    pub fn legal_actions(&self, seat: Seat) -> Vec<Action> {
        if self.is_over() || seat != self.to_move() || !self.ships[seat].alive() {
            return Vec::new();
        }
        candidates()
            .filter(|&a| self.check(seat, a).is_ok())
            .collect()
    }

    /// Whether the ship of `seat` can do `action` now, and if not, why not.
    pub fn check(&self, seat: Seat, action: Action) -> Result<(), Illegal> {
        let ship = &self.ships[seat];
        match action {
            Action::Sail(d) => {
                let to = ship.pos.step(d);
                if ship.paralyzed() {
                    return Err(illegal(
                        kind::PARALYZED,
                        format!(
                            "a vortex holds the ship for {} more of its moves; it may fire, \
                             drink or buy, but not sail",
                            ship.whirlpool
                        ),
                    ));
                }
                if !to.on_sea() {
                    return Err(illegal(kind::OFF_THE_SEA, format!("{to} is off the sea")));
                }
                if !self.terrain(to).passable() {
                    return Err(illegal(kind::ISLAND, format!("{to} is an island")));
                }
                if self.occupied(to) {
                    return Err(illegal(kind::OCCUPIED, format!("a ship is on {to}")));
                }
                Ok(())
            }
            Action::Buy(item) => {
                if !self.next_to_shop(ship.pos) {
                    return Err(illegal(
                        kind::NOT_AT_SHOP,
                        "ships buy only on a field next to a shop",
                    ));
                }
                let (price, bought, limit) = match item {
                    Item::Potion => (POTION_PRICE, ship.potions, MAX_POTIONS),
                    Item::Hull => (
                        upgrade_price(ship.hull_level),
                        u32::from(ship.hull_level),
                        UPGRADE_PRICES.len() as u32,
                    ),
                    Item::Cannons => (
                        upgrade_price(ship.cannon_level),
                        u32::from(ship.cannon_level),
                        UPGRADE_PRICES.len() as u32,
                    ),
                };
                if bought >= limit {
                    let what = match item {
                        Item::Potion => "a ship carries at most 3 potions",
                        Item::Hull => "the hull has had both its upgrades",
                        Item::Cannons => "the cannons have had both their upgrades",
                    };
                    return Err(illegal(kind::LIMIT_REACHED, what));
                }
                if ship.gold < price {
                    return Err(illegal(
                        kind::NOT_ENOUGH_GOLD,
                        format!("it costs {price} gold and the ship has {}", ship.gold),
                    ));
                }
                Ok(())
            }
            Action::Drink => {
                if ship.potions == 0 {
                    return Err(illegal(kind::NO_POTION, "the ship has no potion"));
                }
                Ok(())
            }
            Action::Attack(id) => {
                let Some(target) = self.target_pos(seat, id) else {
                    return Err(illegal(
                        kind::NO_SUCH_TARGET,
                        format!(
                            "there is no ship {id} to fire at: players are 1 to 4, the NPCs 5 \
                             and 6, a ship cannot fire at itself, and eliminated ships are gone"
                        ),
                    ));
                };
                if ship.pos.distance(target) > ATTACK_RANGE {
                    // No distance: the ship may be out of sight.
                    return Err(illegal(
                        kind::OUT_OF_RANGE,
                        format!("ship {id} is more than {ATTACK_RANGE} fields away"),
                    ));
                }
                Ok(())
            }
        }
    }

    /// Where the ship `id` that `seat` may fire at is: another player's ship
    /// or an NPC, still in the game.
    fn target_pos(&self, seat: Seat, id: u64) -> Option<Hex> {
        if let Some(s) = Self::seat_of(id) {
            let ship = &self.ships[s];
            return (s != seat && ship.alive()).then_some(ship.pos);
        }
        let k = NPC_IDS.iter().position(|&n| n == id)?;
        self.npcs[k].alive.then_some(self.npcs[k].pos)
    }

    /// Whether a field next to `h` holds a shop.
    pub fn next_to_shop(&self, h: Hex) -> bool {
        h.neighbours().any(|n| self.terrain(n) == Terrain::Shop)
    }

    /// Rule 1: the answer of the ship to move, read and checked. A ship
    /// that can do nothing is not asked and its move passes. Otherwise no
    /// answer, or one that is not an action, or an action it cannot do,
    /// is an illegal move: counted, and nothing is done.
    pub fn read_action(
        &mut self,
        seat: Seat,
        answer: Option<&str>,
        rejections: &mut Vec<Rejection>,
    ) -> Option<Action> {
        if self.legal_actions(seat).is_empty() {
            return None;
        }
        let refusal = match answer.map(parse_action) {
            None => None,
            Some(Err(reason)) => Some(illegal(kind::UNPARSEABLE, reason)),
            Some(Ok(a)) => match self.check(seat, a) {
                Ok(()) => return Some(a),
                Err(Illegal { kind, reason }) => {
                    Some(illegal(kind, format!("{}: {reason}", a.name())))
                }
            },
        };
        let count = self.count_illegal_move(seat);
        if let Some(r) = refusal {
            rejections.push(Rejection {
                seat,
                kind: r.kind.into(),
                reason: format!(
                    "{}; illegal move {count} of this ship (every {ILLEGAL_MOVES_PER_PENALTY}th \
                     costs {PENALTY_PERCENT}% of its maximum health)",
                    r.reason
                ),
            });
        }
        None
    }

    /// Counts an illegal move of `seat`; every tenth costs 5% of maximum
    /// health, which may sink the ship. Returns the count.
    pub fn count_illegal_move(&mut self, seat: Seat) -> u32 {
        let ship = &mut self.ships[seat];
        ship.illegal_moves += 1;
        let count = ship.illegal_moves;
        if count.is_multiple_of(ILLEGAL_MOVES_PER_PENALTY) {
            let penalty = ship.max_health * PENALTY_PERCENT / 100;
            self.damage_ship(seat, penalty, None);
        }
        count
    }

    /// Rule 2: does a checked action.
    pub fn act(&mut self, seat: Seat, action: Action) {
        match action {
            Action::Sail(d) => self.sail(seat, d),
            Action::Buy(item) => self.buy(seat, item),
            Action::Drink => self.drink(seat),
            Action::Attack(id) => self.fire(seat, id),
        }
    }

    /// One field towards `dir`; sailing into a vortex paralyzes the ship for
    /// its next 3 moves.
    pub fn sail(&mut self, seat: Seat, dir: Dir) {
        let to = self.ships[seat].pos.step(dir);
        let vortex = self.terrain(to) == Terrain::Vortex;
        let ship = &mut self.ships[seat];
        ship.pos = to;
        if vortex {
            ship.whirlpool = WHIRLPOOL_MOVES;
        }
    }

    /// A potion (150 gold), or the next upgrade of the hull (maximum health
    /// 400, 600, 1000; health rises by as much) or of the cannons (100, 150,
    /// 250), for 200 gold, then 300.
    pub fn buy(&mut self, seat: Seat, item: Item) {
        let ship = &mut self.ships[seat];
        match item {
            Item::Potion => {
                ship.gold -= POTION_PRICE;
                ship.potions += 1;
            }
            Item::Hull => {
                ship.gold -= upgrade_price(ship.hull_level);
                ship.hull_level += 1;
                let new = HULLS[usize::from(ship.hull_level)];
                ship.health += new.saturating_sub(ship.max_health);
                ship.max_health = new;
            }
            Item::Cannons => {
                ship.gold -= upgrade_price(ship.cannon_level);
                ship.cannon_level += 1;
                ship.cannons = CANNONS[usize::from(ship.cannon_level)];
            }
        }
    }

    /// `up`: a potion gives 10% of maximum health, up to the maximum.
    pub fn drink(&mut self, seat: Seat) {
        let ship = &mut self.ships[seat];
        ship.potions -= 1;
        ship.health = (ship.health + ship.max_health * POTION_PERCENT / 100).min(ship.max_health);
    }

    /// `atk-X`: the target loses as much health as the attacker has cannons.
    /// Eliminating a player pays 250 gold, an NPC 300; an NPC fired at
    /// chases its attacker.
    pub fn fire(&mut self, seat: Seat, id: u64) {
        let damage = self.ships[seat].cannons;
        if let Some(target) = Self::seat_of(id) {
            self.damage_ship(target, damage, Some(seat));
            return;
        }
        let Some(k) = NPC_IDS.iter().position(|&n| n == id) else {
            return;
        };
        let npc = &mut self.npcs[k];
        npc.health = npc.health.saturating_sub(damage);
        npc.target = Some(seat);
        if npc.health == 0 {
            npc.alive = false;
            npc.target = None;
            self.ships[seat].gold += NPC_BOUNTY;
        }
    }

    /// Takes `damage` from a ship; at 0 health it is eliminated, and the
    /// player `by` (if a player did it) gets the bounty.
    pub(crate) fn damage_ship(&mut self, seat: Seat, damage: u32, by: Option<Seat>) {
        let order = 1 + self
            .ships
            .iter()
            .filter_map(|s| s.eliminated)
            .max()
            .unwrap_or(0);
        let ship = &mut self.ships[seat];
        if !ship.alive() {
            return;
        }
        ship.health = ship.health.saturating_sub(damage);
        if ship.health == 0 {
            ship.eliminated = Some(order);
            ship.whirlpool = 0;
            if let Some(by) = by {
                self.ships[by].gold += PLAYER_BOUNTY;
            }
        }
    }

    /// Rule 3: a ship that was held by a vortex at the start of its move
    /// has one move fewer to wait.
    pub fn count_down_whirlpool(&mut self, seat: Seat) {
        let ship = &mut self.ships[seat];
        ship.whirlpool = ship.whirlpool.saturating_sub(1);
    }

    /// Rule 4: a ship next to the flag's island at the end of its move takes
    /// the flag and its 500 gold, and the flag appears elsewhere.
    pub fn take_flag(&mut self, seat: Seat) {
        let ship = &self.ships[seat];
        if !ship.alive() || ship.pos.distance(self.flag) != 1 {
            return;
        }
        self.ships[seat].gold += FLAG_GOLD;
        self.flag = self.place_next_flag();
    }

    /// Where a taken flag appears next: on another flag island, drawn from
    /// the seeded stream of this move. Nothing of where the ships are goes
    /// into the draw, so where the flag appears tells no seat anything of
    /// ships it cannot see.
    pub fn place_next_flag(&self) -> Hex {
        let others: Vec<Hex> = self
            .map
            .flag_islands
            .iter()
            .copied()
            .filter(|&f| f != self.flag)
            .collect();
        let bytes = crate::rng::derive(self.seed, &format!("pirates/flag/move-{}", self.moves));
        let draw = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
        others[(draw % others.len() as u64) as usize]
    }

    /// The end: the last ship afloat wins, and the others are placed by the
    /// order they were eliminated in (the later, the better). After the last
    /// move, the ships afloat are placed above those eliminated, by gold,
    /// then health, then cannons; ships equal on all three share a place.
    /// The score is the gold each ship holds.
    pub fn final_outcome(&self) -> Outcome {
        let keys: Vec<(u8, u64, u32, u32)> = self
            .ships
            .iter()
            .map(|s| match s.eliminated {
                None => (1, s.gold, s.health, s.cannons),
                Some(order) => (0, u64::from(order), 0, 0),
            })
            .collect();
        let placements = crate::grid::placements_by(&keys);
        let scores = self.ships.iter().map(|s| s.gold as f64).collect();
        let afloat: Vec<Seat> = (0..PLAYERS).filter(|&s| self.ships[s].alive()).collect();
        let first: Vec<Seat> = (0..PLAYERS).filter(|&s| placements[s] == 1).collect();
        let reason = if let [w] = afloat[..] {
            format!("seat {w} is the last ship afloat")
        } else if let [w] = first[..] {
            let (gold, health) = (keys[w].1, keys[w].2);
            let rivals = || afloat.iter().filter(move |&&s| s != w);
            let decided = if !rivals().any(|&s| keys[s].1 == gold) {
                "the most gold".to_string()
            } else if !rivals().any(|&s| keys[s].1 == gold && keys[s].2 == health) {
                format!("the most health of the ships with {gold} gold")
            } else {
                format!("the most cannons of the ships with {gold} gold and {health} health")
            };
            format!(
                "move limit ({}) reached: seat {w} has {decided}",
                self.max_moves
            )
        } else {
            let list: Vec<String> = first.iter().map(|s| s.to_string()).collect();
            format!(
                "move limit ({}) reached: a draw between seats {}, equal on gold, health and \
                 cannons",
                self.max_moves,
                list.join(", ")
            )
        };
        Outcome {
            scores,
            placements,
            reason,
        }
    }
}

/// The price of the upgrade after `level` upgrades (only asked below 2).
fn upgrade_price(level: u8) -> u64 {
    UPGRADE_PRICES[usize::from(level).min(UPGRADE_PRICES.len() - 1)]
}
