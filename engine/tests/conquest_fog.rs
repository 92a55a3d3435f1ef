//! Fog of war (rule 13): a team sees its land and the cells next to it,
//! remembers the rest as it last saw it, and nothing it cannot see changes
//! what it is told.

mod conquest_common;

use conquest_common::*;
use ludus_engine::conquest::{kind, Building, BuildingKind, Conquest, OutCause, Task};
use ludus_engine::Game;
use rand_core::RngCore;
use serde_json::{json, Value};

const WAIT4: [&str; 4] = ["WAIT"; 4];

#[test]
fn a_team_sees_its_land_and_the_cells_next_to_it_and_nothing_else() {
    let g = small();
    let o = observe(&g, 0);
    let owner = o["owner"].as_array().unwrap();
    assert_eq!(owner[0][0], 0);
    assert_eq!(
        (owner[0][1].clone(), owner[1][0].clone()),
        (json!(-1), json!(-1))
    );
    assert_eq!(owner[0][2], Value::Null, "never seen");
    assert_eq!(owner[0][7], Value::Null, "seat 1's capital is out of view");
    let seen: Vec<(usize, usize)> = (0..8)
        .flat_map(|y| (0..8).map(move |x| (x, y)))
        .filter(|&(x, y)| o["seen"][y][x] == 0)
        .collect();
    assert_eq!(seen, vec![(0, 0), (1, 0), (0, 1)]);
    assert_eq!(o["seen"][5][5], -1);
    assert_eq!(o["capitals"], json!([{"team": 0, "position": [0, 0]}]));
    assert_eq!(o["robots"], json!([]), "no enemy robot in view");
}

#[test]
fn out_of_view_a_team_knows_what_it_last_saw() {
    let mut g = front();
    set_garrison(&mut g, 4, 0, 12);
    wait(&mut g, 1);
    let o = observe(&g, 0);
    assert_eq!(o["owner"][0][4], 1);
    assert_eq!(o["seen"][0][4], 1);
    // Seat 0 loses (3, 0) (by hand): (4, 0) is no longer in view.
    place(&mut g, 0, 2, 0);
    set_owner(&mut g, 3, 0, None);
    wait(&mut g, 1);
    set_owner(&mut g, 4, 0, Some(2));
    set_garrison(&mut g, 4, 0, 0);
    let o = observe(&g, 0);
    assert_eq!(o["owner"][0][4], 1, "as last seen");
    assert_eq!(o["seen"][0][4], 1, "last seen on turn 1");
    assert_eq!(o["seen"][0][3], 2, "in view: seen now");
    assert_eq!(
        o["garrisons"],
        json!([{"position": [4, 0], "team": 1, "soldiers": 12}])
    );
}

/// Seat 0 at the top-left of a 12×12 board; seat 2, far away, holds a
/// block of land round its capital, out of everybody's view.
fn far_apart() -> Conquest {
    let mut g = corners(12, 12);
    own(&mut g, 2, &[(10, 11), (9, 11), (10, 10), (11, 10), (9, 10)]);
    g.team_mut(2).gold = 1000;
    g
}

/// Plays `seat_2` for seat 2 in one game and WAIT in another, and checks
/// that every other seat's observations stay byte-identical, for `turns`.
fn unseen_by_others(answers: &[&str], check: impl Fn(&Conquest)) {
    let mut acted = far_apart();
    let mut waited = far_apart();
    for a in answers {
        play(&mut acted, ["WAIT", "WAIT", a, "WAIT"]);
        play(&mut waited, WAIT4);
        assert_ne!(
            acted.state_hash(),
            waited.state_hash(),
            "{a} changed nothing"
        );
        for seat in [0, 1, 3] {
            assert_eq!(
                observe_text(&acted, seat),
                observe_text(&waited, seat),
                "seat {seat} noticed {a}"
            );
        }
    }
    check(&acted);
}

#[test]
fn moving_an_unseen_robot_changes_no_other_teams_observation() {
    unseen_by_others(&["WEST", "NORTH", "WAIT", "WEST"], |g| {
        assert_eq!(pos(g, 2), (9, 10));
    });
}

#[test]
fn building_unseen_changes_no_other_teams_observation() {
    unseen_by_others(
        &["BUILD MINE", "NORTH", "BUILD BARRACKS", "WAIT", "WAIT"],
        |g| {
            assert!(g.building_at(at(g, 11, 10)).unwrap().ready);
            assert!(g.building_at(at(g, 11, 11)).unwrap().ready);
        },
    );
}

