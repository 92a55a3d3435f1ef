//! Claim's rules, one by one, on small hand-made boards.

mod grid_common;

use grid_common::*;
use ludus_engine::claim::{Claim, CELL_CAP, SIDES};
use ludus_engine::grid::{from_frame_dir, kind, mirror, parse_action, Action, Dir, MoveResult};
use ludus_engine::{new_game, Game};
use serde_json::{json, Value};

/// A 6×5 board: homes at (0,0), (5,0), (5,4), (0,4).
fn small() -> Claim {
    Claim::new(6, 5, 300)
}

fn at(g: &Claim, x: usize, y: usize) -> usize {
    g.board().index(x, y)
}

/// Gives `cells` to `seat`.
fn own(g: &mut Claim, seat: usize, cells: &[(usize, usize)]) {
    for &(x, y) in cells {
        let c = at(g, x, y);
        g.owner_mut()[c] = Some(seat);
    }
}

/// Puts `seat`'s bot on (x, y), not capturing.
fn place(g: &mut Claim, seat: usize, x: usize, y: usize) {
    let c = at(g, x, y);
    let b = g.bot_mut(seat);
    b.position = c;
    b.capture_target = None;
    b.came_from = None;
    b.dwell_remaining = 0;
}

fn pos(g: &Claim, seat: usize) -> (usize, usize) {
    g.board().xy(g.bot(seat).position)
}

// --- 1. Homes -----------------------------------------------------------------

#[test]
fn every_bot_starts_on_its_corner_which_is_its_only_cell() {
    let g = small();
    let corners = [(0, 0), (5, 0), (5, 4), (0, 4)];
    for (seat, &(x, y)) in corners.iter().enumerate() {
        assert_eq!(pos(&g, seat), (x, y));
        assert_eq!(g.bot(seat).home, at(&g, x, y));
        assert_eq!(g.owner_at(x, y), Some(seat));
        assert_eq!(g.owned_count(seat), 1);
    }
    assert_eq!(g.owner().iter().filter(|o| o.is_none()).count(), 30 - 4);
}

// --- 3. Moving and capturing ----------------------------------------------------

#[test]
fn moving_through_your_own_cells_is_free() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (2, 0)]);
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (2, 0));
    assert_eq!(g.bot(0).capture_target, None);
    assert_eq!(observe(&g, 0)["self"]["capture_target"], Value::Null);
}

#[test]
fn stepping_into_a_neutral_cell_starts_a_capture_and_staying_one_more_turn_takes_it() {
    let mut g = small();
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (1, 0));
    assert_eq!(g.owner_at(1, 0), None, "not yet");
    let o = observe(&g, 0);
    assert_eq!(o["self"]["capture_target"], json!([1, 0]));
    assert_eq!(o["self"]["dwell_remaining"], 1);
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    assert_eq!(g.owner_at(1, 0), Some(0));
    let o = observe(&g, 0);
    assert_eq!(o["self"]["capture_target"], Value::Null);
    assert_eq!(o["self"]["dwell_remaining"], 0);
    assert_eq!(o["self"]["owned_count"], 2);
}

#[test]
fn stepping_into_an_enemy_cell_captures_it_in_one_turn_of_staying() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (2, 0)]);
    own(&mut g, 1, &[(4, 0), (3, 0)]);
    place(&mut g, 0, 2, 0);
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(g.bot(0).dwell_remaining, 1);
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    assert_eq!(g.owner_at(3, 0), Some(0));
    // Seat 1's (4, 0) is still joined to its home.
    assert_eq!(g.owner_at(4, 0), Some(1));
}

#[test]
fn an_enemy_home_takes_two_turns_and_losing_it_puts_its_owner_out() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (2, 0), (3, 0), (4, 0)]);
    own(&mut g, 1, &[(5, 1), (4, 1)]);
    place(&mut g, 0, 4, 0);
    place(&mut g, 1, 4, 1);
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (5, 0));
    assert_eq!(g.bot(0).dwell_remaining, 2);
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    assert_eq!(g.owner_at(5, 0), Some(1), "one turn is not enough");
    assert_eq!(g.bot(0).dwell_remaining, 1);
    assert!(g.bot(1).alive());
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    assert_eq!(g.owner_at(5, 0), Some(0));
    assert_eq!(g.bot(1).out_on, Some(3));
    assert_eq!(g.owned_count(1), 0, "out: all its land turns neutral");
    assert_eq!(g.owner_at(4, 1), None);
    let o = observe(&g, 0);
    assert_eq!(o["bots"][1]["alive"], false);
    assert_eq!(legal(&observe(&g, 1)), Vec::<String>::new());
}

