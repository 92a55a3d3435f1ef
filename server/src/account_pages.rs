//! Signing up, in and out, on the pages. Who may sign up is the server's
//! [`Signup`] mode. A person signs up with a name (a bot name's rules, no
//! look-alike of another account's) and a password ([`crate::password`]),
//! and is signed in at once; signing in takes the name and password and
//! starts a session ([`crate::session`]). A wrong password and an unknown
//! name are answered alike, and as slowly. Every form is checked for its
//! origin and CSRF token before anything else, and attempts are limited per
//! address and per name.

use crate::error::ApiError;
use crate::extract::{Form, Query};
use crate::rate_limit::ClientAddress;
use crate::session::{self, Session};
use crate::state::{AppState, Signup};
use crate::templates::{self, AccountForm, Frame};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Extension;
use ludus_leaderboard::accounts::{self, SignedIn};
use ludus_leaderboard::store::{Created, InviteRefused, NewAccount};

/// The page to return to after signing in.
#[derive(Debug, Default, serde::Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

/// A page, with the `ludus_csrf` cookie set if the browser has none yet.
fn with_cookie(status: StatusCode, set: Option<String>, page: Html<String>) -> Response {
    match set {
        Some(c) => (status, [(header::SET_COOKIE, c)], page).into_response(),
        None => (status, page).into_response(),
    }
}

/// An error as a page of its status.
fn error_page(frame: &Frame, e: ApiError) -> Response {
    let page = templates::refused(frame, &e.to_string());
    e.with_page(page)
}

/// Where a browser goes, with a cookie set.
fn go(to: &str, cookie: String) -> Response {
    (
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, to.to_string()),
            (header::SET_COOKIE, cookie),
        ],
    )
        .into_response()
}

pub async fn signin_form(
    State(state): State<AppState>,
    frame: Frame,
    headers: HeaderMap,
    Query(q): Query<NextQuery>,
) -> Response {
    let (csrf, set) = match session::form_token(&headers, state.config()) {
        Ok(t) => t,
        Err(e) => return error_page(&frame, e),
    };
    let form = AccountForm {
        csrf,
        next: q.next,
        ..AccountForm::default()
    };
    with_cookie(StatusCode::OK, set, templates::signin(&frame, &form))
}

#[derive(Debug, serde::Deserialize)]
pub struct SignIn {
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    csrf: String,
    next: Option<String>,
}

pub async fn signin(
    State(state): State<AppState>,
    frame: Frame,
    headers: HeaderMap,
    client: Option<Extension<ClientAddress>>,
    Form(form): Form<SignIn>,
) -> Response {
    if let Err(e) = session::check_form(&headers, state.config(), &form.csrf) {
        return error_page(&frame, e);
    }
    let again = |status: StatusCode, why: String| {
        let again = AccountForm {
            csrf: form.csrf.clone(),
            name: form.name.clone(),
            next: form.next.clone(),
            error: Some(why),
            ..AccountForm::default()
        };
        (status, templates::signin(&frame, &again)).into_response()
    };
    let name = form.name.trim().to_string();
    if let Err(e) = state.sign_ins().attempt(client.map(|c| c.0), &name) {
        return again(e.status(), e.to_string());
    }
    let n = name.clone();
    let asked = match state
        .with_store(move |s| Ok(accounts::sign_in(s, &n)?))
        .await
    {
        Ok(a) => a,
        Err(e) => return error_page(&frame, e),
    };
    let password = form.password.clone();
    // Hashing takes tens of milliseconds of a core: off the request threads.
    let checked = state
        .password_work(move || asked.check(|phc| crate::password::check(&password, phc)))
        .await;
    let id = match checked {
        Ok(SignedIn::Account(id)) => id,
        Ok(SignedIn::Wrong) => {
            return again(
                StatusCode::UNAUTHORIZED,
                "wrong account name or password".into(),
            )
        }
        Ok(SignedIn::Barred(barred)) => {
            let e = ApiError::from(barred);
            return again(e.status(), e.to_string());
        }
        Err(e) => return again(e.status(), e.to_string()),
    };
    let st = state.clone();
    match state
        .with_store(move |s| session::start(s, st.config(), id))
        .await
    {
        Ok(cookie) => {
            tracing::info!(account = id, "signed in");
            go(&session::next_page(form.next.as_deref()), cookie)
        }
        Err(e) => error_page(&frame, e),
    }
}

pub async fn signup_form(
    State(state): State<AppState>,
    frame: Frame,
    headers: HeaderMap,
) -> Response {
    let mode = state.config().signup;
    if mode == Signup::Closed {
        return templates::signup_closed(&frame).into_response();
    }
    let (csrf, set) = match session::form_token(&headers, state.config()) {
        Ok(t) => t,
        Err(e) => return error_page(&frame, e),
    };
    let form = AccountForm {
        csrf,
        ..AccountForm::default()
    };
    with_cookie(
        StatusCode::OK,
        set,
        templates::signup(&frame, &form, mode == Signup::Invite),
    )
}

