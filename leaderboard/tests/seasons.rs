//! Seasons and pauses of the continuous ladders, on both databases: each
//! test below runs once on a SQLite file and once on a database of a
//! throw-away PostgreSQL cluster. A new season closes the open one (which
//! keeps its name, results and board, and is scheduled no more) and is
//! filled with every listed bot by the next top-up; a paused game
//! schedules nothing until it resumes. Nothing is played here: top-ups
//! only schedule.

use ludus_leaderboard::continuous::{self, ContinuousConfig, Look};
use ludus_leaderboard::report::{self, Listed};
use ludus_leaderboard::schedule::ScheduledMatch;
use ludus_leaderboard::season;
use ludus_leaderboard::store::{continuous_key, Store};
use ludus_leaderboard::{ladder, Error};

const NOW: &str = "2026-01-01T00:00:00Z";
const GAME: &str = "planet-wars";

#[macro_use]
#[path = "support/backends.rs"]
mod backends;

use backends::{postgres, sqlite, Db};

on_both!(
    a_new_season_closes_the_open_one_and_the_next_top_up_seats_every_listed_bot,
    a_season_is_named_once_and_takes_its_config_or_the_last_ones,
    a_paused_game_schedules_nothing_until_it_resumes,
);

/// Stores bots named `names` for the game (tiny modules: nothing is played).
fn submit(store: &Store, names: &[&str]) {
    for (i, name) in names.iter().enumerate() {
        let mut wasm = b"\0asm\x01\0\0\0".to_vec();
        wasm.extend(std::iter::repeat_n(0, i + name.len()));
        store
            .bots()
            .submit(name, GAME, &wasm, &ludus_host::sha256_hex(&wasm), NOW)
            .unwrap();
    }
}

fn top_up(store: &Store) -> continuous::TopUp {
    let info = ludus_engine::registry::info(GAME).unwrap();
    continuous::top_up(store, info, &ContinuousConfig::default(), Look::Bots).unwrap()
}

fn schedule(store: &Store, ladder: i64) -> Vec<ScheduledMatch> {
    store.ladders().schedule(ladder).unwrap()
}

fn a_new_season_closes_the_open_one_and_the_next_top_up_seats_every_listed_bot(db: Db) {
    let store = db.store();
    submit(&store, &["a", "b"]);
    let first = top_up(&store);
    let old = first.ladder.unwrap();
    assert_eq!(first.joined.len(), 2);
    assert!(first.scheduled > 0);
    let old_schedule = schedule(&store, old);
    let old_board = report::standings(&store, old, Listed::Current).unwrap();

    let started = season::start(&store, GAME, None, None).unwrap();
    let closed = started.closed.clone().unwrap();
    assert_eq!((closed.ladder, closed.name.as_str()), (old, "season 1"));
    assert_eq!(started.opened.name, "season 2");
    let new = started.opened.ladder;
    assert_ne!(new, old);
    assert_eq!(store.ladders().continuous(GAME).unwrap(), Some(new));
    assert_eq!(
        store.ladders().get(new).unwrap().key,
        continuous_key(GAME),
        "the open season has the game's key"
    );
    // A bot that joins after the season closed plays only the new one.
    submit(&store, &["a", "b", "c"]);
    let second = top_up(&store);
    assert_eq!(second.ladder, Some(new));
    let joined = store.ladders().get(new).unwrap().bots;
    let mut names: Vec<&str> = joined.iter().map(|b| b.name.as_str()).collect();
    names.sort();
    assert_eq!(
        names,
        ["a", "b", "c"],
        "every listed bot joins the new season"
    );
    assert!(second.scheduled > 0);
    let new_schedule = schedule(&store, new);
    assert!(
        new_schedule
            .iter()
            .all(|m| old_schedule.iter().all(|o| o.seed != m.seed)),
        "a new season plays other seeds"
    );

    // The closed season: nothing more scheduled, its board as it was.
    assert!(!store.ladders().append(old, &[]).unwrap(), "closed");
    assert_eq!(schedule(&store, old), old_schedule);
    let found = season::find(&store, GAME, Some("season 1"))
        .unwrap()
        .unwrap();
    assert_eq!((found.ladder, found.is_open()), (old, false));
    let final_board = report::standings(&store, old, Listed::Final).unwrap();
    assert_eq!(
        final_board.rows.iter().map(|r| &r.bot).collect::<Vec<_>>(),
        old_board.rows.iter().map(|r| &r.bot).collect::<Vec<_>>()
    );
    let status = ladder::status(&store, Some(old), None).unwrap();
    assert_eq!(status.season.unwrap().name, "season 1");
    assert_eq!(
        ladder::pick_season(&store, None, Some(GAME), Some("season 1")).unwrap(),
        old
    );
    assert_eq!(ladder::pick(&store, None, Some(GAME)).unwrap(), new);
    let listed: Vec<(String, bool)> = season::seasons(&store, GAME)
        .unwrap()
        .into_iter()
        .map(|s| (s.name.clone(), s.is_open()))
        .collect();
    assert_eq!(
        listed,
        [("season 1".into(), false), ("season 2".into(), true)]
    );
    match season::find(&store, GAME, Some("spring")) {
        Err(e @ Error::NoSeason { .. }) => {
            assert!(e.to_string().contains("`season 1`, `season 2`"), "{e}")
        }
        other => panic!("{other:?}"),
    }
}

