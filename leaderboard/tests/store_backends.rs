//! Every store operation, on both databases: each test below runs once on
//! a SQLite file and once on a database of a throw-away PostgreSQL cluster
//! (started by the test process, removed at its end). The queue's rules
//! are pinned here: claims in schedule order and never to two workers,
//! leases that expire and are renewed, void after a few attempts, results
//! that arrive twice, ratings over the finished prefix, heartbeats.

use ludus_leaderboard::ratings::{self, System};
use ludus_leaderboard::retention::KeepReplays;
use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::store::{
    ClaimNext, Committed, Location, MatchResult, Needs, NewLadder, Store, StoreError, MAX_ATTEMPTS,
};
use std::time::Duration;

const NOW: &str = "2026-01-01T00:00:00Z";
const LEASE: Duration = Duration::from_secs(60);
const SHORT: Duration = Duration::from_millis(300);

#[macro_use]
#[path = "support/backends.rs"]
mod backends;

use backends::{postgres, sqlite, Db};

on_both!(
    a_stale_append_is_refused_whole,
    submitting_identical_bytes_is_a_no_op_and_new_bytes_a_new_version,
    a_bot_is_fetched_by_sha256_and_refused_when_its_bytes_do_not_hash_to_it,
    a_ladder_is_created_once_with_what_it_needs_and_found_again_by_its_key,
    claims_follow_schedule_order_and_never_give_one_match_to_two_workers,
    a_commit_claims_the_next_matches_in_the_same_step,
    several_results_go_in_with_one_claim,
    a_worker_of_every_ladder_takes_them_in_turn,
    an_expired_lease_makes_a_match_claimable_again_and_a_renewed_one_does_not,
    a_match_no_claim_finished_is_void_after_the_last_attempt,
    a_result_that_arrives_twice_the_same_is_ignored,
    a_different_second_result_is_an_integrity_event_and_verification_keeps_the_right_one,
    a_verification_that_agrees_with_the_second_result_replaces_the_kept_one,
    ratings_cover_only_the_finished_prefix,
    the_upload_quota_is_never_overrun_by_uploads_at_the_same_moment,
    a_crashed_worker_keeps_its_error_and_workers_gone_a_day_are_pruned,
    a_heartbeat_renews_the_matches_its_worker_holds_and_no_other,
    the_finished_prefix_never_runs_past_a_match_appended_as_it_is_read,
    done_marks_and_results_are_compared_in_one_snapshot_while_results_go_in,
    a_stopped_worker_gives_back_its_matches_without_spending_an_attempt,
    a_gone_worker_of_this_host_has_its_leases_released_at_once,
    a_run_starting_releases_a_killed_workers_leases_without_waiting,
    a_worker_is_gone_once_two_heartbeats_pass_without_one,
    a_killed_worker_is_found_dead_not_stopped_and_comes_back_if_it_beats_again,
    status_counts_done_leased_and_pending_and_lists_workers,
    a_worker_refuses_a_ladder_that_needs_another_build_and_says_what_differs,
    a_stored_match_is_found_by_a_unique_prefix_of_its_id,
    a_database_of_a_newer_ludus_is_refused_with_its_version,
    a_database_of_another_program_is_foreign,
    a_bots_matches_are_found_through_the_bot_index_with_its_elo_after_each,
    a_database_from_before_the_bot_index_gets_it_when_opened,
    a_database_of_schema_5_or_6_opens_with_its_bot_index_and_gets_its_seats_outcomes,
    the_house_account_is_found_in_any_case_owns_its_names_and_adopts_the_operators,
);

/// A replay is gzip already: PostgreSQL stores it as it is, out of line,
/// without trying to compress it again (schema 6), and gives it back whole.
#[test]
fn on_postgres_replays_are_stored_without_a_second_compression() {
    let db = postgres();
    let mut store = db.store();
    let id = ladder(&mut store, 1);
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(w, id, 1, LEASE).unwrap();
    let gz: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    store.queue().commit(w, id, &result(0, "0"), &gz).unwrap();
    for (table, column) in [("replays", "replay_gz"), ("integrity_events", "replay_gz")] {
        let storage = db.raw(&format!(
            "SELECT attstorage FROM pg_attribute WHERE attrelid = '{table}'::regclass AND attname = '{column}'"
        ));
        assert_eq!(
            storage, "e",
            "{table}.{column} is stored as it is, out of line"
        );
    }
    assert_eq!(
        db.raw("SELECT pg_column_compression(replay_gz) IS NULL AND length(replay_gz) = 20000 FROM replays"),
        "t"
    );
    assert_eq!(
        store
            .results()
            .replay(&result(0, "0").match_id)
            .unwrap()
            .unwrap(),
        gz
    );
}

fn sha(bytes: &[u8]) -> String {
    ludus_host::sha256_hex(bytes)
}

/// Two bots (tiny modules; these tests play nothing).
fn bots(store: &mut Store) -> Vec<ludus_leaderboard::store::BotRecord> {
    for (name, wasm) in [
        ("a", &b"\0asm\x01\0\0\0"[..]),
        ("b", &b"\0asm\x01\0\0\0\0"[..]),
    ] {
        store
            .bots()
            .submit(name, "planet-wars", wasm, &sha(wasm), NOW)
            .unwrap();
    }
    store.bots().latest("planet-wars").unwrap()
}

fn this_build() -> Needs {
    Needs::of_this_build(
        ludus_engine::registry::info("planet-wars")
            .unwrap()
            .rules_version,
    )
}

/// A two-seat ladder of `n` matches between bots a and b.
fn ladder_of(store: &mut Store, n: u32, needs: &Needs) -> i64 {
    let bots = bots(store);
    let schedule: Vec<ScheduledMatch> = (0..n)
        .map(|i| ScheduledMatch {
            index: i,
            group: i / 2,
            seed: 100 + i as u64 / 2,
            seats: if i % 2 == 0 { vec![0, 1] } else { vec![1, 0] },
        })
        .collect();
    store
        .ladders()
        .ensure(&NewLadder {
            key: &format!("key-{n}-{}", needs.rules_version),
            game: "planet-wars",
            kind: "round-robin",
            players: 2,
            rounds: 1,
            seed: 9,
            config: &serde_json::Value::Null,
            limits: &serde_json::to_value(ludus_host::Limits::default()).unwrap(),
            needs,
            keep_replays: KeepReplays::ALL,
            bots: &bots,
            schedule: &schedule,
        })
        .unwrap()
}

fn ladder(store: &mut Store, n: u32) -> i64 {
    ladder_of(store, n, &this_build())
}

/// A result of match `index`: seat 0 wins; `replay` tells replays apart.
fn result(index: u32, replay: &str) -> MatchResult {
    MatchResult {
        index,
        match_id: format!("m{index:04}"),
        placements: vec![1, 2],
        scores: vec![1.0, 0.0],
        faults: vec![0, 0],
        turns: 10,
        reason: "done".into(),
        aborted: None,
        replay_sha256: sha(replay.as_bytes()),
        refused: Vec::new(),
    }
}

fn indices(claimed: &[ludus_leaderboard::store::Claimed]) -> Vec<u32> {
    claimed.iter().map(|c| c.index).collect()
}

fn submitting_identical_bytes_is_a_no_op_and_new_bytes_a_new_version(db: Db) {
    let store = db.store();
    let (a, b) = (
        b"\0asm\x01\0\0\0".as_slice(),
        b"\0asm\x01\0\0\0\0".as_slice(),
    );
    let first = store
        .bots()
        .submit("x", "planet-wars", a, &sha(a), NOW)
        .unwrap();
    assert!(first.new_version && first.bot.version == 1);
    let again = store
        .bots()
        .submit("x", "planet-wars", a, &sha(a), NOW)
        .unwrap();
    assert!(!again.new_version && again.bot.version == 1);
    let second = store
        .bots()
        .submit("x", "planet-wars", b, &sha(b), NOW)
        .unwrap();
    assert!(second.new_version && second.bot.version == 2);
    assert_eq!(store.bots().get("x", Some(1)).unwrap().sha256, sha(a));
    assert_eq!(store.bots().get("x", None).unwrap().sha256, sha(b));
    assert_eq!(store.bots().latest("planet-wars").unwrap().len(), 1);
    assert!(matches!(
        store.bots().get("x", Some(9)),
        Err(StoreError::UnknownVersion { .. })
    ));
    assert!(matches!(
        store.bots().get("nobody", None),
        Err(StoreError::UnknownBot(_))
    ));
}

