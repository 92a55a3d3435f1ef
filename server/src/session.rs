//! Browser sessions and the forms' protection against cross-site requests.
//!
//! Signing in starts a session: a random 32-byte id in the `ludus_session`
//! cookie (HttpOnly, `SameSite=Lax`, `Path=/`, `Secure` when the public URL
//! is https, for the session's lifetime), of which the store keeps only the
//! sha256, with the session's CSRF token and when it expires. `Lax` rather
//! than `Strict`: a person who follows a link to the site from elsewhere (a
//! mail, a chat) arrives signed in, while a form posted from another site
//! still carries no cookie; and no GET changes anything here.
//!
//! Every form that changes something carries a CSRF token and is refused
//! (403) when the token is wrong or missing, when its `Origin` (without
//! one, its `Referer`) is not the server's own origin (the `--public-url`'s,
//! else the `Host` header's), or when the browser says it comes from
//! another site (`Sec-Fetch-Site: cross-site`). A session's forms carry the
//! session's token ([`Session::check`]); the sign-in and sign-up forms,
//! before there is a session, repeat the random value of the `ludus_csrf`
//! cookie (HttpOnly, `SameSite=Strict`), which another site can neither
//! read nor set ([`form_token`], [`check_form`]).
//!
//! Sign-in attempts are limited per client address and per account name
//! ([`crate::rate_limit::SignInLimits`]), a window of a minute that refuses nobody beyond it.

use crate::error::ApiError;
use crate::state::{AppState, ServerConfig};
use crate::templates::Frame;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use ludus_leaderboard::store::{self, Store};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The cookie that holds a session's id.
pub const COOKIE: &str = "ludus_session";

/// The cookie whose value the sign-in and sign-up forms repeat.
pub const CSRF_COOKIE: &str = "ludus_csrf";

/// The form field that carries the CSRF token.
pub use crate::templates::CSRF_FIELD;

/// A signed-in browser: its account and its session's CSRF token. As an
/// extractor it sends a visitor without a live session to the sign-in
/// page, which brings them back ([`NoSession`]).
#[derive(Debug, Clone)]
pub struct Session {
    pub account: store::Account,
    pub csrf: String,
}

impl Session {
    /// Whether a form posted in this session may change something: it
    /// comes from this server's own origin and carries the session's CSRF
    /// token (compared in constant time).
    pub fn check(
        &self,
        headers: &HeaderMap,
        state: &AppState,
        form_csrf: &str,
    ) -> Result<(), ApiError> {
        same_origin(headers, state.config())?;
        match same_secret(&self.csrf, form_csrf) {
            true => Ok(()),
            false => Err(stale_form()),
        }
    }

    /// Takes a form posted in this session that changes something: checks
    /// it ([`Session::check`]), makes its `change` and sends the browser
    /// `back` (the page it came from), the scheduler woken to the change;
    /// a refusal is a page that says why.
    pub async fn apply_form(
        &self,
        state: &AppState,
        headers: &HeaderMap,
        form_csrf: &str,
        back: &str,
        change: impl FnOnce(&Store) -> Result<(), ApiError> + Send + 'static,
    ) -> Response {
        if let Err(e) = self.check(headers, state, form_csrf) {
            return crate::templates::error_response(e);
        }
        match state.with_store(change).await {
            Ok(()) => {
                state.wake_scheduler();
                axum::response::Redirect::to(back).into_response()
            }
            Err(e) => crate::templates::error_response(e),
        }
    }
}

/// Why a request has no [`Session`]: none is live (the browser is sent to
/// sign in, and back to the page afterwards), or the store failed.
#[derive(Debug)]
pub enum NoSession {
    /// Where to: `/signin?next=<the page's path and query>`.
    SignIn(String),
    Failed(ApiError),
}

impl IntoResponse for NoSession {
    fn into_response(self) -> Response {
        match self {
            NoSession::SignIn(to) => {
                (StatusCode::SEE_OTHER, [(header::LOCATION, to)]).into_response()
            }
            NoSession::Failed(e) => crate::templates::error_response(e),
        }
    }
}

impl FromRequestParts<AppState> for Session {
    type Rejection = NoSession;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, NoSession> {
        match who(parts, state).await.map_err(NoSession::Failed)? {
            Some(Who {
                account,
                csrf: Some(csrf),
            }) => Ok(Session { account, csrf }),
            _ => {
                let here = parts
                    .uri
                    .path_and_query()
                    .map_or("/", |p| p.as_str())
                    .to_string();
                Err(NoSession::SignIn(format!(
                    "/signin?next={}",
                    crate::templates::url_part(&here)
                )))
            }
        }
    }
}

/// Who reads: the account of the bearer token or of the browser's
/// session; `None` for anyone not signed in (or with a token or session
/// that is not valid, or of an account removed or disabled).
#[derive(Debug, Clone)]
pub struct Viewer(pub Option<store::Account>);

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let who = who(parts, state).await?;
        Ok(Viewer(who.map(|w| w.account)))
    }
}

