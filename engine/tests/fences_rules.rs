//! Fences' rules, one by one, on small hand-made positions, then the
//! observation and the answers against random play.

use ludus_engine::fences::geometry::{Area, Fine, SCALE};
use ludus_engine::fences::{kind, mover_of, Fences, BLUE, RED};
use ludus_engine::{new_game, Game, Rejection};
use rand_core::RngCore;
use serde_json::{json, Value};

fn observe(g: &Fences, seat: usize) -> Value {
    let mut s = String::new();
    g.observation(seat, &mut s);
    serde_json::from_str(&s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// One move: the mover answers `answer`, the other WAIT.
fn play(g: &mut Fences, answer: &str) -> Vec<Rejection> {
    let mut answers = [Some("WAIT"), Some("WAIT")];
    answers[g.to_move()] = Some(answer);
    g.step(&answers)
}

fn mv(x1: i32, y1: i32, x2: i32, y2: i32) -> String {
    format!("MOVE {x1} {y1} {x2} {y2}")
}

fn check(g: &Fences, seat: usize, xy: [i64; 4]) -> Result<Option<u32>, &'static str> {
    g.check_move(seat, xy).map(|c| c.breaks).map_err(|e| e.kind)
}

/// A blank 10 × 10 board with `edges` of `owner`, drawn at move 0 (never
/// protected), enclosed.
/// An edge of a hand-made position: owner, one end, the other.
type Drawn = (usize, (i32, i32), (i32, i32));

fn board(edges: &[Drawn]) -> Fences {
    let mut g = Fences::empty(10, 10, 120);
    for &(owner, a, b) in edges {
        g.add_edge(owner, a, b, 0);
    }
    g.enclose();
    g
}

fn area(g: &Fences, seat: usize) -> String {
    g.area(seat).exact_text()
}

fn nodes(g: &Fences, seat: usize) -> Vec<(i32, i32)> {
    g.nodes(seat).iter().map(|p| (p.x, p.y)).collect()
}

fn ids(g: &Fences) -> Vec<u32> {
    g.edges().iter().map(|e| e.id).collect()
}

const SQUARE: [((i32, i32), (i32, i32)); 4] = [
    ((0, 0), (3, 0)),
    ((3, 0), (3, 3)),
    ((3, 3), (0, 3)),
    ((0, 3), (0, 0)),
];

fn square(owner: usize, dx: i32, dy: i32) -> Vec<Drawn> {
    SQUARE
        .iter()
        .map(|&(a, b)| (owner, (a.0 + dx, a.1 + dy), (b.0 + dx, b.1 + dy)))
        .collect()
}

// --- 1. Boards and starting edges ------------------------------------------------

#[test]
fn the_board_is_17_by_11_points_and_each_player_starts_with_an_edge_of_3_on_the_middle_row_at_its_side(
) {
    let g = new_game("fences", &Value::Null, 5, 2).unwrap();
    let v: Value = {
        let mut s = String::new();
        g.observation(0, &mut s);
        serde_json::from_str(&s).unwrap()
    };
    assert_eq!(
        (v["width"].as_u64(), v["height"].as_u64()),
        (Some(17), Some(11))
    );
    assert_eq!(
        v["edges"],
        json!([{"id": 0, "a": [0, 5], "b": [3, 5], "owner": 0, "turn": 0, "protected": false},
               {"id": 1, "a": [13, 5], "b": [16, 5], "owner": 1, "turn": 0, "protected": false}])
    );
    assert_eq!(v["self"]["nodes"], json!([[0, 5], [3, 5]]));
    assert_eq!(v["opponent"]["nodes"], json!([[13, 5], [16, 5]]));
}

#[test]
fn the_other_board_is_19_by_13_by_config_and_bad_configs_are_refused() {
    let g = Fences::from_config(&json!({"width": 19, "height": 13}), 0, 2).unwrap();
    assert_eq!(nodes(&g, BLUE), vec![(0, 6), (3, 6)]);
    assert_eq!(nodes(&g, RED), vec![(15, 6), (18, 6)]);
    for bad in [
        json!({"height": 12}),
        json!({"width": 7}),
        json!({"max_turns": 7}),
        json!({"max_turns": 0}),
        json!({"board": 1}),
        json!([1]),
    ] {
        assert!(Fences::from_config(&bad, 0, 2).is_err(), "{bad}");
    }
    assert!(new_game("fences", &Value::Null, 0, 3).is_err());
}

// --- 2. The order of moves -------------------------------------------------------

#[test]
fn blue_opens_with_one_move_then_turns_of_two_alternate_and_the_last_turn_has_one() {
    let g = Fences::new(17, 11, 120);
    let movers: Vec<usize> = (0..120).map(mover_of).collect();
    assert_eq!(&movers[..7], &[BLUE, RED, RED, BLUE, BLUE, RED, RED]);
    assert_eq!(&movers[116..], &[BLUE, RED, RED, BLUE]);
    assert_eq!(movers.iter().filter(|&&s| s == BLUE).count(), 60);
    let ends: Vec<u32> = (0..120).filter(|&m| g.ends_turn(m)).collect();
    assert_eq!(ends.len(), 61, "61 turns");
    assert_eq!(g.rounds(), 61);
    assert_eq!(&ends[..3], &[0, 2, 4]);
    assert_eq!(&ends[59..], &[118, 119]);
    // A short game keeps the shape: B, RR, BB, R.
    let short = Fences::new(17, 11, 6);
    assert_eq!((0..6).filter(|&m| short.ends_turn(m)).count(), 4);
    assert_eq!(short.rounds(), 4);
}

#[test]
fn both_players_are_asked_every_move_and_the_one_not_to_move_answers_wait() {
    let mut g = Fences::new(17, 11, 120);
    let (blue, red) = (observe(&g, BLUE), observe(&g, RED));
    assert_eq!(blue["your_turn"], json!(true));
    assert_eq!(
        (blue["round"].as_u64(), blue["moves_left"].as_u64()),
        (Some(1), Some(1))
    );
    assert!(blue["legal_actions"][0]
        .as_str()
        .unwrap()
        .starts_with("MOVE"));
    assert_eq!(red["your_turn"], json!(false));
    assert_eq!(red["legal_actions"], json!(["WAIT"]));
    assert_eq!(red["legal_moves"], json!([]));
    // A move from the player not to move is refused and changes nothing.
    let refused = g.step(&[Some("MOVE 3 5 6 5"), Some("MOVE 13 5 10 5")]);
    assert_eq!(refused.len(), 1);
    assert_eq!(
        (refused[0].seat, refused[0].kind.as_str()),
        (RED, kind::NOT_YOUR_TURN)
    );
    assert_eq!(nodes(&g, RED), vec![(13, 5), (16, 5)]);
    assert_eq!(nodes(&g, BLUE), vec![(0, 5), (3, 5), (6, 5)]);
    let red = observe(&g, RED);
    assert_eq!(
        (red["your_turn"].clone(), red["moves_left"].as_u64()),
        (json!(true), Some(2))
    );
}

#[test]
fn read_answers_alone_takes_the_movers_move_and_refuses_the_others() {
    let g = Fences::new(17, 11, 120);
    let (m, refused) = g.read_answers(&[Some("\"MOVE 3 5 6 2\""), Some("MOVE 13 5 10 5")]);
    let m = m.expect("Blue's move is read");
    assert_eq!((m.seg.b.x, m.seg.b.y, m.breaks), (6, 2, None));
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].kind, kind::NOT_YOUR_TURN);
    let (m, refused) = g.read_answers(&[Some("WAIT"), Some("WAIT")]);
    assert!(m.is_none());
    assert_eq!(refused[0].kind, kind::WAITED);
    assert_eq!(g.turn(), 0, "reading changes nothing");
}

