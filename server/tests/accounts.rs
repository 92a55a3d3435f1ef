//! Accounts on the pages, through the server's router: signing up in each
//! mode (closed, by invitation, open), the password and name rules,
//! signing in to a session (its cookie's attributes, a wrong name and a
//! wrong password answered alike, the attempts limited), signing out,
//! forms refused from another origin or without their token, named API
//! tokens used and revoked, and a disabled account refused while its bots
//! play on.

mod common;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use common::*;
use http_body_util::BodyExt;
use ludus_server::{auth, router, Signup};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tower::ServiceExt;

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Answer {
    fn location(&self) -> &str {
        self.headers["location"].to_str().unwrap()
    }

    /// The `Set-Cookie` value of the cookie `name`.
    fn set_cookie(&self, name: &str) -> String {
        self.headers
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .find(|c| c.starts_with(&format!("{name}=")))
            .unwrap_or_else(|| panic!("no {name} cookie set: {:?}", self.headers))
    }
}

/// A browser: it keeps the cookies it is given and sends its forms from
/// the server's own origin unless told otherwise.
#[derive(Default, Clone)]
struct Browser {
    cookies: BTreeMap<String, String>,
}

impl Browser {
    async fn send(
        &mut self,
        s: &Server,
        req: axum::http::request::Builder,
        body: String,
    ) -> Answer {
        let mut req = req.header("Host", HOST);
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            req = req.header("Cookie", jar.join("; "));
        }
        let res = router(s.state.clone())
            .oneshot(req.body(Body::from(body)).unwrap())
            .await
            .unwrap();
        let (status, headers) = (res.status(), res.headers().clone());
        for set in headers.get_all("set-cookie") {
            let c = cookie::Cookie::parse(set.to_str().unwrap().to_string()).unwrap();
            if c.max_age() == Some(cookie::time::Duration::ZERO) {
                self.cookies.remove(c.name());
            } else {
                self.cookies.insert(c.name().into(), c.value().into());
            }
        }
        let body = res.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        }
    }

    async fn get(&mut self, s: &Server, uri: &str) -> Answer {
        self.send(s, Request::get(uri), String::new()).await
    }

    /// Posts a form from `origin` (none: no Origin header).
    async fn post_from(
        &mut self,
        s: &Server,
        uri: &str,
        origin: Option<&str>,
        form: &[(&str, &str)],
    ) -> Answer {
        let mut req =
            Request::post(uri).header("Content-Type", "application/x-www-form-urlencoded");
        if let Some(o) = origin {
            req = req.header("Origin", o);
        }
        let body = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(form)
            .finish();
        self.send(s, req, body).await
    }

    async fn post(&mut self, s: &Server, uri: &str, form: &[(&str, &str)]) -> Answer {
        self.post_from(s, uri, Some(ORIGIN), form).await
    }

    /// The form token of the sign-in and sign-up forms: the `ludus_csrf`
    /// cookie, which a first visit to the form sets.
    async fn form_csrf(&mut self, s: &Server) -> String {
        if !self.cookies.contains_key("ludus_csrf") {
            self.get(s, "/signin").await;
        }
        self.cookies["ludus_csrf"].clone()
    }

    async fn sign_up(&mut self, s: &Server, name: &str, password: &str, invite: &str) -> Answer {
        let csrf = self.form_csrf(s).await;
        let form = [
            ("name", name),
            ("password", password),
            ("password2", password),
            ("invite", invite),
            ("csrf", &csrf),
        ];
        self.post(s, "/signup", &form).await
    }

    async fn sign_in(&mut self, s: &Server, name: &str, password: &str) -> Answer {
        let csrf = self.form_csrf(s).await;
        self.post(
            s,
            "/signin",
            &[("name", name), ("password", password), ("csrf", &csrf)],
        )
        .await
    }
}

