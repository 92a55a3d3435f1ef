//! Fidelity against reference implementations.
//!
//! Kore and Halite have a reference engine in the Python package
//! `kaggle-environments`. This crate drives it (`upstream.py`, in a venv it
//! makes itself) and the Ludus engine over the same seeds and action streams,
//! and compares what both show at every step: numbers by exact f64 bits and
//! by int/float kind, strings, and the order of keys and list items.
//!
//! Both sides speak the line format of `ludus engine run`:
//! `{"step": k, "observation": ..., "rewards": [...], "statuses": [...]}`.

pub mod json;
pub mod kaggle;
pub mod upstream;

pub use json::{first_difference, Difference, Json};
pub use upstream::{
    kaggle_environments_dir, python, upstream_boards, upstream_episode, upstream_kaggle_episode,
    StepLine,
};

use anyhow::{bail, Context, Result};
use ludus_engine::Game;

/// Plays `answers` (per step, per seat: the answer text, `None` for none)
/// through the Ludus engine `game` and returns the state lines: the initial
/// state, then one per step. Stops early if the game ends.
pub fn ludus_episode(
    game: &str,
    config: &serde_json::Value,
    seed: u64,
    players: usize,
    answers: &[Vec<Option<String>>],
) -> Result<Vec<Json>> {
    let mut g = ludus_engine::new_game(game, config, seed, players)
        .with_context(|| format!("setting up {game} with seed {seed}"))?;
    let mut lines = Vec::new();
    let unplayed = ludus_engine::reference::run(
        g.as_mut(),
        answers.iter().enumerate().map(Ok::<_, anyhow::Error>),
        |(_, seats)| Ok(seats),
        |_, _, text| {
            lines.push(parse_state_line(text)?);
            Ok(())
        },
    )?;
    if let Some((step, _)) = unplayed {
        bail!("{game} seed {seed}: Ludus ended the game after step {step}, upstream went on");
    }
    Ok(lines)
}

/// One state line of `g`, parsed in order.
pub fn state_line(g: &dyn Game) -> Result<Json> {
    let mut text = String::new();
    ludus_engine::reference::write_state_line(g, &mut text);
    parse_state_line(&text)
}

fn parse_state_line(text: &str) -> Result<Json> {
    Json::parse(text).with_context(|| format!("Ludus wrote a state line that is not JSON: {text}"))
}

/// Compares the two episodes line by line; the error names the step, the
/// field and both values of the first difference.
pub fn compare_episodes(what: &str, upstream: &[StepLine], ludus: &[Json]) -> Result<()> {
    for (i, (up, lu)) in upstream.iter().zip(ludus).enumerate() {
        if let Some(d) = first_difference(&up.state, lu) {
            bail!("{what}: step {i} differs: {d}");
        }
    }
    if upstream.len() != ludus.len() {
        bail!(
            "{what}: upstream has {} states, Ludus {}",
            upstream.len(),
            ludus.len()
        );
    }
    Ok(())
}

/// Runs upstream with the named agents, replays their recorded actions in
/// Ludus, and compares every step.
pub fn check_episode(
    env: &str,
    game: &str,
    seed: u64,
    agents: &[&str],
    steps: Option<u32>,
) -> Result<usize> {
    let upstream = upstream_episode(env, seed, agents, steps)?;
    let answers: Vec<Vec<Option<String>>> =
        upstream.iter().skip(1).map(|l| l.answers.clone()).collect();
    let config = match steps {
        Some(n) => serde_json::json!({ "episodeSteps": n }),
        None => serde_json::Value::Null,
    };
    let ludus = ludus_episode(game, &config, seed, agents.len(), &answers)?;
    compare_episodes(
        &format!("{game} seed {seed} agents {}", agents.join(",")),
        &upstream,
        &ludus,
    )?;
    Ok(upstream.len())
}
