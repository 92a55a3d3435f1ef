//! A signed-in person's own pages through the router: uploading a bot
//! from the form (and its validation report when refused), their bots
//! with rank, placement and the forms that retire and promote, their API
//! tokens.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{bot, error_code, json, server, Server, HOST, ORIGIN};
use http_body_util::BodyExt;
use ludus_leaderboard::continuous;
use ludus_leaderboard::store::{Claim, Store};
use ludus_server::router;
use tower::ServiceExt;

const BOUNDARY: &str = "ludus-test-boundary-7f3a";

/// A multipart form of `fields` and, last, the file `wasm` as the form
/// sends it.
fn multipart(fields: &[(&str, &str)], wasm: Option<&[u8]>) -> Vec<u8> {
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    if let Some(wasm) = wasm {
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"wasm\"; filename=\"bot.wasm\"\r\nContent-Type: application/wasm\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(wasm);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// A request from a page of the server, with the session's cookie.
fn from_page(method: &str, uri: &str, cookie: &str) -> axum::http::request::Builder {
    Request::builder()
        .method(method)
        .uri(uri)
        .header("Host", HOST)
        .header("Origin", ORIGIN)
        .header("Cookie", cookie)
}

async fn answer(s: &Server, req: Request<Body>) -> (StatusCode, Option<String>, String) {
    let res = router(s.state.clone()).oneshot(req).await.unwrap();
    let status = res.status();
    let location = res
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_string());
    let body = res.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        location,
        String::from_utf8_lossy(&body).into_owned(),
    )
}

async fn page(s: &Server, uri: &str, cookie: &str) -> (StatusCode, String) {
    let (status, _, body) = answer(
        s,
        from_page("GET", uri, cookie).body(Body::empty()).unwrap(),
    )
    .await;
    (status, body)
}

/// Posts the upload form with the session's token from the page.
async fn upload(
    s: &Server,
    cookie: &str,
    game: &str,
    name: &str,
    candidate: bool,
    wasm: &[u8],
) -> (StatusCode, String) {
    let (_, form) = page(s, "/upload", cookie).await;
    let csrf = csrf_of(&form);
    let mut fields = vec![("csrf", csrf.as_str()), ("game", game), ("name", name)];
    if candidate {
        fields.push(("candidate", "1"));
    }
    let req = from_page("POST", "/upload", cookie)
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(multipart(&fields, Some(wasm))))
        .unwrap();
    let (status, _, body) = answer(s, req).await;
    (status, body)
}

/// Posts a form of the account page with the session's token.
async fn post_form(
    s: &Server,
    cookie: &str,
    uri: &str,
    fields: &str,
) -> (StatusCode, Option<String>, String) {
    let (_, account) = page(s, "/account", cookie).await;
    let body = format!("csrf={}&{fields}", csrf_of(&account));
    let req = from_page("POST", uri, cookie)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(Body::from(body))
        .unwrap();
    answer(s, req).await
}