/// The CSRF token in a page's forms.
fn csrf_in(page: &str) -> String {
    let at = page
        .find(r#"name="csrf" value=""#)
        .expect("a form with a csrf field")
        + 19;
    page[at..at + 64].to_string()
}

fn signed_in_as(page: &str) -> Option<&str> {
    let at = page.find("Signed in as ")? + 13;
    Some(page[at..].split('<').next().unwrap())
}

const GOOD: &str = "tidy violet kettle drum";

#[tokio::test(flavor = "multi_thread")]
async fn signing_up_follows_the_servers_mode() {
    // Closed: the operator makes accounts.
    let s = server(|_| {});
    let mut b = Browser::default();
    let page = b.get(&s, "/signup").await;
    assert!(page.body.contains("made by its operator"), "{}", page.body);
    assert!(!b.get(&s, "/").await.body.contains("Sign up"));
    let a = b.sign_up(&s, "carol", GOOD, "").await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.body);
    assert!(b.sign_in(&s, "carol", GOOD).await.status == StatusCode::UNAUTHORIZED);

    // By invitation: a code of the operator's, once, before it expires.
    let s = server(|c| c.signup = Signup::Invite);
    let (code, expired) = s
        .state
        .with_store(|st| {
            let code = auth::new_invite(st, Duration::from_secs(7 * 86400))
                .unwrap()
                .0;
            let expired = auth::new_invite(st, Duration::ZERO).unwrap().0;
            Ok((code, expired))
        })
        .await
        .unwrap();
    let mut b = Browser::default();
    let form = b.get(&s, "/signup").await.body;
    assert!(
        form.contains(r#"<label for="invite">"#) && form.contains(r#"autocomplete="new-password""#),
        "{form}"
    );
    assert!(b.get(&s, "/").await.body.contains(r#"href="/signup""#));
    let a = b.sign_up(&s, "carol", GOOD, "").await;
    assert_eq!(a.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(a.body.contains("by invitation"), "{}", a.body);
    let a = b.sign_up(&s, "carol", GOOD, "invite_0000").await;
    assert!(a.body.contains("not one of this server"), "{}", a.body);
    let a = b.sign_up(&s, "carol", GOOD, &expired).await;
    assert!(a.body.contains("has expired"), "{}", a.body);
    let a = b.sign_up(&s, "carol", GOOD, &code).await;
    assert_eq!(
        (a.status, a.location()),
        (StatusCode::SEE_OTHER, "/account"),
        "{}",
        a.body
    );
    let page = b.get(&s, "/").await.body;
    assert_eq!(signed_in_as(&page), Some("carol"), "{page}");
    let mut other = Browser::default();
    let a = other.sign_up(&s, "dave", GOOD, &code).await;
    assert!(a.body.contains("used already"), "{}", a.body);
    assert_eq!(
        other.sign_in(&s, "dave", GOOD).await.status,
        StatusCode::UNAUTHORIZED
    );

    // Open: anyone, who is signed in at once.
    let s = server(|c| c.signup = Signup::Open);
    let mut b = Browser::default();
    assert!(!b.get(&s, "/signup").await.body.contains("invite"));
    let a = b.sign_up(&s, "erin", GOOD, "").await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    let page = b.get(&s, "/").await.body;
    assert_eq!(signed_in_as(&page), Some("erin"));
    for link in [
        r#"href="/account""#,
        r#"href="/upload""#,
        r#"action="/signout""#,
    ] {
        assert!(page.contains(link), "{link}: {page}");
    }
    // And signs in again later with the same password.
    let mut later = Browser::default();
    assert_eq!(
        later.sign_in(&s, "Erin", GOOD).await.status,
        StatusCode::SEE_OTHER
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn weak_passwords_and_look_alike_names_are_refused() {
    let s = server(|c| c.signup = Signup::Open);
    let mut b = Browser::default();
    for (name, password, why) in [
        ("carol", "short pw", "at least 10 characters"),
        ("carol", "manchester", "most common"),
        ("carol", "Qwertyuiop1234", "most common"),
        ("carol", "carol's long password", "the account's name"),
        ("Alice", GOOD, "looks like `alice`"),
        ("house", GOOD, "server's own account"),
        ("no spaces", GOOD, "not an account name"),
    ] {
        let a = b.sign_up(&s, name, password, "").await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name} {password}"
        );
        assert!(a.body.contains(why), "{name} {password}: {}", a.body);
        // The form comes back with the name kept.
        let kept = format!(r#"value="{}""#, name.replace('\'', "&#39;"));
        assert!(a.body.contains(&kept) || name.contains(' '), "{}", a.body);
    }
    let csrf = b.form_csrf(&s).await;
    let a = b
        .post(
            &s,
            "/signup",
            &[
                ("name", "carol"),
                ("password", GOOD),
                ("password2", "another one entirely"),
                ("csrf", &csrf),
            ],
        )
        .await;
    assert!(a.body.contains("the two passwords differ"), "{}", a.body);
    assert_eq!(
        b.sign_up(&s, "carol", GOOD, "").await.status,
        StatusCode::SEE_OTHER
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn signing_in_starts_a_session_and_signing_out_ends_it() {
    let s = server(|_| {});
    s.sign_in("alice").await;
    let mut b = Browser::default();
    // The form's own cookie: HttpOnly, same-site only.
    let form = b.get(&s, "/signin?next=/bots/x").await;
    let csrf_cookie = form.set_cookie("ludus_csrf");
    assert!(
        csrf_cookie.contains("HttpOnly") && csrf_cookie.contains("SameSite=Strict"),
        "{csrf_cookie}"
    );
    assert!(
        form.body.contains(r#"<label for="password">"#)
            && form.body.contains(r#"autocomplete="current-password""#)
    );
    assert!(
        form.body.contains(r#"name="next" value="/bots/x""#),
        "{}",
        form.body
    );

    let csrf = b.form_csrf(&s).await;
    let a = b
        .post(
            &s,
            "/signin",
            &[
                ("name", "alice"),
                ("password", PASSWORD),
                ("csrf", &csrf),
                ("next", "/bots/x"),
            ],
        )
        .await;
    assert_eq!((a.status, a.location()), (StatusCode::SEE_OTHER, "/bots/x"));
    let set = a.set_cookie("ludus_session");
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=1209600"] {
        assert!(set.contains(attribute), "{attribute}: {set}");
    }
    assert!(!set.contains("Secure"), "plain http: {set}");
    let page = b.get(&s, "/").await;
    assert_eq!(page.headers["cache-control"], "private, no-store");
    assert_eq!(signed_in_as(&page.body), Some("alice"));
    // A next page of another site is not followed.
    let mut c = Browser::default();
    let csrf = c.form_csrf(&s).await;
    let a = c
        .post(
            &s,
            "/signin",
            &[
                ("name", "alice"),
                ("password", PASSWORD),
                ("csrf", &csrf),
                ("next", "//evil.example/"),
            ],
        )
        .await;
    assert_eq!(a.location(), "/account");

    // Signing out: a page with a button, and the form ends the session.
    let kept = b.clone();
    let out = b.get(&s, "/signout").await.body;
    assert!(
        out.contains(r#"<button type="submit">Sign out</button>"#),
        "{out}"
    );
    let a = b.post(&s, "/signout", &[("csrf", &csrf_in(&out))]).await;
    assert_eq!((a.status, a.location()), (StatusCode::SEE_OTHER, "/"));
    assert!(a.set_cookie("ludus_session").contains("Max-Age=0"));
    assert!(!b.cookies.contains_key("ludus_session"));
    // The old cookie signs in no more.
    let mut old = kept;
    let page = old.get(&s, "/").await.body;
    assert_eq!(signed_in_as(&page), None, "{page}");
    assert!(page.contains(r#"href="/signin""#));
    let a = old.get(&s, "/signout").await;
    assert!(a.body.contains("You are not signed in"));

    // Behind https, the cookies are Secure, and forms come from its origin.
    let s = server(|c| c.public_url = Some("https://ludus.example/".parse().unwrap()));
    s.state
        .with_store(|st| {
            auth::set_password(st, "alice", PASSWORD).unwrap();
            Ok(())
        })
        .await
        .unwrap();
    let mut b = Browser::default();
    let csrf = b.form_csrf(&s).await;
    let form = [
        ("name", "alice"),
        ("password", PASSWORD),
        ("csrf", csrf.as_str()),
    ];
    let a = b.post(&s, "/signin", &form).await;
    assert_eq!(
        a.status,
        StatusCode::FORBIDDEN,
        "the Host's origin is not the public one"
    );
    let a = b
        .post_from(&s, "/signin", Some("https://ludus.example"), &form)
        .await;
    assert_eq!(a.status, StatusCode::SEE_OTHER, "{}", a.body);
    assert!(a.set_cookie("ludus_session").contains("Secure"));
}

/// How long the sign-in of `name` with `password` takes, the fastest of three.
async fn sign_in_time(s: &Server, name: &str, password: &str) -> (Duration, StatusCode, String) {
    let mut fastest = Duration::MAX;
    let mut last = None;
    for _ in 0..3 {
        let mut b = Browser::default();
        b.form_csrf(s).await;
        let start = Instant::now();
        let a = b.sign_in(s, name, password).await;
        fastest = fastest.min(start.elapsed());
        last = Some(a);
    }
    let a = last.unwrap();
    let at = a.body.find("Refused: ").expect("a refusal");
    let why = a.body[at..].split("</p>").next().unwrap().to_string();
    (fastest, a.status, why)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_password_and_an_unknown_name_answer_alike() {
    let s = server(|_| {});
    s.sign_in("alice").await;
    let (wrong, status_wrong, said_wrong) =
        sign_in_time(&s, "alice", "not the password at all").await;
    let (unknown, status_unknown, said_unknown) =
        sign_in_time(&s, "nobody", "not the password at all").await;
    assert_eq!(status_unknown, StatusCode::UNAUTHORIZED);
    // bob has no password: answered as an unknown name.
    let (_, status_bob, said_bob) = sign_in_time(&s, "bob", "not the password at all").await;
    assert_eq!(
        (status_wrong, &said_wrong),
        (StatusCode::UNAUTHORIZED, &said_unknown)
    );
    assert_eq!(
        (status_bob, &said_bob),
        (StatusCode::UNAUTHORIZED, &said_unknown)
    );
    assert!(
        said_wrong.contains("wrong account name or password"),
        "{said_wrong}"
    );
    // An unknown name takes a password's check too.
    assert!(
        unknown * 2 > wrong,
        "unknown name {unknown:?}, wrong password {wrong:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn sign_in_attempts_are_limited_per_name() {
    let s = server(|c| c.sign_ins_per_minute = 3);
    s.sign_in("alice").await; // one attempt of alice's budget
    let mut b = Browser::default();
    for _ in 0..2 {
        assert_eq!(
            b.sign_in(&s, "alice", "a wrong password here").await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    let a = b.sign_in(&s, "ALICE", PASSWORD).await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.body);
    assert!(a.body.contains("wait a minute"), "{}", a.body);
    // Another name is not held back by alice's.
    assert_eq!(
        b.sign_in(&s, "bob", "a wrong password here").await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn forms_from_another_origin_or_without_their_token_are_refused() {
    let s = server(|_| {});
    s.sign_in("alice").await;
    let mut b = Browser::default();
    let csrf = b.form_csrf(&s).await;
    let form = [
        ("name", "alice"),
        ("password", PASSWORD),
        ("csrf", csrf.as_str()),
    ];
    for origin in [Some("http://evil.example"), Some("null"), None] {
        let a = b.post_from(&s, "/signin", origin, &form).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{origin:?}: {}", a.body);
        assert!(
            a.body.contains("forms are taken only from this server"),
            "{}",
            a.body
        );
    }
    let a = b
        .send(
            &s,
            Request::post("/signin")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Origin", ORIGIN)
                .header("Sec-Fetch-Site", "cross-site"),
            format!("name=alice&password=x&csrf={csrf}"),
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    let a = b
        .post(&s, "/signin", &[("name", "alice"), ("password", PASSWORD)])
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "no token");
    assert!(a.body.contains("security token"), "{}", a.body);
    let mut fresh = Browser::default();
    let a = fresh.post(&s, "/signin", &form).await;
    assert_eq!(
        a.status,
        StatusCode::FORBIDDEN,
        "a token without its cookie"
    );
    assert!(!b.cookies.contains_key("ludus_session"));

    // A session's form: its own token, from its own origin.
    assert_eq!(
        b.sign_in(&s, "alice", PASSWORD).await.status,
        StatusCode::SEE_OTHER
    );
    let token = csrf_in(&b.get(&s, "/").await.body);
    let a = b.post(&s, "/signout", &[("csrf", &csrf)]).await;
    assert_eq!(
        a.status,
        StatusCode::FORBIDDEN,
        "the sign-in form's token is not the session's"
    );
    let a = b
        .post_from(
            &s,
            "/signout",
            Some("http://evil.example"),
            &[("csrf", &token)],
        )
        .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN);
    assert_eq!(
        signed_in_as(&b.get(&s, "/").await.body),
        Some("alice"),
        "still signed in"
    );
    assert_eq!(
        b.post(&s, "/signout", &[("csrf", &token)]).await.status,
        StatusCode::SEE_OTHER
    );
    // Without a session, a session's form sends the browser to sign in.
    let a = b.post(&s, "/signout", &[("csrf", &token)]).await;
    assert_eq!(
        (a.status, a.location()),
        (StatusCode::SEE_OTHER, "/signin?next=%2Fsignout")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn named_tokens_are_listed_with_their_last_use_and_revoked_at_once() {
    let s = server(|_| {});
    let alice = json(&s.get("/api/me", Some(&s.alice)).await.1)["id"]
        .as_str()
        .unwrap()
        .parse::<i64>()
        .unwrap();
    let (id, laptop) = s
        .state
        .with_store(move |st| auth::new_named_token(st, alice, "laptop"))
        .await
        .unwrap();
    let list = |s: &Server| {
        let st = s.state.clone();
        async move {
            st.with_store(move |st| Ok(st.accounts().tokens(alice)?))
                .await
                .unwrap()
        }
    };
    let tokens = list(&s).await;
    assert_eq!(
        tokens.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        ["first", "laptop"]
    );
    assert_eq!(tokens[1].last_used_at, None);
    let (status, body) = s.get("/api/me", Some(&laptop)).await;
    assert_eq!(
        (status, json(&body)["name"].as_str()),
        (StatusCode::OK, Some("alice"))
    );
    let tokens = list(&s).await;
    assert!(tokens[1].last_used_at.is_some() && tokens[0].last_used_at.is_some());
    // bob cannot revoke alice's token; alice can, and it is refused at once.
    let bob = json(&s.get("/api/me", Some(&s.bob)).await.1)["id"]
        .as_str()
        .unwrap()
        .parse::<i64>()
        .unwrap();
    let st = s.state.clone();
    assert!(!st
        .with_store(move |st| auth::revoke_token(st, bob, id))
        .await
        .unwrap());
    assert_eq!(s.get("/api/me", Some(&laptop)).await.0, StatusCode::OK);
    assert!(st
        .with_store(move |st| auth::revoke_token(st, alice, id))
        .await
        .unwrap());
    let (status, body) = s.get("/api/me", Some(&laptop)).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::UNAUTHORIZED, "bad_token")
    );
    assert!(list(&s).await[1].revoked_at.is_some());
    // Her other token still works.
    assert_eq!(s.get("/api/me", Some(&s.alice)).await.0, StatusCode::OK);
    // A token's secret with another account's id is not a token.
    let forged = laptop.replacen(&format!("ludus_{alice}_"), &format!("ludus_{bob}_"), 1);
    assert_eq!(
        s.get("/api/me", Some(&forged)).await.0,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_disabled_account_is_refused_and_its_bots_play_on() {
    let s = server(|_| {});
    let (status, body) = s.upload("alices", Some(&s.alice), bot("a", false)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let mut b = Browser::default();
    assert_eq!(
        b.sign_in(&s, "alice", "x").await.status,
        StatusCode::UNAUTHORIZED
    );
    s.sign_in("alice").await;
    assert_eq!(
        b.sign_in(&s, "alice", PASSWORD).await.status,
        StatusCode::SEE_OTHER
    );
    assert_eq!(signed_in_as(&b.get(&s, "/").await.body), Some("alice"));

    let disable = |on: bool| {
        let st = s.state.clone();
        async move {
            st.with_store(move |st| {
                Ok(ludus_leaderboard::accounts::set_disabled(st, "alice", on).unwrap())
            })
            .await
            .unwrap()
        }
    };
    assert_eq!(disable(true).await, ("alice".to_string(), true));
    assert!(!disable(true).await.1, "disabled already");
    assert_eq!(
        signed_in_as(&b.get(&s, "/").await.body),
        None,
        "the session ended"
    );
    let (status, body) = s.get("/api/me", Some(&s.alice)).await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (StatusCode::UNAUTHORIZED, "account_disabled")
    );
    let a = b.sign_in(&s, "alice", PASSWORD).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert!(a.body.contains("disabled by the server"), "{}", a.body);
    // Its bot is neither retired nor hidden.
    let (_, body) = s.get("/api/bots/alices", None).await;
    assert_eq!(
        (
            json(&body)["retired"].as_bool(),
            json(&body)["owner"].as_str()
        ),
        (Some(false), Some("alice")),
        "{body}"
    );

    // Enabled again: the tokens sign in again, the ended session does not.
    let old = b.clone();
    assert!(disable(false).await.1);
    assert_eq!(s.get("/api/me", Some(&s.alice)).await.0, StatusCode::OK);
    assert_eq!(signed_in_as(&old.clone().get(&s, "/").await.body), None);
}
