//! The invariants checked once every process has stopped, each with its
//! figures: the database's own (`ludus ladder check`, or where the `ludus`
//! under test predates it, `ladder recompute` and the harness's SQL), and
//! the run's: every acknowledged upload stored with its sha256, replays
//! that re-run identically, the upload quota, the longest stall, the
//! processes' ends, the answers to what was asked while nothing disturbed
//! it, the logs, and the SQLite file's integrity.

use crate::faults::ctx::Ctx;
use crate::faults::journal::{Hold, UploadRecord};
use crate::faults::monitor::{self, Sample};
use crate::faults::procs::Cause;
use crate::faults::schedule::Shape;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// One invariant: what it counted, and each violation in a line.
#[derive(Debug, Clone)]
pub struct Invariant {
    pub name: String,
    pub checked: u64,
    pub unit: String,
    pub violations: Vec<String>,
}

impl Invariant {
    fn new(name: &str, unit: &str) -> Invariant {
        Invariant {
            name: name.to_string(),
            checked: 0,
            unit: unit.to_string(),
            violations: Vec::new(),
        }
    }
}

const Q: Duration = Duration::from_secs(60);

/// Every invariant of the run.
pub fn all(ctx: &Ctx, samples: &[Sample], max_stall: f64) -> Vec<Invariant> {
    let mut out = Vec::new();
    match ladder_check(ctx) {
        Some(found) => out.extend(found),
        None => {
            ctx.journal.say(
                "this `ludus` has no `ladder check`: checking the ratings with `ladder recompute` and SQL",
            );
            out.extend(ratings_fallback(ctx));
        }
    }
    out.push(results_kept(ctx, samples));
    out.push(acknowledged_uploads(ctx));
    out.push(replays(ctx));
    out.push(quota(ctx));
    out.push(stall(ctx, samples, max_stall));
    out.push(processes(ctx));
    out.push(answers(ctx, samples));
    out.push(logs(ctx));
    if ctx.shape == Shape::Sqlite {
        out.push(sqlite_integrity(ctx));
    }
    out
}