fn the_house_account_is_found_in_any_case_owns_its_names_and_adopts_the_operators(db: Db) {
    use ludus_leaderboard::house;
    use ludus_leaderboard::store::Claim;
    let store = db.store();
    let id = house::account(&store).unwrap();
    assert_eq!(house::account(&store).unwrap(), id);
    assert_eq!(store.accounts().named("HoUsE").unwrap().unwrap().id, id);
    assert!(store.accounts().named("nobody").unwrap().is_none());
    let wasm = b"\0asm\x01\0\0\0".as_slice();
    assert_eq!(
        store.accounts().take_bot_name("mine", id).unwrap(),
        Claim::Taken
    );
    for name in ["mine", "operators"] {
        store
            .bots()
            .submit(name, "planet-wars", wasm, &sha(wasm), NOW)
            .unwrap();
    }
    assert!(!store.accounts().adopt("mine", id).unwrap());
    assert!(!store.accounts().adopt("OPERATORS", id).unwrap());
    assert!(!store.accounts().adopt("nobody", id).unwrap());
    assert!(store.accounts().adopt("operators", id).unwrap());
    assert_eq!(
        house::bots(&store).unwrap().into_iter().collect::<Vec<_>>(),
        ["mine", "operators"]
    );
    assert_eq!(store.accounts().owned_by(id + 1).unwrap().len(), 0);
}

fn a_bot_is_fetched_by_sha256_and_refused_when_its_bytes_do_not_hash_to_it(db: Db) {
    let store = db.store();
    let wasm = b"\0asm\x01\0\0\0";
    store
        .bots()
        .submit("x", "planet-wars", wasm, &sha(wasm), NOW)
        .unwrap();
    assert_eq!(store.bots().wasm(&sha(wasm)).unwrap(), wasm);
    assert!(store.bots().contains(&sha(wasm)).unwrap());
    assert!(matches!(
        store.bots().wasm(&sha(b"other")),
        Err(StoreError::NoWasm { .. })
    ));
    // A bit flipped in the database: the bytes no longer hash to their key.
    db.raw(match db {
        Db::Sqlite(_) => "UPDATE bots SET wasm = X'0061736d'",
        Db::Postgres(_) => "UPDATE bots SET wasm = '\\x0061736d'::bytea",
    });
    let err = store.bots().wasm(&sha(wasm)).expect_err("damaged");
    assert!(matches!(err, StoreError::WasmMismatch { .. }), "{err:?}");
    assert!(err.to_string().contains("submit it again"), "{err}");
}

fn a_ladder_is_created_once_with_what_it_needs_and_found_again_by_its_key(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 4);
    assert_eq!(ladder(&mut store, 4), id, "the same key, the same ladder");
    let record = store.ladders().get(id).unwrap();
    assert_eq!(record.needs, this_build());
    assert_eq!(record.bots.len(), 2);
    assert_eq!(record.rated_through, 0);
    assert_eq!(store.ladders().schedule(id).unwrap().len(), 4);
    assert_eq!(store.ladders().schedule_len(id).unwrap(), 4);
    assert_eq!(store.queue().remaining(id).unwrap(), 4);
    assert_eq!(store.queue().ladders_with_work().unwrap(), vec![id]);
    assert_eq!(store.ladders().pick(None, Some("planet-wars")).unwrap(), id);
    assert!(matches!(
        store.ladders().pick(None, Some("kore")),
        Err(StoreError::NoLadder { .. })
    ));
}

fn claims_follow_schedule_order_and_never_give_one_match_to_two_workers(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 6);
    let other = db.store();
    let w1 = store.queue().register_worker(2, Some(id), LEASE).unwrap();
    let w2 = other.queue().register_worker(2, Some(id), LEASE).unwrap();
    let first = store.queue().claim(w1, id, 2, LEASE).unwrap();
    assert_eq!(indices(&first), vec![0, 1]);
    assert!(first.iter().all(|c| c.attempt == 1 && !c.verify));
    assert_eq!(first[0].seats, vec![0, 1]);
    assert_eq!(first[0].seed, 100);
    let second = other.queue().claim(w2, id, 3, LEASE).unwrap();
    assert_eq!(indices(&second), vec![2, 3, 4]);
    let third = store.queue().claim(w1, id, 5, LEASE).unwrap();
    assert_eq!(indices(&third), vec![5]);
    assert!(other.queue().claim(w2, id, 5, LEASE).unwrap().is_empty());
    // Many claims at once from threads of their own, on a fresh ladder:
    // every match goes to exactly one of them.
    let big = ladder(&mut store, 40);
    let claims: Vec<Vec<u32>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let loc = db.location();
                s.spawn(move || {
                    let st = Store::connect(&loc).unwrap();
                    let w = st.queue().register_worker(1, Some(big), LEASE).unwrap();
                    let mut mine = Vec::new();
                    loop {
                        let got = st.queue().claim(w, big, 3, LEASE).unwrap();
                        if got.is_empty() {
                            return mine;
                        }
                        mine.extend(indices(&got));
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<u32> = claims.concat();
    all.sort();
    assert_eq!(all, (0..40).collect::<Vec<_>>(), "each match claimed once");
}

/// A worker's step: its result goes in and its next matches come out, in
/// schedule order, never the match just committed, even when that match's
/// lease had run out; a result that arrived before is still compared.
fn several_results_go_in_with_one_claim(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 8);
    let w1 = store.queue().register_worker(4, Some(id), LEASE).unwrap();
    let w2 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    assert_eq!(
        indices(&store.queue().claim(w1, id, 4, LEASE).unwrap()),
        vec![0, 1, 2, 3]
    );
    store
        .queue()
        .commit(w1, id, &result(1, "r1"), b"gz1")
        .unwrap();
    let next = |n| ClaimNext {
        ladder: id,
        n,
        lease: LEASE,
    };
    // Three results at once: two first results, and a second copy of match
    // 1's that differs from the kept one. The claim passes over all three.
    let (r0, r1, r2) = (result(0, "r0"), result(1, "other"), result(2, "r2"));
    let (committed, claimed) = store
        .queue()
        .commit_many_and_claim(
            w1,
            id,
            &[(&r2, b"gz2"), (&r1, b"gz1b"), (&r0, b"gz0")],
            &next(3),
        )
        .unwrap();
    assert!(matches!(
        committed[..],
        [
            Committed::Recorded,
            Committed::Differs { .. },
            Committed::Recorded
        ]
    ));
    // Match 1 is to be verified: claimable again, after the claim or
    // before it (SQLite compares first; PostgreSQL claims in the same
    // statement and compares after).
    let first = indices(&claimed);
    assert!(
        first == [1, 4, 5] || first == [4, 5, 6],
        "the claim passes over the results: {first:?}"
    );
    assert_eq!(store.results().replay("m0000").unwrap().unwrap(), b"gz0");
    assert_eq!(store.results().replay("m0002").unwrap().unwrap(), b"gz2");
    assert_eq!(
        store.results().replay("m0001").unwrap().unwrap(),
        b"gz1",
        "the kept one stays"
    );
    assert_eq!(store.queue().worker(w1).unwrap().unwrap().played, 3);
    assert_eq!(
        store.results().all(id).unwrap(),
        vec![result(0, "r0"), result(1, "r1"), result(2, "r2")]
    );
    // One unknown match among the results: the others go in, nothing is
    // claimed, and the answer names it.
    let (r3, r9) = (result(3, "r3"), result(9, "r9"));
    assert!(matches!(
        store
            .queue()
            .commit_many_and_claim(w1, id, &[(&r3, b"gz3"), (&r9, b"gz9")], &next(2)),
        Err(StoreError::UnknownIndex { index: 9, .. })
    ));
    assert_eq!(store.results().all(id).unwrap().len(), 4);
    let mut all = first.clone();
    all.extend(indices(&store.queue().claim(w2, id, 8, LEASE).unwrap()));
    all.sort();
    assert_eq!(all, vec![1, 4, 5, 6, 7]);
    // Two copies of one match's result in one step (its lease ran out and
    // it came back to the same worker): the first goes in, the second is
    // compared with it.
    let (r6, r6b) = (result(6, "r6"), result(6, "r6b"));
    let (twice, _) = store
        .queue()
        .commit_many_and_claim(
            w2,
            id,
            &[(&r6, b"gz6"), (&r6, b"gz6"), (&r6b, b"gz6b")],
            &next(0),
        )
        .unwrap();
    assert!(matches!(
        twice[..],
        [
            Committed::Recorded,
            Committed::Same,
            Committed::Differs { .. }
        ]
    ));
    assert_eq!(store.results().replay("m0006").unwrap().unwrap(), b"gz6");
    // No result at all: a plain claim, of the one match not held: 6, to be
    // verified.
    let (none, more) = store
        .queue()
        .commit_many_and_claim(w1, id, &[], &next(2))
        .unwrap();
    assert!(none.is_empty());
    assert_eq!(indices(&more), vec![6]);
    assert!(more[0].verify);
}

fn a_commit_claims_the_next_matches_in_the_same_step(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 6);
    let w1 = store.queue().register_worker(2, Some(id), SHORT).unwrap();
    let w2 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    assert_eq!(
        indices(&store.queue().claim(w1, id, 2, SHORT).unwrap()),
        vec![0, 1]
    );
    std::thread::sleep(SHORT + Duration::from_millis(100));
    // Match 0's lease ran out while it was played: it is committed, and the
    // claim passes over it and takes match 1 back with match 2.
    let (committed, next) = store
        .queue()
        .commit_and_claim(
            w1,
            id,
            &result(0, "r0"),
            b"gz0",
            &ClaimNext {
                ladder: id,
                n: 2,
                lease: SHORT,
            },
        )
        .unwrap();
    assert_eq!(committed, Committed::Recorded);
    assert_eq!(indices(&next), vec![1, 2]);
    assert_eq!(next[0].attempt, 2, "match 1's second claim");
    assert_eq!(store.results().all(id).unwrap(), vec![result(0, "r0")]);
    assert_eq!(store.results().replay("m0000").unwrap().unwrap(), b"gz0");
    assert_eq!(store.queue().worker(w1).unwrap().unwrap().played, 1);
    // Another worker's claim skips what the step leased.
    assert_eq!(
        indices(&store.queue().claim(w2, id, 1, LEASE).unwrap()),
        vec![3]
    );
    // A late copy of match 0's result, with a claim of nothing: compared,
    // and the same.
    let (late, none) = store
        .queue()
        .commit_and_claim(
            w2,
            id,
            &result(0, "r0"),
            b"gz0",
            &ClaimNext {
                ladder: id,
                n: 0,
                lease: LEASE,
            },
        )
        .unwrap();
    assert_eq!((late, none.len()), (Committed::Same, 0));
    // A step that finds nothing left to claim still commits.
    for i in [1, 2] {
        store
            .queue()
            .commit(w1, id, &result(i, "r"), b"gz")
            .unwrap();
    }
    store
        .queue()
        .commit(w2, id, &result(3, "r"), b"gz")
        .unwrap();
    // A result for a match the ladder does not have is refused, and the
    // step claims nothing.
    assert!(matches!(
        store.queue().commit_and_claim(
            w2,
            id,
            &result(9, "r"),
            b"gz",
            &ClaimNext {
                ladder: id,
                n: 1,
                lease: LEASE
            }
        ),
        Err(StoreError::UnknownIndex { index: 9, .. })
    ));
    let rest = store.queue().claim(w2, id, 5, LEASE).unwrap();
    assert_eq!(indices(&rest), vec![4, 5]);
    let (done, more) = store
        .queue()
        .commit_and_claim(
            w2,
            id,
            &result(4, "r"),
            b"gz",
            &ClaimNext {
                ladder: id,
                n: 3,
                lease: LEASE,
            },
        )
        .unwrap();
    assert_eq!((done, more.len()), (Committed::Recorded, 0), "5 is held");
    store
        .queue()
        .commit(w2, id, &result(5, "r"), b"gz")
        .unwrap();
    assert_eq!(store.queue().remaining(id).unwrap(), 0);
    // The step may claim from another ladder (a worker of every ladder
    // takes them in turn); the result goes to its own.
    let other = ladder(&mut store, 2);
    let mine = ladder(&mut store, 3);
    assert_eq!(
        indices(&store.queue().claim(w2, mine, 1, LEASE).unwrap()),
        vec![0]
    );
    let (recorded, there) = store
        .queue()
        .commit_and_claim(
            w2,
            mine,
            &result(0, "m"),
            b"gz",
            &ClaimNext {
                ladder: other,
                n: 1,
                lease: LEASE,
            },
        )
        .unwrap();
    assert_eq!(recorded, Committed::Recorded);
    assert_eq!(
        (there[0].ladder, there[0].index),
        (other, 0),
        "index 0 of the other ladder, though the same index was committed"
    );
    assert_eq!(store.results().all(mine).unwrap(), vec![result(0, "m")]);
    assert!(store.results().all(other).unwrap().is_empty());
    assert_eq!(store.queue().remaining(mine).unwrap(), 2);
}

