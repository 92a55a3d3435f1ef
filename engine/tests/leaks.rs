//! The leak test, one test per game of the registry, made from
//! `ludus_engine::games()` as the matrix is: a game is covered the day it
//! is registered, and its entry says what its seats see
//! ([`Sight`](ludus_engine::sight::Sight)).
//!
//! A game with a hidden part is played at random (seeded), on each config
//! its entry names, for thousands of positions. At every position, for
//! every seat, a copy of the game has what that seat cannot see changed at
//! random, and what the host hands the seat's bot must be the same, byte
//! for byte: its observation (`legal_actions` included), whether it is
//! asked, and the turn. Each kind of change the game names must be made,
//! often, and a change must change the state. A game with full information
//! writes no spectator view.
//!
//! Run one game with a filter: `cargo test -p ludus-engine --test leaks --
//! conquest`; `--nocapture` prints the positions and time of each.

use std::collections::BTreeMap;
use std::time::Instant;

use libtest_mimic::{Arguments, Failed, Trial};
use ludus_engine::sight::{Fog, Hidden, Sight};
use ludus_engine::{games, GameInfo};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

/// Positions of random play checked per game with a hidden part.
const POSITIONS: usize = 5000;
/// Times each kind of change a game names must be made, at the least.
const CHANGES: usize = 20;

fn main() {
    let args = Arguments::from_args();
    let trials = games()
        .iter()
        .map(|info| Trial::test(info.id, move || check(info)))
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

fn check(info: &'static GameInfo) -> Result<(), Failed> {
    match info.sight {
        Sight::Full => no_spectator_view(info),
        Sight::Partial(fog) => no_leak(info, &fog),
    }
}

/// A game where every seat sees everything has nothing to show spectators
/// that its seats do not see.
fn no_spectator_view(info: &GameInfo) -> Result<(), Failed> {
    for &players in info.seats {
        let game = ludus_engine::new_game(info.id, &Value::Null, 1, players)?;
        if game.spectator(&mut String::new()) {
            return Err(format!(
                "{} writes a spectator view, so its seats do not see everything: register it \
                 with Sight::Partial and a way to change what a seat cannot see",
                info.id
            )
            .into());
        }
    }
    Ok(())
}

/// What one run of the test found.
#[derive(Default)]
struct Tally {
    games: usize,
    positions: usize,
    checks: usize,
    changes: BTreeMap<&'static str, usize>,
}

fn no_leak(info: &GameInfo, fog: &Fog) -> Result<(), Failed> {
    let clock = Instant::now();
    let mut tally = Tally::default();
    let mut seed = 0u64;
    while tally.positions < POSITIONS {
        for config in fog.configs {
            let config: Value = serde_json::from_str(config)?;
            for &players in info.seats {
                play(info, fog, &config, seed, players, &mut tally)?;
            }
        }
        seed += 1;
    }
    eprintln!(
        "{}: {} positions of {} games, {} seats checked, in {:.2?}; changes: {:?}",
        info.id,
        tally.positions,
        tally.games,
        tally.checks,
        clock.elapsed(),
        tally.changes
    );
    for word in fog.hidden {
        let made = tally.changes.get(word).copied().unwrap_or(0);
        if made < CHANGES {
            return Err(format!(
                "{}: `{word}` was changed {made} times in {} positions; the test needs {CHANGES} \
                 (random play reaches too few positions where it is hidden)",
                info.id, tally.positions
            )
            .into());
        }
    }
    Ok(())
}

/// One game of random play, every position checked, until it ends or the
/// test has its positions.
fn play(
    info: &GameInfo,
    fog: &Fog,
    config: &Value,
    seed: u64,
    players: usize,
    tally: &mut Tally,
) -> Result<(), Failed> {
    let mut game = (fog.new)(config, info.game_seed(seed), players)?;
    if !game.spectator(&mut String::new()) {
        return Err(format!(
            "{} hides a part of the state but writes no spectator view",
            info.id
        )
        .into());
    }
    let stream = |purpose: &str| {
        ludus_engine::rng::stream(seed, &format!("test/leaks/{}/{purpose}", info.id))
    };
    let (mut moves, mut changes) = (stream("play"), stream("perturb"));
    tally.games += 1;
    while game.outcome().is_none() && tally.positions < POSITIONS {
        for seat in 0..players {
            let at = || {
                format!(
                    "{}, config {config}, seed {seed}, turn {}, seat {seat}",
                    info.id,
                    game.turn()
                )
            };
            check_seat(game.as_ref(), seat, &mut changes, tally)
                .map_err(|e| format!("{}: {e}", at()))?;
        }
        tally.positions += 1;
        let answers = game.random_answers(&mut moves);
        let answers: Vec<Option<&str>> = answers.iter().map(Option::as_deref).collect();
        game.step(&answers);
    }
    Ok(())
}

/// Changes what `seat` cannot see in a copy of `game` and compares what the
/// host would hand its bot.
fn check_seat(
    game: &dyn Hidden,
    seat: usize,
    rng: &mut ChaCha8Rng,
    tally: &mut Tally,
) -> Result<(), String> {
    let mut copy = game.fork();
    let words = copy.perturb_unseen(seat, rng);
    if !words.is_empty() && copy.state_hash() == game.state_hash() {
        return Err(format!("changing {words:?} left the state as it was"));
    }
    let (mut before, mut after) = (String::new(), String::new());
    game.observation(seat, &mut before);
    copy.observation(seat, &mut after);
    if before != after {
        return Err(format!(
            "the observation changed with {words:?}, which the seat cannot see:\n{}",
            first_difference(&before, &after)
        ));
    }
    if copy.asks(seat) != game.asks(seat) || copy.turn() != game.turn() {
        return Err(format!("whether the seat is asked changed with {words:?}"));
    }
    tally.checks += 1;
    for w in words {
        *tally.changes.entry(w).or_default() += 1;
    }
    Ok(())
}

/// Where two texts first differ, with some text round it.
fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let around = |s: &str| {
        let from = (0..=at.saturating_sub(120))
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        let to = (at + 120).min(s.len());
        let to = (to..=s.len())
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(s.len());
        s[from..to].to_string()
    };
    format!("before: …{}…\nafter:  …{}…", around(a), around(b))
}
