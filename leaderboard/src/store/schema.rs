//! The schema and its versions, applied by refinery's runner inside one
//! transaction that holds the write lock (SQLite) or an advisory lock
//! (PostgreSQL), so that two processes opening a new database at once make
//! one schema, never two.
//!
//! Each migration is written once for both databases, with the column-type
//! tokens of [`Dialect::translate`]. The history is the table
//! `ludus_schema_history`; its presence marks a Ludus database.
//!
//! - V1: bots, names and versions, ladders, schedules, results, replays, ratings.
//! - V2: the same tables; the seeds of matches not yet played are reduced
//!   into their game's seed range (`GameInfo::game_seed`), done in code for
//!   files written before, as schedules derive them since (`docs/replay.md`).
//! - V3: the shared queue: what each ladder needs of a worker, each match's
//!   lease and attempts, each result's replay hash, workers and their
//!   heartbeats, integrity events, the rated prefix.
//! - V4: the server's accounts (token hashes), bot owners, uploads.
//! - V5: what the server's pages look up without reading a schedule: each
//!   seat of each match by bot, with its bot's Elo after the match once it
//!   is rated; each ladder bot's counts of scheduled and rated matches;
//!   results by match id. Filled in code for databases written before
//!   (`super::legacy`).
//! - V6: on PostgreSQL, replays (gzip already) are stored out of line
//!   without a second compression; no change on SQLite.
//! - V7: bot and account names by their lower case, so that names which
//!   differ only in case are found as one; each rated seat's place and
//!   faults beside its Elo ([`super::legacy`] fills them in for databases
//!   written before).
//! - V8: each ladder's replay policy, and how far its replays were pruned;
//!   ladders written before keep every replay. Each result's refused moves
//!   per seat. On SQLite, the seat index without a rowid.
//!
//! - V9: what an operator runs a season with: accounts removed (their bots
//!   retired, their results kept) and operators' accounts, each continuous ladder's season name and
//!   when it was closed, and the games whose ladders are paused.
//! - V10: people on the server and their questions: an account's password
//!   (an Argon2id hash) and whether the operator disabled it; API tokens,
//!   named, many an account, each with when it was last used (an account's
//!   token of before is its first); browser sessions, kept by the hash of
//!   their id; the operator's one-time invitations. Candidate versions of
//!   bots (stored, not entered in the ladder until promoted); challenges,
//!   each played as a ladder of kind `challenge`, never rated, and the games
//!   each account's challenges scheduled a day; the server's settings that
//!   its remote workers read (the challenges' share of their time).
//! - V11: a worker that ended on an error keeps it (`workers.error`,
//!   `stopped` 3: crashed).
//!
//! SQLite files made before the history existed (their version in `PRAGMA
//! user_version`, 1 or 2) are taken as they are: schema 1 has its pending
//! seeds reduced, then both are recorded as at V2 and migrated on.

use super::db::{Conn, Db, DbError, Dialect};
use refinery_core::traits::sync::{Query, Transaction};
use refinery_core::{Migration, Runner, Target};

/// The history table: its name marks a Ludus database.
pub const HISTORY: &str = "ludus_schema_history";

/// `PRAGMA application_id` of a Ludus SQLite file ("LUDU").
pub const APPLICATION_ID: i32 = 0x4C55_4455;

/// The schema version this Ludus writes.
pub const VERSION: i32 = 11;

