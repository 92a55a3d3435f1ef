//! The rules, phase by phase, on small hand-made maps.

mod planet_wars_common;

use ludus_engine::planet_wars::{rejection_kind, PlanetWars, MAX_MOVES_PER_TURN};
use ludus_engine::Game;
use planet_wars_common::*;
use serde_json::json;

// --- 1. Construct ships -----------------------------------------------------

#[test]
fn construct_ships_adds_one_per_owned_planet_and_none_to_neutral() {
    let mut g = game(
        2,
        vec![
            planet("a", 0.0, 0.0, 5, Some(1)),
            planet("a2", 0.0, 4.5, 1, Some(1)),
            planet("b", 10.5, 0.0, 7, Some(2)),
            planet("n", 5.5, 5.5, 3, None),
            planet("empty", 5.5, -5.5, 0, None),
        ],
    );
    idle(&mut g, 1);
    assert_eq!(at(&g, "a"), held(Some(0), 6));
    assert_eq!(at(&g, "a2"), held(Some(0), 2));
    assert_eq!(at(&g, "b"), held(Some(1), 8));
    assert_eq!(at(&g, "n"), held(None, 3));
    assert_eq!(at(&g, "empty"), held(None, 0));
    idle(&mut g, 2);
    assert_eq!(at(&g, "a"), held(Some(0), 8));
    assert_eq!(at(&g, "n"), held(None, 3));
    assert_eq!(g.turn(), 3);
}

// --- 2. Dispatch expeditions --------------------------------------------------

fn duel_map() -> Vec<serde_json::Value> {
    vec![
        planet("a", 0.0, 0.0, 5, Some(1)),
        planet("b", 3.0, 4.0, 5, Some(2)),
        planet("n", 0.0, 2.5, 2, None),
    ]
}

#[test]
fn travel_time_is_the_ceiled_distance_for_a_non_integer_distance() {
    // a -> n is 2.5 away: 3 turns counting the dispatch turn.
    let mut g = game(2, duel_map());
    step_one(&mut g, 0, &moves(&[("a", "n", 1)]));
    let e = g.expeditions()[0];
    // Dispatched with 3, advanced once in this turn's arrivals phase.
    assert_eq!(e.turns_remaining, 2);
    assert_eq!(observe(&g, 0)["expeditions"][0]["turns_remaining"], 2);
}

#[test]
fn travel_time_of_an_exactly_whole_distance_is_that_distance() {
    // a -> b is exactly 5 away: 5 turns.
    let mut g = game(2, duel_map());
    step_one(&mut g, 0, &moves(&[("a", "b", 1)]));
    assert_eq!(g.expeditions()[0].turns_remaining, 4);
    idle(&mut g, 3);
    assert_eq!(g.expeditions()[0].turns_remaining, 1);
    idle(&mut g, 1);
    assert!(g.expeditions().is_empty(), "landed on the 5th turn");
}

#[test]
fn travel_time_is_at_least_one_turn() {
    let mut g = game(
        2,
        vec![
            planet("a", 0.0, 0.0, 5, Some(1)),
            planet("close", 0.25, 0.0, 0, None),
            planet("b", 30.0, 0.0, 5, Some(2)),
        ],
    );
    step_one(&mut g, 0, &moves(&[("a", "close", 2)]));
    assert!(
        g.expeditions().is_empty(),
        "a 1-turn fleet lands in its dispatch turn"
    );
    assert_eq!(at(&g, "close"), held(Some(0), 2));
}

#[test]
fn the_full_observed_count_may_be_sent_but_not_one_more() {
    let mut g = game(2, duel_map());
    let seen = observe(&g, 0)["planets"][0]["ship_count"].as_u64().unwrap();
    assert_eq!(seen, 5);
    let r = step_one(&mut g, 0, &moves(&[("a", "b", seen)]));
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(at(&g, "a"), held(Some(0), 1), "one ship stays");
    assert_eq!(g.expeditions()[0].ship_count, 5);

    let mut g = game(2, duel_map());
    let r = step_one(&mut g, 0, &moves(&[("a", "b", seen + 1)]));
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, rejection_kind::TOO_MANY_SHIPS);
    assert!(g.expeditions().is_empty());
    assert_eq!(at(&g, "a"), held(Some(0), 6));
}

