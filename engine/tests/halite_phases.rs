//! Each phase of Halite's turn run alone on a small hand-made board, so that
//! what a test sees is that phase's work and no later phase's (the
//! whole-turn tests are in `halite_rules.rs`). Numbered as
//! `docs/games/halite.md`; boards are 5 × 5, cell = row * 5 + column.

mod halite_common;

use halite_common::*;
use ludus_engine::halite::rejection_kind as kind;
use ludus_engine::halite::{Action, Halite, Num, Ship, Shipyard, Status};

/// `ship` with an action bound, as phase 1 leaves it.
fn ship_doing(id: &str, owner: usize, pos: usize, cargo: i64, action: Action) -> Ship {
    let mut s = ship(id, owner, pos, cargo);
    s.action = Some(action);
    s
}

/// `yard` told to spawn, as phase 1 leaves it.
fn yard_spawning(id: &str, owner: usize, pos: usize) -> Shipyard {
    let mut y = yard(id, owner, pos);
    y.spawn = true;
    y
}

fn alive(g: &Halite, id: &str) -> bool {
    find_ship(g, id).is_some_and(Ship::is_alive)
}

// 1. Bind actions.

#[test]
fn binding_gives_each_asset_its_action_and_zeroes_shipyard_cells() {
    let mut g = board(
        &[(7, Num::Float(12.5))],
        vec![ship("0-1", 0, 3, 0), ship("0-2", 1, 9, 0)],
        vec![yard("0-3", 0, 7)],
        &[1000, 1000],
    );
    let mut r = Vec::new();
    g.bind_actions(
        &[
            Some(r#"{"0-1": "NORTH", "0-3": "SPAWN", "0-2": "EAST"}"#),
            None,
        ],
        &mut r,
    );
    assert_eq!(g.ships()[0].action, Some(Action::North));
    assert!(g.shipyards()[0].spawn);
    // Seat 0 cannot order seat 1's ship; seat 1 said nothing.
    assert_eq!(g.ships()[1].action, None);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].kind, kind::UNKNOWN_ASSET);
    // The reference rebuilds the board with an int 0 under each shipyard.
    assert_eq!(cell_text(&g, 7), "0");
    // Nothing moves yet.
    assert_eq!(g.ships()[0].pos, 3);
}

