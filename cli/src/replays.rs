//! `ludus replays keep`: stores the replays that ladders' policies left
//! out, by playing their matches again (each checked against its recorded
//! sha256), so that an upgrade which changes a version loses none.

use anyhow::Result;
use ludus_host::Sandbox;
use ludus_leaderboard::replays;
use ludus_leaderboard::store::{Location, Store};

pub fn keep(ladder: Option<i64>, db: &Location) -> Result<()> {
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