#[test]
fn the_limit_counts_every_move_from_the_same_planet_this_turn() {
    let mut g = game(2, duel_map());
    // 6 ships after construction: 3 + 2 leave, 1 stays; the third move is refused.
    let r = step_one(
        &mut g,
        0,
        &moves(&[("a", "b", 3), ("a", "n", 2), ("a", "b", 1)]),
    );
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, rejection_kind::TOO_MANY_SHIPS);
    assert!(r[0].reason.contains("move 2"), "{}", r[0].reason);
    assert!(
        r[0].reason.contains("less 5 sent by your earlier moves"),
        "{}",
        r[0].reason
    );
    assert_eq!(g.expeditions().len(), 2);
    assert_eq!(at(&g, "a"), held(Some(0), 1));
}

#[test]
fn expedition_ids_count_up_from_zero_in_dispatch_order_seats_then_moves() {
    let mut g = game(2, duel_map());
    let r = g.step(&[
        Some(&moves(&[("a", "b", 1), ("a", "n", 1)])),
        Some(&moves(&[("b", "a", 1), ("b", "n", 1)])),
    ]);
    assert!(r.is_empty());
    let got: Vec<(u64, usize, usize)> = g
        .expeditions()
        .iter()
        .map(|e| (e.id, e.owner, e.destination))
        .collect();
    let (a, b, n) = (0, 1, 2);
    assert_eq!(got, vec![(0, 0, b), (1, 0, n), (2, 1, a), (3, 1, n)]);
    step_one(&mut g, 1, &moves(&[("b", "a", 1)]));
    assert_eq!(g.expeditions().last().unwrap().id, 4);
}

// --- 3. Arrivals & combat -----------------------------------------------------

#[test]
fn an_expedition_lands_after_the_turns_remaining_it_shows() {
    let mut g = game(
        2,
        vec![
            planet("a", 0.0, 0.0, 20, Some(1)),
            planet("n", 6.5, 0.0, 3, None),
            planet("b", -30.0, 0.0, 5, Some(2)),
        ],
    );
    step_one(&mut g, 0, &moves(&[("a", "n", 10)]));
    let shown = observe(&g, 0)["expeditions"][0]["turns_remaining"]
        .as_u64()
        .unwrap();
    assert_eq!(
        shown, 6,
        "ceil(6.5) = 7 turns, one spent in the dispatch turn"
    );
    idle(&mut g, shown as u32 - 1);
    assert_eq!(observe(&g, 0)["expeditions"][0]["turns_remaining"], 1);
    assert_eq!(at(&g, "n"), held(None, 3));
    idle(&mut g, 1);
    assert!(g.expeditions().is_empty());
    assert_eq!(at(&g, "n"), held(Some(0), 7));
    assert_eq!(
        g.turn(),
        7,
        "dispatched in turn 1, landed in turn 7 = 1 + 7 - 1"
    );
}

#[test]
fn an_arriving_fleet_merges_with_its_owners_garrison() {
    let mut g = game(
        2,
        vec![
            planet("a", 0.0, 0.0, 10, Some(1)),
            planet("a2", 1.5, 0.0, 4, Some(1)),
            planet("b", -30.0, 0.0, 5, Some(2)),
        ],
    );
    step_one(&mut g, 0, &moves(&[("a", "a2", 6)]));
    assert_eq!(at(&g, "a2"), held(Some(0), 5));
    idle(&mut g, 1);
    // 5 + 1 built + 6 landed.
    assert_eq!(at(&g, "a2"), held(Some(0), 12));
}

#[test]
fn fleets_of_one_owner_arriving_together_merge_before_combat() {
    // 4 + 4 against a garrison of 6: merged, they win with 2; one by one they would not.
    let mut g = game(
        2,
        vec![
            planet("a1", 0.0, 1.5, 10, Some(1)),
            planet("a2", 0.0, -1.5, 10, Some(1)),
            planet("n", 0.0, 0.0, 6, None),
            planet("b", -30.0, 0.0, 5, Some(2)),
        ],
    );
    step_one(&mut g, 0, &moves(&[("a1", "n", 4), ("a2", "n", 4)]));
    idle(&mut g, 1);
    assert_eq!(at(&g, "n"), held(Some(0), 2));
}

