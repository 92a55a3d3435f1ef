//! Loops' rules, one by one, on small hand-made boards.

mod grid_common;

use grid_common::*;
use ludus_engine::grid::{kind, mirror, Action, Dir, MoveResult};
use ludus_engine::loops::{generate_board, pad_cells, Loops, BOARDS};
use ludus_engine::{new_game, Game};
use serde_json::{json, Value};

/// 9×7 without walls: pads at columns 0-1 / 7-8 and rows 0-1 / 5-6.
fn open_board() -> Loops {
    Loops::new(9, 7, &[], 72).unwrap()
}

fn at(g: &Loops, x: usize, y: usize) -> usize {
    g.board().index(x, y)
}

fn pos(g: &Loops, seat: usize) -> (usize, usize) {
    g.board().xy(g.bot(seat).position)
}

fn trail(g: &Loops, seat: usize) -> Vec<(usize, usize)> {
    g.bot(seat).trail.iter().map(|&c| g.board().xy(c)).collect()
}

fn place(g: &mut Loops, seat: usize, x: usize, y: usize) {
    let c = at(g, x, y);
    g.bot_mut(seat).position = c;
}

fn own(g: &mut Loops, seat: usize, cells: &[(usize, usize)]) {
    for &(x, y) in cells {
        let c = at(g, x, y);
        g.owner_mut()[c] = Some(seat);
    }
}

fn set_trail(g: &mut Loops, seat: usize, cells: &[(usize, usize)]) {
    let t: Vec<usize> = cells.iter().map(|&(x, y)| at(g, x, y)).collect();
    g.bot_mut(seat).trail = t;
}

/// Plays seat `seat`'s moves one per turn, the others staying.
fn walk(g: &mut Loops, seat: usize, moves: &[&str]) {
    for m in moves {
        let mut a = ["STAY"; 4];
        a[seat] = m;
        let r = step(g, a);
        assert!(r.is_empty(), "{m}: {r:?}");
    }
}

// --- 1. Pads --------------------------------------------------------------------

#[test]
fn every_bot_starts_on_its_own_two_by_two_pad_in_a_corner() {
    let g = open_board();
    let corners = [(0, 0), (8, 0), (8, 6), (0, 6)];
    for (seat, &c) in corners.iter().enumerate() {
        assert_eq!(pos(&g, seat), c);
        assert_eq!(g.area(seat), 4);
        for cell in pad_cells(g.board(), seat) {
            assert_eq!(g.owner()[cell], Some(seat));
        }
    }
    assert_eq!(
        pad_cells(g.board(), 2).map(|c| g.board().xy(c)),
        [(7, 5), (8, 5), (7, 6), (8, 6)]
    );
}

#[test]
fn nobody_can_enter_a_rivals_pad() {
    let mut g = open_board();
    place(&mut g, 0, 6, 0);
    assert_eq!(legal(&observe(&g, 0)), vec!["SOUTH", "WEST", "STAY"]);
    let r = step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, kind::ILLEGAL);
    assert_eq!(pos(&g, 0), (6, 0));
}

#[test]
fn walls_are_blocked_cells() {
    let walls = [at(&open_board(), 2, 1)];
    let mut g = Loops::new(9, 7, &walls, 72).unwrap();
    place(&mut g, 0, 1, 1);
    assert!(!legal(&observe(&g, 0)).contains(&"EAST".to_string()));
    assert_eq!(observe(&g, 0)["walls"], json!([[2, 1]]));
    assert!(Loops::new(9, 7, &[0], 72).is_err(), "a wall on a pad");
    let cut: Vec<usize> = (0..7).map(|y| at(&g, 4, y)).collect();
    assert!(
        Loops::new(9, 7, &cut, 72).is_err(),
        "walls cutting the board"
    );
}

// --- 3. Trails ------------------------------------------------------------------

#[test]
fn leaving_your_land_draws_a_trail_oldest_first() {
    let mut g = open_board();
    place(&mut g, 0, 1, 1);
    walk(&mut g, 0, &["EAST", "SOUTH", "EAST"]);
    assert_eq!(trail(&g, 0), vec![(2, 1), (2, 2), (3, 2)]);
    assert_eq!(
        observe(&g, 1)["bots"][0]["trail"],
        json!([[2, 1], [2, 2], [3, 2]])
    );
    assert_eq!(g.area(0), 4, "a trail is not land");
}