fn a_season_is_named_once_and_takes_its_config_or_the_last_ones(db: Db) {
    let store = db.store();
    // A game with no season yet gets its first from `season new`.
    let config = serde_json::json!({"max_turns": 50});
    let first = season::start(&store, GAME, Some(config.clone()), Some("trial")).unwrap();
    assert_eq!(first.closed, None);
    assert_eq!(first.opened.name, "trial");
    let second = season::start(&store, GAME, None, None).unwrap();
    assert_eq!(second.opened.name, "season 2");
    assert_eq!(second.closed.unwrap().name, "trial");
    assert_eq!(
        store.ladders().get(second.opened.ladder).unwrap().config,
        config,
        "the new season takes the last one's config"
    );
    let taken = season::start(&store, GAME, None, Some("trial")).unwrap_err();
    assert!(
        matches!(taken, Error::SeasonName { .. }) && taken.to_string().contains("--name"),
        "{taken}"
    );
    let bad = season::start(
        &store,
        GAME,
        Some(serde_json::json!({"max_turns": "x"})),
        None,
    );
    assert!(bad.is_err(), "a config the game refuses");
    assert_eq!(season::seasons(&store, GAME).unwrap().len(), 2);
    // The server's --game-config seeds a first season only; a conflict
    // with the open season tells the operator to start one.
    let server = ContinuousConfig {
        game_configs: [(GAME.to_string(), serde_json::json!({"max_turns": 70}))].into(),
        ..ContinuousConfig::default()
    };
    let e = server.check_game_configs(&store).unwrap_err();
    assert!(
        e.to_string()
            .contains("ludus season new --game planet-wars"),
        "{e}"
    );
}

fn a_paused_game_schedules_nothing_until_it_resumes(db: Db) {
    let store = db.store();
    submit(&store, &["a", "b"]);
    assert!(season::pause(&store, GAME).unwrap());
    assert!(!season::pause(&store, GAME).unwrap(), "paused already");
    let paused = top_up(&store);
    assert!(paused.paused);
    assert_eq!((paused.ladder, paused.scheduled), (None, 0));
    assert_eq!(store.ladders().continuous(GAME).unwrap(), None);
    assert!(season::resume(&store, GAME).unwrap());
    assert!(!season::resume(&store, GAME).unwrap(), "not paused");
    let resumed = top_up(&store);
    let ladder = resumed.ladder.unwrap();
    assert!(resumed.scheduled > 0);
    // Paused again: the waiting matches stay, nothing is added.
    season::pause(&store, GAME).unwrap();
    let before = schedule(&store, ladder).len();
    submit(&store, &["a", "b", "c"]);
    assert!(top_up(&store).paused);
    assert_eq!(schedule(&store, ladder).len(), before);
    assert!(ladder::status(&store, Some(ladder), None).unwrap().paused);
    assert!(season::pause(&store, "no-such-game").is_err());
}
