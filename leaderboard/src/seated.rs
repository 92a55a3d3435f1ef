//! Who sat where in a stored match: each seat's bot by the name and version
//! its ladder's schedule seated there. Several names can share the same
//! bytes (a class that starts from the sample bot), so a seat is never named
//! by looking its sha256 up: the schedule says which of them it was.

use crate::store::{LadderRecord, Store, StoreError};
use ludus_host::Replay;

/// A seat's bot, as the schedule seated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seated {
    pub name: String,
    pub version: u32,
}

impl Seated {
    /// `name vN`: how pages, the API and the CLI name a seat.
    pub fn label(&self) -> String {
        format!("{} v{}", self.name, self.version)
    }
}

/// The bots of `record` at `positions` (a scheduled match's seats), in
/// seat order; `None` for a position the ladder does not have.
pub fn of(record: &LadderRecord, positions: &[usize]) -> Vec<Option<Seated>> {
    positions
        .iter()
        .map(|&p| {
            record.bots.get(p).map(|b| Seated {
                name: b.name.clone(),
                version: b.version,
            })
        })
        .collect()
}

/// The seats of `replay` as the store's schedule seated them: found by its
/// match id, in the first ladder whose match seats the very bytes the replay
/// records, seat by seat. `None` when no ladder of the store played it.
pub fn scheduled(store: &Store, replay: &Replay) -> Result<Option<Vec<Seated>>, StoreError> {
    for (ladder, index) in store.results().locate(&replay.match_id)? {
        let Some((m, _)) = store.results().at(ladder, index)? else {
            continue;
        };
        let record = store.ladders().get(ladder)?;
        let same_bytes = m.seats.len() == replay.seats.len()
            && m.seats
                .iter()
                .zip(&replay.seats)
                .all(|(&p, seat)| record.bots.get(p).is_some_and(|b| b.sha256 == seat.sha256));
        if same_bytes {
            return Ok(of(&record, &m.seats).into_iter().collect());
        }
    }
    Ok(None)
}

/// [`scheduled`] in `store`, when there is one.
pub fn scheduled_in(
    store: Option<&Store>,
    replay: &Replay,
) -> Result<Option<Vec<Seated>>, StoreError> {
    store.map_or(Ok(None), |store| scheduled(store, replay))
}

/// Each seat's bot name.
pub fn names(seated: &[Seated]) -> Vec<String> {
    seated.iter().map(|s| s.name.clone()).collect()
}

/// Each seat's `name vN`.
pub fn labels(seated: &[Seated]) -> Vec<String> {
    seated.iter().map(Seated::label).collect()
}

/// Names each seat of `replay` `names[seat]`, where one is given (not
/// empty): a replay recorded before workers kept each seat's own name may
/// name a bot after another with the same bytes.
pub fn rename(replay: &mut Replay, names: &[String]) {
    for (seat, name) in replay.seats.iter_mut().zip(names) {
        if !name.is_empty() {
            seat.name.clone_from(name);
        }
    }
}
