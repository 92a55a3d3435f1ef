//! The turn, phase by phase, on small hand-made boards (5 × 5, cell =
//! row * 5 + column; NORTH is one row up). Each expectation is what the
//! reference (`Board.next()` and `interpreter()` of kaggle-environments
//! 1.33.2) does on the same board.

mod halite_common;

use halite_common::*;
use ludus_engine::halite::rejection_kind as kind;
use ludus_engine::halite::{Num, Status};
use ludus_engine::Game;

const C: usize = 12; // the centre cell: row 2, column 2

// --- 1. Bind actions ----------------------------------------------------------

#[test]
fn a_key_naming_no_asset_of_the_seat_is_ignored() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 0), ship("3-2", 1, 0, 0)],
        vec![],
        &[0, 0],
    );
    let r = step(
        &mut g,
        &[r#"{"3-2": "NORTH", "9-9": "EAST", "03-1": "WEST"}"#, ""],
    );
    assert_eq!(find_ship(&g, "3-1").unwrap().pos, C, "not moved by 03-1");
    assert_eq!(find_ship(&g, "3-2").unwrap().pos, 0, "another seat's ship");
    assert_eq!(
        r.iter().filter(|r| r.kind == kind::UNKNOWN_ASSET).count(),
        3
    );
    assert_eq!(g.seat_statuses()[0], Status::Active);
}

