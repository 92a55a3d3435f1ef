//! A small Chrome DevTools Protocol client for the browser tests: headless
//! Chromium with `--remote-debugging-pipe`, messages as NUL-terminated JSON
//! on fds 3 (to the browser) and 4 (from it). No port, no network, no
//! dependency beyond the system's `chromium`.

use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Where Debian's `chromium` package puts the browser.
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// The browser, installing Debian's `chromium` package when it is missing
/// (the tests run as root in CI; elsewhere the message says what to do).
pub fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("LUDUS_CHROMIUM") {
        return PathBuf::from(p);
    }
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        if Path::new(CHROMIUM).exists() {
            return;
        }
        eprintln!("browser tests: {CHROMIUM} is missing; installing Debian's chromium package");
        let apt = |args: &[&str]| {
            Command::new("apt-get")
                .args(["-o", "DPkg::Lock::Timeout=600"])
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .stdin(Stdio::null())
                .status()
                .map(|s| s.success())
                .unwrap_or(false)
        };
        let ok = apt(&["update", "-q"]) && apt(&["install", "-y", "-q", "chromium"]);
        assert!(
            ok && Path::new(CHROMIUM).exists(),
            "Chromium is needed for the browser tests: `apt-get install -y chromium` failed \
             (run it as root, or point LUDUS_CHROMIUM at a Chromium binary)"
        );
    });
    PathBuf::from(CHROMIUM)
}

pub struct Browser {
    child: Child,
    to_browser: std::io::PipeWriter,
    from_browser: Receiver<Value>,
    next_id: u64,
    /// Events not yet looked at.
    pub events: VecDeque<Value>,
    _profile: tempfile::TempDir,
}

/// One page (a target), addressed by its session.
pub struct Page<'a> {
    browser: &'a mut Browser,
    session: String,
    /// Console errors, uncaught exceptions and error log entries, as text.
    pub errors: Vec<String>,
}