#[derive(Debug, serde::Deserialize)]
pub struct SignUp {
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password2: String,
    #[serde(default)]
    invite: String,
    #[serde(default)]
    csrf: String,
}

pub async fn signup(
    State(state): State<AppState>,
    frame: Frame,
    headers: HeaderMap,
    client: Option<Extension<ClientAddress>>,
    Form(form): Form<SignUp>,
) -> Response {
    if let Err(e) = session::check_form(&headers, state.config(), &form.csrf) {
        return error_page(&frame, e);
    }
    let mode = state.config().signup;
    if mode == Signup::Closed {
        return (StatusCode::FORBIDDEN, templates::signup_closed(&frame)).into_response();
    }
    let name = form.name.trim().to_string();
    let again = |status: StatusCode, why: String| {
        let again = AccountForm {
            csrf: form.csrf.clone(),
            name: name.clone(),
            invite: form.invite.clone(),
            error: Some(why),
            ..AccountForm::default()
        };
        (
            status,
            templates::signup(&frame, &again, mode == Signup::Invite),
        )
            .into_response()
    };
    if let Err(e) = state.sign_ins().attempt(client.map(|c| c.0), &name) {
        return again(e.status(), e.to_string());
    }
    let refused = StatusCode::UNPROCESSABLE_ENTITY;
    if let Some(why) = accounts::name_refused(&name) {
        return again(refused, why);
    }
    if form.password != form.password2 {
        return again(
            refused,
            "the two passwords differ; type the same one twice".into(),
        );
    }
    if let Some(why) = crate::password::weakness(&name, &form.password) {
        return again(refused, why);
    }
    let invite = match mode {
        Signup::Invite if form.invite.trim().is_empty() => return again(
            refused,
            "this server takes new accounts by invitation: enter the code its operator gave you"
                .into(),
        ),
        Signup::Invite => Some(crate::auth::invite_hash(&form.invite)),
        _ => None,
    };
    let password = form.password.clone();
    let hashed = state
        .password_work(move || crate::password::hash(&password))
        .await
        .and_then(|h| h.map_err(|e| ApiError::Internal(e.to_string())));
    let hash = match hashed {
        Ok(h) => h,
        Err(e) => return error_page(&frame, e),
    };
    let (n, st) = (name.clone(), state.clone());
    let made = state
        .with_store(move |s| {
            let new = NewAccount {
                name: &n,
                operator: false,
                password_hash: Some(&hash),
                token: None,
                invite: invite.as_deref(),
            };
            Ok(match accounts::create(s, &new)? {
                Created::Account(id) => Ok(session::start(s, st.config(), id)?),
                other => Err(other),
            })
        })
        .await;
    match made {
        Ok(Ok(cookie)) => {
            tracing::info!(account = %name, "signed up");
            go("/account", cookie)
        }
        Ok(Err(Created::NameTaken(taken))) if taken == name => {
            again(refused, format!("the name `{name}` is taken; choose another"))
        }
        Ok(Err(Created::NameTaken(taken))) => again(
            refused,
            format!("`{name}` looks like `{taken}`, an account's name (names differ by more than case); choose another"),
        ),
        Ok(Err(Created::Invite(why))) => again(
            refused,
            match why {
                InviteRefused::Unknown => "this invitation code is not one of this server's; check it, or ask the operator for one",
                InviteRefused::Used => "this invitation code was used already: a code makes one account; ask the operator for another",
                InviteRefused::Expired => "this invitation code has expired; ask the operator for a new one",
            }
            .into(),
        ),
        Ok(Err(Created::Account(_))) => unreachable!("an account made is signed in"),
        Err(e) => error_page(&frame, e),
    }
}

pub async fn signout_form(frame: Frame) -> Html<String> {
    templates::signout(&frame)
}

#[derive(Debug, serde::Deserialize)]
pub struct SignOut {
    #[serde(default)]
    csrf: String,
}

pub async fn signout(
    State(state): State<AppState>,
    session: Session,
    frame: Frame,
    headers: HeaderMap,
    Form(form): Form<SignOut>,
) -> Response {
    if let Err(e) = session.check(&headers, &state, &form.csrf) {
        return error_page(&frame, e);
    }
    let st = state.clone();
    match state
        .with_store(move |s| session::end(s, st.config(), &headers))
        .await
    {
        Ok(cookie) => {
            tracing::info!(account = session.account.id, "signed out");
            go("/", cookie)
        }
        Err(e) => error_page(&frame, e),
    }
}
