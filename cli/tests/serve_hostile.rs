//! The whole hostile corpus uploaded to a running `ludus serve` through its
//! API, beside the example bots: every upload gets a clear answer; the
//! server keeps answering while the hostile bots play; their faults are
//! recorded and explained in their matches and on their bot pages; the
//! example bots' matches stay within their own budgets (and re-run bit for
//! bit); the server's memory stays bounded; and on SIGTERM it stops within
//! seconds, releasing the matches in play, and loses no finished result.

mod common;

use common::{get_json, ludus, serve, text};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const GAME: &str = "planet-wars";
/// Matches of 60 turns: the turncoat's attacks (turns 31 to 40) and the
/// turns it is out, in matches that last seconds rather than minutes.
const CONFIG: &str = r#"{"max_turns": 60}"#;

/// What the server must answer to each bot of the corpus: accepted (`None`),
/// or refused with a message that names what was wrong (these words).
const EXPECTED: &[(&str, Option<&str>)] = &[
    ("bad_answer_pointer", Some("bad_answer_pointer")),
    ("clock_watcher", None),
    ("deep_recursion", Some("stack_overflow")),
    ("huge_answer_length", Some("answer_too_large")),
    ("invalid_utf8", Some("bad_utf8")),
    ("loop_in_act", Some("out_of_fuel")),
    ("memory_bomb", Some("memory_cap")),
    ("panic_in_act", Some("trap")),
    ("panic_in_sdk_bot", Some("no target among")),
    ("sleep_forever", Some("out_of_fuel")),
    ("stdout_flood", None),
    ("turncoat", None),
    ("bad_alloc_pointer.wat", Some("bad_alloc_pointer")),
    ("forbidden_import.wat", Some("env::launch_missiles")),
    ("huge_initial_memory.wat", Some("memory")),
    ("idle.wat", None),
    ("illegal_moves.wat", None),
    ("initial_memory_over_match_cap.wat", Some("answer")),
    ("loop_in_initialize.wat", Some("out_of_fuel")),
    ("loop_in_start.wat", Some("out_of_fuel")),
    ("missing_act.wat", Some("act")),
    ("padded_answer.wat", Some("answer_too_large")),
    ("proc_exit.wat", Some("exit")),
    ("random_flood.wat", Some("out_of_fuel")),
    ("unknown_wasi_import.wat", Some("open_socket_to_mars")),
    ("wrong_act_type.wat", Some("act")),
    ("hostile.py", None),
];

/// The turncoat's faults on turns 31 to 40, one per attack, after which it
/// is out of the match (`hostile-bots/examples/turncoat.rs`).
const TURNCOAT_FAULTS: [&str; 10] = [
    "out_of_fuel",
    "memory_cap",
    "trap",
    "stack_overflow",
    "bad_answer_pointer",
    "answer_too_large",
    "bad_utf8",
    "out_of_fuel",
    "exit",
    "out_of_fuel",
];

/// How long any request may take before the server counts as down: far
/// beyond the milliseconds it takes, but bounded.
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// How soon after SIGTERM the server must have exited: far beyond the
/// tenths of a second it takes.
const STOP_WITHIN: Duration = Duration::from_secs(10);

/// Ceiling on the server's peak resident memory: its own few tens of MiB,
/// a compiled Python interpreter, and four sandboxed instances (two matches
/// and two validations) at their 64 MiB caps, with room to spare.
const RSS_CEILING_KIB: u64 = 1536 << 10;

/// Every bot of the hostile corpus, built: the Rust examples, the WAT
/// modules of the host's tests and the Python bot, by file name.
fn corpus() -> Vec<(String, Vec<u8>)> {
    let root = ludus_testkit::workspace_root();
    let files = |dir: &str, ext: &str| {
        let mut out: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        out.sort();
        out
    };
    let stem = |p: &Path| p.file_stem().unwrap().to_string_lossy().into_owned();
    let mut out = Vec::new();
    for p in files("hostile-bots/examples", "rs") {
        let wasm = std::fs::read(ludus_testkit::bot(&stem(&p))).unwrap();
        out.push((stem(&p), wasm));
    }
    for p in files("host/tests/hostile", "wat") {
        out.push((format!("{}.wat", stem(&p)), wat::parse_file(&p).unwrap()));
    }
    for p in files("hostile-bots/python", "py") {
        ludus_testkit::ensure_python().unwrap_or_else(|e| panic!("{e}"));
        let wasm = ludus_host::build::build_python(&p, &ludus_testkit::tools_dir())
            .unwrap_or_else(|e| panic!("building {}: {e}", p.display()));
        out.push((format!("{}.py", stem(&p)), std::fs::read(wasm).unwrap()));
    }
    // The turncoat first: its matches are the first the queue plays.
    out.sort_by_key(|(name, _)| name != "turncoat");
    out
}

