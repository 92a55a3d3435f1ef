//! Challenges and candidates, on both databases, played by real workers
//! with the example bots of Planet Wars (short matches): a fixed count
//! plays exactly its count; the expander is found stronger than the random
//! bot; a bot is not found stronger than a copy of itself; a challenge
//! re-runs from its seed to the same results; a challenge never touches
//! the ratings or the leaderboard of its game's ladder; a candidate
//! version is not entered until promoted; and what a challenge may not
//! ask is refused with its reason. And every game of the registry plays a
//! challenge, at the seats of its continuous ladder, with its own example
//! bots.

use ludus_host::{Sandbox, SandboxOptions};
use ludus_leaderboard::challenge::{
    self, BotRef, ChallengeError, ChallengeLimits, ChallengeRequest, ChallengeState,
    ChallengeStatus, GameOutcome, Opponents, Test, Verdict,
};
use ludus_leaderboard::continuous::{self, ContinuousConfig, Look};
use ludus_leaderboard::report::{self, Listed};
use ludus_leaderboard::sprt::SprtConfig;
use ludus_leaderboard::store::{day_of, MatchResult, Store};
use ludus_leaderboard::worker::{self, WorkerOptions};
use ludus_leaderboard::{ratings, season};
use std::sync::OnceLock;

#[macro_use]
#[path = "support/backends.rs"]
mod backends;

use backends::{postgres, sqlite, Db};

on_both!(
    every_game_plays_a_challenge_at_its_ladders_seats,
    a_fixed_count_plays_exactly_its_count_and_a_spent_day_waits_for_the_next,
    the_expander_is_stronger_than_the_random_bot_and_reruns_to_the_same_games,
    a_bot_is_not_stronger_than_a_copy_of_itself,
    ratings_and_the_leaderboard_are_the_same_with_a_challenge_running,
    a_candidate_is_entered_only_when_its_owner_promotes_it,
    what_a_challenge_may_not_ask_is_refused_with_its_reason,
);

const GAME: &str = "planet-wars";
const NOW: &str = "2026-01-01T00:00:00Z";
/// 2026-01-01T00:00:00Z in unix seconds.
const T0: i64 = 1_767_225_600;

fn sandbox() -> &'static Sandbox {
    static S: OnceLock<Sandbox> = OnceLock::new();
    S.get_or_init(|| {
        Sandbox::with_options(SandboxOptions {
            cache_dir: Some(ludus_testkit::workspace_root().join("target/module-cache")),
            ..SandboxOptions::default()
        })
        .unwrap()
    })
}

fn wasm(example: &str) -> Vec<u8> {
    std::fs::read(ludus_testkit::bot(example)).unwrap()
}

/// A store with two accounts, alice and bob, and Planet Wars' open season
/// of short matches (no bots in it yet).
struct Fixture {
    store: Store,
    alice: i64,
    bob: i64,
}

fn fixture(db: &Db) -> Fixture {
    let store = db.store();
    let alice = store
        .accounts()
        .add("alice", "a", false, NOW)
        .unwrap()
        .unwrap();
    let bob = store
        .accounts()
        .add("bob", "b", false, NOW)
        .unwrap()
        .unwrap();
    season::start(&store, GAME, Some(short()), None).unwrap();
    Fixture { store, alice, bob }
}

fn short() -> serde_json::Value {
    serde_json::json!({ "max_turns": 100 })
}

impl Fixture {
    /// Stores `example`'s bytes as `owner`'s bot `name`.
    fn submit(&self, owner: i64, name: &str, example: &str, candidate: bool) -> u32 {
        let bytes = wasm(example);
        self.submit_bytes(owner, name, GAME, &bytes, candidate)
    }

    fn submit_bytes(
        &self,
        owner: i64,
        name: &str,
        game: &str,
        wasm: &[u8],
        candidate: bool,
    ) -> u32 {
        self.store.accounts().take_bot_name(name, owner).unwrap();
        let sha = ludus_host::sha256_hex(wasm);
        let stored = self
            .store
            .bots()
            .submit_as(name, game, wasm, &sha, NOW, candidate);
        stored.unwrap().bot.version
    }

