//! The run's HTTP client, on loopback only: uploads, challenges and
//! promotions through the API, as a user's program makes them, each with a
//! deadline (a frozen server answers nothing).

use std::time::Duration;

/// An answer: its status and body, or why there was none.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: Option<u16>,
    pub body: String,
}

impl Answer {
    fn failed(e: impl std::fmt::Display) -> Answer {
        Answer {
            status: None,
            body: format!("no answer: {e}"),
        }
    }

    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_str(&self.body).ok()
    }

    /// The error's message, for a refusal (`{"error": {"code", "message"}}`).
    pub fn message(&self) -> String {
        self.json()
            .and_then(|j| j["error"]["message"].as_str().map(str::to_string))
            .unwrap_or_else(|| self.body.chars().take(300).collect())
    }

    /// Its status (or none) and message, in a line.
    pub fn describe(&self) -> String {
        match self.status {
            Some(s) => format!("{s} {}", self.message()),
            None => self.body.clone(),
        }
    }
}

fn check_loopback(url: &str) {
    assert!(
        url.starts_with("http://127.0.0.1:"),
        "the fault run talks to loopback only, not {url}"
    );
}

fn finish(r: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Answer {
    match r {
        Ok(r) => {
            let status = r.status().as_u16();
            let body = r
                .into_body()
                .with_config()
                .limit(4 << 20)
                .read_to_string()
                .unwrap_or_else(|e| format!("(unreadable body: {e})"));
            Answer {
                status: Some(status),
                body,
            }
        }
        Err(e) => Answer::failed(e),
    }
}

/// `POST url` with `body` and the bearer `token`.
pub fn post(url: &str, token: &str, body: &[u8], content: &str, timeout: Duration) -> Answer {
    check_loopback(url);
    finish(
        ureq::post(url)
            .header("Authorization", &format!("Bearer {token}"))
            .header("Content-Type", content)
            .config()
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .build()
            .send(body),
    )
}

/// An upload (`POST /api/bots?name=&game=&candidate=`).
pub fn upload(
    server: &str,
    token: &str,
    name: &str,
    game: &str,
    candidate: bool,
    wasm: &[u8],
) -> Answer {
    post(
        &format!("{server}/api/bots?name={name}&game={game}&candidate={candidate}"),
        token,
        wasm,
        "application/wasm",
        Duration::from_secs(150),
    )
}

/// `POST` of a JSON document.
pub fn post_json(url: &str, token: &str, doc: &serde_json::Value) -> Answer {
    post(
        url,
        token,
        doc.to_string().as_bytes(),
        "application/json",
        Duration::from_secs(60),
    )
}

/// `GET url` as text.
pub fn get_text(url: &str, timeout: Duration) -> Result<String, String> {
    check_loopback(url);
    let a = finish(
        ureq::get(url)
            .config()
            .http_status_as_error(false)
            .timeout_global(Some(timeout))
            .build()
            .call(),
    );
    match a.status {
        Some(200) => Ok(a.body),
        _ => Err(a.describe()),
    }
}
