//! A throw-away PostgreSQL cluster for tests and benchmarks: Debian's
//! server binaries (installed with apt when they are missing), a data
//! folder in the system's temporary folder, a free loopback port, trust
//! authentication for the user `ludus`, and no Unix socket. Removed when
//! dropped, or, for the cluster a test process shares
//! ([`shared`]), when the process exits.
//!
//! initdb and the server refuse to run as root: when the tests run as root
//! they run as the `postgres` system user (which Debian's package makes),
//! and as the current user otherwise. The server is started from a thread
//! that waits for it, with a parent-death signal: if the test process dies,
//! the server dies with it. [`Cluster::restart`] stops it as `pg_ctl restart
//! -m fast|immediate` would and starts it again on its port and data, the
//! same way (the fault-injection run restarts the database under Ludus).

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};
use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A (single-threaded) process's CPU time so far, from its `schedstat`;
/// zero once it has ended. Linux only.
pub fn process_cpu_time(pid: u32) -> Duration {
    std::fs::read_to_string(format!("/proc/{pid}/schedstat"))
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// The major version the tests use, from Debian's `postgresql-15`.
pub const MAJOR: u32 = 15;

/// How durable the cluster's commits are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// fsync off: fast, for tests (a crash of the machine loses the cluster,
    /// which is thrown away anyway).
    Scratch,
    /// The server's defaults: what an operator runs, for benchmarks.
    Durable,
}

/// How [`Cluster::restart`] stops the server, as `pg_ctl stop -m` names
/// the modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shutdown {
    /// SIGINT: sessions are ended, transactions rolled back, a checkpoint
    /// written; the server starts again without recovery.
    Fast,
    /// SIGQUIT: every process quits at once, as in a crash; the server
    /// replays its WAL when it starts again.
    Immediate,
}

/// A running cluster.
#[derive(Debug)]
pub struct Cluster {
    port: u16,
    root: PathBuf,
    bin: PathBuf,
    /// The server's (postmaster's) pid: a restart changes it.
    pid: AtomicI32,
    durability: Durability,
    owner: Option<(u32, u32)>,
    /// Held while the server restarts, so that restarts take turns.
    restarting: Mutex<()>,
    databases: AtomicU32,
}

