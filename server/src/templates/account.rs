//! Signing in.

use super::{layout, Frame};
use axum::response::Html;
use maud::html;

/// The sign-in form.
pub fn signin(frame: &Frame) -> Html<String> {
    layout(
        frame,
        "Sign in",
        html! {
            p { "Sign in with your API token to see your bots' logs in their matches." }
            form method="post" action="/signin" {
                input type="password" name="token" placeholder="ludus_…" size="60" autocomplete="off";
                " " button type="submit" { "Sign in" }
            }
        },
    )
}
