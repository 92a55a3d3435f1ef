//! SPRT on pentanomial pair counts.
//!
//! Reference values: computed once by a short, independent Python
//! transcription of fishtest's `LLRcalc.LLR_logistic` and
//! `stat_util.get_elo` (Python 3.11, scipy 1.17.1): zero counts replaced by
//! 0.001; per-game values k/4; for s = 1/(1 + 10^(−elo/400)) the secular
//! equation Σ p̂ₖ(aₖ − s)/(1 + x(aₖ − s)) = 0 solved with
//! `scipy.optimize.brentq` (xtol 1e-300, rtol 9.2e-16) on the open interval
//! (−1/max(aₖ−s), −1/min(aₖ−s)) shrunk by 1e-12; LLR = N·Σ p̂ₖ ln(p1ₖ/p0ₖ).
//! `get_elo` as fishtest: μ = Σ cₖ(k/2)/(2N), σ² = Σ cₖ(k/2 − 2μ)²/(2N),
//! z = `scipy.stats.norm.ppf(0.975)`, LOS = `norm.cdf((μ − ½)/(σ/√(2N)))`.

use ludus_leaderboard::ratings::Outcome;
use ludus_leaderboard::sprt::{
    elo_estimate, llr_logistic, llr_normal_approx, logistic_elo, logistic_score, normal_cdf,
    sprt_bounds, Hypothesis, Sprt, SprtConfig,
};

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} != {b} (tolerance {tol})");
}

#[test]
fn bounds_and_helpers() {
    let (a, b) = sprt_bounds(0.05, 0.05);
    close(a, -(19f64.ln()), 1e-15);
    close(b, 19f64.ln(), 1e-15);
    close(b, 2.944_438_979_166_44, 1e-12);
    assert_eq!(SprtConfig::default().bounds(), (a, b));
    let (a, b) = sprt_bounds(0.05, 0.1);
    close(a, (0.1f64 / 0.95).ln(), 1e-15);
    close(b, (0.9f64 / 0.05).ln(), 1e-15);

    close(logistic_score(0.0), 0.5, 1e-15);
    close(logistic_score(400.0), 10.0 / 11.0, 1e-15);
    close(logistic_elo(logistic_score(35.0)), 35.0, 1e-9);
    close(normal_cdf(0.0), 0.5, 1e-15);
    close(normal_cdf(1.959_963_984_540_054), 0.975, 1e-12);
    close(normal_cdf(-1.0), 0.158_655_253_931_457_05, 1e-14);
}

#[test]
fn pairs_map_to_pentanomial_counts() {
    let mut sprt = Sprt::new(SprtConfig::default()).unwrap();
    sprt.add_pair(Outcome::Loss, Outcome::Loss);
    sprt.add_pair(Outcome::Draw, Outcome::Loss);
    sprt.add_pair(Outcome::Win, Outcome::Loss);
    sprt.add_pair(Outcome::Draw, Outcome::Draw);
    sprt.add_pair(Outcome::Draw, Outcome::Win);
    sprt.add_pair(Outcome::Win, Outcome::Win);
    assert_eq!(sprt.counts(), [1, 1, 2, 1, 1]);
    assert_eq!(sprt.add_pair_half_points(4), Some(()));
    assert_eq!(sprt.add_pair_half_points(5), None);
    sprt.add_counts([1, 0, 0, 0, 0]);
    assert_eq!(sprt.counts(), [2, 1, 2, 1, 2]);
    assert_eq!(sprt.pairs(), 8);
}

#[test]
fn the_score_is_the_tested_bots_mean_points_per_game() {
    let mut sprt = Sprt::new(SprtConfig::default()).unwrap();
    assert_eq!(sprt.score(), None);
    // Games: win, loss; draw, draw; win, win: 4 points of 6.
    sprt.add_pair(Outcome::Win, Outcome::Loss);
    sprt.add_pair(Outcome::Draw, Outcome::Draw);
    sprt.add_pair(Outcome::Win, Outcome::Win);
    assert_eq!(sprt.score(), Some(4.0 / 6.0));
}

#[test]
fn no_decision_with_few_pairs() {
    let mut sprt = Sprt::new(SprtConfig::default()).unwrap();
    assert_eq!(sprt.llr(), 0.0);
    assert_eq!(sprt.decision(), None);
    assert_eq!(sprt.estimate(), None);
    sprt.add_counts([0, 1, 1, 1, 0]);
    assert_eq!(sprt.decision(), None);
    sprt.add_counts([0, 0, 0, 2, 1]);
    assert_eq!(sprt.decision(), None);
    let llr = sprt.llr();
    let (a, b) = sprt.bounds();
    assert!(a < llr && llr < b, "{llr}");
}

#[test]
fn clearly_stronger_side_accepts_h1() {
    let mut sprt = Sprt::new(SprtConfig::default()).unwrap();
    let mut decided_at = None;
    for i in 0..400 {
        // Mostly 2/2 pairs, some 1.5, a few 1.
        let half_points = match i % 10 {
            0 => 2,
            1 | 2 => 3,
            _ => 4,
        };
        sprt.add_pair_half_points(half_points).unwrap();
        if let Some(h) = sprt.decision() {
            decided_at = Some((i + 1, h));
            break;
        }
    }
    let (pairs, h) = decided_at.expect("a decision");
    assert_eq!(h, Hypothesis::H1);
    assert!(pairs < 150, "{pairs}");
    assert!(sprt.llr() >= sprt.bounds().1);
    let est = sprt.estimate().unwrap();
    assert!(est.elo > 100.0 && est.los > 0.999);
}

