//! Every route through the router itself (no socket): auth failures, owner
//! checks, uploads and their validation, quotas, body and rate limits,
//! escaping, private logs, the OpenAPI document.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{bot, error_code, json, server, Server, PASSWORD};
use ludus_leaderboard::continuous::{self, ContinuousConfig};
use ludus_leaderboard::retention::KeepReplays;
use ludus_leaderboard::store::Store;
use ludus_leaderboard::worker::{self, WorkerOptions};
use ludus_server::{auth, router};
use tower::ServiceExt;

const SCRIPT: &str = "<script>alert(1)</script>";

#[tokio::test(flavor = "multi_thread")]
async fn writes_need_a_valid_bearer_token_compared_with_its_stored_hash() {
    let s = server(|_| {});
    let (status, body) = s.upload("a", None, bot("a", false)).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::UNAUTHORIZED, "unauthorized")
    );
    // The secret's last hex digit changed (to another digit, always).
    let last = if s.alice.ends_with('0') { '1' } else { '0' };
    let forged = format!("{}{last}", &s.alice[..s.alice.len() - 1]);
    for bad in ["nonsense", "ludus_1_", "ludus_999_abcd", forged.as_str()] {
        let (status, body) = s.upload("a", Some(bad), bot("a", false)).await;
        assert_eq!(
            (status, error_code(&body).as_str()),
            (StatusCode::UNAUTHORIZED, "bad_token"),
            "{bad}"
        );
    }
    let (status, body) = s.get("/api/me", Some(&s.alice)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json(&body)["name"], "alice");
    let (status, _) = s.get("/api/me", None).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, body) = s
        .post("/api/bots/a/retire", Some("ludus_1_00"), vec![])
        .await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_token")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_owner_uploads_new_versions_or_retires_a_bot() {
    let s = server(|_| {});
    let (status, body) = s.upload("one", Some(&s.alice), bot("1", false)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(json(&body)["version"], 1);
    let (status, body) = s.upload("one", Some(&s.bob), bot("2", false)).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::FORBIDDEN, "forbidden")
    );
    assert!(body.contains("belongs to alice"), "{body}");
    let (status, body) = s.upload("one", Some(&s.alice), bot("2", false)).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(json(&body)["version"], 2);
    let (status, _) = s.post("/api/bots/one/retire", Some(&s.bob), vec![]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = s
        .post("/api/bots/nobody/retire", Some(&s.bob), vec![])
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, body) = s.post("/api/bots/one/retire", Some(&s.alice), vec![]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json(&body)["retired"], true);
    let (_, body) = s.get("/api/bots/one", None).await;
    assert_eq!(json(&body)["versions"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn uploads_are_validated_and_a_refusal_says_what_was_wrong() {
    let s = server(|_| {});
    let (status, body) = s.upload("junk", Some(&s.alice), b"not wasm".to_vec()).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "refused")
    );
    assert!(body.contains("junk"), "{body}");
    let forbidden = wat::parse_str(include_str!(
        "../../host/tests/hostile/forbidden_import.wat"
    ))
    .unwrap();
    let (status, body) = s.upload("imports", Some(&s.alice), forbidden).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(body.contains("import"), "{body}");
    let (status, body) = s
        .post(
            "/api/bots?name=x&game=chess",
            Some(&s.alice),
            bot("x", false),
        )
        .await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "bad_request")
    );
    let (status, _) = s.upload("\u{7}bell", Some(&s.alice), bot("x", false)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread")]
async fn every_upload_attempt_counts_toward_the_daily_quota_refused_ones_too() {
    let s = server(|c| c.daily_uploads = 3);
    for n in ["q1", "q2"] {
        let (status, body) = s.upload(n, Some(&s.alice), bot(n, false)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    // At the quota minus one: a refused bot takes the last upload.
    let (status, body) = s.upload("junk", Some(&s.alice), b"not wasm".to_vec()).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, "refused"),
        "{body}"
    );
    let (status, body) = s.upload("q3", Some(&s.alice), bot("q3", false)).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::TOO_MANY_REQUESTS, "too_many"),
        "{body}"
    );
    assert!(body.contains("refused ones included"), "{body}");
    // Answered 429 before validation: the refused attempt is not recorded.
    let (status, _) = s.upload("q3", Some(&s.alice), bot("q3", false)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let (status, _) = s.upload("q3", Some(&s.bob), bot("q3", false)).await;
    assert_eq!(status, StatusCode::CREATED, "the quota is per account");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_route_has_a_body_limit() {
    let s = server(|c| c.upload_limit = 4096);
    let (status, _) = s.upload("big", Some(&s.alice), vec![0; 8192]).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let mut form = b"token=".to_vec();
    form.extend(vec![b'a'; ludus_server::SMALL_BODY + 1]);
    let req = Request::post("/signin")
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap();
    let (status, _) = s.send(req).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    // A route that reads no body refuses one announced too large.
    let req = Request::post("/api/bots/a/retire")
        .header("Authorization", format!("Bearer {}", s.alice))
        .header("Content-Length", ludus_server::SMALL_BODY + 1)
        .body(Body::from(vec![0; ludus_server::SMALL_BODY + 1]))
        .unwrap();
    let (status, _) = s.send(req).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test(flavor = "multi_thread")]
async fn requests_beyond_the_rate_are_refused() {
    let s = server(|c| {
        c.rate_per_second = 1;
        c.rate_burst = 3;
    });
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(s.get("/api/games", None).await.0);
    }
    assert_eq!(&statuses[..3], &[StatusCode::OK; 3]);
    assert_eq!(statuses[4], StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test(flavor = "multi_thread")]
async fn openapi_document_describes_every_route_and_errors_have_one_shape() {
    let s = server(|_| {});
    let (status, body) = s.get("/api/openapi.json", None).await;
    assert_eq!(status, StatusCode::OK);
    let doc = json(&body);
    for path in [
        "/api/me",
        "/api/games",
        "/api/games/{game}/leaderboard",
        "/api/bots",
        "/api/bots/{name}",
        "/api/bots/{name}/retire",
        "/api/matches/{id}",
        "/api/matches/{id}/replay",
        "/api/bots/{name}/versions/{version}/promote",
        "/api/challenges",
        "/api/challenges/{id}",
        "/api/challenges/{id}/stop",
        "/metrics",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} missing");
    }
    assert!(doc["components"]["schemas"]["ErrorBody"].is_object());
    for uri in [
        "/api/games/chess/leaderboard",
        "/api/bots/nobody",
        "/api/matches/abc",
        "/api/matches/..%2Fetc",
        "/nowhere",
    ] {
        let (status, body) = s.get(uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(error_code(&body), "not_found", "{uri}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn ladder_pages_escape_names_and_logs_are_private_to_the_owner() {
    let s = server(|_| {});
    // A name like this one cannot be uploaded, but the operator can store
    // a bot under any name (`ludus submit --db`): pages escape it.
    let (status, body) = s.upload(SCRIPT, Some(&s.alice), bot("x", false)).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::BAD_REQUEST, "bad_request")
    );
    let wasm = bot("x", false);
    let sha = ludus_host::sha256_hex(&wasm);
    s.state
        .with_store(move |st| {
            Ok(st
                .bots()
                .submit(SCRIPT, "planet-wars", &wasm, &sha, "2026-01-01T00:00:00Z")?)
        })
        .await
        .unwrap();
    let (status, body) = s
        .upload("secret-keeper", Some(&s.alice), bot("s", true))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, _) = s.upload("plain", Some(&s.bob), bot("p", false)).await;
    assert_eq!(status, StatusCode::CREATED);
    s.play();

    let (status, body) = s.get("/api/games/planet-wars/leaderboard", None).await;
    assert_eq!(status, StatusCode::OK);
    let lb = json(&body);
    assert_eq!(lb["rows"].as_array().unwrap().len(), 3);
    assert!(lb["rated"].as_u64().unwrap() >= 6, "{body}");
    let (_, games) = s.get("/api/games", None).await;
    assert!(json(&games)
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == "planet-wars" && g["bots"] == 3));

    let escaped = "&lt;script&gt;alert(1)&lt;/script&gt;";
    let bot_uri = format!("/bots/{}", ludus_server::templates::url_part(SCRIPT));
    for uri in ["/", "/games/planet-wars", bot_uri.as_str()] {
        let (status, page) = s.get(uri, None).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(!page.contains(SCRIPT), "{uri} has the name unescaped");
        if uri != "/" {
            assert!(page.contains(escaped), "{uri} lacks the escaped name");
        }
    }
    let (_, body) = s.get("/api/bots/secret-keeper", None).await;
    let view = json(&body);
    assert!(!view["rating_history"].as_array().unwrap().is_empty());
    let id = view["recent"][0]["match_id"].as_str().unwrap().to_string();

    let (status, m) = s.get(&format!("/api/matches/{}", &id[..16]), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json(&m)["match_id"], id.as_str());
    let logs = |body: &str| -> String {
        json(body)["turns"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|t| t["seats"].as_array().unwrap().clone())
            .map(|seat| seat["log"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let uri = format!("/api/matches/{id}/replay");
    let (_, anyone) = s.get(&uri, None).await;
    let (_, other) = s.get(&uri, Some(&s.bob)).await;
    let (_, owner) = s.get(&uri, Some(&s.alice)).await;
    assert!(logs(&owner).contains("secret line"));
    assert!(!logs(&anyone).contains("secret line"));
    assert!(!logs(&other).contains("secret line"));
    // The match page: the viewer, with the logs its visitor may see.
    let (status, page) = s.get(&format!("/matches/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("ludus-data") && !page.contains("secret line"));
    let session = s.sign_in("alice").await;
    let req = Request::get(format!("/matches/{id}"))
        .header("Cookie", &session)
        .body(Body::empty())
        .unwrap();
    let (_, page) = s.send(req).await;
    assert!(
        page.contains("secret line") || page.contains("H4sI"),
        "the owner's page keeps the log"
    );

    // Nor does another account's session.
    let req = Request::get(format!("/matches/{id}"))
        .header("Cookie", s.sign_in("bob").await)
        .body(Body::empty())
        .unwrap();
    let (_, page) = s.send(req).await;
    assert!(!page.contains("secret line"));
}

#[path = "support/synthetic.rs"]
mod synthetic;

#[tokio::test(flavor = "multi_thread")]
async fn bot_and_match_pages_of_a_large_ladder_show_the_right_matches() {
    let s = server(|_| {});
    // Two played bots: a real replay, and the ladder as the scheduler makes it.
    s.two_played_bots().await;
    const BOTS: usize = 12;
    const MATCHES: u32 = 3000;
    let mut store = Store::connect(&s.db).unwrap();
    let (ladder, start, first) =
        synthetic::after_played(&mut store, &bot("synthetic", false), BOTS, MATCHES);

    // What bot-003's page must say, recounted from the synthetic rule.
    let p = first + 3;
    let name_of = |q: usize| synthetic::bot_name(q - first);
    let mine: Vec<(u32, Vec<usize>)> = (0..MATCHES)
        .map(|k| (k, synthetic::seats(k, first, BOTS)))
        .filter(|(_, seats)| seats.contains(&p))
        .collect();
    let mut h2h = std::collections::BTreeMap::new();
    let mut faults = 0;
    for (k, seats) in &mine {
        let (placements, f) = synthetic::outcome(*k, seats);
        let me = seats.iter().position(|&q| q == p).unwrap();
        faults += f[me];
        let e = h2h.entry(name_of(seats[1 - me])).or_insert([0, 0, 0]);
        e[match placements[me].cmp(&placements[1 - me]) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => 2,
        }] += 1;
    }
    // Elo after each of its matches, from the whole stored ladder.
    let record = store.ladders().get(ladder).unwrap();
    let schedule = store.ladders().schedule(ladder).unwrap();
    let mut elo =
        ludus_leaderboard::ratings::elo::EloLadder::new(record.bots.len(), Default::default())
            .unwrap();
    let mut history = Vec::new();
    for r in store.results().all(ladder).unwrap() {
        if r.aborted.is_some() {
            continue;
        }
        let seats = schedule[r.index as usize].seats.clone();
        elo.apply(&ludus_leaderboard::ratings::GameResult::new(
            seats.clone(),
            r.placements,
        ))
        .unwrap();
        if seats.contains(&p) {
            history.push(elo.rating(p));
        }
    }

    let (status, body) = s.get("/api/bots/bot-003", None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let view = json(&body);
    let recent: Vec<u64> = view["recent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["index"].as_u64().unwrap())
        .collect();
    let newest: Vec<u64> = mine
        .iter()
        .rev()
        .take(20)
        .map(|(k, _)| u64::from(start + k))
        .collect();
    assert_eq!(recent, newest);
    let (k, seats) = mine.last().unwrap();
    let seat_names: Vec<String> = seats
        .iter()
        .map(|&q| format!("{} v1", name_of(q)))
        .collect();
    assert_eq!(view["recent"][0]["seats"], serde_json::json!(seat_names));
    assert_eq!(
        view["recent"][0]["placements"],
        serde_json::json!(synthetic::outcome(*k, seats).0)
    );
    let got: std::collections::BTreeMap<String, [u64; 3]> = view["head_to_head"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["opponent"].as_str().unwrap().to_string(),
                [&o["wins"], &o["losses"], &o["draws"]].map(|n| n.as_u64().unwrap()),
            )
        })
        .collect();
    assert_eq!(got, h2h);
    assert_eq!(view["fault_turns"].as_u64(), Some(u64::from(faults)));
    let ratings: Vec<f64> = view["rating_history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rating"].as_f64().unwrap())
        .collect();
    assert_eq!(ratings, history);

    let (_, body) = s.get("/api/games/planet-wars/leaderboard", None).await;
    let lb = json(&body);
    assert_eq!(lb["scheduled"].as_u64(), Some(u64::from(start + MATCHES)));
    assert_eq!(lb["rated"], lb["scheduled"]);
    let row = lb["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == "bot-003")
        .unwrap();
    assert_eq!(row["games"].as_u64(), Some(mine.len() as u64));
    assert_eq!(row["elo"].as_f64(), history.last().copied());
    // Ranked as every leaderboard is, by the system it names.
    assert!(
        lb["rating_system"].as_str().unwrap().starts_with("Bradley"),
        "{body}"
    );
    let ratings: Vec<f64> = lb["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rating"].as_f64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");

    // Its latest match, by a prefix of its id, and its page.
    let id = ludus_host::sha256_hex(format!("synthetic/{ladder}/{}", start + k).as_bytes());
    let (status, body) = s.get(&format!("/api/matches/{}", &id[..12]), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let m = json(&body);
    assert_eq!(m["index"].as_u64(), Some(u64::from(start + k)));
    assert_eq!(m["match_id"], id.as_str());
    assert_eq!(m["seats"], serde_json::json!(seat_names));
    let (status, page) = s.get(&format!("/matches/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("ludus-data"));
    let (status, page) = s.get("/bots/bot-003", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains(&format!("/matches/{id}")),
        "the newest match is linked"
    );
}

/// `ludus serve --game-config`: the continuous ladder is created with the
/// configured game config and its matches play it; a server given another
/// config for that ladder, or one the game refuses, does not start.
#[tokio::test(flavor = "multi_thread")]
async fn a_continuous_ladder_keeps_the_game_config_it_was_created_with() {
    let short = serde_json::json!({"max_turns": 7});
    let s = server(|c| {
        c.continuous
            .game_configs
            .insert("planet-wars".into(), short.clone());
    });
    for (name, token) in [("a", &s.alice), ("b", &s.bob)] {
        let (status, body) = s.upload(name, Some(token), bot(name, false)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let store = Store::connect(&s.db).unwrap();
    let game = ludus_engine::registry::info("planet-wars").unwrap();
    continuous::top_up(
        &store,
        game,
        &s.state.config().continuous,
        continuous::Look::Bots,
    )
    .unwrap();
    let options = WorkerOptions {
        until_idle: true,
        ..WorkerOptions::new(2)
    };
    worker::work(&store, s.state.sandbox(), &options, |_| {}).unwrap();
    let ladder = store.ladders().continuous("planet-wars").unwrap().unwrap();
    assert_eq!(store.ladders().get(ladder).unwrap().config, short);
    let results = store.results().all(ladder).unwrap();
    assert!(!results.is_empty());
    assert!(results.iter().all(|r| r.turns == 7), "{results:?}");
    drop(store);

    let open = |config: serde_json::Value| {
        let mut c = s.state.config().clone();
        c.continuous
            .game_configs
            .insert("planet-wars".into(), config);
        ludus_server::AppState::open(c)
    };
    assert!(open(short.clone()).await.is_ok(), "the same config");
    let other = open(serde_json::json!({"max_turns": 8}))
        .await
        .err()
        .expect("another config is refused")
        .to_string();
    assert!(
        other.contains(r#"plays with the game config {"max_turns":7}, set when it started"#)
            && other.contains("ludus season new --game planet-wars"),
        "{other}"
    );
    let bad = open(serde_json::json!({"max_turns": 0}))
        .await
        .err()
        .expect("a config the game refuses is refused")
        .to_string();
    assert!(bad.contains("max_turns"), "{bad}");
}

/// Tops up Planet Wars' open season and plays every match it has waiting.
#[tokio::test(flavor = "multi_thread")]
async fn a_visitor_picks_a_season_and_a_closed_one_keeps_its_board() {
    let s = server(|c| {
        c.continuous
            .game_configs
            .insert("planet-wars".into(), serde_json::json!({"max_turns": 5}));
        c.continuous.pending = 2;
    });
    for (name, token) in [("a", &s.alice), ("b", &s.bob)] {
        let (status, body) = s.upload(name, Some(token), bot(name, false)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let store = Store::connect(&s.db).unwrap();
    s.play_with(&store, "planet-wars", &s.state.config().continuous);
    let (_, first) = s.get("/api/games/planet-wars/leaderboard", None).await;
    let first = json(&first);
    assert_eq!(first["season"], "season 1");
    assert_eq!(first["open"], true);
    let rated = first["rated"].as_u64().unwrap();
    assert!(rated > 0, "{first}");

    let started = ludus_leaderboard::season::start(&store, "planet-wars", None, None).unwrap();
    assert_eq!(started.opened.name, "season 2");
    ludus_leaderboard::season::pause(&store, "planet-wars").unwrap();
    s.play_with(&store, "planet-wars", &s.state.config().continuous);
    let (_, paused) = s.get("/api/games/planet-wars/leaderboard", None).await;
    let paused = json(&paused);
    assert_eq!(
        (paused["paused"].as_bool(), paused["scheduled"].as_u64()),
        (Some(true), Some(0))
    );
    let (_, page) = s.get("/games/planet-wars", None).await;
    assert!(
        page.contains("Paused by the operator") && !page.contains(r#"id="paused" hidden"#),
        "{page}"
    );
    ludus_leaderboard::season::resume(&store, "planet-wars").unwrap();
    s.play_with(&store, "planet-wars", &s.state.config().continuous);

    // The default is the open season, played afresh under the same config.
    let (_, open) = s.get("/api/games/planet-wars/leaderboard", None).await;
    let open = json(&open);
    assert_eq!(
        (open["season"].as_str(), open["open"].as_bool()),
        (Some("season 2"), Some(true))
    );
    assert_eq!(open["paused"], false);
    assert_ne!(open["ladder"], first["ladder"]);
    assert!(open["rated"].as_u64().unwrap() > 0, "{open}");
    let names: Vec<&str> = open["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bot"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "every listed bot joined: {open}");
    assert_eq!(
        open["seasons"],
        serde_json::json!([{"name": "season 1", "open": false}, {"name": "season 2", "open": true}])
    );
    // The closed season, by name: its board as it ended, nothing added.
    let (status, closed) = s
        .get(
            "/api/games/planet-wars/leaderboard?season=season%201&per_page=5",
            None,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{closed}");
    let closed = json(&closed);
    assert_eq!(
        (closed["ladder"].clone(), closed["open"].as_bool()),
        (first["ladder"].clone(), Some(false))
    );
    assert_eq!(
        (closed["rated"].as_u64(), closed["scheduled"].clone()),
        (Some(rated), first["scheduled"].clone())
    );
    assert_eq!(closed["rows"], first["rows"]);
    let (status, missing) = s
        .get("/api/games/planet-wars/leaderboard?season=spring", None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(
        missing.contains("season 1") && missing.contains("season 2"),
        "{missing}"
    );
    // The page's picker links the other season; a closed one's page says so.
    let (_, page) = s.get("/games/planet-wars", None).await;
    assert!(
        page.contains(r#"href="/games/planet-wars?season=season%201""#),
        "{page}"
    );
    assert!(page.contains("<strong>season 2 (open)</strong>"), "{page}");
    let (status, page) = s.get("/games/planet-wars?season=season%201", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        page.contains("closed: its board as the season ended"),
        "{page}"
    );
    assert!(
        page.contains("leaderboard?page=1&amp;per_page=20&amp;season=season%201"),
        "{page}"
    );
    // A closed season's matches are still the server's.
    let id = store
        .results()
        .all(first["ladder"].as_str().unwrap().parse().unwrap())
        .unwrap()[0]
        .match_id
        .clone();
    let (status, body) = s.get(&format!("/api/matches/{id}"), None).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// A Claim bot that always answers `STAY`; `tag` makes its bytes its own.
fn stay_bot(tag: &str) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(module
  (memory (export "memory") 1)
  (data (i32.const 16) "STAY")
  (data (i32.const 400) "{tag}")
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 4))))"#
    ))
    .unwrap()
}

/// Every schema of the OpenAPI document, with the path that leads to it.
fn schemas<'a>(
    at: String,
    v: &'a serde_json::Value,
    out: &mut Vec<(String, &'a serde_json::Value)>,
) {
    match v {
        serde_json::Value::Object(o) => {
            if o.contains_key("type") {
                out.push((at.clone(), v));
            }
            for (k, child) in o {
                schemas(format!("{at}/{k}"), child, out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                schemas(format!("{at}/{i}"), child, out);
            }
        }
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn seeds_and_ids_are_sent_as_their_exact_digits_and_a_match_replays_from_the_seed_shown() {
    let s = server(|_| {});
    s.two_played_bots().await;

    // The document says so, field by field, and sends no other integer
    // that could pass 2^53.
    let (_, doc) = s.get("/api/openapi.json", None).await;
    let doc = json(&doc);
    assert!(
        doc["info"]["description"]
            .as_str()
            .unwrap()
            .contains("strings of their decimal digits"),
        "{}",
        doc["info"]
    );
    let component = |schema: &str, field: &str| {
        doc["components"]["schemas"][schema]["properties"][field].clone()
    };
    for (schema, field) in [
        ("MatchSummary", "seed"),
        ("MatchLine", "seed"),
        ("Leaderboard", "seed"),
        ("Leaderboard", "ladder"),
        ("Me", "id"),
    ] {
        let p = component(schema, field);
        let types = p["type"].clone();
        assert!(
            types == "string" || types == serde_json::json!(["string", "null"]),
            "{schema}.{field}: {p}"
        );
        assert!(
            p["description"].as_str().unwrap_or("").contains("digits"),
            "{schema}.{field} says what it holds: {p}"
        );
    }
    let mut all = Vec::new();
    schemas(String::new(), &doc, &mut all);
    let integers: Vec<_> = all
        .iter()
        .filter(|(_, v)| {
            v["type"] == "integer"
                || v["type"]
                    .as_array()
                    .is_some_and(|t| t.contains(&"integer".into()))
        })
        .collect();
    assert!(!integers.is_empty());
    for (at, v) in integers {
        let small = v["format"] == "int32"
            || v["maximum"]
                .as_f64()
                .is_some_and(|m| m < 9_007_199_254_740_992.0);
        assert!(
            small,
            "{at}: an integer that may pass 2^53 as a JSON number: {v}"
        );
    }

    let (_, me) = s.get("/api/me", Some(&s.alice)).await;
    let me = json(&me);
    assert!(
        me["id"].as_str().unwrap().parse::<i64>().unwrap() > 0,
        "{me}"
    );
    let (_, lb) = s.get("/api/games/planet-wars/leaderboard", None).await;
    let lb = json(&lb);
    lb["seed"].as_str().unwrap().parse::<u64>().unwrap();
    lb["ladder"].as_str().unwrap().parse::<i64>().unwrap();

    // A match whose seed a double cannot hold (nearly every seed of a
    // schedule that draws from every u64).
    let (_, view) = s.get("/api/bots/a?per_page=100", None).await;
    let view = json(&view);
    let rounded = |seed: u64| seed as f64 as u64 != seed;
    let m = view["recent"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| rounded(m["seed"].as_str().unwrap().parse().unwrap()))
        .unwrap_or_else(|| panic!("no seed beyond 2^53 among {view}"));
    let id = m["match_id"].as_str().unwrap();
    let (_, info) = s.get(&format!("/api/matches/{id}"), None).await;
    let info = json(&info);
    let seed: u64 = info["seed"].as_str().unwrap().parse().unwrap();
    assert!(rounded(seed) && seed > 1 << 53, "{info}");

    // Played again from that seed, with its seats' bots, the game's default
    // config and the default limits (`ludus play --seed`): the same replay.
    let (_, served) = s.get(&format!("/api/matches/{id}/replay"), None).await;
    assert!(served.contains(&format!("\"seed\":{seed},")));
    let bots = info["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|label| {
            let name = label.as_str().unwrap().strip_suffix(" v1").unwrap();
            s.state.sandbox().load(name, &bot(name, false)).unwrap()
        })
        .collect();
    let again = ludus_host::play(&ludus_host::MatchSpec {
        game: "planet-wars".into(),
        config: serde_json::Value::Null,
        seed,
        limits: ludus_host::Limits::default(),
        bots,
    })
    .unwrap();
    assert_eq!(String::from_utf8(again.to_bytes(false)).unwrap(), served);
}

#[tokio::test(flavor = "multi_thread")]
async fn each_seat_is_named_as_scheduled_when_two_names_share_their_bytes() {
    let s = server(|_| {});
    // As in a class that starts from the sample bot: carol's and alice's
    // bots are the same bytes, bob's and dave's too, in two accounts.
    for (name, token, bytes) in [
        ("carol", &s.bob, "x"),
        ("bob", &s.alice, "y"),
        ("alice", &s.alice, "x"),
        ("dave", &s.bob, "y"),
    ] {
        let (status, body) = s
            .upload_to("claim", name, Some(token), stay_bot(bytes))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    s.play_game("claim");
    let store = Store::connect(&s.db).unwrap();
    let ladder = store.ladders().continuous("claim").unwrap().unwrap();
    let record = store.ladders().get(ladder).unwrap();
    let schedule = store.ladders().schedule(ladder).unwrap();
    let results = store.results().all(ladder).unwrap();
    assert!(results.len() >= 4, "{results:?}");
    let mut orders = std::collections::BTreeSet::new();
    for r in &results {
        let m = &schedule[r.index as usize];
        let names: Vec<&str> = m
            .seats
            .iter()
            .map(|&p| record.bots[p].name.as_str())
            .collect();
        let labels: Vec<String> = names.iter().map(|n| format!("{n} v1")).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, ["alice", "bob", "carol", "dave"]);
        orders.insert(names.join(" "));
        let seat_names = |replay: &ludus_host::Replay| -> Vec<String> {
            replay.seats.iter().map(|s| s.name.clone()).collect()
        };

        // The replay as stored: what `ludus replay export` writes.
        let stored = store.results().replay(&r.match_id).unwrap().unwrap();
        let stored = ludus_host::Replay::from_bytes(&stored).unwrap();
        assert_eq!(seat_names(&stored), names, "match {}", r.index);
        // The API: the match and its replay.
        let (_, info) = s.get(&format!("/api/matches/{}", r.match_id), None).await;
        assert_eq!(json(&info)["seats"], serde_json::json!(labels));
        let (_, served) = s
            .get(&format!("/api/matches/{}/replay", r.match_id), None)
            .await;
        let served = ludus_host::Replay::from_bytes(served.as_bytes()).unwrap();
        assert_eq!(seat_names(&served), names);
        // The page, titled by name and version.
        let (_, page) = s.get(&format!("/matches/{}", r.match_id), None).await;
        let title = format!(
            "<title>claim: {} (seed {})</title>",
            labels.join(" vs "),
            m.seed
        );
        assert!(page.contains(&title), "{title} not in the page");
        // The bots' pages list the match with the same seats.
        let (_, carol) = s.get("/api/bots/carol?per_page=100", None).await;
        assert!(json(&carol)["recent"]
            .as_array()
            .unwrap()
            .iter()
            .any(
                |m| m["match_id"] == r.match_id.as_str() && m["seats"] == serde_json::json!(labels)
            ));
    }
    assert!(orders.len() >= 2, "the seats change places: {orders:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replay_the_ladder_did_not_store_is_played_again_checked_and_kept() {
    let s = server(|_| {});
    let (status, _) = s
        .upload("secret-keeper", Some(&s.alice), bot("s", true))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, _) = s.upload("plain", Some(&s.bob), bot("p", false)).await;
    assert_eq!(status, StatusCode::CREATED);
    // The ladder as `ludus serve --keep-replays none` makes it.
    let store = Store::connect(&s.db).unwrap();
    let game = ludus_engine::registry::info("planet-wars").unwrap();
    let config = ContinuousConfig {
        pending: 6,
        keep_replays: Some(KeepReplays::NONE),
        ..ContinuousConfig::default()
    };
    let ladder = continuous::top_up(&store, game, &config, continuous::Look::Bots)
        .unwrap()
        .ladder
        .unwrap();
    let options = WorkerOptions {
        until_idle: true,
        ..WorkerOptions::new(2)
    };
    worker::work(&store, s.state.sandbox(), &options, |_| {}).unwrap();
    let results = store.results().all(ladder).unwrap();
    assert!(results.len() >= 3, "{results:?}");
    assert!(results
        .iter()
        .all(|r| !store.results().has_replay(&r.match_id).unwrap()));

    // Played again, checked, served with the logs its visitor may see.
    let id = results[0].match_id.clone();
    let uri = format!("/api/matches/{id}/replay");
    let (status, owner) = s.get(&uri, Some(&s.alice)).await;
    assert_eq!(status, StatusCode::OK, "{owner}");
    let served = ludus_host::Replay::from_bytes(owner.as_bytes()).unwrap();
    assert_eq!(served.match_id, id);
    assert_eq!(served.turns.len() as u32, results[0].turns);
    assert!(owner.contains("secret line"));
    let (status, anyone) = s.get(&uri, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!anyone.contains("secret line"));
    let (status, page) = s.get(&format!("/matches/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("ludus-data"));
    assert!(
        !store.results().has_replay(&id).unwrap(),
        "regenerated replays are kept in memory, not stored"
    );

    // A recorded hash that the match does not give: an integrity event,
    // shown as such; nothing is served.
    let forged = &results[1];
    let path = match &s.db {
        ludus_leaderboard::store::Location::File(p) => p.clone(),
        other => panic!("{other}"),
    };
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE results SET replay_sha256 = ?1 WHERE match_id = ?2",
            rusqlite::params![ludus_host::sha256_hex(b"forged"), forged.match_id],
        )
        .unwrap();
    let (status, body) = s
        .get(&format!("/api/matches/{}/replay", forged.match_id), None)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(body.contains("integrity event"), "{body}");

    // Another Ludus version: what was regenerated before is still served;
    // any other is gone, with the reason.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "UPDATE ladders SET ludus_version = '0.0.1' WHERE id = ?1",
            [ladder],
        )
        .unwrap();
    let (status, _) = s.get(&uri, None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = s
        .get(
            &format!("/api/matches/{}/replay", results[2].match_id),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::GONE, "{body}");
    assert!(body.contains("cannot play it again"), "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn health_probes_answer_beyond_the_rate_limit_and_readiness_follows_the_database() {
    let s = server(|c| {
        c.rate_per_second = 1;
        c.rate_burst = 2;
    });
    for _ in 0..3 {
        s.get("/api/games", None).await;
    }
    assert_eq!(
        s.get("/api/games", None).await.0,
        StatusCode::TOO_MANY_REQUESTS
    );
    for _ in 0..20 {
        assert_eq!(
            s.get("/healthz", None).await,
            (StatusCode::OK, "ok\n".into())
        );
        assert_eq!(
            s.get("/readyz", None).await,
            (StatusCode::OK, "ready\n".into())
        );
    }
    // A database migrated by a newer Ludus: up, but not ready.
    let path = match &s.db {
        ludus_leaderboard::store::Location::File(p) => p.clone(),
        other => panic!("{other}"),
    };
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute(
            "INSERT INTO ludus_schema_history (version, name, applied_on, checksum)
             VALUES (99, 'a later migration', '2027-01-01', '0')",
            [],
        )
        .unwrap();
    assert_eq!(s.get("/healthz", None).await.0, StatusCode::OK);
    let (status, body) = s.get("/readyz", None).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body.contains("another schema"), "{body}");
}

/// A GET of `uri` by the browser signed in as `name` (its session cookie).
async fn get_signed_in(s: &Server, uri: &str, name: &str) -> axum::response::Response {
    let req = Request::get(uri)
        .header("Cookie", s.sign_in(name).await)
        .body(Body::empty())
        .unwrap();
    router(s.state.clone()).oneshot(req).await.unwrap()
}

async fn text_of(res: axum::response::Response) -> String {
    use http_body_util::BodyExt;
    let body = res.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8_lossy(&body).into_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn an_operator_sees_on_a_bots_page_the_bots_of_other_accounts_with_its_bytes() {
    let s = server(|_| {});
    let operator = s
        .state
        .with_store(|st| Ok(auth::add_account(st, "teacher", true).unwrap().unwrap()))
        .await
        .unwrap();
    for (name, token, tag) in [
        ("original", &s.alice, "same"),
        ("copy", &s.bob, "same"),
        ("own", &s.bob, "own"),
    ] {
        let (status, body) = s.upload(name, Some(token), bot(tag, false)).await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let mark = "Same bytes as <a href=\"/bots/original\">original</a> (account alice).";

    // The operator, signed in by session or by bearer token, sees the
    // mark, on a page no cache keeps.
    let res = get_signed_in(&s, "/bots/copy", "teacher").await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.headers()["cache-control"], "private, no-store");
    assert_eq!(res.headers()["vary"], "Authorization, Cookie");
    let page = text_of(res).await;
    assert!(page.contains(mark), "{page}");
    let (_, page) = s.get("/bots/original", Some(&operator)).await;
    assert!(
        page.contains("Same bytes as <a href=\"/bots/copy\">copy</a> (account bob)."),
        "{page}"
    );
    let (_, page) = s.get("/bots/own", Some(&operator)).await;
    assert!(!page.contains("Same bytes as"), "{page}");

    // Nobody else does: not signed in, another account, the copier.
    let res = get_signed_in(&s, "/bots/copy", "bob").await;
    assert_eq!(res.headers()["vary"], "Authorization, Cookie");
    // Signed in, the page's frame is bob's own: no cache keeps it either.
    assert_eq!(res.headers()["cache-control"], "private, no-store");
    let page = text_of(res).await;
    assert!(
        page.contains("bot copy") && !page.contains("Same bytes as"),
        "{page}"
    );
    let res = router(s.state.clone())
        .oneshot(Request::get("/bots/copy").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    assert!(
        res.headers().get("cache-control").is_none(),
        "anyone's page may be kept"
    );
    let page = text_of(res).await;
    assert!(!page.contains("Same bytes as"), "{page}");
    let (_, page) = s.get("/bots/copy", Some(&s.alice)).await;
    assert!(!page.contains("Same bytes as"), "{page}");
    // Nor does the API's bot view, whoever asks.
    let (_, body) = s.get("/api/bots/copy", Some(&operator)).await;
    assert!(!body.contains("original"), "{body}");
}

/// The sign-in form posted with `name` and `password`: its status and page.
async fn password_sign_in(s: &Server, name: &str, password: &str) -> (StatusCode, String) {
    s.send(common::sign_in_request(name, password)).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_removed_accounts_token_is_refused_and_a_lost_one_is_replaced() {
    let s = server(|_| {});
    let (status, _) = s.upload("alices", Some(&s.alice), bot("a", false)).await;
    assert_eq!(status, StatusCode::CREATED);
    let session = s.sign_in("alice").await;

    // A token that is not one says who makes a new one, and how.
    let (status, body) = s.get("/api/me", Some("ludus_1_00")).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_token")
    );
    assert!(body.contains("`ludus user token NAME`"), "{body}");

    // A lost token: a new one is added, named; the others stay.
    let (_, fresh) = s
        .state
        .with_store(|st| Ok(auth::new_token(st, "Alice", Some("laptop")).unwrap()))
        .await
        .unwrap();
    for token in [&s.alice, &fresh] {
        let (status, body) = s.get("/api/me", Some(token)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(json(&body)["name"], "alice");
    }

    // Removed, its tokens sign in no more, and say why, nor does its
    // password; its bot is retired, its page still there.
    let removed = s
        .state
        .with_store(|st| Ok(ludus_leaderboard::accounts::remove(st, "alice").unwrap()))
        .await
        .unwrap();
    assert_eq!(removed.retired, ["alices"]);
    let (status, body) = s.get("/api/me", Some(&fresh)).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::UNAUTHORIZED, "account_removed")
    );
    assert!(body.contains("removed by the server's operator"), "{body}");
    let (status, _) = s.upload("alices", Some(&fresh), bot("b", false)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, page) = password_sign_in(&s, "alice", PASSWORD).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(
        page.contains("this account was removed by the server"),
        "{page}"
    );
    // Reading with its session is reading as anyone.
    let req = Request::get("/bots/alices")
        .header("Cookie", &session)
        .body(Body::empty())
        .unwrap();
    let (status, page) = s.send(req).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!page.contains("Signed in as"), "{page}");
    let (_, body) = s.get("/api/bots/alices", None).await;
    assert_eq!(json(&body)["retired"], true, "{body}");
    let e = s
        .state
        .with_store(|st| Ok(auth::new_token(st, "alice", None).unwrap_err().to_string()))
        .await
        .unwrap();
    assert!(e.contains("was removed"), "{e}");
}
