//! Pirates' maps, config, observation, answers and determinism, and
//! `legalActions` against what the game accepts, on random play.

mod pirates_common;

use ludus_engine::pirates::{
    hex, rejection_kind as kind, Difficulty, Hex, Map, Pirates, Terrain, STARTS,
};
use ludus_engine::{new_game, EngineError, Game};
use pirates_common::*;
use rand_core::RngCore;
use serde_json::{json, Value};

// --- Maps ----------------------------------------------------------------------------

/// Forty generated maps of every difficulty, with their terrain.
fn generated() -> impl Iterator<Item = (Difficulty, u64, Map, Vec<Terrain>)> {
    Difficulty::ALL.into_iter().flat_map(|d| {
        (0..40).map(move |seed| {
            let map = Map::generate(seed, d);
            let t = map.terrain();
            (d, seed, map, t)
        })
    })
}

#[test]
fn generated_maps_are_the_same_round_every_start() {
    for (d, seed, map, t) in generated() {
        for h in hex::all() {
            for (seat, image) in h.images().into_iter().enumerate() {
                assert_eq!(
                    t[h.index()],
                    t[image.index()],
                    "{d:?} seed {seed}: {h} and its image for seat {seat}"
                );
            }
        }
        let [a, b] = map.npc_starts();
        assert_eq!(a.half_turn(), b, "the NPCs start half a turn apart");
        assert_eq!(
            map.flag,
            Hex::CENTRE,
            "the first flag is as far from every start"
        );
        assert!(STARTS.iter().all(|s| s.distance(map.flag) == 14));
    }
}

#[test]
fn every_start_can_reach_every_flag_island_both_shops_and_the_npcs_ring() {
    for (d, seed, map, t) in generated() {
        let reach = flood_from(STARTS[0], &t);
        let near = |h: &Hex| h.neighbours().any(|n| reach[n.index()]);
        assert!(STARTS.iter().all(|s| reach[s.index()]), "{d:?} {seed}");
        assert!(map.flag_islands.iter().all(near), "{d:?} {seed}");
        assert_eq!(map.shops.len(), 2);
        assert!(map.shops.iter().all(near), "{d:?} {seed}");
        for h in hex::ring(map.npc_ring as i32) {
            assert_eq!(
                t[h.index()],
                Terrain::Water,
                "{d:?} {seed}: the ring is open"
            );
        }
        assert!(
            (0..t.len()).all(|i| !t[i].passable() || reach[i]),
            "{d:?} {seed}: no water is cut off"
        );
    }
}

fn flood_from(start: Hex, t: &[Terrain]) -> Vec<bool> {
    let mut seen = vec![false; t.len()];
    let mut stack = vec![start];
    seen[start.index()] = true;
    while let Some(h) = stack.pop() {
        for n in h.neighbours() {
            if !seen[n.index()] && t[n.index()].passable() {
                seen[n.index()] = true;
                stack.push(n);
            }
        }
    }
    seen
}

#[test]
fn harder_maps_have_more_islands_and_vortices() {
    let totals = |d: Difficulty| {
        (0..20).fold((0, 0), |(i, v), seed| {
            let m = Map::generate(seed, d);
            (i + m.islands.len(), v + m.vortices.len())
        })
    };
    let (easy, normal, hard) = (
        totals(Difficulty::Easy),
        totals(Difficulty::Normal),
        totals(Difficulty::Hard),
    );
    assert!(
        easy.0 < normal.0 && normal.0 < hard.0,
        "{easy:?} {normal:?} {hard:?}"
    );
    assert!(
        easy.1 < normal.1 && normal.1 < hard.1,
        "{easy:?} {normal:?} {hard:?}"
    );
}

#[test]
fn the_seed_makes_the_map_and_difficulty_selects_how_hard() {
    let map = |config: Value, seed: u64| {
        let g = Pirates::from_config(&config, seed, 4).unwrap();
        g.map().clone()
    };
    assert_eq!(map(Value::Null, 5), map(Value::Null, 5));
    assert_ne!(map(Value::Null, 5), map(Value::Null, 6));
    assert_eq!(map(Value::Null, 5), Map::generate(5, Difficulty::Normal));
    assert_eq!(
        map(json!({"difficulty": "hard"}), 5),
        Map::generate(5, Difficulty::Hard)
    );
}

// --- Config --------------------------------------------------------------------------

#[test]
fn setup_fed_back_as_config_rebuilds_the_same_game() {
    for seed in [0, 9, u64::MAX] {
        let g = new_game(
            "pirates",
            &json!({"difficulty": "easy", "max_turns": 300}),
            seed,
            4,
        )
        .unwrap();
        let setup = g.setup();
        assert_eq!(setup["max_turns"], 300);
        let again = new_game("pirates", &setup, seed, 4).unwrap();
        assert_eq!(again.state_hash(), g.state_hash());
        assert_eq!(again.setup(), setup);
    }
}