/// A worker without `--ladder` plays every ladder's matches in turn: one
/// ladder's queue does not wait for another's to run out.
fn a_worker_of_every_ladder_takes_them_in_turn(db: Db) {
    let store = db.store();
    for name in ["planet_wars_idle", "planet_wars_random"] {
        let wasm = std::fs::read(ludus_testkit::bot(name)).unwrap();
        store
            .bots()
            .submit(name, "planet-wars", &wasm, &sha(&wasm), NOW)
            .unwrap();
    }
    let bots = store.bots().latest("planet-wars").unwrap();
    let schedule: Vec<ScheduledMatch> = (0..6)
        .map(|i| ScheduledMatch {
            index: i,
            group: i,
            seed: i as u64,
            seats: if i % 2 == 0 { vec![0, 1] } else { vec![1, 0] },
        })
        .collect();
    let ladders: Vec<i64> = ["first", "second"]
        .map(|key| {
            store
                .ladders()
                .ensure(&NewLadder {
                    key,
                    game: "planet-wars",
                    kind: "round-robin",
                    players: 2,
                    rounds: 1,
                    seed: 1,
                    config: &serde_json::json!({"max_turns": 5}),
                    limits: &serde_json::to_value(ludus_host::Limits::default()).unwrap(),
                    needs: &this_build(),
                    keep_replays: KeepReplays::ALL,
                    bots: &bots,
                    schedule: &schedule,
                })
                .unwrap()
        })
        .to_vec();
    let sandbox = ludus_host::Sandbox::new().unwrap();
    let options = ludus_leaderboard::worker::WorkerOptions {
        until_idle: true,
        ..ludus_leaderboard::worker::WorkerOptions::new(1)
    };
    // The order matches were committed in, from the progress reports (a
    // ladder's count rises by one a match).
    let mut order = Vec::new();
    let mut played = std::collections::BTreeMap::new();
    let summary = ludus_leaderboard::worker::work(&store, &sandbox, &options, |p| {
        let seen = played.entry(p.ladder).or_insert(0);
        if p.played_here > *seen {
            *seen = p.played_here;
            order.push(p.ladder);
        }
    })
    .unwrap();
    assert_eq!(summary.played, 12);
    assert_eq!(order.len(), 12, "{order:?}");
    let firsts: std::collections::BTreeSet<i64> = order[..4].iter().copied().collect();
    assert_eq!(
        firsts,
        ladders.iter().copied().collect(),
        "both ladders among the first four matches: {order:?}"
    );
}

fn an_expired_lease_makes_a_match_claimable_again_and_a_renewed_one_does_not(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let w1 = store.queue().register_worker(1, Some(id), SHORT).unwrap();
    let w2 = store.queue().register_worker(1, Some(id), SHORT).unwrap();
    assert_eq!(
        indices(&store.queue().claim(w1, id, 1, SHORT).unwrap()),
        vec![0]
    );
    assert_eq!(
        indices(&store.queue().claim(w2, id, 2, SHORT).unwrap()),
        vec![1]
    );
    store
        .queue()
        .commit(w2, id, &result(1, "r1"), b"gz")
        .unwrap();
    // Renewed before it ends, twice: still w1's.
    for _ in 0..2 {
        std::thread::sleep(SHORT / 2);
        assert_eq!(
            store.queue().heartbeat(w1, SHORT, &[(id, 0)]).unwrap(),
            1,
            "one lease renewed"
        );
        assert!(store.queue().claim(w2, id, 2, SHORT).unwrap().is_empty());
    }
    // Not renewed: another worker plays it, as a second attempt.
    std::thread::sleep(SHORT + Duration::from_millis(100));
    let again = store.queue().claim(w2, id, 2, SHORT).unwrap();
    assert_eq!(indices(&again), vec![0]);
    assert_eq!(again[0].attempt, 2);
    assert_eq!(
        store
            .queue()
            .commit(w2, id, &result(0, "r0"), b"gz")
            .unwrap(),
        Committed::Recorded
    );
    // The slow first worker's result, the same bytes, arrives late: ignored.
    assert_eq!(
        store
            .queue()
            .commit(w1, id, &result(0, "r0"), b"gz")
            .unwrap(),
        Committed::Same
    );
    assert_eq!(store.queue().remaining(id).unwrap(), 0);
    assert_eq!(store.queue().worker(w2).unwrap().unwrap().played, 2);
}

fn a_match_no_claim_finished_is_void_after_the_last_attempt(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let w = store.queue().register_worker(1, Some(id), SHORT).unwrap();
    for attempt in 1..=MAX_ATTEMPTS {
        let c = store.queue().claim(w, id, 1, SHORT).unwrap();
        assert_eq!((c[0].index, c[0].attempt), (0, attempt));
        std::thread::sleep(SHORT + Duration::from_millis(50));
    }
    // The next claim records it as void and moves on.
    assert_eq!(
        indices(&store.queue().claim(w, id, 2, SHORT).unwrap()),
        vec![1]
    );
    let results = store.results().all(id).unwrap();
    assert_eq!(results.len(), 1);
    let void = &results[0];
    assert_eq!(void.index, 0);
    assert_eq!(
        void.aborted.as_deref(),
        Some(format!("void: no worker finished it in {MAX_ATTEMPTS} attempts").as_str())
    );
    assert!(void.match_id.is_empty() && void.placements.is_empty());
    let status = store.queue().status(id).unwrap();
    assert_eq!((status.done, status.void), (1, 1));
}