    fn challenge(
        &self,
        account: i64,
        bot: &str,
        vs: &[&str],
        test: Test,
        seed: u64,
    ) -> Result<i64, ChallengeError> {
        let request = ChallengeRequest {
            bot: bot.parse().unwrap(),
            opponents: Opponents::Listed(vs.iter().map(|b| b.parse().unwrap()).collect()),
            test,
            max_games: Some(200),
            seed,
        };
        challenge::create(
            &self.store,
            account,
            &request,
            &ChallengeLimits::default(),
            T0,
        )
    }

    /// Plays until no challenge runs: the scheduler's top-up, then real
    /// workers until no ladder has work, again and again.
    fn play(&self, limits: &ChallengeLimits, now: i64, threads: usize) {
        for _ in 0..500 {
            let topped = challenge::top_up(&self.store, limits, now).unwrap();
            if self.store.challenges().active().unwrap().is_empty() {
                return;
            }
            if topped.scheduled == 0 && self.store.queue().ladders_with_work().unwrap().is_empty() {
                return;
            }
            self.work(threads);
        }
        panic!("the challenges did not end");
    }

    /// Real workers play every ladder's matches.
    fn work(&self, threads: usize) {
        let options = WorkerOptions {
            until_idle: true,
            ..WorkerOptions::new(threads)
        };
        worker::work(&self.store, sandbox(), &options, |_| {}).unwrap();
    }

    fn status(&self, id: i64) -> ChallengeStatus {
        challenge::status(&self.store, id).unwrap()
    }
}

fn sprt(elo1: f64) -> Test {
    Test::Sprt(SprtConfig {
        elo1,
        ..SprtConfig::default()
    })
}

/// What a challenge's counted games were, result by result.
fn counted_results(f: &Fixture, id: i64) -> Vec<MatchResult> {
    let s = f.status(id);
    let counted = s.matches.iter().filter(|m| m.counted).count();
    let mut all = f.store.results().all(s.ladder).unwrap();
    all.truncate(counted);
    all
}

fn a_fixed_count_plays_exactly_its_count_and_a_spent_day_waits_for_the_next(db: Db) {
    let f = fixture(&db);
    f.submit(f.alice, "expander", "planet_wars_expander", false);
    f.submit(f.bob, "random", "planet_wars_random", false);
    let id = f
        .challenge(
            f.alice,
            "expander",
            &["random"],
            Test::Games { games: 7 },
            1,
        )
        .unwrap();
    let limits = ChallengeLimits::default();
    f.play(&limits, T0, 2);
    let s = f.status(id);
    assert_eq!((s.scheduled, s.finished, s.games), (7, 7, 7), "{s:?}");
    assert_eq!(s.wins + s.draws + s.losses, 7);
    assert_eq!(s.pairs, 3, "three complete pairs, and a seventh game alone");
    assert_eq!(
        (s.state, s.verdict),
        (ChallengeState::Finished, Some(Verdict::None))
    );
    assert_eq!(s.ended_reason.as_deref(), Some("played its 7 games"));
    assert!(s.sprt.is_none() && s.score.is_some() && s.elo.is_some());
    assert!(s.matches.iter().all(|m| m.match_id.is_some() && m.counted));
    // Pairs on one seed, the seats swapped, the tested bot's seat named.
    assert_eq!(s.matches[0].seed, s.matches[1].seed);
    assert_ne!(s.matches[0].seed, s.matches[2].seed);
    assert_eq!(s.matches[0].seats[0].name, "expander");
    assert_eq!(s.matches[1].seats[1].name, "expander");
    assert_eq!((s.matches[0].tested_seat, s.matches[1].tested_seat), (0, 1));
    assert_eq!(
        f.store.challenges().usage(f.alice, day_of(T0)).unwrap(),
        7,
        "the day's games are counted"
    );

    // Four games a day: a challenge of six plays four today, two tomorrow.
    let day = ChallengeLimits {
        games_a_day: 4,
        ..limits
    };
    let next_day = T0 + 86_400;
    let request = ChallengeRequest {
        bot: "expander".parse().unwrap(),
        opponents: Opponents::Listed(vec!["random".parse().unwrap()]),
        test: Test::Games { games: 6 },
        max_games: None,
        seed: 2,
    };
    let spent = challenge::create(&f.store, f.alice, &request, &day, T0).unwrap_err();
    assert!(
        matches!(spent, ChallengeError::GamesToday { games: 7, limit: 4 }),
        "{spent}"
    );
    let id = challenge::create(&f.store, f.alice, &request, &day, next_day).unwrap();
    f.play(&day, next_day, 1);
    assert_eq!(
        f.status(id).finished,
        4,
        "the day's four games, and no more"
    );
    assert_eq!(f.status(id).state, ChallengeState::Running);
    f.play(&day, next_day + 86_400, 1);
    let s = f.status(id);
    assert_eq!(
        (s.scheduled, s.finished, s.state),
        (6, 6, ChallengeState::Finished)
    );
}

