//! Requests beyond a rate are refused (429): per address, and per token
//! when a request carries one, each with its own budget.

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::net::SocketAddr;

/// Refuses requests beyond the rate of their token (when they carry one)
/// and of their address.
pub async fn rate_limit(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let address = req
        .extensions()
        .get::<axum::extract::ConnectInfo<SocketAddr>>()
        .map_or_else(|| "unknown".to_string(), |c| c.0.ip().to_string());
    let mut keys = vec![format!("addr:{address}")];
    if let Some(token) = crate::auth::bearer(req.headers()) {
        // The account id part only: the secret never becomes a map key.
        keys.push(format!("token:{}", token.split('_').nth(1).unwrap_or("?")));
    }
    for key in keys {
        if state.limiter().check_key(&key).is_err() {
            return axum::response::IntoResponse::into_response(ApiError::TooMany(
                "too many requests; slow down and try again in a second".into(),
            ));
        }
    }
    next.run(req).await
}
