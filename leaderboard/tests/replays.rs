//! Replays on demand: a ladder stores the replays its policy keeps, and
//! any other is played again on request, checked against the sha256 its
//! result records; a different one is an integrity event, never served; a
//! match this build cannot play again identically keeps its result, and
//! `replays::keep` stores what a policy left out.

use ludus_host::{Limits, Sandbox, SandboxOptions};
use ludus_leaderboard::ladder::{self, LadderSpec, RunOptions};
use ludus_leaderboard::replays::{self, Origin, ReplayError};
use ludus_leaderboard::retention::{self, KeepReplays};
use ludus_leaderboard::schedule::{Kind, ScheduledMatch};
use ludus_leaderboard::store::{Location, MatchResult, Needs, NewLadder, Store};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

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

/// A Planet Wars round robin of the example bots, short matches, played
/// to its end keeping `keep`.
fn played(path: &Path, keep: KeepReplays) -> (Store, i64) {
    let store = Store::open(path).unwrap();
    for (name, file) in [
        ("expander", "planet_wars_expander"),
        ("idle", "planet_wars_idle"),
        ("random", "planet_wars_random"),
    ] {
        let wasm = std::fs::read(ludus_testkit::bot(file)).unwrap();
        let sha = ludus_host::sha256_hex(&wasm);
        store
            .bots()
            .submit(name, "planet-wars", &wasm, &sha, NOW)
            .unwrap();
    }
    let spec = LadderSpec {
        game: "planet-wars".into(),
        kind: Kind::RoundRobin,
        players: 2,
        rounds: 1,
        seed: 5,
        config: serde_json::json!({ "max_turns": 60 }),
        limits: Limits::default(),
        bots: store.bots().latest("planet-wars").unwrap(),
    };
    let options = RunOptions {
        keep_replays: Some(keep),
        ..RunOptions::new(2)
    };
    let ran = ladder::run(&store, sandbox(), &spec, &options, |_| {}).unwrap();
    (store, ran.ladder)
}

fn results(store: &Store, ladder: i64) -> Vec<MatchResult> {
    store.results().all(ladder).unwrap()
}

#[test]
fn a_ladder_that_keeps_none_serves_the_very_replays_one_that_keeps_all_stored() {
    let dir = tempfile::tempdir().unwrap();
    let (all, a) = played(&dir.path().join("all.db"), KeepReplays::ALL);
    let (none, n) = played(&dir.path().join("none.db"), KeepReplays::NONE);
    assert_eq!(
        none.ladders().get(n).unwrap().keep_replays,
        KeepReplays::NONE
    );
    let kept = results(&all, a);
    assert_eq!(kept.len(), 6);
    assert_eq!(kept, results(&none, n), "the same results, hashes included");
    assert_eq!(none.results().count_without_replay(n).unwrap(), 6);
    assert_eq!(all.results().count_without_replay(a).unwrap(), 0);
    for r in &kept {
        assert!(!none.results().has_replay(&r.match_id).unwrap());
        let (stored, origin) = replays::of_match(&all, sandbox(), &r.match_id).unwrap();
        assert_eq!(origin, Origin::Stored);
        let (again, origin) = replays::of_match(&none, sandbox(), &r.match_id).unwrap();
        assert_eq!(origin, Origin::Regenerated);
        assert_eq!(again.to_bytes(false), stored.to_bytes(false));
        assert_eq!(
            ludus_host::sha256_hex(&again.to_bytes(false)),
            r.replay_sha256
        );
    }
    // `replays keep` stores them: then they are served as stored.
    let stored = replays::keep(&none, sandbox(), n, |_, _| {}).unwrap();
    assert_eq!(stored, 6);
    assert_eq!(none.results().count_without_replay(n).unwrap(), 0);
    let (_, origin) = replays::of_match(&none, sandbox(), &kept[0].match_id).unwrap();
    assert_eq!(origin, Origin::Stored);
}

#[test]
fn a_regenerated_replay_that_differs_is_an_integrity_event_and_is_not_served() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.db");
    let (store, ladder) = played(&path, KeepReplays::NONE);
    let victim = results(&store, ladder)[2].clone();
    drop(store);
    // What a faulty worker would have recorded.
    let forged = ludus_host::sha256_hex(b"another replay");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE results SET replay_sha256 = ?1 WHERE match_id = ?2",
            rusqlite::params![forged, victim.match_id],
        )
        .unwrap();
    let store = Store::open(&path).unwrap();
    let e = replays::regenerate(&store, sandbox(), &victim.match_id).expect_err("differs");
    let ReplayError::Differs {
        recorded,
        got,
        event,
        ..
    } = &e
    else {
        panic!("not an integrity event: {e}");
    };
    assert_eq!(recorded, &forged);
    assert_eq!(got, &victim.replay_sha256);
    assert!(
        e.to_string().contains(&format!("integrity event {event}")),
        "{e}"
    );
    let status = ladder::status(&store, Some(ladder), None).unwrap();
    assert_eq!(status.status.integrity_events, 1);
    let logged = &status.integrity_events[0];
    assert_eq!((logged.index, logged.worker), (victim.index, 0));
    assert!(logged.verdict.as_deref().unwrap().contains("not served"));
    // The other matches are unaffected.
    let other = &results(&store, ladder)[0];
    replays::regenerate(&store, sandbox(), &other.match_id).unwrap();
}

