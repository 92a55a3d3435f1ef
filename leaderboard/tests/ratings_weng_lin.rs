//! Weng–Lin (OpenSkill, Bradley–Terry full pairing) against the Python
//! `openskill` package.
//!
//! Reference numbers: computed once with openskill 6.2.0 (Python 3.11), in a
//! fresh virtual environment (`pip install openskill`), with
//!
//! ```python
//! from openskill.models import BradleyTerryFull
//! m = BradleyTerryFull(tau=0.0)  # defaults otherwise: mu 25, sigma 25/3,
//!                                # beta 25/6, kappa 0.0001
//! m.rate([[m.rating(mu=..., sigma=...)], ...], ranks=[...])
//! ```
//!
//! each bot a team of one, `ranks` being our placements; the printed
//! `(mu, sigma)` of every seat is copied below with `repr` precision. The game
//! sequence applies `m.rate` game by game, writing each result back. W5 uses
//! `BradleyTerryFull()` with openskill's default `tau = 25/300`.

use ludus_leaderboard::ratings::weng_lin::{
    rate_game, weng_lin_ratings, Skill, WengLinConfig, WengLinLadder,
};
use ludus_leaderboard::ratings::{GameResult, Outcome, RatingError};

const TOL: f64 = 1e-12;

fn skill(mu: f64, sigma: f64) -> Skill {
    Skill { mu, sigma }
}

fn assert_skills(got: &[Skill], want: &[(f64, f64)]) {
    assert_eq!(got.len(), want.len());
    for (i, (g, &(mu, sigma))) in got.iter().zip(want).enumerate() {
        assert!(
            (g.mu - mu).abs() < TOL && (g.sigma - sigma).abs() < TOL,
            "seat {i}: got {g:?}, openskill ({mu}, {sigma})"
        );
    }
}

fn game(bots: &[usize], placements: &[u32]) -> GameResult {
    GameResult::new(bots.to_vec(), placements.to_vec())
}

/// W1: four new bots, placements 1, 2, 3, 4.
#[test]
fn four_player_free_for_all_from_defaults() {
    let config = WengLinConfig::default();
    let ratings = vec![config.initial; 4];
    let got = rate_game(&ratings, &game(&[0, 1, 2, 3], &[1, 2, 3, 4]), &config);
    assert_skills(
        &got,
        &[
            (32.90569415042095, 7.5012190693964005),
            (27.63523138347365, 7.5012190693964005),
            (22.36476861652635, 7.5012190693964005),
            (17.09430584957905, 7.5012190693964005),
        ],
    );
}

/// W2: four bots with different skills, placements [2, 1, 4, 3].
#[test]
fn four_player_free_for_all_unequal() {
    let config = WengLinConfig::default();
    let ratings = vec![
        skill(30.0, 5.0),
        skill(25.0, 25.0 / 3.0),
        skill(20.0, 3.0),
        skill(27.0, 6.0),
    ];
    let got = rate_game(&ratings, &game(&[0, 1, 2, 3], &[2, 1, 4, 3]), &config);
    assert_skills(
        &got,
        &[
            (30.44000289755831, 4.76501241637703),
            (34.407251624114465, 7.000626849907531),
            (19.10855344026458, 2.967007952064756),
            (25.05546282451679, 5.518896615532033),
        ],
    );
}

/// W3: a tie for second between two bots of different skill, [1, 2, 2, 3].
#[test]
fn tie_between_unequal_bots() {
    let config = WengLinConfig::default();
    let ratings = vec![
        skill(28.0, 4.0),
        skill(22.0, 7.0),
        skill(25.0, 25.0 / 3.0),
        skill(31.0, 2.5),
    ];
    let got = rate_game(&ratings, &game(&[0, 1, 2, 3], &[1, 2, 2, 3]), &config);
    assert_skills(
        &got,
        &[
            (30.46576382827672, 3.873196118380986),
            (24.224960706482563, 6.244416344824549),
            (26.147815666771336, 6.981780484930861),
            (29.649711586090067, 2.4805181699021466),
        ],
    );
}