#[test]
fn relocating_an_unseen_capital_changes_no_other_teams_observation() {
    unseen_by_others(&["WEST", "RELOCATE", "WAIT", "WAIT"], |g| {
        assert_eq!(xy(g, g.team(2).capital), (10, 11));
    });
}

#[test]
fn others_learn_where_a_capital_went_only_when_they_see_it() {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 6);
    own(&mut g, 1, &[(7, 1), (7, 2), (7, 3), (7, 4), (7, 5)]);
    place(&mut g, 1, 7, 5);
    g.team_mut(1).gold = 500;
    wait(&mut g, 1);
    assert_eq!(
        observe(&g, 0)["capitals"],
        json!([{"team": 0, "position": [0, 0]}, {"team": 1, "position": [7, 0]}])
    );
    // Seat 0 stops seeing (7, 0) (by hand), then seat 1 relocates.
    set_owner(&mut g, 6, 0, None);
    wait(&mut g, 1);
    play(&mut g, ["WAIT", "RELOCATE", "WAIT", "WAIT"]);
    wait(&mut g, 2);
    assert_eq!(xy(&g, g.team(1).capital), (7, 5));
    let o = observe(&g, 0);
    assert_eq!(
        o["capitals"][1],
        json!({"team": 1, "position": [7, 0]}),
        "still where it was last seen"
    );
    assert_eq!(o["former_capitals"], json!([]));
    // Seat 0 comes to see the new capital: the old one is known to be old.
    own(&mut g, 0, &[(6, 1), (6, 2), (6, 3), (6, 4), (6, 5)]);
    set_owner(&mut g, 6, 0, Some(0));
    wait(&mut g, 1);
    let o = observe(&g, 0);
    assert_eq!(o["capitals"][1], json!({"team": 1, "position": [7, 5]}));
    assert_eq!(o["former_capitals"], json!([[7, 0]]));
}

#[test]
fn enemy_robots_are_shown_in_view_only_and_battles_only_to_those_in_them() {
    let mut g = front();
    place(&mut g, 1, 4, 0);
    place(&mut g, 0, 0, 0);
    let o = observe(&g, 0);
    assert_eq!(
        o["robots"],
        json!([{"team": 1, "position": [4, 0], "attack": 500, "task": null}])
    );
    place(&mut g, 1, 6, 0);
    assert_eq!(observe(&g, 0)["robots"], json!([]));
    place(&mut g, 0, 3, 0);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(observe(&g, 0)["battles"].as_array().unwrap().len(), 1);
    assert_eq!(observe(&g, 1)["battles"].as_array().unwrap().len(), 1);
    assert_eq!(observe(&g, 2)["battles"], json!([]));
}

#[test]
fn a_team_that_is_out_keeps_its_memory_and_has_nothing_to_do() {
    let mut g = small();
    wait(&mut g, 2);
    g.eliminate(3, OutCause::Silent);
    wait(&mut g, 1);
    let o = observe(&g, 3);
    assert_eq!(o["self"]["alive"], false);
    assert_eq!(legal(&o), Vec::<String>::new());
    assert_eq!(o["seen"][7][0], 2, "what it saw last, before it went out");
    assert_eq!(o["alive"], json!([true, true, true, false]));
}

#[test]
fn the_spectator_sees_the_whole_board() {
    let mut g = front();
    set_garrison(&mut g, 6, 0, 5);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    let mut text = String::new();
    assert!(g.spectator(&mut text));
    let s: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(s["owner"][0], json!([0, 0, 0, 0, 1, 1, 1, 1]));
    assert_eq!(s["owner"][7][7], 2);
    assert_eq!(s["teams"].as_array().unwrap().len(), 4);
    assert_eq!(s["teams"][2]["position"], json!([7, 7]));
    assert_eq!(s["battles"][0]["position"], json!([4, 0]));
    assert_eq!(
        s["garrisons"],
        json!([{"position": [6, 0], "team": 1, "soldiers": 5}])
    );
}

/// What a team could tell from the board: every cell of `cells` as it is,
/// and the robots standing there.
fn truth_on(g: &Conquest, cells: &[usize]) -> Vec<String> {
    cells
        .iter()
        .map(|&c| {
            let robot = g.robot_at(c).map(|r| {
                let t = g.team(r);
                (r, t.attack, t.task.name())
            });
            format!(
                "{:?} {:?} {} {:?} {} {:?}",
                g.owner()[c],
                g.building_at(c),
                g.garrison_at(c),
                g.capital_of(c),
                g.is_former_capital(c),
                robot
            )
        })
        .collect()
}

