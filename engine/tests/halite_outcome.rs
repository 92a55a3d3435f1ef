//! The end of a game: scores and the placement ladder (score, then ships and
//! shipyards, then halite mined; seats equal on all three share a place).

mod halite_common;

use halite_common::*;
use ludus_engine::halite::{Halite, Num};
use ludus_engine::Game;

/// A 4-seat 5 × 5 board at step 10 whose episode ends after one step.
fn last_step(
    cells: &[(usize, Num)],
    ships: Vec<ludus_engine::halite::Ship>,
    yards: Vec<ludus_engine::halite::Shipyard>,
    banks: &[i64],
) -> Halite {
    let mut c = config(5);
    c.episode_steps = 12;
    board_with(c, 10, cells, ships, yards, banks)
}

#[test]
fn placements_go_by_score_then_ships_and_shipyards_then_halite_mined() {
    let mut g = last_step(
        &[(0, Num::Int(400)), (2, Num::Int(40))],
        vec![
            ship("3-1", 0, 0, 0),
            ship("3-2", 0, 20, 0),
            ship("3-3", 1, 2, 0),
            ship("3-4", 2, 10, 0),
            ship("3-5", 3, 14, 0),
        ],
        vec![yard("2-1", 1, 22)],
        &[1000, 1000, 1000, 900],
    );
    step(&mut g, &["", "", "", ""]);
    let outcome = g.outcome().expect("the episode ended");
    assert_eq!(outcome.scores, vec![1000.0, 1000.0, 1000.0, 900.0]);
    // Seats 0 and 1 have 2 assets each; seat 0 mined 100, seat 1 mined 10.
    assert_eq!(g.asset_counts(), vec![2, 2, 1, 1]);
    assert_eq!(
        g.mined(),
        &[Num::Int(100), Num::Int(10), Num::Int(0), Num::Int(0)]
    );
    assert_eq!(outcome.placements, vec![1, 2, 3, 4]);
    assert!(
        outcome.reason.contains("last step (11)"),
        "{}",
        outcome.reason
    );
    assert!(
        outcome.reason.ends_with("seat 0 wins"),
        "{}",
        outcome.reason
    );
}

#[test]
fn seats_equal_on_all_three_keys_share_the_higher_place() {
    let mut g = last_step(
        &[],
        vec![
            ship("3-1", 0, 0, 0),
            ship("3-2", 1, 2, 0),
            ship("3-3", 2, 10, 0),
            ship("3-4", 3, 14, 0),
        ],
        vec![],
        &[700, 700, 300, 300],
    );
    step(&mut g, &["", "", "", ""]);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.placements, vec![1, 1, 3, 3]);
    assert!(
        outcome.reason.ends_with("a tie between seat 0, seat 1"),
        "{}",
        outcome.reason
    );
}

#[test]
fn a_survivor_outranks_every_eliminated_seat_and_later_elimination_ranks_higher() {
    // Seat 3 loses its only ship at step 11, seats 1 and 2 theirs at step 12:
    // rewards step - episodeSteps - 1.
    let mut c = config(5);
    c.episode_steps = 20;
    let mut g = board_with(
        c,
        10,
        &[],
        vec![
            ship("3-1", 0, 0, 0),
            ship("3-2", 1, 6, 10),
            ship("3-3", 2, 8, 10),
            ship("3-4", 3, 12, 5),
            ship("3-5", 0, 13, 5),
        ],
        vec![],
        &[0, 9000, 9000, 9000],
    );
    step(&mut g, &["", "", "", r#"{"3-4": "EAST"}"#]);
    assert_eq!(g.statuses(), vec!["ACTIVE", "ACTIVE", "ACTIVE", "DONE"]);
    step(
        &mut g,
        &["", r#"{"3-2": "EAST"}"#, r#"{"3-3": "WEST"}"#, ""],
    );
    let outcome = g.outcome().expect("only seat 0 is left");
    assert_eq!(outcome.scores, vec![0.0, -9.0, -9.0, -10.0]);
    assert_eq!(outcome.placements, vec![1, 2, 2, 4]);
    assert!(outcome
        .reason
        .starts_with("fewer than two players active after step 12"));
}

#[test]
fn an_invalid_seat_places_below_every_eliminated_one() {
    let mut g = last_step(
        &[],
        vec![
            ship("3-1", 0, 0, 0),
            ship("3-2", 1, 6, 5),
            ship("3-3", 2, 7, 5),
            ship("3-4", 3, 12, 0),
        ],
        vec![],
        &[0, 0, 0, 0],
    );
    // Seats 1 and 2 collide and are eliminated; seat 3 sends a bad action.
    step(
        &mut g,
        &["", r#"{"3-2": "EAST"}"#, "", r#"{"3-4": "STAY"}"#],
    );
    let outcome = g.outcome().unwrap();
    assert_eq!(g.statuses(), vec!["DONE", "DONE", "DONE", "INVALID"]);
    assert_eq!(outcome.scores, vec![0.0, -2.0, -2.0, -13.0]);
    assert_eq!(outcome.placements, vec![1, 2, 2, 4]);
}