const V1: &str = "
CREATE TABLE bots (
    sha256 TEXT PRIMARY KEY,
    wasm {blob} NOT NULL,
    size_bytes {int} NOT NULL
);
CREATE TABLE bot_versions (
    name TEXT NOT NULL,
    version {int} NOT NULL,
    game TEXT NOT NULL,
    sha256 TEXT NOT NULL REFERENCES bots(sha256),
    submitted_at TEXT NOT NULL,
    PRIMARY KEY (name, version)
);
CREATE TABLE ladders (
    id {id},
    ladder_key TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    players {int} NOT NULL,
    rounds {int} NOT NULL,
    seed {int} NOT NULL,
    config TEXT NOT NULL,
    limits TEXT NOT NULL
);
CREATE TABLE ladder_bots (
    ladder_id {int} NOT NULL REFERENCES ladders(id),
    position {int} NOT NULL,
    name TEXT NOT NULL,
    version {int} NOT NULL,
    sha256 TEXT NOT NULL REFERENCES bots(sha256),
    PRIMARY KEY (ladder_id, position)
);
CREATE TABLE matches (
    ladder_id {int} NOT NULL REFERENCES ladders(id),
    idx {int} NOT NULL,
    grp {int} NOT NULL,
    seed {int} NOT NULL,
    seats TEXT NOT NULL,
    PRIMARY KEY (ladder_id, idx)
);
CREATE TABLE results (
    ladder_id {int} NOT NULL,
    idx {int} NOT NULL,
    match_id TEXT NOT NULL,
    placements TEXT NOT NULL,
    scores TEXT NOT NULL,
    faults TEXT NOT NULL,
    turns {int} NOT NULL,
    reason TEXT NOT NULL,
    aborted TEXT,
    PRIMARY KEY (ladder_id, idx),
    FOREIGN KEY (ladder_id, idx) REFERENCES matches(ladder_id, idx)
);
CREATE TABLE replays (
    match_id TEXT PRIMARY KEY,
    replay_gz {blob} NOT NULL
);
CREATE TABLE ratings (
    ladder_id {int} NOT NULL REFERENCES ladders(id),
    position {int} NOT NULL,
    system TEXT NOT NULL,
    rating {real} NOT NULL,
    interval {real} NOT NULL,
    PRIMARY KEY (ladder_id, position, system)
);
";

const V2: &str = "
-- No change of tables: files of schema 1 have the seeds of their pending
-- matches reduced into their game's range when they are opened.
SELECT 1;
";

const V3: &str = "
-- What a worker must run to play a ladder's matches: the same engine
-- (Ludus version), rules version and wasmtime version as the ladder's.
ALTER TABLE ladders ADD COLUMN ludus_version TEXT NOT NULL DEFAULT '';
ALTER TABLE ladders ADD COLUMN rules_version {int} NOT NULL DEFAULT 0;
ALTER TABLE ladders ADD COLUMN wasmtime_version TEXT NOT NULL DEFAULT '';
-- Ratings cover the matches before this index, all finished.
ALTER TABLE ladders ADD COLUMN rated_through {int} NOT NULL DEFAULT 0;

-- The queue: a match is claimable while it is not done (or is to be
-- verified) and nobody holds an unexpired lease on it.
ALTER TABLE matches ADD COLUMN done {int} NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN verify {int} NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN lease_owner {int};
ALTER TABLE matches ADD COLUMN lease_until {int};
ALTER TABLE matches ADD COLUMN attempts {int} NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN played_by {int};
ALTER TABLE matches ADD COLUMN finished_at {int};
UPDATE matches SET done = 1 WHERE EXISTS
    (SELECT 1 FROM results r WHERE r.ladder_id = matches.ladder_id AND r.idx = matches.idx);
CREATE INDEX matches_claimable ON matches (ladder_id, idx) WHERE done = 0 OR verify = 1;
-- Matches whose claims ran out are found without reading every open match.
CREATE INDEX matches_attempts ON matches (ladder_id, attempts) WHERE done = 0 OR verify = 1;
CREATE INDEX matches_leased ON matches (lease_owner) WHERE lease_owner IS NOT NULL;
CREATE INDEX matches_finished ON matches (ladder_id, finished_at) WHERE finished_at IS NOT NULL;

-- sha256 of the replay's JSON: a second result for the match is compared by it.
ALTER TABLE results ADD COLUMN replay_sha256 TEXT NOT NULL DEFAULT '';

