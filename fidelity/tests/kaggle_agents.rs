//! Kaggle agents, unchanged, in kaggle-environments 1.33.2 and in Ludus:
//! the same submission files played in both, every action of every seat at
//! every step compared, then every state and the final rewards.
//!
//! Upstream, each file goes through kaggle-environments' own `Agent` (its
//! last callable, `obs` and `config` structified), as `env.run` plays it. In
//! Ludus, it is built with `ludus build-bot` (the game detected from its
//! imports) and played in the sandbox under the default limits.
//!
//! The agents are deterministic, so both sides must play the same moves:
//! the Kore starter bot that ships inside kaggle-environments; `kore_seeded`,
//! which draws from `random` but seeds it itself (one seat only: upstream,
//! every agent shares one `random` module); and two Halite agents on the
//! helpers, one a single file and one a folder with a module and a package
//! beside its `main.py` (`fidelity/kaggle/`). What they print is compared
//! too: upstream's per-step stdout against the bot's log.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread;

use anyhow::{bail, ensure, Context, Result};
use ludus_fidelity::kaggle::{agents_dir, build_agent, kore_starter, main_py};
use ludus_fidelity::{compare_episodes, ludus_episode, upstream_kaggle_episode, Json, StepLine};
use ludus_host::build::kaggle::KaggleGame;
use ludus_host::{BotModule, Limits, MatchSpec, Replay};

struct Episode {
    game: KaggleGame,
    seed: u64,
    /// One submission per seat.
    agents: Vec<PathBuf>,
}

/// Builds a submission, checking the game it is detected for.
fn build(path: &Path, game: KaggleGame) -> Result<Arc<BotModule>> {
    let (bot, detected) = build_agent(path)?;
    ensure!(
        detected == game,
        "{} detected as {detected}",
        path.display()
    );
    Ok(bot)
}

