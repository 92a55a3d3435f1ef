//! `ludus challenge`: asks a server for a challenge of one of your bots
//! (unrated matches against chosen opponents, a fixed count or an SPRT)
//! and, with `--wait`, watches it to its end.

use crate::league::{progress_bar, set_gauge, LLR_BAR};
use anyhow::{Context, Result};
use ludus_host::numbers::{fixed, signed};
use ludus_leaderboard::challenge::{ChallengeState, ChallengeStatus, Test};
use ludus_leaderboard::sprt::llr_gauge;
use ludus_server::challenges::{NewChallenge, SprtBounds};
use ludus_server::client;
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct ChallengeArgs {
    /// Your bot, `NAME` (its latest version, a candidate included) or
    /// `NAME:VERSION`.
    #[arg(value_name = "BOT[:VERSION]")]
    bot: String,
    /// The opponents, each `NAME` (its version in the ladder) or
    /// `NAME:VERSION` (another version of your bot, say).
    #[arg(long, value_name = "BOT[:VERSION]", num_args = 1.., required_unless_present = "top", conflicts_with = "top")]
    vs: Vec<String>,
    /// Or the first N of the game's leaderboard, your bot left out.
    #[arg(long, value_name = "N")]
    top: Option<u32>,
    /// A fixed number of games (in seat-swapped pairs); no verdict.
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "sprt",
        conflicts_with = "sprt"
    )]
    games: Option<u32>,
    /// Game pairs until a pentanomial SPRT decides whether your bot is
    /// stronger, as `ludus match-up` plays them.
    #[arg(long)]
    sprt: bool,
    /// The SPRT's H0: your bot is at most this much stronger (Elo).
    #[arg(long, requires = "sprt", allow_negative_numbers = true)]
    elo0: Option<f64>,
    /// The SPRT's H1: your bot is at least this much stronger (Elo).
    #[arg(long, requires = "sprt", allow_negative_numbers = true)]
    elo1: Option<f64>,
    /// The chance of saying "stronger" when it is not (H0 true).
    #[arg(long, requires = "sprt")]
    alpha: Option<f64>,
    /// The chance of saying "not stronger" when it is (H1 true).
    #[arg(long, requires = "sprt")]
    beta: Option<f64>,
    /// The most games the SPRT plays undecided (default: the server's
    /// maximum).
    #[arg(long, value_name = "N", requires = "sprt")]
    max_games: Option<u32>,
    /// The challenge's seed: the same seed, bots and test play the same
    /// games (default: a fresh one).
    #[arg(long)]
    seed: Option<u64>,
    /// The server's URL, e.g. http://127.0.0.1:8080.
    #[arg(long)]
    server: String,
    /// Your API token on that server.
    #[arg(long, env = "LUDUS_TOKEN", hide_env_values = true)]
    token: String,
    /// Watch the challenge until it ends, then print its verdict.
    #[arg(long)]
    wait: bool,
}

/// How often `--wait` asks the server where the challenge stands.
const POLL_EVERY: Duration = Duration::from_secs(1);

/// How often `--wait` writes a line when stderr is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(5);

impl ChallengeArgs {
    /// `ludus challenge`: asks for it, and with `--wait` follows it to its
    /// verdict.
    pub fn run(self) -> Result<()> {
        let asked = NewChallenge {
            bot: self.bot.clone(),
            version: None,
            vs: (!self.vs.is_empty()).then(|| self.vs.clone()),
            top: self.top,
            games: self.games,
            sprt: self.sprt.then_some(SprtBounds {
                elo0: self.elo0,
                elo1: self.elo1,
                alpha: self.alpha,
                beta: self.beta,
            }),
            max_games: self.max_games,
            seed: self.seed.map(|s| s.to_string()),
        };
        let status = client::create_challenge(&self.server, &self.token, &asked)?;
        let url = client::url(&self.server, &format!("/challenges/{}", status.id));
        println!("challenge {}: {url}", status.id);
        println!("{}", describe(&status));
        if !self.wait {
            return Ok(());
        }
        let end = watch(&self.server, status)?;
        println!("{}", summary(&end));
        if let Some(reason) = &end.ended_reason {
            println!("ended: {reason}");
        }
        // The one line scripts read.
        println!(
            "verdict: {}",
            end.verdict
                .unwrap_or(ludus_leaderboard::challenge::Verdict::None)
        );
        Ok(())
    }
}

/// What was asked, in a line.
fn describe(s: &ChallengeStatus) -> String {
    let opponents: Vec<String> = s
        .opponents
        .iter()
        .map(|o| format!("{} v{}", o.name, o.version))
        .collect();
    let test = match &s.test {
        Test::Games { games } => format!("{games} games"),
        Test::Sprt(c) => format!(
            "SPRT elo0={} elo1={} alpha={} beta={}, {} games at most",
            c.elo0, c.elo1, c.alpha, c.beta, s.max_games
        ),
    };
    format!(
        "{} v{} against {} at {}: {test}, seed {}",
        s.bot.name,
        s.bot.version,
        opponents.join(", "),
        s.game,
        s.seed
    )
}

/// Where the challenge stands, in a line.
fn summary(s: &ChallengeStatus) -> String {
    let mut line = format!(
        "games {} (W {} D {} L {})",
        s.games, s.wins, s.draws, s.losses
    );
    if let Some(score) = &s.score {
        line += &format!(
            "  score {}% [{}, {}]",
            fixed(100.0 * score.value, 1),
            fixed(100.0 * score.low, 1),
            fixed(100.0 * score.high, 1)
        );
    }
    if let Some(elo) = &s.elo {
        line += &format!(
            "  Elo {} [{}, {}]",
            signed(elo.value, 1),
            signed(elo.low, 1),
            signed(elo.high, 1)
        );
    }
    if let Some(sprt) = &s.sprt {
        line += &format!(
            "  LLR {} in [{}, {}]",
            fixed(sprt.llr, 2),
            fixed(sprt.lower, 2),
            fixed(sprt.upper, 2)
        );
    }
    line
}

/// Polls the challenge until it ends; its progress on stderr (a bar on a
/// terminal: the LLR between its bounds for an SPRT, the games played of
/// the count otherwise; lines every few seconds elsewhere).
fn watch(server: &str, first: ChallengeStatus) -> Result<ChallengeStatus> {
    let bar = match first.test {
        Test::Sprt(_) => progress_bar(LLR_BAR, 0.5, "first games playing"),
        Test::Games { .. } => progress_bar(
            "[{bar:24}]  {msg}  elapsed {elapsed}",
            0.0,
            "first games playing",
        ),
    };
    let mut last_line = Instant::now();
    let mut status = first;
    while status.state == ChallengeState::Running {
        std::thread::sleep(POLL_EVERY);
        status = client::challenge(server, status.id)
            .with_context(|| format!("cannot follow challenge {}", status.id))?;
        let at = match &status.sprt {
            Some(s) => llr_gauge(s.llr, (s.lower, s.upper)),
            None => f64::from(status.finished) / f64::from(status.max_games.max(1)),
        };
        match &bar {
            Some(bar) => {
                set_gauge(bar, at);
                bar.set_message(summary(&status));
            }
            None if last_line.elapsed() >= LINE_EVERY => {
                eprintln!("{}", summary(&status));
                last_line = Instant::now();
            }
            None => {}
        }
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(status)
}