#[test]
fn walking_back_over_your_own_trail_shortens_it_to_that_point() {
    let mut g = open_board();
    place(&mut g, 0, 1, 1);
    walk(&mut g, 0, &["EAST", "EAST", "SOUTH", "WEST", "NORTH"]);
    assert_eq!(trail(&g, 0), vec![(2, 1)]);
    walk(&mut g, 0, &["EAST"]);
    assert_eq!(trail(&g, 0), vec![(2, 1), (3, 1)]);
}

// --- 4. Loops -------------------------------------------------------------------

#[test]
fn back_on_your_land_the_loop_claims_the_trail_and_everything_it_encloses() {
    let mut g = open_board();
    place(&mut g, 0, 1, 1);
    walk(
        &mut g,
        0,
        &[
            "EAST", "EAST", "SOUTH", "SOUTH", "WEST", "WEST", "WEST", "NORTH",
        ],
    );
    assert_eq!(trail(&g, 0).len(), 8, "still out");
    walk(&mut g, 0, &["NORTH"]);
    assert!(trail(&g, 0).is_empty());
    // Trail: (2,1) (3,1) (3,2) (3,3) (2,3) (1,3) (0,3) (0,2); enclosed: (1,2) (2,2).
    for (x, y) in [(2, 1), (3, 1), (3, 3), (0, 2), (1, 2), (2, 2)] {
        assert_eq!(g.owner_at(x, y), Some(0), "({x}, {y})");
    }
    assert_eq!(g.area(0), 4 + 8 + 2);
    assert_eq!(g.owner_at(4, 2), None);
}

#[test]
fn a_loop_claims_rival_land_it_encloses_and_rival_bots_stay_put() {
    let mut g = open_board();
    own(&mut g, 3, &[(2, 2), (4, 5)]);
    place(&mut g, 3, 2, 2);
    place(&mut g, 0, 1, 1);
    walk(
        &mut g,
        0,
        &[
            "EAST", "EAST", "SOUTH", "SOUTH", "WEST", "WEST", "WEST", "NORTH", "NORTH",
        ],
    );
    assert_eq!(g.owner_at(2, 2), Some(0));
    assert_eq!(pos(&g, 3), (2, 2));
    assert_eq!(g.owner_at(4, 5), Some(3), "outside the loop");
    // Along the border: the border is not a wall, so cells on it are never enclosed.
    assert_eq!(g.owner_at(1, 0), Some(0));
}

#[test]
fn a_loop_never_claims_walls_or_pads() {
    let b = open_board().board();
    let mut g = Loops::new(9, 7, &[b.index(2, 2)], 72).unwrap();
    place(&mut g, 0, 1, 1);
    walk(
        &mut g,
        0,
        &[
            "EAST", "EAST", "SOUTH", "SOUTH", "WEST", "WEST", "WEST", "NORTH", "NORTH",
        ],
    );
    assert_eq!(g.owner_at(2, 2), None, "a wall stays nobody's");
    assert_eq!(g.owner_at(1, 2), Some(0));
    // A pad is never in a loop's claim, whoever's trail runs round it.
    let mut g = open_board();
    set_trail(&mut g, 0, &[(6, 0), (6, 1), (6, 2), (7, 2), (8, 2)]);
    for seat_pad in pad_cells(g.board(), 1) {
        assert!(!g.loop_cells(0).contains(&seat_pad));
    }
}

#[test]
fn a_trail_runs_over_rival_land_and_the_loop_takes_it() {
    let mut g = open_board();
    own(&mut g, 3, &[(2, 1)]);
    place(&mut g, 0, 1, 1);
    walk(&mut g, 0, &["EAST"]);
    assert_eq!(trail(&g, 0), vec![(2, 1)], "rival land is off our land");
    assert_eq!(g.owner_at(2, 1), Some(3), "a trail takes nothing by itself");
    walk(&mut g, 0, &["NORTH", "WEST"]);
    assert_eq!(g.owner_at(2, 1), Some(0));
    assert_eq!(g.owner_at(2, 0), Some(0));
}

// --- 5. Cuts --------------------------------------------------------------------

