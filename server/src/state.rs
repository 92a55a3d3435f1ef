//! What every request shares: the pool of the store's connections (used on
//! blocking threads only), the sandbox that validates uploads, the bound on
//! validations running at once, and the rate limiter.

use crate::error::ApiError;
use crate::listen::ConnectionLimits;
use crate::pool::{self, Pool};
use crate::rate_limit::Limits;
use crate::replays::Renders;
use ipnet::IpNet;
use ludus_host::Sandbox;
use ludus_leaderboard::continuous::ContinuousConfig;
use ludus_leaderboard::store::{Location, Store, StoreError};
use std::mem::ManuallyDrop;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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
    /// How often the scheduler looks at the continuous ladders' queues
    /// when nothing wakes it (results from workers of other processes
    /// arrive unannounced).
    pub schedule_every: Duration,
    pub continuous: ContinuousConfig,
    /// Connections open at once, and how long a request's headers may take.
    pub connections: ConnectionLimits,
    /// How long a request's body may take to arrive, and the whole request
    /// (an upload's validation included) to be answered.
    pub body_timeout: Duration,
    pub request_timeout: Duration,
    /// Uploads received or validated at once, in all and from one address.
    pub uploads_at_once: usize,
    pub uploads_per_address: usize,
    /// Proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpNet>,
    /// A folder of bots stored under the `house` account at start, for
    /// every game each plays.
    pub house: Option<std::path::PathBuf>,
    /// Matches played again at once to regenerate replays their ladders
    /// did not store, and the bytes of regenerated replays kept.
    pub regenerations_at_once: usize,
    pub replay_cache_bytes: u64,
    /// Connections to the database that requests share.
    pub db_connections: u32,
    /// The networks `GET /metrics` answers (`--metrics-from`).
    pub metrics_from: Vec<IpNet>,
    /// Who may make an account on the pages (`--signup`).
    pub signup: Signup,
    /// The address people reach the server at (`--public-url`): forms must
    /// come from its origin, and its cookies are `Secure` when it is https.
    pub public_url: Option<url::Url>,
    /// How long a browser stays signed in.
    pub session_lifetime: Duration,
    /// Sign-in attempts a minute for one account name; an address has
    /// three times as many.
    pub sign_ins_per_minute: u32,
    /// Challenges at once and games a day per account, games a challenge.
    pub challenges: ludus_leaderboard::challenge::ChallengeLimits,
    /// The share of the workers' time challenges take when ordinary
    /// ladders have work too, written to the database's settings at start
    /// (every worker of the database reads it); `None` leaves it as set.
    pub challenge_share: Option<f64>,
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
            schedule_every: Duration::from_millis(100),
            continuous: ContinuousConfig::default(),
            connections: ConnectionLimits {
                max_connections: 1024,
                header_timeout: Duration::from_secs(10),
            },
            body_timeout: Duration::from_secs(60),
            request_timeout: Duration::from_secs(120),
            uploads_at_once: 8,
            uploads_per_address: 2,
            trusted_proxies: Vec::new(),
            house: None,
            regenerations_at_once: 1,
            replay_cache_bytes: 64 << 20,
            db_connections: 8,
            metrics_from: crate::metrics::loopback(),
            signup: Signup::Closed,
            public_url: None,
            session_lifetime: Duration::from_secs(14 * 24 * 3600),
            sign_ins_per_minute: 10,
            challenges: Default::default(),
            challenge_share: None,
        }
    }
}

#[derive(Clone)]
pub struct AppState(Arc<Inner>);

struct Inner {
    config: ServerConfig,
    /// Dropped by hand, see `Drop for Inner`.
    pool: ManuallyDrop<Pool>,
    sandbox: Arc<Sandbox>,
    checks: Semaphore,
    uploads: Semaphore,
    /// Password hashes at once: one a core (see [`AppState::password_work`]).
    hashes: Semaphore,
    limits: Arc<Limits>,
    sign_ins: crate::rate_limit::SignInLimits,
    /// Dropped by hand, with the pool it shares.
    renders: ManuallyDrop<Renders>,
    stopping: Arc<AtomicBool>,
    /// Wakes the scheduler: bots changed, or results came in.
    wake: Arc<tokio::sync::Notify>,
    /// Whether bots were stored or retired since the scheduler last looked.
    bots_changed: AtomicBool,
    metrics: crate::metrics::Metrics,
}

