//! The run's schedule of faults: a pure function of the seed, the run's
//! length and its shape, drawn from a ChaCha stream, so that the same seed
//! gives the same list of (time offset, fault) on any machine.

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::fmt;
use std::time::Duration;

/// What the run starts: PostgreSQL with two servers and two workers, or one
/// server on a SQLite file with its in-process workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Postgres,
    Sqlite,
}

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Postgres => "postgres",
            Shape::Sqlite => "sqlite",
        }
    }

    /// `ludus serve` processes.
    pub fn servers(self) -> usize {
        match self {
            Shape::Postgres => 2,
            Shape::Sqlite => 1,
        }
    }

    /// `ludus worker` processes (the SQLite server plays in-process).
    pub fn workers(self) -> usize {
        match self {
            Shape::Postgres => 2,
            Shape::Sqlite => 0,
        }
    }
}

/// A game the run plays: its short config (the rules are the same, the
/// matches shorter) and the example bots uploaded for it.
pub struct Game {
    pub id: &'static str,
    pub config: &'static str,
    pub bots: &'static [&'static str],
}

/// Two-seat and four-seat games. Each account uploads the game's bots
/// under names of its own (`planet_wars_expander-u0`).
pub const GAMES: [Game; 3] = [
    Game {
        id: "planet-wars",
        config: r#"{"max_turns": 100}"#,
        bots: &["planet_wars_expander", "planet_wars_random"],
    },
    Game {
        id: "claim",
        config: r#"{"max_turns": 60}"#,
        bots: &["claim_strategy", "claim_sample"],
    },
    Game {
        id: "kore",
        config: r#"{"episodeSteps": 60}"#,
        bots: &["kore_miner", "kore_random"],
    },
];

/// The house bots (`ludus serve --house`): one for each game, so that
/// Claim's tables of four are filled with house copies.
pub const HOUSE: [&str; 3] = ["planet_wars_idle", "claim_sample", "kore_idle"];

/// Uploads an account makes before the next account takes over: well
/// under the server's daily quota of 50, which the run also checks.
pub const UPLOADS_PER_ACCOUNT: usize = 40;

/// How long a freeze aimed at a lock may wait for one, at most.
pub const AIM_SECS: f64 = 4.0;

/// Attempts of the quota burst: more than the daily quota of 50.
pub const QUOTA_ATTEMPTS: u32 = 60;

/// A bot name of the run: account `account`'s upload of `GAMES[game].bots[bot]`.
pub fn bot_name(game: usize, bot: usize, account: usize) -> String {
    format!("{}-u{account}", GAMES[game].bots[bot])
}

/// One fault (or one thing a user or operator does) of the schedule.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// `kill -9` of a `ludus worker`, started again after `down`.
    KillWorker { worker: usize, down: Duration },
    /// SIGSTOP of a `ludus worker`, SIGCONT after `frozen`; with
    /// `holding`, at a moment it holds an advisory lock (rating a ladder)
    /// in PostgreSQL, which the harness waits for ([`AIM_SECS`] at most).
    StopWorker {
        worker: usize,
        frozen: Duration,
        holding: bool,
    },
    /// `kill -9` of a `ludus serve`, started again after `down`.
    KillServer { server: usize, down: Duration },
    /// SIGSTOP of a `ludus serve`, SIGCONT after `frozen`.
    StopServer { server: usize, frozen: Duration },
    /// PostgreSQL restarted, `pg_ctl restart -m fast` or `-m immediate`.
    RestartPostgres { immediate: bool },
    /// A new version of one of an account's bots, uploaded through a server.
    Upload {
        game: usize,
        bot: usize,
        account: usize,
        server: usize,
    },
    /// A new version uploaded as a candidate, then a challenge of it
    /// against another bot of the game (4 games), and maybe its promotion.
    Candidate {
        game: usize,
        bot: usize,
        account: usize,
        server: usize,
        promote: bool,
    },
    /// `ludus season new --game GAME`.
    SeasonNew { game: usize },
    /// `ludus ladder pause GAME`, then `resume` after `paused`.
    Pause { game: usize, paused: Duration },
    /// `sqlite3 FILE 'SELECT count(*) FROM results'` while the server writes.
    SqliteReader,
    /// One account's uploads past its daily quota, through every server.
    QuotaBurst { attempts: u32 },
}

