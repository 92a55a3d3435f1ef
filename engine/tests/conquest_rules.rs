//! Conquest's rules, one by one, on small hand-made boards. Each phase of
//! the turn is also run alone on a hand-made state.

mod conquest_common;

use conquest_common::*;
use ludus_engine::conquest::{
    kind, Act, Battle, Building, BuildingKind, CapitalMode, Conquest, Order, OutCause, Setup, Task,
    Weapon,
};
use ludus_engine::Game;
use serde_json::json;

const WAIT4: [&str; 4] = ["WAIT"; 4];

fn waits() -> [Act; 4] {
    std::array::from_fn(|_| Act::Wait)
}

/// A battle over (x, y) decided in the next step.
fn battle_due(
    g: &Conquest,
    cell: (usize, usize),
    attacker: usize,
    defender: usize,
    from: (usize, usize),
) -> Battle {
    Battle {
        cell: at(g, cell.0, cell.1),
        attacker,
        defender,
        from: at(g, from.0, from.1),
        siege: false,
        started: g.turn() - 1,
        defense: 0,
        reserve: 0,
    }
}

// --- 1. Teams --------------------------------------------------------------------

#[test]
fn every_team_starts_on_its_capital_with_1000_soldiers_and_100_gold() {
    let g = small();
    for (seat, corner) in [(0, (0, 0)), (1, (7, 0)), (2, (7, 7)), (3, (0, 7))] {
        let t = g.team(seat);
        assert_eq!(xy(&g, t.capital), corner);
        assert_eq!(pos(&g, seat), corner);
        assert_eq!(g.owner_at(corner.0, corner.1), Some(seat));
        assert_eq!(
            (t.attack, t.defense, t.reserve, t.gold),
            (500, 350, 150, 100)
        );
        assert_eq!(g.cell_count(seat), 1);
    }
}

// --- 2. Capitals -------------------------------------------------------------------

#[test]
fn corners_mode_puts_the_capitals_in_the_corners() {
    let g = Conquest::from_config(&json!({"capitals": "corners"}), 5, 4).unwrap();
    let corners: Vec<_> = (0..4).map(|s| xy(&g, g.team(s).capital)).collect();
    assert_eq!(corners, vec![(0, 0), (11, 0), (11, 11), (0, 11)]);
}

fn choose() -> Conquest {
    Conquest::from_config(&json!({"capitals": "choose", "walls": []}), 5, 4).unwrap()
}

#[test]
fn choose_mode_has_a_setup_turn_zero_where_capital_x_y_picks_a_cell_of_the_quarter() {
    let mut g = choose();
    let o = observe(&g, 1);
    assert_eq!(o["phase"], "setup");
    assert_eq!(o["turn"], 0);
    assert_eq!(o["turns_remaining"], 300);
    let choices = o["capital_choices"].as_array().unwrap();
    assert_eq!(
        choices.len(),
        16,
        "4×4 cells one in from the edge and the centre lines"
    );
    assert!(choices.contains(&json!([7, 1])) && choices.contains(&json!([10, 4])));
    assert!(!choices.contains(&json!([11, 0])) && !choices.contains(&json!([6, 1])));
    let l = legal(&o);
    assert_eq!(l.len(), 17);
    assert!(l.contains(&"CAPITAL 7 1".to_string()) && l.last().unwrap() == "WAIT");
    play(
        &mut g,
        ["CAPITAL 2 3", "CAPITAL 7 1", "WAIT", "CAPITAL 1 10"],
    );
    assert_eq!(g.turn(), 1);
    let caps: Vec<_> = (0..4).map(|s| xy(&g, g.team(s).capital)).collect();
    assert_eq!(caps, vec![(2, 3), (7, 1), (11, 11), (1, 10)]);
    assert_eq!(pos(&g, 0), (2, 3));
    assert_eq!(g.owner_at(0, 0), None, "the corner is no longer seat 0's");
    assert_eq!(g.owner_at(2, 3), Some(0));
    let o = observe(&g, 0);
    assert_eq!(o["phase"], "play");
    assert_eq!(o["capital_choices"], json!([]));
    assert_eq!(
        o["turns_remaining"], 300,
        "the setup turn is not a play turn"
    );
    assert_eq!(g.team(0).points, 0, "nothing is scored on the setup turn");
}

#[test]
fn a_bad_or_missing_capital_pick_keeps_the_corner() {
    let mut g = choose();
    let r = step(
        &mut g,
        ["CAPITAL 7 1", "CAPITAL 0 0", "EAST", "CAPITAL -3 99"],
    );
    let kinds: Vec<_> = r.iter().map(|r| (r.seat, r.kind.as_str())).collect();
    assert_eq!(
        kinds,
        vec![
            (0, kind::BAD_TARGET),
            (1, kind::BAD_TARGET),
            (2, kind::ILLEGAL),
            (3, kind::BAD_TARGET)
        ]
    );
    assert!(
        r[0].reason.contains("stays in the corner"),
        "{}",
        r[0].reason
    );
    let caps: Vec<_> = (0..4).map(|s| xy(&g, g.team(s).capital)).collect();
    assert_eq!(caps, vec![(0, 0), (11, 0), (11, 11), (0, 11)]);
}

#[test]
fn the_setup_turn_does_not_count_toward_the_timeout() {
    let mut g = choose();
    step(&mut g, ["", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.team(0).silent, 0);
    for _ in 0..4 {
        step(&mut g, ["", "WAIT", "WAIT", "WAIT"]);
    }
    assert!(g.team(0).alive(), "four silent play turns are not five");
    step(&mut g, ["", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.team(0).out, Some((6, OutCause::Silent)));
}

#[test]
fn choose_capitals_phase_moves_only_the_teams_that_picked() {
    let mut g = choose();
    let mut acts = waits();
    acts[2] = Act::Capital(at(&g, 9, 9));
    g.choose_capitals(&acts);
    assert_eq!(xy(&g, g.team(2).capital), (9, 9));
    assert_eq!(pos(&g, 2), (9, 9));
    assert_eq!(xy(&g, g.team(0).capital), (0, 0));
}

// --- 3. Moves, claims, attacks -----------------------------------------------------

#[test]
fn stepping_into_your_own_land_is_a_move() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 3);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(pos(&g, 0), (1, 0));
    assert_eq!(g.team(0).task, Task::Idle);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(pos(&g, 0), (2, 0));
}

#[test]
fn stepping_into_neutral_land_claims_it_after_one_more_turn() {
    let mut g = small();
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(pos(&g, 0), (1, 0));
    assert_eq!(g.owner_at(1, 0), None, "not yet");
    let o = observe(&g, 0);
    assert_eq!(o["self"]["busy"], true);
    assert_eq!(
        o["self"]["task"],
        json!({"kind": "claiming", "position": [1, 0], "turns_left": 1})
    );
    assert_eq!(legal(&o), vec!["WAIT"], "a claiming robot may only WAIT");
    play(&mut g, WAIT4);
    assert_eq!(g.owner_at(1, 0), Some(0));
    assert_eq!(g.team(0).task, Task::Idle);
    assert_eq!(observe(&g, 0)["self"]["cells"], 2);
}

