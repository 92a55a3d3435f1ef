//! Conquest: what a team sees ([`Observation`]) and answers ([`Action`]).
//!
//! Four teams on a 12×12 board with mirrored walls, each with one robot,
//! a capital, soldiers (attack, defense, reserve) and gold. Step into
//! neutral land and it is yours after one more turn; step into enemy land
//! and a battle is fought there over two turns; take a capital and its team
//! is out (+300 points). Your robot must stay joined to its capital through
//! your own land. Build mines, barracks and defense posts, fire bombs,
//! missiles, MIRVs and H-bombs at enemy cells you see, move your capital.
//! You see only your land and the cells next to it. +1 point a cell a
//! turn; the last team alive wins, else the most points after 300 turns.
//!
//! ```
//! use ludus_sdk::conquest::{Action, BuildingKind, Observation};
//!
//! /// The rule book's sample bot.
//! fn act(obs: &Observation) -> Action {
//!     if obs.me.busy {
//!         return Action::Wait; // claiming, fighting or building
//!     }
//!     for a in [Action::East, Action::South, Action::Build(BuildingKind::Mine)] {
//!         if obs.is_legal(&a) {
//!             return a;
//!         }
//!     }
//!     Action::Wait
//! }
//! ```
//!
//! An [`Action`] is sent as the rule book's string (`"BUILD MINE"`,
//! `"MIRV 1 2 3 4"`), and `legal_actions` reads back into actions.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::grid::{distance, neighbours, Pos};

/// The turn's phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The choose mode's turn 0: answer `CAPITAL x y` (or `WAIT`).
    Setup,
    Play,
}

/// What a team sees at the start of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Observation {
    pub turn: u32,
    /// Play turns still to come.
    pub turns_remaining: u32,
    pub width: usize,
    pub height: usize,
    pub phase: Phase,
    /// On the setup turn: the cells you may pick for your capital.
    pub capital_choices: Vec<Pos>,
    /// `owner[y][x]`: `None` never seen, `Some(-1)` neutral (walls too),
    /// else the owning team, as last seen.
    pub owner: Vec<Vec<Option<i32>>>,
    /// `seen[y][x]`: the turn you last saw the cell (`== turn`: in view now),
    /// -1 never.
    pub seen: Vec<Vec<i64>>,
    pub walls: Vec<Pos>,
    /// `region[y][x]`: the quarter (0 top-left, 1 top-right, 2 bottom-right,
    /// 3 bottom-left).
    pub region: Vec<Vec<usize>>,
    /// The capitals you have found (yours too), of teams still in.
    pub capitals: Vec<Capital>,
    /// Cells you know were capitals once: weapons never touch them.
    pub former_capitals: Vec<Pos>,
    /// The buildings you know of, as last seen.
    pub buildings: Vec<Building>,
    /// The parked soldiers you know of, as last seen.
    pub garrisons: Vec<Garrison>,
    /// You.
    #[serde(rename = "self")]
    pub me: Me,
    /// Enemy robots in view.
    pub robots: Vec<Robot>,
    /// The battles you are in.
    pub battles: Vec<Battle>,
    /// Per team: still in the game.
    pub alive: Vec<bool>,
    /// The rules' numbers.
    pub rules: Rules,
    /// What you may answer now (`ALLOCATE`, `GARRISON`, `WITHDRAW` and `MIRV`
    /// with example numbers: see [`Observation::is_legal`]).
    pub legal_actions: Vec<Action>,
}

impl crate::FromJson for Observation {}

/// A capital you have found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capital {
    pub team: usize,
    pub position: Pos,
}

/// A kind of building.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BuildingKind {
    /// +3 gold a turn (60 gold, 1 turn).
    Mine,
    /// +12 soldiers a turn (70 gold, 3 turns).
    Barracks,
    /// Cells next to it defend ×1.4 (45 gold, 2 turns).
    Post,
}