#[test]
fn stepping_on_a_rivals_open_trail_cuts_it_and_the_server_drives_it_home() {
    let mut g = open_board();
    own(&mut g, 1, &[(4, 0)]);
    set_trail(&mut g, 1, &[(5, 2), (4, 2), (4, 3)]);
    place(&mut g, 1, 4, 3);
    place(&mut g, 0, 3, 2);
    walk(&mut g, 0, &["EAST"]);
    assert_eq!(pos(&g, 0), (4, 2));
    let b = g.bot(1);
    assert!(b.trail.is_empty());
    assert!(b.returning);
    assert_eq!(g.owner_at(4, 0), Some(1), "land it owns stays its own");
    let o = observe(&g, 1);
    assert_eq!(o["self"]["returning"], true);
    assert_eq!(legal(&o), vec!["STAY"]);
    // Its answers are not read, even bad ones; it walks home, drawing nothing.
    let r = step(&mut g, ["STAY", "WEST", "STAY", "STAY"]);
    assert!(r.is_empty(), "{r:?}");
    assert_eq!(
        pos(&g, 1),
        (5, 3),
        "a shortest step east, west being no shorter"
    );
    assert!(g.bot(1).trail.is_empty());
    let mut turns = 1;
    while g.bot(1).returning {
        step(&mut g, ["STAY", "garbage", "STAY", "STAY"]);
        turns += 1;
        assert!(turns < 10);
    }
    // From (4, 3) the pad at (7..8, 0..1) is 5 steps away.
    assert_eq!(turns, 5);
    assert!(pad_cells(g.board(), 1).contains(&g.bot(1).position));
    assert!(legal(&observe(&g, 1)).len() > 1, "back: it plays again");
}

#[test]
fn a_bot_driven_home_can_neither_cut_nor_claim() {
    let mut g = open_board();
    g.bot_mut(1).returning = true;
    place(&mut g, 1, 4, 2);
    own(&mut g, 1, &[(5, 1)]);
    // Its way home is north to (4, 1), on seat 0's trail, then east to its
    // own (5, 1).
    set_trail(&mut g, 0, &[(2, 1), (3, 1), (4, 1), (4, 0)]);
    place(&mut g, 0, 4, 0);
    stay(&mut g, 1);
    assert_eq!(pos(&g, 1), (4, 1));
    assert!(!g.bot(0).returning, "no cut");
    assert_eq!(g.bot(0).trail.len(), 4);
    assert!(g.bot(1).trail.is_empty(), "no trail drawn");
    stay(&mut g, 1);
    assert_eq!(pos(&g, 1), (5, 1));
    assert_eq!(g.area(1), 5, "nothing claimed");
    assert!(g.bot(1).returning, "its land is not its pad");
}

#[test]
fn cuts_happen_before_loops_close() {
    // Seat 1 is one step from closing a loop back onto its pad at (7, 1);
    // seat 0 steps onto its trail at (6, 2) in the same turn.
    let mut g = open_board();
    set_trail(&mut g, 1, &[(6, 1), (6, 2), (7, 2)]);
    place(&mut g, 1, 7, 2);
    place(&mut g, 0, 5, 2);
    let r = step(&mut g, ["EAST", "NORTH", "STAY", "STAY"]);
    assert!(r.is_empty());
    assert_eq!(pos(&g, 1), (7, 1), "it did get back onto its pad");
    assert_eq!(g.owner_at(6, 1), None, "but its loop was cut first");
    assert_eq!(g.owner_at(7, 2), None);
    assert_eq!(g.area(1), 4);
    // Back on its pad: its return is already over.
    assert!(!g.bot(1).returning);
}

#[test]
fn two_bots_cutting_each_other_in_one_turn_are_both_cut() {
    let mut g = open_board();
    set_trail(&mut g, 0, &[(3, 2), (3, 3), (4, 3)]);
    place(&mut g, 0, 4, 3);
    // Seat 0 steps north onto seat 1's (4, 2) while seat 1 steps south
    // from (3, 1) onto seat 0's (3, 2).
    place(&mut g, 1, 3, 1);
    set_trail(&mut g, 1, &[(5, 2), (4, 2), (4, 1), (3, 1)]);
    let r = step(&mut g, ["NORTH", "SOUTH", "STAY", "STAY"]);
    assert!(r.is_empty());
    assert_eq!((pos(&g, 0), pos(&g, 1)), ((4, 2), (3, 2)));
    assert!(g.bot(0).returning && g.bot(1).returning);
    assert!(g.bot(0).trail.is_empty() && g.bot(1).trail.is_empty());
}

// --- 6. Contested claims ----------------------------------------------------------

