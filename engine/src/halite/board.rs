//! The starting board: the reference's `populate_board`, draw for draw.
//!
//! `populate_board` seeds Python's `random` and numpy's `RandomState` with
//! `randomSeed`, scatters halite "seeds" over one quadrant of
//! `half = ceil(size / 2)` cells a side, adds Gumbel-distributed sprouts,
//! normalises the total to `startingHalite` and mirrors the quadrant four
//! ways. Every step below names the upstream line it reproduces.

use crate::pyrng::{NumpyRandomState, PyRandom};

/// The starting halite of every cell (Python ints), row-major as in the
/// observation, or `None` when the quadrant holds no halite at all (upstream
/// divides by that total and fails).
pub fn generate_halite(size: usize, starting_halite: i64, seed: u32) -> Option<Vec<i64>> {
    let mut np = NumpyRandomState::new(seed);
    let mut py = PyRandom::new(u128::from(seed));
    let half = size.div_ceil(2);
    let h = half as i64;

    // grid[randint(0, half - 1)][randint(0, half - 1)] = i**2, then the same
    // weighted toward the centre: the row is drawn before the column.
    let mut grid = vec![vec![0i64; half]; half];
    for i in 0..h {
        let r = py.randint(0, h - 1) as usize;
        let c = py.randint(0, h - 1) as usize;
        grid[r][c] = i * i;
        let r = py.randint(h / 2, h - 1) as usize;
        let c = py.randint(h / 2, h - 1) as usize;
        grid[r][c] = i * i;
    }

    // "Spread the seeds radially": radius = min(round(sqrt(value / half)), 1).
    // The square root rounds to 1 or more exactly when value / half > 1/4
    // (round(0.5) is 0 in Python), and with radius 1 the only cell in range
    // is the seed itself, at distance 0, which adds int(value / 1 ** 0.0) =
    // value. So a seed with 4 * value > half doubles; the others stay.
    let mut radius_grid = grid.clone();
    for (row, seeds) in radius_grid.iter_mut().zip(&grid) {
        for (cell, &value) in row.iter_mut().zip(seeds) {
            if value != 0 && 4 * value > h {
                *cell += value;
            }
        }
    }

    // add_grid = gumbel(0, 300, (half, half)).astype(int), clipped at 0,
    // times binomial(1, 0.5, (half, half)); all gumbels are drawn first.
    let gumbel: Vec<i64> = (0..half * half)
        .map(|_| np.gumbel(0.0, 300.0) as i64)
        .collect();
    let sparse: Vec<i64> = (0..half * half).map(|_| np.binomial(1, 0.5)).collect();
    for (cell, (g, b)) in radius_grid
        .iter_mut()
        .flatten()
        .zip(gumbel.iter().zip(&sparse))
    {
        *cell += g.max(&0) * b;
    }

    // corner_grid = gumbel(0, 500, (half // 4, half // 4)).astype(int),
    // clipped, added to the bottom-right corner of the quadrant.
    let q = half / 4;
    for r in 0..q {
        for c in 0..q {
            let v = (np.gumbel(0.0, 500.0) as i64).max(0);
            radius_grid[half - q + r][half - q + c] += v;
        }
    }

    // val = int(val * startingHalite / total / 4), in numpy int64 then
    // float64, mirrored into the four quadrants in this order.
    let total: i64 = radius_grid.iter().flatten().sum();
    if total == 0 {
        return None;
    }
    let mut halite = vec![0i64; size * size];
    for (r, row) in radius_grid.iter().enumerate() {
        for (c, &val) in row.iter().enumerate() {
            let v = (val.wrapping_mul(starting_halite) as f64 / total as f64 / 4.0) as i64;
            halite[size * r + c] = v;
            halite[size * r + (size - c - 1)] = v;
            halite[size * (size - 1) - size * r + c] = v;
            halite[size * (size - 1) - size * r + (size - c - 1)] = v;
        }
    }
    Some(halite)
}

/// Where each seat's first ship starts, as `populate_board` places them.
pub fn starting_positions(size: usize, players: usize) -> Vec<usize> {
    match players {
        1 => vec![size * (size / 2) + size / 2],
        2 => vec![
            size * (size / 2) + size / 4,
            size * (size / 2) + (3 * size).div_ceil(4) - 1,
        ],
        _ => vec![
            size * (size / 4) + size / 4,
            size * (size / 4) + 3 * size / 4,
            size * (3 * size / 4) + size / 4,
            size * (3 * size / 4) + 3 * size / 4,
        ],
    }
}
