//! Where to look in a match, and the command that shows it: the lines of
//! `play`, `check` and `replay show` that name the faults and refusals of a
//! match, and `replay show --turn`, which prints everything a turn recorded.

use crate::columns::clip;
use ludus_host::numbers::rounded;
use ludus_host::{turn_ranges, Replay, SeatSummary, Summary};

/// How `ludus replay show` finds a replay again: the argument it was given
/// (a file, or a stored match's id) and, for a stored match, the database.
pub(crate) struct ReplayArg<'a> {
    pub(crate) arg: &'a str,
    /// `--db`, for a stored match read from a database not named by
    /// `LUDUS_DB` (which the command finds by itself).
    pub(crate) db: Option<String>,
}

impl ReplayArg<'_> {
    /// The exact command that prints `turn` of `seat` in full.
    pub(crate) fn show_command(&self, turn: u32, seat: usize) -> String {
        let mut command = format!(
            "ludus replay show {} --turn {turn} --seat {seat}",
            shell_word(self.arg)
        );
        if let Some(db) = &self.db {
            command += &format!(" --db {}", shell_word(db));
        }
        command
    }
}

/// `word` as a shell reads it back: as it is when it needs no quoting,
/// else in single quotes.
pub(crate) fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=@,+%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A seat's refusals, under its line of the summary: how many of each kind
/// and the first one with the game's reason.
pub(crate) fn print_seat_refusals(s: &SeatSummary) {
    if let Some((turn, r)) = &s.first_refusal {
        // The kind is named already when it is the only one.
        let first = if s.refusals.len() == 1 {
            r.reason.clone()
        } else {
            format!("{}: {}", r.kind, r.reason)
        };
        println!(
            "      refused {}; first on turn {turn}: {}",
            s.refusals_text(),
            clip(&first, 160)
        );
    }
}

/// The turns with a fault and those with a refusal, seat by seat, whole.
pub(crate) fn print_turn_lists(summary: &Summary) {
    for s in &summary.seats {
        if !s.fault_turns.is_empty() {
            println!(
                "faults   seat {} ({}): turns {}",
                s.seat,
                s.name,
                turn_ranges(&s.fault_turns)
            );
        }
    }
    for s in &summary.seats {
        if !s.refusal_turns.is_empty() {
            println!(
                "refused  seat {} ({}): turns {}",
                s.seat,
                s.name,
                turn_ranges(&s.refusal_turns)
            );
        }
    }
}

/// The last line of a match's summary: the command that shows its first
/// fault or refusal in full, when it had one.
pub(crate) fn print_next(summary: &Summary, replay: &ReplayArg) {
    if let Some(f) = summary.first_finding() {
        println!("next     {}", replay.show_command(f.turn, f.seat));
    }
}

/// Everything turn `turn` recorded (of `seat` only, when given): each
/// seat's fuel, answer, fault, refusals and log, whole; the scores and the
/// state hash after it.
pub(crate) fn print_turn(replay: &Replay, turn: u32, seat: Option<usize>) -> anyhow::Result<()> {
    let Some(rec) = replay.turns.iter().find(|r| r.turn == turn) else {
        anyhow::bail!(
            "the replay has turns 1 to {}; there is no turn {turn}",
            replay.turns.len()
        );
    };
    if let Some(s) = seat.filter(|&s| s >= rec.seats.len()) {
        anyhow::bail!(
            "the match has seats 0 to {}; there is no seat {s}",
            rec.seats.len() - 1
        );
    }
    println!(
        "turn {turn} of {}, state {}",
        replay.turns.len(),
        rec.state_hash
    );
    for (i, s) in rec.seats.iter().enumerate() {
        if seat.is_some_and(|only| only != i) {
            continue;
        }
        println!("seat {i} ({})", replay.seats[i].name);
        if s.out {
            println!("  out of the match: not called");
            continue;
        }
        if s.waiting {
            println!("  not its move: not called");
            continue;
        }
        println!("  fuel    {}", s.fuel);
        match (&s.answer, &s.fault) {
            (Some(a), _) => println!("  answer  {}", indented(a)),
            (None, Some(_)) => println!("  answer  none: the fault replaced it"),
            (None, None) => println!("  answer  none"),
        }
        if let Some(f) = &s.fault {
            println!("  fault   {f}");
        }
        for r in &s.refused {
            println!("  refused {}: {}", r.kind, indented(&r.reason));
        }
        if s.log.is_empty() {
            println!("  log     (nothing this turn)");
        } else {
            println!("  log     {}", indented(s.log.trim_end_matches('\n')));
        }
        if s.log_dropped > 0 {
            println!("  log     ({} bytes dropped over the cap)", s.log_dropped);
        }
    }
    let scores: Vec<String> = rec.scores.iter().map(|&x| rounded(x, 2)).collect();
    println!("scores  {}", scores.join(", "));
    Ok(())
}

/// Text whose later lines line up under the first, after a label.
fn indented(text: &str) -> String {
    text.replace('\n', "\n          ")
}

#[cfg(test)]
mod tests {
    use super::{shell_word, ReplayArg};

    #[test]
    fn a_command_quotes_only_what_a_shell_would_split() {
        assert_eq!(
            shell_word("replays/pw-0-ab12.json"),
            "replays/pw-0-ab12.json"
        );
        assert_eq!(
            shell_word("my replays/it's.json"),
            r"'my replays/it'\''s.json'"
        );
        assert_eq!(shell_word(""), "''");
        let arg = ReplayArg {
            arg: "0ed9acea1f8e",
            db: Some("runs/ladder.db".into()),
        };
        assert_eq!(
            arg.show_command(5, 1),
            "ludus replay show 0ed9acea1f8e --turn 5 --seat 1 --db runs/ladder.db"
        );
    }
}