fn the_expander_is_stronger_than_the_random_bot_and_reruns_to_the_same_games(db: Db) {
    let f = fixture(&db);
    f.submit(f.alice, "expander", "planet_wars_expander", false);
    f.submit(f.bob, "random", "planet_wars_random", false);
    let first = f
        .challenge(f.alice, "expander", &["random"], sprt(100.0), 7)
        .unwrap();
    f.play(&ChallengeLimits::default(), T0, 2);
    let s = f.status(first);
    assert_eq!(
        (s.state, s.verdict),
        (ChallengeState::Decided, Some(Verdict::Stronger))
    );
    let test = s.sprt.unwrap();
    assert!(test.llr >= test.upper, "{test:?}");
    assert!(s.wins > s.losses, "{s:?}");
    assert!(
        s.score.unwrap().value > 0.5 && s.elo.unwrap().low > 0.0,
        "{s:?}"
    );
    assert!(s.games < 200, "decided before the maximum: {}", s.games);
    // Pairs scheduled past the decision are not counted, nor played when
    // no worker had them yet.
    let counted = s.matches.iter().filter(|m| m.counted).count() as u32;
    assert_eq!(counted, s.games);
    assert!(s
        .matches
        .iter()
        .filter(|m| !m.counted)
        .all(|m| m.outcome.is_some()));
    let after = f.store.ladders().schedule_len(s.ladder).unwrap();
    challenge::top_up(&f.store, &ChallengeLimits::default(), T0).unwrap();
    assert_eq!(
        f.store.ladders().schedule_len(s.ladder).unwrap(),
        after,
        "a decided challenge schedules nothing"
    );

    // The same challenge again, played by one thread: the same games.
    let again = f
        .challenge(f.alice, "expander", &["random"], sprt(100.0), 7)
        .unwrap();
    f.play(&ChallengeLimits::default(), T0, 1);
    let r = f.status(again);
    assert_eq!(
        (r.verdict, r.games, r.pentanomial),
        (s.verdict, s.games, s.pentanomial)
    );
    assert_eq!(r.sprt.unwrap().llr.to_bits(), test.llr.to_bits());
    assert_eq!(counted_results(&f, again), counted_results(&f, first));
    assert_ne!(r.ladder, s.ladder);
}

fn a_bot_is_not_stronger_than_a_copy_of_itself(db: Db) {
    let f = fixture(&db);
    f.submit(f.alice, "expander", "planet_wars_expander", false);
    f.submit(f.alice, "twin", "planet_wars_expander", false);
    let id = f
        .challenge(f.alice, "expander", &["twin"], sprt(100.0), 3)
        .unwrap();
    f.play(&ChallengeLimits::default(), T0, 2);
    let s = f.status(id);
    assert_ne!(s.verdict, Some(Verdict::Stronger), "{s:?}");
    assert_ne!(s.state, ChallengeState::Running);
    assert!(s.games > 0);
    assert_eq!(s.bot.sha256, s.opponents[0].sha256, "the same bytes");
}

