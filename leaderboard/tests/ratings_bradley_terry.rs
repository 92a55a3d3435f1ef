//! Bradley–Terry: closed forms, orderings, symmetry, order invariance,
//! intervals and an independent reference.

use ludus_leaderboard::ratings::bradley_terry::{
    fit, fit_pairs, pair_records, BradleyTerryConfig, BradleyTerryFit, PairRecord, ELO_PER_NAT,
};
use ludus_leaderboard::ratings::{GameResult, Outcome, RatingError};

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} != {b} (tolerance {tol})");
}

/// A prior so small that the fit is the plain maximum likelihood.
fn negligible_prior() -> BradleyTerryConfig {
    BradleyTerryConfig {
        prior_games: 1e-9,
        ..BradleyTerryConfig::default()
    }
}

fn duels(a: usize, b: usize, wins: usize, draws: usize, losses: usize) -> Vec<GameResult> {
    let mut games = Vec::new();
    games.extend((0..wins).map(|_| GameResult::duel(a, b, Outcome::Win)));
    games.extend((0..draws).map(|_| GameResult::duel(a, b, Outcome::Draw)));
    games.extend((0..losses).map(|_| GameResult::duel(a, b, Outcome::Loss)));
    games
}

/// Two bots: the maximum-likelihood difference is `400·log10(p/(1−p))` with
/// `p` the score rate, and its standard error is `(400/ln 10)/sqrt(N·p(1−p))`.
#[test]
fn two_bots_closed_form() {
    for (w, d, l) in [(30, 0, 10), (20, 10, 10), (5, 2, 13), (50, 0, 50)] {
        let games = duels(0, 1, w, d, l);
        let res = fit(2, &games, negligible_prior()).unwrap();
        assert!(res.converged);
        let n = (w + d + l) as f64;
        let p = (w as f64 + 0.5 * d as f64) / n;
        let diff = 400.0 * (p / (1.0 - p)).log10();
        close(res.ratings[0] - res.ratings[1], diff, 1e-6);
        close(res.ratings[0] + res.ratings[1], 0.0, 1e-9);
        let sd = ELO_PER_NAT / (n * p * (1.0 - p)).sqrt();
        close(res.diff_sd(0, 1), sd, 1e-3);
        // Centred: each rating's error is half the difference's.
        close(res.sd[0], sd / 2.0, 1e-3);
        close(res.expected_score(0, 1), p, 1e-9);
    }
}

/// With the default prior (one virtual draw against the reference), two bots
/// with w wins and l losses solve: the prior pulls the difference slightly
/// below the closed form, and an undefeated bot stays finite.
#[test]
fn prior_keeps_undefeated_and_winless_finite() {
    let games = duels(0, 1, 10, 0, 0);
    let res = fit(2, &games, BradleyTerryConfig::default()).unwrap();
    assert!(res.converged);
    assert!(res.ratings.iter().all(|r| r.is_finite()));
    assert!(res.ratings[0] > 200.0, "{:?}", res.ratings);
    assert!(res.sd.iter().all(|s| s.is_finite() && *s > 0.0));

    // The prior's pull: 30–10 with one virtual draw each is a bit closer than
    // 400·log10(3) = 190.8, and much less than with no data at all.
    let games = duels(0, 1, 30, 0, 10);
    let with_prior = fit(2, &games, BradleyTerryConfig::default()).unwrap();
    let diff = with_prior.ratings[0] - with_prior.ratings[1];
    assert!(diff < 400.0 * 3f64.log10() && diff > 170.0, "{diff}");
}

#[test]
fn three_bots_transitive_ordering() {
    // A beats B 7–3, B beats C 7–3, A beats C 9–1.
    let mut games = duels(0, 1, 7, 0, 3);
    games.extend(duels(1, 2, 7, 0, 3));
    games.extend(duels(0, 2, 9, 0, 1));
    let res = fit(3, &games, BradleyTerryConfig::default()).unwrap();
    assert!(res.ratings[0] > res.ratings[1] && res.ratings[1] > res.ratings[2]);
    assert_eq!(res.standings(), vec![0, 1, 2]);
    close(res.ratings.iter().sum::<f64>(), 0.0, 1e-9);
    assert!(res.expected_score(0, 2) > 0.8);
}

fn mixed_games() -> Vec<GameResult> {
    let mut games = vec![
        GameResult::duel(0, 1, Outcome::Win),
        GameResult::duel(1, 2, Outcome::Draw),
        GameResult::duel(3, 0, Outcome::Loss),
        GameResult::duel(2, 3, Outcome::Win),
        GameResult::new(vec![0, 1, 2], vec![1, 2, 3]),
        GameResult::new(vec![3, 2, 1], vec![1, 1, 3]),
        GameResult::new(vec![2, 0, 3, 1], vec![2, 1, 4, 3]),
        GameResult::new(vec![1, 3, 0, 2], vec![1, 2, 2, 4]),
        GameResult::new(vec![3, 1, 2, 0], vec![1, 3, 2, 4]),
    ];
    games.extend(duels(1, 3, 3, 1, 2));
    games
}

