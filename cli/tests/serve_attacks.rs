//! `ludus serve` attacked as a public server is attacked first, each attack
//! bounded in requests and time, against a real server on loopback: large
//! uploads without a token, headers sent slowly, forged tokens, a match page
//! of the largest replay a bot can make, errors that would tell where things
//! are, missing security headers, look-alike names; and schemathesis, with
//! all its checks, against the OpenAPI document, which a validator checks.

mod common;

use common::{ludus, serve, text, Serving};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

/// The server's resident memory, in KiB: now and at its peak.
fn rss_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn address(server: &Serving) -> String {
    server.url.trim_start_matches("http://").to_string()
}

/// Sends `head` (a request's headers, and whatever follows) on a new
/// connection and reads the answer's first bytes, waiting `within` at most.
fn raw(server: &Serving, head: &str, within: Duration) -> String {
    let mut s = TcpStream::connect(address(server)).unwrap();
    s.set_read_timeout(Some(within)).unwrap();
    s.write_all(head.as_bytes()).unwrap();
    let mut buf = vec![0; 4096];
    let n = s.read(&mut buf).unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// An HTTP request with `headers`: its status, headers and body.
fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, ureq::http::HeaderMap, String) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let mut req = ureq::http::Request::builder().method(method).uri(url);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    if !body.is_empty() {
        // As a client that wants the server's refusal rather than a reset
        // connection: the server reads no body before the headers pass.
        req = req.header("Expect", "100-continue");
    }
    let res = agent.run(req.body(body.to_vec()).unwrap()).unwrap();
    let status = res.status().as_u16();
    let headers = res.headers().clone();
    let body = res.into_body().read_to_string().unwrap_or_default();
    (status, headers, body)
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"))
}

/// `ludus user add NAME` in `dir`: the token.
fn user(dir: &Path, name: &str) -> String {
    let o = ludus(&["user", "add", name], dir);
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

const UPLOAD: &str = "/api/bots?name=big&game=planet-wars";

#[test]
fn uploads_are_refused_before_their_bodies_are_read_and_memory_stays_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let alice = user(dir.path(), "alice");
    let server = serve(dir.path(), &["--workers", "0"]);
    let host = address(&server);
    let big = 30 << 20;
    // Headers that announce 30 MiB and wait for `100 Continue`: the answer
    // comes first, and no 100 is ever sent.
    for (auth, bad_name, status) in [
        ("", "big", "401"),
        ("Authorization: Bearer ludus_1_forged\r\n", "big", "401"),
        (
            &format!("Authorization: Bearer {alice}\r\n") as &str,
            "..",
            "400",
        ),
    ] {
        let head = format!(
            "POST /api/bots?name={bad_name}&game=planet-wars HTTP/1.1\r\nHost: {host}\r\n{auth}\
             Content-Type: application/wasm\r\nContent-Length: {big}\r\nExpect: 100-continue\r\n\r\n"
        );
        let answer = raw(&server, &head, Duration::from_secs(5));
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{auth}{bad_name}: {answer}"
        );
        assert!(!answer.contains("100 Continue"), "{answer}");
    }

    // Eight clients at once each push 30 MiB without a token: each is
    // refused, and the server's peak memory barely moves.
    let pid = server.child.id();
    let (_, peak_before) = rss_kib(pid);
    let started = Instant::now();
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let host = host.clone();
            std::thread::spawn(move || {
                let mut s = TcpStream::connect(&host).unwrap();
                s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
                s.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
                let head = format!(
                    "POST {UPLOAD} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {big}\r\n\r\n"
                );
                s.write_all(head.as_bytes()).unwrap();
                let chunk = vec![0u8; 1 << 20];
                for _ in 0..30 {
                    if s.write_all(&chunk).is_err() {
                        break;
                    }
                }
                let mut answer = String::new();
                let _ = s.read_to_string(&mut answer);
                answer
            })
        })
        .collect();
    for c in clients {
        let answer = c.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
    }
    let (_, peak_after) = rss_kib(pid);
    eprintln!(
        "8 unauthenticated 30 MiB uploads: peak RSS {} -> {} KiB, answered in {:?}",
        peak_before,
        peak_after,
        started.elapsed()
    );
    assert!(
        peak_after < peak_before + (32 << 10),
        "the server's peak memory grew from {peak_before} to {peak_after} KiB"
    );
}