fn a_result_that_arrives_twice_the_same_is_ignored(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let w1 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    let w2 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(w1, id, 1, LEASE).unwrap();
    let r = result(0, "same");
    assert_eq!(
        store.queue().commit(w1, id, &r, b"gz").unwrap(),
        Committed::Recorded
    );
    assert_eq!(
        store.queue().commit(w2, id, &r, b"gz").unwrap(),
        Committed::Same
    );
    assert_eq!(store.results().all(id).unwrap(), vec![r]);
    assert!(store.queue().integrity_events(id).unwrap().is_empty());
    assert_eq!(store.results().replay("m0000").unwrap().unwrap(), b"gz");
}

/// Worker 1 commits a result, worker 2 a different one of the same match.
fn two_results(store: &mut Store) -> (i64, i64, i64, i64) {
    let id = ladder(store, 2);
    let w1 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    let w2 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    let w3 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(w1, id, 1, LEASE).unwrap();
    store
        .queue()
        .commit(w1, id, &result(0, "first"), b"gz-first")
        .unwrap();
    let differs = store
        .queue()
        .commit(w2, id, &result(0, "second"), b"gz-second")
        .unwrap();
    let Committed::Differs { event } = differs else {
        panic!("{differs:?}")
    };
    let events = store.queue().integrity_events(id).unwrap();
    assert_eq!(events.len(), 1);
    let e = &events[0];
    assert_eq!(
        (e.id, e.index, e.worker, e.kept_worker),
        (event, 0, w2, Some(w1))
    );
    assert_eq!(e.sha256, sha(b"second"));
    assert_eq!(e.kept_sha256, sha(b"first"));
    assert_eq!(e.verdict, None);
    let status = store.queue().status(id).unwrap();
    assert_eq!((status.verifying, status.integrity_events), (1, 1));
    // The kept result stays until the verification.
    assert_eq!(store.results().all(id).unwrap()[0], result(0, "first"));
    // The verification is claimed before the unplayed match 1.
    let c = store.queue().claim(w3, id, 1, LEASE).unwrap();
    assert_eq!((c[0].index, c[0].verify), (0, true));
    (id, w1, w2, w3)
}

fn a_different_second_result_is_an_integrity_event_and_verification_keeps_the_right_one(db: Db) {
    let mut store = db.store();
    let (id, w1, w2, w3) = two_results(&mut store);
    let verified = store
        .queue()
        .commit(w3, id, &result(0, "first"), b"gz-first")
        .unwrap();
    let Committed::Verified { verdict } = verified else {
        panic!("{verified:?}")
    };
    assert!(
        verdict.contains(&format!("the kept result of worker {w1} is right"))
            && verdict.contains(&format!("worker {w2} sent a different replay")),
        "{verdict}"
    );
    assert_eq!(store.results().all(id).unwrap()[0], result(0, "first"));
    assert_eq!(
        store.results().replay("m0000").unwrap().unwrap(),
        b"gz-first"
    );
    let e = &store.queue().integrity_events(id).unwrap()[0];
    assert_eq!(e.verdict.as_deref(), Some(verdict.as_str()));
    assert_eq!(store.queue().status(id).unwrap().verifying, 0);
}

fn a_verification_that_agrees_with_the_second_result_replaces_the_kept_one(db: Db) {
    let mut store = db.store();
    let (id, w1, w2, w3) = two_results(&mut store);
    store.ratings().set_rated_through(id, 2).unwrap();
    let verified = store
        .queue()
        .commit(w3, id, &result(0, "second"), b"gz-second")
        .unwrap();
    let Committed::Verified { verdict } = verified else {
        panic!("{verified:?}")
    };
    assert!(
        verdict.contains(&format!(
            "the result of worker {w2} is right and replaces the one of worker {w1}"
        )),
        "{verdict}"
    );
    assert_eq!(store.results().all(id).unwrap()[0], result(0, "second"));
    assert_eq!(
        store.results().replay("m0000").unwrap().unwrap(),
        b"gz-second"
    );
    assert_eq!(
        store.ladders().get(id).unwrap().rated_through,
        0,
        "the ratings are applied again from the replaced match"
    );
}

fn ratings_cover_only_the_finished_prefix(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 4);
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(w, id, 4, LEASE).unwrap();
    // Match 1 finishes first: nothing before it is finished, nothing is rated.
    store.queue().commit(w, id, &result(1, "1"), b"gz").unwrap();
    assert_eq!(ratings::apply(&store, id).unwrap(), 0);
    store.queue().commit(w, id, &result(0, "0"), b"gz").unwrap();
    store.queue().commit(w, id, &result(3, "3"), b"gz").unwrap();
    assert_eq!(ratings::apply(&store, id).unwrap(), 2);
    let elo_prefix = store.ratings().get(id, System::Elo.key()).unwrap();
    // Seats alternate and seat 0 always wins: a and b have one win each.
    assert_eq!(elo_prefix.len(), 2);
    assert_eq!(store.ladders().get(id).unwrap().rated_through, 2);
    store.queue().commit(w, id, &result(2, "2"), b"gz").unwrap();
    assert_eq!(ratings::apply(&store, id).unwrap(), 4);
    assert_eq!(store.queue().finished_prefix(id).unwrap(), 4);
    assert_eq!(
        store
            .ratings()
            .get(id, System::BradleyTerry.key())
            .unwrap()
            .len(),
        2
    );
}

fn a_stopped_worker_gives_back_its_matches_without_spending_an_attempt(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let w1 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    let w2 = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    assert_eq!(store.queue().claim(w1, id, 2, LEASE).unwrap().len(), 2);
    store.queue().stop_worker(w1).unwrap();
    let stopped = store.queue().worker(w1).unwrap().unwrap();
    assert!(stopped.stopped && !stopped.found_dead, "{stopped:?}");
    let c = store.queue().claim(w2, id, 2, LEASE).unwrap();
    assert_eq!(indices(&c), vec![0, 1]);
    assert!(c.iter().all(|c| c.attempt == 1), "{c:?}");
}

fn a_gone_worker_of_this_host_has_its_leases_released_at_once(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let gone = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    let live = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(gone, id, 2, LEASE).unwrap();
    // As if it were another process of this host, killed since: no such
    // pid. While its last heartbeat is recent it is left alone (its pid
    // may be of another pid namespace under the same host name).
    db.raw(&format!(
        "UPDATE workers SET pid = 999999999 WHERE id = {gone}"
    ));
    assert_eq!(store.queue().reap_local_workers(false).unwrap(), 0);
    // Two heartbeats late (60 s lease: one every 12 s).
    db.raw(&format!(
        "UPDATE workers SET last_seen = last_seen - 25000 WHERE id = {gone}"
    ));
    assert!(store.queue().claim(live, id, 2, LEASE).unwrap().is_empty());
    assert_eq!(store.queue().reap_local_workers(false).unwrap(), 1);
    let c = store.queue().claim(live, id, 2, LEASE).unwrap();
    assert_eq!(indices(&c), vec![0, 1]);
    assert_eq!(c[0].attempt, 2, "the killed claim counts");
    // This process's own workers are never taken for gone.
    assert_eq!(store.queue().reap_local_workers(true).unwrap(), 0);
}

/// A run started right after its predecessor on this host was killed does
/// not wait for the killed one's heartbeats to be missed: as it starts, a
/// worker whose process is gone is gone.
fn a_run_starting_releases_a_killed_workers_leases_without_waiting(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let killed = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(killed, id, 2, LEASE).unwrap();
    db.raw(&format!(
        "UPDATE workers SET pid = 999999999 WHERE id = {killed}"
    ));
    assert_eq!(
        store.queue().reap_local_workers(false).unwrap(),
        0,
        "not late"
    );
    assert_eq!(store.queue().reap_local_workers(true).unwrap(), 1);
    let next = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    assert_eq!(
        indices(&store.queue().claim(next, id, 2, LEASE).unwrap()),
        vec![0, 1]
    );
}

