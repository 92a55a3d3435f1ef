//! Sequential probability ratio test (SPRT) on game pairs, as chess engine
//! testing does it (fishtest, cutechess-cli, OpenBench): "is bot A at least
//! `elo1` stronger than bot B, or at most `elo0`?", stopping as soon as the
//! evidence is strong enough either way.
//!
//! # Pentanomial model
//!
//! Games come in pairs: two games on the same seed with the seats swapped, so
//! that seat and map advantages cancel. A pair's score for the tested bot is
//! 0, ½, 1, 1½ or 2 points; the test keeps five counts, `counts[k]` = the
//! number of pairs in which the tested bot scored `k/2` points (`[LL, LD+DL,
//! LW+DD+WL, DW+WD, WW]`). Treating the pair, not the game, as the unit keeps
//! the correlation between the two games of a pair in the variance.
//!
//! # Log-likelihood ratio
//!
//! The hypotheses are on the logistic Elo difference; `elo` maps to an
//! expected per-game score `s(elo) = 1 / (1 + 10^(−elo/400))`, so H0 is
//! `score = s0 = s(elo0)` and H1 is `score = s1 = s(elo1)`. The outcome
//! distribution is otherwise free, so the test is the *generalised* SPRT
//! (GSPRT) of fishtest's `LLRcalc.LLR_logistic` (Michel Van den Bergh,
//! "Support for the MLE of a multinomial distribution with a given
//! expectation value"):
//!
//! 1. Regularise: a count of zero becomes 0.001 (so that every outcome has
//!    positive probability). Let `N = Σ counts` and `p̂ₖ = countsₖ / N` be the
//!    empirical distribution over the per-game scores `aₖ = k/4` (a pair's
//!    score divided by two).
//! 2. For `s ∈ {s0, s1}`, the maximum-likelihood distribution with mean `s`
//!    is `pₖ(s) = p̂ₖ / (1 + x·(aₖ − s))`, where x is the root of the secular
//!    equation `Σ p̂ₖ·(aₖ − s) / (1 + x·(aₖ − s)) = 0` in
//!    `(−1/(1 − s), 1/s)` (found here by bisection to full precision).
//! 3. `LLR = N · Σ p̂ₖ · ln(pₖ(s1) / pₖ(s0))`.
//!
//! [`llr_normal_approx`] gives the well-known approximation
//! `LLR ≈ N·(s1 − s0)·(2·x̄ − s0 − s1) / (2·v)`, with x̄ and v the mean and
//! variance of `aₖ` under `p̂` (fishtest's `LLR_alt2`), for comparison.
//!
//! # Decision
//!
//! With false-positive rate α and false-negative rate β (both 0.05 by
//! default), Wald's bounds are `A = ln(β/(1−α))` and `B = ln((1−β)/α)`
//! (±2.944 for 0.05/0.05): accept H1 when `LLR ≥ B`, H0 when `LLR ≤ A`, and
//! continue in between.
//!
//! # Elo estimate, error and LOS
//!
//! As fishtest's `stat_util.get_elo`, on the regularised counts: the per-game
//! mean score `μ = Σ countsₖ·(k/2) / (2N)`, the per-game variance
//! `σ² = Σ countsₖ·(k/2 − 2μ)² / (2N)` (the pair variance over two), and
//! `se = σ / sqrt(2N)`. The Elo is `elo(μ) = −400·log10(1/μ − 1)` (μ clamped to
//! `[0.001, 0.999]`), the 95% error is `(elo(μ + 1.96·se) − elo(μ − 1.96·se))/2`,
//! and the likelihood of superiority is `LOS = Φ((μ − ½) / se)`, the
//! probability under the normal approximation that the tested bot is the
//! stronger one.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

use crate::ratings::Outcome;

/// The 0.975 quantile of the standard normal distribution.
const Z_975: f64 = 1.959_963_984_540_054;

/// Stand-in for a zero count (fishtest's `regularize`).
const REGULARIZATION: f64 = 1e-3;

/// One of the two hypotheses of the test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hypothesis {
    /// The Elo difference is at most `elo0`: no (sufficient) gain.
    H0,
    /// The Elo difference is at least `elo1`: the tested bot is stronger.
    H1,
}