#[test]
fn slow_headers_and_slow_bodies_are_cut_off_at_their_timeouts() {
    let dir = tempfile::tempdir().unwrap();
    let alice = user(dir.path(), "alice");
    let server = serve(
        dir.path(),
        &[
            "--workers",
            "0",
            "--header-timeout",
            "1s",
            "--body-timeout",
            "1s",
        ],
    );
    let host = address(&server);
    // Half a request's headers, then nothing: the connection is closed.
    let mut s = TcpStream::connect(&host).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s.write_all(format!("GET / HTTP/1.1\r\nHost: {host}\r\nX-Slow: ").as_bytes())
        .unwrap();
    let started = Instant::now();
    let mut buf = [0u8; 1024];
    let n = s.read(&mut buf).unwrap_or(0);
    let closed_after = started.elapsed();
    eprintln!("a connection with half its headers was closed after {closed_after:?}");
    assert!(
        closed_after >= Duration::from_millis(900) && closed_after < Duration::from_secs(6),
        "closed after {closed_after:?}, answer {:?}",
        String::from_utf8_lossy(&buf[..n])
    );
    // A body that stops: the request ends with 408 once it has waited the
    // body timeout, in the one error shape.
    let head = format!(
        "POST /api/bots?name=slow&game=planet-wars HTTP/1.1\r\nHost: {host}\r\n\
         Authorization: Bearer {alice}\r\nContent-Length: 100000\r\n\r\n0123456789"
    );
    let started = Instant::now();
    let answer = raw(&server, &head, Duration::from_secs(20));
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"code\":\"timeout\""), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(6));
}

#[test]
fn forged_tokens_spend_no_one_elses_budget_and_proxies_are_trusted_only_when_named() {
    let dir = tempfile::tempdir().unwrap();
    let alice = user(dir.path(), "alice");
    // Two requests a second, in bursts of eight; loopback is the proxy.
    let server = serve(
        dir.path(),
        &[
            "--workers",
            "0",
            "--rate-limit",
            "2",
            "--trusted-proxy",
            "127.0.0.1",
        ],
    );
    let me = format!("{}/api/me", server.url);
    // An attacker sends alice's account id with a forged secret, over and
    // over: it is refused, then slowed by its own address's budget.
    let mut statuses = Vec::new();
    for _ in 0..40 {
        let (status, _, _) = request(
            "GET",
            &me,
            &[
                ("Authorization", "Bearer ludus_1_forged"),
                ("X-Forwarded-For", "203.0.113.1"),
            ],
            b"",
        );
        statuses.push(status);
    }
    assert!(statuses[..8].iter().all(|&s| s == 401), "{statuses:?}");
    assert!(statuses.contains(&429), "{statuses:?}");
    // Alice, from her own address, is not slowed by it.
    let bearer = format!("Bearer {alice}");
    for _ in 0..5 {
        let (status, headers, body) = request(
            "GET",
            &me,
            &[
                ("Authorization", &bearer),
                ("X-Forwarded-For", "198.51.100.7"),
            ],
            b"",
        );
        assert_eq!(status, 200, "{body}");
        assert_eq!(headers["cache-control"], "private, no-store");
    }
}

#[test]
fn a_header_from_an_untrusted_peer_names_no_client() {
    let dir = tempfile::tempdir().unwrap();
    // No proxy is trusted: X-Forwarded-For cannot buy a fresh budget.
    let server = serve(dir.path(), &["--workers", "0", "--rate-limit", "1"]);
    let url = format!("{}/api/games", server.url);
    let statuses: Vec<u16> = (0..12)
        .map(|i| {
            let forged = format!("192.0.2.{i}");
            request("GET", &url, &[("X-Forwarded-For", &forged)], b"").0
        })
        .collect();
    assert!(statuses.contains(&429), "{statuses:?}");
}

#[test]
fn errors_have_one_shape_with_a_request_id_and_name_no_internals() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path(), &["--workers", "0"]);
    let u = |path: &str| format!("{}{path}", server.url);
    let secret_dir = dir.path().display().to_string();
    for (method, path, body, status, code) in [
        ("GET", "/api/matches/abcdef", "", 404, "not_found"),
        ("GET", "/api/matches/not-hex", "", 404, "not_found"),
        ("GET", "/api/nothing", "", 404, "not_found"),
        ("DELETE", "/api/games", "", 405, "method_not_allowed"),
        ("GET", "/api/bots/x?page=0", "", 400, "bad_request"),
        (
            "GET",
            "/api/games/planet-wars/leaderboard?per_page=1000",
            "",
            400,
            "bad_request",
        ),
        ("GET", "/api/games/chess/leaderboard", "", 404, "not_found"),
        (
            "POST",
            "/api/bots?game=planet-wars",
            "",
            401,
            "unauthorized",
        ),
        ("POST", "/signin", "token=x", 415, "unsupported_media_type"),
    ] {
        let (got, headers, answer) = request(method, &u(path), &[], body.as_bytes());
        assert_eq!(got, status, "{method} {path}: {answer}");
        let error = &json(&answer)["error"];
        assert_eq!(error["code"], code, "{method} {path}: {answer}");
        let id = headers["x-request-id"].to_str().unwrap();
        assert!(!id.is_empty());
        assert_eq!(error["request_id"], id, "{answer}");
        for internal in [secret_dir.as_str(), "ludus.db", "SELECT", "sqlite", "src/"] {
            assert!(
                !answer.contains(internal),
                "{path} names {internal}: {answer}"
            );
        }
    }
}