#[test]
fn a_busy_robot_may_only_wait_and_anything_else_is_refused() {
    let mut g = small();
    play(&mut g, ["SOUTH", "WAIT", "WAIT", "WAIT"]);
    let r = step(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, kind::BUSY);
    assert!(r[0].reason.contains("claiming"), "{}", r[0].reason);
    assert_eq!(pos(&g, 0), (0, 1));
    assert_eq!(
        g.owner_at(0, 1),
        Some(0),
        "played as WAIT: the claim went on"
    );
}

#[test]
fn stepping_into_enemy_land_starts_a_battle_there() {
    let mut g = front();
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(pos(&g, 0), (4, 0), "the robot walks in");
    assert_eq!(g.team(0).task, Task::Fighting { from: at(&g, 3, 0) });
    let b = &g.battles()[0];
    assert_eq!((b.attacker, b.defender, b.siege), (0, 1, false));
    assert_eq!(b.cell, at(&g, 4, 0));
    let o = observe(&g, 1);
    assert_eq!(o["battles"][0]["attacker"], 0);
    assert_eq!(o["battles"][0]["turns_left"], 1);
    assert_eq!(
        o["battles"][0]["attack"], 500,
        "the attack soldiers travel with the robot"
    );
}

#[test]
fn move_robots_phase_starts_claims_battles_and_plain_moves() {
    let mut g = front();
    own(&mut g, 2, &[(6, 7), (7, 6)]);
    place(&mut g, 2, 7, 6);
    let mut acts = waits();
    acts[0] = Act::Move { to: at(&g, 4, 0) };
    acts[2] = Act::Move { to: at(&g, 7, 5) };
    acts[3] = Act::Move { to: at(&g, 1, 7) };
    g.move_robots(&acts);
    assert!(matches!(g.team(0).task, Task::Fighting { .. }));
    assert!(matches!(g.team(2).task, Task::Claiming { .. }));
    assert!(matches!(g.team(3).task, Task::Claiming { .. }));
    assert_eq!(pos(&g, 2), (7, 5));
    assert_eq!(g.battles().len(), 1);
}

// --- 4. Battles ----------------------------------------------------------------------

#[test]
fn the_defender_sends_65_percent_of_its_free_defense_split_over_every_new_attack() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 3);
    own(&mut g, 0, &[(0, 1), (0, 2), (0, 3)]);
    own_row(&mut g, 1, 0, 4, 7);
    own_row(&mut g, 3, 4, 0, 3);
    own(&mut g, 3, &[(0, 5), (0, 6)]);
    place(&mut g, 1, 4, 0);
    place(&mut g, 3, 0, 4);
    play(&mut g, ["WAIT", "WEST", "WAIT", "NORTH"]);
    let shares: Vec<u64> = g.battles().iter().map(|b| b.defense).collect();
    // 65% of 350 over two attacks, rounded down: 113 each.
    assert_eq!(shares, vec![113, 113]);
    assert_eq!(g.team(0).defense, 350 - 226);
}

#[test]
fn send_defenders_phase_adds_the_reserve_in_the_second_turn() {
    let mut g = front();
    wait(&mut g, 1);
    let mut b = battle_due(&g, (4, 0), 0, 1, (3, 0));
    b.defense = 200;
    g.battles_mut().push(b.clone());
    let mut fresh = b;
    fresh.cell = at(&g, 5, 0);
    fresh.started = g.turn();
    fresh.defense = 0;
    g.battles_mut().push(fresh);
    let reserve = g.team(1).reserve;
    let defense = g.team(1).defense;
    g.send_defenders();
    let b = g.battles();
    assert_eq!(
        (b[0].defense, b[0].reserve),
        (200, reserve),
        "the whole reserve joins the old battle"
    );
    assert_eq!(
        (b[1].defense, b[1].reserve),
        (defense * 65 / 100, 0),
        "the new one gets defense only"
    );
    assert_eq!(g.team(1).reserve, 0);
}

#[test]
fn a_battle_is_decided_after_two_turns_by_the_square_law() {
    let mut g = front();
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.battles()[0].defense, 227, "65% of 350, rounded down");
    assert_eq!(g.team(1).reserve, 154, "150 + 4.6 income");
    play(&mut g, WAIT4);
    // 500 attackers against 227 + 154: √(500² − 381²) = 323.8.
    assert!(g.battles().is_empty());
    assert_eq!(g.owner_at(4, 0), Some(0), "the attacker takes the cell");
    assert_eq!(g.team(0).attack, 323);
    assert_eq!(pos(&g, 0), (4, 0));
    assert_eq!(g.team(0).task, Task::Idle);
    assert_eq!(g.team(1).defense, 123, "the soldiers it sent are lost");
}

#[test]
fn soldiers_parked_on_the_cell_fight_for_it() {
    let mut g = front();
    set_garrison(&mut g, 4, 0, 200);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, WAIT4);
    // 500 against 227 + 154 + 200 = 581: the defender wins and keeps
    // √(581² − 500²) = 295.9 → 295, shared out in proportion.
    assert_eq!(g.owner_at(4, 0), Some(1));
    assert_eq!(g.garrison_at(at(&g, 4, 0)), 200 * 295 / 581);
    assert_eq!(g.team(0).attack, 0);
}

#[test]
fn capitals_defend_times_1_6_and_cells_next_to_a_defense_post_times_1_4() {
    let mut g = front();
    let b = at(&g, 5, 0);
    let c = at(&g, 4, 0);
    assert_eq!(g.defense_percent(c, 1), 100);
    assert_eq!(g.defense_percent(at(&g, 7, 0), 1), 160);
    g.building_mut()[b] = Some(Building {
        kind: BuildingKind::Post,
        ready: true,
    });
    assert_eq!(g.defense_percent(c, 1), 140, "next to the post");
    assert_eq!(g.defense_percent(b, 1), 140, "the post's own cell");
    assert_eq!(
        g.defense_percent(at(&g, 3, 0), 0),
        100,
        "only its owner's cells"
    );
    set_building(
        &mut g,
        6,
        0,
        Some(Building {
            kind: BuildingKind::Post,
            ready: true,
        }),
    );
    assert_eq!(g.defense_percent(at(&g, 7, 0), 1), 224, "both: ×1.6 × 1.4");
    g.building_mut()[b] = Some(Building {
        kind: BuildingKind::Post,
        ready: false,
    });
    assert_eq!(
        g.defense_percent(c, 1),
        100,
        "a post under construction does not defend"
    );
}