#[test]
fn equal_sides_accept_h0() {
    let mut sprt = Sprt::new(SprtConfig {
        elo0: 0.0,
        elo1: 10.0,
        ..SprtConfig::default()
    })
    .unwrap();
    // Balanced pairs in a repeating pattern: 1 LL, 2 LD, 4 even, 2 DW, 1 WW.
    let pattern = [0, 1, 1, 2, 2, 2, 2, 3, 3, 4];
    let mut decided = None;
    for i in 0..10_000 {
        sprt.add_pair_half_points(pattern[i % pattern.len()])
            .unwrap();
        if let Some(h) = sprt.decision() {
            decided = Some((i + 1, h));
            break;
        }
    }
    let (pairs, h) = decided.expect("a decision");
    assert_eq!(h, Hypothesis::H0);
    // Drift ≈ −(s1 − s0)² / (2·var) per pair ≈ −1.38e-3: about 2100 pairs.
    assert!((1500..3000).contains(&pairs), "{pairs}");
    let est = sprt.estimate().unwrap();
    assert!(est.elo.abs() < 5.0, "{est:?}");
}

#[test]
fn llr_sign_follows_the_score() {
    // The LLR is positive when the score is above the midpoint of s0 and s1.
    let (elo0, elo1) = (0.0, 10.0);
    let above = [5, 20, 40, 25, 10]; // mean per game > 0.5
    let below = [10, 25, 40, 20, 5];
    assert!(llr_logistic(&above, elo0, elo1) > 0.0);
    assert!(llr_logistic(&below, elo0, elo1) < 0.0);
    // Mirroring the counts (k -> 4 - k) mirrors the scores (s -> 1 - s, that
    // is elo -> -elo): the same LLR for mirrored hypotheses, the opposite one
    // for symmetric hypotheses.
    close(
        llr_logistic(&above, elo0, elo1),
        llr_logistic(&below, -elo0, -elo1),
        1e-9,
    );
    close(
        llr_logistic(&above, -5.0, 5.0),
        -llr_logistic(&below, -5.0, 5.0),
        1e-9,
    );
}

#[test]
fn matches_independent_reference() {
    let cases: [([u64; 5], f64, f64, f64, f64); 3] = [
        (
            [10, 40, 90, 50, 12],
            0.0,
            10.0,
            0.5346200483322322,
            0.5376460407803925,
        ),
        (
            [0, 3, 10, 12, 5],
            0.0,
            10.0,
            0.8507992300488303,
            1.3628679892265048,
        ),
        (
            [30, 110, 220, 105, 35],
            -5.0,
            5.0,
            0.30327576907157855,
            0.3029827017181266,
        ),
    ];
    for (counts, elo0, elo1, llr, approx) in cases {
        close(llr_logistic(&counts, elo0, elo1), llr, 1e-10);
        close(llr_normal_approx(&counts, elo0, elo1), approx, 1e-12);
        let sprt = Sprt::from_counts(
            SprtConfig {
                elo0,
                elo1,
                ..SprtConfig::default()
            },
            counts,
        )
        .unwrap();
        assert_eq!(sprt.llr(), llr_logistic(&counts, elo0, elo1));
    }

    let estimates = [
        (
            [10, 40, 90, 50, 12],
            12.044669899414421,
            22.48504969995901,
            0.8536498053652488,
        ),
        (
            [0, 3, 10, 12, 5],
            113.9203465776216,
            61.27473312279137,
            0.9999630910220868,
        ),
        (
            [30, 110, 220, 105, 35],
            1.7371924043128415,
            14.849832619782699,
            0.5907317880957732,
        ),
    ];
    for (counts, elo, ci95, los) in estimates {
        let est = elo_estimate(&counts).unwrap();
        close(est.elo, elo, 1e-9);
        close(est.ci95, ci95, 1e-9);
        close(est.los, los, 1e-12);
        assert_eq!(est.games, 2 * counts.iter().sum::<u64>());
    }
}

#[test]
fn balanced_counts_estimate_zero() {
    let est = elo_estimate(&[3, 7, 12, 7, 3]).unwrap();
    close(est.elo, 0.0, 1e-12);
    close(est.los, 0.5, 1e-12);
    close(est.score, 0.5, 1e-15);
    assert!(est.ci95 > 0.0);
}

#[test]
fn config_is_validated() {
    let bad = |elo0, elo1, alpha, beta| {
        Sprt::new(SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
        })
        .is_err()
    };
    assert!(bad(10.0, 0.0, 0.05, 0.05));
    assert!(bad(0.0, 0.0, 0.05, 0.05));
    assert!(bad(0.0, 5.0, 0.0, 0.05));
    assert!(bad(0.0, 5.0, 0.05, 1.0));
    assert!(bad(0.0, f64::INFINITY, 0.05, 0.05));
    assert!(!bad(-3.0, 2.0, 0.1, 0.2));
}
