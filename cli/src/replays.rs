//! `ludus replays keep`: stores the replays that ladders' policies left
//! out, by playing their matches again (each checked against its recorded
//! sha256), so that an upgrade which changes a version loses none.

use crate::args::DbArg;
use anyhow::Result;
use clap::Subcommand;
use ludus_host::Sandbox;
use ludus_leaderboard::replays;
use ludus_leaderboard::store::{Location, Store};

#[derive(Subcommand)]
pub enum ReplaysCommand {
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

impl ReplaysCommand {
    pub fn run(self) -> Result<()> {
        match self {
            ReplaysCommand::Keep { ladder, db } => keep(ladder, &db.db),
        }
    }
}

fn keep(ladder: Option<i64>, db: &Location) -> Result<()> {
    let store = Store::connect_existing(db)?;
    let sandbox = Sandbox::new()?;
    let mut last = std::time::Instant::now();
    let stored = replays::keep_every(
        &store,
        &sandbox,
        ladder,
        |id, missing| {
            eprintln!("ladder {id}: playing {missing} matches again to store their replays")
        },
        |done, total| {
            if last.elapsed().as_secs() >= 2 || done == total {
                eprintln!("  {done} of {total}");
                last = std::time::Instant::now();
            }
        },
    )?;
    println!("stored {stored} replays; every played match of {db} has its replay");
    Ok(())
}
