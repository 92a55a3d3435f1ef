//! What a team sees (rule 13 and "What you get each turn"), written straight
//! into the caller's reused `String`; and the whole state for spectators.
//!
//! A team's observation is made of three things only: its own team, what
//! it sees now (its land, its robot's cell and the cells next to them), and
//! what it remembers. Where a cell is out of view, `owner`, `seen`,
//! `buildings`, `garrisons` and `capitals` are what it last saw.

use std::fmt::Write;

use serde_json::{json, Value};

use super::legal::SeatView;
use super::{BuildingKind, Conquest, Sighting, Task, Weapon, BATTLE_TURNS};
use super::{CAPITAL_DEFENSE_PERCENT, CAPITAL_POINTS, DEFENSE_SENT_PERCENT, GOLD_INCOME};
use super::{POST_DEFENSE_PERCENT, RELOCATE_COST, RELOCATE_EVERY, RELOCATE_TURNS};
use super::{SILENT_TURNS_OUT, SOLDIER_INCOME};
use crate::grid::observe::write_int;
use crate::grid::{write_cell, write_grid, Board, PLAYERS};
use crate::Seat;

/// `n` hundredths as a JSON number (`7.4`, `3.0`), as serde_json writes an f64.
fn write_cents(out: &mut String, n: u64) {
    write_f64(out, n as f64 / 100.0);
}

fn write_f64(out: &mut String, v: f64) {
    match serde_json::Number::from_f64(v) {
        Some(n) => out.push_str(&n.to_string()),
        None => out.push_str("null"),
    }
}

fn cents(n: u64) -> f64 {
    n as f64 / 100.0
}

/// The rules' numbers, as the state's `rules` gives them.
pub(crate) fn rules_json(max_turns: u32, quiet_turns: u32) -> String {
    let income = |i: super::Income| {
        json!({
            "base": cents(i.base),
            "per_cell": cents(i.per_cell),
            "per_building": cents(i.per_building),
            "per_quarter": cents(i.per_quarter),
        })
    };
    let mut buildings = serde_json::Map::new();
    for k in BuildingKind::ALL {
        buildings.insert(
            k.name().into(),
            json!({"cost": k.cost(), "turns": k.turns()}),
        );
    }
    let mut weapons = serde_json::Map::new();
    for w in Weapon::ALL {
        let s = w.spec();
        weapons.insert(
            w.name().into(),
            json!({"cost": s.cost, "range": s.range, "blast": s.blast, "damage": s.damage,
                   "cooldown": s.cooldown, "targets": s.targets}),
        );
    }
    json!({
        "version": super::INFO.rules_version,
        "max_turns": max_turns,
        "quiet_turns": quiet_turns,
        "defense_sent": DEFENSE_SENT_PERCENT as f64 / 100.0,
        "battle_turns": BATTLE_TURNS,
        "capital_defense": CAPITAL_DEFENSE_PERCENT as f64 / 100.0,
        "post_defense": POST_DEFENSE_PERCENT as f64 / 100.0,
        "capital_points": CAPITAL_POINTS,
        "silent_turns_out": SILENT_TURNS_OUT,
        "income": {"soldiers": income(SOLDIER_INCOME), "gold": income(GOLD_INCOME)},
        "buildings": Value::Object(buildings),
        "weapons": Value::Object(weapons),
        "relocate": {"cost": RELOCATE_COST, "turns": RELOCATE_TURNS, "every": RELOCATE_EVERY},
    })
    .to_string()
}

fn write_seat_list(out: &mut String, key: &str, list: impl Iterator<Item = bool>) {
    let _ = write!(out, ",\"{key}\":[");
    for (k, v) in list.enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(if v { "true" } else { "false" });
    }
    out.push(']');
}

/// Writes a comma-separated list of items, each by `item`.
fn write_list<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut item: impl FnMut(&mut String, T),
) {
    out.push('[');
    for (k, v) in items.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        item(out, v);
    }
    out.push(']');
}

impl Conquest {
    /// Turns left of a task, counting this one.
    fn turns_left(&self, done_on: u32) -> u32 {
        (done_on + 1).saturating_sub(self.turn)
    }