impl BuildingKind {
    pub const ALL: [BuildingKind; 3] = [
        BuildingKind::Mine,
        BuildingKind::Barracks,
        BuildingKind::Post,
    ];

    fn word(self) -> &'static str {
        match self {
            BuildingKind::Mine => "MINE",
            BuildingKind::Barracks => "BARRACKS",
            BuildingKind::Post => "POST",
        }
    }
}

/// A building you know of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Building {
    pub position: Pos,
    pub team: usize,
    pub kind: BuildingKind,
    /// Finished (under construction it does nothing yet).
    pub ready: bool,
}

/// Soldiers parked on a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Garrison {
    pub position: Pos,
    pub team: usize,
    pub soldiers: u64,
}

/// What a robot is busy with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskKind {
    Claiming,
    Fighting,
    Sieging,
    Building,
    Relocating,
}

/// Your robot's task: what, where (the cell claimed, fought over, besieged,
/// built on or relocated to), and the turns left, this one included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    pub kind: TaskKind,
    pub position: Pos,
    pub turns_left: u32,
}

/// Your soldiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    /// Travelling with your robot.
    pub attack: u64,
    /// Free defense (65% of it goes to each turn's new battles against you).
    pub defense: u64,
    /// New soldiers arrive here; it joins your battles in their second turn.
    pub reserve: u64,
    /// Parked on your cells.
    pub garrisoned: u64,
    /// Defense and reserve away in battles.
    pub in_battle: u64,
}

/// What you earn each turn.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Income {
    pub soldiers: f64,
    pub gold: f64,
}

/// A weapon's line of the rule book's table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaponRule {
    pub cost: u64,
    /// Farthest target, in steps from your robot.
    pub range: u32,
    /// Blast radius: a square of side `2 × blast + 1` round each target.
    pub blast: u32,
    pub damage: u64,
    pub cooldown: u32,
    /// Most targets of one shot.
    pub targets: usize,
}

/// One of your weapons: when it is ready, and its line of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WeaponState {
    /// Turns before it may fire (0: now).
    pub ready_in: u32,
    #[serde(flatten)]
    pub rule: WeaponRule,
}

/// The four weapons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weapons<W> {
    pub bomb: W,
    pub missile: W,
    pub mirv: W,
    pub hbomb: W,
}

impl<W> Weapons<W> {
    pub fn get(&self, w: Weapon) -> &W {
        match w {
            Weapon::Bomb => &self.bomb,
            Weapon::Missile => &self.missile,
            Weapon::Mirv => &self.mirv,
            Weapon::Hbomb => &self.hbomb,
        }
    }
}

/// You.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Me {
    pub team: usize,
    pub alive: bool,
    /// Where your robot stands.
    pub position: Pos,
    pub capital: Pos,
    pub army: Army,
    pub gold: u64,
    pub income: Income,
    /// Claiming, fighting, besieging, building or relocating: only `WAIT`.
    pub busy: bool,
    pub task: Option<Task>,
    /// Your robot is joined to your capital.
    pub supplied: bool,
    /// Points so far.
    pub score: u64,
    /// Cells you own.
    pub cells: usize,
    /// Turns in a row you answered nothing (5 puts you out).
    pub silent_turns: u32,
    pub weapons: Weapons<WeaponState>,
    /// Turns before `RELOCATE` is allowed again.
    pub relocate_ready_in: u32,
}

/// An enemy robot in view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Robot {
    pub team: usize,
    pub position: Pos,
    pub attack: u64,
    pub task: Option<TaskKind>,
}

