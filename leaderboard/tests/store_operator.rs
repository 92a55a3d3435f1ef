//! An operator's tools on both databases, as `store_backends` runs the
//! store's: each test below runs once on a SQLite file and once on a
//! database of a throw-away PostgreSQL cluster. Accounts listed with their
//! bots, removed (their bots retired, their results kept); any bot
//! retired by name; identical bytes of different accounts found (named
//! tokens, sessions and invitations: `store_accounts.rs`).

use ludus_leaderboard::operator;
use ludus_leaderboard::owners::{self, RetiredBot};
use ludus_leaderboard::store::Store;
use ludus_leaderboard::{accounts, continuous, house, Error};

const NOW: &str = "2026-01-01T00:00:00Z";

#[macro_use]
#[path = "support/backends.rs"]
mod backends;

use backends::{postgres, sqlite, Db};

on_both!(
    accounts_are_listed_with_their_bots_and_whether_operator_or_removed,
    a_removed_account_has_its_bots_retired_and_its_results_kept,
    the_operator_retires_any_bot_whoever_owns_it,
    identical_bytes_of_different_accounts_are_grouped_and_one_accounts_are_not,
);

/// A tiny module whose bytes are its own for each `tag`.
fn wasm(tag: u8) -> Vec<u8> {
    let mut w = b"\0asm\x01\0\0\0".to_vec();
    // A custom section named "t" holding the tag.
    w.extend_from_slice(&[0, 3, 1, b't', tag]);
    w
}

fn sha(bytes: &[u8]) -> String {
    ludus_host::sha256_hex(bytes)
}

/// An account named `name` (an operator's if `operator`), its id.
fn account(store: &Store, name: &str, operator: bool) -> i64 {
    let token = format!("{:0>64}", name.len());
    store
        .accounts()
        .add(name, &token, operator, NOW)
        .unwrap()
        .unwrap()
}

/// Stores `bytes` as the next version of `bot` of planet-wars, owned by
/// `owner` (none: stored by the operator).
fn upload(store: &Store, owner: Option<i64>, bot: &str, bytes: &[u8]) {
    if let Some(owner) = owner {
        store.accounts().take_bot_name(bot, owner).unwrap();
    }
    store
        .bots()
        .submit(bot, "planet-wars", bytes, &sha(bytes), NOW)
        .unwrap();
}

fn accounts_are_listed_with_their_bots_and_whether_operator_or_removed(db: Db) {
    let store = db.store();
    let alice = account(&store, "alice", false);
    let teacher = account(&store, "teacher", true);
    store.accounts().disable(teacher, 0).unwrap();
    upload(&store, Some(alice), "beta", &wasm(1));
    upload(&store, Some(alice), "alpha", &wasm(2));
    store.accounts().retire("beta").unwrap();
    house::account(&store).unwrap();
    let users = operator::users(&store).unwrap();
    let names: Vec<&str> = users.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["alice", "house", "teacher"]);
    let (a, h, t) = (&users[0], &users[1], &users[2]);
    assert_eq!(
        a.bots,
        [("alpha".to_string(), false), ("beta".to_string(), true)]
    );
    assert_eq!(a.created_at, NOW);
    assert!(!a.operator && t.operator && !a.house && h.house && !t.house);
    assert!(t.bots.is_empty() && a.removed_at.is_none());
    assert_eq!(
        (a.disabled_at.as_deref(), t.disabled_at.as_deref()),
        (None, Some("1970-01-01T00:00:00Z"))
    );
    assert!(store.accounts().named("TEACHER").unwrap().unwrap().operator);
    assert!(!store.accounts().get(alice).unwrap().unwrap().operator);
}