impl Drop for Inner {
    /// A PostgreSQL client closes by blocking on a runtime of its own, which
    /// panics on a thread of the server's; the last handle may go on one,
    /// so the pool's connections are closed on a thread of their own.
    fn drop(&mut self) {
        // SAFETY: `pool` and `renders` are not used again; this is the one
        // place they are taken.
        let (pool, renders) = unsafe {
            (
                ManuallyDrop::take(&mut self.pool),
                ManuallyDrop::take(&mut self.renders),
            )
        };
        std::thread::scope(|s| {
            s.spawn(move || drop((renders, pool)));
        });
    }
}

/// How long a server that starts waits for a database that is restarting
/// or out of reach before it gives up.
pub const WAIT_FOR_THE_DATABASE: Duration = Duration::from_secs(60);

/// Connects to `db`, waiting up to [`WAIT_FOR_THE_DATABASE`] while the
/// failure is one that trying again mends (a database restarting, out of
/// reach for a moment), as workers do: a server started again beside a
/// restarting database comes up with it instead of exiting.
pub fn connect_waiting(db: &Location) -> Result<Store, StoreError> {
    // Wall-clock time only paces the tries.
    let start = std::time::Instant::now();
    let mut wait = Duration::from_millis(100);
    loop {
        match Store::connect(db) {
            Err(e) if e.is_transient() && start.elapsed() < WAIT_FOR_THE_DATABASE => {
                pool::outage_warning(&format!("waiting for the database: {e}"));
                std::thread::sleep(wait);
                wait = (wait * 2).min(Duration::from_secs(5));
            }
            other => return other,
        }
    }
}

impl AppState {
    /// Opens (or creates) the database and the sandbox; refuses game
    /// configs that a game or an existing ladder does not take.
    pub async fn open(config: ServerConfig) -> anyhow::Result<AppState> {
        let db = config.db.clone();
        let continuous = config.continuous.clone();
        let share = config.challenge_share;
        let (store, sandbox) = tokio::task::spawn_blocking(move || {
            // Made or migrated here, once; the pool's connections find it so.
            let store = connect_waiting(&db)?;
            continuous.check_game_configs(&store)?;
            if let Some(share) = share {
                store.settings().set_challenge_share(share)?;
            }
            // Results stay; their replays are gone unless kept first.
            for (ladder, n, why) in ludus_leaderboard::replays::lost(&store)? {
                tracing::warn!(
                    ladder,
                    "{n} matches of ladder {ladder} have no stored replay, and this Ludus cannot regenerate them ({why}); their results are shown, their replays are not"
                );
            }
            anyhow::Ok((store, Sandbox::new()?))
        })
        .await??;
        tokio::task::spawn_blocking(move || {
            drop(store);
            Ok(AppState::new(config, Arc::new(sandbox))?)
        })
        .await?
    }

    /// The state of a server on `config.db`, which must exist at this
    /// Ludus's schema; opens the pool's first connection. Blocks: call it
    /// off the async runtime's threads.
    pub fn new(config: ServerConfig, sandbox: Arc<Sandbox>) -> Result<AppState, StoreError> {
        let pool = pool::open(&config.db, config.db_connections)?;
        let limits = Limits::new(
            config.rate_per_second,
            config.rate_burst,
            config.uploads_per_address,
        );
        Ok(AppState(Arc::new(Inner {
            checks: Semaphore::new(config.checks_at_once.max(1)),
            uploads: Semaphore::new(config.uploads_at_once.max(1)),
            hashes: Semaphore::new(
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            ),
            limits: Arc::new(limits),
            sign_ins: crate::rate_limit::SignInLimits::new(config.sign_ins_per_minute),
            renders: ManuallyDrop::new(Renders::new(
                pool.clone(),
                sandbox.clone(),
                config.regenerations_at_once,
                config.replay_cache_bytes,
            )),
            config,
            pool: ManuallyDrop::new(pool),
            sandbox,
            stopping: Arc::new(AtomicBool::new(false)),
            wake: Arc::new(tokio::sync::Notify::new()),
            bots_changed: AtomicBool::new(true),
            metrics: crate::metrics::Metrics::default(),
        })))
    }