/// An SPRT configuration was out of range.
#[derive(Clone, Debug, PartialEq, Error)]
#[error("invalid SPRT configuration: {0}")]
pub struct SprtError(String);

/// SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SprtConfig {
    /// H0: Elo difference (logistic) ≤ `elo0`. Default 0.
    pub elo0: f64,
    /// H1: Elo difference (logistic) ≥ `elo1`. Default 10.
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds). Default 0.05.
    pub alpha: f64,
    /// False-negative rate (accepting H0 when H1 holds). Default 0.05.
    pub beta: f64,
}

impl Default for SprtConfig {
    fn default() -> Self {
        SprtConfig {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl SprtConfig {
    /// Checks the parameters: finite `elo0 < elo1`, `α, β` in (0, 1) with
    /// `α + β < 1`.
    pub fn validate(&self) -> Result<(), SprtError> {
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(SprtError(format!(
                "need finite elo0 < elo1, got {} and {}",
                self.elo0, self.elo1
            )));
        }
        let in_unit = |x: f64| x > 0.0 && x < 1.0;
        if !(in_unit(self.alpha) && in_unit(self.beta) && self.alpha + self.beta < 1.0) {
            return Err(SprtError(format!(
                "need alpha, beta in (0, 1) with alpha + beta < 1, got {} and {}",
                self.alpha, self.beta
            )));
        }
        Ok(())
    }

    /// Wald's bounds `(A, B) = (ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        sprt_bounds(self.alpha, self.beta)
    }
}

/// The configuration as `--sprt` writes it and [`SprtBounds`] reads it:
/// `elo0=0,elo1=10,alpha=0.05,beta=0.05`.
impl fmt::Display for SprtConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

/// An SPRT's bounds; each left out takes `ludus match-up`'s default
/// (elo0 0, elo1 10, alpha 0.05, beta 0.05).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct SprtBounds {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo0: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo1: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
}

impl SprtBounds {
    /// The configuration: each bound given, and [`SprtConfig::default`]'s
    /// for the others (not validated: [`SprtConfig::validate`]).
    pub fn config(self) -> SprtConfig {
        let d = SprtConfig::default();
        SprtConfig {
            elo0: self.elo0.unwrap_or(d.elo0),
            elo1: self.elo1.unwrap_or(d.elo1),
            alpha: self.alpha.unwrap_or(d.alpha),
            beta: self.beta.unwrap_or(d.beta),
        }
    }
}

/// Why a text is not [`SprtBounds`].
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SprtParseError {
    /// A part without `=`.
    #[error("`{0}` is not key=value")]
    NotKeyValue(String),
    /// A value that is not a number.
    #[error("`{text}` is not a number")]
    NotANumber {
        text: String,
        #[source]
        source: std::num::ParseFloatError,
    },
    /// A key other than elo0, elo1, alpha and beta.
    #[error("unknown key `{0}` (use elo0, elo1, alpha, beta)")]
    UnknownKey(String),
}

/// Reads `key=value` parts separated by commas (`elo0=0,elo1=50`), keys
/// `elo0`, `elo1`, `alpha` and `beta`, each value a number; a key given
/// twice takes its last value, and empty parts are passed over.
impl FromStr for SprtBounds {
    type Err = SprtParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut b = SprtBounds::default();
        for part in text.split(',').filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| SprtParseError::NotKeyValue(part.into()))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|source| SprtParseError::NotANumber {
                    text: v.into(),
                    source,
                })?;
            let bound = match k.trim() {
                "elo0" => &mut b.elo0,
                "elo1" => &mut b.elo1,
                "alpha" => &mut b.alpha,
                "beta" => &mut b.beta,
                other => return Err(SprtParseError::UnknownKey(other.into())),
            };
            *bound = Some(v);
        }
        Ok(b)
    }
}

/// Where `llr` stands between Wald's bounds `(lower, upper)`: 0 at the
/// lower (H0), 1 at the upper (H1), clamped to that range; the gauge an
/// SPRT's progress is drawn as, on a page and on a terminal.
pub fn llr_gauge(llr: f64, (lower, upper): (f64, f64)) -> f64 {
    ((llr - lower) / (upper - lower).max(f64::EPSILON)).clamp(0.0, 1.0)
}