/// W4: five 3-seat games among four new bots, in order (with ties).
#[test]
fn sequence_of_three_seat_games() {
    let games = vec![
        game(&[0, 1, 2], &[1, 2, 3]),
        game(&[1, 2, 3], &[1, 1, 2]),
        game(&[3, 0, 1], &[2, 1, 3]),
        game(&[0, 2, 3], &[3, 1, 2]),
        game(&[2, 1, 0], &[1, 2, 2]),
    ];
    let got = weng_lin_ratings(4, &games, WengLinConfig::default()).unwrap();
    assert_skills(
        &got,
        &[
            (24.744625010988713, 6.593438327091555),
            (20.994531503230256, 6.574203886875196),
            (31.88026532957464, 6.5612078985509825),
            (22.201970105747886, 6.945475968015895),
        ],
    );
    let mut ladder = WengLinLadder::new(4, WengLinConfig::default()).unwrap();
    ladder.apply_all(&games).unwrap();
    assert_eq!(ladder.ratings(), &got[..]);
    assert_eq!(ladder.games(), &[4, 4, 4, 3]);
    // Ordinal μ − 3σ: bot 2 first, then 0, 3, 1.
    assert_eq!(ladder.standings(), vec![2, 0, 3, 1]);
    let s = ladder.rating(2);
    assert_eq!(s.ordinal(), s.mu - 3.0 * s.sigma);
}

/// W5: openskill's default dynamics factor τ = 25/300, game of W2.
#[test]
fn tau_matches_openskill_default() {
    let config = WengLinConfig {
        tau: 25.0 / 300.0,
        ..WengLinConfig::default()
    };
    let ratings = vec![
        skill(30.0, 5.0),
        skill(25.0, 25.0 / 3.0),
        skill(20.0, 3.0),
        skill(27.0, 6.0),
    ];
    let got = rate_game(&ratings, &game(&[0, 1, 2, 3], &[2, 1, 4, 3]), &config);
    assert_skills(
        &got,
        &[
            (30.44013971808847, 4.765624710953124),
            (34.407678844807045, 7.000994339618709),
            (19.107894328112422, 2.968121374485915),
            (25.05521806451604, 5.519388797299913),
        ],
    );
}

/// A two-seat game is the classic Weng–Lin 1 v 1 update (value from the
/// `skillratings` crate's own test of `weng_lin`).
#[test]
fn two_seat_game() {
    let got = weng_lin_ratings(
        2,
        &[GameResult::duel(0, 1, Outcome::Win)],
        WengLinConfig::default(),
    )
    .unwrap();
    assert!((got[0].mu - 27.635_231_383_473_65).abs() < TOL);
    assert!((got[0].sigma - 8.065_506_316_323_548).abs() < TOL);
    assert!((got[1].mu - 22.364_768_616_526_35).abs() < TOL);
    assert!((got[1].sigma - 8.065_506_316_323_548).abs() < TOL);
}

#[test]
fn seat_order_does_not_matter() {
    let config = WengLinConfig::default();
    let ratings = vec![
        skill(30.0, 5.0),
        skill(25.0, 25.0 / 3.0),
        skill(20.0, 3.0),
        skill(27.0, 6.0),
    ];
    let a = rate_game(&ratings, &game(&[0, 1, 2, 3], &[2, 1, 4, 3]), &config);
    let b = rate_game(&ratings, &game(&[3, 2, 1, 0], &[3, 4, 1, 2]), &config);
    for seat in 0..4 {
        assert!((a[seat].mu - b[3 - seat].mu).abs() < TOL);
        assert!((a[seat].sigma - b[3 - seat].sigma).abs() < TOL);
    }
}

#[test]
fn deterministic_and_validated() {
    let games = vec![
        game(&[0, 1, 2, 3], &[1, 2, 3, 4]),
        game(&[3, 1], &[1, 2]),
        game(&[2, 0, 1], &[1, 1, 2]),
    ];
    let a = weng_lin_ratings(4, &games, WengLinConfig::default()).unwrap();
    let b = weng_lin_ratings(4, &games, WengLinConfig::default()).unwrap();
    assert_eq!(a, b);

    let mut ladder = WengLinLadder::new(2, WengLinConfig::default()).unwrap();
    assert_eq!(
        ladder.apply_all(&[game(&[0, 1], &[1, 2]), game(&[0, 5], &[1, 2])]),
        Err(RatingError::UnknownBot {
            game: 1,
            bot: 5,
            n_bots: 2
        })
    );
    assert_eq!(ladder.games(), &[0, 0]);
    assert_eq!(ladder.add_bot(), 2);
    let bad = WengLinConfig {
        beta: 0.0,
        ..WengLinConfig::default()
    };
    assert!(WengLinLadder::new(2, bad).is_err());
    assert!(WengLinLadder::from_ratings(
        vec![skill(25.0, -1.0)],
        vec![0],
        WengLinConfig::default()
    )
    .is_err());
}
