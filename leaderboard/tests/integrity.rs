//! The database's invariants (`integrity::check`) and the repair of
//! ratings (`integrity::repair`), on both databases: a ladder played
//! through the queue checks clean, read-only; each invariant broken by a
//! direct SQL edit is reported by its name, naming the ladder and the
//! match or bot; and ratings that skipped matches (the fault a
//! fault-injection run found) are reported, repaired, and then equal
//! their recomputation.

use ludus_leaderboard::challenge::{self, ChallengeLimits, ChallengeRequest, Opponents, Test};
use ludus_leaderboard::integrity::{
    self, CheckOptions, Invariant, LadderReport, Repair, Report, Which, CHALLENGE, COUNTERS,
    DONE_RESULTS, RATED_PREFIX, RATINGS, SCHEDULE, SEAT_ELO, WASM,
};
use ludus_leaderboard::ratings::{self, System};
use ludus_leaderboard::retention::KeepReplays;
use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::store::{MatchResult, Needs, NewLadder, Store};
use std::time::Duration;

#[macro_use]
#[path = "support/backends.rs"]
mod backends;

use backends::{postgres, sqlite, Db};

on_both!(
    a_ladder_played_through_the_queue_checks_clean_and_the_check_writes_nothing,
    ratings_that_skipped_matches_are_reported_and_repair_makes_them_the_recomputed_ones,
    a_deleted_result_and_a_result_not_marked_done_are_reported,
    a_rating_one_ulp_off_is_reported_and_repaired,
    a_changed_counter_is_reported_naming_the_bot,
    a_hole_in_the_schedule_is_reported,
    a_changed_challenge_verdict_is_reported,
    a_bot_whose_bytes_do_not_hash_to_its_sha256_is_reported_with_bytes_only,
    the_check_reads_one_snapshot_while_another_connection_writes_and_writes_nothing,
);

const NOW: &str = "2026-01-01T00:00:00Z";
/// 2026-01-01T00:00:00Z in unix seconds.
const T0: i64 = 1_767_225_600;
const LEASE: Duration = Duration::from_secs(60);
/// Matches of the test ladder.
const N: u32 = 40;

fn sha(bytes: &[u8]) -> String {
    ludus_host::sha256_hex(bytes)
}

/// Three tiny modules (these tests play nothing), as bots a, b and c.
fn submit_bots(store: &Store) -> Vec<ludus_leaderboard::store::BotRecord> {
    for (i, name) in ["a", "b", "c"].into_iter().enumerate() {
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend(std::iter::repeat_n(0, i));
        store
            .bots()
            .submit(name, "planet-wars", &wasm, &sha(&wasm), NOW)
            .unwrap();
    }
    store.bots().latest("planet-wars").unwrap()
}

/// The seats of match `i`: the three bots in turn, and every fifth match
/// bot b seated twice (a house bot's copies: rated once, counted once).
fn seats(i: u32) -> Vec<usize> {
    match i % 5 {
        4 => vec![0, 1, 1],
        k => (0..3).map(|s| (s + k as usize) % 3).collect(),
    }
}

/// The result of match `i`: places vary with the index, some tied; match
/// 17 is void.
fn result(i: u32) -> MatchResult {
    if i == 17 {
        return MatchResult {
            index: i,
            reason: "void".into(),
            aborted: Some("void: no worker finished it in 3 attempts".into()),
            ..MatchResult::default()
        };
    }
    let placements = match i % 4 {
        0 => vec![1, 2, 3],
        1 => vec![3, 1, 2],
        2 => vec![2, 2, 1],
        _ => vec![2, 3, 1],
    };
    MatchResult {
        index: i,
        match_id: format!("m{i:04}"),
        placements,
        scores: vec![1.0, 0.5, 0.0],
        faults: vec![0, u32::from(i.is_multiple_of(3)), 0],
        turns: 10,
        reason: "done".into(),
        aborted: None,
        replay_sha256: sha(i.to_string().as_bytes()),
        refused: vec![0, 0, 0],
    }
}

