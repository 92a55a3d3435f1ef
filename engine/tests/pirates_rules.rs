//! Pirates' rules, one by one, on small hand-made positions.

mod pirates_common;

use ludus_engine::pirates::{rejection_kind as kind, Hex, Pirates, Terrain};
use ludus_engine::Game;
use pirates_common::*;

// --- The start and the order of moves ----------------------------------------------

#[test]
fn every_ship_starts_on_the_rule_books_field_with_400_health_and_100_cannons() {
    let g = Pirates::from_config(&serde_json::Value::Null, 3, 4).unwrap();
    let cubes: Vec<[i32; 3]> = (0..4).map(|s| g.ship(s).pos.cube()).collect();
    assert_eq!(
        cubes,
        vec![[-7, -7, 14], [14, -7, -7], [7, 7, -14], [-14, 7, 7]]
    );
    for s in 0..4 {
        let ship = g.ship(s);
        assert_eq!(
            (ship.health, ship.max_health, ship.cannons),
            (400, 400, 100)
        );
        assert_eq!((ship.gold, ship.potions, ship.illegal_moves), (0, 0, 0));
        assert!(!ship.paralyzed() && ship.alive());
    }
    assert_eq!(g.flag(), Hex::CENTRE, "the first flag stands on the centre");
    assert_eq!(g.npc(0).pos.cube(), [3, -6, 3]);
    assert_eq!(g.npc(1).pos.cube(), [-3, 6, -3]);
    assert_eq!((g.npc(0).health, g.npc(1).health), (500, 500));
}

#[test]
fn moves_go_round_the_table_and_only_the_ship_to_move_is_asked() {
    let mut g = open_sea();
    for m in 0..8 {
        let seat = m % 4;
        assert_eq!(g.to_move(), seat);
        for s in 0..4 {
            assert_eq!(g.asks(s), s == seat, "move {m}, seat {s}");
        }
        let before: Vec<Hex> = (0..4).map(|s| g.ship(s).pos).collect();
        // Every seat answers; only the ship to move sails.
        let r = g.step(&[Some("sw"), Some("sw"), Some("nw"), Some("nw")]);
        assert!(r.is_empty(), "{r:?}");
        for (s, was) in before.iter().enumerate() {
            assert_eq!(g.ship(s).pos != *was, s == seat, "move {m}, seat {s}");
        }
    }
    assert_eq!(g.turn(), 8);
}

#[test]
fn a_sunk_ships_moves_pass_and_keep_their_place_in_the_round() {
    let mut g = open_sea();
    g.ship_mut(1).health = 0;
    g.ship_mut(1).eliminated = Some(1);
    turn_of(&mut g, 1);
    assert!(
        (0..4).all(|s| !g.asks(s)),
        "nobody is asked for a sunk ship"
    );
    let hash = g.state_hash();
    assert!(answer(&mut g, "e").is_empty());
    assert_eq!(g.to_move(), 2, "seat 2 moves next, as it would have");
    assert_ne!(g.state_hash(), hash, "the move counted");
    assert_eq!(g.ship(1).illegal_moves, 0);
}

#[test]
fn the_game_ends_after_max_turns_moves_a_quarter_of_them_each() {
    let mut g = Pirates::new(open_map(), 1, 10);
    for k in 0..2 {
        g.npc_mut(k).alive = false;
    }
    let mut asked = [0; 4];
    while g.outcome().is_none() {
        for (s, n) in asked.iter_mut().enumerate() {
            *n += u32::from(g.asks(s));
        }
        one_move(&mut g, 1);
    }
    assert_eq!(g.turn(), 10);
    assert_eq!(asked, [3, 3, 2, 2]);
    let o = g.outcome().unwrap();
    assert!(
        o.reason.starts_with("move limit (10) reached"),
        "{}",
        o.reason
    );
    let over = g.clone();
    assert!(answer(&mut g, "e").is_empty());
    assert_eq!(
        g.state_hash(),
        over.state_hash(),
        "a finished game stays put"
    );
}

// --- Sailing -------------------------------------------------------------------------

#[test]
fn a_ship_sails_one_field_in_each_of_the_six_directions() {
    let mut g = open_sea();
    place(&mut g, 0, -3, -3);
    for (word, cube) in [
        ("nw", [-3, -4, 7]),
        ("ne", [-2, -5, 7]),
        ("e", [-1, -5, 6]),
        ("se", [-1, -4, 5]),
        ("sw", [-2, -3, 5]),
        ("w", [-3, -3, 6]),
    ] {
        turn_of(&mut g, 0);
        ok(&mut g, word);
        assert_eq!(g.ship(0).pos.cube(), cube, "{word}");
    }
}

#[test]
fn islands_the_rim_and_other_ships_block_a_step_and_count_as_illegal() {
    let mut g = open_sea();
    place(&mut g, 0, 1, 0);
    place(&mut g, 1, 2, 0);
    g.npc_mut(0).alive = true;
    g.npc_mut(0).pos = Hex::new(1, 1);
    assert_eq!(legal(&g, 0), vec!["nw", "ne", "sw", "atk-2", "atk-5"]);
    for (word, k) in [
        ("w", kind::ISLAND),
        ("e", kind::OCCUPIED),
        ("se", kind::OCCUPIED),
    ] {
        turn_of(&mut g, 0);
        refused(&mut g, word, k);
        assert_eq!(g.ship(0).pos, Hex::new(1, 0), "{word}: the ship stays");
    }
    place(&mut g, 0, 0, -14);
    turn_of(&mut g, 0);
    refused(&mut g, "nw", kind::OFF_THE_SEA);
    assert_eq!(g.ship(0).illegal_moves, 4);
}