/// `a` (seat 0) and `b` (seat 1) both 2.5 away from `t`: fleets sent in the
/// same turn land together.
fn arena(t_ships: u64, t_owner: Option<u32>) -> PlanetWars {
    game(
        4,
        vec![
            planet("a", -2.5, 0.0, 50, Some(1)),
            planet("b", 2.5, 0.0, 50, Some(2)),
            planet("c", 0.0, 2.5, 50, Some(3)),
            planet("d", 0.0, -2.5, 50, Some(4)),
            planet("t", 0.0, 0.0, t_ships, t_owner),
        ],
    )
}

/// Sends `counts[s]` ships from seat s's planet to `t` (0 = no move) and
/// steps until they land.
fn attack(g: &mut PlanetWars, counts: &[u64]) {
    let names = ["a", "b", "c", "d"];
    let answers: Vec<String> = counts
        .iter()
        .enumerate()
        .map(|(s, &n)| {
            if n == 0 {
                moves(&[])
            } else {
                moves(&[(names[s], "t", n)])
            }
        })
        .collect();
    let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
    assert!(g.step(&refs).is_empty());
    idle(g, 2);
    assert!(g.expeditions().is_empty());
}

#[test]
fn two_party_combat_the_attacker_wins_with_the_difference() {
    let mut g = arena(5, None);
    attack(&mut g, &[12]);
    assert_eq!(at(&g, "t"), held(Some(0), 7));
}

#[test]
fn two_party_combat_the_defender_holds_with_the_difference() {
    // t is seat 1's with 10 ships, +3 built while the fleet flies: 13 vs 9.
    let mut g = arena(10, Some(2));
    attack(&mut g, &[9]);
    assert_eq!(at(&g, "t"), held(Some(1), 4));
    // A neutral garrison holds the same way.
    let mut g = arena(10, None);
    attack(&mut g, &[4]);
    assert_eq!(at(&g, "t"), held(None, 6));
}

#[test]
fn two_party_combat_an_exact_tie_leaves_the_planet_neutral_with_zero_ships() {
    let mut g = arena(10, None);
    attack(&mut g, &[10]);
    assert_eq!(at(&g, "t"), held(None, 0));
    // Also between two players' fleets on an empty neutral planet.
    let mut g = arena(0, None);
    attack(&mut g, &[7, 7]);
    assert_eq!(at(&g, "t"), held(None, 0));
}

#[test]
fn three_party_combat_with_a_neutral_garrison_leaves_largest_minus_second() {
    // Neutral 10, seat 0 with 20, seat 1 with 15: seat 0 keeps 20 - 15.
    let mut g = arena(10, None);
    attack(&mut g, &[20, 15]);
    assert_eq!(at(&g, "t"), held(Some(0), 5));
    // The neutral garrison can be the largest party and keep the planet.
    let mut g = arena(30, None);
    attack(&mut g, &[20, 15]);
    assert_eq!(at(&g, "t"), held(None, 10));
}

#[test]
fn three_party_combat_a_tie_for_the_largest_leaves_the_planet_neutral() {
    let mut g = arena(5, None);
    attack(&mut g, &[12, 12]);
    assert_eq!(at(&g, "t"), held(None, 0));
    // A tie between an attacker and the neutral garrison as well.
    let mut g = arena(12, None);
    attack(&mut g, &[12, 3]);
    assert_eq!(at(&g, "t"), held(None, 0));
}

#[test]
fn four_players_fight_on_one_planet_and_the_largest_keeps_the_difference() {
    // Garrison of seat 3 (10 + 3 built = 13) against 20, 17 and 9.
    let mut g = arena(10, Some(4));
    attack(&mut g, &[20, 17, 9, 0]);
    assert_eq!(at(&g, "t"), held(Some(0), 3));
    // Seat 3 also reinforces with 7: 20 against 20, a tie for the largest.
    let mut g = arena(10, Some(4));
    attack(&mut g, &[20, 17, 9, 7]);
    assert_eq!(at(&g, "t"), held(None, 0));
}

