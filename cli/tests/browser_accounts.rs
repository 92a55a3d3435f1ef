//! Accounts in a real browser: a `ludus serve --signup invite` process and
//! headless Chromium doing what a person does with the pages' forms. It
//! signs up with a code of `ludus user invite`, signs out and in again,
//! uploads an example bot through the upload form and reads its validation
//! report, finds the bot on its game's leaderboard, opens its page and one
//! of its matches, signs out with the navigation's button, has a form that
//! another origin posts to the server refused, and meets the limit on
//! sign-in attempts. No page logs a console error or throws; the main
//! pages' screenshots at a desktop's and a phone's width are not blank, no
//! wider than the screen, and every control on them has a label and is
//! within the Tab key's reach. It
//! prints the sign-in and upload round trips as the browser measured them
//! (`docs/benchmarks.md`, "Accounts in the browser").

mod common;

use common::{ludus, serve, text, Serving};
use ludus_testkit::cdp::{Browser, Page};
use serde_json::json;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const NAME: &str = "ada";
const PASSWORD: &str = "tidy violet kettle drum";
const BOT: &str = "ada-expander";
const GAME: &str = "planet-wars";
/// Short Planet Wars matches: the uploaded bot's first match ends soon.
const GAME_CONFIG: &str = r#"planet-wars={"max_turns": 100}"#;

/// CSS pixels wide and high, and device pixels per CSS pixel.
type Size = (u32, u32, f64);
const DESKTOP: Size = (1280, 800, 1.0);
const PHONE: Size = (390, 844, 2.0);