CREATE TABLE workers (
    id {id},
    host TEXT NOT NULL,
    pid {int} NOT NULL,
    threads {int} NOT NULL,
    ladder_id {int},
    lease_ms {int} NOT NULL,
    ludus_version TEXT NOT NULL,
    wasmtime_version TEXT NOT NULL,
    started_at {int} NOT NULL,
    last_seen {int} NOT NULL,
    played {int} NOT NULL DEFAULT 0,
    stopped {int} NOT NULL DEFAULT 0
);

-- A second result whose replay differs from the kept one: determinism
-- makes it proof that one of the two workers is faulty.
CREATE TABLE integrity_events (
    id {id},
    ladder_id {int} NOT NULL,
    idx {int} NOT NULL,
    kept_worker {int},
    kept_sha256 TEXT NOT NULL,
    worker {int} NOT NULL,
    sha256 TEXT NOT NULL,
    replay_gz {blob} NOT NULL,
    at {int} NOT NULL,
    verdict TEXT
);
";

const V4: &str = "
-- Accounts of the server: only the sha256 of a token's secret is kept.
CREATE TABLE accounts (
    id {id},
    name TEXT NOT NULL UNIQUE,
    token_sha256 TEXT NOT NULL,
    created_at TEXT NOT NULL
);
-- A bot name belongs to the account that first uploaded it.
CREATE TABLE bot_owners (
    bot TEXT PRIMARY KEY,
    account_id {int} NOT NULL REFERENCES accounts(id),
    retired {int} NOT NULL DEFAULT 0
);
-- Uploads, for the quota per account and day.
CREATE TABLE uploads (
    account_id {int} NOT NULL REFERENCES accounts(id),
    at {int} NOT NULL
);
CREATE INDEX uploads_by_account ON uploads (account_id, at);
";

const V5: &str = "
-- Every seat of every scheduled match: a bot's matches are found by its
-- position, never by reading the ladder's schedule. `elo` is the seat's Elo
-- after the match, once the match is rated (NULL before, and for a match
-- that is not rated).
CREATE TABLE match_seats (
    ladder_id {int} NOT NULL,
    idx {int} NOT NULL,
    seat {int} NOT NULL,
    position {int} NOT NULL,
    elo {real},
    PRIMARY KEY (ladder_id, idx, seat),
    FOREIGN KEY (ladder_id, idx) REFERENCES matches(ladder_id, idx)
);
CREATE INDEX match_seats_by_bot ON match_seats (ladder_id, position, idx);
-- Matches scheduled for each ladder bot, kept as they are appended, and
-- its rated matches, kept with the ratings.
ALTER TABLE ladder_bots ADD COLUMN scheduled_matches {int} NOT NULL DEFAULT 0;
ALTER TABLE ladder_bots ADD COLUMN rated_matches {int} NOT NULL DEFAULT 0;
-- A match page finds its match by id.
CREATE INDEX results_by_match ON results (match_id);
";

const V6_POSTGRES: &str = "
-- A replay is gzip: PostgreSQL's own compression of a large value would
-- spend a worker's commit on bytes that do not shrink. Out of line, as is.
ALTER TABLE replays ALTER COLUMN replay_gz SET STORAGE EXTERNAL;
ALTER TABLE integrity_events ALTER COLUMN replay_gz SET STORAGE EXTERNAL;
";

/// SQLite does not compress values: nothing to change.
const V6_SQLITE: &str = "SELECT 1;";

const V7: &str = "
-- Names are one name whatever their case: a new bot or account name is
-- looked up by its lower case.
CREATE INDEX bot_versions_by_lower_name ON bot_versions (lower(name));
CREATE INDEX bot_owners_by_lower_name ON bot_owners (lower(bot));
CREATE INDEX accounts_by_lower_name ON accounts (lower(name));
-- Each rated seat's place and faults beside its Elo: a bot's page counts
-- its results against each opponent in the database, not in a read of
-- every match. Filled in code for databases written before.
ALTER TABLE match_seats ADD COLUMN place {int};
ALTER TABLE match_seats ADD COLUMN faults {int};
";