fn ratings_and_the_leaderboard_are_the_same_with_a_challenge_running(db: Db) {
    // The same ladder twice, in two databases: a challenge runs in one.
    let other = match &db {
        Db::Sqlite(_) => sqlite(),
        Db::Postgres(_) => postgres(),
    };
    let mut boards = Vec::new();
    for (k, db) in [&db, &other].into_iter().enumerate() {
        let f = fixture(db);
        f.submit(f.alice, "expander", "planet_wars_expander", false);
        f.submit(f.bob, "random", "planet_wars_random", false);
        f.submit(f.bob, "idle", "planet_wars_idle", false);
        let info = ludus_engine::registry::info(GAME).unwrap();
        let config = ContinuousConfig::default();
        let ladder = continuous::top_up(&f.store, info, &config, Look::Bots)
            .unwrap()
            .ladder
            .unwrap();
        let challenge = (k == 1).then(|| {
            f.challenge(
                f.alice,
                "expander",
                &["random", "idle"],
                Test::Games { games: 8 },
                5,
            )
            .unwrap()
        });
        f.play(&ChallengeLimits::default(), T0, 2);
        f.work(2);
        if let Some(id) = challenge {
            let s = f.status(id);
            assert_eq!(s.finished, 8, "the challenge was played");
            assert!(
                f.store.ratings().get(s.ladder, "elo").unwrap().is_empty(),
                "never rated"
            );
            assert!(matches!(
                ratings::recompute(&f.store, Some(s.ladder), None),
                Err(ludus_leaderboard::Error::Unrated { .. })
            ));
            assert_eq!(
                f.store.ladders().latest(Some(GAME)).unwrap(),
                Some(ladder),
                "a command that names no ladder means the game's"
            );
        }
        assert_eq!(f.store.queue().remaining(ladder).unwrap(), 0);
        let elo = f.store.ratings().get(ladder, "elo").unwrap();
        assert_eq!(elo.len(), 3);
        let board = report::standings(&f.store, ladder, Listed::Current).unwrap();
        let rows: Vec<_> = board
            .rows
            .iter()
            .map(|r| {
                (
                    r.rank,
                    r.bot.clone(),
                    r.version,
                    r.rating.to_bits(),
                    r.games,
                )
            })
            .collect();
        boards.push((elo, rows, board.rated));
    }
    assert_eq!(boards[0], boards[1]);
}

fn a_candidate_is_entered_only_when_its_owner_promotes_it(db: Db) {
    let f = fixture(&db);
    let info = ludus_engine::registry::info(GAME).unwrap();
    let config = ContinuousConfig::default();
    f.submit(f.alice, "expander", "planet_wars_random", false);
    f.submit(f.bob, "random", "planet_wars_random", false);
    let candidate = f.submit(f.alice, "expander", "planet_wars_expander", true);
    assert_eq!(candidate, 2);
    assert_eq!(f.store.bots().candidates("expander").unwrap(), [2]);
    let ladder = continuous::top_up(&f.store, info, &config, Look::Bots)
        .unwrap()
        .ladder
        .unwrap();
    let entered = |f: &Fixture| -> Vec<(String, u32)> {
        let mut bots: Vec<_> = f
            .store
            .ladders()
            .get(ladder)
            .unwrap()
            .bots
            .into_iter()
            .map(|b| (b.name, b.version))
            .collect();
        bots.sort();
        bots
    };
    assert_eq!(entered(&f), [("expander".into(), 1), ("random".into(), 1)]);
    let latest: Vec<u32> = f
        .store
        .bots()
        .latest(GAME)
        .unwrap()
        .iter()
        .map(|b| b.version)
        .collect();
    assert_eq!(
        latest,
        [1, 1],
        "the ladder's field leaves the candidate out"
    );
    // A challenge tests the candidate by default, against its ladder version.
    let id = f
        .challenge(
            f.alice,
            "expander",
            &["expander:1"],
            Test::Games { games: 2 },
            1,
        )
        .unwrap();
    let s = f.status(id);
    assert_eq!((s.bot.version, s.opponents[0].version), (2, 1));
    // Another account's candidate is nobody's opponent but its owner's.
    let refused = f.challenge(
        f.bob,
        "random",
        &["expander:2"],
        Test::Games { games: 2 },
        1,
    );
    assert!(
        matches!(refused, Err(ChallengeError::Candidate { version: 2, .. })),
        "{refused:?}"
    );

    let not_owner = challenge::promote(&f.store, f.bob, "expander", 2);
    assert!(
        matches!(not_owner, Err(ChallengeError::NotOwner { .. })),
        "{not_owner:?}"
    );
    continuous::top_up(&f.store, info, &config, Look::Bots).unwrap();
    assert!(
        !entered(&f).contains(&("expander".into(), 2)),
        "not before it is promoted"
    );
    challenge::promote(&f.store, f.alice, "expander", 2).unwrap();
    let twice = challenge::promote(&f.store, f.alice, "expander", 2);
    assert!(
        matches!(twice, Err(ChallengeError::NotACandidate { .. })),
        "{twice:?}"
    );
    let joined = continuous::top_up(&f.store, info, &config, Look::Bots)
        .unwrap()
        .joined;
    assert_eq!(joined, ["expander v2"]);
    assert!(f.store.bots().candidates("expander").unwrap().is_empty());
}