// --- Vortices ------------------------------------------------------------------------

fn with_vortex_at(q: i32, r: i32) -> Pirates {
    let mut map = open_map();
    map.vortices.push(Hex::new(q, r));
    let mut g = with_npcs(map);
    for k in 0..2 {
        g.npc_mut(k).alive = false;
    }
    g
}

#[test]
fn sailing_into_a_vortex_holds_the_ship_for_its_next_three_moves() {
    let mut g = with_vortex_at(-2, -3);
    place(&mut g, 0, -3, -3);
    g.ship_mut(0).potions = 3;
    turn_of(&mut g, 0);
    ok(&mut g, "e");
    assert_eq!(g.terrain(g.ship(0).pos), Terrain::Vortex);
    assert!(g.ship(0).paralyzed());
    let seen = observe(&g, 0);
    assert_eq!(seen["player1"]["paralyzed"], true);
    assert_eq!(seen["player1"]["whirlpoolDuration"], 3);
    for held in [3, 2, 1] {
        turn_of(&mut g, 0);
        assert_eq!(g.ship(0).whirlpool, held);
        assert!(
            !legal(&g, 0).iter().any(|a| a == "e"),
            "no steps while held"
        );
        if held == 3 {
            refused(&mut g, "e", kind::PARALYZED);
        } else {
            ok(&mut g, "up");
        }
    }
    assert!(!g.ship(0).paralyzed());
    turn_of(&mut g, 0);
    ok(&mut g, "e");
    assert_eq!(g.ship(0).pos, Hex::new(-1, -3), "free on its fourth move");
}

#[test]
fn a_held_ship_may_still_fire_drink_and_buy() {
    let mut map = open_map();
    map.vortices.push(AT_SHOP);
    let mut g = with_npcs(map);
    g.npc_mut(1).alive = false;
    g.npc_mut(0).pos = AT_SHOP.step(ludus_engine::pirates::Dir::E);
    let ship = g.ship_mut(0);
    ship.pos = AT_SHOP;
    ship.whirlpool = 3;
    ship.gold = 1000;
    ship.potions = 1;
    assert_eq!(
        legal(&g, 0),
        vec!["buy-POTION", "buy-HULL", "buy-CANNONS", "up", "atk-5"]
    );
}

#[test]
fn a_held_ship_with_nothing_to_do_is_not_asked_and_its_move_passes() {
    let mut g = with_vortex_at(-2, -3);
    place(&mut g, 0, -2, -3);
    g.ship_mut(0).whirlpool = 2;
    turn_of(&mut g, 0);
    assert!(legal(&g, 0).is_empty());
    assert!(!g.asks(0));
    assert!(
        answer(&mut g, "up").is_empty(),
        "an answer anyway is ignored"
    );
    assert_eq!(g.ship(0).illegal_moves, 0, "and not counted");
    assert_eq!(g.ship(0).whirlpool, 1, "the move passed");
}

// --- The shop ------------------------------------------------------------------------

fn at_shop_with_gold(gold: u64) -> Pirates {
    let mut g = open_sea();
    g.ship_mut(0).pos = AT_SHOP;
    g.ship_mut(0).gold = gold;
    turn_of(&mut g, 0);
    g
}

#[test]
fn buying_needs_a_field_next_to_the_shop() {
    let mut g = at_shop_with_gold(1000);
    place(&mut g, 0, -8, 0);
    refused(&mut g, "buy-POTION", kind::NOT_AT_SHOP);
    assert!(!legal(&g, 0).iter().any(|a| a.starts_with("buy")));
    g.ship_mut(0).pos = AT_SHOP;
    turn_of(&mut g, 0);
    ok(&mut g, "buy-POTION");
    assert_eq!((g.ship(0).potions, g.ship(0).gold), (1, 850));
}

#[test]
fn a_potion_costs_150_and_a_ship_carries_at_most_three() {
    let mut g = at_shop_with_gold(1000);
    for _ in 0..3 {
        turn_of(&mut g, 0);
        ok(&mut g, "buy-POTION");
    }
    assert_eq!((g.ship(0).potions, g.ship(0).gold), (3, 550));
    turn_of(&mut g, 0);
    assert!(!legal(&g, 0).contains(&"buy-POTION".to_string()));
    refused(&mut g, "buy-POTION", kind::LIMIT_REACHED);
    assert_eq!((g.ship(0).potions, g.ship(0).gold), (3, 550));
}