/// A three-seat ladder of [`N`] matches, every one claimed by a worker.
fn ladder(store: &Store) -> (i64, i64) {
    let bots = submit_bots(store);
    let schedule: Vec<ScheduledMatch> = (0..N)
        .map(|i| ScheduledMatch {
            index: i,
            group: i,
            seed: 100 + u64::from(i),
            seats: seats(i),
        })
        .collect();
    let needs = Needs::of_this_build(
        ludus_engine::registry::info("planet-wars")
            .unwrap()
            .rules_version,
    );
    let id = store
        .ladders()
        .ensure(&NewLadder {
            key: "integrity",
            game: "planet-wars",
            kind: "round-robin",
            players: 3,
            rounds: 1,
            seed: 9,
            config: &serde_json::Value::Null,
            limits: &serde_json::to_value(ludus_host::Limits::default()).unwrap(),
            needs: &needs,
            keep_replays: KeepReplays::ALL,
            bots: &bots,
            schedule: &schedule,
        })
        .unwrap();
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    assert_eq!(
        store.queue().claim(w, id, N as usize, LEASE).unwrap().len(),
        N as usize
    );
    (id, w)
}

fn commit(store: &Store, w: i64, id: i64, i: u32) {
    let gz: &[u8] = if i == 17 { b"" } else { b"gz" };
    store.queue().commit(w, id, &result(i), gz).unwrap();
}

/// The ladder played through the queue as workers play it, rated every
/// few results, but for the matches `left` (not finished).
fn played(store: &Store, left: &[u32]) -> (i64, i64) {
    let (id, w) = ladder(store);
    for i in (0..N).filter(|i| !left.contains(i)) {
        commit(store, w, id, i);
        if i % 7 == 6 {
            ratings::apply(store, id).unwrap();
        }
    }
    ratings::apply(store, id).unwrap();
    (id, w)
}

fn check(store: &Store, id: i64) -> Report {
    integrity::check(store, &Which::Ladder(id), CheckOptions::default()).unwrap()
}

fn invariant<'r>(l: &'r LadderReport, name: &str) -> &'r Invariant {
    l.invariants
        .iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("no invariant {name} in {l:#?}"))
}

/// The names of the invariants that do not hold.
fn violated(report: &Report) -> Vec<&'static str> {
    report
        .ladders
        .iter()
        .flat_map(|l| &l.invariants)
        .chain(&report.bots)
        .filter(|i| !i.holds())
        .map(|i| i.name)
        .collect()
}

/// Whether a violation of `name` says every one of `words`.
fn says(report: &Report, name: &str, words: &[&str]) -> bool {
    report
        .violation_lines()
        .any(|(n, line)| n == name && words.iter().all(|w| line.contains(w)))
}

fn a_ladder_played_through_the_queue_checks_clean_and_the_check_writes_nothing(db: Db) {
    let store = db.store();
    // Match 38 is not finished: 39 is done and waits to be rated.
    let (id, _) = played(&store, &[38]);
    let before = store.dump().unwrap();
    let report = integrity::check(&store, &Which::All, CheckOptions { bytes: true }).unwrap();
    assert!(report.holds(), "{report:#?}");
    assert_eq!(report.violations, 0);
    assert_eq!(store.dump().unwrap(), before, "the check wrote nothing");
    let [l] = &report.ladders[..] else {
        panic!("{report:#?}")
    };
    assert_eq!((l.ladder, l.matches), (id, N));
    assert_eq!(
        (l.finished_prefix, l.rated_through, l.rating_lag),
        (38, 38, 1)
    );
    let names: Vec<_> = l.invariants.iter().map(|i| i.name).collect();
    assert_eq!(
        names,
        [
            SCHEDULE,
            DONE_RESULTS,
            RATED_PREFIX,
            SEAT_ELO,
            RATINGS,
            COUNTERS
        ]
    );
    assert_eq!(invariant(l, SCHEDULE).checked, u64::from(N));
    // 38 before the rated prefix's end, one of them void.
    assert_eq!(invariant(l, SEAT_ELO).checked, 37);
    assert_eq!(invariant(l, RATINGS).checked, 3);
    assert_eq!(invariant(l, COUNTERS).checked, 3);
    let wasm = report.bots.as_ref().unwrap();
    assert_eq!((wasm.name, wasm.checked, wasm.violated), (WASM, 3, 0));
    // The same ladder by its game (the latest of planet-wars).
    let by_game = integrity::check(
        &store,
        &Which::Game("planet-wars".into()),
        CheckOptions::default(),
    )
    .unwrap();
    assert_eq!(by_game.ladders[0].ladder, id);
    assert!(by_game.bots.is_none());
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["ladders"][0]["invariants"][0]["name"], "schedule");
    assert_eq!(json["ladders"][0]["rating_lag"], 1);
    assert_eq!(json["violations"], 0);
    assert_eq!(
        integrity::repair(&store, &Which::All).unwrap()[0].action,
        Repair::Consistent { rated_through: 38 }
    );
    assert_eq!(
        store.dump().unwrap(),
        before,
        "a consistent ladder is left alone"
    );
}

