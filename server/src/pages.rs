//! The pages: each handler calls a view ([`crate::views`]) and renders it
//! with a template ([`crate::templates`]); an error becomes a page with the
//! API's status. A bot's owner, signed in, sees its logs on its matches'
//! pages; signing in, up and out are [`crate::account_pages`]'.

use crate::dto::{Page, PageQuery, SeasonQuery};
use crate::extract::{Path, Query};
use crate::session::Viewer;
use crate::templates::Frame;
use crate::{error::ApiError, replays, state::AppState, templates, views};
use axum::extract::State;
use axum::http::header;
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};

/// An answer of a page: the page, or the error as a page.
fn page<T>(result: Result<T, ApiError>, render: impl FnOnce(&T) -> Html<String>) -> Response {
    match result {
        Ok(v) => render(&v).into_response(),
        Err(e) => templates::error_response(e),
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

/// A game's rules, and how to start a bot for it and upload it.
pub async fn rules(frame: Frame, Path(game): Path<String>) -> Response {
    page(views::known_game(&game), |g| templates::rules(&frame, g))
}

/// A bot's page; for an operator, also the bots of other accounts with
/// the same bytes as one of its versions.
pub async fn bot(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    frame: Frame,
    Path(name): Path<String>,
    Query(at): Query<PageQuery>,
) -> Response {
    let operator = viewer.as_ref().is_some_and(|a| a.operator);
    let signed_in = viewer.is_some();
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
    // Who signs in changes the page (its navigation, an operator's
    // marks): no cache may give one's to another.
    let [cache, vary] = crate::security::private_values();
    answer.headers_mut().insert(header::VARY, vary);
    if signed_in {
        answer.headers_mut().insert(header::CACHE_CONTROL, cache);
    }
    answer
}

/// The replay viewer's page below the site's navigation, with the seats'
/// logs kept for their owners.
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
    answer.unwrap_or_else(templates::error_response)
}
