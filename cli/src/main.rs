//! `ludus`: run WebAssembly bots in deterministic game tournaments.
//!
//! Thin glue: parsing arguments and printing. Everything it does lives in
//! `ludus-engine`, `ludus-host`, `ludus-leaderboard` and `ludus-viewer`.

mod args;
mod build;
mod challenge;
mod check;
mod columns;
mod findings;
#[cfg(test)]
mod help;
mod integrity;
mod league;
mod logs;
mod matches;
mod operator;
mod replays;
mod season;
mod serve;

use anyhow::{Context, Result};
use args::{
    game_config, DbArg, EmbedArg, LeaseArg, LimitArgs, OptionalDbArg, ServeAccounts, ServeLimits,
    ServeScheduling,
};
use clap::{Args, Parser, Subcommand};
use league::*;
use matches::*;
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "ludus",
    version,
    about = "Deterministic tournaments for WebAssembly game bots"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// How log lines are written to stderr (LUDUS_LOG sets which): text
    /// for people, json for a log collector (one JSON object a line).
    #[arg(
        long,
        global = true,
        value_enum,
        env = "LUDUS_LOG_FORMAT",
        default_value = "text"
    )]
    log_format: logs::LogFormat,
}

#[derive(Subcommand)]
enum Command {
    /// List the games Ludus hosts.
    Games,
    /// Check that a .wasm file is a bot Ludus can run (imports, exports,
    /// compilation) and that it plays the game: a validation match of 30
    /// turns against copies of itself at every seat count the game allows.
    /// Without --game, tries every game and says which ones it plays.
    Check {
        /// The bot's .wasm file.
        bot: PathBuf,
        /// The game to validate the bot for (default: every game).
        #[arg(long)]
        game: Option<String>,
        /// Fail (exit 1) when the game refused any of the bot's moves, as
        /// on a fault: without it, refused moves are warnings.
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Build a bot from source: a Python file (`def act(state)`, standard
    /// library only) or a Kaggle Kore/Halite agent into a WebAssembly
    /// component with componentize-py, or a C file into a core module with
    /// clang and wasi-libc.
    BuildBot {
        /// The bot's source: bot.py, bot.c, or a Kaggle submission (main.py,
        /// its folder, or a .tar.gz with main.py at its root).
        source: PathBuf,
        /// Where to write the .wasm (default: the source's name with .wasm,
        /// in the current folder: bot.py gives bot.wasm).
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// Build a Kaggle agent (its last function, called as
        /// `agent(obs, config)`) for this game. Without it, a .py file that
        /// defines `agent` and no `act` is a Kaggle agent, and so is a folder
        /// or .tar.gz; the game is the one whose helpers it imports.
        #[arg(long, value_name = "kore|halite")]
        kaggle: Option<ludus_host::build::kaggle::KaggleGame>,
    },
    /// Play one match and write its replay.
    Play {
        /// The game (see `ludus games`).
        #[arg(long)]
        game: String,
        /// The match seed: the same seed and bots give the same match, byte for byte.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A map file in the game's own JSON shape (Planet Wars: {"planets": [...]}).
        #[arg(long)]
        map: Option<PathBuf>,
        /// The game's config as JSON (e.g. '{"max_turns": 200}'); --map is merged into it.
        #[arg(long)]
        config: Option<String>,
        /// Where to write the replay (gzip when it ends in .gz).
        /// Default: replays/<game>-<seed>-<match id>.json
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        limits: LimitArgs,
        /// One .wasm per seat, in seat order.
        #[arg(required = true, num_args = 1..)]
        bots: Vec<PathBuf>,
    },
    /// Work with replays.
    Replay {
        #[command(subcommand)]
        command: ReplayCommand,
    },
    /// The replays ladders store: `keep` stores those their policy left out.
    Replays {
        #[command(subcommand)]
        command: ReplaysCommand,
    },
    /// Validate a bot for a game, as `check --game` does, and store it under a
    /// name: identical bytes again are a no-op, new bytes are a new version
    /// (older versions keep their results).
    ///
    /// With --server, upload it to a `ludus serve` instead, which validates
    /// and stores it in the same way (--token: your API token).
    Submit {
        /// The bot's .wasm file (`ludus build-bot` makes one from source).
        bot: PathBuf,
        /// The name to store it under: a new name is a new bot, a name
        /// already stored takes these bytes as its next version.
        #[arg(long)]
        name: String,
        /// The game it plays (see `ludus games`); it must pass that game's
        /// validation match.
        #[arg(long)]
        game: String,
        #[command(flatten)]
        db: DbArg,
        /// A server's URL, e.g. http://127.0.0.1:8080.
        #[arg(long, requires = "token")]
        server: Option<String>,
        /// Your API token on that server (`ludus user add` made it).
        #[arg(long, env = "LUDUS_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// With --server: store it as a candidate, not entered in its
        /// game's ladder until you promote it (it plays only your
        /// challenges meanwhile).
        #[arg(long, requires = "server")]
        candidate: bool,
    },
    /// Ask a server for a challenge: unrated matches of one of your bots
    /// against chosen opponents, a fixed number of games (--games) or
    /// seat-swapped pairs until an SPRT decides whether it is stronger
    /// (--sprt). Prints the challenge's id and page; with --wait, follows
    /// it and ends with `verdict: stronger`, `verdict: not stronger` or
    /// `verdict: none`.
    Challenge(challenge::ChallengeArgs),
    /// Serve the platform: accounts, uploads, continuous ladders for every
    /// game, live leaderboards, bot and match pages, the JSON API. Stops
    /// cleanly on SIGTERM or Ctrl-C.
    Serve {
        #[command(flatten)]
        db: DbArg,
        /// The address and port to serve on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: std::net::SocketAddr,
        /// Matches played at once in this process (default: the cores); 0
        /// for none, when `ludus worker`s elsewhere play on PostgreSQL.
        #[arg(long)]
        workers: Option<usize>,
        /// Requests a second allowed per address and per token, in bursts
        /// of four times as many.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
        rate_limit: u32,
        /// The game config of GAME's continuous ladder, as `ludus ladder run
        /// --config` takes it (e.g. `planet-wars='{"max_turns": 100}'` for
        /// shorter matches); repeat for other games. It is set when the
        /// game's first season starts, and a season keeps it; the next
        /// takes its own (`ludus season new --config`).
        #[arg(long, value_name = "GAME=JSON", value_parser = parse_game_config)]
        game_config: Vec<(String, serde_json::Value)>,
        #[command(flatten)]
        limits: ServeLimits,
        #[command(flatten)]
        scheduling: ServeScheduling,
        #[command(flatten)]
        accounts: ServeAccounts,
    },
    /// Copy a SQLite database, live, to a new file: a consistent copy even
    /// while a server or ladder writes to it (SQLite's online backup; the
    /// database file cannot simply be copied while it is written, its WAL
    /// holds the latest pages). PostgreSQL is backed up with `pg_dump`.
    Backup {
        /// The copy to write (a new file).
        out: PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
    /// Retire a bot for the operator, as `ludus bot retire` does (the
    /// older name of that command, kept for scripts).
    #[command(hide = true)]
    Retire {
        /// The bot's name.
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Accounts of the server.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// A bot, for the server's operator.
    Bot {
        #[command(subcommand)]
        command: BotCommand,
    },
    /// List the stored bots: the latest version of each, its owner and
    /// whether it is retired.
    Bots {
        /// List instead the bot versions with the same bytes (sha256) as a
        /// bot of another account, grouped by their bytes, with the accounts.
        #[arg(long)]
        duplicates: bool,
        #[command(flatten)]
        db: DbArg,
    },
    /// Ladders: play every stored bot of a game against the others and rate them.
    Ladder {
        #[command(subcommand)]
        command: LadderCommand,
    },
    /// Seasons of a server's continuous ladders: start a new one (new
    /// config, new Ludus version, fresh ratings), list them.
    Season {
        #[command(subcommand)]
        command: SeasonCommand,
    },
    /// List a ladder's matches: index, seed, seats, result and match id.
    Matches {
        /// The ladder (default: the latest, of --game if given).
        #[arg(long)]
        ladder: Option<i64>,
        /// The game whose latest ladder to list, when --ladder is not given.
        #[arg(long)]
        game: Option<String>,
        /// Only the matches this bot plays.
        #[arg(long)]
        bot: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
    /// Print a ladder's leaderboard.
    Leaderboard {
        /// The ladder (default: the latest, of --game if given).
        #[arg(long)]
        ladder: Option<i64>,
        /// The game whose latest ladder to show, when --ladder is not given.
        #[arg(long)]
        game: Option<String>,
        /// The season of --game to show (as `ludus season list` names it).
        #[arg(long, requires = "game", conflicts_with = "ladder")]
        season: Option<String>,
        /// How to write it: a table to read, JSON or CSV for programs (full
        /// precision), Markdown, or the viewer's HTML page.
        #[arg(long, default_value = "table", value_parser = league::format_parser())]
        format: ludus_leaderboard::report::Format,
        /// Write here instead of stdout. For html: a directory, receiving
        /// index.html, and every match's replay and replay page in replays/.
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        db: DbArg,
    },
    /// Play the scheduled matches of a database, beside any other workers
    /// and `ladder run`s on it: claim matches under a lease, play them,
    /// commit each result with its replay. Stops when its ladder is done
    /// (with --ladder or --until-idle); otherwise waits for new ladders.
    Worker {
        /// Matches played at once (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Play only this ladder, and stop when it is done.
        #[arg(long)]
        ladder: Option<i64>,
        /// Stop when no ladder has matches left, instead of waiting for new ones.
        #[arg(long)]
        until_idle: bool,
        #[command(flatten)]
        lease: LeaseArg,
        #[command(flatten)]
        db: DbArg,
    },
    /// Drive a game engine directly, without bots.
    Engine {
        #[command(subcommand)]
        command: EngineCommand,
    },
    /// Head-to-head: seat-swapped game pairs on fresh seeds until a
    /// pentanomial SPRT decides whether A is stronger than B.
    MatchUp {
        /// The tested bot's .wasm file: is it stronger than B?
        a: PathBuf,
        /// The bot to measure A against (e.g. A's previous version).
        b: PathBuf,
        /// The game (see `ludus games`); it must allow two seats.
        #[arg(long)]
        game: String,
        /// SPRT bounds in logistic Elo, and error rates.
        #[arg(long, default_value = "elo0=0,elo1=10,alpha=0.05,beta=0.05")]
        sprt: String,
        /// The seed each pair's seed derives from: the same seed, bots and
        /// options give the same pairs.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Stop undecided after this many pairs.
        #[arg(long, default_value_t = 20_000)]
        max_pairs: u64,
        /// The game's config as JSON (e.g. '{"max_turns": 200}').
        #[arg(long)]
        config: Option<String>,
        /// Threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        limits: LimitArgs,
    },
}

#[derive(Subcommand)]
enum EngineCommand {
    /// Play a game from a file of actions, one JSON line per step: an array
    /// with one entry per seat (that seat's answer as the game takes it, or
    /// null). Prints one JSON line per state, the initial one first:
    /// {"step", "observation" (as seat 0 sees it, in the reference's shape),
    /// "rewards", "statuses"}. Stops at the end of the file or of the game.
    Run {
        /// The game (see `ludus games`).
        #[arg(long)]
        game: String,
        /// The game's seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Seats (default: the game's fewest).
        #[arg(long)]
        players: Option<usize>,
        /// The game's config as JSON.
        #[arg(long)]
        config: Option<String>,
        /// The actions file; `-` reads standard input.
        #[arg(long)]
        actions: PathBuf,
    },
}

#[derive(Subcommand)]
enum UserCommand {
    /// Add an account and print its first API token, once (only its hash
    /// is stored).
    Add {
        /// The account's name, as its bots' pages show it.
        name: String,
        /// An operator's account: signed in, the bot pages show what only
        /// the operator is told (identical bytes uploaded by different
        /// accounts).
        #[arg(long)]
        operator: bool,
        /// Give it a password too, for the pages: read from standard input
        /// (asked for twice, unseen, on a terminal).
        #[arg(long)]
        password: bool,
        #[command(flatten)]
        db: DbArg,
    },
    /// List the accounts: when each was added, whether it is an operator's
    /// or removed, and its bots.
    List {
        #[command(flatten)]
        db: DbArg,
    },
    /// Remove an account: its token signs in no more and its bots are
    /// retired (scheduled no more); their matches, ratings and pages stay.
    Remove {
        /// The account's name.
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Give an account a new API token and print it, once; its other
    /// tokens stay (`ludus user revoke` ends one).
    Token {
        /// The account's name.
        name: String,
        /// The token's name, which its listing shows (default: cli-N).
        #[arg(long = "name", value_name = "LABEL")]
        label: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
    /// List an account's API tokens: id, name, when made, when last used,
    /// whether revoked.
    Tokens {
        /// The account's name.
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Revoke one of an account's API tokens: refused from its next request.
    Revoke {
        /// The account's name.
        name: String,
        /// The token's id, as `ludus user tokens` lists it.
        token_id: i64,
        #[command(flatten)]
        db: DbArg,
    },
    /// Print a one-time invitation code to sign up with (`ludus serve
    /// --signup invite`); only its hash is stored.
    Invite {
        /// How long the code may be used.
        #[arg(long, value_name = "DURATION", default_value = "7days", value_parser = humantime::parse_duration)]
        expires_in: std::time::Duration,
        #[command(flatten)]
        db: DbArg,
    },
    /// Set an account's password, for the pages: read from standard input
    /// (asked for twice, unseen, on a terminal).
    Password {
        /// The account's name.
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Disable an account: its sessions end, its tokens and password sign
    /// in no more until it is enabled; its bots play on.
    Disable {
        /// The account's name.
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Enable a disabled account: its tokens that were not revoked sign in
    /// again, and its password.
    Enable {
        /// The account's name.
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum BotCommand {
    /// Retire any bot, whoever owns it: it is scheduled no more and leaves
    /// the leaderboard; its matches and ratings stay. A bot no account owns
    /// (stored with `ludus submit --db`) is given to the house account.
    Retire {
        /// The bot's name.
        name: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum SeasonCommand {
    /// Close the open season of a game (it schedules no more; the matches
    /// it has waiting are played; its results, ratings and pages stay,
    /// under its name) and open the next, which a running `ludus serve`
    /// fills with every listed bot. The new season needs this Ludus's
    /// versions: run it with the new `ludus` to upgrade.
    New {
        /// The game (see `ludus games`).
        #[arg(long)]
        game: String,
        /// The new season's game config as JSON (default: the closed
        /// season's).
        #[arg(long)]
        config: Option<String>,
        /// The new season's name (default: season N, N its place).
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
    /// List a game's seasons, oldest first, open or closed.
    List {
        /// The game (see `ludus games`).
        #[arg(long)]
        game: String,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum LadderCommand {
    /// Pause a game's continuous ladder, on a running server too: nothing
    /// new is scheduled (the matches waiting are played) until resumed.
    Pause {
        /// The game (see `ludus games`).
        game: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Resume a paused game: the scheduler plays it again.
    Resume {
        /// The game (see `ludus games`).
        game: String,
        #[command(flatten)]
        db: DbArg,
    },
    /// Recompute a ladder's Elo ratings from its stored schedule and results
    /// alone, and check that they are the stored ones.
    Recompute {
        /// The ladder (default: the continuous ladder of --game, or the latest).
        #[arg(long)]
        ladder: Option<i64>,
        /// The game whose continuous ladder to recompute, when --ladder is
        /// not given.
        #[arg(long)]
        game: Option<String>,
        #[command(flatten)]
        db: DbArg,
    },
    /// Check the database's invariants, read-only in one snapshot (a live
    /// database too): schedules, done matches and results, the rated
    /// prefix, each rated match's Elo, the stored ratings against their
    /// recomputation, the bots' counters, challenges' verdicts (and with
    /// --bytes every bot's wasm against its sha256). Prints each with its
    /// figures and `ok` or its violations, and a verdict; exits 0 when
    /// every invariant holds, 1 when one does not.
    Check {
        #[command(flatten)]
        which: WhichLadders,
        /// Also hash every stored bot's wasm (reads every bot's bytes).
        #[arg(long)]
        bytes: bool,
        /// How to print the report.
        #[arg(long, value_enum, default_value = "text")]
        format: integrity::CheckFormat,
        #[command(flatten)]
        db: DbArg,
    },
    /// Re-rate each ladder whose ratings do not hold (matches skipped by
    /// rating, a wrong Elo, a rated prefix past the finished one) from its
    /// last consistent point, under its rating lock; prints what it did.
    Repair {
        #[command(flatten)]
        which: WhichLadders,
        #[command(flatten)]
        db: DbArg,
    },
    /// Play (or resume, or join) a ladder: its schedule is stored, then
    /// every match without a result is played, in parallel, and committed as
    /// soon as it finishes. Other `ladder run`s and `ludus worker`s on the
    /// same database share the work.
    Run(LadderArgs),
    /// Store a ladder's schedule without playing it, and print its id, for
    /// `ludus worker`s to play.
    Create(LadderArgs),
    /// Where a ladder stands: matches done, leased and pending, live
    /// workers, rate and ETA, integrity events.
    Status {
        /// The ladder (default: the latest, of --game if given).
        #[arg(long)]
        ladder: Option<i64>,
        /// The game whose latest ladder to show, when --ladder is not given.
        #[arg(long)]
        game: Option<String>,
        /// The season of --game to show (as `ludus season list` names it).
        #[arg(long, requires = "game", conflicts_with = "ladder")]
        season: Option<String>,
        /// Every ladder of the database, a line each, and the live workers.
        #[arg(long, conflicts_with_all = ["ladder", "game", "season"])]
        all: bool,
        #[command(flatten)]
        db: DbArg,
    },
}

/// The ladders `ladder check` and `ladder repair` look at.
#[derive(Args)]
struct WhichLadders {
    /// One ladder, by id.
    #[arg(long, conflicts_with_all = ["game", "all"])]
    ladder: Option<i64>,
    /// A game's continuous ladder (its open season), or else its latest.
    #[arg(long, conflicts_with = "all")]
    game: Option<String>,
    /// Every ladder of the database (the default).
    #[arg(long)]
    all: bool,
}

#[derive(Subcommand)]
enum ReplaysCommand {
    /// Store every replay that a ladder's policy (--keep-replays) left out,
    /// playing each match again and checking it against its recorded
    /// sha256: run it before an upgrade that changes the Ludus, rules or
    /// wasmtime version, which could not regenerate them afterwards.
    Keep {
        /// Only this ladder (default: every ladder).
        #[arg(long)]
        ladder: Option<i64>,
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Subcommand)]
enum ReplayCommand {
    /// Re-run a match from its bots and compare every turn; names the first
    /// turn that differs. Each bot is looked up by sha256 in the --bots
    /// folders, then the bot store, then the module cache.
    Verify {
        /// A replay file, or the id (or a unique prefix) of a match stored in the database.
        replay: String,
        /// Folders of .wasm files to look for the bots in. Default: the
        /// replay's folder and the current one.
        #[arg(long)]
        bots: Vec<PathBuf>,
        #[command(flatten)]
        db: OptionalDbArg,
    },
    /// Write a page that plays the replay in a browser: one self-contained
    /// HTML file (no network), the board drawn turn by turn.
    Html {
        /// A replay file, or the id (or a unique prefix) of a stored match.
        replay: String,
        /// The page to write.
        #[arg(short, long)]
        out: PathBuf,
        /// How the match goes into the page: json, gzip (base64), or auto
        /// (gzip when the JSON is over 1 MiB).
        #[arg(long, default_value = "auto")]
        embed: EmbedArg,
        #[command(flatten)]
        db: OptionalDbArg,
    },
    /// Print what happened in a replay: the match in brief, the turns with
    /// faults and refusals, and the command that shows the first in full.
    Show {
        /// A replay file, or the id (or a unique prefix) of a stored match.
        replay: String,
        /// Print this turn in full: every seat's fuel, answer, fault,
        /// refusals and log, whole; the scores and state hash after it.
        #[arg(long)]
        turn: Option<u32>,
        /// With --turn: only this seat (0 is the first).
        #[arg(long, requires = "turn")]
        seat: Option<usize>,
        #[command(flatten)]
        db: OptionalDbArg,
    },
    /// Write the replay of a match stored in the database to a file.
    Export {
        /// The match id, or a unique prefix of it (`ludus matches` lists them).
        #[arg(name = "MATCH")]
        match_id: String,
        /// The file to write (gzip when it ends in .gz).
        #[arg(short, long)]
        out: PathBuf,
        #[command(flatten)]
        db: OptionalDbArg,
    },
}

fn main() {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    logs::init(cli.log_format);
    let result = match cli.command {
        Command::Games => games(),
        Command::Check {
            bot,
            game,
            strict,
            limits,
        } => check::check(&bot, game.as_deref(), strict, &limits.limits()),
        Command::BuildBot {
            source,
            out,
            kaggle,
        } => build::build_bot(&source, out, kaggle),
        Command::Play {
            game,
            seed,
            map,
            config,
            out,
            limits,
            bots,
        } => play(&game, seed, map, config, out, limits.limits(), &bots),
        Command::Replays {
            command: ReplaysCommand::Keep { ladder, db },
        } => replays::keep(ladder, &db.db),
        Command::Replay { command } => match command {
            ReplayCommand::Verify { replay, bots, db } => verify(&replay, bots, &db),
            ReplayCommand::Show {
                replay,
                turn,
                seat,
                db,
            } => show(&replay, turn, seat, &db),
            ReplayCommand::Html {
                replay,
                out,
                embed,
                db,
            } => replay_html(&replay, &out, embed, &db),
            ReplayCommand::Export { match_id, out, db } => export(&match_id, &out, &db),
        },
        Command::Matches {
            ladder,
            game,
            bot,
            db,
        } => list_matches(ladder, game.as_deref(), bot.as_deref(), &db.db),
        Command::Worker {
            threads,
            ladder,
            until_idle,
            lease,
            db,
        } => worker(threads, ladder, until_idle, lease.lease, &db.db),
        Command::Submit {
            bot,
            name,
            game,
            db,
            server,
            token,
            candidate,
        } => match (server, token) {
            (Some(server), Some(token)) => {
                serve::submit_remote(&bot, &name, &game, &server, &token, candidate)
            }
            _ => check::submit(&bot, &name, &game, &db.db),
        },
        Command::Challenge(args) => challenge::challenge(args),
        Command::Serve {
            db,
            listen,
            workers,
            rate_limit,
            game_config,
            limits,
            scheduling,
            accounts,
        } => serve::serve(
            &db.db,
            listen,
            workers,
            rate_limit,
            game_config,
            limits,
            scheduling,
            accounts,
        ),
        Command::Retire { name, db }
        | Command::Bot {
            command: BotCommand::Retire { name, db },
        } => operator::bot_retire(&name, &db.db),
        Command::Backup { out, db } => serve::backup(&out, &db.db),
        Command::User { command } => match command {
            UserCommand::Add {
                name,
                operator,
                password,
                db,
            } => operator::user_add(&name, operator, password, &db.db),
            UserCommand::List { db } => operator::user_list(&db.db),
            UserCommand::Remove { name, db } => operator::user_remove(&name, &db.db),
            UserCommand::Token { name, label, db } => {
                operator::user_token(&name, label.as_deref(), &db.db)
            }
            UserCommand::Tokens { name, db } => operator::user_tokens(&name, &db.db),
            UserCommand::Revoke { name, token_id, db } => {
                operator::user_revoke(&name, token_id, &db.db)
            }
            UserCommand::Invite { expires_in, db } => operator::user_invite(expires_in, &db.db),
            UserCommand::Password { name, db } => operator::user_password(&name, &db.db),
            UserCommand::Disable { name, db } => operator::user_disable(&name, true, &db.db),
            UserCommand::Enable { name, db } => operator::user_disable(&name, false, &db.db),
        },
        Command::Bots { duplicates, db } => operator::bots(duplicates, &db.db),
        Command::Engine {
            command:
                EngineCommand::Run {
                    game,
                    seed,
                    players,
                    config,
                    actions,
                },
        } => engine_run(&game, seed, players, config.as_deref(), &actions),
        Command::Ladder { command } => match command {
            LadderCommand::Run(args) => ladder_run(args),
            LadderCommand::Create(args) => ladder_create(args),
            LadderCommand::Status { all: true, db, .. } => league::every_ladder_status(&db.db),
            LadderCommand::Status {
                ladder,
                game,
                season,
                db,
                all: false,
            } => ladder_status(ladder, game.as_deref(), season.as_deref(), &db.db),
            LadderCommand::Pause { game, db } => season::pause(&game, &db.db),
            LadderCommand::Resume { game, db } => season::resume(&game, &db.db),
            LadderCommand::Recompute { ladder, game, db } => {
                serve::recompute(ladder, game.as_deref(), &db.db)
            }
            LadderCommand::Check {
                which,
                bytes,
                format,
                db,
            } => integrity::which(which.ladder, which.game, which.all)
                .and_then(|w| integrity::check(w, bytes, format, &db.db)),
            LadderCommand::Repair { which, db } => {
                integrity::which(which.ladder, which.game, which.all)
                    .and_then(|w| integrity::repair(w, &db.db))
            }
        },
        Command::Leaderboard {
            ladder,
            game,
            season,
            format,
            out,
            db,
        } => leaderboard(
            ladder,
            game.as_deref(),
            season.as_deref(),
            format,
            out,
            &db.db,
        ),
        Command::Season { command } => match command {
            SeasonCommand::New {
                game,
                config,
                name,
                db,
            } => season::new(&game, config.as_deref(), name.as_deref(), &db.db),
            SeasonCommand::List { game, db } => season::list(&game, &db.db),
        },
        Command::MatchUp {
            a,
            b,
            game,
            sprt,
            seed,
            max_pairs,
            config,
            threads,
            limits,
        } => match_up(MatchUpArgs {
            a: &a,
            b: &b,
            game: &game,
            sprt: &sprt,
            seed,
            max_pairs,
            config: config.as_deref(),
            threads,
            limits: limits.limits(),
        }),
    };
    if let Err(e) = result {
        eprintln!("error: {}", one_line(&e));
        std::process::exit(1);
    }
}

/// A closed pipe (`ludus play ... | head`) ends the program quietly, as it
/// does any Unix tool, instead of a panic in `println!`: SIGPIPE goes back
/// to its default, which the Rust runtime sets to ignore. Sockets are not
/// concerned: the standard library sends on them without the signal
/// (`MSG_NOSIGNAL`, or `SO_NOSIGPIPE` on macOS), so a client that hangs up
/// on `ludus serve` is still an error of that one connection.
fn quiet_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any thread is spawned;
    // SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// The error and its causes on one line, each said once: a cause whose
/// text is already in the line (a message that quotes its source) is left
/// out, and line breaks inside a message become spaces.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause
            .to_string()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if text.is_empty() || line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

fn games() -> Result<()> {
    println!(
        "{:<12} {:>5}  {:<10} {:<7}  summary",
        "game", "rules", "players", "score"
    );
    for g in ludus_engine::games() {
        println!(
            "{:<12} {:>5}  {:<10} {:<7}  {}",
            g.id,
            format!("v{}", g.rules_version),
            g.seats_text(),
            g.score_unit,
            g.summary
        );
    }
    Ok(())
}

fn engine_run(
    game: &str,
    seed: u64,
    players: Option<usize>,
    config: Option<&str>,
    actions: &Path,
) -> Result<()> {
    use std::io::{BufRead, Write};
    let info = ludus_engine::registry::info(game)?;
    let players = players.unwrap_or(info.fewest_seats());
    let config = game_config(game, config)?;
    let mut g = ludus_engine::new_game(game, &config, seed, players)?;
    let input: Box<dyn BufRead> = if actions == Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(actions)
            .with_context(|| format!("opening the actions file {}", actions.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    // Blank lines are no step, yet every line keeps its number for messages.
    let steps = input.lines().enumerate().filter_map(|(i, text)| {
        match text.with_context(|| format!("reading {}", actions.display())) {
            Ok(text) if text.trim().is_empty() => None,
            read => Some(read.map(|text| (i, text))),
        }
    });
    let unplayed = ludus_engine::reference::run(
        g.as_mut(),
        steps,
        |(i, text)| {
            ludus_engine::reference::parse_actions_line(&text, players)
                .map_err(|e| anyhow::anyhow!("{} line {}: {e}", actions.display(), i + 1))
        },
        |g, refused, line| {
            for r in refused {
                tracing::info!(step = g.turn(), seat = r.seat, kind = %r.kind, "{}", r.reason);
            }
            writeln!(out, "{line}")?;
            Ok(())
        },
    )?;
    if let Some((i, _)) = unplayed {
        tracing::warn!(
            "{}: the game ended at step {}; line {} and after are not played",
            actions.display(),
            g.turn(),
            i + 1
        );
    }
    out.flush()?;
    Ok(())
}

/// `GAME=JSON`, as `ludus serve --game-config` takes it.
fn parse_game_config(s: &str) -> Result<(String, serde_json::Value), String> {
    let (game, json) = s.split_once('=').ok_or_else(|| {
        format!("`{s}` is not GAME=JSON, e.g. planet-wars='{{\"max_turns\": 100}}'")
    })?;
    let config =
        serde_json::from_str(json).map_err(|e| format!("the config of {game} is not JSON: {e}"))?;
    Ok((game.to_string(), config))
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn an_error_prints_on_one_line_with_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone (os error 2)");
        let quoted = anyhow::Error::new(io)
            .context("cannot read m.json: gone (os error 2)")
            .context("cannot verify m.json");
        assert_eq!(
            one_line(&quoted),
            "cannot verify m.json: cannot read m.json: gone (os error 2)"
        );
        let dump = anyhow::anyhow!("expected=[\n    0x0,\n    0x61,\n] actual").context("bad");
        assert_eq!(one_line(&dump), "bad: expected=[ 0x0, 0x61, ] actual");
    }
}