/// `POST /api/bots`: the status and the JSON answer.
fn upload(url: &str, token: &str, name: &str, wasm: &[u8]) -> (u16, Value) {
    let response = ureq::post(&format!("{url}/api/bots"))
        .query("name", name)
        .query("game", GAME)
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/wasm")
        .config()
        .http_status_as_error(false)
        .build()
        .send(wasm)
        .unwrap_or_else(|e| panic!("uploading {name}: no answer: {e}"));
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .read_json()
        .unwrap_or_else(|e| panic!("uploading {name}: {status} without JSON: {e}"));
    (status, body)
}

fn user_add(dir: &Path, name: &str) -> String {
    let o = ludus(&["user", "add", name], dir);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

/// What the watcher saw: requests answered, and those that were not.
#[derive(Debug, Default)]
struct Watched {
    answered: u32,
    failures: Vec<String>,
    slowest: Duration,
}

/// Asks for the games, a leaderboard and its page, four times a second,
/// each within [`ANSWER_WITHIN`], until told to stop.
fn watch(url: String, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<Watched> {
    std::thread::spawn(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(ANSWER_WITHIN))
            .http_status_as_error(false)
            .build()
            .into();
        let mut w = Watched::default();
        let paths = [
            "/api/games".to_string(),
            format!("/api/games/{GAME}/leaderboard"),
            format!("/games/{GAME}"),
        ];
        while !stop.load(Ordering::Relaxed) {
            for path in &paths {
                let start = Instant::now();
                let answer = agent
                    .get(&format!("{url}{path}"))
                    .call()
                    .map_err(|e| e.to_string())
                    .and_then(|r| {
                        let status = r.status();
                        let body = r.into_body().read_to_string().map_err(|e| e.to_string())?;
                        if status == 200 {
                            Ok(())
                        } else {
                            Err(format!("{status}: {body}"))
                        }
                    });
                w.slowest = w.slowest.max(start.elapsed());
                match answer {
                    Ok(()) => w.answered += 1,
                    Err(e) => w.failures.push(format!("GET {path}: {e}")),
                }
            }
            std::thread::sleep(Duration::from_millis(250));
        }
        w
    })
}

/// A line of `/proc/PID/status`, in KiB.
fn proc_status_kib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no {key} in /proc/{pid}/status"));
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The finished matches of the bots `names`, by schedule index, as their
/// bot pages' JSON lists them.
fn finished(url: &str, names: &[&str]) -> BTreeMap<u64, Value> {
    let mut out = BTreeMap::new();
    for name in names {
        let view = get_json(&format!("{url}/api/bots/{}", encode(name)));
        for m in view["recent"].as_array().unwrap() {
            out.insert(m["index"].as_u64().unwrap(), m.clone());
        }
    }
    out
}