#[test]
fn planets_without_arrivals_keep_their_owner_and_garrison() {
    let mut g = arena(10, Some(4));
    attack(&mut g, &[20, 0, 0, 0]);
    assert_eq!(at(&g, "b"), held(Some(1), 53));
    assert_eq!(at(&g, "a"), held(Some(0), 33));
}

// --- Answers and rejections ----------------------------------------------------

/// Seat 0 sends [good, `bad`, good]: the bad move alone is refused as `kind`.
fn assert_refused_alone(bad: serde_json::Value, kind: &str) -> String {
    let mut g = game(2, duel_map());
    let answer = json!({"moves": [
        {"origin": "a", "destination": "n", "ship_count": 1},
        bad,
        {"origin": "a", "destination": "b", "ship_count": 1},
    ]})
    .to_string();
    let r = step_one(&mut g, 0, &answer);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].kind, kind, "{r:?}");
    assert_eq!(r[0].seat, 0);
    assert!(r[0].reason.starts_with("move 1"), "{}", r[0].reason);
    assert_eq!(g.expeditions().len(), 2, "the other moves still go");
    assert_eq!(at(&g, "a"), held(Some(0), 4));
    r[0].reason.clone()
}

#[test]
fn a_malformed_move_is_dropped_alone() {
    for bad in [
        json!("a to b"),
        json!([1, 2, 3]),
        json!({"origin": "a", "destination": "b"}),
        json!({"origin": "a", "ship_count": 1}),
        json!({"origin": 1, "destination": "b", "ship_count": 1}),
        json!({"origin": "a", "destination": "b", "ship_count": -1}),
        json!({"origin": "a", "destination": "b", "ship_count": 1.5}),
        json!({"origin": "a", "destination": "b", "ship_count": "1"}),
    ] {
        let reason = assert_refused_alone(bad, rejection_kind::MALFORMED_MOVE);
        assert!(reason.contains("a move is {"), "{reason}");
    }
}

#[test]
fn a_move_naming_an_unknown_planet_is_dropped_alone() {
    let reason = assert_refused_alone(
        json!({"origin": "nowhere", "destination": "b", "ship_count": 1}),
        rejection_kind::UNKNOWN_PLANET,
    );
    assert!(reason.contains("no planet named \"nowhere\""), "{reason}");
    assert_refused_alone(
        json!({"origin": "a", "destination": "nowhere", "ship_count": 1}),
        rejection_kind::UNKNOWN_PLANET,
    );
}

#[test]
fn a_move_from_a_planet_that_is_not_yours_is_dropped_alone() {
    let reason = assert_refused_alone(
        json!({"origin": "b", "destination": "a", "ship_count": 1}),
        rejection_kind::NOT_YOUR_PLANET,
    );
    assert!(reason.contains("its owner is player 2"), "{reason}");
    let reason = assert_refused_alone(
        json!({"origin": "n", "destination": "a", "ship_count": 1}),
        rejection_kind::NOT_YOUR_PLANET,
    );
    assert!(reason.contains("neutral"), "{reason}");
}

#[test]
fn a_move_of_zero_ships_is_dropped_alone() {
    assert_refused_alone(
        json!({"origin": "a", "destination": "b", "ship_count": 0}),
        rejection_kind::ZERO_SHIPS,
    );
}

#[test]
fn a_move_to_its_own_origin_is_dropped_alone() {
    assert_refused_alone(
        json!({"origin": "a", "destination": "a", "ship_count": 1}),
        rejection_kind::SAME_ORIGIN_DESTINATION,
    );
}

#[test]
fn a_move_of_too_many_ships_is_dropped_alone() {
    // 6 after construction, 1 already sent: at most 4 more.
    let reason = assert_refused_alone(
        json!({"origin": "a", "destination": "b", "ship_count": 5}),
        rejection_kind::TOO_MANY_SHIPS,
    );
    assert_eq!(
        reason,
        "move 1 (origin \"a\", destination \"b\", ship_count 5): the origin has 5 ships now \
         (the 5 you saw, plus 1 built this turn, less 1 sent by your earlier moves this turn) \
         and 1 must stay, so at most 4 can leave"
    );
}