fn what_a_challenge_may_not_ask_is_refused_with_its_reason(db: Db) {
    let f = fixture(&db);
    f.submit(f.alice, "expander", "planet_wars_expander", false);
    f.submit(f.bob, "random", "planet_wars_random", false);
    f.submit(f.bob, "idle", "planet_wars_idle", false);
    f.submit_bytes(f.bob, "miner", "kore", b"\0asm\x01\0\0\0", false);
    let games = || Test::Games { games: 2 };
    let refused = |r: Result<i64, ChallengeError>| r.unwrap_err();

    let e = refused(f.challenge(f.alice, "expander", &["miner"], games(), 1));
    assert!(matches!(e, ChallengeError::OtherGame { .. }), "{e}");
    assert!(e.to_string().contains("kore"), "{e}");
    let e = refused(f.challenge(f.bob, "expander", &["random"], games(), 1));
    assert!(matches!(e, ChallengeError::NotOwner { .. }), "{e}");
    let e = refused(f.challenge(f.alice, "expander", &["nobody"], games(), 1));
    assert!(matches!(e, ChallengeError::UnknownBot(_)), "{e}");
    let e = refused(f.challenge(f.alice, "expander", &["random:9"], games(), 1));
    assert!(
        matches!(e, ChallengeError::UnknownVersion { version: 9, .. }),
        "{e}"
    );
    let e = refused(f.challenge(f.alice, "expander", &["expander"], games(), 1));
    assert!(matches!(e, ChallengeError::SameVersion { .. }), "{e}");
    let e = refused(f.challenge(
        f.alice,
        "expander",
        &["random"],
        Test::Games { games: 5000 },
        1,
    ));
    assert!(
        matches!(
            e,
            ChallengeError::TooManyGames {
                asked: 5000,
                max: 2000
            }
        ),
        "{e}"
    );
    let bad = Test::Sprt(SprtConfig {
        elo0: 10.0,
        elo1: 0.0,
        ..SprtConfig::default()
    });
    let e = refused(f.challenge(f.alice, "expander", &["random"], bad, 1));
    assert!(matches!(e, ChallengeError::Sprt(_)), "{e}");
    f.store.accounts().retire("idle").unwrap();
    let e = refused(f.challenge(f.alice, "expander", &["random", "idle"], games(), 1));
    assert!(
        matches!(e, ChallengeError::Retired { ref bot } if bot == "idle"),
        "{e}"
    );

    // Top N of the leaderboard: the tested bot is not its own opponent.
    let info = ludus_engine::registry::info(GAME).unwrap();
    continuous::top_up(&f.store, info, &ContinuousConfig::default(), Look::Bots).unwrap();
    let top = ChallengeRequest {
        bot: BotRef {
            name: "expander".into(),
            version: None,
        },
        opponents: Opponents::Top(3),
        test: games(),
        max_games: None,
        seed: 1,
    };
    let limits = ChallengeLimits {
        at_once: 1,
        ..ChallengeLimits::default()
    };
    let id = challenge::create(&f.store, f.alice, &top, &limits, T0).unwrap();
    let names: Vec<String> = f.status(id).opponents.into_iter().map(|b| b.name).collect();
    assert_eq!(names, ["random"], "the retired bot is not on the board");
    // One at once: the next waits until this one ends.
    let e = challenge::create(&f.store, f.alice, &top, &limits, T0).unwrap_err();
    assert!(
        matches!(
            e,
            ChallengeError::AtOnce {
                running: 1,
                limit: 1
            }
        ),
        "{e}"
    );
    let e = challenge::stop(&f.store, f.bob, id, T0).unwrap_err();
    assert!(matches!(e, ChallengeError::NotYours { .. }), "{e}");
    challenge::top_up(&f.store, &limits, T0).unwrap();
    challenge::stop(&f.store, f.alice, id, T0).unwrap();
    let s = f.status(id);
    assert_eq!(
        (s.state, s.verdict),
        (ChallengeState::Stopped, Some(Verdict::None))
    );
    assert!(s.scheduled > 0);
    assert!(
        s.matches
            .iter()
            .all(|m| m.outcome == Some(GameOutcome::Void)),
        "nothing is left to play"
    );
    assert_eq!(f.store.queue().remaining(s.ladder).unwrap(), 0);
    assert_eq!(
        f.store.challenges().usage(f.alice, day_of(T0)).unwrap(),
        0,
        "games never played are given back to the day's"
    );
    let e = challenge::stop(&f.store, f.alice, id, T0).unwrap_err();
    assert!(matches!(e, ChallengeError::Ended { .. }), "{e}");
    challenge::create(&f.store, f.alice, &top, &limits, T0).unwrap();
}