fn ratings_that_skipped_matches_are_reported_and_repair_makes_them_the_recomputed_ones(db: Db) {
    let store = db.store();
    let (id, w) = played(&store, &[10, 11, 12]);
    assert_eq!(store.ladders().get(id).unwrap().rated_through, 10);
    // The fault: the finished prefix read past matches not yet played, so
    // the ratings went on past them without them.
    db.raw(&format!(
        "UPDATE matches SET done = 1 WHERE ladder_id = {id} AND idx BETWEEN 10 AND 12"
    ));
    ratings::apply(&store, id).unwrap();
    db.raw(&format!(
        "UPDATE matches SET done = 0 WHERE ladder_id = {id} AND idx BETWEEN 10 AND 12"
    ));
    assert_eq!(store.ladders().get(id).unwrap().rated_through, N);
    let report = check(&store, id);
    assert_eq!(violated(&report), [RATED_PREFIX], "{report:#?}");
    assert!(says(
        &report,
        RATED_PREFIX,
        &[&format!("ladder {id}"), "before 40", "match 10 is not done"]
    ));
    // Then the skipped matches are played: they are never rated, and
    // `ladder recompute` differs for ever.
    for i in 10..13 {
        commit(&store, w, id, i);
    }
    assert_eq!(ratings::apply(&store, id).unwrap(), N);
    assert!(ratings::recompute(&store, Some(id), None).unwrap().differ() > 0);
    let report = check(&store, id);
    assert_eq!(violated(&report), [SEAT_ELO, RATINGS], "{report:#?}");
    for i in 10..13 {
        assert!(
            says(
                &report,
                SEAT_ELO,
                &[
                    &format!("ladder {id}"),
                    &format!("match {i}:"),
                    "no Elo recorded"
                ]
            ),
            "{report:#?}"
        );
    }
    // And every rated match after them has an Elo that left them out:
    // 13 to 39, but the void 17.
    assert!(says(
        &report,
        SEAT_ELO,
        &["match 13:", "recorded, recomputed"]
    ));
    assert!(!says(&report, SEAT_ELO, &["match 17:"]));
    assert_eq!(invariant(&report.ladders[0], SEAT_ELO).violated, 3 + 26);
    assert!(says(
        &report,
        RATINGS,
        &["bot a v1 (position 0)", "recomputed"]
    ));
    assert!(report.violations >= 4);

    let repaired = integrity::repair(&store, &Which::Ladder(id)).unwrap();
    match &repaired[0].action {
        Repair::Rerated {
            from,
            was,
            now,
            why,
        } => {
            assert_eq!((*from, *was, *now), (10, N, N));
            assert_eq!(
                why,
                &[
                    "29 rated matches without their recomputed Elo, the first 10",
                    "3 stored Elo ratings differ",
                    "3 counts of rated matches differ"
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    let report = check(&store, id);
    assert!(report.holds(), "{report:#?}");
    let r = ratings::recompute(&store, Some(id), None).unwrap();
    assert_eq!((r.differ(), r.covered), (0, N));
    let stored = store.ratings().get(id, System::Elo.key()).unwrap();
    for (p, (_, s, c)) in r.bots.iter().enumerate() {
        assert_eq!(s.unwrap().to_bits(), c.to_bits());
        assert_eq!(stored[p].1.to_bits(), c.to_bits());
    }
    // Rated again from the start, the same numbers, to the bit.
    store.ratings().set_rated_through(id, 0).unwrap();
    db.raw(&format!(
        "UPDATE match_seats SET elo = NULL WHERE ladder_id = {id}"
    ));
    ratings::apply(&store, id).unwrap();
    assert_eq!(store.ratings().get(id, System::Elo.key()).unwrap(), stored);
    assert!(check(&store, id).holds());
}

fn a_deleted_result_and_a_result_not_marked_done_are_reported(db: Db) {
    let store = db.store();
    let (id, _) = played(&store, &[]);
    db.raw(&format!(
        "DELETE FROM results WHERE ladder_id = {id} AND idx = 5"
    ));
    db.raw(&format!(
        "UPDATE matches SET done = 0 WHERE ladder_id = {id} AND idx = 7"
    ));
    let report = check(&store, id);
    assert!(says(
        &report,
        DONE_RESULTS,
        &[
            &format!("ladder {id}"),
            "match 5:",
            "marked done, but has no result"
        ]
    ));
    assert!(says(
        &report,
        DONE_RESULTS,
        &["match 7:", "has a result, but is not marked done"]
    ));
    assert_eq!(invariant(&report.ladders[0], DONE_RESULTS).violated, 2);
    // The ratings cover match 7, which is not done; and match 5's seats
    // keep an Elo without a result.
    assert!(says(&report, RATED_PREFIX, &["match 7 is not done"]));
    assert!(says(&report, SEAT_ELO, &["match 5:", "not rated"]));
    assert!(!report.holds());
}

/// Sets a stored Elo rating to `value` exactly, by SQL.
fn set_rating(db: &Db, ladder: i64, position: usize, value: f64) {
    match db {
        Db::Sqlite(dir) => {
            let c = rusqlite::Connection::open(dir.path().join("ludus.db")).unwrap();
            c.execute(
                "UPDATE ratings SET rating = ?1 WHERE ladder_id = ?2 AND position = ?3 AND system = 'elo'",
                rusqlite::params![value, ladder, position as i64],
            )
            .unwrap();
        }
        // The shortest text that reads back as the same double.
        Db::Postgres(_) => {
            db.raw(&format!(
                "UPDATE ratings SET rating = '{value:?}'::float8 WHERE ladder_id = {ladder} AND position = {position} AND system = 'elo'"
            ));
        }
    }
}

fn a_rating_one_ulp_off_is_reported_and_repaired(db: Db) {
    let store = db.store();
    let (id, _) = played(&store, &[]);
    let stored = store.ratings().get(id, System::Elo.key()).unwrap();
    let off = f64::from_bits(stored[2].1.to_bits() + 1);
    set_rating(&db, id, 2, off);
    assert_eq!(
        store.ratings().get(id, System::Elo.key()).unwrap()[2]
            .1
            .to_bits(),
        off.to_bits(),
        "one ulp off"
    );
    let report = check(&store, id);
    assert_eq!(violated(&report), [RATINGS], "{report:#?}");
    assert!(says(
        &report,
        RATINGS,
        &[
            &format!("ladder {id}"),
            "bot c v1 (position 2)",
            &format!("{off:?}")
        ]
    ));
    let repaired = integrity::repair(&store, &Which::All).unwrap();
    assert!(
        matches!(repaired[0].action, Repair::Rerated { from: N, .. }),
        "{repaired:?}"
    );
    assert!(check(&store, id).holds());
    assert_eq!(store.ratings().get(id, System::Elo.key()).unwrap(), stored);
}

fn a_changed_counter_is_reported_naming_the_bot(db: Db) {
    let store = db.store();
    let (id, _) = played(&store, &[]);
    db.raw(&format!(
        "UPDATE ladder_bots SET scheduled_matches = scheduled_matches + 1 WHERE ladder_id = {id} AND position = 1"
    ));
    db.raw(&format!(
        "UPDATE ladder_bots SET rated_matches = rated_matches - 1 WHERE ladder_id = {id} AND position = 2"
    ));
    let report = check(&store, id);
    assert_eq!(violated(&report), [COUNTERS], "{report:#?}");
    // Bot b is seated twice in every fifth match: 40 matches, counted once each.
    assert!(says(
        &report,
        COUNTERS,
        &[
            &format!("ladder {id}"),
            "bot b v1 (position 1)",
            "scheduled_matches is 41",
            "in 40 matches"
        ]
    ));
    assert!(says(
        &report,
        COUNTERS,
        &["bot c v1 (position 2)", "rated_matches"]
    ));
    assert_eq!(report.violations, 2);
}

fn a_hole_in_the_schedule_is_reported(db: Db) {
    let store = db.store();
    let (id, _) = played(&store, &[30]);
    db.raw(&format!(
        "DELETE FROM match_seats WHERE ladder_id = {id} AND idx = 30"
    ));
    db.raw(&format!(
        "DELETE FROM matches WHERE ladder_id = {id} AND idx = 30"
    ));
    let report = check(&store, id);
    assert!(says(
        &report,
        SCHEDULE,
        &[&format!("ladder {id}"), "match index 30 is missing"]
    ));
    assert_eq!(
        invariant(&report.ladders[0], SCHEDULE).checked,
        u64::from(N - 1)
    );
    assert!(!report.holds());
}

fn a_changed_challenge_verdict_is_reported(db: Db) {
    let store = db.store();
    let alice = store
        .accounts()
        .add("alice", "a", false, NOW)
        .unwrap()
        .unwrap();
    let bob = store
        .accounts()
        .add("bob", "b", false, NOW)
        .unwrap()
        .unwrap();
    for (owner, name, pad) in [(alice, "mine", 0), (bob, "theirs", 1)] {
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend(std::iter::repeat_n(0, pad));
        store.accounts().take_bot_name(name, owner).unwrap();
        store
            .bots()
            .submit_as(name, "planet-wars", &wasm, &sha(&wasm), NOW, false)
            .unwrap();
    }
    let request = ChallengeRequest {
        bot: "mine".parse().unwrap(),
        opponents: Opponents::Listed(vec!["theirs".parse().unwrap()]),
        test: Test::Games { games: 4 },
        max_games: None,
        seed: 5,
    };
    let limits = ChallengeLimits::default();
    let challenge = challenge::create(&store, alice, &request, &limits, T0).unwrap();
    let ladder = challenge::status(&store, challenge).unwrap().ladder;
    let w = store.queue().register_worker(1, None, LEASE).unwrap();
    // Played as the scheduler and a worker would: the tested bot (position
    // 0) wins every game.
    for _ in 0..10 {
        challenge::top_up(&store, &limits, T0).unwrap();
        if store.challenges().active().unwrap().is_empty() {
            break;
        }
        for m in store.queue().claim(w, ladder, 8, LEASE).unwrap() {
            let placements = m
                .seats
                .iter()
                .map(|&p| if p == 0 { 1 } else { 2 })
                .collect();
            let r = MatchResult {
                index: m.index,
                match_id: format!("c{}", m.index),
                placements,
                scores: vec![1.0, 0.0],
                faults: vec![0, 0],
                turns: 5,
                reason: "done".into(),
                aborted: None,
                replay_sha256: sha(&m.index.to_le_bytes()),
                refused: vec![0, 0],
            };
            store.queue().commit(w, ladder, &r, b"gz").unwrap();
        }
    }
    let row = store.challenges().get(challenge).unwrap().unwrap();
    assert_eq!(
        (row.verdict.as_deref(), row.ended_reason.as_deref()),
        (Some("none"), Some("played its 4 games"))
    );
    let report = check(&store, ladder);
    assert!(report.holds(), "{report:#?}");
    let names: Vec<_> = report.ladders[0]
        .invariants
        .iter()
        .map(|i| i.name)
        .collect();
    assert_eq!(
        names,
        [SCHEDULE, DONE_RESULTS, RATED_PREFIX, COUNTERS, CHALLENGE],
        "a challenge's ladder is never rated"
    );
    assert_eq!(invariant(&report.ladders[0], CHALLENGE).checked, 4);
    assert_eq!(report.ladders[0].rating_lag, 0);

    db.raw(&format!(
        "UPDATE challenges SET verdict = 'stronger' WHERE id = {challenge}"
    ));
    let report = check(&store, ladder);
    assert_eq!(violated(&report), [CHALLENGE], "{report:#?}");
    assert!(says(
        &report,
        CHALLENGE,
        &[
            &format!("challenge {challenge}"),
            &format!("ladder {ladder}"),
            "`stronger`",
            "give `none`"
        ]
    ));
    db.raw(&format!(
        "UPDATE challenges SET verdict = 'none', ended_reason = 'played its 6 games' WHERE id = {challenge}"
    ));
    let report = check(&store, ladder);
    assert!(
        says(
            &report,
            CHALLENGE,
            &["played its 6 games", "(played its 4 games)"]
        ),
        "{report:#?}"
    );
    assert_eq!(
        integrity::repair(&store, &Which::Ladder(ladder)).unwrap()[0].action,
        Repair::Unrated
    );
}

fn a_bot_whose_bytes_do_not_hash_to_its_sha256_is_reported_with_bytes_only(db: Db) {
    let store = db.store();
    let (id, _) = played(&store, &[]);
    let b = store.ladders().get(id).unwrap().bots[1].sha256.clone();
    match &db {
        Db::Sqlite(_) => db.raw(&format!(
            "UPDATE bots SET wasm = X'0061736d01000000ff' WHERE sha256 = '{b}'"
        )),
        Db::Postgres(_) => db.raw(&format!(
            "UPDATE bots SET wasm = decode('0061736d01000000ff', 'hex') WHERE sha256 = '{b}'"
        )),
    };
    assert!(
        check(&store, id).holds(),
        "without --bytes the wasm is not read"
    );
    let report =
        integrity::check(&store, &Which::Ladder(id), CheckOptions { bytes: true }).unwrap();
    assert_eq!(violated(&report), [WASM], "{report:#?}");
    assert!(says(
        &report,
        WASM,
        &[&format!("bot {}", ludus_host::short_id(&b)), "hashes to"]
    ));
    assert_eq!(report.violations, 1);
}

fn the_check_reads_one_snapshot_while_another_connection_writes_and_writes_nothing(db: Db) {
    let store = db.store();
    let (id, w) = played(&store, &[30, 31]);
    let other = db.store();
    let done = |s: &Store| s.integrity().schedule_figures(id, 0).unwrap().done;
    let (first, second) = store
        .integrity()
        .snapshot(|| {
            let first = done(&store);
            // A worker's commit on another connection, meanwhile.
            commit(&other, w, id, 30);
            assert_eq!(done(&other), first + 1);
            let second = done(&store);
            // Read-only: a write in the snapshot fails.
            assert!(store.ratings().set_rated_through(id, 0).is_err());
            Ok::<_, ludus_leaderboard::Error>((first, second))
        })
        .unwrap();
    assert_eq!(second, first, "the snapshot does not see the commit");
    assert_eq!(done(&store), first + 1, "after it, the connection sees it");
    assert_eq!(store.ladders().get(id).unwrap().rated_through, 30);
    // The connection is out of the snapshot: it writes again.
    commit(&store, w, id, 31);
    assert!(check(&store, id).holds());
}

/// The check's cost at size: 100 bots, 100 000 finished and rated matches
/// of a two-seat ladder, stored through the library without playing them
/// (`docs/benchmarks.md`, "Checking the invariants"). Not part of the
/// suite: `cargo test -p ludus-leaderboard --test integrity -- --ignored
/// --nocapture the_check_of_100_000_matches` (`LUDUS_BENCH_MATCHES` for
/// another size).
#[test]
#[ignore]
fn the_check_of_100_000_matches() {
    let matches: u32 = std::env::var("LUDUS_BENCH_MATCHES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100_000);
    // `LUDUS_BENCH_DB=FILE` keeps the database (a new file) for the
    // command itself: `ludus ladder check --all --db FILE`;
    // `LUDUS_BENCH_POSTGRES=1` measures on PostgreSQL instead.
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::var_os("LUDUS_BENCH_DB")
        .map_or_else(|| dir.path().join("ludus.db"), std::path::PathBuf::from);
    let on_postgres = std::env::var_os("LUDUS_BENCH_POSTGRES").is_some();
    let pg = on_postgres.then(postgres);
    let store = match &pg {
        Some(db) => db.store(),
        None => Store::open(&path).unwrap(),
    };
    let started = std::time::Instant::now();
    let n = 100;
    for i in 0..n {
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend(std::iter::repeat_n(0, i));
        let name = format!("bot-{i:03}");
        store
            .bots()
            .submit(&name, "planet-wars", &wasm, &sha(&wasm), NOW)
            .unwrap();
    }
    let bots = store.bots().latest("planet-wars").unwrap();
    let schedule: Vec<ScheduledMatch> = (0..matches)
        .map(|k| {
            let a = k as usize % n;
            let b = (a + 1 + (k as usize / n) % (n - 1)) % n;
            ScheduledMatch {
                index: k,
                group: k / 2,
                seed: u64::from(k),
                seats: vec![a, b],
            }
        })
        .collect();
    let needs = Needs::of_this_build(
        ludus_engine::registry::info("planet-wars")
            .unwrap()
            .rules_version,
    );
    let id = store
        .ladders()
        .ensure(&NewLadder {
            key: "bench",
            game: "planet-wars",
            kind: "round-robin",
            players: 2,
            rounds: 1,
            seed: 1,
            config: &serde_json::Value::Null,
            limits: &serde_json::to_value(ludus_host::Limits::default()).unwrap(),
            needs: &needs,
            keep_replays: KeepReplays::NONE,
            bots: &bots,
            schedule: &schedule,
        })
        .unwrap();
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    for m in &schedule {
        let placements = match m.index % 10 {
            9 => vec![1, 1],
            _ if m.seats[0] < m.seats[1] => vec![1, 2],
            _ => vec![2, 1],
        };
        let r = MatchResult {
            index: m.index,
            match_id: sha(format!("bench/{}", m.index).as_bytes()),
            placements,
            scores: vec![1.0, 0.0],
            faults: vec![0, 0],
            turns: 100,
            reason: "synthetic".into(),
            aborted: None,
            replay_sha256: sha(m.index.to_string().as_bytes()),
            refused: vec![0, 0],
        };
        store.queue().commit(w, id, &r, b"").unwrap();
        if m.index % 10_000 == 9_999 {
            ratings::apply_with(&store, id, ratings::Fit::Later).unwrap();
        }
    }
    ratings::apply(&store, id).unwrap();
    let made = started.elapsed();
    let mut times = Vec::new();
    for _ in 0..5 {
        let report = integrity::check(&store, &Which::All, CheckOptions::default()).unwrap();
        assert!(report.holds(), "{report:#?}");
        assert_eq!(report.ladders[0].matches, matches);
        times.push(report.seconds);
    }
    times.sort_by(f64::total_cmp);
    let size = match &pg {
        Some(db) => db.raw("SELECT pg_database_size(current_database())"),
        None => std::fs::metadata(&path).map_or(0, |m| m.len()).to_string(),
    };
    println!(
        "{} {matches} matches, {n} bots (made in {:.0} s, {:.0} MiB): `ladder check --all` in {:.3} s (median of 5; fastest {:.3} s, slowest {:.3} s)",
        if on_postgres { "PostgreSQL:" } else { "SQLite:" },
        made.as_secs_f64(),
        size.trim().parse::<f64>().unwrap_or(0.0) / f64::from(1 << 20),
        times[2],
        times[0],
        times[4]
    );
}
