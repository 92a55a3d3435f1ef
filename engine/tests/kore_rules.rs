//! Kore's turn, phase by phase, on small hand-made boards.

mod kore_common;

use kore_common::*;
use ludus_engine::kore::{rejection_kind, Dir, Num};

// Phase 1: spawning and launching.

#[test]
fn spawning_costs_spawn_cost_per_ship_and_adds_ships() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 0, 0)], vec![]);
    play(&mut g, r#"{"0-1": "SPAWN_1"}"#);
    let s = shipyard_by(&g, "0-1");
    assert_eq!(s.ships, 1);
    assert_eq!(s.turns_controlled, 1);
    // 500 - 10.0 * 1: the float spawn cost makes the kore a float.
    assert_float(g.player_kore()[0], 490.0);
}

#[test]
fn spawning_more_than_the_cap_is_ignored() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 0, 1)], vec![]);
    let r = play(&mut g, r#"{"0-1": "SPAWN_2"}"#);
    assert_eq!(shipyard_by(&g, "0-1").ships, 0);
    assert_int(g.player_kore()[0], 500);
    assert!(r.iter().any(|r| r.kind == rejection_kind::SPAWN_REFUSED));
}

#[test]
fn the_spawn_cap_rises_with_turns_controlled() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 0, 2)], vec![]);
    play(&mut g, r#"{"0-1": "SPAWN_2"}"#);
    assert_eq!(shipyard_by(&g, "0-1").ships, 2);
    assert_float(g.player_kore()[0], 480.0);
}

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
fn launching_more_ships_than_the_shipyard_holds_is_ignored() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 4, 0)], vec![]);
    let r = play(&mut g, r#"{"0-1": "LAUNCH_5_E"}"#);
    assert!(g.fleets().is_empty());
    assert_eq!(shipyard_by(&g, "0-1").ships, 4);
    assert!(r.iter().any(|r| r.kind == rejection_kind::LAUNCH_REFUSED));
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
fn fleets_wrap_around_the_board() {
    let fleets = vec![fleet(0, 1, at(0, 0), Num::Int(0), 3, Dir::South, "N")];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    assert_eq!(fleet_by(&g, "0-1").pos, at(SIZE - 1, 0));
}

#[test]
fn a_fleet_of_convert_cost_ships_converts_into_a_shipyard() {
    let mut cells = vec![Num::Int(0); SIZE * SIZE];
    cells[at(1, 1)] = Num::Int(100);
    let fleets = vec![fleet(0, 1, at(1, 1), Num::Float(12.5), 60, Dir::North, "C")];
    let mut g = game_with(cells, vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    assert!(g.fleet("0-1").is_none());
    let s = shipyard_by(&g, "1-1");
    assert_eq!(
        (s.owner, s.pos, s.ships, s.turns_controlled),
        (0, at(1, 1), 10, 0)
    );
    // The fleet's kore is deposited, the cell's destroyed.
    assert_float(g.player_kore()[0], 512.5);
    assert_int(g.cells()[at(1, 1)], 0);
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

#[test]
fn on_equal_ships_the_fleet_with_more_kore_absorbs_the_other() {
    let fleets = vec![
        fleet(0, 1, at(2, 1), Num::Float(1.0), 5, Dir::East, ""),
        fleet(0, 2, at(2, 3), Num::Float(2.0), 5, Dir::West, ""),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    assert!(g.fleet("0-1").is_none());
    let f = fleet_by(&g, "0-2");
    assert_eq!((f.ships, f.dir), (10, Dir::West));
}

// Phase 5: fleet collisions.

#[test]
fn in_a_collision_the_largest_fleet_survives_less_the_second_largest() {
    let fleets = vec![
        fleet(0, 1, at(3, 2), Num::Float(1.0), 10, Dir::East, ""),
        fleet(1, 2, at(3, 4), Num::Float(2.0), 6, Dir::West, ""),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    assert!(g.fleet("0-2").is_none());
    let f = fleet_by(&g, "0-1");
    assert_eq!((f.pos, f.ships), (at(3, 3), 4));
    assert_float(f.kore, 3.0);
}

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

// Phase 6: fleet–shipyard collisions.

#[test]
fn a_larger_enemy_fleet_captures_the_shipyard() {
    let fleets = vec![fleet(0, 1, at(3, 2), Num::Float(4.0), 10, Dir::East, "")];
    let mut g = game(
        vec![
            shipyard(0, 1, at(5, 5), 0, 0),
            shipyard(1, 2, at(3, 3), 3, 50),
        ],
        fleets,
    );
    play(&mut g, "{}");
    assert!(g.shipyard("0-2").is_none());
    assert!(g.fleets().is_empty());
    let s = shipyard_by(&g, "1-1");
    assert_eq!(
        (s.owner, s.pos, s.ships, s.turns_controlled),
        (0, at(3, 3), 7, 1)
    );
    assert_float(g.player_kore()[0], 504.0);
}

#[test]
fn a_shipyard_with_at_least_as_many_ships_destroys_the_fleet() {
    let fleets = vec![fleet(0, 1, at(3, 2), Num::Float(4.0), 10, Dir::East, "")];
    let mut g = game(
        vec![
            shipyard(0, 1, at(5, 5), 0, 0),
            shipyard(1, 2, at(3, 3), 10, 0),
        ],
        fleets,
    );
    play(&mut g, "{}");
    assert!(g.fleets().is_empty());
    let s = shipyard_by(&g, "0-2");
    assert_eq!((s.owner, s.ships), (1, 0));
    assert_float(g.player_kore()[1], 504.0);
}

// Phase 7: deposits.

#[test]
fn a_fleet_docking_at_its_own_shipyard_deposits_ships_and_kore() {
    let fleets = vec![fleet(0, 1, at(3, 2), Num::Float(4.5), 4, Dir::East, "")];
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 2, 0)], fleets);
    play(&mut g, "{}");
    assert!(g.fleets().is_empty());
    assert_eq!(shipyard_by(&g, "0-1").ships, 6);
    assert_float(g.player_kore()[0], 504.5);
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
fn the_attackers_share_in_proportion_and_a_dead_attackers_share_drops_on_the_cell() {
    let fleets = vec![
        fleet(0, 1, at(4, 2), Num::Int(0), 6, Dir::North, ""),
        fleet(0, 2, at(4, 4), Num::Int(0), 2, Dir::North, ""),
        fleet(1, 3, at(4, 3), Num::Float(8.0), 4, Dir::North, ""),
    ];
    let mut g = game(vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    // The victim takes 6 + 2 and dies; it deals 4 to each: the 2-ship
    // attacker dies too, the 6-ship one keeps 2.
    assert!(g.fleet("0-2").is_none() && g.fleet("0-3").is_none());
    let a = fleet_by(&g, "0-1");
    assert_eq!(a.ships, 2);
    assert_float(a.kore, 3.0); // 4.0 * 6 / 8
                               // 4.0 dropped + the dead attacker's 1.0, regenerated.
    assert_float(g.cells()[at(3, 3)], round(5.0 * 1.02));
    // The dead attacker dropped half of its int 0: the float 0.0.
    assert_float(g.cells()[at(3, 4)], 0.0);
    // The survivor's cell is skipped by regeneration: still the int 0.
    assert_int(g.cells()[at(3, 2)], 0);
}

fn round(x: f64) -> f64 {
    ludus_engine::kore::round3(x)
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

// Phase 9: mining.

#[test]
fn a_fleet_mines_round_of_ln_ships_over_20_of_its_cell() {
    let mut cells = vec![Num::Int(0); SIZE * SIZE];
    cells[at(3, 3)] = Num::Int(100);
    cells[at(1, 3)] = Num::Int(100);
    let fleets = vec![
        fleet(0, 1, at(3, 2), Num::Int(0), 21, Dir::East, ""),
        fleet(0, 2, at(1, 2), Num::Int(0), 1, Dir::East, ""),
    ];
    let mut g = game_with(cells, vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    let delta = round(100.0 * (21f64.ln() / 20.0));
    assert_eq!(delta, 15.223);
    assert_float(fleet_by(&g, "0-1").kore, delta);
    assert_float(g.cells()[at(3, 3)], 100.0 - delta);
    // One ship mines ln 1 = 0: nothing moves, the cell stays an int.
    assert_int(fleet_by(&g, "0-2").kore, 0);
    assert_int(g.cells()[at(1, 3)], 100);
}

// Phase 10: regeneration.

#[test]
fn empty_cells_below_the_cap_regenerate_and_may_overshoot_it() {
    let mut cells = vec![Num::Int(0); SIZE * SIZE];
    cells[at(1, 1)] = Num::Int(100);
    cells[at(1, 2)] = Num::Int(500);
    cells[at(1, 3)] = Num::Float(499.9);
    cells[at(2, 1)] = Num::Int(40);
    let fleets = vec![fleet(0, 1, at(2, 0), Num::Int(0), 1, Dir::East, "")];
    let mut g = game_with(cells, vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    play(&mut g, "{}");
    assert_float(g.cells()[at(1, 1)], 102.0);
    assert_int(g.cells()[at(1, 2)], 500);
    assert_float(g.cells()[at(1, 3)], 509.898);
    // Under a fleet (1 ship mines nothing): no regeneration.
    assert_int(g.cells()[at(2, 1)], 40);
    assert_int(g.cells()[at(5, 5)], 0);
    assert_float(g.cells()[at(4, 4)], 0.0);
}