// --- 3. A move --------------------------------------------------------------------

#[test]
fn a_move_goes_from_one_of_your_nodes_to_a_point_at_most_3_columns_and_3_rows_away() {
    let g = Fences::new(17, 11, 120);
    assert_eq!(check(&g, BLUE, [3, 5, 6, 2]), Ok(None));
    assert_eq!(check(&g, BLUE, [0, 5, 0, 8]), Ok(None));
    assert_eq!(check(&g, BLUE, [3, 5, 7, 5]), Err(kind::OUT_OF_REACH));
    assert_eq!(check(&g, BLUE, [3, 5, 3, 9]), Err(kind::OUT_OF_REACH));
    assert_eq!(check(&g, BLUE, [3, 5, 3, 5]), Err(kind::OUT_OF_REACH));
    assert_eq!(check(&g, BLUE, [1, 5, 1, 2]), Err(kind::NOT_YOUR_NODE));
    assert_eq!(check(&g, BLUE, [13, 5, 10, 5]), Err(kind::NOT_YOUR_NODE));
    assert_eq!(check(&g, BLUE, [0, 5, -1, 5]), Err(kind::OFF_BOARD));
    assert_eq!(check(&g, BLUE, [0, 5, 0, i64::MIN]), Err(kind::OFF_BOARD));
    assert_eq!(check(&g, BLUE, [-3, 5, 0, 5]), Err(kind::NOT_YOUR_NODE));
}

