//! The one error shape of the API: `{"error": {"code", "message",
//! "request_id"}}` with the matching HTTP status, for every error: the
//! handlers' own, the extractors' rejections and the limits of the layers
//! around them (a body too large, a request too slow). A message helps the
//! caller and names no file, URL, query or other internal; what went wrong
//! inside goes to the server's log, under the request id the answer carries
//! (also in its `x-request-id` header).

use axum::extract::rejection::{FormRejection, PathRejection, QueryRejection};
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use utoipa::ToSchema;

/// The request id header, set on every request and answer.
pub const REQUEST_ID: &str = "x-request-id";

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("this needs an API token: send `Authorization: Bearer TOKEN` (`ludus user add NAME` makes one)")]
    Unauthorized,
    #[error("the API token is not valid (or was revoked); make a new one on your account's page, or ask the server's operator for one (`ludus user token NAME`)")]
    BadToken,
    #[error("this account was removed by the server's operator: its tokens sign in no more")]
    AccountRemoved,
    #[error("this account is disabled by the server's operator: its tokens and sessions sign in no more until it is enabled again")]
    AccountDisabled,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Timeout(String),
    #[error("{0}")]
    Refused(String),
    /// The request contradicts what is stored: a challenge ended already,
    /// a version that is no candidate.
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooMany(String),
    #[error("the database is out of reach for now; try again in a moment")]
    Unavailable,
    /// An extractor's rejection, with its own status.
    #[error("{1}")]
    Rejected(StatusCode, String),
    /// What failed inside, for the log only.
    #[error("the server failed; its log has the details under this request's id")]
    Internal(String),
}

/// The body of every error answer.
#[derive(Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, serde::Deserialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable word to branch on: `bad_request`, `unauthorized`,
    /// `bad_token`, `account_removed` (the operator removed the account of
    /// the token), `account_disabled` (the operator disabled it), `forbidden`, `not_found`, `method_not_allowed`,
    /// `timeout`, `too_large`, `unsupported_media_type`, `refused`,
    /// `too_many`, `conflict` (the request contradicts what is stored: a
    /// challenge ended already), `unavailable` (the database is out of reach for now;
    /// try again), `integrity` (a replay played again differs from its
    /// recorded result), `gone` (a replay neither stored nor regenerable
    /// here), `internal`.
    pub code: String,
    /// What went wrong and what to do, for people.
    pub message: String,
    /// The request's id, as the server's log knows it.
    #[serde(default)]
    pub request_id: String,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized
            | ApiError::BadToken
            | ApiError::AccountRemoved
            | ApiError::AccountDisabled => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Rejected(status, _) => *status,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unauthorized => "unauthorized",
            ApiError::BadToken => "bad_token",
            ApiError::AccountRemoved => "account_removed",
            ApiError::AccountDisabled => "account_disabled",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::TooLarge(_) => "too_large",
            ApiError::Timeout(_) => "timeout",
            ApiError::Refused(_) => "refused",
            ApiError::Conflict(_) => "conflict",
            ApiError::TooMany(_) => "too_many",
            ApiError::Unavailable => "unavailable",
            ApiError::Rejected(status, _) => code_of(*status),
            ApiError::Internal(_) => "internal",
        }
    }
}

/// The code of an answer of `status` that no handler wrote (a layer's or
/// the router's own).
fn code_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "bad_request",
        StatusCode::UNAUTHORIZED => "unauthorized",
        StatusCode::FORBIDDEN => "forbidden",
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::REQUEST_TIMEOUT => "timeout",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        StatusCode::UNPROCESSABLE_ENTITY => "refused",
        StatusCode::CONFLICT => "integrity",
        StatusCode::GONE => "gone",
        StatusCode::TOO_MANY_REQUESTS => "too_many",
        StatusCode::SERVICE_UNAVAILABLE => "unavailable",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    }
}

