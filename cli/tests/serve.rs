//! `ludus serve` as people use it: a real server on a loopback port, an
//! account made with `ludus user add`, the example bots uploaded with
//! `ludus submit --server`, rated matches played by its in-process worker
//! on SQLite, or by two `ludus worker` processes on PostgreSQL, the
//! leaderboard's JSON, the pages in headless Chromium, a rated match re-run
//! with `ludus replay verify`, the ratings recomputed with `ludus ladder
//! recompute`, and SIGTERM.

mod common;

use common::{bot, get_json, ludus, ludus_cmd, scheduler_pid, serve, text, Serving};
use ludus_testkit::cdp::Browser;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

const SCRIPT: &str = "<script>alert(1)</script>";

fn artifacts() -> PathBuf {
    let dir = ludus_testkit::workspace_root().join("target/browser-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The share of pixels unlike the top-left one.
fn drawn_share(png_file: &Path) -> f64 {
    let decoder = png::Decoder::new(std::fs::File::open(png_file).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    let first = pixels[0];
    pixels.iter().filter(|p| **p != first).count() as f64 / pixels.len() as f64
}

/// Adds the account `alice` to the database of `db_args` (none: the
/// scratch directory's file) and returns its token, printed once.
fn add_alice(dir: &Path, db_args: &[&str]) -> String {
    let mut args = vec!["user", "add", "alice"];
    args.extend_from_slice(db_args);
    let o = ludus(&args, dir);
    assert!(o.status.success(), "{}", text(&o));
    let token = String::from_utf8(o.stdout).unwrap().trim().to_string();
    assert!(token.starts_with("ludus_"));
    let again = ludus(&args, dir);
    assert!(!again.status.success());
    token
}

/// Uploads the Planet Wars example bots with `ludus submit --server`, but
/// the first, which the operator stores (`ludus submit --db DB`) under a
/// name that is markup, a name no upload may take; returns the bots.
fn submit_examples(dir: &Path, server: &Serving, db: &str, token: &str) -> Vec<String> {
    let bots = ludus_testkit::example_bots("planet-wars");
    assert!(bots.len() >= 2, "{bots:?}");
    let upload = |file: &str, name: &str| common::upload(dir, &server.url, token, file, name);
    let refused = upload(&bots[0], SCRIPT);
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("is not a bot name"),
        "{}",
        text(&refused)
    );
    common::submit_to(dir, db, &bots[0], SCRIPT);
    for b in &bots[1..] {
        let o = upload(b, b);
        assert!(o.status.success(), "{}", text(&o));
        assert!(text(&o).contains("uploaded"), "{}", text(&o));
    }
    // The operator's name belongs to no account: no upload can take it.
    let taken = upload(&bots[1], SCRIPT);
    assert!(!taken.status.success());
    bots
}

/// Waits for 12 rated matches (the placement series first, then drawn
/// pairings), checks the leaderboard's JSON, and returns the id of a match
/// of the bot named `<script>`.
fn rated_leaderboard(server: &Serving, bots: usize) -> String {
    let lb_url = format!("{}/api/games/planet-wars/leaderboard", server.url);
    let start = Instant::now();
    let lb = loop {
        let lb = get_json(&lb_url);
        if lb["rated"].as_u64().unwrap_or(0) >= 12 {
            break lb;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "too few rated matches: {lb}"
        );
        std::thread::sleep(Duration::from_millis(500));
    };
    let rows = lb["rows"].as_array().unwrap();
    assert_eq!(rows.len(), bots, "{lb}");
    assert!(
        rows.iter().all(|r| r["games"].as_u64().unwrap() > 0),
        "a bot starved: {lb}"
    );
    assert!(
        rows.iter().any(|r| r["elo"].as_f64().unwrap() != 1500.0),
        "{lb}"
    );
    assert!(rows
        .iter()
        .all(|r| r["owner"] == "alice" || (r["bot"] == SCRIPT && r["owner"].is_null())));
    let view = get_json(&format!(
        "{}/api/bots/%3Cscript%3Ealert%281%29%3C%2Fscript%3E",
        server.url
    ));
    view["recent"][0]["match_id"].as_str().unwrap().to_string()
}

/// The leaderboard, the `<script>` bot's page and the match `id`'s page in
/// headless Chromium: a title, no name turned into markup, no console
/// error, a screenshot that is not blank (kept as `serve-<tag>-*.png`).
fn check_pages(server: &Serving, id: &str, tag: &str) {
    let mut browser = Browser::launch();
    let pages = [
        ("leaderboard", format!("{}/games/planet-wars", server.url)),
        (
            "bot",
            format!(
                "{}/bots/%3Cscript%3Ealert%281%29%3C%2Fscript%3E",
                server.url
            ),
        ),
        ("match", format!("{}/matches/{id}", server.url)),
    ];
    for (what, url) in pages {
        let mut page = browser.page(1000, 700, 1.0);
        page.navigate(&url);
        // The leaderboard polls: let it refresh once.
        std::thread::sleep(Duration::from_millis(2500));
        let title = page.eval("document.title");
        assert!(!title.as_str().unwrap_or("").is_empty(), "{what}: no title");
        let alerted = page.eval("document.querySelectorAll('script').length > 0 && document.body.innerHTML.includes('<script>alert')");
        assert_eq!(
            alerted,
            Value::Bool(false),
            "{what}: the name became markup"
        );
        let shot = artifacts().join(format!("serve-{tag}-{what}.png"));
        page.screenshot(&shot);
        assert!(
            drawn_share(&shot) > 0.005,
            "{what}: the screenshot is blank"
        );
        assert!(page.errors.is_empty(), "{what}: {:#?}", page.errors);
    }
}

/// A rated match re-runs bit for bit from the database `db`; the ratings
/// recompute from what is stored.
fn verify_and_recompute(dir: &Path, db: &str, id: &str) {
    let o = ludus(&["replay", "verify", id, "--db", db], dir);
    assert!(o.status.success(), "{}", text(&o));
    let o = ludus(
        &["ladder", "recompute", "--game", "planet-wars", "--db", db],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("bit for bit"), "{}", text(&o));
}

#[test]
fn a_served_ladder_rates_uploaded_bots_and_shows_them_in_a_browser() {
    let dir = tempfile::tempdir().unwrap();
    let token = add_alice(dir.path(), &[]);
    let server = serve(dir.path(), &["--workers", "2"]);
    let bots = submit_examples(dir.path(), &server, "ludus.db", &token);
    let o = ludus(
        &[
            "submit",
            &bot(&bots[1]),
            "--name",
            "x",
            "--game",
            "planet-wars",
            "--server",
            &server.url,
            "--token",
            "ludus_1_wrong",
        ],
        dir.path(),
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("token is not valid"), "{}", text(&o));

    let id = rated_leaderboard(&server, bots.len());
    check_pages(&server, &id, "sqlite");
    let db = dir.path().join("ludus.db");
    let db = db.to_str().unwrap();
    verify_and_recompute(dir.path(), db, &id);

    // SIGTERM: the server stops by itself, its matches in play released.
    let mut server = server;
    let pid = server.child.id().to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = server.child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the server did not stop"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "{status}");
    let status = ludus(
        &["ladder", "status", "--game", "planet-wars", "--db", db],
        dir.path(),
    );
    assert!(status.status.success(), "{}", text(&status));
    assert!(text(&status).contains(", 0 leased,"), "{}", text(&status));
}

/// A `ludus worker` playing what a server schedules, its output in a file.
struct Worker {
    child: Child,
    log: PathBuf,
}

impl Worker {
    fn spawn(dir: &Path, db: &str, n: usize) -> Worker {
        let log = dir.join(format!("worker-{n}.log"));
        let file = std::fs::File::create(&log).unwrap();
        let child = ludus_cmd(&["worker", "--threads", "1", "--db", db], dir)
            .stdout(Stdio::from(file.try_clone().unwrap()))
            .stderr(Stdio::from(file))
            .spawn()
            .expect("ludus worker starts");
        Worker { child, log }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn on_postgres_two_remote_workers_play_what_the_server_schedules() {
    let cluster = ludus_testkit::postgres::shared();
    let db = cluster.create_database();
    let dir = tempfile::tempdir().unwrap();
    let token = add_alice(dir.path(), &["--db", &db]);
    let mut server = serve(dir.path(), &["--db", &db, "--workers", "0"]);
    // Started before any bot exists: they wait for the ladder to appear.
    let workers: Vec<Worker> = (0..2).map(|n| Worker::spawn(dir.path(), &db, n)).collect();
    let bots = submit_examples(dir.path(), &server, &db, &token);
    let id = rated_leaderboard(&server, bots.len());

    // The two workers, and no other, played the rated matches.
    let logs = || {
        workers
            .iter()
            .map(|w| std::fs::read_to_string(&w.log).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let played = cluster.psql(&db, "SELECT played FROM workers ORDER BY id");
    let played: Vec<u64> = played.lines().map(|l| l.trim().parse().unwrap()).collect();
    assert_eq!(played.len(), 2, "two workers: {played:?}\n{}", logs());
    assert!(
        played.iter().all(|&n| n > 0),
        "both played: {played:?}\n{}",
        logs()
    );
    let o = ludus(
        &["ladder", "status", "--game", "planet-wars", "--db", &db],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("workers   2 live, 2 in all"),
        "{}",
        text(&o)
    );

    check_pages(&server, &id, "postgres");
    // SIGTERM on PostgreSQL: a clean stop (the store's client closed off
    // the async runtime, where closing it would panic).
    let status = server
        .stop()
        .expect("the server stops within half a minute");
    assert!(status.success(), "ludus serve ended with {status}");
    verify_and_recompute(dir.path(), &db, &id);
}

/// Adds the account `name` to the scratch directory's database and
/// returns its token.
fn add_user(dir: &Path, name: &str) -> String {
    let o = ludus(&["user", "add", name], dir);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

/// The seat lines a command printed: `seat N` and what follows, by seat.
fn seat_lines(out: &str, seats: usize) -> Vec<String> {
    (0..seats)
        .map(|seat| {
            let tag = format!("seat {seat}");
            out.lines()
                .find(|l| l.starts_with(&tag))
                .unwrap_or_else(|| panic!("no `{tag}` line in:\n{out}"))
                .to_string()
        })
        .collect()
}

/// A class that starts from the sample bot: in a four-seat game, alice's
/// and carol's bots are the same bytes, bob's and dave's too, uploaded from
/// two accounts. Every place that names a match's seats, the match API, its
/// page in Chromium, `replay show` and `replay verify`, names each by the
/// bot and version the schedule seated there; the page shows the seed's
/// exact digits, beyond 2^53, and `ludus play --seed` with them re-plays
/// the match byte for byte.
#[test]
fn a_four_seat_match_on_shared_bytes_is_named_as_scheduled_and_replays_from_its_pages_seed() {
    const GAME: &str = "claim";
    let dir = tempfile::tempdir().unwrap();
    let alice = add_user(dir.path(), "alice");
    let carol = add_user(dir.path(), "carol");
    let server = serve(dir.path(), &["--workers", "1"]);
    let examples = ludus_testkit::example_bots(GAME);
    let (x, y) = (&examples[0], &examples[1]);
    let bytes = |name: &str| {
        if ["alice", "carol"].contains(&name) {
            x
        } else {
            y
        }
    };
    for (name, token) in [
        ("carol", &carol),
        ("bob", &alice),
        ("alice", &alice),
        ("dave", &carol),
    ] {
        let o = ludus(
            &[
                "submit",
                &bot(bytes(name)),
                "--name",
                name,
                "--game",
                GAME,
                "--server",
                &server.url,
                "--token",
                token,
            ],
            dir.path(),
        );
        assert!(o.status.success(), "{}", text(&o));
    }

    // A rated match whose seed a double cannot hold (nearly every seed: a
    // schedule draws them from every u64).
    let start = Instant::now();
    let rounded = |seed: u64| seed as f64 as u64 != seed;
    let info = loop {
        let view = get_json(&format!("{}/api/bots/carol", server.url));
        let found = view["recent"].as_array().unwrap().iter().find(|m| {
            !m["match_id"].as_str().unwrap().is_empty()
                && rounded(m["seed"].as_str().unwrap().parse().unwrap())
        });
        if let Some(m) = found {
            break m.clone();
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no played match with a seed beyond 2^53: {view}"
        );
        std::thread::sleep(Duration::from_millis(500));
    };
    let id = info["match_id"].as_str().unwrap().to_string();
    let seed = info["seed"].as_str().unwrap().to_string();
    let labels: Vec<String> = serde_json::from_value(info["seats"].clone()).unwrap();
    let mut sorted = labels.clone();
    sorted.sort();
    assert_eq!(sorted, ["alice v1", "bob v1", "carol v1", "dave v1"]);
    let m = get_json(&format!("{}/api/matches/{id}", server.url));
    assert_eq!((&m["seats"], &m["seed"]), (&info["seats"], &info["seed"]));
    let placements: Vec<u32> = serde_json::from_value(m["placements"].clone()).unwrap();
    let winners: Vec<&str> = labels
        .iter()
        .zip(&placements)
        .filter(|(_, &p)| p == 1)
        .map(|(l, _)| l.as_str())
        .collect();
    let result = match winners.as_slice() {
        [one] => format!("{one} wins"),
        many => format!("Tie: {}", many.join(", ")),
    };

    // The match page, as a person sees it.
    let mut browser = Browser::launch();
    let mut page = browser.page(1200, 800, 1.0);
    page.navigate(&format!("{}/matches/{id}", server.url));
    page.wait_for(
        "window.Ludus && Ludus.ready === true",
        Duration::from_secs(30),
    );
    let shown = page.eval(
        "({ title: document.title,
            seed: [...document.querySelectorAll('#match-facts dt')].find(d => d.textContent === 'seed').nextElementSibling.textContent,
            seats: [...document.querySelectorAll('#scoreboard tbody td.name')].map(td => td.textContent),
            result: document.getElementById('result').textContent })",
    );
    assert_eq!(
        shown["title"],
        format!("{GAME}: {} (seed {seed})", labels.join(" vs ")),
        "{shown}"
    );
    assert_eq!(shown["seed"], seed.as_str(), "{shown}");
    let numbered: Vec<String> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{i}: {l}"))
        .collect();
    assert_eq!(shown["seats"], serde_json::json!(numbered), "{shown}");
    assert!(
        shown["result"].as_str().unwrap().starts_with(&result),
        "{shown} does not start with {result}"
    );
    page.screenshot(&artifacts().join("serve-shared-bytes-match.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);

    // `replay show` and `replay verify` name the seats alike.
    let o = ludus(&["replay", "show", &id, "--db", "ludus.db"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    let show = seat_lines(&text(&o), 4);
    let o = ludus(&["replay", "verify", &id, "--db", "ludus.db"], dir.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("re-ran identically"), "{}", text(&o));
    let verify = seat_lines(&text(&o), 4);
    for (seat, label) in labels.iter().enumerate() {
        assert!(
            show[seat].starts_with(&format!("seat {seat}: {label} (sha256")),
            "{}",
            show[seat]
        );
        assert!(
            verify[seat].starts_with(&format!("seat {seat}   {label} from")),
            "{}",
            verify[seat]
        );
    }

    // The seed the page shows, with the seats' bots in seat order under
    // their names: `ludus play` writes the very replay the server stored.
    let o = ludus(
        &[
            "replay",
            "export",
            &id,
            "--out",
            "stored.json",
            "--db",
            "ludus.db",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let seats = dir.path().join("seats");
    std::fs::create_dir_all(&seats).unwrap();
    let mut args = vec![
        "play".to_string(),
        "--game".into(),
        GAME.into(),
        "--seed".into(),
        shown["seed"].as_str().unwrap().into(),
        "--out".into(),
        "again.json".into(),
    ];
    for label in &labels {
        let name = label.strip_suffix(" v1").unwrap();
        let file = seats.join(format!("{name}.wasm"));
        std::fs::copy(bot(bytes(name)), &file).unwrap();
        args.push(file.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = ludus(&args, dir.path());
    assert!(o.status.success(), "{}", text(&o));
    let stored = std::fs::read_to_string(dir.path().join("stored.json")).unwrap();
    assert!(stored.contains(&format!("\"seed\":{seed},")));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("again.json")).unwrap(),
        stored,
        "the match played again from the page's seed differs"
    );
}

/// A number PostgreSQL answers to `sql`.
fn count(cluster: &ludus_testkit::postgres::Cluster, db: &str, sql: &str) -> u64 {
    cluster.psql(db, sql).trim().parse().unwrap()
}

/// Two `ludus serve` on one PostgreSQL, as behind a load balancer: bots
/// uploaded through one are on the other's pages at once; one of them
/// schedules; `kill -9` of that one, and the other takes the schedule over
/// and keeps the ladder going. The schedule has no index twice and none
/// missing, and `ladder recompute` gives the stored ratings.
#[test]
fn two_servers_on_one_postgres_serve_one_platform_and_the_survivor_takes_over_the_schedule() {
    let cluster = ludus_testkit::postgres::shared();
    let db = cluster.create_database();
    let dir = tempfile::tempdir().unwrap();
    let token = add_alice(dir.path(), &["--db", &db]);
    let mut servers: Vec<Serving> = (0..2)
        .map(|_| {
            serve(
                dir.path(),
                &[
                    "--db",
                    &db,
                    "--workers",
                    "1",
                    "--game-config",
                    r#"planet-wars={"max_turns": 60}"#,
                ],
            )
        })
        .collect();
    let bots = ludus_testkit::example_bots("planet-wars");
    for b in &bots {
        let o = common::upload(dir.path(), &servers[0].url, &token, b, b);
        assert!(o.status.success(), "{}", text(&o));
        // Stored through the first, served by the second at once.
        let seen = get_json(&format!("{}/api/bots/{b}", servers[1].url));
        assert_eq!(seen["name"], b.as_str(), "{seen}");
    }

    let pids: Vec<u32> = servers.iter().map(|s| s.child.id()).collect();
    let start = Instant::now();
    let holder = loop {
        if let Some(pid) = scheduler_pid(cluster, &db) {
            break pid;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no server took the scheduler"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(pids.contains(&holder), "{holder} is not one of {pids:?}");
    let results = |c| count(c, &db, "SELECT count(*) FROM results");
    while results(cluster) < 4 {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "the ladder does not play"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // Scheduled by one, on both leaderboards.
    for s in &servers {
        let lb = get_json(&format!("{}/api/games/planet-wars/leaderboard", s.url));
        let rows = lb["rows"].as_array().unwrap();
        assert_eq!(rows.len(), bots.len(), "{lb}");
    }

    let k = pids.iter().position(|&p| p == holder).unwrap();
    let mut killed = servers.remove(k);
    let mut survivor = servers.remove(0);
    let (scheduled, played) = (
        count(cluster, &db, "SELECT count(*) FROM matches"),
        results(cluster),
    );
    killed.child.kill().unwrap(); // SIGKILL
    killed.child.wait().unwrap();
    let killed_at = Instant::now();
    while scheduler_pid(cluster, &db) != Some(survivor.child.id()) {
        assert!(
            killed_at.elapsed() < Duration::from_secs(20),
            "the survivor did not take the scheduler over"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let moved = killed_at.elapsed();
    eprintln!("the scheduler moved to the surviving server in {moved:?}");
    while count(cluster, &db, "SELECT count(*) FROM matches") <= scheduled
        || results(cluster) <= played
    {
        assert!(
            killed_at.elapsed() < Duration::from_secs(180),
            "the ladder stopped with its scheduler"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let status = survivor.stop().expect("the survivor stops");
    assert!(status.success(), "ludus serve ended with {status}");

    // Every index of the schedule once, from 0 on.
    let shape = cluster.psql(
        &db,
        "SELECT count(*) || ' ' || count(DISTINCT idx) || ' ' || (max(idx) + 1) FROM matches",
    );
    let shape: Vec<u64> = shape
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(shape[0] > scheduled, "{shape:?}");
    assert!(
        shape.iter().all(|&n| n == shape[0]),
        "a duplicate or a gap: {shape:?}"
    );
    let o = ludus(
        &["ladder", "recompute", "--game", "planet-wars", "--db", &db],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("bit for bit"), "{}", text(&o));
}

/// The leaderboard of Planet Wars' open season, or of the season `season`.
fn season_board(server: &Serving, season: Option<&str>) -> Value {
    let query = season.map_or(String::new(), |s| {
        format!("?season={}", s.replace(' ', "%20"))
    });
    get_json(&format!(
        "{}/api/games/planet-wars/leaderboard{query}",
        server.url
    ))
}

/// Waits until `done` holds of the open season's board.
fn wait_for(server: &Serving, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let lb = season_board(server, None);
        if done(&lb) {
            return lb;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "waited for {what}: {lb}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// An operator's season, against a running `ludus serve`: a game paused
/// from the start schedules nothing until `ladder resume`, and nothing new
/// once paused again; `season new` closes the open season (its board stays
/// readable by name, and it is scheduled no more) and opens one that every
/// listed bot joins and that plays with its own config; the server's
/// --game-config, which seeded the first season, is then refused with the
/// command that changes it.
#[test]
fn an_operator_pauses_a_game_and_starts_a_new_season_on_a_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for b in &common::PLANET_WARS_EXAMPLES[..2] {
        common::submit(d, b, b);
    }
    let first_config = r#"planet-wars={"max_turns": 12}"#;
    let server = serve(
        d,
        &[
            "--workers",
            "2",
            "--game-config",
            first_config,
            "--pause",
            "planet-wars",
        ],
    );
    // Paused from the start: past the scheduler's look at the bots, nothing.
    std::thread::sleep(Duration::from_millis(2500));
    let paused = season_board(&server, None);
    assert_eq!(
        (paused["paused"].as_bool(), paused["scheduled"].as_u64()),
        (Some(true), Some(0)),
        "{paused}"
    );
    let o = ludus(&["ladder", "resume", "planet-wars"], d);
    assert!(text(&o).contains("resumed planet-wars"), "{}", text(&o));
    wait_for(&server, "rated matches", |lb| {
        lb["rated"].as_u64() >= Some(4)
    });

    // Paused again: the matches waiting are played, no more are added.
    let o = ludus(&["ladder", "pause", "planet-wars"], d);
    assert!(text(&o).contains("paused planet-wars"), "{}", text(&o));
    let drained = wait_for(&server, "the waiting matches played", |lb| {
        lb["paused"] == true && lb["rated"] == lb["scheduled"]
    });
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(
        season_board(&server, None)["scheduled"],
        drained["scheduled"]
    );
    let status = ludus(&["ladder", "status", "--game", "planet-wars"], d);
    assert!(
        text(&status).contains("season    season 1, open, paused"),
        "{}",
        text(&status)
    );
    ludus(&["ladder", "resume", "planet-wars"], d);

    let o = ludus(
        &[
            "season",
            "new",
            "--game",
            "planet-wars",
            "--config",
            r#"{"max_turns": 7}"#,
        ],
        d,
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("closed season 1") && text(&o).contains("opened season 2"),
        "{}",
        text(&o)
    );
    let open = wait_for(&server, "the new season's ratings", |lb| {
        lb["season"] == "season 2" && lb["rated"].as_u64() >= Some(2)
    });
    assert_eq!(open["rows"].as_array().unwrap().len(), 2, "{open}");
    let recent = get_json(&format!(
        "{}/api/bots/{}",
        server.url,
        common::PLANET_WARS_EXAMPLES[0]
    ));
    let turns = recent["recent"][0]["turns"].as_u64().unwrap();
    assert!(turns <= 7, "the new season's config: {recent}");
    // The closed season: readable by name, its schedule fixed.
    let closed = season_board(&server, Some("season 1"));
    assert_eq!(closed["open"], false, "{closed}");
    let start = Instant::now();
    loop {
        let later = season_board(&server, Some("season 1"));
        assert_eq!(
            later["scheduled"], closed["scheduled"],
            "a closed season is scheduled no more"
        );
        if later["rated"] == later["scheduled"] {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "a closed season's waiting matches are played: {later}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let board = ludus(
        &[
            "leaderboard",
            "--game",
            "planet-wars",
            "--season",
            "season 1",
        ],
        d,
    );
    assert!(board.status.success(), "{}", text(&board));
    for b in &common::PLANET_WARS_EXAMPLES[..2] {
        assert!(text(&board).contains(b), "{}", text(&board));
    }
    drop(server);
    let refused = ludus(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--game-config",
            first_config,
        ],
        d,
    );
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("ludus season new --game planet-wars"),
        "{}",
        text(&refused)
    );
}