#[test]
fn the_end_point_of_a_move_becomes_a_node_and_the_edge_remembers_its_move() {
    let mut g = Fences::new(17, 11, 120);
    assert!(play(&mut g, &mv(3, 5, 6, 2)).is_empty());
    assert_eq!(nodes(&g, BLUE), vec![(0, 5), (3, 5), (6, 2)]);
    let e = g.edges().last().unwrap();
    assert_eq!((e.id, e.owner, e.turn), (2, BLUE, 1));
}

#[test]
fn draw_edge_alone_adds_the_edge_with_the_next_id_and_the_move_number() {
    let mut g = board(&[(BLUE, (0, 5), (3, 5))]);
    g.set_turn(6);
    let seg = g.check_move(BLUE, [3, 5, 5, 3]).unwrap().seg;
    g.draw_edge(BLUE, seg);
    let e = g.edges().last().unwrap();
    assert_eq!((e.id, e.owner, e.turn), (1, BLUE, 7));
    assert_eq!(nodes(&g, BLUE), vec![(0, 5), (3, 5), (5, 3)]);
}

// --- 4. Your own edges ------------------------------------------------------------

#[test]
fn you_cannot_end_in_the_middle_of_your_own_edge() {
    let g = board(&[(BLUE, (0, 5), (3, 5)), (BLUE, (3, 5), (2, 2))]);
    assert_eq!(check(&g, BLUE, [2, 2, 2, 5]), Err(kind::ENDS_ON_OWN_EDGE));
    assert_eq!(check(&g, BLUE, [3, 5, 1, 5]), Err(kind::ENDS_ON_OWN_EDGE));
    assert_eq!(
        check(&g, BLUE, [2, 2, 0, 5]),
        Ok(None),
        "an end of an edge is a node"
    );
}

#[test]
fn you_cannot_pass_through_your_own_node() {
    let g = board(&[(BLUE, (0, 5), (3, 5)), (BLUE, (3, 5), (4, 4))]);
    assert_eq!(check(&g, BLUE, [4, 4, 2, 6]), Err(kind::THROUGH_OWN_NODE));
    assert_eq!(check(&g, BLUE, [4, 4, 1, 4]), Ok(None));
}

#[test]
fn you_cannot_draw_an_edge_you_already_have() {
    let g = board(&[(BLUE, (0, 5), (3, 5))]);
    assert_eq!(check(&g, BLUE, [3, 5, 0, 5]), Err(kind::EDGE_EXISTS));
    assert_eq!(check(&g, BLUE, [0, 5, 3, 5]), Err(kind::EDGE_EXISTS));
}

#[test]
fn you_may_cross_your_own_edges() {
    let g = board(&[(BLUE, (0, 5), (3, 5)), (BLUE, (3, 5), (1, 3))]);
    assert_eq!(check(&g, BLUE, [1, 3, 2, 6]), Ok(None));
}

// --- 5. Enclosure -----------------------------------------------------------------

#[test]
fn a_square_of_your_own_edges_encloses_its_area() {
    let g = board(&square(BLUE, 1, 1));
    assert_eq!(area(&g, BLUE), "9");
    assert_eq!(g.regions(BLUE).len(), 1);
    assert_eq!(g.regions(BLUE)[0].edges, vec![0, 1, 2, 3]);
    assert_eq!(area(&g, RED), "0");
}

#[test]
fn a_bow_tie_whose_crossing_is_a_corner_encloses_two_triangles() {
    // (0,0)→(3,3)→(3,0)→(0,3)→(0,0): the diagonals cross at (3/2, 3/2).
    let g = board(&[
        (BLUE, (0, 0), (3, 3)),
        (BLUE, (3, 3), (3, 0)),
        (BLUE, (3, 0), (0, 3)),
        (BLUE, (0, 3), (0, 0)),
    ]);
    assert_eq!(area(&g, BLUE), "9/2");
    let regions = g.regions(BLUE);
    assert_eq!(regions.len(), 2);
    let crossing = Fine {
        x: 3 * SCALE / 2,
        y: 3 * SCALE / 2,
    };
    for r in regions {
        assert_eq!(r.area.exact_text(), "9/4");
        assert_eq!(r.outline.len(), 3);
        assert!(r.outline.contains(&crossing), "{:?}", r.outline);
    }
}