/// What an answer of `status` that no handler wrote says.
fn message_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::METHOD_NOT_ALLOWED => {
            "this route does not take this method; see /api/openapi.json"
        }
        StatusCode::REQUEST_TIMEOUT => {
            "the request took too long; send it faster, or a smaller body"
        }
        StatusCode::PAYLOAD_TOO_LARGE => "the body is larger than this route takes",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "the body's content type is not one this route takes",
        StatusCode::NOT_FOUND => "no such route; see /api/openapi.json",
        s if s.is_server_error() => {
            "the server failed; its log has the details under this request's id"
        }
        _ => "the request is not one this route takes; see /api/openapi.json",
    }
}

impl From<ludus_leaderboard::store::StoreError> for ApiError {
    fn from(e: ludus_leaderboard::store::StoreError) -> Self {
        use ludus_leaderboard::store::StoreError as S;
        // Said again without the database's location.
        match e {
            S::UnknownBot(name) => ApiError::NotFound(format!("no bot named `{name}`")),
            S::UnknownMatch { prefix, .. } => ApiError::NotFound(format!(
                "no stored match has an id starting with `{prefix}`"
            )),
            S::UnknownLadder { ladder, .. } => ApiError::NotFound(format!("no ladder {ladder}")),
            S::AmbiguousMatch {
                prefix,
                count,
                examples,
                ..
            } => ApiError::BadRequest(format!(
                "{count} matches have ids starting with `{prefix}` ({examples}); give more of the id"
            )),
            e if e.is_transient() => {
                crate::pool::outage_warning(&format!("store: {e}"));
                ApiError::Unavailable
            }
            e => ApiError::Internal(format!("store: {e}")),
        }
    }
}

impl From<ludus_leaderboard::owners::OwnerError> for ApiError {
    fn from(e: ludus_leaderboard::owners::OwnerError) -> Self {
        use ludus_leaderboard::owners::OwnerError as O;
        match e {
            O::Store(e) => e.into(),
            e @ O::Unowned(_) => ApiError::NotFound(e.to_string()),
            e @ O::NotOwner { .. } => ApiError::Forbidden(e.to_string()),
            e @ O::NotEntered { .. } => ApiError::BadRequest(e.to_string()),
        }
    }
}

/// A name that is not the account's to take, with what to do.
impl From<ludus_leaderboard::submit::NameRefused> for ApiError {
    fn from(e: ludus_leaderboard::submit::NameRefused) -> Self {
        ApiError::Forbidden(format!("{e}; choose another name"))
    }
}

/// Why a bot was not stored: its name, the store, or the bot itself
/// (which does not load, or fails its validation match).
impl From<ludus_leaderboard::submit::SubmitError> for ApiError {
    fn from(e: ludus_leaderboard::submit::SubmitError) -> Self {
        use ludus_leaderboard::submit::SubmitError as S;
        match e {
            S::Name(e) => e.into(),
            S::Store(e) => e.into(),
            e => ApiError::Refused(e.to_string()),
        }
    }
}

impl From<ludus_leaderboard::accounts::Barred> for ApiError {
    fn from(e: ludus_leaderboard::accounts::Barred) -> Self {
        use ludus_leaderboard::accounts::Barred;
        match e {
            Barred::Removed => ApiError::AccountRemoved,
            Barred::Disabled => ApiError::AccountDisabled,
        }
    }
}

impl From<ludus_leaderboard::Error> for ApiError {
    fn from(e: ludus_leaderboard::Error) -> Self {
        match e {
            ludus_leaderboard::Error::Store(s) => s.into(),
            e => ApiError::Internal(e.to_string()),
        }
    }
}

/// The rejections of the extractors, said as the API's errors with their
/// own status (a body over the limit is 413, a form of the wrong type 415).
fn rejected(what: &str, status: StatusCode, text: String) -> ApiError {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(message_of(status).into()),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            ApiError::Rejected(status, format!("{what}: {}", message_of(status)))
        }
        s if s.is_server_error() => ApiError::Internal(format!("{what}: {text}")),
        s => ApiError::Rejected(s, format!("{what} is not right: {text}")),
    }
}