#[test]
fn bad_configs_are_refused_with_what_to_do() {
    let err = |config: Value| match Pirates::from_config(&config, 1, 4) {
        Err(EngineError::Config { reason, .. }) => reason,
        other => panic!("{config}: {other:?}"),
    };
    assert!(err(json!({"turns": 5})).contains("unknown field"));
    assert!(err(json!({"max_turns": 0})).contains("from 1 to 1000000"));
    assert!(err(json!({"difficulty": "insane"})).contains("\"easy\", \"normal\" or \"hard\""));
    let mut map = open_map().to_json();
    assert!(err(json!({"map": map.clone(), "difficulty": "easy"})).contains("either"));
    map["shops"] = json!([[1, 1, -2]]);
    assert!(err(json!({"map": map})).contains("not in `islands`"));
    let mut map = open_map().to_json();
    map["vortices"] = json!([[1, 1, 1]]);
    assert!(err(json!({"map": map})).contains("not a field of the sea"));
    let mut map = open_map().to_json();
    map["vortices"] = json!([[-7, -7, 14]]);
    assert!(err(json!({"map": map})).contains("player 1's start"));
    let mut map = open_map().to_json();
    map["npc_ring"] = json!(5);
    assert!(err(json!({"map": map})).contains("even"));
    let mut map = open_map().to_json();
    map["flag_islands"] = json!([[0, 0, 0]]);
    assert!(err(json!({"map": map})).contains("two flag islands"));
    assert!(matches!(
        Pirates::from_config(&Value::Null, 1, 2),
        Err(EngineError::PlayerCount { .. })
    ));
}

#[test]
fn a_flag_island_no_ship_can_reach_is_refused() {
    let mut map = open_map();
    let far = Hex::new(5, -10);
    map.islands.extend(far.neighbours());
    sort(&mut map);
    let e = Map::from_json(&map.to_json()).unwrap_err();
    assert!(
        e.contains("no ship can reach the flag island (5, -10, 5)"),
        "{e}"
    );
}

// --- What a bot sees -----------------------------------------------------------------

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[test]
fn the_observation_has_exactly_the_documented_fields() {
    let mut g = npcs_and_all();
    place(&mut g, 1, -5, -7);
    g.npc_mut(0).pos = Hex::new(-4, -7);
    let v = observe(&g, 0);
    assert_eq!(
        keys(&v),
        [
            "eliminated",
            "flag",
            "legalActions",
            "map",
            "move",
            "movesLeft",
            "npc1",
            "npc2",
            "player1",
            "player2",
            "player3",
            "player4",
            "toMove",
            "yourId"
        ]
    );
    assert_eq!(
        keys(&v["map"]),
        [
            "flagIslands",
            "islands",
            "npcRing",
            "radius",
            "shops",
            "vortices"
        ]
    );
    let ship = [
        "cannons",
        "gold",
        "health",
        "id",
        "illegalMoves",
        "maxHealth",
        "paralyzed",
        "potNums",
        "q",
        "r",
        "s",
        "sight",
        "whirlpoolDuration",
    ];
    assert_eq!(keys(&v["player1"]), ship);
    assert_eq!(
        keys(&v["player2"]),
        ship,
        "a ship in sight shows everything"
    );
    assert_eq!(
        keys(&v["npc1"]),
        [
            "cannons",
            "chasing",
            "firedAt",
            "health",
            "id",
            "maxHealth",
            "q",
            "r",
            "s",
            "sight"
        ]
    );
    assert_eq!(v["move"], 0);
    assert_eq!(v["movesLeft"], 5000);
    assert_eq!(
        (v["yourId"].as_u64(), v["toMove"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(v["map"]["radius"], 14);
    assert_eq!(v["player1"]["sight"], 5);
    assert!(v["legalActions"]
        .as_array()
        .unwrap()
        .contains(&json!("atk-2")));
}

fn npcs_and_all() -> Pirates {
    with_npcs(open_map())
}

#[test]
fn the_map_in_the_observation_is_the_map_played() {
    let g = Pirates::from_config(&json!({"difficulty": "hard"}), 4, 4).unwrap();
    let v = observe(&g, 2);
    let read = |k: &str| -> Vec<Hex> {
        v["map"][k]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let c: Vec<i64> = serde_json::from_value(c.clone()).unwrap();
                Hex::from_cube(c[0], c[1], c[2]).unwrap()
            })
            .collect()
    };
    let m = g.map();
    assert_eq!(read("islands"), m.islands);
    assert_eq!(read("shops"), m.shops);
    assert_eq!(read("flagIslands"), m.flag_islands);
    assert_eq!(read("vortices"), m.vortices);
}

// --- legalActions, both ways ---------------------------------------------------------

/// Every word a ship might answer, and some it should not.
const WORDS: [&str; 20] = [
    "nw",
    "ne",
    "e",
    "se",
    "sw",
    "w",
    "buy-POTION",
    "buy-HULL",
    "buy-CANNONS",
    "up",
    "atk-1",
    "atk-2",
    "atk-3",
    "atk-4",
    "atk-5",
    "atk-6",
    "atk-0",
    "atk-7",
    "stay",
    "n",
];

#[test]
fn legal_actions_are_exactly_what_the_game_accepts_on_thousands_of_random_moves() {
    let mut checked = 0;
    let mut accepted = 0;
    for (seed, d) in [(1, "easy"), (2, "normal"), (3, "hard"), (4, "hard")] {
        let mut g = Pirates::from_config(&json!({"difficulty": d}), seed, 4).unwrap();
        let mut rng = ludus_engine::rng::stream(seed, "test/both-ways");
        // Gold now and then, so ships at the shop can buy.
        while g.outcome().is_none() && g.turn() < 2500 {
            let seat = g.to_move();
            if rng.next_u32().is_multiple_of(50) {
                g.ship_mut(seat).gold += 300;
            }
            let legal = legal(&g, seat);
            let listed = observe(&g, seat)["legalActions"].clone();
            assert_eq!(listed, json!(legal), "the observation lists legal_actions");
            for word in WORDS {
                let mut trial = g.clone();
                let r = answer(&mut trial, word);
                let took =
                    r.is_empty() && trial.ship(seat).illegal_moves == g.ship(seat).illegal_moves;
                assert_eq!(
                    took,
                    legal.iter().any(|l| l == word) || legal.is_empty(),
                    "move {} seat {seat} {word}: legal {legal:?}, refused {r:?}",
                    g.turn()
                );
                checked += 1;
                accepted += usize::from(took && !legal.is_empty());
            }
            one_move(&mut g, seed);
        }
    }
    assert!(
        checked > 100_000 && accepted > 20_000,
        "{checked} {accepted}"
    );
}

// --- Hostile answers -----------------------------------------------------------------

#[test]
fn hostile_answers_are_refused_and_counted_never_a_panic() {
    let huge = "e".repeat(1 << 20);
    let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let deep_string = format!("\"{}\"", "\\\\".repeat(50_000));
    let cases: [(&str, &str); 12] = [
        (&huge, kind::UNPARSEABLE),
        (&nested, kind::UNPARSEABLE),
        (&deep_string, kind::UNPARSEABLE),
        ("{\"action\": \"nw\"}", kind::UNPARSEABLE),
        ("\"nw", kind::UNPARSEABLE),
        ("atk--1", kind::UNPARSEABLE),
        ("atk-1e3", kind::UNPARSEABLE),
        ("atk-999999999999999999999999", kind::UNPARSEABLE),
        ("atk-18446744073709551615", kind::NO_SUCH_TARGET),
        ("atk-4294967297", kind::NO_SUCH_TARGET),
        ("buy-KRAKEN", kind::UNPARSEABLE),
        ("\u{feff}nw\u{0}", kind::UNPARSEABLE),
    ];
    let mut g = open_sea();
    for (n, (raw, k)) in cases.iter().enumerate() {
        turn_of(&mut g, 0);
        let r = answer(&mut g, raw);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind, *k, "{}", &raw[..raw.len().min(40)]);
        assert!(r[0].reason.len() < 400, "{}", r[0].reason);
        assert_eq!(g.ship(0).illegal_moves, n as u32 + 1);
    }
    assert_eq!(g.ship(0).pos, start(0));
}

