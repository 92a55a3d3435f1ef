//! A played match's replay: the stored one, or, where the ladder's policy
//! did not store it ([`crate::retention`]), the match played again in the
//! sandbox and checked against the replay sha256 its result records. A
//! replay that comes out different is never served: it is recorded as an
//! integrity event. A match whose ladder needs another Ludus, rules or
//! wasmtime version than this build cannot be played again identically;
//! its result stands, and its replay is there only if it was stored
//! (`ludus replays keep` stores them before an upgrade).

use crate::error::Error;
use crate::store::{Store, StoreError};
use crate::worker;
use ludus_host::{short_id, Replay, Sandbox};

/// Where a served replay came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The store had it.
    Stored,
    /// The match was played again, and its replay checked.
    Regenerated,
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(
        "match {} has no replay: it was void (no worker could play it)",
        short_id(match_id)
    )]
    Void { match_id: String },
    #[error("the replay of match {} is not stored, and this Ludus cannot play it again identically: {reason}. Its result stands; run a Ludus of the ladder's versions, or `ludus replays keep` with one before upgrading", short_id(match_id))]
    CannotRegenerate { match_id: String, reason: String },
    #[error("integrity event {event}: match {} played again gives a replay with sha256 {}, not the {} its result records; the replay is not served. One of the two runs was not this match: see `ludus ladder status`", short_id(match_id), short_id(got), short_id(recorded))]
    Differs {
        match_id: String,
        recorded: String,
        got: String,
        event: i64,
    },
    #[error("ladder {ladder}: {missing} replays are not stored, and this Ludus cannot play them again identically: {reason}; run `ludus replays keep` with a Ludus of the ladder's versions")]
    CannotKeep {
        ladder: i64,
        missing: u32,
        reason: String,
    },
    #[error(
        "the stored replay of match {} is unreadable: {reason}",
        short_id(match_id)
    )]
    Unreadable { match_id: String, reason: String },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("match {}: {source}", short_id(match_id))]
    Play {
        match_id: String,
        source: Box<Error>,
    },
}

/// The replay of the played match with this full id: the stored one, or
/// the match played again with `sandbox` and checked.
pub fn of_match(
    store: &Store,
    sandbox: &Sandbox,
    match_id: &str,
) -> Result<(Replay, Origin), ReplayError> {
    if let Some(gz) = store.results().replay(match_id)? {
        let replay = Replay::from_bytes(&gz).map_err(|e| ReplayError::Unreadable {
            match_id: match_id.into(),
            reason: e.to_string(),
        })?;
        return Ok((replay, Origin::Stored));
    }
    regenerate(store, sandbox, match_id).map(|r| (r, Origin::Regenerated))
}

/// Plays the match with this full id again, as a worker played it, and
/// checks its replay against the sha256 its result records.
pub fn regenerate(store: &Store, sandbox: &Sandbox, match_id: &str) -> Result<Replay, ReplayError> {
    let void = || ReplayError::Void {
        match_id: match_id.into(),
    };
    let &(ladder, index) = store.results().locate(match_id)?.first().ok_or_else(void)?;
    let recorded = match store.results().at(ladder, index)? {
        Some((_, Some(result))) if result.aborted.is_none() => result.replay_sha256,
        _ => return Err(void()),
    };
    if recorded.is_empty() {
        return Err(ReplayError::CannotRegenerate {
            match_id: match_id.into(),
            reason: "its result records no replay hash to check a replay against".into(),
        });
    }
    let replay = worker::play_again(store, sandbox, ladder, index).map_err(|e| match e {
        Error::Refused { reason, .. } => ReplayError::CannotRegenerate {
            match_id: match_id.into(),
            reason,
        },
        source => ReplayError::Play {
            match_id: match_id.into(),
            source: Box::new(source),
        },
    })?;
    let json = replay.to_bytes(false);
    let got = ludus_host::sha256_hex(&json);
    if got != recorded {
        let event = store.queue().regenerated_differs(
            ladder,
            index,
            &recorded,
            &got,
            &ludus_host::gzip(&json),
        )?;
        return Err(ReplayError::Differs {
            match_id: match_id.into(),
            recorded,
            got,
            event,
        });
    }
    Ok(replay)
}

