//! The queue's totals per game, which `GET /metrics` reports, on both
//! databases: matches finished, waiting and in play over every ladder of a
//! game, and the live workers with their threads.

use ludus_leaderboard::retention::KeepReplays;
use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::store::{GameTotals, Location, MatchResult, Needs, NewLadder, Store};
use std::time::Duration;

const NOW: &str = "2026-01-01T00:00:00Z";
const LEASE: Duration = Duration::from_secs(60);

/// A ladder of `game` named `key`, of `n` matches between two tiny bots
/// (these tests play nothing).
fn ladder(store: &Store, key: &str, game: &str, n: u32) -> i64 {
    for (name, wasm) in [
        ("a", &b"\0asm\x01\0\0\0"[..]),
        ("b", &b"\0asm\x01\0\0\0\0"[..]),
    ] {
        store
            .bots()
            .submit(
                name,
                "planet-wars",
                wasm,
                &ludus_host::sha256_hex(wasm),
                NOW,
            )
            .unwrap();
    }
    let bots = store.bots().latest("planet-wars").unwrap();
    let schedule: Vec<ScheduledMatch> = (0..n)
        .map(|i| ScheduledMatch {
            index: i,
            group: i,
            seed: 100 + u64::from(i),
            seats: vec![0, 1],
        })
        .collect();
    let needs = Needs::of_this_build(ludus_engine::registry::info(game).unwrap().rules_version);
    store
        .ladders()
        .ensure(&NewLadder {
            key,
            game,
            kind: "round-robin",
            players: 2,
            rounds: 1,
            seed: 9,
            config: &serde_json::Value::Null,
            limits: &serde_json::to_value(ludus_host::Limits::default()).unwrap(),
            needs: &needs,
            keep_replays: KeepReplays::ALL,
            bots: &bots,
            schedule: &schedule,
        })
        .unwrap()
}

fn result(ladder: i64, index: u32) -> MatchResult {
    MatchResult {
        index,
        match_id: format!("m{ladder}-{index}"),
        placements: vec![1, 2],
        scores: vec![1.0, 0.0],
        faults: vec![0, 0],
        turns: 10,
        reason: "done".into(),
        aborted: None,
        replay_sha256: ludus_host::sha256_hex(format!("{index}").as_bytes()),
        refused: Vec::new(),
    }
}

fn totals_count_every_ladder_of_a_game_and_only_live_workers(location: Location) {
    let store = Store::connect(&location).unwrap();
    let empty = store.queue().totals().unwrap();
    assert!(empty.games.is_empty(), "{empty:?}");
    assert_eq!((empty.live_workers, empty.live_threads), (0, 0));

    let first = ladder(&store, "first", "planet-wars", 6);
    let second = ladder(&store, "second", "planet-wars", 4);
    ladder(&store, "third", "halite", 3);
    let q = store.queue();
    // Three matches of the first claimed, two of them finished: one in play.
    let w1 = q.register_worker(3, Some(first), LEASE).unwrap();
    q.claim(w1, first, 3, LEASE).unwrap();
    for i in 0..2 {
        q.commit(w1, first, &result(first, i), b"gz").unwrap();
    }
    // Two of the second claimed and finished.
    let w2 = q.register_worker(2, None, LEASE).unwrap();
    q.claim(w2, second, 2, LEASE).unwrap();
    for i in 0..2 {
        q.commit(w2, second, &result(second, i), b"gz").unwrap();
    }
    // A worker that stopped is not live.
    let w3 = q.register_worker(8, None, LEASE).unwrap();
    q.stop_worker(w3).unwrap();

    let t = q.totals().unwrap();
    let game = |game: &str, finished, waiting, in_play| GameTotals {
        game: game.into(),
        finished,
        waiting,
        in_play,
    };
    assert_eq!(
        t.games,
        vec![game("halite", 0, 3, 0), game("planet-wars", 4, 6, 1)]
    );
    assert_eq!((t.live_workers, t.live_threads), (2, 5));
}

#[test]
fn on_sqlite_totals_count_every_ladder_of_a_game_and_only_live_workers() {
    let dir = tempfile::tempdir().unwrap();
    totals_count_every_ladder_of_a_game_and_only_live_workers(Location::File(
        dir.path().join("ludus.db"),
    ));
}

#[test]
fn on_postgres_totals_count_every_ladder_of_a_game_and_only_live_workers() {
    let url = ludus_testkit::postgres::shared().create_database();
    totals_count_every_ladder_of_a_game_and_only_live_workers(Location::Postgres(url));
}
