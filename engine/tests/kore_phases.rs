//! Each phase of Kore's turn run alone on a small hand-made position, so
//! that what a test sees is that phase's work and no later phase's (the
//! whole-turn tests are in `kore_rules.rs`). Numbered as `docs/games/kore.md`.

mod kore_common;

use kore_common::*;
use ludus_engine::kore::{rejection_kind, Dir, Kore, Num, Order, PyInt, Status};
use ludus_engine::Rejection;

/// Orders indexed like the game's shipyards, from (shipyard uid, order).
fn orders(g: &Kore, given: &[(&str, Order)]) -> Vec<Option<Order>> {
    g.shipyards()
        .iter()
        .map(|s| {
            given
                .iter()
                .find(|(uid, _)| s.uid.to_string() == *uid)
                .map(|(_, o)| o.clone())
        })
        .collect()
}

fn spawn(n: u64) -> Order {
    Order::Spawn(PyInt::from(n))
}

fn launch(n: u64, plan: &str) -> Order {
    Order::Launch(n, plan.to_string())
}

// 0. Reading the answers.

#[test]
fn reading_gives_each_shipyard_its_order_and_refuses_unknown_uids() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 5, 0)], vec![]);
    let mut r = Vec::new();
    let o = g.read_orders(
        &[
            Some(r#"{"0-1": "LAUNCH_2_n", "0-99": "SPAWN_1", "x": 1}"#),
            None,
        ],
        &mut r,
    );
    assert_eq!(o, orders(&g, &[("0-1", launch(2, "N"))]));
    // Seat 1's shipyard is not seat 0's to order; `x` names nothing.
    let unknown: Vec<&Rejection> = r
        .iter()
        .filter(|r| r.kind == rejection_kind::UNKNOWN_UID)
        .collect();
    assert_eq!(unknown.len(), 2, "{r:?}");
    // Reading changes nothing on the board.
    assert_eq!(g.shipyards()[0].ships, 5);
}

#[test]
fn reading_an_answer_upstream_raises_on_errors_the_seat_and_drops_its_orders() {
    let mut g = game(
        vec![
            shipyard(0, 1, at(3, 3), 5, 0),
            shipyard(0, 2, at(1, 1), 5, 0),
        ],
        vec![],
    );
    let mut r = Vec::new();
    let o = g.read_orders(
        &[Some(r#"{"0-1": "SPAWN_1", "0-2": "SPAWN_x"}"#), None],
        &mut r,
    );
    assert!(o.iter().all(Option::is_none), "{o:?}");
    assert_eq!(g.status()[0], Status::Error);
    assert!(r.iter().any(|r| r.kind == rejection_kind::AGENT_ERROR));
    // The seat's assets go only at the end of the step.
    assert_eq!(g.shipyards().len(), 3);
}

// 1. Spawning and launching.

#[test]
fn spawning_pays_spawn_cost_per_ship_and_every_shipyard_counts_a_turn() {
    let mut g = game(
        vec![
            shipyard(0, 1, at(3, 3), 0, 2),
            shipyard(0, 2, at(1, 1), 0, 0),
        ],
        vec![],
    );
    let o = orders(&g, &[("0-1", spawn(2))]);
    let mut r = Vec::new();
    g.spawn_and_launch(0, &o, &mut r);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(shipyard_by(&g, "0-1").ships, 2);
    assert_float(g.player_kore()[0], 480.0);
    assert_eq!(shipyard_by(&g, "0-1").turns_controlled, 3);
    assert_eq!(shipyard_by(&g, "0-2").turns_controlled, 1);
    // The other seat's shipyard waits for its own turn of phase 1.
    assert_eq!(shipyard_by(&g, "0-99").turns_controlled, 0);
}

#[test]
fn a_spawn_over_the_cap_or_the_kore_is_refused() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 0, 0)], vec![]);
    let o = orders(&g, &[("0-1", spawn(2))]);
    let mut r = Vec::new();
    g.spawn_and_launch(0, &o, &mut r);
    assert_eq!(shipyard_by(&g, "0-1").ships, 0);
    assert_int(g.player_kore()[0], 500);
    assert_eq!(r[0].kind, rejection_kind::SPAWN_REFUSED);
}

#[test]
fn a_launched_fleet_stands_on_its_shipyard_with_its_plan_cut() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 10, 0)], vec![]);
    // floor(2 ln 2) + 1 = 2 characters.
    let o = orders(&g, &[("0-1", launch(2, "E2N"))]);
    g.spawn_and_launch(0, &o, &mut Vec::new());
    assert_eq!(shipyard_by(&g, "0-1").ships, 8);
    let f = fleet_by(&g, "1-1");
    assert_eq!(
        (f.owner, f.pos, f.ships, f.dir, f.plan.as_str()),
        (0, at(3, 3), 2, Dir::East, "E2")
    );
    assert_int(f.kore, 0);
}

