//! `cargo xtask faults`: a fault-injection run, Jepsen's method on our
//! scale. The real processes (`ludus serve`, `ludus worker`, PostgreSQL or a
//! SQLite file) play continuous ladders of several games while a seeded
//! schedule kills, freezes and restarts them, restarts the database,
//! uploads new versions, asks for challenges, starts seasons, pauses games
//! and reads the SQLite file from the side; the results are counted every
//! 250 ms to measure stalls; then everything is stopped and every invariant
//! checked, with its figures (`docs/faults.md`).

mod actions;
mod aim;
mod checks;
mod client;
mod ctx;
mod db;
mod journal;
mod monitor;
mod procs;
mod schedule;

use ctx::Ctx;
use db::Db;
use journal::{Hold, Journal};
use procs::{Fleet, Role};
use schedule::{Fault, Plan, Shape, GAMES, HOUSE};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const USAGE: &str =
    "  faults [--minutes N | --seconds N] [--seed S] [--db postgres|sqlite|both]
         [--ludus PATH] [--keep DIR] [--max-stall SECONDS] [--until SECONDS]
                   a fault-injection run (docs/faults.md): serve, workers and the
                   database killed, frozen and restarted on a seeded schedule
                   while bots are uploaded; then every invariant checked";

/// The run's options.
#[derive(Debug, Clone)]
pub struct Options {
    pub length: Duration,
    pub seed: u64,
    pub shapes: Vec<Shape>,
    pub ludus: Option<PathBuf>,
    pub keep: Option<PathBuf>,
    /// The longest stall not excused by a fault that is no violation.
    pub max_stall: f64,
    /// Ends the fault phase at this offset: the first part of a long
    /// schedule, to see again what it found there.
    pub until: Option<Duration>,
}

impl Options {
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options {
            length: Duration::from_secs(120),
            seed: random_seed(),
            shapes: vec![Shape::Postgres, Shape::Sqlite],
            ludus: None,
            keep: None,
            max_stall: 8.0,
            until: None,
        };
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut value = |what: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{flag} needs {what}"))
            };
            let number = |v: String| -> Result<u64, String> {
                v.parse()
                    .map_err(|_| format!("{flag} takes a whole number, not `{v}`"))
            };
            match flag.as_str() {
                "--minutes" => o.length = Duration::from_secs(60 * number(value("a number")?)?),
                "--seconds" => o.length = Duration::from_secs(number(value("a number")?)?),
                "--seed" => o.seed = number(value("a number")?)?,
                "--db" => {
                    o.shapes = match value("postgres, sqlite or both")?.as_str() {
                        "postgres" => vec![Shape::Postgres],
                        "sqlite" => vec![Shape::Sqlite],
                        "both" => vec![Shape::Postgres, Shape::Sqlite],
                        other => {
                            return Err(format!(
                                "--db takes postgres, sqlite or both, not `{other}`"
                            ))
                        }
                    }
                }
                "--ludus" => o.ludus = Some(PathBuf::from(value("a path")?)),
                "--keep" => o.keep = Some(PathBuf::from(value("a folder")?)),
                "--max-stall" => o.max_stall = number(value("a number of seconds")?)? as f64,
                "--until" => {
                    o.until = Some(Duration::from_secs(number(value("a number of seconds")?)?))
                }
                other => return Err(format!("unknown option `{other}`\n{USAGE}")),
            }
        }
        if o.length < Duration::from_secs(10) {
            return Err("a fault run lasts 10 seconds at least".into());
        }
        Ok(o)
    }
}

/// A seed nobody chose: the time and the process id.
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (nanos ^ (u64::from(std::process::id()) << 32)) % 1_000_000_000
}

/// `cargo xtask faults ARGS`.
pub fn main(args: &[String]) -> Result<(), String> {
    let options = Options::parse(args)?;
    run(&options)
}

/// The short run of `cargo xtask test`: both shapes, 75 s each, seed 1.
pub fn smoke() -> Result<(), String> {
    run(&Options {
        length: Duration::from_secs(75),
        seed: 1,
        shapes: vec![Shape::Postgres, Shape::Sqlite],
        ludus: None,
        keep: None,
        max_stall: 8.0,
        until: None,
    })
}

/// What one shape's run found.
struct Outcome {
    shape: Shape,
    faults: BTreeMap<&'static str, (usize, usize)>,
    results: i64,
    invariants: Vec<checks::Invariant>,
}

