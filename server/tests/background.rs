//! What runs beside the routes, as the server runs it
//! ([`ludus_server::scheduler::start`]): the scheduler tops up every game's
//! continuous ladder, the in-process worker plays them, and the API and
//! pages show the results. A four-seat game is played in tables of four;
//! the in-process worker starts again after a store error.

mod common;

use axum::http::StatusCode;
use common::{bot, json, server, Server};
use ludus_leaderboard::store::{Location, Store};
use ludus_server::scheduler;
use serde_json::Value;
use std::collections::BTreeSet;
use std::future::Future;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Waits until `ready` gives a value, for at most `limit`.
async fn wait_for<T, F: Future<Output = Option<T>>>(
    what: &str,
    limit: Duration,
    mut ready: impl FnMut() -> F,
) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = ready().await {
            return v;
        }
        assert!(
            start.elapsed() < limit,
            "waited {limit:?} in vain for {what}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

impl Server {
    async fn leaderboard(&self, game: &str) -> Value {
        let (status, body) = self
            .get(&format!("/api/games/{game}/leaderboard"), None)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        json(&body)
    }

    /// Stops the background work as the server does on SIGTERM.
    async fn stop(&self, background: scheduler::Background) {
        self.state.stopping().store(true, Ordering::Relaxed);
        tokio::time::timeout(Duration::from_secs(120), background.stop())
            .await
            .expect("the background work stops");
    }
}

/// Loops is played by four seats only, so its continuous ladder seats
/// tables of four (Kore and Halite, which allow two or four, are played in
/// pairs: a ladder is played with a game's fewest seats).
const FOUR_SEATS: &str = "loops";

#[tokio::test(flavor = "multi_thread")]
async fn a_four_seat_game_is_scheduled_played_and_rated_in_tables_of_four() {
    let s = server(|c| {
        c.workers = 2;
        c.schedule_every = Duration::from_millis(200);
        // One table of four in its four rotations per new bot.
        c.continuous.placement = 1;
        c.continuous.pending = 4;
    });
    assert_eq!(
        ludus_engine::registry::info(FOUR_SEATS).unwrap().seats,
        &[4]
    );
    // Four bots from the two example bots, two owners.
    let bots = ludus_testkit::example_bots(FOUR_SEATS);
    assert_eq!(bots.len(), 2, "{bots:?}");
    let mut names = Vec::new();
    for (i, file) in bots.iter().chain(&bots).enumerate() {
        let name = format!("{file}-{i}");
        let token = if i % 2 == 0 { &s.alice } else { &s.bob };
        let wasm = std::fs::read(ludus_testkit::bot(file)).unwrap();
        let (status, body) = s.upload_to(FOUR_SEATS, &name, Some(token), wasm).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        names.push(name);
    }

    let background = scheduler::start(s.state.clone(), "the test's server".into());
    // The placement series: each bot's table in four rotations.
    let lb = wait_for("16 rated matches", Duration::from_secs(300), || async {
        let lb = s.leaderboard(FOUR_SEATS).await;
        (lb["rated"].as_u64().unwrap_or(0) >= 16).then_some(lb)
    })
    .await;
    s.stop(background).await;

    let rows = lb["rows"].as_array().unwrap();
    let ranked: BTreeSet<&str> = rows.iter().map(|r| r["bot"].as_str().unwrap()).collect();
    assert_eq!(ranked, names.iter().map(String::as_str).collect(), "{lb}");
    assert!(
        rows.iter().all(|r| r["games"].as_u64().unwrap() >= 16),
        "{lb}"
    );
    assert!(
        rows.iter().any(|r| r["elo"].as_f64().unwrap() != 1500.0),
        "{lb}"
    );

    // Every stored match seats four different bots, each bot in every seat.
    let store = Store::connect_existing(&s.db).unwrap();
    let ladder = store.ladders().continuous(FOUR_SEATS).unwrap().unwrap();
    let schedule = store.ladders().schedule(ladder).unwrap();
    assert!(schedule.len() >= 16);
    for m in &schedule {
        let distinct: BTreeSet<_> = m.seats.iter().collect();
        assert_eq!((m.seats.len(), distinct.len()), (4, 4), "{m:?}");
    }
    for bot in 0..4 {
        for seat in 0..4 {
            assert!(
                schedule.iter().any(|m| m.seats[seat] == bot),
                "bot {bot} never in seat {seat}"
            );
        }
    }

    let (_, games) = s.get("/api/games", None).await;
    assert!(json(&games)
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == FOUR_SEATS && g["bots"] == 4 && g["seats"] == serde_json::json!([4])));
    let (status, body) = s.get(&format!("/api/bots/{}", names[0]), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let view = json(&body);
    assert_eq!(view["head_to_head"].as_array().unwrap().len(), 3, "{view}");
    let recent = &view["recent"][0];
    assert_eq!(recent["seats"].as_array().unwrap().len(), 4, "{recent}");
    assert_eq!(
        recent["placements"].as_array().unwrap().len(),
        4,
        "{recent}"
    );
    let id = recent["match_id"].as_str().unwrap();
    let (status, body) = s.get(&format!("/api/matches/{id}"), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(json(&body)["seats"].as_array().unwrap().len(), 4);

    let (status, page) = s.get(&format!("/games/{FOUR_SEATS}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(names.iter().all(|n| page.contains(n.as_str())), "{page}");
    let (status, page) = s.get(&format!("/bots/{}", names[0]), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        names[1..].iter().all(|n| page.contains(n.as_str())),
        "{page}"
    );
    let (status, page) = s.get(&format!("/matches/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("ludus-data"), "the replay viewer");
}

/// The log lines of this test process.
fn logs() -> &'static Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let sink = logs.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(move || Sink(sink.clone()))
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("one subscriber");
        logs
    })
}

struct Sink(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn logged(needle: &str) -> bool {
    String::from_utf8_lossy(&logs().lock().unwrap()).contains(needle)
}

/// Workers registered in the database and what each played.
fn workers(db: &rusqlite::Connection) -> Vec<(i64, i64)> {
    db.prepare("SELECT id, played FROM workers ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Another program holds SQLite's write lock for longer than the store
/// waits for it (a `sqlite3` shell inside a transaction): the in-process
/// worker's next write fails, and the worker tries it again, with growing
/// waits, instead of ending; once the lock is gone it plays on as the same
/// worker (one row in the workers' table, not one a restart).
#[tokio::test(flavor = "multi_thread")]
async fn the_in_process_worker_waits_out_a_store_error_and_plays_on_as_the_same_worker() {
    logs();
    let s = server(|c| {
        c.workers = 1;
        c.schedule_every = Duration::from_millis(200);
        c.continuous.pending = 4;
    });
    for name in ["one", "two"] {
        let (status, body) = s.upload(name, Some(&s.alice), bot(name, false)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let Location::File(path) = &s.db else {
        unreachable!("the test server is on SQLite")
    };
    let db = rusqlite::Connection::open(path).unwrap();
    let background = scheduler::start(s.state.clone(), "the test's server".into());
    wait_for("a played match", Duration::from_secs(120), || async {
        (workers(&db).first().is_some_and(|w| w.1 > 0)).then_some(())
    })
    .await;

    db.execute_batch("BEGIN IMMEDIATE").unwrap();
    let locked = format!("{} is locked by another program", path.display());
    wait_for(
        "the worker's failed write",
        Duration::from_secs(120),
        || async { (logged(&locked) && logged("trying again")).then_some(()) },
    )
    .await;
    let played = db
        .query_row("SELECT played FROM workers WHERE id = 1", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap();
    db.execute_batch("COMMIT").unwrap();

    // The lock is gone: the same worker plays on.
    wait_for(
        "the worker playing again",
        Duration::from_secs(120),
        || async {
            let w = workers(&db);
            (w.len() == 1 && w[0].1 > played).then_some(())
        },
    )
    .await;
    s.stop(background).await;
    assert!(logged("the in-process worker stopped"));
    assert!(!logged("the in-process worker failed"), "it never ended");
    let w = workers(&db);
    assert_eq!(w.len(), 1, "one worker, never started again: {w:?}");
}