#[test]
fn random_text_never_panics_the_reader_and_only_action_words_are_read() {
    let pieces = [
        "nw",
        "ne",
        "e",
        "se",
        "sw",
        "w",
        "buy-",
        "POTION",
        "HULL",
        "CANNONS",
        "up",
        "atk-",
        "0",
        "1",
        "5",
        "9",
        "-",
        "\"",
        "\\",
        " ",
        "\n",
        "{",
        "}",
        "[",
        "]",
        ":",
        "é",
        "\u{0}",
        "\u{feff}",
        "99999999999999999999",
    ];
    let mut rng = ludus_engine::rng::stream(11, "test/pirates-random-text");
    let mut g = open_sea();
    place(&mut g, 0, 0, -3);
    place(&mut g, 1, 1, -3);
    let mut read = 0;
    for _ in 0..50_000 {
        let n = 1 + rng.next_u32() as usize % 6;
        let text: String = (0..n)
            .map(|_| pieces[rng.next_u32() as usize % pieces.len()])
            .collect();
        match ludus_engine::pirates::parse_action(&text) {
            Ok(a) => {
                read += 1;
                let again = ludus_engine::pirates::parse_action(&a.name()).unwrap();
                assert_eq!(again, a, "{text:?}");
            }
            Err(reason) => assert!(reason.len() < 300, "{reason}"),
        }
        let mut trial = g.clone();
        let r = answer(&mut trial, &text);
        assert!(r.len() <= 1, "{text:?}: {r:?}");
        assert_eq!(
            trial.ship(0).illegal_moves,
            u32::from(!r.is_empty()),
            "{text:?}: a refusal is an illegal move, an action is not"
        );
    }
    assert!(read > 1000, "{read}");
}

// --- Determinism ---------------------------------------------------------------------

#[test]
fn the_same_seed_and_answers_give_the_same_state_hashes() {
    let run = |seed: u64| {
        let mut g = Pirates::from_config(&Value::Null, seed, 4).unwrap();
        random_play(&mut g, seed, 2000)
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}