fn run(options: &Options) -> Result<(), String> {
    let binary = match &options.ludus {
        Some(path) => path.clone(),
        None => {
            crate::steps::run(
                "building ludus",
                crate::steps::cargo().args(["build", "-p", "ludus-cli"]),
            )?;
            ludus_testkit::target_dir().join("debug").join("ludus")
        }
    };
    let binary = binary
        .canonicalize()
        .map_err(|e| format!("no ludus binary at {}: {e}", binary.display()))?;
    let bots = crate::steps::build_bots()?;
    println!(
        "fault run: seed {} ({} s a shape; `cargo xtask faults --seed {} --seconds {} --db {}` runs this schedule again)",
        options.seed,
        options.length.as_secs(),
        options.seed,
        options.length.as_secs(),
        match options.shapes.as_slice() {
            [s] => s.name(),
            _ => "both",
        }
    );
    let mut outcomes = Vec::new();
    let mut errors = Vec::new();
    for &shape in &options.shapes {
        match run_shape(shape, options, &binary, &bots) {
            Ok(o) => outcomes.push(o),
            Err(e) => {
                println!("\n{} run FAILED: {e}", shape.name());
                errors.push(format!("{}: {e}", shape.name()));
            }
        }
    }
    let violations = print_summary(&outcomes);
    if !errors.is_empty() {
        return Err(format!(
            "the fault run could not run: {}",
            errors.join("; ")
        ));
    }
    if violations > 0 {
        return Err(format!(
            "the fault run found {violations} violations (seed {}); see above",
            options.seed
        ));
    }
    println!("fault run: every invariant holds");
    Ok(())
}

fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free loopback port: {e}"))
}

fn print_plan(plan: &Plan) {
    for e in &plan.events {
        println!("  {:>7.1} s  {}", e.at.as_secs_f64(), e.fault);
    }
}

/// Something started once, on a thread of its own.
type Job = std::thread::JoinHandle<()>;

/// What the fault loop must undo later.
enum Undo {
    Thaw {
        proc: usize,
        fault: usize,
        hold: Hold,
    },
    Back {
        proc: usize,
        fault: usize,
        hold: Hold,
        grace: f64,
    },
    Resume {
        game: usize,
    },
}