    /// The counters `GET /metrics` reports.
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.0.metrics
    }

    pub fn config(&self) -> &ServerConfig {
        &self.0.config
    }

    pub fn sandbox(&self) -> &Arc<Sandbox> {
        &self.0.sandbox
    }

    /// The replays being rendered, and those kept.
    pub fn renders(&self) -> &Renders {
        &self.0.renders
    }

    /// The rate limits and the uploads in progress per address.
    pub fn limits(&self) -> &Arc<Limits> {
        &self.0.limits
    }

    /// The limits on sign-in and sign-up attempts.
    pub fn sign_ins(&self) -> &crate::rate_limit::SignInLimits {
        &self.0.sign_ins
    }

    /// A place among the uploads received or validated at once; refused
    /// when every place is taken.
    pub fn upload_permit(&self) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
        self.0.uploads.try_acquire().map_err(|_| {
            ApiError::TooMany(
                "the server is taking as many uploads as it can at once; try again shortly".into(),
            )
        })
    }

    /// Tells the scheduler to look again now: a bot was stored or retired,
    /// or results arrived. Wakes it once however often it is called.
    pub fn wake_scheduler(&self) {
        self.0.bots_changed.store(true, Ordering::Relaxed);
        self.0.wake.notify_one();
    }

    /// Tells the scheduler that results arrived: the queues it keeps may
    /// want more matches.
    pub fn results_arrived(&self) {
        self.0.wake.notify_one();
    }

    /// Whether bots were stored or retired since the last call.
    pub(crate) fn take_bots_changed(&self) -> bool {
        self.0.bots_changed.swap(false, Ordering::Relaxed)
    }

    /// What [`AppState::wake_scheduler`] notifies.
    pub(crate) fn wake(&self) -> &Arc<tokio::sync::Notify> {
        &self.0.wake
    }

    pub fn stopping(&self) -> &Arc<AtomicBool> {
        &self.0.stopping
    }

    /// A connection of the pool, on a blocking thread only: waits for one
    /// while all are in use, up to [`pool::WAIT_FOR_A_CONNECTION`], then
    /// the request is told the server is busy (503).
    pub fn connection(&self) -> Result<pool::Connection, ApiError> {
        self.connection_within(pool::WAIT_FOR_A_CONNECTION)
    }

    /// [`AppState::connection`], waiting `within` at most.
    pub fn connection_within(&self, within: Duration) -> Result<pool::Connection, ApiError> {
        self.0.pool.get_timeout(within).map_err(|e| {
            pool::outage_warning(&format!("no connection to the database: {e}"));
            ApiError::Unavailable
        })
    }

    /// Runs `f` with the store on a blocking thread.
    pub async fn with_store<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let state = self.clone();
        tokio::task::spawn_blocking(move || f(&*state.connection()?))
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

    /// Runs `f`, a password's hashing or verification, on a blocking
    /// thread, no more at once than the machine has cores. Each takes tens
    /// of milliseconds and about 19 MiB: sign-ins from many addresses at
    /// once wait their turn (bounded by the request timeout) instead of
    /// taking every blocking thread and their memory.
    pub async fn password_work<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let _permit = self
            .0
            .hashes
            .acquire()
            .await
            .expect("the semaphore is never closed");
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|e| ApiError::Internal(format!("a blocking task failed: {e}")))
    }
}

/// Who may make an account on the pages (`ludus serve --signup`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Signup {
    /// Nobody: the operator makes accounts (`ludus user add`).
    #[default]
    Closed,
    /// Whoever has a one-time code of the operator's (`ludus user invite`).
    Invite,
    /// Anyone.
    Open,
}

impl std::str::FromStr for Signup {
    type Err = String;

    fn from_str(s: &str) -> Result<Signup, String> {
        match s {
            "closed" => Ok(Signup::Closed),
            "invite" => Ok(Signup::Invite),
            "open" => Ok(Signup::Open),
            _ => Err(format!(
                "`{s}` is not a sign-up mode: closed, invite or open"
            )),
        }
    }
}

impl std::fmt::Display for Signup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Signup::Closed => "closed",
            Signup::Invite => "invite",
            Signup::Open => "open",
        })
    }
}