#[test]
fn hull_upgrades_cost_200_then_300_and_take_maximum_health_from_400_to_600_to_1000() {
    let mut g = at_shop_with_gold(1500);
    g.ship_mut(0).health = 300;
    ok(&mut g, "buy-HULL");
    let s = g.ship(0);
    assert_eq!((s.gold, s.max_health, s.health), (1300, 600, 500));
    turn_of(&mut g, 0);
    ok(&mut g, "buy-HULL");
    let s = g.ship(0);
    assert_eq!((s.gold, s.max_health, s.health), (1000, 1000, 900));
    turn_of(&mut g, 0);
    refused(&mut g, "buy-HULL", kind::LIMIT_REACHED);
    assert_eq!(g.ship(0).gold, 1000);
}

#[test]
fn cannon_upgrades_cost_200_then_300_and_take_damage_from_100_to_150_to_250() {
    let mut g = at_shop_with_gold(1500);
    ok(&mut g, "buy-CANNONS");
    assert_eq!((g.ship(0).gold, g.ship(0).cannons), (1300, 150));
    turn_of(&mut g, 0);
    ok(&mut g, "buy-CANNONS");
    assert_eq!((g.ship(0).gold, g.ship(0).cannons), (1000, 250));
    turn_of(&mut g, 0);
    refused(&mut g, "buy-CANNONS", kind::LIMIT_REACHED);
}

#[test]
fn a_purchase_the_gold_does_not_cover_is_illegal() {
    let mut g = at_shop_with_gold(149);
    assert!(legal(&g, 0).iter().all(|a| !a.starts_with("buy")));
    refused(&mut g, "buy-POTION", kind::NOT_ENOUGH_GOLD);
    g.ship_mut(0).gold = 299;
    g.ship_mut(0).hull_level = 1;
    turn_of(&mut g, 0);
    let buys: Vec<String> = legal(&g, 0)
        .into_iter()
        .filter(|a| a.starts_with("buy"))
        .collect();
    assert_eq!(buys, ["buy-POTION", "buy-CANNONS"]);
    refused(&mut g, "buy-HULL", kind::NOT_ENOUGH_GOLD);
    assert_eq!(g.ship(0).gold, 299);
}

// --- Potions -------------------------------------------------------------------------

#[test]
fn up_drinks_a_potion_for_10_percent_of_maximum_health_up_to_the_maximum() {
    let mut g = open_sea();
    let s = g.ship_mut(0);
    s.potions = 2;
    s.health = 100;
    ok(&mut g, "up");
    assert_eq!((g.ship(0).health, g.ship(0).potions), (140, 1));
    g.ship_mut(0).health = 390;
    turn_of(&mut g, 0);
    ok(&mut g, "up");
    assert_eq!((g.ship(0).health, g.ship(0).potions), (400, 0));
    let s = g.ship_mut(0);
    s.potions = 1;
    s.max_health = 1000;
    s.health = 500;
    turn_of(&mut g, 0);
    ok(&mut g, "up");
    assert_eq!(g.ship(0).health, 600);
}

#[test]
fn up_without_a_potion_is_illegal() {
    let mut g = open_sea();
    assert!(!legal(&g, 0).contains(&"up".to_string()));
    refused(&mut g, "up", kind::NO_POTION);
    assert_eq!(g.ship(0).health, 400);
}

// --- Attacks -------------------------------------------------------------------------

#[test]
fn a_shot_takes_the_attackers_cannons_from_the_target_within_two_fields() {
    let mut g = open_sea();
    place(&mut g, 0, 0, -3);
    place(&mut g, 1, 2, -3);
    g.ship_mut(0).cannons = 150;
    assert!(legal(&g, 0).contains(&"atk-2".to_string()));
    ok(&mut g, "atk-2");
    assert_eq!(g.ship(1).health, 250);
    assert_eq!(g.ship(0).gold, 0);
}

#[test]
fn a_shot_beyond_two_fields_is_illegal() {
    let mut g = open_sea();
    place(&mut g, 0, 0, -3);
    place(&mut g, 1, 3, -3);
    assert!(!legal(&g, 0).contains(&"atk-2".to_string()));
    refused(&mut g, "atk-2", kind::OUT_OF_RANGE);
    assert_eq!(g.ship(1).health, 400);
    // Nor does the refusal say how far a ship out of sight is.
    turn_of(&mut g, 0);
    let r = answer(&mut g, "atk-3");
    assert_eq!(r[0].kind, kind::OUT_OF_RANGE);
    let far = g.ship(0).pos.distance(g.ship(2).pos);
    assert!(
        far > 5 && !r[0].reason.contains(&far.to_string()),
        "{}",
        r[0].reason
    );
}

#[test]
fn eliminating_a_player_pays_250_gold_and_takes_its_ship_off_the_sea() {
    let mut g = open_sea();
    place(&mut g, 0, 0, -3);
    place(&mut g, 1, 1, -3);
    g.ship_mut(1).health = 100;
    ok(&mut g, "atk-2");
    assert_eq!(g.ship(1).eliminated, Some(1));
    assert_eq!(g.ship(1).health, 0);
    assert_eq!(g.ship(0).gold, 250);
    let seen = observe(&g, 0);
    assert!(seen["player2"].is_null());
    // (This test's sea has no NPCs: they count as gone.)
    assert_eq!(seen["eliminated"], serde_json::json!([2, 5, 6]));
    turn_of(&mut g, 0);
    ok(&mut g, "e");
    assert_eq!(
        g.ship(0).pos,
        Hex::new(1, -3),
        "its field is open water again"
    );
}