/// Wald's bounds `(A, B) = (ln(β/(1−α)), ln((1−β)/α))`: accept H0 at
/// `LLR ≤ A`, H1 at `LLR ≥ B`.
pub fn sprt_bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// Expected per-game score at a logistic Elo difference:
/// `1 / (1 + 10^(−elo/400))`.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo difference of a per-game score in (0, 1):
/// `−400·log10(1/score − 1)`.
pub fn logistic_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Standard normal cumulative distribution `Φ(x) = ½·erfc(−x/√2)`.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}

/// The regularised counts, their total N and the empirical distribution.
fn regularized(counts: &[u64; 5]) -> ([f64; 5], f64) {
    let r = counts.map(|c| if c == 0 { REGULARIZATION } else { c as f64 });
    let n = r.iter().sum();
    (r, n)
}

/// Per-game scores of the five pair outcomes: `k/4`.
const VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Maximum-likelihood distribution over [`VALUES`] with mean `s`, given the
/// empirical distribution `p_hat` (all positive, summing to 1).
fn mle_with_mean(p_hat: &[f64; 5], s: f64) -> [f64; 5] {
    let a = VALUES.map(|v| v - s);
    let f = |x: f64| -> f64 {
        p_hat
            .iter()
            .zip(&a)
            .map(|(p, ai)| p * ai / (1.0 + x * ai))
            .sum()
    };
    // f decreases from +∞ at x = −1/(1−s) to −∞ at x = 1/s.
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    let mut pdf = [0.0; 5];
    for k in 0..5 {
        pdf[k] = p_hat[k] / (1.0 + x * a[k]);
    }
    pdf
}

/// The GSPRT log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) for
/// pentanomial `counts` (see the module documentation); fishtest's
/// `LLR_logistic`. Zero when there are no pairs.
pub fn llr_logistic(counts: &[u64; 5], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (r, n) = regularized(counts);
    let p_hat = r.map(|c| c / n);
    let p0 = mle_with_mean(&p_hat, logistic_score(elo0));
    let p1 = mle_with_mean(&p_hat, logistic_score(elo1));
    let per_pair: f64 = (0..5).map(|k| p_hat[k] * (p1[k].ln() - p0[k].ln())).sum();
    n * per_pair
}

