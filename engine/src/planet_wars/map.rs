//! Maps: the rule book's planet list, its validation, and the seeded generator.
//!
//! A map is exactly the `planets` half of an observation, with owners counted
//! from seat 0: owner `k` is seat `k - 1`, `null` is neutral.

use rand_core::RngCore;
use serde::{Deserialize, Serialize};

/// Most planets a map may have.
pub const MAX_PLANETS: usize = 500;
/// Longest planet name, in bytes.
pub const MAX_NAME_LEN: usize = 64;
/// Largest absolute x or y coordinate.
pub const MAX_COORDINATE: f64 = 10_000.0;
/// Largest starting garrison of one planet.
pub const MAX_START_SHIPS: u64 = 1_000_000_000;

/// A map: the planets at the start of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Map {
    pub planets: Vec<Planet>,
}

/// One planet of a map, in the rule book's shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Planet {
    pub name: String,
    pub x: f64,
    pub y: f64,
    pub ship_count: u64,
    /// `Some(k)`: held by seat `k - 1` at the start; `None`: neutral.
    pub owner: Option<u32>,
}

impl Map {
    /// Checks that the map can host a game of `players`; the error says what to fix.
    pub fn validate(&self, players: usize) -> Result<(), String> {
        let n = self.planets.len();
        if n < 2 {
            return Err(format!("the map has {n} planet(s); it needs at least 2"));
        }
        if n > MAX_PLANETS {
            return Err(format!(
                "the map has {n} planets; at most {MAX_PLANETS} are allowed"
            ));
        }
        let mut names: Vec<&str> = Vec::with_capacity(n);
        let mut seat_has_planet = vec![false; players];
        for (i, p) in self.planets.iter().enumerate() {
            let label = format!("planet {i} ({})", short_name(&p.name));
            if p.name.is_empty() {
                return Err(format!("planet {i} has an empty name; give it a name"));
            }
            if p.name.len() > MAX_NAME_LEN {
                return Err(format!(
                    "{label}: the name is {} bytes long; at most {MAX_NAME_LEN} are allowed",
                    p.name.len()
                ));
            }
            for (axis, v) in [("x", p.x), ("y", p.y)] {
                if !v.is_finite() {
                    return Err(format!("{label}: `{axis}` must be a finite number"));
                }
                if v.abs() > MAX_COORDINATE {
                    return Err(format!(
                        "{label}: `{axis}` is {v}; coordinates must lie within ±{MAX_COORDINATE}"
                    ));
                }
            }
            if p.ship_count > MAX_START_SHIPS {
                return Err(format!(
                    "{label}: `ship_count` is {}; at most {MAX_START_SHIPS} are allowed",
                    p.ship_count
                ));
            }
            match p.owner {
                None => {}
                Some(k) if k >= 1 && (k as usize) <= players => {
                    if p.ship_count == 0 {
                        return Err(format!(
                            "{label} belongs to player {k} but has 0 ships; \
                             a player's planet needs at least 1 ship"
                        ));
                    }
                    seat_has_planet[k as usize - 1] = true;
                }
                Some(k) => {
                    return Err(format!(
                        "{label}: `owner` is {k}; it must be a player number from 1 to {players} \
                         (owner k is seat k-1) or null for a neutral planet"
                    ));
                }
            }
            names.push(&p.name);
        }
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!(
                "two planets are named {}; planet names must be unique",
                short_name(w[0])
            ));
        }
        if let Some(seat) = seat_has_planet.iter().position(|has| !has) {
            return Err(format!(
                "player {} (seat {seat}) has no planet; give every player at least one planet \
                 (`owner`: {})",
                seat + 1,
                seat + 1
            ));
        }
        Ok(())
    }
}

/// A planet or move name quoted for a message, cut short if it is long.
pub(crate) fn short_name(name: &str) -> String {
    const KEEP: usize = 40;
    if name.len() <= KEEP {
        return serde_json::to_string(name).unwrap_or_default();
    }
    let mut end = KEEP;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    let quoted = serde_json::to_string(&name[..end]).unwrap_or_default();
    format!("{}...\"", &quoted[..quoted.len() - 1])
}

/// Travel time from `a` to `b`: the ceiled euclidean distance, at least 1.
///
/// `sqrt` is correctly rounded in IEEE 754, so this is the same on every machine.
pub fn travel_time(a: (f64, f64), b: (f64, f64)) -> u32 {
    let d = distance(a, b).ceil();
    if d < 1.0 {
        1
    } else {
        d as u32
    }
}

/// Euclidean distance, computed the one deterministic way.
pub fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    let dx = a.0 - b.0;
    let dy = a.1 - b.1;
    (dx * dx + dy * dy).sqrt()
}

// ---------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------

/// Coordinates are multiples of 1/GRID (exact binary fractions).
const GRID: f64 = 16.0;
/// Map radius: every planet lies within this distance of the centre.
const RADIUS: i64 = 14;
/// Home planets lie at this range of distances from the centre.
const HOME_RADIUS: (i64, i64) = (9, 12);
/// No two planets closer than this.
const MIN_DISTANCE: f64 = 2.0;
/// Every pairwise distance has its fractional part within this range, so
/// that `ceil` cannot depend on the last bit of a computation.
const CLEARANCE: (f64, f64) = (0.05, 0.95);
/// Candidate positions tried per group of planets before giving up on it.
const ATTEMPTS: usize = 2_000;

