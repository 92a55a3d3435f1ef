//! Kore's turn as a whole on small hand-made boards: what the phases do
//! together, phase by phase (each phase alone is in `kore_phases.rs`).

mod kore_common;

use kore_common::*;
use ludus_engine::kore::{Dir, Num};

// Phase 1: spawning and launching.

#[test]
fn spawning_without_the_kore_is_ignored() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 0, 7)], vec![]);
    play(&mut g, r#"{"0-1": "SPAWN_3"}"#);
    play(&mut g, r#"{"0-1": "SPAWN_3"}"#);
    assert_eq!(shipyard_by(&g, "0-1").ships, 6);
    // 440.0 left; now ask for more than that buys at once.
    let mut g2 = g.clone();
    let r = play(&mut g2, r#"{"0-1": "SPAWN_3"}"#);
    assert_eq!(
        shipyard_by(&g2, "0-1").ships,
        9,
        "3 more at 30 kore is affordable"
    );
    assert!(r.is_empty());
}

#[test]
fn a_launched_fleet_leaves_the_shipyard_and_moves_the_same_turn() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 10, 0)], vec![]);
    play(&mut g, r#"{"0-1": "LAUNCH_5_E2N"}"#);
    assert_eq!(shipyard_by(&g, "0-1").ships, 5);
    let f = fleet_by(&g, "1-1");
    assert_eq!(
        (f.pos, f.ships, f.dir, f.plan.as_str()),
        (at(3, 4), 5, Dir::East, "2N")
    );
    assert_int(f.kore, 0);
}

#[test]
fn flight_plans_are_cut_to_floor_2_ln_ships_plus_1() {
    // floor(2 ln 2) + 1 = 2: "N1E1S1" becomes "N1".
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 2, 0)], vec![]);
    play(&mut g, r#"{"0-1": "LAUNCH_2_N1E1S1"}"#);
    let f = fleet_by(&g, "1-1");
    assert_eq!((f.pos, f.dir, f.plan.as_str()), (at(2, 3), Dir::North, "1"));
}

#[test]
fn plans_are_upper_cased_as_python_does() {
    // `ſ`.upper() is "S" in Python.
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 3, 0)], vec![]);
    play(&mut g, r#"{"0-1": "LAUNCH_3_n\u017f"}"#);
    let f = fleet_by(&g, "1-1");
    assert_eq!((f.dir, f.plan.as_str()), (Dir::North, "S"));
}

// Phase 2 and 3: flight plans, conversion, moving.

#[test]
fn a_number_counts_down_while_the_fleet_keeps_its_direction() {
    let fleets = vec![
        fleet(0, 1, at(1, 1), Num::Int(0), 3, Dir::North, "10E"),
        fleet(0, 2, at(3, 1), Num::Int(0), 3, Dir::South, "1E"),
        fleet(0, 3, at(1, 4), Num::Int(0), 3, Dir::West, "05"),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    let f = fleet_by(&g, "0-1");
    assert_eq!(
        (f.pos, f.dir, f.plan.as_str()),
        (at(0, 1), Dir::North, "9E")
    );
    let f = fleet_by(&g, "0-2");
    assert_eq!((f.pos, f.plan.as_str()), (at(4, 1), "E"));
    // Leading zeros are dropped first: "05" counts as 5.
    let f = fleet_by(&g, "0-3");
    assert_eq!((f.pos, f.plan.as_str()), (at(1, 3), "4"));
}

#[test]
fn a_fleet_too_small_to_convert_skips_the_c() {
    let fleets = vec![fleet(0, 1, at(1, 1), Num::Int(0), 40, Dir::North, "CW")];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    let f = fleet_by(&g, "0-1");
    assert_eq!((f.pos, f.dir, f.plan.as_str()), (at(1, 0), Dir::West, ""));
    assert_eq!(g.shipyards().len(), 2);
}

// Phase 4: allied fleets coalesce.

#[test]
fn allied_fleets_on_one_cell_merge_into_the_one_with_most_ships() {
    let fleets = vec![
        fleet(0, 1, at(2, 1), Num::Float(1.0), 5, Dir::East, "3S"),
        fleet(0, 2, at(2, 3), Num::Float(2.0), 3, Dir::West, "2N"),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    assert!(g.fleet("0-2").is_none());
    let f = fleet_by(&g, "0-1");
    assert_eq!(
        (f.pos, f.ships, f.dir, f.plan.as_str()),
        (at(2, 2), 8, Dir::East, "2S")
    );
    assert_float(f.kore, 3.0);
}

// Phase 5: fleet collisions.

#[test]
fn a_tie_destroys_every_fleet_and_leaves_their_kore_on_the_cell() {
    let fleets = vec![
        fleet(0, 1, at(3, 2), Num::Float(1.5), 5, Dir::East, ""),
        fleet(1, 2, at(3, 4), Num::Float(2.0), 5, Dir::West, ""),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    assert!(g.fleets().is_empty());
    // 3.5 dropped, then the empty cell regenerates: round(3.5 * 1.02, 3).
    assert_float(g.cells()[at(3, 3)], 3.57);
}

#[test]
fn a_tie_on_a_shipyard_gives_the_kore_to_its_owner() {
    let fleets = vec![
        fleet(0, 1, at(3, 2), Num::Float(1.5), 5, Dir::East, ""),
        fleet(1, 2, at(3, 4), Num::Float(2.0), 5, Dir::West, ""),
    ];
    let mut g = game(
        vec![
            shipyard(0, 1, at(5, 5), 0, 0),
            shipyard(1, 2, at(3, 3), 9, 0),
        ],
        fleets,
    );
    play(&mut g, "{}");
    assert!(g.fleets().is_empty());
    assert_float(g.player_kore()[1], 503.5);
    assert_eq!(shipyard_by(&g, "0-2").ships, 9);
}

// Phase 8: damage to adjacent enemy fleets.

#[test]
fn adjacent_damage_kills_and_splits_the_kore_half_to_the_cell_half_to_the_attacker() {
    let fleets = vec![
        fleet(0, 1, at(3, 1), Num::Int(0), 10, Dir::East, ""),
        fleet(1, 2, at(4, 3), Num::Float(8.0), 4, Dir::North, ""),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    assert!(g.fleet("0-2").is_none());
    let a = fleet_by(&g, "0-1");
    assert_eq!((a.pos, a.ships), (at(3, 2), 6));
    assert_float(a.kore, 4.0);
    // 4.0 dropped on the victim's cell, then regenerated.
    assert_float(g.cells()[at(3, 3)], 4.08);
}

#[test]
fn adjacent_damage_below_the_ship_count_only_weakens() {
    let fleets = vec![
        fleet(0, 1, at(3, 1), Num::Int(0), 10, Dir::East, ""),
        fleet(1, 2, at(4, 3), Num::Float(8.0), 12, Dir::North, ""),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    // 12 damage kills the 10-ship fleet; 10 damage leaves the other 2 ships.
    assert!(g.fleet("0-1").is_none());
    let b = fleet_by(&g, "0-2");
    assert_eq!(b.ships, 2);
    assert_float(b.kore, 8.0);
}