/// The same games in any order give the same bits.
#[test]
fn invariant_to_game_order() {
    let games = mixed_games();
    let base = fit(4, &games, BradleyTerryConfig::default()).unwrap();
    let mut reversed = games.clone();
    reversed.reverse();
    let mut rotated = games.clone();
    rotated.rotate_left(5);
    // A fixed shuffle: interleave from both ends.
    let shuffled: Vec<GameResult> = (0..games.len())
        .map(|i| {
            if i % 2 == 0 {
                games[i / 2].clone()
            } else {
                games[games.len() - 1 - i / 2].clone()
            }
        })
        .collect();
    for other in [reversed, rotated, shuffled] {
        assert_eq!(fit(4, &other, BradleyTerryConfig::default()).unwrap(), base);
    }
    // And the seats within a game do not matter either.
    let reseated: Vec<GameResult> = games
        .iter()
        .map(|g| {
            let mut bots = g.bots.clone();
            let mut placements = g.placements.clone();
            bots.reverse();
            placements.reverse();
            GameResult::new(bots, placements)
        })
        .collect();
    assert_eq!(
        fit(4, &reseated, BradleyTerryConfig::default()).unwrap(),
        base
    );
}

/// Swapping two bots' labels swaps their ratings and errors.
#[test]
fn symmetric_under_relabelling() {
    let games = mixed_games();
    let swap = |b: usize| match b {
        0 => 2,
        2 => 0,
        other => other,
    };
    let relabelled: Vec<GameResult> = games
        .iter()
        .map(|g| {
            GameResult::new(
                g.bots.iter().map(|&b| swap(b)).collect(),
                g.placements.clone(),
            )
        })
        .collect();
    let a = fit(4, &games, BradleyTerryConfig::default()).unwrap();
    let b = fit(4, &relabelled, BradleyTerryConfig::default()).unwrap();
    for bot in 0..4 {
        close(a.ratings[bot], b.ratings[swap(bot)], 1e-9);
        close(a.sd[bot], b.sd[swap(bot)], 1e-9);
    }
    close(a.diff_sd(0, 1), b.diff_sd(2, 1), 1e-9);
}

/// Four times the games with the same proportions: about half the error.
#[test]
fn intervals_shrink_with_more_games() {
    let few = mixed_games();
    let many: Vec<GameResult> = (0..4).flat_map(|_| few.clone()).collect();
    let config = negligible_prior();
    let a = fit(4, &few, config).unwrap();
    let b = fit(4, &many, config).unwrap();
    for bot in 0..4 {
        // Same maximum-likelihood point, errors scaled by 1/sqrt(4).
        close(a.ratings[bot], b.ratings[bot], 1e-6);
        close(b.sd[bot], a.sd[bot] / 2.0, 1e-6);
        let (lo, hi) = b.interval(bot);
        close(hi - lo, 2.0 * 1.959_963_984_540_054 * b.sd[bot], 1e-9);
        assert!(b.ci95(bot) < a.ci95(bot));
    }
}

/// Reference values computed once, independently of this crate, by a short
/// Python script (numpy 2.4.6, scipy 1.17.1): the same model written out
/// directly over the list of pairs (each game split into its pairs of seats,
/// weight 1/(k−1) for k seats, score by placement, plus one virtual draw per
/// bot against a reference at strength 0), maximised with
/// `scipy.optimize.minimize(method="BFGS", gtol=1e-13)` and polished with
/// `scipy.optimize.root(grad, method="hybr")` (gradient below 4e-16); the
/// Hessian by central differences of the gradient (h = 1e-5), inverted with
/// `numpy.linalg.inv`; ratings `400/ln10 · C·θ` and covariance
/// `(400/ln10)² · C·H⁻¹·C` with `C = I − 11ᵀ/n`.
#[test]
fn matches_independent_reference() {
    use Outcome::{Draw as D, Loss as L, Win as W};
    let duel_list = [
        (0, 1, W),
        (0, 1, W),
        (0, 2, W),
        (0, 3, D),
        (1, 2, W),
        (1, 2, L),
        (1, 2, D),
        (2, 3, W),
        (3, 1, L),
        (3, 2, D),
        (1, 3, W),
        (2, 0, L),
        (4, 0, L),
        (4, 1, L),
        (4, 3, L),
    ];
    let mut games: Vec<GameResult> = duel_list
        .iter()
        .map(|&(a, b, o)| GameResult::duel(a, b, o))
        .collect();
    games.push(GameResult::new(vec![0, 1, 2], vec![1, 2, 3]));
    games.push(GameResult::new(vec![3, 2, 1], vec![1, 1, 3]));
    games.push(GameResult::new(vec![2, 0, 3, 1], vec![2, 1, 4, 3]));
    games.push(GameResult::new(vec![1, 3, 0, 2], vec![1, 2, 2, 4]));

    let res = fit(5, &games, BradleyTerryConfig::default()).unwrap();
    assert!(res.converged);
    let ratings = [
        297.771215765814,
        54.921751413627476,
        7.327766775270475,
        -60.80038665182282,
        -299.22034730288925,
    ];
    let sd = [
        134.88978504270477,
        97.47774355391721,
        102.96601949546536,
        106.86658781176519,
        220.23307051913062,
    ];
    for bot in 0..5 {
        close(res.ratings[bot], ratings[bot], 1e-6);
        close(res.sd[bot], sd[bot], 1e-5);
    }
    close(res.diff_sd(0, 1), 168.81953635199855, 1e-5);
}