/// `ludus ladder check --all --bytes --format json`: its invariants, each
/// over every ladder; `None` when this `ludus` does not have the command.
fn ladder_check(ctx: &Ctx) -> Option<Vec<Invariant>> {
    let help = ctx
        .ludus(&["ladder".into(), "check".into(), "--help".into()], Q)
        .ok()?;
    if !help.success() {
        return None;
    }
    let args: Vec<String> = [
        "ladder", "check", "--all", "--bytes", "--format", "json", "--db",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([ctx.db.arg()])
    .collect();
    let mut whole = Invariant::new("ladder check runs", "runs");
    whole.checked = 1;
    let o = match ctx.ludus(&args, Duration::from_secs(600)) {
        Ok(o) => o,
        Err(e) => {
            whole.violations.push(e);
            return Some(vec![whole]);
        }
    };
    let Ok(report) = serde_json::from_str::<serde_json::Value>(o.stdout.trim()) else {
        whole.violations.push(format!(
            "`ludus ladder check` gave no JSON: {}",
            o.describe()
        ));
        return Some(vec![whole]);
    };
    let mut by_name: BTreeMap<String, Invariant> = BTreeMap::new();
    let mut add = |inv: &serde_json::Value, ladder: String| {
        let name = inv["name"].as_str().unwrap_or("?").to_string();
        let e = by_name.entry(name.clone()).or_insert_with(|| {
            Invariant::new(
                &format!("ladder check: {name}"),
                inv["unit"].as_str().unwrap_or("rows"),
            )
        });
        e.checked += inv["checked"].as_u64().unwrap_or(0);
        let listed: Vec<String> = inv["violations"]
            .as_array()
            .map(|v| {
                v.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let violated = inv["violated"].as_u64().unwrap_or(listed.len() as u64) as usize;
        for v in &listed {
            e.violations.push(format!("{ladder}{v}"));
        }
        for k in listed.len()..violated {
            e.violations.push(format!(
                "{ladder}(violation {} of {violated}, not listed)",
                k + 1
            ));
        }
    };
    let mut lag = Vec::new();
    for l in report["ladders"].as_array().into_iter().flatten() {
        let label = format!(
            "ladder {} ({} {}): ",
            l["ladder"],
            l["game"].as_str().unwrap_or("?"),
            l["kind"].as_str().unwrap_or("?")
        );
        for inv in l["invariants"].as_array().into_iter().flatten() {
            add(inv, label.clone());
        }
        if let Some(n) = l["rating_lag"].as_u64().filter(|&n| n > 0) {
            lag.push(format!("ladder {} {n}", l["ladder"]));
        }
    }
    if !report["bots"].is_null() {
        add(&report["bots"], String::new());
    }
    if !lag.is_empty() {
        ctx.journal
            .say(format!("rating lag after the stop: {}", lag.join(", ")));
    }
    let total = report["violations"].as_u64().unwrap_or(0);
    let listed: u64 = by_name.values().map(|i| i.violations.len() as u64).sum();
    if total != listed || o.success() != (total == 0) {
        whole.violations.push(format!(
            "`ludus ladder check` says {total} violations and exits {}, its invariants list {listed}",
            o.status.map_or("without a status".into(), crate::faults::procs::describe_status)
        ));
    }
    let mut out = vec![whole];
    out.extend(by_name.into_values());
    Some(out)
}

/// A ladder: id, game, kind, rated_through, matches.
type LadderRow = (i64, String, String, i64, i64);

/// The ladders.
fn ladders(ctx: &Ctx) -> Result<Vec<LadderRow>, String> {
    ctx.db
        .query(
            "SELECT l.id, l.game, l.kind, l.rated_through,
                    (SELECT count(*) FROM matches m WHERE m.ladder_id = l.id)
             FROM ladders l ORDER BY l.id",
            Q,
        )?
        .into_iter()
        .map(|r| {
            let n = |i: usize| r.get(i).and_then(|v| v.parse::<i64>().ok()).unwrap_or(-1);
            Ok((n(0), r[1].clone(), r[2].clone(), n(3), n(4)))
        })
        .collect()
}

/// Before `ladder check`: each rated ladder's Elo recomputed from its
/// results (`ludus ladder recompute`), and in SQL: its schedule has no
/// hole, every match its ratings cover has a result (none was skipped),
/// every seat of a rated match it covers has its Elo, none past it has.
fn ratings_fallback(ctx: &Ctx) -> Vec<Invariant> {
    let mut recompute = Invariant::new("ratings recomputed (ladder recompute)", "ladders");
    let mut schedule = Invariant::new("schedule without holes", "matches");
    let mut prefix = Invariant::new("rated prefix has every result", "matches");
    let mut elo = Invariant::new("rated matches have their Elo", "seats");
    let list = match ladders(ctx) {
        Ok(l) => l,
        Err(e) => {
            recompute.violations.push(e);
            return vec![recompute];
        }
    };
    for (id, game, kind, rated_through, matches) in list {
        let label = format!("ladder {id} ({game} {kind})");
        let holes = ctx.db.count(
            &format!(
                "SELECT count(*) - count(DISTINCT idx) + (CASE WHEN count(*) = 0 THEN 0 ELSE max(idx) + 1 - count(*) END)
                 FROM matches WHERE ladder_id = {id}"
            ),
            Q,
        );
        schedule.checked += matches.max(0) as u64;
        match holes {
            Ok(0) => {}
            Ok(n) => schedule.violations.push(format!(
                "{label}: {n} indices of its schedule missing or twice"
            )),
            Err(e) => schedule.violations.push(e),
        }
        if kind == "challenge" {
            continue;
        }
        recompute.checked += 1;
        let args: Vec<String> = ["ladder", "recompute", "--ladder", &id.to_string(), "--db"]
            .iter()
            .map(|s| s.to_string())
            .chain([ctx.db.arg()])
            .collect();
        match ctx.ludus(&args, Duration::from_secs(300)) {
            Ok(o) if o.success() => {}
            Ok(o) => recompute
                .violations
                .push(format!("{label}: {}", o.describe())),
            Err(e) => recompute.violations.push(e),
        }
        prefix.checked += rated_through.max(0) as u64;
        match ctx.db.query(
            &format!(
                "SELECT m.idx FROM matches m LEFT JOIN results r ON r.ladder_id = m.ladder_id AND r.idx = m.idx
                 WHERE m.ladder_id = {id} AND m.idx < {rated_through} AND r.idx IS NULL ORDER BY m.idx"
            ),
            Q,
        ) {
            Ok(rows) if rows.is_empty() => {}
            Ok(rows) => prefix.violations.push(format!(
                "{label}: rated through match {rated_through}, but {} matches before it have no result (first: {})",
                rows.len(),
                rows.iter().take(8).map(|r| r[0].clone()).collect::<Vec<_>>().join(", ")
            )),
            Err(e) => prefix.violations.push(e),
        }
        let seats = ctx.db.query(
            &format!(
                "SELECT s.idx, CASE WHEN s.elo IS NULL THEN 0 ELSE 1 END,
                        CASE WHEN r.idx IS NULL OR r.aborted IS NOT NULL THEN 0 ELSE 1 END
                 FROM match_seats s LEFT JOIN results r ON r.ladder_id = s.ladder_id AND r.idx = s.idx
                 WHERE s.ladder_id = {id}"
            ),
            Q,
        );
        match seats {
            Ok(rows) => {
                let mut missing = BTreeSet::new();
                let mut early = BTreeSet::new();
                for r in &rows {
                    let idx: i64 = r[0].parse().unwrap_or(-1);
                    let (has_elo, rated) = (r[1] == "1", r[2] == "1");
                    if idx < rated_through && rated {
                        elo.checked += 1;
                        if !has_elo {
                            missing.insert(idx);
                        }
                    } else if idx >= rated_through && has_elo {
                        early.insert(idx);
                    }
                }
                if !missing.is_empty() {
                    elo.violations.push(format!(
                        "{label}: {} rated matches before {rated_through} have a seat without Elo: skipped by the ratings (first: {:?})",
                        missing.len(),
                        missing.iter().take(8).collect::<Vec<_>>()
                    ));
                }
                if !early.is_empty() {
                    elo.violations.push(format!(
                        "{label}: {} matches at or past {rated_through} have an Elo (first: {:?})",
                        early.len(),
                        early.iter().take(8).collect::<Vec<_>>()
                    ));
                }
            }
            Err(e) => elo.violations.push(e),
        }
    }
    vec![recompute, schedule, prefix, elo]
}

/// No result seen during the run is lost: the database holds at the end
/// at least as many results as any look counted (results are never
/// deleted), the `sqlite3` reader's counts included.
fn results_kept(ctx: &Ctx, samples: &[Sample]) -> Invariant {
    let mut inv = Invariant::new("results seen are kept", "looks");
    let mut seen: Vec<(f64, i64, &str)> = samples
        .iter()
        .filter_map(|s| Some((s.t, s.results?, "look")))
        .collect();
    let ops = ctx.journal.ops();
    for o in &ops {
        if o.what == "sqlite3 reader" {
            if let Some(n) = o
                .detail
                .strip_suffix(" results")
                .and_then(|n| n.parse().ok())
            {
                seen.push((o.at, n, "sqlite3 reader"));
            }
        }
    }
    inv.checked = seen.len() as u64;
    let Some(&(at, most, by)) = seen.iter().max_by_key(|(_, n, _)| *n) else {
        return inv;
    };
    match ctx.db.count("SELECT count(*) FROM results", Q) {
        Ok(end) if end >= most => {}
        Ok(end) => inv.violations.push(format!(
            "{most} results counted at {} (by the {by}), {end} in the database at the end: {} lost",
            ctx.journal.show(at),
            most - end
        )),
        Err(e) => inv.violations.push(e),
    }
    inv
}

/// Every upload a server acknowledged (201 with its sha256) is stored:
/// its name and version with that sha256, the sha256 of the bytes sent,
/// and wasm whose sha256 it is.
fn acknowledged_uploads(ctx: &Ctx) -> Invariant {
    let mut inv = Invariant::new("acknowledged uploads stored", "uploads");
    let acked: Vec<UploadRecord> = ctx
        .journal
        .uploads()
        .into_iter()
        .filter(UploadRecord::acknowledged)
        .collect();
    inv.checked = acked.len() as u64;
    let versions = match ctx
        .db
        .query("SELECT name, version, sha256 FROM bot_versions", Q)
    {
        Ok(rows) => rows
            .into_iter()
            .map(|r| ((r[0].clone(), r[1].clone()), r[2].clone()))
            .collect::<BTreeMap<_, _>>(),
        Err(e) => {
            inv.violations.push(e);
            return inv;
        }
    };
    let shas: BTreeSet<String> = acked.iter().filter_map(|u| u.sha256.clone()).collect();
    let mut stored = BTreeMap::new();
    for sha in &shas {
        match ctx.db.query(
            &format!(
                "SELECT {} FROM bots WHERE sha256 = '{sha}'",
                ctx.db.hex("wasm")
            ),
            Q,
        ) {
            Ok(rows) => {
                let bytes = rows
                    .first()
                    .and_then(|r| r.first())
                    .and_then(|h| hex::decode(h.trim().to_ascii_lowercase()).ok());
                stored.insert(sha.clone(), bytes.map(|b| hex::encode(Sha256::digest(&b))));
            }
            Err(e) => inv.violations.push(e),
        }
    }
    for u in &acked {
        let sha = u.sha256.clone().unwrap_or_default();
        let v = u.version.unwrap_or(0).to_string();
        let what = format!(
            "{} v{v} ({} by {}, {} through server {} at {})",
            u.name,
            u.game,
            u.account,
            if u.candidate { "candidate" } else { "upload" },
            u.server,
            ctx.journal.show(u.at)
        );
        if sha != u.sent_sha256 {
            inv.violations.push(format!(
                "{what}: acknowledged with sha256 {sha}, the bytes sent have {}",
                u.sent_sha256
            ));
        }
        match versions.get(&(u.name.clone(), v.clone())) {
            None => inv.violations.push(format!(
                "{what}: acknowledged, but no such version is stored"
            )),
            Some(s) if *s != sha => inv.violations.push(format!(
                "{what}: acknowledged with sha256 {sha}, stored with {s}"
            )),
            _ => {}
        }
        match stored.get(&sha) {
            Some(Some(actual)) if *actual == sha => {}
            Some(Some(actual)) => inv
                .violations
                .push(format!("{what}: its stored wasm has sha256 {actual}")),
            Some(None) => inv
                .violations
                .push(format!("{what}: its wasm ({sha}) is not in the bots table")),
            None => {}
        }
    }
    inv
}

/// `ludus replay verify MATCH` re-runs identically a seeded sample of the
/// results: some whose replay is stored, some regenerated.
fn replays(ctx: &Ctx) -> Invariant {
    let mut inv = Invariant::new("replays re-run identically", "matches");
    let rows = match ctx.db.query(
        "SELECT r.match_id, CASE WHEN p.match_id IS NULL THEN 0 ELSE 1 END
         FROM results r LEFT JOIN replays p ON p.match_id = r.match_id
         WHERE r.aborted IS NULL ORDER BY r.ladder_id, r.idx",
        Q,
    ) {
        Ok(r) => r,
        Err(e) => {
            inv.violations.push(e);
            return inv;
        }
    };
    let mut rng = ChaCha20Rng::seed_from_u64(ctx.seed ^ 0x7265_706c_6179);
    let mut sample = Vec::new();
    for stored in ["1", "0"] {
        let mut pool: Vec<&Vec<String>> = rows.iter().filter(|r| r[1] == stored).collect();
        for _ in 0..4 {
            if pool.is_empty() {
                break;
            }
            let i = (rng.next_u64() % pool.len() as u64) as usize;
            sample.push((pool.swap_remove(i)[0].clone(), stored == "1"));
        }
    }
    for (id, stored) in sample {
        inv.checked += 1;
        let args: Vec<String> = vec![
            "replay".into(),
            "verify".into(),
            id.clone(),
            "--db".into(),
            ctx.db.arg(),
        ];
        let kind = if stored { "stored" } else { "regenerated" };
        match ctx.ludus(&args, Duration::from_secs(300)) {
            Ok(o) if o.success() && o.stdout.contains("identically") => ctx
                .journal
                .say(format!("replay verify {id} ({kind}): identical")),
            Ok(o) => inv
                .violations
                .push(format!("replay verify {id} ({kind}): {}", o.describe())),
            Err(e) => inv.violations.push(e),
        }
    }
    inv
}

/// No account made more uploads than its daily quota (50): the uploads
/// the database counted, and the attempts answered past the quota check;
/// an account refused for its quota has made exactly 50.
fn quota(ctx: &Ctx) -> Invariant {
    const DAILY: i64 = 50;
    let mut inv = Invariant::new("upload quota never exceeded", "accounts");
    let counted: BTreeMap<String, i64> = match ctx.db.query(
        "SELECT a.name, count(u.account_id) FROM accounts a LEFT JOIN uploads u ON u.account_id = a.id GROUP BY a.name",
        Q,
    ) {
        Ok(rows) => rows
            .into_iter()
            .map(|r| (r[0].clone(), r[1].parse().unwrap_or(-1)))
            .collect(),
        Err(e) => {
            inv.violations.push(e);
            return inv;
        }
    };
    let uploads = ctx.journal.uploads();
    let by_quota =
        |u: &UploadRecord| u.status == Some(429) && u.body.contains("uploads in the last 24 hours");
    // Answers given after the quota check counted the attempt.
    let past_check = |u: &UploadRecord| matches!(u.status, Some(201 | 200 | 408 | 413 | 422));
    for (name, &n) in &counted {
        if name == "house" {
            continue;
        }
        inv.checked += 1;
        let mine: Vec<&UploadRecord> = uploads.iter().filter(|u| &u.account == name).collect();
        let answered = mine.iter().filter(|u| past_check(u)).count() as i64;
        let refused = mine.iter().filter(|u| by_quota(u)).count();
        if n > DAILY {
            inv.violations.push(format!(
                "{name}: {n} uploads counted in 24 hours, the quota is {DAILY}"
            ));
        }
        if answered > DAILY {
            inv.violations.push(format!(
                "{name}: {answered} uploads answered past the quota check, the quota is {DAILY}"
            ));
        }
        if answered > n {
            inv.violations.push(format!(
                "{name}: {answered} uploads answered past the quota check, but only {n} counted"
            ));
        }
        if refused > 0 && n != DAILY {
            inv.violations.push(format!(
                "{name}: refused {refused} times for its quota, with {n} uploads counted"
            ));
        }
        let burst = mine.iter().filter(|u| u.burst).count();
        if burst > 0 {
            ctx.journal.say(format!(
                "{name}: {burst} attempts in the quota burst; {n} uploads counted, {answered} answered past the quota check, {refused} refused for the quota"
            ));
        }
    }
    inv
}

/// The longest time without a new result while a worker could play and no
/// fault excused it, within `max` seconds.
fn stall(ctx: &Ctx, samples: &[Sample], max: f64) -> Invariant {
    let mut inv = Invariant::new(&format!("no stall over {max:.0} s"), "samples");
    inv.checked = samples.len() as u64;
    let phase = ctx.journal.phase();
    let during: Vec<Sample> = samples.iter().filter(|s| s.t >= phase).cloned().collect();
    let any = monitor::longest(&during, |s| s.can_play);
    let unexcused = monitor::longest(&during, |s| s.can_play && !s.excused);
    let describe = |s: &monitor::Stall| {
        let faults = ctx.journal.faults_during(s.from, s.to);
        let failed: Vec<&Sample> = during
            .iter()
            .filter(|x| x.t >= s.from && x.t <= s.to && x.error.is_some())
            .collect();
        format!(
            "{:.1} s, from {} to {}{}; faults then: {}",
            s.secs(),
            ctx.journal.show(s.from),
            ctx.journal.show(s.to),
            match failed.first().and_then(|x| x.error.as_ref()) {
                Some(e) => format!(" ({} looks failed: {e})", failed.len()),
                None => String::new(),
            },
            if faults.is_empty() {
                "none".to_string()
            } else {
                faults.join("; ")
            }
        )
    };
    let unread = during.iter().filter(|s| s.results.is_none()).count();
    ctx.journal.say(format!(
        "longest stall: {}",
        any.as_ref().map_or("none".into(), describe)
    ));
    ctx.journal.say(format!(
        "longest stall not excused by a fault (the database restarting, a server frozen on PostgreSQL or starting again on SQLite): {}",
        unexcused.as_ref().map_or("none".into(), describe)
    ));
    if unread > 0 {
        ctx.journal.say(format!(
            "{unread} of {} looks could not count the results",
            during.len()
        ));
    }
    if let Some(s) = unexcused.filter(|s| s.secs() > max) {
        inv.violations
            .push(format!("no result for {}", describe(&s)));
    }
    if during.iter().all(|s| s.results.is_none()) {
        inv.violations
            .push("the results could not be counted during the run".into());
    }
    inv
}

/// Every process ended only when the harness killed it, or (a worker)
/// while the database restarted, for having lost it; every one was
/// running at the end and stopped on SIGTERM, with status 0, within 30 s.
fn processes(ctx: &Ctx) -> Invariant {
    let mut inv = Invariant::new("processes end only when told", "process ends");
    let exits = ctx.fleet.exits();
    inv.checked = exits.len() as u64;
    for e in &exits {
        // Its last words, not its progress lines.
        let words: Vec<&str> = e
            .tail
            .iter()
            .map(String::as_str)
            .filter(|l| !l.contains("matches done"))
            .collect();
        let evidence = match words.len() {
            0 => String::new(),
            n => format!(": {}", words[n.saturating_sub(2)..].join(" / ")),
        };
        match e.cause {
            Cause::Killed => {}
            Cause::OnItsOwn => {
                // A worker that loses its database stops, saying so.
                let db_away = ctx.journal.held(e.at - 1.0, e.at, |h| h == Hold::Database);
                let lost = e.tail.last().is_some_and(|l| {
                    l.contains("cannot reach the PostgreSQL server")
                        || l.contains("connection closed")
                        || l.contains("terminating connection")
                        || l.contains("shutting down")
                        || l.contains("starting up")
                });
                if !(db_away && lost && e.process.starts_with("worker")) {
                    inv.violations.push(format!(
                        "{} ended on its own at {} ({}){evidence}",
                        e.process,
                        ctx.journal.show(e.at),
                        e.status
                    ));
                }
            }
            Cause::Terminated => {
                if !e.success {
                    inv.violations.push(format!(
                        "{} did not stop cleanly on SIGTERM ({}){evidence}",
                        e.process, e.status
                    ));
                }
            }
        }
    }
    for name in ctx
        .not_running_at_end
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
    {
        inv.violations
            .push(format!("{name} was not running at the end of the run"));
    }
    inv
}

/// What was asked while nothing disturbed it got an answer: uploads,
/// challenges and promotions (5xx or no answer) while their server ran
/// unfrozen and the database was up; the operator's commands while the
/// database was up (and, on SQLite, no process was frozen or killed); the
/// looks at the results (psql, or the server's `/metrics` on SQLite)
/// likewise.
fn answers(ctx: &Ctx, samples: &[Sample]) -> Invariant {
    let mut inv = Invariant::new("undisturbed requests answered", "requests");
    let sqlite = ctx.shape == Shape::Sqlite;
    let disturbed = |from: f64, to: f64, server: Option<usize>| {
        ctx.journal.held(from - 2.0, to + 2.0, |h| match h {
            Hold::Database => true,
            Hold::ServerDown(s) | Hold::ServerFrozen(s) => sqlite || Some(s) == server,
            Hold::WorkerDown(_) | Hold::WorkerFrozen(_) => sqlite,
        })
    };
    for u in ctx.journal.uploads() {
        let failed = u.status.is_none_or(|s| s >= 500);
        if disturbed(u.at, u.end, Some(u.server)) {
            continue;
        }
        inv.checked += 1;
        if failed {
            inv.violations.push(format!(
                "upload of {} through server {} at {}: {}",
                u.name,
                u.server,
                ctx.journal.show(u.at),
                crate::faults::client::Answer {
                    status: u.status,
                    body: u.body.clone()
                }
                .describe()
            ));
        }
    }
    // Failed looks, a line for each run of them.
    let mut run: Option<(f64, f64, usize, String)> = None;
    let mut runs = Vec::new();
    for s in samples.iter().filter(|s| s.t >= ctx.journal.phase()) {
        let server = match ctx.shape {
            Shape::Sqlite => Some(0),
            Shape::Postgres => None,
        };
        if disturbed(s.t, s.t, server) || (sqlite && !s.up) {
            continue;
        }
        inv.checked += 1;
        match (&s.error, run.as_mut()) {
            (Some(_), Some(r)) => {
                r.1 = s.t;
                r.2 += 1;
            }
            (Some(e), None) => run = Some((s.t, s.t, 1, e.clone())),
            (None, _) => runs.extend(run.take()),
        }
    }
    runs.extend(run.take());
    for (from, to, n, e) in runs {
        inv.violations.push(format!(
            "{n} looks at the results failed from {} to {}: {e}",
            ctx.journal.show(from),
            ctx.journal.show(to)
        ));
    }
    for o in ctx.journal.ops() {
        if disturbed(o.at, o.end, o.server) {
            continue;
        }
        inv.checked += 1;
        if !o.ok && !o.refused {
            inv.violations.push(format!(
                "{} at {}: {}",
                o.what,
                ctx.journal.show(o.at),
                o.detail
            ));
        }
    }
    inv
}

/// No process logged a panic, a deadlock or a corrupt database.
fn logs(ctx: &Ctx) -> Invariant {
    const SIGNS: [&str; 5] = [
        "panicked at",
        "deadlock detected",
        "malformed",
        "database disk image",
        "disk I/O error",
    ];
    let mut inv = Invariant::new("logs without panic, deadlock, corruption", "log files");
    for (name, out, err, _) in ctx.fleet.files() {
        for file in [out, err] {
            inv.checked += 1;
            let text = crate::faults::procs::read_from(&file, 0);
            for sign in SIGNS {
                let hits: Vec<&str> = text.lines().filter(|l| l.contains(sign)).collect();
                if let Some(first) = hits.first() {
                    inv.violations.push(format!(
                        "{name} ({}): {} lines with `{sign}`, the first: {}",
                        file.file_name().unwrap_or_default().to_string_lossy(),
                        hits.len(),
                        first.trim()
                    ));
                }
            }
        }
    }
    inv
}

/// `PRAGMA integrity_check` of the SQLite file, once nothing writes it.
fn sqlite_integrity(ctx: &Ctx) -> Invariant {
    let mut inv = Invariant::new("sqlite integrity_check", "files");
    inv.checked = 1;
    match ctx.db.query("PRAGMA integrity_check", Q) {
        Ok(rows) if rows.len() == 1 && rows[0][0] == "ok" => {}
        Ok(rows) => inv.violations.push(format!(
            "PRAGMA integrity_check: {}",
            rows.iter()
                .take(5)
                .map(|r| r.join(" "))
                .collect::<Vec<_>>()
                .join(" / ")
        )),
        Err(e) => inv.violations.push(e),
    }
    inv
}