#[test]
fn spawn_for_a_ship_and_a_move_for_a_shipyard_are_ignored() {
    let mut g = board(
        &[(C, Num::Int(100))],
        vec![ship("3-1", 0, C, 0)],
        vec![yard("2-1", 0, 0)],
        &[1000, 0],
    );
    let r = step(&mut g, &[r#"{"3-1": "SPAWN", "2-1": "NORTH"}"#, ""]);
    assert_eq!(ship_uids(&g), vec!["3-1"]);
    assert_eq!(g.shipyards()[0].pos, 0);
    assert_eq!(g.banks()[0], Num::Int(1000));
    // The ship had no bound action, so it stayed and mined.
    assert_eq!(find_ship(&g, "3-1").unwrap().halite, Num::Int(25));
    assert_eq!(
        r.iter().filter(|r| r.kind == kind::NOT_APPLICABLE).count(),
        2
    );
}

#[test]
fn answers_that_are_not_objects_are_valid_and_bind_nothing() {
    for answer in [
        "null",
        "\"NORTH\"",
        "[\"NORTH\"]",
        "7",
        "2.5",
        "true",
        "[]",
        "{}",
    ] {
        let mut g = board(
            &[],
            vec![ship("3-1", 0, C, 0), ship("3-2", 1, 0, 0)],
            vec![],
            &[0, 0],
        );
        let r = step(&mut g, &[answer, ""]);
        assert!(r.is_empty(), "{answer}: {r:?}");
        assert_eq!(g.seat_statuses()[0], Status::Active, "{answer}");
        assert_eq!(find_ship(&g, "3-1").unwrap().pos, C, "{answer}");
    }
}

#[test]
fn a_value_outside_the_action_enum_makes_the_seat_invalid() {
    for bad in [
        "5",
        "null",
        "\"north\"",
        "\"STAY\"",
        "[\"EAST\"]",
        "{}",
        "1.5",
    ] {
        let mut g = board(
            &[(C, Num::Int(100))],
            vec![
                ship("3-1", 0, C, 40),
                ship("3-2", 0, 0, 0),
                ship("3-3", 1, 24, 0),
            ],
            vec![],
            &[700, 0],
        );
        let answer = format!(r#"{{"3-2": "EAST", "3-1": {bad}}}"#);
        let r = step(&mut g, &[&answer, ""]);
        assert_eq!(g.seat_statuses()[0], Status::Invalid, "{bad}");
        assert_eq!(g.seat_rewards()[0], None, "{bad}");
        assert_eq!(r[0].kind, kind::INVALID_ACTION, "{bad}");
        // Its assets still took part in the step without actions (the ship
        // on C mined: the cell lost 25 and did not regenerate), then vanished
        // with the bank.
        assert_eq!(g.halite()[C], Num::Int(75), "{bad}");
        assert_eq!(g.banks()[0], Num::Int(0), "{bad}");
        assert_eq!(ship_uids(&g), vec!["3-3"], "{bad}");
        assert!(reference(&g, 0).contains(r#""players":[[0,{},{}],[0,{},{"3-3":[24,0]}]]"#));
    }
}

#[test]
fn text_that_is_not_json_is_read_as_a_string_and_binds_nothing() {
    for text in [
        "NORTH please",
        " ",
        "{\"3-1\": \"NORTH\"",
        "{'3-1': 'NORTH'}",
    ] {
        let mut g = board(
            &[],
            vec![ship("3-1", 0, C, 0), ship("3-2", 1, 0, 0)],
            vec![],
            &[0, 0],
        );
        let r = step(&mut g, &[text, ""]);
        assert_eq!(r.len(), 1, "{text:?}");
        assert_eq!(r[0].kind, kind::UNPARSEABLE);
        assert_eq!(g.seat_statuses()[0], Status::Active);
        assert_eq!(find_ship(&g, "3-1").unwrap().pos, C);
    }
}

#[test]
fn an_invalid_seat_is_never_asked_again() {
    let mut g = board(
        &[],
        vec![
            ship("3-1", 0, C, 0),
            ship("3-2", 1, 0, 0),
            ship("3-3", 2, 24, 0),
            ship("3-4", 3, 4, 0),
        ],
        vec![],
        &[0, 0, 0, 0],
    );
    step(&mut g, &["{\"3-1\": 1}", "", "", ""]);
    let r = step(&mut g, &["{\"3-1\": 2}", r#"{"3-2": "EAST"}"#, "", ""]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(g.seat_statuses()[0], Status::Invalid);
    assert_eq!(find_ship(&g, "3-2").unwrap().pos, 1);
}

#[test]
fn a_seat_without_an_answer_binds_nothing_and_its_ships_mine() {
    let mut g = board(
        &[(C, Num::Int(40))],
        vec![ship("3-1", 0, C, 0)],
        vec![],
        &[0, 0],
    );
    let r = step(&mut g, &["", ""]);
    assert!(r.is_empty());
    assert_eq!(find_ship(&g, "3-1").unwrap().halite, Num::Int(10));
    assert_eq!(g.halite()[C], Num::Int(30));
}

// --- 2. Per seat: spawns, converts, moves ------------------------------------

#[test]
fn spawn_costs_spawn_cost_and_places_an_empty_ship_with_this_steps_uid() {
    let mut g = board(&[], vec![], vec![yard("2-1", 0, C)], &[1200, 0]);
    step(&mut g, &[r#"{"2-1": "SPAWN"}"#, ""]);
    assert_eq!(g.banks()[0], Num::Int(700));
    let s = find_ship(&g, "11-1").expect("ship 11-1: step 10 + 1, first uid");
    assert_eq!((s.owner, s.pos, s.halite), (0, C, Num::Int(0)));
}

#[test]
fn spawns_beyond_the_bank_are_refused_in_shipyard_order() {
    let mut g = board(
        &[],
        vec![],
        vec![yard("2-1", 0, 0), yard("4-1", 0, 6), yard("5-1", 0, C)],
        &[1000, 0],
    );
    let r = step(
        &mut g,
        &[r#"{"5-1": "SPAWN", "4-1": "SPAWN", "2-1": "SPAWN"}"#, ""],
    );
    let cells: Vec<usize> = g.ships().iter().map(|s| s.pos).collect();
    assert_eq!(cells, vec![0, 6], "the first two shipyards in board order");
    assert_eq!(ship_uids(&g), vec!["11-1", "11-2"]);
    assert_eq!(g.banks()[0], Num::Int(0));
    assert_eq!(
        r.iter().filter(|r| r.kind == kind::SPAWN_REFUSED).count(),
        1
    );
}

#[test]
fn spawn_is_paid_before_convert_within_a_seat() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 0)],
        vec![yard("2-1", 0, 0)],
        &[500, 0],
    );
    let r = step(&mut g, &[r#"{"3-1": "CONVERT", "2-1": "SPAWN"}"#, ""]);
    assert_eq!(ship_uids(&g), vec!["3-1", "11-1"]);
    assert_eq!(yard_uids(&g), vec!["2-1"]);
    assert_eq!(
        r.iter().filter(|r| r.kind == kind::CONVERT_REFUSED).count(),
        1
    );
}

#[test]
fn convert_takes_a_shortfall_from_the_bank_at_once() {
    let mut g = board(
        &[(C, Num::Int(100)), (6, Num::Int(100))],
        vec![ship("3-1", 0, C, 200), ship("3-2", 0, 6, 300)],
        vec![],
        &[400, 0],
    );
    let r = step(&mut g, &[r#"{"3-1": "CONVERT", "3-2": "CONVERT"}"#, ""]);
    // 200 + 400 pays; the bank is left with 100, and 300 + 100 does not.
    assert_eq!(yard_uids(&g), vec!["11-1"]);
    assert_eq!(g.shipyards()[0].pos, C);
    assert_eq!(g.banks()[0], Num::Int(100));
    assert_eq!(
        r.iter().filter(|r| r.kind == kind::CONVERT_REFUSED).count(),
        1
    );
    // The refused ship stayed and mined.
    assert_eq!(find_ship(&g, "3-2").unwrap().halite, Num::Int(325));
}

#[test]
fn convert_surplus_is_banked_only_after_all_of_the_seats_converts() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 1000), ship("3-2", 0, 6, 0)],
        vec![],
        &[0, 0],
    );
    step(&mut g, &[r#"{"3-1": "CONVERT", "3-2": "CONVERT"}"#, ""]);
    assert_eq!(yard_uids(&g), vec!["11-1"], "the surplus cannot fund 3-2");
    assert_eq!(g.banks()[0], Num::Int(500));
    assert!(find_ship(&g, "3-2").is_some());
}

#[test]
fn convert_on_a_shipyard_is_refused() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 1000)],
        vec![yard("2-1", 0, C)],
        &[1000, 0],
    );
    let r = step(&mut g, &[r#"{"3-1": "CONVERT"}"#, ""]);
    assert_eq!(yard_uids(&g), vec!["2-1"]);
    assert_eq!(r[0].kind, kind::CONVERT_REFUSED);
    // It stood on its own shipyard: it deposited.
    assert_eq!(g.banks()[0], Num::Int(2000));
}

#[test]
fn a_converted_cell_loses_its_halite() {
    let mut g = board(
        &[(C, Num::Int(300))],
        vec![ship("3-1", 0, C, 500)],
        vec![],
        &[0, 0],
    );
    step(&mut g, &[r#"{"3-1": "CONVERT"}"#, ""]);
    assert_eq!(yard_uids(&g), vec!["11-1"]);
    assert_eq!(g.banks()[0], Num::Int(0));
    assert_eq!(
        cell_text(&g, C),
        "0.0",
        "int 0 on conversion, then regenerated"
    );
}

#[test]
fn uids_count_across_seats_within_a_step() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 0), ship("3-2", 1, 6, 600)],
        vec![yard("2-1", 0, 0), yard("2-2", 1, 24)],
        &[500, 500],
    );
    step(
        &mut g,
        &[
            r#"{"2-1": "SPAWN"}"#,
            r#"{"3-2": "CONVERT", "2-2": "SPAWN"}"#,
        ],
    );
    // Seat 0's spawn, then seat 1's spawn, then seat 1's convert.
    assert_eq!(ship_uids(&g), vec!["3-1", "11-1", "11-2"]);
    assert_eq!(yard_uids(&g), vec!["2-1", "2-2", "11-3"]);
    assert_eq!(
        g.banks()[1],
        Num::Int(100),
        "500 - 500 + the surplus of 100"
    );
}

#[test]
fn moves_go_one_cell_and_wrap_around_the_board() {
    let mut g = board(
        &[],
        vec![
            ship("3-1", 0, 2, 0),  // top row
            ship("3-2", 0, 22, 0), // bottom row
            ship("3-3", 0, 14, 0), // right column
            ship("3-4", 0, 10, 0), // left column
            ship("3-5", 1, C, 0),
        ],
        vec![],
        &[0, 0],
    );
    step(
        &mut g,
        &[
            r#"{"3-1": "NORTH", "3-2": "SOUTH", "3-3": "EAST", "3-4": "WEST"}"#,
            r#"{"3-5": "NORTH"}"#,
        ],
    );
    let cells: Vec<usize> = g.ships().iter().map(|s| s.pos).collect();
    assert_eq!(cells, vec![22, 2, 10, 14, 7]);
}

// --- 3. Ship–ship collisions ---------------------------------------------------

#[test]
fn head_on_swaps_do_not_collide() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 100), ship("3-2", 1, 13, 50)],
        vec![],
        &[0, 0],
    );
    step(&mut g, &[r#"{"3-1": "EAST"}"#, r#"{"3-2": "WEST"}"#]);
    assert_eq!(find_ship(&g, "3-1").unwrap().pos, 13);
    assert_eq!(find_ship(&g, "3-2").unwrap().pos, C);
}

#[test]
fn the_lighter_ship_survives_and_takes_the_cargo() {
    let mut g = board(
        &[],
        vec![
            ship("3-1", 0, 11, 100),
            ship("3-2", 1, 13, 30),
            ship("3-3", 1, 7, 40),
        ],
        vec![],
        &[0, 0],
    );
    step(
        &mut g,
        &[r#"{"3-1": "EAST"}"#, r#"{"3-2": "WEST", "3-3": "SOUTH"}"#],
    );
    assert_eq!(ship_uids(&g), vec!["3-2"]);
    assert_eq!(find_ship(&g, "3-2").unwrap().halite, Num::Int(170));
}

#[test]
fn a_tie_for_the_least_cargo_destroys_all_allies_included() {
    let mut g = board(
        &[],
        vec![
            ship("3-1", 0, 11, 20),
            ship("3-2", 0, 13, 20),
            ship("3-3", 1, 7, 90),
        ],
        vec![],
        &[0, 0],
    );
    step(
        &mut g,
        &[r#"{"3-1": "EAST", "3-2": "WEST"}"#, r#"{"3-3": "SOUTH"}"#],
    );
    assert!(g.ships().is_empty());
}

#[test]
fn spawning_onto_an_own_idle_empty_ship_destroys_both() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 0)],
        vec![yard("2-1", 0, C)],
        &[1000, 0],
    );
    step(&mut g, &[r#"{"2-1": "SPAWN"}"#, ""]);
    assert!(g.ships().is_empty());
    assert_eq!(g.banks()[0], Num::Int(500));
}

#[test]
fn spawning_onto_an_own_loaded_ship_keeps_the_new_one_which_deposits() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 80)],
        vec![yard("2-1", 0, C)],
        &[1000, 0],
    );
    step(&mut g, &[r#"{"2-1": "SPAWN"}"#, ""]);
    assert_eq!(ship_uids(&g), vec!["11-1"]);
    assert_eq!(g.banks()[0], Num::Int(580));
}

// --- 4. Ship–shipyard collisions ------------------------------------------------

#[test]
fn an_enemy_ship_on_a_shipyard_destroys_both() {
    let mut g = board(
        &[],
        vec![ship("3-1", 1, 13, 300)],
        vec![yard("2-1", 0, C)],
        &[1000, 0],
    );
    step(&mut g, &["", r#"{"3-1": "WEST"}"#]);
    assert!(g.ships().is_empty());
    assert!(g.shipyards().is_empty());
    assert_eq!(g.banks(), &[Num::Int(1000), Num::Int(0)]);
}

#[test]
fn a_ship_defending_its_shipyard_wins_if_lighter_and_deposits_the_loot() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 0), ship("3-2", 1, 13, 300)],
        vec![yard("2-1", 0, C)],
        &[0, 0],
    );
    step(&mut g, &["", r#"{"3-2": "WEST"}"#]);
    assert_eq!(ship_uids(&g), vec!["3-1"]);
    assert_eq!(yard_uids(&g), vec!["2-1"]);
    assert_eq!(g.banks()[0], Num::Int(300));
}

// --- 5. Deposit -------------------------------------------------------------------

#[test]
fn deposit_banks_cargo_only_on_an_own_shipyard() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, 11, 250)],
        vec![yard("2-1", 0, C)],
        &[10, 0],
    );
    step(&mut g, &[r#"{"3-1": "EAST"}"#, ""]);
    assert_eq!(g.banks()[0], Num::Int(260));
    assert_eq!(find_ship(&g, "3-1").unwrap().halite, Num::Int(0));
}

#[test]
fn deposit_comes_after_collisions_so_a_rammed_ship_loses_its_cargo() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, 11, 250), ship("3-2", 1, 13, 10)],
        vec![yard("2-1", 0, C)],
        &[0, 0],
    );
    step(&mut g, &[r#"{"3-1": "EAST"}"#, r#"{"3-2": "WEST"}"#]);
    // 3-2 wins the collision with 260 on seat 0's shipyard, then destroys it.
    assert!(g.ships().is_empty());
    assert!(g.shipyards().is_empty());
    assert_eq!(g.banks()[0], Num::Int(0));
}

// --- 6. Mining ----------------------------------------------------------------------

#[test]
fn a_still_ship_mines_a_quarter_of_the_cell_truncated() {
    let mut g = board(
        &[(C, Num::Float(21.42)), (6, Num::Int(401))],
        vec![ship("3-1", 0, C, 0), ship("3-2", 0, 6, 7)],
        vec![],
        &[0, 0],
    );
    step(&mut g, &["", ""]);
    assert_eq!(find_ship(&g, "3-1").unwrap().halite, Num::Int(5));
    assert_eq!(cell_text(&g, C), "16.42");
    assert_eq!(find_ship(&g, "3-2").unwrap().halite, Num::Int(107));
    assert_eq!(cell_text(&g, 6), "301");
    assert_eq!(g.mined()[0], Num::Int(105));
}

#[test]
fn a_moving_ship_does_not_mine() {
    let mut g = board(
        &[(C, Num::Int(400)), (13, Num::Int(400))],
        vec![ship("3-1", 0, C, 0)],
        vec![],
        &[0, 0],
    );
    step(&mut g, &[r#"{"3-1": "EAST"}"#, ""]);
    assert_eq!(find_ship(&g, "3-1").unwrap().halite, Num::Int(0));
    assert_eq!(
        cell_text(&g, 13),
        "400",
        "a cell under a ship does not regenerate"
    );
    assert_eq!(cell_text(&g, C), "408.0");
}

#[test]
fn a_quarter_below_one_is_not_mined() {
    let mut g = board(
        &[(C, Num::Int(3))],
        vec![ship("3-1", 0, C, 0)],
        vec![],
        &[0, 0],
    );
    step(&mut g, &["", ""]);
    assert_eq!(find_ship(&g, "3-1").unwrap().halite, Num::Int(0));
    assert_eq!(cell_text(&g, C), "3");
}

// --- 7. Regeneration -------------------------------------------------------------

#[test]
fn regeneration_multiplies_and_rounds_to_three_decimals() {
    let mut g = board(
        &[
            (0, Num::Int(21)),
            (1, Num::Float(21.42)),
            (2, Num::Float(123.4565)),
            (3, Num::Float(7.8)),
        ],
        vec![],
        vec![],
        &[0, 0],
    );
    step(&mut g, &["", ""]);
    // Python: round(h * 1.02, 3).
    let got: Vec<String> = (0..4).map(|c| cell_text(&g, c)).collect();
    assert_eq!(got, vec!["21.42", "21.848", "125.926", "7.956"]);
    assert_eq!(cell_text(&g, 4), "0.0", "int 0 becomes float 0.0");
}

#[test]
fn regeneration_rounds_exact_ties_half_to_even() {
    let mut c = config(5);
    c.regen_rate = Num::Float(0.0625);
    let mut g = board_with(
        c,
        10,
        &[(0, Num::Int(1)), (1, Num::Int(3))],
        vec![],
        vec![],
        &[0, 0],
    );
    step(&mut g, &["", ""]);
    // 1.0625 and 3.1875 are exact ties at three decimals.
    assert_eq!(cell_text(&g, 0), "1.062");
    assert_eq!(cell_text(&g, 1), "3.188");
}

#[test]
fn regeneration_caps_at_the_int_max_cell_halite() {
    let mut g = board(
        &[
            (0, Num::Float(495.0)),
            (1, Num::Float(490.196_078_431_372_54)),
            (2, Num::Int(500)),
        ],
        vec![],
        vec![],
        &[0, 0],
    );
    step(&mut g, &["", ""]);
    assert_eq!(cell_text(&g, 0), "500", "above the cap: the int 500");
    assert_eq!(
        cell_text(&g, 1),
        "500.0",
        "exactly 500.0: min keeps the float"
    );
    assert_eq!(cell_text(&g, 2), "500");
}

#[test]
fn a_shipyard_cell_is_int_zero_under_a_ship_and_float_zero_without() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, C, 0)],
        vec![yard("2-1", 0, C), yard("2-2", 0, 0)],
        &[0, 0],
    );
    step(&mut g, &["", ""]);
    assert_eq!(cell_text(&g, C), "0");
    assert_eq!(cell_text(&g, 0), "0.0");
    step(&mut g, &["", ""]);
    assert_eq!(cell_text(&g, C), "0", "rebuilt as int 0 every step");
}