#[test]
fn launching_more_ships_than_the_shipyard_holds_is_refused() {
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 4, 0)], vec![]);
    let o = orders(&g, &[("0-1", launch(5, "E"))]);
    let mut r = Vec::new();
    g.spawn_and_launch(0, &o, &mut r);
    assert!(g.fleets().is_empty());
    assert_eq!(r[0].kind, rejection_kind::LAUNCH_REFUSED);
}

// 2. Flight plans and conversion.

#[test]
fn a_plan_turns_on_a_letter_and_counts_a_number_down_without_moving() {
    let fleets = vec![
        fleet(0, 1, at(1, 1), Num::Int(0), 3, Dir::North, "10E"),
        fleet(0, 2, at(3, 1), Num::Int(0), 3, Dir::South, "W3"),
        fleet(0, 3, at(1, 4), Num::Int(0), 3, Dir::West, "0CC5"),
    ];
    let mut g = game(vec![], fleets);
    g.follow_flight_plans(0);
    let f = fleet_by(&g, "0-1");
    assert_eq!(
        (f.pos, f.dir, f.plan.as_str()),
        (at(1, 1), Dir::North, "9E")
    );
    let f = fleet_by(&g, "0-2");
    assert_eq!((f.pos, f.dir, f.plan.as_str()), (at(3, 1), Dir::West, "3"));
    // Leading zeros dropped, then Cs skipped by a fleet too small to convert.
    let f = fleet_by(&g, "0-3");
    assert_eq!((f.dir, f.plan.as_str()), (Dir::West, "4"));
}

#[test]
fn a_c_on_a_fleet_of_convert_cost_ships_off_a_shipyard_builds_one_in_its_place() {
    let mut cells = vec![Num::Int(0); SIZE * SIZE];
    cells[at(1, 1)] = Num::Int(100);
    let fleets = vec![
        fleet(0, 1, at(1, 1), Num::Float(12.5), 60, Dir::North, "CN"),
        // On a shipyard a C cannot convert: it is skipped.
        fleet(0, 2, at(6, 6), Num::Int(0), 60, Dir::North, "CE"),
    ];
    let mut g = game_with(cells, vec![], fleets);
    g.follow_flight_plans(0);
    assert!(g.fleet("0-1").is_none());
    let s = shipyard_by(&g, "1-1");
    assert_eq!(
        (s.owner, s.pos, s.ships, s.turns_controlled),
        (0, at(1, 1), 10, 0)
    );
    assert_float(g.player_kore()[0], 512.5);
    assert_int(g.cells()[at(1, 1)], 0);
    assert_eq!(fleet_by(&g, "0-2").dir, Dir::East);
}

// 3. Moving.

#[test]
fn each_fleet_of_the_seat_moves_one_cell_wrapping_round_the_board() {
    let fleets = vec![
        fleet(0, 1, at(0, 0), Num::Int(0), 3, Dir::North, ""),
        fleet(0, 2, at(2, 6), Num::Int(0), 3, Dir::East, "2"),
        fleet(1, 3, at(4, 4), Num::Int(0), 3, Dir::South, ""),
    ];
    let mut g = game(vec![], fleets);
    g.move_fleets(0);
    assert_eq!(fleet_by(&g, "0-1").pos, at(SIZE - 1, 0));
    let f = fleet_by(&g, "0-2");
    assert_eq!((f.pos, f.plan.as_str()), (at(2, 0), "2"));
    // Seat 1 moves in its own turn of phase 3.
    assert_eq!(fleet_by(&g, "0-3").pos, at(4, 4));
}

// 4. Allied fleets coalesce.

#[test]
fn a_seats_fleets_on_one_cell_merge_into_the_largest_which_keeps_its_plan() {
    let fleets = vec![
        fleet(0, 1, at(2, 2), Num::Float(1.0), 3, Dir::West, "2N"),
        fleet(0, 2, at(2, 2), Num::Float(2.0), 5, Dir::East, "3S"),
        fleet(0, 3, at(2, 2), Num::Float(4.0), 5, Dir::South, ""),
        fleet(1, 4, at(2, 2), Num::Float(8.0), 9, Dir::North, ""),
    ];
    let mut g = game(vec![], fleets);
    g.coalesce_allied_fleets(0);
    // 0-3 has as many ships as 0-2 and more kore.
    assert!(g.fleet("0-1").is_none() && g.fleet("0-2").is_none());
    let f = fleet_by(&g, "0-3");
    assert_eq!((f.ships, f.dir, f.plan.as_str()), (13, Dir::South, ""));
    assert_float(f.kore, 7.0);
    // Fleets of other seats are not allies.
    assert_eq!(fleet_by(&g, "0-4").ships, 9);
}

