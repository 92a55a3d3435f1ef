//! The pages: each handler calls a view ([`crate::views`]) and renders it
//! with a template ([`crate::templates`]); an error becomes a page with the
//! API's status. Signing in puts the token in an HttpOnly cookie, so that a
//! bot's owner sees its logs on its matches' pages.

use crate::auth::{self, Viewer};
use crate::dto::{Page, PageQuery, SeasonQuery};
use crate::extract::Form;
use crate::extract::{Path, Query};
use crate::templates::Frame;
use crate::{error::ApiError, replays, state::AppState, templates, views};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};

/// An answer of a page: the page, or the error as a page.
fn page<T>(result: Result<T, ApiError>, render: impl FnOnce(&T) -> Html<String>) -> Response {
    match result {
        Ok(v) => render(&v).into_response(),
        Err(e) => (e.status(), templates::error(&e)).into_response(),
    }
}

pub async fn index(State(state): State<AppState>, frame: Frame) -> Response {
    page(state.with_store(views::games).await, |g| {
        templates::games(&frame, g)
    })
}

pub async fn game(
    State(state): State<AppState>,
    frame: Frame,
    Path(game): Path<String>,
    Query(at): Query<PageQuery>,
    Query(season): Query<SeasonQuery>,
) -> Response {
    let board = match Page::of(at) {
        Ok(at) => {
            state
                .with_store(move |s| views::leaderboard(s, &game, at, season.season.as_deref()))
                .await
        }
        Err(e) => Err(e),
    };
    page(board, |b| templates::game(&frame, b))
}

/// A bot's page; for an operator, also the bots of other accounts with
/// the same bytes as one of its versions.
pub async fn bot(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    Path(name): Path<String>,
    Query(at): Query<PageQuery>,
) -> Response {
    let frame = Frame {
        account: viewer.as_ref().map(|a| a.name.clone()),
        csrf: None,
    };
    let operator = viewer.is_some_and(|a| a.operator);
    let view = match Page::of(at) {
        Ok(at) => {
            state
                .with_store(move |s| {
                    let view = views::bot(s, &name, at)?;
                    let same = match operator {
                        true => ludus_leaderboard::operator::same_bytes_as(s, &name)?,
                        false => Vec::new(),
                    };
                    Ok((view, same))
                })
                .await
        }
        Err(e) => Err(e),
    };
    let mut answer = page(view, |(v, same)| templates::bot(&frame, v, same));
    // Who signs in changes the page: no cache may give one's to another.
    let [cache, vary] = crate::security::private_values();
    answer.headers_mut().insert(header::VARY, vary);
    if operator {
        answer.headers_mut().insert(header::CACHE_CONTROL, cache);
    }
    answer
}

/// The replay viewer's own page, with the seats' logs kept for their owners.
pub async fn match_page(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let found = state
        .with_store(move |s| replays::find(s, &id, viewer.as_ref()))
        .await;
    let answer = match found {
        Ok(found) => replays::serve(state.renders(), found, replays::Kind::Page, &headers).await,
        Err(e) => Err(e),
    };
    answer.unwrap_or_else(|e| (e.status(), templates::error(&e)).into_response())
}

pub async fn signin_form(frame: Frame) -> Html<String> {
    templates::signin(&frame)
}

#[derive(serde::Deserialize)]
pub struct SignIn {
    token: String,
}

pub async fn signin(State(state): State<AppState>, Form(form): Form<SignIn>) -> Response {
    let token = form.token.trim().to_string();
    let t = token.clone();
    match state.with_store(move |s| auth::verify(s, &t)).await {
        Ok(Some(_)) => (
            [(header::SET_COOKIE, auth::sign_in_cookie(&token))],
            Redirect::to("/"),
        )
            .into_response(),
        Ok(None) => refused(ApiError::BadToken),
        Err(e @ ApiError::AccountRemoved) => refused(e),
        Err(e) => (e.status(), templates::error(&e)).into_response(),
    }
}

/// The sign-in page again, saying why the token was refused and what to do.
fn refused(why: ApiError) -> Response {
    (
        StatusCode::UNAUTHORIZED,
        templates::layout(
            &Frame::anonymous(),
            "Sign in",
            maud::html! { p { (why.to_string()) } },
        ),
    )
        .into_response()
}