#[test]
fn an_unparseable_answer_voids_every_move_of_that_seat_only() {
    for bad in [
        "not json",
        "",
        "[]",
        "{\"move\": []}",
        "{\"moves\": {}}",
        "{\"moves\": [{\"origin\": \"a\", \"destination\": \"b\", \"ship_count\": 1}",
    ] {
        let mut g = game(2, duel_map());
        let r = g.step(&[Some(bad), Some(&moves(&[("b", "a", 2)]))]);
        assert_eq!(r.len(), 1, "{bad}: {r:?}");
        assert_eq!(r[0].kind, rejection_kind::UNPARSEABLE);
        assert_eq!(r[0].seat, 0);
        assert!(
            r[0].reason.contains("none of its moves were made"),
            "{}",
            r[0].reason
        );
        assert_eq!(g.expeditions().len(), 1, "seat 1's move still goes");
        assert_eq!(g.expeditions()[0].owner, 1);
    }
}

#[test]
fn no_answer_means_no_moves_and_no_rejection() {
    let mut g = game(2, duel_map());
    let r = g.step(&[None, None]);
    assert!(r.is_empty());
    assert!(g.expeditions().is_empty());
    // Fewer answers than seats: the missing ones count as none.
    let r = g.step(&[None]);
    assert!(r.is_empty());
    assert_eq!(g.turn(), 2);
}

#[test]
fn moves_beyond_the_cap_are_dropped_in_one_too_many_moves_rejection() {
    let mut g = game(
        2,
        vec![
            planet("a", 0.0, 0.0, 5000, Some(1)),
            planet("b", 30.0, 0.0, 5, Some(2)),
        ],
    );
    let list: Vec<(&str, &str, u64)> = vec![("a", "b", 1); MAX_MOVES_PER_TURN + 7];
    let r = step_one(&mut g, 0, &moves(&list));
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].kind, rejection_kind::TOO_MANY_MOVES);
    assert!(
        r[0].reason.contains("the last 7 were dropped"),
        "{}",
        r[0].reason
    );
    assert_eq!(g.expeditions().len(), MAX_MOVES_PER_TURN);
}

#[test]
fn rejections_come_seat_by_seat_in_move_order() {
    let mut g = game(2, duel_map());
    let r = g.step(&[
        Some(&moves(&[("b", "a", 1), ("a", "a", 1)])),
        Some(&moves(&[("b", "x", 1)])),
    ]);
    let got: Vec<(usize, &str)> = r.iter().map(|r| (r.seat, r.kind.as_str())).collect();
    assert_eq!(
        got,
        vec![
            (0, rejection_kind::NOT_YOUR_PLANET),
            (0, rejection_kind::SAME_ORIGIN_DESTINATION),
            (1, rejection_kind::UNKNOWN_PLANET),
        ]
    );
}

#[test]
fn when_a_move_breaks_several_rules_the_first_check_in_order_names_it() {
    // Checks run: malformed, unknown planet, not your planet, zero ships,
    // same origin and destination, too many ships.
    let cases = [
        (
            json!({"origin": "b", "destination": "nowhere", "ship_count": 0}),
            rejection_kind::UNKNOWN_PLANET,
        ),
        (
            json!({"origin": "b", "destination": "b", "ship_count": 0}),
            rejection_kind::NOT_YOUR_PLANET,
        ),
        (
            json!({"origin": "a", "destination": "a", "ship_count": 0}),
            rejection_kind::ZERO_SHIPS,
        ),
        (
            json!({"origin": "a", "destination": "a", "ship_count": 99}),
            rejection_kind::SAME_ORIGIN_DESTINATION,
        ),
        (
            json!({"origin": 3, "destination": "nowhere", "ship_count": 0}),
            rejection_kind::MALFORMED_MOVE,
        ),
    ];
    for (bad, kind) in cases {
        let mut g = game(2, duel_map());
        let r = step_one(&mut g, 0, &json!({"moves": [bad]}).to_string());
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind, kind, "{r:?}");
    }
}

