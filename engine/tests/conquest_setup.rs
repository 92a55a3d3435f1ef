//! Conquest's board (rules 1 and 2), its config, the state's fields, and
//! determinism.

mod conquest_common;

use conquest_common::*;
use ludus_engine::conquest::{quarter_of, CapitalMode, Conquest, Setup};
use ludus_engine::grid::{corner, mirror};
use ludus_engine::{new_game, Game};
use serde_json::{json, Value};

#[test]
fn generated_boards_are_12x12_with_walls_and_capitals_mirrored_into_all_four_quarters() {
    let mut spots = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let g = Conquest::from_config(&Value::Null, seed, 4).unwrap();
        let b = g.board();
        assert_eq!((b.width, b.height), (12, 12));
        let cap0 = g.team(0).capital;
        let (x, y) = b.xy(cap0);
        assert!(
            (1..=4).contains(&x) && (1..=4).contains(&y),
            "seed {seed}: ({x}, {y})"
        );
        spots.insert(cap0);
        let walls = &g.setup_config().walls;
        let per_quarter = walls.iter().filter(|&&w| quarter_of(b, w) == 0).count();
        assert!(
            (3..=6).contains(&per_quarter),
            "seed {seed}: {per_quarter} walls"
        );
        for s in 0..4 {
            assert_eq!(g.team(s).capital, mirror(b, s, cap0), "seed {seed}");
            for &w in walls {
                assert!(
                    g.is_wall(mirror(b, s, w)),
                    "seed {seed}: walls are mirrored"
                );
            }
            assert!(!g.is_wall(corner(b, s)));
            for c in std::iter::once(g.team(s).capital).chain(b.neighbours(g.team(s).capital)) {
                assert!(!g.is_wall(c), "seed {seed}: walls keep clear of capitals");
            }
        }
        let free: Vec<usize> = (0..b.len()).filter(|&c| !g.is_wall(c)).collect();
        let reached = ludus_engine::grid::flood(b, &free[..1], |c| !g.is_wall(c));
        assert!(
            free.iter().all(|&c| reached[c]),
            "seed {seed}: the board is in one piece"
        );
    }
    assert_eq!(spots.len(), 16, "every spot of the quarter comes up");
}

#[test]
fn every_team_starts_in_the_same_position_up_to_a_mirror() {
    let g = Conquest::from_config(&Value::Null, 11, 4).unwrap();
    let b = g.board();
    let frame = |seat: usize| -> Vec<Value> {
        let o = observe(&g, seat);
        (0..b.len())
            .map(|c| {
                let (x, y) = b.xy(mirror(b, seat, c));
                let owner = &o["owner"][y][x];
                json!([owner.as_i64().map(|v| v == seat as i64), o["seen"][y][x]])
            })
            .collect()
    };
    for seat in 1..4 {
        assert_eq!(frame(seat), frame(0), "seat {seat}");
        assert_eq!(
            legal(&observe(&g, seat)).len(),
            legal(&observe(&g, 0)).len()
        );
    }
}

#[test]
fn the_same_board_whatever_the_capital_mode() {
    for mode in ["corners", "choose"] {
        let a = Conquest::from_config(&Value::Null, 4, 4).unwrap();
        let b = Conquest::from_config(&json!({"capitals": mode}), 4, 4).unwrap();
        assert_eq!(a.setup_config().walls, b.setup_config().walls, "{mode}");
    }
}

#[test]
fn config_errors_say_what_to_do() {
    for (config, says) in [
        (json!({"width": 13, "height": 12}), "even"),
        (json!({"width": 12}), "both"),
        (json!({"width": 6, "height": 6}), "8 to 32"),
        (
            json!({"capitals": "random"}),
            "\"mirrored\", \"corners\" or \"choose\"",
        ),
        (json!({"capital": [0, 0]}), "one cell in from the edge"),
        (json!({"capital": [7, 2]}), "top-left quarter"),
        (
            json!({"walls": [[0, 0]], "capitals": "corners"}),
            "keep the corners",
        ),
        (
            json!({"walls": [[2, 2]], "capital": [2, 2]}),
            "keep the corners and the capitals free",
        ),
        (
            json!({"walls": [[1, 0], [1, 1], [0, 2], [1, 2]]}),
            "in parts",
        ),
        (json!({"walls": [[12, 0]]}), "off the board"),
        (json!({"max_turns": 0}), "1 to 100000"),
        (json!({"quiet_turns": -1}), "quiet_turns"),
        (json!({"turns": 5}), "unknown field"),
        (json!([1]), "null or an object"),
    ] {
        let e = Conquest::from_config(&config, 1, 4)
            .unwrap_err()
            .to_string();
        assert!(e.contains(says), "{config}: {e}");
        assert!(e.starts_with("invalid config for conquest"), "{e}");
    }
    let e = new_game("conquest", &Value::Null, 1, 2)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(e, "conquest is played by 4 players, not 2");
}