    /// `{"kind":...,"position":[x,y],"turns_left":n}` or `null`.
    fn write_task(&self, out: &mut String, seat: Seat) {
        let t = &self.teams[seat];
        let b = self.board;
        let Some(name) = t.task.name() else {
            out.push_str("null");
            return;
        };
        let (cell, done_on) = match t.task {
            Task::Idle => unreachable!("named"),
            Task::Claiming { done_on, .. } => (t.position, done_on),
            Task::Fighting { .. } => (t.position, self.battle_end(t.position)),
            Task::Sieging { target } => (target, self.battle_end(target)),
            Task::Building { done_on, .. } | Task::Relocating { done_on } => (t.position, done_on),
        };
        let _ = write!(out, "{{\"kind\":\"{name}\",\"position\":");
        write_cell(out, b, cell);
        let _ = write!(out, ",\"turns_left\":{}}}", self.turns_left(done_on));
    }

    fn battle_end(&self, cell: usize) -> u32 {
        self.battle_at(cell).map_or(self.turn, |b| b.ends_on())
    }

    /// One battle. Its multiplier counts the posts on cells `seen` holds
    /// for: a besieger may not see every cell next to the capital it
    /// besieges, and is told the multiplier of what it sees.
    fn write_battle(&self, out: &mut String, b: &super::Battle, seen: impl Fn(usize) -> bool) {
        let board = self.board;
        out.push_str("{\"position\":");
        write_cell(out, board, b.cell);
        out.push_str(",\"from\":");
        write_cell(out, board, b.from);
        let _ = write!(
            out,
            ",\"attacker\":{},\"defender\":{},\"siege\":{},\"turns_left\":{},\"attack\":{},\
             \"defense\":{},\"reserve\":{},\"garrison\":{},\"multiplier\":",
            b.attacker,
            b.defender,
            b.siege,
            self.turns_left(b.ends_on()),
            self.teams[b.attacker].attack,
            b.defense,
            b.reserve,
            self.garrison[b.cell],
        );
        let percent = self.defense_percent_seen(b.cell, b.defender, seen);
        write_f64(out, percent as f64 / 100.0);
        out.push('}');
    }