const STAR_NAMES: [&str; 50] = [
    "Acamar",
    "Achernar",
    "Adhara",
    "Aldebaran",
    "Algol",
    "Alioth",
    "Alnair",
    "Altair",
    "Ankaa",
    "Antares",
    "Arcturus",
    "Atria",
    "Avior",
    "Bellatrix",
    "Betelgeuse",
    "Canopus",
    "Capella",
    "Castor",
    "Deneb",
    "Diphda",
    "Elnath",
    "Enif",
    "Fomalhaut",
    "Gacrux",
    "Hadar",
    "Hamal",
    "Kochab",
    "Markab",
    "Menkar",
    "Merak",
    "Mimosa",
    "Mirach",
    "Mizar",
    "Nunki",
    "Peacock",
    "Polaris",
    "Pollux",
    "Procyon",
    "Regulus",
    "Rigel",
    "Sabik",
    "Saiph",
    "Schedar",
    "Shaula",
    "Sirius",
    "Spica",
    "Suhail",
    "Thuban",
    "Vega",
    "Wezen",
];

/// A planet and its images under the map's rotation: `points[k]` is the base
/// point rotated k times. The centre planet is a group of one.
struct Group {
    points: Vec<(f64, f64)>,
    ships: u64,
    home: bool,
}

/// Rotates `p` by `k` steps of the symmetry of an `n`-player map, on the grid.
///
/// 2 players: point symmetry; 4 players: quarter turns (both exact on the
/// grid); 3 players: thirds of a turn with cos = -1/2, sin = ±√3/2, rounded
/// back to the grid. No trigonometric function is called.
///
/// # Panics
///
/// If `n` is not 2, 3 or 4.
pub fn rotate(p: (f64, f64), k: usize, n: usize) -> (f64, f64) {
    let (x, y) = p;
    let r = match (n, k % n) {
        (_, 0) => (x, y),
        (2, 1) | (4, 2) => (-x, -y),
        (4, 1) => (-y, x),
        (4, 3) => (y, -x),
        (3, k) => {
            let s = if k == 1 {
                3f64.sqrt() / 2.0
            } else {
                -(3f64.sqrt() / 2.0)
            };
            let c = -0.5;
            (snap(x * c - y * s), snap(x * s + y * c))
        }
        _ => panic!("maps are generated for 2 to 4 players"),
    };
    // `+ 0.0` turns -0.0 into 0.0.
    (r.0 + 0.0, r.1 + 0.0)
}

fn snap(v: f64) -> f64 {
    (v * GRID).round() / GRID
}

/// Uniform in `0..n` (n > 0), by rejection so that every value is equally likely.
fn below(rng: &mut impl RngCore, n: u64) -> u64 {
    let zone = u64::MAX - u64::MAX % n;
    loop {
        let v = rng.next_u64();
        if v < zone {
            return v % n;
        }
    }
}

/// Uniform in `lo..=hi`.
fn between(rng: &mut impl RngCore, lo: i64, hi: i64) -> i64 {
    lo + below(rng, (hi - lo + 1) as u64) as i64
}

/// A uniform grid point whose distance from the centre lies in `[rmin, rmax]`.
fn grid_point(rng: &mut impl RngCore, rmin: i64, rmax: i64) -> (f64, f64) {
    let g = GRID as i64;
    let (lo2, hi2) = ((rmin * g).pow(2), (rmax * g).pow(2));
    loop {
        let x = between(rng, -rmax * g, rmax * g);
        let y = between(rng, -rmax * g, rmax * g);
        let r2 = x * x + y * y;
        if r2 >= lo2 && r2 <= hi2 {
            return (x as f64 / GRID, y as f64 / GRID);
        }
    }
}

fn clear(d: f64) -> bool {
    let frac = d - d.floor();
    d >= MIN_DISTANCE && (CLEARANCE.0..=CLEARANCE.1).contains(&frac)
}

/// Whether a new group fits among the placed ones: far enough from every
/// planet, every new distance clear of whole numbers, and every travel time
/// the same as that of its rotated pair (exactly symmetric play even where
/// the 3-player rotation had to round coordinates).
fn fits(groups: &[Group], new: &[(f64, f64)]) -> bool {
    let n = new.len();
    let mut times = Vec::new();
    let check = |others: &[(f64, f64)], times: &mut Vec<u32>, skip_self: bool| -> bool {
        let l = others.len();
        times.clear();
        times.resize(n * l, 0);
        for (k, a) in new.iter().enumerate() {
            for (j, b) in others.iter().enumerate() {
                if skip_self && j == k {
                    continue;
                }
                let d = distance(*a, *b);
                if !clear(d) {
                    return false;
                }
                times[k * l + j] = d.ceil() as u32;
            }
        }
        for k in 0..n {
            for j in 0..l {
                if skip_self && j == k {
                    continue;
                }
                if times[k * l + j] != times[((k + 1) % n) * l + (j + 1) % l] {
                    return false;
                }
            }
        }
        true
    };
    for g in groups {
        if !check(&g.points, &mut times, false) {
            return false;
        }
    }
    check(new, &mut times, true)
}

