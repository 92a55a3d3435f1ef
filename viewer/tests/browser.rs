//! The viewer in a real browser: headless Chromium (Debian's `chromium`,
//! installed when missing) loads generated pages, plays them with the keys a
//! person uses, and checks what is shown. Screenshots and the pages go to
//! `target/browser-artifacts/`.

use ludus_host::{BotModule, Limits, MatchSpec, Replay, Sandbox, SandboxOptions};
use ludus_testkit::cdp::{Browser, Page};
use ludus_viewer::{named_replay_page, replay_page, Embed, RENDERERS};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// One browser at a time: the machine has two cores.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn artifacts() -> PathBuf {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
        .join("browser-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    // Chromium takes files by plain absolute paths.
    dir.canonicalize().unwrap()
}

fn sandbox() -> &'static Sandbox {
    static SANDBOX: OnceLock<Sandbox> = OnceLock::new();
    SANDBOX.get_or_init(|| {
        Sandbox::with_options(SandboxOptions {
            cache_dir: Some(ludus_testkit::workspace_root().join("target/module-cache")),
            ..SandboxOptions::default()
        })
        .expect("sandbox")
    })
}

fn bot(name: &str) -> Arc<BotModule> {
    sandbox()
        .load_file(&ludus_testkit::bot(name))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn play(game: &str, config: Value, seed: u64, bots: Vec<Arc<BotModule>>) -> Replay {
    ludus_host::play(&MatchSpec {
        game: game.into(),
        config,
        seed,
        limits: Limits::default(),
        bots,
    })
    .expect("the match is played")
}

/// A short match of `game` between its example bots (`<game>_*.wasm`, the
/// idle one last), as many seats as the game needs at least.
fn example_match(game: &ludus_engine::GameInfo) -> Replay {
    let names = ludus_testkit::example_bots(game.id);
    assert!(
        !names.is_empty(),
        "{} has no example bots (example-bots/examples/{}_*.rs) to play it with",
        game.id,
        game.id.replace('-', "_")
    );
    let seats = game.fewest_seats();
    let bots = (0..seats).map(|i| bot(&names[i % names.len()])).collect();
    // Short matches keep the suite quick; other games play their default length.
    let config = match game.id {
        "planet-wars" => json!({"max_turns": 120}),
        "pirates" => json!({"max_turns": 240}),
        _ => Value::Null,
    };
    play(game.id, config, 3, bots)
}

fn write_page(name: &str, replay: &Replay, embed: Embed) -> PathBuf {
    let (html, notes) = replay_page(replay, embed);
    assert!(notes.is_empty(), "{name}: {notes:?}");
    let path = artifacts().join(format!("{name}.html"));
    std::fs::write(&path, html).unwrap();
    path
}

fn url(path: &Path, turn: u32) -> String {
    format!("file://{}#t={turn}", path.display())
}

/// Waits until the player is idle (not playing, no step moving) and the
/// browser has drawn it.
fn settle(page: &mut Page) {
    page.wait_for(
        "Ludus.ready === true && !Ludus.player.playing && Ludus.player.stepAnimation == null",
        Duration::from_secs(20),
    );
    page.eval(
        "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))",
    );
}

/// Keeps the board's pixels in the page under `key`.
fn snapshot(page: &mut Page, key: &str) {
    page.eval(&format!(
        "(() => {{ const c = document.getElementById('board');
                   window['{key}'] = c.getContext('2d').getImageData(0, 0, c.width, c.height); return true; }})()"
    ));
}

/// Pixels that differ between two snapshots, leaving out the corner where
/// the turn number is written (so a changed number alone does not count).
fn changed_pixels(page: &mut Page, a: &str, b: &str) -> u64 {
    page.eval(&format!(
        "(() => {{ const a = window['{a}'], b = window['{b}'];
                   if (a.width !== b.width || a.height !== b.height) return -1;
                   const dpr = window.devicePixelRatio, w = a.width; let n = 0;
                   for (let i = 0; i < a.data.length; i += 4) {{
                     const p = i / 4, x = p % w, y = (p - x) / w;
                     if (x < 140 * dpr && y < 30 * dpr) continue;
                     if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1] ||
                         a.data[i + 2] !== b.data[i + 2] || a.data[i + 3] !== b.data[i + 3]) n++;
                   }}
                   return n; }})()"
    ))
    .as_i64()
    .expect("a count") as u64
}

