//! Kaggle agent files in Ludus and in kaggle-environments 1.33.2, side by
//! side in one run (`docs/benchmarks.md`, "Kaggle agents"):
//!
//! - a whole episode of the agent against itself: `ludus_host::play` of the
//!   built bot (instantiation, every turn, the engine) against upstream's
//!   `env.run([file, file])` (`fidelity/bench_kaggle_agents.py`), both in
//!   process; the final rewards are printed for both, the same game;
//! - one turn of the agent in the middle of that episode, warm: fuel and
//!   time inside Ludus, time in native CPython; and, to see what the turn
//!   is made of, the same for an agent that only builds the helpers'
//!   `Board`, and for one that does nothing (reading the state).
//!
//! `cargo bench -p ludus-fidelity --bench kaggle_agents`

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ludus_fidelity::kaggle::{agents_dir, build_agent, kore_starter};
use ludus_host::build::kaggle::KaggleGame;
use ludus_host::seat::SeatRunner;
use ludus_host::wasi::BotIo;
use ludus_host::{BotModule, Limits, MatchSpec, Replay};

const EPISODES: usize = 3;
const TURNS: usize = 20;

struct Case {
    game: KaggleGame,
    seed: u64,
    agent: PathBuf,
    /// The step whose observation the one-turn measures use.
    step: usize,
}

fn build(path: &Path) -> Arc<BotModule> {
    build_agent(path).unwrap_or_else(|e| panic!("{e:#}")).0
}