#[test]
fn a_cell_two_loops_claim_in_the_same_turn_keeps_its_old_owner() {
    let mut g = open_board();
    // Seat 0 rings (4, 3) with its land and trail and closes onto (5, 4).
    own(&mut g, 0, &[(3, 2), (4, 2), (5, 2), (5, 3), (5, 4)]);
    set_trail(&mut g, 0, &[(3, 3), (3, 4), (4, 4)]);
    place(&mut g, 0, 4, 4);
    // Seat 1 rings the whole block (3..=5, 2..=4) and closes onto (2, 5).
    let mut ring = Vec::new();
    for x in 2..=6 {
        ring.push((x, 1));
        ring.push((x, 5));
    }
    for y in 2..=4 {
        ring.push((6, y));
    }
    own(&mut g, 1, &ring);
    set_trail(&mut g, 1, &[(2, 2), (2, 3), (2, 4)]);
    place(&mut g, 1, 2, 4);
    let neutral_before = g.owner_at(4, 3);
    let r = step(&mut g, ["EAST", "SOUTH", "STAY", "STAY"]);
    assert!(r.is_empty(), "{r:?}");
    // Claimed by both: seat 0's trail and enclosure. They keep their owner.
    for (x, y) in [(4, 3), (3, 3), (3, 4), (4, 4)] {
        assert_eq!(g.owner_at(x, y), neutral_before, "({x}, {y})");
    }
    // Claimed by seat 1 alone: its trail, and seat 0's land inside its ring.
    for (x, y) in [(2, 2), (2, 3), (2, 4), (3, 2), (5, 4)] {
        assert_eq!(g.owner_at(x, y), Some(1), "({x}, {y})");
    }
    assert!(g.bot(0).trail.is_empty() && g.bot(1).trail.is_empty());
}

// --- 7. Moves -------------------------------------------------------------------

#[test]
fn a_bot_that_stays_keeps_its_cell_and_bots_cannot_swap() {
    let mut g = open_board();
    place(&mut g, 0, 3, 3);
    place(&mut g, 1, 4, 3);
    let r = step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(r[0].kind, kind::ILLEGAL);
    assert_eq!(pos(&g, 0), (3, 3));
    let r = step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(r.len(), 2);
    assert_eq!((pos(&g, 0), pos(&g, 1)), ((3, 3), (4, 3)));
}

#[test]
fn two_bots_stepping_into_one_empty_cell_the_token_holder_gets_it_even_from_its_owner() {
    let mut g = open_board();
    own(&mut g, 1, &[(4, 3)]);
    place(&mut g, 0, 3, 3);
    place(&mut g, 1, 5, 3);
    assert_eq!(observe(&g, 0)["priority_seat"], 0);
    step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (4, 3));
    assert_eq!(pos(&g, 1), (5, 3));
    assert!(g.bot(1).blocked);
    assert_eq!(observe(&g, 2)["bots"][1]["blocked"], true);
    assert!(!g.bot(0).blocked);
    // Next turn the token is seat 1's.
    let mut g = open_board();
    place(&mut g, 0, 3, 3);
    place(&mut g, 1, 5, 3);
    stay(&mut g, 1);
    step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 1), (4, 3));
    assert!(g.bot(0).blocked);
}

// --- 8. Scores and the end --------------------------------------------------------

#[test]
fn every_turn_each_bot_scores_a_point_per_cell_it_owns() {
    let mut g = open_board();
    stay(&mut g, 2);
    assert_eq!(g.bot(0).score, 8);
    place(&mut g, 0, 1, 1);
    walk(&mut g, 0, &["EAST", "NORTH"]);
    // Out at (2, 1), then (2, 0): still 4 cells each turn.
    assert_eq!(g.bot(0).score, 8 + 4 + 4);
    walk(&mut g, 0, &["WEST"]);
    // Loop closed onto (1, 0): (2, 1) and (2, 0) are its own this very turn.
    assert_eq!(g.area(0), 6);
    assert_eq!(g.bot(0).score, 16 + 6);
    assert_eq!(observe(&g, 0)["self"]["score"], 22);
    assert_eq!(observe(&g, 0)["self"]["area"], 6);
}

#[test]
fn the_game_lasts_72_turns_on_9x7_and_100_on_12x8_and_most_points_wins() {
    for (w, h, turns) in BOARDS {
        let mut g = new_game("loops", &json!({"width": w, "height": h}), 0, 4).unwrap();
        assert_eq!(observe(g.as_ref(), 0)["turns"], turns);
        stay(g.as_mut(), turns - 1);
        assert!(g.outcome().is_none());
        stay(g.as_mut(), 1);
        let o = g.outcome().unwrap();
        assert_eq!(o.placements, vec![1, 1, 1, 1], "all equal: a draw");
        assert!(o.reason.contains("draw"));
    }
    let mut g = Loops::new(9, 7, &[], 2).unwrap();
    own(&mut g, 2, &[(4, 4)]);
    own(&mut g, 3, &[(4, 3), (3, 3)]);
    stay(&mut g, 2);
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![3, 3, 2, 1]);
    assert_eq!(o.scores, vec![8.0, 8.0, 10.0, 12.0]);
}