fn encode(name: &str) -> String {
    name.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn seats_of<'a>(m: &'a Value, names: &'a [&str]) -> impl Iterator<Item = usize> + 'a {
    m["seats"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(move |(_, s)| {
            let s = s.as_str().unwrap();
            names.iter().any(|n| s.rsplit_once(' ').unwrap().0 == *n)
        })
        .map(|(i, _)| i)
}

#[test]
fn the_hostile_corpus_uploaded_through_the_api_neither_stops_nor_slows_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let alice = user_add(dir.path(), "alice");
    let mallory = user_add(dir.path(), "mallory");
    let began = Instant::now();
    let corpus = corpus();
    let mut names: Vec<&str> = corpus.iter().map(|(n, _)| n.as_str()).collect();
    names.sort();
    let mut listed: Vec<&str> = EXPECTED.iter().map(|e| e.0).collect();
    listed.sort();
    assert_eq!(
        names, listed,
        "every bot of the corpus has its expected answer"
    );

    let mut server = serve(
        dir.path(),
        &[
            "--workers",
            "2",
            "--game-config",
            &format!("{GAME}={CONFIG}"),
        ],
    );
    let pid = server.child.id();
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = watch(server.url.clone(), stop.clone());

    let examples = ludus_testkit::example_bots(GAME);
    assert!(examples.len() >= 2, "{examples:?}");
    for name in &examples {
        let wasm = std::fs::read(ludus_testkit::bot(name)).unwrap();
        let (status, body) = upload(&server.url, &alice, name, &wasm);
        assert_eq!(status, 201, "{name}: {body}");
    }
    let lb_url = format!("{}/api/games/{GAME}/leaderboard", server.url);
    // Every match from here on is scheduled after the hostile bots came.
    let hostile_from = get_json(&lb_url)["scheduled"].as_u64().unwrap();

    // Two uploads at a time, as many as the server validates at once: the
    // turncoat first, then the rest of the corpus as each slot frees.
    let queue = std::sync::Mutex::new(corpus.iter());
    let answers: Vec<(&str, u16, Value)> = std::thread::scope(|s| {
        let uploader = || {
            let mut out = Vec::new();
            loop {
                let Some((name, wasm)) = queue.lock().unwrap().next() else {
                    break out;
                };
                let (status, body) = upload(&server.url, &mallory, name, wasm);
                out.push((name.as_str(), status, body));
            }
        };
        let uploaders = [s.spawn(uploader), s.spawn(uploader)];
        uploaders
            .into_iter()
            .flat_map(|u| u.join().unwrap())
            .collect()
    });
    assert_eq!(answers.len(), corpus.len());
    let mut accepted = Vec::new();
    for (name, status, body) in &answers {
        let expected = EXPECTED.iter().find(|e| e.0 == *name).unwrap().1;
        match expected {
            None => {
                assert_eq!(*status, 201, "{name}: {body}");
                assert!(
                    body["validation"]
                        .as_str()
                        .unwrap()
                        .starts_with("passed its validation match"),
                    "{name}: {body}"
                );
                accepted.push(*name);
            }
            Some(words) => {
                assert_eq!(*status, 422, "{name}: {body}");
                assert_eq!(body["error"]["code"], "refused", "{name}: {body}");
                let message = body["error"]["message"].as_str().unwrap();
                assert!(
                    message.contains(&format!("`{name}` is refused")) && message.contains(words),
                    "{name}: the refusal does not say that {words} was wrong: {message}"
                );
                // A bot that exhausted a budget was tried on its game only.
                if ["out_of_fuel", "memory_cap", "stack_overflow"].contains(&words) {
                    assert!(
                        message.contains("it was not tried on the other games"),
                        "{name}: {message}"
                    );
                }
            }
        }
    }
    assert!(accepted.contains(&"turncoat"));
    eprintln!("{:?}: the corpus uploaded", began.elapsed());

    // Wait until the turncoat has attacked in two matches, and the example
    // bots have finished six matches scheduled since the hostile bots came.
    let example_names: Vec<&str> = examples.iter().map(String::as_str).collect();
    let start = Instant::now();
    let (attacked, during) = loop {
        let turncoat = finished(&server.url, &["turncoat"]);
        let attacked: Vec<Value> = turncoat
            .into_values()
            .filter(|m| m["turns"].as_u64().unwrap() > 40)
            .collect();
        let during: Vec<Value> = finished(&server.url, &example_names)
            .into_iter()
            .filter(|(index, _)| *index >= hostile_from)
            .map(|(_, m)| m)
            .collect();
        if attacked.len() >= 2 && during.len() >= 6 {
            eprintln!("{:?}: the hostile phase played", began.elapsed());
            break (attacked, during);
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the hostile phase did not get far: {} matches of the turncoat's attacks, {} of the example bots",
            attacked.len(),
            during.len()
        );
        std::thread::sleep(Duration::from_millis(500));
    };

    // The turncoat's faults: recorded on their turns, with their messages,
    // counted on its bot page and in the API.
    for m in &attacked {
        let seat = seats_of(m, &["turncoat"]).next().unwrap();
        assert_eq!(m["faults"][seat], 10, "{m}");
        assert!(m["aborted"].is_null(), "{m}");
        let replay = get_json(&format!(
            "{}/api/matches/{}/replay",
            server.url,
            m["match_id"].as_str().unwrap()
        ));
        let turns = replay["turns"].as_array().unwrap();
        for t in turns {
            let n = t["turn"].as_u64().unwrap() as usize;
            let s = &t["seats"][seat];
            match n {
                1..=30 => assert!(s["fault"].is_null(), "turn {n}: {s}"),
                31..=40 => {
                    assert_eq!(s["fault"]["kind"], TURNCOAT_FAULTS[n - 31], "turn {n}: {s}");
                    assert!(
                        !s["fault"]["message"].as_str().unwrap().is_empty(),
                        "turn {n}: {s}"
                    );
                }
                _ => assert_eq!(s["out"], true, "turn {n}: the turncoat is out: {s}"),
            }
        }
    }
    let view = get_json(&format!("{}/api/bots/turncoat", server.url));
    let fault_turns = view["fault_turns"].as_u64().unwrap();
    assert!(fault_turns >= 10 * attacked.len() as u64, "{view}");
    let page = ureq::get(&format!("{}/bots/turncoat", server.url))
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    assert!(
        page.contains(&format!("Turns with a fault: {fault_turns}.")),
        "{page}"
    );

    // The example bots' matches of the hostile phase: played to their end,
    // no fault of theirs, every turn within their own fuel budget.
    let mut against_hostile = Vec::new();
    for m in &during {
        assert!(m["aborted"].is_null(), "{m}");
        let replay = get_json(&format!(
            "{}/api/matches/{}/replay",
            server.url,
            m["match_id"].as_str().unwrap()
        ));
        assert!(!replay["outcome"].is_null(), "{m}");
        let limits = &replay["limits"];
        for seat in seats_of(m, &example_names) {
            assert_eq!(m["faults"][seat], 0, "{m}");
            for t in replay["turns"].as_array().unwrap() {
                let budget = if t["turn"] == 1 {
                    &limits["first_turn_fuel"]
                } else {
                    &limits["turn_fuel"]
                };
                let s = &t["seats"][seat];
                assert!(
                    s["fault"].is_null() && s["fuel"].as_u64().unwrap() <= budget.as_u64().unwrap(),
                    "{m}: turn {}: {s}",
                    t["turn"]
                );
            }
        }
        if seats_of(m, &accepted).next().is_some() {
            against_hostile.push(m["match_id"].as_str().unwrap().to_string());
        }
    }
    assert!(!against_hostile.is_empty(), "{during:#?}");

    // The server answered all along, and its memory stayed bounded.
    let peak_kib = proc_status_kib(pid, "VmHWM:");
    stop.store(true, Ordering::Relaxed);
    let watched = watcher.join().unwrap();
    eprintln!(
        "hostile phase: {} requests answered, the slowest in {:?}; peak RSS {} MiB",
        watched.answered,
        watched.slowest,
        peak_kib >> 10
    );
    assert!(watched.failures.is_empty(), "{:#?}", watched.failures);
    assert!(watched.answered >= 30, "{watched:?}");
    assert!(
        peak_kib < RSS_CEILING_KIB,
        "the server's peak RSS is {peak_kib} KiB"
    );

    // SIGTERM: what the API reported finished, and what the worker held.
    let mut everyone = example_names.clone();
    everyone.extend(&accepted);
    let reported = finished(&server.url, &everyone);
    let rated = get_json(&lb_url)["rated"].as_u64().unwrap();
    let db_path = dir.path().join("ludus.db");
    // The matches in hand, with their attempts (this claim included).
    let held: Vec<(i64, i64)> = {
        let db = rusqlite::Connection::open_with_flags(
            &db_path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        let mut q = db
            .prepare("SELECT idx, attempts FROM matches WHERE lease_owner IS NOT NULL AND done = 0")
            .unwrap();
        q.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    };
    let stopping = Instant::now();
    let status = server
        .stop()
        .expect("the server stops within half a minute");
    let stopped_in = stopping.elapsed();
    assert!(status.success(), "ludus serve ended with {status}");
    // The matches in play stop between two answers: a stop waits for a
    // turn of each (200 ms of fuel), not for the ends of the matches.
    assert!(stopped_in < STOP_WITHIN, "stopped in {stopped_in:?}");

    let db = rusqlite::Connection::open(&db_path).unwrap();
    let stored: BTreeMap<u64, (String, u64, String, String)> = {
        let mut q = db
            .prepare("SELECT idx, match_id, turns, faults, placements FROM results")
            .unwrap();
        q.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)? as u64,
                (r.get(1)?, r.get::<_, i64>(2)? as u64, r.get(3)?, r.get(4)?),
            ))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    };
    for (index, m) in &reported {
        let (id, turns, faults, placements) = stored
            .get(index)
            .unwrap_or_else(|| panic!("match {index} was reported finished, and is lost: {m}"));
        assert_eq!(id, m["match_id"].as_str().unwrap(), "{m}");
        assert_eq!(*turns, m["turns"].as_u64().unwrap(), "{m}");
        assert_eq!(
            serde_json::from_str::<Value>(faults).unwrap(),
            m["faults"],
            "{m}"
        );
        assert_eq!(
            serde_json::from_str::<Value>(placements).unwrap(),
            m["placements"],
            "{m}"
        );
        let replays: i64 = db
            .query_row(
                "SELECT COUNT(*) FROM replays WHERE match_id = ?1",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(replays, 1, "{m}");
    }
    // A match in hand at SIGTERM was finished and committed, or released
    // unfinished with its attempt given back.
    let mut released = 0;
    for (index, attempts) in &held {
        if stored.contains_key(&(*index as u64)) {
            continue;
        }
        let (done, after): (bool, i64) = db
            .query_row(
                "SELECT done, attempts FROM matches WHERE idx = ?1",
                [index],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert!(!done, "match {index}");
        assert_eq!(
            after,
            attempts - 1,
            "match {index}: its attempt is given back"
        );
        released += 1;
    }
    eprintln!(
        "SIGTERM: stopped in {stopped_in:?}; of the {} matches in hand, {released} released unfinished",
        held.len()
    );
    let leased: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM matches WHERE lease_owner IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(leased, 0, "matches left leased by a stopped worker");
    let running: i64 = db
        .query_row("SELECT COUNT(*) FROM workers WHERE stopped = 0", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(running, 0, "a worker was not recorded as stopped");
    let rated_after: i64 = db
        .query_row("SELECT rated_through FROM ladders", [], |r| r.get(0))
        .unwrap();
    assert!(rated_after as u64 >= rated, "{rated_after} < {rated}");
    // The example bots' matches between themselves that were rated before
    // the stop (their positions in the ladder are those of their names).
    let positions: Vec<i64> = {
        let mut q = db
            .prepare("SELECT position, name FROM ladder_bots")
            .unwrap();
        q.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .filter(|(_, name)| example_names.contains(&name.as_str()))
            .map(|(position, _)| position)
            .collect()
    };
    let between: Vec<String> = {
        let mut q = db
            .prepare(
                "SELECT m.seats, r.match_id FROM matches m JOIN results r ON r.idx = m.idx
                 WHERE m.idx < ?1 ORDER BY m.idx",
            )
            .unwrap();
        q.query_map([rated as i64], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .filter(|(seats, _)| {
            serde_json::from_str::<Vec<i64>>(seats)
                .unwrap()
                .iter()
                .all(|p| positions.contains(p))
        })
        .map(|(_, id)| id)
        .collect()
    };
    assert!(
        !between.is_empty(),
        "no rated match between the example bots"
    );
    drop(db);

    // The example bots' rated matches between themselves, and one against a
    // hostile bot, re-run bit for bit from the database: the load around
    // them changed nothing.
    for id in between.iter().rev().take(2).chain(&against_hostile[..1]) {
        let o = ludus(
            &["replay", "verify", id, "--db", db_path.to_str().unwrap()],
            dir.path(),
        );
        assert!(o.status.success(), "{id}: {}", text(&o));
    }
}
