//! Helpers shared by the pirates tests: a small open sea to set positions
//! on, and moves by the ship whose turn it is.
#![allow(dead_code)]

use ludus_engine::pirates::{Hex, Map, Pirates, STARTS};
use ludus_engine::{Game, Rejection};
use rand_core::RngCore;
use serde_json::Value;

/// The left shop of [`open_sea`].
pub const SHOP: Hex = Hex::new(-10, 0);
/// A field next to it.
pub const AT_SHOP: Hex = Hex::new(-9, 0);
/// The flag islands of [`open_sea`]: the centre (where the flag starts),
/// one near the top and one near the bottom.
pub const FLAGS: [Hex; 3] = [Hex::CENTRE, Hex::new(5, -10), Hex::new(-5, 10)];

/// Open water but for the two shops and three flag islands; no NPCs.
pub fn open_map() -> Map {
    let mut islands = vec![SHOP, SHOP.half_turn()];
    islands.extend(FLAGS);
    let mut map = Map {
        islands,
        shops: vec![SHOP, SHOP.half_turn()],
        flag_islands: FLAGS.to_vec(),
        vortices: Vec::new(),
        flag: Hex::CENTRE,
        npc_ring: 6,
    };
    sort(&mut map);
    map.validate().expect("the test map is valid");
    map
}

/// Sorts a map's lists as a map read from JSON has them.
pub fn sort(map: &mut Map) {
    for list in [
        &mut map.islands,
        &mut map.shops,
        &mut map.flag_islands,
        &mut map.vortices,
    ] {
        list.sort_by_key(|h| h.index());
    }
}

/// A game on [`open_map`] with the NPCs taken off the sea.
pub fn open_sea() -> Pirates {
    let mut g = with_npcs(open_map());
    for k in 0..2 {
        g.npc_mut(k).alive = false;
    }
    g
}

/// A game on `map`, NPCs included.
pub fn with_npcs(map: Map) -> Pirates {
    Pirates::new(map, 1, 5000)
}

/// Puts the ship of `seat` on `(q, r)`.
pub fn place(g: &mut Pirates, seat: usize, q: i32, r: i32) {
    g.ship_mut(seat).pos = Hex::new(q, r);
}

/// Makes `seat` the one to move next (in the first round).
pub fn turn_of(g: &mut Pirates, seat: usize) {
    g.set_moves(seat as u32);
}

/// The ship to move answers `answer` (`""`: no answer at all).
pub fn answer(g: &mut Pirates, answer: &str) -> Vec<Rejection> {
    let mut answers: [Option<&str>; 4] = [None; 4];
    if !answer.is_empty() {
        answers[g.to_move()] = Some(answer);
    }
    g.step(&answers)
}

/// The ship to move answers `a`, and it must be accepted.
pub fn ok(g: &mut Pirates, a: &str) {
    let r = answer(g, a);
    assert!(r.is_empty(), "{a}: {r:?}");
}

/// The ship to move answers `a`, and it must be refused as `kind`.
pub fn refused(g: &mut Pirates, a: &str, kind: &str) {
    let r = answer(g, a);
    assert_eq!(r.len(), 1, "{a}: {r:?}");
    assert_eq!(r[0].kind, kind, "{a}: {}", r[0].reason);
}

/// `legalActions` of the seat, as words.
pub fn legal(g: &Pirates, seat: usize) -> Vec<String> {
    g.legal_actions(seat).iter().map(|a| a.name()).collect()
}

/// What `seat` sees, parsed.
pub fn observe(g: &dyn Game, seat: usize) -> Value {
    let mut s = String::new();
    g.observation(seat, &mut s);
    serde_json::from_str(&s).unwrap_or_else(|e| panic!("{e}: {s}"))
}

/// Plays to the end or `moves` moves with the ship to move picking a random
/// legal action (seeded); checks no answer is refused. Returns the state
/// hash after every move.
pub fn random_play(g: &mut Pirates, seed: u64, moves: u32) -> Vec<[u8; 32]> {
    let mut rng = ludus_engine::rng::stream(seed, "test/pirates-random-play");
    let mut hashes = vec![g.state_hash()];
    while g.outcome().is_none() && g.turn() < moves {
        let seat = g.to_move();
        let legal = legal(g, seat);
        let pick =
            (!legal.is_empty()).then(|| legal[rng.next_u32() as usize % legal.len()].clone());
        let mut answers: [Option<&str>; 4] = [None; 4];
        answers[seat] = pick.as_deref();
        let r = g.step(&answers);
        assert!(r.is_empty(), "move {}: {r:?}", g.turn());
        hashes.push(g.state_hash());
    }
    hashes
}

pub fn start(seat: usize) -> Hex {
    STARTS[seat]
}

/// One random legal move (see [`random_play`]).
pub fn one_move(g: &mut Pirates, seed: u64) {
    let next = g.turn() + 1;
    random_play(g, seed, next);
}
