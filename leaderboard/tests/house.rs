//! The house: a folder of bots stocked under the `house` account for every
//! game each plays, once however often the server starts; retired by the
//! operator like any bot.

use ludus_host::{Limits, Sandbox, SandboxOptions};
use ludus_leaderboard::house;
use ludus_leaderboard::owners::{retire_house_bot, RetiredBot};
use ludus_leaderboard::store::{Claim, Store};
use ludus_leaderboard::Error;
use std::sync::atomic::AtomicBool;

fn sandbox() -> Sandbox {
    Sandbox::with_options(SandboxOptions {
        cache_dir: Some(ludus_testkit::workspace_root().join("target/module-cache")),
        ..SandboxOptions::default()
    })
    .unwrap()
}

#[test]
fn a_folder_stocks_the_house_once_and_a_retired_house_bot_stays_retired() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("house");
    std::fs::create_dir(&folder).unwrap();
    for bot in ["planet_wars_expander", "kore_miner"] {
        std::fs::copy(ludus_testkit::bot(bot), folder.join(format!("{bot}.wasm"))).unwrap();
    }
    std::fs::write(folder.join("notabot.wasm"), b"not wasm").unwrap();
    std::fs::write(folder.join("README.txt"), b"not a bot either").unwrap();
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    let (sandbox, limits, go) = (sandbox(), Limits::default(), AtomicBool::new(false));

    let first = house::stock(&store, &sandbox, &folder, &limits, &go).unwrap();
    assert_eq!(first.files, 3, "{first:?}");
    assert_eq!(first.unplayable.len(), 1, "{first:?}");
    assert!(first.unplayable[0].0.ends_with("notabot.wasm"));
    let games = ludus_engine::games().len();
    assert_eq!(first.passed + first.failed, 2 * games, "{first:?}");
    assert_eq!(first.stored.len(), first.passed, "{first:?}");
    assert!(first.known.is_empty() && first.skipped.is_empty());
    for (stem, game) in [
        ("planet_wars_expander", "planet-wars"),
        ("kore_miner", "kore"),
    ] {
        let name = first
            .stored
            .iter()
            .find(|n| *n == stem || **n == format!("{stem}-{game}"))
            .unwrap_or_else(|| panic!("{stem} stored for {game}: {first:?}"));
        let bot = store.bots().get(name, None).unwrap();
        assert_eq!(bot.game, game);
        let owner = store.accounts().ownership(name).unwrap().unwrap();
        assert_eq!(owner.owner, house::HOUSE);
        assert!(!owner.retired);
    }
    let owned = house::bots(&store).unwrap();
    assert_eq!(owned, first.stored.iter().cloned().collect());

    // Nobody signs in as the house, and no upload takes its names.
    let account = store.accounts().named("HOUSE").unwrap().unwrap();
    assert_eq!(account.token_sha256, house::NO_TOKEN);
    assert_eq!(house::account(&store).unwrap(), account.id);
    let alice = store
        .accounts()
        .add("alice", &"0".repeat(64), false, "t")
        .unwrap()
        .unwrap();
    assert_eq!(
        store
            .accounts()
            .take_bot_name(&first.stored[0], alice)
            .unwrap(),
        Claim::Owned(house::HOUSE.into())
    );

    // Retired by the operator, and stocked again: nothing new, still retired.
    let retired = first.stored[0].clone();
    assert_eq!(
        retire_house_bot(&store, &retired).unwrap(),
        RetiredBot::House
    );
    assert_eq!(
        retire_house_bot(&store, &retired).unwrap(),
        RetiredBot::Already
    );
    let again = house::stock(&store, &sandbox, &folder, &limits, &go).unwrap();
    assert!(again.stored.is_empty(), "{again:?}");
    assert_eq!(again.known, first.stored);
    assert!(store.accounts().retired().unwrap().contains(&retired));
    assert_eq!(store.bots().versions(&retired).unwrap().len(), 1);

    // A bot the operator stored without an account is adopted, then
    // retired; another account's bot is its owner's; an unknown name is an
    // error.
    let wasm = std::fs::read(ludus_testkit::bot("planet_wars_random")).unwrap();
    let sha = ludus_host::sha256_hex(&wasm);
    assert_eq!(
        store.accounts().take_bot_name("alices", alice).unwrap(),
        Claim::Taken
    );
    for name in ["operators", "alices"] {
        store
            .bots()
            .submit(name, "planet-wars", &wasm, &sha, "t")
            .unwrap();
    }
    assert_eq!(
        retire_house_bot(&store, "operators").unwrap(),
        RetiredBot::Adopted
    );
    assert!(house::bots(&store).unwrap().contains("operators"));
    let e = retire_house_bot(&store, "alices").unwrap_err();
    assert!(matches!(e, Error::NotTheHouse { .. }), "{e}");
    assert!(e.to_string().contains("belongs to alice"), "{e}");
    let e = retire_house_bot(&store, "nobody").unwrap_err();
    assert!(e.to_string().contains("no bot named `nobody`"), "{e}");
}

#[test]
fn a_folder_that_cannot_be_read_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    let missing = dir.path().join("no-such-folder");
    let e = house::stock(
        &store,
        &sandbox(),
        &missing,
        &Limits::default(),
        &AtomicBool::new(false),
    )
    .unwrap_err();
    assert!(matches!(e, Error::HouseFolder { .. }), "{e}");
    assert!(e.to_string().contains("no-such-folder"), "{e}");
}

#[test]
fn an_account_named_house_that_someone_signs_in_to_is_not_the_house() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    store
        .accounts()
        .add("House", &"0".repeat(64), false, "t")
        .unwrap()
        .unwrap();
    let e = house::account(&store).unwrap_err();
    assert!(matches!(e, Error::HouseTaken { .. }), "{e}");
    assert!(house::bots(&store).unwrap().is_empty());
}
