//! Submitting a bot through the library: validated for its game, then
//! stored; refused with the games it does play; compiled once for the
//! ladder that follows.

use ludus_host::{Limits, Sandbox, SandboxOptions};
use ludus_leaderboard::store::Store;
use ludus_leaderboard::submit::{admit, SubmitError};
use std::path::Path;

const NOW: &str = "2026-01-01T00:00:00Z";

fn sandbox_caching_in(dir: &Path) -> Sandbox {
    Sandbox::with_options(SandboxOptions {
        cache_dir: Some(dir.to_path_buf()),
        ..SandboxOptions::default()
    })
    .unwrap()
}

/// The sandbox of the tests that do not look at the cache: the shared one,
/// where the bots are compiled already.
fn sandbox() -> Sandbox {
    sandbox_caching_in(&ludus_testkit::workspace_root().join("target/module-cache"))
}

fn wasm(bot: &str) -> Vec<u8> {
    std::fs::read(ludus_testkit::bot(bot)).unwrap()
}

#[test]
fn a_bot_that_plays_its_game_is_stored_and_the_same_bytes_again_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox();
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    let miner = wasm("kore_miner");
    let limits = Limits::default();
    let first = admit(&sandbox, "miner", "kore", &miner, &limits)
        .unwrap()
        .store_for(&store, None, NOW, false)
        .unwrap();
    assert!(first.stored.new_version);
    assert_eq!(first.report.plays(), ["kore"]);
    let again = admit(&sandbox, "miner", "kore", &miner, &limits)
        .unwrap()
        .store_for(&store, None, NOW, false)
        .unwrap();
    assert!(!again.stored.new_version);
    assert_eq!(again.stored.bot.version, 1);
    let bots = store.bots().latest("kore").unwrap();
    assert_eq!(bots.len(), 1);
    assert_eq!(bots[0].sha256, first.report.sha256);
}

#[test]
fn a_bot_entered_for_a_game_it_does_not_play_is_refused_naming_the_games_it_plays() {
    let sandbox = sandbox();
    let idle = wasm("planet_wars_idle");
    let err = admit(&sandbox, "idle", "claim", &idle, &Limits::default()).unwrap_err();
    let text = err.to_string();
    let SubmitError::Refused { game, report } = err else {
        panic!("{text}")
    };
    assert_eq!(game, "claim");
    assert_eq!(report.plays(), ["planet-wars"]);
    assert_eq!(report.games.len(), ludus_engine::games().len());
    assert!(
        text.starts_with("`idle` is refused: it does not play claim (4 seats, turn 1, seat 0: ")
            && text.ends_with("; it plays planet-wars"),
        "{text}"
    );
}

/// A bot that runs out of fuel would burn its budget again in every other
/// game's validation: it is tried on its own game only, and told so.
#[test]
fn a_bot_that_exhausts_its_budget_is_not_tried_on_the_other_games() {
    let sandbox = sandbox();
    let err = admit(
        &sandbox,
        "looper",
        "planet-wars",
        &wasm("loop_in_act"),
        &Limits::default(),
    )
    .unwrap_err();
    let text = err.to_string();
    let SubmitError::Refused { report, .. } = err else {
        panic!("{text}")
    };
    let tried: Vec<_> = report.games.iter().map(|v| v.game).collect();
    assert_eq!(tried, ["planet-wars"], "{text}");
    assert_eq!(report.games[0].budget_spent(), Some("fuel"));
    assert!(
        text.starts_with("`looper` is refused: it does not play planet-wars (2 seats, turn 1, seat 0: out_of_fuel: ")
            && text.ends_with(
                "; it was not tried on the other games: it exhausted its fuel budget, \
                 and would spend it again on each"
            ),
        "{text}"
    );
    // The memory cap and the stack are budgets too.
    for (bot, budget) in [("memory_bomb", "memory"), ("deep_recursion", "stack")] {
        let err = admit(&sandbox, bot, "planet-wars", &wasm(bot), &Limits::default()).unwrap_err();
        let text = err.to_string();
        let SubmitError::Refused { report, .. } = err else {
            panic!("{text}")
        };
        assert_eq!(report.games.len(), 1, "{text}");
        assert_eq!(report.games[0].budget_spent(), Some(budget), "{text}");
        assert!(
            text.contains(&format!("it exhausted its {budget} budget")),
            "{text}"
        );
    }
}

#[test]
fn a_module_that_is_no_bot_is_refused_before_any_match() {
    let sandbox = sandbox();
    let err = admit(
        &sandbox,
        "junk",
        "planet-wars",
        b"\0asm junk",
        &Limits::default(),
    )
    .unwrap_err();
    assert!(matches!(err, SubmitError::Load { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("`junk` is refused: it is not a bot Ludus can run: "),
        "{err}"
    );
    let err = admit(
        &sandbox,
        "x",
        "chess",
        &wasm("kore_miner"),
        &Limits::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("unknown game `chess`"), "{err}");
}

/// A ladder loads its bots with `load_compiled` by their stored sha256: the
/// module the validation compiled is on disk, and a new process (here a new
/// sandbox) finds it there.
#[test]
fn a_submitted_bot_is_found_compiled_by_the_ladder_that_plays_it_next() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let collector = wasm("halite_collector");
    let sha256 = ludus_host::sha256_hex(&collector);
    assert!(
        sandbox_caching_in(&cache)
            .load_compiled("collector", &sha256)
            .unwrap()
            .is_none(),
        "nothing compiled before the submission"
    );
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    admit(
        &sandbox_caching_in(&cache),
        "collector",
        "halite",
        &collector,
        &Limits::default(),
    )
    .unwrap()
    .store_for(&store, None, NOW, false)
    .unwrap();
    let stored = &store.bots().latest("halite").unwrap()[0];
    let ladder_process = sandbox_caching_in(&cache);
    let bot = ladder_process
        .load_compiled(&stored.name, &stored.sha256)
        .unwrap();
    assert!(bot.is_some(), "the ladder finds the bot compiled");
}
