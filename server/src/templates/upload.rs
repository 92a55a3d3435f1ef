//! Uploading a bot from the page: the form (the game, the name, whether it
//! is a candidate, the file, dropped or chosen) and how the upload went:
//! the version stored, or the validation report as `ludus check` prints it.

use super::{csrf_field, layout, url_part, Frame};
use crate::dto::{Refusal, Stored};
use axum::response::Html;
use maud::{html, Markup, PreEscaped};

/// The upload form's fields, in the order a browser sends them: every
/// other field before the file, so that the form is checked, and the
/// upload's rules and quota applied, before the file's bytes are read.
pub mod field {
    pub const GAME: &str = "game";
    pub const NAME: &str = "name";
    pub const CANDIDATE: &str = "candidate";
    pub const FILE: &str = "wasm";
}

/// What the upload form shows: the games to choose from, what was chosen
/// (kept after a refusal), and how the last upload went.
#[derive(Debug, Default)]
pub struct UploadPage {
    pub game: String,
    pub name: String,
    pub candidate: bool,
    pub outcome: Option<UploadOutcome>,
}

/// How an upload went.
#[derive(Debug)]
pub enum UploadOutcome {
    Stored(Stored, bool),
    /// Refused: why, and for a bot that failed its validation match the
    /// report of `ludus check`.
    Refused(Refusal),
}

/// The drop zone's script: a file dropped on it becomes the file input's
/// (the input itself stays, for the keyboard), and an empty name takes the
/// file's.
pub const UPLOAD_SCRIPT: &str = r#"(function(){
var z=document.getElementById("drop"),f=document.getElementById("wasm"),n=document.getElementById("name"),c=document.getElementById("chosen");
if(!z||!f)return;
function shown(){if(!f.files.length){c.textContent="";return;}
var name=f.files[0].name;c.textContent=name;
if(n&&!n.value){n.value=name.replace(/\.wasm$/i,"").replace(/[^A-Za-z0-9._-]/g,"-").replace(/^[^A-Za-z0-9]+/,"").slice(0,64);}}
f.addEventListener("change",shown);
["dragenter","dragover"].forEach(function(e){z.addEventListener(e,function(ev){ev.preventDefault();z.classList.add("over");});});
["dragleave","drop"].forEach(function(e){z.addEventListener(e,function(ev){ev.preventDefault();z.classList.remove("over");});});
z.addEventListener("drop",function(ev){if(ev.dataTransfer&&ev.dataTransfer.files.length){f.files=ev.dataTransfer.files;shown();}});
})();"#;

/// The upload form's own look: the drop zone, and the fields one a line.
pub const UPLOAD_STYLE: &str = ".upload label{display:block;margin:.8em 0 .2em}\
.upload select,.upload input[type=text]{font:inherit;padding:.3em;max-width:100%}\
.upload label.check{display:flex;gap:.5em;align-items:baseline}\
.drop{display:block;border:2px dashed #999;border-radius:.5em;padding:1.2em;text-align:center;margin:.8em 0}\
.drop.over{border-color:#05c;background:#eef5ff}.drop input{display:block;margin:.6em auto 0;max-width:100%}\
.upload button{font:inherit;padding:.4em 1.2em;margin-top:.8em}\
.refused{color:#a00}";

/// The upload page: how the last upload went, if one did, and the form.
pub fn upload(frame: &Frame, page: &UploadPage) -> Html<String> {
    layout(
        frame,
        "Upload a bot",
        html! {
            style { (PreEscaped(UPLOAD_STYLE)) }
            @if let Some(outcome) = &page.outcome { (outcome_of(outcome)) }
            (form(frame, page))
            script { (PreEscaped(UPLOAD_SCRIPT)) }
        },
    )
}

fn outcome_of(outcome: &UploadOutcome) -> Markup {
    match outcome {
        UploadOutcome::Stored(stored, candidate) => {
            let u = &stored.uploaded;
            let bot = format!("/bots/{}", url_part(&u.name));
            html! {
                section.stored aria-live="polite" {
                    h2 {
                        @if u.new_version { "Stored as " } @else { "Already stored as " }
                        a href=(bot) { (u.name) " v" (u.version) }
                    }
                    p {
                        (u.validation) "."
                        @if !u.new_version { " These bytes were its latest version already: nothing new was stored." }
                        @else if *candidate {
                            " It is a candidate: it plays no ladder match until you promote it on "
                            a href="/account" { "your bots' page" } "."
                        } @else {
                            " It plays its placement series next; follow it on "
                            a href=(bot) { "its page" } " or on " a href="/account" { "your bots' page" } "."
                        }
                    }
                    details {
                        summary { "Its validation match, as " code { "ludus check" } " prints it" }
                        pre { (stored.report) }
                    }
                }
            }
        }
        UploadOutcome::Refused(refusal) => html! {
            section.refused role="alert" {
                h2 { "Not stored" }
                p { (refusal.error.to_string()) }
                @if let Some(report) = &refusal.report {
                    p { "Its validation match, as " code { "ludus check" } " prints it:" }
                    pre { (report) }
                }
            }
        },
    }
}

fn form(frame: &Frame, page: &UploadPage) -> Markup {
    html! {
        form.upload method="post" action="/upload" enctype="multipart/form-data" {
            (csrf_field(frame))
            label for="game" { "Game" }
            select #game name=(field::GAME) required {
                @for g in ludus_engine::games() {
                    option value=(g.id) selected[page.game == g.id] { (g.id) " — " (g.summary) }
                }
            }
            label for="name" { "Bot name" }
            input #name type="text" name=(field::NAME) value=(page.name) required
                maxlength=(crate::uploads::NAME_LIMIT) pattern="[A-Za-z0-9][A-Za-z0-9._\\-]*"
                autocomplete="off" aria-describedby="name-rule";
            small #name-rule { (crate::uploads::NAME_RULE) ". A name you used before gets a new version." }
            label.check {
                input type="checkbox" name=(field::CANDIDATE) value="1" checked[page.candidate];
                span { "Store it as a candidate: it plays only your challenges until you promote it" }
            }
            label.drop #drop for="wasm" {
                "Drop the bot's .wasm here, or choose it"
                input #wasm type="file" name=(field::FILE) accept=".wasm,application/wasm" required;
                span #chosen {}
            }
            button type="submit" { "Upload and validate" }
        }
        p { "The bot plays a short validation match against copies of itself first, as "
            code { "ludus check --game GAME" } " does; a refusal shows that match's report." }
    }
}
