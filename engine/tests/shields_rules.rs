//! Shields' rules, one by one, on small hand-made boards.

mod grid_common;

use grid_common::*;
use ludus_engine::grid::{kind, mirror, Action, Board, Dir};
use ludus_engine::shields::{generate_values, Shields, MAX_TURNS, SIDE};
use ludus_engine::{new_game, Game};
use serde_json::{json, Value};

/// A 6×6 board of 1s except (2, 0) and (2, 2), worth 3.
fn small() -> Shields {
    let b = Board::new(6, 6);
    let mut v = vec![1u8; b.len()];
    v[b.index(2, 0)] = 3;
    v[b.index(2, 2)] = 3;
    Shields::new(b, v, 80)
}

fn at(g: &Shields, x: usize, y: usize) -> usize {
    g.board().index(x, y)
}

fn pos(g: &Shields, seat: usize) -> (usize, usize) {
    g.board().xy(g.bot(seat).position)
}

fn place(g: &mut Shields, seat: usize, x: usize, y: usize) {
    let c = at(g, x, y);
    let b = g.bot_mut(seat);
    b.position = c;
    b.progress = 0;
}

fn own(g: &mut Shields, seat: usize, cells: &[(usize, usize)], level: u8) {
    for &(x, y) in cells {
        let c = at(g, x, y);
        g.owner_mut()[c] = Some(seat);
        g.level_mut()[c] = level;
    }
}

fn owner(g: &Shields, x: usize, y: usize) -> Option<usize> {
    g.owner()[at(g, x, y)]
}

fn level(g: &Shields, x: usize, y: usize) -> u8 {
    g.level()[at(g, x, y)]
}

fn need(g: &Shields, seat: usize) -> u64 {
    observe(g, seat)["self"]["need"].as_u64().unwrap()
}

// --- 1. Board and homes -----------------------------------------------------------

#[test]
fn every_bot_starts_on_its_home_corner_which_is_its_own() {
    let g = small();
    for (seat, c) in [(0, (0, 0)), (1, (5, 0)), (2, (5, 5)), (3, (0, 5))] {
        assert_eq!(pos(&g, seat), c);
        assert_eq!(owner(&g, c.0, c.1), Some(seat));
        assert_eq!(g.bot(seat).home, at(&g, c.0, c.1));
    }
}

#[test]
fn a_home_can_never_be_taken() {
    let mut g = small();
    own(&mut g, 1, &[(4, 0)], 1);
    place(&mut g, 1, 4, 0);
    place(&mut g, 0, 0, 1);
    own(&mut g, 0, &[(0, 1)], 1);
    // Seat 1 walks onto seat 0's home while seat 0 is away and stays there.
    place(&mut g, 1, 1, 0);
    step(&mut g, ["STAY", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 1), (0, 0));
    assert_eq!(need(&g, 1), 0, "nothing to take");
    stay(&mut g, 5);
    assert_eq!(owner(&g, 0, 0), Some(0));
}

// --- 3. Take ----------------------------------------------------------------------

#[test]
fn staying_one_turn_on_a_cell_that_isnt_yours_takes_it_at_level_one() {
    let mut g = small();
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(owner(&g, 1, 0), None);
    assert_eq!(need(&g, 0), 1);
    stay(&mut g, 1);
    assert_eq!(owner(&g, 1, 0), Some(0));
    assert_eq!(level(&g, 1, 0), 1);
    assert_eq!(need(&g, 0), 3, "next: upgrading it");
}

#[test]
fn taking_a_rival_cell_pays_a_raid_bonus_of_8_times_value_times_level() {
    let mut g = small();
    own(&mut g, 1, &[(2, 0)], 1);
    place(&mut g, 0, 2, 0);
    stay(&mut g, 1);
    assert_eq!(owner(&g, 2, 0), Some(0));
    // 8 × 3 × 1 bonus, plus this turn's cells: home 1 + (2, 0) 3.
    assert_eq!(g.bot(0).score, 24 + 1 + 3);
}

