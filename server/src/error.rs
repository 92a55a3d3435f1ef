//! The one error shape of the API: `{"error": {"code", "message"}}` with the
//! matching HTTP status.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("this needs an API token: send `Authorization: Bearer TOKEN` (`ludus user add NAME` makes one)")]
    Unauthorized,
    #[error("the API token is not valid; ask the server's operator for a new one")]
    BadToken,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    TooMany(String),
    #[error("{0}")]
    Unavailable(String),
    #[error("the server failed: {0}")]
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
    /// `bad_token`, `forbidden`, `not_found`, `refused`, `too_many`,
    /// `unavailable` (the database is out of reach for now; try again),
    /// `internal`.
    pub code: String,
    /// What went wrong and what to do, for people.
    pub message: String,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized | ApiError::BadToken => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::Unauthorized => "unauthorized",
            ApiError::BadToken => "bad_token",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::NotFound(_) => "not_found",
            ApiError::Refused(_) => "refused",
            ApiError::TooMany(_) => "too_many",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::Internal(_) => "internal",
        }
    }
}

impl From<ludus_leaderboard::store::StoreError> for ApiError {
    fn from(e: ludus_leaderboard::store::StoreError) -> Self {
        use ludus_leaderboard::store::StoreError as S;
        match e {
            S::UnknownBot(_) | S::UnknownMatch { .. } | S::UnknownLadder { .. } => {
                ApiError::NotFound(e.to_string())
            }
            S::AmbiguousMatch { .. } => ApiError::BadRequest(e.to_string()),
            S::Unreachable { .. } => {
                tracing::warn!("store: {e}");
                ApiError::Unavailable(format!(
                    "{e}; the server connects again at the next request"
                ))
            }
            e => {
                tracing::error!("store: {e}");
                ApiError::Internal(e.to_string())
            }
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

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code().into(),
                message: self.to_string(),
            },
        };
        (self.status(), axum::Json(body)).into_response()
    }
}