impl From<QueryRejection> for ApiError {
    fn from(e: QueryRejection) -> Self {
        rejected("the query string", e.status(), e.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(e: PathRejection) -> Self {
        rejected("the path", e.status(), e.body_text())
    }
}

impl From<FormRejection> for ApiError {
    fn from(e: FormRejection) -> Self {
        rejected("the form", e.status(), e.body_text())
    }
}

/// What an error answer carries until [`finish`] writes its body.
#[derive(Debug, Clone)]
struct Written {
    code: &'static str,
    message: String,
    /// For the log only.
    detail: Option<String>,
}

impl ApiError {
    /// The error answered with `page` (a page of the site) as its body: its
    /// status, and for a failure of the server its detail, which
    /// [`finish`] logs under the request's id as it does a JSON error's.
    pub fn with_page(self, page: impl IntoResponse) -> Response {
        let status = self.status();
        let written = self
            .into_response()
            .extensions_mut()
            .remove::<Arc<Written>>();
        let mut response = (status, page).into_response();
        if let Some(w) = written {
            response.extensions_mut().insert(w);
        }
        response
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let written = Written {
            code: self.code(),
            message: self.to_string(),
            detail: match &self {
                ApiError::Internal(d) => Some(d.clone()),
                _ => None,
            },
        };
        let mut response = self.status().into_response();
        response.extensions_mut().insert(Arc::new(written));
        response
    }
}

/// The id the server gave the request (empty before it has one).
pub fn request_id(headers: &axum::http::HeaderMap) -> String {
    headers
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string()
}

/// Gives every error answer the one shape, with the request's id: a
/// handler's error as it wrote it, any other (a layer's, the router's) by
/// its status. Pages keep their own error pages. What failed inside is
/// logged here, under the request id.
pub async fn finish(request: Request, next: Next) -> Response {
    let id = request_id(request.headers());
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let written = response.extensions().get::<Arc<Written>>().cloned();
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
    if let Some(detail) = written.as_ref().and_then(|w| w.detail.as_ref()) {
        tracing::error!(request_id = %id, %method, %path, "{detail}");
    } else if path == "/readyz" || path == "/healthz" {
        // A probe's answer is for the prober; an outage is logged once
        // by the pool (`pool::outage_warning`).
        tracing::debug!(request_id = %id, %method, %path, %status, "not ready");
    } else if status == StatusCode::SERVICE_UNAVAILABLE {
        tracing::warn!(request_id = %id, %method, %path, %status, "the request could not be served now");
    } else if status.is_server_error() {
        tracing::error!(request_id = %id, %method, %path, %status, "the request failed");
    }
    if html {
        return response;
    }
    let (code, message) = match &written {
        Some(w) => (w.code, w.message.clone()),
        None => (code_of(status), message_of(status).to_string()),
    };
    let body = ErrorBody {
        error: ErrorDetail {
            code: code.into(),
            message,
            request_id: id,
        },
    };
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(
        parts,
        axum::body::Body::from(serde_json::to_vec(&body).expect("serialises")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_of_a_failure_keeps_its_detail_for_the_log_and_shows_none() {
        let r = ApiError::Internal("store: disk I/O error at /var/x".into())
            .with_page(axum::response::Html("<p>the server failed</p>"));
        assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let w = r
            .extensions()
            .get::<Arc<Written>>()
            .expect("carried to `finish`");
        assert_eq!(w.detail.as_deref(), Some("store: disk I/O error at /var/x"));
        assert!(!w.message.contains("/var/x"), "{}", w.message);
        let r = ApiError::Forbidden("not yours".into()).with_page("a page");
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
        assert!(r
            .extensions()
            .get::<Arc<Written>>()
            .unwrap()
            .detail
            .is_none());
    }
}