fn a_removed_account_has_its_bots_retired_and_its_results_kept(db: Db) {
    let store = db.store();
    let alice = account(&store, "alice", false);
    let bob = account(&store, "bob", false);
    upload(&store, Some(alice), "a1", &wasm(1));
    upload(&store, Some(alice), "a2", &wasm(2));
    upload(&store, Some(alice), "a2", &wasm(3));
    upload(&store, Some(bob), "b1", &wasm(4));
    store.accounts().retire("a1").unwrap();
    let field = |store: &Store| -> Vec<String> {
        continuous::field(store, "planet-wars")
            .unwrap()
            .latest
            .into_iter()
            .map(|b| b.name)
            .collect()
    };
    assert_eq!(field(&store), ["a2", "b1"]);

    let before = ludus_leaderboard::clock::now_unix();
    let removed = accounts::remove(&store, "ALICE").unwrap();
    assert_eq!(removed.name, "alice");
    assert!(!removed.already);
    // Only what this step retired: a1 was retired already.
    assert_eq!(removed.retired, ["a2"]);
    let a = store.accounts().get(alice).unwrap().unwrap();
    assert!(a.removed_at.is_some_and(|t| t >= before));
    assert!(store
        .accounts()
        .get(bob)
        .unwrap()
        .unwrap()
        .removed_at
        .is_none());
    // Its bots leave the ladder; their versions stay, and the names stay
    // the removed account's.
    assert_eq!(field(&store), ["b1"]);
    assert_eq!(store.bots().versions("a2").unwrap().len(), 2);
    assert_eq!(
        store.accounts().ownership("a2").unwrap().unwrap().owner,
        "alice"
    );
    let users = operator::users(&store).unwrap();
    assert!(users[0]
        .removed_at
        .as_deref()
        .is_some_and(|t| t.ends_with('Z')));
    assert!(users[1].removed_at.is_none());

    let again = accounts::remove(&store, "alice").unwrap();
    assert!(again.already && again.retired.is_empty());
    match accounts::remove(&store, "nobody") {
        Err(Error::UnknownAccount { name, .. }) => assert_eq!(name, "nobody"),
        other => panic!("{other:?}"),
    }
    house::account(&store).unwrap();
    let e = accounts::remove(&store, "house").unwrap_err();
    assert!(matches!(e, Error::HouseAccount { .. }), "{e}");
}

fn the_operator_retires_any_bot_whoever_owns_it(db: Db) {
    let store = db.store();
    let alice = account(&store, "alice", false);
    let house_id = house::account(&store).unwrap();
    upload(&store, Some(alice), "mine", &wasm(1));
    upload(&store, Some(house_id), "idle", &wasm(2));
    upload(&store, None, "stored", &wasm(3));
    assert_eq!(
        owners::retire_any(&store, "mine").unwrap(),
        RetiredBot::Owned("alice".into())
    );
    assert_eq!(
        owners::retire_any(&store, "idle").unwrap(),
        RetiredBot::House
    );
    assert_eq!(
        owners::retire_any(&store, "stored").unwrap(),
        RetiredBot::Adopted
    );
    for bot in ["mine", "idle", "stored"] {
        assert_eq!(
            owners::retire_any(&store, bot).unwrap(),
            RetiredBot::Already
        );
    }
    assert_eq!(store.accounts().retired().unwrap().len(), 3);
    assert!(owners::retire_any(&store, "nobody").is_err());
    // The listing says whose each bot is and that it is retired.
    let listed = operator::bots(&store).unwrap();
    let rows: Vec<(&str, Option<&str>, bool)> = listed
        .iter()
        .map(|b| (b.bot.name.as_str(), b.owner.as_deref(), b.retired))
        .collect();
    assert_eq!(
        rows,
        [
            ("idle", Some("house"), true),
            ("mine", Some("alice"), true),
            ("stored", Some("house"), true)
        ]
    );
}

fn identical_bytes_of_different_accounts_are_grouped_and_one_accounts_are_not(db: Db) {
    let store = db.store();
    let alice = account(&store, "alice", false);
    let bob = account(&store, "bob", false);
    let carol = account(&store, "carol", false);
    // alice's v1 is bob's and carol's copy; bob's own v2 is new bytes.
    upload(&store, Some(alice), "original", &wasm(1));
    upload(&store, Some(bob), "copy", &wasm(1));
    upload(&store, Some(bob), "copy", &wasm(9));
    upload(&store, Some(carol), "again", &wasm(1));
    // One account's two names with the same bytes are no one else's.
    upload(&store, Some(alice), "twin-a", &wasm(2));
    upload(&store, Some(alice), "twin-b", &wasm(2));
    // A bot nobody owns with the same bytes is left out.
    upload(&store, None, "operators", &wasm(1));

    let groups = operator::duplicates(&store).unwrap();
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0].sha256, sha(&wasm(1)));
    assert_eq!(groups[0].owners(), ["alice", "bob", "carol"]);
    let versions: Vec<(&str, u32)> = groups[0]
        .versions
        .iter()
        .map(|v| (v.bot.as_str(), v.version))
        .collect();
    assert_eq!(versions, [("original", 1), ("copy", 1), ("again", 1)]);

    let same = |bot: &str| -> Vec<(String, String)> {
        operator::same_bytes_as(&store, bot)
            .unwrap()
            .into_iter()
            .map(|s| (s.bot, s.account))
            .collect()
    };
    let pair = |b: &str, a: &str| (b.to_string(), a.to_string());
    assert_eq!(
        same("original"),
        [pair("again", "carol"), pair("copy", "bob")]
    );
    assert_eq!(
        same("copy"),
        [pair("again", "carol"), pair("original", "alice")]
    );
    assert!(same("twin-a").is_empty());
    assert!(same("operators").is_empty());
    assert!(same("nobody").is_empty());
}
