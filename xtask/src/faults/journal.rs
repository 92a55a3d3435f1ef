//! What happened during a run, with its times: every fault injected, every
//! upload and its answer, every command and request, the windows during
//! which a fault held a process or the database.
//! Times are seconds since the run's processes started; the fault phase
//! starts at [`Journal::phase`].

use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

/// One fault injected.
#[derive(Debug, Clone)]
pub struct FaultRecord {
    pub kind: &'static str,
    pub label: String,
    /// Its offset in the schedule.
    pub planned: f64,
    pub at: f64,
    /// When its effect ended (a process back, the database up, a game
    /// resumed, a request answered).
    pub end: Option<f64>,
    pub outcome: String,
}

/// One upload and its answer.
#[derive(Debug, Clone)]
pub struct UploadRecord {
    pub at: f64,
    pub end: f64,
    pub account: String,
    pub name: String,
    pub game: String,
    pub server: usize,
    pub candidate: bool,
    /// The sha256 of the bytes sent.
    pub sent_sha256: String,
    pub status: Option<u16>,
    pub body: String,
    /// From an answer 201: the version and sha256 the server stored.
    pub version: Option<u64>,
    pub sha256: Option<String>,
    /// One of the quota burst's.
    pub burst: bool,
}

impl UploadRecord {
    pub fn acknowledged(&self) -> bool {
        matches!(self.status, Some(200 | 201)) && self.sha256.is_some()
    }
}

/// A command or request of the run other than an upload: `season new`,
/// `ladder pause`, a challenge, the `sqlite3` reader.
#[derive(Debug, Clone)]
pub struct OpRecord {
    pub at: f64,
    pub end: f64,
    pub what: String,
    /// The server it went to, for a request.
    pub server: Option<usize>,
    pub ok: bool,
    /// Refused on purpose by the server (a 4xx answer): not a failure.
    pub refused: bool,
    pub detail: String,
}

/// What a fault holds while it lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    Database,
    ServerDown(usize),
    ServerFrozen(usize),
    WorkerDown(usize),
    WorkerFrozen(usize),
}

/// A fault's hold on the run, from `start` until `end` (open while it
/// lasts).
#[derive(Debug, Clone)]
pub struct Window {
    pub hold: Hold,
    pub start: f64,
    pub end: Option<f64>,
}

#[derive(Default)]
struct Inner {
    faults: Vec<FaultRecord>,
    uploads: Vec<UploadRecord>,
    ops: Vec<OpRecord>,
    windows: Vec<Window>,
    phase: f64,
}

pub struct Journal {
    t0: Instant,
    inner: Mutex<Inner>,
}

impl Journal {
    pub fn new(t0: Instant) -> Journal {
        Journal {
            t0,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Seconds since the run started.
    pub fn now(&self) -> f64 {
        self.t0.elapsed().as_secs_f64()
    }

    /// Marks the start of the fault phase.
    pub fn start_phase(&self) {
        let now = self.now();
        self.lock().phase = now;
    }

    /// When the fault phase started.
    pub fn phase(&self) -> f64 {
        self.lock().phase
    }

    /// A time as the report shows it: seconds into the fault phase.
    pub fn show(&self, t: f64) -> String {
        format!("{:+.1} s", t - self.phase())
    }

    /// Records a fault; its index, to end it with [`Journal::end_fault`].
    pub fn fault(&self, kind: &'static str, label: String, planned: f64) -> usize {
        let at = self.now();
        println!("  [{:>7}] {label}", self.stamp());
        let mut inner = self.lock();
        inner.faults.push(FaultRecord {
            kind,
            label,
            planned,
            at,
            end: None,
            outcome: String::new(),
        });
        inner.faults.len() - 1
    }

    /// Ends fault `i` now, with what came of it.
    pub fn end_fault(&self, i: usize, outcome: impl Into<String>) {
        let now = self.now();
        let stamp = self.stamp();
        let mut inner = self.lock();
        let outcome = outcome.into();
        if !outcome.is_empty() {
            println!("  [{stamp:>7}]   {}: {outcome}", inner.faults[i].label);
        }
        inner.faults[i].end = Some(now);
        inner.faults[i].outcome = outcome;
    }

    /// A line of the run's log.
    pub fn say(&self, line: impl AsRef<str>) {
        println!("  [{:>7}] {}", self.stamp(), line.as_ref());
    }

    /// Now, as the run's log shows it: seconds into the fault phase, or
    /// `setup` before it.
    fn stamp(&self) -> String {
        let now = self.now();
        let phase = self.lock().phase;
        if phase == 0.0 {
            "setup".into()
        } else {
            format!("{:.1} s", now - phase)
        }
    }

    pub fn open_window(&self, hold: Hold) {
        let start = self.now();
        self.lock().windows.push(Window {
            hold,
            start,
            end: None,
        });
    }

    /// Closes the open window of `hold`, `grace` seconds from now (the
    /// time the system is given to recover from it).
    pub fn close_window(&self, hold: Hold, grace: f64) {
        let end = self.now() + grace;
        let mut inner = self.lock();
        if let Some(w) = inner
            .windows
            .iter_mut()
            .rev()
            .find(|w| w.hold == hold && w.end.is_none())
        {
            w.end = Some(end);
        }
    }

    /// Closes every open window now.
    pub fn close_all_windows(&self) {
        let end = self.now();
        for w in self.lock().windows.iter_mut() {
            if w.end.is_none() {
                w.end = Some(end);
            }
        }
    }

    /// Whether a window matching `which` overlaps `from..=to`.
    pub fn held(&self, from: f64, to: f64, which: impl Fn(Hold) -> bool) -> bool {
        self.lock()
            .windows
            .iter()
            .any(|w| which(w.hold) && w.start <= to && w.end.is_none_or(|e| e >= from))
    }

    pub fn upload(&self, u: UploadRecord) {
        self.lock().uploads.push(u);
    }

    pub fn uploads(&self) -> Vec<UploadRecord> {
        self.lock().uploads.clone()
    }

    pub fn op(&self, o: OpRecord) {
        self.lock().ops.push(o);
    }

    pub fn ops(&self) -> Vec<OpRecord> {
        self.lock().ops.clone()
    }

    pub fn faults(&self) -> Vec<FaultRecord> {
        self.lock().faults.clone()
    }

    /// The faults whose time overlaps `from..=to`, as labels, uploads left
    /// out.
    pub fn faults_during(&self, from: f64, to: f64) -> Vec<String> {
        const UPLOADS: [&str; 3] = ["upload new version", "candidate + challenge", "quota burst"];
        self.lock()
            .faults
            .iter()
            .filter(|f| !UPLOADS.contains(&f.kind))
            .filter(|f| f.at <= to && f.end.unwrap_or(f.at + 1.0) >= from)
            .map(|f| f.label.clone())
            .collect()
    }
}