fn shown_scores(page: &mut Page) -> Vec<f64> {
    page.eval(
        "[...document.querySelectorAll('#scoreboard [data-role=score]')].map(c => c.dataset.value)",
    )
    .as_array()
    .unwrap()
    .iter()
    .map(|v| v.as_str().unwrap().parse::<f64>().expect("a number"))
    .collect()
}

fn turn(page: &mut Page) -> u64 {
    page.eval("Ludus.player.turn").as_u64().unwrap()
}

/// Loads a replay page, plays it through with the keyboard at 16×, and
/// checks what a watcher sees on the way and at the end.
fn watch_to_the_end(page: &mut Page, name: &str, path: &Path, replay: &Replay) {
    let last = replay.turns.len() as u64;
    assert!(
        last >= 3,
        "{name}: a match of {last} turns is too short to watch"
    );
    page.navigate(&url(path, 0));
    settle(page);
    assert_eq!(
        page.eval("Ludus.player.last").as_u64(),
        Some(last),
        "{name}"
    );
    // Sharp on high-DPI screens: the canvas has a pixel per device pixel.
    assert_eq!(
        page.eval("(() => { const c = document.getElementById('board'); return c.width === Math.round(c.getBoundingClientRect().width * devicePixelRatio) && devicePixelRatio === 2; })()"),
        json!(true),
        "{name}: the canvas follows devicePixelRatio"
    );
    page.screenshot(&artifacts().join(format!("{name}-1-start.png")));
    snapshot(page, "start");

    // One turn forward with the arrow key, animated, changes the board.
    page.press("ArrowRight", "ArrowRight", 39, false);
    settle(page);
    assert_eq!(turn(page), 1, "{name}: → goes one turn forward");
    snapshot(page, "one");
    let changed = changed_pixels(page, "start", "one");
    assert!(
        changed > 0,
        "{name}: the board did not change from turn 0 to 1"
    );

    // The turn in the address opens that turn.
    let mid = last / 2;
    page.eval(&format!("location.hash = '#t={mid}'; true"));
    page.wait_for(
        &format!("Ludus.player.turn === {mid}"),
        Duration::from_secs(5),
    );
    settle(page);
    snapshot(page, "mid");
    assert!(
        changed_pixels(page, "one", "mid") > 0,
        "{name}: the board did not change from turn 1 to {mid}"
    );
    page.screenshot(&artifacts().join(format!("{name}-2-turn-{mid}.png")));

    // Shift+← goes back ten.
    page.press("ArrowLeft", "ArrowLeft", 37, true);
    settle(page);
    assert_eq!(
        turn(page),
        mid.saturating_sub(10),
        "{name}: Shift+← goes back ten turns"
    );

    // Home, 16×, play: the turns go by, and it stops at the last one.
    page.press("Home", "Home", 36, false);
    for _ in 0..4 {
        page.press("+", "Equal", 187, false);
    }
    assert_eq!(
        page.eval("Ludus.player.speed"),
        json!(16),
        "{name}: + doubles the speed up to 16×"
    );
    settle(page);
    page.press(" ", "Space", 32, false);
    let start = Instant::now();
    let mut seen = vec![turn(page)];
    let mut shot = false;
    while page.eval("Ludus.player.playing") == json!(true) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{name}: playing never ended"
        );
        let t = turn(page);
        assert!(t >= *seen.last().unwrap(), "{name}: playing went backwards");
        if t != *seen.last().unwrap() {
            seen.push(t);
        }
        if !shot && t >= last / 3 {
            page.screenshot(&artifacts().join(format!("{name}-3-playing.png")));
            shot = true;
        }
        std::thread::sleep(Duration::from_millis(40));
    }
    assert!(
        seen.len() >= 3,
        "{name}: playing showed only turns {seen:?}"
    );
    settle(page);

    // The end: the scrubber at the last turn, the replay's scores and result.
    assert_eq!(turn(page), last, "{name}: playing stops at the last turn");
    assert_eq!(
        page.eval("[Number(document.getElementById('scrubber').value), Number(document.getElementById('scrubber').max)]"),
        json!([last, last]),
        "{name}: the scrubber reaches the last turn"
    );
    let final_scores = &replay.turns.last().unwrap().scores;
    assert_eq!(
        &shown_scores(page),
        final_scores,
        "{name}: the scoreboard shows the replay's final scores"
    );
    let result = page.eval("document.getElementById('result').textContent");
    let reason = &replay.outcome.as_ref().expect("finished").reason;
    assert!(
        result.as_str().unwrap().contains(reason.as_str()),
        "{name}: the result `{result}` says why the match ended: {reason}"
    );
    assert_eq!(
        page.eval("location.hash"),
        json!(format!("#t={last}")),
        "{name}"
    );
    page.screenshot(&artifacts().join(format!("{name}-4-end.png")));
    snapshot(page, "end");
    assert!(
        changed_pixels(page, "mid", "end") > 0 || mid == last,
        "{name}: the board did not change after playing"
    );
}