/// A worker's heartbeat comes every fifth of its lease; two intervals
/// without one and it is shown gone (not live, not stopped), and its
/// threads no longer count for the scheduler.
fn a_worker_is_gone_once_two_heartbeats_pass_without_one(db: Db) {
    use ludus_leaderboard::store::WorkerState;
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    // A 50 s lease: a heartbeat every 10 s, gone after 20 s of silence.
    let lease = Duration::from_secs(50);
    let w = store.queue().register_worker(4, Some(id), lease).unwrap();
    assert_eq!(
        store.queue().worker(w).unwrap().unwrap().heartbeat_ms(),
        10_000
    );
    let state = |store: &Store| {
        let s = store.queue().status(id).unwrap();
        let demand = store
            .queue()
            .demand(id, Duration::from_secs(1), false)
            .unwrap();
        (s.workers[0].state(s.now), demand.live_threads)
    };
    assert_eq!(state(&store), (WorkerState::Live, 4));
    // One heartbeat late: still live.
    db.raw(&format!(
        "UPDATE workers SET last_seen = last_seen - 15000 WHERE id = {w}"
    ));
    assert_eq!(state(&store), (WorkerState::Live, 4));
    // Two and a half: gone, though its lease has half its length to run.
    db.raw(&format!(
        "UPDATE workers SET last_seen = last_seen - 10000 WHERE id = {w}"
    ));
    assert_eq!(state(&store), (WorkerState::NoHeartbeat, 0));
    store.queue().heartbeat(w, lease, &[]).unwrap();
    assert_eq!(state(&store), (WorkerState::Live, 4), "it beats again");
}

/// A worker of this host whose process is gone is recorded as found dead
/// (`stopped = 2`), shown gone and never as stopped, which is for workers
/// that stopped themselves; one wrongly taken for dead that beats again is
/// live again.
fn a_killed_worker_is_found_dead_not_stopped_and_comes_back_if_it_beats_again(db: Db) {
    use ludus_leaderboard::store::WorkerState;
    let mut store = db.store();
    let id = ladder(&mut store, 3);
    let killed = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    let live = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    assert_eq!(store.queue().claim(killed, id, 2, LEASE).unwrap().len(), 2);
    db.raw(&format!(
        "UPDATE workers SET pid = 999999999, last_seen = last_seen - 25000 WHERE id = {killed}"
    ));
    // The live worker's heartbeat finds it; a second look finds nothing more.
    store.queue().heartbeat(live, LEASE, &[]).unwrap();
    assert_eq!(store.queue().reap_local_workers(false).unwrap(), 1);
    assert_eq!(store.queue().reap_local_workers(false).unwrap(), 0);
    assert_eq!(
        db.raw(&format!("SELECT stopped FROM workers WHERE id = {killed}")),
        "2"
    );
    let s = store.queue().status(id).unwrap();
    let w = s.workers.iter().find(|w| w.id == killed).unwrap();
    assert!(w.found_dead && !w.stopped, "{w:?}");
    assert_eq!(w.state(s.now), WorkerState::ProcessGone);
    assert_eq!(
        (s.leased, s.pending),
        (0, 3),
        "its two matches are claimable"
    );
    assert_eq!(
        indices(&store.queue().claim(live, id, 3, LEASE).unwrap()),
        vec![0, 1, 2]
    );
    // It was only frozen, and beats again: live, its matches stay the
    // live worker's.
    let held = [(id, 0), (id, 1)];
    store.queue().heartbeat(killed, LEASE, &held).unwrap();
    let s = store.queue().status(id).unwrap();
    let w = s.workers.iter().find(|w| w.id == killed).unwrap();
    assert_eq!(w.state(s.now), WorkerState::Live);
    assert_eq!(store.queue().heartbeat(killed, LEASE, &held).unwrap(), 0);
}

fn status_counts_done_leased_and_pending_and_lists_workers(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 6);
    let w1 = store.queue().register_worker(3, Some(id), LEASE).unwrap();
    let w2 = store.queue().register_worker(1, None, LEASE).unwrap();
    store.queue().claim(w1, id, 3, LEASE).unwrap();
    store
        .queue()
        .commit(w1, id, &result(0, "0"), b"gz")
        .unwrap();
    store
        .queue()
        .commit(w1, id, &result(1, "1"), b"gz")
        .unwrap();
    store.queue().stop_worker(w2).unwrap();
    let s = store.queue().status(id).unwrap();
    assert_eq!(
        (s.total, s.done, s.leased, s.pending, s.void),
        (6, 2, 1, 3, 0)
    );
    assert_eq!(s.rate.map(|r| r > 0.0), Some(true), "two finished just now");
    assert!(s.eta_s().is_some());
    let ids: Vec<i64> = s.workers.iter().map(|w| w.id).collect();
    assert_eq!(ids, vec![w1, w2], "live first");
    let me = &s.workers[0];
    assert!(me.is_live(s.now) && !s.workers[1].is_live(s.now));
    assert_eq!((me.threads, me.played, me.pid), (3, 2, std::process::id()));
    assert_eq!(me.ladder, Some(id));
    assert_eq!(s.workers[1].ladder, None);
}

fn a_worker_refuses_a_ladder_that_needs_another_build_and_says_what_differs(db: Db) {
    let mut store = db.store();
    let mut needs = this_build();
    needs.rules_version += 7;
    needs.wasmtime_version = "1.0.0".into();
    let id = ladder_of(&mut store, 2, &needs);
    let sandbox = ludus_host::Sandbox::new().unwrap();
    let options = ludus_leaderboard::worker::WorkerOptions {
        ladder: Some(id),
        ..ludus_leaderboard::worker::WorkerOptions::new(1)
    };
    let err =
        ludus_leaderboard::worker::work(&store, &sandbox, &options, |_| {}).expect_err("refused");
    let text = err.to_string();
    assert!(
        text.contains(&format!("cannot play ladder {id}"))
            && text.contains(&format!(
                "rules version {} (this worker has {})",
                needs.rules_version,
                needs.rules_version - 7
            ))
            && text.contains(&format!(
                "wasmtime 1.0.0 (this worker has {})",
                ludus_host::WASMTIME_VERSION
            )),
        "{text}"
    );
    assert_eq!(store.queue().remaining(id).unwrap(), 2, "nothing claimed");
    // Without --ladder it skips the ladder and, with nothing else to do, stops.
    let options = ludus_leaderboard::worker::WorkerOptions {
        until_idle: true,
        ..ludus_leaderboard::worker::WorkerOptions::new(1)
    };
    let summary = ludus_leaderboard::worker::work(&store, &sandbox, &options, |_| {}).unwrap();
    assert_eq!(summary.played, 0);
    assert_eq!(summary.refused.len(), 1);
    assert_eq!(summary.refused[0].0, id);
}

