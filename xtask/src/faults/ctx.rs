//! What the run's actions and checks share: the shape, the processes, the
//! database, the accounts, the journal.

use crate::faults::db::Db;
use crate::faults::journal::Journal;
use crate::faults::procs::{self, Fleet};
use crate::faults::schedule::Shape;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// What the run's actions share.
pub struct Ctx {
    pub shape: Shape,
    pub seed: u64,
    pub binary: PathBuf,
    pub dir: PathBuf,
    pub bots: PathBuf,
    pub db: Db,
    pub env: Vec<(String, String)>,
    /// Each server's index in the fleet and its URL.
    pub servers: Vec<(usize, String)>,
    pub workers: Vec<usize>,
    /// The tokens of accounts `u0`, `u1`, ….
    pub tokens: Vec<String>,
    pub quota_token: String,
    pub fleet: Arc<Fleet>,
    pub journal: Arc<Journal>,
    pub cluster: Option<Arc<ludus_testkit::postgres::Cluster>>,
    /// Filled at the end: the processes down or frozen before the stop.
    pub not_running_at_end: std::sync::Mutex<Vec<String>>,
}

impl Ctx {
    pub fn server_url(&self, server: usize) -> String {
        self.servers[server].1.clone()
    }

    /// `planned` if it runs unfrozen, else another that does, else `planned`.
    pub fn pick_server(&self, planned: usize) -> usize {
        let n = self.servers.len();
        (0..n)
            .map(|k| (planned + k) % n)
            .find(|&s| self.fleet.available(self.servers[s].0))
            .unwrap_or(planned % n)
    }

    /// A `ludus` command, run to its end (or killed after `timeout`).
    pub fn ludus(&self, args: &[String], timeout: Duration) -> Result<procs::CmdOut, String> {
        let mut cmd = std::process::Command::new(&self.binary);
        cmd.args(args)
            .current_dir(&self.dir)
            .env_remove("LUDUS_DB")
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        procs::run_command(&mut cmd, timeout)
    }
}
