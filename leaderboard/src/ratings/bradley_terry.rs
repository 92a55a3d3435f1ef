//! Bradley–Terry ratings: the order-free maximum-likelihood fit over every
//! pairwise result, on the Elo scale, with 95% intervals.
//!
//! # Model
//!
//! Each bot i has a strength θᵢ (natural-log units). In a pairing of i and j,
//! i scores with probability `P(i beats j) = σ(θᵢ − θⱼ) = 1 / (1 + e^(θⱼ−θᵢ))`
//! (Bradley & Terry 1952; the logistic Elo model). A draw counts as half a win
//! and half a loss ("ties as half", as Elo does), so a pair of bots that met in
//! `n` games where i scored `w` points contributes
//!
//! ```text
//! w·ln σ(θᵢ − θⱼ) + (n − w)·ln σ(θⱼ − θᵢ)
//! ```
//!
//! to the log-likelihood. A game of k seats is split into its k(k−1)/2 pairs
//! of seats, scored by placement, each weighted `1/(k−1)`, so every game weighs
//! one game per bot whatever the table size, as in [`super::elo`]. (The pairs of
//! one table are not independent; the weighting keeps them from counting as
//! k−1 separate games in the intervals.)
//!
//! # Prior
//!
//! A bot that won (or lost) every game has no finite maximum-likelihood
//! rating, and the model only fixes differences. Both are cured by a small
//! prior: every bot gets `prior_games` virtual games (default 1: one virtual
//! draw) against a fixed reference of strength 0, scored as draws, that is the
//! term `prior_games · (½ ln σ(θᵢ) + ½ ln σ(−θᵢ))`. It pulls ratings towards
//! the reference by about as much as one drawn game would, which is negligible
//! after a few dozen games. With it the log-likelihood is strictly concave and
//! has one finite maximum; a bot with no games sits at the reference.
//!
//! # Fit
//!
//! Newton's method on the penalised log-likelihood, from θ = 0, with step
//! halving whenever a full step would lower it, until the largest step is below
//! `tolerance` or after `max_iterations` iterations. Each step solves
//! `F·δ = g` by Cholesky, where g is the gradient and F the observed Fisher
//! information (minus the Hessian):
//!
//! ```text
//! gᵢ  = Σⱼ (wᵢⱼ − nᵢⱼ·pᵢⱼ)  + prior·(½ − σ(θᵢ))          pᵢⱼ = σ(θᵢ − θⱼ)
//! Fᵢᵢ = Σⱼ nᵢⱼ·pᵢⱼ(1 − pᵢⱼ) + prior·σ(θᵢ)(1 − σ(θᵢ))
//! Fᵢⱼ = −nᵢⱼ·pᵢⱼ(1 − pᵢⱼ)
//! ```
//!
//! (The model and its likelihood: Hunter, "MM algorithms for generalized
//! Bradley–Terry models", Annals of Statistics 32, 2004; Agresti,
//! *Categorical Data Analysis*, ch. 11. Newton–Raphson is the usual
//! alternative to Hunter's MM iteration: it converges quadratically, in a
//! handful of steps, and needs the information matrix that the intervals use
//! anyway.) The loops run in bot-index order and
//! the counts are accumulated exactly, so the fit is bit-identical for any
//! order of the games.
//!
//! # Reported numbers
//!
//! Ratings are on the Elo scale, `Rᵢ = 400/ln 10 · (θᵢ − θ̄)`: centred so that
//! their mean is 0 (add 1500 for display if wished); a difference of 400 means
//! 10:1 odds. Standard errors come from the inverse of F at the maximum (the
//! Laplace/Wald approximation) for the centred contrasts `θᵢ − θ̄`, and the 95%
//! interval is `Rᵢ ± 1.96·sdᵢ`. The full covariance is kept, so the error of a
//! difference `Rᵢ − Rⱼ` is available too ([`BradleyTerryFit::diff_sd`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{validate_games, GameResult, RatingError};

/// Elo points per natural-log unit of strength: 400 / ln 10 ≈ 173.72.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The 0.975 quantile of the standard normal distribution (for 95% intervals).
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Bradley–Terry fit parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BradleyTerryConfig {
    /// Virtual drawn games of every bot against the reference (must be > 0).
    /// Default 1.
    pub prior_games: f64,
    /// Stop when the largest Newton step (natural-log units) is below this.
    /// Default 1e-10.
    pub tolerance: f64,
    /// Give up after this many Newton steps. Default 100 (a fit usually takes
    /// fewer than 10).
    pub max_iterations: u32,
}

