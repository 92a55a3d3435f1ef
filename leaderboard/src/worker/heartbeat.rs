//! The worker's heartbeat, on a thread and a database connection of its
//! own: a main loop busy for a while (compiling a large bot the first time,
//! fitting the ratings of a large ladder) keeps its leases and is not taken
//! for gone, however short the lease. Every [`queue::renew_every`] of the
//! lease it renews the leases of the matches the worker holds ([`Holds`])
//! and releases those of this host's
//! dead workers. It ends with the run. A failure that trying again mends
//! (the database restarting, a lock timeout) is tried again at the next
//! beat; any other ends the run at the main loop's next look.
//!
//! A process that is frozen or killed stops beating with all its threads,
//! which is what the heartbeat is for.

use crate::error::Error;
use crate::store::{queue, Location, Store, StoreError};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The matches a worker holds: in play, or played with a result not yet
/// committed. Its heartbeat renews their leases, and theirs alone.
#[derive(Debug, Clone, Default)]
pub(super) struct Holds(Arc<Mutex<BTreeSet<(i64, u32)>>>);

impl Holds {
    pub(super) fn hold(&self, ladder: i64, index: u32) {
        self.0
            .lock()
            .expect("never poisoned")
            .insert((ladder, index));
    }

    pub(super) fn release(&self, ladder: i64, index: u32) {
        self.0
            .lock()
            .expect("never poisoned")
            .remove(&(ladder, index));
    }

    fn now(&self) -> Vec<(i64, u32)> {
        self.0
            .lock()
            .expect("never poisoned")
            .iter()
            .copied()
            .collect()
    }
}

/// How often the thread looks whether it should stop.
const STEP: Duration = Duration::from_millis(50);

pub(super) struct Heartbeat {
    stop: Arc<AtomicBool>,
    failed: Arc<Mutex<Option<StoreError>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Heartbeat {
    /// Starts beating for `worker` on a new connection to `location`.
    pub(super) fn start(
        location: &Location,
        worker: i64,
        lease: Duration,
        holds: Holds,
    ) -> Result<Heartbeat, Error> {
        let store = Store::connect_existing(location)?;
        let stop = Arc::new(AtomicBool::new(false));
        let failed = Arc::new(Mutex::new(None));
        let (stopping, failure) = (stop.clone(), failed.clone());
        let every = queue::renew_every(lease);
        let thread = std::thread::Builder::new()
            .name("ludus-heartbeat".into())
            .spawn(move || {
                // Wall-clock time paces the beats; it never reaches a match.
                let mut next = Instant::now() + every;
                let mut failing = false;
                while !stopping.load(Ordering::Relaxed) {
                    let now = Instant::now();
                    if now < next {
                        std::thread::sleep((next - now).min(STEP));
                        continue;
                    }
                    next = now + every;
                    let held = holds.now();
                    let beat = store
                        .queue()
                        .heartbeat(worker, lease, &held)
                        .and_then(|_| store.queue().reap_local_workers(false));
                    match beat {
                        Ok(_) if failing => {
                            tracing::info!(worker, "heartbeats go through again");
                            failing = false;
                        }
                        Ok(_) => {}
                        // The database restarting, or a lock held a moment
                        // too long: the next beat tries again (on a new
                        // connection when this one was lost); meanwhile the
                        // leases may run out, and others play the matches.
                        Err(e) if e.is_transient() => {
                            if !failing {
                                tracing::warn!(
                                    worker,
                                    "a heartbeat failed, trying again each beat: {e}"
                                );
                                failing = true;
                            }
                            if store.connection_lost()
                                || matches!(e, StoreError::Unreachable { .. })
                            {
                                let _ = store.reconnect();
                            }
                        }
                        Err(e) => {
                            *failure.lock().expect("never poisoned") = Some(e);
                            return;
                        }
                    }
                }
            })
            .map_err(|e| Error::Threads(1, e.to_string()))?;
        Ok(Heartbeat {
            stop,
            failed,
            thread: Some(thread),
        })
    }

    /// The heartbeat's failure, if it failed: the worker cannot keep its
    /// leases and stops.
    pub(super) fn check(&self) -> Result<(), Error> {
        match self.failed.lock().expect("never poisoned").take() {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Stops beating and waits for the thread: the worker's stop is
    /// recorded after its last beat, never before.
    pub(super) fn stop(mut self) {
        self.end();
    }

    fn end(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        self.end();
    }
}