impl Browser {
    pub fn launch() -> Browser {
        let profile = tempfile::tempdir().expect("a profile directory");
        let (cmd_read, cmd_write) = std::io::pipe().expect("a pipe");
        let (evt_read, evt_write) = std::io::pipe().expect("a pipe");
        let (r, w) = (cmd_read.as_raw_fd(), evt_write.as_raw_fd());
        let mut command = Command::new(chromium());
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--hide-scrollbars",
                "--mute-audio",
                "--remote-debugging-pipe",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: only async-signal-safe calls (fcntl, dup2) between fork and exec.
        unsafe {
            command.pre_exec(move || {
                // Move both ends above 3 and 4 first, so neither dup2 closes the other.
                let r2 = libc::fcntl(r, libc::F_DUPFD, 10);
                let w2 = libc::fcntl(w, libc::F_DUPFD, 10);
                if r2 < 0 || w2 < 0 || libc::dup2(r2, 3) < 0 || libc::dup2(w2, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        drop(cmd_read);
        drop(evt_write);
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(evt_read);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        if let Ok(v) = serde_json::from_slice::<Value>(&buf) {
                            if tx.send(v).is_err() {
                                break;
                            }
                        }
                    }
                }
            }
        });
        Browser {
            child,
            to_browser: cmd_write,
            from_browser: rx,
            next_id: 0,
            events: VecDeque::new(),
            _profile: profile,
        }
    }

    /// Sends a command and waits for its answer (events meanwhile are kept).
    pub fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).unwrap();
        bytes.push(0);
        self.to_browser
            .write_all(&bytes)
            .expect("writing to the browser");
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.from_browser.recv_timeout(left) {
                Ok(v) if v["id"] == json!(id) => {
                    if let Some(e) = v.get("error") {
                        panic!("{method} failed: {e}");
                    }
                    return v["result"].clone();
                }
                Ok(v) => self.events.push_back(v),
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no answer from the browser"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: the browser exited"),
            }
        }
    }

    /// Takes in whatever events have arrived, without blocking.
    fn pump(&mut self) {
        while let Ok(v) = self.from_browser.try_recv() {
            self.events.push_back(v);
        }
    }

    /// A new page at `about:blank`, `width` × `height` CSS pixels at `scale` device pixels each.
    pub fn page(&mut self, width: u32, height: u32, scale: f64) -> Page<'_> {
        let target = self.call(None, "Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].as_str().unwrap().to_string();
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        let session = attached["sessionId"].as_str().unwrap().to_string();
        let mut page = Page {
            browser: self,
            session,
            errors: Vec::new(),
        };
        for m in ["Page.enable", "Runtime.enable", "Log.enable"] {
            page.call(m, json!({}));
        }
        page.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": scale, "mobile": false}),
        );
        page
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Page<'_> {
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        let v = self.browser.call(Some(&session), method, params);
        self.collect_errors();
        v
    }

    /// Moves error events of this page into `errors`.
    fn collect_errors(&mut self) {
        self.browser.pump();
        let mut keep = VecDeque::new();
        while let Some(e) = self.browser.events.pop_front() {
            if e["sessionId"].as_str() != Some(self.session.as_str()) {
                keep.push_back(e);
                continue;
            }
            let p = &e["params"];
            match e["method"].as_str() {
                Some("Runtime.exceptionThrown") => self.errors.push(format!(
                    "uncaught: {}",
                    p["exceptionDetails"]["exception"]["description"]
                        .as_str()
                        .or(p["exceptionDetails"]["text"].as_str())
                        .unwrap_or("?")
                )),
                Some("Runtime.consoleAPICalled")
                    if matches!(p["type"].as_str(), Some("error") | Some("assert")) =>
                {
                    self.errors.push(format!("console.error: {}", p["args"]))
                }
                Some("Log.entryAdded") if p["entry"]["level"] == "error" => self.errors.push(
                    format!("log: {}", p["entry"]["text"].as_str().unwrap_or("?")),
                ),
                _ => {}
            }
        }
        self.browser.events = keep;
    }

    /// Opens `url` and waits for its load event.
    pub fn navigate(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for_load(url);
    }

    /// Waits (30 s at most) for the load event of the page a navigation
    /// opens: [`Page::navigate`]'s, or one that a click on a link or a
    /// form's button started; `what` names the page in the failure.
    pub fn wait_for_load(&mut self, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            self.browser.pump();
            let session = self.session.clone();
            if let Some(i) = self.browser.events.iter().position(|e| {
                e["method"] == "Page.loadEventFired" && e["sessionId"].as_str() == Some(&session)
            }) {
                self.browser.events.remove(i);
                break;
            }
            assert!(Instant::now() < deadline, "{what} did not load");
            std::thread::sleep(Duration::from_millis(20));
        }
        self.collect_errors();
    }

    /// Evaluates `expression` (awaiting a promise) and returns its value.
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("`{expression}` threw: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Polls `expression` until it is `true`.
    pub fn wait_for(&mut self, expression: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.eval(expression) != json!(true) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for `{expression}`"
            );
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Presses a key, as a person does (keydown then keyup).
    pub fn press(&mut self, key: &str, code: &str, key_code: u32, shift: bool) {
        let modifiers = if shift { 8 } else { 0 };
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": code,
                       "windowsVirtualKeyCode": key_code, "nativeVirtualKeyCode": key_code,
                       "modifiers": modifiers}),
            );
        }
    }

    /// A mouse click at CSS pixel (x, y).
    pub fn click(&mut self, x: f64, y: f64) {
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Saves a PNG of the page.
    pub fn screenshot(&mut self, path: &Path) {
        use base64::Engine as _;
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .unwrap();
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    /// Sets the files of an `<input type=file>`, as choosing them in a dialog does.
    pub fn set_file_input(&mut self, selector: &str, file: &Path) {
        let doc = self.call("DOM.getDocument", json!({}));
        let node = self.call(
            "DOM.querySelector",
            json!({"nodeId": doc["root"]["nodeId"], "selector": selector}),
        );
        self.call(
            "DOM.setFileInputFiles",
            json!({"nodeId": node["nodeId"], "files": [file.display().to_string()]}),
        );
    }
}