// --- 4. While capturing ---------------------------------------------------------

#[test]
fn while_capturing_only_stay_or_retreat_and_anything_else_is_stay() {
    let mut g = small();
    step(&mut g, ["SOUTH", "STAY", "STAY", "STAY"]);
    assert_eq!(legal(&observe(&g, 0)), vec!["STAY", "RETREAT"]);
    let r = step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].seat, 0);
    assert_eq!(r[0].kind, kind::ILLEGAL);
    // Played as STAY: the capture finished.
    assert_eq!(pos(&g, 0), (0, 1));
    assert_eq!(g.owner_at(0, 1), Some(0));
}

#[test]
fn retreat_goes_back_to_the_cell_the_capture_started_from() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0)]);
    place(&mut g, 0, 1, 0);
    step(&mut g, ["SOUTH", "STAY", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (1, 1));
    step(&mut g, ["RETREAT", "STAY", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (1, 0));
    assert_eq!(g.owner_at(1, 1), None, "the capture is abandoned");
    assert_eq!(g.bot(0).capture_target, None);
    assert!(!legal(&observe(&g, 0)).contains(&"RETREAT".to_string()));
}

// --- 5. Connection to home ------------------------------------------------------

/// Seat 0 holds the top row up to (3, 0) and (0, 1); seat 3 a chain from its
/// home to (2, 1), below seat 0's row.
fn chain_board() -> Claim {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (2, 0), (3, 0), (0, 1)]);
    own(&mut g, 3, &[(1, 4), (1, 3), (1, 2), (2, 2), (2, 1)]);
    place(&mut g, 3, 2, 1);
    g
}

#[test]
fn land_cut_off_from_home_turns_neutral() {
    let mut g = chain_board();
    own(&mut g, 0, &[(4, 0)]);
    place(&mut g, 0, 0, 1);
    step(&mut g, ["STAY", "STAY", "STAY", "NORTH"]);
    assert_eq!(g.owner_at(3, 0), Some(0), "not cut while capturing");
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    assert_eq!(g.owner_at(2, 0), Some(3));
    // The whole chain beyond the cut, not just the next cell.
    assert_eq!(g.owner_at(3, 0), None);
    assert_eq!(g.owner_at(4, 0), None);
    assert_eq!(g.owner_at(1, 0), Some(0));
    assert!(g.bot(0).alive(), "its bot is still joined to home");
    assert_eq!(g.owned_count(0), 3);
}

#[test]
fn a_bot_cut_off_from_home_is_out_and_all_its_land_turns_neutral() {
    let mut g = chain_board();
    own(&mut g, 0, &[(4, 0)]);
    place(&mut g, 0, 4, 0);
    step(&mut g, ["STAY", "STAY", "STAY", "NORTH"]);
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    assert_eq!(g.bot(0).out_on, Some(2));
    assert_eq!(g.owned_count(0), 0, "home included");
    assert_eq!(g.owner_at(0, 0), None);
    // An out bot stands nowhere: its cell is open again.
    assert!(legal(&observe(&g, 1)).contains(&"WEST".to_string()));
}

#[test]
fn a_capturing_bot_whose_start_cell_is_taken_is_cut_off_and_out() {
    // Seat 0 captures (3, 1) from (3, 0) while seat 3 takes seat 0's (2, 0):
    // that cuts (3, 0) off, and with it the capturing bot, whose only
    // neighbour of its own was (3, 0).
    let mut g = chain_board();
    place(&mut g, 0, 3, 0);
    step(&mut g, ["SOUTH", "STAY", "STAY", "NORTH"]);
    assert_eq!(g.bot(0).capture_target, Some(at(&g, 3, 1)));
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    // Both captures finish in the same turn: (3, 1) is seat 0's, but cut off.
    assert_eq!(g.owner_at(2, 0), Some(3));
    assert_eq!(g.bot(0).out_on, Some(2));
    assert_eq!(g.owned_count(0), 0);
}

#[test]
fn a_capturing_bot_next_to_its_joined_land_is_not_cut_off() {
    let mut g = small();
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert!(g.bot(0).alive());
    assert_eq!(g.bot(0).capture_target, Some(at(&g, 1, 0)));
}

// --- 6. The cap -----------------------------------------------------------------