fn run_shape(
    shape: Shape,
    options: &Options,
    binary: &Path,
    bots: &Path,
) -> Result<Outcome, String> {
    println!(
        "\n== fault run on {}: {} s, seed {} ==",
        shape.name(),
        options.length.as_secs(),
        options.seed
    );
    let mut plan = schedule::plan(options.seed, options.length, shape);
    let length = match options.until {
        Some(until) if until < options.length => {
            plan.events.retain(|e| e.at < until);
            until
        }
        _ => options.length,
    };
    println!(
        "schedule ({} events, offsets from the start of the faults):",
        plan.events.len()
    );
    print_plan(&plan);

    let tmp = tempfile::Builder::new()
        .prefix(&format!("ludus-faults-{}-", shape.name()))
        .tempdir()
        .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
    let dir = tmp.path().to_path_buf();
    let house = dir.join("house");
    std::fs::create_dir_all(&house).map_err(|e| e.to_string())?;
    for b in HOUSE {
        std::fs::copy(
            bots.join(format!("{b}.wasm")),
            house.join(format!("{b}.wasm")),
        )
        .map_err(|e| format!("cannot copy the house bot {b}: {e}"))?;
    }
    let cluster = match shape {
        Shape::Postgres => Some(Arc::new(ludus_testkit::postgres::Cluster::start(
            // Durable: an immediate restart must not lose a commit it
            // acknowledged (with synchronous_commit off it may).
            ludus_testkit::postgres::Durability::Durable,
        )?)),
        Shape::Sqlite => {
            ludus_testkit::ensure_sqlite3()?;
            None
        }
    };
    let db = match &cluster {
        Some(c) => Db::Postgres {
            url: c.create_database(),
            psql: c.program("psql"),
        },
        None => Db::Sqlite {
            file: dir.join("ludus.db"),
        },
    };
    let env = vec![(
        "LUDUS_CACHE_DIR".to_string(),
        ludus_testkit::target_dir()
            .join("module-cache")
            .display()
            .to_string(),
    )];
    let t0 = Instant::now();
    let journal = Arc::new(Journal::new(t0));
    let fleet = Arc::new(Fleet::new(binary, &dir, env.clone(), t0));
    let mut ctx = Ctx {
        shape,
        seed: options.seed,
        binary: binary.to_path_buf(),
        dir: dir.clone(),
        bots: bots.to_path_buf(),
        db,
        env,
        servers: Vec::new(),
        workers: Vec::new(),
        tokens: Vec::new(),
        quota_token: String::new(),
        fleet: fleet.clone(),
        journal: journal.clone(),
        cluster,
        not_running_at_end: Default::default(),
    };

    // Accounts: u0, u1, … for the uploads, `quota` for the quota burst.
    let names: Vec<String> = (0..plan.accounts)
        .map(|k| format!("u{k}"))
        .chain(["quota".to_string()])
        .collect();
    for name in &names {
        let o = ctx.ludus(
            &["user", "add", name, "--db", &ctx.db.arg()].map(String::from),
            Duration::from_secs(60),
        )?;
        if !o.success() {
            return Err(format!("ludus user add {name}: {}", o.describe()));
        }
        let token = o.stdout.trim().to_string();
        if name == "quota" {
            ctx.quota_token = token;
        } else {
            ctx.tokens.push(token);
        }
    }

    // The servers, then the workers.
    let game_configs: Vec<String> = GAMES
        .iter()
        .flat_map(|g| {
            [
                "--game-config".to_string(),
                format!("{}={}", g.id, g.config),
            ]
        })
        .collect();
    for i in 0..shape.servers() {
        let port = free_port()?;
        let mut args: Vec<String> = [
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--db",
            &ctx.db.arg(),
            // On PostgreSQL a thread of each server plays beside the
            // workers: it commits, wakes the scheduler and rates, all at
            // once (the moment a rating may read the finished prefix
            // across the scheduler's append).
            "--workers",
            match shape {
                Shape::Postgres => "1",
                Shape::Sqlite => "2",
            },
            "--house",
            &house.display().to_string(),
            "--keep-replays",
            "recent:40,faults",
        ]
        .map(String::from)
        .to_vec();
        args.extend(game_configs.iter().cloned());
        let name = format!("server {i}");
        let p = fleet.start(Role::Server, &name, args)?;
        let line = fleet
            .wait_for_line(p, "listening on", Duration::from_secs(120))
            .ok_or_else(|| {
                format!(
                    "{name} did not start listening within 120 s: {}",
                    procs::tail_lines(
                        &procs::read_from(&dir.join(format!("server-{i}.err")), 0),
                        5
                    )
                    .join(" / ")
                )
            })?;
        let url = line
            .trim()
            .rsplit(' ')
            .next()
            .unwrap_or_default()
            .to_string();
        if url != format!("http://127.0.0.1:{port}") {
            return Err(format!("{name} says `{line}`, not port {port}"));
        }
        journal.say(format!("{name} listens on {url}"));
        ctx.servers.push((p, url));
    }
    for i in 0..shape.workers() {
        let args = ["worker", "--db", &ctx.db.arg(), "--threads", "2"].map(String::from);
        ctx.workers
            .push(fleet.start(Role::Worker, &format!("worker {i}"), args.to_vec())?);
    }

    // The initial bots, all by u0 through server 0.
    for (g, game) in GAMES.iter().enumerate() {
        for (b, file) in game.bots.iter().enumerate() {
            let wasm = actions::bot_bytes(&ctx, file)?;
            let u = actions::upload(
                &ctx,
                0,
                &schedule::bot_name(g, b, 0),
                game.id,
                0,
                false,
                &wasm,
            );
            if !u.acknowledged() {
                return Err(format!(
                    "the initial upload of {} was refused: {}",
                    u.name,
                    client::Answer {
                        status: u.status,
                        body: u.body
                    }
                    .describe()
                ));
            }
        }
    }
    journal.say(format!("uploaded {} bots", schedule::initial_uploads()));

    let counter = match &ctx.db {
        Db::Postgres { .. } => monitor::Counter::Sql(ctx.db.clone()),
        Db::Sqlite { .. } => monitor::Counter::Metrics(ctx.server_url(0)),
    };
    let stop = Arc::new(AtomicBool::new(false));
    // The monitor stops with the run, however the run ends.
    struct Stop(Arc<AtomicBool>);
    impl Drop for Stop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let _stop = Stop(stop.clone());
    let snapshots =
        matches!(ctx.db, Db::Postgres { .. }).then(|| (ctx.db.clone(), dir.join("stalls.txt")));
    let watching = monitor::spawn(
        counter,
        shape,
        fleet.clone(),
        journal.clone(),
        stop.clone(),
        snapshots,
    );
    // The first results: the house stocked, bots compiled, matches played.
    let started = Instant::now();
    let sampler = match &ctx.db {
        Db::Postgres { .. } => monitor::Counter::Sql(ctx.db.clone()),
        Db::Sqlite { .. } => monitor::Counter::Metrics(ctx.server_url(0)),
    };
    loop {
        for line in fleet.tick() {
            journal.say(line);
        }
        if sampler.read().is_ok_and(|(n, _)| n > 0) {
            break;
        }
        if started.elapsed() > Duration::from_secs(300) {
            return Err("no match was played within 300 s of the start".into());
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    journal.say(format!(
        "first results after {:.1} s; the faults begin",
        started.elapsed().as_secs_f64()
    ));

    let ctx = Arc::new(ctx);
    journal.start_phase();
    let phase = Instant::now();
    let mut undo: Vec<(Instant, Undo)> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let active = Arc::new(AtomicUsize::new(0));
    let mut next = 0;
    let end = phase + length;
    loop {
        for line in fleet.tick() {
            journal.say(line);
        }
        let now = Instant::now();
        // Undo what is due.
        let (due, later): (Vec<_>, Vec<_>) = undo.into_iter().partition(|(at, _)| *at <= now);
        undo = later;
        for (_, u) in due {
            finish(&ctx, u, &mut jobs, &active);
        }
        if now >= end && next >= plan.events.len() {
            break;
        }
        if next < plan.events.len() && phase + plan.events[next].at <= now {
            let e = &plan.events[next];
            inject(
                &ctx,
                next,
                e.at.as_secs_f64(),
                &e.fault,
                &mut undo,
                &mut jobs,
                &active,
            );
            next += 1;
            continue;
        }
        std::thread::sleep(Duration::from_millis(20));
    }

    // The end: nothing more injected; everything thawed, resumed and
    // started again; what was asked answered; ten seconds of calm.
    journal.say("the faults end: every process thawed and started, every game resumed");
    for name in fleet.thaw_all() {
        journal.say(format!("SIGCONT {name}"));
    }
    fleet.restart_all_now();
    for (_, u) in undo.drain(..) {
        finish(&ctx, u, &mut jobs, &active);
    }
    journal.close_all_windows();
    let waiting = Instant::now();
    while active.load(Ordering::SeqCst) > 0 && waiting.elapsed() < Duration::from_secs(240) {
        for line in fleet.tick() {
            journal.say(line);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let calm = Instant::now();
    while calm.elapsed() < Duration::from_secs(10) {
        for line in fleet.tick() {
            journal.say(line);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let not_running = fleet.not_running();
    stop.store(true, Ordering::SeqCst);
    let samples = watching.join().unwrap_or_default();
    let _ = std::fs::write(
        dir.join("samples.tsv"),
        monitor::table(&samples, journal.phase()),
    );
    journal.say("SIGTERM to every process");
    fleet.terminate_all(Duration::from_secs(30));
    for j in jobs {
        if j.is_finished() {
            let _ = j.join();
        }
    }

    *ctx.not_running_at_end
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = not_running;

    println!("\nchecks of the {} run:", shape.name());
    let invariants = checks::all(&ctx, &samples, options.max_stall);
    let results = ctx
        .db
        .count("SELECT count(*) FROM results", Duration::from_secs(60))
        .unwrap_or(-1);
    let faults = journal.faults();
    let mut by_kind: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    for e in &plan.events {
        by_kind.entry(e.fault.kind()).or_default().0 += 1;
    }
    for f in &faults {
        by_kind.entry(f.kind).or_default().1 += 1;
    }
    let outcome = Outcome {
        shape,
        faults: by_kind,
        results,
        invariants,
    };
    print_outcome(&ctx, &outcome, &samples);
    if let Some(keep) = &options.keep {
        keep_run(&ctx, keep, options.seed)?;
    }
    drop(ctx);
    drop(fleet);
    drop(tmp);
    Ok(outcome)
}

/// Starts fault `i` of the schedule.
fn inject(
    ctx: &Arc<Ctx>,
    event: usize,
    planned: f64,
    fault: &Fault,
    undo: &mut Vec<(Instant, Undo)>,
    jobs: &mut Vec<Job>,
    active: &Arc<AtomicUsize>,
) {
    let j = &ctx.journal;
    let f = j.fault(fault.kind(), fault.to_string(), planned);
    let now = Instant::now();
    let fail = |e: String| j.end_fault(f, format!("NOT INJECTED: {e}"));
    match fault {
        Fault::KillWorker { worker, down }
        | Fault::KillServer {
            server: worker,
            down,
        } => {
            let (proc, hold) = match fault {
                Fault::KillWorker { .. } => (ctx.workers[*worker], Hold::WorkerDown(*worker)),
                _ => (ctx.servers[*worker].0, Hold::ServerDown(*worker)),
            };
            match ctx.fleet.kill9(proc, *down) {
                Ok(()) => {
                    j.open_window(hold);
                    // On SQLite the server is every worker: 10 s to start
                    // again and play.
                    let grace = match (ctx.shape, hold) {
                        (Shape::Sqlite, Hold::ServerDown(_)) => 10.0,
                        _ => 2.0,
                    };
                    undo.push((
                        now + *down + Duration::from_millis(100),
                        Undo::Back {
                            proc,
                            fault: f,
                            hold,
                            grace,
                        },
                    ));
                }
                Err(e) => fail(e),
            }
        }
        Fault::StopWorker {
            worker,
            frozen,
            holding: true,
        } if ctx.cluster.is_some() => {
            let (ctx, worker, frozen) = (ctx.clone(), *worker, *frozen);
            spawn(jobs, active, move || {
                actions::freeze_holding(&ctx, f, worker, frozen)
            });
        }
        Fault::StopWorker { worker, frozen, .. }
        | Fault::StopServer {
            server: worker,
            frozen,
        } => {
            let (proc, hold) = match fault {
                Fault::StopWorker { .. } => (ctx.workers[*worker], Hold::WorkerFrozen(*worker)),
                _ => (ctx.servers[*worker].0, Hold::ServerFrozen(*worker)),
            };
            match ctx.fleet.freeze(proc, true) {
                Ok(()) => {
                    j.open_window(hold);
                    undo.push((
                        now + *frozen,
                        Undo::Thaw {
                            proc,
                            fault: f,
                            hold,
                        },
                    ));
                }
                Err(e) => fail(e),
            }
        }
        Fault::Pause { game, paused } => {
            undo.push((now + *paused, Undo::Resume { game: *game }));
            let (ctx, game) = (ctx.clone(), *game);
            spawn(jobs, active, move || actions::pause(&ctx, f, game));
        }
        _ => {
            let (ctx, fault) = (ctx.clone(), fault.clone());
            spawn(jobs, active, move || match fault {
                Fault::RestartPostgres { immediate } => {
                    actions::restart_postgres(&ctx, f, immediate)
                }
                Fault::Upload {
                    game,
                    bot,
                    account,
                    server,
                } => actions::upload_version(&ctx, f, event, (game, bot, account, server)),
                Fault::Candidate {
                    game,
                    bot,
                    account,
                    server,
                    promote,
                } => actions::candidate(&ctx, f, event, (game, bot, account, server), promote),
                Fault::SeasonNew { game } => {
                    actions::command(&ctx, Some(f), &["season", "new", "--game", GAMES[game].id]);
                }
                Fault::SqliteReader => actions::sqlite_reader(&ctx, f),
                Fault::QuotaBurst { attempts } => actions::quota_burst(&ctx, f, attempts),
                _ => unreachable!("process faults are injected by the loop"),
            });
        }
    }
}

/// Ends what a fault started.
fn finish(ctx: &Arc<Ctx>, u: Undo, jobs: &mut Vec<Job>, active: &Arc<AtomicUsize>) {
    let j = &ctx.journal;
    match u {
        Undo::Thaw { proc, fault, hold } => {
            let r = ctx.fleet.freeze(proc, false);
            j.close_window(hold, 3.0);
            j.end_fault(
                fault,
                match r {
                    Ok(()) => "SIGCONT".to_string(),
                    Err(e) => format!("not thawed: {e}"),
                },
            );
        }
        Undo::Back {
            proc,
            fault,
            hold,
            grace,
        } => {
            // The fleet starts it again at its time; wait a moment for it.
            let started = Instant::now();
            while !ctx.fleet.available(proc) && started.elapsed() < Duration::from_secs(2) {
                ctx.fleet.tick();
                std::thread::sleep(Duration::from_millis(20));
            }
            j.close_window(hold, grace);
            j.end_fault(
                fault,
                if ctx.fleet.available(proc) {
                    format!("{} started again", ctx.fleet.name(proc))
                } else {
                    format!("{} NOT started again", ctx.fleet.name(proc))
                },
            );
        }
        Undo::Resume { game } => {
            let ctx = ctx.clone();
            spawn(jobs, active, move || actions::resume(&ctx, game));
        }
    }
}

fn spawn(jobs: &mut Vec<Job>, active: &Arc<AtomicUsize>, f: impl FnOnce() + Send + 'static) {
    active.fetch_add(1, Ordering::SeqCst);
    let active = active.clone();
    jobs.push(std::thread::spawn(move || {
        struct Done(Arc<AtomicUsize>);
        impl Drop for Done {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::SeqCst);
            }
        }
        let _done = Done(active);
        f();
    }));
}

/// The report of one shape's run.
fn print_outcome(ctx: &Ctx, o: &Outcome, samples: &[monitor::Sample]) {
    let phase = ctx.journal.phase();
    let looks = samples.iter().filter(|s| s.t >= phase).count();
    println!("\n{} run: faults injected", o.shape.name());
    println!("  {:<30} {:>8} {:>9}", "kind", "planned", "injected");
    for (kind, (planned, done)) in &o.faults {
        println!("  {kind:<30} {planned:>8} {done:>9}");
    }
    let acked = ctx
        .journal
        .uploads()
        .iter()
        .filter(|u| u.acknowledged())
        .count();
    let late = ctx
        .journal
        .faults()
        .iter()
        .map(|f| f.at - phase - f.planned)
        .fold(0.0f64, f64::max);
    println!(
        "  results played: {}; uploads acknowledged: {acked}; looks at the results: {looks}; faults at most {late:.2} s late",
        o.results
    );
    println!("{} run: invariants", o.shape.name());
    println!(
        "  {:<46} {:>14} {:>11}",
        "invariant", "checked", "violations"
    );
    for i in &o.invariants {
        println!(
            "  {:<46} {:>14} {:>11}",
            i.name,
            format!("{} {}", i.checked, i.unit),
            i.violations.len()
        );
    }
    for i in &o.invariants {
        for v in &i.violations {
            println!("  VIOLATION {}: {v}", i.name);
        }
    }
}

/// The table of every shape; the violations in all.
fn print_summary(outcomes: &[Outcome]) -> usize {
    if outcomes.is_empty() {
        return 0;
    }
    println!("\nfault run summary");
    println!(
        "  {:<10} {:>7} {:>8} {:>11} {:>11}",
        "shape", "faults", "results", "invariants", "violations"
    );
    let mut total = 0;
    for o in outcomes {
        let faults: usize = o.faults.values().map(|(_, done)| done).sum();
        let violations: usize = o.invariants.iter().map(|i| i.violations.len()).sum();
        total += violations;
        println!(
            "  {:<10} {:>7} {:>8} {:>11} {:>11}",
            o.shape.name(),
            faults,
            o.results,
            o.invariants.len(),
            violations
        );
    }
    total
}

/// Copies the run's folder (logs, the SQLite file) into `keep`, with a
/// `pg_dump` of the PostgreSQL database.
fn keep_run(ctx: &Ctx, keep: &Path, seed: u64) -> Result<(), String> {
    let to = keep.join(format!("{}-seed-{seed}", ctx.shape.name()));
    copy_dir(&ctx.dir, &to)?;
    if let Some(cluster) = &ctx.cluster {
        std::fs::copy(cluster.log(), to.join("postgres.log"))
            .map_err(|e| format!("cannot copy the PostgreSQL log: {e}"))?;
    }
    if let (Some(cluster), Db::Postgres { url, .. }) = (&ctx.cluster, &ctx.db) {
        let mut cmd = std::process::Command::new(cluster.program("pg_dump"));
        cmd.args(["--format=custom", "--file"])
            .arg(to.join("ludus.pgdump"))
            .arg(url);
        let o = procs::run_command(&mut cmd, Duration::from_secs(300))?;
        if !o.success() {
            return Err(format!("pg_dump: {}", o.describe()));
        }
    }
    println!("kept the run's folder in {}", to.display());
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| e.to_string())? {
        let entry = entry.map_err(|e| e.to_string())?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .map_err(|e| format!("cannot copy {}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}
