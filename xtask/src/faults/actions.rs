//! What a user or an operator does during the run, each on a thread of its
//! own so that the schedule keeps its times while a request waits on a
//! frozen server: uploads, candidates and challenges, seasons, pauses, the
//! `sqlite3` reader, the quota burst, and PostgreSQL's restarts.

use crate::faults::client::{self, Answer};
use crate::faults::ctx::Ctx;
use crate::faults::db::Db;
use crate::faults::journal::{Hold, OpRecord, UploadRecord};
use crate::faults::schedule::{bot_name, GAMES};
use sha2::{Digest, Sha256};
use std::time::Duration;

/// `wasm` with a custom section appended that holds `tag`: other bytes
/// (a new version, of another sha256) for the same bot.
pub fn with_custom_section(wasm: &[u8], tag: &str) -> Vec<u8> {
    fn leb(mut n: usize, out: &mut Vec<u8>) {
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }
    let name = b"ludus-faults";
    let mut payload = Vec::new();
    leb(name.len(), &mut payload);
    payload.extend_from_slice(name);
    payload.extend_from_slice(tag.as_bytes());
    let mut out = wasm.to_vec();
    out.push(0);
    leb(payload.len(), &mut out);
    out.extend_from_slice(&payload);
    out
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Uploads `wasm` as `name` for game `game` by account `account` through
/// server `server`, and records it.
#[allow(clippy::too_many_arguments)]
pub fn upload(
    ctx: &Ctx,
    account: usize,
    name: &str,
    game: &str,
    server: usize,
    candidate: bool,
    wasm: &[u8],
) -> UploadRecord {
    let at = ctx.journal.now();
    let token = &ctx.tokens[account];
    let a = client::upload(&ctx.server_url(server), token, name, game, candidate, wasm);
    let json = a.json();
    let record = UploadRecord {
        at,
        end: ctx.journal.now(),
        account: format!("u{account}"),
        name: name.to_string(),
        game: game.to_string(),
        server,
        candidate,
        sent_sha256: sha256_hex(wasm),
        status: a.status,
        body: a.body.chars().take(400).collect(),
        version: json.as_ref().and_then(|j| j["version"].as_u64()),
        sha256: json
            .as_ref()
            .filter(|_| matches!(a.status, Some(200 | 201)))
            .and_then(|j| j["sha256"].as_str().map(str::to_string)),
        burst: false,
    };
    ctx.journal.upload(record.clone());
    record
}

fn describe_upload(u: &UploadRecord) -> String {
    match (u.status, u.version) {
        (Some(201 | 200), Some(v)) => format!(
            "{} v{v} stored ({}…) through server {}",
            u.name,
            &u.sent_sha256[..12],
            u.server
        ),
        _ => format!(
            "{} through server {}: {}",
            u.name,
            u.server,
            Answer {
                status: u.status,
                body: u.body.clone()
            }
            .describe()
        ),
    }
}

/// The built example bot `file`'s bytes.
pub fn bot_bytes(ctx: &Ctx, file: &str) -> Result<Vec<u8>, String> {
    let path = ctx.bots.join(format!("{file}.wasm"));
    std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A new version of a bot: its example's bytes tagged with the run's seed
/// and the event's number.
fn new_version(ctx: &Ctx, game: usize, bot: usize, event: usize) -> Result<Vec<u8>, String> {
    Ok(with_custom_section(
        &bot_bytes(ctx, GAMES[game].bots[bot])?,
        &format!("seed {} event {event}", ctx.seed),
    ))
}

pub fn upload_version(
    ctx: &Ctx,
    fault: usize,
    event: usize,
    (game, bot, account, server): (usize, usize, usize, usize),
) {
    let name = bot_name(game, bot, account);
    let outcome = match new_version(ctx, game, bot, event) {
        Ok(wasm) => {
            let server = ctx.pick_server(server);
            describe_upload(&upload(
                ctx,
                account,
                &name,
                GAMES[game].id,
                server,
                false,
                &wasm,
            ))
        }
        Err(e) => e,
    };
    ctx.journal.end_fault(fault, outcome);
}

/// A candidate, a challenge of it (4 games against the other bot of its
/// game of account 0), and its promotion if `promote`.
pub fn candidate(
    ctx: &Ctx,
    fault: usize,
    event: usize,
    (game, bot, account, server): (usize, usize, usize, usize),
    promote: bool,
) {
    let name = bot_name(game, bot, account);
    let wasm = match new_version(ctx, game, bot, event) {
        Ok(w) => w,
        Err(e) => return ctx.journal.end_fault(fault, e),
    };
    let server = ctx.pick_server(server);
    let u = upload(ctx, account, &name, GAMES[game].id, server, true, &wasm);
    let mut outcome = describe_upload(&u);
    if let (Some(201 | 200), Some(version)) = (u.status, u.version) {
        let opponent = bot_name(game, (bot + 1) % GAMES[game].bots.len(), 0);
        let doc = serde_json::json!({
            "bot": format!("{name}:{version}"),
            "vs": [opponent],
            "games": 4,
            "seed": (ctx.seed.wrapping_mul(1000).wrapping_add(event as u64)).to_string(),
        });
        let server = ctx.pick_server(server);
        let a = request(
            ctx,
            server,
            &format!("challenge of {name}:{version} vs {opponent}"),
            |url, token| client::post_json(&format!("{url}/api/challenges"), token, &doc),
            account,
        );
        outcome.push_str(&format!("; challenge: {}", short(&a)));
        if promote {
            let a = request(
                ctx,
                ctx.pick_server(server),
                &format!("promote {name}:{version}"),
                |url, token| {
                    client::post(
                        &format!("{url}/api/bots/{name}/versions/{version}/promote"),
                        token,
                        b"",
                        "application/json",
                        Duration::from_secs(60),
                    )
                },
                account,
            );
            outcome.push_str(&format!("; promote: {}", short(&a)));
        }
    }
    ctx.journal.end_fault(fault, outcome);
}

fn short(a: &Answer) -> String {
    match (a.status, a.json()) {
        (Some(s @ 200..=299), Some(j)) if !j["id"].is_null() => {
            format!(
                "{s}, id {}",
                j["id"].as_str().map_or(j["id"].to_string(), str::to_string)
            )
        }
        _ => a.describe(),
    }
}

/// A request of account `account` to server `server`, recorded.
fn request(
    ctx: &Ctx,
    server: usize,
    what: &str,
    send: impl FnOnce(&str, &str) -> Answer,
    account: usize,
) -> Answer {
    let at = ctx.journal.now();
    let a = send(&ctx.server_url(server), &ctx.tokens[account]);
    ctx.journal.op(OpRecord {
        at,
        end: ctx.journal.now(),
        what: what.to_string(),
        server: Some(server),
        ok: a.status.is_some_and(|s| (200..300).contains(&s)),
        refused: a.status.is_some_and(|s| (400..500).contains(&s)),
        detail: a.describe(),
    });
    a
}

/// A `ludus` command of the operator on the database, recorded; whether it
/// succeeded.
pub fn command(ctx: &Ctx, fault: Option<usize>, args: &[&str]) -> bool {
    let at = ctx.journal.now();
    let mut all: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    all.extend(["--db".to_string(), ctx.db.arg()]);
    let (ok, detail) = match ctx.ludus(&all, Duration::from_secs(90)) {
        Ok(o) if o.success() => (
            true,
            crate::faults::procs::tail_lines(&o.stdout, 1)
                .first()
                .cloned()
                .unwrap_or_default(),
        ),
        Ok(o) => (false, o.describe()),
        Err(e) => (false, e),
    };
    let what = format!("ludus {}", args.join(" "));
    ctx.journal.op(OpRecord {
        at,
        end: ctx.journal.now(),
        what: what.clone(),
        server: None,
        ok,
        refused: false,
        detail: detail.clone(),
    });
    let said = format!("{}: {detail}", if ok { "done" } else { "FAILED" });
    match fault {
        Some(f) => ctx.journal.end_fault(f, said),
        None => ctx.journal.say(format!("{what}: {said}")),
    }
    ok
}

/// `ludus ladder pause GAME`.
pub fn pause(ctx: &Ctx, fault: usize, game: usize) {
    command(ctx, Some(fault), &["ladder", "pause", GAMES[game].id]);
}

/// `ludus ladder resume GAME`, tried until it succeeds (a minute at most:
/// the database may be restarting).
pub fn resume(ctx: &Ctx, game: usize) {
    let started = std::time::Instant::now();
    while !command(ctx, None, &["ladder", "resume", GAMES[game].id]) {
        if started.elapsed() > Duration::from_secs(60) {
            return;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// `sqlite3 FILE 'SELECT count(*) FROM results'`, then it exits, while the
/// server writes: what an operator's look at the live file does.
pub fn sqlite_reader(ctx: &Ctx, fault: usize) {
    let file = ctx.db.arg();
    let at = ctx.journal.now();
    let mut cmd = std::process::Command::new("sqlite3");
    cmd.arg(&file).arg("SELECT count(*) FROM results");
    let (ok, detail) = match crate::faults::procs::run_command(&mut cmd, Duration::from_secs(30)) {
        Ok(o) if o.success() => (true, format!("{} results", o.stdout.trim())),
        Ok(o) => (false, o.describe()),
        Err(e) => (false, e),
    };
    ctx.journal.op(OpRecord {
        at,
        end: ctx.journal.now(),
        what: "sqlite3 reader".into(),
        server: None,
        ok,
        refused: false,
        detail: detail.clone(),
    });
    ctx.journal.end_fault(fault, detail);
}

/// The uploads of account `quota` past its daily quota, one at a time,
/// through each server in turn: bytes that are not a bot (refused at
/// once, counted all the same).
pub fn quota_burst(ctx: &Ctx, fault: usize, attempts: u32) {
    let mut statuses = std::collections::BTreeMap::<String, u32>::new();
    for k in 0..attempts {
        let server = ctx.pick_server(k as usize % ctx.servers.len());
        let at = ctx.journal.now();
        let body = format!("quota burst {k}: not a wasm module");
        let a = client::upload(
            &ctx.server_url(server),
            &ctx.quota_token,
            "junk",
            GAMES[0].id,
            false,
            body.as_bytes(),
        );
        *statuses
            .entry(a.status.map_or("no answer".into(), |s| s.to_string()))
            .or_default() += 1;
        ctx.journal.upload(UploadRecord {
            at,
            end: ctx.journal.now(),
            account: "quota".into(),
            name: "junk".into(),
            game: GAMES[0].id.into(),
            server,
            candidate: false,
            sent_sha256: sha256_hex(body.as_bytes()),
            status: a.status,
            body: a.body.chars().take(400).collect(),
            version: None,
            sha256: None,
            burst: true,
        });
    }
    let answers: Vec<String> = statuses.iter().map(|(s, n)| format!("{n}× {s}")).collect();
    ctx.journal.end_fault(fault, answers.join(", "));
}

/// PostgreSQL restarted `fast` or `immediate`, keeping its port and data.
pub fn restart_postgres(ctx: &Ctx, fault: usize, immediate: bool) {
    let Some(cluster) = ctx.cluster.as_ref() else {
        return ctx.journal.end_fault(fault, "no PostgreSQL in this shape");
    };
    ctx.journal.open_window(Hold::Database);
    let how = if immediate {
        ludus_testkit::postgres::Shutdown::Immediate
    } else {
        ludus_testkit::postgres::Shutdown::Fast
    };
    let outcome = match cluster.restart(how) {
        Ok(took) => format!("back after {:.1} s", took.as_secs_f64()),
        Err(e) => format!("FAILED: {e}"),
    };
    // Workers reconnect (started again), leases end: 10 s to recover.
    ctx.journal.close_window(Hold::Database, 10.0);
    ctx.journal.end_fault(fault, outcome);
}

/// SIGSTOP of worker `worker` at a moment it holds a lock in PostgreSQL
/// ([`AIM_SECS`](crate::faults::schedule::AIM_SECS) at most spent waiting for
/// one), SIGCONT `frozen` later.
pub fn freeze_holding(ctx: &Ctx, fault: usize, worker: usize, frozen: Duration) {
    let Db::Postgres { url, psql } = &ctx.db else {
        return ctx.journal.end_fault(fault, "no PostgreSQL in this shape");
    };
    let proc = ctx.workers[worker];
    let aimed = crate::faults::aim::freeze_holding(
        psql,
        url,
        || ctx.fleet.pid(proc),
        |on| ctx.fleet.freeze(proc, on),
        Duration::from_secs_f64(crate::faults::schedule::AIM_SECS),
    );
    let aimed = match aimed {
        Ok(a) => a,
        Err(e) => return ctx.journal.end_fault(fault, format!("NOT INJECTED: {e}")),
    };
    ctx.journal.open_window(Hold::WorkerFrozen(worker));
    ctx.journal.say(format!(
        "SIGSTOP worker {worker} {} after {:.1} s{}",
        if aimed.holding {
            format!("while it holds advisory lock {}", aimed.lock)
        } else {
            "WITHOUT a lock (none seen)".to_string()
        },
        aimed.waited.as_secs_f64(),
        if aimed.missed > 0 {
            format!(
                " ({} earlier stops found the lock gone and were taken back)",
                aimed.missed
            )
        } else {
            String::new()
        }
    ));
    std::thread::sleep(frozen);
    let thawed = ctx.fleet.freeze(proc, false);
    ctx.journal.close_window(Hold::WorkerFrozen(worker), 3.0);
    ctx.journal.end_fault(
        fault,
        match thawed {
            Ok(()) => "SIGCONT".to_string(),
            Err(e) => format!("not thawed: {e}"),
        },
    );
}