impl Fault {
    /// The kind, as the report's table counts them.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::KillWorker { .. } => "kill -9 worker",
            Fault::StopWorker { holding: false, .. } => "SIGSTOP worker",
            Fault::StopWorker { holding: true, .. } => "SIGSTOP worker holding a lock",
            Fault::KillServer { .. } => "kill -9 server",
            Fault::StopServer { .. } => "SIGSTOP server",
            Fault::RestartPostgres { immediate: false } => "postgres restart fast",
            Fault::RestartPostgres { immediate: true } => "postgres restart immediate",
            Fault::Upload { .. } => "upload new version",
            Fault::Candidate { .. } => "candidate + challenge",
            Fault::SeasonNew { .. } => "season new",
            Fault::Pause { .. } => "ladder pause/resume",
            Fault::SqliteReader => "sqlite3 reader",
            Fault::QuotaBurst { .. } => "quota burst",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |d: &Duration| format!("{:.1} s", d.as_secs_f64());
        match self {
            Fault::KillWorker { worker, down } => {
                write!(
                    f,
                    "kill -9 worker {worker}, started again after {}",
                    s(down)
                )
            }
            Fault::StopWorker {
                worker,
                frozen,
                holding,
            } => write!(
                f,
                "SIGSTOP worker {worker}{}, SIGCONT after {}",
                if *holding {
                    " while it holds a lock"
                } else {
                    ""
                },
                s(frozen)
            ),
            Fault::KillServer { server, down } => {
                write!(
                    f,
                    "kill -9 server {server}, started again after {}",
                    s(down)
                )
            }
            Fault::StopServer { server, frozen } => {
                write!(f, "SIGSTOP server {server}, SIGCONT after {}", s(frozen))
            }
            Fault::RestartPostgres { immediate } => write!(
                f,
                "postgres restart -m {}",
                if *immediate { "immediate" } else { "fast" }
            ),
            Fault::Upload {
                game,
                bot,
                account,
                server,
            } => write!(
                f,
                "upload a new version of {} ({}) through server {server}",
                bot_name(*game, *bot, *account),
                GAMES[*game].id
            ),
            Fault::Candidate {
                game,
                bot,
                account,
                server,
                promote,
            } => write!(
                f,
                "candidate of {} ({}) through server {server}, challenge of 4 games{}",
                bot_name(*game, *bot, *account),
                GAMES[*game].id,
                if *promote { ", promoted" } else { "" }
            ),
            Fault::SeasonNew { game } => write!(f, "season new --game {}", GAMES[*game].id),
            Fault::Pause { game, paused } => write!(
                f,
                "ladder pause {}, resume after {}",
                GAMES[*game].id,
                s(paused)
            ),
            Fault::SqliteReader => write!(f, "sqlite3 FILE 'SELECT count(*) FROM results'"),
            Fault::QuotaBurst { attempts } => write!(
                f,
                "quota burst: {attempts} uploads of account `quota` (its daily quota is 50)"
            ),
        }
    }
}

/// A fault at its offset from the start of the fault phase.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub at: Duration,
    pub fault: Fault,
}

/// The schedule, and the accounts its uploads need.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub events: Vec<Event>,
    /// Accounts `u0`, `u1`, …: each makes at most [`UPLOADS_PER_ACCOUNT`]
    /// uploads, the initial ones (by `u0`) included.
    pub accounts: usize,
}

/// The initial uploads, all by account 0: every bot of every game.
pub fn initial_uploads() -> usize {
    GAMES.iter().map(|g| g.bots.len()).sum()
}