#[test]
fn a_region_inside_a_region_counts_once() {
    let mut edges = Vec::new();
    let ring = [
        (0, 0),
        (3, 0),
        (6, 0),
        (6, 3),
        (6, 6),
        (3, 6),
        (0, 6),
        (0, 3),
        (0, 0),
    ];
    for w in ring.windows(2) {
        edges.push((BLUE, w[0], w[1]));
    }
    let inner = [(2, 2), (4, 2), (4, 4), (2, 4), (2, 2)];
    for w in inner.windows(2) {
        edges.push((BLUE, w[0], w[1]));
    }
    let g = board(&edges);
    assert_eq!(area(&g, BLUE), "36");
    let areas: Vec<String> = g
        .regions(BLUE)
        .iter()
        .map(|r| r.area.exact_text())
        .collect();
    assert_eq!(areas, vec!["32", "4"]);
    assert_eq!(
        g.regions(BLUE)[0].edges.len(),
        12,
        "the ring borders the inner square too"
    );
}

#[test]
fn the_border_of_the_board_is_not_a_wall() {
    let g = board(&[(BLUE, (0, 2), (3, 2)), (BLUE, (3, 2), (3, 0))]);
    assert_eq!(area(&g, BLUE), "0");
    assert!(g.regions(BLUE).is_empty());
}

#[test]
fn areas_are_exact_fractions() {
    // (0,0)-(3,2) and (0,2)-(2,0) cross at (6/5, 4/5); with (0,0)-(0,2)
    // they close a triangle of 6/5 squares.
    let g = board(&[
        (BLUE, (0, 0), (3, 2)),
        (BLUE, (0, 2), (2, 0)),
        (BLUE, (0, 0), (0, 2)),
    ]);
    assert_eq!(area(&g, BLUE), "6/5");
    assert_eq!(g.area(BLUE).to_f64(), 1.2);
    let o = observe(&g, BLUE);
    assert_eq!(o["self"]["area_exact"], json!("6/5"));
    assert_eq!(o["regions"][0]["outline"][1], json!([1.2, 0.8]));
}

#[test]
fn enclose_recomputes_regions_from_the_edges_as_they_are() {
    let mut g = board(&square(BLUE, 0, 0));
    assert_eq!(area(&g, BLUE), "9");
    g.break_edge(2);
    assert_eq!(area(&g, BLUE), "9", "enclose has not run yet");
    g.enclose();
    assert_eq!(area(&g, BLUE), "0");
}

// --- 6. Scoring -------------------------------------------------------------------

#[test]
fn score_turn_adds_each_players_enclosed_area_to_its_score() {
    let mut edges = square(BLUE, 0, 0);
    edges.extend([
        (RED, (5, 0), (8, 3)),
        (RED, (8, 3), (8, 0)),
        (RED, (8, 0), (5, 3)),
        (RED, (5, 3), (5, 0)),
    ]);
    let mut g = board(&edges);
    g.score_turn();
    g.score_turn();
    assert_eq!(g.score(BLUE).exact_text(), "18");
    assert_eq!(g.score(RED).exact_text(), "9");
}

#[test]
fn scores_are_added_at_the_end_of_every_turn_not_after_every_move() {
    let mut edges = square(BLUE, 0, 0);
    edges.push((RED, (6, 6), (8, 8)));
    let mut g = board(&edges);
    let mut seen = Vec::new();
    for _ in 0..5 {
        g.step(&[None, None]);
        seen.push(g.score(BLUE).exact_text());
    }
    // Moves 0 | 1 2 | 3 4: turns end after moves 0, 2 and 4.
    assert_eq!(seen, vec!["9", "9", "18", "18", "27"]);
}

// --- 7. Breaking ------------------------------------------------------------------

#[test]
fn a_new_edge_crossing_an_opponent_edge_breaks_that_whole_edge() {
    let mut g = board(&[
        (BLUE, (0, 4), (3, 4)),
        (BLUE, (3, 4), (3, 1)),
        (RED, (1, 2), (1, 1)),
    ]);
    g.set_turn(1);
    assert_eq!(
        check(&g, RED, [1, 2, 2, 5]),
        Ok(Some(0)),
        "crosses at (5/3, 4)"
    );
    assert!(play(&mut g, &mv(1, 2, 2, 5)).is_empty());
    assert_eq!(ids(&g), vec![1, 2, 3]);
    assert_eq!(nodes(&g, BLUE), vec![(3, 1), (3, 4)]);
}

#[test]
fn a_new_edge_that_only_touches_an_opponent_edge_breaks_it_too() {
    let mut g = board(&[(BLUE, (0, 4), (3, 4)), (RED, (5, 2), (6, 2))]);
    g.set_turn(1);
    assert_eq!(
        check(&g, RED, [5, 2, 2, 4]),
        Ok(Some(0)),
        "ends on its middle"
    );
    assert!(play(&mut g, &mv(5, 2, 2, 4)).is_empty());
    assert!(g.edges_of(BLUE).next().is_none());
}