/// Every game of the registry, with its example bots and a short config:
/// a challenge of four games plays all four at the seats of the game's
/// continuous ladder (its fewest), each seat filled, none of them void.
fn every_game_plays_a_challenge_at_its_ladders_seats(db: Db) {
    let f = fixture(&db);
    for game in ludus_engine::games() {
        if game.id != GAME {
            let short = [
                serde_json::json!({ "max_turns": 12 }),
                serde_json::json!({ "episodeSteps": 12 }),
            ];
            assert!(
                short
                    .into_iter()
                    .any(|c| season::start(&f.store, game.id, Some(c), None).is_ok()),
                "{}: no short config",
                game.id
            );
        }
        let examples = ludus_testkit::example_bots(game.id);
        assert!(examples.len() >= 2, "{}: {examples:?}", game.id);
        let tested = format!("{}-tested", game.id);
        let rival = format!("{}-rival", game.id);
        f.submit_bytes(f.alice, &tested, game.id, &wasm(&examples[0]), true);
        f.submit_bytes(f.bob, &rival, game.id, &wasm(&examples[1]), false);
        let id = f
            .challenge(f.alice, &tested, &[&rival], Test::Games { games: 4 }, 5)
            .unwrap_or_else(|e| panic!("{}: {e}", game.id));
        f.play(&ChallengeLimits::default(), T0, 2);
        let s = f.status(id);
        assert_eq!(
            (s.state, s.scheduled, s.finished, s.games),
            (ChallengeState::Finished, 4, 4, 4),
            "{}: {s:?}",
            game.id
        );
        let seats = game.fewest_seats();
        for m in &s.matches {
            assert_eq!(m.seats.len(), seats, "{}: {m:?}", game.id);
            assert!(m.match_id.is_some(), "{}: {m:?}", game.id);
            assert_ne!(m.outcome, Some(GameOutcome::Void), "{}: {m:?}", game.id);
        }
    }
}