// --- 8. Turn counter ----------------------------------------------------------------

#[test]
fn the_step_counter_advances_and_assets_are_listed_seat_by_seat() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, 0, 0), ship("3-2", 1, 24, 0)],
        vec![yard("2-1", 0, C), yard("2-2", 1, 6)],
        &[500, 500],
    );
    step(&mut g, &["", r#"{"2-2": "SPAWN"}"#]);
    assert_eq!(g.step_number(), 11);
    assert_eq!(ship_uids(&g), vec!["3-1", "3-2", "11-1"]);
    step(&mut g, &[r#"{"2-1": "SPAWN"}"#, ""]);
    // 12-1 is seat 0's: it comes before seat 1's ships from the next step on.
    assert_eq!(ship_uids(&g), vec!["3-1", "12-1", "3-2", "11-1"]);
}

// --- 9. Elimination -------------------------------------------------------------------

#[test]
fn a_seat_without_ships_or_shipyards_is_done_with_step_minus_401() {
    let mut g = board(
        &[],
        vec![
            ship("3-1", 0, 11, 5),
            ship("3-2", 1, 13, 5),
            ship("3-3", 1, 0, 0),
        ],
        vec![],
        &[3000, 0],
    );
    step(&mut g, &[r#"{"3-1": "EAST"}"#, r#"{"3-2": "WEST"}"#]);
    assert_eq!(g.seat_statuses(), &[Status::Done, Status::Done]);
    assert_eq!(g.seat_rewards()[0], Some(Num::Int(11 - 400 - 1)));
    assert_eq!(
        g.banks()[0],
        Num::Int(3000),
        "the bank stays in the observation"
    );
}

#[test]
fn a_seat_with_a_shipyard_and_spawn_cost_banked_stays_in() {
    let mut g = board(
        &[],
        vec![ship("3-2", 1, 0, 0), ship("3-3", 1, 24, 0)],
        vec![yard("2-1", 0, C)],
        &[500, 0],
    );
    step(&mut g, &["", ""]);
    assert_eq!(g.seat_statuses()[0], Status::Active);
}

#[test]
fn a_seat_with_a_shipyard_but_less_than_spawn_cost_is_done() {
    let mut g = board(
        &[],
        vec![ship("3-2", 1, 0, 0), ship("3-3", 1, 24, 0)],
        vec![yard("2-1", 0, C)],
        &[499, 0],
    );
    step(&mut g, &["", ""]);
    assert_eq!(g.seat_statuses()[0], Status::Done);
    assert_eq!(g.seat_rewards()[0], Some(Num::Int(-390)));
    assert_eq!(
        yard_uids(&g),
        vec!["2-1"],
        "its shipyard stays on the board"
    );
}

// --- 10. Last-fleet check ---------------------------------------------------------------

#[test]
fn the_last_active_seat_is_done_with_the_reward_of_the_step_before() {
    let mut g = board(
        &[],
        vec![ship("3-1", 0, 11, 0), ship("3-2", 1, C, 50)],
        vec![yard("2-2", 1, 13)],
        &[100, 800],
    );
    // 3-1 (empty) rams seat 1's loaded ship and takes its 50; seat 1 keeps
    // a shipyard and 800 banked, so it stays in.
    step(&mut g, &[r#"{"3-1": "EAST"}"#, ""]);
    assert_eq!(ship_uids(&g), vec!["3-1"]);
    assert_eq!(g.seat_statuses(), &[Status::Active, Status::Active]);
    assert_eq!(g.seat_rewards()[1], Some(Num::Int(800)));
    // Seat 1 spawns (bank 300) as 3-1 moves onto its shipyard: the new,
    // empty ship wins, takes 50 and deposits it (bank 350). Seat 0 is out.
    step(&mut g, &[r#"{"3-1": "EAST"}"#, r#"{"2-2": "SPAWN"}"#]);
    assert_eq!(g.seat_statuses(), &[Status::Done, Status::Done]);
    assert_eq!(g.seat_rewards()[0], Some(Num::Int(12 - 401)));
    assert_eq!(g.banks()[1], Num::Int(350));
    assert_eq!(
        g.seat_rewards()[1],
        Some(Num::Int(800)),
        "the survivor's reward froze at the step before"
    );
    assert!(g.outcome().is_some());
    assert_eq!(g.outcome().unwrap().placements, vec![2, 1]);
    // A finished game does not move.
    let hash = g.state_hash();
    step(&mut g, &[r#"{"3-1": "EAST"}"#, r#"{"2-2": "SPAWN"}"#]);
    assert_eq!(g.state_hash(), hash);
}

// --- The turn limit --------------------------------------------------------------------

#[test]
fn after_episode_steps_minus_one_steps_every_active_seat_is_done() {
    let mut c = config(5);
    c.episode_steps = 13;
    let mut g = board_with(
        c,
        10,
        &[],
        vec![ship("3-1", 0, 0, 0), ship("3-2", 1, 24, 0)],
        vec![],
        &[1234, 99],
    );
    step(&mut g, &["", ""]);
    assert_eq!(g.seat_statuses(), &[Status::Active, Status::Active]);
    step(&mut g, &["", ""]);
    assert_eq!(g.step_number(), 12);
    assert_eq!(g.seat_statuses(), &[Status::Done, Status::Done]);
    assert_eq!(
        g.seat_rewards(),
        &[Some(Num::Int(1234)), Some(Num::Int(99))]
    );
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.placements, vec![1, 2]);
    assert_eq!(outcome.scores, vec![1234.0, 99.0]);
}