#[test]
fn extra_fields_in_answers_and_moves_are_ignored() {
    let mut g = game(2, duel_map());
    let answer = json!({
        "moves": [{"origin": "a", "destination": "b", "ship_count": 2, "note": "go"}],
        "debug": {"thinking": true},
    });
    let r = step_one(&mut g, 0, &answer.to_string());
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(g.expeditions().len(), 1);
}

#[test]
fn an_eliminated_seats_moves_are_refused_as_not_its_planets() {
    let mut g = game(
        3,
        vec![
            planet("a", 0.0, 0.0, 20, Some(1)),
            planet("b", 1.5, 0.0, 1, Some(2)),
            planet("c", -30.0, 0.0, 5, Some(3)),
        ],
    );
    step_one(&mut g, 0, &moves(&[("a", "b", 10)]));
    idle(&mut g, 1);
    assert_eq!(g.eliminated_on()[1], Some(2));
    let r = step_one(&mut g, 1, &moves(&[("b", "a", 1)]));
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, rejection_kind::NOT_YOUR_PLANET);
    assert!(
        r[0].reason.contains("its owner is player 3"),
        "{}",
        r[0].reason
    );
}

// --- The end ---------------------------------------------------------------------

#[test]
fn the_game_ends_when_one_player_is_left_with_ships() {
    let mut g = game(
        2,
        vec![
            planet("a", 0.0, 0.0, 20, Some(1)),
            planet("b", 1.5, 0.0, 1, Some(2)),
        ],
    );
    step_one(&mut g, 0, &moves(&[("a", "b", 10)]));
    assert!(g.outcome().is_none());
    idle(&mut g, 1);
    // b: 1 + 2 built = 3 against 10.
    assert_eq!(at(&g, "b"), held(Some(0), 7));
    let o = g.outcome().expect("over");
    assert_eq!(o.placements, vec![1, 2]);
    assert_eq!(o.scores, vec![1.0, 0.0]);
    assert_eq!(o.reason, "player 1 (seat 0) is the last with ships");
    assert_eq!(g.eliminated_on(), &[None, Some(2)]);
    // Stepping a finished game changes nothing.
    let h = g.state_hash();
    idle(&mut g, 1);
    assert_eq!(g.state_hash(), h);
    assert_eq!(g.turn(), 2);
}

#[test]
fn ships_in_flight_keep_a_player_in_the_game() {
    let mut g = game(
        2,
        vec![
            planet("a", 0.0, 0.0, 20, Some(1)),
            planet("b", 1.5, 0.0, 1, Some(2)),
            planet("far", 0.0, 9.5, 0, None),
        ],
    );
    // b sends its ship away (travel 10) as a takes b.
    g.step(&[
        Some(&moves(&[("a", "b", 10)])),
        Some(&moves(&[("b", "far", 1)])),
    ]);
    idle(&mut g, 1);
    assert_eq!(at(&g, "b").owner, Some(0));
    assert!(g.outcome().is_none(), "seat 1 still has a fleet in flight");
    assert_eq!(g.scores()[1], 1.0);
    idle(&mut g, 8);
    assert_eq!(at(&g, "far"), held(Some(1), 1));
    assert!(g.outcome().is_none());
}

#[test]
fn the_turn_limit_ends_the_game_in_a_tie_between_everyone_still_in() {
    let mut g = game_with_limit(2, duel_map(), 3);
    idle(&mut g, 2);
    assert!(g.outcome().is_none());
    idle(&mut g, 1);
    let o = g.outcome().expect("over at the limit");
    assert_eq!(o.placements, vec![1, 1]);
    assert_eq!(o.scores, vec![0.5, 0.5]);
    assert_eq!(o.reason, "turn limit (3) reached: a tie between seats 0, 1");
    assert_eq!(g.turn(), 3);
}

