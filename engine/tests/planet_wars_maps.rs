//! The map generator: fair by symmetry, clear of whole-number distances,
//! deterministic.

use ludus_engine::planet_wars::{generate_map, travel_time, Map, Planet};

const SEEDS: u64 = 120;

fn pos(p: &Planet) -> (f64, f64) {
    (p.x, p.y)
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (a.0 - b.0, a.1 - b.1);
    (dx * dx + dy * dy).sqrt()
}

/// One step of the map's symmetry, computed independently of the generator.
fn turn(p: (f64, f64), players: usize) -> (f64, f64) {
    let (x, y) = p;
    match players {
        2 => (-x, -y),
        4 => (-y, x),
        3 => {
            let (c, s) = (-0.5, 3f64.sqrt() / 2.0);
            (x * c - y * s, x * s + y * c)
        }
        _ => unreachable!(),
    }
}

/// For each planet, the planet it turns into (matching by position).
fn permutation(map: &Map, players: usize) -> Vec<usize> {
    // 2 and 4 players are exact on the grid; 3 players are rounded to it.
    let tolerance = if players == 3 { 0.1 } else { 0.0 };
    map.planets
        .iter()
        .map(|p| {
            let target = turn(pos(p), players);
            let hits: Vec<usize> = (0..map.planets.len())
                .filter(|&j| dist(pos(&map.planets[j]), target) <= tolerance)
                .collect();
            assert_eq!(hits.len(), 1, "{} turns into {target:?}: {hits:?}", p.name);
            hits[0]
        })
        .collect()
}

fn each_map(mut check: impl FnMut(&Map, usize, u64)) {
    for players in 2..=4 {
        for seed in 0..SEEDS {
            check(&generate_map(seed, players), players, seed);
        }
    }
}

#[test]
fn generated_maps_are_symmetric_with_owners_rotated_seat_by_seat() {
    each_map(|map, players, seed| {
        let sigma = permutation(map, players);
        for (i, p) in map.planets.iter().enumerate() {
            let q = &map.planets[sigma[i]];
            assert_eq!(
                q.ship_count, p.ship_count,
                "seed {seed}: {} -> {}",
                p.name, q.name
            );
            let rotated_owner = p.owner.map(|k| (k % players as u32) + 1);
            assert_eq!(
                q.owner, rotated_owner,
                "seed {seed}: {} -> {}",
                p.name, q.name
            );
        }
        // Applying the step `players` times comes back to every planet.
        for i in 0..map.planets.len() {
            let mut j = i;
            for _ in 0..players {
                j = sigma[j];
            }
            assert_eq!(j, i, "seed {seed}");
        }
    });
}

#[test]
fn generated_maps_give_every_seat_the_same_travel_times() {
    each_map(|map, players, seed| {
        let sigma = permutation(map, players);
        let n = map.planets.len();
        for i in 0..n {
            for j in 0..n {
                let (a, b) = (&map.planets[i], &map.planets[j]);
                let (c, d) = (&map.planets[sigma[i]], &map.planets[sigma[j]]);
                assert_eq!(
                    travel_time(pos(a), pos(b)),
                    travel_time(pos(c), pos(d)),
                    "seed {seed}, {players} players: {}-{} vs {}-{}",
                    a.name,
                    b.name,
                    c.name,
                    d.name
                );
            }
        }
    });
}

#[test]
fn generated_distances_are_at_least_two_and_clear_of_whole_numbers() {
    each_map(|map, players, seed| {
        for (i, a) in map.planets.iter().enumerate() {
            for b in &map.planets[i + 1..] {
                let d = dist(pos(a), pos(b));
                let frac = d - d.floor();
                assert!(
                    d >= 2.0,
                    "seed {seed}/{players}: {} {} at {d}",
                    a.name,
                    b.name
                );
                assert!(
                    (0.05..=0.95).contains(&frac),
                    "seed {seed}/{players}: {} {} at {d}",
                    a.name,
                    b.name
                );
            }
        }
    });
}

#[test]
fn generated_coordinates_are_on_the_sixteenth_grid() {
    each_map(|map, _, seed| {
        for p in &map.planets {
            for v in [p.x, p.y] {
                assert_eq!((v * 16.0).fract(), 0.0, "seed {seed}: {}", p.name);
                assert!(v.abs() <= 14.0);
            }
        }
    });
}

#[test]
fn generated_maps_have_15_to_30_planets_one_home_per_seat_and_fair_garrisons() {
    each_map(|map, players, seed| {
        let n = map.planets.len();
        assert!((15..=30).contains(&n), "seed {seed}/{players}: {n} planets");
        assert!(map.validate(players).is_ok());
        for seat in 1..=players as u32 {
            let homes: Vec<&Planet> = map
                .planets
                .iter()
                .filter(|p| p.owner == Some(seat))
                .collect();
            assert_eq!(homes.len(), 1, "seed {seed}");
            assert!((5..=10).contains(&homes[0].ship_count));
        }
        for p in map.planets.iter().filter(|p| p.owner.is_none()) {
            assert!((1..=40).contains(&p.ship_count), "seed {seed}: {p:?}");
        }
        let mut names: Vec<&str> = map.planets.iter().map(|p| p.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    });
}

#[test]
fn generated_travel_times_are_interesting() {
    each_map(|map, _, seed| {
        let homes: Vec<&Planet> = map.planets.iter().filter(|p| p.owner.is_some()).collect();
        for a in &homes {
            for b in &homes {
                if a.name != b.name {
                    let t = travel_time(pos(a), pos(b));
                    assert!((10..=25).contains(&t), "seed {seed}: homes {t} turns apart");
                }
            }
        }
        for a in &map.planets {
            for b in &map.planets {
                assert!(travel_time(pos(a), pos(b)) <= 29, "seed {seed}");
            }
        }
    });
}

#[test]
fn the_same_seed_gives_the_same_map_and_different_seeds_differ() {
    for players in 2..=4 {
        let mut previous: Option<Map> = None;
        for seed in 0..SEEDS {
            let map = generate_map(seed, players);
            assert_eq!(map, generate_map(seed, players));
            if let Some(prev) = previous {
                assert_ne!(map, prev, "seeds {} and {seed} give the same map", seed - 1);
            }
            previous = Some(map);
        }
    }
}

#[test]
fn a_map_serialises_in_the_rule_book_shape_and_back() {
    let map = generate_map(7, 3);
    let text = serde_json::to_string(&map).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, vec!["planets"]);
    for p in v["planets"].as_array().unwrap() {
        let mut keys: Vec<&str> = p.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        keys.sort_unstable();
        assert_eq!(keys, vec!["name", "owner", "ship_count", "x", "y"]);
        assert!(p["x"].is_f64() && p["y"].is_f64());
    }
    assert!(text.contains("\"owner\":null"));
    let back: Map = serde_json::from_str(&text).unwrap();
    assert_eq!(back, map);
}