/// The normal approximation of [`llr_logistic`]:
/// `N·(s1 − s0)·(2·x̄ − s0 − s1) / (2·v)`, with x̄ and v the mean and variance
/// of the per-game pair score `k/4` over the regularised counts, and N their
/// total (fishtest's `LLR_alt2`). Zero when there are no pairs.
pub fn llr_normal_approx(counts: &[u64; 5], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let (r, n) = regularized(counts);
    let mean: f64 = (0..5).map(|k| r[k] * VALUES[k]).sum::<f64>() / n;
    let var: f64 = (0..5)
        .map(|k| r[k] * (VALUES[k] - mean) * (VALUES[k] - mean))
        .sum::<f64>()
        / n;
    let (s0, s1) = (logistic_score(elo0), logistic_score(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// Elo estimate from pentanomial counts (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Estimated logistic Elo difference.
    pub elo: f64,
    /// Half-width of its 95% interval.
    pub ci95: f64,
    /// Likelihood of superiority, in [0, 1].
    pub los: f64,
    /// Mean score per game, in [0, 1].
    pub score: f64,
    /// Number of games (two per pair).
    pub games: u64,
}

/// Elo difference, 95% error and LOS from pentanomial counts (fishtest's
/// `get_elo`); `None` when there are no pairs.
pub fn elo_estimate(counts: &[u64; 5]) -> Option<EloEstimate> {
    if counts.iter().all(|&c| c == 0) {
        return None;
    }
    let clamped_elo = |mu: f64| logistic_elo(mu.clamp(1e-3, 1.0 - 1e-3));
    let (r, n) = regularized(counts);
    let games = 2.0 * n;
    let mu: f64 = (0..5).map(|k| r[k] * (k as f64 / 2.0)).sum::<f64>() / games;
    let pair_mu = 2.0 * mu;
    let var: f64 = (0..5)
        .map(|k| r[k] * (k as f64 / 2.0 - pair_mu).powi(2))
        .sum::<f64>()
        / games;
    let se = var.sqrt() / games.sqrt();
    let elo = clamped_elo(mu);
    let ci95 = (clamped_elo(mu + Z_975 * se) - clamped_elo(mu - Z_975 * se)) / 2.0;
    let los = normal_cdf((mu - 0.5) / se);
    Some(EloEstimate {
        elo,
        ci95,
        los,
        score: mu,
        games: 2 * counts.iter().sum::<u64>(),
    })
}

/// The mean score per game and its 95% interval `μ ± 1.96·se`, on the
/// regularised counts as [`elo_estimate`] computes them (whose `ci95` is
/// half the width of this interval in Elo); `None` when there are no pairs.
pub fn score_interval(counts: &[u64; 5]) -> Option<(f64, f64, f64)> {
    if counts.iter().all(|&c| c == 0) {
        return None;
    }
    let (r, n) = regularized(counts);
    let games = 2.0 * n;
    let mu: f64 = (0..5).map(|k| r[k] * (k as f64 / 2.0)).sum::<f64>() / games;
    let var: f64 = (0..5)
        .map(|k| r[k] * (k as f64 / 2.0 - 2.0 * mu).powi(2))
        .sum::<f64>()
        / games;
    let se = var.sqrt() / games.sqrt();
    Some((mu, mu - Z_975 * se, mu + Z_975 * se))
}

/// A running SPRT: feed it game pairs, ask for the decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    config: SprtConfig,
    counts: [u64; 5],
}

impl Sprt {
    /// A test with no pairs yet.
    pub fn new(config: SprtConfig) -> Result<Self, SprtError> {
        Self::from_counts(config, [0; 5])
    }

    /// A test resumed from stored pentanomial counts.
    pub fn from_counts(config: SprtConfig, counts: [u64; 5]) -> Result<Self, SprtError> {
        config.validate()?;
        Ok(Sprt { config, counts })
    }

    /// Records a pair from the tested bot's outcomes in its two games.
    pub fn add_pair(&mut self, first: Outcome, second: Outcome) {
        let half_points = (2.0 * (first.score() + second.score())) as usize;
        self.counts[half_points] += 1;
    }

    /// Records a pair by the tested bot's half-points in it (0 to 4); `None`
    /// (and nothing recorded) above 4.
    pub fn add_pair_half_points(&mut self, half_points: usize) -> Option<()> {
        *self.counts.get_mut(half_points)? += 1;
        Some(())
    }

    /// Adds pentanomial counts.
    pub fn add_counts(&mut self, counts: [u64; 5]) {
        for (c, d) in self.counts.iter_mut().zip(counts) {
            *c += d;
        }
    }

    /// The configuration.
    pub fn config(&self) -> &SprtConfig {
        &self.config
    }

    /// Pentanomial counts: `counts()[k]` pairs scored `k/2` points.
    pub fn counts(&self) -> [u64; 5] {
        self.counts
    }

    /// Number of pairs recorded.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The GSPRT log-likelihood ratio of H1 against H0 ([`llr_logistic`]).
    pub fn llr(&self) -> f64 {
        llr_logistic(&self.counts, self.config.elo0, self.config.elo1)
    }

    /// Wald's bounds `(A, B)`: H0 at `llr() ≤ A`, H1 at `llr() ≥ B`.
    pub fn bounds(&self) -> (f64, f64) {
        self.config.bounds()
    }

    /// The accepted hypothesis, or `None` to continue.
    pub fn decision(&self) -> Option<Hypothesis> {
        if self.pairs() == 0 {
            return None;
        }
        let llr = self.llr();
        let (a, b) = self.bounds();
        if llr >= b {
            Some(Hypothesis::H1)
        } else if llr <= a {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }

    /// The tested bot's mean score per game so far (a win 1, a draw ½),
    /// from the counts as they are; `None` with no pairs.
    pub fn score(&self) -> Option<f64> {
        let pairs = self.pairs();
        if pairs == 0 {
            return None;
        }
        let half_points: u64 = (0..5u64).map(|k| k * self.counts[k as usize]).sum();
        Some(half_points as f64 / (4 * pairs) as f64)
    }

    /// Elo difference, 95% error and LOS so far ([`elo_estimate`]).
    pub fn estimate(&self) -> Option<EloEstimate> {
        elo_estimate(&self.counts)
    }
}