impl Default for BradleyTerryConfig {
    fn default() -> Self {
        BradleyTerryConfig {
            prior_games: 1.0,
            tolerance: 1e-10,
            max_iterations: 100,
        }
    }
}

impl BradleyTerryConfig {
    fn check(&self) -> Result<(), RatingError> {
        if !(self.prior_games.is_finite() && self.prior_games > 0.0) {
            return Err(RatingError::InvalidConfig(format!(
                "prior_games must be finite and positive, got {}",
                self.prior_games
            )));
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return Err(RatingError::InvalidConfig(format!(
                "tolerance must be finite and positive, got {}",
                self.tolerance
            )));
        }
        if self.max_iterations == 0 {
            return Err(RatingError::InvalidConfig(
                "max_iterations must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// Aggregated results of one pair of bots: `games` (weighted) played between
/// `a` and `b`, of which `a` scored `score_a` points (draws count ½).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairRecord {
    /// One bot.
    pub a: usize,
    /// The other bot.
    pub b: usize,
    /// Number of (weighted) games between them.
    pub games: f64,
    /// Points scored by `a` in those games, in `0..=games`.
    pub score_a: f64,
}

/// Splits games into pairs and sums them per pair, exactly: the result is
/// sorted by `(a, b)` with `a < b` and does not depend on the order of the
/// games. A game of k seats gives each of its pairs weight `1/(k−1)`.
pub fn pair_records(n_bots: usize, games: &[GameResult]) -> Result<Vec<PairRecord>, RatingError> {
    validate_games(games, n_bots)?;
    // (a, b, seats) -> (games, half-points of a): integers, so exact and
    // independent of the order of summation.
    let mut tally: BTreeMap<(usize, usize, usize), (u64, u64)> = BTreeMap::new();
    for game in games {
        let seats = game.seats();
        for (a, b, outcome) in game.pairs() {
            let half_points = (outcome.score() * 2.0) as u64;
            let (key, half_points) = if a < b {
                ((a, b, seats), half_points)
            } else {
                ((b, a, seats), 2 - half_points)
            };
            let entry = tally.entry(key).or_insert((0, 0));
            entry.0 += 1;
            entry.1 += half_points;
        }
    }
    let mut records: Vec<PairRecord> = Vec::new();
    for (&(a, b, seats), &(count, half_points)) in &tally {
        let weight = 1.0 / (seats as f64 - 1.0);
        let games = count as f64 * weight;
        let score_a = half_points as f64 * 0.5 * weight;
        match records.last_mut() {
            Some(last) if last.a == a && last.b == b => {
                last.games += games;
                last.score_a += score_a;
            }
            _ => records.push(PairRecord {
                a,
                b,
                games,
                score_a,
            }),
        }
    }
    Ok(records)
}

/// The result of a Bradley–Terry fit. Bots are indexed as in the input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BradleyTerryFit {
    /// Ratings on the Elo scale, mean 0.
    pub ratings: Vec<f64>,
    /// Standard error of each rating (Elo).
    pub sd: Vec<f64>,
    /// Covariance of the centred ratings (Elo²), row-major `n × n`.
    pub covariance: Vec<f64>,
    /// Newton steps taken.
    pub iterations: u32,
    /// Whether the last step was below the tolerance.
    pub converged: bool,
}

impl BradleyTerryFit {
    /// Number of bots.
    pub fn len(&self) -> usize {
        self.ratings.len()
    }

    /// Whether there are no bots.
    pub fn is_empty(&self) -> bool {
        self.ratings.is_empty()
    }

    /// Half-width of the 95% interval of a bot's rating: `1.96·sd`.
    pub fn ci95(&self, bot: usize) -> f64 {
        Z_95 * self.sd[bot]
    }

    /// The 95% interval `(low, high)` of a bot's rating.
    pub fn interval(&self, bot: usize) -> (f64, f64) {
        let half = self.ci95(bot);
        (self.ratings[bot] - half, self.ratings[bot] + half)
    }

    /// Covariance of two ratings (Elo²).
    pub fn cov(&self, a: usize, b: usize) -> f64 {
        self.covariance[a * self.ratings.len() + b]
    }

    /// Standard error of the difference `ratings[a] − ratings[b]` (Elo).
    pub fn diff_sd(&self, a: usize, b: usize) -> f64 {
        (self.cov(a, a) + self.cov(b, b) - 2.0 * self.cov(a, b))
            .max(0.0)
            .sqrt()
    }

    /// The model's expected score of `a` against `b`:
    /// `1 / (1 + 10^((R_b − R_a)/400))`.
    pub fn expected_score(&self, a: usize, b: usize) -> f64 {
        1.0 / (1.0 + 10f64.powf((self.ratings[b] - self.ratings[a]) / 400.0))
    }

    /// Bot indices from the highest rating to the lowest; equal ratings keep
    /// index order.
    pub fn standings(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.ratings.len()).collect();
        order.sort_by(|&a, &b| self.ratings[b].total_cmp(&self.ratings[a]).then(a.cmp(&b)));
        order
    }
}

/// Fits Bradley–Terry ratings of `n_bots` bots to `games` (any order).
pub fn fit(
    n_bots: usize,
    games: &[GameResult],
    config: BradleyTerryConfig,
) -> Result<BradleyTerryFit, RatingError> {
    let records = pair_records(n_bots, games)?;
    fit_pairs(n_bots, &records, config)
}

/// Fits Bradley–Terry ratings to aggregated pair records (for a store that
/// keeps per-pair totals). Records of the same pair are summed in the order
/// given; `a == b` records are ignored.
pub fn fit_pairs(
    n_bots: usize,
    records: &[PairRecord],
    config: BradleyTerryConfig,
) -> Result<BradleyTerryFit, RatingError> {
    config.check()?;
    for (i, r) in records.iter().enumerate() {
        if r.a >= n_bots || r.b >= n_bots {
            return Err(RatingError::UnknownBot {
                game: i,
                bot: r.a.max(r.b),
                n_bots,
            });
        }
        if !(r.games.is_finite()
            && r.score_a.is_finite()
            && r.games >= 0.0
            && (0.0..=r.games).contains(&r.score_a))
        {
            return Err(RatingError::InvalidConfig(format!(
                "pair record {i}: score {} out of {} games",
                r.score_a, r.games
            )));
        }
    }
    let n = n_bots;
    // Dense symmetric tables: games[i][j] and score[i][j] (points of i vs j).
    let mut games = vec![0.0; n * n];
    let mut score = vec![0.0; n * n];
    for r in records.iter().filter(|r| r.a != r.b) {
        games[r.a * n + r.b] += r.games;
        games[r.b * n + r.a] += r.games;
        score[r.a * n + r.b] += r.score_a;
        score[r.b * n + r.a] += r.games - r.score_a;
    }
    let problem = Problem {
        n,
        games,
        score,
        prior: config.prior_games,
    };

    let mut theta = vec![0.0; n];
    let mut iterations = 0;
    let mut converged = n == 0;
    let mut objective = problem.log_likelihood(&theta);
    while !converged && iterations < config.max_iterations {
        iterations += 1;
        let (gradient, information) = problem.gradient_information(&theta);
        let chol = cholesky(n, &information).ok_or_else(not_positive_definite)?;
        let step = chol.solve(&gradient);
        // Newton step, halved while it would lower the objective.
        let mut t = 1.0;
        let mut candidate: Vec<f64>;
        let mut value;
        loop {
            candidate = theta.iter().zip(&step).map(|(x, d)| x + t * d).collect();
            value = problem.log_likelihood(&candidate);
            if value >= objective || t < 1e-12 {
                break;
            }
            t *= 0.5;
        }
        let largest = step.iter().fold(0.0f64, |m, d| m.max((t * d).abs()));
        theta = candidate;
        objective = value;
        converged = largest < config.tolerance;
    }

    // Covariance of the centred strengths C·θ (C = I − 11ᵀ/n): C·F⁻¹·C,
    // with F the information at the maximum.
    let (_, information) = problem.gradient_information(&theta);
    let chol = cholesky(n, &information).ok_or_else(not_positive_definite)?;
    let centred = chol.centred_inverse();

    let mean = if n > 0 {
        theta.iter().sum::<f64>() / n as f64
    } else {
        0.0
    };
    let ratings: Vec<f64> = theta.iter().map(|t| ELO_PER_NAT * (t - mean)).collect();
    let scale2 = ELO_PER_NAT * ELO_PER_NAT;
    let covariance: Vec<f64> = centred.iter().map(|c| scale2 * c).collect();
    let sd = (0..n)
        .map(|i| covariance[i * n + i].max(0.0).sqrt())
        .collect();
    Ok(BradleyTerryFit {
        ratings,
        sd,
        covariance,
        iterations,
        converged,
    })
}

fn not_positive_definite() -> RatingError {
    RatingError::InvalidConfig("Fisher information is not positive definite".into())
}

/// `ln σ(x) = −ln(1 + e^(−x))`, without overflow.
fn ln_sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// `σ(x) = 1 / (1 + e^(−x))`.
fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

struct Problem {
    n: usize,
    games: Vec<f64>,
    score: Vec<f64>,
    prior: f64,
}

impl Problem {
    /// Penalised log-likelihood (data plus prior), up to a constant.
    fn log_likelihood(&self, theta: &[f64]) -> f64 {
        let n = self.n;
        let mut total = 0.0;
        for i in 0..n {
            for j in i + 1..n {
                let g = self.games[i * n + j];
                if g > 0.0 {
                    let w = self.score[i * n + j];
                    let d = theta[i] - theta[j];
                    total += w * ln_sigmoid(d) + (g - w) * ln_sigmoid(-d);
                }
            }
            total += self.prior * 0.5 * (ln_sigmoid(theta[i]) + ln_sigmoid(-theta[i]));
        }
        total
    }

    /// Gradient and observed information (minus the Hessian), row-major.
    fn gradient_information(&self, theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let n = self.n;
        let mut gradient = vec![0.0; n];
        let mut information = vec![0.0; n * n];
        for i in 0..n {
            for j in i + 1..n {
                let g = self.games[i * n + j];
                if g > 0.0 {
                    let p = sigmoid(theta[i] - theta[j]);
                    let residual = self.score[i * n + j] - g * p;
                    gradient[i] += residual;
                    gradient[j] -= residual;
                    let v = g * p * (1.0 - p);
                    information[i * n + i] += v;
                    information[j * n + j] += v;
                    information[i * n + j] -= v;
                    information[j * n + i] -= v;
                }
            }
            let q = sigmoid(theta[i]);
            gradient[i] += self.prior * (0.5 - q);
            information[i * n + i] += self.prior * q * (1.0 - q);
        }
        (gradient, information)
    }
}

/// Lower-triangular Cholesky factor `L` (row-major) of a symmetric positive
/// definite matrix.
struct Cholesky {
    n: usize,
    l: Vec<f64>,
}

fn cholesky(n: usize, a: &[f64]) -> Option<Cholesky> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut sum = a[i * n + j];
            for k in 0..j {
                sum -= l[i * n + k] * l[j * n + k];
            }
            if i == j {
                if !(sum > 0.0 && sum.is_finite()) {
                    return None;
                }
                l[i * n + i] = sum.sqrt();
            } else {
                l[i * n + j] = sum / l[j * n + j];
            }
        }
    }
    Some(Cholesky { n, l })
}