/// A seeded stream of draws.
struct Draw(ChaCha20Rng);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }
    fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// A duration between `lo` and `hi` seconds, to the tenth of a second.
    fn secs(&mut self, lo: f64, hi: f64) -> Duration {
        Duration::from_millis(((lo + (hi - lo) * self.unit()) * 10.0).round() as u64 * 100)
    }
}

/// The kinds a shape draws, with their weights.
fn kinds(shape: Shape) -> Vec<(&'static str, f64)> {
    let mut k = vec![
        // A killed server that schedules hands the scheduler to the
        // other (PostgreSQL) while the queues drain: the moment a rating
        // may read the finished prefix across the new server's append.
        (
            "kill server",
            match shape {
                Shape::Postgres => 2.5,
                Shape::Sqlite => 1.5,
            },
        ),
        ("stop server", 1.5),
        ("upload", 2.0),
        ("candidate", 1.0),
        ("season", 0.5),
        // A paused game's queue drains, and its resume appends to it:
        // another such moment.
        (
            "pause",
            match shape {
                Shape::Postgres => 2.0,
                Shape::Sqlite => 1.0,
            },
        ),
    ];
    match shape {
        Shape::Postgres => k.extend([
            ("kill worker", 2.0),
            ("stop worker", 1.0),
            ("hold worker", 1.5),
            ("pg fast", 0.6),
            ("pg immediate", 0.6),
        ]),
        Shape::Sqlite => k.push(("sqlite reader", 3.0)),
    }
    k
}

/// The schedule of a run of `length` of `shape` from `seed`: events from
/// 3 s on, 1.5 to 4 s apart, until 3 s before the end; every kind the
/// shape has once, in a drawn order, at every other time from the start
/// (the quota burst only then), and between them kinds drawn by weight. A
/// fault never starts on a process a fault still holds (frozen, or down
/// and a moment after), PostgreSQL restarts are 15 s apart at least, a
/// game already paused is not paused again, a freeze aimed at a lock has
/// the processes and the database to itself; a kind
/// that cannot be placed at its time is tried again first at the next,
/// and a time left without one gets an upload. Every fault ends by the
/// end of the run.
pub fn plan(seed: u64, length: Duration, shape: Shape) -> Plan {
    let mut draw = Draw(ChaCha20Rng::seed_from_u64(seed));
    let end = length.as_secs_f64();
    let mut times = Vec::new();
    let mut t = 3.0;
    while t <= end - 3.0 {
        times.push(t);
        t += 1.5 + 2.5 * draw.unit();
    }
    let weighted = kinds(shape);
    let shuffle = |v: &mut Vec<&'static str>, draw: &mut Draw| {
        for i in (1..v.len()).rev() {
            let j = draw.below(i + 1);
            v.swap(i, j);
        }
    };
    // Every kind once, in a drawn order, every other time from the start
    // (so that a short run has each), between kinds drawn by weight.
    let mut every: Vec<&'static str> = weighted.iter().map(|(k, _)| *k).collect();
    every.push("quota");
    shuffle(&mut every, &mut draw);
    let total: f64 = weighted.iter().map(|(_, w)| w).sum();
    let mut drawn = Vec::new();
    while every.len() + drawn.len() < times.len() {
        let mut x = draw.unit() * total;
        let mut pick = weighted[weighted.len() - 1].0;
        for (k, w) in &weighted {
            if x < *w {
                pick = k;
                break;
            }
            x -= w;
        }
        drawn.push(pick);
    }
    let mut deck = Vec::with_capacity(times.len());
    let (mut every, mut drawn) = (every.into_iter(), drawn.into_iter());
    while deck.len() < times.len() {
        match (every.next(), drawn.next()) {
            (None, None) => break,
            (a, b) => deck.extend(a.into_iter().chain(b)),
        }
    }
    deck.truncate(times.len());

    let mut placer = Placer {
        shape,
        end,
        busy_worker: vec![0.0; shape.workers()],
        busy_server: vec![0.0; shape.servers()],
        paused_until: vec![0.0; GAMES.len()],
        last_pg: f64::NEG_INFINITY,
        quiet_until: 0.0,
        loud_until: 0.0,
        uploads: initial_uploads(),
    };
    let mut events = Vec::new();
    // Kinds that could not be placed at their time, tried again first at
    // the next ones.
    let mut deferred: Vec<&str> = Vec::new();
    for (&t, &kind) in times.iter().zip(&deck) {
        deferred.push(kind);
        let mut fault = None;
        for k in 0..deferred.len() {
            if let Some(f) = placer.place(deferred[k], t, &mut draw) {
                deferred.remove(k);
                fault = Some(f);
                break;
            }
        }
        let fault = fault.unwrap_or_else(|| placer.upload(&mut draw));
        events.push(Event {
            at: Duration::from_millis((t * 1000.0).floor() as u64),
            fault,
        });
    }
    Plan {
        events,
        accounts: placer.uploads.saturating_sub(1) / UPLOADS_PER_ACCOUNT + 1,
    }
}