fn a_stored_match_is_found_by_a_unique_prefix_of_its_id(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 3);
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    for (i, match_id) in ["abc111", "abc222", "def333"].iter().enumerate() {
        let r = MatchResult {
            match_id: match_id.to_string(),
            ..result(i as u32, match_id)
        };
        store.queue().commit(w, id, &r, b"gz").unwrap();
    }
    assert_eq!(store.results().find_match("abc1").unwrap(), "abc111");
    assert_eq!(store.results().find_match("d").unwrap(), "def333");
    let err = store.results().find_match("abc").expect_err("two match");
    assert!(
        matches!(err, StoreError::AmbiguousMatch { count: 2, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("abc111"), "{err}");
    assert!(matches!(
        store.results().find_match("zzz"),
        Err(StoreError::UnknownMatch { .. })
    ));
}

fn a_database_of_a_newer_ludus_is_refused_with_its_version(db: Db) {
    drop(db.store());
    db.raw("INSERT INTO ludus_schema_history (version, name, applied_on, checksum) VALUES (99, 'future', '2030-01-01T00:00:00Z', '1')");
    let err = Store::connect(&db.location()).expect_err("newer");
    assert!(
        matches!(err, StoreError::NewerSchema { found: 99, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("upgrade Ludus"), "{err}");
}

fn a_database_of_another_program_is_foreign(db: Db) {
    if let Db::Sqlite(dir) = &db {
        rusqlite::Connection::open(dir.path().join("ludus.db"))
            .unwrap()
            .execute_batch("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
            .unwrap();
    } else {
        db.raw("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
    }
    let err = Store::connect(&db.location()).expect_err("foreign");
    assert!(matches!(err, StoreError::Foreign(_)), "{err:?}");
    assert!(err.to_string().contains("not a Ludus one"), "{err}");
}

#[test]
fn an_unreachable_postgres_server_says_so_and_hides_the_password() {
    // A loopback port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://ludus:secret@127.0.0.1:{port}/ludus");
    let err = Store::connect(&Location::parse(&url)).expect_err("nobody there");
    assert!(matches!(err, StoreError::Unreachable { .. }), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("is it running") && !text.contains("secret"),
        "{text}"
    );
}

#[test]
fn a_missing_postgres_database_is_named() {
    let url = ludus_testkit::postgres::shared().url("no_such_db");
    let err = Store::connect(&Location::parse(&url)).expect_err("missing");
    assert!(matches!(err, StoreError::NoSuchDatabase { .. }), "{err:?}");
    assert!(err.to_string().contains("createdb"), "{err}");
}

/// Ladder `n` matches long with results for `finished`, rated.
fn rated_ladder(store: &mut Store, n: u32, finished: &[u32]) -> i64 {
    let id = ladder(store, n);
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    for &i in finished {
        store
            .queue()
            .commit(w, id, &result(i, &i.to_string()), b"gz")
            .unwrap();
    }
    ratings::apply(store, id).unwrap();
    id
}

/// Each seat's Elo after each match, recomputed from the results alone.
fn elo_by_seat(store: &Store, id: i64) -> Vec<(u32, usize, Option<f64>)> {
    let record = store.ladders().get(id).unwrap();
    let schedule = store.ladders().schedule(id).unwrap();
    let mut elo =
        ludus_leaderboard::ratings::elo::EloLadder::new(record.bots.len(), Default::default())
            .unwrap();
    let mut out = Vec::new();
    let results = store.results().before(id, record.rated_through).unwrap();
    for m in &schedule {
        let rated = results.iter().find(|r| r.index == m.index);
        if let Some(r) = rated {
            elo.apply(&ludus_leaderboard::ratings::GameResult::new(
                m.seats.clone(),
                r.placements.clone(),
            ))
            .unwrap();
        }
        for (seat, &p) in m.seats.iter().enumerate() {
            out.push((m.index, seat, rated.map(|_| elo.rating(p))));
        }
    }
    out
}

/// What the bot index holds for both bots: (index, seat, Elo after).
fn indexed(store: &Store, id: i64) -> Vec<(u32, usize, Option<f64>)> {
    let mut out: Vec<_> = (0..2)
        .flat_map(|p| store.seats().of_bot(id, p).unwrap())
        .map(|m| (m.scheduled.index, m.seat, m.elo))
        .collect();
    out.sort_by_key(|m| (m.0, m.1));
    out
}

fn a_bots_matches_are_found_through_the_bot_index_with_its_elo_after_each(db: Db) {
    let mut store = db.store();
    // Match 4 is not finished: 0–3 are rated, 5 has a result but is not.
    let id = rated_ladder(&mut store, 6, &[0, 1, 2, 3, 5]);
    assert_eq!(store.ladders().get(id).unwrap().rated_through, 4);
    let a = store.seats().of_bot(id, 0).unwrap();
    assert_eq!(
        a.iter()
            .map(|m| (m.scheduled.index, m.seat))
            .collect::<Vec<_>>(),
        [(0, 0), (1, 1), (2, 0), (3, 1), (4, 0), (5, 1)]
    );
    assert_eq!(a[1].result.as_ref().unwrap().match_id, "m0001");
    assert!(a[4].result.is_none() && a[5].result.is_some());
    assert!(a[..4].iter().all(|m| m.elo.is_some()) && a[4..].iter().all(|m| m.elo.is_none()));
    assert_eq!(indexed(&store, id), elo_by_seat(&store, id));
    assert_eq!(store.ratings().rated_counts(id).unwrap(), [4, 4]);
    assert_eq!(store.ladders().scheduled_counts(id).unwrap(), [6, 6]);
    assert_eq!(store.ladders().schedule_len(id).unwrap(), 6);
    assert_eq!(store.results().locate("m0002").unwrap(), [(id, 2)]);
    let (m, r) = store.results().at(id, 2).unwrap().unwrap();
    assert_eq!((m.seats, r.unwrap().placements), (vec![0, 1], vec![1, 2]));
    assert!(store.results().at(id, 4).unwrap().unwrap().1.is_none());
    assert!(store.results().at(id, 6).unwrap().is_none());

    // Ratings applied again from match 2 on (as after a verification that
    // replaced a result), now over all six: the history is rewritten from there.
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().commit(w, id, &result(4, "4"), b"gz").unwrap();
    store.ratings().set_rated_through(id, 2).unwrap();
    assert_eq!(ratings::apply(&store, id).unwrap(), 6);
    assert_eq!(indexed(&store, id), elo_by_seat(&store, id));
    assert!(indexed(&store, id).iter().all(|m| m.2.is_some()));
    assert_eq!(store.ratings().rated_counts(id).unwrap(), [6, 6]);
    let elo = store.ratings().get(id, System::Elo.key()).unwrap();
    let last = store.seats().of_bot(id, 1).unwrap().pop().unwrap();
    assert_eq!(last.elo, Some(elo[1].1));
}

/// Takes a database of this schema back to schema `version` (5 or 6): its
/// history, and what schemas 7 and 8 added.
fn back_to_schema(db: &Db, version: i32) {
    for sql in [
        "ALTER TABLE workers DROP COLUMN error",
        "ALTER TABLE accounts DROP COLUMN password_hash",
        "ALTER TABLE accounts DROP COLUMN disabled_at",
        "DROP TABLE api_tokens",
        "DROP TABLE sessions",
        "DROP TABLE invites",
        "ALTER TABLE bot_versions DROP COLUMN candidate",
        "DROP TABLE challenges",
        "DROP TABLE challenge_usage",
        "DROP TABLE server_settings",
        "ALTER TABLE accounts DROP COLUMN removed_at",
        "ALTER TABLE accounts DROP COLUMN operator",
        "ALTER TABLE ladders DROP COLUMN season",
        "ALTER TABLE ladders DROP COLUMN closed_at",
        "DROP TABLE paused_games",
        "ALTER TABLE ladders DROP COLUMN keep_replays",
        "ALTER TABLE ladders DROP COLUMN replays_pruned_below",
        "ALTER TABLE results DROP COLUMN refused",
        "DROP INDEX bot_versions_by_lower_name",
        "DROP INDEX bot_owners_by_lower_name",
        "DROP INDEX accounts_by_lower_name",
        "ALTER TABLE match_seats DROP COLUMN place",
        "ALTER TABLE match_seats DROP COLUMN faults",
    ] {
        db.raw(sql);
    }
    db.raw(&format!(
        "DELETE FROM ludus_schema_history WHERE version > {version}"
    ));
}

/// A bot's rated seats, their faults, and its results against each
/// opponent: (position, won, lost, drawn).
type SeatOutcomes = (u32, u64, Vec<(usize, u32, u32, u32)>);

/// What the bot index says of the bots' rated seats: their count and
/// faults, and their results against each other.
fn seat_outcomes(store: &Store, id: i64) -> Vec<SeatOutcomes> {
    (0..2)
        .map(|p| {
            let (n, faults) = store.seats().rated_seats_of(id, &[p]).unwrap();
            (n, faults, store.seats().head_to_head(id, &[p]).unwrap())
        })
        .collect()
}

fn a_database_of_schema_5_or_6_opens_with_its_bot_index_and_gets_its_seats_outcomes(db: Db) {
    for version in [5, 6] {
        let mut store = db.store();
        let id = rated_ladder(&mut store, 6, &[0, 1, 2, 3, 5]);
        let (index, outcomes) = (indexed(&store, id), seat_outcomes(&store, id));
        // Two results of the four rated matches were wins of seat 0.
        assert_eq!(outcomes[0].0, 4, "{outcomes:?}");
        assert_eq!(outcomes[0].2, vec![(1, 2, 2, 0)], "{outcomes:?}");
        // Each bot's rated matches, first places alone and shared (the
        // leaderboard's win rate).
        assert_eq!(
            store.seats().records_of(id, &[0, 1]).unwrap(),
            vec![(0, 4, 2, 0), (1, 4, 2, 0)]
        );
        drop(store);
        back_to_schema(&db, version);
        let store = db.store();
        assert_eq!(
            db.raw("SELECT max(version) FROM ludus_schema_history"),
            ludus_leaderboard::store::schema::VERSION.to_string()
        );
        assert_eq!(indexed(&store, id), index, "from schema {version}");
        assert_eq!(seat_outcomes(&store, id), outcomes, "from schema {version}");
    }
}

fn a_database_from_before_the_bot_index_gets_it_when_opened(db: Db) {
    let mut store = db.store();
    let id = rated_ladder(&mut store, 6, &[0, 1, 2, 3, 5]);
    let counts = |s: &Store| {
        (
            s.ladders().scheduled_counts(id).unwrap(),
            s.ratings().rated_counts(id).unwrap(),
        )
    };
    let before = (
        indexed(&store, id),
        counts(&store),
        seat_outcomes(&store, id),
    );
    drop(store);
    // Schema 4, as the Ludus before the index wrote it.
    back_to_schema(&db, 6);
    for sql in [
        "DROP TABLE match_seats",
        "DROP INDEX results_by_match",
        "ALTER TABLE ladder_bots DROP COLUMN rated_matches",
        "ALTER TABLE ladder_bots DROP COLUMN scheduled_matches",
        "DELETE FROM ludus_schema_history WHERE version >= 5",
    ] {
        db.raw(sql);
    }
    let store = db.store();
    assert_eq!(
        db.raw("SELECT max(version) FROM ludus_schema_history"),
        ludus_leaderboard::store::schema::VERSION.to_string()
    );
    assert_eq!(
        (
            indexed(&store, id),
            counts(&store),
            seat_outcomes(&store, id)
        ),
        before
    );
    assert_eq!(store.results().locate("m0003").unwrap(), [(id, 3)]);
}

/// What makes two overlapping schedulers harmless (`SchedulerLock`): an
/// append that does not start at the schedule's end is refused whole, so a
/// top-up drawn from a stale look schedules no index twice and leaves none
/// out.
fn a_stale_append_is_refused_whole(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let at = |index: u32| ScheduledMatch {
        index,
        group: index,
        seed: 100 + u64::from(index),
        seats: vec![0, 1],
    };
    // Two schedulers looked at a schedule of two; the first appends.
    assert!(store.ladders().append(id, &[at(2), at(3)]).unwrap());
    // The second's matches start at 2 too: refused, nothing written.
    assert!(store.ladders().append(id, &[at(2), at(3), at(4)]).is_err());
    // A gap is refused as well.
    assert!(store.ladders().append(id, &[at(5)]).is_err());
    assert_eq!(store.ladders().schedule_len(id).unwrap(), 4);
    assert!(store.ladders().append(id, &[at(4)]).unwrap());
    assert_eq!(store.ladders().schedule_len(id).unwrap(), 5);
}

/// The heartbeat runs on a connection of its own beside the worker's
/// commits: on PostgreSQL, a match whose row a commit holds is skipped (the
/// commit settles it) instead of waited for, so the heartbeat and the
/// commit never wait on each other.
#[test]
fn on_postgres_a_heartbeat_does_not_wait_for_a_commit_in_progress() {
    let db = postgres();
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    assert_eq!(
        indices(&store.queue().claim(w, id, 2, LEASE).unwrap()),
        vec![0, 1]
    );
    // Another session holds match 0's row, as a commit in progress does.
    let Db::Postgres(url) = &db else {
        unreachable!()
    };
    let mut holder = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let mut commit = holder.transaction().unwrap();
    commit
        .execute(
            "SELECT idx FROM matches WHERE ladder_id = $1 AND idx = 0 FOR UPDATE",
            &[&id],
        )
        .unwrap();
    let started = std::time::Instant::now();
    let heartbeat = Store::connect(&db.location()).unwrap();
    assert_eq!(
        heartbeat
            .queue()
            .heartbeat(w, LEASE, &[(id, 0), (id, 1)])
            .unwrap(),
        1,
        "match 1 renewed, match 0 skipped"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    commit.rollback().unwrap();
    assert_eq!(
        heartbeat
            .queue()
            .heartbeat(w, LEASE, &[(id, 0), (id, 1)])
            .unwrap(),
        2
    );
}

/// Matches done, read in one statement on a connection of the test's own.
fn done_count(db: &Db, ladder: i64) -> impl FnMut() -> u32 {
    let sql = format!("SELECT count(*) FROM matches WHERE ladder_id = {ladder} AND done = 1");
    enum Raw {
        Sqlite(rusqlite::Connection),
        Postgres(Box<postgres::Client>),
    }
    let mut raw = match db {
        Db::Sqlite(dir) => {
            Raw::Sqlite(rusqlite::Connection::open(dir.path().join("ludus.db")).unwrap())
        }
        Db::Postgres(url) => Raw::Postgres(Box::new(
            postgres::Client::connect(url, postgres::NoTls).unwrap(),
        )),
    };
    move || match &mut raw {
        Raw::Sqlite(c) => c.query_row(&sql, [], |r| r.get::<_, i64>(0)).unwrap() as u32,
        Raw::Postgres(c) => c.query_one(sql.as_str(), &[]).unwrap().get::<_, i64>(0) as u32,
    }
}

/// A continuous ladder's scheduler appends matches while workers rate the
/// finished prefix. The prefix is read in one snapshot: read as "first
/// unfinished index?" and then "how many matches?", an append between the
/// two made it run past the appended match, which rating then skipped
/// for ever. Here one thread appends a match, then plays it, again and
/// again, while the prefix is read: every match before it must be done.
fn the_finished_prefix_never_runs_past_a_match_appended_as_it_is_read(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(w, id, 2, LEASE).unwrap();
    for i in 0..2 {
        store.queue().commit(w, id, &result(i, "r"), b"gz").unwrap();
    }
    const APPENDS: u32 = 150;
    let location = db.location();
    let appender = std::thread::spawn(move || {
        let store = Store::connect(&location).unwrap();
        for k in 2..2 + APPENDS {
            let m = ScheduledMatch {
                index: k,
                group: k,
                seed: 100 + u64::from(k),
                seats: vec![0, 1],
            };
            assert!(store.ladders().append(id, &[m]).unwrap());
            // The match waits a moment unplayed, as a scheduled one does.
            std::thread::sleep(Duration::from_millis(2));
            assert_eq!(store.queue().claim(w, id, 1, LEASE).unwrap().len(), 1);
            store.queue().commit(w, id, &result(k, "r"), b"gz").unwrap();
        }
    });
    let mut done = done_count(&db, id);
    let mut reads = 0;
    while !appender.is_finished() {
        let prefix = store.queue().finished_prefix(id).unwrap();
        // Matches are played in order here: the prefix is right only if
        // as many are done (and done ones stay done).
        let done_now = done();
        assert!(
            prefix <= done_now,
            "the prefix ran to {prefix} while only {done_now} matches were done"
        );
        reads += 1;
    }
    appender.join().unwrap();
    assert!(
        reads > 10,
        "the prefix was read while appends went on ({reads} reads)"
    );
    assert_eq!(store.queue().finished_prefix(id).unwrap(), 2 + APPENDS);
}

/// Rating and the scheduler both update a ladder's bots (their rated and
/// scheduled counts). Each takes the rows in the bots' order, so neither
/// waits for a row the other holds while holding one the other waits for.
/// Here another session updates bot 0 and then bot 1, as a scheduler's
/// append does, while rating runs; the bots' rows are stored out of their
/// order (bot 0 updated last), which an update in the rows' stored order
/// followed, and PostgreSQL then found a deadlock and ended one of them.
#[test]
fn on_postgres_rating_and_scheduling_take_a_ladders_bots_in_one_order() {
    let db = postgres();
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(w, id, 2, LEASE).unwrap();
    for i in 0..2 {
        store.queue().commit(w, id, &result(i, "r"), b"gz").unwrap();
    }
    let Db::Postgres(url) = &db else {
        unreachable!()
    };
    let mut scheduler = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let bump = format!(
        "UPDATE ladder_bots SET scheduled_matches = scheduled_matches WHERE ladder_id = {id} AND position = $1"
    );
    // Bot 0's row is written again, after bot 1's; with the table's
    // statistics, a small table is read in the order its rows are stored.
    scheduler.execute(bump.as_str(), &[&0i64]).unwrap();
    scheduler.batch_execute("ANALYZE ladder_bots").unwrap();
    let mut append = scheduler.transaction().unwrap();
    append.execute(bump.as_str(), &[&0i64]).unwrap();
    let location = db.location();
    let rating = std::thread::spawn(move || {
        let store = Store::connect(&location).unwrap();
        ratings::apply(&store, id).map_err(|e| e.to_string())
    });
    // Rating waits for bot 0's row now, holding none of the bots'.
    std::thread::sleep(Duration::from_millis(500));
    append
        .execute(bump.as_str(), &[&1i64])
        .expect("the scheduler's second row is not held by rating");
    append.commit().unwrap();
    assert_eq!(rating.join().unwrap(), Ok(2), "rating went through");
    assert_eq!(
        db.raw(&format!(
            "SELECT string_agg(rated_matches::text, ',' ORDER BY position) FROM ladder_bots WHERE ladder_id = {id}"
        )),
        "2,2"
    );
}

/// A worker's heartbeat renews the leases of the matches it names (those
/// it plays or has a result of to commit), not of every match leased to
/// it: a result it took for committed and the database lost in a crash
/// (the queue commits without waiting for the disk) leaves its match
/// leased to the worker, and that lease must end, so that the match is
/// played again, instead of being renewed for as long as the worker lives.
fn a_heartbeat_renews_the_matches_its_worker_holds_and_no_other(db: Db) {
    let mut store = db.store();
    let id = ladder(&mut store, 3);
    let w = store.queue().register_worker(1, Some(id), SHORT).unwrap();
    let other = store.queue().register_worker(1, Some(id), SHORT).unwrap();
    assert_eq!(
        indices(&store.queue().claim(w, id, 3, SHORT).unwrap()),
        vec![0, 1, 2]
    );
    // Match 1's result was "committed", then lost: the worker holds 0 and 2.
    for _ in 0..3 {
        std::thread::sleep(SHORT / 2);
        assert_eq!(
            store
                .queue()
                .heartbeat(w, SHORT, &[(id, 0), (id, 2)])
                .unwrap(),
            2
        );
    }
    assert_eq!(
        indices(&store.queue().claim(other, id, 3, SHORT).unwrap()),
        vec![1],
        "the match it no longer holds came back to the queue"
    );
}

/// Uploads of one account at the same moment, on any number of
/// connections (servers): the quota is checked and counted in one
/// transaction that holds the account's row, so exactly the quota's
/// number are counted, never more. (Checked in one statement and counted
/// in another, eight concurrent uploads on PostgreSQL recorded 55 of 50.)
fn the_upload_quota_is_never_overrun_by_uploads_at_the_same_moment(db: Db) {
    let store = db.store();
    let account = store
        .accounts()
        .add("q", &sha(b"token"), false, NOW)
        .unwrap()
        .expect("a new account");
    const MOST: u32 = 5;
    let counted: u32 = std::thread::scope(|scope| {
        let tries: Vec<_> = (0..8)
            .map(|_| {
                let location = db.location();
                scope.spawn(move || {
                    let store = Store::connect(&location).unwrap();
                    (0..3)
                        .filter(|_| {
                            store
                                .accounts()
                                .count_upload(account, 1_000, 0, MOST)
                                .unwrap()
                        })
                        .count() as u32
                })
            })
            .collect();
        tries.into_iter().map(|t| t.join().unwrap()).sum()
    });
    assert_eq!(counted, MOST, "24 tries, {MOST} counted");
    assert_eq!(
        db.raw(&format!(
            "SELECT count(*) FROM uploads WHERE account_id = {account}"
        )),
        MOST.to_string()
    );
}

/// A worker that ended on an error is shown crashed, with the error, not
/// stopped; a late heartbeat does not make it live again. The rows of
/// workers not heard from for a day go as a new worker registers, unless
/// they still hold a lease.
fn a_crashed_worker_keeps_its_error_and_workers_gone_a_day_are_pruned(db: Db) {
    use ludus_leaderboard::store::WorkerState;
    let mut store = db.store();
    let id = ladder(&mut store, 2);
    let crashed = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store
        .queue()
        .crash_worker(crashed, "the bot store is damaged")
        .unwrap();
    store.queue().heartbeat(crashed, LEASE, &[]).unwrap();
    let s = store.queue().status(id).unwrap();
    let w = s.workers.iter().find(|w| w.id == crashed).unwrap();
    assert_eq!(w.state(s.now), WorkerState::Crashed);
    assert_eq!(w.crashed.as_deref(), Some("the bot store is damaged"));
    assert!(!w.stopped);
    // Two workers of long ago: one holds a lease still, one nothing.
    let old = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    let holding = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(holding, id, 1, LEASE).unwrap();
    db.raw(&format!(
        "UPDATE workers SET last_seen = last_seen - 90000000 WHERE id IN ({old}, {holding})"
    ));
    store.queue().register_worker(1, Some(id), LEASE).unwrap();
    let left = db.raw(&format!(
        "SELECT count(*) FROM workers WHERE id IN ({old}, {holding}, {crashed})"
    ));
    assert_eq!(left, "2", "the one without a lease is gone");
    assert_eq!(
        db.raw(&format!("SELECT count(*) FROM workers WHERE id = {old}")),
        "0"
    );
}

/// What rating reads of a ladder costs the rows it reads, whatever the
/// planner's statistics say. A ladder that grew after the last `ANALYZE`
/// (a new season's, empty then) once made PostgreSQL join its results to
/// its matches row by row through a filter, reading the ladder's matches
/// once per result: a minute on 20 000 matches, while every worker waited
/// for its rating. Counted in rows read (the table's statistics counters,
/// flushed as the reading session ends), not in time.
#[test]
fn on_postgres_ratings_read_a_ladder_grown_since_its_statistics_in_rows_linear_in_it() {
    const N: u32 = 4000;
    let db = postgres();
    let mut store = db.store();
    // Ladders of earlier seasons, and a new one, with no match yet when
    // the statistics are taken.
    let old: Vec<i64> = (3..7).map(|n| ladder(&mut store, n)).collect();
    let new = ladder(&mut store, 0);
    drop(store);
    let grow = |id: i64, from: u32| {
        db.raw(&format!(
            "INSERT INTO matches (ladder_id, idx, grp, seed, seats)
               SELECT {id}, i, i / 2, i, '[0,1]' FROM generate_series({from}, {N} - 1) i;
             INSERT INTO results (ladder_id, idx, match_id, placements, scores, faults, turns, reason)
               SELECT {id}, i, 'm{id}-' || i, '[1,2]', '[1.0,0.0]', '[0,0]', 10, 'done'
               FROM generate_series(0, {N} - 1) i"
        ));
    };
    // No analyze but the test's own: the statistics stay as taken.
    db.raw(
        "ALTER TABLE matches SET (autovacuum_enabled = false);
            ALTER TABLE results SET (autovacuum_enabled = false)",
    );
    for (id, n) in old.into_iter().zip(3..) {
        grow(id, n);
    }
    db.raw("ANALYZE matches; ANALYZE results");
    grow(new, 0);
    let read = || -> u64 {
        db.raw(
            "SELECT coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)
             FROM pg_stat_user_tables WHERE relname = 'matches'",
        )
        .parse()
        .unwrap()
    };
    let before = read();
    let store = db.store();
    let games = store.results().rated_before(new, N).unwrap();
    assert_eq!(games.len(), N as usize);
    assert!(
        games
            .iter()
            .enumerate()
            .all(|(i, g)| g.index == i as u32 && g.seats == [0, 1]),
        "each result with its match's seats"
    );
    // The session's counts reach the statistics as it ends.
    drop(store);
    let waited = std::time::Instant::now();
    let mut after = read();
    while after < before + u64::from(N) && waited.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
        after = read();
    }
    let rows = after - before;
    assert!(
        (u64::from(N)..=3 * u64::from(N)).contains(&rows),
        "reading {N} rated matches read {rows} rows of matches"
    );
}

/// Pruning a ladder's replays holds its rating lock: a process frozen while
/// it prunes (its transaction open, holding the rows it deletes) holds the
/// others up no longer than the rating lock's wait, not the ten seconds of
/// a lock timeout on the loop of every worker that rated the ladder (the
/// fault run found the servers and a worker waiting on a frozen worker's
/// deleted replay); they prune later.
#[test]
fn on_postgres_a_process_frozen_while_it_prunes_holds_the_others_up_no_longer_than_the_rating_lock_wait(
) {
    let db = postgres();
    let mut store = db.store();
    let id = ladder(&mut store, 4);
    let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
    store.queue().claim(w, id, 4, LEASE).unwrap();
    for i in 0..4 {
        store
            .queue()
            .commit(w, id, &result(i, &format!("r{i}")), b"gz")
            .unwrap();
    }
    let keep: KeepReplays = "recent:1".parse().unwrap();
    let Db::Postgres(url) = &db else {
        unreachable!()
    };
    // Another process prunes as Ludus does, and freezes mid-way.
    let mut frozen = postgres::Client::connect(url, postgres::NoTls).unwrap();
    let mut pruning = frozen.transaction().unwrap();
    pruning
        .execute(
            "SELECT pg_advisory_xact_lock($1, $2)",
            &[&(0x4C55i32 + 1), &(id as i32)],
        )
        .unwrap();
    pruning
        .execute("DELETE FROM replays WHERE match_id = 'm0000'", &[])
        .unwrap();
    let started = std::time::Instant::now();
    let e = ludus_leaderboard::retention::prune(&store, id, keep, 4)
        .expect_err("another process prunes the ladder");
    assert!(e.is_transient(), "tried again later: {e}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "held up {:?}, not a lock timeout",
        started.elapsed()
    );
    drop(pruning);
    assert_eq!(
        ludus_leaderboard::retention::prune(&store, id, keep, 4).unwrap(),
        3,
        "pruned once the other is gone"
    );
}

/// `ladder check` compares the schedule's done marks with the results
/// while workers commit: a match marked done goes in with its result in
/// one transaction, so a check must read both in one snapshot, or it finds
/// a result of a match not yet marked done that no fault made.
fn done_marks_and_results_are_compared_in_one_snapshot_while_results_go_in(db: Db) {
    const N: u32 = 150;
    let mut store = db.store();
    let id = ladder(&mut store, N);
    let location = db.location();
    let committer = std::thread::spawn(move || {
        let store = Store::connect(&location).unwrap();
        let w = store.queue().register_worker(1, Some(id), LEASE).unwrap();
        for k in 0..N {
            assert_eq!(store.queue().claim(w, id, 1, LEASE).unwrap().len(), 1);
            store.queue().commit(w, id, &result(k, "r"), b"gz").unwrap();
        }
    });
    let mut reads = 0;
    while !committer.is_finished() {
        let found = store.integrity().done_mismatches(id).unwrap();
        assert_eq!(
            found,
            Default::default(),
            "a check during commits found a mismatch"
        );
        reads += 1;
    }
    committer.join().unwrap();
    assert!(reads > 10, "checked while commits went on ({reads} checks)");
}
