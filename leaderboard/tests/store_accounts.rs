//! The store's accounts of people on both databases: accounts made with a
//! password, a first token and an invitation used up; named API tokens
//! listed, used and revoked; sessions found, ended and expired; accounts
//! disabled (their sessions ended) and enabled again.

use ludus_leaderboard::store::{Created, InviteRefused, NewAccount, Store};

#[macro_use]
#[path = "support/backends.rs"]
mod backends;

use backends::{postgres, sqlite, Db};

on_both!(
    accounts_are_made_with_a_password_a_token_and_an_invitation_used_once,
    named_tokens_are_listed_used_and_revoked_by_their_account_only,
    sessions_are_found_until_ended_expired_or_their_account_disabled,
);

const NOW: &str = "2026-01-01T00:00:00Z";
const T: i64 = 1_767_225_600;

fn sha(n: u8) -> String {
    format!("{n:02x}").repeat(32)
}

fn new<'a>(
    name: &'a str,
    invite: Option<&'a str>,
    token: Option<(&'a str, &'a str)>,
) -> NewAccount<'a> {
    NewAccount {
        name,
        operator: false,
        password_hash: Some("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"),
        token,
        invite,
    }
}

fn made(store: &Store, n: &NewAccount) -> i64 {
    match store.accounts().create(n, NOW, T).unwrap() {
        Created::Account(id) => id,
        other => panic!("{other:?}"),
    }
}

fn accounts_are_made_with_a_password_a_token_and_an_invitation_used_once(db: Db) {
    let store = db.store();
    let first = sha(1);
    let alice = made(&store, &new("alice", None, Some(("first", &first))));
    assert_eq!(
        store.accounts().password_hash(alice).unwrap().as_deref(),
        Some("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA")
    );
    let token = store.accounts().token(&first).unwrap().unwrap();
    assert_eq!((token.account_id, token.name.as_str()), (alice, "first"));
    assert_eq!(
        store
            .accounts()
            .create(&new("ALICE", None, None), NOW, T)
            .unwrap(),
        Created::NameTaken("alice".into())
    );

    // Invitations: unknown, expired, good once.
    store.accounts().add_invite(&sha(7), T, T + 3600).unwrap();
    store
        .accounts()
        .add_invite(&sha(8), T - 7200, T - 3600)
        .unwrap();
    let refused = |code: &str| match store
        .accounts()
        .create(&new("bob", Some(code), None), NOW, T)
        .unwrap()
    {
        Created::Invite(why) => why,
        other => panic!("{other:?}"),
    };
    assert_eq!(refused(&sha(9)), InviteRefused::Unknown);
    assert_eq!(refused(&sha(8)), InviteRefused::Expired);
    assert!(
        store.accounts().named("bob").unwrap().is_none(),
        "nothing made"
    );
    let bob = made(&store, &new("bob", Some(&sha(7)), None));
    assert_eq!(
        db.raw(&format!(
            "SELECT used_by FROM invites WHERE code_sha256 = '{}'",
            sha(7)
        )),
        bob.to_string()
    );
    assert_eq!(
        store
            .accounts()
            .create(&new("carol", Some(&sha(7)), None), NOW, T)
            .unwrap(),
        Created::Invite(InviteRefused::Used)
    );
    assert!(store.accounts().tokens(bob).unwrap().is_empty());
    assert!(store
        .accounts()
        .set_password_hash(bob, "$argon2id$other")
        .unwrap());
    assert_eq!(
        store.accounts().password_hash(bob).unwrap().as_deref(),
        Some("$argon2id$other")
    );
    store.accounts().remove(bob, T).unwrap();
    assert!(!store
        .accounts()
        .set_password_hash(bob, "$argon2id$again")
        .unwrap());
}

