//! A validation as people read it: the lines `ludus check` prints and a
//! server's upload page shows, written once so that both say the same.

use super::{MatchCheck, Validation};
use crate::limits::Limits;
use std::fmt::Write as _;

/// Log lines shown of a failing turn; the rest are counted.
const LOG_LINES: usize = 12;

impl Validation {
    /// The validation in full, a line each: each match, the fuel, the
    /// warnings, and for a failure its turn and seat, the bot's answer, its
    /// log of that turn and what to do.
    pub fn report(&self, limits: &Limits) -> String {
        let mut out = String::new();
        let matches: Vec<String> = self.matches.iter().map(match_text).collect();
        line(&mut out, self.game, &matches.join("; "));
        let first = self.matches.iter().map(|m| m.first_turn_fuel).max();
        let later = self.matches.iter().map(|m| m.turn_fuel).max();
        if let Some(first) = first.filter(|f| *f > 0) {
            let mut fuel = format!(
                "first turn at most {first} ({})",
                percent(first, limits.first_turn_fuel)
            );
            if let Some(later) = later.filter(|f| *f > 0) {
                fuel += &format!(
                    ", later turns at most {later} ({})",
                    percent(later, limits.turn_fuel)
                );
            }
            line(&mut out, "fuel", &fuel);
        }
        out += &self.warnings_report();
        let Some(m) = self.failed() else {
            return out;
        };
        if let Some(why) = &m.aborted {
            line(&mut out, "aborted", why);
        }
        let Some(f) = m.failures.first() else {
            return out;
        };
        let failed =
            |o: &super::Failure| format!("turn {}, seat {}: {}", o.turn, o.seat, o.problem);
        line(&mut out, "failed", &failed(f));
        let same = f.problem.to_string();
        let others: Vec<String> = m.failures[1..]
            .iter()
            .filter(|o| o.problem.to_string() == same)
            .map(|o| o.seat.to_string())
            .collect();
        match others.len() {
            0 => {}
            1 => line(&mut out, "", &format!("(seat {} likewise)", others[0])),
            _ => line(
                &mut out,
                "",
                &format!("(seats {} likewise)", others.join(", ")),
            ),
        }
        for o in m.failures[1..]
            .iter()
            .filter(|o| o.problem.to_string() != same)
        {
            line(&mut out, "failed", &failed(o));
        }
        if let Some(a) = &f.answer {
            line(&mut out, "answer", &clip(&format!("{a:?}"), 200));
        }
        let lines: Vec<&str> = f.log.trim().lines().collect();
        if lines.is_empty() {
            line(&mut out, "log", "(nothing this turn)");
        }
        for (i, l) in lines.iter().take(LOG_LINES).enumerate() {
            line(&mut out, if i == 0 { "log" } else { "" }, &clip(l, 200));
        }
        if lines.len() > LOG_LINES {
            line(
                &mut out,
                "",
                &format!("({} more lines)", lines.len() - LOG_LINES),
            );
        }
        line(
            &mut out,
            "to do",
            &f.problem.what_to_do(self.game, f.turn, limits),
        );
        out
    }

    /// The moves the game refused inside readable answers, a line a kind.
    pub fn warnings_report(&self) -> String {
        let mut out = String::new();
        for w in self.matches.iter().flat_map(|m| &m.warnings) {
            line(
                &mut out,
                "warning",
                &format!(
                    "the game refused {}× {}; first on turn {}, seat {}: {}",
                    w.count,
                    w.kind,
                    w.turn,
                    w.seat,
                    clip(&w.reason, 160)
                ),
            );
        }
        out
    }
}

/// `head` in a column of eight, then `text`.
fn line(out: &mut String, head: &str, text: &str) {
    let _ = writeln!(out, "{head:<8} {text}");
}

/// `2 seats: 30 turns, ok` or `4 seats: failed on turn 3`.
fn match_text(m: &MatchCheck) -> String {
    match (m.passed(), m.failures.first()) {
        (true, _) => format!("{} seats: {} turns, ok", m.seats, m.turns),
        (false, Some(f)) => format!("{} seats: failed on turn {}", m.seats, f.turn),
        (false, None) => format!("{} seats: aborted after {} turns", m.seats, m.turns),
    }
}

fn percent(fuel: u64, budget: u64) -> String {
    let p = 100.0 * fuel as f64 / budget as f64;
    if p < 0.01 {
        "under 0.01% of its budget".into()
    } else {
        format!("{p:.2}% of its budget")
    }
}

/// `s`, cut to `n` characters with an ellipsis.
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}