// 5. Fleet collisions.

#[test]
fn the_largest_fleet_on_a_cell_survives_less_the_second_and_takes_the_kore() {
    let fleets = vec![
        fleet(0, 1, at(3, 3), Num::Float(1.0), 10, Dir::East, ""),
        fleet(1, 2, at(3, 3), Num::Float(2.0), 6, Dir::West, ""),
    ];
    let mut g = game(vec![], fleets);
    g.resolve_fleet_collisions();
    assert!(g.fleet("0-2").is_none());
    let f = fleet_by(&g, "0-1");
    assert_eq!(f.ships, 4);
    assert_float(f.kore, 3.0);
}

#[test]
fn on_a_tie_every_fleet_dies_and_the_kore_drops_on_the_cell_or_to_the_shipyards_owner() {
    let fleets = vec![
        fleet(0, 1, at(3, 3), Num::Float(1.5), 5, Dir::East, ""),
        fleet(1, 2, at(3, 3), Num::Float(2.0), 5, Dir::West, ""),
        fleet(0, 3, at(6, 6), Num::Float(1.0), 4, Dir::East, ""),
        fleet(1, 4, at(6, 6), Num::Float(2.0), 4, Dir::West, ""),
    ];
    let mut g = game(vec![], fleets);
    g.resolve_fleet_collisions();
    assert!(g.fleets().iter().all(|f| !f.is_alive()));
    // Exactly the sum, not yet regenerated.
    assert_float(g.cells()[at(3, 3)], 3.5);
    // (6, 6) holds seat 1's shipyard.
    assert_float(g.player_kore()[1], 503.0);
}

// 6. Fleet–shipyard collisions.

#[test]
fn a_larger_enemy_fleet_captures_the_shipyard_as_a_new_one() {
    let fleets = vec![fleet(0, 1, at(3, 3), Num::Float(4.0), 10, Dir::East, "")];
    let mut g = game(vec![shipyard(1, 2, at(3, 3), 3, 50)], fleets);
    g.resolve_shipyard_collisions();
    assert!(g.shipyard("0-2").is_none());
    assert!(g.fleet("0-1").is_none());
    let s = shipyard_by(&g, "1-1");
    assert_eq!(
        (s.owner, s.pos, s.ships, s.turns_controlled),
        (0, at(3, 3), 7, 1)
    );
    assert_float(g.player_kore()[0], 504.0);
}

#[test]
fn a_shipyard_with_at_least_as_many_ships_loses_them_and_its_owner_takes_the_kore() {
    let fleets = vec![fleet(0, 1, at(3, 3), Num::Float(4.0), 10, Dir::East, "")];
    let mut g = game(vec![shipyard(1, 2, at(3, 3), 10, 0)], fleets);
    g.resolve_shipyard_collisions();
    assert!(g.fleet("0-1").is_none());
    let s = shipyard_by(&g, "0-2");
    assert_eq!((s.owner, s.ships), (1, 0));
    assert_float(g.player_kore()[1], 504.0);
}

// 7. Deposits.

#[test]
fn a_fleet_on_its_own_shipyard_docks_its_ships_and_kore() {
    let fleets = vec![
        fleet(0, 1, at(3, 3), Num::Float(4.5), 4, Dir::East, "N"),
        fleet(0, 2, at(2, 2), Num::Float(1.0), 4, Dir::East, ""),
    ];
    let mut g = game(vec![shipyard(0, 1, at(3, 3), 2, 0)], fleets);
    g.deposit_at_own_shipyards();
    assert!(g.fleet("0-1").is_none());
    assert_eq!(shipyard_by(&g, "0-1").ships, 6);
    assert_float(g.player_kore()[0], 504.5);
    // A fleet off its shipyards keeps its cargo.
    assert_float(fleet_by(&g, "0-2").kore, 1.0);
}

// 8. Adjacent damage.

#[test]
fn adjacent_enemies_trade_damage_counted_before_any_is_dealt() {
    let fleets = vec![
        fleet(0, 1, at(3, 2), Num::Int(0), 6, Dir::North, ""),
        fleet(0, 2, at(3, 4), Num::Int(0), 2, Dir::North, ""),
        fleet(1, 3, at(3, 3), Num::Float(8.0), 4, Dir::North, ""),
        // Diagonal: out of reach.
        fleet(1, 4, at(2, 1), Num::Float(8.0), 1, Dir::North, ""),
    ];
    let mut g = game(vec![], fleets);
    g.damage_adjacent_fleets();
    // The victim takes 6 + 2 and dies; it deals 4 to each: the 2-ship
    // attacker dies too, the 6-ship one keeps 2.
    assert!(g.fleet("0-3").is_none() && g.fleet("0-2").is_none());
    let a = fleet_by(&g, "0-1");
    assert_eq!(a.ships, 2);
    // Half of 8.0 to the attackers by damage: 6/8 of 4.0 to the survivor.
    assert_float(a.kore, 3.0);
    // The other half, and the dead attacker's share, on the victim's cell;
    // the dead attacker drops half of its int 0 on its own.
    assert_float(g.cells()[at(3, 3)], 5.0);
    assert_float(g.cells()[at(3, 4)], 0.0);
    assert_eq!(fleet_by(&g, "0-4").ships, 1);
}

