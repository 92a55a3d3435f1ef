//! What `ludus serve` logs, read from a real process's stderr as an
//! operator's log file gets it: one line per request with its method,
//! path, status, time and request id (the one its answer carries), uploads
//! accepted and refused with the reason, never a token, and with
//! `--log-format json` one JSON object a line.

mod common;

use common::{bot, ludus, ludus_cmd, text, Serving};
use serde_json::Value;
use std::path::Path;
use std::process::Stdio;

const SECRET_QUERY: &str = "s3cr3t-in-the-query";

/// What a run of the server was asked, and what it answered.
struct Run {
    token: String,
    /// The request id of each request, by what it was.
    me: String,
    upload_ok: String,
    upload_refused: String,
    /// What the refused upload's answer said.
    refusal: String,
    log: String,
}

fn request_id(res: &ureq::http::Response<ureq::Body>) -> String {
    res.headers()["x-request-id"].to_str().unwrap().to_string()
}

/// Starts `ludus serve` with `LUDUS_LOG=info` and `args`, its stderr to a
/// file; makes the requests of [`Run`] (a scrape of `/metrics` from
/// loopback answered `metrics`); stops it and reads the log.
fn run(dir: &Path, args: &[&str], metrics: u16) -> Run {
    let o = ludus(&["user", "add", "alice"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let token = String::from_utf8(o.stdout).unwrap().trim().to_string();
    let log_file = dir.join("serve.log");
    let mut all = vec!["serve", "--listen", "127.0.0.1:0", "--workers", "0"];
    all.extend_from_slice(args);
    let mut cmd = ludus_cmd(&all, dir);
    cmd.env("LUDUS_LOG", "info")
        .env_remove("LUDUS_LOG_FORMAT")
        .stderr(Stdio::from(std::fs::File::create(&log_file).unwrap()));
    let mut server = Serving::start(cmd);
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let url = &server.url;
    let bearer = format!("Bearer {token}");

    let res = agent
        .get(&format!("{url}/api/me"))
        .header("Authorization", &bearer)
        // A client's own id is not the server's: it is replaced.
        .header("x-request-id", "forged id status=500")
        .call()
        .unwrap();
    assert_eq!(res.status(), 200);
    let me = request_id(&res);
    assert_ne!(me, "forged id status=500");
    let res = agent
        .get(&format!("{url}/api/games?token={SECRET_QUERY}"))
        .call()
        .unwrap();
    assert_eq!(res.status(), 200);
    let res = agent
        .get(&format!("{url}/"))
        .header("Cookie", &format!("ludus_session={token}"))
        .call()
        .unwrap();
    assert_eq!(res.status(), 200);
    let wasm = std::fs::read(bot("planet_wars_idle")).unwrap();
    let res = agent
        .post(&format!("{url}/api/bots?name=idle&game=planet-wars"))
        .header("Authorization", &bearer)
        .send(&wasm[..])
        .unwrap();
    assert_eq!(res.status(), 201);
    let upload_ok = request_id(&res);
    let mut res = agent
        .post(&format!("{url}/api/bots?name=junk&game=planet-wars"))
        .header("Authorization", &bearer)
        .send(&b"not wasm"[..])
        .unwrap();
    assert_eq!(res.status(), 422);
    let upload_refused = request_id(&res);
    let answer: Value = res.body_mut().read_json().unwrap();
    let refusal = answer["error"]["message"].as_str().unwrap().to_string();
    let res = agent.get(&format!("{url}/metrics")).call().unwrap();
    assert_eq!(res.status(), metrics);

    let status = server.stop().expect("the server stops");
    assert!(status.success(), "{status}");
    let log = std::fs::read_to_string(&log_file).unwrap();
    Run {
        token,
        me,
        upload_ok,
        upload_refused,
        refusal,
        log,
    }
}

/// What every log holds: no token, no query string, no colour code.
fn holds_no_secret(r: &Run) {
    let secret = r.token.rsplit('_').next().unwrap();
    assert!(secret.len() >= 32, "{}", r.token);
    assert!(
        !r.log.contains(secret),
        "the token is in the log:\n{}",
        r.log
    );
    assert!(
        !r.log.contains(SECRET_QUERY),
        "a query is in the log:\n{}",
        r.log
    );
    assert!(
        !r.log.contains('\u{1b}'),
        "colour codes in a file:\n{}",
        r.log
    );
    assert!(!r.log.contains("forged id"), "{}", r.log);
}

#[test]
fn json_logs_are_one_object_a_line_with_every_request_and_upload() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(dir.path(), &["--log-format", "json"], 200);
    holds_no_secret(&r);
    let lines: Vec<Value> = r
        .log
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("not a JSON object ({e}): {l}\n{}", r.log));
            assert!(v.is_object(), "{l}");
            v
        })
        .collect();
    let requests: Vec<&Value> = lines.iter().filter(|v| v["message"] == "request").collect();
    // One line each: /api/me, /api/games, /, two uploads, /metrics.
    assert_eq!(requests.len(), 6, "{}", r.log);
    let line_of = |id: &str| {
        let of: Vec<&&Value> = requests.iter().filter(|v| v["request_id"] == id).collect();
        assert_eq!(of.len(), 1, "{id}: {}", r.log);
        *of[0]
    };
    let me = line_of(&r.me);
    assert_eq!(
        (&me["method"], &me["path"], &me["status"], &me["level"]),
        (
            &Value::from("GET"),
            &Value::from("/api/me"),
            &Value::from(200),
            &Value::from("INFO")
        ),
        "{me}"
    );
    assert!(me["ms"].as_f64().unwrap() >= 0.0, "{me}");
    assert!(requests.iter().any(|v| v["path"] == "/api/games"));
    assert_eq!(line_of(&r.upload_refused)["status"], 422);
    assert_eq!(line_of(&r.upload_ok)["status"], 201);
    let accepted = lines
        .iter()
        .find(|v| v["message"] == "upload accepted")
        .unwrap_or_else(|| panic!("{}", r.log));
    assert_eq!(
        (
            &accepted["bot"],
            &accepted["version"],
            &accepted["account"],
            &accepted["game"]
        ),
        (
            &Value::from("idle"),
            &Value::from(1),
            &Value::from("alice"),
            &Value::from("planet-wars")
        ),
        "{accepted}"
    );
    assert!(accepted["validation_ms"].is_u64(), "{accepted}");
    // Inside its request's span: the same id.
    assert_eq!(accepted["span"]["id"], r.upload_ok.as_str(), "{accepted}");
    let refused = lines
        .iter()
        .find(|v| v["message"] == "upload refused")
        .unwrap_or_else(|| panic!("{}", r.log));
    assert_eq!(refused["bot"], "junk", "{refused}");
    assert_eq!(refused["code"], "refused", "{refused}");
    assert_eq!(
        refused["reason"].as_str().unwrap(),
        r.refusal.escape_debug().to_string(),
        "{refused}"
    );
    assert_eq!(refused["span"]["id"], r.upload_refused.as_str());
}

#[test]
fn text_logs_have_one_line_a_request_with_its_id_and_no_colour_in_a_file() {
    let dir = tempfile::tempdir().unwrap();
    // Metrics for another network than loopback: the scrape is refused.
    let r = run(dir.path(), &["--metrics-from", "192.0.2.0/24"], 403);
    holds_no_secret(&r);
    let me: Vec<&str> = r
        .log
        .lines()
        .filter(|l| l.contains(&format!("request_id={}", r.me)))
        .collect();
    assert_eq!(me.len(), 1, "{}", r.log);
    for part in [
        " INFO ",
        "ludus_server::requests: request",
        "method=GET",
        "path=/api/me",
        "status=200",
        "ms=",
    ] {
        assert!(me[0].contains(part), "{part} is not in {}", me[0]);
    }
    let refused = r
        .log
        .lines()
        .find(|l| l.contains("upload refused"))
        .unwrap_or_else(|| panic!("{}", r.log));
    assert!(
        refused.contains("bot=junk") && refused.contains("code=refused"),
        "{refused}"
    );
    assert!(
        refused.contains(&format!("reason={}", r.refusal.escape_debug())),
        "{refused}\n{}",
        r.refusal
    );
}