#[test]
fn an_upgraded_rival_cell_takes_three_turns_and_drops_to_level_one() {
    let mut g = small();
    own(&mut g, 1, &[(2, 0)], 2);
    place(&mut g, 0, 2, 0);
    assert_eq!(need(&g, 0), 3);
    stay(&mut g, 2);
    assert_eq!(owner(&g, 2, 0), Some(1));
    assert_eq!(need(&g, 0), 1);
    let before = g.bot(0).score;
    stay(&mut g, 1);
    assert_eq!(owner(&g, 2, 0), Some(0));
    assert_eq!(level(&g, 2, 0), 1);
    // Bonus 8 × 3 × 2, then this turn: home 1 + (2, 0) at level 1: 3.
    assert_eq!(g.bot(0).score - before, 48 + 1 + 3);
}

#[test]
fn leaving_a_cell_resets_your_progress_on_it() {
    let mut g = small();
    own(&mut g, 1, &[(2, 0)], 2);
    place(&mut g, 0, 2, 0);
    stay(&mut g, 2);
    assert_eq!(g.bot(0).progress, 2);
    step(&mut g, ["SOUTH", "STAY", "STAY", "STAY"]);
    step(&mut g, ["NORTH", "STAY", "STAY", "STAY"]);
    assert_eq!(g.bot(0).progress, 0);
    assert_eq!(need(&g, 0), 3);
}

#[test]
fn a_blocked_move_counts_as_a_stay() {
    let mut g = small();
    place(&mut g, 0, 1, 1);
    place(&mut g, 1, 3, 1);
    // Both step into (2, 1): seat 0 has the token; seat 1, blocked on its
    // neutral (3, 1), has stayed a turn there and takes it.
    step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (2, 1));
    assert_eq!(pos(&g, 1), (3, 1));
    assert_eq!(owner(&g, 3, 1), Some(1));
    assert_eq!(owner(&g, 1, 1), None, "seat 0 moved, it took nothing");
}

// --- 4. Upgrade -------------------------------------------------------------------

#[test]
fn staying_three_turns_on_your_own_cell_upgrades_it_and_it_counts_double() {
    let mut g = small();
    own(&mut g, 0, &[(2, 0)], 1);
    place(&mut g, 0, 2, 0);
    stay(&mut g, 2);
    assert_eq!(level(&g, 2, 0), 1);
    let before = g.bot(0).score;
    stay(&mut g, 1);
    assert_eq!(level(&g, 2, 0), 2);
    assert_eq!(need(&g, 0), 0, "nothing more to do");
    assert_eq!(g.bot(0).score - before, 1 + 6);
    assert_eq!(observe(&g, 3)["level"][0][2], 2);
}

// --- 2. Moves ---------------------------------------------------------------------

#[test]
fn two_bots_stepping_into_one_empty_cell_the_owner_gets_it_else_the_token() {
    let mut g = small();
    own(&mut g, 1, &[(2, 1)], 1);
    place(&mut g, 0, 1, 1);
    place(&mut g, 1, 3, 1);
    step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 1), (2, 1), "its owner, without the token");
    assert_eq!(pos(&g, 0), (1, 1));
}

#[test]
fn a_cell_with_a_bot_on_it_is_closed_and_bots_cannot_swap() {
    let mut g = small();
    place(&mut g, 0, 1, 1);
    place(&mut g, 1, 2, 1);
    let r = step(&mut g, ["EAST", "WEST", "STAY", "STAY"]);
    assert_eq!(r.len(), 2);
    assert!(r.iter().all(|r| r.kind == kind::ILLEGAL));
    assert_eq!((pos(&g, 0), pos(&g, 1)), ((1, 1), (2, 1)));
}

// --- 5. Shield --------------------------------------------------------------------