/// On a 10×10 board, `seat` holds the mirror image of: rows 0..=3 of columns
/// 0..=7 and (0..=2, 4), 35 cells, with its bot on the image of (2, 4).
fn capped(seat: usize) -> Claim {
    let mut g = Claim::new(10, 10, 300);
    let b = g.board();
    let mut cells: Vec<(usize, usize)> = (0..4).flat_map(|y| (0..8).map(move |x| (x, y))).collect();
    cells.extend([(0, 4), (1, 4), (2, 4)]);
    for (x, y) in cells {
        let c = mirror(b, seat, b.index(x, y));
        g.owner_mut()[c] = Some(seat);
    }
    let start = mirror(b, seat, b.index(2, 4));
    g.bot_mut(seat).position = start;
    assert_eq!(g.owned_count(seat), CELL_CAP);
    g
}

#[test]
fn the_cap_releases_the_outer_cells_farthest_from_home_in_order() {
    for seat in 0..4 {
        let mut g = capped(seat);
        let b = g.board();
        let img = |x, y| mirror(b, seat, b.index(x, y));
        let east = Action::Move(from_frame_dir(seat, Dir::East)).name();
        let mut answers = ["STAY"; 4];
        let mut released = Vec::new();
        for _ in 0..3 {
            answers[seat] = east;
            step(&mut g, answers);
            answers[seat] = "STAY";
            let before: Vec<Option<usize>> = g.owner().to_vec();
            step(&mut g, answers);
            assert_eq!(g.owned_count(seat), CELL_CAP, "seat {seat}");
            let gone: Vec<usize> = (0..b.len())
                .filter(|&c| before[c] == Some(seat) && g.owner()[c].is_none())
                .collect();
            let new = g.bot(seat).position;
            assert_eq!(g.owner()[new], Some(seat), "the new cell is kept");
            released.extend(gone);
        }
        // Farthest first: (7, 3) at 10 steps; then a tie at 9 steps between
        // (7, 2) and (6, 3), broken row by row in the seat's own frame.
        assert_eq!(
            released,
            vec![img(7, 3), img(7, 2), img(6, 3)],
            "seat {seat}"
        );
        assert!(g.bot(seat).alive());
    }
}

#[test]
fn the_cap_never_releases_a_cell_that_would_cut_land_off() {
    // A line of 34 cells along the top and (0, 1): all but (0, 1) and the
    // line's end hold the line together.
    let mut g = Claim::new(40, 5, 300);
    let line: Vec<(usize, usize)> = (1..34).map(|x| (x, 0)).collect();
    own(&mut g, 0, &line);
    own(&mut g, 0, &[(0, 1)]);
    place(&mut g, 0, 33, 0);
    assert_eq!(g.owned_count(0), CELL_CAP);
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    assert_eq!(g.owner_at(34, 0), Some(0));
    assert_eq!(
        g.owner_at(0, 1),
        None,
        "the only cell whose loss cuts nothing"
    );
    assert_eq!(g.owned_count(0), CELL_CAP);
    assert!(g.bot(0).alive());
}

#[test]
fn a_single_line_at_the_cap_releases_the_cell_just_taken() {
    let mut g = Claim::new(40, 5, 300);
    let line: Vec<(usize, usize)> = (1..35).map(|x| (x, 0)).collect();
    own(&mut g, 0, &line);
    place(&mut g, 0, 34, 0);
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    step(&mut g, ["STAY", "STAY", "STAY", "STAY"]);
    assert_eq!(g.owner_at(35, 0), None);
    assert_eq!(g.owned_count(0), CELL_CAP);
    assert!(g.bot(0).alive(), "next to its land, so not cut off");
    assert_eq!(pos(&g, 0), (35, 0));
    // It may walk back onto its land.
    assert!(legal(&observe(&g, 0)).contains(&"WEST".to_string()));
}

// --- 7. Simultaneous moves --------------------------------------------------------

#[test]
fn a_cell_with_a_bot_on_it_is_closed_for_that_turn() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0)]);
    own(&mut g, 1, &[(2, 0), (3, 0), (4, 0)]);
    place(&mut g, 0, 1, 0);
    place(&mut g, 1, 2, 0);
    assert!(!legal(&observe(&g, 0)).contains(&"EAST".to_string()));
    // Following a bot that moves away: refused, played as STAY.
    let r = step(&mut g, ["EAST", "EAST", "STAY", "STAY"]);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, kind::ILLEGAL);
    assert_eq!(pos(&g, 0), (1, 0));
    assert_eq!(pos(&g, 1), (3, 0));
}

