//! What the server's tests share: a server on a fresh SQLite file with two
//! accounts, requests through its router (no socket), a tiny bot.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use ludus_host::Sandbox;
use ludus_leaderboard::continuous::{self, ContinuousConfig};
use ludus_leaderboard::store::{Location, Store};
use ludus_leaderboard::worker::{self, WorkerOptions};
use ludus_server::{auth, router, AppState, ServerConfig};
use serde_json::Value;
use std::sync::Arc;
use tower::ServiceExt;

/// A Planet Wars bot that sends no fleet; `tag` makes its bytes its own,
/// and `log` makes it write a line to stderr every turn.
pub fn bot(tag: &str, log: bool) -> Vec<u8> {
    let (import, call) = if log {
        (
            r#"(import "wasi_snapshot_preview1" "fd_write" (func $w (param i32 i32 i32 i32) (result i32)))"#,
            "(drop (call $w (i32.const 2) (i32.const 100) (i32.const 1) (i32.const 300)))",
        )
    } else {
        ("", "")
    };
    wat::parse_str(format!(
        r#"(module {import}
  (memory (export "memory") 1)
  (data (i32.const 16) "{{\"moves\":[]}}")
  (data (i32.const 100) "\c8\00\00\00\0b\00\00\00")
  (data (i32.const 200) "secret line")
  (data (i32.const 400) "{tag}")
  (func (export "ludus_alloc") (param i32) (result i32) (i32.const 1024))
  (func (export "act") (param i32 i32) (result i64)
    {call}
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 12))))"#
    ))
    .unwrap()
}

pub struct Server {
    _dir: Option<tempfile::TempDir>,
    pub db: Location,
    pub state: AppState,
    pub alice: String,
    pub bob: String,
}

pub fn server(configure: impl FnOnce(&mut ServerConfig)) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let db = Location::File(dir.path().join("ludus.db"));
    let store = Store::connect(&db).unwrap();
    let alice = auth::add_user(&store, "alice").unwrap().unwrap();
    let bob = auth::add_user(&store, "bob").unwrap().unwrap();
    assert!(auth::add_user(&store, "bob").unwrap().is_none());
    let mut config = ServerConfig::new(db.clone());
    config.workers = 0;
    configure(&mut config);
    drop(store);
    let state = AppState::new(config, Arc::new(Sandbox::new().unwrap())).unwrap();
    Server {
        _dir: Some(dir),
        db,
        state,
        alice,
        bob,
    }
}

impl Server {
    /// Requests to a server made elsewhere (its accounts are its own).
    pub fn over(state: AppState) -> Server {
        Server {
            _dir: None,
            db: state.config().db.clone(),
            state,
            alice: String::new(),
            bob: String::new(),
        }
    }

    pub async fn send(&self, req: Request<Body>) -> (StatusCode, String) {
        let res = router(self.state.clone()).oneshot(req).await.unwrap();
        let status = res.status();
        let body = res.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    pub async fn get(&self, uri: &str, token: Option<&str>) -> (StatusCode, String) {
        let mut req = Request::get(uri);
        if let Some(t) = token {
            req = req.header("Authorization", format!("Bearer {t}"));
        }
        self.send(req.body(Body::empty()).unwrap()).await
    }

    pub async fn post(
        &self,
        uri: &str,
        token: Option<&str>,
        body: Vec<u8>,
    ) -> (StatusCode, String) {
        let mut req = Request::post(uri);
        if let Some(t) = token {
            req = req.header("Authorization", format!("Bearer {t}"));
        }
        self.send(req.body(Body::from(body)).unwrap()).await
    }

    /// Uploads a Planet Wars bot.
    pub async fn upload(
        &self,
        name: &str,
        token: Option<&str>,
        wasm: Vec<u8>,
    ) -> (StatusCode, String) {
        self.upload_to("planet-wars", name, token, wasm).await
    }

    pub async fn upload_to(
        &self,
        game: &str,
        name: &str,
        token: Option<&str>,
        wasm: Vec<u8>,
    ) -> (StatusCode, String) {
        let uri = format!(
            "/api/bots?name={}&game={game}",
            ludus_server::templates::url_part(name)
        );
        self.post(&uri, token, wasm).await
    }
}

/// The password [`Server::sign_in`] gives an account.
pub const PASSWORD: &str = "a long enough passphrase";

/// The origin the test requests come from, and its host: the server's own
/// (no `--public-url`: `http://` and the Host header).
pub const ORIGIN: &str = "http://ludus.test";
pub const HOST: &str = "ludus.test";

/// A `ludus_csrf` value a browser might hold, which a sign-in form repeats.
pub const FORM_CSRF: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

impl Server {
    /// Signs the account `name` in through the sign-in form, its password
    /// set to [`PASSWORD`] first: the `Cookie` header value of its session.
    pub async fn sign_in(&self, name: &str) -> String {
        let n = name.to_string();
        self.state
            .with_store(move |s| {
                auth::set_password(s, &n, PASSWORD).unwrap();
                Ok(())
            })
            .await
            .unwrap();
        let req = sign_in_request(name, PASSWORD);
        let res = router(self.state.clone()).oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::SEE_OTHER, "signing {name} in");
        let set = res.headers()["set-cookie"].to_str().unwrap();
        set.split(';').next().unwrap().to_string()
    }
}

impl Server {
    /// alice's bot `a` and bob's `b` uploaded, and their ladder played out.
    pub async fn two_played_bots(&self) {
        for (name, token) in [("a", &self.alice), ("b", &self.bob)] {
            let (status, body) = self.upload(name, Some(token), bot(name, false)).await;
            assert_eq!(status, StatusCode::CREATED, "{body}");
        }
        self.play();
    }

    /// Schedules the Planet Wars ladder and plays it out in this thread.
    pub fn play(&self) {
        self.play_game("planet-wars")
    }

    /// Schedules the ladder of `game` (six matches waiting at most) and
    /// plays it out in this thread.
    pub fn play_game(&self, game: &str) {
        let store = Store::connect(&self.db).unwrap();
        let config = ContinuousConfig {
            pending: 6,
            ..ContinuousConfig::default()
        };
        self.play_with(&store, game, &config);
    }

    /// Tops up the open season of `game` in `store` as `config` has it and
    /// plays every match it has waiting, in this thread.
    pub fn play_with(&self, store: &Store, game: &str, config: &ContinuousConfig) {
        let game = ludus_engine::registry::info(game).unwrap();
        continuous::top_up(store, game, config, continuous::Look::Bots).unwrap();
        let options = WorkerOptions {
            until_idle: true,
            ..WorkerOptions::new(2)
        };
        worker::work(store, self.state.sandbox(), &options, |_| {}).unwrap();
    }
}

/// The sign-in form posted from the server's own page, with `name` and
/// `password`.
pub fn sign_in_request(name: &str, password: &str) -> Request<Body> {
    Request::post("/signin")
        .header("Host", HOST)
        .header("Origin", ORIGIN)
        .header("Cookie", format!("ludus_csrf={FORM_CSRF}"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(Body::from(format!(
            "name={name}&password={}&csrf={FORM_CSRF}",
            password.replace(' ', "+")
        )))
        .unwrap()
}

pub fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

pub fn error_code(body: &str) -> String {
    json(body)["error"]["code"].as_str().unwrap().to_string()
}