/// Everything of `seat`'s own that its observation may show.
fn own_state(g: &Conquest, seat: usize) -> String {
    let battles: Vec<_> = g
        .battles()
        .iter()
        .filter(|b| b.attacker == seat || b.defender == seat)
        .map(|b| (b.clone(), g.team(b.attacker).attack))
        .collect();
    let alive: Vec<bool> = (0..4).map(|s| g.team(s).alive()).collect();
    format!("{:?} {battles:?} {alive:?} {}", g.team(seat), g.turn())
}

#[test]
fn nothing_a_team_cannot_see_changes_its_observation_on_random_turns() {
    let mut compared = 0;
    for seed in 0..12u64 {
        let mut g = Conquest::from_config(&Value::Null, seed, 4).unwrap();
        let mut rng = ludus_engine::rng::stream(seed, "test/fog");
        while g.outcome().is_none() && g.turn() < 120 {
            let answers = random_legal(&g, &mut rng);
            // One seat's answer changed to WAIT: what differs is only what
            // that seat did.
            let actor = rng.next_u32() as usize % 4;
            let mut other = answers.clone();
            other[actor] = "WAIT".into();
            let (mut a, mut b) = (g.clone(), g.clone());
            a.step(&answers.iter().map(|s| Some(s.as_str())).collect::<Vec<_>>());
            b.step(&other.iter().map(|s| Some(s.as_str())).collect::<Vec<_>>());
            if a.state_hash() != b.state_hash() {
                for seat in (0..4).filter(|&s| s != actor) {
                    let (va, vb) = (a.visible(seat), b.visible(seat));
                    let cells: Vec<usize> = (0..va.len()).filter(|&c| va[c] || vb[c]).collect();
                    if own_state(&a, seat) == own_state(&b, seat)
                        && truth_on(&a, &cells) == truth_on(&b, &cells)
                    {
                        compared += 1;
                        assert_eq!(
                            observe_text(&a, seat),
                            observe_text(&b, seat),
                            "seed {seed} turn {}: seat {seat} noticed seat {actor}'s {:?}",
                            g.turn(),
                            answers[actor]
                        );
                    }
                }
            }
            g = a;
        }
    }
    assert!(compared > 500, "only {compared} unseen actions compared");
}

/// Seat 0 holds row 0 up to (6, 0), its robot there, next to seat 1's
/// capital (7, 0) with seat 1's robot on it. Seat 1 also holds (7, 1),
/// which seat 0 has never seen; seat 2 holds the column below it, its robot
/// on (7, 2), out of seat 0's view too.
fn besieged_corner() -> Conquest {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 6);
    place(&mut g, 0, 6, 0);
    own(&mut g, 1, &[(7, 1)]);
    own(&mut g, 2, &[(7, 2), (7, 3), (7, 4), (7, 5), (7, 6)]);
    place(&mut g, 2, 7, 2);
    wait(&mut g, 1);
    g
}

/// [`besieged_corner`] with (7, 1) seat 2's, its robot there, next to
/// seat 1's capital.
fn besieger_in_place() -> Conquest {
    let mut g = besieged_corner();
    own(&mut g, 2, &[(7, 1)]);
    place(&mut g, 2, 7, 1);
    g
}

fn post(ready: bool) -> Option<Building> {
    Some(Building {
        kind: BuildingKind::Post,
        ready,
    })
}

#[test]
fn a_besieger_is_shown_the_multiplier_of_what_it_sees_not_of_a_post_out_of_its_view() {
    let mut without = besieged_corner();
    let mut with = besieged_corner();
    set_building(&mut with, 7, 1, post(true));
    assert!(!with.visible(0)[at(&with, 7, 1)], "seat 0 never saw (7, 1)");
    for g in [&mut without, &mut with] {
        play(g, ["EAST", "WAIT", "WAIT", "WAIT"]);
        assert_eq!(
            g.team(0).task,
            Task::Sieging {
                target: at(g, 7, 0)
            }
        );
    }
    assert_eq!(
        observe_text(&with, 0),
        observe_text(&without, 0),
        "the post seat 0 cannot see changes what it is told"
    );
    assert_eq!(observe(&with, 0)["battles"][0]["multiplier"], 1.6);
    assert_eq!(
        observe(&with, 1)["battles"][0]["multiplier"],
        2.24,
        "the defender sees its own post"
    );
}

