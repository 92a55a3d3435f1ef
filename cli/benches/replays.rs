//! Replays on demand, measured from outside: for every game, its example
//! bots' continuous ladder at the game's default config, keeping no
//! replay, a few matches played through the library, then served by `ludus
//! serve --workers 0`; each match page fetched twice: the first view plays
//! the match again (and checks it), the second is the server's cache.
//!
//! `cargo bench -p ludus-cli --bench replays`; LUDUS_BENCH_GAMES limits it
//! to some games (comma-separated ids).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{env_or, serve, submit_game};
use ludus_host::Sandbox;
use ludus_leaderboard::continuous::{self, ContinuousConfig};
use ludus_leaderboard::retention::KeepReplays;
use ludus_leaderboard::store::{Location, Store};
use ludus_leaderboard::worker::{self, WorkerOptions};
use std::time::{Duration, Instant};

fn get(url: &str) -> Duration {
    let start = Instant::now();
    let page = ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
        .into_body()
        .read_to_string()
        .unwrap();
    let took = start.elapsed();
    assert!(page.contains("ludus-data"), "{url} is no replay page");
    took
}

fn median_max(mut d: Vec<Duration>) -> (f64, f64) {
    d.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(d[d.len() / 2]), ms(*d.last().unwrap()))
}

fn main() {
    let only: String = env_or("LUDUS_BENCH_GAMES", String::new());
    println!("# match pages of replays not stored: first view (played again, checked, rendered) and cached");
    println!("| game | matches | first view, median | slowest | cached, median | slowest |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for game in ludus_engine::games() {
        if !only.is_empty() && !only.split(',').any(|g| g == game.id) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let names = ludus_testkit::example_bots(game.id);
        let seats = game.fewest_seats();
        let entrants = names.len().max(seats);
        for i in 0..entrants {
            let name = format!("{}-{i}", names[i % names.len()]);
            submit_game(d, "ludus.db", &names[i % names.len()], &name, game.id);
        }
        // The game's continuous ladder, as `ludus serve --keep-replays none`
        // makes it, played out here: a match page finds the server's ladders.
        let store = Store::connect_existing(&Location::File(d.join("ludus.db"))).unwrap();
        let config = ContinuousConfig {
            pending: 6,
            keep_replays: Some(KeepReplays::NONE),
            ..ContinuousConfig::default()
        };
        continuous::top_up(&store, game, &config, continuous::Look::Bots).unwrap();
        let options = WorkerOptions {
            until_idle: true,
            ..WorkerOptions::new(2)
        };
        worker::work(&store, &Sandbox::new().unwrap(), &options, |_| {}).unwrap();
        drop(store);
        let store = Store::connect_existing(&Location::File(d.join("ludus.db"))).unwrap();
        let ladder = store.ladders().continuous(game.id).unwrap().unwrap();
        let ids: Vec<String> = store
            .results()
            .all(ladder)
            .unwrap()
            .into_iter()
            .map(|r| r.match_id)
            .collect();
        assert_eq!(
            store.results().count_without_replay(ladder).unwrap() as usize,
            ids.len()
        );
        drop(store);
        let server = serve(d, &["--workers", "0", "--db", "ludus.db"]);
        let first: Vec<Duration> = ids
            .iter()
            .map(|id| get(&format!("{}/matches/{id}", server.url)))
            .collect();
        let cached: Vec<Duration> = ids
            .iter()
            .map(|id| get(&format!("{}/matches/{id}", server.url)))
            .collect();
        let (f50, fmax) = median_max(first);
        let (c50, cmax) = median_max(cached);
        println!(
            "| {} | {} | {f50:.0} ms | {fmax:.0} ms | {c50:.1} ms | {cmax:.1} ms |",
            game.id,
            ids.len()
        );
    }
}