/// A string as a JavaScript literal.
fn js(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// Where the page is, for messages.
fn here(page: &mut Page<'_>) -> String {
    page.eval("location.href")
        .as_str()
        .unwrap_or("?")
        .to_string()
}

/// Fails on any console error, uncaught exception or error log entry of
/// the page so far; `what` names the step.
fn no_errors(page: &mut Page<'_>, what: &str) {
    let errors = std::mem::take(&mut page.errors);
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

/// Types `value` into the field `selector`, as a keyboard does (the
/// browser's own text insertion, with its input events).
fn type_into(page: &mut Page<'_>, selector: &str, value: &str) {
    let found = page.eval(&format!(
        "(() => {{ const e = document.querySelector({}); if (!e) return false; \
         e.focus(); e.select(); return document.activeElement === e; }})()",
        js(selector)
    ));
    assert_eq!(found, json!(true), "no field {selector} on {}", here(page));
    page.call("Input.insertText", json!({ "text": value }));
    let typed = page.eval(&format!("document.querySelector({}).value", js(selector)));
    assert_eq!(typed, json!(value), "{selector}");
}

/// Clicks the middle of the element `selector` with the mouse.
fn click_on(page: &mut Page<'_>, selector: &str) {
    let at = page.eval(&format!(
        "(() => {{ const e = document.querySelector({}); if (!e) return null; \
         e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
         return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
        js(selector)
    ));
    let Some([x, y]) = at
        .as_array()
        .map(|a| [a[0].as_f64().unwrap(), a[1].as_f64().unwrap()])
    else {
        panic!("nothing to click at {selector} on {}", here(page));
    };
    page.click(x, y);
}

/// A page a click opened, and its navigation as the browser measured it
/// (Navigation Timing): milliseconds from its start (the click that sent a
/// form) to the end of the page's load event, its HTTP status and
/// redirects; and the time from the click to the load event on the test's
/// clock.
#[derive(Debug)]
struct Arrived {
    loaded_ms: f64,
    status: u64,
    redirects: u64,
    took: Duration,
}

/// Clicks `selector`, which opens a page, and waits for it to load; it is
/// at `path`.
fn follow(page: &mut Page<'_>, selector: &str, path: &str) -> Arrived {
    let clicked = Instant::now();
    click_on(page, selector);
    page.wait_for_load(&format!("the page {selector} opens"));
    let took = clicked.elapsed();
    let timing = "performance.getEntriesByType('navigation')[0]";
    page.wait_for(
        &format!("{timing}.loadEventEnd > 0"),
        Duration::from_secs(5),
    );
    assert_eq!(page.eval("location.pathname"), path, "{}", here(page));
    let n = page.eval(&format!(
        "(n => [n.loadEventEnd, n.responseStatus, n.redirectCount])({timing})"
    ));
    Arrived {
        loaded_ms: n[0].as_f64().unwrap(),
        status: n[1].as_u64().unwrap(),
        redirects: n[2].as_u64().unwrap(),
        took,
    }
}

/// The page's visible text.
fn body_text(page: &mut Page<'_>) -> String {
    page.eval("document.body.innerText")
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// Who the navigation says is signed in: `Some(name)`, or `None` when it
/// offers to sign in instead.
fn signed_in_as(page: &mut Page<'_>) -> Option<String> {
    let who = page.eval(
        "(() => { const w = document.querySelector('nav .who'); \
         const signin = document.querySelector('nav a[href=\"/signin\"]'); \
         return w ? w.textContent : (signin ? null : 'neither'); })()",
    );
    who.as_str().map(|w| {
        w.strip_prefix("Signed in as ")
            .unwrap_or_else(|| panic!("the navigation says `{w}`"))
            .to_string()
    })
}

/// Signs out with the navigation's button; the browser lands on the
/// games, signed out.
fn sign_out(page: &mut Page<'_>) {
    let out = follow(page, "nav form[action=\"/signout\"] button", "/");
    assert_eq!((out.status, out.redirects), (200, 1), "{out:?}");
    assert_eq!(signed_in_as(page), None);
    no_errors(page, "signing out");
}

/// Signs in on the sign-in page the browser is at; lands on `/account`.
fn sign_in(page: &mut Page<'_>) -> Arrived {
    type_into(page, "#name", NAME);
    type_into(page, "#password", PASSWORD);
    let done = follow(
        page,
        "form[action=\"/signin\"] button[type=submit]",
        "/account",
    );
    assert_eq!((done.status, done.redirects), (200, 1), "{done:?}");
    assert_eq!(signed_in_as(page).as_deref(), Some(NAME));
    no_errors(page, "signing in");
    done
}

/// The width and height of the PNG `file`, and the share of its pixels
/// unlike the top-left one (0 for a page of one colour).
fn drawn(file: &Path) -> (u32, u32, f64) {
    let decoder = png::Decoder::new(std::fs::File::open(file).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let px = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(px).collect();
    let first = pixels[0];
    let unlike = pixels.iter().filter(|p| **p != first).count();
    (info.width, info.height, unlike as f64 / pixels.len() as f64)
}

/// Sets the page's size, as a desktop's window or, with more than one
/// device pixel to a CSS pixel, a phone's screen (which reads the pages'
/// viewport tag).
fn resize(page: &mut Page<'_>, (width, height, scale): Size) {
    page.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": width, "height": height, "deviceScaleFactor": scale, "mobile": scale > 1.0}),
    );
}

/// Opens each of `pages` at `size` and saves its screenshot in `dir` as
/// `<tag>-<page>.png`: of the size asked, not of one colour, the page no
/// wider than the screen; no console error on any.
fn screenshots(page: &mut Page<'_>, dir: &Path, tag: &str, size: Size, pages: &[(&str, String)]) {
    resize(page, size);
    for (what, url) in pages {
        page.navigate(url);
        if *what == "match" {
            page.wait_for(
                "window.Ludus !== undefined && Ludus.ready === true",
                Duration::from_secs(30),
            );
        }
        // Two frames drawn after the load: the screenshot shows the page laid out.
        page.eval(
            "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
        );
        let wide = page.eval("[document.documentElement.scrollWidth, window.innerWidth]");
        assert!(
            wide[0].as_u64().unwrap() <= wide[1].as_u64().unwrap(),
            "{tag} {what}: the page is wider than the screen ({wide})"
        );
        let file = dir.join(format!("{tag}-{what}.png"));
        page.screenshot(&file);
        let (w, h, share) = drawn(&file);
        let (width, height, scale) = size;
        assert_eq!(
            (w, h),
            (
                (width as f64 * scale) as u32,
                (height as f64 * scale) as u32
            ),
            "{tag} {what}"
        );
        assert!(
            share > 0.005,
            "{tag} {what}: the screenshot is blank ({share})"
        );
        no_errors(page, &format!("{tag} {what} ({url})"));
        assert_eq!(
            keyboard_gaps(page),
            json!([]),
            "{tag} {what}: controls without a label, or out of the keyboard's reach"
        );
    }
    resize(page, DESKTOP);
}

/// The page's form controls without a label (a `<label>`, or an
/// `aria-label` where none can be seen), its buttons and links without a
/// name, and whatever of them the Tab key cannot reach: empty for a page
/// a person can use by keyboard and with a screen reader.
fn keyboard_gaps(page: &mut Page<'_>) -> serde_json::Value {
    page.eval(
        "[...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea')]
            .filter(e => {
                const named = e.getAttribute('aria-label') || e.getAttribute('aria-labelledby');
                const unnamed = ['A', 'BUTTON'].includes(e.tagName)
                    ? !(e.textContent.trim() || named || e.querySelector('img[alt]'))
                    : !((e.labels && e.labels.length) || named);
                return unnamed || e.tabIndex < 0;
            })
            .map(e => e.outerHTML.slice(0, 160))",
    )
}

/// Another site: a page on another origin whose form posts the account's
/// name and password, and a made-up token, to the Ludus server's sign-in.
/// Served on a loopback port of its own, for as long as the test runs.
fn other_site(ludus_url: &str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let page = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Another site</title>\
         <link rel=\"icon\" href=\"data:,\"></head><body>\
         <form method=\"post\" action=\"{ludus_url}/signin\">\
         <input type=\"hidden\" name=\"name\" value=\"{NAME}\">\
         <input type=\"hidden\" name=\"password\" value=\"{PASSWORD}\">\
         <input type=\"hidden\" name=\"csrf\" value=\"{token}\">\
         <button id=\"go\" type=\"submit\">Claim your prize</button></form></body></html>",
        token = "0".repeat(64)
    );
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let page = page.clone();
            std::thread::spawn(move || answer(stream, &page));
        }
    });
    port
}