/// The frame of a page ([`Frame`]): who is signed in,
/// their session's CSRF token for the forms, and whether people may sign
/// up.
impl FromRequestParts<AppState> for Frame {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let who = who(parts, state).await?;
        let (account, csrf) = match who {
            Some(w) => (Some(w.account.name), w.csrf),
            None => (None, None),
        };
        Ok(Frame {
            account,
            csrf,
            signup_open: state.config().signup != crate::state::Signup::Closed,
        })
    }
}

/// Who a request comes from: the account of its bearer token or of its
/// session cookie (then with the session's CSRF token).
#[derive(Debug, Clone)]
pub(crate) struct Who {
    pub account: store::Account,
    pub csrf: Option<String>,
}

/// [`who`]'s answer, kept in the request for the next extractor that asks.
#[derive(Clone)]
struct Found(Option<Who>);

/// Who the request comes from ([`Who`]), found once a request: a bearer
/// token first, else the session cookie; `None` for a visitor, a token or
/// session that is not valid, or of an account removed or disabled. A
/// request of an account counts against its rate.
pub(crate) async fn who(parts: &mut Parts, state: &AppState) -> Result<Option<Who>, ApiError> {
    if let Some(Found(found)) = parts.extensions.get::<Found>() {
        return Ok(found.clone());
    }
    let found = if let Some(token) = crate::auth::bearer(&parts.headers) {
        let token = token.to_string();
        match state
            .with_store(move |s| crate::auth::verify(s, &token))
            .await
        {
            Err(ApiError::AccountRemoved | ApiError::AccountDisabled) => None,
            verified => verified?.map(|account| Who {
                account,
                csrf: None,
            }),
        }
    } else if let Some(id) = cookie(&parts.headers, COOKIE) {
        state
            .with_store(move |s| {
                let now = ludus_leaderboard::clock::now_unix();
                Ok(s.sessions().find(&sha256(&id), now)?)
            })
            .await?
            .map(|(account, csrf)| Who {
                account,
                csrf: Some(csrf),
            })
    } else {
        None
    };
    if let Some(w) = &found {
        state.limits().account(w.account.id)?;
    }
    parts.extensions.insert(Found(found.clone()));
    Ok(found)
}

/// Starts a session of `account` in `store`: the `Set-Cookie` value that
/// gives the browser its id.
pub fn start(store: &Store, config: &ServerConfig, account: i64) -> Result<String, ApiError> {
    let id = random_hex()?;
    let csrf = random_hex()?;
    let now = ludus_leaderboard::clock::now_unix();
    let lifetime = config.session_lifetime.as_secs() as i64;
    store
        .sessions()
        .start(&sha256(&id), account, &csrf, now, now + lifetime)?;
    Ok(cookie_builder(config, COOKIE, id)
        .same_site(cookie::SameSite::Lax)
        .max_age(cookie::time::Duration::seconds(lifetime))
        .build()
        .to_string())
}

/// Ends the session whose cookie `headers` carry, if any: it signs in no
/// more. The `Set-Cookie` value that clears the cookie.
pub fn end(store: &Store, config: &ServerConfig, headers: &HeaderMap) -> Result<String, ApiError> {
    if let Some(id) = cookie(headers, COOKIE) {
        store
            .sessions()
            .end(&sha256(&id), ludus_leaderboard::clock::now_unix())?;
    }
    Ok(cookie_builder(config, COOKIE, String::new())
        .same_site(cookie::SameSite::Lax)
        .max_age(cookie::time::Duration::ZERO)
        .build()
        .to_string())
}

/// The token a form without a session (sign-in, sign-up) carries: the
/// value of the browser's `ludus_csrf` cookie, and, when it has none yet,
/// the `Set-Cookie` value that gives it one.
pub fn form_token(
    headers: &HeaderMap,
    config: &ServerConfig,
) -> Result<(String, Option<String>), ApiError> {
    if let Some(value) = cookie(headers, CSRF_COOKIE).filter(|v| is_secret(v)) {
        return Ok((value, None));
    }
    let value = random_hex()?;
    let set = cookie_builder(config, CSRF_COOKIE, value.clone())
        .same_site(cookie::SameSite::Strict)
        .build()
        .to_string();
    Ok((value, Some(set)))
}

/// Whether a form without a session may be taken: it comes from this
/// server's own origin, and its token is its `ludus_csrf` cookie's value.
pub fn check_form(
    headers: &HeaderMap,
    config: &ServerConfig,
    form_csrf: &str,
) -> Result<(), ApiError> {
    same_origin(headers, config)?;
    match cookie(headers, CSRF_COOKIE) {
        Some(value) if same_secret(&value, form_csrf) => Ok(()),
        _ => Err(stale_form()),
    }
}