/// A battle you are in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Battle {
    pub position: Pos,
    /// Where the attacker stepped from (a besieger stands there).
    pub from: Pos,
    pub attacker: usize,
    pub defender: usize,
    pub siege: bool,
    pub turns_left: u32,
    /// The attacker's soldiers.
    pub attack: u64,
    /// Defense sent by the defender.
    pub defense: u64,
    /// Reserve joined (in the battle's second turn).
    pub reserve: u64,
    /// Soldiers parked on the cell.
    pub garrison: u64,
    /// The defender's multiplier as far as you see (1.6 on a capital, 1.4
    /// with a finished post of the defender on the cell or next to it that
    /// you see now): a besieger may not see every cell next to the capital.
    pub multiplier: f64,
}

/// An income line of the rules, per turn.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IncomeRule {
    pub base: f64,
    pub per_cell: f64,
    pub per_building: f64,
    pub per_quarter: f64,
}

/// Soldiers' and gold's income rules.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IncomeRules {
    pub soldiers: IncomeRule,
    pub gold: IncomeRule,
}

/// A building's cost and turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildingRule {
    pub cost: u64,
    pub turns: u32,
}

/// The three buildings' rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildingRules {
    pub mine: BuildingRule,
    pub barracks: BuildingRule,
    pub post: BuildingRule,
}

/// `RELOCATE`'s rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelocateRule {
    pub cost: u64,
    pub turns: u32,
    /// Turns from one to the next.
    pub every: u32,
}

/// The rules' numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    pub version: u32,
    pub max_turns: u32,
    pub quiet_turns: u32,
    pub defense_sent: f64,
    pub battle_turns: u32,
    pub capital_defense: f64,
    pub post_defense: f64,
    pub capital_points: u64,
    pub silent_turns_out: u32,
    pub income: IncomeRules,
    pub buildings: BuildingRules,
    pub weapons: Weapons<WeaponRule>,
    pub relocate: RelocateRule,
}

/// A weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Weapon {
    Bomb,
    Missile,
    Mirv,
    Hbomb,
}

impl Weapon {
    pub const ALL: [Weapon; 4] = [Weapon::Bomb, Weapon::Missile, Weapon::Mirv, Weapon::Hbomb];

    fn word(self) -> &'static str {
        match self {
            Weapon::Bomb => "BOMB",
            Weapon::Missile => "MISSILE",
            Weapon::Mirv => "MIRV",
            Weapon::Hbomb => "HBOMB",
        }
    }
}

/// An answer, sent as the rule book's string.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Action {
    North,
    East,
    South,
    West,
    #[default]
    Wait,
    Build(BuildingKind),
    /// Shares of attack, defense and reserve (divided by their sum); on
    /// your capital only.
    Allocate {
        attack: f64,
        defense: f64,
        reserve: f64,
    },
    /// Park reserve soldiers on the cell you stand on.
    Garrison(u64),
    /// Take parked soldiers back to the reserve.
    Withdraw(u64),
    /// Fire at these cells (up to 3 different ones for the MIRV, 1 for the
    /// others); none: the game aims.
    Fire(Weapon, Vec<Pos>),
    /// Move your capital to the cell you stand on.
    Relocate,
    /// The setup turn: your capital's cell.
    Capital(Pos),
}

impl Action {
    /// The four moves, in the rule book's order.
    pub const MOVES: [Action; 4] = [Action::North, Action::East, Action::South, Action::West];

    /// The grid games' move of the same direction, for a move.
    fn grid_move(&self) -> Option<crate::grid::Action> {
        use crate::grid::Action as Grid;
        Some(match self {
            Action::North => Grid::North,
            Action::East => Grid::East,
            Action::South => Grid::South,
            Action::West => Grid::West,
            _ => return None,
        })
    }

    /// The step `(dx, dy)` of a move; `None` for the other actions.
    pub fn delta(&self) -> Option<(i64, i64)> {
        self.grid_move()?.delta()
    }

    /// The cell a move from `from` leads to on a `width` × `height` board.
    pub fn from(&self, from: Pos, width: usize, height: usize) -> Option<Pos> {
        self.grid_move()?.from(from, width, height)
    }