#[test]
fn firing_at_itself_an_unknown_or_sunk_ship_is_illegal() {
    let mut g = open_sea();
    place(&mut g, 0, 0, -3);
    place(&mut g, 2, 1, -3);
    g.ship_mut(2).eliminated = Some(1);
    for bad in [
        "atk-1",
        "atk-0",
        "atk-3",
        "atk-5",
        "atk-7",
        "atk-18446744073709551615",
    ] {
        turn_of(&mut g, 0);
        refused(&mut g, bad, kind::NO_SUCH_TARGET);
    }
    assert!(legal(&g, 0).iter().all(|a| !a.starts_with("atk")));
}

// --- Illegal moves -------------------------------------------------------------------

#[test]
fn every_tenth_illegal_move_costs_5_percent_of_maximum_health() {
    let mut g = open_sea();
    for n in 1..=20u32 {
        turn_of(&mut g, 0);
        refused(&mut g, "stay", kind::UNPARSEABLE);
        let expected = 400 - 20 * (n / 10);
        assert_eq!(g.ship(0).health, expected, "after {n}");
    }
    g.ship_mut(0).max_health = 1000;
    g.ship_mut(0).health = 1000;
    for _ in 0..10 {
        turn_of(&mut g, 0);
        let _ = answer(&mut g, "stay");
    }
    assert_eq!(g.ship(0).health, 950);
    assert_eq!(g.ship(0).illegal_moves, 30);
}

#[test]
fn unreadable_missing_and_impossible_answers_all_count_as_illegal_moves() {
    let mut g = open_sea();
    assert!(
        answer(&mut g, "").is_empty(),
        "no answer: no refusal to record"
    );
    assert_eq!(g.ship(0).illegal_moves, 1);
    turn_of(&mut g, 0);
    refused(&mut g, "hoist the sails", kind::UNPARSEABLE);
    turn_of(&mut g, 0);
    let r = answer(&mut g, "atk-3");
    assert_eq!(r[0].kind, kind::OUT_OF_RANGE);
    assert!(
        r[0].reason.contains("illegal move 3 of this ship"),
        "{}",
        r[0].reason
    );
    assert_eq!(g.ship(0).illegal_moves, 3);
    assert_eq!(g.ship(0).pos, start(0), "nothing was done");
}

#[test]
fn penalties_can_sink_a_ship_and_nobody_gets_gold_for_it() {
    let mut g = open_sea();
    g.ship_mut(0).health = 20;
    g.ship_mut(0).illegal_moves = 9;
    refused(&mut g, "up", kind::NO_POTION);
    assert_eq!(g.ship(0).eliminated, Some(1));
    assert!((0..4).all(|s| g.ship(s).gold == 0));
}

// --- The flag ------------------------------------------------------------------------

#[test]
fn the_first_ship_next_to_the_flags_island_takes_it_and_500_gold() {
    let mut g = open_sea();
    place(&mut g, 0, 2, 0);
    ok(&mut g, "w");
    assert_eq!(g.ship(0).pos.distance(Hex::CENTRE), 1);
    assert_eq!(g.ship(0).gold, 500);
    assert_ne!(g.flag(), Hex::CENTRE, "the flag moved on");
    assert!(FLAGS.contains(&g.flag()), "to another flag island");
    turn_of(&mut g, 0);
    ok(&mut g, "e");
    turn_of(&mut g, 0);
    ok(&mut g, "w");
    assert_eq!(g.ship(0).gold, 500, "no flag stands there any more");
}

#[test]
fn a_taken_flag_appears_on_another_flag_island_drawn_from_the_match_seed() {
    let flag_after = |seed: u64| {
        let mut g = Pirates::new(open_map(), seed, 5000);
        for k in 0..2 {
            g.npc_mut(k).alive = false;
        }
        place(&mut g, 0, 2, 0);
        ok(&mut g, "w");
        g.flag()
    };
    let drawn: Vec<Hex> = (0..16).map(flag_after).collect();
    assert_eq!(drawn, (0..16).map(flag_after).collect::<Vec<_>>());
    assert!(!drawn.contains(&Hex::CENTRE), "never where it was taken");
    assert!(
        drawn.contains(&FLAGS[1]) && drawn.contains(&FLAGS[2]),
        "{drawn:?}"
    );
}

#[test]
fn every_other_flag_island_is_drawn_about_as_often() {
    // So waiting by an island pays one take in (flag islands - 1), and two
    // ships waiting by two islands cannot pass the flag between them.
    let mut g = Pirates::from_config(&serde_json::Value::Null, 3, 4).unwrap();
    let islands = g.map().flag_islands.clone();
    let others = islands.len() - 1;
    assert!(others >= 8, "{} flag islands", islands.len());
    let mut counts = vec![0u32; islands.len()];
    let draws = 400 * others as u32;
    for m in 0..draws {
        g.set_moves(m);
        let next = g.place_next_flag();
        assert_ne!(next, g.flag());
        counts[islands.iter().position(|&f| f == next).unwrap()] += 1;
    }
    let start = islands.iter().position(|&f| f == g.flag()).unwrap();
    for (k, &n) in counts.iter().enumerate().filter(|&(k, _)| k != start) {
        assert!((300..=500).contains(&n), "island {k}: {n} of {draws}");
    }
}

