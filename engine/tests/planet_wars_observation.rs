//! What a seat sees: the rule book's JSON, renumbered so every seat is player 1.

mod planet_wars_common;

use ludus_engine::planet_wars::PlanetWars;
use ludus_engine::Game;
use planet_wars_common::*;
use serde_json::{json, Value};

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    k.sort_unstable();
    k
}

#[test]
fn every_seats_observation_has_exactly_the_rule_book_keys() {
    for players in 2..=4 {
        let mut g = PlanetWars::from_seed(11, players).unwrap();
        // Play until fleets are in flight.
        play_greedy(&mut g, 12);
        assert!(!g.expeditions().is_empty());
        for seat in 0..players {
            let v = observe(&g, seat);
            assert_eq!(keys(&v), vec!["expeditions", "planets"]);
            let planets = v["planets"].as_array().unwrap();
            assert_eq!(planets.len(), g.map().planets.len());
            for p in planets {
                assert_eq!(keys(p), vec!["name", "owner", "ship_count", "x", "y"]);
                assert!(p["name"].is_string() && p["ship_count"].is_u64());
                assert!(p["x"].is_f64() && p["y"].is_f64());
                let owner = &p["owner"];
                assert!(owner.is_null() || (1..=players as u64).contains(&owner.as_u64().unwrap()));
            }
            let expeditions = v["expeditions"].as_array().unwrap();
            assert_eq!(expeditions.len(), g.expeditions().len());
            for e in expeditions {
                assert_eq!(
                    keys(e),
                    vec![
                        "destination",
                        "id",
                        "origin",
                        "owner",
                        "ship_count",
                        "turns_remaining"
                    ]
                );
                assert!(e["id"].is_u64() && e["ship_count"].is_u64());
                assert!(e["origin"].is_string() && e["destination"].is_string());
                assert!(e["turns_remaining"].as_u64().unwrap() >= 1);
                assert!((1..=players as u64).contains(&e["owner"].as_u64().unwrap()));
            }
        }
    }
}

#[test]
fn each_seat_sees_its_own_planets_as_player_one() {
    for players in 2..=4 {
        let g = PlanetWars::from_seed(5, players).unwrap();
        for seat in 0..players {
            let v = observe(&g, seat);
            for (p, map_planet) in v["planets"]
                .as_array()
                .unwrap()
                .iter()
                .zip(&g.map().planets)
            {
                let mine = map_planet.owner == Some(seat as u32 + 1);
                assert_eq!(p["owner"] == 1, mine, "seat {seat}: {p}");
            }
        }
    }
}

#[test]
fn owners_are_renumbered_round_the_table_from_each_seat() {
    let mut g = game(
        4,
        vec![
            planet("s0", 0.0, 0.0, 10, Some(1)),
            planet("s1", 0.0, 20.5, 10, Some(2)),
            planet("s2", 20.5, 0.0, 10, Some(3)),
            planet("s3", -20.5, 0.0, 10, Some(4)),
            planet("n", 0.0, -20.5, 10, None),
        ],
    );
    // One fleet per seat, so expedition owners are renumbered too.
    let names = ["s0", "s1", "s2", "s3"];
    let answers: Vec<String> = names.iter().map(|o| moves(&[(o, "n", 1)])).collect();
    let refs: Vec<Option<&str>> = answers.iter().map(|a| Some(a.as_str())).collect();
    assert!(g.step(&refs).is_empty());
    for seat in 0..4u64 {
        let v = observe(&g, seat as usize);
        let owners: Vec<Value> = v["planets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["owner"].clone())
            .collect();
        // Seat s is 1, seat s+1 is 2, ... round the table; neutral stays null.
        let want: Vec<Value> = (0..4u64)
            .map(|o| json!((o + 4 - seat) % 4 + 1))
            .chain([Value::Null])
            .collect();
        assert_eq!(owners, want, "seat {seat}");
        let fleet_owners: Vec<Value> = v["expeditions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["owner"].clone())
            .collect();
        assert_eq!(fleet_owners, want[..4].to_vec(), "seat {seat}");
    }
}

#[test]
fn the_rule_book_example_state_reads_as_in_the_rule_book() {
    let mut g = game(
        2,
        vec![
            planet("your planet", -2.0, 0.0, 1, Some(1)),
            planet("enemy planet", 2.0, 0.0, 4, Some(2)),
            planet("neutral planet", 0.0, 2.0, 2, None),
        ],
    );
    // After one turn of no moves: your planet has 2, the enemy's 5.
    idle(&mut g, 1);
    let mut text = String::from("left over from last time");
    g.observation(0, &mut text);
    assert_eq!(
        text,
        "{\"planets\":[\
         {\"name\":\"your planet\",\"x\":-2.0,\"y\":0.0,\"ship_count\":2,\"owner\":1},\
         {\"name\":\"enemy planet\",\"x\":2.0,\"y\":0.0,\"ship_count\":5,\"owner\":2},\
         {\"name\":\"neutral planet\",\"x\":0.0,\"y\":2.0,\"ship_count\":2,\"owner\":null}\
         ],\"expeditions\":[]}"
    );
    step_one(&mut g, 0, &moves(&[("your planet", "enemy planet", 2)]));
    g.observation(1, &mut text);
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["expeditions"],
        json!([{"id": 0, "ship_count": 2, "origin": "your planet", "destination": "enemy planet",
                "owner": 2, "turns_remaining": 3}])
    );
}

#[test]
fn planet_names_are_escaped_in_observations() {
    let g = game(
        2,
        vec![
            planet("quote\" back\\slash", 0.0, 0.0, 1, Some(1)),
            planet("étoile\n☄", 5.5, 0.0, 1, Some(2)),
        ],
    );
    let v = observe(&g, 0);
    assert_eq!(v["planets"][0]["name"], "quote\" back\\slash");
    assert_eq!(v["planets"][1]["name"], "étoile\n☄");
}

#[test]
fn planets_are_listed_in_map_order_and_expeditions_by_id() {
    let mut g = PlanetWars::from_seed(3, 4).unwrap();
    play_greedy(&mut g, 30);
    let v = observe(&g, 2);
    let names: Vec<&str> = v["planets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let map_names: Vec<&str> = g.map().planets.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, map_names);
    let ids: Vec<u64> = v["expeditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_u64().unwrap())
        .collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
}
