//! The operator's commands on a server's database: `user list`, `user
//! remove`, `user token`, `user tokens`, `user revoke`, `user invite`,
//! `user password`, `user disable` and `user enable`, `bot retire` (and the
//! older `retire`), and `bots` with owners, retired bots and `--duplicates`
//! ([`ludus_leaderboard::operator`], [`ludus_leaderboard::accounts`],
//! [`ludus_leaderboard::owners`], [`ludus_server::auth`]).

use crate::args::DbArg;
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use ludus_host::short_id;
use ludus_leaderboard::owners::{self, RetiredBot};
use ludus_leaderboard::store::{Location, Store};
use ludus_leaderboard::{accounts, clock, operator};

#[derive(Subcommand)]
pub enum UserCommand {
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

impl UserCommand {
    pub fn run(self) -> Result<()> {
        match self {
            UserCommand::Add {
                name,
                operator,
                password,
                db,
            } => user_add(&name, operator, password, &db.db),
            UserCommand::List { db } => user_list(&db.db),
            UserCommand::Remove { name, db } => user_remove(&name, &db.db),
            UserCommand::Token { name, label, db } => user_token(&name, label.as_deref(), &db.db),
            UserCommand::Tokens { name, db } => user_tokens(&name, &db.db),
            UserCommand::Revoke { name, token_id, db } => user_revoke(&name, token_id, &db.db),
            UserCommand::Invite { expires_in, db } => user_invite(expires_in, &db.db),
            UserCommand::Password { name, db } => user_password(&name, &db.db),
            UserCommand::Disable { name, db } => user_disable(&name, true, &db.db),
            UserCommand::Enable { name, db } => user_disable(&name, false, &db.db),
        }
    }
}

#[derive(Subcommand)]
pub enum BotCommand {
    /// Retire any bot, whoever owns it: it is scheduled no more and leaves
    /// the leaderboard; its matches and ratings stay. A bot no account owns
    /// (stored with `ludus submit --db`) is given to the house account.
    Retire(RetireArgs),
}

impl BotCommand {
    pub fn run(self) -> Result<()> {
        match self {
            BotCommand::Retire(args) => args.run(),
        }
    }
}

/// The bot `bot retire` (and the older `retire`) retires.
#[derive(Args)]
pub struct RetireArgs {
    /// The bot's name.
    name: String,
    #[command(flatten)]
    db: DbArg,
}

impl RetireArgs {
    pub fn run(self) -> Result<()> {
        bot_retire(&self.name, &self.db.db)
    }
}

#[derive(Args)]
pub struct BotsArgs {
    /// List instead the bot versions with the same bytes (sha256) as a
    /// bot of another account, grouped by their bytes, with the accounts.
    #[arg(long)]
    duplicates: bool,
    #[command(flatten)]
    db: DbArg,
}

impl BotsArgs {
    pub fn run(self) -> Result<()> {
        bots(self.duplicates, &self.db.db)
    }
}

pub fn user_list(db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let users = operator::users(&store)?;
    println!(
        "{:<20} {:<20} {:<8} {:<20} {:<20} bots",
        "account", "created", "operator", "removed", "disabled"
    );
    for u in &users {
        let bots = if u.bots.is_empty() {
            "-".to_string()
        } else {
            u.bots
                .iter()
                .map(|(b, retired)| match retired {
                    true => format!("{b} (retired)"),
                    false => b.clone(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let name = match u.house {
            true => format!("{} (house)", u.name),
            false => u.name.clone(),
        };
        println!(
            "{name:<20} {:<20} {:<8} {:<20} {:<20} {bots}",
            u.created_at,
            if u.operator { "yes" } else { "no" },
            u.removed_at.as_deref().unwrap_or("-"),
            u.disabled_at.as_deref().unwrap_or("-"),
        );
    }
    if users.is_empty() {
        println!("(no accounts yet: `ludus user add NAME --db {db}` adds one)");
    }
    Ok(())
}

/// `ludus user add`, with a password read from standard input when
/// `password` ([`read_password`]).
pub fn user_add(name: &str, operator: bool, password: bool, db: &Location) -> Result<()> {
    let password = match password {
        true => Some(read_password(name)?),
        false => None,
    };
    crate::serve::user_add(name, operator, password.as_deref(), db)
}

pub fn user_remove(name: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let removed = accounts::remove(&store, name)?;
    let name = &removed.name;
    if removed.already {
        println!("the account {name} was removed already");
        return Ok(());
    }
    println!("removed the account {name} from {db}: its tokens sign in no more");
    if !removed.retired.is_empty() {
        println!(
            "retired its bots {}: they are scheduled no more; their matches and ratings stay",
            removed.retired.join(", ")
        );
    }
    Ok(())
}

pub fn user_token(name: &str, label: Option<&str>, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let (id, token) = ludus_server::auth::new_token(&store, name, label)?;
    println!("{token}");
    eprintln!(
        "a new API token (id {id}) for {name} in {db}; its other tokens stay (`ludus user revoke {name} ID` \
         revokes one); this token is shown only once: give it to {name} (the server stores only its hash)"
    );
    Ok(())
}

pub fn user_tokens(name: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let (account, tokens) = ludus_server::auth::tokens_of(&store, name)?;
    println!(
        "{:>6} {:<24} {:<20} {:<20} revoked",
        "id", "name", "created", "last used"
    );
    let at = |t: Option<i64>, none: &str| t.map_or(none.to_string(), clock::unix_rfc3339);
    for t in &tokens {
        println!(
            "{:>6} {:<24} {:<20} {:<20} {}",
            t.id,
            t.name,
            t.created_at,
            at(t.last_used_at, "never"),
            at(t.revoked_at, "-"),
        );
    }
    if tokens.is_empty() {
        println!(
            "({} has no API token: `ludus user token {} --db {db}` makes one)",
            account.name, account.name
        );
    }
    Ok(())
}

pub fn user_revoke(name: &str, token_id: i64, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let (account, revoked) = ludus_server::auth::revoke_token_of(&store, name, token_id)?;
    if !revoked {
        bail!(
            "{account} has no API token {token_id} that is not revoked; `ludus user tokens {account} --db {db}` lists its tokens"
        );
    }
    println!(
        "revoked the API token {token_id} of {account}: it is refused from its next request on"
    );
    Ok(())
}

pub fn user_invite(expires_in: std::time::Duration, db: &Location) -> Result<()> {
    let store = Store::connect(db)?;
    let (code, expires) = ludus_server::auth::new_invite(&store, expires_in)?;
    println!("{code}");
    eprintln!(
        "a one-time invitation to sign up on the server of {db} (`ludus serve --signup invite`), \
         good for one account until {}; this code is shown only once (the server stores only its hash)",
        clock::unix_rfc3339(expires)
    );
    Ok(())
}

pub fn user_password(name: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let password = read_password(name)?;
    ludus_server::auth::set_password(&store, name, &password)?;
    println!("set the password of {name}: it signs in on the pages with it");
    Ok(())
}

pub fn user_disable(name: &str, disabled: bool, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let (name, changed) = accounts::set_disabled(&store, name, disabled)?;
    match (disabled, changed) {
        (true, true) => println!(
            "disabled the account {name}: its sessions ended, and its tokens and password sign in no more \
             until `ludus user enable {name}`; its bots play on"
        ),
        (true, false) => println!("the account {name} was disabled already"),
        (false, true) => println!(
            "enabled the account {name}: its tokens that were not revoked and its password sign in again"
        ),
        (false, false) => println!("the account {name} was not disabled"),
    }
    Ok(())
}

/// A password for `name`, from standard input: on a terminal, asked for
/// twice without echo; otherwise its first line. Never an argument, which
/// other users of the machine could see.
pub fn read_password(name: &str) -> Result<String> {
    use std::io::{BufRead, IsTerminal, Write};
    let stdin = std::io::stdin();
    let read_line = || -> Result<String> {
        let mut line = String::new();
        stdin
            .lock()
            .read_line(&mut line)
            .context("cannot read the password from standard input")?;
        Ok(line.trim_end_matches(['\n', '\r']).to_string())
    };
    if !stdin.is_terminal() {
        let password = read_line()?;
        if password.is_empty() {
            bail!("no password on standard input: give it as its first line");
        }
        return Ok(password);
    }
    let echo = |on: bool| {
        let _ = std::process::Command::new("stty")
            .arg(if on { "echo" } else { "-echo" })
            .stdin(std::process::Stdio::inherit())
            .status();
    };
    let ask = |prompt: &str| -> Result<String> {
        eprint!("{prompt}");
        let _ = std::io::stderr().flush();
        echo(false);
        let line = read_line();
        echo(true);
        eprintln!();
        line
    };
    let first = ask(&format!("password for {name}: "))?;
    if ask("again: ")? != first {
        bail!("the two passwords differ; nothing changed");
    }
    Ok(first)
}

/// `ludus bot retire` (and the older `ludus retire`): any bot, for the
/// operator ([`owners::retire_any`]).
pub fn bot_retire(name: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    match owners::retire_any(&store, name)? {
        RetiredBot::Owned(owner) => println!(
            "retired {name}, a bot of {owner}: it is scheduled no more; its matches and ratings stay"
        ),
        RetiredBot::House => println!(
            "retired the house bot {name}: it is scheduled no more; its matches and ratings stay"
        ),
        RetiredBot::Adopted => println!(
            "retired {name}, which the operator stored: the house account owns it now; \
             it is scheduled no more, and its matches and ratings stay"
        ),
        RetiredBot::Already => println!("{name} was retired already"),
    }
    Ok(())
}

/// `ludus bots`: the latest version of each bot, with its owner and
/// whether it is retired; with `duplicates`, the identical bytes uploaded
/// by different accounts instead.
pub fn bots(duplicates: bool, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    if duplicates {
        return print_duplicates(&store);
    }
    println!(
        "{:<24} {:>7} {:<12} {:<14} {:<16} {:<7} submitted",
        "bot", "version", "game", "sha256", "owner", "retired"
    );
    for b in operator::bots(&store)? {
        println!(
            "{:<24} {:>7} {:<12} {:<14} {:<16} {:<7} {}",
            b.bot.name,
            b.bot.version,
            b.bot.game,
            short_id(&b.bot.sha256),
            b.owner.as_deref().unwrap_or("-"),
            if b.retired { "yes" } else { "no" },
            b.bot.submitted_at
        );
    }
    Ok(())
}

fn print_duplicates(store: &Store) -> Result<()> {
    let groups = operator::duplicates(store)?;
    if groups.is_empty() {
        println!("no two accounts have uploaded the same bytes");
        return Ok(());
    }
    for g in &groups {
        println!(
            "sha256 {}: the same bytes from {}",
            short_id(&g.sha256),
            g.owners().join(", ")
        );
        for v in &g.versions {
            println!("  {} v{} ({})", v.bot, v.version, v.account);
        }
    }
    Ok(())
}