#[test]
fn bots_cannot_swap_places() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0)]);
    own(&mut g, 1, &[(2, 0), (3, 0), (4, 0)]);
    place(&mut g, 0, 1, 0);
    place(&mut g, 1, 2, 0);
    let r = step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(r.len(), 2);
    assert_eq!((pos(&g, 0), pos(&g, 1)), ((1, 0), (2, 0)));
}

/// Seat 0 at (2, 0) and seat 1 at (4, 0), both on their own land, (3, 0) between.
fn facing() -> Claim {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (2, 0)]);
    own(&mut g, 1, &[(4, 0)]);
    place(&mut g, 0, 2, 0);
    place(&mut g, 1, 4, 0);
    g
}

#[test]
fn two_bots_stepping_into_one_neutral_cell_the_token_holder_wins() {
    let mut g = facing();
    assert_eq!(observe(&g, 0)["priority_seat"], 0);
    step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (3, 0));
    assert_eq!(pos(&g, 1), (4, 0), "blocked");

    let mut g = facing();
    stay(&mut g, 1);
    assert_eq!(
        observe(&g, 0)["priority_seat"],
        1,
        "the token moved one seat"
    );
    step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 1), (3, 0));
    assert_eq!(pos(&g, 0), (2, 0));
}

#[test]
fn without_the_token_the_first_contender_round_the_table_from_it_wins() {
    let mut g = facing();
    stay(&mut g, 2);
    assert_eq!(observe(&g, 0)["priority_seat"], 2);
    step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    // Round the table from seat 2: 3, then 0.
    assert_eq!(pos(&g, 0), (3, 0));
}

#[test]
fn two_bots_stepping_into_one_cell_its_owner_wins_even_without_the_token() {
    let mut g = facing();
    own(&mut g, 1, &[(3, 0)]);
    assert_eq!(observe(&g, 0)["priority_seat"], 0);
    step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 1), (3, 0));
    assert_eq!(pos(&g, 0), (2, 0));
    assert_eq!(g.bot(1).capture_target, None, "its own cell: no capture");
}

// --- Answers ------------------------------------------------------------------------

#[test]
fn missing_answers_are_stay_without_a_rejection() {
    let mut g = small();
    let r = g.step(&[None, None, None, None]);
    assert!(r.is_empty());
    assert_eq!(pos(&g, 0), (0, 0));
    // Fewer answers than seats: the rest are missing.
    let r = g.step(&[Some("EAST")]);
    assert!(r.is_empty());
    assert_eq!(pos(&g, 0), (1, 0));
}

#[test]
fn invalid_text_is_stay_plus_a_rejection() {
    let huge = "EAST".repeat(100_000);
    for bad in GARBAGE.iter().copied().chain([huge.as_str(), "RETREAT"]) {
        let mut g = small();
        let r = g.step(&[Some(bad), Some("\"WEST\""), Some(bad), None]);
        assert_eq!(r.len(), 2, "{bad:?}: {r:?}");
        assert!(r.iter().all(|r| r.reason.len() < 300));
        let expect = if bad == "RETREAT" {
            kind::ILLEGAL
        } else {
            kind::UNPARSEABLE
        };
        assert_eq!(r[0].kind, expect, "{bad:?}");
        assert_eq!((r[0].seat, r[1].seat), (0, 2));
        assert_eq!(pos(&g, 0), (0, 0));
        assert_eq!(pos(&g, 1), (4, 0), "a JSON string answer is read");
    }
}

// --- 8. The end -----------------------------------------------------------------------

#[test]
fn the_last_bot_standing_wins() {
    let mut g = small();
    for (seat, turn) in [(1, 4), (2, 9), (3, 9)] {
        g.bot_mut(seat).out_on = Some(turn);
    }
    let o = g.outcome().expect("one bot left");
    assert_eq!(o.placements, vec![1, 4, 2, 2]);
    assert!(o.reason.contains("last bot standing"), "{}", o.reason);
    // A finished game does not move.
    let h = g.state_hash();
    step(&mut g, ["EAST"; 4]);
    assert_eq!(g.state_hash(), h);
}

#[test]
fn after_the_turn_limit_the_most_cells_wins_and_a_tie_is_a_draw() {
    let mut g = Claim::new(6, 5, 2);
    own(&mut g, 0, &[(1, 0), (2, 0)]);
    own(&mut g, 1, &[(4, 0), (3, 0)]);
    own(&mut g, 2, &[(5, 3)]);
    stay(&mut g, 1);
    assert!(g.outcome().is_none());
    stay(&mut g, 1);
    let o = g.outcome().expect("over");
    assert_eq!(o.placements, vec![1, 1, 3, 4]);
    assert_eq!(o.scores, vec![3.0, 3.0, 2.0, 1.0]);
    assert!(o.reason.contains("draw between seats 0, 1"), "{}", o.reason);
    assert_eq!(observe(&g, 0)["turns_remaining"], 0);
}