#[test]
fn a_shield_catches_every_rival_staying_on_your_cells_home_included() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (2, 0), (0, 1)], 1);
    own(&mut g, 0, &[(2, 0)], 2);
    place(&mut g, 0, 0, 1);
    place(&mut g, 1, 2, 0);
    place(&mut g, 2, 1, 0);
    place(&mut g, 3, 0, 0);
    stay(&mut g, 2);
    assert_eq!(
        g.bot(1).progress,
        2,
        "one more turn takes the upgraded cell"
    );
    assert_eq!(owner(&g, 1, 0), Some(2), "seat 2 took the plain one");
    // Put it back, and give seat 2 a turn of progress.
    own(&mut g, 0, &[(1, 0)], 1);
    let r = step(&mut g, ["SHIELD", "STAY", "STAY", "STAY"]);
    assert!(r.is_empty());
    // Nothing taken: every stayer was caught.
    assert_eq!(owner(&g, 2, 0), Some(0));
    assert_eq!(owner(&g, 1, 0), Some(0));
    for seat in 1..4 {
        let b = g.bot(seat);
        assert_eq!((b.frozen, b.progress), (2, 0), "seat {seat}");
        assert_eq!(legal(&observe(&g, seat)), vec!["STAY"]);
    }
    assert_eq!(g.bot(0).frozen, 0, "it caught somebody: no backfire");
    assert!(g.bot(0).shielded);
    assert_eq!(observe(&g, 1)["bots"][0]["shielded"], true);
    // Frozen for the next 2 turns: their answers are not read, and the turns
    // are not stays (no progress, nothing taken).
    let r = step(&mut g, ["STAY", "EAST", "garbage", "NORTH"]);
    assert!(r.is_empty());
    assert_eq!(pos(&g, 1), (2, 0));
    assert_eq!(g.bot(1).progress, 0);
    stay(&mut g, 1);
    assert_eq!(owner(&g, 1, 0), Some(0));
    assert_eq!(g.bot(1).frozen, 0);
    assert!(legal(&observe(&g, 1)).len() > 1, "free again");
    // Its first own stay counts again.
    stay(&mut g, 1);
    assert_eq!(g.bot(1).progress, 1);
}

#[test]
fn a_rival_moving_onto_your_cell_during_a_shield_is_not_caught() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0)], 1);
    place(&mut g, 1, 2, 0);
    place(&mut g, 0, 0, 1);
    step(&mut g, ["SHIELD", "WEST", "STAY", "STAY"]);
    assert_eq!(pos(&g, 1), (1, 0));
    assert_eq!(g.bot(1).frozen, 0);
    assert_eq!(g.bot(0).frozen, 2, "it caught nobody: backfire");
}

#[test]
fn a_shield_that_catches_nobody_freezes_the_shielder_for_two_turns() {
    let mut g = small();
    step(&mut g, ["SHIELD", "STAY", "STAY", "STAY"]);
    assert_eq!(g.bot(0).frozen, 2);
    assert_eq!(observe(&g, 0)["self"]["frozen"], 2);
    let r = step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert!(r.is_empty(), "a frozen bot's answer is not read");
    assert_eq!(pos(&g, 0), (0, 0));
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (0, 0));
    step(&mut g, ["EAST", "STAY", "STAY", "STAY"]);
    assert_eq!(pos(&g, 0), (1, 0));
}

#[test]
fn a_rival_already_frozen_is_not_caught_again() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0)], 1);
    place(&mut g, 1, 1, 0);
    g.bot_mut(1).frozen = 1;
    step(&mut g, ["SHIELD", "STAY", "STAY", "STAY"]);
    assert_eq!(g.bot(1).frozen, 0, "its freeze ran out as before");
    assert_eq!(g.bot(0).frozen, 2, "so the shield caught nobody");
}

