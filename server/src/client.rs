//! A client of the server's API, for `ludus submit --server`: it speaks in
//! the very types the server answers with ([`crate::dto`], [`ErrorBody`]).

use crate::dto::{UploadQuery, Uploaded};
use crate::ErrorBody;

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

/// Uploads a bot to the server at `server` (e.g. `http://127.0.0.1:8080`)
/// with the API token `token`.
pub fn upload(
    server: &str,
    token: &str,
    query: &UploadQuery,
    wasm: &[u8],
) -> Result<Uploaded, ClientError> {
    let url = format!("{}/api/bots", server.trim_end_matches('/'));
    let response = ureq::post(&url)
        .query("name", &query.name)
        .query("game", &query.game)
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
