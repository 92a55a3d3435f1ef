//! Helpers shared by the Halite tests: small hand-made boards.
#![allow(dead_code)]

use ludus_engine::halite::{Config, Halite, Num, Ship, Shipyard, Uid};
use ludus_engine::{Game, Rejection};

/// The reference's configuration on a `size` × `size` board.
pub fn config(size: usize) -> Config {
    let mut c = Config::with_seed(0);
    c.size = size;
    c
}

/// A uid from its text, e.g. `"0-1"`.
pub fn uid(text: &str) -> Uid {
    Uid::parse(text).expect("a uid like 3-1")
}

/// A ship of `owner` on cell `pos` with `cargo` (an int).
pub fn ship(id: &str, owner: usize, pos: usize, cargo: i64) -> Ship {
    Ship::new(uid(id), owner, pos, Num::Int(cargo))
}

/// A shipyard of `owner` on cell `pos`.
pub fn yard(id: &str, owner: usize, pos: usize) -> Shipyard {
    Shipyard::new(uid(id), owner, pos)
}

/// A board of `config` at step `step` with every cell holding int 0 but
/// those listed, the assets in board order, and the banks (ints).
pub fn board_with(
    config: Config,
    step: u32,
    cells: &[(usize, Num)],
    ships: Vec<Ship>,
    yards: Vec<Shipyard>,
    banks: &[i64],
) -> Halite {
    let mut halite = vec![Num::Int(0); config.size * config.size];
    for &(pos, h) in cells {
        halite[pos] = h;
    }
    let banks = banks.iter().map(|b| Num::Int(*b)).collect();
    Halite::from_parts(config, step, halite, ships, yards, banks).expect("a valid test board")
}

/// A 5 × 5 board (cell = row * 5 + column) at step 10 with the default rules.
pub fn board(
    cells: &[(usize, Num)],
    ships: Vec<Ship>,
    yards: Vec<Shipyard>,
    banks: &[i64],
) -> Halite {
    board_with(config(5), 10, cells, ships, yards, banks)
}

/// Steps with one answer per seat; `""` is no answer.
pub fn step(g: &mut Halite, answers: &[&str]) -> Vec<Rejection> {
    let answers: Vec<Option<&str>> = answers
        .iter()
        .map(|a| if a.is_empty() { None } else { Some(*a) })
        .collect();
    g.step(&answers)
}

/// The ship with this uid, if it is on the board.
pub fn find_ship<'a>(g: &'a Halite, id: &str) -> Option<&'a Ship> {
    g.ships().iter().find(|s| s.uid == uid(id))
}

/// The uids of every ship, in board order.
pub fn ship_uids(g: &Halite) -> Vec<String> {
    g.ships().iter().map(|s| s.uid.to_string()).collect()
}

/// The uids of every shipyard, in board order.
pub fn yard_uids(g: &Halite) -> Vec<String> {
    g.shipyards().iter().map(|y| y.uid.to_string()).collect()
}

/// A cell's halite as the reference prints it (`500`, `500.0`).
pub fn cell_text(g: &Halite, pos: usize) -> String {
    let mut s = String::new();
    g.halite()[pos].write_json(&mut s);
    s
}

/// A number as the reference prints it.
pub fn num_text(n: Num) -> String {
    let mut s = String::new();
    n.write_json(&mut s);
    s
}

/// The seat's reference observation.
pub fn reference(g: &Halite, seat: usize) -> String {
    let mut s = String::new();
    g.reference_observation(seat, &mut s);
    s
}