fn named_tokens_are_listed_used_and_revoked_by_their_account_only(db: Db) {
    let store = db.store();
    let alice = made(&store, &new("alice", None, Some(("first", &sha(1)))));
    let bob = made(&store, &new("bob", None, None));
    let laptop = store
        .accounts()
        .add_token(alice, "laptop", &sha(2), NOW)
        .unwrap();
    store.accounts().add_token(bob, "ci", &sha(3), NOW).unwrap();
    let names = |account| {
        store
            .accounts()
            .tokens(account)
            .unwrap()
            .into_iter()
            .map(|t| (t.name, t.last_used_at, t.revoked_at))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(alice),
        [("first".into(), None, None), ("laptop".into(), None, None)]
    );
    store.accounts().token_used(laptop, T).unwrap();
    assert_eq!(names(alice)[1], ("laptop".into(), Some(T), None));
    assert!(
        !store.accounts().revoke_token(bob, laptop, T).unwrap(),
        "not bob's"
    );
    assert!(store.accounts().revoke_token(alice, laptop, T + 1).unwrap());
    assert!(
        !store.accounts().revoke_token(alice, laptop, T + 2).unwrap(),
        "revoked already"
    );
    assert_eq!(
        store.accounts().token(&sha(2)).unwrap().unwrap().revoked_at,
        Some(T + 1)
    );
    assert_eq!(names(bob).len(), 1);
    // A secret's hash is one token's only.
    assert!(store
        .accounts()
        .add_token(bob, "copy", &sha(2), NOW)
        .is_err());
}

fn sessions_are_found_until_ended_expired_or_their_account_disabled(db: Db) {
    let store = db.store();
    let alice = made(&store, &new("alice", None, None));
    let sessions = store.sessions();
    sessions
        .start(&sha(1), alice, "csrf-one", T, T + 100)
        .unwrap();
    sessions
        .start(&sha(2), alice, "csrf-two", T, T + 100)
        .unwrap();
    let (account, csrf) = sessions.find(&sha(1), T + 1).unwrap().unwrap();
    assert_eq!(
        (account.name.as_str(), csrf.as_str()),
        ("alice", "csrf-one")
    );
    assert!(
        sessions.find(&sha(1), T + 100).unwrap().is_none(),
        "expired"
    );
    assert!(sessions.find(&sha(9), T).unwrap().is_none());
    assert!(sessions.end(&sha(1), T + 2).unwrap());
    assert!(!sessions.end(&sha(1), T + 3).unwrap());
    assert!(sessions.find(&sha(1), T + 3).unwrap().is_none(), "ended");
    assert_eq!(sessions.live(alice, T + 3).unwrap(), 1);
    // A new session forgets the ended and expired ones.
    sessions
        .start(&sha(3), alice, "csrf-three", T + 4, T + 200)
        .unwrap();
    assert_eq!(
        db.raw(&format!(
            "SELECT count(*) FROM sessions WHERE account_id = {alice}"
        )),
        "2"
    );

    // Disabled: every session ends, and stays ended when enabled again.
    assert!(store.accounts().disable(alice, T + 5).unwrap());
    assert!(!store.accounts().disable(alice, T + 6).unwrap());
    assert_eq!(
        store.accounts().get(alice).unwrap().unwrap().disabled_at,
        Some(T + 5)
    );
    assert_eq!(sessions.live(alice, T + 6).unwrap(), 0);
    assert!(sessions.find(&sha(3), T + 6).unwrap().is_none());
    assert!(store.accounts().enable(alice).unwrap());
    assert!(!store.accounts().enable(alice).unwrap());
    assert!(sessions.find(&sha(3), T + 7).unwrap().is_none());
    // A session of a removed account finds nobody.
    sessions
        .start(&sha(4), alice, "csrf-four", T + 8, T + 300)
        .unwrap();
    assert!(sessions.find(&sha(4), T + 9).unwrap().is_some());
    store.accounts().remove(alice, T + 10).unwrap();
    assert!(sessions.find(&sha(4), T + 11).unwrap().is_none());
}