    fn write_self(&self, out: &mut String, seat: Seat, view: &SeatView) {
        let b = self.board;
        let t = &self.teams[seat];
        let _ = write!(
            out,
            "{{\"team\":{seat},\"alive\":{},\"position\":",
            t.alive()
        );
        write_cell(out, b, t.position);
        out.push_str(",\"capital\":");
        write_cell(out, b, t.capital);
        let mine = |c: &usize| self.owner[*c] == Some(seat);
        let garrisoned: u64 = (0..b.len()).filter(mine).map(|c| self.garrison[c]).sum();
        let in_battle: u64 = self
            .battles
            .iter()
            .filter(|x| x.defender == seat)
            .map(|x| x.defense + x.reserve)
            .sum();
        let _ = write!(
            out,
            ",\"army\":{{\"attack\":{},\"defense\":{},\"reserve\":{},\"garrisoned\":{garrisoned},\
             \"in_battle\":{in_battle}}},\"gold\":{},\"income\":{{\"soldiers\":",
            t.attack, t.defense, t.reserve, t.gold
        );
        let (soldiers, gold) = if t.alive() {
            self.income_of(&view.joined)
        } else {
            (0, 0)
        };
        write_cents(out, soldiers);
        out.push_str(",\"gold\":");
        write_cents(out, gold);
        let anchor = match t.task {
            Task::Claiming { from, .. } | Task::Fighting { from } => from,
            _ => t.position,
        };
        let _ = write!(out, "}},\"busy\":{},\"task\":", t.busy());
        self.write_task(out, seat);
        let _ = write!(
            out,
            ",\"supplied\":{},\"score\":{},\"cells\":{},\"silent_turns\":{},\"weapons\":{{",
            t.alive() && view.joined[anchor],
            t.points,
            self.cell_count(seat),
            t.silent
        );
        for (k, w) in Weapon::ALL.into_iter().enumerate() {
            let s = w.spec();
            if k > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "\"{}\":{{\"ready_in\":{},\"cost\":{},\"range\":{},\"blast\":{},\"damage\":{},\
                 \"cooldown\":{},\"targets\":{}}}",
                w.name(),
                t.cooldown[w.index()],
                s.cost,
                s.range,
                s.blast,
                s.damage,
                s.cooldown,
                s.targets
            );
        }
        let _ = write!(out, "}},\"relocate_ready_in\":{}}}", t.relocate_cooldown);
    }

    /// The observation of `seat`.
    pub(crate) fn write_observation(&self, seat: Seat, out: &mut String) {
        out.clear();
        let b = self.board;
        let view = self.seat_view(seat);
        let known: Vec<Option<Sighting>> = (0..b.len())
            .map(|c| self.sighting(seat, c, &view.visible))
            .collect();
        let phase = if self.in_setup() { "setup" } else { "play" };
        let _ = write!(
            out,
            "{{\"turn\":{},\"turns_remaining\":{},\"width\":{},\"height\":{},\"phase\":\"{phase}\",\
             \"capital_choices\":",
            self.turn,
            self.turns_remaining(),
            b.width,
            b.height,
        );
        let choices = if self.in_setup() && self.teams[seat].alive() {
            self.setup.capital_choices(seat)
        } else {
            Vec::new()
        };
        write_list(out, choices, |o, c| write_cell(o, b, c));
        out.push_str(",\"owner\":");
        write_known_owners(out, b, &self.wall, &known);
        out.push_str(",\"seen\":");
        write_grid(out, b, |c| known[c].map_or(-1, |k| i64::from(k.turn)));
        out.push_str(",\"walls\":");
        write_list(out, self.setup.walls.iter(), |o, &c| write_cell(o, b, c));
        out.push_str(",\"region\":");
        write_grid(out, b, |c| self.region[c] as i64);
        out.push_str(",\"capitals\":");
        let capitals = (0..b.len()).filter_map(|c| {
            let t = known[c]?.capital_of?;
            self.teams[t].alive().then_some((t, c))
        });
        write_list(out, capitals, |o, (t, c)| {
            let _ = write!(o, "{{\"team\":{t},\"position\":");
            write_cell(o, b, c);
            o.push('}');
        });
        out.push_str(",\"former_capitals\":");
        let former = (0..b.len()).filter(|&c| known[c].is_some_and(|k| k.former_capital));
        write_list(out, former, |o, c| write_cell(o, b, c));
        out.push_str(",\"buildings\":");
        let buildings = (0..b.len()).filter_map(|c| {
            let k = known[c]?;
            Some((c, k.owner?, k.building?))
        });
        write_list(out, buildings, |o, (c, team, bl)| {
            write_building(o, b, c, team, bl)
        });
        out.push_str(",\"garrisons\":");
        let garrisons = (0..b.len()).filter_map(|c| {
            let k = known[c]?;
            (k.garrison > 0).then_some((c, k.owner?, k.garrison))
        });
        write_list(out, garrisons, |o, (c, team, n)| {
            write_garrison(o, b, c, team, n)
        });
        out.push_str(",\"self\":");
        self.write_self(out, seat, &view);
        out.push_str(",\"robots\":");
        let robots = (0..PLAYERS).filter(|&r| {
            let t = &self.teams[r];
            r != seat && t.alive() && view.visible[t.position]
        });
        write_list(out, robots, |o, r| self.write_robot(o, r));
        out.push_str(",\"battles\":");
        let battles = self
            .battles
            .iter()
            .filter(|x| x.attacker == seat || x.defender == seat);
        write_list(out, battles, |o, x| {
            self.write_battle(o, x, |c| view.visible[c])
        });
        write_seat_list(out, "alive", self.teams.iter().map(|t| t.alive()));
        out.push_str(",\"rules\":");
        out.push_str(&self.rules_text);
        out.push_str(",\"legal_actions\":");
        write_list(out, self.legal_actions_in(seat, &view), |o, a| {
            o.push('"');
            o.push_str(&a);
            o.push('"');
        });
        out.push('}');
    }

    fn write_robot(&self, out: &mut String, r: Seat) {
        let t = &self.teams[r];
        let _ = write!(out, "{{\"team\":{r},\"position\":");
        write_cell(out, self.board, t.position);
        let _ = write!(out, ",\"attack\":{},\"task\":", t.attack);
        match t.task.name() {
            Some(n) => {
                let _ = write!(out, "\"{n}\"");
            }
            None => out.push_str("null"),
        }
        out.push('}');
    }

    /// The whole state, for spectators: every cell, every team, every
    /// battle, and the weapons fired in the last turn.
    pub(crate) fn write_spectator(&self, out: &mut String) {
        out.clear();
        let b = self.board;
        let phase = if self.in_setup() { "setup" } else { "play" };
        let _ = write!(
            out,
            "{{\"turn\":{},\"turns_remaining\":{},\"width\":{},\"height\":{},\"phase\":\"{phase}\",\
             \"quiet_turns\":{},\"owner\":",
            self.turn,
            self.turns_remaining(),
            b.width,
            b.height,
            self.quiet
        );
        write_grid(out, b, |c| self.owner[c].map_or(-1, |s| s as i64));
        out.push_str(",\"walls\":");
        write_list(out, self.setup.walls.iter(), |o, &c| write_cell(o, b, c));
        out.push_str(",\"region\":");
        write_grid(out, b, |c| self.region[c] as i64);
        out.push_str(",\"former_capitals\":");
        let former = (0..b.len()).filter(|&c| self.former_capital[c]);
        write_list(out, former, |o, c| write_cell(o, b, c));
        out.push_str(",\"buildings\":");
        let buildings = (0..b.len()).filter_map(|c| Some((c, self.owner[c]?, self.building[c]?)));
        write_list(out, buildings, |o, (c, team, bl)| {
            write_building(o, b, c, team, bl)
        });
        out.push_str(",\"garrisons\":");
        let garrisons = (0..b.len()).filter_map(|c| {
            (self.garrison[c] > 0).then_some((c, self.owner[c]?, self.garrison[c]))
        });
        write_list(out, garrisons, |o, (c, team, n)| {
            write_garrison(o, b, c, team, n)
        });
        out.push_str(",\"teams\":");
        write_list(out, 0..PLAYERS, |o, s| {
            let t = &self.teams[s];
            let _ = write!(o, "{{\"team\":{s},\"alive\":{},\"out\":", t.alive());
            match t.out {
                None => o.push_str("null"),
                Some((turn, cause)) => {
                    let _ = write!(
                        o,
                        "{{\"turn\":{turn},\"why\":{}}}",
                        Value::from(cause.describe())
                    );
                }
            }
            o.push_str(",\"position\":");
            write_cell(o, b, t.position);
            o.push_str(",\"capital\":");
            write_cell(o, b, t.capital);
            o.push_str(",\"task\":");
            self.write_task(o, s);
            let _ = write!(
                o,
                ",\"attack\":{},\"defense\":{},\"reserve\":{},\"gold\":{},\"points\":{},\
                 \"cells\":{},\"silent_turns\":{}}}",
                t.attack,
                t.defense,
                t.reserve,
                t.gold,
                t.points,
                self.cell_count(s),
                t.silent
            );
        });
        out.push_str(",\"battles\":");
        write_list(out, &self.battles, |o, x| self.write_battle(o, x, |_| true));
        out.push_str(",\"strikes\":");
        write_list(out, &self.strikes, |o, s| {
            let _ = write!(
                o,
                "{{\"team\":{},\"weapon\":\"{}\",\"targets\":",
                s.team,
                s.weapon.name()
            );
            write_list(o, &s.targets, |o, &c| write_cell(o, b, c));
            o.push_str(",\"hit\":");
            write_list(o, &s.hit, |o, &c| write_cell(o, b, c));
            o.push('}');
        });
        out.push('}');
    }
}