const V8: &str = "
-- Which replays a ladder stores (`retention`): ladders written before kept
-- every one. A match keeps its result and its replay's sha256 whatever the
-- policy, and a replay not stored is played again on request.
ALTER TABLE ladders ADD COLUMN keep_replays TEXT NOT NULL DEFAULT 'all';
-- The replays of the matches before this index were pruned as the policy
-- says: pruning goes on from here.
ALTER TABLE ladders ADD COLUMN replays_pruned_below {int} NOT NULL DEFAULT 0;
-- Per seat: moves the game refused, beside the turns with a fault; empty
-- for results stored before.
ALTER TABLE results ADD COLUMN refused TEXT NOT NULL DEFAULT '[]';
";

/// SQLite: the seat index without a rowid, its primary key the table
/// itself (two small rows a match; the rowid and a second copy of the key
/// in the key's own index were a third of their bytes).
const V8_SQLITE: &str = "
CREATE TABLE match_seats_by_key (
    ladder_id {int} NOT NULL,
    idx {int} NOT NULL,
    seat {int} NOT NULL,
    position {int} NOT NULL,
    elo {real},
    place {int},
    faults {int},
    PRIMARY KEY (ladder_id, idx, seat),
    FOREIGN KEY (ladder_id, idx) REFERENCES matches(ladder_id, idx)
) WITHOUT ROWID;
INSERT INTO match_seats_by_key (ladder_id, idx, seat, position, elo, place, faults)
    SELECT ladder_id, idx, seat, position, elo, place, faults FROM match_seats;
DROP TABLE match_seats;
ALTER TABLE match_seats_by_key RENAME TO match_seats;
CREATE INDEX match_seats_by_bot ON match_seats (ladder_id, position, idx);
";

const V9: &str = "
-- An account the operator removed: its tokens no longer sign in, its bots
-- are retired, its results stay.
ALTER TABLE accounts ADD COLUMN removed_at {int};
-- An operator's account: its pages show what only the operator is told
-- (identical bytes uploaded by different accounts).
ALTER TABLE accounts ADD COLUMN operator {int} NOT NULL DEFAULT 0;
-- A continuous ladder is one season of its game: named, and closed when the
-- next season starts (its results, ratings and pages stay readable).
ALTER TABLE ladders ADD COLUMN season TEXT;
ALTER TABLE ladders ADD COLUMN closed_at {int};
-- Games whose continuous ladder schedules nothing until resumed.
CREATE TABLE paused_games (
    game TEXT PRIMARY KEY,
    paused_at {int} NOT NULL
);
";

const V10: &str = "
-- A person's password, as the PHC string of its Argon2id hash; NULL for an
-- account that signs in by token only (made by the operator).
ALTER TABLE accounts ADD COLUMN password_hash TEXT;
-- When the operator disabled the account: its sessions and tokens end, its
-- bots stay as they are.
ALTER TABLE accounts ADD COLUMN disabled_at {int};
-- API tokens: named, many an account, each kept as the sha256 of its
-- secret; revoked ones refuse at once.
CREATE TABLE api_tokens (
    id {id},
    account_id {int} NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    token_sha256 TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    last_used_at {int},
    revoked_at {int}
);
CREATE INDEX api_tokens_by_account ON api_tokens (account_id, id);
-- The token an account had before is its first named one.
INSERT INTO api_tokens (account_id, name, token_sha256, created_at)
    SELECT id, 'first', token_sha256, created_at FROM accounts WHERE token_sha256 <> '-';
