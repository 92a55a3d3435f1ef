//! Helpers shared by the conquest tests: small hand-made positions, and
//! the grid games' helpers (stepping, observing, random legal play).
#![allow(dead_code)]

#[path = "../grid_common/mod.rs"]
mod grid_common;

#[allow(unused_imports)]
pub use grid_common::{keys, legal, observe, random_play, sorted, step};
use ludus_engine::conquest::{Building, CapitalMode, Conquest, Setup, Task};
use ludus_engine::Game;
use rand_core::RngCore;

/// A `width` × `height` board without walls, capitals in the corners:
/// seat 0 at (0, 0), 1 at (w−1, 0), 2 at (w−1, h−1), 3 at (0, h−1).
pub fn corners(width: usize, height: usize) -> Conquest {
    Conquest::new(
        Setup {
            width,
            height,
            walls: Vec::new(),
            capitals: CapitalMode::Corners,
            spot: width + 1,
            max_turns: 300,
            quiet_turns: 30,
        },
        7,
    )
}

/// An 8×8 board without walls, capitals in the corners.
pub fn small() -> Conquest {
    corners(8, 8)
}

/// Seat 0 holds row 0 from x = 0 to 3, seat 1 from x = 4 to 7; seat 0's
/// robot on (3, 0), next to seat 1's land.
pub fn front() -> Conquest {
    let mut g = small();
    own_row(&mut g, 0, 0, 0, 3);
    own_row(&mut g, 1, 0, 4, 7);
    place(&mut g, 0, 3, 0);
    g
}

pub fn at(g: &Conquest, x: usize, y: usize) -> usize {
    g.board().index(x, y)
}

pub fn xy(g: &Conquest, cell: usize) -> (usize, usize) {
    g.board().xy(cell)
}

/// Gives `cells` to `seat`.
pub fn own(g: &mut Conquest, seat: usize, cells: &[(usize, usize)]) {
    for &(x, y) in cells {
        let c = at(g, x, y);
        g.owner_mut()[c] = Some(seat);
    }
}

/// Gives `seat` the row `y` from `x0` to `x1`.
pub fn own_row(g: &mut Conquest, seat: usize, y: usize, x0: usize, x1: usize) {
    let cells: Vec<(usize, usize)> = (x0.min(x1)..=x0.max(x1)).map(|x| (x, y)).collect();
    own(g, seat, &cells);
}

/// Puts `seat`'s robot on (x, y), idle.
pub fn place(g: &mut Conquest, seat: usize, x: usize, y: usize) {
    let c = at(g, x, y);
    let t = g.team_mut(seat);
    t.position = c;
    t.task = Task::Idle;
}

pub fn pos(g: &Conquest, seat: usize) -> (usize, usize) {
    xy(g, g.team(seat).position)
}

/// Steps with every answer legal.
pub fn play(g: &mut Conquest, answers: [&str; 4]) {
    let r = step(g, answers);
    assert!(r.is_empty(), "turn {}: {r:?}", g.turn());
}

/// Steps `turns` times with every seat answering WAIT.
pub fn wait(g: &mut Conquest, turns: u32) {
    for _ in 0..turns {
        play(g, ["WAIT"; 4]);
    }
}

pub fn observe_text(g: &Conquest, seat: usize) -> String {
    let mut s = String::new();
    g.observation(seat, &mut s);
    s
}

/// Every seat's answer: a random pick from its `legal_actions` (`WAIT`
/// once it is out).
pub fn random_legal(g: &Conquest, rng: &mut impl RngCore) -> Vec<String> {
    (0..4)
        .map(|s| {
            let l = g.legal_actions(s);
            if l.is_empty() {
                "WAIT".into()
            } else {
                l[rng.next_u32() as usize % l.len()].clone()
            }
        })
        .collect()
}

pub fn set_garrison(g: &mut Conquest, x: usize, y: usize, soldiers: u64) {
    let c = at(g, x, y);
    g.garrison_mut()[c] = soldiers;
}

pub fn set_owner(g: &mut Conquest, x: usize, y: usize, owner: Option<usize>) {
    let c = at(g, x, y);
    g.owner_mut()[c] = owner;
}

pub fn set_building(g: &mut Conquest, x: usize, y: usize, building: Option<Building>) {
    let c = at(g, x, y);
    g.building_mut()[c] = building;
}

pub fn set_former_capital(g: &mut Conquest, x: usize, y: usize) {
    let c = at(g, x, y);
    g.former_capital_mut()[c] = true;
}
