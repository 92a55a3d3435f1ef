//! A client of the server's API, for `ludus submit --server` and `ludus
//! challenge`: it speaks in the very types the server answers with
//! ([`crate::dto`], [`crate::challenges`], [`ErrorBody`]).

use crate::challenges::NewChallenge;
use crate::dto::{BotView, UploadQuery, Uploaded};
use crate::ErrorBody;
use ludus_leaderboard::challenge::{ChallengeId, ChallengeStatus};
use serde::de::DeserializeOwned;

/// Why a request to a server failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("cannot reach {server}; is `ludus serve` running there? ({reason})")]
    Unreachable { server: String, reason: String },
    #[error("{server} answered {status} with no answer of the Ludus API ({reason})")]
    Unreadable {
        server: String,
        status: u16,
        reason: String,
    },
    /// The server refused, and said why.
    #[error("refused by {server} ({status}): {message}")]
    Refused {
        server: String,
        status: u16,
        code: String,
        message: String,
    },
}

/// `server`'s URL of `path` (which starts with `/`).
pub fn url(server: &str, path: &str) -> String {
    format!("{}{path}", server.trim_end_matches('/'))
}

/// Uploads a bot to the server at `server` (e.g. `http://127.0.0.1:8080`)
/// with the API token `token`, as a `candidate` (not in the ladder until
/// promoted) or not.
pub fn upload(
    server: &str,
    token: &str,
    query: &UploadQuery,
    candidate: bool,
    wasm: &[u8],
) -> Result<Uploaded, ClientError> {
    let mut request = ureq::post(&url(server, "/api/bots"))
        .query("name", &query.name)
        .query("game", &query.game);
    if candidate {
        request = request.query("candidate", "true");
    }
    let response = request
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/wasm")
        // The server reads no body before the request's headers pass: it
        // answers first, and says go on with 100 Continue only then.
        .header("Expect", "100-continue")
        .config()
        .http_status_as_error(false)
        .build()
        .send(wasm)
        .map_err(|e| ClientError::Unreachable {
            server: server.into(),
            reason: e.to_string(),
        })?;
    answer(server, response)
}

/// Creates a challenge; its status as it starts.
pub fn create_challenge(
    server: &str,
    token: &str,
    challenge: &NewChallenge,
) -> Result<ChallengeStatus, ClientError> {
    let body = serde_json::to_vec(challenge).expect("a challenge serialises");
    let response = ureq::post(&url(server, "/api/challenges"))
        .header("Authorization", &format!("Bearer {token}"))
        .header("Content-Type", "application/json")
        .config()
        .http_status_as_error(false)
        .build()
        .send(&body[..]);
    answer(server, unreachable(server, response)?)
}

/// Where challenge `id` stands.
pub fn challenge(server: &str, id: ChallengeId) -> Result<ChallengeStatus, ClientError> {
    let response = ureq::get(&url(server, &format!("/api/challenges/{id}")))
        .config()
        .http_status_as_error(false)
        .build()
        .call();
    answer(server, unreachable(server, response)?)
}

/// Stops challenge `id`, the token's account's.
pub fn stop_challenge(
    server: &str,
    token: &str,
    id: ChallengeId,
) -> Result<ChallengeStatus, ClientError> {
    post_empty(server, token, &format!("/api/challenges/{id}/stop"))
}

/// Promotes the candidate `name` v`version`, the token's account's.
pub fn promote(
    server: &str,
    token: &str,
    name: &str,
    version: u32,
) -> Result<BotView, ClientError> {
    let name = crate::templates::url_part(name);
    post_empty(
        server,
        token,
        &format!("/api/bots/{name}/versions/{version}/promote"),
    )
}

fn post_empty<T: DeserializeOwned>(
    server: &str,
    token: &str,
    path: &str,
) -> Result<T, ClientError> {
    let response = ureq::post(&url(server, path))
        .header("Authorization", &format!("Bearer {token}"))
        .config()
        .http_status_as_error(false)
        .build()
        .send_empty();
    answer(server, unreachable(server, response)?)
}

fn unreachable<T>(server: &str, sent: Result<T, ureq::Error>) -> Result<T, ClientError> {
    sent.map_err(|e| ClientError::Unreachable {
        server: server.into(),
        reason: e.to_string(),
    })
}

/// The answer's body as `T`, or the server's refusal.
fn answer<T: DeserializeOwned>(
    server: &str,
    response: ureq::http::Response<ureq::Body>,
) -> Result<T, ClientError> {
    let status = response.status();
    let unreadable = |reason: String| ClientError::Unreadable {
        server: server.into(),
        status: status.as_u16(),
        reason,
    };
    let text = response
        .into_body()
        .read_to_string()
        .map_err(|e| unreadable(e.to_string()))?;
    if status.is_success() {
        return serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()));
    }
    let body: ErrorBody = serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    Err(ClientError::Refused {
        server: server.into(),
        status: status.as_u16(),
        code: body.error.code,
        message: body.error.message,
    })
}