/// Reads a request's head and answers it with `page`.
fn answer(mut stream: TcpStream, page: &str) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&buf[..n]),
        }
    }
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{page}",
        page.len()
    );
}

/// A one-time invitation code, as the operator gets it.
fn invite(dir: &Path) -> String {
    let o = ludus(&["user", "invite", "--db", "ludus.db"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let code = String::from_utf8(o.stdout).unwrap().trim().to_string();
    assert!(
        !code.is_empty() && !code.contains(char::is_whitespace),
        "{code:?}"
    );
    code
}

/// The median of `ms`.
fn median(mut ms: Vec<f64>) -> f64 {
    ms.sort_by(f64::total_cmp);
    ms[ms.len() / 2]
}

#[test]
fn a_person_signs_up_with_an_invite_uploads_a_bot_and_a_form_from_elsewhere_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let shots: PathBuf = d.join("screenshots");
    // Two opponents, stored by the operator.
    for b in ["planet_wars_random", "planet_wars_idle"] {
        common::submit_game(d, "ludus.db", b, b, GAME);
    }
    let code = invite(d);
    let wasm = ludus_testkit::example_bots_folder().join("planet_wars_expander.wasm");
    let server: Serving = serve(
        d,
        &[
            "--db",
            "ludus.db",
            "--workers",
            "2",
            "--signup",
            "invite",
            "--game-config",
            GAME_CONFIG,
        ],
    );
    let url = server.url.clone();
    let mut browser = Browser::launch();
    let (w, h, scale) = DESKTOP;
    let mut page = browser.page(w, h, scale);

    // Sign up with the invitation: signed in at once, on one's own page.
    page.navigate(&format!("{url}/"));
    assert_eq!(signed_in_as(&mut page), None);
    let signup = follow(&mut page, "nav a[href=\"/signup\"]", "/signup");
    assert_eq!(signup.status, 200);
    type_into(&mut page, "#name", NAME);
    type_into(&mut page, "#password", PASSWORD);
    type_into(&mut page, "#password2", PASSWORD);
    type_into(&mut page, "#invite", &code);
    let made = follow(
        &mut page,
        "form[action=\"/signup\"] button[type=submit]",
        "/account",
    );
    assert_eq!((made.status, made.redirects), (200, 1), "{made:?}");
    assert_eq!(signed_in_as(&mut page).as_deref(), Some(NAME));
    assert_eq!(
        page.eval("document.querySelector('h1').textContent"),
        "My bots"
    );
    assert!(body_text(&mut page).contains("You have no bots yet"));
    no_errors(&mut page, "signing up");

    // Out, and in again through the sign-in page (three times, for the
    // round trip's figure); the account page sends a visitor to sign in
    // and back.
    let mut sign_ins = Vec::new();
    for _ in 0..3 {
        sign_out(&mut page);
        page.navigate(&format!("{url}/account"));
        assert_eq!(
            page.eval("location.pathname + location.search"),
            "/signin?next=%2Faccount"
        );
        sign_ins.push(sign_in(&mut page));
    }
    for s in &sign_ins {
        eprintln!(
            "sign-in round trip (form sent → /account loaded): {:.0} ms in the browser's Navigation Timing, {:.0} ms on the test's clock",
            s.loaded_ms,
            s.took.as_secs_f64() * 1e3
        );
    }

    // Upload the expander through the form; its validation report.
    let upload = follow(&mut page, "nav a[href=\"/upload\"]", "/upload");
    assert_eq!(upload.status, 200);
    let chose = page.eval(&format!(
        "(() => {{ const s = document.getElementById('game'); s.focus(); s.value = {}; \
         s.dispatchEvent(new Event('change', {{bubbles: true}})); return s.value; }})()",
        js(GAME)
    ));
    assert_eq!(chose, GAME);
    type_into(&mut page, "#name", BOT);
    page.set_file_input("#wasm", &wasm);
    // The page's script saw the file chosen.
    page.wait_for(
        "document.getElementById('chosen').textContent === 'planet_wars_expander.wasm'",
        Duration::from_secs(5),
    );
    let uploaded = follow(&mut page, "form.upload button[type=submit]", "/upload");
    eprintln!(
        "upload round trip (form sent → validation report shown): {:.0} ms in the browser's Navigation Timing, {:.0} ms on the test's clock",
        uploaded.loaded_ms,
        uploaded.took.as_secs_f64() * 1e3
    );
    assert_eq!(uploaded.status, 200, "{}", body_text(&mut page));
    let stored = page.eval("document.querySelector('section.stored h2').textContent");
    assert_eq!(stored, format!("Stored as {BOT} v1"));
    let said = body_text(&mut page);
    assert!(
        said.contains(&format!("passed its validation match of {GAME}")),
        "{said}"
    );
    let report = page.eval("document.querySelector('section.stored details pre').textContent");
    let report = report.as_str().unwrap();
    assert!(
        report.starts_with(GAME) && report.contains("fuel"),
        "{report}"
    );
    page.screenshot(&shots.join("desktop-upload-report.png"));
    no_errors(&mut page, "uploading");

    // The bot on the leaderboard, its owner named, once its ladder takes it.
    page.navigate(&format!("{url}/games/{GAME}"));
    page.wait_for(
        &format!(
            "[...document.querySelectorAll('#board tbody tr')].some(tr => \
             tr.cells[1].querySelector('a')?.textContent === {} && tr.cells[3].textContent === {})",
            js(BOT),
            js(NAME)
        ),
        Duration::from_secs(30),
    );
    no_errors(&mut page, "the leaderboard");

    // Its page, from the leaderboard's link, until a match of it is played.
    let bot_path = format!("/bots/{BOT}");
    follow(
        &mut page,
        &format!("#board a[href=\"{bot_path}\"]"),
        &bot_path,
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while page.eval("document.querySelector('#bot-matches a[href^=\"/matches/\"]') !== null")
        != json!(true)
    {
        assert!(
            Instant::now() < deadline,
            "no match of {BOT} on its page: {}",
            body_text(&mut page)
        );
        std::thread::sleep(Duration::from_millis(500));
        page.navigate(&format!("{url}{bot_path}"));
    }
    assert!(body_text(&mut page).contains(&format!("uploaded by {NAME}")));
    no_errors(&mut page, "the bot's page");

    // One of its matches, in the site's frame with the viewer.
    let match_path = page
        .eval("document.querySelector('#bot-matches a[href^=\"/matches/\"]').getAttribute('href')");
    let match_path = match_path.as_str().unwrap().to_string();
    follow(
        &mut page,
        "#bot-matches a[href^=\"/matches/\"]",
        &match_path,
    );
    page.wait_for(
        "window.Ludus !== undefined && Ludus.ready === true",
        Duration::from_secs(30),
    );
    let framed = page.eval(&format!(
        "document.querySelector('nav.site a[href=\"/games/{GAME}\"]') !== null \
         && document.querySelector('nav.site a[href={}]') !== null",
        js(&bot_path)
    ));
    assert_eq!(framed, json!(true), "the match page's navigation");
    no_errors(&mut page, "the match page");

    // The bot on its owner's page.
    page.navigate(&format!("{url}/account"));
    let mine =
        page.eval("[...document.querySelectorAll('section.bot h2 a')].map(a => a.textContent)");
    assert_eq!(mine, json!([BOT]));
    no_errors(&mut page, "the account page");

    // The main pages at a desktop's and a phone's width.
    let pages = [
        ("index", format!("{url}/")),
        ("game", format!("{url}/games/{GAME}")),
        ("rules", format!("{url}/games/{GAME}/rules")),
        ("upload", format!("{url}/upload")),
        ("account", format!("{url}/account")),
        ("bot", format!("{url}{bot_path}")),
        ("match", format!("{url}{match_path}")),
    ];
    screenshots(&mut page, &shots, "desktop", DESKTOP, &pages);
    screenshots(&mut page, &shots, "phone", PHONE, &pages);

    // Signed out, a form another origin posts is refused, for its
    // origin before its token: from another site (localhost), which the
    // browser says, and from another origin of the same site (the same
    // address, another port), whose requests carry the site's cookies.
    page.navigate(&format!("{url}/account"));
    sign_out(&mut page);
    let port = other_site(&url);
    for (host, why) in [
        ("localhost", "was sent by a page of another site"),
        ("127.0.0.1", "comes from another origin than this server's"),
    ] {
        page.navigate(&format!("http://{host}:{port}/"));
        let refused = follow(&mut page, "#go", "/signin");
        let at = page.eval("location.origin");
        assert_eq!(at, json!(url), "{host}");
        let said = body_text(&mut page);
        assert_eq!(refused.status, 403, "from {host}: {said}");
        assert!(
            said.contains(&format!("this form {why}, so it is refused")),
            "from {host}: {said}"
        );
        assert_eq!(signed_in_as(&mut page), None, "from {host}");
        // The browser logs the refusal itself, and nothing else.
        let errors = std::mem::take(&mut page.errors);
        assert_eq!(
            errors,
            ["log: Failed to load resource: the server responded with a status of 403 (Forbidden)"],
            "the form from {host}"
        );
    }
    // Nobody was signed in by it.
    page.navigate(&format!("{url}/account"));
    assert_eq!(page.eval("location.pathname"), "/signin");
    no_errors(&mut page, "signed out");

    // The sign-in limit: ten attempts a minute for a name (an unknown one
    // too), then refused until the minute refills it, a sixth of a minute
    // an attempt.
    let started = Instant::now();
    let mut wrong = Vec::new();
    let refused_at = loop {
        type_into(&mut page, "#name", "nobody-here");
        type_into(&mut page, "#password", "not the password at all");
        let a = follow(
            &mut page,
            "form[action=\"/signin\"] button[type=submit]",
            "/signin",
        );
        let said = body_text(&mut page);
        let errors = std::mem::take(&mut page.errors);
        let logged = |status: &str| {
            vec![format!(
                "log: Failed to load resource: the server responded with a status of {status}"
            )]
        };
        match a.status {
            401 => {
                assert!(said.contains("wrong account name or password"), "{said}");
                assert_eq!(errors, logged("401 (Unauthorized)"));
                wrong.push(a.loaded_ms);
            }
            429 => {
                assert!(said.contains("too many sign-in attempts"), "{said}");
                assert_eq!(errors, logged("429 (Too Many Requests)"));
                break wrong.len() + 1;
            }
            s => panic!("a wrong password answered {s}: {said}"),
        }
        assert!(wrong.len() < 20, "twenty wrong passwords taken");
    };
    let refilled = (started.elapsed().as_secs_f64() / 6.0) as usize;
    assert!(
        (11..=11 + refilled).contains(&refused_at),
        "refused at attempt {refused_at}, {refilled} attempts refilled meanwhile"
    );
    eprintln!(
        "sign-in of an unknown name (form sent → refusal shown), median of {}: {:.0} ms; refused at attempt {refused_at}",
        wrong.len(),
        median(wrong)
    );

    eprintln!(
        "sign-in round trip, median of {}: {:.0} ms",
        sign_ins.len(),
        median(sign_ins.iter().map(|s| s.loaded_ms).collect())
    );
}
