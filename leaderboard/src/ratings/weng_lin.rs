//! Weng–Lin Bayesian ratings (OpenSkill, Bradley–Terry full pairing) for
//! free-for-all tables of 2 to 4 (or more) seats.
//!
//! Each bot's skill is a normal belief N(μ, σ²), by default μ = 25 and
//! σ = 25/3. After a game every seat is compared with every other (the "full
//! pairing"); with `c = sqrt(σᵢ² + σ_q² + 2β²)`,
//! `p_iq = 1 / (1 + e^((μ_q − μᵢ)/c))` and `s_iq` = 1, ½ or 0 as i placed
//! better than, equal to or worse than q:
//!
//! ```text
//! Ωᵢ = Σ_q σᵢ²/c · (s_iq − p_iq)
//! Δᵢ = Σ_q γ · σᵢ²/c² · p_iq (1 − p_iq),    γ = σᵢ / c
//! μᵢ' = μᵢ + Ωᵢ
//! σᵢ' = σᵢ · sqrt(max(1 − Δᵢ, κ))
//! ```
//!
//! (Weng & Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12,
//! 2011, Algorithm 1 with the Bradley–Terry full-pairing model.) The update is
//! the `skillratings` crate's `weng_lin::weng_lin_multi_team`, each bot a
//! team of one, plus openskill's additive dynamics factor τ, added to σ before
//! each game: `σ ← sqrt(σ² + τ²)`. With the same parameters it agrees with
//! the reference implementation, the Python `openskill` package (6.2,
//! `openskill.models.BradleyTerryFull`), to rounding; the tests check this.
//!
//! Tied seats score ½ against each other and are otherwise updated
//! independently. (openskill 6.2 has a step that averages the μ changes of
//! tied teams, but it measures them on ratings already updated in place, so
//! it changes nothing; the numbers agree.)
//!
//! # Defaults
//!
//! β = 25/6, κ = 0.0001 (openskill's floor on the σ factor; `skillratings`
//! calls it the uncertainty tolerance), τ = 0. Openskill's default τ is
//! 25/300, which keeps σ from shrinking to nothing for players whose skill
//! drifts; a bot is a fixed program whose strength does not drift, so the
//! default here is 0 (set it to 25/300 to reproduce openskill's defaults).
//!
//! # Ranking
//!
//! Bots are ranked by the ordinal `μ − 3σ`, a conservative estimate (the
//! skill is above it with about 99.7% belief), so a bot with few games ranks
//! low until it has shown its strength.
//!
//! Like Elo, the result depends on the order of the games: the caller passes
//! them in schedule order.

use serde::{Deserialize, Serialize};
use skillratings::weng_lin::{
    weng_lin_multi_team, WengLinConfig as SrConfig, WengLinRating as SrRating,
};
use skillratings::MultiTeamOutcome;

use super::{GameResult, Incremental, Ladder, RatingError};

/// Default initial μ.
pub const DEFAULT_MU: f64 = 25.0;
/// Default initial σ: 25/3.
pub const DEFAULT_SIGMA: f64 = 25.0 / 3.0;
/// Default β: 25/6, the skill difference that gives about 2:1 odds.
pub const DEFAULT_BETA: f64 = 25.0 / 6.0;
/// Default κ: floor of the factor by which σ² shrinks in one game.
pub const DEFAULT_KAPPA: f64 = 0.0001;

/// A bot's skill belief: mean μ and standard deviation σ.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// Mean skill μ.
    pub mu: f64,
    /// Uncertainty σ.
    pub sigma: f64,
}

impl Skill {
    /// The ordinal `μ − 3σ` by which bots are ranked.
    pub fn ordinal(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// Weng–Lin parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WengLinConfig {
    /// Skill of a new bot. Default μ = 25, σ = 25/3.
    pub initial: Skill,
    /// Performance noise β. Default 25/6.
    pub beta: f64,
    /// Floor κ of the σ² shrink factor. Default 0.0001.
    pub kappa: f64,
    /// Additive dynamics τ, added to σ before each game. Default 0.
    pub tau: f64,
}

impl Default for WengLinConfig {
    fn default() -> Self {
        WengLinConfig {
            initial: Skill {
                mu: DEFAULT_MU,
                sigma: DEFAULT_SIGMA,
            },
            beta: DEFAULT_BETA,
            kappa: DEFAULT_KAPPA,
            tau: 0.0,
        }
    }
}

impl Incremental for WengLinConfig {
    type Rating = Skill;
    const RATINGS: &'static str = "skills";

    fn check(&self) -> Result<(), RatingError> {
        let ok = self.initial.mu.is_finite()
            && self.initial.sigma.is_finite()
            && self.initial.sigma > 0.0
            && self.beta.is_finite()
            && self.beta > 0.0
            && self.kappa.is_finite()
            && self.kappa > 0.0
            && self.kappa <= 1.0
            && self.tau.is_finite()
            && self.tau >= 0.0;
        if ok {
            Ok(())
        } else {
            Err(RatingError::InvalidConfig(format!(
                "Weng-Lin: need finite values with sigma > 0, beta > 0, 0 < kappa <= 1, \
                 tau >= 0; got {self:?}"
            )))
        }
    }

    fn initial(&self) -> Skill {
        self.initial
    }

    fn rate(&self, ratings: &[Skill], game: &GameResult) -> Vec<Skill> {
        rate_game(ratings, game, self)
    }

    fn invalid(s: &Skill) -> Option<String> {
        let valid = s.mu.is_finite() && s.sigma.is_finite() && s.sigma > 0.0;
        (!valid).then(|| format!("stored skill is not valid: {s:?}"))
    }

    /// The ordinal μ − 3σ.
    fn rank_key(s: &Skill) -> f64 {
        s.ordinal()
    }
}

/// The new skills of the seats of one game (in seat order), from the skills
/// before it. `ratings` is indexed by bot; the game must be valid for
/// `ratings.len()` bots (see [`GameResult::validate`]).
pub fn rate_game(ratings: &[Skill], game: &GameResult, config: &WengLinConfig) -> Vec<Skill> {
    let before: Vec<Skill> = game
        .bots
        .iter()
        .map(|&b| {
            let s = ratings[b];
            Skill {
                mu: s.mu,
                sigma: (s.sigma * s.sigma + config.tau * config.tau).sqrt(),
            }
        })
        .collect();
    let teams: Vec<[SrRating; 1]> = before
        .iter()
        .map(|s| {
            [SrRating {
                rating: s.mu,
                uncertainty: s.sigma,
            }]
        })
        .collect();
    let teams_and_ranks: Vec<(&[SrRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&game.placements)
        .map(|(t, &p)| (&t[..], MultiTeamOutcome::new(p as usize)))
        .collect();
    let sr_config = SrConfig {
        beta: config.beta,
        uncertainty_tolerance: config.kappa,
    };
    let updated = weng_lin_multi_team(&teams_and_ranks, &sr_config);
    updated
        .iter()
        .map(|t| Skill {
            mu: t[0].rating,
            sigma: t[0].uncertainty,
        })
        .collect()
}

/// Weng–Lin skills of a ladder, updated one game at a time; ranked from
/// the highest ordinal (μ − 3σ).
pub type WengLinLadder = Ladder<WengLinConfig>;

/// Weng–Lin skills of `n_bots` bots after `games`, applied in order from the
/// initial skill.
pub fn weng_lin_ratings(
    n_bots: usize,
    games: &[GameResult],
    config: WengLinConfig,
) -> Result<Vec<Skill>, RatingError> {
    WengLinLadder::ratings_after(n_bots, games, config)
}