#[test]
fn a_defense_post_turns_a_won_battle_into_a_lost_one() {
    let mut g = front();
    g.team_mut(1).defense = 560;
    g.team_mut(1).reserve = 0;
    wait(&mut g, 1);
    let mut b = battle_due(&g, (4, 0), 0, 1, (3, 0));
    b.defense = 364;
    g.battles_mut().push(b);
    let mut plain = g.clone();
    set_building(
        &mut g,
        5,
        0,
        Some(Building {
            kind: BuildingKind::Post,
            ready: true,
        }),
    );
    plain.decide_battles();
    g.decide_battles();
    assert_eq!(plain.owner_at(4, 0), Some(0), "500 beat 364");
    assert_eq!(g.owner_at(4, 0), Some(1), "500 lose to 364 × 1.4 = 509.6");
}

// --- 5. Losing a battle ----------------------------------------------------------------

#[test]
fn a_robot_that_loses_walks_back_and_loses_its_attack_soldiers() {
    let mut g = front();
    g.team_mut(1).defense = 1000;
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, WAIT4);
    assert_eq!(g.owner_at(4, 0), Some(1));
    assert_eq!(pos(&g, 0), (3, 0), "walked back");
    assert_eq!(g.team(0).task, Task::Idle);
    assert_eq!(g.team(0).attack, 0);
    // 650 + 154 against 500: 629 survive; the reserve's share goes back to
    // the reserve, the rest to defense.
    let reserve_back = 154 * 629 / 804;
    assert_eq!(g.team(1).defense, 1000 - 650 + (629 - reserve_back));
    assert_eq!(
        g.team(1).reserve,
        reserve_back + 5,
        "plus the turn's income"
    );
}

#[test]
fn a_robot_that_loses_and_cannot_walk_back_is_out() {
    let mut g = front();
    g.team_mut(1).defense = 1000;
    own(
        &mut g,
        3,
        &[
            (3, 1),
            (3, 2),
            (3, 3),
            (3, 4),
            (3, 5),
            (3, 6),
            (3, 7),
            (2, 7),
            (1, 7),
        ],
    );
    place(&mut g, 3, 3, 1);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    // Seat 3 steps onto (3, 0), which seat 0's robot left: it stands there
    // when seat 0 loses.
    play(&mut g, ["WAIT", "WAIT", "WAIT", "NORTH"]);
    assert_eq!(g.team(0).out, Some((2, OutCause::NoRetreat)));
    assert_eq!(g.cell_count(0), 0, "out: all its land turns neutral");
    // Seat 3's battle with a team that is out: it claims the now neutral cell.
    assert!(matches!(g.team(3).task, Task::Claiming { .. }));
    play(&mut g, WAIT4);
    assert_eq!(g.owner_at(3, 0), Some(3));
}

#[test]
fn decide_battles_phase_is_order_free_for_losers_walking_back() {
    let mut g = front();
    wait(&mut g, 1);
    g.team_mut(0).attack = 10;
    let b = battle_due(&g, (4, 0), 0, 1, (3, 0));
    g.battles_mut().push(b);
    place(&mut g, 0, 4, 0);
    g.team_mut(0).task = Task::Fighting { from: at(&g, 3, 0) };
    g.battles_mut()[0].defense = 50;
    g.decide_battles();
    assert_eq!(pos(&g, 0), (3, 0));
    assert_eq!(g.garrison_at(at(&g, 4, 0)), 0);
    // 50 × 100 against 10 × 100: √(50² − 10²) = 48.98 → 48 go back to defense.
    assert_eq!(g.team(1).defense, 350 + 48);
}

// --- 6. Capitals ------------------------------------------------------------------------

#[test]
fn taking_a_capital_puts_its_team_out_and_pays_300_points() {
    let mut g = front();
    place(&mut g, 0, 6, 0);
    own(&mut g, 0, &[(6, 0)]);
    own_row(&mut g, 0, 1, 0, 6);
    place(&mut g, 1, 7, 1);
    own(&mut g, 1, &[(7, 1)]);
    g.team_mut(0).attack = 2000;
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, WAIT4);
    assert_eq!(g.owner_at(7, 0), Some(0));
    assert_eq!(g.team(1).out, Some((2, OutCause::CapitalTaken { by: 0 })));
    assert_eq!(g.cell_count(1), 0);
    assert!(g.is_former_capital(at(&g, 7, 0)));
    // 300 for the capital plus a point per cell on both turns.
    let points = g.team(0).points;
    assert_eq!(points, 300 + 12 + 13);
    assert_eq!(observe(&g, 0)["alive"], json!([true, false, true, true]));
}

#[test]
fn a_robot_on_its_own_capital_is_besieged_from_next_door() {
    let mut g = front();
    place(&mut g, 0, 6, 0);
    own(&mut g, 0, &[(6, 0)]);
    own_row(&mut g, 0, 1, 0, 6);
    g.team_mut(0).attack = 2000;
    let o = observe(&g, 0);
    assert!(
        legal(&o).contains(&"EAST".to_string()),
        "a siege is a legal move"
    );
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(pos(&g, 0), (6, 0), "the besieger stays next door");
    assert_eq!(
        g.team(0).task,
        Task::Sieging {
            target: at(&g, 7, 0)
        }
    );
    assert!(g.battles()[0].siege);
    assert_eq!(g.battles()[0].defense, 227);
    let o = observe(&g, 0);
    assert_eq!(o["self"]["task"]["kind"], "sieging");
    assert_eq!(o["self"]["task"]["position"], json!([7, 0]));
    // The besieged robot is free: it parks its reserve (150 + 3.4, only its
    // capital is joined to it) on the capital.
    play(&mut g, ["WAIT", "GARRISON 153", "WAIT", "WAIT"]);
    // 2000 against (227 + 153 parked) × 1.6 = 608.
    assert_eq!(g.team(1).out, Some((2, OutCause::CapitalTaken { by: 0 })));
    assert_eq!(g.owner_at(7, 0), Some(0));
    assert_eq!(pos(&g, 0), (6, 0));
    assert_eq!(g.team(0).attack, 1905, "√(200000² − 60800²) / 100");
}

#[test]
fn a_lost_siege_leaves_the_besieger_where_it_stands() {
    let mut g = front();
    place(&mut g, 0, 6, 0);
    own(&mut g, 0, &[(6, 0)]);
    own_row(&mut g, 0, 1, 0, 6);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, WAIT4);
    assert!(g.team(0).alive() && g.team(1).alive());
    assert_eq!(pos(&g, 0), (6, 0));
    assert_eq!(g.team(0).attack, 0);
    assert_eq!(g.team(0).task, Task::Idle);
}

#[test]
fn two_sieges_of_one_capital_block_each_other() {
    let mut g = front();
    place(&mut g, 0, 6, 0);
    own(&mut g, 0, &[(6, 0)]);
    own(&mut g, 2, &[(7, 1), (7, 2), (7, 3), (7, 4), (7, 5), (7, 6)]);
    place(&mut g, 2, 7, 1);
    play(&mut g, ["EAST", "WAIT", "NORTH", "WAIT"]);
    assert!(g.battles().is_empty());
    assert_eq!(g.team(0).task, Task::Idle);
    assert_eq!(g.team(2).task, Task::Idle);
}