/// What the schedule holds so far, for placing the next fault.
struct Placer {
    shape: Shape,
    end: f64,
    busy_worker: Vec<f64>,
    busy_server: Vec<f64>,
    paused_until: Vec<f64>,
    last_pg: f64,
    /// While a freeze aimed at a lock lasts, no other process fault or
    /// database restart: the other workers (the servers' too) are the
    /// witnesses of whether the lock holds them up.
    quiet_until: f64,
    /// When the last fault that holds a worker or the database up ends: a
    /// freeze aimed at a lock starts after it.
    loud_until: f64,
    uploads: usize,
}

impl Placer {
    fn upload(&mut self, draw: &mut Draw) -> Fault {
        let (game, server) = (draw.below(GAMES.len()), draw.below(self.shape.servers()));
        let bot = draw.below(GAMES[game].bots.len());
        let account = self.uploads / UPLOADS_PER_ACCOUNT;
        self.uploads += 1;
        Fault::Upload {
            game,
            bot,
            account,
            server,
        }
    }

    /// A fault of `kind` at `t`, if one fits there.
    fn place(&mut self, kind: &str, t: f64, draw: &mut Draw) -> Option<Fault> {
        let left = self.end - t;
        let free =
            |busy: &[f64]| -> Vec<usize> { (0..busy.len()).filter(|&i| busy[i] <= t).collect() };
        // Every process fault and database restart: each holds a worker
        // (a server's in-process one too) or the database.
        let loud = matches!(
            kind,
            "kill worker"
                | "stop worker"
                | "hold worker"
                | "kill server"
                | "stop server"
                | "pg fast"
                | "pg immediate"
        );
        if loud && t < self.quiet_until || kind == "hold worker" && t < self.loud_until {
            return None;
        }
        match kind {
            "kill worker" | "stop worker" | "hold worker" | "kill server" | "stop server" => {
                let busy = if kind.ends_with("worker") {
                    &mut self.busy_worker
                } else {
                    &mut self.busy_server
                };
                let free = free(busy);
                // A freeze aimed at a lock lasts longer than the stall
                // allowed: a lock held by a frozen process must hold
                // nobody else up. It may start late, waiting for one.
                let holding = kind == "hold worker";
                let (lo, hi, aim) = match kind {
                    "kill worker" | "kill server" => (1.0, 4.0, 0.0),
                    _ if holding => (10.0, 15.0, AIM_SECS),
                    _ => (3.0, 15.0, 0.0),
                };
                let d = draw
                    .secs(lo, hi)
                    .min(Duration::from_secs_f64((left - aim).max(0.0)));
                if free.is_empty() || d.as_secs_f64() < if holding { lo } else { 1.0 } {
                    return None;
                }
                let i = free[draw.below(free.len())];
                busy[i] = t + aim + d.as_secs_f64() + 2.0;
                if holding {
                    self.quiet_until = t + aim + d.as_secs_f64() + 1.0;
                }
                if loud {
                    self.loud_until = self.loud_until.max(t + aim + d.as_secs_f64() + 2.0);
                }
                Some(match kind {
                    "kill worker" => Fault::KillWorker { worker: i, down: d },
                    "stop worker" | "hold worker" => Fault::StopWorker {
                        worker: i,
                        frozen: d,
                        holding,
                    },
                    "kill server" => Fault::KillServer { server: i, down: d },
                    _ => Fault::StopServer {
                        server: i,
                        frozen: d,
                    },
                })
            }
            "pg fast" | "pg immediate" if t - self.last_pg >= 15.0 => {
                self.last_pg = t;
                // Down a second or two, then 10 s for the workers to recover.
                self.loud_until = self.loud_until.max(t + 12.0);
                Some(Fault::RestartPostgres {
                    immediate: kind == "pg immediate",
                })
            }
            "upload" => Some(self.upload(draw)),
            "candidate" => {
                let (game, server) = (draw.below(GAMES.len()), draw.below(self.shape.servers()));
                let bot = draw.below(GAMES[game].bots.len());
                let promote = draw.below(3) == 0;
                let account = self.uploads / UPLOADS_PER_ACCOUNT;
                self.uploads += 1;
                Some(Fault::Candidate {
                    game,
                    bot,
                    account,
                    server,
                    promote,
                })
            }
            "season" => Some(Fault::SeasonNew {
                game: draw.below(GAMES.len()),
            }),
            "pause" => {
                let free = free(&self.paused_until);
                let d = draw
                    .secs(4.0, 15.0)
                    .min(Duration::from_secs_f64(left.max(0.0)));
                if free.is_empty() || d.as_secs_f64() < 1.0 {
                    return None;
                }
                let game = free[draw.below(free.len())];
                self.paused_until[game] = t + d.as_secs_f64() + 1.0;
                Some(Fault::Pause { game, paused: d })
            }
            "sqlite reader" => Some(Fault::SqliteReader),
            "quota" => Some(Fault::QuotaBurst {
                attempts: QUOTA_ATTEMPTS,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_schedule_and_another_another() {
        let a = plan(7, Duration::from_secs(300), Shape::Postgres);
        assert_eq!(a, plan(7, Duration::from_secs(300), Shape::Postgres));
        assert_ne!(a, plan(8, Duration::from_secs(300), Shape::Postgres));
    }

    #[test]
    fn a_run_has_every_kind_and_faults_end_within_it() {
        for shape in [Shape::Postgres, Shape::Sqlite] {
            let length = Duration::from_secs(75);
            let p = plan(1, length, shape);
            let kinds: std::collections::BTreeSet<_> =
                p.events.iter().map(|e| e.fault.kind()).collect();
            for k in [
                "kill -9 server",
                "SIGSTOP server",
                "quota burst",
                "season new",
            ]
            .into_iter()
            .chain((shape == Shape::Postgres).then_some("SIGSTOP worker holding a lock"))
            .chain((shape == Shape::Postgres).then_some("postgres restart"))
            {
                assert!(
                    kinds.iter().any(|kind| kind.starts_with(k)),
                    "{shape:?} lacks {k}: {kinds:?}"
                );
            }
            for e in &p.events {
                let ends = e.at
                    + match &e.fault {
                        Fault::StopWorker {
                            frozen: d, holding, ..
                        } => *d + Duration::from_secs_f64(if *holding { AIM_SECS } else { 0.0 }),
                        Fault::StopServer { frozen: d, .. }
                        | Fault::KillWorker { down: d, .. }
                        | Fault::KillServer { down: d, .. }
                        | Fault::Pause { paused: d, .. } => *d,
                        _ => Duration::ZERO,
                    };
                assert!(ends <= length, "{e:?}");
            }
        }
    }
}
