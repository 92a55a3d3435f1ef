//! Who may do what to a bot: its owner only retires it or a version, and
//! challenges with it; every upload is stored through `submit::store_for`,
//! which claims the name for its account or refuses it, worded once.

use ludus_leaderboard::accounts;
use ludus_leaderboard::owners::{self, Act, OwnerError};
use ludus_leaderboard::store::{Created, NewAccount, Store};
use ludus_leaderboard::submit::{self, NameRefused, NewVersion};

const NOW: &str = "2026-01-01T00:00:00Z";

/// A store with the accounts alice and bob: the store, and their ids.
fn store() -> (tempfile::TempDir, Store, i64, i64) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("l.db")).unwrap();
    let [alice, bob] = ["alice", "bob"].map(|name| {
        let new = NewAccount {
            name,
            operator: false,
            password_hash: None,
            token: None,
            invite: None,
        };
        match accounts::create(&store, &new).unwrap() {
            Created::Account(id) => id,
            other => panic!("{other:?}"),
        }
    });
    (dir, store, alice, bob)
}

/// Stores the next version of `name` for `owner` (none: the operator),
/// bytes of its own for each `tag`.
fn upload(store: &Store, owner: Option<i64>, name: &str, tag: u8) -> Result<u32, NameRefused> {
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.extend_from_slice(&[0, 3, 1, b't', tag]);
    let sha256 = ludus_host::sha256_hex(&wasm);
    let version = NewVersion {
        name,
        game: "planet-wars",
        wasm: &wasm,
        sha256: &sha256,
    };
    submit::store_for(store, owner, &version, NOW, false)
        .unwrap()
        .map(|s| s.bot.version)
}

#[test]
fn an_upload_claims_its_name_and_a_name_that_is_not_the_accounts_is_refused() {
    let (_dir, store, alice, bob) = store();
    assert_eq!(upload(&store, Some(alice), "mine", 1), Ok(1));
    assert_eq!(upload(&store, Some(alice), "mine", 2), Ok(2));
    assert_eq!(
        store.accounts().ownership("mine").unwrap().unwrap().owner,
        "alice"
    );
    assert_eq!(upload(&store, None, "stored", 1), Ok(1));
    let refusals = [
        (
            upload(&store, Some(bob), "mine", 3),
            "the bot `mine` belongs to alice",
        ),
        (
            upload(&store, Some(bob), "MINE", 3),
            "`MINE` is the name of the bot `mine` (names are one name whatever their case)",
        ),
        (
            upload(&store, Some(bob), "stored", 3),
            "the bot `stored` was stored by the server's operator and belongs to no account",
        ),
    ];
    for (refused, said) in refusals {
        assert_eq!(refused.unwrap_err().to_string(), said);
    }
    assert_eq!(
        submit::may_claim(&store, bob, "mine").unwrap(),
        Err(NameRefused::Owned {
            name: "mine".into(),
            owner: "alice".into()
        })
    );
    assert_eq!(submit::may_claim(&store, bob, "free").unwrap(), Ok(()));
    // Nothing was stored for the refused uploads; the operator stores under
    // any name, claiming none.
    assert_eq!(store.bots().versions("mine").unwrap().len(), 2);
    assert_eq!(upload(&store, None, "mine", 3), Ok(3));
    assert_eq!(
        store.accounts().ownership("mine").unwrap().unwrap().owner,
        "alice"
    );
}

#[test]
fn only_its_owner_retires_a_bot_or_a_version_and_the_refusal_says_whose_it_is() {
    let (_dir, store, alice, bob) = store();
    upload(&store, Some(alice), "mine", 1).unwrap();
    upload(&store, Some(alice), "mine", 2).unwrap();
    upload(&store, None, "stored", 1).unwrap();
    let refused = |e: OwnerError| e.to_string();
    assert_eq!(
        refused(owners::retire(&store, bob, "mine").unwrap_err()),
        "the bot `mine` belongs to alice; only its owner can retire it"
    );
    assert!(matches!(
        owners::retire(&store, bob, "stored"),
        Err(OwnerError::Unowned(_))
    ));
    assert_eq!(
        refused(owners::retire(&store, bob, "nobody").unwrap_err()),
        "no bot named `nobody`"
    );
    assert_eq!(
        refused(owners::require_owner(&store, bob, "mine", Act::Challenge).unwrap_err()),
        "`mine` is not yours (its owner is alice): a challenge tests a bot of its owner's"
    );
    assert_eq!(
        refused(owners::require_owner(&store, bob, "stored", Act::Promote).unwrap_err()),
        "`stored` is not yours: a challenge tests a bot of its owner's"
    );

    owners::retire_version(&store, alice, "mine", 2).unwrap();
    assert_eq!(store.bots().candidates("mine").unwrap(), [2]);
    assert_eq!(
        refused(owners::retire_version(&store, alice, "mine", 2).unwrap_err()),
        "`mine` has no version 2 in its ladder (a candidate, or no such version)"
    );
    assert!(matches!(
        owners::retire_version(&store, bob, "mine", 1),
        Err(OwnerError::NotOwner { .. })
    ));
    owners::retire(&store, alice, "mine").unwrap();
    assert!(
        owners::require_owner(&store, alice, "mine", Act::Retire)
            .unwrap()
            .retired
    );
    assert!(store.accounts().retired().unwrap().contains("mine"));
}
