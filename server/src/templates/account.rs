//! Signing in, up and out: the forms, each field with its label and the
//! autocomplete a password manager reads, and each carrying its CSRF token.

use super::{csrf_field, layout, Frame, CSRF_FIELD};
use crate::password::{MAX_LENGTH, MIN_LENGTH};
use axum::response::Html;
use maud::{html, Markup};

/// What a sign-in or sign-up form shows again: its token, the name typed,
/// where to go next, and why the last attempt was refused.
#[derive(Debug, Clone, Default)]
pub struct AccountForm {
    /// The value of the browser's `ludus_csrf` cookie, which the form repeats.
    pub csrf: String,
    pub name: String,
    pub next: Option<String>,
    pub error: Option<String>,
    /// The invitation code typed, on the sign-up form.
    pub invite: String,
}

fn refusal(form: &AccountForm) -> Markup {
    html! {
        @if let Some(e) = &form.error {
            p.error role="alert" { strong { "Refused: " } (e) }
        }
    }
}

fn name_field(form: &AccountForm) -> Markup {
    html! {
        p {
            label for="name" { "Account name" } br;
            input #name type="text" name="name" value=(form.name) required
                autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="64";
        }
    }
}

/// The sign-in form.
pub fn signin(frame: &Frame, form: &AccountForm) -> Html<String> {
    layout(
        frame,
        "Sign in",
        html! {
            (refusal(form))
            form method="post" action="/signin" {
                input type="hidden" name=(CSRF_FIELD) value=(form.csrf);
                @if let Some(next) = &form.next { input type="hidden" name="next" value=(next); }
                (name_field(form))
                p {
                    label for="password" { "Password" } br;
                    input #password type="password" name="password" required
                        autocomplete="current-password" maxlength=(MAX_LENGTH);
                }
                button type="submit" { "Sign in" }
            }
            p {
                "No password yet? The server's operator sets one with "
                code { "ludus user password NAME" } "."
                @if frame.signup_open { " New here? " a href="/signup" { "Sign up" } "." }
            }
            p { "Programs use the API with a token instead (" code { "Authorization: Bearer TOKEN" } "), made on your account's page." }
        },
    )
}

/// The sign-up form; with `invite`, it asks for an invitation code.
pub fn signup(frame: &Frame, form: &AccountForm, invite: bool) -> Html<String> {
    layout(
        frame,
        "Sign up",
        html! {
            (refusal(form))
            form method="post" action="/signup" {
                input type="hidden" name=(CSRF_FIELD) value=(form.csrf);
                (name_field(form))
                p.hint { "Letters, digits, " code { "-" } ", " code { "_" } " and " code { "." } ", as a bot's name; it names you on your bots' pages." }
                p {
                    label for="password" { "Password" } br;
                    input #password type="password" name="password" required
                        autocomplete="new-password" minlength=(MIN_LENGTH) maxlength=(MAX_LENGTH);
                }
                p {
                    label for="password2" { "Password again" } br;
                    input #password2 type="password" name="password2" required
                        autocomplete="new-password" minlength=(MIN_LENGTH) maxlength=(MAX_LENGTH);
                }
                p.hint { "At least " (MIN_LENGTH) " characters, not a common password, not containing your name." }
                @if invite {
                    p {
                        label for="invite" { "Invitation code" } br;
                        input #invite type="text" name="invite" value=(form.invite) required
                            autocomplete="off" spellcheck="false";
                    }
                }
                button type="submit" { "Sign up" }
            }
            p { "Have an account? " a href="/signin" { "Sign in" } "." }
        },
    )
}

/// What `/signup` says when accounts are made by the operator only.
pub fn signup_closed(frame: &Frame) -> Html<String> {
    layout(
        frame,
        "Sign up",
        html! {
            p { "Accounts on this server are made by its operator (" code { "ludus user add NAME" } "); ask them for one." }
            p { "Have an account? " a href="/signin" { "Sign in" } "." }
        },
    )
}

/// The sign-out page: a button, since signing out is a form (a link
/// another site could make a browser follow would sign people out).
pub fn signout(frame: &Frame) -> Html<String> {
    layout(
        frame,
        "Sign out",
        html! {
            @if frame.csrf.is_some() {
                form method="post" action="/signout" {
                    (csrf_field(frame))
                    button type="submit" { "Sign out" }
                }
            } @else {
                p { "You are not signed in. " a href="/signin" { "Sign in" } }
            }
        },
    )
}

/// A form refused, as a page: why, and where to go from there.
pub fn refused(frame: &Frame, why: &str) -> Html<String> {
    layout(
        frame,
        "Refused",
        html! {
            p role="alert" { (why) }
            p { a href="/" { "Back to the games" } }
        },
    )
}
