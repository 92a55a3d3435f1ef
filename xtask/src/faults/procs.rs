//! The processes of a run: each in a process group of its own (a signal
//! reaches all of it), with a parent-death signal (SIGKILL when the
//! harness dies, even by `kill -9` or Ctrl-C), its output appended to
//! files of the run's folder, started again when it ends (as systemd's
//! `Restart=always` would), and killed when the [`Fleet`] is dropped, on an
//! error or a panic too.

use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Makes `cmd` start in a process group of its own and die with the
/// harness (the parent-death signal of the thread that starts it: start
/// long-lived processes from a thread that lives as long as they do).
pub fn guard(cmd: &mut Command) {
    cmd.process_group(0);
    unsafe {
        cmd.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The harness died before the signal was set.
            if libc::getppid() == 1 {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

/// Sends `signal` to the process group of `pid`.
pub fn signal_group(pid: u32, signal: i32) {
    unsafe {
        libc::kill(-(pid as i32), signal);
    }
}

/// A short command's outcome.
#[derive(Debug)]
pub struct CmdOut {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
    pub took: Duration,
}

impl CmdOut {
    pub fn success(&self) -> bool {
        !self.timed_out && self.status.is_some_and(|s| s.success())
    }

    /// Its status and the end of what it wrote to stderr (else stdout), in
    /// a line.
    pub fn describe(&self) -> String {
        let text = if self.stderr.trim().is_empty() {
            &self.stdout
        } else {
            &self.stderr
        };
        let tail = tail_lines(text, 3).join(" / ");
        if self.timed_out {
            format!("timed out after {:.0} s: {tail}", self.took.as_secs_f64())
        } else {
            let status = self.status.map_or("no status".into(), describe_status);
            format!("{status}: {tail}")
        }
    }
}

/// An exit status as people read it: `exit status 1`, `killed by signal 9`.
pub fn describe_status(s: ExitStatus) -> String {
    match (s.code(), s.signal()) {
        (Some(c), _) => format!("exit status {c}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => s.to_string(),
    }
}

/// The last `n` non-empty lines of `text`.
pub fn tail_lines(text: &str, n: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| l.trim().to_string())
        .collect()
}

/// Runs a short command to its end, or kills its process group after
/// `timeout`; its output.
pub fn run_command(cmd: &mut Command, timeout: Duration) -> Result<CmdOut, String> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    guard(cmd);
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run {:?}: {e}", cmd.get_program()))?;
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = pipe.read_to_end(&mut buf);
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = read(Box::new(child.stdout.take().expect("piped")));
    let err = read(Box::new(child.stderr.take().expect("piped")));
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if started.elapsed() < timeout => {
                std::thread::sleep(Duration::from_millis(10))
            }
            Ok(None) => {
                timed_out = true;
                signal_group(child.id(), libc::SIGKILL);
                break child.wait().ok();
            }
            Err(_) => break None,
        }
    };
    // The pipes close when the group is gone.
    signal_group(child.id(), libc::SIGKILL);
    Ok(CmdOut {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
        took: started.elapsed(),
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Server,
    Worker,
}

/// Why a process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The harness killed it (`kill -9`).
    Killed,
    /// Nobody asked it to.
    OnItsOwn,
    /// SIGTERM at the end of the run.
    Terminated,
}

/// One end of one of a process's lives.
#[derive(Debug, Clone)]
pub struct Exit {
    pub process: String,
    /// Seconds since the run started.
    pub at: f64,
    pub cause: Cause,
    pub status: String,
    pub success: bool,
    /// The last lines it wrote to stderr in that life.
    pub tail: Vec<String>,
}

struct Proc {
    role: Role,
    name: String,
    args: Vec<String>,
    out: PathBuf,
    err: PathBuf,
    child: Option<Child>,
    /// Where this life's output starts in the files.
    out_from: u64,
    err_from: u64,
    frozen: bool,
    /// When a process that is down starts again.
    restart_at: Option<Instant>,
    lives: u32,
}

/// The run's long-lived processes.
pub struct Fleet {
    procs: Mutex<Vec<Proc>>,
    binary: PathBuf,
    dir: PathBuf,
    env: Vec<(String, String)>,
    t0: Instant,
    exits: Mutex<Vec<Exit>>,
}

/// How long a process that ended on its own waits before it starts again.
const RESTART_DELAY: Duration = Duration::from_secs(1);

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// The text of `path` from byte `from` on.
pub fn read_from(path: &Path, from: u64) -> String {
    let mut buf = Vec::new();
    if let Ok(mut f) = std::fs::File::open(path) {
        let _ = f.seek(SeekFrom::Start(from));
        let _ = f.read_to_end(&mut buf);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

impl Fleet {
    pub fn new(binary: &Path, dir: &Path, env: Vec<(String, String)>, t0: Instant) -> Fleet {
        Fleet {
            procs: Mutex::new(Vec::new()),
            binary: binary.to_path_buf(),
            dir: dir.to_path_buf(),
            env,
            t0,
            exits: Mutex::new(Vec::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Proc>> {
        self.procs.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn secs(&self) -> f64 {
        self.t0.elapsed().as_secs_f64()
    }

    fn spawn(&self, p: &mut Proc) -> Result<(), String> {
        let open = |path: &Path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        let (out, err) = (open(&p.out)?, open(&p.err)?);
        p.out_from = file_len(&p.out);
        p.err_from = file_len(&p.err);
        let mut cmd = Command::new(&self.binary);
        cmd.args(&p.args)
            .current_dir(&self.dir)
            .env_remove("LUDUS_DB")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err);
        guard(&mut cmd);
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {} ({}): {e}", p.name, self.binary.display()))?;
        p.child = Some(child);
        p.frozen = false;
        p.restart_at = None;
        p.lives += 1;
        Ok(())
    }

    /// Starts a process; its index.
    pub fn start(&self, role: Role, name: &str, args: Vec<String>) -> Result<usize, String> {
        let file = name.replace(' ', "-");
        let mut p = Proc {
            role,
            name: name.to_string(),
            args,
            out: self.dir.join(format!("{file}.out")),
            err: self.dir.join(format!("{file}.err")),
            child: None,
            out_from: 0,
            err_from: 0,
            frozen: false,
            restart_at: None,
            lives: 0,
        };
        self.spawn(&mut p)?;
        let mut procs = self.lock();
        procs.push(p);
        Ok(procs.len() - 1)
    }

    fn record_exit(&self, p: &mut Proc, status: Option<ExitStatus>, cause: Cause) {
        let text = read_from(&p.err, p.err_from);
        self.exits
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Exit {
                process: p.name.clone(),
                at: self.secs(),
                cause,
                status: status.map_or("no status".into(), describe_status),
                success: status.is_some_and(|s| s.success()),
                tail: tail_lines(&text, 6),
            });
    }

    /// Reaps the processes that ended on their own (recorded, and started
    /// again a second later) and starts again those whose time has come;
    /// what happened, a line each.
    pub fn tick(&self) -> Vec<String> {
        let mut said = Vec::new();
        let now = Instant::now();
        let mut procs = self.lock();
        for p in procs.iter_mut() {
            if let Some(child) = p.child.as_mut() {
                if let Ok(Some(status)) = child.try_wait() {
                    p.child = None;
                    self.record_exit(p, Some(status), Cause::OnItsOwn);
                    said.push(format!(
                        "{} ended on its own ({}){}",
                        p.name,
                        describe_status(status),
                        tail_lines(&read_from(&p.err, p.err_from), 1)
                            .first()
                            .map(|l| format!(": {l}"))
                            .unwrap_or_default()
                    ));
                    p.restart_at = Some(now + RESTART_DELAY);
                }
            }
            if p.child.is_none() && p.restart_at.is_some_and(|at| at <= now) {
                match self.spawn(p) {
                    Ok(()) => said.push(format!("{} started again", p.name)),
                    Err(e) => {
                        said.push(e);
                        p.restart_at = Some(now + RESTART_DELAY);
                    }
                }
            }
        }
        said
    }

    /// `kill -9` of process `i`'s group; it starts again after `down`.
    pub fn kill9(&self, i: usize, down: Duration) -> Result<(), String> {
        let mut procs = self.lock();
        let p = &mut procs[i];
        let Some(mut child) = p.child.take() else {
            return Err(format!("{} is not running", p.name));
        };
        signal_group(child.id(), libc::SIGKILL);
        let status = child.wait().ok();
        self.record_exit(p, status, Cause::Killed);
        p.frozen = false;
        p.restart_at = Some(Instant::now() + down);
        Ok(())
    }

    /// SIGSTOP (`true`) or SIGCONT (`false`) to process `i`'s group.
    pub fn freeze(&self, i: usize, frozen: bool) -> Result<(), String> {
        let mut procs = self.lock();
        let p = &mut procs[i];
        let Some(child) = p.child.as_ref() else {
            return Err(format!("{} is not running", p.name));
        };
        signal_group(
            child.id(),
            if frozen { libc::SIGSTOP } else { libc::SIGCONT },
        );
        p.frozen = frozen;
        Ok(())
    }

    /// SIGCONT to every frozen process.
    pub fn thaw_all(&self) -> Vec<String> {
        let mut thawed = Vec::new();
        for p in self.lock().iter_mut() {
            if let Some(child) = p.child.as_ref() {
                signal_group(child.id(), libc::SIGCONT);
            }
            if std::mem::take(&mut p.frozen) {
                thawed.push(p.name.clone());
            }
        }
        thawed
    }

    /// Starts at once every process that is down.
    pub fn restart_all_now(&self) {
        let now = Instant::now();
        for p in self.lock().iter_mut() {
            if p.child.is_none() {
                p.restart_at = Some(now);
            }
        }
    }

    /// Whether process `i` is running and not frozen.
    pub fn available(&self, i: usize) -> bool {
        let procs = self.lock();
        procs[i].child.is_some() && !procs[i].frozen
    }

    /// Processes of `role` running and not frozen.
    pub fn available_of(&self, role: Role) -> usize {
        self.lock()
            .iter()
            .filter(|p| p.role == role && p.child.is_some() && !p.frozen)
            .count()
    }

    /// The processes that are down or frozen, by name.
    pub fn not_running(&self) -> Vec<String> {
        self.lock()
            .iter()
            .filter(|p| p.child.is_none() || p.frozen)
            .map(|p| p.name.clone())
            .collect()
    }

    /// Process `i`'s pid while it runs.
    pub fn pid(&self, i: usize) -> Option<u32> {
        self.lock()[i].child.as_ref().map(Child::id)
    }

    /// The processes running now (frozen ones too): name, pid, frozen.
    pub fn running(&self) -> Vec<(String, u32, bool)> {
        self.lock()
            .iter()
            .filter_map(|p| Some((p.name.clone(), p.child.as_ref()?.id(), p.frozen)))
            .collect()
    }

    pub fn name(&self, i: usize) -> String {
        self.lock()[i].name.clone()
    }

    /// Waits up to `timeout` for a line containing `needle` in what process
    /// `i` wrote to stdout in its current life; the line.
    pub fn wait_for_line(&self, i: usize, needle: &str, timeout: Duration) -> Option<String> {
        let started = Instant::now();
        while started.elapsed() < timeout {
            let (out, from, running) = {
                let procs = self.lock();
                (
                    procs[i].out.clone(),
                    procs[i].out_from,
                    procs[i].child.is_some(),
                )
            };
            if let Some(line) = read_from(&out, from).lines().find(|l| l.contains(needle)) {
                return Some(line.to_string());
            }
            if !running {
                return None;
            }
            self.tick();
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// SIGCONT, then SIGTERM to every process, each given `timeout` to end
    /// (then killed); each ending recorded.
    pub fn terminate_all(&self, timeout: Duration) {
        let mut procs = self.lock();
        for p in procs.iter_mut() {
            p.restart_at = None;
            if let Some(child) = p.child.as_ref() {
                signal_group(child.id(), libc::SIGCONT);
                unsafe {
                    libc::kill(child.id() as i32, libc::SIGTERM);
                }
            }
        }
        let started = Instant::now();
        for p in procs.iter_mut() {
            let Some(mut child) = p.child.take() else {
                continue;
            };
            let status = loop {
                match child.try_wait() {
                    Ok(Some(s)) => break Some(s),
                    Ok(None) if started.elapsed() < timeout => {
                        std::thread::sleep(Duration::from_millis(20))
                    }
                    _ => {
                        signal_group(child.id(), libc::SIGKILL);
                        let _ = child.wait();
                        break None;
                    }
                }
            };
            // Anything it started goes with it.
            signal_group(child.id(), libc::SIGKILL);
            self.record_exit(p, status, Cause::Terminated);
            if status.is_none() {
                let mut exits = self.exits.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(last) = exits.last_mut() {
                    last.status = format!(
                        "still running {:.0} s after SIGTERM: killed",
                        timeout.as_secs_f64()
                    );
                }
            }
        }
    }

    /// Every end of every process so far.
    pub fn exits(&self) -> Vec<Exit> {
        self.exits.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Each process's name, its stdout and stderr files, and its lives.
    pub fn files(&self) -> Vec<(String, PathBuf, PathBuf, u32)> {
        self.lock()
            .iter()
            .map(|p| (p.name.clone(), p.out.clone(), p.err.clone(), p.lives))
            .collect()
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for p in self.lock().iter_mut() {
            if let Some(mut child) = p.child.take() {
                signal_group(child.id(), libc::SIGKILL);
                let _ = child.wait();
            }
        }
    }
}