#[test]
fn at_the_turn_limit_bots_that_are_out_place_below_by_the_turn_they_went_out() {
    let mut g = Claim::new(6, 5, 1);
    g.bot_mut(2).out_on = Some(0);
    g.bot_mut(3).out_on = Some(0);
    let c = g.bot(2).home;
    g.owner_mut()[c] = None;
    own(&mut g, 1, &[(4, 0)]);
    stay(&mut g, 1);
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![2, 1, 3, 3]);
    assert!(
        o.reason.contains("seat 1 holds the most cells"),
        "{}",
        o.reason
    );
}

// --- The state ----------------------------------------------------------------------

#[test]
fn the_state_has_exactly_the_rule_book_fields() {
    let g = small();
    let o = observe(&g, 2);
    assert_eq!(
        keys(&o),
        sorted(&[
            "turn",
            "turns_remaining",
            "width",
            "height",
            "cell_cap",
            "owner",
            "self",
            "bots",
            "priority_seat",
            "legal_actions"
        ])
    );
    let me = [
        "id",
        "position",
        "home",
        "capture_target",
        "dwell_remaining",
        "owned_count",
    ];
    assert_eq!(keys(&o["self"]), sorted(&me));
    let mut them = me.to_vec();
    them.push("alive");
    for b in o["bots"].as_array().unwrap() {
        assert_eq!(keys(b), sorted(&them));
    }
    assert_eq!(o["turn"], 0);
    assert_eq!(o["turns_remaining"], 300);
    assert_eq!(o["cell_cap"], 35);
    assert_eq!(o["self"]["id"], 2);
    assert_eq!(o["self"]["position"], json!([5, 4]));
    assert_eq!(o["owner"][4][5], 2);
    assert_eq!(o["owner"][0][1], -1);
    assert_eq!(o["owner"].as_array().unwrap().len(), 5);
    assert_eq!(o["owner"][0].as_array().unwrap().len(), 6);
    assert_eq!(legal(&o), vec!["NORTH", "WEST", "STAY"]);
}

// --- Boards, symmetry, determinism ----------------------------------------------------

#[test]
fn generated_boards_take_their_size_from_the_seed() {
    let mut sizes = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let g = Claim::from_config(&Value::Null, seed, 4).unwrap();
        let b = g.board();
        assert!(SIDES.contains(&b.width) && SIDES.contains(&b.height));
        sizes.insert((b.width, b.height));
        let again = Claim::from_config(&Value::Null, seed, 4).unwrap();
        assert_eq!(again.board(), b);
    }
    assert!(sizes.len() >= 5, "{sizes:?}");
}

#[test]
fn every_seat_starts_in_the_same_position_up_to_a_mirror() {
    for seed in 0..10 {
        let g = Claim::from_config(&Value::Null, seed, 4).unwrap();
        let b = g.board();
        let base = legal(&observe(&g, 0));
        for seat in 1..4 {
            assert_eq!(g.bot(seat).home, mirror(b, seat, g.bot(0).home));
            let seen = legal(&observe(&g, seat));
            let mapped: Vec<String> = base
                .iter()
                .map(|a| match parse_action(a).unwrap() {
                    Action::Move(d) => Action::Move(from_frame_dir(seat, d)).name().to_string(),
                    other => other.name().to_string(),
                })
                .collect();
            let mut x = mapped.clone();
            x.sort();
            let mut y = seen.clone();
            y.sort();
            assert_eq!(x, y, "seat {seat}");
        }
    }
}

#[test]
fn the_same_seed_and_answers_give_the_same_state_hashes() {
    let run = |seed| {
        let mut g = new_game("claim", &Value::Null, seed, 4).unwrap();
        random_play(g.as_mut(), seed, 300)
    };
    let a = run(3);
    assert_eq!(a, run(3));
    assert_ne!(a, run(4));
    assert!(a.len() > 10);
}

