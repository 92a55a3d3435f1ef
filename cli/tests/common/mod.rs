//! Running the `ludus` binary as a user does, in a scratch directory.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn ludus_cmd(args: &[&str], dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ludus"));
    c.args(args)
        .current_dir(dir)
        .env(
            "LUDUS_CACHE_DIR",
            ludus_testkit::workspace_root().join("target/module-cache"),
        )
        // The database is the scratch directory's unless a test names one.
        .env_remove("LUDUS_DB");
    c
}

pub fn ludus(args: &[&str], dir: &Path) -> Output {
    ludus_cmd(args, dir).output().expect("ludus runs")
}

/// stdout and stderr together.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The path of a built bot.
pub fn bot(name: &str) -> String {
    ludus_testkit::bot(name).display().to_string()
}

pub fn bots_dir() -> String {
    ludus_testkit::bots_dir().display().to_string()
}

/// Submits the built bot `file` (e.g. `planet_wars_idle`) as `name` to the
/// Planet Wars bots of `ludus.db` in `dir`.
pub fn submit(dir: &Path, file: &str, name: &str) {
    submit_to(dir, "ludus.db", file, name)
}

/// Submits the built bot `file` as `name` to the Planet Wars bots of the
/// database `db` (a file, relative to `dir`, or a URL).
pub fn submit_to(dir: &Path, db: &str, file: &str, name: &str) {
    submit_game(dir, db, file, name, "planet-wars")
}

/// Submits the built bot `file` as `name` to the bots of `game` in `db`.
pub fn submit_game(dir: &Path, db: &str, file: &str, name: &str, game: &str) {
    let o = ludus(
        &[
            "submit",
            &bot(file),
            "--name",
            name,
            "--game",
            game,
            "--db",
            db,
        ],
        dir,
    );
    assert!(o.status.success(), "{}", text(&o));
}

/// Uploads the built bot `file` as `name` to the Planet Wars bots of the
/// server at `url` with `token` (`ludus submit --server`); its output.
pub fn upload(dir: &Path, url: &str, token: &str, file: &str, name: &str) -> Output {
    ludus(
        &[
            "submit",
            &bot(file),
            "--name",
            name,
            "--game",
            "planet-wars",
            "--server",
            url,
            "--token",
            token,
        ],
        dir,
    )
}

/// The three Planet Wars example bots.
pub const PLANET_WARS_EXAMPLES: [&str; 3] = [
    "planet_wars_expander",
    "planet_wars_idle",
    "planet_wars_random",
];

/// Submits the Planet Wars example bots to `db`, each under its file's name.
pub fn submit_planet_wars_examples(dir: &Path, db: &str) {
    for b in PLANET_WARS_EXAMPLES {
        submit_to(dir, db, b, b);
    }
}

/// A whole-number setting of a benchmark from the environment.
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A `ludus serve` process on a loopback port; stopped when dropped, with
/// SIGTERM (it releases its matches in play), killed if it has not ended
/// within half a minute.
pub struct Serving {
    pub child: Child,
    pub url: String,
}

impl Serving {
    /// Starts `serve`, a `ludus serve --listen 127.0.0.1:0 …` command, and
    /// reads the address it listens on from its first line.
    pub fn start(mut serve: Command) -> Serving {
        let mut child = serve
            .stdout(Stdio::piped())
            .spawn()
            .expect("ludus serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("ludus serve: listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line}"))
            .to_string();
        Serving { child, url }
    }
}

impl Serving {
    /// Stops the server with SIGTERM; how it ended, `None` when it had to
    /// be killed after half a minute.
    pub fn stop(&mut self) -> Option<std::process::ExitStatus> {
        if let Ok(Some(status)) = self.child.try_wait() {
            return Some(status);
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        let start = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if start.elapsed() < Duration::from_secs(30) => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return None;
                }
            }
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Starts `ludus serve --listen 127.0.0.1:0` in `dir` with `args`.
pub fn serve(dir: &Path, args: &[&str]) -> Serving {
    let mut all = vec!["serve", "--listen", "127.0.0.1:0"];
    all.extend_from_slice(args);
    Serving::start(ludus_cmd(&all, dir))
}

pub fn get_json(url: &str) -> serde_json::Value {
    ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
        .into_body()
        .read_json()
        .unwrap()
}

/// `ludus` run with its output on a pseudo-terminal: what it wrote there.
pub fn on_terminal(args: &[&str], dir: &Path) -> String {
    let (ok, out) = on_terminal_with(args, dir, &[]);
    assert!(ok, "{out}");
    out
}

/// `ludus` run with its output on a pseudo-terminal and `env` added to its
/// environment: whether it succeeded, and what it wrote there.
pub fn on_terminal_with(
    args: &[&str],
    dir: &Path,
    env: &[(&str, &std::ffi::OsStr)],
) -> (bool, String) {
    use portable_pty::{native_pty_system, CommandBuilder, PtySize};
    use std::io::Read;
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 200,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_ludus"));
    cmd.args(args);
    cmd.cwd(dir);
    cmd.env(
        "LUDUS_CACHE_DIR",
        ludus_testkit::workspace_root().join("target/module-cache"),
    );
    cmd.env_remove("LUDUS_DB");
    for (key, value) in env {
        cmd.env(key, value);
    }
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    // Read while the child writes (a terminal's buffer is small); the read
    // ends in an error once the child has exited and closed its side.
    let reading = std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = reader.read(&mut buf) {
            out.extend_from_slice(&buf[..n]);
        }
        out
    });
    let status = child.wait().unwrap();
    drop(pty.master);
    let out = String::from_utf8_lossy(&reading.join().unwrap()).into_owned();
    (status.success(), out)
}

/// The numbers in `text` printed with more than two decimals
/// (`0.3333333333333333`): what a table for people should not show.
pub fn long_decimals(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for word in text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-')) {
        let Some((whole, decimals)) = word.split_once('.') else {
            continue;
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if digits(whole.trim_start_matches('-')) && digits(decimals) && decimals.len() > 2 {
            found.push(word.to_string());
        }
    }
    found
}

/// The pid of the `ludus serve` that holds the scheduler lock of the
/// PostgreSQL database `url`, as the database shows it: the lock's session
/// is named `ludus serve on HOST (pid N, ADDRESS)`.
pub fn scheduler_pid(cluster: &ludus_testkit::postgres::Cluster, url: &str) -> Option<u32> {
    // The lock's key (Ludus's class 0x4C55, object -3) as pg_locks shows
    // it: oids; advisory locks are per database, and other tests' servers
    // hold theirs in their own databases of the same cluster.
    let name = cluster.psql(
        url,
        "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND l.classid::text::bigint = 19541 AND l.objid::text::bigint = 4294967293",
    );
    name.split("(pid ")
        .nth(1)?
        .split(',')
        .next()?
        .trim()
        .parse()
        .ok()
}