impl Cluster {
    /// Starts a new cluster. Errors say what is missing.
    pub fn start(durability: Durability) -> Result<Cluster, String> {
        let bin = server_binaries()?;
        let owner = unprivileged_owner()?;
        let root = tempfile::Builder::new()
            .prefix("ludus-pg-")
            .tempdir()
            .map_err(|e| format!("cannot make a folder for PostgreSQL: {e}"))?
            .keep();
        let cleanup = |e: String| {
            let _ = std::fs::remove_dir_all(&root);
            e
        };
        if let Some((uid, gid)) = owner {
            chown(&root, uid, gid).map_err(cleanup)?;
        }
        let data = root.join("data");
        let mut initdb = Command::new(bin.join("initdb"));
        initdb
            .arg("-D")
            .arg(&data)
            .args([
                "-U",
                "ludus",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ])
            .current_dir(&root)
            .stdin(Stdio::null());
        as_owner(&mut initdb, owner);
        let out = initdb
            .output()
            .map_err(|e| cleanup(format!("cannot run initdb: {e}")))?;
        if !out.status.success() {
            return Err(cleanup(format!(
                "initdb failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        // A port can be taken between finding it free and the server binding it: try again.
        let mut last = String::new();
        for _ in 0..5 {
            let port = free_port().map_err(cleanup)?;
            match start_server(&bin, &root, &data, port, durability, owner) {
                Ok(pid) => {
                    return Ok(Cluster {
                        port,
                        root,
                        bin,
                        pid: AtomicI32::new(pid),
                        durability,
                        owner,
                        restarting: Mutex::new(()),
                        databases: AtomicU32::new(0),
                    })
                }
                Err(e) => last = e,
            }
        }
        Err(cleanup(format!(
            "the PostgreSQL server did not start: {last}"
        )))
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The server's log (every start of it, appended).
    pub fn log(&self) -> PathBuf {
        self.root.join(format!("server-{}.log", self.port))
    }

    /// The server's (postmaster's) pid, which a restart changes.
    pub fn pid(&self) -> i32 {
        self.pid.load(Ordering::SeqCst)
    }

    /// Stops the server as `pg_ctl stop -m fast` or `-m immediate` does
    /// (SIGINT or SIGQUIT to the postmaster), waits for it to end, and
    /// starts it again on the same port with the same data, returning once
    /// it accepts connections: `pg_ctl restart`, keeping the server a
    /// child of this process (with its parent-death signal), which
    /// `pg_ctl`'s own restart would not. Returns how long the server was
    /// away. Restarts from several threads take turns.
    pub fn restart(&self, how: Shutdown) -> Result<Duration, String> {
        self.restart_after(how, Duration::ZERO)
    }

    /// [`Cluster::restart`], the server staying down for `down` between
    /// its end and its start: what a process started meanwhile meets.
    pub fn restart_after(&self, how: Shutdown, down: Duration) -> Result<Duration, String> {
        let _turn = self.restarting.lock().unwrap_or_else(|e| e.into_inner());
        let started = Instant::now();
        let pid = self.pid();
        let signal = match how {
            Shutdown::Fast => libc::SIGINT,
            Shutdown::Immediate => libc::SIGQUIT,
        };
        unsafe { libc::kill(pid, signal) };
        // The thread that started it reaps it as it ends.
        while unsafe { libc::kill(pid, 0) } == 0 {
            if started.elapsed() > Duration::from_secs(60) {
                unsafe { libc::kill(pid, libc::SIGKILL) };
                return Err(format!(
                    "the PostgreSQL server (pid {pid}) did not stop within 60 s of {how:?} shutdown"
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        std::thread::sleep(down);
        let data = self.root.join("data");
        // The port is ours: it was the server's a moment ago. An immediate
        // shutdown leaves its children a moment to go: try a few times.
        let mut last = String::new();
        for _ in 0..5 {
            match start_server(
                &self.bin,
                &self.root,
                &data,
                self.port,
                self.durability,
                self.owner,
            ) {
                Ok(pid) => {
                    self.pid.store(pid, Ordering::SeqCst);
                    return Ok(started.elapsed());
                }
                Err(e) => last = e,
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        Err(format!(
            "the PostgreSQL server did not start again on port {}: {last}",
            self.port
        ))
    }

    /// The server's CPU time so far: its main process's, its live
    /// children's (backends, WAL writer, checkpointer, autovacuum), and its
    /// ended children's (autovacuum workers come and go; the kernel adds an
    /// ended child's time to its parent's, in ticks of 1/100 s). Linux only.
    pub fn cpu_time(&self) -> Duration {
        let stat_fields = |pid: &str| -> Option<Vec<u64>> {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let rest = &stat[stat.rfind(')')? + 2..];
            Some(
                rest.split_whitespace()
                    .map(|x| x.parse().unwrap_or(0))
                    .collect(),
            )
        };
        let server = self.pid();
        let mut total = process_cpu_time(server as u32);
        if let Some(f) = stat_fields(&server.to_string()) {
            // cutime and cstime: the 16th and 17th fields.
            total += Duration::from_millis((f[13] + f[14]) * 10);
        }
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let pid = entry.file_name().to_string_lossy().into_owned();
            // ppid: the 4th field, the 2nd after the name.
            let child = pid.bytes().all(|b| b.is_ascii_digit())
                && stat_fields(&pid).is_some_and(|f| f[1] == server as u64);
            if child {
                total += process_cpu_time(pid.parse().unwrap_or(0));
            }
        }
        total
    }

    /// A program of the cluster's PostgreSQL (`pg_dump`, `pg_restore`).
    pub fn program(&self, name: &str) -> PathBuf {
        self.bin.join(name)
    }

    /// The URL of database `name` of this cluster.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://ludus@127.0.0.1:{}/{name}", self.port)
    }

    /// A new, empty database; returns its URL.
    pub fn create_database(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            self.databases.fetch_add(1, Ordering::Relaxed)
        );
        let out = Command::new(self.bin.join("createdb"))
            .args([
                "-h",
                "127.0.0.1",
                "-U",
                "ludus",
                "-p",
                &self.port.to_string(),
                &name,
            ])
            .stdin(Stdio::null())
            .output()
            .expect("createdb runs");
        assert!(
            out.status.success(),
            "createdb {name} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.url(&name)
    }

    /// Runs SQL on database `name` with psql and returns its output
    /// (unaligned, tuples only): for tests that look under the store.
    pub fn psql(&self, url: &str, sql: &str) -> String {
        let out = Command::new(self.bin.join("psql"))
            .args(["-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql, url])
            .stdin(Stdio::null())
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "psql failed on {sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    fn stop(&self) {
        // Not while a restart starts it again.
        let _turn = self.restarting.lock().unwrap_or_else(|e| e.into_inner());
        let pid = self.pid();
        // SIGQUIT: immediate shutdown, the cluster is thrown away.
        unsafe { libc::kill(pid, libc::SIGQUIT) };
        let start = Instant::now();
        while unsafe { libc::kill(pid, 0) } == 0 && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The cluster this test process shares, started on first use, stopped and
/// removed when the process exits.
///
/// # Panics
/// When no cluster can be started: the tests that need one cannot run.
pub fn shared() -> &'static Cluster {
    static SHARED: OnceLock<Cluster> = OnceLock::new();
    extern "C" fn stop_shared() {
        if let Some(c) = SHARED.get() {
            c.stop();
        }
    }
    SHARED.get_or_init(|| {
        let c = Cluster::start(Durability::Scratch).unwrap_or_else(|e| panic!("{e}"));
        unsafe { libc::atexit(stop_shared) };
        c
    })
}

/// The server binaries of PostgreSQL 15 (or the newest installed),
/// installing Debian's `postgresql-15` when there are none.
fn server_binaries() -> Result<PathBuf, String> {
    let find = || -> Option<PathBuf> {
        let preferred = PathBuf::from(format!("/usr/lib/postgresql/{MAJOR}/bin"));
        if preferred.join("initdb").is_file() {
            return Some(preferred);
        }
        let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| {
                let e = e.ok()?;
                let major = e.file_name().to_str()?.parse().ok()?;
                let bin = e.path().join("bin");
                bin.join("initdb").is_file().then_some((major, bin))
            })
            .collect();
        found.sort();
        found.pop().map(|(_, bin)| bin)
    };
    if let Some(bin) = find() {
        return Ok(bin);
    }
    crate::apt_install(&[&format!("postgresql-{MAJOR}")])
        .or_else(|_| crate::apt_install(&["postgresql"]))?;
    find().ok_or_else(|| {
        format!("no PostgreSQL server binaries in /usr/lib/postgresql even after installing postgresql-{MAJOR}")
    })
}

/// The user to run initdb and the server as: none (ourselves) unless we
/// are root, then `postgres`.
fn unprivileged_owner() -> Result<Option<(u32, u32)>, String> {
    if unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    let name = std::ffi::CString::new("postgres").expect("no NUL");
    let pw = unsafe { libc::getpwnam(name.as_ptr()) };
    if pw.is_null() {
        return Err("the tests run as root, and PostgreSQL refuses to; but there is no `postgres` user to run it as (install Debian's postgresql package, which makes it)".into());
    }
    let (uid, gid) = unsafe { ((*pw).pw_uid, (*pw).pw_gid) };
    Ok(Some((uid, gid)))
}

fn as_owner(cmd: &mut Command, owner: Option<(u32, u32)>) {
    if let Some((uid, gid)) = owner {
        cmd.uid(uid).gid(gid);
    }
}

fn chown(path: &Path, uid: u32, gid: u32) -> Result<(), String> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).expect("no NUL in a temp path");
    if unsafe { libc::chown(c.as_ptr(), uid, gid) } != 0 {
        return Err(format!(
            "cannot give {} to the postgres user: {}",
            path.display(),
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free loopback port: {e}"))
}

/// Starts the server on `port` from a thread that waits for it (so that
/// its parent-death signal fires only if the whole process dies), and
/// returns its pid once it accepts connections.
fn start_server(
    bin: &Path,
    root: &Path,
    data: &Path,
    port: u16,
    durability: Durability,
    owner: Option<(u32, u32)>,
) -> Result<i32, String> {
    let log = root.join(format!("server-{port}.log"));
    // Appended to: a restart keeps what the server logged before it.
    let log_file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .map_err(|e| format!("cannot write {}: {e}", log.display()))?;
    if let Some((uid, gid)) = owner {
        chown(&log, uid, gid)?;
    }
    let mut cmd = Command::new(bin.join("postgres"));
    cmd.arg("-D")
        .arg(data)
        .args(["-p", &port.to_string()])
        .args(["-c", "listen_addresses=127.0.0.1"])
        .args(["-c", "unix_socket_directories="])
        .args(["-c", "max_connections=200"]);
    // To explain what is slow (docs/faults.md): the plan of every
    // statement slower than this many milliseconds, in the log.
    if let Ok(ms) = std::env::var("LUDUS_PG_EXPLAIN_MS") {
        cmd.args(["-c", "session_preload_libraries=auto_explain", "-c"])
            .arg(format!("auto_explain.log_min_duration={ms}"));
    }
    if durability == Durability::Scratch {
        cmd.args([
            "-c",
            "fsync=off",
            "-c",
            "synchronous_commit=off",
            "-c",
            "full_page_writes=off",
        ]);
    }
    cmd.current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log_file);
    as_owner(&mut cmd, owner);
    unsafe {
        cmd.pre_exec(|| {
            // After the change of user (std makes it before this runs), so
            // that the signal is kept across exec.
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name(format!("postgres-{port}"))
        .spawn(move || match cmd.spawn() {
            Ok(mut child) => {
                let _ = tx.send(Ok(child.id() as i32));
                let _ = child.wait();
            }
            Err(e) => {
                let _ = tx.send(Err(format!("cannot start postgres: {e}")));
            }
        })
        .map_err(|e| format!("cannot start a thread: {e}"))?;
    let pid = rx
        .recv()
        .map_err(|_| "the server thread ended".to_string())??;
    let start = Instant::now();
    loop {
        let ready = Command::new(bin.join("pg_isready"))
            .args([
                "-q",
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-U",
                "ludus",
            ])
            .status()
            .is_ok_and(|s| s.success());
        if ready {
            return Ok(pid);
        }
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        if !alive || start.elapsed() > Duration::from_secs(60) {
            unsafe { libc::kill(pid, libc::SIGQUIT) };
            return Err(format!(
                "it stopped or did not answer within 60 s: {}",
                std::fs::read_to_string(&log).unwrap_or_default().trim()
            ));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
