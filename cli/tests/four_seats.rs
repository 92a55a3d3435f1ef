//! A four-seat ladder starting with two user bots, with real processes:
//! `ludus serve --house` on a folder of one Claim bot fills every table of
//! four with the two user bots and the house bot in two seats; the copies
//! are rated once, every seat gets the bot's Elo after the match, a match
//! re-runs from the database, and `ludus ladder recompute` finds the stored
//! numbers.

mod common;

use common::*;
use ludus_leaderboard::house;
use ludus_leaderboard::store::{Location, Store};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// Matches rated before the test looks.
const RATED: u32 = 16;

fn submit_claim(dir: &Path, file: &str, name: &str) {
    let o = ludus(
        &[
            "submit",
            &bot(file),
            "--name",
            name,
            "--game",
            "claim",
            "--db",
            "ludus.db",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
}

fn store(dir: &Path) -> Store {
    let db = dir.join("ludus.db");
    Store::connect_existing(&Location::parse(db.to_str().unwrap())).unwrap()
}

/// The Claim ladder, once it has rated `RATED` matches and fitted
/// Weng-Lin ratings for `bots` bots.
fn rated_ladder(dir: &Path, bots: usize) -> i64 {
    let start = Instant::now();
    loop {
        let store = store(dir);
        if let Some(ladder) = store.ladders().continuous("claim").unwrap() {
            let through = store.ladders().get(ladder).unwrap().rated_through;
            let fitted = store.ratings().get(ladder, "weng-lin").unwrap().len();
            if through >= RATED && fitted == bots {
                return ladder;
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the Claim ladder did not rate {RATED} matches in five minutes"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

#[test]
fn two_user_bots_and_a_house_bot_in_two_seats_fill_claim_tables() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let folder = dir.join("house");
    std::fs::create_dir(&folder).unwrap();
    // The sample bot with a custom section at its end: the same play, other
    // bytes than the user bot `alpha`'s.
    let mut wasm = std::fs::read(bot("claim_sample")).unwrap();
    wasm.extend_from_slice(b"\x00\x06\x05house");
    std::fs::write(folder.join("claim_house.wasm"), wasm).unwrap();
    submit_claim(dir, "claim_sample", "alpha");
    submit_claim(dir, "claim_strategy", "beta");

    let mut server = serve(
        dir,
        &[
            "--db",
            "ludus.db",
            "--house",
            folder.to_str().unwrap(),
            "--workers",
            "2",
            "--game-config",
            r#"claim={"max_turns": 60}"#,
        ],
    );
    let ladder = rated_ladder(dir, 3);
    assert_eq!(
        server.stop().map(|s| s.success()),
        Some(true),
        "the server stops"
    );

    let store = store(dir);
    let house_bots = house::bots(&store).unwrap();
    let record = store.ladders().get(ladder).unwrap();
    assert_eq!(record.players, 4);
    let names: Vec<&str> = record.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    let house_bot = names
        .iter()
        .copied()
        .find(|n| house_bots.contains(*n))
        .expect("a house bot in the ladder");
    assert!(house_bot.starts_with("claim_house"), "{house_bot}");

    // Every table: both user bots once, the house bot twice.
    let schedule = store.ladders().schedule(ladder).unwrap();
    assert!(schedule.len() as u32 >= RATED);
    for m in &schedule {
        let mut seats = BTreeMap::new();
        for &p in &m.seats {
            *seats.entry(names[p]).or_insert(0) += 1;
        }
        assert_eq!(
            seats,
            [("alpha", 1), ("beta", 1), (house_bot, 2)].into(),
            "match {}: {:?}",
            m.index,
            m.seats
        );
    }

    // Ratings for the three bots, each with its rated matches counted once.
    for system in ["elo", "weng-lin"] {
        let rows = store.ratings().get(ladder, system).unwrap();
        assert_eq!(rows.len(), 3, "{system}: {rows:?}");
    }
    let results = store
        .results()
        .before(ladder, record.rated_through)
        .unwrap();
    let rated = results.iter().filter(|r| r.aborted.is_none()).count() as u32;
    assert!(rated > 0);
    let counts = store.ratings().rated_counts(ladder).unwrap();
    assert!(counts.iter().all(|&c| c == rated), "{counts:?} of {rated}");

    // Each seat of a rated match has an Elo after it: the house bot's two
    // seats the same one (its Elo after the match), listed once on its
    // page, and the last is its stored Elo.
    let position = names.iter().position(|n| *n == house_bot).unwrap();
    let seat_elos = |index: u32| {
        let (m, _) = store.results().at(ladder, index).unwrap().unwrap();
        let seats: Vec<usize> = (0..m.seats.len())
            .filter(|&s| m.seats[s] == position)
            .collect();
        assert_eq!(seats.len(), 2, "match {index}: {:?}", m.seats);
        seats
    };
    let mut by_match: BTreeMap<u32, Vec<Option<f64>>> = BTreeMap::new();
    for s in store.seats().of_bot(ladder, position).unwrap() {
        assert_eq!(s.seat, seat_elos(s.scheduled.index)[0], "its first seat");
        by_match.entry(s.scheduled.index).or_default().push(s.elo);
    }
    let mut last = None;
    for r in &results {
        let elos = &by_match[&r.index];
        assert_eq!(elos.len(), 1, "match {} once: {elos:?}", r.index);
        if r.aborted.is_none() {
            assert!(elos[0].is_some(), "{elos:?}");
            last = elos[0];
        }
    }
    let elo = store.ratings().get(ladder, "elo").unwrap();
    assert_eq!(last, Some(elo[position].1));

    // The API lists the three bots, rated.
    let server = serve(dir, &["--db", "ludus.db", "--workers", "0"]);
    let board = get_json(&format!(
        "{}/api/games/claim/leaderboard?per_page=100",
        server.url
    ));
    let rows = board["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{board}");
    assert!(
        rows.iter()
            .all(|r| r["games"].as_u64() == Some(rated as u64)),
        "{board}"
    );
    drop(server);

    // The full table counts a match once for a bot seated twice, and its
    // wins, draws and losses add up to its matches.
    let o = ludus(
        &[
            "leaderboard",
            "--game",
            "claim",
            "--format",
            "json",
            "--db",
            "ludus.db",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
    let full: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // Every result, rated or not yet: a match that finished after one the
    // server's stop sent back to the queue is past the rated prefix.
    let played = store
        .results()
        .all(ladder)
        .unwrap()
        .iter()
        .filter(|r| r.aborted.is_none())
        .count() as u64;
    for r in full["rows"].as_array().unwrap() {
        assert_eq!(r["games"].as_u64(), Some(played), "{r}");
        let sum: u64 = ["wins", "draws", "losses"]
            .iter()
            .map(|k| r[k].as_u64().unwrap())
            .sum();
        assert_eq!(sum, played, "{r}");
    }

    // A match seating a bot twice re-runs from the database; the ratings
    // recompute from the stored results to the bit.
    let first = results.iter().find(|r| r.aborted.is_none()).unwrap();
    let o = ludus(
        &["replay", "verify", &first.match_id, "--db", "ludus.db"],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(
        &["ladder", "recompute", "--game", "claim", "--db", "ludus.db"],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("bit for bit"), "{}", text(&o));
}
