//! The pages a person reads at a glance, through the router: a bot's rating
//! chart with its axes and version changes, its matches from its point of
//! view, the leaderboard in the CLI's order with each rating's uncertainty
//! and win rate, the match page inside the site's navigation with the
//! replay viewer, and a rules page for every registered game.

mod common;

#[path = "support/synthetic.rs"]
mod synthetic;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{bot, json, server, Server};
use ludus_host::numbers::fixed;
use ludus_leaderboard::report;
use ludus_leaderboard::store::Store;
use tower::ServiceExt;

/// Every `<a href="/bots/…">` of `html`, in order.
fn bot_links(html: &str) -> Vec<String> {
    html.split("href=\"/bots/")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_chart_has_axes_and_marks_where_a_new_version_started_and_the_match_page_is_framed() {
    let s = server(|_| {});
    s.two_played_bots().await;
    let (status, body) = s.upload("a", Some(&s.alice), bot("a2", false)).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    s.play();

    let view = json(&s.get("/api/bots/a", None).await.1);
    let versions: Vec<u64> = view["rating_history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["version"].as_u64().unwrap())
        .collect();
    assert!(
        versions.contains(&1) && versions.contains(&2),
        "{versions:?}"
    );
    // Two seats: the leaderboard's Bradley–Terry is on the Elo scale, and
    // its interval is drawn.
    assert!(
        view["rating_history"][0]["interval"].as_f64().is_some(),
        "{view}"
    );

    let (status, page) = s.get("/bots/a", None).await;
    assert_eq!(status, StatusCode::OK);
    let chart = page
        .split("<svg id=\"rating\"")
        .nth(1)
        .and_then(|c| c.split("</svg>").next())
        .expect("a chart");
    assert!(
        chart.contains("role=\"img\"") && chart.contains("<title>"),
        "{chart}"
    );
    assert!(chart.contains("viewBox=") && chart.contains("width=\"100%\""));
    assert!(chart.contains(">rated matches</text>") && chart.contains(">rating (Elo)</text>"));
    // Tick labels on both axes: rated matches counted from 1, and Elo
    // around its start of 1500.
    let ticks = |class: &str| -> Vec<f64> {
        chart
            .split(&format!("class=\"{class}\""))
            .skip(1)
            .map(|t| t.split('>').nth(1).unwrap().split('<').next().unwrap())
            .map(|t| t.parse().unwrap())
            .collect()
    };
    let (x, y) = (ticks("x-tick"), ticks("y-tick"));
    let rated = view["rated_matches"].as_f64().unwrap();
    assert!(x.len() >= 2, "{x:?}");
    assert!(
        x.iter()
            .all(|t| t.fract() == 0.0 && (1.0..=rated).contains(t)),
        "{x:?}"
    );
    assert!(y.len() >= 2 && y.windows(2).all(|w| w[0] < w[1]), "{y:?}");
    assert!(y[0] <= 1500.0 && 1500.0 <= *y.last().unwrap(), "{y:?}");
    let mark = chart
        .split("class=\"version-mark\"")
        .nth(1)
        .expect("a version marker");
    assert!(mark.contains(">v2</text>"), "{mark}");
    assert!(chart.contains("class=\"band\""), "the uncertainty is drawn");
    assert!(page.contains("<figcaption>") && page.contains("as it stands now"));

    // The match page: the site's navigation, the seats' bots linked, and
    // the viewer as it was (its data, its scripts, its cache headers).
    let id = view["recent"][0]["match_id"].as_str().unwrap().to_string();
    let res = router_get(&s, &format!("/matches/{id}"), None).await;
    assert_eq!(res.0, StatusCode::OK);
    let (etag, page) = (res.1.expect("an ETag"), res.2);
    let nav = page
        .split("<nav class=\"site\"")
        .nth(1)
        .unwrap()
        .split("</nav>")
        .next()
        .unwrap();
    assert!(
        nav.contains("href=\"/\"") && nav.contains("href=\"/games/planet-wars\""),
        "{nav}"
    );
    assert!(nav.contains("href=\"/games/planet-wars/rules\""), "{nav}");
    let mut seats = bot_links(nav);
    seats.sort();
    assert_eq!(seats, ["a", "b"], "{nav}");
    assert!(nav.contains(">a v2</a>"), "{nav}");
    assert!(page.contains("id=\"ludus-data\"") && page.contains("Ludus.boot();"));
    assert!(page.contains("id=\"board\"") && page.contains("id=\"scrubber\""));
    let res = router_get(&s, &format!("/matches/{id}"), Some(&etag)).await;
    assert_eq!(res.0, StatusCode::NOT_MODIFIED);
}

/// A GET through the router: its status, ETag and body.
async fn router_get(
    s: &Server,
    uri: &str,
    if_none_match: Option<&str>,
) -> (StatusCode, Option<String>, String) {
    let mut req = Request::get(uri);
    if let Some(tag) = if_none_match {
        req = req.header(header::IF_NONE_MATCH, tag);
    }
    let res = ludus_server::router(s.state.clone())
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let etag = res
        .headers()
        .get(header::ETAG)
        .map(|v| v.to_str().unwrap().to_string());
    let body = http_body_util::BodyExt::collect(res.into_body())
        .await
        .unwrap()
        .to_bytes();
    (status, etag, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bots_matches_say_how_each_ended_for_it_and_the_board_is_the_clis_order() {
    let s = server(|_| {});
    s.two_played_bots().await;
    // The lower position wins, every tenth match is drawn.
    const BOTS: usize = 4;
    const MATCHES: u32 = 40;
    let mut store = Store::connect(&s.db).unwrap();
    let (ladder, start, first) =
        synthetic::after_played(&mut store, &bot("synthetic", false), BOTS, MATCHES);

    // bot-001's matches, as it saw them, newest first.
    let p = first + 1;
    let mine: Vec<(u32, Vec<usize>)> = (0..MATCHES)
        .map(|k| (k, synthetic::seats(k, first, BOTS)))
        .filter(|(_, seats)| seats.contains(&p))
        .rev()
        .collect();
    let expected: Vec<(u32, &str, String)> = mine
        .iter()
        .map(|(k, seats)| {
            let (placements, _) = synthetic::outcome(*k, seats);
            let me = seats.iter().position(|&q| q == p).unwrap();
            let result = match (placements[me], placements[1 - me]) {
                (1, 1) => "drawn",
                (1, _) => "won",
                _ => "lost",
            };
            (
                start + k,
                result,
                synthetic::bot_name(seats[1 - me] - first),
            )
        })
        .collect();
    assert!(["won", "lost", "drawn"]
        .iter()
        .all(|r| expected.iter().any(|e| e.1 == *r)));
    const PER_PAGE: usize = 5;
    for page in 1..=2usize {
        let (status, html) = s
            .get(
                &format!("/bots/bot-001?page={page}&per_page={PER_PAGE}"),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let table = html
            .split("<table id=\"bot-matches\">")
            .nth(1)
            .unwrap()
            .split("</table>")
            .next()
            .unwrap();
        let rows: Vec<&str> = table.split("<tr>").skip(2).collect();
        assert_eq!(rows.len(), PER_PAGE, "{table}");
        for (row, (index, result, opponent)) in
            rows.iter().zip(expected.iter().skip((page - 1) * PER_PAGE))
        {
            assert!(row.contains(&format!(">#{index}</a>")), "{row}");
            assert!(
                row.contains(&format!("<td class=\"result\">{result}</td>")),
                "{index}: {row}"
            );
            assert_eq!(bot_links(row), std::slice::from_ref(opponent), "{row}");
            assert!(row.contains("<td>v1</td>"), "{row}");
        }
        assert!(html.contains(&format!("page {page} of {}", mine.len().div_ceil(PER_PAGE))));
        let next = format!("/bots/bot-001?page={}&amp;per_page={PER_PAGE}", page + 1);
        assert!(html.contains(&next), "the pager links the next page");
    }

    // The leaderboard: the CLI's order, each rating with its ± and a win rate.
    let cli = report::leaderboard(&store, ladder).unwrap();
    let (status, html) = s.get("/games/planet-wars?per_page=100", None).await;
    assert_eq!(status, StatusCode::OK);
    let board = html
        .split("<table id=\"board\"")
        .nth(1)
        .unwrap()
        .split("</table>")
        .next()
        .unwrap();
    let order: Vec<String> = cli.rows.iter().map(|r| r.bot.clone()).collect();
    assert_eq!(bot_links(board), order, "{board}");
    for r in &cli.rows {
        let row = board
            .split(&format!("href=\"/bots/{}\"", r.bot))
            .nth(1)
            .unwrap()
            .split("</tr>")
            .next()
            .unwrap();
        let rating = format!("{} ± {}", fixed(r.rating, 1), fixed(r.interval, 1));
        assert!(row.contains(&rating), "{}: {rating} in {row}", r.bot);
        let res = r.results.as_ref().unwrap();
        let rate = format!(
            "{}%",
            fixed(100.0 * f64::from(res.wins) / f64::from(r.games), 0)
        );
        assert!(
            row.contains(&format!(">{rate}</td>")),
            "{}: {rate} in {row}",
            r.bot
        );
    }
    // The API's rows carry the same records, for the page's live refresh.
    let lb = json(
        &s.get("/api/games/planet-wars/leaderboard?per_page=100", None)
            .await
            .1,
    );
    let wins: Vec<u64> = lb["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["wins"].as_u64().unwrap())
        .collect();
    let cli_wins: Vec<u64> = cli
        .rows
        .iter()
        .map(|r| u64::from(r.results.as_ref().unwrap().wins))
        .collect();
    assert_eq!(wins, cli_wins);
}

#[tokio::test(flavor = "multi_thread")]
async fn every_game_has_a_rules_page_with_how_to_build_and_upload_a_bot() {
    let s = server(|_| {});
    let (_, index) = s.get("/", None).await;
    for g in ludus_engine::games() {
        let path = format!("{}/../docs/games/{}.md", env!("CARGO_MANIFEST_DIR"), g.id);
        let md = std::fs::read_to_string(&path).unwrap();
        let title = md.lines().next().unwrap().trim_start_matches("# ");
        let uri = format!("/games/{}/rules", g.id);
        assert!(
            index.contains(&format!("href=\"{uri}\"")),
            "the index links {uri}"
        );
        let (_, board) = s.get(&format!("/games/{}", g.id), None).await;
        assert!(
            board.contains(&format!("href=\"{uri}\"")),
            "the leaderboard links {uri}"
        );
        let (status, page) = s.get(&uri, None).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        assert!(
            page.contains(&format!(">{title}</h2>")),
            "{uri}: the heading {title}"
        );
        for text in [
            "cargo build --release --target wasm32-wasip1".to_string(),
            format!("--game {}", g.id),
            "ludus build-bot ".to_string(),
            format!(
                "ludus submit my_bot.wasm --name my-bot --game {} --server",
                g.id
            ),
            "href=\"/upload\"".to_string(),
            "id=\"rust\"".to_string(),
            "id=\"python\"".to_string(),
            "id=\"c\"".to_string(),
        ] {
            assert!(page.contains(&text), "{uri}: {text}");
        }
    }
    let (status, _) = s.get("/games/chess/rules", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_openapi_document_describes_the_new_columns() {
    let s = server(|_| {});
    let doc = json(&s.get("/api/openapi.json", None).await.1);
    let schemas = &doc["components"]["schemas"];
    for (schema, field) in [
        ("RowRecord", "win_rate"),
        ("BotMatch", "result"),
        ("BotMatch", "opponents"),
        ("SeatedBot", "version"),
        ("RatingPoint", "interval"),
        ("VersionView", "interval"),
        ("BotView", "rating_system"),
    ] {
        assert!(
            schemas[schema]["properties"][field].is_object()
                || schemas[schema]["allOf"].to_string().contains(field),
            "{schema}.{field}: {}",
            schemas[schema]
        );
    }
    let page = schemas["LeaderboardPage"].to_string();
    assert!(page.contains("\"records\""), "{page}");
}
