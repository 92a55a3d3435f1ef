//! Elo: published worked examples, multi-seat decomposition, order and errors.

use ludus_leaderboard::ratings::elo::{
    elo_ratings, expected_score, game_deltas, EloConfig, EloLadder, DEFAULT_K, INITIAL_RATING,
};
use ludus_leaderboard::ratings::{GameResult, Outcome, RatingError};

fn k(k: f64) -> EloConfig {
    EloConfig {
        k,
        ..EloConfig::default()
    }
}

fn close(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() <= tol, "{a} != {b} (tolerance {tol})");
}

#[test]
fn defaults_are_documented_values() {
    let c = EloConfig::default();
    assert_eq!(c.k, DEFAULT_K);
    assert_eq!(c.k, 16.0);
    assert_eq!(c.initial, INITIAL_RATING);
    assert_eq!(c.initial, 1500.0);
    let ladder = EloLadder::new(3, c).unwrap();
    assert_eq!(ladder.ratings(), &[1500.0; 3]);
}

/// The textbook example: equal players, K = 32, the winner gains 16.
#[test]
fn equal_ratings_win_k32() {
    let mut ladder = EloLadder::new(2, k(32.0)).unwrap();
    ladder.apply(&GameResult::duel(0, 1, Outcome::Win)).unwrap();
    assert_eq!(ladder.ratings(), &[1516.0, 1484.0]);
    assert_eq!(ladder.games(), &[1, 1]);

    let mut ladder = EloLadder::new(2, k(32.0)).unwrap();
    ladder
        .apply(&GameResult::duel(0, 1, Outcome::Draw))
        .unwrap();
    assert_eq!(ladder.ratings(), &[1500.0, 1500.0]);
}

/// 400 points apart: the favourite's expected score is exactly 10/11, so an
/// upset with K = 32 moves each rating by 32·10/11 = 29.09, a draw by
/// 32·(1/2 − 1/11) = 13.09.
#[test]
fn unequal_ratings_upset_and_draw() {
    close(expected_score(2000.0, 1600.0), 10.0 / 11.0, 1e-15);
    close(expected_score(1600.0, 2000.0), 1.0 / 11.0, 1e-15);

    let mut ladder = EloLadder::from_ratings(vec![1600.0, 2000.0], vec![0, 0], k(32.0)).unwrap();
    ladder.apply(&GameResult::duel(0, 1, Outcome::Win)).unwrap();
    close(ladder.rating(0), 1600.0 + 320.0 / 11.0, 1e-9);
    close(ladder.rating(1), 2000.0 - 320.0 / 11.0, 1e-9);
    assert_eq!((ladder.rating(0) * 100.0).round(), 162909.0);
    assert_eq!((ladder.rating(1) * 100.0).round(), 197091.0);

    let mut ladder = EloLadder::from_ratings(vec![1600.0, 2000.0], vec![0, 0], k(32.0)).unwrap();
    ladder
        .apply(&GameResult::duel(1, 0, Outcome::Draw))
        .unwrap();
    close(ladder.rating(0), 1600.0 + 32.0 * (0.5 - 1.0 / 11.0), 1e-9);
    close(ladder.rating(1), 2000.0 - 32.0 * (0.5 - 1.0 / 11.0), 1e-9);
}

/// Wikipedia's "Elo rating system" example: a player rated 1613 meets players
/// rated 1609, 1477, 1388, 1586 and 1720 and scores 0, ½, 1, 1, 0. The
/// expected scores are published as 0.51 + 0.69 + 0.79 + 0.54 + 0.35, and with
/// K = 32 the rating after the event is 1613 + 32·(2.5 − 2.867) ≈ 1601.
#[test]
fn wikipedia_tournament_example() {
    let opponents = [1609.0, 1477.0, 1388.0, 1586.0, 1720.0];
    let outcomes = [
        Outcome::Loss,
        Outcome::Draw,
        Outcome::Win,
        Outcome::Win,
        Outcome::Loss,
    ];
    let total: f64 = outcomes.iter().map(|o| o.score()).sum();
    assert_eq!(total, 2.5);
    let published = [0.51, 0.69, 0.79, 0.54, 0.35];
    let mut expected_total = 0.0;
    for (opp, shown) in opponents.iter().zip(published) {
        let e = expected_score(1613.0, *opp);
        assert_eq!((e * 100.0).round() / 100.0, shown, "vs {opp}: {e}");
        expected_total += e;
    }
    close(expected_total, 2.867, 0.0005);
    // The event's update from the ratings before it: the sum of the per-game
    // deltas, each computed from the pre-event ratings.
    let mut ratings = vec![1613.0];
    ratings.extend(opponents);
    let mut change = 0.0;
    for (i, outcome) in outcomes.into_iter().enumerate() {
        change += game_deltas(&ratings, &GameResult::duel(0, i + 1, outcome), 32.0)[0];
    }
    close(change, 32.0 * (2.5 - expected_total), 1e-9);
    assert_eq!((1613.0 + change).round(), 1601.0);
}