fn statuses(line: &StepLine) -> Vec<String> {
    match line.state.get("statuses") {
        Some(Json::Array(s)) => s
            .iter()
            .map(|s| match s {
                Json::Str(s) => s.clone(),
                other => other.to_text(),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Compares what the agents did in Ludus with what they did upstream:
/// every action of every seat that upstream asked (an ACTIVE seat), and
/// what it printed; then every state, as the Ludus engine resolves the
/// answers the bots gave, and the final rewards. Returns the number of
/// actions compared.
fn compare(what: &str, ep: &Episode, upstream: &[StepLine], replay: &Replay) -> Result<usize> {
    ensure!(replay.aborted.is_none(), "{what}: aborted");
    ensure!(
        replay.turns.len() + 1 == upstream.len(),
        "{what}: Ludus played {} steps, upstream {}",
        replay.turns.len(),
        upstream.len() - 1
    );
    let mut compared = 0;
    for (step, pair) in upstream.windows(2).enumerate() {
        let (before, after) = (&pair[0], &pair[1]);
        let turn = &replay.turns[step];
        for (seat, status) in statuses(before).iter().enumerate() {
            if status != "ACTIVE" {
                continue;
            }
            let ours = &turn.seats[seat];
            if let Some(f) = &ours.fault {
                bail!(
                    "{what}: step {} seat {seat}: fault {f}\n{}",
                    step + 1,
                    ours.log
                );
            }
            let parse = |text: Option<&str>| Json::parse(text.unwrap_or("null"));
            let theirs = parse(after.answers[seat].as_deref())?;
            let mine = parse(ours.answer.as_deref())?;
            ensure!(
                mine == theirs,
                "{what}: step {} seat {seat}: Ludus answered {}, upstream's agent {}",
                step + 1,
                mine.to_text(),
                theirs.to_text()
            );
            ensure!(
                ours.log == after.logs[seat],
                "{what}: step {} seat {seat}: Ludus logged {:?}, upstream's agent printed {:?}",
                step + 1,
                ours.log,
                after.logs[seat]
            );
            compared += 1;
        }
    }
    // The whole game: the bots' answers through the engine give upstream's
    // state at every step, rewards and statuses included.
    let answers: Vec<Vec<Option<String>>> = replay
        .turns
        .iter()
        .map(|t| t.seats.iter().map(|s| s.answer.clone()).collect())
        .collect();
    let lines = ludus_episode(
        ep.game.game_id(),
        &serde_json::Value::Null,
        ep.seed,
        ep.agents.len(),
        &answers,
    )?;
    compare_episodes(what, upstream, &lines)?;
    let outcome = replay.outcome.as_ref().context("no outcome")?;
    let Some(Json::Array(rewards)) = upstream.last().and_then(|l| l.state.get("rewards")) else {
        bail!("{what}: upstream has no rewards");
    };
    for (seat, reward) in rewards.iter().enumerate() {
        let reward = match reward {
            Json::Int(i) => *i as f64,
            Json::Float(f) => *f,
            other => bail!("{what}: seat {seat}'s reward is {}", other.to_text()),
        };
        ensure!(
            outcome.scores[seat].to_bits() == reward.to_bits(),
            "{what}: seat {seat} scored {} in Ludus, {reward} upstream",
            outcome.scores[seat]
        );
    }
    Ok(compared)
}

#[test]
fn kaggle_agents_play_the_same_moves_as_in_kaggle_environments() {
    let dir = agents_dir();
    let starter = kore_starter().expect("the fidelity venv");
    let seeded = dir.join("kore_seeded.py");
    let collector = dir.join("halite_collector.py");
    let pack = dir.join("halite_pack");
    let episodes = [
        Episode {
            game: KaggleGame::Kore,
            seed: 7,
            agents: vec![starter.clone(), starter.clone()],
        },
        Episode {
            game: KaggleGame::Kore,
            seed: 12,
            agents: vec![seeded.clone(), starter.clone(), starter.clone(), starter],
        },
        Episode {
            game: KaggleGame::Halite,
            seed: 3,
            agents: vec![
                collector.clone(),
                pack.clone(),
                collector.clone(),
                pack.clone(),
            ],
        },
        Episode {
            game: KaggleGame::Halite,
            seed: 8,
            agents: vec![pack, collector],
        },
    ];
    let what = |ep: &Episode| {
        format!(
            "{} seed {} [{}]",
            ep.game,
            ep.seed,
            ep.agents
                .iter()
                .map(|a| a.file_stem().unwrap().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let (upstream, ludus) = thread::scope(|s| {
        // Upstream (one Python process per episode, one at a time) while
        // Ludus builds and plays.
        let upstream = s.spawn(|| {
            episodes
                .iter()
                .map(|ep| {
                    let paths: Vec<PathBuf> = ep.agents.iter().map(|a| main_py(a)).collect();
                    upstream_kaggle_episode(ep.game.env_name(), ep.seed, &paths, None)
                })
                .collect::<Vec<_>>()
        });
        let ludus: Vec<Result<Replay>> = episodes
            .iter()
            .map(|ep| {
                let bots = ep
                    .agents
                    .iter()
                    .map(|a| build(a, ep.game))
                    .collect::<Result<Vec<_>>>()?;
                Ok(ludus_host::play(&MatchSpec {
                    game: ep.game.game_id().into(),
                    config: serde_json::Value::Null,
                    seed: ep.seed,
                    limits: Limits::default(),
                    bots,
                })?)
            })
            .collect();
        (upstream.join().expect("upstream thread"), ludus)
    });
    let mut total = 0;
    for ((ep, up), replay) in episodes.iter().zip(upstream).zip(ludus) {
        let what = what(ep);
        let up = up.unwrap_or_else(|e| panic!("{what}: upstream: {e:#}"));
        let replay = replay.unwrap_or_else(|e| panic!("{what}: Ludus: {e:#}"));
        let n = compare(&what, ep, &up, &replay).unwrap_or_else(|e| panic!("{e:#}"));
        assert!(n >= 399 * 2, "{what}: only {n} actions compared");
        let printed = replay
            .turns
            .iter()
            .filter(|t| t.seats.iter().any(|s| !s.log.is_empty()))
            .count();
        eprintln!(
            "{what}: {} steps, {n} actions identical, {printed} steps with output",
            up.len() - 1
        );
        total += n;
    }
    eprintln!("{total} actions compared");
}
