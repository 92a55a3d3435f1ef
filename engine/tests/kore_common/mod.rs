//! Small hand-made Kore boards for the rule tests.
#![allow(dead_code)]

use ludus_engine::kore::{Config, Dir, Fleet, Kore, Num, Shipyard, Uid};
use ludus_engine::{Game, Rejection};

/// Board side for the hand-made boards.
pub const SIZE: usize = 7;

pub fn config() -> Config {
    let mut c = Config::defaults(0);
    c.size = SIZE;
    c
}

/// Cell index of (row, col), row 0 at the top.
pub fn at(row: usize, col: usize) -> usize {
    row * SIZE + col
}

pub fn uid(step: u32, n: u32) -> Uid {
    Uid { step, n }
}

pub fn shipyard(owner: usize, n: u32, pos: usize, ships: i64, turns: i64) -> Shipyard {
    Shipyard::new(uid(0, n), owner, pos, ships, turns)
}

pub fn fleet(
    owner: usize,
    n: u32,
    pos: usize,
    kore: Num,
    ships: i64,
    dir: Dir,
    plan: &str,
) -> Fleet {
    Fleet::new(uid(0, n), owner, pos, kore, ships, dir, plan)
}

/// A two-player position at step 0 on an empty board: both players hold
/// 500 kore, and player 1 keeps a shipyard in the far corner so that it is
/// not eliminated unless a test wants it.
pub fn game(shipyards: Vec<Shipyard>, fleets: Vec<Fleet>) -> Kore {
    game_with(vec![Num::Int(0); SIZE * SIZE], shipyards, fleets)
}

pub fn game_with(cells: Vec<Num>, mut shipyards: Vec<Shipyard>, fleets: Vec<Fleet>) -> Kore {
    shipyards.push(Shipyard::new(uid(0, 99), 1, at(6, 6), 0, 0));
    Kore::from_parts(
        config(),
        0,
        cells,
        vec![Num::Int(500), Num::Int(500)],
        shipyards,
        fleets,
    )
}

/// A position at `step` on an empty board with exactly these players' kore,
/// shipyards and fleets.
pub fn position(
    config: Config,
    step: u32,
    kore: &[Num],
    shipyards: Vec<Shipyard>,
    fleets: Vec<Fleet>,
) -> Kore {
    let cells = vec![Num::Int(0); config.size * config.size];
    Kore::from_parts(config, step, cells, kore.to_vec(), shipyards, fleets)
}

/// Plays one step with seat 0's answer (seat 1 answers nothing).
pub fn play(game: &mut Kore, answer: &str) -> Vec<Rejection> {
    game.step(&[Some(answer), None])
}

pub fn assert_int(n: Num, expected: i64) {
    match n {
        Num::Int(i) => assert_eq!(i, expected),
        Num::Float(f) => panic!("expected the int {expected}, got the float {f:?}"),
    }
}

pub fn assert_float(n: Num, expected: f64) {
    match n {
        Num::Float(f) => assert_eq!(f.to_bits(), expected.to_bits(), "{f:?} vs {expected:?}"),
        Num::Int(i) => panic!("expected the float {expected:?}, got the int {i}"),
    }
}

pub fn fleet_by<'a>(game: &'a Kore, uid: &str) -> &'a Fleet {
    game.fleet(uid).unwrap_or_else(|| panic!("no fleet {uid}"))
}

pub fn shipyard_by<'a>(game: &'a Kore, uid: &str) -> &'a Shipyard {
    game.shipyard(uid)
        .unwrap_or_else(|| panic!("no shipyard {uid}"))
}
