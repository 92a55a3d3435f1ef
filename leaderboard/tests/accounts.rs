//! Accounts through the library: made under the name rules, signed in to
//! by password (a wrong password, an unknown name and an account without a
//! password answered alike; a removed or disabled account barred), and
//! disabled, enabled and removed by the operator.

use ludus_leaderboard::accounts::{self, Barred, SignedIn};
use ludus_leaderboard::store::{Created, NewAccount, Store};
use ludus_leaderboard::{house, Error};
use std::cell::Cell;

const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA";

fn new<'a>(name: &'a str, password_hash: Option<&'a str>) -> NewAccount<'a> {
    NewAccount {
        name,
        operator: false,
        password_hash,
        token: None,
        invite: None,
    }
}

fn made(store: &Store, name: &str, password_hash: Option<&str>) -> i64 {
    match accounts::create(store, &new(name, password_hash)).unwrap() {
        Created::Account(id) => id,
        other => panic!("{other:?}"),
    }
}

/// The sign-in of `name` with a password that is right (`right`) or not;
/// the hash it was checked against, `None` for a check of nothing.
fn sign_in(store: &Store, name: &str, right: bool) -> (SignedIn, Option<Option<String>>) {
    let checked = Cell::new(None);
    let signed = accounts::sign_in(store, name).unwrap().check(|phc| {
        checked.set(Some(phc.map(str::to_string)));
        right
    });
    (signed, checked.take())
}

#[test]
fn an_account_is_made_under_the_name_rules_once_per_name() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    let alice = made(&store, "alice", Some(HASH));
    assert_eq!(
        store.accounts().password_hash(alice).unwrap().as_deref(),
        Some(HASH)
    );
    assert_eq!(
        accounts::create(&store, &new("ALICE", None)).unwrap(),
        Created::NameTaken("alice".into())
    );
    for refused in ["House", "../x", ""] {
        let why = accounts::name_refused(refused).unwrap();
        match accounts::create(&store, &new(refused, None)) {
            Err(Error::AccountName(said)) => assert_eq!(said, why),
            other => panic!("{refused:?}: {other:?}"),
        }
    }
    assert!(accounts::name_refused("House")
        .unwrap()
        .contains("the server's own account"));
    assert_eq!(accounts::name_refused("bob"), None);
}

#[test]
fn a_sign_in_checks_the_password_then_whether_the_account_may_sign_in() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    let alice = made(&store, "alice", Some(HASH));
    made(&store, "nopass", None);
    let hash = Some(Some(HASH.to_string()));
    assert_eq!(
        sign_in(&store, "ALICE", true),
        (SignedIn::Account(alice), hash.clone())
    );
    assert_eq!(
        sign_in(&store, "alice", false),
        (SignedIn::Wrong, hash.clone())
    );
    // Checked against nothing, as slowly, and answered as a wrong password.
    assert_eq!(
        sign_in(&store, "nobody", true),
        (SignedIn::Wrong, Some(None))
    );
    assert_eq!(
        sign_in(&store, "nopass", true),
        (SignedIn::Wrong, Some(None))
    );

    assert_eq!(
        accounts::set_disabled(&store, "Alice", true).unwrap(),
        ("alice".into(), true)
    );
    assert_eq!(
        accounts::set_disabled(&store, "alice", true).unwrap(),
        ("alice".into(), false)
    );
    assert_eq!(
        sign_in(&store, "alice", true).0,
        SignedIn::Barred(Barred::Disabled)
    );
    assert_eq!(sign_in(&store, "alice", false).0, SignedIn::Wrong);
    accounts::set_disabled(&store, "alice", false).unwrap();
    assert_eq!(sign_in(&store, "alice", true).0, SignedIn::Account(alice));

    let removed = accounts::remove(&store, "alice").unwrap();
    assert!(!removed.already && removed.retired.is_empty());
    assert_eq!(
        sign_in(&store, "alice", true).0,
        SignedIn::Barred(Barred::Removed)
    );
    let account = store.accounts().get(alice).unwrap().unwrap();
    assert_eq!(accounts::may_sign_in(&account), Err(Barred::Removed));
}

#[test]
fn the_operator_disables_no_account_removed_unknown_or_the_houses() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    made(&store, "alice", None);
    accounts::remove(&store, "alice").unwrap();
    house::account(&store).unwrap();
    let refused = |name: &str| accounts::set_disabled(&store, name, true).unwrap_err();
    assert!(matches!(refused("alice"), Error::AccountRemoved { .. }));
    assert!(matches!(refused("house"), Error::HouseSignsIn { .. }));
    let e = refused("nobody");
    assert!(matches!(e, Error::NoAccount { .. }), "{e}");
    assert!(
        e.to_string().contains("`ludus user add nobody` adds it"),
        "{e}"
    );
    assert!(matches!(
        accounts::remove(&store, "house"),
        Err(Error::HouseAccount { .. })
    ));
}