#[test]
fn a_siege_is_fought_at_the_real_multiplier_whatever_the_besieger_saw() {
    // 700 attack soldiers beat seat 1's defenders at ×1.6 and lose at ×2.24.
    let won = |g: &mut Conquest| {
        g.team_mut(0).attack = 700;
        play(g, ["EAST", "WAIT", "WAIT", "WAIT"]);
        wait(g, 1);
        !g.team(1).alive()
    };
    assert!(won(&mut besieged_corner()));
    let mut posted = besieged_corner();
    set_building(&mut posted, 7, 1, post(true));
    assert!(!won(&mut posted), "the unseen post defends all the same");
}

#[test]
fn an_unseen_siege_of_a_capital_in_view_takes_no_move_off_legal_actions() {
    let mut besieged = besieger_in_place();
    let mut quiet = besieger_in_place();
    play(&mut besieged, ["WAIT", "WAIT", "NORTH", "WAIT"]);
    play(&mut quiet, WAIT4);
    assert_eq!(besieged.battles()[0].attacker, 2, "seat 2 besieges (7, 0)");
    assert!(!besieged.visible(0)[at(&besieged, 7, 1)]);
    assert_eq!(
        observe_text(&besieged, 0),
        observe_text(&quiet, 0),
        "seat 0 learns of a siege it cannot see"
    );
    assert!(legal(&observe(&besieged, 0)).contains(&"EAST".to_string()));
}

/// Seat 1's capital on (7, 3), its robot there, besieged from (7, 4) by
/// seat 2; seat 1's robot steps out to (6, 3) in the same turn, so a siege
/// is fought over an empty capital. Seat 0 holds row 0 and (7, 1), (7, 2),
/// its robot on (7, 2): it sees the capital, not the besieger.
fn empty_besieged_capital() -> Conquest {
    let mut g = small();
    set_owner(&mut g, 7, 0, None);
    own(&mut g, 1, &[(7, 3), (6, 3)]);
    let capital = at(&g, 7, 3);
    g.team_mut(1).capital = capital;
    place(&mut g, 1, 7, 3);
    own_row(&mut g, 0, 0, 0, 7);
    own(&mut g, 0, &[(7, 1), (7, 2)]);
    place(&mut g, 0, 7, 2);
    own(&mut g, 2, &[(7, 4), (7, 5), (7, 6)]);
    place(&mut g, 2, 7, 4);
    play(&mut g, ["WAIT", "WEST", "NORTH", "WAIT"]);
    assert_eq!(g.battles()[0].cell, capital);
    assert!(g.robot_at(capital).is_none());
    assert!(!g.visible(0)[at(&g, 7, 4)]);
    g
}

#[test]
fn a_move_into_a_battle_the_team_does_not_see_is_accepted_and_blocked() {
    // Toward a besieged capital with its robot on it: a second siege.
    let mut g = besieger_in_place();
    play(&mut g, ["WAIT", "WAIT", "NORTH", "WAIT"]);
    play(&mut g, ["EAST", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(pos(&g, 0), (6, 0));
    assert_eq!(g.team(0).task, Task::Idle);
    assert!(g.battles().iter().all(|b| b.attacker != 0));
    // Into a besieged capital its robot has left: an attack.
    let mut g = empty_besieged_capital();
    assert!(legal(&observe(&g, 0)).contains(&"SOUTH".to_string()));
    play(&mut g, ["SOUTH", "WAIT", "WAIT", "WAIT"]);
    assert_eq!(pos(&g, 0), (7, 2));
    assert_eq!(g.team(0).task, Task::Idle);
    assert!(g.battles().iter().all(|b| b.attacker != 0));
}

#[test]
fn a_move_into_a_battle_the_team_is_in_is_refused() {
    // Seat 1 left its besieged capital and may not step back in.
    let mut g = empty_besieged_capital();
    assert!(!legal(&observe(&g, 1)).contains(&"EAST".to_string()));
    let r = step(&mut g, ["WAIT", "EAST", "WAIT", "WAIT"]);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].kind, kind::CANNOT_MOVE);
    assert!(r[0].reason.contains("battle"), "{}", r[0].reason);
    assert_eq!(pos(&g, 1), (6, 3));
}