-- Browser sessions: the sha256 of the cookie's random id, the CSRF token of
-- the session's forms, when it expires (unix seconds) and when it was ended.
CREATE TABLE sessions (
    id_sha256 TEXT PRIMARY KEY,
    account_id {int} NOT NULL REFERENCES accounts(id),
    csrf TEXT NOT NULL,
    created_at {int} NOT NULL,
    expires_at {int} NOT NULL,
    ended_at {int}
);
CREATE INDEX sessions_by_account ON sessions (account_id);
-- One-time invitations to sign up, kept as the sha256 of their code.
CREATE TABLE invites (
    code_sha256 TEXT PRIMARY KEY,
    created_at {int} NOT NULL,
    expires_at {int} NOT NULL,
    used_by {int} REFERENCES accounts(id),
    used_at {int}
);
-- A candidate version: stored and validated, not entered in its game's
-- ladder until its owner promotes it.
ALTER TABLE bot_versions ADD COLUMN candidate {int} NOT NULL DEFAULT 0;
-- Challenges: unrated matches of one bot version against chosen opponents,
-- a fixed number or until an SPRT decides; their matches are those of a
-- ladder of kind 'challenge', which is never rated.
CREATE TABLE challenges (
    id {id},
    account_id {int} NOT NULL REFERENCES accounts(id),
    ladder_id {int} NOT NULL UNIQUE REFERENCES ladders(id),
    game TEXT NOT NULL,
    test TEXT NOT NULL,
    max_games {int} NOT NULL,
    created_at {int} NOT NULL,
    verdict TEXT,
    ended_at {int},
    ended_reason TEXT
);
CREATE INDEX challenges_by_account ON challenges (account_id, id);
-- Games each account's challenges scheduled, by day (unix seconds / 86400).
CREATE TABLE challenge_usage (
    account_id {int} NOT NULL REFERENCES accounts(id),
    day {int} NOT NULL,
    games {int} NOT NULL,
    PRIMARY KEY (account_id, day)
);
-- What a server tells the workers that read its database (e.g. the
-- challenges' share of their time).
CREATE TABLE server_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
";

const V11: &str = "
-- Why a worker that crashed ended (`stopped` = 3).
ALTER TABLE workers ADD COLUMN error TEXT;
";

/// Every migration, in `dialect`.
pub fn migrations(dialect: Dialect) -> Vec<Migration> {
    let v6 = match dialect {
        Dialect::Sqlite => V6_SQLITE,
        Dialect::Postgres => V6_POSTGRES,
    };
    let v8 = match dialect {
        Dialect::Sqlite => format!("{V8}{V8_SQLITE}"),
        Dialect::Postgres => V8.to_string(),
    };
    [
        ("V1__initial", V1),
        ("V2__game_seeds", V2),
        ("V3__queue", V3),
        ("V4__accounts", V4),
        ("V5__page_indexes", V5),
        ("V6__replays_stored_as_they_are", v6),
        ("V7__names_by_their_lower_case", V7),
        ("V8__replay_policies", v8.as_str()),
        ("V9__operators_seasons", V9),
        ("V10__people_and_challenges", V10),
        ("V11__crashed_workers", V11),
    ]
    .into_iter()
    .map(|(name, sql)| {
        Migration::unapplied(name, &dialect.translate(sql)).expect("migration names parse")
    })
    .collect()
}

/// The state a database was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// No tables at all: a new database.
    Empty,
    /// A Ludus database at this schema version.
    Ludus(i32),
    /// A SQLite file of Ludus from before the history table, at this
    /// `user_version` (1 or 2).
    Legacy(i32),
    /// Tables, but not Ludus's.
    Foreign,
}