// --- 7. Staying joined to the capital ------------------------------------------------------

#[test]
fn a_robot_cut_off_from_its_capital_is_out_the_same_turn() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 3);
    place(&mut g, 0, 3, 0);
    own_row(&mut g, 1, 1, 1, 7);
    own(&mut g, 1, &[(7, 0)]);
    place(&mut g, 1, 1, 1);
    g.team_mut(1).attack = 5000;
    play(&mut g, ["WAIT", "NORTH", "WAIT", "WAIT"]);
    assert!(g.team(0).alive());
    play(&mut g, WAIT4);
    assert_eq!(g.owner_at(1, 0), Some(1));
    assert_eq!(g.team(0).out, Some((2, OutCause::CutOff)), "no grace turn");
    assert_eq!(g.owner_at(0, 0), None);
}

#[test]
fn while_claiming_the_cell_stepped_from_must_stay_joined() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 3);
    own_row(&mut g, 1, 1, 1, 7);
    own(&mut g, 1, &[(7, 0)]);
    place(&mut g, 0, 2, 0);
    place(&mut g, 1, 1, 1);
    g.team_mut(1).attack = 5000;
    // Seat 0 claims (2, 1)... no: (2, 1) is seat 1's. It claims (4, 0) from (3, 0).
    place(&mut g, 0, 3, 0);
    play(&mut g, ["EAST", "NORTH", "WAIT", "WAIT"]);
    assert!(matches!(g.team(0).task, Task::Claiming { .. }));
    play(&mut g, WAIT4);
    assert_eq!(g.team(0).out, Some((2, OutCause::CutOff)));
    assert_eq!(g.owner_at(4, 0), None, "the claim never finished");
}

#[test]
fn cut_off_robots_phase_checks_the_cell_stepped_from_while_fighting() {
    let mut g = front();
    let from = at(&g, 3, 0);
    place(&mut g, 0, 4, 0);
    g.team_mut(0).task = Task::Fighting { from };
    g.cut_off_robots();
    assert!(g.team(0).alive());
    set_owner(&mut g, 2, 0, None);
    g.cut_off_robots();
    assert_eq!(g.team(0).out.map(|o| o.1), Some(OutCause::CutOff));
}

#[test]
fn land_cut_off_from_the_capital_stays_yours_scores_but_earns_nothing() {
    let mut g = small();
    own(&mut g, 0, &[(5, 5), (5, 4)]);
    let before = g.clone();
    g.collect_income();
    let mut alone = small();
    alone.collect_income();
    assert_eq!(
        g.team(0).reserve,
        alone.team(0).reserve,
        "unjoined land earns nothing"
    );
    assert_eq!(g.team(0).gold_cents, alone.team(0).gold_cents);
    g.score_points();
    assert_eq!(
        g.team(0).points,
        before.team(0).points + 3,
        "but every owned cell scores"
    );
    assert_eq!(g.owner_at(5, 5), Some(0));
}

// --- 8. Income ------------------------------------------------------------------------------

#[test]
fn income_is_3_plus_0_4_soldiers_and_1_plus_0_12_gold_a_cell_with_fractions_kept() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 7);
    own(&mut g, 0, &[(0, 1), (0, 2)]);
    set_owner(&mut g, 7, 0, Some(0));
    // 10 cells (seat 1's capital cell taken by hand for the count).
    assert_eq!(g.cell_count(0), 10);
    assert_eq!(g.income(0), (300 + 400, 100 + 120));
    for _ in 0..5 {
        g.collect_income();
    }
    assert_eq!(g.team(0).reserve, 150 + 35);
    assert_eq!(
        (g.team(0).gold, g.team(0).gold_cents),
        (111, 0),
        "5 × 2.2 = 11, exactly"
    );
    let o = observe(&g, 0);
    assert_eq!(o["self"]["income"], json!({"soldiers": 7.0, "gold": 2.2}));
}

#[test]
fn barracks_add_12_soldiers_and_mines_3_gold_once_finished() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (2, 0)]);
    let ready = |kind| Some(Building { kind, ready: true });
    set_building(&mut g, 1, 0, ready(BuildingKind::Barracks));
    set_building(&mut g, 2, 0, ready(BuildingKind::Mine));
    assert_eq!(g.income(0), (300 + 120 + 1200, 100 + 36 + 300));
    set_building(
        &mut g,
        2,
        0,
        Some(Building {
            kind: BuildingKind::Mine,
            ready: false,
        }),
    );
    assert_eq!(g.income(0).1, 100 + 36);
}

#[test]
fn a_whole_quarter_adds_4_soldiers_and_1_gold() {
    let mut g = small();
    let quarter: Vec<(usize, usize)> = (0..4).flat_map(|y| (0..4).map(move |x| (x, y))).collect();
    own(&mut g, 0, &quarter[..15]);
    assert_eq!(g.income(0), (300 + 15 * 40, 100 + 15 * 12));
    own(&mut g, 0, &quarter[15..]);
    assert_eq!(g.income(0), (300 + 16 * 40 + 400, 100 + 16 * 12 + 100));
}

// --- 9. Allocate, garrison, withdraw ------------------------------------------------------------

#[test]
fn allocate_on_the_capital_shares_out_every_free_soldier() {
    let mut g = small();
    play(&mut g, ["ALLOCATE 0.2 0.3 0.5", "WAIT", "WAIT", "WAIT"]);
    let t = g.team(0);
    // 1000 soldiers: 200, 300, 500, then the turn's income (3.4) to reserve.
    assert_eq!((t.attack, t.defense, t.reserve), (200, 300, 503));
    play(
        &mut g,
        [
            r#"{"kind": "allocate", "attack": 2, "defense": 1, "reserve": 0}"#,
            "WAIT",
            "WAIT",
            "WAIT",
        ],
    );
    let t = g.team(0);
    assert_eq!((t.attack, t.defense, t.reserve), (668, 334, 1 + 3));
}

