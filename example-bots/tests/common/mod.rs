//! Playing the example bots natively through an engine (no sandbox): each
//! seat parses, acts and serialises as its wasm module would.
#![allow(dead_code)]

use ludus_engine::{new_game, Outcome, Rejection};
use ludus_sdk::{play_turn, Bot};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// A seat's bot: observation JSON in, answer JSON out.
pub type Player = Box<dyn FnMut(&str) -> String>;

/// A fresh `B` answering as its wasm module would.
pub fn player<B: Bot>() -> Player {
    let mut bot = B::default();
    Box::new(move |obs| play_turn(&mut bot, obs))
}

/// Plays a whole match of `game` on `seed`, one bot per seat, with the bots'
/// random stream seeded from `seed`. The example bots only give orders the
/// engine carries out, so no answer may be refused.
pub fn play_native(game: &str, config: &Value, seed: u64, bots: Vec<Player>) -> Outcome {
    play_native_with(game, config, seed, bots, |_, _| {}, |_| false)
}

/// [`play_native`], showing `inspect` every observation (seat, text) before
/// its bot sees it, and tolerating the refusals `refusal_ok` accepts.
pub fn play_native_with(
    game: &str,
    config: &Value,
    seed: u64,
    mut bots: Vec<Player>,
    mut inspect: impl FnMut(usize, &str),
    refusal_ok: impl Fn(&Rejection) -> bool,
) -> Outcome {
    ludus_sdk::random::reseed(seed);
    let mut g = new_game(game, config, seed, bots.len()).expect("new game");
    let mut obs = String::new();
    loop {
        if let Some(outcome) = g.outcome() {
            return outcome;
        }
        // As the host does: only the seats the game asks are called.
        let answers: Vec<Option<String>> = bots
            .iter_mut()
            .enumerate()
            .map(|(seat, bot)| {
                if !g.asks(seat) {
                    return None;
                }
                g.observation(seat, &mut obs);
                inspect(seat, &obs);
                Some(bot(&obs))
            })
            .collect();
        let refs: Vec<Option<&str>> = answers.iter().map(|a| a.as_deref()).collect();
        let refused: Vec<Rejection> = g.step(&refs);
        assert!(
            refused.iter().all(&refusal_ok),
            "{game} seed {seed} turn {}: refused {refused:?}\nanswers: {answers:?}",
            g.turn()
        );
    }
}

/// Every observation of a few matches parses into the SDK type and writes
/// back to the very same JSON: no field missing, renamed or extra.
pub fn sdk_reads_exactly<Obs, Strong, Weak>(game: &str, config: &Value)
where
    Obs: DeserializeOwned + Serialize,
    Strong: Bot<Observation = Obs>,
    Weak: Bot<Observation = Obs>,
{
    for seed in 0..3u64 {
        let mut g = new_game(game, config, seed, 4).unwrap();
        let mut bots: Vec<Player> = vec![
            player::<Strong>(),
            player::<Weak>(),
            player::<Strong>(),
            player::<Weak>(),
        ];
        let mut text = String::new();
        while g.outcome().is_none() && g.turn() < 60 {
            let mut answers = Vec::new();
            for (seat, bot) in bots.iter_mut().enumerate() {
                g.observation(seat, &mut text);
                let typed: Obs = serde_json::from_str(&text)
                    .unwrap_or_else(|e| panic!("{game} seat {seat}: {e}\n{text}"));
                let engine: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(serde_json::to_value(&typed).unwrap(), engine, "{game}");
                answers.push(bot(&text));
            }
            let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
            let refused = g.step(&refs);
            assert!(refused.is_empty(), "{game}: {refused:?}");
        }
    }
}

/// One `Strong` against three `Weak` on `config`, over `seeds`, the strong
/// bot's seat going round the table. Returns (outright wins, matches), and
/// prints the matches it did not win.
pub fn strong_wins<Strong: Bot, Weak: Bot>(
    game: &str,
    config: &Value,
    seeds: std::ops::Range<u64>,
) -> (usize, usize) {
    let mut won = 0;
    let mut lost = Vec::new();
    let played = seeds.end.saturating_sub(seeds.start) as usize;
    for seed in seeds {
        let seat = (seed % 4) as usize;
        let bots = (0..4)
            .map(|s| {
                if s == seat {
                    player::<Strong>()
                } else {
                    player::<Weak>()
                }
            })
            .collect();
        let o = play_native(game, config, seed, bots);
        let firsts = o.placements.iter().filter(|&&p| p == 1).count();
        if o.placements[seat] == 1 && firsts == 1 {
            won += 1;
        } else {
            lost.push((seed, seat, o.reason, o.scores));
        }
    }
    if !lost.is_empty() {
        eprintln!("{game}: not won (seed, seat, reason, scores): {lost:?}");
    }
    (won, played)
}