/// The CSRF token of a page's forms.
fn csrf_of(page: &str) -> String {
    let at = page
        .find("name=\"csrf\" value=\"")
        .unwrap_or_else(|| panic!("no form token on the page: {page}"));
    let rest = &page[at + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

/// `text` as the page writes it inside an element.
fn escaped(text: &str) -> String {
    maud::html! { (text) }.into_string()
}

fn wasm_of(name: &str) -> Vec<u8> {
    std::fs::read(ludus_testkit::bot(name)).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_person_uploads_an_example_bot_from_the_page_and_it_is_stored() {
    let s = server(|_| {});
    let alice = s.sign_in("alice").await;
    let (status, form) = page(&s, "/upload", &alice).await;
    assert_eq!(status, StatusCode::OK);
    for label in [
        "<label for=\"game\"",
        "<label for=\"name\"",
        "for=\"wasm\"",
        "accept=\".wasm",
    ] {
        assert!(form.contains(label), "{label}: {form}");
    }
    let (status, done) = upload(
        &s,
        &alice,
        "planet-wars",
        "expander",
        false,
        &wasm_of("planet_wars_expander"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert!(done.contains("Stored as"), "{done}");
    assert!(
        done.contains("<a href=\"/bots/expander\">expander v1</a>"),
        "{done}"
    );
    assert!(
        done.contains("passed its validation match of planet-wars"),
        "{done}"
    );
    let (_, bot) = s.get("/api/bots/expander", None).await;
    assert_eq!(json(&bot)["owner"], "alice");
    // The same bytes again store nothing new.
    let (_, again) = upload(
        &s,
        &alice,
        "planet-wars",
        "expander",
        false,
        &wasm_of("planet_wars_expander"),
    )
    .await;
    assert!(again.contains("Already stored as"), "{again}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_faulty_bots_upload_shows_its_validation_report_as_ludus_check_prints_it() {
    let s = server(|_| {});
    let alice = s.sign_in("alice").await;
    let wasm = wasm_of("panic_in_act");
    let (status, refused) = upload(&s, &alice, "planet-wars", "panicky", false, &wasm).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert!(refused.contains("Not stored"), "{refused}");
    // The report `ludus check --game planet-wars` prints, whole.
    let limits = &s.state.config().continuous.limits;
    let sandbox = ludus_host::Sandbox::new().unwrap();
    let loaded = sandbox.load("panicky", &wasm).unwrap();
    let game = ludus_engine::registry::info("planet-wars").unwrap();
    let report = ludus_host::check::validate(&loaded, game, limits)
        .unwrap()
        .report(limits);
    for line in [
        "failed   turn 1, seat 0: ",
        "log      ",
        "to do    fix the crash",
    ] {
        assert!(report.contains(line), "{line}: {report}");
    }
    assert!(
        refused.contains(&escaped(&report)),
        "{report}\n---\n{refused}"
    );
    let (status, _) = s.get("/api/bots/panicky", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_upload_needs_a_session_and_its_forms_token() {
    let s = server(|_| {});
    let (status, location, _) =
        answer(&s, Request::get("/upload").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    assert_eq!(location.as_deref(), Some("/signin?next=%2Fupload"));
    let (status, location, _) = answer(
        &s,
        Request::get("/account")
            .header("Authorization", format!("Bearer {}", s.alice))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(
        (status, location.as_deref()),
        (StatusCode::SEE_OTHER, Some("/signin?next=%2Faccount")),
        "a token is not a session"
    );

    let alice = s.sign_in("alice").await;
    let wrong = multipart(
        &[
            ("csrf", "0000"),
            ("game", "planet-wars"),
            ("name", "sneaky"),
        ],
        Some(&bot("x", false)),
    );
    let req = from_page("POST", "/upload", &alice)
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(wrong))
        .unwrap();
    let (status, _, body) = answer(&s, req).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(body.contains("security token"), "{body}");
    // From another site, even with the right token.
    let (_, form) = page(&s, "/upload", &alice).await;
    let fields = [
        ("csrf", csrf_of(&form)),
        ("game", "planet-wars".into()),
        ("name", "sneaky".into()),
    ];
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let req = Request::post("/upload")
        .header("Host", HOST)
        .header("Origin", "http://elsewhere.test")
        .header("Cookie", &alice)
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(Body::from(multipart(&fields, Some(&bot("x", false)))))
        .unwrap();
    let (status, _, _) = answer(&s, req).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = s.get("/api/bots/sneaky", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A name of another account is refused as the API refuses it.
    let (status, _) = s.upload("bobs", Some(&s.bob), bot("b", false)).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, refused) =
        upload(&s, &alice, "planet-wars", "bobs", false, &bot("a", false)).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{refused}");
    assert!(refused.contains("belongs to bob"), "{refused}");
}

#[tokio::test(flavor = "multi_thread")]
async fn my_bots_shows_versions_rank_and_placement_and_retires_and_promotes() {
    let s = server(|c| {
        c.continuous
            .game_configs
            .insert("planet-wars".into(), serde_json::json!({"max_turns": 5}));
        c.continuous.pending = 2;
    });
    let alice = s.sign_in("alice").await;
    let (status, _) = upload(&s, &alice, "planet-wars", "mine", false, &bot("a1", false)).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = s.upload("theirs", Some(&s.bob), bot("b", false)).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, home) = page(&s, "/account", &alice).await;
    assert_eq!(status, StatusCode::OK);
    assert!(home.contains("<a href=\"/bots/mine\">mine</a>"), "{home}");
    assert!(
        !home.contains("theirs"),
        "only the person's own bots: {home}"
    );
    assert!(home.contains("v1 is not rated yet"), "{home}");

    // Joined, its placement series scheduled and not played.
    let store = Store::connect(&s.db).unwrap();
    let game = ludus_engine::registry::info("planet-wars").unwrap();
    continuous::top_up(
        &store,
        game,
        &s.state.config().continuous,
        continuous::Look::Bots,
    )
    .unwrap();
    let (_, home) = page(&s, "/account", &alice).await;
    assert!(
        home.contains("Playing its placement series: 0 of 2 matches rated"),
        "{home}"
    );
    s.play_with(&store, "planet-wars", &s.state.config().continuous);
    let (_, home) = page(&s, "/account", &alice).await;
    assert!(!home.contains("placement series"), "{home}");
    assert!(home.contains("v1 is ranked "), "{home}");
    assert!(
        home.contains(" of 2 on <a href=\"/games/planet-wars\">its leaderboard</a>, rated "),
        "{home}"
    );
    assert!(home.contains("with a fault"), "{home}");

    // A candidate version: stored, not in the ladder until promoted.
    let (status, done) = upload(&s, &alice, "planet-wars", "mine", true, &bot("a2", false)).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert!(done.contains("It is a candidate"), "{done}");
    let (_, home) = page(&s, "/account", &alice).await;
    assert!(
        home.contains(">Promote v2</button>") && home.contains(">Retire v1</button>"),
        "{home}"
    );
    let (status, location, body) =
        post_form(&s, &alice, "/account/promote", "bot=mine&version=2").await;
    assert_eq!(
        (status, location.as_deref()),
        (StatusCode::SEE_OTHER, Some("/account")),
        "{body}"
    );
    let (_, home) = page(&s, "/account", &alice).await;
    assert!(
        home.contains(">Retire v2</button>") && !home.contains("Promote v2"),
        "{home}"
    );
    assert!(home.contains("which plays v1 again"), "{home}");
    assert_eq!(
        store
            .bots()
            .latest("planet-wars")
            .unwrap()
            .iter()
            .find(|b| b.name == "mine")
            .unwrap()
            .version,
        2
    );

    // Retiring v2 puts v1 back in the ladder; v2 stays, a candidate.
    let (status, _, body) =
        post_form(&s, &alice, "/account/retire-version", "bot=mine&version=2").await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{body}");
    assert_eq!(
        store
            .bots()
            .latest("planet-wars")
            .unwrap()
            .iter()
            .find(|b| b.name == "mine")
            .unwrap()
            .version,
        1
    );
    let (_, home) = page(&s, "/account", &alice).await;
    assert!(
        home.contains(">Promote v2</button>") && home.contains(">Retire v1</button>"),
        "{home}"
    );

    // Someone else's bot is not the person's to retire.
    let (status, _, _) = post_form(&s, &alice, "/account/retire", "bot=theirs").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _, _) = post_form(&s, &alice, "/account/retire", "bot=mine").await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, bot_view) = s.get("/api/bots/mine", None).await;
    assert_eq!(json(&bot_view)["retired"], true);
    let (_, home) = page(&s, "/account", &alice).await;
    assert!(
        home.contains("· retired") && !home.contains(">Retire mine</button>"),
        "{home}"
    );
}

/// The bot `name` of `game` stored as the account `owner`'s, without its
/// validation match (the ladder is tested here, not the bot).
fn stored(store: &Store, game: &str, owner: &str, name: &str) {
    let owner = store.accounts().named(owner).unwrap().unwrap().id;
    assert_eq!(
        store.accounts().take_bot_name(name, owner).unwrap(),
        Claim::Taken
    );
    let wasm = bot(name, false);
    let sha = ludus_host::sha256_hex(&wasm);
    store
        .bots()
        .submit(name, game, &wasm, &sha, "2024-01-01T00:00:00Z")
        .unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_placement_series_among_house_copies_is_as_long_on_the_page_as_scheduled() {
    // Placement series alone: no routine match is scheduled.
    let s = server(|c| c.continuous.max_per_hour = Some(0));
    let alice = s.sign_in("alice").await;
    let store = Store::connect(&s.db).unwrap();
    let config = s.state.config().continuous.clone();
    let game = ludus_engine::registry::info("claim").unwrap();
    assert_eq!(game.fewest_seats(), 4);
    let top_up = || continuous::top_up(&store, game, &config, continuous::Look::Bots).unwrap();
    // Bob's bot and a house bot start the ladder, copies of the house bot
    // filling their tables of four.
    ludus_leaderboard::house::account(&store).unwrap();
    stored(&store, "claim", "bob", "theirs");
    stored(&store, "claim", ludus_leaderboard::house::HOUSE, "copied");
    assert_eq!(top_up().joined.len(), 2);

    // Alice's bot makes three: one table (a house bot to copy), in every
    // seat order, not a table for each of its two opponents.
    stored(&store, "claim", "alice", "mine");
    let joined = top_up();
    assert_eq!(joined.joined, ["mine v1"]);
    assert_eq!(joined.scheduled, 4);
    let (_, home) = page(&s, "/account", &alice).await;
    let series = format!(
        "Playing its placement series: 0 of {} matches rated",
        joined.scheduled
    );
    assert!(home.contains(&series), "{series}: {home}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_made_on_the_page_is_shown_once_signs_in_and_is_refused_once_revoked() {
    let s = server(|_| {});
    let alice = s.sign_in("alice").await;
    let (status, _, made) = post_form(&s, &alice, "/account/tokens", "label=laptop").await;
    assert_eq!(status, StatusCode::OK, "{made}");
    let at = made.find("<pre>ludus_").expect("the new token on the page");
    let token = &made[at + "<pre>".len()..];
    let token = token[..token.find('<').unwrap()].to_string();
    let (status, me) = s.get("/api/me", Some(&token)).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    assert_eq!(json(&me)["name"], "alice");
    // Shown once: the page lists it by name, never the token again.
    let (_, home) = page(&s, "/account", &alice).await;
    assert!(
        home.contains("<td>laptop</td>") && !home.contains(&token),
        "{home}"
    );
    assert!(!home.contains(&token[..20]));

    let row = &home[home.find("<td>laptop</td>").unwrap()..];
    let id = &row[row.find("name=\"token\" value=\"").unwrap() + "name=\"token\" value=\"".len()..];
    let id = &id[..id.find('"').unwrap()];
    let (status, location, _) =
        post_form(&s, &alice, "/account/tokens/revoke", &format!("token={id}")).await;
    assert_eq!(
        (status, location.as_deref()),
        (StatusCode::SEE_OTHER, Some("/account"))
    );
    let (status, body) = s.get("/api/me", Some(&token)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(error_code(&body), "bad_token");
    // The first token of the account still signs in.
    let (status, _) = s.get("/api/me", Some(&s.alice)).await;
    assert_eq!(status, StatusCode::OK);
    // Bob cannot revoke Alice's tokens.
    let bob = s.sign_in("bob").await;
    let (status, _, _) = post_form(&s, &bob, "/account/tokens/revoke", "token=1").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = s.get("/api/me", Some(&s.alice)).await;
    assert_eq!(status, StatusCode::OK);
}