#[test]
fn every_answer_carries_the_security_headers() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(dir.path(), &["--workers", "0"]);
    for path in [
        "/",
        "/games/planet-wars",
        "/signin",
        "/api/games",
        "/nothing",
    ] {
        let (_, h, _) = request("GET", &format!("{}{path}", server.url), &[], b"");
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'none'"), "{path}: {csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"));
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        // Same-origin: forms carry their Origin; no other site is told
        // where its visitors came from.
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
    }
    let (_, h, _) = request("GET", &format!("{}/signin", server.url), &[], b"");
    assert_eq!(h["cache-control"], "private, no-store");
    assert!(h["vary"].to_str().unwrap().contains("Cookie"));
}

#[test]
fn look_alike_names_and_names_without_an_owner_cannot_be_taken() {
    let dir = tempfile::tempdir().unwrap();
    let alice = user(dir.path(), "alice");
    let bob = user(dir.path(), "bob");
    // Account names follow the same rule, and differ in more than case.
    assert!(!ludus(&["user", "add", "ALICE"], dir.path())
        .status
        .success());
    assert!(!ludus(&["user", "add", "al\u{202e}ice"], dir.path())
        .status
        .success());
    let o = ludus(
        &[
            "submit",
            &common::bot("planet_wars_idle"),
            "--name",
            "house",
            "--game",
            "planet-wars",
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", text(&o));
    let server = serve(dir.path(), &["--workers", "0"]);
    let wasm = std::fs::read(ludus_testkit::bot("planet_wars_random")).unwrap();
    let upload = |token: &str, name: &str| {
        let url = format!(
            "{}/api/bots?name={}&game=planet-wars",
            server.url,
            ludus_server::templates::url_part(name)
        );
        let (status, _, body) = request(
            "POST",
            &url,
            &[("Authorization", &format!("Bearer {token}"))],
            &wasm,
        );
        (status, body)
    };
    assert_eq!(upload(&alice, "alpha").0, 201);
    for (name, status) in [
        ("ALPHA", 403),
        ("Alpha", 403),
        ("house", 403),
        ("HOUSE", 403),
        ("alpha\u{202e}", 400),
        ("al\u{200b}pha", 400),
        (" alpha", 400),
        ("..", 400),
        ("../../etc/passwd", 400),
        ("аlpha", 400),
    ] {
        let (got, body) = upload(&bob, name);
        assert_eq!(got, status, "{name:?}: {body}");
    }
    let (_, body) = upload(&bob, "Alpha");
    assert!(body.contains("whatever their case"), "{body}");
    let (_, body) = upload(&bob, "..");
    assert!(
        body.contains("beginning with a letter or a digit"),
        "{body}"
    );
    assert_eq!(upload(&alice, "alpha").0, 201, "a new version of her own");
}

/// A Planet Wars bot whose every answer is `{"moves":[]}` padded with
/// spaces to a byte under the game's cap: the largest replay a bot can make.
fn padded_to_the_cap() -> Vec<u8> {
    let cap = ludus_engine::registry::info("planet-wars")
        .unwrap()
        .answer_bytes
        - 1;
    wat::parse_str(format!(
        r#"(module
          (memory (export "memory") 3)
          (data (i32.const 16) "{{\"moves\":[]}}")
          (func (export "ludus_alloc") (param i32) (result i32) (i32.const 131072))
          (func (export "act") (param i32 i32) (result i64)
            (memory.fill (i32.const 28) (i32.const 32) (i32.const {pad}))
            (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const {cap}))))"#,
        pad = cap - 12
    ))
    .unwrap()
}