fn stale_form() -> ApiError {
    ApiError::Forbidden(
        "this form's security token is missing or out of date (a form of another site, or a page \
         kept open since signing out or in); load the page again and send it from there"
            .into(),
    )
}

/// Whether the request comes from a page of this server: refused when the
/// browser says another site sent it, or when its `Origin` (without one,
/// its `Referer`) is another origin than the server's.
pub fn same_origin(headers: &HeaderMap, config: &ServerConfig) -> Result<(), ApiError> {
    let header = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    let refused = |why: &str| {
        ApiError::Forbidden(format!(
            "this form {why}, so it is refused: forms are taken only from this server's own pages"
        ))
    };
    if header(header::HeaderName::from_static("sec-fetch-site")) == Some("cross-site") {
        return Err(refused("was sent by a page of another site"));
    }
    let from = match (header(header::ORIGIN), header(header::REFERER)) {
        (Some(origin), _) => origin.trim().to_string(),
        (None, Some(referer)) => match url::Url::parse(referer) {
            Ok(u) => u.origin().ascii_serialization(),
            Err(_) => return Err(refused("names a page it came from that is not a URL")),
        },
        (None, None) => {
            return Err(refused(
                "does not say which page sent it (no Origin or Referer header)",
            ))
        }
    };
    let own: Vec<String> = match &config.public_url {
        Some(url) => vec![url.origin().ascii_serialization()],
        None => match header(header::HOST) {
            Some(host) => vec![format!("http://{host}"), format!("https://{host}")],
            None => Vec::new(),
        },
    };
    if own.iter().any(|o| o.eq_ignore_ascii_case(&from)) {
        Ok(())
    } else {
        Err(refused("comes from another origin than this server's"))
    }
}

/// A cookie of `name` with the attributes every cookie of the server has:
/// `Path=/`, HttpOnly, and `Secure` when the public URL is https.
fn cookie_builder(
    config: &ServerConfig,
    name: &'static str,
    value: String,
) -> cookie::CookieBuilder<'static> {
    let secure = config
        .public_url
        .as_ref()
        .is_some_and(|u| u.scheme() == "https");
    cookie::Cookie::build((name, value))
        .path("/")
        .http_only(true)
        .secure(secure)
}

/// The value of the cookie `name` that `headers` carry, if any.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(cookie::Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == name)
        .map(|c| c.value().to_string())
}

/// 32 random bytes, in hex.
pub(crate) fn random_hex() -> Result<String, ApiError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::Internal(format!("no randomness: {e}")))?;
    Ok(hex::encode(bytes))
}

/// Whether `value` looks like what [`random_hex`] makes.
fn is_secret(value: &str) -> bool {
    value.len() == 64 && value.bytes().all(|b| b.is_ascii_hexdigit())
}

fn same_secret(a: &str, b: &str) -> bool {
    !a.is_empty() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The page to go to after signing in: `next` if it is a path of this
/// site (not `//host…`, which a browser reads as another site), else
/// the account's page.
pub fn next_page(next: Option<&str>) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && !n.starts_with("/\\")
                && !n.chars().any(|c| c.is_control() || c == '\\') =>
        {
            n.to_string()
        }
        _ => "/account".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_pages_stay_on_this_site() {
        assert_eq!(next_page(Some("/bots/a?page=2")), "/bots/a?page=2");
        for away in [
            "//evil.example/",
            "https://evil.example/",
            "/\\evil.example",
            "bots",
            "",
        ] {
            assert_eq!(next_page(Some(away)), "/account", "{away}");
        }
        assert_eq!(next_page(None), "/account");
    }

    #[test]
    fn the_origin_must_be_the_servers_own() {
        let mut config = ServerConfig::new(store::Location::File("x.db".into()));
        let headers = |pairs: &[(&'static str, &str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, v.parse().unwrap());
            }
            h
        };
        let host = ("host", "ludus.example:8080");
        assert!(same_origin(
            &headers(&[host, ("origin", "http://ludus.example:8080")]),
            &config
        )
        .is_ok());
        assert!(same_origin(
            &headers(&[host, ("origin", "http://evil.example")]),
            &config
        )
        .is_err());
        assert!(same_origin(&headers(&[host, ("origin", "null")]), &config).is_err());
        assert!(same_origin(
            &headers(&[host, ("referer", "http://ludus.example:8080/signin")]),
            &config
        )
        .is_ok());
        assert!(same_origin(&headers(&[host]), &config).is_err());
        let cross = [
            host,
            ("origin", "http://ludus.example:8080"),
            ("sec-fetch-site", "cross-site"),
        ];
        assert!(same_origin(&headers(&cross), &config).is_err());
        config.public_url = Some("https://ludus.example/".parse().unwrap());
        assert!(same_origin(
            &headers(&[host, ("origin", "https://ludus.example")]),
            &config
        )
        .is_ok());
        assert!(same_origin(
            &headers(&[host, ("origin", "http://ludus.example:8080")]),
            &config
        )
        .is_err());
    }
}