// --- Answers --------------------------------------------------------------------

#[test]
fn invalid_text_is_stay_plus_a_rejection() {
    let huge = "N".repeat(50_000);
    for bad in GARBAGE
        .iter()
        .copied()
        .chain([huge.as_str(), "RETREAT", "SHIELD"])
    {
        let mut g = open_board();
        place(&mut g, 0, 1, 1);
        let r = g.step(&[Some(bad), Some("WEST"), None, None]);
        assert_eq!(r.len(), 1, "{bad:?}");
        assert_eq!(r[0].seat, 0);
        assert_eq!(pos(&g, 0), (1, 1));
        assert_eq!(pos(&g, 1), (7, 0));
    }
}

// --- The state ------------------------------------------------------------------

#[test]
fn the_state_has_exactly_the_rule_book_fields() {
    let g = open_board();
    let o = observe(&g, 1);
    assert_eq!(
        keys(&o),
        sorted(&[
            "turn",
            "turns_remaining",
            "turns",
            "width",
            "height",
            "owner",
            "walls",
            "pads",
            "self",
            "bots",
            "priority_seat",
            "legal_actions"
        ])
    );
    let bot = [
        "id",
        "position",
        "trail",
        "returning",
        "area",
        "score",
        "blocked",
    ];
    assert_eq!(keys(&o["self"]), sorted(&bot));
    for b in o["bots"].as_array().unwrap() {
        assert_eq!(keys(b), sorted(&bot));
    }
    assert_eq!(o["self"]["id"], 1);
    assert_eq!(o["pads"][1], json!([[7, 0], [8, 0], [7, 1], [8, 1]]));
    assert_eq!(o["walls"], json!([]));
    assert_eq!(o["turns"], 72);
    assert_eq!(o["owner"][0][8], 1);
    assert_eq!(legal(&o), vec!["SOUTH", "WEST", "STAY"]);
}

// --- Boards, symmetry, determinism ------------------------------------------------

#[test]
fn generated_boards_are_9x7_or_12x8_some_with_mirrored_walls() {
    let mut kinds = std::collections::BTreeSet::new();
    for seed in 0..60 {
        let (board, walls) = generate_board(seed);
        assert!(BOARDS
            .iter()
            .any(|b| (b.0, b.1) == (board.width, board.height)));
        kinds.insert((board.width, walls.is_empty()));
        for s in 0..4 {
            let mut img: Vec<usize> = walls.iter().map(|&c| mirror(board, s, c)).collect();
            img.sort_unstable();
            assert_eq!(img, walls, "seed {seed}: walls mirrored for seat {s}");
        }
        // Loops::new refuses walls on pads or cutting the board.
        let g = Loops::new(board.width, board.height, &walls, 10).unwrap();
        for w in &walls {
            let (x, y) = board.xy(*w);
            assert!((2..board.width - 2).contains(&x) && (2..board.height - 2).contains(&y));
            assert!(g.is_wall(*w));
        }
    }
    assert_eq!(kinds.len(), 4, "{kinds:?}");
}

#[test]
fn the_same_seed_and_answers_give_the_same_state_hashes() {
    let run = |seed| {
        let mut g = new_game("loops", &Value::Null, seed, 4).unwrap();
        random_play(g.as_mut(), seed, 1000)
    };
    let a = run(5);
    assert_eq!(a, run(5));
    assert_ne!(a, run(6));
    assert!(a.len() >= 73);
}

#[test]
fn setup_fed_back_as_config_rebuilds_the_same_game() {
    for seed in 0..8 {
        let g = new_game("loops", &Value::Null, seed, 4).unwrap();
        let again = new_game("loops", &g.setup(), 12345, 4).unwrap();
        assert_eq!(g.state_hash(), again.state_hash());
    }
    assert!(new_game("loops", &json!({"width": 9}), 0, 4).is_err());
    assert!(new_game("loops", &json!({"walls": [[4, 3]]}), 0, 4).is_err());
    assert!(new_game(
        "loops",
        &json!({"width": 9, "height": 7, "walls": [[40, 3]]}),
        0,
        4
    )
    .is_err());
}

// --- Each phase of the turn alone (numbered as docs/games/loops.md) --------------