#[test]
fn every_game_plays_in_the_browser_to_its_final_score() {
    let _one = one_at_a_time();
    let mut browser = Browser::launch();
    for game in ludus_engine::games() {
        let replay = example_match(game);
        let path = write_page(game.id, &replay, Embed::Auto);
        let mut page = browser.page(1280, 900, 2.0);
        watch_to_the_end(&mut page, game.id, &path, &replay);
        if RENDERERS.iter().any(|(g, _)| *g == game.id) {
            assert_eq!(
                page.eval("Ludus.player.rendererName"),
                json!(game.id),
                "viewer/assets/games/{}.js does not accept {}'s observations",
                game.id,
                game.id
            );
        }
        assert!(page.errors.is_empty(), "{}: {:#?}", game.id, page.errors);
    }
}

/// A bot that always answers a move from a planet that does not exist.
fn refused_bot() -> Arc<BotModule> {
    let answer = r#"{"moves":[{"origin":"nowhere","destination":"nowhere","ship_count":1}]}"#;
    let wat = format!(
        r#"(module
             (memory (export "memory") 1)
             (data (i32.const 1024) "{}")
             (func (export "ludus_alloc") (param i32) (result i32) (i32.const 4096))
             (func (export "act") (param i32 i32) (result i64)
               (i64.or (i64.shl (i64.const 1024) (i64.const 32)) (i64.const {}))))"#,
        answer.replace('"', "\\\""),
        answer.len()
    );
    sandbox()
        .load("nowhere", &wat::parse_str(wat).unwrap())
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn faults_refusals_and_logs_show_in_each_seats_turn_log() {
    let replay = play(
        "planet-wars",
        json!({"max_turns": 30}),
        5,
        vec![
            bot("planet_wars_expander"),
            bot("panic_in_act"),
            refused_bot(),
            bot("stdout_flood"),
        ],
    );
    let first_fault = replay.turns[0].seats[1]
        .fault
        .clone()
        .expect("panic_in_act faults");
    let refusal = replay.turns[0].seats[2]
        .refused
        .first()
        .cloned()
        .expect("a refusal");
    let _one = one_at_a_time();
    let path = write_page("planet-wars-faults", &replay, Embed::Json);
    let mut browser = Browser::launch();
    let mut page = browser.page(1280, 900, 1.0);
    page.navigate(&url(&path, 1));
    settle(&mut page);
    assert_eq!(turn(&mut page), 1, "#t=1 opens turn 1");
    let log_text = |page: &mut Page, seat: u32| -> String {
        page.eval(&format!(
            "document.querySelector('#log-tabs [data-seat=\"{seat}\"]').click(); \
             document.querySelector('#log-body tr.current').textContent"
        ))
        .as_str()
        .unwrap()
        .to_string()
    };
    let seat1 = log_text(&mut page, 1);
    assert!(
        seat1.contains(&format!("fault {}", first_fault.kind))
            && seat1.contains(&first_fault.message),
        "seat 1's log at turn 1 shows its fault: {seat1}"
    );
    let seat2 = log_text(&mut page, 2);
    assert!(
        seat2.contains(&refusal.kind) && seat2.contains(&refusal.reason),
        "seat 2's log shows the refusal with its reason: {seat2}"
    );
    assert!(seat2.contains("nowhere"), "and the answer: {seat2}");
    let seat3 = log_text(&mut page, 3);
    assert!(
        seat3.contains("xxxxxxxx"),
        "seat 3's log shows what the bot printed: {seat3}"
    );
    let status = page.eval(
        "document.querySelector('#scoreboard tr[data-seat=\"1\"] [data-role=status]').textContent",
    );
    assert!(
        status.as_str().unwrap().contains("fault"),
        "the scoreboard marks the fault: {status}"
    );
    // The seat that faulted ten times in a row is out, and says so.
    let out_turn = replay
        .turns
        .iter()
        .find(|t| t.seats[1].out)
        .expect("panic_in_act is out after ten faults")
        .turn;
    page.eval(&format!("Ludus.goTo({out_turn}); true"));
    let seat1 = log_text(&mut page, 1);
    assert!(seat1.contains("out of the match"), "{seat1}");
    page.screenshot(&artifacts().join("planet-wars-faults.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

#[test]
fn a_gzip_page_copies_states_jumps_from_charts_and_opens_dropped_replays() {
    let replay = play(
        "planet-wars",
        json!({"max_turns": 60}),
        11,
        vec![bot("planet_wars_expander"), bot("planet_wars_random")],
    );
    let frames = ludus_viewer::frames(&replay).unwrap();
    let _one = one_at_a_time();
    let path = write_page("planet-wars-gzip", &replay, Embed::Gzip);
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .contains("data-encoding=\"gzip-base64\""));
    let mut browser = Browser::launch();
    let mut page = browser.page(1200, 800, 1.0);
    page.navigate(&url(&path, 7));
    settle(&mut page);
    assert_eq!(turn(&mut page), 7, "the gzip page opens at #t=7");
    assert_eq!(page.eval("Ludus.player.rendererName"), json!("planet-wars"));

    // "copy view" of seat 1 copies what seat 1's bot was given after turn 7.
    page.eval("document.querySelector('#scoreboard tr[data-seat=\"1\"] button').click(); true");
    page.wait_for("Ludus.copied !== undefined", Duration::from_secs(5));
    assert_eq!(
        page.eval("Ludus.copied"),
        json!(frames[7].observations[1]),
        "the copied state is seat 1's observation"
    );
    assert_ne!(frames[7].observations[0], frames[7].observations[1]);

    // A click on a chart jumps to that turn.
    let rect = page.eval("(() => { const r = document.querySelector('#charts canvas').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()");
    let r: Vec<f64> = rect
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    page.click(r[0] + 4.0 + (r[2] - 8.0) * 0.75, r[1] + r[3] / 2.0);
    settle(&mut page);
    let expected = (0.75 * replay.turns.len() as f64).round() as u64;
    let t = turn(&mut page);
    assert!(
        t.abs_diff(expected) <= 1,
        "a click at 3/4 of the chart goes to turn {t}, not about {expected}"
    );

    // A replay file opened on the page (as a drop does) replaces the match:
    // no states in it, so the fallback draws, with the replay's scores.
    let other = play(
        "planet-wars",
        json!({"max_turns": 40}),
        12,
        vec![bot("planet_wars_random"), bot("planet_wars_expander")],
    );
    let file = artifacts().join("dropped-replay.json.gz");
    other.save(&file).unwrap();
    page.set_file_input("#open-file", &file);
    page.wait_for(
        &format!(
            "Ludus.player.doc && Ludus.player.doc.replay.match_id === '{}'",
            other.match_id
        ),
        Duration::from_secs(10),
    );
    assert_eq!(page.eval("Ludus.player.rendererName"), json!("fallback"));
    page.press("End", "End", 35, false);
    settle(&mut page);
    assert_eq!(turn(&mut page), other.turns.len() as u64);
    assert_eq!(shown_scores(&mut page), other.turns.last().unwrap().scores);
    let notes = page.eval("document.getElementById('notes').textContent");
    assert!(
        notes
            .as_str()
            .unwrap()
            .contains("records answers, not states"),
        "{notes}"
    );
    page.screenshot(&artifacts().join("planet-wars-dropped-replay.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

/// A viewer document of a made-up two-seat match of `game` whose states are
/// `views` (both seats see the same), for renderers of games this Ludus may
/// not have yet: they are written from the games' documented observations.
fn made_up_document(game: &str, views: &[Value]) -> String {
    let turns: Vec<Value> = (1..views.len())
        .map(|t| {
            json!({"turn": t, "seats": [{"answer": "STAY", "fuel": 1000}, {"answer": "STAY", "fuel": 900}],
                   "scores": [t as f64, 1.0], "state_hash": ""})
        })
        .collect();
    let frames: Vec<Value> = views
        .iter()
        .enumerate()
        .map(|(t, v)| json!({"turn": t, "scores": [t as f64, 1.0], "observations": [v.to_string(), v.to_string()]}))
        .collect();
    json!({
        "format": "ludus-viewer", "format_version": 1, "notes": [], "frames": frames,
        "replay": {"format": "ludus-replay", "format_version": 1, "ludus_version": "0", "wasmtime_version": "0",
                   "match_id": format!("made-up-{game}"), "game": game, "rules_version": 1, "config": null,
                   "setup": null, "seed": 1, "limits": {},
                   "seats": [{"name": "a", "sha256": "00"}, {"name": "b", "sha256": "11"}],
                   "initial_state_hash": "", "turns": turns,
                   "outcome": {"scores": [1.0, 0.0], "placements": [1, 2], "reason": "made up"}}
    })
    .to_string()
}

fn kore_view(t: usize) -> Value {
    let kore: Vec<f64> = (0..25)
        .map(|i| ((i * 7 + t * 3) % 11) as f64 * 1.5)
        .collect();
    json!({"observation": {"kore": kore, "player": 0, "step": t,
             "players": [[500.0 + t as f64, {"0-1": [6, 10 + t, t]}, {"1-1": [7 + t, 5.0, 3, 1, "E"]}],
                         [480.0, {"0-2": [18, 4, t]}, {"2-1": [(20 - 5 * t) % 25, 0.0, 8, 0, ""]}]]},
           "configuration": {"size": 5}})
}

fn halite_view(t: usize) -> Value {
    let halite: Vec<f64> = (0..25).map(|i| ((i * 5 + t) % 9) as f64 * 20.0).collect();
    json!({"observation": {"halite": halite, "player": 0, "step": t,
             "players": [[5000, {"0-1": 6}, {"0-2": [7 + t, 10 * t]}], [4000, {}, {"0-3": [18 - t, 0]}]]},
           "configuration": {"size": 5}})
}

fn grid_view(t: usize) -> Value {
    let owner: Vec<Vec<i64>> = (0..3)
        .map(|y| {
            (0..4)
                .map(|x| {
                    if x <= t && y == 0 {
                        0
                    } else if x == 3 {
                        1
                    } else {
                        -1
                    }
                })
                .collect()
        })
        .collect();
    json!({"turn": t, "width": 4, "height": 3, "owner": owner, "priority_seat": t % 2,
           "walls": [[1, 1]], "pads": [[[0, 0], [0, 1]], [[3, 2], [3, 1]]],
           "values": [[1, 2, 2, 1], [2, 3, 3, 2], [1, 2, 2, 1]],
           "levels": [[2, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]],
           "bots": [{"id": 0, "position": [t, 0], "home": [0, 0], "capture_target": [t + 1, 0],
                     "trail": [[0, 0], [t, 1]], "alive": true, "shielded": t == 1},
                    {"id": 1, "position": [3, 2 - t], "home": [3, 2], "capture_target": null,
                     "trail": [], "alive": true, "frozen": t == 2}]})
}

fn pirates_view(t: usize) -> Value {
    let t = t as i64;
    let ship = |id: u8, q: i64, r: i64, health: i64| {
        json!({"id": id, "q": q, "r": r, "s": -q - r, "health": health, "maxHealth": 400,
               "cannons": 100, "gold": 100 * t, "potNums": 0, "illegalMoves": 0,
               "paralyzed": t == 2, "whirlpoolDuration": if t == 2 { 3 } else { 0 }, "sight": 5})
    };
    json!({"move": t, "movesLeft": 10 - t, "yourId": 1, "toMove": 1 + t % 2,
           "map": {"radius": 3, "islands": [[0, 0, 0], [2, -1, -1], [-2, 1, 1]],
                   "shops": [[2, -1, -1]], "flagIslands": [[0, 0, 0], [-2, 1, 1]],
                   "vortices": [[1, 1, -2]], "npcRing": 2},
           "flag": {"q": 0, "r": 0, "s": 0},
           "player1": ship(1, t - 1, -1, 400 - 100 * t), "player2": ship(2, 1, -2, 300),
           "player3": null, "player4": null,
           "npc1": {"id": 5, "q": -2, "r": 2, "s": 0, "health": 500, "maxHealth": 500, "cannons": 50,
                    "sight": 4, "chasing": null, "firedAt": null},
           "npc2": null, "eliminated": [3, 4, 6], "legalActions": ["e"]})
}

#[test]
fn the_renderers_draw_their_games_documented_observations() {
    let _one = one_at_a_time();
    let empty = artifacts().join("empty.html");
    std::fs::write(&empty, ludus_viewer::empty_page()).unwrap();
    let mut browser = Browser::launch();
    let mut page = browser.page(1000, 800, 2.0);
    page.navigate(&url(&empty, 0));
    page.wait_for("Ludus.ready === true", Duration::from_secs(10));
    assert_eq!(
        page.eval("document.body.classList.contains('empty')"),
        json!(true)
    );
    type MadeUpView = fn(usize) -> Value;
    let games: [(&str, MadeUpView); 6] = [
        ("kore", kore_view),
        ("halite", halite_view),
        ("claim", grid_view),
        ("loops", grid_view),
        ("shields", grid_view),
        ("pirates", pirates_view),
    ];
    for (game, view) in games {
        let views: Vec<Value> = (0..3).map(view).collect();
        let doc = made_up_document(game, &views);
        page.eval(&format!(
            "Ludus.openBytes(new TextEncoder().encode({})).then(() => true)",
            serde_json::to_string(&doc).unwrap()
        ));
        assert_eq!(
            page.eval("Ludus.player.rendererName"),
            json!(game),
            "{game}.js accepts its observation"
        );
        page.eval("Ludus.goTo(1); true");
        settle(&mut page);
        snapshot(&mut page, "a");
        page.eval("Ludus.goTo(2); true");
        settle(&mut page);
        snapshot(&mut page, "b");
        assert!(
            changed_pixels(&mut page, "a", "b") > 0,
            "{game}: the board changes between states"
        );
        page.screenshot(&artifacts().join(format!("made-up-{game}.png")));
        assert_eq!(shown_scores(&mut page), vec![2.0, 1.0], "{game}");
    }
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

/// Conquest has fog of war: the page draws the whole board from each
/// frame's spectator view, and each team's view, what it cannot see greyed,
/// with a choice beside the controls; blasts show where weapons struck.
#[test]
fn conquest_shows_the_whole_board_and_each_teams_view() {
    let strategy = bot("conquest_strategy");
    let sample = bot("conquest_sample");
    let replay = play(
        "conquest",
        json!({"max_turns": 150}),
        3,
        vec![strategy.clone(), sample.clone(), strategy, sample],
    );
    let frames = ludus_viewer::frames(&replay).unwrap();
    let struck = frames
        .iter()
        .position(|f| {
            let whole: Value = serde_json::from_str(f.spectator.as_deref().unwrap()).unwrap();
            !whole["strikes"].as_array().unwrap().is_empty()
        })
        .expect("the strategies fire a weapon");
    let _one = one_at_a_time();
    let path = write_page("conquest-views", &replay, Embed::Auto);
    let mut browser = Browser::launch();
    let mut page = browser.page(1200, 900, 1.0);
    page.navigate(&url(&path, 40));
    settle(&mut page);
    assert_eq!(page.eval("Ludus.player.rendererName"), json!("conquest"));
    assert_eq!(
        page.eval("[...document.getElementById('conquest-view').options].map(o => o.value)"),
        json!(["all", "0", "1", "2", "3"])
    );
    snapshot(&mut page, "whole");
    page.screenshot(&artifacts().join("conquest-view-whole.png"));
    for seat in 0..4 {
        page.eval(&format!(
            "(() => {{ const s = document.getElementById('conquest-view'); s.value = '{seat}';
                       s.dispatchEvent(new Event('change')); return true; }})()"
        ));
        settle(&mut page);
        snapshot(&mut page, &format!("seat{seat}"));
        page.screenshot(&artifacts().join(format!("conquest-view-seat-{seat}.png")));
        assert!(
            changed_pixels(&mut page, "whole", &format!("seat{seat}")) > 1000,
            "seat {seat}'s view, fogged, differs from the whole board"
        );
    }
    assert!(
        changed_pixels(&mut page, "seat0", "seat2") > 1000,
        "teams see different boards"
    );
    // The blast of the first strike, on the whole board.
    page.eval("(() => { const s = document.getElementById('conquest-view'); s.value = 'all'; s.dispatchEvent(new Event('change')); return true; })()");
    page.eval(&format!("Ludus.goTo({struck}); true"));
    settle(&mut page);
    snapshot(&mut page, "struck");
    page.eval(&format!("Ludus.goTo({}); true", struck - 1));
    settle(&mut page);
    snapshot(&mut page, "before");
    assert!(changed_pixels(&mut page, "before", "struck") > 0);
    page.eval(&format!("Ludus.goTo({struck}); true"));
    settle(&mut page);
    page.screenshot(&artifacts().join("conquest-strike.png"));
    let charts = page.eval("[...document.querySelectorAll('.chart h3')].map(h => h.textContent)");
    for name in ["cells", "soldiers", "gold"] {
        assert!(
            charts
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c.as_str().unwrap().contains(name)),
            "a chart of {name}: {charts}"
        );
    }
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

/// A seed beyond 2^53 that a double cannot hold: JSON.parse reads it as
/// 15337121675167056000, and a match page once showed it so.
const BIG_SEED: u64 = 15_337_121_675_167_056_173;

/// The page's title and the seed of its match facts.
fn shown_seed(page: &mut Page) -> (String, String) {
    let title = page.eval("document.title").as_str().unwrap().to_string();
    let fact = page.eval(
        "[...document.querySelectorAll('#match-facts dt')].find(d => d.textContent === 'seed').nextElementSibling.textContent",
    );
    (title, fact.as_str().unwrap().to_string())
}

/// What the page shows as each seat's name: the scoreboard, the log's
/// tabs, the state panel's choices and the match facts.
fn shown_seat_names(page: &mut Page) -> Value {
    page.eval(
        "({
           scoreboard: [...document.querySelectorAll('#scoreboard tbody td.name')].map(td => td.textContent),
           tabs: [...document.querySelectorAll('#log-tabs button')].map(b => b.textContent.trim()),
           state: [...document.querySelectorAll('#state-seat option')].map(o => o.textContent),
           facts: [...document.querySelectorAll('#match-facts dt')].filter(d => d.textContent.startsWith('seat '))
             .map(d => d.nextElementSibling.textContent.split('  ')[0]),
         })",
    )
}

#[test]
fn pages_show_the_exact_seed_beyond_2_pow_53_and_the_seat_names_they_are_given() {
    assert_ne!(BIG_SEED as f64 as u64, BIG_SEED, "a seed a double rounds");
    let replay = play(
        "planet-wars",
        json!({"max_turns": 30}),
        BIG_SEED,
        vec![bot("planet_wars_expander"), bot("planet_wars_expander")],
    );
    let digits = BIG_SEED.to_string();
    // Two names on the same bytes, as a ladder's schedule seated them.
    let names = ["carol v2".to_string(), "alice v1".to_string()];
    let _one = one_at_a_time();
    let mut browser = Browser::launch();
    let mut page = browser.page(1200, 800, 1.0);
    for (embed, tag) in [(Embed::Json, "json"), (Embed::Gzip, "gzip")] {
        let (html, notes) = named_replay_page(&replay, &names, embed);
        assert!(notes.is_empty(), "{notes:?}");
        let path = artifacts().join(format!("big-seed-{tag}.html"));
        std::fs::write(&path, html).unwrap();
        page.navigate(&url(&path, 0));
        settle(&mut page);
        let (title, fact) = shown_seed(&mut page);
        assert_eq!(
            title,
            format!("planet-wars: carol v2 vs alice v1 (seed {digits})"),
            "{tag}"
        );
        assert_eq!(fact, digits, "{tag}");
        assert_eq!(
            shown_seat_names(&mut page),
            json!({
                "scoreboard": ["0: carol v2", "1: alice v1"],
                "tabs": ["carol v2", "alice v1"],
                "state": ["0 (carol v2)", "1 (alice v1)"],
                "facts": ["carol v2", "alice v1"],
            }),
            "{tag}"
        );
    }
    // A replay file opened on the page: its seed as the file writes it,
    // its seats by the names it records.
    let file = artifacts().join("big-seed-replay.json");
    replay.save(&file).unwrap();
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains(&format!("\"seed\":{digits},")));
    page.set_file_input("#open-file", &file);
    page.wait_for(
        "Ludus.player.doc && Ludus.player.doc.frames.length === 0",
        Duration::from_secs(10),
    );
    let (title, fact) = shown_seed(&mut page);
    assert_eq!(
        title,
        format!("planet-wars: planet_wars_expander vs planet_wars_expander (seed {digits})")
    );
    assert_eq!(fact, digits);
    // A seed a double holds exactly stays as it is; so does one after
    // members whose text holds `"seed":` and nested objects.
    let read = page.eval(
        r#"[
          Ludus.toDocument('{"format":"ludus-replay","seed":7,"seats":[]}').replay.seed,
          Ludus.toDocument('{"format":"ludus-viewer","format_version":1,"replay":{"format":"ludus-replay","config":{"seed":1,"s":"\\"seed\\":2 \\\\\\" {["},"setup":[{"seed":3}],"seed":18446744073709551615}}').replay.seed,
        ]"#,
    );
    assert_eq!(read, json!(["7", "18446744073709551615"]));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}

