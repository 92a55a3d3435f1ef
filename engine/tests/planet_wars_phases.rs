//! Each phase of a Planet Wars turn run alone on a small hand-made map, so
//! that what a test sees is that phase's work and no later phase's (the
//! whole-turn tests are in `planet_wars_rules.rs`). Numbered as
//! `docs/games/planet-wars.md`.

mod planet_wars_common;

use ludus_engine::planet_wars::{rejection_kind, Expedition};
use ludus_engine::Game;
use planet_wars_common::*;

fn duel_map() -> Vec<serde_json::Value> {
    vec![
        planet("a", 0.0, 0.0, 5, Some(1)),
        planet("b", 3.0, 4.0, 5, Some(2)),
        planet("n", 0.0, 1.0, 2, None),
    ]
}

fn expedition(id: u64, owner: usize, destination: usize, ships: u64, turns: u32) -> Expedition {
    Expedition {
        id,
        owner,
        origin: 0,
        destination,
        ship_count: ships,
        turns_remaining: turns,
    }
}

// 1. Construct ships.

#[test]
fn constructing_adds_one_ship_to_each_owned_planet_and_none_to_neutral_ones() {
    let mut g = game(2, duel_map());
    g.construct_ships();
    assert_eq!(at(&g, "a"), held(Some(0), 6));
    assert_eq!(at(&g, "b"), held(Some(1), 6));
    assert_eq!(at(&g, "n"), held(None, 2));
    // The turn is counted only after the last phase.
    assert_eq!(g.turn(), 0);
}

// 2. Dispatch expeditions.

#[test]
fn dispatching_takes_the_ships_off_at_once_and_nothing_lands_yet() {
    let mut g = game(2, duel_map());
    let r = g.dispatch_expeditions(&[Some(&moves(&[("a", "n", 3), ("a", "b", 1)])), None]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(at(&g, "a"), held(Some(0), 1));
    // n is 1 away, b 5: both in flight with their whole travel time.
    let flights: Vec<(u64, usize, u64, u32)> = g
        .expeditions()
        .iter()
        .map(|e| (e.id, e.destination, e.ship_count, e.turns_remaining))
        .collect();
    assert_eq!(flights, vec![(0, 2, 3, 1), (1, 1, 1, 5)]);
    assert_eq!(at(&g, "n"), held(None, 2));
}

#[test]
fn dispatching_refuses_a_move_that_would_leave_the_planet_empty() {
    let mut g = game(2, duel_map());
    let r = g.dispatch_expeditions(&[Some(&moves(&[("a", "n", 5)])), None]);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, rejection_kind::TOO_MANY_SHIPS);
    assert!(g.expeditions().is_empty());
    assert_eq!(at(&g, "a"), held(Some(0), 5));
}

// 3. Arrivals and combat.

#[test]
fn arriving_fleets_fight_the_garrison_and_the_others_come_one_turn_closer() {
    let mut g = game(3, {
        let mut m = duel_map();
        m.push(planet("c", -3.0, 4.0, 5, Some(3)));
        m
    });
    g.expeditions_mut().extend([
        // On n (2 neutral ships): seat 0 with 6, seat 2 with 3.
        expedition(0, 0, 2, 6, 1),
        expedition(1, 2, 2, 3, 1),
        expedition(2, 1, 0, 4, 3),
    ]);
    g.arrivals_and_combat();
    // The largest party keeps the planet with largest - second largest.
    assert_eq!(at(&g, "n"), held(Some(0), 3));
    let left: Vec<(u64, u32)> = g
        .expeditions()
        .iter()
        .map(|e| (e.id, e.turns_remaining))
        .collect();
    assert_eq!(left, vec![(2, 2)]);
    assert_eq!(at(&g, "a"), held(Some(0), 5));
}

#[test]
fn the_largest_party_keeps_the_planet_less_the_second_and_a_tie_leaves_it_empty() {
    let mut g = game(2, duel_map());
    g.expeditions_mut()
        .extend([expedition(0, 0, 2, 4, 1), expedition(1, 1, 2, 6, 1)]);
    g.arrivals_and_combat();
    // Seat 1's 6 against seat 0's 4 and the 2 neutral: 6 - 4.
    assert_eq!(at(&g, "n"), held(Some(1), 2));
    let mut g = game(2, duel_map());
    g.expeditions_mut()
        .extend([expedition(0, 0, 2, 5, 1), expedition(1, 1, 2, 5, 1)]);
    g.arrivals_and_combat();
    assert_eq!(at(&g, "n"), held(None, 0));
}

// The end check.

#[test]
fn a_player_with_no_ship_on_a_planet_or_in_flight_is_out_as_of_this_turn() {
    let mut g = game(2, duel_map());
    g.planets_mut()[1].ship_count = 0;
    g.record_eliminations();
    assert_eq!(g.eliminated_on(), &[None, Some(0)]);
    // Ships in flight keep a player in.
    let mut g = game(2, duel_map());
    g.planets_mut()[1].ship_count = 0;
    g.expeditions_mut().push(expedition(0, 1, 0, 1, 4));
    g.record_eliminations();
    assert_eq!(g.eliminated_on(), &[None, None]);
}
