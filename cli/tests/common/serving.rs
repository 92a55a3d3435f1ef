//! A real `ludus serve` on a loopback port, for the tests of the server.

use super::ludus_cmd;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A running server, killed when dropped (a test that failed half-way).
pub struct Serving {
    pub child: Child,
    pub url: String,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `ludus serve` in `dir` on a free loopback port, with `args`.
pub fn serve(dir: &Path, args: &[&str]) -> Serving {
    let mut all = vec!["serve", "--listen", "127.0.0.1:0"];
    all.extend_from_slice(args);
    let mut child = ludus_cmd(&all, dir)
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

impl Serving {
    /// Sends SIGTERM and waits for the process to end by itself, at most
    /// `within`.
    pub fn terminate(&mut self, within: Duration) -> ExitStatus {
        let pid = self.child.id().to_string();
        let killed = std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap();
        assert!(killed.success());
        let start = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            assert!(
                start.elapsed() < within,
                "the server did not stop within {within:?} of SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

pub fn get_json(url: &str) -> Value {
    ureq::get(url)
        .call()
        .unwrap_or_else(|e| panic!("GET {url}: {e}"))
        .into_body()
        .read_json()
        .unwrap()
}