/// Why this build cannot play the ladder's matches again identically;
/// `None` when it can.
pub fn cannot_regenerate(store: &Store, ladder: i64) -> Result<Option<String>, StoreError> {
    let record = store.ladders().get(ladder)?;
    Ok(match ludus_engine::registry::info(&record.game) {
        Err(_) => Some(format!("this Ludus has no game {}", record.game)),
        Ok(info) => record
            .needs
            .refusal(&crate::store::Needs::of_this_build(info.rules_version))
            .map(|d| format!("the ladder needs {d}")),
    })
}

/// The matches of a database that this build cannot play again and whose
/// replay is not stored: (ladder, how many, why), ladders with none left
/// out. What `ludus serve` and `ludus ladder status` warn of.
pub fn lost(store: &Store) -> Result<Vec<(i64, u32, String)>, StoreError> {
    let mut lost = Vec::new();
    for ladder in store.ladders().ids()? {
        if let Some(why) = cannot_regenerate(store, ladder)? {
            let n = store.results().count_without_replay(ladder)?;
            if n > 0 {
                lost.push((ladder, n, why));
            }
        }
    }
    Ok(lost)
}

/// The replays of a ladder: its policy, how many played matches have no
/// stored replay, and why this build cannot regenerate them, if it
/// cannot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub keep: crate::retention::KeepReplays,
    pub without: u32,
    pub cannot_regenerate: Option<String>,
}

/// Where the ladder's replays stand ([`Standing`]).
pub fn standing(store: &Store, ladder: i64) -> Result<Standing, StoreError> {
    Ok(Standing {
        keep: store.ladders().get(ladder)?.keep_replays,
        without: store.results().count_without_replay(ladder)?,
        cannot_regenerate: cannot_regenerate(store, ladder)?,
    })
}

/// [`keep`] for one ladder, or for every ladder of the database: which
/// ladders had replays to store, how many; `before` is told of each such
/// ladder and its count before its matches are played again. A ladder
/// this build cannot play again identically is [`ReplayError::CannotRegenerate`]
/// before anything is played.
pub fn keep_every(
    store: &Store,
    sandbox: &Sandbox,
    ladder: Option<i64>,
    mut before: impl FnMut(i64, u32),
    mut on_each: impl FnMut(usize, usize),
) -> Result<usize, ReplayError> {
    let ladders = match ladder {
        Some(id) => vec![store.ladders().get(id)?.id],
        None => store.ladders().ids()?,
    };
    let mut stored = 0;
    for id in ladders {
        let missing = store.results().count_without_replay(id)?;
        if missing == 0 {
            continue;
        }
        if let Some(reason) = cannot_regenerate(store, id)? {
            return Err(ReplayError::CannotKeep {
                ladder: id,
                missing,
                reason,
            });
        }
        before(id, missing);
        stored += keep(store, sandbox, id, &mut on_each)?;
    }
    Ok(stored)
}

/// Stores every replay of the ladder that its policy left out, playing
/// each match again (and checking it) with `sandbox`; `on_each` is told
/// (done, total) after each. Returns how many were stored. What an
/// operator runs before an upgrade that changes a version.
pub fn keep(
    store: &Store,
    sandbox: &Sandbox,
    ladder: i64,
    mut on_each: impl FnMut(usize, usize),
) -> Result<usize, ReplayError> {
    let missing = store.results().without_replay(ladder)?;
    let total = missing.len();
    for (done, (_, match_id)) in missing.iter().enumerate() {
        let replay = regenerate(store, sandbox, match_id)?;
        store
            .results()
            .keep_replay(match_id, &ludus_host::gzip(&replay.to_bytes(false)))?;
        on_each(done + 1, total);
    }
    Ok(total)
}
