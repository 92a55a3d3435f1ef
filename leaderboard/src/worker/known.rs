//! What a worker knows of the ladders it plays, looked up once: each
//! ladder's record and limits (or why this build may not play it), its
//! progress, and every bot compiled once, fetched from the database by
//! sha256 and checked against it before it runs.

use super::play::Job;
use super::Progress;
use crate::error::Error;
use crate::store::{BotRecord, Claimed, LadderRecord, Needs, Store};
use ludus_host::{BotModule, Limits, Sandbox};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a worker knows of a ladder it plays.
pub(super) struct Ladder {
    pub(super) record: LadderRecord,
    pub(super) limits: Limits,
    pub(super) progress: Progress,
}

#[derive(Default)]
pub(super) struct Known {
    pub(super) ladders: BTreeMap<i64, Ladder>,
    /// Ladders this worker may not play, and why.
    pub(super) refused: BTreeMap<i64, String>,
    /// Compiled bots by sha256 and name.
    modules: BTreeMap<(String, String), Arc<BotModule>>,
}

/// Why a worker of this build may not play the ladder; `None` when it may.
fn refusal(record: &LadderRecord) -> Option<String> {
    match ludus_engine::registry::info(&record.game) {
        Err(_) => Some(format!(
            "it is a ladder of {}, a game this Ludus does not have",
            record.game
        )),
        Ok(info) => record
            .needs
            .refusal(&Needs::of_this_build(info.rules_version))
            .map(|d| format!("it needs {d}")),
    }
}

impl Known {
    /// Ladder `id`, looked up the first time; `None` when this worker may
    /// not play it (the reason goes to `refused`).
    pub(super) fn ladder(&mut self, store: &Store, id: i64) -> Result<Option<&Ladder>, Error> {
        if self.refused.contains_key(&id) {
            return Ok(None);
        }
        if !self.ladders.contains_key(&id) {
            let record = store.ladders().get(id)?;
            if let Some(reason) = refusal(&record) {
                tracing::warn!(ladder = id, "this worker cannot play ladder {id}: {reason}");
                self.refused.insert(id, reason);
                return Ok(None);
            }
            let limits: Limits =
                serde_json::from_value(record.limits.clone()).map_err(|e| Error::StoredLadder {
                    ladder: id,
                    reason: format!("its limits do not parse: {e}"),
                })?;
            let total = store.ladders().schedule_len(id)? as usize;
            let done = total - store.queue().remaining(id)? as usize;
            self.ladders.insert(
                id,
                Ladder {
                    record,
                    limits,
                    progress: Progress {
                        ladder: id,
                        done,
                        total,
                        resumed: done,
                        played_here: 0,
                    },
                },
            );
        }
        Ok(self.ladders.get(&id))
    }

    /// Reads the ladder's progress again (other workers play it too).
    pub(super) fn refresh(&mut self, store: &Store, id: i64) -> Result<(), Error> {
        let total = store.ladders().schedule_len(id)? as usize;
        let remaining = store.queue().remaining(id)? as usize;
        if let Some(l) = self.ladders.get_mut(&id) {
            l.progress.total = total;
            l.progress.done = total - remaining;
        }
        Ok(())
    }

    /// A claimed match with everything needed to play it on any thread.
    pub(super) fn job(
        &mut self,
        store: &Store,
        sandbox: &Sandbox,
        claimed: Claimed,
    ) -> Result<Job, Error> {
        // A continuous ladder gains bots after this worker first read it.
        let known = self.ladders[&claimed.ladder].record.bots.len();
        if claimed.seats.iter().any(|&b| b >= known) {
            let record = store.ladders().get(claimed.ladder)?;
            if let Some(l) = self.ladders.get_mut(&claimed.ladder) {
                l.record = record;
            }
        }
        let l = &self.ladders[&claimed.ladder];
        let (game, config, limits, keep) = (
            l.record.game.clone(),
            l.record.config.clone(),
            l.limits.clone(),
            l.record.keep_replays,
        );
        let seated: Vec<BotRecord> = claimed
            .seats
            .iter()
            .map(|&b| {
                l.record
                    .bots
                    .get(b)
                    .cloned()
                    .ok_or_else(|| Error::StoredLadder {
                        ladder: claimed.ladder,
                        reason: format!(
                            "match {} seats bot {b}, which it does not have",
                            claimed.index
                        ),
                    })
            })
            .collect::<Result<_, _>>()?;
        let mut bots = Vec::with_capacity(seated.len());
        for b in &seated {
            bots.push(self.module(store, sandbox, b)?);
        }
        Ok(Job {
            claimed,
            game,
            config,
            limits,
            bots,
            names: seated.into_iter().map(|b| b.name).collect(),
            keep,
        })
    }

    /// A bot compiled once per worker: from the module cache when it is
    /// there, else fetched from the database and checked against its sha256.
    fn module(
        &mut self,
        store: &Store,
        sandbox: &Sandbox,
        bot: &BotRecord,
    ) -> Result<Arc<BotModule>, Error> {
        // By bytes and name: bots with the same bytes share the sandbox's
        // compiled code, but each keeps its own name, which its seat's
        // replay records.
        let key = (bot.sha256.clone(), bot.name.clone());
        if let Some(m) = self.modules.get(&key) {
            return Ok(m.clone());
        }
        let refused = |e: ludus_host::LoadError| Error::Bot {
            name: bot.name.clone(),
            version: bot.version,
            reason: e.to_string(),
        };
        let module = match sandbox
            .load_compiled(&bot.name, &bot.sha256)
            .map_err(refused)?
        {
            Some(m) => m,
            None => {
                let wasm = store.bots().wasm(&bot.sha256)?;
                sandbox.load(&bot.name, &wasm).map_err(refused)?
            }
        };
        self.modules.insert(key, module.clone());
        Ok(module)
    }
}