impl Cholesky {
    /// Solves `L·Lᵀ·x = b`.
    fn solve(&self, b: &[f64]) -> Vec<f64> {
        let (n, l) = (self.n, &self.l);
        let mut y = vec![0.0; n];
        for i in 0..n {
            let mut sum = b[i];
            for k in 0..i {
                sum -= l[i * n + k] * y[k];
            }
            y[i] = sum / l[i * n + i];
        }
        let mut x = vec![0.0; n];
        for i in (0..n).rev() {
            let mut sum = y[i];
            for k in i + 1..n {
                sum -= l[k * n + i] * x[k];
            }
            x[i] = sum / l[i * n + i];
        }
        x
    }

    /// `C·(L·Lᵀ)⁻¹·C` with `C = I − 11ᵀ/n`, row-major (symmetrised).
    ///
    /// Solved column by column as `C·solve(c_j)` with the centred unit vectors
    /// `c_j = e_j − 1/n`, rather than by centring the full inverse: when the
    /// prior is weak the inverse has huge entries along the all-ones direction
    /// (the ratings' common offset is barely determined) whose cancellation
    /// would lose precision, while the solves stay of the size of the result.
    fn centred_inverse(&self) -> Vec<f64> {
        let n = self.n;
        let mut out = vec![0.0; n * n];
        let mut c = vec![-1.0 / n as f64; n];
        for j in 0..n {
            c[j] += 1.0;
            let column = self.solve(&c);
            c[j] -= 1.0;
            let mean = column.iter().sum::<f64>() / n as f64;
            for i in 0..n {
                out[i * n + j] = column[i] - mean;
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let m = 0.5 * (out[i * n + j] + out[j * n + i]);
                out[i * n + j] = m;
                out[j * n + i] = m;
            }
        }
        out
    }
}