#[test]
fn a_config_sets_the_board_the_capitals_and_the_lengths() {
    let g = Conquest::from_config(
        &json!({"width": 10, "height": 8, "walls": [[4, 3]], "capital": [2, 1], "max_turns": 9, "quiet_turns": 4}),
        1,
        4,
    )
    .unwrap();
    let caps: Vec<_> = (0..4).map(|s| xy(&g, g.team(s).capital)).collect();
    assert_eq!(caps, vec![(2, 1), (7, 1), (7, 6), (2, 6)]);
    assert_eq!(g.setup_config().walls, vec![g.board().index(4, 3)]);
    let o = observe(&g, 0);
    assert_eq!(
        (o["width"].clone(), o["height"].clone()),
        (json!(10), json!(8))
    );
    assert_eq!(o["turns_remaining"], 9);
    assert_eq!(o["rules"]["quiet_turns"], 4);
}

#[test]
fn a_short_match_ends_after_max_turns() {
    let mut g = new_game("conquest", &json!({"max_turns": 3}), 9, 4).unwrap();
    random_play(g.as_mut(), 9, 100);
    assert_eq!(g.turn(), 3);
    assert!(g
        .outcome()
        .unwrap()
        .reason
        .starts_with("turn limit (3) reached"));
}

#[test]
fn setup_fed_back_as_config_rebuilds_the_same_game() {
    for (seed, config) in [
        (3, Value::Null),
        (8, json!({"capitals": "choose"})),
        (2, json!({"width": 16, "height": 10})),
    ] {
        let g = Conquest::from_config(&config, seed, 4).unwrap();
        let again = Conquest::from_config(&g.setup(), seed, 4).unwrap();
        assert_eq!(g.state_hash(), again.state_hash(), "{config}");
        assert_eq!(again.setup(), g.setup());
        let other_seed = Conquest::from_config(&g.setup(), seed + 1, 4).unwrap();
        assert_eq!(other_seed.setup(), g.setup(), "the setup fixes the board");
    }
}

#[test]
fn the_same_seed_and_answers_give_the_same_state_hashes() {
    for seed in [0, 5, u64::MAX] {
        let run = || {
            let mut g = new_game("conquest", &Value::Null, seed, 4).unwrap();
            random_play(g.as_mut(), seed, 300)
        };
        let a = run();
        assert_eq!(a, run(), "seed {seed}");
        assert!(a.len() > 50);
    }
    let a = Conquest::from_config(&Value::Null, 1, 4).unwrap();
    let b = Conquest::from_config(&Value::Null, 2, 4).unwrap();
    assert_ne!(a.state_hash(), b.state_hash());
}

#[test]
fn the_state_has_exactly_the_documented_fields() {
    let g = Conquest::new(
        Setup {
            width: 8,
            height: 8,
            walls: vec![],
            capitals: CapitalMode::Choose,
            spot: 9,
            max_turns: 300,
            quiet_turns: 30,
        },
        1,
    );
    let o = observe(&g, 0);
    assert_eq!(
        keys(&o),
        sorted(&[
            "turn",
            "turns_remaining",
            "width",
            "height",
            "phase",
            "capital_choices",
            "owner",
            "seen",
            "walls",
            "region",
            "capitals",
            "former_capitals",
            "buildings",
            "garrisons",
            "self",
            "robots",
            "battles",
            "alive",
            "rules",
            "legal_actions",
        ])
    );
    assert_eq!(
        keys(&o["self"]),
        sorted(&[
            "team",
            "alive",
            "position",
            "capital",
            "army",
            "gold",
            "income",
            "busy",
            "task",
            "supplied",
            "score",
            "cells",
            "silent_turns",
            "weapons",
            "relocate_ready_in",
        ])
    );
    assert_eq!(
        keys(&o["self"]["army"]),
        sorted(&["attack", "defense", "reserve", "garrisoned", "in_battle"])
    );
    assert_eq!(
        keys(&o["self"]["weapons"]),
        sorted(&["bomb", "missile", "mirv", "hbomb"])
    );
    assert_eq!(
        keys(&o["self"]["weapons"]["mirv"]),
        sorted(&["ready_in", "cost", "range", "blast", "damage", "cooldown", "targets"])
    );
    assert_eq!(o["self"]["weapons"]["hbomb"]["blast"], 2);
    assert_eq!(o["rules"]["weapons"]["missile"]["damage"], 220);
    assert_eq!(o["rules"]["income"]["soldiers"]["per_cell"], 0.4);
    assert_eq!(o["region"][7], json!([3, 3, 3, 3, 2, 2, 2, 2]));
}