#[test]
fn phase_1_reading_skips_the_bots_being_driven_home() {
    let mut g = open_board();
    g.bot_mut(1).returning = true;
    let (actions, r) = g.read_actions(&[Some("EAST"), Some("WEST"), Some("up"), None]);
    assert_eq!(
        actions,
        [
            Action::Move(Dir::East),
            Action::Stay,
            Action::Stay,
            Action::Stay
        ]
    );
    // Only seat 2's answer was read and refused.
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].seat, 2);
}

#[test]
fn phase_2_a_cut_bot_is_driven_one_step_nearer_its_pad() {
    let mut g = open_board();
    place(&mut g, 0, 3, 3);
    g.bot_mut(0).returning = true;
    let mut actions = [Action::Move(Dir::South); 4];
    g.drive_returning_bots(&mut actions);
    // North comes first of the shortest steps in seat 0's frame.
    assert_eq!(actions[0], Action::Move(Dir::North));
    assert_eq!(actions[1], Action::Move(Dir::South), "not returning");
    assert_eq!(pos(&g, 0), (3, 3), "driving decides, moving moves");
}

#[test]
fn phase_3_two_bots_stepping_into_one_cell_the_token_holder_gets_it() {
    let mut g = open_board();
    place(&mut g, 0, 3, 3);
    place(&mut g, 1, 5, 3);
    let moved = g.move_bots(&[
        Action::Move(Dir::East),
        Action::Move(Dir::West),
        Action::Stay,
        Action::Stay,
    ]);
    assert_eq!(moved[0], MoveResult::Moved);
    assert_eq!(moved[1], MoveResult::Blocked);
    assert_eq!((pos(&g, 0), pos(&g, 1)), ((4, 3), (5, 3)));
    assert!(g.bot(1).blocked);
    assert!(trail(&g, 0).is_empty(), "trails are drawn in phase 4");
}

#[test]
fn phase_4_a_bot_that_moved_off_its_land_extends_or_shortens_its_trail() {
    let mut g = open_board();
    set_trail(&mut g, 0, &[(2, 1), (3, 1)]);
    place(&mut g, 0, 4, 1);
    set_trail(&mut g, 1, &[(6, 2), (5, 2), (5, 3)]);
    place(&mut g, 1, 6, 2);
    g.draw_trails(&[MoveResult::Moved; 4]);
    assert_eq!(trail(&g, 0), vec![(2, 1), (3, 1), (4, 1)]);
    assert_eq!(trail(&g, 1), vec![(6, 2)]);
}

#[test]
fn phase_5_standing_on_a_rivals_trail_cuts_it_and_sends_the_rival_home() {
    let mut g = open_board();
    set_trail(&mut g, 0, &[(2, 1), (3, 1), (3, 2)]);
    place(&mut g, 0, 3, 2);
    place(&mut g, 1, 3, 1);
    g.cut_trails();
    assert!(trail(&g, 0).is_empty());
    assert!(g.bot(0).returning);
    assert!(!g.bot(1).returning);
}

#[test]
fn phase_6_back_on_its_land_a_bot_claims_its_trail_and_what_it_encloses() {
    let mut g = open_board();
    // Out of the pad at (1, 1), round (2, 1) and back onto its own (2, 0):
    // the loop encloses (2, 1).
    set_trail(&mut g, 0, &[(1, 2), (2, 2), (3, 2), (3, 1), (3, 0), (2, 0)]);
    own(&mut g, 0, &[(2, 0)]);
    place(&mut g, 0, 2, 0);
    g.close_loops();
    for cell in [(1, 2), (2, 2), (3, 2), (3, 1), (3, 0), (2, 1)] {
        assert_eq!(g.owner_at(cell.0, cell.1), Some(0), "{cell:?}");
    }
    assert!(trail(&g, 0).is_empty());
}

#[test]
fn phase_7_a_bot_driven_home_plays_again_once_on_its_pad() {
    let mut g = open_board();
    g.bot_mut(0).returning = true;
    place(&mut g, 1, 4, 4);
    g.bot_mut(1).returning = true;
    g.arrive_home();
    assert!(!g.bot(0).returning);
    assert!(g.bot(1).returning);
}

#[test]
fn phase_8_every_bot_scores_a_point_per_cell_it_owns() {
    let mut g = open_board();
    own(&mut g, 2, &[(4, 4), (4, 5)]);
    g.score_cells();
    let scores: Vec<u64> = (0..4).map(|s| g.bot(s).score).collect();
    assert_eq!(scores, vec![4, 4, 6, 4]);
}