// 9. Mining.

#[test]
fn a_fleet_mines_round_of_ln_ships_over_20_of_its_cell() {
    let mut cells = vec![Num::Int(0); SIZE * SIZE];
    cells[at(3, 3)] = Num::Int(100);
    cells[at(1, 3)] = Num::Int(100);
    let fleets = vec![
        fleet(0, 1, at(3, 3), Num::Int(0), 21, Dir::East, ""),
        fleet(0, 2, at(1, 3), Num::Int(0), 1, Dir::East, ""),
    ];
    let mut g = game_with(cells, vec![], fleets);
    g.mine_kore();
    assert_float(fleet_by(&g, "0-1").kore, 15.223);
    assert_float(g.cells()[at(3, 3)], 100.0 - 15.223);
    // One ship mines ln 1 = 0: nothing moves, the cell stays an int.
    assert_int(fleet_by(&g, "0-2").kore, 0);
    assert_int(g.cells()[at(1, 3)], 100);
}

// 10. Regeneration.

#[test]
fn cells_without_fleet_or_shipyard_below_the_cap_grow_by_the_regen_rate() {
    let mut cells = vec![Num::Int(0); SIZE * SIZE];
    cells[at(1, 1)] = Num::Int(100);
    cells[at(1, 2)] = Num::Int(500);
    cells[at(1, 3)] = Num::Float(499.9);
    cells[at(2, 1)] = Num::Int(40);
    cells[at(2, 2)] = Num::Float(9.375);
    let fleets = vec![fleet(0, 1, at(2, 1), Num::Int(0), 1, Dir::East, "")];
    let mut g = game_with(cells, vec![shipyard(0, 1, at(5, 5), 0, 0)], fleets);
    g.regenerate_kore();
    assert_float(g.cells()[at(1, 1)], 102.0);
    assert_int(g.cells()[at(1, 2)], 500);
    assert_float(g.cells()[at(1, 3)], 509.898);
    // 9.375 * 1.02 = 9.5625 exactly: a tie, rounded half to even.
    assert_float(g.cells()[at(2, 2)], 9.562);
    assert_int(g.cells()[at(2, 1)], 40);
    assert_int(g.cells()[at(5, 5)], 0);
    assert_float(g.cells()[at(4, 4)], 0.0);
}

// 11. The end of the step.

#[test]
fn the_step_ends_with_a_seat_that_has_nothing_out_and_the_others_rewarded() {
    let mut g = position(
        config(),
        9,
        &[Num::Float(490.0), Num::Int(500), Num::Int(500), Num::Int(7)],
        vec![
            shipyard(0, 1, at(1, 1), 0, 0),
            shipyard(2, 2, at(5, 5), 0, 0),
        ],
        vec![fleet(3, 3, at(3, 3), Num::Int(0), 1, Dir::North, "")],
    );
    g.end_turn();
    assert_eq!(g.step_number(), 10);
    assert_eq!(
        g.status(),
        &[Status::Active, Status::Done, Status::Active, Status::Active]
    );
    // Out at step 10: 10 - 400 - 1.
    assert_eq!(
        g.reward(),
        &[
            Some(Num::Float(490.0)),
            Some(Num::Int(-391)),
            Some(Num::Int(500)),
            Some(Num::Int(7))
        ]
    );
}

#[test]
fn the_step_ends_an_errored_seat_with_nothing_and_the_game_with_one_seat_left() {
    let mut g = game(
        vec![shipyard(0, 1, at(1, 1), 4, 0)],
        vec![fleet(0, 2, at(3, 3), Num::Float(2.0), 3, Dir::North, "")],
    );
    g.read_orders(&[Some(r#"{"0-1": 5}"#), None], &mut Vec::new());
    g.end_turn();
    assert_eq!(g.status(), &[Status::Error, Status::Done]);
    assert!(g.fleets().is_empty());
    assert!(g.shipyards().iter().all(|s| s.owner == 1));
    assert_int(g.player_kore()[0], 0);
    assert_eq!(g.reward(), &[None, Some(Num::Int(500))]);
}