#[test]
fn the_largest_replay_is_served_while_other_requests_keep_being_answered() {
    let dir = tempfile::tempdir().unwrap();
    let alice = user(dir.path(), "alice");
    let server = serve(dir.path(), &["--workers", "1", "--rate-limit", "1000"]);
    let post = |name: &str, wasm: &[u8]| {
        request(
            "POST",
            &format!("{}/api/bots?name={name}&game=planet-wars", server.url),
            &[("Authorization", &format!("Bearer {alice}"))],
            wasm,
        )
    };
    // A megabyte of padding is no answer: refused at upload.
    let megabyte = wat::parse_file(
        ludus_testkit::workspace_root().join("host/tests/hostile/padded_answer.wat"),
    )
    .unwrap();
    let (status, _, body) = post("megabyte", &megabyte);
    assert_eq!(status, 422, "{body}");
    assert!(
        body.contains("answer_too_large") || body.contains("too large"),
        "{body}"
    );
    let (status, _, body) = post("padded", &padded_to_the_cap());
    assert_eq!(status, 201, "{body}");
    let idle = std::fs::read(ludus_testkit::bot("planet_wars_idle")).unwrap();
    assert_eq!(post("idle", &idle).0, 201);
    // Its first rated match.
    let view_url = format!("{}/api/bots/padded", server.url);
    let started = Instant::now();
    let id = loop {
        let view = json(&request("GET", &view_url, &[], b"").2);
        if let Some(id) = view["recent"][0]["match_id"].as_str() {
            break id.to_string();
        }
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "no match: {view}"
        );
        std::thread::sleep(Duration::from_millis(300));
    };
    let page = format!("{}/matches/{id}", server.url);
    let (status, headers, first) = request("GET", &page, &[], b"");
    assert_eq!(status, 200);
    let etag = headers["etag"].to_str().unwrap().to_string();
    assert_eq!(headers["cache-control"], "public, max-age=300");
    let (status, _, _) = request("GET", &page, &[("If-None-Match", &etag)], b"");
    assert_eq!(status, 304);
    // The page asked in a loop by two clients, the leaderboard by a third.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let hammers: Vec<_> = (0..2)
        .map(|_| {
            let (page, stop) = (page.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut n = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    assert_eq!(request("GET", &page, &[], b"").0, 200);
                    n += 1;
                }
                n
            })
        })
        .collect();
    let board = format!("{}/api/games/planet-wars/leaderboard", server.url);
    let mut slowest = Duration::ZERO;
    let started = Instant::now();
    let mut answered = 0;
    while started.elapsed() < Duration::from_secs(3) {
        let t = Instant::now();
        assert_eq!(request("GET", &board, &[], b"").0, 200);
        slowest = slowest.max(t.elapsed());
        answered += 1;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let pages: usize = hammers.into_iter().map(|h| h.join().unwrap()).sum();
    eprintln!(
        "the largest replay's page ({} KiB) served {pages} times while the leaderboard answered {answered} times, the slowest in {slowest:?}",
        first.len() >> 10
    );
    assert!(slowest < Duration::from_secs(1), "{slowest:?}");
}

#[test]
fn the_api_passes_schemathesis_and_its_document_is_valid() {
    let venv = ludus_testkit::tools_dir().join("api-checks").join("venv");
    let python = ludus_testkit::python_venv(
        &venv,
        &[&["schemathesis==4.32.5", "openapi-spec-validator==0.9.0"]],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let bin = python.parent().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let alice = user(dir.path(), "alice");
    let server = serve(dir.path(), &["--workers", "0", "--rate-limit", "10000"]);
    let doc = dir.path().join("openapi.json");
    let (status, _, text_doc) =
        request("GET", &format!("{}/api/openapi.json", server.url), &[], b"");
    assert_eq!(status, 200);
    std::fs::write(&doc, &text_doc).unwrap();
    let valid = std::process::Command::new(bin.join("openapi-spec-validator"))
        .arg(&doc)
        .output()
        .unwrap();
    assert!(
        valid.status.success(),
        "{}{}",
        String::from_utf8_lossy(&valid.stdout),
        String::from_utf8_lossy(&valid.stderr)
    );
    let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemathesis.toml");
    let run = std::process::Command::new(bin.join("schemathesis"))
        .arg("--config-file")
        .arg(&config)
        .args(["run", &format!("{}/api/openapi.json", server.url)])
        .args(["--checks", "all", "--max-examples", "25", "--seed", "1"])
        .args(["-H", &format!("Authorization: Bearer {alice}")])
        .env("SCHEMATHESIS_TELEMETRY", "false")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{report}");
    assert!(report.contains("passed"), "{report}");
}
