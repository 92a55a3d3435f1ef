//! Finding the bots of a recorded match: the `--bots` folders, then the bot
//! store, then the module cache, each bot by the sha256 its replay records;
//! and a message naming every place looked when a bot is nowhere.

use ludus_host::replay::SeatInfo;
use ludus_host::{Sandbox, SandboxOptions};
use ludus_leaderboard::lookup::{find_bots, Found, LookupError, Places};
use ludus_leaderboard::store::Store;
use std::path::{Path, PathBuf};

fn sandbox(cache: &Path) -> Sandbox {
    Sandbox::with_options(SandboxOptions {
        cache_dir: Some(cache.to_path_buf()),
        pool_instances: 8,
        ..SandboxOptions::default()
    })
    .unwrap()
}

fn seat(file: &str) -> (SeatInfo, Vec<u8>) {
    let wasm = std::fs::read(ludus_testkit::bot(file)).unwrap();
    let info = SeatInfo {
        name: file.into(),
        sha256: ludus_host::sha256_hex(&wasm),
    };
    (info, wasm)
}

#[test]
fn bots_are_found_in_the_folders_then_the_store_then_the_module_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let folder = dir.path().join("bots");
    std::fs::create_dir(&folder).unwrap();
    let (idle, idle_wasm) = seat("planet_wars_idle");
    let (random, random_wasm) = seat("planet_wars_random");
    let (expander, expander_wasm) = seat("planet_wars_expander");
    // In the folder under another name: found by its bytes.
    std::fs::write(folder.join("renamed.wasm"), &idle_wasm).unwrap();
    let store = Store::open(&dir.path().join("ludus.db")).unwrap();
    store
        .bots()
        .submit("random", "planet-wars", &random_wasm, &random.sha256, "now")
        .unwrap();
    // Compiled once in another process, whose cache this one shares.
    sandbox(&cache).load("expander", &expander_wasm).unwrap();

    let sandbox = sandbox(&cache);
    let dirs = [folder.clone()];
    let found = find_bots(
        &sandbox,
        &[idle.clone(), random.clone(), expander.clone()],
        Places {
            dirs: &dirs,
            store: Some(&store),
        },
    )
    .unwrap();
    let places: Vec<&Found> = found.iter().map(|(_, f)| f).collect();
    assert_eq!(
        places,
        [
            &Found::File(folder.join("renamed.wasm")),
            &Found::Store(store.location().clone()),
            &Found::Cache
        ]
    );
    // Each keeps the name and the identity its replay records.
    for ((bot, _), info) in found.iter().zip([&idle, &random, &expander]) {
        assert_eq!((&bot.name, &bot.sha256), (&info.name, &info.sha256));
    }
}

#[test]
fn a_bot_that_is_nowhere_is_named_with_every_place_looked_and_a_same_named_build() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("bots");
    std::fs::create_dir(&folder).unwrap();
    let (idle, _) = seat("planet_wars_idle");
    // Another build under the bot's name.
    let (_, random_wasm) = seat("planet_wars_random");
    std::fs::write(folder.join("planet_wars_idle.wasm"), random_wasm).unwrap();
    let store = Store::open(&dir.path().join("ludus.db")).unwrap();
    let cache = dir.path().join("empty-cache");
    let dirs: Vec<PathBuf> = vec![folder.clone()];
    let err = find_bots(
        &sandbox(&cache),
        &[idle],
        Places {
            dirs: &dirs,
            store: Some(&store),
        },
    )
    .expect_err("nowhere");
    assert!(
        matches!(err, LookupError::NotFound { seat: 0, .. }),
        "{err:?}"
    );
    let text = err.to_string();
    for needle in [
        "seat 0: bot `planet_wars_idle`",
        &format!("the .wasm files of {}", folder.display()),
        &format!("the bot store {}", store.location()),
        &format!("the module cache {}", cache.display()),
        "has its name but other bytes",
        "pass --bots DIR",
    ] {
        assert!(text.contains(needle), "`{needle}` is not in: {text}");
    }
}