#[test]
fn a_ship_next_to_the_flag_at_the_end_of_its_move_takes_it_whatever_it_did() {
    let mut g = open_sea();
    g.set_flag(FLAGS[1]);
    place(&mut g, 0, 5, -9);
    g.ship_mut(0).potions = 1;
    ok(&mut g, "up");
    assert_eq!(g.ship(0).gold, 500);
}

#[test]
fn there_is_always_a_flag_on_a_flag_island() {
    for seed in 0..4 {
        let mut g = Pirates::from_config(&serde_json::Value::Null, seed, 4).unwrap();
        let islands = g.map().flag_islands.clone();
        while g.outcome().is_none() && g.turn() < 3000 {
            assert!(islands.contains(&g.flag()));
            one_move(&mut g, seed);
        }
    }
}

// --- The NPCs ------------------------------------------------------------------------

fn npcs_only() -> Pirates {
    with_npcs(open_map())
}

#[test]
fn npcs_circle_their_ring_clockwise_after_every_fourth_move() {
    let mut g = npcs_only();
    for _ in 0..3 {
        one_move(&mut g, 2);
        assert_eq!(g.npc(0).pos, Hex::new(3, -6), "not before the round ends");
    }
    one_move(&mut g, 2);
    assert_eq!(g.npc(0).pos, Hex::new(4, -6), "along the top, eastwards");
    assert_eq!(g.npc(1).pos, Hex::new(-4, 6), "along the bottom, westwards");
    g.npcs_act();
    assert_eq!(g.npc(0).pos, Hex::new(5, -6));
    assert_eq!(g.npc(0).pos.length(), 6);
}

#[test]
fn an_npc_chases_the_nearest_ship_it_sees_and_fires_when_in_range() {
    let mut g = npcs_only();
    place(&mut g, 0, 3, -2);
    place(&mut g, 1, 8, -6);
    g.ship_mut(1).health = 10;
    assert_eq!(g.npc(0).pos.distance(g.ship(0).pos), 4);
    assert_eq!(g.npc(0).pos.distance(g.ship(1).pos), 5, "out of its sight");
    g.npcs_act();
    assert_eq!(g.npc(0).target, Some(0));
    assert_eq!(g.npc(0).pos.distance(g.ship(0).pos), 3);
    g.npcs_act();
    assert_eq!(g.npc(0).pos.distance(g.ship(0).pos), 2);
    assert_eq!(g.ship(0).health, 400);
    g.npcs_act();
    assert_eq!(g.ship(0).health, 350, "50 damage");
    assert_eq!(g.npc(0).fired_at, Some(0));
    let seen = observe(&g, 0);
    assert_eq!(seen["npc1"]["chasing"], 1);
    assert_eq!(seen["npc1"]["firedAt"], 1);
    assert!(g.npc(1).target.is_none(), "the other NPC saw nobody");
}

#[test]
fn of_ships_at_the_same_distance_an_npc_chases_the_weaker() {
    let mut g = npcs_only();
    place(&mut g, 0, 3, -2);
    place(&mut g, 1, 7, -6);
    g.ship_mut(1).health = 300;
    g.npc_choose_target(0);
    assert_eq!(g.npc(0).target, Some(1));
}

#[test]
fn an_npc_returns_to_its_ring_by_the_shortest_way_when_its_prey_escapes() {
    let mut g = npcs_only();
    g.npc_mut(0).pos = Hex::new(3, -3);
    g.npc_mut(0).target = Some(0);
    assert!(
        g.ship(0).pos.distance(Hex::new(3, -3)) > 4,
        "the prey is out of sight"
    );
    for length in [4, 5, 6] {
        g.npcs_act();
        assert_eq!(g.npc(0).target, None);
        assert_eq!(g.npc(0).pos.length(), length);
    }
    let on_ring = g.npc(0).pos;
    g.npcs_act();
    assert_eq!(g.npc(0).pos.length(), 6);
    assert_eq!(on_ring.distance(g.npc(0).pos), 1, "and circles on");
}

#[test]
fn npcs_never_sail_onto_vortices_islands_or_ships() {
    let mut map = open_map();
    map.vortices.push(Hex::new(3, -4));
    map.islands.push(Hex::new(4, -4));
    sort(&mut map);
    let mut g = with_npcs(map);
    // NPC 5 off its ring, the three fields towards the ring blocked: a
    // vortex, an island and NPC 6.
    g.npc_mut(0).pos = Hex::new(3, -3);
    g.npc_mut(1).pos = Hex::new(4, -3);
    let blocked = [Hex::new(3, -4), Hex::new(4, -4), Hex::new(4, -3)];
    g.npcs_act();
    let step = g.npc(0).pos;
    assert!(!blocked.contains(&step), "{step}");
    assert_eq!(step.length(), 3, "the shortest way round starts sideways");
    for _ in 0..4 {
        g.npcs_act();
        for k in 0..2 {
            assert_eq!(g.terrain(g.npc(k).pos), Terrain::Water);
        }
    }
    assert_eq!(g.npc(0).pos.length(), 6, "back on its ring");
    assert_ne!(g.npc(0).pos, g.npc(1).pos);
}