#[test]
fn binding_a_value_outside_the_enum_makes_the_seat_invalid_and_binds_nothing() {
    let mut g = board(&[], vec![ship("0-1", 0, 3, 0)], vec![], &[1000, 1000]);
    let mut r = Vec::new();
    g.bind_actions(&[Some(r#"{"0-1": "NORTH", "x": 5}"#), None], &mut r);
    assert_eq!(g.seat_statuses()[0], Status::Invalid);
    assert_eq!(g.ships()[0].action, None);
    assert_eq!(r[0].kind, kind::INVALID_ACTION);
}

// 2.1 Spawns.

#[test]
fn a_shipyard_told_to_spawn_pays_spawn_cost_for_an_empty_ship_on_its_cell() {
    let mut g = board(
        &[],
        vec![],
        vec![yard_spawning("0-1", 0, 7), yard_spawning("0-2", 0, 12)],
        &[700, 0],
    );
    let mut r = Vec::new();
    g.spawn_ships(0, &mut r);
    // One ship's worth in the bank: the first shipyard spawns, the second
    // is refused.
    assert_eq!(ship_uids(&g), vec!["11-1"]);
    assert_eq!(
        (g.ships()[0].pos, num_text(g.ships()[0].halite)),
        (7, "0".into())
    );
    assert_eq!(num_text(g.banks()[0]), "200");
    assert_eq!(r[0].kind, kind::SPAWN_REFUSED);
    assert!(!g.shipyards()[1].spawn);
}

// 2.2 Converts.

#[test]
fn a_convert_takes_a_shortfall_from_the_bank_and_returns_the_surplus() {
    let mut g = board(
        &[(3, Num::Int(40)), (9, Num::Int(40))],
        vec![
            ship_doing("0-1", 0, 3, 300, Action::Convert),
            ship_doing("0-2", 0, 9, 700, Action::Convert),
        ],
        vec![],
        &[250, 0],
    );
    let surplus = g.convert_ships(0, &mut Vec::new());
    // 300 + 250 pays 500: the bank gives its 200; 700 leaves 200 over,
    // returned and not yet banked.
    assert_eq!(num_text(g.banks()[0]), "50");
    assert_eq!(num_text(surplus), "200");
    assert_eq!(yard_uids(&g), vec!["11-1", "11-2"]);
    assert!(!alive(&g, "0-1") && !alive(&g, "0-2"));
    assert_eq!(
        (cell_text(&g, 3), cell_text(&g, 9)),
        ("0".into(), "0".into())
    );
}

#[test]
fn a_convert_on_a_shipyard_or_short_of_the_cost_is_refused_and_the_ship_stays() {
    let mut g = board(
        &[],
        vec![
            ship_doing("0-1", 0, 7, 900, Action::Convert),
            ship_doing("0-2", 0, 9, 100, Action::Convert),
        ],
        vec![yard("0-3", 1, 7)],
        &[100, 0],
    );
    let mut r = Vec::new();
    let surplus = g.convert_ships(0, &mut r);
    assert_eq!(num_text(surplus), "0");
    assert!(alive(&g, "0-1") && alive(&g, "0-2"));
    assert_eq!(g.shipyards().len(), 1);
    assert!(r.iter().all(|r| r.kind == kind::CONVERT_REFUSED) && r.len() == 2);
}

// 2.3 Moves.

#[test]
fn a_moving_ship_goes_one_cell_wrapping_and_keeps_its_cargo_at_move_cost_0() {
    let mut g = board(
        &[],
        vec![
            ship_doing("0-1", 0, 2, 40, Action::North),
            ship_doing("0-2", 0, 9, 40, Action::East),
            ship_doing("0-3", 1, 12, 40, Action::South),
        ],
        vec![],
        &[0, 0],
    );
    g.move_ships(0);
    let pos: Vec<usize> = g.ships().iter().map(|s| s.pos).collect();
    // Seat 1 moves in its own turn of phase 2.
    assert_eq!(pos, vec![22, 5, 12]);
    assert_eq!(num_text(g.ships()[0].halite), "40");
}

#[test]
fn a_moving_ship_pays_move_cost_from_its_cargo() {
    let mut c = config(5);
    c.move_cost = Num::Float(0.25);
    let mut g = board_with(
        c,
        10,
        &[],
        vec![ship_doing("0-1", 0, 12, 40, Action::West)],
        vec![],
        &[0, 0],
    );
    g.move_ships(0);
    assert_eq!(g.ships()[0].pos, 11);
    assert_eq!(num_text(g.ships()[0].halite), "30.0");
}

// 2.4 The converts' surplus.

#[test]
fn the_converts_surplus_is_banked_after_the_moves() {
    let mut g = board(&[], vec![], vec![], &[50, 0]);
    g.bank_convert_surplus(0, Num::Int(200));
    assert_eq!(num_text(g.banks()[0]), "250");
    assert_eq!(num_text(g.banks()[1]), "0");
}

// 3. Ship–ship collisions.

#[test]
fn on_a_crowded_cell_the_strictly_lightest_ship_survives_with_the_others_cargo() {
    let mut g = board(
        &[],
        vec![
            ship("0-1", 0, 12, 30),
            ship("0-2", 1, 12, 10),
            ship("0-3", 0, 12, 50),
            ship("0-4", 0, 7, 5),
            ship("0-5", 1, 7, 5),
        ],
        vec![],
        &[0, 0],
    );
    g.ship_collisions();
    assert!(alive(&g, "0-2") && !alive(&g, "0-1") && !alive(&g, "0-3"));
    assert_eq!(num_text(find_ship(&g, "0-2").unwrap().halite), "90");
    // A tie for the least: all destroyed.
    assert!(!alive(&g, "0-4") && !alive(&g, "0-5"));
}

// 4. Ship–shipyard collisions.

#[test]
fn a_ship_on_another_seats_shipyard_destroys_it_and_itself() {
    let mut g = board(
        &[],
        vec![ship("0-1", 0, 7, 30), ship("0-2", 1, 12, 10)],
        vec![yard("0-3", 1, 7), yard("0-4", 1, 12)],
        &[0, 0],
    );
    g.ship_shipyard_collisions();
    assert!(!alive(&g, "0-1"));
    assert!(!g.shipyards()[0].is_alive());
    // Its own shipyard: nothing happens here.
    assert!(alive(&g, "0-2") && g.shipyards()[1].is_alive());
}

// 5. Deposits.

#[test]
fn a_ship_on_its_own_shipyard_banks_its_cargo() {
    let mut g = board(
        &[],
        vec![ship("0-1", 0, 7, 30), ship("0-2", 0, 8, 25)],
        vec![yard("0-3", 0, 7)],
        &[100, 0],
    );
    g.deposit();
    assert_eq!(num_text(g.banks()[0]), "130");
    assert_eq!(num_text(g.ships()[0].halite), "0");
    assert_eq!(num_text(g.ships()[1].halite), "25");
}

// 6. Mining.

#[test]
fn a_ship_that_did_not_move_and_is_not_on_a_shipyard_takes_a_quarter_truncated() {
    let mut g = board(
        &[(3, Num::Int(101)), (4, Num::Int(101)), (7, Num::Int(3))],
        vec![
            ship("0-1", 0, 3, 0),
            ship_doing("0-2", 0, 4, 0, Action::East),
            ship_doing("0-3", 1, 7, 0, Action::Convert),
        ],
        vec![],
        &[0, 0],
    );
    g.mine();
    assert_eq!(num_text(g.ships()[0].halite), "25");
    assert_eq!(cell_text(&g, 3), "76");
    // Told to move: no mining.
    assert_eq!(cell_text(&g, 4), "101");
    // A quarter of 3 is 0: nothing. A refused convert counts as staying.
    assert_eq!(cell_text(&g, 7), "3");
    assert_eq!(num_text(g.mined()[0]), "25");
    // Actions are spent.
    assert!(g.ships().iter().all(|s| s.action.is_none()));
}

// 7. Regeneration.

#[test]
fn every_cell_without_a_ship_grows_rounded_to_three_decimals_and_capped() {
    let mut g = board(
        &[
            (1, Num::Int(100)),
            (2, Num::Int(495)),
            (3, Num::Int(40)),
            (4, Num::Float(9.375)),
        ],
        vec![ship("0-1", 0, 3, 0)],
        vec![],
        &[0, 0],
    );
    g.regenerate();
    assert_eq!(cell_text(&g, 1), "102.0");
    // min(504.9, 500): the int cap.
    assert_eq!(cell_text(&g, 2), "500");
    assert_eq!(cell_text(&g, 3), "40");
    // 9.5625 exactly: half to even.
    assert_eq!(cell_text(&g, 4), "9.562");
    assert_eq!(cell_text(&g, 0), "0.0");
}

// 8. The turn counter.

#[test]
fn the_step_advances_and_the_assets_are_listed_seat_by_seat_without_the_dead() {
    let mut g = board(
        &[],
        vec![
            ship("0-1", 1, 3, 0),
            ship("0-2", 0, 4, 0),
            ship("0-3", 1, 5, 0),
            ship("0-4", 0, 5, 9),
        ],
        vec![],
        &[0, 0],
    );
    // Earlier in the step the lighter 0-3 destroyed 0-4.
    g.ship_collisions();
    g.advance_turn();
    assert_eq!(g.step_number(), 11);
    assert_eq!(ship_uids(&g), vec!["0-2", "0-1", "0-3"]);
}

// 9. Eliminations.

#[test]
fn a_seat_with_no_ship_and_no_means_to_spawn_is_out_and_an_invalid_seat_vanishes() {
    let mut g = board(
        &[],
        vec![ship("0-1", 2, 3, 0)],
        vec![yard("0-2", 1, 7)],
        &[1000, 499, 1000, 1000],
    );
    g.bind_actions(&[None, None, None, Some(r#"{"a": 1}"#)], &mut Vec::new());
    g.eliminate();
    // Seat 0: nothing. Seat 1: a shipyard but less than a ship's cost.
    assert_eq!(
        g.seat_statuses(),
        &[Status::Done, Status::Done, Status::Active, Status::Invalid]
    );
    // Out at step 10: 10 - 400 - 1.
    assert_eq!(g.seat_rewards()[0], Some(Num::Int(-391)));
    assert_eq!(num_text(g.banks()[3]), "0");
    // The eliminated keep what they had on the board.
    assert_eq!(g.shipyards().len(), 1);
}

// 10. The last-fleet check.

#[test]
fn with_one_active_seat_left_the_game_is_over() {
    let mut g = board(&[], vec![ship("0-1", 0, 3, 0)], vec![], &[0, 0]);
    g.eliminate();
    assert_eq!(g.seat_statuses(), &[Status::Active, Status::Done]);
    g.last_fleet_check();
    assert_eq!(g.seat_statuses(), &[Status::Done, Status::Done]);
    assert!(g.ended().is_some());
}

// 11. Rewards.

#[test]
fn an_active_seats_reward_is_its_bank_and_an_invalid_seats_is_null() {
    let mut g = board(&[], vec![ship("0-1", 0, 3, 0)], vec![], &[123, 50]);
    g.bind_actions(&[None, Some(r#"{"0-9": "STAY"}"#)], &mut Vec::new());
    g.update_rewards();
    assert_eq!(g.seat_rewards(), &[Some(Num::Int(123)), None]);
}

// 12. The turn limit.

#[test]
fn after_step_episode_steps_minus_one_every_active_seat_is_done() {
    let mut g = board_with(
        config(5),
        399,
        &[],
        vec![ship("0-1", 0, 3, 0), ship("0-2", 1, 4, 0)],
        vec![],
        &[0, 0],
    );
    g.turn_limit();
    assert_eq!(g.seat_statuses(), &[Status::Done, Status::Done]);
    let mut early = board(&[], vec![ship("0-1", 0, 3, 0)], vec![], &[0, 0]);
    early.turn_limit();
    assert_eq!(early.seat_statuses()[0], Status::Active);
}