#[test]
fn a_break_frees_the_region_the_edge_enclosed() {
    let mut edges = square(BLUE, 0, 0);
    edges.push((RED, (5, 2), (6, 2)));
    let mut g = board(&edges);
    assert_eq!(area(&g, BLUE), "9");
    g.set_turn(1);
    assert!(play(&mut g, &mv(5, 2, 2, 1)).is_empty());
    assert_eq!(area(&g, BLUE), "0");
    assert!(g.regions(BLUE).is_empty());
    assert_eq!(ids(&g), vec![0, 2, 3, 4, 5], "edge 1, the east side, broke");
}

#[test]
fn opponent_nodes_left_with_no_edge_disappear() {
    let mut g = board(&[
        (BLUE, (0, 4), (3, 4)),
        (BLUE, (3, 4), (3, 1)),
        (RED, (5, 2), (6, 2)),
    ]);
    g.set_turn(1);
    assert!(play(&mut g, &mv(5, 2, 2, 2)).is_empty(), "crosses (3, 2)");
    assert_eq!(nodes(&g, BLUE), vec![(0, 4), (3, 4)]);
}

#[test]
fn breaking_a_wall_between_two_enclosed_faces_leaves_the_merged_face_enclosed() {
    // A 6 × 3 rectangle with a wall at x = 3, and a Red edge inside it.
    let ring = [(0, 0), (3, 0), (6, 0), (6, 3), (3, 3), (0, 3), (0, 0)];
    let mut edges: Vec<_> = ring.windows(2).map(|w| (BLUE, w[0], w[1])).collect();
    edges.push((BLUE, (3, 0), (3, 3)));
    edges.push((RED, (4, 1), (5, 2)));
    let mut g = board(&edges);
    assert_eq!((area(&g, BLUE), g.regions(BLUE).len()), ("18".into(), 2));
    g.set_turn(1);
    assert_eq!(check(&g, RED, [4, 1, 2, 2]), Ok(Some(6)));
    assert!(play(&mut g, &mv(4, 1, 2, 2)).is_empty());
    assert_eq!((area(&g, BLUE), g.regions(BLUE).len()), ("18".into(), 1));
}

#[test]
fn starting_edges_break_like_any_other_and_a_player_left_without_edges_loses() {
    let mut g = Fences::new(17, 11, 120);
    // Red's nodes brought next to Blue's starting edge (a hand-made position).
    g.add_edge(RED, (6, 3), (8, 3), 0);
    g.enclose();
    g.set_turn(2);
    assert_eq!(
        check(&g, RED, [6, 3, 3, 6]),
        Ok(None),
        "passes (4, 5), beside it"
    );
    assert_eq!(check(&g, RED, [6, 3, 3, 5]), Ok(Some(0)), "its node (3, 5)");
    assert!(play(&mut g, &mv(6, 3, 3, 5)).is_empty());
    assert!(g.nodes(BLUE).is_empty());
    assert_eq!(g.lost(), Some(BLUE));
    let o = g.outcome().expect("over");
    assert_eq!(o.placements, vec![2, 1]);
    assert!(o.reason.contains("blue has no legal move"), "{}", o.reason);
}

// --- 8. At most one opponent edge -------------------------------------------------

#[test]
fn a_move_may_touch_at_most_one_opponent_edge() {
    let mut g = board(&[
        (BLUE, (0, 4), (3, 4)),
        (BLUE, (0, 6), (3, 6)),
        (RED, (2, 3), (4, 2)),
    ]);
    g.set_turn(1);
    assert_eq!(check(&g, RED, [2, 3, 2, 6]), Err(kind::TOUCHES_TWO_EDGES));
    assert_eq!(check(&g, RED, [2, 3, 2, 5]), Ok(Some(0)));
}

#[test]
fn touching_a_node_touches_every_edge_there_so_it_needs_exactly_one_unprotected_edge() {
    let mut g = board(&[
        (BLUE, (0, 4), (3, 4)),
        (BLUE, (3, 4), (3, 1)),
        (RED, (5, 5), (6, 6)),
        (RED, (5, 2), (6, 2)),
    ]);
    g.set_turn(1);
    assert_eq!(check(&g, RED, [5, 5, 3, 4]), Err(kind::TOUCHES_TWO_EDGES));
    assert_eq!(check(&g, RED, [5, 2, 3, 1]), Ok(Some(1)));
    assert!(play(&mut g, &mv(5, 2, 3, 1)).is_empty());
    assert_eq!(nodes(&g, BLUE), vec![(0, 4), (3, 4)]);
    assert!(nodes(&g, RED).contains(&(3, 1)));
}

// --- 9. Protected edges, no running along -------------------------------------------