#[test]
fn at_the_turn_limit_eliminated_players_place_below_those_still_in() {
    let mut g = game_with_limit(
        3,
        vec![
            planet("a", 0.0, 0.0, 20, Some(1)),
            planet("b", 1.5, 0.0, 1, Some(2)),
            planet("c", -30.0, 0.0, 5, Some(3)),
        ],
        5,
    );
    step_one(&mut g, 0, &moves(&[("a", "b", 10)]));
    idle(&mut g, 4);
    let o = g.outcome().expect("over");
    assert_eq!(o.placements, vec![1, 3, 1]);
    assert_eq!(o.scores, vec![0.75, 0.0, 0.75]);
    assert_eq!(o.reason, "turn limit (5) reached: a tie between seats 0, 2");
}

#[test]
fn eliminated_players_are_placed_by_elimination_turn_later_is_better() {
    // a takes b on turn 2, c on turn 4, d on turn 6.
    let mut g = game(
        4,
        vec![
            planet("a", 0.0, 0.0, 100, Some(1)),
            planet("b", 1.5, 0.0, 1, Some(2)),
            planet("c", 0.0, 3.5, 1, Some(3)),
            planet("d", -5.5, 0.0, 1, Some(4)),
        ],
    );
    step_one(
        &mut g,
        0,
        &moves(&[("a", "b", 20), ("a", "c", 20), ("a", "d", 20)]),
    );
    idle(&mut g, 3);
    assert_eq!(g.eliminated_on(), &[None, Some(2), Some(4), None]);
    assert!(g.outcome().is_none());
    idle(&mut g, 2);
    assert_eq!(g.eliminated_on(), &[None, Some(2), Some(4), Some(6)]);
    let o = g.outcome().expect("over");
    assert_eq!(o.placements, vec![1, 4, 3, 2]);
    assert_eq!(o.scores, vec![1.0, 0.0, 1.0 / 3.0, 2.0 / 3.0]);
    assert_eq!(o.reason, "player 1 (seat 0) is the last with ships");
}

#[test]
fn players_eliminated_on_the_same_turn_share_a_place() {
    let mut g = game(
        4,
        vec![
            planet("a", 0.0, 0.0, 100, Some(1)),
            planet("b", 1.5, 0.0, 1, Some(2)),
            planet("c", -1.5, 0.0, 1, Some(3)),
            planet("d", 0.0, 10.5, 1, Some(4)),
        ],
    );
    step_one(
        &mut g,
        0,
        &moves(&[("a", "b", 20), ("a", "c", 20), ("a", "d", 30)]),
    );
    idle(&mut g, 10);
    let o = g.outcome().expect("over");
    assert_eq!(g.eliminated_on(), &[None, Some(2), Some(2), Some(11)]);
    assert_eq!(o.placements, vec![1, 3, 3, 2]);
    assert_eq!(o.scores, vec![1.0, 0.5 / 3.0, 0.5 / 3.0, 2.0 / 3.0]);
}

#[test]
fn when_the_last_players_are_eliminated_together_they_share_first_place() {
    // Each sends 6 of 11; each home is left with 6 when the other's 6 land: both neutral.
    let mut g = game(
        2,
        vec![
            planet("a", 0.0, 0.0, 10, Some(1)),
            planet("b", 1.5, 0.0, 10, Some(2)),
        ],
    );
    g.step(&[
        Some(&moves(&[("a", "b", 6)])),
        Some(&moves(&[("b", "a", 6)])),
    ]);
    idle(&mut g, 1);
    assert_eq!(at(&g, "a"), held(None, 0));
    assert_eq!(at(&g, "b"), held(None, 0));
    let o = g.outcome().expect("over");
    assert_eq!(o.placements, vec![1, 1]);
    assert_eq!(o.scores, vec![0.5, 0.5]);
    assert_eq!(
        o.reason,
        "no player has ships left after turn 2: a tie between seats 0, 1"
    );
}

#[test]
fn scores_are_the_ships_each_seat_holds_on_planets_and_in_flight() {
    let mut g = game(2, duel_map());
    assert_eq!(g.scores(), vec![5.0, 5.0]);
    step_one(&mut g, 0, &moves(&[("a", "b", 4)]));
    assert_eq!(g.scores(), vec![6.0, 6.0]);
}