#[test]
fn fit_pairs_matches_fit_and_aggregation_is_exact() {
    let games = mixed_games();
    let records = pair_records(4, &games).unwrap();
    // Sorted, a < b, one record per pair.
    for w in records.windows(2) {
        assert!((w[0].a, w[0].b) < (w[1].a, w[1].b));
    }
    assert!(records.iter().all(|r| r.a < r.b));
    let r01 = records.iter().find(|r| (r.a, r.b) == (0, 1)).unwrap();
    // 0–1: a duel win, a 3-seat win (½ weight), one 4-seat win and two
    // 4-seat losses (⅓ weight each) for bot 0.
    close(r01.games, 1.0 + 0.5 + 3.0 / 3.0, 1e-15);
    close(r01.score_a, 1.0 + 0.5 + 1.0 / 3.0 + 0.0 + 0.0, 1e-15);
    assert_eq!(
        fit_pairs(4, &records, BradleyTerryConfig::default()).unwrap(),
        fit(4, &games, BradleyTerryConfig::default()).unwrap()
    );
}

#[test]
fn bots_without_games_and_empty_input() {
    let games = duels(0, 1, 6, 2, 2);
    let fit3 = fit(3, &games, BradleyTerryConfig::default()).unwrap();
    // Bot 2 never played: it sits at the reference, with a wide interval.
    assert!(fit3.ratings[0] > fit3.ratings[2] && fit3.ratings[2] > fit3.ratings[1]);
    assert!(fit3.sd[2] > fit3.sd[0]);

    let empty: BradleyTerryFit = fit(0, &[], BradleyTerryConfig::default()).unwrap();
    assert!(empty.is_empty());
    let idle = fit(2, &[], BradleyTerryConfig::default()).unwrap();
    assert_eq!(idle.ratings, vec![0.0, 0.0]);
}

#[test]
fn errors() {
    let bad = BradleyTerryConfig {
        prior_games: 0.0,
        ..BradleyTerryConfig::default()
    };
    assert!(matches!(
        fit(2, &[], bad),
        Err(RatingError::InvalidConfig(_))
    ));
    assert_eq!(
        fit(
            2,
            &[GameResult::duel(0, 2, Outcome::Win)],
            BradleyTerryConfig::default()
        ),
        Err(RatingError::UnknownBot {
            game: 0,
            bot: 2,
            n_bots: 2
        })
    );
    let record = PairRecord {
        a: 0,
        b: 1,
        games: 2.0,
        score_a: 3.0,
    };
    assert!(fit_pairs(2, &[record], BradleyTerryConfig::default()).is_err());
}

#[test]
fn large_ladder_is_quick_and_deterministic() {
    // 40 bots, a round robin of 4 games per pair, strength by index.
    let n = 40;
    let mut games = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            for g in 0..4 {
                // The stronger (higher index) wins unless they are close.
                let outcome = if b - a <= 2 && g % 2 == 0 {
                    Outcome::Win
                } else if b - a <= 4 && g == 1 {
                    Outcome::Draw
                } else {
                    Outcome::Loss
                };
                games.push(GameResult::duel(a, b, outcome));
            }
        }
    }
    let a = fit(n, &games, BradleyTerryConfig::default()).unwrap();
    let b = fit(n, &games, BradleyTerryConfig::default()).unwrap();
    assert!(a.converged && a.iterations < 30, "{}", a.iterations);
    assert_eq!(a, b);
    assert!(a.ratings[n - 1] > a.ratings[0]);
}
