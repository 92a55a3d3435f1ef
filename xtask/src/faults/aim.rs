//! A freeze aimed at a lock: SIGSTOP of a `ludus worker` at a moment one of
//! its PostgreSQL sessions holds an advisory lock (a ladder's rating lock,
//! taken inside a transaction), so that the run shows whether a lock held
//! by a frozen process holds the others up. A random SIGSTOP lands there
//! rarely: a rating takes milliseconds a second.
//!
//! The harness watches `pg_locks` through one `psql` session, a query every
//! millisecond or so, and matches each session to its process by the
//! session's client port and the process's sockets (`/proc/PID/fd`,
//! `/proc/PID/net/tcp`). Once the worker is stopped it looks again: a
//! lock released in the meantime thaws it, and it tries again.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The sessions of this database that hold an advisory lock: their client
/// ports and the locks' keys.
const HOLDERS: &str = "SELECT a.client_port, l.classid, l.objid, l.objsubid
 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
 WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()
   AND a.client_port IS NOT NULL";

/// One `psql` session, queried line by line.
pub struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

const END: &str = "__ludus_faults_end__";

impl Session {
    pub fn open(psql: &Path, url: &str) -> Result<Session, String> {
        let mut cmd = Command::new(psql);
        cmd.args(["-X", "-A", "-t", "-q", url])
            .env("PGCONNECT_TIMEOUT", "3")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        crate::faults::procs::guard(&mut cmd);
        let mut child = cmd.spawn().map_err(|e| format!("cannot run psql: {e}"))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Session {
            child,
            stdin,
            lines,
        })
    }

    /// The lines `sql` printed; an error when psql went away or took more
    /// than two seconds.
    pub fn query(&mut self, sql: &str) -> Result<Vec<String>, String> {
        writeln!(self.stdin, "{sql};\n\\echo {END}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("psql went away: {e}"))?;
        let mut out = Vec::new();
        loop {
            match self.lines.recv_timeout(Duration::from_secs(2)) {
                Ok(line) if line == END => return Ok(out),
                Ok(line) => out.push(line),
                Err(RecvTimeoutError::Timeout) => return Err("psql did not answer in 2 s".into()),
                Err(RecvTimeoutError::Disconnected) => return Err("psql went away".into()),
            }
        }
    }

    /// The sessions holding an advisory lock: each one's client port,
    /// with the lock's key (`classid/objid/objsubid`).
    pub fn holders(&mut self) -> Result<BTreeMap<u16, String>, String> {
        Ok(self
            .query(HOLDERS)?
            .iter()
            .filter_map(|l| {
                let (port, key) = l.trim().split_once('|')?;
                Some((port.parse().ok()?, key.replace('|', "/")))
            })
            .collect())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        crate::faults::procs::signal_group(self.child.id(), libc::SIGKILL);
        let _ = self.child.wait();
    }
}

/// The local TCP ports of the sockets process `pid` has open.
pub fn local_ports(pid: u32) -> BTreeSet<u16> {
    let mut inodes = BTreeSet::new();
    if let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
        for fd in fds.flatten() {
            if let Ok(target) = std::fs::read_link(fd.path()) {
                let t = target.to_string_lossy();
                if let Some(n) = t.strip_prefix("socket:[").and_then(|r| r.strip_suffix(']')) {
                    inodes.insert(n.to_string());
                }
            }
        }
    }
    let mut ports = BTreeSet::new();
    for table in ["tcp", "tcp6"] {
        let text = std::fs::read_to_string(format!("/proc/{pid}/net/{table}")).unwrap_or_default();
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
            let (Some(local), Some(inode)) = (fields.get(1), fields.get(9)) else {
                continue;
            };
            if inodes.contains(*inode) {
                if let Some(port) = local
                    .rsplit(':')
                    .next()
                    .and_then(|p| u16::from_str_radix(p, 16).ok())
                {
                    ports.insert(port);
                }
            }
        }
    }
    ports
}

/// How an aimed freeze went.
pub struct Aimed {
    /// The worker was stopped holding a lock (else: stopped without one,
    /// none seen in time).
    pub holding: bool,
    /// The key of the lock it held (`classid/objid/objsubid`, as
    /// `pg_locks` shows an advisory lock's two keys).
    pub lock: String,
    /// Stops taken back because the lock was gone by then.
    pub missed: u32,
    pub waited: Duration,
}

/// Stops the process `pid` (through `freeze`) at a moment it holds an
/// advisory lock, within `within`; stops it anyway at the end of it.
pub fn freeze_holding(
    psql: &Path,
    url: &str,
    pid: impl Fn() -> Option<u32>,
    freeze: impl Fn(bool) -> Result<(), String>,
    within: Duration,
) -> Result<Aimed, String> {
    let started = Instant::now();
    let mut missed = 0;
    let mut session: Option<Session> = None;
    let mut ports = BTreeSet::new();
    let mut ports_read = Instant::now() - Duration::from_secs(1);
    while started.elapsed() < within {
        let Some(pid) = pid() else {
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        // Its connections change when it connects again.
        if ports_read.elapsed() > Duration::from_millis(500) {
            ports = local_ports(pid);
            ports_read = Instant::now();
        }
        if session.is_none() {
            match Session::open(psql, url) {
                Ok(s) => session = Some(s),
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(100));
                    continue;
                }
            }
        }
        let s = session.as_mut().expect("opened");
        let holders = match s.holders() {
            Ok(h) => h,
            Err(_) => {
                session = None;
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        if !holders.keys().any(|p| ports.contains(p)) {
            continue;
        }
        freeze(true)?;
        // What it sent before it stopped has arrived by now.
        std::thread::sleep(Duration::from_millis(30));
        let ports = local_ports(pid);
        let held = s.holders().map(|h| {
            h.into_iter()
                .filter(|(p, _)| ports.contains(p))
                .map(|(_, key)| key)
                .collect::<Vec<_>>()
        });
        match held {
            Ok(keys) if !keys.is_empty() => {
                return Ok(Aimed {
                    holding: true,
                    lock: keys.join(", "),
                    missed,
                    waited: started.elapsed(),
                })
            }
            _ => {
                missed += 1;
                freeze(false)?;
            }
        }
    }
    freeze(true)?;
    Ok(Aimed {
        holding: false,
        lock: String::new(),
        missed,
        waited: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_process_s_local_ports_are_found_by_its_sockets() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let client = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let ports = super::local_ports(std::process::id());
        assert!(ports.contains(&port), "{ports:?} lacks {port}");
        let mine = client.local_addr().unwrap().port();
        assert!(ports.contains(&mine), "{ports:?} lacks {mine}");
    }
}