#[test]
fn allocate_off_the_capital_or_with_bad_shares_is_refused() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0)]);
    for bad in ["ALLOCATE -1 1 1", "ALLOCATE 0 0 0"] {
        let r = step(&mut g, [bad, "WAIT", "WAIT", "WAIT"]);
        assert_eq!(r[0].kind, kind::ILLEGAL, "{bad}");
    }
    place(&mut g, 0, 1, 0);
    let r = step(&mut g, ["ALLOCATE 1 0 0", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(r[0].kind, kind::ILLEGAL);
    assert!(r[0].reason.contains("capital"), "{}", r[0].reason);
    assert_eq!(g.team(0).attack, 500);
}

#[test]
fn garrison_parks_reserve_soldiers_where_the_robot_stands_and_withdraw_takes_them_back() {
    let mut g = small();
    play(&mut g, ["GARRISON 100", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.garrison_at(at(&g, 0, 0)), 100);
    assert_eq!(g.team(0).reserve, 50 + 3);
    let o = observe(&g, 0);
    assert_eq!(
        o["garrisons"],
        json!([{"position": [0, 0], "team": 0, "soldiers": 100}])
    );
    assert_eq!(o["self"]["army"]["garrisoned"], 100);
    assert!(legal(&o).contains(&"WITHDRAW 100".to_string()));
    let r = step(&mut g, ["GARRISON 54", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(r[0].kind, kind::ILLEGAL, "more than the reserve");
    play(&mut g, ["WITHDRAW 40", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.garrison_at(at(&g, 0, 0)), 60);
    for bad in ["WITHDRAW 61", "WITHDRAW 0", "GARRISON -3"] {
        assert_eq!(
            step(&mut g, [bad, "WAIT", "WAIT", "WAIT"])[0].kind,
            kind::ILLEGAL,
            "{bad}"
        );
    }
}

#[test]
fn allocate_and_garrison_phase_runs_alone() {
    let mut g = small();
    let mut acts = waits();
    acts[0] = Act::Allocate([1, 1, 2]);
    acts[1] = Act::Garrison(50);
    g.allocate_and_garrison(&acts);
    assert_eq!(
        (g.team(0).attack, g.team(0).defense, g.team(0).reserve),
        (250, 250, 500)
    );
    assert_eq!(g.garrison_at(g.team(1).position), 50);
    assert_eq!(g.team(1).reserve, 100);
}

// --- 10. Buildings ----------------------------------------------------------------------------

#[test]
fn buildings_cost_gold_take_their_turns_and_lock_the_robot() {
    let mut g = small();
    own(&mut g, 0, &[(1, 0), (2, 0)]);
    g.team_mut(0).gold = 1000;
    play(&mut g, ["BUILD MINE", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(
        g.building_at(at(&g, 0, 0)),
        Some(Building {
            kind: BuildingKind::Mine,
            ready: true
        })
    );
    assert_eq!(
        g.team(0).task,
        Task::Idle,
        "a mine takes the turn of the order only"
    );
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, ["BUILD BARRACKS", "WAIT", "WAIT", "WAIT"]);
    let o = observe(&g, 0);
    assert_eq!(
        o["self"]["task"],
        json!({"kind": "building", "position": [1, 0], "turns_left": 2})
    );
    assert_eq!(legal(&o), vec!["WAIT"]);
    play(&mut g, WAIT4);
    assert!(!g.building_at(at(&g, 1, 0)).unwrap().ready);
    play(&mut g, WAIT4);
    assert!(
        g.building_at(at(&g, 1, 0)).unwrap().ready,
        "barracks: 3 turns"
    );
    assert_eq!(g.team(0).task, Task::Idle);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, ["BUILD POST", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, WAIT4);
    assert!(g.building_at(at(&g, 2, 0)).unwrap().ready, "post: 2 turns");
    // The order pays the building's gold; the turn's income comes on top.
    play(&mut g, ["SOUTH", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, WAIT4);
    assert_eq!(g.owner_at(2, 1), Some(0));
    let before = g.team(0).clone();
    let income = g.income(0).1;
    play(&mut g, ["BUILD POST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(
        g.team(0).gold,
        before.gold - 45 + (before.gold_cents + income) / 100
    );
}

#[test]
fn one_building_per_cell_on_joined_land_with_the_gold_for_it() {
    let mut g = small();
    own(&mut g, 0, &[(1, 1)]);
    play(&mut g, ["BUILD POST", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, WAIT4);
    let r = step(&mut g, ["BUILD MINE", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(r[0].kind, kind::ILLEGAL, "one per cell");
    // A robot stands on unjoined land only between the rules (it would be
    // out at the end of the turn): checked alone.
    place(&mut g, 0, 1, 1);
    let e = g
        .check_order(0, &Order::Build(BuildingKind::Mine))
        .unwrap_err();
    assert_eq!(e.0, kind::ILLEGAL, "(1, 1) is not joined to the capital");
    place(&mut g, 0, 0, 0);
    own(&mut g, 0, &[(1, 0)]);
    place(&mut g, 0, 1, 0);
    g.team_mut(0).gold = 59;
    let r = step(&mut g, ["BUILD MINE", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(r[0].kind, kind::NOT_ENOUGH_GOLD);
}

#[test]
fn start_and_finish_works_phases_run_alone() {
    let mut g = small();
    let mut acts = waits();
    acts[1] = Act::Build(BuildingKind::Post);
    acts[2] = Act::Relocate;
    g.team_mut(2).gold = 150;
    g.start_works(&acts);
    assert_eq!(g.team(1).gold, 55);
    assert_eq!(
        g.team(1).task,
        Task::Building {
            kind: BuildingKind::Post,
            done_on: 1
        }
    );
    assert_eq!(g.team(2).task, Task::Relocating { done_on: 2 });
    g.finish_works();
    assert_eq!(
        g.team(1).task,
        Task::Building {
            kind: BuildingKind::Post,
            done_on: 1
        }
    );
    g.end_turn();
    g.finish_works();
    assert_eq!(g.team(1).task, Task::Idle);
    assert!(g.building_at(g.team(1).position).unwrap().ready);
}

// --- 11. Weapons ------------------------------------------------------------------------------

/// `front()` with gold for every weapon and seat 1's robot at home.
fn armed() -> Conquest {
    let mut g = front();
    g.team_mut(0).gold = 2000;
    g
}

#[test]
fn weapons_aim_only_at_enemy_cells_seen_now_within_range() {
    let g = armed();
    let targets: Vec<_> = g
        .weapon_targets(0, Weapon::Bomb)
        .into_iter()
        .map(|c| xy(&g, c))
        .collect();
    // Seat 0 sees (4, 0) only of seat 1's land; seat 1's capital is out anyway.
    assert_eq!(targets, vec![(4, 0)]);
    let mut g = g;
    for (answer, why) in [
        ("BOMB 5 0", "do not see"),
        ("BOMB 2 0", "not an enemy cell"),
        ("BOMB 2 1", "not an enemy cell"),
        ("BOMB 12 0", "off the board"),
        ("BOMB -1 0", "off the board"),
    ] {
        let r = step(&mut g, [answer, "WAIT", "WAIT", "WAIT"]);
        assert_eq!(r[0].kind, kind::BAD_TARGET, "{answer}");
        assert!(r[0].reason.contains(why), "{answer}: {}", r[0].reason);
    }
    own_row(&mut g, 0, 1, 0, 7);
    place(&mut g, 0, 0, 1);
    // Now (6, 0) is seen, but 6 steps away: out of the bomb's range, in the missile's.
    let r = step(&mut g, ["BOMB 6 0", "WAIT", "WAIT", "WAIT"]);
    assert!(r[0].reason.contains("range is 3"), "{}", r[0].reason);
    play(&mut g, ["MISSILE 6 0", "WAIT", "WAIT", "WAIT"]);
}

#[test]
fn a_blast_damages_every_enemy_cell_of_its_square_parked_soldiers_first_then_defense() {
    let mut g = armed();
    set_garrison(&mut g, 5, 0, 30);
    play(&mut g, ["BOMB 4 0", "WAIT", "WAIT", "WAIT"]);
    let s = &g.strikes()[0];
    let hit: Vec<_> = s.hit.iter().map(|&c| xy(&g, c)).collect();
    assert_eq!(
        hit,
        vec![(4, 0), (5, 0)],
        "the 3×3 square: own and neutral cells untouched"
    );
    assert_eq!(g.garrison_at(at(&g, 5, 0)), 0, "parked soldiers die first");
    // Damage left: 100 on (4, 0), 70 on (5, 0); seat 1 holds 4 cells.
    assert_eq!(g.team(1).defense, 350 - 170 / 4);
    assert_eq!(g.owner_at(4, 0), Some(1), "weapons never take land");
    assert_eq!(g.team(0).gold, 2000 - 35 + 1);
}

#[test]
fn overlapping_blasts_add_up() {
    let mut g = armed();
    own_row(&mut g, 1, 1, 4, 7);
    own_row(&mut g, 1, 2, 4, 6);
    g.team_mut(2).gold = 1000;
    own(&mut g, 2, &[(7, 2), (7, 3), (7, 4), (7, 5), (7, 6)]);
    place(&mut g, 2, 7, 2);
    set_garrison(&mut g, 5, 1, 1000);
    play(&mut g, ["BOMB 4 0", "WAIT", "MISSILE 6 2", "WAIT"]);
    // (5, 1) is in both blasts: 100 + 220.
    assert_eq!(g.garrison_at(at(&g, 5, 1)), 1000 - 320);
}

#[test]
fn an_idle_robot_in_a_blast_loses_attack_soldiers_a_busy_one_does_not() {
    let mut g = armed();
    place(&mut g, 1, 5, 0);
    play(&mut g, ["BOMB 4 0", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.team(1).attack, 400);
    let mut g = armed();
    place(&mut g, 1, 5, 0);
    g.team_mut(1).gold = 1000;
    wait(&mut g, 5);
    play(&mut g, ["BOMB 4 0", "BUILD BARRACKS", "WAIT", "WAIT"]);
    assert_eq!(g.team(1).attack, 500, "building: not idle");
}

#[test]
fn a_building_in_a_blast_falls_half_the_time_by_the_matchs_seeded_stream() {
    let fallen = |seed: u64| -> Vec<bool> {
        let mut out = Vec::new();
        let mut g = armed();
        let mut g2 = Conquest::new(g.setup_config().clone(), seed);
        std::mem::swap(&mut g, &mut g2);
        own_row(&mut g, 0, 0, 0, 3);
        own_row(&mut g, 1, 0, 4, 7);
        place(&mut g, 0, 3, 0);
        g.team_mut(0).gold = 100_000;
        for turn in 0..100 {
            let c = at(&g, 4, 0);
            g.building_mut()[c] = Some(Building {
                kind: BuildingKind::Mine,
                ready: true,
            });
            if turn % 5 == 0 {
                play(&mut g, ["BOMB 4 0", "WAIT", "WAIT", "WAIT"]);
                out.push(g.building_at(c).is_none());
            } else {
                play(&mut g, WAIT4);
            }
        }
        out
    };
    let a = fallen(7);
    assert_eq!(a, fallen(7), "the same seed, the same buildings fall");
    assert_ne!(a, fallen(8), "another seed, other draws");
    let n = a.iter().filter(|f| **f).count();
    assert!((5..=15).contains(&n), "{n} of 20 fell");
}

#[test]
fn a_building_under_construction_that_falls_frees_its_robot() {
    let mut g = armed();
    place(&mut g, 1, 4, 0);
    g.team_mut(1).gold = 1000;
    play(&mut g, ["WAIT", "BUILD BARRACKS", "WAIT", "WAIT"]);
    let mut seed = 0;
    loop {
        let mut h = Conquest::new(g.setup_config().clone(), seed);
        own_row(&mut h, 0, 0, 0, 3);
        own_row(&mut h, 1, 0, 4, 7);
        place(&mut h, 0, 3, 0);
        place(&mut h, 1, 4, 0);
        h.team_mut(0).gold = 1000;
        h.team_mut(1).gold = 1000;
        play(&mut h, ["WAIT", "BUILD BARRACKS", "WAIT", "WAIT"]);
        play(&mut h, ["BOMB 4 0", "WAIT", "WAIT", "WAIT"]);
        if h.building_at(at(&h, 4, 0)).is_none() {
            assert_eq!(h.team(1).task, Task::Idle);
            assert_eq!(h.team(1).attack, 500, "it was busy when struck");
            break;
        }
        seed += 1;
        assert!(seed < 20, "no seed felled it");
    }
}

#[test]
fn weapons_never_touch_a_capital_or_a_cell_that_was_one() {
    let mut g = armed();
    own_row(&mut g, 0, 1, 0, 7);
    place(&mut g, 0, 6, 1);
    set_garrison(&mut g, 7, 0, 100);
    set_former_capital(&mut g, 5, 0);
    set_garrison(&mut g, 5, 0, 100);
    let r = step(&mut g, ["BOMB 7 0", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(r[0].kind, kind::BAD_TARGET);
    assert!(r[0].reason.contains("capital"), "{}", r[0].reason);
    play(&mut g, ["HBOMB 6 0", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.garrison_at(at(&g, 7, 0)), 100);
    assert_eq!(g.garrison_at(at(&g, 5, 0)), 100);
    let hit: Vec<_> = g.strikes()[0].hit.iter().map(|&c| xy(&g, c)).collect();
    assert_eq!(hit, vec![(4, 0), (6, 0)]);
}

#[test]
fn weapons_cost_gold_and_cool_down_each_on_its_own_clock() {
    let mut g = armed();
    play(&mut g, ["BOMB 4 0", "WAIT", "WAIT", "WAIT"]);
    let o = observe(&g, 0);
    assert_eq!(o["self"]["weapons"]["bomb"]["ready_in"], 4);
    assert!(!legal(&o).iter().any(|a| a.starts_with("BOMB")));
    let r = step(&mut g, ["BOMB 4 0", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(r[0].kind, kind::COOLING_DOWN);
    play(&mut g, ["MISSILE 4 0", "WAIT", "WAIT", "WAIT"]);
    wait(&mut g, 2);
    assert_eq!(observe(&g, 0)["self"]["weapons"]["bomb"]["ready_in"], 0);
    play(&mut g, ["BOMB 4 0", "WAIT", "WAIT", "WAIT"]);
    g.team_mut(0).gold = 499;
    let r = step(&mut g, ["HBOMB 4 0", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(r[0].kind, kind::NOT_ENOUGH_GOLD);
}

#[test]
fn a_bare_weapon_aims_where_its_blast_covers_the_most_enemy_cells_it_sees() {
    let mut g = armed();
    own_row(&mut g, 0, 1, 0, 5);
    own_row(&mut g, 1, 1, 6, 7);
    own_row(&mut g, 1, 2, 4, 7);
    own_row(&mut g, 0, 3, 0, 7);
    place(&mut g, 0, 3, 1);
    // Seen enemy cells: (4..7, 0), (6, 1), (7, 1), (4..7, 2). The 3×3 round
    // (5, 1) is out: it is seat 0's. (6, 1) covers (5..7, 0..2) minus own.
    assert_eq!(g.aim(0, Weapon::Missile), vec![at(&g, 6, 1)]);
    let mirv = g.aim(0, Weapon::Mirv);
    assert_eq!(mirv.len(), 3);
    assert_eq!(mirv[0], at(&g, 6, 1));
    play(&mut g, ["MIRV", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.strikes()[0].targets, mirv);
    assert_eq!(g.strikes()[0].weapon, Weapon::Mirv);
}

#[test]
fn mirv_strikes_up_to_three_different_cells() {
    let mut g = armed();
    own_row(&mut g, 0, 1, 0, 7);
    place(&mut g, 0, 3, 1);
    for (answer, ok) in [
        ("MIRV 4 0 4 0", false),
        ("MIRV 4 0 5 0 6 0 2 1", false),
        ("MIRV 4 0 5 0 6 0", true),
    ] {
        let r = step(&mut g, [answer, "WAIT", "WAIT", "WAIT"]);
        assert_eq!(r.is_empty(), ok, "{answer}: {r:?}");
        if !ok {
            assert_eq!(r[0].kind, kind::BAD_TARGET);
        }
    }
    assert_eq!(g.strikes()[0].targets.len(), 3);
}

#[test]
fn fire_weapons_phase_runs_alone() {
    let mut g = armed();
    g.team_mut(1).task = Task::Relocating { done_on: 5 };
    place(&mut g, 1, 4, 0);
    g.team_mut(1).task = Task::Relocating { done_on: 5 };
    let mut acts = waits();
    acts[0] = Act::Fire {
        weapon: Weapon::Bomb,
        targets: vec![at(&g, 4, 0)],
    };
    g.fire_weapons(&acts);
    assert_eq!(
        g.team(1).task,
        Task::Idle,
        "a strike cancels a relocation there"
    );
    assert_eq!(g.team(0).cooldown[Weapon::Bomb.index()], 5);
}

// --- 12. Relocation ---------------------------------------------------------------------------

#[test]
fn relocate_moves_the_capital_after_three_locked_turns() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 3);
    place(&mut g, 0, 2, 0);
    g.team_mut(0).gold = 200;
    play(&mut g, ["RELOCATE", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(g.team(0).gold, 50 + 1);
    let o = observe(&g, 0);
    assert_eq!(
        o["self"]["task"],
        json!({"kind": "relocating", "position": [2, 0], "turns_left": 2})
    );
    assert_eq!(legal(&o), vec!["WAIT"]);
    play(&mut g, WAIT4);
    assert_eq!(xy(&g, g.team(0).capital), (0, 0));
    play(&mut g, WAIT4);
    assert_eq!(xy(&g, g.team(0).capital), (2, 0));
    assert!(g.is_former_capital(at(&g, 0, 0)));
    assert_eq!(g.defense_percent(at(&g, 2, 0), 0), 160);
    let o = observe(&g, 0);
    assert_eq!(o["self"]["relocate_ready_in"], 57);
    assert_eq!(o["capitals"], json!([{"team": 0, "position": [2, 0]}]));
    assert_eq!(o["former_capitals"], json!([[0, 0]]));
    // ALLOCATE works on the new capital.
    play(&mut g, ["ALLOCATE 1 0 0", "WAIT", "WAIT", "WAIT"]);
}

#[test]
fn relocate_needs_150_gold_a_joined_cell_that_is_not_the_capital_without_a_building() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 3);
    own(&mut g, 0, &[(3, 2)]);
    g.team_mut(0).gold = 1000;
    let refused = |g: &mut Conquest, x, y, kind: &str| {
        place(g, 0, x, y);
        let e = g.check_order(0, &Order::Relocate).unwrap_err();
        assert_eq!(e.0, kind, "at ({x}, {y}): {e:?}");
    };
    refused(&mut g, 0, 0, kind::ILLEGAL);
    refused(&mut g, 3, 2, kind::ILLEGAL);
    set_building(
        &mut g,
        1,
        0,
        Some(Building {
            kind: BuildingKind::Mine,
            ready: true,
        }),
    );
    refused(&mut g, 1, 0, kind::ILLEGAL);
    g.team_mut(0).gold = 149;
    refused(&mut g, 2, 0, kind::NOT_ENOUGH_GOLD);
    g.team_mut(0).gold = 1000;
    g.team_mut(0).relocate_cooldown = 1;
    refused(&mut g, 2, 0, kind::COOLING_DOWN);
}

#[test]
fn a_strike_on_a_relocating_robot_cancels_it_without_refund() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 2);
    own_row(&mut g, 1, 0, 3, 7);
    place(&mut g, 0, 2, 0);
    place(&mut g, 1, 3, 0);
    g.team_mut(0).gold = 200;
    play(&mut g, ["RELOCATE", "WAIT", "WAIT", "WAIT"]);
    play(&mut g, ["WAIT", "BOMB 2 0", "WAIT", "WAIT"]);
    assert_eq!(g.team(0).task, Task::Idle);
    wait(&mut g, 2);
    assert_eq!(xy(&g, g.team(0).capital), (0, 0), "cancelled");
    assert!(g.team(0).gold < 60, "no refund");
    assert!(g.team(0).relocate_cooldown > 50, "the 60 turns still run");
}

// --- 14. Collisions and silence -----------------------------------------------------------------

#[test]
fn two_robots_into_one_cell_are_both_blocked() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 2);
    own_row(&mut g, 1, 0, 4, 7);
    place(&mut g, 0, 2, 0);
    place(&mut g, 1, 4, 0);
    play(&mut g, ["EAST", "WEST", "WAIT", "WAIT"]);
    assert_eq!((pos(&g, 0), pos(&g, 1)), ((2, 0), (4, 0)));
    assert_eq!(g.owner_at(3, 0), None);
}

#[test]
fn stepping_onto_a_robot_or_swapping_is_blocked_and_refused() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 2);
    own_row(&mut g, 1, 0, 3, 7);
    place(&mut g, 0, 2, 0);
    place(&mut g, 1, 3, 0);
    let o = observe(&g, 0);
    assert!(!legal(&o).contains(&"EAST".to_string()));
    let r = step(&mut g, ["EAST", "WEST", "WAIT", "WAIT"]);
    assert_eq!(r.len(), 2);
    assert!(r.iter().all(|r| r.kind == kind::CANNOT_MOVE));
    assert_eq!((pos(&g, 0), pos(&g, 1)), ((2, 0), (3, 0)));
    assert!(g.battles().is_empty());
}

#[test]
fn walls_and_the_edge_of_the_board_cannot_be_entered() {
    let mut g = Conquest::new(
        Setup {
            width: 8,
            height: 8,
            walls: vec![1],
            capitals: CapitalMode::Corners,
            spot: 9,
            max_turns: 300,
            quiet_turns: 30,
        },
        1,
    );
    let o = observe(&g, 0);
    assert_eq!(o["walls"], json!([[1, 0]]));
    assert_eq!(o["owner"][0][1], -1, "walls are neutral, and known");
    for (answer, why) in [
        ("EAST", "wall"),
        ("NORTH", "off the board"),
        ("WEST", "off the board"),
    ] {
        let r = step(&mut g, [answer, "WAIT", "WAIT", "WAIT"]);
        assert_eq!(r[0].kind, kind::CANNOT_MOVE);
        assert!(r[0].reason.contains(why), "{answer}: {}", r[0].reason);
    }
}

#[test]
fn a_team_that_sends_nothing_five_turns_running_is_out() {
    let mut g = small();
    for _ in 0..4 {
        step(&mut g, ["WAIT", "", "WAIT", "  "]);
    }
    assert!(g.team(1).alive() && g.team(3).alive());
    assert_eq!(observe(&g, 1)["self"]["silent_turns"], 4);
    step(&mut g, ["WAIT", "", "WAIT", "FLY"]);
    assert_eq!(g.team(1).out, Some((5, OutCause::Silent)));
    assert!(
        g.team(3).alive(),
        "any answer, even a refused one, is not silence"
    );
    assert_eq!(g.team(3).silent, 0);
}

#[test]
fn time_out_phase_runs_alone() {
    let mut g = small();
    g.team_mut(2).silent = 5;
    g.team_mut(3).silent = 4;
    g.time_out_silent_teams();
    assert!(!g.team(2).alive());
    assert!(g.team(3).alive());
}

#[test]
fn read_orders_phase_counts_silence_and_refuses_with_reasons() {
    let mut g = small();
    let (acts, r) = g.read_orders(&[Some("EAST"), None, Some("BUILD CASTLE"), Some("")]);
    assert_eq!(acts[0], Act::Move { to: at(&g, 1, 0) });
    assert_eq!(acts[2], Act::Wait);
    assert_eq!(r.len(), 2, "{r:?}");
    assert_eq!((r[0].seat, r[0].kind.as_str()), (2, kind::UNPARSEABLE));
    assert!(r[0].reason.ends_with("played as WAIT"), "{}", r[0].reason);
    // A blank answer is silence, and refused as unreadable; no answer (a
    // fault, recorded by the host) is silence alone.
    assert_eq!((r[1].seat, r[1].kind.as_str()), (3, kind::UNPARSEABLE));
    assert_eq!((g.team(1).silent, g.team(3).silent), (1, 1));
}

// --- 15. Points and the end -----------------------------------------------------------------------

#[test]
fn every_turn_a_team_scores_a_point_per_cell_it_owns() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 3);
    wait(&mut g, 3);
    assert_eq!(g.team(0).points, 12);
    assert_eq!(g.team(1).points, 3);
    assert_eq!(g.scores(), vec![12.0, 3.0, 3.0, 3.0]);
}

#[test]
fn score_points_and_count_quiet_turn_phases_run_alone() {
    let mut g = small();
    g.score_points();
    assert_eq!(g.team(2).points, 1);
    g.count_quiet_turn();
    assert_eq!(g.quiet_turns(), 1);
}

#[test]
fn the_last_team_alive_wins() {
    let mut g = small();
    for _ in 0..5 {
        step(&mut g, ["WAIT", "", "", ""]);
    }
    let o = g.outcome().expect("over");
    assert_eq!(o.placements, vec![1, 2, 2, 2]);
    assert_eq!(o.reason, "seat 0 is the last team alive");
    assert_eq!(o.scores, vec![5.0, 4.0, 4.0, 4.0]);
    let before = g.state_hash();
    assert!(step(&mut g, WAIT4).is_empty());
    assert_eq!(g.state_hash(), before, "a finished game does not move");
}

#[test]
fn after_the_turn_limit_the_most_points_wins_and_teams_out_place_below() {
    let mut g = Conquest::from_config(
        &json!({"max_turns": 6, "capitals": "corners", "walls": []}),
        1,
        4,
    )
    .unwrap();
    own(&mut g, 2, &[(10, 11), (9, 11)]);
    own(&mut g, 1, &[(10, 0), (9, 0)]);
    step(&mut g, ["", "WAIT", "WAIT", "WAIT"]);
    for _ in 0..4 {
        step(&mut g, ["", "WAIT", "WAIT", "WAIT"]);
    }
    assert!(!g.team(0).alive());
    step(&mut g, WAIT4);
    let o = g.outcome().expect("6 turns");
    assert_eq!(o.scores, vec![4.0, 18.0, 18.0, 6.0]);
    assert_eq!(o.placements, vec![4, 1, 1, 3]);
    assert_eq!(
        o.reason,
        "turn limit (6) reached: a draw between seats 1, 2 on points"
    );
}

#[test]
fn thirty_turns_with_nothing_happening_end_the_game() {
    let mut g = Conquest::from_config(&json!({"quiet_turns": 30}), 1, 4).unwrap();
    play(&mut g, ["BUILD MINE", "WAIT", "WAIT", "WAIT"]);
    for turn in 0..30 {
        assert!(g.outcome().is_none(), "turn {turn}");
        // Moving about in its own land, allocating and parking soldiers is nothing.
        let answer = if turn % 2 == 0 {
            "GARRISON 1"
        } else {
            "ALLOCATE 0.5 0.35 0.15"
        };
        play(&mut g, [answer, "WAIT", "WAIT", "WAIT"]);
    }
    let o = g.outcome().expect("30 quiet turns");
    assert_eq!(
        o.reason,
        "30 turns with nothing happening: a draw between seats 0, 1, 2, 3 on points"
    );
    assert_eq!(g.turn(), 31);
}

#[test]
fn a_team_out_loses_its_land_buildings_and_garrisons_and_its_battles_end() {
    let mut g = front();
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    set_building(
        &mut g,
        5,
        0,
        Some(Building {
            kind: BuildingKind::Mine,
            ready: true,
        }),
    );
    set_garrison(&mut g, 6, 0, 9);
    let defense = g.team(0).defense;
    g.eliminate(1, OutCause::Silent);
    assert_eq!(g.cell_count(1), 0);
    assert_eq!(g.building_at(at(&g, 5, 0)), None);
    assert_eq!(g.garrison_at(at(&g, 6, 0)), 0);
    assert!(g.battles().is_empty());
    assert!(
        matches!(g.team(0).task, Task::Claiming { .. }),
        "the attacker claims the cell"
    );
    assert_eq!(g.team(0).defense, defense);
    assert!(g.is_former_capital(at(&g, 7, 0)));
}