/// What the database at hand is (inside the migration's transaction).
pub fn inspect(db: &mut Db) -> Result<Found, DbError> {
    let history = match db.dialect() {
        Dialect::Sqlite => "SELECT count(*) FROM sqlite_master WHERE name = $1",
        Dialect::Postgres => {
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1"
        }
    };
    if db
        .query_opt(history, super::db::vals![HISTORY])?
        .map_or(Ok(0), |r| r.i64(0))?
        > 0
    {
        let version = db
            .query_opt(&format!("SELECT max(version) FROM {HISTORY}"), &[])?
            .map_or(Ok(None), |r| r.opt_i64(0))?
            .unwrap_or(0);
        return Ok(Found::Ludus(version as i32));
    }
    let tables = match db.dialect() {
        Dialect::Sqlite => "SELECT count(*) FROM sqlite_master",
        Dialect::Postgres => {
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()"
        }
    };
    let tables = db.query_opt(tables, &[])?.map_or(Ok(0), |r| r.i64(0))?;
    if tables == 0 {
        return Ok(Found::Empty);
    }
    if db.dialect() == Dialect::Sqlite {
        let app = db
            .query_opt("PRAGMA application_id", &[])?
            .map_or(Ok(0), |r| r.i64(0))?;
        let version = db
            .query_opt("PRAGMA user_version", &[])?
            .map_or(Ok(0), |r| r.i64(0))?;
        if app == APPLICATION_ID as i64 && (1..=2).contains(&version) {
            return Ok(Found::Legacy(version as i32));
        }
    }
    Ok(Found::Foreign)
}

/// Records the migrations up to `version` as applied without running them
/// (a legacy SQLite file already has their tables), then applies the rest.
pub fn migrate(db: &mut Db, baseline: Option<i32>) -> Result<(), MigrateError> {
    let migrations = migrations(db.dialect());
    let mut runner = Runner::new(&migrations);
    runner.set_migration_table_name(HISTORY);
    let mut history = History(db);
    if let Some(version) = baseline {
        let mut fake = Runner::new(&migrations).set_target(Target::FakeVersion(version));
        fake.set_migration_table_name(HISTORY);
        fake.run(&mut history)?;
    }
    runner.run(&mut history)?;
    Ok(())
}

/// A migration that failed.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct MigrateError(#[from] refinery_core::Error);

/// Refinery's view of our connection, inside our own transaction: its
/// statements run as they come, with no transaction of their own.
struct History<'a>(&'a mut Db);

impl Transaction for History<'_> {
    type Error = DbError;

    fn execute<'a, T: Iterator<Item = &'a str>>(&mut self, queries: T) -> Result<usize, DbError> {
        let mut count = 0;
        for sql in queries {
            // Already in this dialect: only the history's own statements
            // (no tokens, no parameters) and translated migrations pass here.
            match self.0.conn() {
                Conn::Sqlite(conn) => conn.execute_batch(sql)?,
                Conn::Postgres { client, .. } => client.batch_execute(sql)?,
            }
            count += 1;
        }
        Ok(count)
    }
}

impl Query<Vec<Migration>> for History<'_> {
    fn query(&mut self, sql: &str) -> Result<Vec<Migration>, DbError> {
        use time::format_description::well_known::Rfc3339;
        let rows = match self.0.conn() {
            Conn::Sqlite(conn) => {
                let mut stmt = conn.prepare(sql)?;
                let rows = stmt
                    .query_map([], |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, String>(3)?,
                        ))
                    })?
                    .collect::<Result<Vec<_>, _>>()?;
                rows
            }
            Conn::Postgres { client, .. } => client
                .query(sql, &[])?
                .iter()
                .map(|r| {
                    Ok((
                        r.try_get::<_, i32>(0)? as i64,
                        r.try_get::<_, String>(1)?,
                        r.try_get::<_, String>(2)?,
                        r.try_get::<_, String>(3)?,
                    ))
                })
                .collect::<Result<Vec<_>, postgres::Error>>()?,
        };
        rows.into_iter()
            .map(|(version, name, applied_on, checksum)| {
                let bad = |what: &'static str, found: &str| DbError::Decode {
                    column: 0,
                    wanted: what,
                    found: format!("{found:?} in {HISTORY}"),
                };
                Ok(Migration::applied(
                    version as i32,
                    name,
                    time::OffsetDateTime::parse(&applied_on, &Rfc3339)
                        .map_err(|_| bad("an RFC 3339 time", &applied_on))?,
                    checksum
                        .parse()
                        .map_err(|_| bad("a migration checksum", &checksum))?,
                ))
            })
            .collect()
    }
}

impl refinery_core::Migrate for History<'_> {}
