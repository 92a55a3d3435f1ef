//! Writes far more than the log cap to stdout and stderr every turn, then
//! answers properly: the excess is dropped and counted, the bot is not failed.
use std::io::Write;

ludus_hostile_bots::hostile_bot!({
    let line = [b'x'; 1023];
    let mut out = std::io::stdout().lock();
    for _ in 0..1024 {
        out.write_all(&line).unwrap();
        out.write_all(b"\n").unwrap();
    }
    drop(out);
    eprintln!("and some stderr");
    ludus_hostile_bots::answer(ludus_hostile_bots::NO_MOVES)
});