#[test]
fn edges_the_opponent_placed_in_its_latest_turn_are_protected() {
    let mut g = board(&[(RED, (5, 2), (6, 2))]);
    // Blue drew (3, 4)-(3, 1) with move 1 (turn 1 of the game, its opening).
    g.add_edge(BLUE, (3, 4), (3, 1), 1);
    g.enclose();
    g.set_turn(1);
    assert_eq!(check(&g, RED, [5, 2, 3, 1]), Err(kind::TOUCHES_PROTECTED));
    assert_eq!(check(&g, RED, [5, 2, 2, 2]), Err(kind::TOUCHES_PROTECTED));
    assert_eq!(observe(&g, RED)["edges"][1]["protected"], json!(true));
    // Red's moves 1 and 2 are one turn: still protected at move 2.
    g.set_turn(2);
    assert_eq!(check(&g, RED, [5, 2, 2, 2]), Err(kind::TOUCHES_PROTECTED));
}

#[test]
fn protection_lasts_only_the_opponents_next_turn() {
    let mut g = board(&[(RED, (5, 2), (6, 2))]);
    g.add_edge(BLUE, (3, 4), (3, 1), 1);
    g.enclose();
    g.set_turn(5); // Red's turn after Blue's second: move 5.
    assert_eq!(check(&g, RED, [5, 2, 2, 2]), Ok(Some(1)));
    assert_eq!(observe(&g, RED)["edges"][1]["protected"], json!(false));
}

#[test]
fn you_cannot_run_along_an_opponent_edge_lengthwise() {
    let mut g = board(&[(BLUE, (0, 4), (3, 4)), (RED, (5, 4), (6, 3))]);
    g.set_turn(1);
    assert_eq!(check(&g, RED, [5, 4, 2, 4]), Err(kind::RUNS_ALONG));
    assert_eq!(
        check(&g, RED, [5, 4, 3, 4]),
        Ok(Some(0)),
        "end to end is a touch"
    );
}

// --- 10. The end ------------------------------------------------------------------

#[test]
fn after_the_last_move_the_higher_exact_score_wins_and_equal_is_a_draw() {
    let mut g = Fences::new(17, 11, 120);
    g.set_turn(120);
    g.set_score(BLUE, Area::squares(1_000_000) + Area(1));
    g.set_score(RED, Area::squares(1_000_000));
    let o = g.outcome().unwrap();
    assert_eq!(
        o.scores[0], o.scores[1],
        "the doubles cannot tell them apart"
    );
    assert_eq!(o.placements, vec![1, 2], "the exact scores can");
    g.set_score(RED, Area::squares(1_000_000) + Area(1));
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![1, 1]);
    assert!(o.reason.contains("draw"), "{}", o.reason);
}

#[test]
fn a_whole_game_ends_after_its_last_move_with_the_higher_score_first() {
    let mut g = Fences::new(17, 11, 6);
    let plan = [
        mv(3, 5, 3, 2),
        mv(13, 5, 13, 2),
        mv(13, 2, 16, 5),
        mv(3, 2, 0, 5),
    ];
    for m in &plan {
        assert!(play(&mut g, m).is_empty(), "{m}");
        assert!(g.outcome().is_none());
    }
    play(&mut g, &mv(0, 5, 0, 8));
    assert!(play(&mut g, "WAIT").iter().any(|r| r.kind == kind::WAITED));
    let o = g.outcome().expect("6 moves played");
    // Red closed 9/2 at move 2 (scored after turns 1, 2 and 3), Blue 9/2
    // at move 3 (scored after turns 2 and 3).
    assert_eq!(g.score(RED).exact_text(), "27/2");
    assert_eq!(g.score(BLUE).exact_text(), "9");
    assert_eq!(o.placements, vec![2, 1]);
    assert!(o.reason.contains("red wins"), "{}", o.reason);
}

#[test]
fn a_late_missing_or_illegal_move_is_passed() {
    let mut g = Fences::new(17, 11, 120);
    let before = g.edges().len();
    assert!(
        g.step(&[None, Some("WAIT")]).is_empty(),
        "no answer: passed silently"
    );
    assert_eq!((g.turn(), g.edges().len()), (1, before));
    let r = play(&mut g, &mv(13, 5, 13, 0));
    assert_eq!(r[0].kind, kind::OUT_OF_REACH);
    assert!(
        r[0].reason.ends_with("the move is passed"),
        "{}",
        r[0].reason
    );
    let r = play(&mut g, "MOVE 13 5");
    assert_eq!(r[0].kind, kind::UNPARSEABLE);
    assert_eq!((g.turn(), g.edges().len()), (3, before));
    assert_eq!(g.to_move(), BLUE);
}