/// `owner[y][x]` as a team knows it: `null` never seen, `-1` neutral (walls
/// are always neutral), else the team.
fn write_known_owners(out: &mut String, b: Board, wall: &[bool], known: &[Option<Sighting>]) {
    out.push('[');
    for y in 0..b.height {
        if y > 0 {
            out.push(',');
        }
        out.push('[');
        for x in 0..b.width {
            if x > 0 {
                out.push(',');
            }
            let c = b.index(x, y);
            match known[c] {
                _ if wall[c] => out.push_str("-1"),
                None => out.push_str("null"),
                Some(k) => write_int(out, k.owner.map_or(-1, |s| s as i64)),
            }
        }
        out.push(']');
    }
    out.push(']');
}

fn write_building(out: &mut String, b: Board, cell: usize, team: Seat, bl: super::Building) {
    out.push_str("{\"position\":");
    write_cell(out, b, cell);
    let _ = write!(
        out,
        ",\"team\":{team},\"kind\":\"{}\",\"ready\":{}}}",
        bl.kind.name(),
        bl.ready
    );
}

fn write_garrison(out: &mut String, b: Board, cell: usize, team: Seat, n: u64) {
    out.push_str("{\"position\":");
    write_cell(out, b, cell);
    let _ = write!(out, ",\"team\":{team},\"soldiers\":{n}}}");
}
