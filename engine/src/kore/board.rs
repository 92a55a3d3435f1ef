//! The starting board, as upstream's `populate_board` makes it from
//! `configuration.randomSeed`: kore seeds spread over a quarter, random
//! sprouts, a richer centre corner, mirrored into all four quarters, scaled
//! to `startingKore`; one shipyard per player at fixed places.

use super::config::Config;
use crate::pyrng::{NumpyRandomState, PyRandom};

/// Cell kore of the generated board, as ints (index `row * size + col`,
/// row 0 at the top, as upstream's `observation.kore`).
// Index loops mirror upstream's, whose in-place updates depend on their order.
#[allow(clippy::needless_range_loop)]
pub fn generate_kore(config: &Config) -> Vec<i64> {
    let size = config.size;
    let seed = config.random_seed;
    let mut np = NumpyRandomState::new(seed);
    let mut py = PyRandom::new(u128::from(seed));
    let half = size.div_ceil(2);
    let h = half as i64;

    // A few kore seeds: anywhere in the quarter, and weighted to the centre.
    let mut grid = vec![vec![0i64; half]; half];
    for i in 0..h {
        let r = py.randint(0, h - 1) as usize;
        let c = py.randint(0, h - 1) as usize;
        grid[r][c] = i * i;
        let r = py.randint(h / 2, h - 1) as usize;
        let c = py.randint(h / 2, h - 1) as usize;
        grid[r][c] = i * i;
    }

    // Spread them: the radius is min(round(sqrt(value / half)), 1), so a
    // seed with radius 1 adds its own value to its cell and nothing around.
    let mut radius_grid = grid.clone();
    for r in 0..half {
        for c in 0..half {
            let value = grid[r][c];
            if value == 0 {
                continue;
            }
            let radius = ((value as f64 / half as f64).powf(0.5))
                .round_ties_even()
                .min(1.0) as i64;
            if radius >= 1 {
                radius_grid[r][c] += value;
            }
        }
    }

    // Random sprouts on about half the cells.
    let add: Vec<i64> = (0..half * half)
        .map(|_| np.gumbel(0.0, 300.0) as i64)
        .collect();
    let sparse: Vec<i64> = (0..half * half).map(|_| np.binomial(1, 0.5)).collect();
    for r in 0..half {
        for c in 0..half {
            let k = r * half + c;
            radius_grid[r][c] += add[k].max(0) * sparse[k];
        }
    }

    // More in the corner nearest the centre.
    let q = half / 4;
    let corner: Vec<i64> = (0..q * q).map(|_| np.gumbel(0.0, 500.0) as i64).collect();
    for r in 0..q {
        for c in 0..q {
            radius_grid[half - q + r][half - q + c] += corner[r * q + c].max(0);
        }
    }

    // Mirror across the anti-diagonal, in place and in upstream's order.
    for i in 0..half {
        for j in 0..half {
            if i + j < half {
                radius_grid[i][j] = radius_grid[j][i];
            }
        }
    }

    let total: i64 = radius_grid.iter().map(|row| row.iter().sum::<i64>()).sum();
    let mut kore = vec![0i64; size * size];
    for (r, row) in radius_grid.iter().enumerate() {
        for (c, &val) in row.iter().enumerate() {
            // numpy: int64 * int, then true division as float64.
            let v = ((val * config.starting_kore) as f64 / total as f64 / 4.0) as i64;
            kore[size * r + c] = v;
            kore[size * r + (size - c - 1)] = v;
            kore[size * (size - 1) - size * r + c] = v;
            kore[size * (size - 1) - size * r + (size - c - 1)] = v;
        }
    }
    kore
}

/// Each player's starting shipyard cell (upstream's `starting_positions`
/// for 2 and 4 players).
pub fn starting_positions(size: usize, players: usize) -> Vec<usize> {
    if players == 2 {
        vec![
            size * (size / 2 - size / 4) + size / 4,
            size * (size / 2 + size / 4) + (3 * size).div_ceil(4) - 1,
        ]
    } else {
        vec![
            size * (size / 4 + 1) + size / 4 - 1,
            size * (size / 4 - 1) + 3 * size / 4 - 1,
            size * (3 * size / 4 + 1) + size / 4 + 1,
            size * (3 * size / 4 - 1) + 3 * size / 4 + 1,
        ]
    }
}