    /// The move from `a` to its neighbour `b`.
    pub fn towards(a: Pos, b: Pos) -> Option<Action> {
        use crate::grid::Action as Grid;
        Some(match crate::grid::Action::towards(a, b)? {
            Grid::North => Action::North,
            Grid::East => Action::East,
            Grid::South => Action::South,
            _ => Action::West,
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::North => f.write_str("NORTH"),
            Action::East => f.write_str("EAST"),
            Action::South => f.write_str("SOUTH"),
            Action::West => f.write_str("WEST"),
            Action::Wait => f.write_str("WAIT"),
            Action::Relocate => f.write_str("RELOCATE"),
            Action::Build(k) => write!(f, "BUILD {}", k.word()),
            Action::Allocate {
                attack,
                defense,
                reserve,
            } => write!(f, "ALLOCATE {attack} {defense} {reserve}"),
            Action::Garrison(n) => write!(f, "GARRISON {n}"),
            Action::Withdraw(n) => write!(f, "WITHDRAW {n}"),
            Action::Capital([x, y]) => write!(f, "CAPITAL {x} {y}"),
            Action::Fire(w, targets) => {
                f.write_str(w.word())?;
                for [x, y] in targets {
                    write!(f, " {x} {y}")?;
                }
                Ok(())
            }
        }
    }
}

/// Why a string is not an [`Action`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseActionError(pub String);

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a conquest action: {:?}", self.0)
    }
}