#[test]
fn after_a_shield_you_cannot_shield_for_the_next_four_turns() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0)], 1);
    place(&mut g, 1, 1, 0);
    step(&mut g, ["SHIELD", "STAY", "STAY", "STAY"]);
    for k in 0..4 {
        let o = observe(&g, 0);
        assert_eq!(o["self"]["shield_cooldown"], 4 - k);
        assert!(!legal(&o).contains(&"SHIELD".to_string()), "turn {k}");
        let r = step(&mut g, ["SHIELD", "STAY", "STAY", "STAY"]);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].kind, kind::ILLEGAL);
    }
    assert!(legal(&observe(&g, 0)).contains(&"SHIELD".to_string()));
}

#[test]
fn a_shield_turn_does_not_count_as_staying() {
    let mut g = small();
    // Two stays towards upgrading (2, 0), then a SHIELD (catching seat 1 on
    // the upgraded (3, 0)): the upgrade waits.
    own(&mut g, 0, &[(2, 0)], 1);
    own(&mut g, 0, &[(3, 0)], 2);
    place(&mut g, 0, 2, 0);
    place(&mut g, 1, 3, 0);
    stay(&mut g, 2);
    step(&mut g, ["SHIELD", "STAY", "STAY", "STAY"]);
    assert_eq!(level(&g, 2, 0), 1);
    assert_eq!(g.bot(0).progress, 2, "paused, not reset");
    assert_eq!((g.bot(0).frozen, g.bot(1).frozen), (0, 2));
    stay(&mut g, 1);
    assert_eq!(level(&g, 2, 0), 2);
}

#[test]
fn two_bots_shielding_on_each_others_cells_both_backfire() {
    let mut g = small();
    own(&mut g, 0, &[(1, 1)], 1);
    own(&mut g, 1, &[(2, 1)], 1);
    place(&mut g, 0, 2, 1);
    place(&mut g, 1, 1, 1);
    step(&mut g, ["SHIELD", "SHIELD", "STAY", "STAY"]);
    assert_eq!((g.bot(0).frozen, g.bot(1).frozen), (2, 2));
    assert_eq!(owner(&g, 1, 1), Some(0));
    assert_eq!(owner(&g, 2, 1), Some(1));
}

// --- 6. Score, 7. End ----------------------------------------------------------------

#[test]
fn every_turn_each_bot_scores_its_cells_values_doubled_if_upgraded() {
    let mut g = small();
    own(&mut g, 2, &[(2, 2)], 2);
    own(&mut g, 2, &[(2, 0)], 1);
    stay(&mut g, 2);
    assert_eq!(g.bot(2).score, 2 * (1 + 6 + 3));
    assert_eq!(g.bot(0).score, 2);
    assert_eq!(observe(&g, 0)["bots"][2]["score"], 20);
}

#[test]
fn after_80_turns_the_most_points_wins_and_equal_points_share_a_place() {
    let mut g = new_game("shields", &Value::Null, 1, 4).unwrap();
    stay(g.as_mut(), MAX_TURNS - 1);
    assert!(g.outcome().is_none());
    stay(g.as_mut(), 1);
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![1, 1, 1, 1], "mirrored board: all equal");
    assert!(o.reason.contains("draw"));
    let mut g = Shields::new(small().board(), vec![1; 36], 1);
    own(&mut g, 1, &[(3, 3)], 1);
    stay(&mut g, 1);
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![2, 1, 2, 2]);
    assert_eq!(o.scores, vec![1.0, 2.0, 1.0, 1.0]);
}

// --- Answers ----------------------------------------------------------------------

#[test]
fn invalid_text_is_stay_plus_a_rejection() {
    let huge = "SHIELD".repeat(50_000);
    for bad in GARBAGE.iter().copied().chain([huge.as_str(), "RETREAT"]) {
        let mut g = small();
        let r = g.step(&[Some(bad), Some("S"), None, Some("\"N\"")]);
        assert_eq!(r.len(), 1, "{bad:?}: {r:?}");
        assert_eq!(pos(&g, 0), (0, 0));
        assert_eq!(pos(&g, 1), (5, 1), "N, E, S, W are read too");
        assert_eq!(pos(&g, 3), (0, 4));
    }
}

// --- The state --------------------------------------------------------------------