#[test]
fn setup_fed_back_as_config_rebuilds_the_same_game() {
    for seed in 0..5 {
        let g = new_game("claim", &Value::Null, seed, 4).unwrap();
        let again = new_game("claim", &g.setup(), 999, 4).unwrap();
        assert_eq!(g.state_hash(), again.state_hash());
    }
    assert!(new_game("claim", &json!({"width": 3}), 0, 4).is_err());
    assert!(new_game("claim", &json!({"colour": 3}), 0, 4).is_err());
    assert!(new_game("claim", &Value::Null, 0, 3).is_err());
}

#[test]
fn random_games_run_to_an_outcome_with_consistent_placements() {
    for seed in 0..6 {
        let mut g = new_game("claim", &json!({"max_turns": 120}), seed, 4).unwrap();
        random_play(g.as_mut(), seed, 1000);
        let o = g.outcome().expect("over");
        assert_eq!(o.placements.len(), 4);
        assert!(o.placements.contains(&1));
    }
}

// --- Each phase of the turn alone (numbered as docs/games/claim.md) --------------

#[test]
fn phase_1_reading_turns_missing_or_illegal_answers_into_stay() {
    let g = small();
    let (actions, r) = g.read_actions(&[Some("EAST"), Some("WEST"), None, Some("jump")]);
    // Seat 1 stands in the top-right corner: WEST is legal; seat 0 may go EAST.
    assert_eq!(
        actions,
        [
            Action::Move(Dir::East),
            Action::Move(Dir::West),
            Action::Stay,
            Action::Stay
        ]
    );
    assert_eq!(r.len(), 1);
    assert_eq!((r[0].seat, r[0].kind.as_str()), (3, kind::UNPARSEABLE));
    // Reading moves nobody.
    assert_eq!(pos(&g, 0), (0, 0));
}

#[test]
fn phase_2_moving_into_a_neutral_cell_starts_its_capture_without_taking_it() {
    let mut g = small();
    let moved = g.move_bots(&[
        Action::Move(Dir::East),
        Action::Stay,
        Action::Stay,
        Action::Stay,
    ]);
    assert_eq!(moved[0], MoveResult::Moved);
    assert_eq!(moved[1], MoveResult::Stayed);
    let b = g.bot(0);
    assert_eq!(pos(&g, 0), (1, 0));
    assert_eq!(b.capture_target, Some(at(&g, 1, 0)));
    assert_eq!((b.came_from, b.dwell_remaining), (Some(at(&g, 0, 0)), 1));
    assert_eq!(g.owner_at(1, 0), None);
}

#[test]
fn phase_3_a_capturing_bot_that_did_not_move_takes_the_cell_when_its_stay_is_done() {
    let mut g = small();
    place(&mut g, 0, 1, 0);
    place(&mut g, 1, 4, 0);
    for (seat, (x, y)) in [(0, (1, 0)), (1, (4, 0))] {
        let c = at(&g, x, y);
        let b = g.bot_mut(seat);
        b.capture_target = Some(c);
        b.came_from = Some(c);
        b.dwell_remaining = 1;
    }
    g.complete_captures(&[
        MoveResult::Stayed,
        MoveResult::Moved,
        MoveResult::Stayed,
        MoveResult::Stayed,
    ]);
    assert_eq!(g.owner_at(1, 0), Some(0));
    assert_eq!(g.bot(0).capture_target, None);
    // Seat 1 moved this turn: its stay does not count.
    assert_eq!(g.owner_at(4, 0), None);
    assert_eq!(g.bot(1).dwell_remaining, 1);
}

#[test]
fn phase_4_land_cut_off_from_home_turns_neutral_and_a_bot_without_its_home_is_out() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (3, 0)]);
    place(&mut g, 0, 1, 0);
    // Seat 1 lost its home to seat 2.
    own(&mut g, 2, &[(5, 0), (5, 1), (5, 2), (5, 3)]);
    own(&mut g, 1, &[(4, 0)]);
    place(&mut g, 1, 4, 0);
    g.cut_off_land_and_bots();
    assert_eq!(g.owner_at(3, 0), None);
    assert_eq!(g.owner_at(1, 0), Some(0));
    assert!(g.bot(0).alive());
    assert!(!g.bot(1).alive());
    assert_eq!(g.owner_at(4, 0), None);
}

#[test]
fn phase_5_a_bot_over_the_cap_releases_its_farthest_cell() {
    let mut g = capped(0);
    own(&mut g, 0, &[(3, 4)]);
    place(&mut g, 0, 3, 4);
    assert_eq!(g.owned_count(0), CELL_CAP + 1);
    g.release_over_cap();
    assert_eq!(g.owned_count(0), CELL_CAP);
    assert_eq!(g.owner_at(7, 3), None);
}