#[test]
fn an_npc_fired_at_chases_its_attacker() {
    let mut g = npcs_only();
    place(&mut g, 1, 3, -5);
    place(&mut g, 0, 3, -4);
    turn_of(&mut g, 0);
    ok(&mut g, "atk-5");
    assert_eq!(g.npc(0).health, 400);
    assert_eq!(g.npc(0).target, Some(0));
    g.npcs_act();
    assert_eq!(g.npc(0).fired_at, Some(0), "not the nearer ship 2");
    assert_eq!((g.ship(0).health, g.ship(1).health), (350, 400));
}

#[test]
fn eliminating_an_npc_pays_300_gold() {
    let mut g = npcs_only();
    place(&mut g, 0, 3, -4);
    g.npc_mut(0).health = 100;
    ok(&mut g, "atk-5");
    assert!(!g.npc(0).alive);
    assert_eq!(g.ship(0).gold, 300);
    let seen = observe(&g, 0);
    assert!(seen["npc1"].is_null());
    assert_eq!(seen["eliminated"], serde_json::json!([5]));
    turn_of(&mut g, 0);
    refused(&mut g, "atk-5", kind::NO_SUCH_TARGET);
}

#[test]
fn an_npc_sinking_the_last_but_one_ship_ends_the_game_at_once() {
    let mut g = npcs_only();
    for s in [2, 3] {
        g.ship_mut(s).eliminated = Some(s as u32 - 1);
        g.ship_mut(s).health = 0;
    }
    place(&mut g, 0, 3, -4);
    g.ship_mut(0).health = 50;
    let other = g.npc(1).pos;
    turn_of(&mut g, 3);
    assert!(answer(&mut g, "").is_empty());
    assert_eq!(g.ship(0).eliminated, Some(3));
    assert_eq!(g.npc(1).pos, other, "NPC 6 did not act: the game was over");
    let o = g.outcome().unwrap();
    assert_eq!(o.reason, "seat 1 is the last ship afloat");
    assert_eq!(o.placements, vec![2, 1, 4, 3]);
    assert_eq!(g.ship(1).gold, 0, "nobody gets gold for what an NPC sinks");
}

// --- Sight ---------------------------------------------------------------------------

#[test]
fn other_ships_and_npcs_are_seen_only_within_five_fields_and_the_flag_always() {
    let mut g = npcs_only();
    place(&mut g, 0, 0, -9);
    place(&mut g, 1, 5, -9);
    place(&mut g, 2, -6, -8);
    let seen = observe(&g, 0);
    assert_eq!(seen["player1"]["q"], 0);
    assert_eq!(seen["player2"]["q"], 5, "5 fields away");
    assert!(seen["player3"].is_null(), "6 fields away");
    assert!(seen["player4"].is_null());
    assert_eq!(g.npc(0).pos.distance(g.ship(0).pos), 6);
    assert!(seen["npc1"].is_null(), "6 fields away");
    assert!(seen["npc2"].is_null(), "15 fields away");
    g.npc_mut(0).pos = Hex::new(0, -4);
    assert_eq!(observe(&g, 0)["npc1"]["id"], 5, "5 fields away");
    // A sunk ship sees nothing more, but itself.
    g.ship_mut(0).eliminated = Some(1);
    g.ship_mut(0).health = 0;
    let sunk = observe(&g, 0);
    assert_eq!(sunk["player1"]["health"], 0);
    assert!(sunk["player2"].is_null() && sunk["npc1"].is_null());
    assert_eq!(seen["flag"], serde_json::json!({"q": 0, "r": 0, "s": 0}));
    let other = observe(&g, 3);
    assert_eq!(other["yourId"], 4);
    assert!(other["player1"].is_null() && other["player2"].is_null());
    assert!(
        other["legalActions"].as_array().unwrap().is_empty(),
        "not its move"
    );
}

/// NPC 5 on (3, -6) has chased and fired at seat 2, 2 fields away; seat 0,
/// 5 fields from the NPC, is 7 from seat 2.
fn npc_after_a_ship_out_of_seat_0s_sight() -> Pirates {
    let mut g = npcs_only();
    place(&mut g, 0, -2, -6);
    place(&mut g, 2, 5, -6);
    g.npcs_act();
    g
}

#[test]
fn an_npc_in_view_names_no_ship_its_observer_cannot_see() {
    let g = npc_after_a_ship_out_of_seat_0s_sight();
    assert_eq!(g.npc(0).pos, Hex::new(3, -6));
    assert_eq!((g.npc(0).target, g.npc(0).fired_at), (Some(2), Some(2)));
    let mut unaware = g.clone();
    unaware.npc_mut(0).target = None;
    unaware.npc_mut(0).fired_at = None;
    assert_eq!(
        observe(&g, 0),
        observe(&unaware, 0),
        "seat 0 learns where a ship it cannot see is"
    );
    assert_eq!(observe(&g, 0)["npc1"]["chasing"], serde_json::Value::Null);
    let prey = observe(&g, 2);
    assert_eq!(
        (
            prey["npc1"]["chasing"].clone(),
            prey["npc1"]["firedAt"].clone()
        ),
        (3.into(), 3.into()),
        "the ship it chases sees itself named"
    );
}