#[test]
fn a_match_of_another_version_keeps_its_result_and_is_counted_as_lost() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.db");
    let (store, ladder) = played(&path, KeepReplays::NONE);
    let first = results(&store, ladder)[0].clone();
    drop(store);
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE ladders SET ludus_version = '0.0.1' WHERE id = ?1",
            [ladder],
        )
        .unwrap();
    let store = Store::open(&path).unwrap();
    let e = replays::of_match(&store, sandbox(), &first.match_id).expect_err("another version");
    assert!(
        matches!(&e, ReplayError::CannotRegenerate { reason, .. } if reason.contains("Ludus 0.0.1")),
        "{e}"
    );
    assert!(e.to_string().contains("replays keep"), "{e}");
    let lost = replays::lost(&store).unwrap();
    assert_eq!(lost.len(), 1);
    assert_eq!((lost[0].0, lost[0].1), (ladder, 6));
    // The results stand.
    assert_eq!(results(&store, ladder)[0], first);
}

/// A ladder of `n` scheduled matches with a policy, for pruning.
fn ladder_of(store: &Store, n: u32, keep: KeepReplays) -> i64 {
    let mut bots = Vec::new();
    for (name, wasm) in [
        ("a", &b"\0asm\x01\0\0\0"[..]),
        ("b", &b"\0asm\x01\0\0\0\0"[..]),
    ] {
        let sha = ludus_host::sha256_hex(wasm);
        bots.push(
            store
                .bots()
                .submit(name, "planet-wars", wasm, &sha, NOW)
                .unwrap()
                .bot,
        );
    }
    let schedule: Vec<ScheduledMatch> = (0..n)
        .map(|i| ScheduledMatch {
            index: i,
            group: i,
            seed: i as u64,
            seats: vec![0, 1],
        })
        .collect();
    let rules = ludus_engine::registry::info("planet-wars")
        .unwrap()
        .rules_version;
    store
        .ladders()
        .ensure(&NewLadder {
            key: "prune",
            game: "planet-wars",
            kind: "round-robin",
            players: 2,
            rounds: 1,
            seed: 0,
            config: &serde_json::Value::Null,
            limits: &serde_json::to_value(Limits::default()).unwrap(),
            needs: &Needs::of_this_build(rules),
            keep_replays: keep,
            bots: &bots,
            schedule: &schedule,
        })
        .unwrap()
}

/// Commits results for matches `range`, a fault in every third, each
/// with a replay unless the policy leaves it out.
fn commit(store: &Store, ladder: i64, range: std::ops::Range<u32>, keep: KeepReplays) {
    let worker = store
        .queue()
        .register_worker(1, Some(ladder), Duration::from_secs(60))
        .unwrap();
    let claimed = store
        .queue()
        .claim(worker, ladder, range.len(), Duration::from_secs(60))
        .unwrap();
    assert_eq!(claimed.len(), range.len());
    for i in range {
        let result = MatchResult {
            index: i,
            match_id: format!("m{i:04}"),
            placements: vec![1, 2],
            scores: vec![1.0, 0.0],
            faults: vec![u32::from(i % 3 == 0), 0],
            turns: 10,
            reason: "test".into(),
            aborted: None,
            replay_sha256: format!("sha{i}"),
            refused: Vec::new(),
        };
        let gz = if keep.stores(&result) {
            format!("gz{i}").into_bytes()
        } else {
            Vec::new()
        };
        store.queue().commit(worker, ladder, &result, &gz).unwrap();
    }
    store.queue().stop_worker(worker).unwrap();
}

fn kept(store: &Store, n: u32) -> Vec<u32> {
    (0..n)
        .filter(|i| store.results().has_replay(&format!("m{i:04}")).unwrap())
        .collect()
}

#[test]
fn recent_and_faults_keep_the_last_matches_and_the_faulted_ones() {
    let dir = tempfile::tempdir().unwrap();
    let postgres = ludus_testkit::postgres::shared().create_database();
    for location in [
        Location::File(dir.path().join("prune.db")),
        Location::Postgres(postgres),
    ] {
        let store = Store::connect(&location).unwrap();
        let keep: KeepReplays = "recent:4,faults".parse().unwrap();
        let ladder = ladder_of(&store, 20, keep);
        commit(&store, ladder, 0..10, keep);
        assert_eq!(kept(&store, 20), (0..10).collect::<Vec<_>>(), "{location}");
        retention::prune(&store, ladder, keep, 10).unwrap();
        // The last four (6 to 9), and the faulted ones before (0, 3).
        assert_eq!(kept(&store, 20), vec![0, 3, 6, 7, 8, 9], "{location}");
        commit(&store, ladder, 10..16, keep);
        retention::prune(&store, ladder, keep, 16).unwrap();
        assert_eq!(
            kept(&store, 20),
            vec![0, 3, 6, 9, 12, 13, 14, 15],
            "{location}"
        );
        assert_eq!(store.ladders().replays_pruned_below(ladder).unwrap(), 12);
        // Pruning again changes nothing.
        assert_eq!(retention::prune(&store, ladder, keep, 16).unwrap(), 0);
    }
}

#[test]
fn none_stores_nothing_and_faults_only_the_faulted() {
    for (policy, want) in [("none", vec![]), ("faults", vec![0, 3, 6, 9])] {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("l.db")).unwrap();
        let keep: KeepReplays = policy.parse().unwrap();
        let ladder = ladder_of(&store, 10, keep);
        commit(&store, ladder, 0..10, keep);
        retention::prune(&store, ladder, keep, 10).unwrap();
        assert_eq!(kept(&store, 10), want, "{policy}");
        // Every result is there, with its replay's hash.
        let all = store.results().all(ladder).unwrap();
        assert_eq!(all.len(), 10);
        assert!(all.iter().all(|r| r.replay_sha256.starts_with("sha")));
        assert_eq!(
            store.results().count_without_replay(ladder).unwrap() as usize,
            10 - want.len()
        );
    }
}