#[test]
fn check_stuck_alone_ends_the_game_when_the_player_to_move_has_no_move() {
    let mut g = board(&[(RED, (5, 5), (6, 6))]);
    g.check_stuck();
    assert_eq!(
        g.lost(),
        Some(BLUE),
        "Blue, to move, has no edge and so no node"
    );
    let mut g = board(&[(BLUE, (0, 5), (3, 5)), (RED, (5, 5), (6, 6))]);
    g.check_stuck();
    assert_eq!(g.lost(), None);
    assert!(g.outcome().is_none());
}

// --- The observation ------------------------------------------------------------

#[test]
fn the_observation_has_every_field_of_the_rule_book() {
    let g = board(&square(BLUE, 0, 0));
    let o = observe(&g, BLUE);
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&o),
        vec![
            "edges",
            "height",
            "legal_actions",
            "legal_moves",
            "moves_left",
            "opponent",
            "reach",
            "regions",
            "round",
            "rounds",
            "self",
            "to_move",
            "turn",
            "turns",
            "width",
            "your_turn"
        ]
    );
    assert_eq!(
        keys(&o["self"]),
        vec![
            "area",
            "area_exact",
            "color",
            "id",
            "nodes",
            "score",
            "score_exact"
        ]
    );
    assert_eq!(o["self"]["color"], json!("blue"));
    assert_eq!(o["opponent"]["color"], json!("red"));
    assert_eq!(
        keys(&o["edges"][0]),
        vec!["a", "b", "id", "owner", "protected", "turn"]
    );
    assert_eq!(
        o["regions"][0],
        json!({"owner": 0, "area": 9.0, "area_exact": "9",
               "outline": [[0.0, 0.0], [3.0, 0.0], [3.0, 3.0], [0.0, 3.0]], "edges": [0, 1, 2, 3]})
    );
    assert_eq!(o["legal_moves"][0].as_array().unwrap().len(), 6);
    let first = &o["legal_moves"][0];
    assert_eq!(
        o["legal_actions"][0],
        json!(format!(
            "MOVE {} {} {} {}",
            first[0], first[1], first[2], first[3]
        ))
    );
}

/// Plays random games, mostly picking moves that close or break, and calls
/// `visit` before every move.
fn random_games(games: u64, mut visit: impl FnMut(&Fences, &mut dyn FnMut(u32) -> u32)) {
    for seed in 0..games {
        let mut rng = ludus_engine::rng::stream(seed, "fences/random-play");
        let mut pick = move |n: u32| rng.next_u32() % n.max(1);
        let (w, h) = if seed % 2 == 0 { (17, 11) } else { (9, 7) };
        let mut g = Fences::new(w, h, 120);
        while g.outcome().is_none() {
            visit(&g, &mut pick);
            let legal = g.legal_moves(g.to_move());
            let keen: Vec<_> = legal
                .iter()
                .filter(|m| m.closes || m.breaks.is_some())
                .collect();
            let answer = if pick(20) == 0 {
                "WAIT".to_string()
            } else if !keen.is_empty() && pick(2) == 0 {
                let m = keen[pick(keen.len() as u32) as usize];
                mv(m.seg.a.x, m.seg.a.y, m.seg.b.x, m.seg.b.y)
            } else {
                let m = legal[pick(legal.len() as u32) as usize];
                mv(m.seg.a.x, m.seg.a.y, m.seg.b.x, m.seg.b.y)
            };
            let refused = play(&mut g, &answer);
            assert!(
                answer == "WAIT" || refused.is_empty(),
                "{answer}: {refused:?}"
            );
        }
    }
}

#[test]
fn legal_moves_are_exactly_the_moves_the_game_accepts_on_random_play() {
    let mut turns = 0;
    let mut breaking = 0;
    random_games(24, |g, pick| {
        turns += 1;
        let seat = g.to_move();
        let legal = g.legal_moves(seat);
        assert!(!legal.is_empty(), "a player to move has a legal move");
        assert!(g.legal_moves(1 - seat).is_empty());
        for m in &legal {
            let xy = [m.seg.a.x, m.seg.a.y, m.seg.b.x, m.seg.b.y].map(i64::from);
            assert_eq!(check(g, seat, xy), Ok(m.breaks), "{xy:?}");
            breaking += usize::from(m.breaks.is_some());
        }
        // Every point within reach of some nodes, and one far off: accepted
        // exactly when listed.
        let listed = |xy: [i64; 4]| {
            legal
                .iter()
                .any(|m| [m.seg.a.x, m.seg.a.y, m.seg.b.x, m.seg.b.y].map(i64::from) == xy)
        };
        let all = g.nodes(seat);
        for n in (0..3).map(|_| all[pick(all.len() as u32) as usize]) {
            for dx in -4..=4 {
                for dy in -4..=4 {
                    let xy = [n.x, n.y, n.x + dx, n.y + dy].map(i64::from);
                    assert_eq!(g.check_move(seat, xy).is_ok(), listed(xy), "{xy:?}");
                }
            }
        }
        let junk = [
            pick(40) as i64 - 20,
            pick(40) as i64 - 20,
            pick(40) as i64 - 20,
            pick(40) as i64 - 20,
        ];
        assert_eq!(g.check_move(seat, junk).is_ok(), listed(junk), "{junk:?}");
    });
    assert!(turns > 2000, "{turns} turns");
    assert!(breaking > 100, "only {breaking} breaking moves seen");
}