#[test]
fn an_npc_out_of_sight_is_not_seen_nor_what_befalls_it() {
    // Seat 2 fires at NPC 5, 2 fields away, or sails off: seat 0, 11
    // fields from both, is told nothing either way.
    let fired = |answer_of_seat_2: &str| {
        let mut g = npcs_only();
        place(&mut g, 2, 5, -6);
        turn_of(&mut g, 2);
        ok(&mut g, answer_of_seat_2);
        g
    };
    let (shot, sailed) = (fired("atk-5"), fired("e"));
    assert_eq!(shot.npc(0).health, 400);
    assert_eq!(shot.npc(0).target, Some(2));
    assert_eq!(observe(&shot, 0), observe(&sailed, 0));
    assert!(observe(&shot, 0)["npc1"].is_null());
}

#[test]
fn the_spectator_sees_every_ship_and_npc_and_whom_they_chase() {
    let mut g = npc_after_a_ship_out_of_seat_0s_sight();
    g.ship_mut(3).health = 0;
    g.ship_mut(3).eliminated = Some(1);
    let mut text = String::new();
    assert!(g.spectator(&mut text));
    let all: serde_json::Value = serde_json::from_str(&text).unwrap();
    for id in 1..=4 {
        assert_eq!(all[format!("player{id}")]["id"], id, "every ship");
    }
    assert_eq!(all["player4"]["health"], 0, "a sunk one too");
    assert_eq!(all["npc1"]["chasing"], 3);
    assert_eq!(all["npc1"]["firedAt"], 3);
    assert_eq!(all["npc2"]["id"], 6);
    assert_eq!(all["eliminated"], serde_json::json!([4]));
    assert!(observe(&g, 0)["player3"].is_null(), "seat 0 sees less");
}

#[test]
fn where_a_taken_flag_appears_next_depends_on_no_ship() {
    // Seat 0 takes the flag at the centre while seat 2, out of its sight,
    // waits by one flag island or by the other.
    let after = |waits_by: Hex| {
        let mut g = open_sea();
        let by = waits_by.step(ludus_engine::pirates::Dir::Se);
        place(&mut g, 2, by.q, by.r);
        place(&mut g, 0, 0, 2);
        ok(&mut g, "nw");
        assert_eq!(g.ship(0).gold, 500);
        assert!(g.ship(0).pos.distance(g.ship(2).pos) > 5);
        g
    };
    let (a, b) = (after(FLAGS[1]), after(FLAGS[2]));
    assert_eq!(a.flag(), b.flag());
    assert_eq!(observe(&a, 0), observe(&b, 0));
}

// --- The end -------------------------------------------------------------------------

#[test]
fn the_last_ship_afloat_wins_and_the_others_rank_by_the_order_they_sank_in() {
    let mut g = open_sea();
    place(&mut g, 0, 0, -3);
    for (s, q) in [(3, 1), (1, 2), (2, -1)] {
        place(&mut g, s, q, -3);
        g.ship_mut(s).health = 100;
    }
    g.ship_mut(3).gold = 10_000;
    for target in ["atk-4", "atk-2", "atk-3"] {
        turn_of(&mut g, 0);
        ok(&mut g, target);
    }
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![1, 3, 2, 4]);
    assert_eq!(o.reason, "seat 0 is the last ship afloat");
    assert_eq!(o.scores, vec![750.0, 0.0, 0.0, 10_000.0]);
}

/// A game at its last move with the ships' gold, health and cannons set.
fn at_the_limit(ships: [(u64, u32, u32); 4]) -> Pirates {
    let mut g = Pirates::new(open_map(), 1, 1);
    for k in 0..2 {
        g.npc_mut(k).alive = false;
    }
    for (s, (gold, health, cannons)) in ships.into_iter().enumerate() {
        let ship = g.ship_mut(s);
        ship.gold = gold;
        ship.health = health;
        ship.cannons = cannons;
    }
    ok(&mut g, "e");
    assert!(g.outcome().is_some());
    g
}

#[test]
fn at_the_move_limit_gold_decides_then_health_then_cannons() {
    let g = at_the_limit([
        (500, 300, 100),
        (900, 10, 100),
        (100, 400, 250),
        (500, 300, 150),
    ]);
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![3, 1, 4, 2]);
    assert_eq!(o.reason, "move limit (1) reached: seat 1 has the most gold");
    let g = at_the_limit([
        (500, 250, 100),
        (500, 300, 100),
        (100, 400, 250),
        (0, 400, 250),
    ]);
    assert_eq!(
        g.outcome().unwrap().reason,
        "move limit (1) reached: seat 1 has the most health of the ships with 500 gold"
    );
    let g = at_the_limit([
        (500, 300, 100),
        (500, 300, 150),
        (100, 400, 250),
        (0, 400, 250),
    ]);
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![2, 1, 3, 4]);
    assert_eq!(
        o.reason,
        "move limit (1) reached: seat 1 has the most cannons of the ships with 500 gold and 300 \
         health"
    );
}

#[test]
fn ships_equal_on_gold_health_and_cannons_share_a_place_and_a_tie_for_first_is_a_draw() {
    let g = at_the_limit([
        (500, 300, 100),
        (500, 300, 100),
        (100, 400, 250),
        (100, 400, 250),
    ]);
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![1, 1, 3, 3]);
    assert!(
        o.reason.contains("a draw between seats 0, 1"),
        "{}",
        o.reason
    );
}