#[test]
fn planet_wars_labels_planets_with_the_names_moves_give_and_fleets_with_their_ids() {
    let replay = play(
        "planet-wars",
        json!({"max_turns": 40}),
        5,
        vec![bot("planet_wars_expander"), bot("planet_wars_random")],
    );
    let frames = ludus_viewer::frames(&replay).unwrap();
    // A turn with fleets in flight.
    let (t, view) = frames
        .iter()
        .enumerate()
        .map(|(t, f)| {
            (
                t,
                serde_json::from_str::<Value>(&f.observations[0]).unwrap(),
            )
        })
        .find(|(_, v)| v["expeditions"].as_array().is_some_and(|e| e.len() >= 2))
        .expect("fleets in flight at some turn");
    let _one = one_at_a_time();
    let path = write_page("planet-wars-labels", &replay, Embed::Json);
    let mut browser = Browser::launch();
    let mut page = browser.page(1200, 800, 1.0);
    page.navigate(&url(&path, t as u32));
    settle(&mut page);
    // Every text the board draws from now on.
    page.eval(
        "(() => { window.drawnTexts = [];
                  const fill = CanvasRenderingContext2D.prototype.fillText;
                  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
                    window.drawnTexts.push(String(text)); return fill.call(this, text, ...rest); };
                  Ludus.goTo(Ludus.player.turn); return true; })()",
    );
    settle(&mut page);
    let drawn: Vec<String> = serde_json::from_value(page.eval("window.drawnTexts")).unwrap();
    for planet in view["planets"].as_array().unwrap() {
        let name = planet["name"].as_str().unwrap();
        assert!(
            drawn.iter().any(|d| d == name),
            "planet {name} is not labelled: {drawn:?}"
        );
    }
    for e in view["expeditions"].as_array().unwrap() {
        let label = format!("{} #{}", e["ship_count"], e["id"]);
        assert!(drawn.contains(&label), "no fleet label {label}: {drawn:?}");
    }
    page.screenshot(&artifacts().join("planet-wars-labels.png"));
    assert!(page.errors.is_empty(), "{:#?}", page.errors);
}