#[test]
fn the_state_has_the_documented_fields() {
    let g = small();
    let o = observe(&g, 3);
    assert_eq!(
        keys(&o),
        sorted(&[
            "turn",
            "turns_remaining",
            "width",
            "height",
            "owner",
            "value",
            "level",
            "self",
            "bots",
            "priority_seat",
            "legal_actions"
        ])
    );
    let bot = [
        "id",
        "position",
        "home",
        "need",
        "progress",
        "shield_cooldown",
        "frozen",
        "shielded",
        "score",
    ];
    assert_eq!(keys(&o["self"]), sorted(&bot));
    for b in o["bots"].as_array().unwrap() {
        assert_eq!(keys(b), sorted(&bot));
    }
    assert_eq!(o["self"]["position"], json!([0, 5]));
    assert_eq!(o["value"][0][2], 3);
    assert_eq!(o["owner"][5][0], 3);
    assert_eq!(legal(&o), vec!["NORTH", "EAST", "STAY", "SHIELD"]);
    assert_eq!(o["self"]["need"], 3, "its home can be upgraded");
}

// --- Boards, symmetry, determinism --------------------------------------------------

#[test]
fn generated_boards_are_8x8_mirrored_values_1_to_3_higher_toward_the_middle() {
    let mut distinct = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let (b, v) = generate_values(seed);
        assert_eq!((b.width, b.height), (SIDE, SIDE));
        assert!(v.iter().all(|&x| (1..=3).contains(&x)));
        for s in 0..4 {
            for c in 0..b.len() {
                assert_eq!(v[mirror(b, s, c)], v[c], "seed {seed}");
            }
        }
        assert_eq!(v[b.index(0, 0)], 1, "homes are worth 1");
        assert_eq!(v[b.index(3, 3)], 3, "the middle is worth 3");
        // Never lower than a neighbour further from the middle.
        for c in 0..b.len() {
            let (x, y) = b.xy(c);
            let (qx, qy) = (x.min(7 - x), y.min(7 - y));
            if qx > 0 {
                let out = b.index(if x < 4 { x - 1 } else { x + 1 }, y);
                assert!(v[c] >= v[out], "seed {seed} at ({x}, {y})");
            }
            if qy > 0 {
                let out = b.index(x, if y < 4 { y - 1 } else { y + 1 });
                assert!(v[c] >= v[out], "seed {seed} at ({x}, {y})");
            }
        }
        distinct.insert(v);
    }
    assert!(distinct.len() > 30, "the seed decides the values");
}

#[test]
fn the_same_seed_and_answers_give_the_same_state_hashes() {
    let run = |seed| {
        let mut g = new_game("shields", &Value::Null, seed, 4).unwrap();
        random_play(g.as_mut(), seed, 1000)
    };
    let a = run(8);
    assert_eq!(a, run(8));
    assert_ne!(a, run(9));
    assert_eq!(a.len(), 81);
}

#[test]
fn setup_fed_back_as_config_rebuilds_the_same_game() {
    for seed in 0..5 {
        let g = new_game("shields", &Value::Null, seed, 4).unwrap();
        let again = new_game("shields", &g.setup(), 777, 4).unwrap();
        assert_eq!(g.state_hash(), again.state_hash());
    }
    assert!(new_game("shields", &json!({"values": [[1, 2], [3, 1]]}), 0, 4).is_err());
    assert!(new_game("shields", &json!({"values": vec![vec![4; 4]; 4]}), 0, 4).is_err());
    assert!(new_game("shields", &json!({"values": vec![vec![1; 4]; 4]}), 0, 4).is_ok());
}

// --- Each phase of the turn alone (numbered as docs/games/shields.md) ------------

