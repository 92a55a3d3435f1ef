//! The starting board: `populate_board` of both references, draw for draw.
//!
//! Kore's and Halite's `populate_board` are one algorithm: seed Python's
//! `random` and numpy's `RandomState` with `randomSeed`, scatter seeds over a
//! quarter of `half = ceil(size / 2)` cells a side, add Gumbel-distributed
//! sprouts and a richer corner, scale the total to the starting amount and
//! mirror the quarter four ways. They differ in one step, Kore's "make
//! symmetric", which [`Generator::symmetric_quarter`] switches on. Every step
//! below names the upstream lines it reproduces.

use super::pyrng::{NumpyRandomState, PyRandom};

/// What a game's `populate_board` is given.
#[derive(Debug, Clone, Copy)]
pub struct Generator {
    /// `configuration.size`.
    pub size: usize,
    /// `startingKore` or `startingHalite`: what the whole board holds,
    /// before truncation.
    pub total: i64,
    /// `configuration.randomSeed`.
    pub seed: u32,
    /// Kore mirrors the quarter across its diagonal before scaling it
    /// (`radius_grid[i][j] = radius_grid[j][i]` where `i + j < half`);
    /// Halite does not.
    pub symmetric_quarter: bool,
}

/// The starting amount of every cell (Python ints), row-major with row 0 at
/// the top, as the observation lists them; `None` when the quarter holds
/// nothing at all (upstream divides by that total and fails).
pub fn populate_board(g: Generator) -> Option<Vec<i64>> {
    let size = g.size;
    let mut np = NumpyRandomState::new(g.seed);
    let mut py = PyRandom::new(u128::from(g.seed));
    let half = size.div_ceil(2);
    let h = half as i64;

    // grid[randint(0, half - 1)][randint(0, half - 1)] = i ** 2, then the
    // same weighted toward the centre; the row is drawn before the column.
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
    let mut quarter = grid.clone();
    for (row, seeds) in quarter.iter_mut().zip(&grid) {
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
    for (cell, (g, b)) in quarter.iter_mut().flatten().zip(gumbel.iter().zip(&sparse)) {
        *cell += g.max(&0) * b;
    }

    // corner_grid = gumbel(0, 500, (half // 4, half // 4)).astype(int),
    // clipped, added to the corner of the quarter nearest the centre.
    let q = half / 4;
    for r in 0..q {
        for c in 0..q {
            let v = (np.gumbel(0.0, 500.0) as i64).max(0);
            quarter[half - q + r][half - q + c] += v;
        }
    }

    if g.symmetric_quarter {
        make_symmetric(&mut quarter);
    }

    // val = int(val * total / sum / 4), in numpy int64 then float64,
    // mirrored into the four quarters in this order.
    let sum: i64 = quarter.iter().flatten().sum();
    if sum == 0 {
        return None;
    }
    let mut cells = vec![0i64; size * size];
    for (r, row) in quarter.iter().enumerate() {
        for (c, &val) in row.iter().enumerate() {
            let v = (val.wrapping_mul(g.total) as f64 / sum as f64 / 4.0) as i64;
            cells[size * r + c] = v;
            cells[size * r + (size - c - 1)] = v;
            cells[size * (size - 1) - size * r + c] = v;
            cells[size * (size - 1) - size * r + (size - c - 1)] = v;
        }
    }
    Some(cells)
}

/// Kore's "make symmetric": `radius_grid[i][j] = radius_grid[j][i]` where
/// `i + j < half`, in place and in upstream's order.
// Index loops as upstream's: a later read sees cells written earlier.
#[allow(clippy::needless_range_loop)]
fn make_symmetric(quarter: &mut [Vec<i64>]) {
    let half = quarter.len();
    for i in 0..half {
        for j in 0..half {
            if i + j < half {
                quarter[i][j] = quarter[j][i];
            }
        }
    }
}
