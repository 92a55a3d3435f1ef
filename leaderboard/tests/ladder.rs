//! Ladders end to end through the library: storage, schedules, parallel play,
//! ratings, leaderboards.

use ludus_host::{Limits, Sandbox, SandboxOptions};
use ludus_leaderboard::ladder::{self, LadderSpec, RunEvent, RunOptions};
use ludus_leaderboard::report::{self, Format};
use ludus_leaderboard::schedule::Kind;
use ludus_leaderboard::store::Store;
use std::path::Path;
use std::sync::OnceLock;

fn sandbox() -> &'static Sandbox {
    static S: OnceLock<Sandbox> = OnceLock::new();
    S.get_or_init(|| {
        Sandbox::with_options(SandboxOptions {
            cache_dir: Some(ludus_testkit::workspace_root().join("target/module-cache")),
            ..SandboxOptions::default()
        })
        .unwrap()
    })
}

const NOW: &str = "2026-01-01T00:00:00Z";

fn store_with_bots(path: &Path, bots: &[(&str, &str)]) -> Store {
    let store = Store::open(path).unwrap();
    for (name, file) in bots {
        let wasm = std::fs::read(ludus_testkit::bot(file)).unwrap();
        let sha = ludus_host::sha256_hex(&wasm);
        store
            .bots()
            .submit(name, "planet-wars", &wasm, &sha, NOW)
            .unwrap();
    }
    store
}

const EXAMPLES: [(&str, &str); 3] = [
    ("expander", "planet_wars_expander"),
    ("idle", "planet_wars_idle"),
    ("random", "planet_wars_random"),
];

fn spec(store: &Store, players: usize, rounds: u32, kind: Kind) -> LadderSpec {
    LadderSpec {
        game: "planet-wars".into(),
        kind,
        players,
        rounds,
        seed: 3,
        config: serde_json::json!({ "max_turns": 150 }),
        limits: Limits::default(),
        bots: store.bots().latest("planet-wars").unwrap(),
    }
}

#[test]
fn one_thread_and_two_threads_give_identical_ratings_and_an_identical_database() {
    let dir = tempfile::tempdir().unwrap();
    let mut dumps = Vec::new();
    for threads in [1, 2] {
        let store = store_with_bots(&dir.path().join(format!("t{threads}.db")), &EXAMPLES);
        let spec = spec(&store, 2, 2, Kind::RoundRobin);
        let id = ladder::run(&store, sandbox(), &spec, &RunOptions::new(threads), |_| {})
            .unwrap()
            .ladder;
        assert_eq!(store.results().all(id).unwrap().len(), 12);
        dumps.push(store.dump().unwrap());
    }
    assert_eq!(dumps[0], dumps[1]);
    assert!(dumps[0].contains("bradley-terry") && dumps[0].contains("elo"));
}

#[test]
fn a_finished_ladder_run_again_plays_nothing_and_keeps_every_result() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with_bots(&dir.path().join("l.db"), &EXAMPLES);
    let spec = spec(&store, 2, 1, Kind::RoundRobin);
    let id = ladder::run(&store, sandbox(), &spec, &RunOptions::new(2), |_| {})
        .unwrap()
        .ladder;
    let before = store.dump().unwrap();
    let mut seen = Vec::new();
    let again = ladder::run(&store, sandbox(), &spec, &RunOptions::new(2), |e| {
        if let RunEvent::Progress(p) = e {
            seen.push(p)
        }
    })
    .unwrap()
    .ladder;
    assert_eq!(id, again, "the same ladder is found again");
    assert_eq!(seen.len(), 1);
    assert_eq!((seen[0].done, seen[0].resumed, seen[0].total), (6, 6, 6));
    assert_eq!(before, store.dump().unwrap());
}

#[test]
fn the_expander_tops_a_round_robin_of_the_examples() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with_bots(&dir.path().join("l.db"), &EXAMPLES);
    let spec = spec(&store, 2, 2, Kind::RoundRobin);
    let id = ladder::run(&store, sandbox(), &spec, &RunOptions::new(2), |_| {})
        .unwrap()
        .ladder;
    let lb = report::leaderboard(&store, id).unwrap();
    assert_eq!(lb.rows[0].bot, "expander");
    assert_eq!(lb.rows[0].rank, 1);
    assert_eq!(lb.rows[0].games, 8);
    let results = lb.rows[0].results.as_ref().unwrap();
    assert_eq!(results.wins + results.draws + results.losses, 8);
    assert!(lb.rows[0].interval > 0.0);
    assert!(lb.rows.iter().all(|r| r.games == 8));
    for format in [Format::Table, Format::Json, Format::Csv, Format::Markdown] {
        let text = lb.render(format).expect("a text format");
        assert!(text.contains("expander"), "{format:?}: {text}");
    }
    assert_eq!(lb.render(Format::Html), None, "the viewer writes the page");
    let json: serde_json::Value = serde_json::from_str(&lb.render(Format::Json).unwrap()).unwrap();
    assert_eq!(json["rows"][0]["bot"], "expander");
    let csv = lb.render(Format::Csv).unwrap();
    assert_eq!(csv.lines().count(), 4);
    // Every replay is stored and verifies.
    for m in &lb.matches {
        let gz = store
            .results()
            .replay(&m.match_id)
            .unwrap()
            .expect("stored");
        let replay = ludus_host::Replay::from_bytes(&gz).unwrap();
        assert_eq!(replay.match_id, m.match_id);
    }
}

#[test]
fn a_gauntlet_plays_one_bot_against_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with_bots(&dir.path().join("l.db"), &EXAMPLES);
    let spec = spec(&store, 2, 1, Kind::Gauntlet { challenger: 2 });
    let id = ladder::run(&store, sandbox(), &spec, &RunOptions::new(2), |_| {})
        .unwrap()
        .ladder;
    let lb = report::leaderboard(&store, id).unwrap();
    assert_eq!(lb.matches.len(), 4);
    assert!(lb
        .matches
        .iter()
        .all(|m| m.seats.contains(&"random".to_string())));
}

#[test]
fn four_seat_tables_are_rated_by_weng_lin() {
    let dir = tempfile::tempdir().unwrap();
    let bots = [
        ("expander", "planet_wars_expander"),
        ("idle", "planet_wars_idle"),
        ("random", "planet_wars_random"),
        ("random-b", "planet_wars_random"),
    ];
    let store = store_with_bots(&dir.path().join("l.db"), &bots);
    let spec = spec(&store, 4, 1, Kind::RoundRobin);
    let id = ladder::run(&store, sandbox(), &spec, &RunOptions::new(2), |_| {})
        .unwrap()
        .ladder;
    let lb = report::leaderboard(&store, id).unwrap();
    assert_eq!(lb.matches.len(), 4, "one table, four rotations");
    assert!(lb.rating_system.contains("Weng"));
    assert_eq!(lb.rows[0].bot, "expander");
}