impl std::error::Error for ParseActionError {}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Reads the rule book's strings (in any case).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseActionError(s.to_string());
        let words: Vec<String> = s.split_whitespace().map(str::to_ascii_uppercase).collect();
        let nums = |from: usize| -> Result<Vec<usize>, ParseActionError> {
            words[from..]
                .iter()
                .map(|w| w.parse().map_err(|_| err()))
                .collect()
        };
        let Some(head) = words.first() else {
            return Err(err());
        };
        let plain = |a: Action| if words.len() == 1 { Ok(a) } else { Err(err()) };
        match head.as_str() {
            "NORTH" | "N" => plain(Action::North),
            "EAST" | "E" => plain(Action::East),
            "SOUTH" | "S" => plain(Action::South),
            "WEST" | "W" => plain(Action::West),
            "WAIT" => plain(Action::Wait),
            "RELOCATE" => plain(Action::Relocate),
            "BUILD" if words.len() == 2 => BuildingKind::ALL
                .into_iter()
                .find(|k| k.word() == words[1])
                .map(Action::Build)
                .ok_or_else(err),
            "ALLOCATE" if words.len() == 4 => {
                let f = |i: usize| words[i].parse::<f64>().map_err(|_| err());
                Ok(Action::Allocate {
                    attack: f(1)?,
                    defense: f(2)?,
                    reserve: f(3)?,
                })
            }
            "GARRISON" | "WITHDRAW" if words.len() == 2 => {
                let n = words[1].parse().map_err(|_| err())?;
                Ok(if head == "GARRISON" {
                    Action::Garrison(n)
                } else {
                    Action::Withdraw(n)
                })
            }
            "CAPITAL" if words.len() == 3 => {
                let n = nums(1)?;
                Ok(Action::Capital([n[0], n[1]]))
            }
            w => {
                let weapon = Weapon::ALL
                    .into_iter()
                    .find(|x| x.word() == w || (w == "H-BOMB" && *x == Weapon::Hbomb))
                    .ok_or_else(err)?;
                let n = nums(1)?;
                if n.len() % 2 != 0 {
                    return Err(err());
                }
                Ok(Action::Fire(
                    weapon,
                    n.chunks(2).map(|p| [p[0], p[1]]).collect(),
                ))
            }
        }
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Observation {
    /// The owner of `p` as you know it: `None` for neutral, unknown or a wall.
    pub fn owner(&self, p: Pos) -> Option<usize> {
        self.owner[p[1]][p[0]].and_then(|o| usize::try_from(o).ok())
    }

    /// Whether you have ever seen `p`.
    pub fn known(&self, p: Pos) -> bool {
        self.owner[p[1]][p[0]].is_some()
    }

    /// Whether you see `p` now.
    pub fn in_view(&self, p: Pos) -> bool {
        self.seen[p[1]][p[0]] == i64::from(self.turn)
    }

    pub fn is_mine(&self, p: Pos) -> bool {
        self.owner(p) == Some(self.me.team)
    }

    pub fn is_wall(&self, p: Pos) -> bool {
        self.walls.contains(&p)
    }

    /// The on-board neighbours of `p`.
    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> {
        neighbours(p, self.width, self.height)
    }

    /// The capital of `team` as you know it.
    pub fn capital_of(&self, team: usize) -> Option<Pos> {
        self.capitals
            .iter()
            .find(|c| c.team == team)
            .map(|c| c.position)
    }

    /// The building you know of on `p`.
    pub fn building_at(&self, p: Pos) -> Option<&Building> {
        self.buildings.iter().find(|b| b.position == p)
    }

    /// Whether the game accepts `a` now: it is in `legal_actions`, or it is
    /// an `ALLOCATE` (any shares, not all 0) when one is listed, a
    /// `GARRISON` / `WITHDRAW` of 1 up to the number listed, or a `MIRV` at
    /// up to three different cells among the listed `MIRV x y`.
    pub fn is_legal(&self, a: &Action) -> bool {
        if self.legal_actions.contains(a) {
            return true;
        }
        let listed = |f: &dyn Fn(&Action) -> bool| self.legal_actions.iter().any(f);
        match a {
            Action::Allocate {
                attack,
                defense,
                reserve,
            } => {
                let s = [*attack, *defense, *reserve];
                listed(&|l| matches!(l, Action::Allocate { .. }))
                    && s.iter().all(|v| v.is_finite() && *v >= 0.0)
                    && s.iter().any(|v| *v > 0.0)
            }
            Action::Garrison(n) => {
                listed(&|l| matches!(l, Action::Garrison(m) if (1..=*m).contains(n)))
            }
            Action::Withdraw(n) => {
                listed(&|l| matches!(l, Action::Withdraw(m) if (1..=*m).contains(n)))
            }
            Action::Fire(Weapon::Mirv, targets) if !targets.is_empty() && targets.len() <= 3 => {
                let distinct = targets
                    .iter()
                    .enumerate()
                    .all(|(i, t)| !targets[..i].contains(t));
                distinct
                    && targets.iter().all(|t| {
                        self.legal_actions
                            .contains(&Action::Fire(Weapon::Mirv, vec![*t]))
                    })
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_write_and_read_the_rule_books_strings() {
        for (a, text) in [
            (Action::East, "EAST"),
            (Action::Build(BuildingKind::Post), "BUILD POST"),
            (
                Action::Allocate {
                    attack: 0.5,
                    defense: 0.35,
                    reserve: 0.15,
                },
                "ALLOCATE 0.5 0.35 0.15",
            ),
            (Action::Garrison(100), "GARRISON 100"),
            (
                Action::Fire(Weapon::Mirv, vec![[1, 2], [3, 4]]),
                "MIRV 1 2 3 4",
            ),
            (Action::Fire(Weapon::Hbomb, vec![]), "HBOMB"),
            (Action::Capital([2, 3]), "CAPITAL 2 3"),
        ] {
            assert_eq!(a.to_string(), text);
            assert_eq!(text.parse::<Action>(), Ok(a.clone()));
            assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{text}\""));
        }
        assert!("BOMB 1".parse::<Action>().is_err());
        assert!("FLY".parse::<Action>().is_err());
        assert_eq!(
            "h-bomb 1 1".parse::<Action>(),
            Ok(Action::Fire(Weapon::Hbomb, vec![[1, 1]]))
        );
    }
}
