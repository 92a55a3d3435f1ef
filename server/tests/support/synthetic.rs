//! A large continuous ladder made through the library, without playing it:
//! bots stored, matches appended to the schedule, results committed with a
//! real replay's bytes, ratings applied. For the tests of the pages at size
//! and the server's benchmark (100 bots, 100 000 matches).
//!
//! The results follow a rule the tests can recount: in every match the bot
//! at the lower ladder position wins, but every tenth match is a draw; the
//! first seat has a faulted turn in every third match.
// Each test crate that includes it uses part of it.
#![allow(dead_code)]

use ludus_leaderboard::continuous::{self, ContinuousConfig};
use ludus_leaderboard::ratings;
use ludus_leaderboard::retention::KeepReplays;
use ludus_leaderboard::store::{ContinuousLadder, MatchResult, Needs, Store};
use std::time::Duration;

/// The synthetic bots' names: `bot-000`, `bot-001`, …
pub fn bot_name(i: usize) -> String {
    format!("bot-{i:03}")
}

/// The seats of the `k`-th synthetic match among `n` bots (ladder
/// positions `first..first + n`): every pair in turn, both seat orders.
pub fn seats(k: u32, first: usize, n: usize) -> Vec<usize> {
    let k = k as usize;
    let a = k % n;
    let b = (a + 1 + (k / n) % (n - 1)) % n;
    vec![first + a, first + b]
}

/// The placements and faults of the `k`-th match seating `seats`.
pub fn outcome(k: u32, seats: &[usize]) -> (Vec<u32>, Vec<u32>) {
    let placements = if k % 10 == 9 {
        vec![1, 1]
    } else if seats[0] < seats[1] {
        vec![1, 2]
    } else {
        vec![2, 1]
    };
    let faults = vec![u32::from(k.is_multiple_of(3)), 0];
    (placements, faults)
}

/// [`populate`] after the matches the continuous Planet Wars ladder of
/// `store` played, the first one's replay the synthetic matches' replay:
/// the ladder, its schedule's length before them, and the synthetic bots'
/// first position.
pub fn after_played(
    store: &mut Store,
    wasm: &[u8],
    bots: usize,
    matches: u32,
) -> (i64, u32, usize) {
    let ladder = store.ladders().continuous("planet-wars").unwrap().unwrap();
    let replay = store
        .results()
        .replay(&store.results().all(ladder).unwrap()[0].match_id)
        .unwrap()
        .unwrap();
    let start = store.ladders().schedule_len(ladder).unwrap();
    let (_, first) = populate(store, wasm, bots, matches, &replay);
    (ladder, start, first)
}

/// Adds `bots` Planet Wars bots (all with `wasm`'s bytes) to the continuous
/// ladder and `matches` finished matches among them, each with `replay_gz`
/// as its replay; rates the ladder. Returns the ladder and the synthetic
/// bots' first position.
pub fn populate(
    store: &mut Store,
    wasm: &[u8],
    bots: usize,
    matches: u32,
    replay_gz: &[u8],
) -> (i64, usize) {
    let game = ludus_engine::registry::info("planet-wars").unwrap();
    let config = ContinuousConfig::default();
    let sha = ludus_host::sha256_hex(wasm);
    // The ladder as the server's scheduler makes it, so that it plays on.
    let limits = serde_json::to_value(&config.limits).unwrap();
    let needs = Needs::of_this_build(game.rules_version);
    let ladder = store
        .ladders()
        .ensure_continuous(&ContinuousLadder {
            game: game.id,
            players: 2,
            seed: config.seed,
            config: &serde_json::Value::Null,
            limits: &limits,
            needs: &needs,
            keep_replays: KeepReplays::ALL,
        })
        .unwrap();
    let mut first = None;
    for i in 0..bots {
        let b = store
            .bots()
            .submit(&bot_name(i), game.id, wasm, &sha, "2026-12-01T00:00:00Z")
            .unwrap()
            .bot;
        let p = store.ladders().add_bot(ladder, &b).unwrap();
        first.get_or_insert(p);
    }
    let first = first.unwrap();
    let start = store.ladders().schedule_len(ladder).unwrap();
    let worker = store
        .queue()
        .register_worker(1, Some(ladder), Duration::from_secs(600))
        .unwrap();
    let replay_sha256 =
        ludus_leaderboard::store::queue::replay_sha256_of_gz(replay_gz).unwrap_or_default();
    const CHUNK: u32 = 1000;
    let mut k = 0;
    while k < matches {
        let n = CHUNK.min(matches - k);
        let chunk: Vec<_> = (k..k + n)
            .map(|k| continuous::scheduled(start + k, seats(k, first, bots), config.seed, game))
            .collect();
        store.ladders().append(ladder, &chunk).unwrap();
        for m in &chunk {
            let (placements, faults) = outcome(m.index - start, &m.seats);
            let result = MatchResult {
                index: m.index,
                match_id: ludus_host::sha256_hex(
                    format!("synthetic/{ladder}/{}", m.index).as_bytes(),
                ),
                scores: placements.iter().map(|&p| f64::from(2 - p)).collect(),
                placements,
                faults,
                turns: 100,
                reason: "synthetic".into(),
                aborted: None,
                replay_sha256: replay_sha256.clone(),
                refused: vec![0, 0],
            };
            store
                .queue()
                .commit(worker, ladder, &result, replay_gz)
                .unwrap();
        }
        k += n;
    }
    store.queue().stop_worker(worker).unwrap();
    ratings::apply(store, ladder).unwrap();
    (ladder, first)
}
