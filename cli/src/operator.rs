//! The operator's commands on a server's database: `user list`, `user
//! remove`, `user token`, `user tokens`, `user revoke`, `user invite`,
//! `user password`, `user disable` and `user enable`, `bot retire` (and the
//! older `retire`), and `bots` with owners, retired bots and `--duplicates`
//! ([`ludus_leaderboard::operator`], [`ludus_server::auth`]).

use anyhow::{bail, Context, Result};
use ludus_host::short_id;
use ludus_leaderboard::clock;
use ludus_leaderboard::operator::{self, RetiredBot};
use ludus_leaderboard::store::{Location, Store};

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
    let removed = operator::remove_user(&store, name)?;
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
    let (name, changed) = ludus_server::auth::set_disabled(&store, name, disabled)?;
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
/// operator ([`operator::retire_bot`]).
pub fn bot_retire(name: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    match operator::retire_bot(&store, name)? {
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