#[test]
fn phase_1_reading_forces_a_frozen_bot_to_stay_without_reading_it() {
    let mut g = small();
    g.bot_mut(2).frozen = 1;
    let (actions, r) = g.read_actions(&[Some("EAST"), Some("SHIELD"), Some("WEST"), Some("x")]);
    assert_eq!(actions[0], Action::Move(Dir::East));
    assert_eq!(actions[2], Action::Stay);
    assert_eq!(actions[3], Action::Stay);
    // Seat 3's answer is refused; the frozen seat 2's was never read.
    assert!(r.iter().all(|r| r.seat != 2) && r.iter().any(|r| r.seat == 3));
}

#[test]
fn phase_2_moving_resets_progress_and_a_blocked_move_counts_as_a_stay() {
    let mut g = small();
    place(&mut g, 0, 2, 2);
    g.bot_mut(0).progress = 2;
    place(&mut g, 1, 3, 2);
    place(&mut g, 2, 4, 4);
    let stayed = g.move_bots(&[
        Action::Move(Dir::North),
        Action::Move(Dir::West),
        Action::Stay,
        Action::Shield,
    ]);
    assert_eq!(pos(&g, 0), (2, 1));
    assert_eq!(g.bot(0).progress, 0);
    // Seat 1 stepped into the cell seat 0 stood on: closed, so a stay.
    assert_eq!(stayed, [false, true, true, false]);
    assert_eq!(pos(&g, 1), (3, 2));
}

#[test]
fn phase_3_a_shield_catches_the_rivals_staying_on_its_cells_or_backfires() {
    let mut g = small();
    own(&mut g, 0, &[(2, 2)], 1);
    place(&mut g, 1, 2, 2);
    g.bot_mut(1).progress = 1;
    let actions = [Action::Shield, Action::Stay, Action::Shield, Action::Stay];
    let mut stayed = [false, true, false, true];
    let frozen = g.raise_shields(&actions, &mut stayed);
    // Seat 1 is caught; seat 2's shield catches nobody and backfires.
    assert_eq!(frozen, [false, true, true, false]);
    assert_eq!(stayed, [false, false, false, true]);
    assert_eq!(g.bot(1).progress, 0);
    // Freezes start counting in phase 6.
    assert_eq!(g.bot(1).frozen, 0);
}

#[test]
fn phase_4_a_stay_takes_a_neutral_cell_and_raids_pay_the_bonus() {
    let mut g = small();
    place(&mut g, 0, 2, 0);
    own(&mut g, 1, &[(2, 2)], 1);
    place(&mut g, 2, 2, 2);
    g.take_and_upgrade(&[true, false, true, false]);
    assert_eq!((owner(&g, 2, 0), level(&g, 2, 0)), (Some(0), 1));
    assert_eq!((owner(&g, 2, 2), level(&g, 2, 2)), (Some(2), 1));
    // 8 × value 3 × level 1.
    assert_eq!(g.bot(2).score, 24);
    assert_eq!(g.bot(0).score, 0, "scoring is phase 5");
}

#[test]
fn phase_5_every_bot_scores_its_cells_values_doubled_if_upgraded() {
    let mut g = small();
    own(&mut g, 1, &[(2, 0)], 2);
    own(&mut g, 1, &[(1, 1)], 1);
    g.score_cells();
    // Homes are worth 1 at level 1; (2, 0) is 3 at level 2.
    let scores: Vec<u64> = (0..4).map(|s| g.bot(s).score).collect();
    assert_eq!(scores, vec![1, 1 + 6 + 1, 1, 1]);
}

#[test]
fn phase_6_clocks_count_down_and_new_freezes_and_cooldowns_start() {
    let mut g = small();
    g.bot_mut(0).frozen = 2;
    g.bot_mut(1).shield_cooldown = 1;
    g.count_down(
        &[Action::Stay, Action::Stay, Action::Shield, Action::Stay],
        &[false, false, false, true],
    );
    assert_eq!(g.bot(0).frozen, 1);
    assert_eq!(g.bot(1).shield_cooldown, 0);
    assert_eq!(g.bot(2).shield_cooldown, 4);
    assert_eq!(g.bot(3).frozen, 2);
}
