//! The operator's commands on a server's database: `user list`, `user
//! remove`, `user token`, `bot retire` (and the older `retire`), and
//! `bots` with owners, retired bots and `--duplicates`
//! ([`ludus_leaderboard::operator`], [`ludus_server::auth`]).

use anyhow::Result;
use ludus_host::short_id;
use ludus_leaderboard::operator::{self, RetiredBot};
use ludus_leaderboard::store::{Location, Store};

pub fn user_list(db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let users = operator::users(&store)?;
    println!(
        "{:<20} {:<20} {:<8} {:<20} bots",
        "account", "created", "operator", "removed"
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
            "{name:<20} {:<20} {:<8} {:<20} {bots}",
            u.created_at,
            if u.operator { "yes" } else { "no" },
            u.removed_at.as_deref().unwrap_or("-"),
        );
    }
    if users.is_empty() {
        println!("(no accounts yet: `ludus user add NAME --db {db}` adds one)");
    }
    Ok(())
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

pub fn user_token(name: &str, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let token = ludus_server::auth::new_token(&store, name)?;
    println!("{token}");
    eprintln!(
        "a new token for {name} in {db}; it replaces the previous one, which signs in no more; \
         this token is shown only once: give it to {name} (the server stores only its hash)"
    );
    Ok(())
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
