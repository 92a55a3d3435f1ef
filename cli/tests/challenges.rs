//! Challenges on a real `ludus serve`: candidates uploaded with `ludus
//! submit --candidate`, challenges asked with `ludus challenge` and read
//! from the API, played by the server's in-process worker on SQLite or by
//! a `ludus worker` on PostgreSQL; the SPRT's verdicts, fixed counts, the
//! same games from the same seed, the ratings untouched, and the refusals.

mod common;

use common::{bot, get_json, ludus, serve, text, Serving};
use ludus_leaderboard::store::{Location, Store};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// Short Planet Wars matches: the rules are the same, the games shorter.
const CONFIG: &str = r#"{"max_turns": 100}"#;
const GAME_CONFIG: &str = r#"planet-wars={"max_turns": 100}"#;

/// Adds the account `name` to `db` and returns its token.
fn add_user(dir: &Path, db: &str, name: &str) -> String {
    let o = ludus(&["user", "add", name, "--db", db], dir);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

/// Uploads the built bot `file` as `name` for `game`, a candidate or not.
fn upload(
    dir: &Path,
    server: &Serving,
    token: &str,
    file: &str,
    name: &str,
    game: &str,
    candidate: bool,
) -> Output {
    let path = bot(file);
    let mut args = vec![
        "submit",
        &path,
        "--name",
        name,
        "--game",
        game,
        "--server",
        &server.url,
        "--token",
        token,
    ];
    if candidate {
        args.push("--candidate");
    }
    let o = ludus(&args, dir);
    assert!(o.status.success(), "{}", text(&o));
    o
}

/// A server on SQLite with two workers, where alice has entered the
/// expander as `exp` and the random bot as `rnd`: the server and her
/// token.
fn alice_with_expander_and_random(d: &Path) -> (Serving, String) {
    let db = d.join("ludus.db").display().to_string();
    let token = add_user(d, &db, "alice");
    let server = serve(
        d,
        &["--db", &db, "--workers", "2", "--game-config", GAME_CONFIG],
    );
    for (file, name) in [
        ("planet_wars_expander", "exp"),
        ("planet_wars_random", "rnd"),
    ] {
        upload(d, &server, &token, file, name, "planet-wars", false);
    }
    (server, token)
}

/// `ludus challenge` on the server with `token` and `args`.
fn challenge(dir: &Path, server: &Serving, token: &str, args: &[&str]) -> Output {
    let mut all = vec!["challenge"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--server", &server.url, "--token", token]);
    ludus(&all, dir)
}

/// The challenge's id from `ludus challenge`'s first line.
fn id_of(o: &Output) -> u64 {
    let out = String::from_utf8_lossy(&o.stdout);
    out.lines()
        .next()
        .and_then(|l| l.strip_prefix("challenge "))
        .and_then(|l| l.split(':').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("no challenge id in {out}"))
}

/// The lines `verdict: …` of `ludus challenge --wait`'s output.
fn verdicts(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.starts_with("verdict: "))
        .map(str::to_string)
        .collect()
}

fn status(server: &Serving, id: u64) -> Value {
    get_json(&format!("{}/api/challenges/{id}", server.url))
}

/// POSTs to the API with `token`: the status and the body.
fn post(server: &Serving, token: &str, path: &str) -> (u16, Value) {
    let r = ureq::post(&format!("{}{path}", server.url))
        .header("Authorization", &format!("Bearer {token}"))
        .config()
        .http_status_as_error(false)
        .build()
        .send_empty()
        .unwrap();
    let code = r.status().as_u16();
    (code, r.into_body().read_json().unwrap())
}

/// The (match id, outcome) of each of a challenge's matches.
fn games(status: &Value) -> Vec<(String, String)> {
    status["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["match_id"].as_str().unwrap_or("").to_string(),
                m["outcome"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// The SPRT finds the expander stronger than the random bot, and does not
/// find a candidate copy of the expander stronger than the expander; the
/// continuous ladder's ratings and leaderboard know nothing of either
/// challenge, and the candidate is not on the board until promoted.
#[test]
fn the_sprt_finds_the_expander_stronger_than_random_and_a_copy_of_it_not() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (server, token) = alice_with_expander_and_random(d);
    let db = d.join("ludus.db").display().to_string();
    let o = upload(
        d,
        &server,
        &token,
        "planet_wars_expander",
        "twin",
        "planet-wars",
        true,
    );
    assert!(text(&o).contains("a candidate"), "{}", text(&o));

    let sprt = ["--sprt", "--elo0", "0", "--elo1", "50", "--seed", "7"];
    let mut args = vec!["exp", "--vs", "rnd", "--wait"];
    args.extend(sprt);
    let o = challenge(d, &server, &token, &args);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(verdicts(&o), ["verdict: stronger"], "{}", text(&o));
    let stronger = status(&server, id_of(&o));
    assert_eq!(stronger["state"], "decided");
    // The same pairs as `ludus match-up` plays from the same seed, to the
    // same decision.
    let (expander, random) = (bot("planet_wars_expander"), bot("planet_wars_random"));
    let o = ludus(
        &[
            "match-up",
            &expander,
            &random,
            "--game",
            "planet-wars",
            "--config",
            CONFIG,
            "--sprt",
            "elo0=0,elo1=50,alpha=0.05,beta=0.05",
            "--seed",
            "7",
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let pentanomial = format!("pentanomial {}", stronger["pentanomial"]).replace(',', ", ");
    assert!(
        text(&o).contains(&pentanomial),
        "{pentanomial} in {}",
        text(&o)
    );
    let sprt = &stronger["sprt"];
    assert!(
        sprt["llr"].as_f64().unwrap() >= sprt["upper"].as_f64().unwrap(),
        "{stronger}"
    );
    assert!(stronger["elo"]["low"].as_f64().unwrap() > 0.0, "{stronger}");

    // A copy of the expander, as a candidate, against the expander: the
    // same bytes play the same moves, so every pair is a win and a loss.
    let o = challenge(
        d,
        &server,
        &token,
        &[
            "twin",
            "--vs",
            "exp",
            "--sprt",
            "--max-games",
            "40",
            "--seed",
            "8",
            "--wait",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let said = verdicts(&o);
    assert_eq!(said.len(), 1, "{}", text(&o));
    assert_ne!(said[0], "verdict: stronger", "{}", text(&o));
    let twin = status(&server, id_of(&o));
    assert!(twin["games"].as_u64().unwrap() >= 2, "{twin}");
    assert_eq!(twin["wins"], twin["losses"], "{twin}");

    // Ratings: challenges' matches are never rated. The challenges'
    // ladders have no ratings; the game's ladder counts its own rated
    // matches alone on its board (two seats each), and its stored ratings
    // are those recomputed from its results.
    assert!(server_stops(server));
    let store = Store::connect_existing(&Location::parse(&db)).unwrap();
    for c in [&stronger, &twin] {
        let ladder = c["ladder"].as_str().unwrap().parse().unwrap();
        assert!(
            store.ratings().get(ladder, "elo").unwrap().is_empty(),
            "{c}"
        );
        let counted = store.ratings().rated_counts(ladder).unwrap();
        assert!(counted.iter().all(|&n| n == 0), "{counted:?}");
    }
    let season = store.ladders().continuous("planet-wars").unwrap().unwrap();
    let played = store
        .results()
        .all(season)
        .unwrap()
        .iter()
        .filter(|r| r.aborted.is_none())
        .count() as u64;
    assert!(played > 0, "the ladder played while the challenges did");
    let o = ludus(
        &[
            "leaderboard",
            "--game",
            "planet-wars",
            "--format",
            "json",
            "--db",
            &db,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    let board: Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = board["rows"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["bot"].as_str().unwrap()).collect();
    assert!(
        !names.contains(&"twin"),
        "a candidate is on the board: {names:?}"
    );
    let seats: u64 = rows.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    assert_eq!(
        seats,
        2 * played,
        "the board counts other matches than its ladder's"
    );
    let o = ludus(
        &["ladder", "recompute", "--game", "planet-wars", "--db", &db],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("bit for bit"), "{}", text(&o));
}

fn server_stops(mut server: Serving) -> bool {
    server.stop().is_some_and(|s| s.success())
}

/// A challenge of a fixed count plays exactly its count (an odd one: its
/// last pair is one game) and says no verdict; a second challenge from
/// the same seed plays the very same games to the same results.
#[test]
fn a_fixed_count_plays_its_count_and_the_same_seed_plays_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (server, token) = alice_with_expander_and_random(d);
    let run = || {
        let args = [
            "exp", "--vs", "rnd", "--games", "7", "--seed", "99", "--wait",
        ];
        let o = challenge(d, &server, &token, &args);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(verdicts(&o), ["verdict: none"], "{}", text(&o));
        status(&server, id_of(&o))
    };
    let (first, second) = (run(), run());
    assert_ne!(first["id"], second["id"]);
    for s in [&first, &second] {
        assert_eq!(s["state"], "finished", "{s}");
        assert_eq!(s["scheduled"], 7, "{s}");
        assert_eq!(s["finished"], 7, "{s}");
        assert_eq!(s["games"], 7, "{s}");
        let games = games(s);
        assert_eq!(games.len(), 7);
        assert!(games.iter().all(|(id, _)| id.len() == 64), "{games:?}");
    }
    assert_eq!(
        games(&first),
        games(&second),
        "the same seed, the same games"
    );
    assert_eq!(first["pentanomial"], second["pentanomial"]);
    // Each match's page is the replay viewer's.
    let (id, _) = &games(&first)[0];
    let page = ureq::get(&format!("{}/matches/{id}", server.url))
        .call()
        .unwrap();
    assert_eq!(page.status(), 200);
    // The challenge's page links its matches.
    let html = ureq::get(&format!(
        "{}/challenges/{}",
        server.url,
        first["id"].as_str().unwrap()
    ))
    .call()
    .unwrap()
    .into_body()
    .read_to_string()
    .unwrap();
    assert!(html.contains(&format!("href=\"/matches/{id}\"")), "{html}");
    assert!(html.contains("Finished, no verdict"), "{html}");
}

/// Refusals, each with its reason: the quota of challenges at once (until
/// one is stopped), a retired opponent, one of another game, another
/// account's bot to test; a candidate is promoted once, by its owner.
#[test]
fn challenges_are_refused_past_the_quota_and_against_retired_bots_or_other_games() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let db = d.join("ludus.db").display().to_string();
    let alice = add_user(d, &db, "alice");
    let bob = add_user(d, &db, "bob");
    // No worker: what is created keeps running.
    let server = serve(
        d,
        &["--db", &db, "--workers", "0", "--challenges-at-once", "1"],
    );
    upload(
        d,
        &server,
        &alice,
        "planet_wars_expander",
        "exp",
        "planet-wars",
        false,
    );
    upload(
        d,
        &server,
        &alice,
        "planet_wars_random",
        "rnd",
        "planet-wars",
        false,
    );
    upload(
        d,
        &server,
        &alice,
        "planet_wars_idle",
        "old",
        "planet-wars",
        false,
    );
    upload(
        d,
        &server,
        &alice,
        "planet_wars_random",
        "cand",
        "planet-wars",
        true,
    );
    upload(d, &server, &bob, "halite_collector", "hal", "halite", false);
    upload(
        d,
        &server,
        &bob,
        "planet_wars_expander",
        "bexp",
        "planet-wars",
        false,
    );
    let (code, _) = post(&server, &alice, "/api/bots/old/retire");
    assert_eq!(code, 200);

    let refused = |token: &str, args: &[&str], why: &str, status: &str| {
        let o = challenge(d, &server, token, args);
        assert!(!o.status.success(), "{}", text(&o));
        assert!(text(&o).contains(why), "{why} in {}", text(&o));
        assert!(
            text(&o).contains(&format!("({status})")),
            "{status} in {}",
            text(&o)
        );
    };
    refused(
        &alice,
        &["exp", "--vs", "old", "--games", "4"],
        "`old` is retired",
        "422",
    );
    refused(
        &alice,
        &["exp", "--vs", "hal", "--games", "4"],
        "plays halite, not planet-wars",
        "422",
    );
    refused(
        &bob,
        &["exp", "--vs", "rnd", "--games", "4"],
        "`exp` is not yours",
        "403",
    );
    refused(
        &bob,
        &["hal", "--vs", "cand:1", "--games", "4"],
        "plays planet-wars, not halite",
        "422",
    );

    let o = challenge(d, &server, &alice, &["exp", "--vs", "rnd", "--games", "4"]);
    assert!(o.status.success(), "{}", text(&o));
    let running = id_of(&o);
    assert_eq!(status(&server, running)["state"], "running");
    refused(
        &alice,
        &["cand", "--vs", "exp", "--sprt"],
        "you run 1 challenges already",
        "429",
    );
    let (code, body) = post(&server, &bob, &format!("/api/challenges/{running}/stop"));
    assert_eq!(code, 403, "{body}");
    let (code, body) = post(&server, &alice, &format!("/api/challenges/{running}/stop"));
    assert_eq!(
        (code, &body["state"]),
        (200, &Value::from("stopped")),
        "{body}"
    );
    let (code, body) = post(&server, &alice, &format!("/api/challenges/{running}/stop"));
    assert_eq!(
        (code, body["error"]["code"].as_str()),
        (409, Some("conflict")),
        "{body}"
    );
    let o = challenge(d, &server, &alice, &["cand", "--vs", "exp", "--sprt"]);
    assert!(o.status.success(), "{}", text(&o));

    // A candidate is not an opponent for others, and is promoted once.
    refused(
        &bob,
        &["bexp", "--vs", "cand:1", "--games", "2"],
        "a candidate its owner has not promoted",
        "422",
    );
    let (code, body) = post(&server, &bob, "/api/bots/cand/versions/1/promote");
    assert_eq!(code, 403, "{body}");
    let (code, body) = post(&server, &alice, "/api/bots/cand/versions/1/promote");
    assert_eq!(code, 200, "{body}");
    let (code, body) = post(&server, &alice, "/api/bots/cand/versions/1/promote");
    assert_eq!(
        (code, body["error"]["code"].as_str()),
        (409, Some("conflict")),
        "{body}"
    );
}

/// On PostgreSQL, a server without workers of its own and one `ludus
/// worker` elsewhere: the worker plays the challenge to its end.
#[test]
fn a_remote_worker_on_postgres_plays_a_challenge() {
    let cluster = ludus_testkit::postgres::shared();
    let db = cluster.create_database();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let token = add_user(d, &db, "alice");
    let server = serve(
        d,
        &["--db", &db, "--workers", "0", "--game-config", GAME_CONFIG],
    );
    upload(
        d,
        &server,
        &token,
        "planet_wars_expander",
        "exp",
        "planet-wars",
        false,
    );
    upload(
        d,
        &server,
        &token,
        "planet_wars_random",
        "rnd",
        "planet-wars",
        false,
    );
    let mut worker = common::ludus_cmd(&["worker", "--threads", "2", "--db", &db], d)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let args = [
        "exp", "--vs", "rnd", "--games", "6", "--seed", "5", "--wait",
    ];
    let o = challenge(d, &server, &token, &args);
    let _ = worker.kill();
    let _ = worker.wait();
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(verdicts(&o), ["verdict: none"], "{}", text(&o));
    let s = status(&server, id_of(&o));
    assert_eq!(
        (s["finished"].as_u64(), s["games"].as_u64()),
        (Some(6), Some(6)),
        "{s}"
    );
    let played = cluster.psql(&db, "SELECT sum(played) FROM workers");
    assert!(played.trim().parse::<u64>().unwrap() >= 6, "{played}");
}