#[test]
fn ships_afloat_rank_above_sunk_ones_at_the_move_limit() {
    let mut g = Pirates::new(open_map(), 1, 2);
    for k in 0..2 {
        g.npc_mut(k).alive = false;
    }
    g.ship_mut(3).gold = 10_000;
    g.ship_mut(3).eliminated = Some(1);
    g.ship_mut(2).eliminated = Some(2);
    random_play(&mut g, 1, 2);
    let o = g.outcome().unwrap();
    assert_eq!(o.placements, vec![1, 1, 3, 4]);
}

// --- Each phase alone ----------------------------------------------------------------

#[test]
fn phase_read_action_reads_checks_and_counts_but_does_nothing() {
    let mut g = open_sea();
    let mut refused = Vec::new();
    let a = g.read_action(0, Some("\"e\""), &mut refused);
    assert_eq!(a.map(|a| a.name()), Some("e".to_string()));
    assert!(refused.is_empty());
    assert_eq!(g.ship(0).pos, start(0), "reading is not sailing");
    assert_eq!(g.read_action(0, Some("up"), &mut refused), None);
    assert_eq!(refused[0].kind, kind::NO_POTION);
    assert_eq!(g.ship(0).illegal_moves, 1);
    assert_eq!(g.turn(), 0, "no move was played");
}

#[test]
fn phase_count_illegal_move_takes_5_percent_on_every_tenth() {
    let mut g = open_sea();
    g.ship_mut(0).illegal_moves = 8;
    assert_eq!(g.count_illegal_move(0), 9);
    assert_eq!(g.ship(0).health, 400);
    assert_eq!(g.count_illegal_move(0), 10);
    assert_eq!(g.ship(0).health, 380);
}

#[test]
fn phase_sail_moves_and_a_vortex_holds_but_the_flag_waits_for_its_own_phase() {
    let mut g = with_vortex_at(0, 1);
    place(&mut g, 0, 0, 2);
    g.sail(0, ludus_engine::pirates::Dir::Nw);
    assert_eq!(g.ship(0).pos, Hex::new(0, 1));
    assert_eq!(g.ship(0).whirlpool, 3);
    assert_eq!(g.ship(0).gold, 0, "next to the flag, but not taken yet");
    g.take_flag(0);
    assert_eq!(g.ship(0).gold, 500);
    assert_ne!(g.flag(), Hex::CENTRE);
}

#[test]
fn phase_buy_drink_and_fire_each_do_their_action() {
    let mut g = at_shop_with_gold(500);
    g.buy(0, ludus_engine::pirates::Item::Cannons);
    assert_eq!((g.ship(0).cannons, g.ship(0).gold), (150, 300));
    g.buy(0, ludus_engine::pirates::Item::Potion);
    g.ship_mut(0).health = 100;
    g.drink(0);
    assert_eq!((g.ship(0).health, g.ship(0).potions), (140, 0));
    place(&mut g, 1, -8, 0);
    g.fire(0, 2);
    assert_eq!(g.ship(1).health, 250);
}

#[test]
fn phase_count_down_whirlpool_takes_one_move_off_the_hold() {
    let mut g = open_sea();
    g.ship_mut(2).whirlpool = 2;
    g.count_down_whirlpool(2);
    assert_eq!(g.ship(2).whirlpool, 1);
    g.count_down_whirlpool(2);
    g.count_down_whirlpool(2);
    assert_eq!(g.ship(2).whirlpool, 0);
}

#[test]
fn phase_place_next_flag_only_chooses_it() {
    let g = open_sea();
    let next = g.place_next_flag();
    assert!(FLAGS[1..].contains(&next));
    assert_eq!(g.flag(), Hex::CENTRE, "choosing does not move it");
}

#[test]
fn phases_of_the_npcs_each_do_one_thing() {
    let mut g = npcs_only();
    // Circling: one field clockwise.
    g.npc_circle(0);
    assert_eq!(g.npc(0).pos, Hex::new(4, -6));
    // Returning: one field nearer the ring.
    g.npc_mut(0).pos = Hex::new(2, -2);
    g.npc_return(0);
    assert_eq!(g.npc(0).pos.length(), 3);
    // Chasing: one field nearer, to within range.
    place(&mut g, 0, 2, 2);
    let before = g.npc(0).pos.distance(g.ship(0).pos);
    g.npc_chase(0, 0);
    assert_eq!(g.npc(0).pos.distance(g.ship(0).pos), before - 1);
    // Firing: 50 damage, remembered.
    g.npc_fire(1, 0);
    assert_eq!(g.ship(0).health, 350);
    assert_eq!(g.npc(1).fired_at, Some(0));
}

#[test]
fn phase_final_outcome_ranks_the_state_as_it_is() {
    let mut g = open_sea();
    g.ship_mut(2).gold = 700;
    g.ship_mut(1).eliminated = Some(1);
    let o = g.final_outcome();
    assert_eq!(o.placements, vec![2, 4, 1, 2]);
    assert_eq!(o.scores, vec![0.0, 0.0, 700.0, 0.0]);
}