#[test]
fn closes_is_true_exactly_when_the_move_encloses_new_area() {
    let (mut closing, mut checked) = (0, 0);
    random_games(10, |g, pick| {
        let seat = g.to_move();
        let before = g.area(seat);
        let legal = g.legal_moves(seat);
        for _ in 0..12 {
            let m = legal[pick(legal.len() as u32) as usize];
            let mut after = g.clone();
            after.draw_edge(seat, m.seg);
            if let Some(id) = m.breaks {
                after.break_edge(id);
            }
            after.enclose();
            assert_eq!(m.closes, after.area(seat) > before, "{m:?}");
            checked += 1;
            closing += usize::from(m.closes);
        }
    });
    assert!(
        checked > 10_000 && closing > 300,
        "{closing} closing of {checked}"
    );
}

// --- Answers -----------------------------------------------------------------------

#[test]
fn hostile_answers_are_refused_and_the_move_is_passed() {
    let mut g = Fences::new(17, 11, 120);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let huge = "MOVE ".repeat(200_000);
    let hostile: Vec<(String, &str)> = vec![
        (deep, kind::UNPARSEABLE),
        (huge, kind::UNPARSEABLE),
        ("MOVE 3 5 99999999999999999999999 2".into(), kind::OFF_BOARD),
        ("MOVE -3 -5 -6 -2".into(), kind::NOT_YOUR_NODE),
        ("MOVE 3 5 -1 5".into(), kind::OFF_BOARD),
        ("JUMP 3 5 6 5".into(), kind::UNPARSEABLE),
        ("\"MOVE 3 5 6 5".into(), kind::UNPARSEABLE),
        ("{\"MOVE\": [3, 5, 6, 5]}".into(), kind::UNPARSEABLE),
        ("MOVE 3 5 6 5 7".into(), kind::UNPARSEABLE),
        ("MOVE 3 5 6 5\u{0}".into(), kind::UNPARSEABLE),
        ("mov 3 5 6 5".into(), kind::UNPARSEABLE),
    ];
    for (answer, expected) in &hostile {
        let before = g.edges().len();
        let r = g.step(&[Some(answer.as_str()), Some("WAIT")]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind, *expected, "{}", &answer[..answer.len().min(40)]);
        assert!(r[0].reason.len() < 300);
        assert_eq!(g.edges().len(), before);
        // Back to Blue's move for the next answer.
        g.set_turn(0);
    }
    // Random text, and random edits of a good answer.
    let mut rng = ludus_engine::rng::stream(1, "fences/hostile");
    for i in 0..3000 {
        let mut bytes: Vec<u8> = if i % 2 == 0 {
            b"MOVE 3 5 6 2".to_vec()
        } else {
            (0..rng.next_u32() % 30)
                .map(|_| rng.next_u32() as u8)
                .collect()
        };
        for _ in 0..rng.next_u32() % 4 {
            if bytes.is_empty() {
                break;
            }
            let k = rng.next_u32() as usize % bytes.len();
            bytes[k] = b" -0123456789MOVEWAIT\"x"[rng.next_u32() as usize % 22];
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let r = g.step(&[Some(text.as_str()), Some("WAIT")]);
        assert!(r.len() <= 1);
        g = Fences::new(17, 11, 120);
    }
}

// --- Determinism -------------------------------------------------------------------

#[test]
fn the_same_answers_give_the_same_state_hashes_and_setup_rebuilds_the_game() {
    let run = || {
        let mut hashes = Vec::new();
        random_games(1, |g, _| hashes.push(g.state_hash()));
        hashes
    };
    let a = run();
    assert!(a.len() > 100);
    assert_eq!(a, run());
    let g = new_game(
        "fences",
        &json!({"width": 19, "height": 13, "max_turns": 40}),
        3,
        2,
    )
    .unwrap();
    let again = new_game("fences", &g.setup(), 99, 2).unwrap();
    assert_eq!(g.state_hash(), again.state_hash());
}