/// An agent file that does only part of a turn: `body` after the import.
fn partial_agent(dir: &Path, game: KaggleGame, name: &str, body: &str) -> PathBuf {
    let path = dir.join(format!("{}_{name}.py", game.game_id()));
    let text = format!(
        "from kaggle_environments.envs.{}.helpers import Board\n\n\ndef agent(obs, config):\n{body}    return {{}}\n",
        game.env_name()
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn python() -> PathBuf {
    ludus_fidelity::python().expect("the fidelity venv")
}

fn script() -> PathBuf {
    ludus_testkit::workspace_root().join("fidelity/bench_kaggle_agents.py")
}

fn json_lines(out: std::process::Output) -> Vec<serde_json::Value> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The JSON text seat 0's bot receives before step `step` of `replay`.
fn observation_at(case: &Case, replay: &Replay, step: usize) -> String {
    let mut game = ludus_engine::new_game(
        case.game.game_id(),
        &serde_json::Value::Null,
        case.seed,
        replay.seats.len(),
    )
    .unwrap();
    for turn in &replay.turns[..step] {
        let answers: Vec<Option<&str>> = turn.seats.iter().map(|s| s.answer.as_deref()).collect();
        game.step(&answers);
    }
    let mut text = String::new();
    game.observation(0, &mut text);
    text
}

/// A warm instance of `bot` (its first turn, where main.py runs, played on
/// `first`), then `TURNS` turns on `state`: (fuel of one, best time).
fn one_turn(bot: &Arc<BotModule>, first: &str, state: &str) -> (u64, Duration) {
    let limits = Limits::default();
    let io = BotIo::new(
        ludus_engine::rng::stream(0, "bench"),
        limits.random_bytes_per_call,
        limits.log_bytes,
    );
    let mut runner = SeatRunner::new(bot.clone(), &limits, io);
    let r = runner.act(first, 1).unwrap();
    assert!(r.answer.is_ok(), "{:?}", r.answer.err());
    let mut fuel = 0;
    let mut best = Duration::MAX;
    for turn in 0..TURNS {
        let start = Instant::now();
        let r = runner.act(state, 2 + turn as u32).unwrap();
        best = best.min(start.elapsed());
        assert!(r.answer.is_ok(), "{:?}", r.answer.err());
        fuel = r.fuel;
    }
    (fuel, best)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    // `cargo bench` passes `--bench`; nothing here takes arguments.
    let partial = tempfile::tempdir().unwrap();
    let cases = [
        Case {
            game: KaggleGame::Kore,
            seed: 7,
            agent: kore_starter().unwrap(),
            step: 200,
        },
        Case {
            game: KaggleGame::Halite,
            // Both seats play all 399 steps.
            seed: 2,
            agent: agents_dir().join("halite_collector.py"),
            step: 200,
        },
    ];
    for case in &cases {
        let name = format!("{} {}", case.game, case.agent.display());
        let bot = build(&case.agent);

        // A whole episode, against itself.
        let spec = MatchSpec {
            game: case.game.game_id().into(),
            config: serde_json::Value::Null,
            seed: case.seed,
            limits: Limits::default(),
            bots: vec![bot.clone(), bot.clone()],
        };
        let mut times = Vec::new();
        let mut replay = None;
        for _ in 0..EPISODES {
            let start = Instant::now();
            replay = Some(ludus_host::play(&spec).unwrap());
            times.push(start.elapsed());
        }
        let replay = replay.unwrap();
        let turns = replay.turns.len();
        let fuel: u64 = replay
            .turns
            .iter()
            .flat_map(|t| &t.seats)
            .map(|s| s.fuel)
            .sum();
        times.sort();
        let scores = &replay.outcome.as_ref().unwrap().scores;
        eprintln!(
            "{name}, seed {}: Ludus, {turns} steps in {:.2} / {:.2} / {:.2} s (min / median / max of {EPISODES}), {:.1} ms a step, {:.1} M fuel a seat a step; rewards {scores:?}",
            case.seed,
            times[0].as_secs_f64(),
            times[EPISODES / 2].as_secs_f64(),
            times[EPISODES - 1].as_secs_f64(),
            ms(times[EPISODES / 2]) / turns as f64,
            fuel as f64 / (turns * 2) as f64 / 1e6,
        );
        let agent = case.agent.display().to_string();
        let upstream = json_lines(
            Command::new(python())
                .arg(script())
                .args(["episode", "--env", case.game.env_name()])
                .args(["--seed", &case.seed.to_string()])
                .args(["--agents", &format!("{agent},{agent}")])
                .args(["--repeat", "2"])
                .output()
                .unwrap(),
        );
        for line in &upstream {
            let steps = line["steps"].as_u64().unwrap();
            let seconds = line["seconds"].as_f64().unwrap();
            eprintln!(
                "{name}, seed {}: kaggle-environments env.run, {steps} steps in {seconds:.2} s, {:.1} ms a step; rewards {}",
                case.seed,
                seconds * 1e3 / steps as f64,
                line["rewards"]
            );
            let rewards: Vec<f64> = line["rewards"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_f64().unwrap())
                .collect();
            assert_eq!(&rewards, scores, "{name}: not the same game");
        }

        // One turn.
        let state_file = partial.path().join(format!("{}-state.json", case.game));
        let state = observation_at(case, &replay, case.step);
        std::fs::write(&state_file, &state).unwrap();
        let first = observation_at(case, &replay, 0);
        let board = partial_agent(
            partial.path(),
            case.game,
            "board",
            "    Board(obs, config)\n",
        );
        let nothing = partial_agent(partial.path(), case.game, "nothing", "");
        let native = json_lines(
            Command::new(python())
                .arg(script())
                .arg("turn")
                .arg("--agent")
                .arg(&case.agent)
                .arg("--state")
                .arg(&state_file)
                .output()
                .unwrap(),
        );
        let native = &native[0];
        for (what, path, native_ms) in [
            ("the whole turn", &case.agent, &native["turn_ms"]),
            ("the state and the Board only", &board, &native["board_ms"]),
            ("the state only", &nothing, &native["parse_ms"]),
        ] {
            let (fuel, time) = one_turn(&build(path), &first, &state);
            eprintln!(
                "{name}, step {}: {what}: Ludus {:.1} M fuel, {:.2} ms; native CPython {:.2} ms",
                case.step,
                fuel as f64 / 1e6,
                ms(time),
                native_ms.as_f64().unwrap()
            );
        }
    }
}