/// Neutral garrison for a planet at distance `r` from the centre: richer
/// towards the centre (1..=10 at the rim, up to 10..=40 at the centre).
fn neutral_ships(rng: &mut impl RngCore, r: f64) -> u64 {
    let f = (1.0 - r / RADIUS as f64).clamp(0.0, 1.0);
    let lo = 1 + (9.0 * f) as i64;
    let hi = 10 + (30.0 * f) as i64;
    between(rng, lo, hi) as u64
}

/// Generates the map of `seed` for `players` (2 to 4): a fair map where every
/// seat is equivalent by rotation, with 15 to 30 planets, each player owning
/// one home planet.
///
/// # Panics
///
/// If `players` is not 2, 3 or 4.
pub fn generate_map(seed: u64, players: usize) -> Map {
    assert!(
        (2..=4).contains(&players),
        "planet-wars maps are generated for 2 to 4 players, not {players}"
    );
    let n = players;
    let mut rng = crate::rng::stream(seed, "planet-wars/map");
    let mut groups: Vec<Group> = Vec::new();

    if below(&mut rng, 2) == 1 {
        let ships = neutral_ships(&mut rng, 0.0);
        groups.push(Group {
            points: vec![(0.0, 0.0)],
            ships,
            home: false,
        });
    }

    let home_ships = between(&mut rng, 5, 10) as u64;
    let home = loop {
        // Only the centre can be in the way, so this ends almost at once.
        let p = grid_point(&mut rng, HOME_RADIUS.0, HOME_RADIUS.1);
        let points: Vec<_> = (0..n).map(|k| rotate(p, k, n)).collect();
        if fits(&groups, &points) {
            break points;
        }
    };
    groups.push(Group {
        points: home,
        ships: home_ships,
        home: true,
    });

    let neutral_groups = match n {
        2 => between(&mut rng, 7, 13),
        3 => between(&mut rng, 4, 8),
        _ => between(&mut rng, 3, 6),
    };
    for _ in 0..neutral_groups {
        for _ in 0..ATTEMPTS {
            let p = grid_point(&mut rng, 0, RADIUS);
            let points: Vec<_> = (0..n).map(|k| rotate(p, k, n)).collect();
            if fits(&groups, &points) {
                let r = distance(p, (0.0, 0.0));
                let ships = neutral_ships(&mut rng, r);
                groups.push(Group {
                    points,
                    ships,
                    home: false,
                });
                break;
            }
        }
    }

    let mut planets: Vec<Planet> = Vec::new();
    for g in &groups {
        for (k, &(x, y)) in g.points.iter().enumerate() {
            planets.push(Planet {
                name: String::new(),
                x,
                y,
                ship_count: g.ships,
                owner: g.home.then_some(k as u32 + 1),
            });
        }
    }
    // Random names, and the planets listed by name: the list order says
    // nothing about where a planet is or whose it is.
    let mut names = STAR_NAMES;
    for i in 0..planets.len() {
        let j = i + below(&mut rng, (names.len() - i) as u64) as usize;
        names.swap(i, j);
    }
    for (p, name) in planets.iter_mut().zip(names) {
        p.name = name.to_string();
    }
    planets.sort_by(|a, b| a.name.cmp(&b.name));
    Map { planets }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_player_rotation_three_times_is_back_home() {
        let p = (5.0625, -3.5);
        let r1 = rotate(p, 1, 3);
        let r2 = rotate(p, 2, 3);
        assert!(distance(rotate(r1, 1, 3), r2) < 0.1);
        assert!(distance(rotate(r2, 1, 3), p) < 0.1);
        assert_eq!(rotate(p, 2, 4), (-5.0625, 3.5));
        assert_eq!(rotate(p, 1, 4), (3.5, 5.0625));
    }

    #[test]
    fn travel_time_is_the_ceiled_distance_and_at_least_one() {
        assert_eq!(travel_time((0.0, 0.0), (3.0, 4.0)), 5);
        assert_eq!(travel_time((0.0, 0.0), (3.0, 4.5)), 6);
        assert_eq!(travel_time((0.0, 0.0), (0.0, 0.0)), 1);
        assert_eq!(travel_time((0.0, 0.0), (0.25, 0.0)), 1);
    }

    #[test]
    fn below_is_in_range() {
        let mut rng = crate::rng::stream(1, "test");
        for n in 1..50 {
            assert!(below(&mut rng, n) < n);
        }
    }

    #[test]
    fn short_name_cuts_long_names() {
        assert_eq!(short_name("ab"), "\"ab\"");
        let long = "é".repeat(100);
        let s = short_name(&long);
        assert!(s.len() < 50 && s.ends_with("...\""), "{s}");
    }
}
