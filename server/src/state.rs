//! What every request shares: the store (used on blocking threads only),
//! the sandbox that validates uploads, the bound on validations running at
//! once, and the rate limiter.

use crate::error::ApiError;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use ludus_host::Sandbox;
use ludus_leaderboard::continuous::ContinuousConfig;
use ludus_leaderboard::store::{Location, Store};
use std::mem::ManuallyDrop;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// How the server runs.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub db: Location,
    pub listen: SocketAddr,
    /// Threads of the in-process worker; 0 for none (remote `ludus worker`s play).
    pub workers: usize,
    /// Largest upload, in bytes.
    pub upload_limit: usize,
    /// Uploads per account in any 24 hours.
    pub daily_uploads: u32,
    /// Validations of uploads running at once.
    pub checks_at_once: usize,
    /// Requests per second allowed per token and per address, and the burst.
    pub rate_per_second: u32,
    pub rate_burst: u32,
    /// How often the continuous ladders are topped up.
    pub schedule_every: Duration,
    pub continuous: ContinuousConfig,
}

impl ServerConfig {
    pub fn new(db: Location) -> ServerConfig {
        ServerConfig {
            db,
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            upload_limit: 32 << 20,
            daily_uploads: 50,
            checks_at_once: 2,
            rate_per_second: 50,
            rate_burst: 200,
            schedule_every: Duration::from_secs(1),
            continuous: ContinuousConfig::default(),
        }
    }
}

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    config: ServerConfig,
    /// Dropped by hand, see `Drop for Inner`.
    store: ManuallyDrop<Mutex<Store>>,
    sandbox: Arc<Sandbox>,
    checks: Semaphore,
    limiter: DefaultKeyedRateLimiter<String>,
    stopping: Arc<AtomicBool>,
}

impl Drop for Inner {
    /// A PostgreSQL client closes by blocking on a runtime of its own, which
    /// panics on a thread of the server's; the last handle may go on one,
    /// so the store is closed on a thread of its own.
    fn drop(&mut self) {
        // SAFETY: `store` is not used again; this is the one place it is
        // taken.
        let store = unsafe { ManuallyDrop::take(&mut self.store) };
        std::thread::scope(|s| {
            s.spawn(move || drop(store));
        });
    }
}

impl AppState {
    /// Opens (or creates) the database and the sandbox; refuses game
    /// configs that a game or an existing ladder does not take.
    pub async fn open(config: ServerConfig) -> anyhow::Result<AppState> {
        let db = config.db.clone();
        let continuous = config.continuous.clone();
        let (store, sandbox) = tokio::task::spawn_blocking(move || {
            let store = Store::connect(&db)?;
            continuous.check_game_configs(&store)?;
            anyhow::Ok((store, Sandbox::new()?))
        })
        .await??;
        Ok(AppState::new(config, store, Arc::new(sandbox)))
    }

    pub fn new(config: ServerConfig, store: Store, sandbox: Arc<Sandbox>) -> AppState {
        let quota = Quota::per_second(NonZeroU32::new(config.rate_per_second.max(1)).expect("≥ 1"))
            .allow_burst(NonZeroU32::new(config.rate_burst.max(1)).expect("≥ 1"));
        AppState(Arc::new(Inner {
            checks: Semaphore::new(config.checks_at_once.max(1)),
            config,
            store: ManuallyDrop::new(Mutex::new(store)),
            sandbox,
            limiter: RateLimiter::keyed(quota),
            stopping: Arc::new(AtomicBool::new(false)),
        }))
    }

    pub fn config(&self) -> &ServerConfig {
        &self.0.config
    }

    pub fn sandbox(&self) -> &Arc<Sandbox> {
        &self.0.sandbox
    }

    /// The rate limiter, keyed by address and by token.
    pub(crate) fn limiter(&self) -> &DefaultKeyedRateLimiter<String> {
        &self.0.limiter
    }

    pub fn stopping(&self) -> &Arc<AtomicBool> {
        &self.0.stopping
    }

    /// The store, on a blocking thread only. A connection the database
    /// closed (a PostgreSQL restart) is replaced by a new one here, so the
    /// request that finds it gone fails (503) and the next ones work.
    pub(crate) fn lock(&self) -> Result<std::sync::MutexGuard<'_, Store>, ApiError> {
        let mut store = self
            .0
            .store
            .lock()
            .map_err(|_| ApiError::Internal("the store's lock is poisoned".into()))?;
        if store.connection_lost() {
            tracing::warn!(db = %self.0.config.db, "the connection to the database was lost; connecting again");
            let fresh = Store::connect(&self.0.config.db)?;
            let gone = std::mem::replace(&mut *store, fresh);
            // As at shutdown: a PostgreSQL client is not dropped on a
            // thread of the async runtime.
            std::thread::scope(|s| {
                s.spawn(move || drop(gone));
            });
            tracing::info!(db = %self.0.config.db, "connected to the database again");
        }
        Ok(store)
    }

    /// Runs `f` with the store on a blocking thread.
    pub async fn with_store<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let state = self.clone();
        tokio::task::spawn_blocking(move || f(&*state.lock()?))
            .await
            .map_err(|e| ApiError::Internal(format!("a blocking task failed: {e}")))?
    }

    /// A permit to validate one upload; waits while others validate.
    pub async fn check_permit(&self) -> tokio::sync::SemaphorePermit<'_> {
        self.0
            .checks
            .acquire()
            .await
            .expect("the semaphore is never closed")
    }
}
