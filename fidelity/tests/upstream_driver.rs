//! The reference side of the harness on its own: the venv, the driver, the
//! line format.

use ludus_fidelity::{upstream_boards, Json};

#[test]
fn boards_come_one_line_per_seed_with_seat_zeros_observation() {
    let boards = upstream_boards("halite", 4, 5..8).expect("upstream runs");
    let seeds: Vec<u64> = boards.iter().map(|(s, _)| *s).collect();
    assert_eq!(seeds, vec![5, 6, 7]);
    for (seed, obs) in &boards {
        assert_eq!(obs.get("player"), Some(&Json::Int(0)), "seed {seed}");
        assert_eq!(obs.get("step"), Some(&Json::Int(0)), "seed {seed}");
        let Some(Json::Array(halite)) = obs.get("halite") else {
            panic!("seed {seed}: no halite list")
        };
        assert_eq!(halite.len(), 21 * 21, "seed {seed}");
    }
    assert_ne!(
        boards[0].1, boards[1].1,
        "different seeds, different boards"
    );
}