/// A 3-seat game is three pairs at K/2: with equal ratings the winner gains
/// K/2, the second nothing, the last loses K/2.
#[test]
fn three_seat_game_is_pairs_at_half_k() {
    let mut ladder = EloLadder::new(3, k(32.0)).unwrap();
    ladder
        .apply(&GameResult::new(vec![0, 1, 2], vec![1, 2, 3]))
        .unwrap();
    assert_eq!(ladder.ratings(), &[1516.0, 1500.0, 1484.0]);

    // A 4-seat game with a tie for second: pairs at K/3.
    let mut ladder = EloLadder::new(4, k(30.0)).unwrap();
    ladder
        .apply(&GameResult::new(vec![3, 1, 0, 2], vec![1, 2, 2, 4]))
        .unwrap();
    // Bot 3 beats three at 10·½ each; bots 1 and 0 lose one, draw one, win
    // one; bot 2 loses three.
    assert_eq!(ladder.ratings(), &[1500.0, 1500.0, 1485.0, 1515.0]);
}

#[test]
fn multi_seat_update_does_not_depend_on_seat_order() {
    let start = vec![1480.0, 1530.0, 1610.0, 1420.0];
    let a = GameResult::new(vec![0, 1, 2, 3], vec![2, 1, 4, 2]);
    let b = GameResult::new(vec![3, 2, 1, 0], vec![2, 4, 1, 2]);
    let mut la = EloLadder::from_ratings(start.clone(), vec![0; 4], k(24.0)).unwrap();
    let mut lb = EloLadder::from_ratings(start, vec![0; 4], k(24.0)).unwrap();
    la.apply(&a).unwrap();
    lb.apply(&b).unwrap();
    for bot in 0..4 {
        close(la.rating(bot), lb.rating(bot), 1e-9);
    }
    // Zero-sum.
    close(la.ratings().iter().sum::<f64>(), 6040.0, 1e-9);
}

#[test]
fn games_apply_in_the_given_order() {
    let games = vec![
        GameResult::duel(0, 1, Outcome::Win),
        GameResult::duel(1, 2, Outcome::Win),
        GameResult::new(vec![2, 0, 1], vec![1, 3, 2]),
        GameResult::duel(2, 0, Outcome::Draw),
    ];
    let config = k(32.0);
    let all = elo_ratings(3, &games, config).unwrap();
    let mut one_by_one = EloLadder::new(3, config).unwrap();
    for g in &games {
        one_by_one.apply(g).unwrap();
    }
    assert_eq!(all, one_by_one.ratings());
    // Same input, same bits.
    assert_eq!(all, elo_ratings(3, &games, config).unwrap());
    // A different order is a different (valid) history.
    let mut reversed = games.clone();
    reversed.reverse();
    assert_ne!(all, elo_ratings(3, &reversed, config).unwrap());
    // First game by hand: 1516 / 1484; second: 1484 vs 1500 at K = 32.
    let mut manual = [1516.0, 1484.0, 1500.0];
    let e = expected_score(1484.0, 1500.0);
    manual[1] += 32.0 * (1.0 - e);
    manual[2] -= 32.0 * (1.0 - e);
    let after_two = elo_ratings(3, &games[..2], config).unwrap();
    for bot in 0..3 {
        close(after_two[bot], manual[bot], 1e-12);
    }
}

#[test]
fn standings_and_new_bots() {
    let mut ladder = EloLadder::new(2, EloConfig::default()).unwrap();
    let c = ladder.add_bot();
    assert_eq!(c, 2);
    ladder.apply(&GameResult::duel(2, 0, Outcome::Win)).unwrap();
    assert_eq!(ladder.standings(), vec![2, 1, 0]);
}

#[test]
fn invalid_games_change_nothing() {
    let mut ladder = EloLadder::new(3, EloConfig::default()).unwrap();
    let games = vec![
        GameResult::duel(0, 1, Outcome::Win),
        GameResult::duel(0, 3, Outcome::Win),
    ];
    assert_eq!(
        ladder.apply_all(&games),
        Err(RatingError::UnknownBot {
            game: 1,
            bot: 3,
            n_bots: 3
        })
    );
    assert_eq!(ladder.ratings(), &[1500.0; 3]);
    assert_eq!(
        ladder.apply(&GameResult::new(vec![1, 1], vec![1, 2])),
        Err(RatingError::DuplicateBot { game: 0, bot: 1 })
    );
    assert_eq!(
        ladder.apply(&GameResult::new(vec![0, 1], vec![1])),
        Err(RatingError::LengthMismatch {
            game: 0,
            bots: 2,
            placements: 1
        })
    );
    assert_eq!(
        ladder.apply(&GameResult::new(vec![0], vec![1])),
        Err(RatingError::TooFewSeats { game: 0, seats: 1 })
    );
    assert!(EloLadder::new(2, k(0.0)).is_err());
    assert!(EloLadder::new(2, k(f64::NAN)).is_err());
    assert_eq!(ladder.ratings(), &[1500.0; 3]);
}
