"""Drives a kaggle-environments reference engine and prints what it does as JSON lines.

    upstream.py episode --env ENV --seed S --players N --agents A,B[,C,D] [--steps K]
    upstream.py kaggle  --env ENV --seed S --agents PATH,PATH[,...] [--steps K]
    upstream.py boards  --env ENV --players N --from A --to B

`episode` prints the initial state, then one line per step with the actions
every seat passed to `env.step` (null for none), each line shaped like
`ludus engine run` output: {"step", "observation", "rewards", "statuses"}.
The observation is what the agent in seat 0 receives. `boards` prints the
initial observation for each seed in [A, B).

`kaggle` plays Kaggle submissions (paths of `main.py` files, one per seat)
as kaggle-environments' own runner plays them: each through upstream's
`Agent` (the file's last callable, obs and config structified), asked only
while its seat is ACTIVE. Its lines carry, besides the state, every seat's
action as the agent returned it and what it printed (`logs`). An agent
that raises ends the run with an error.

Agents come from `agents_<ENV>.py` next to this file:
`make_agent(name, seed, seat, configuration) -> f(observation, configuration) -> action`.
Agents must not raise: an exception is a fault of the test agent, not a
move, and ends the run with an error. The one exception: an exception with an
`answer_text` attribute stands for an answer that would make upstream's
interpreter itself raise (which would stop the episode). It is passed to
`env.step` as kaggle's runner passes an agent's exception (the seat becomes
ERROR), and recorded as {"raised": answer_text}: the answer Ludus is given.
"""

import argparse
import contextlib
import importlib
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# kaggle_environments prints notes on import; stdout carries only our lines.
with contextlib.redirect_stdout(sys.stderr):
    from kaggle_environments import make  # noqa: E402
    from kaggle_environments.utils import structify  # noqa: E402


def plain(value):
    """Structs and numpy scalars to plain JSON values; non-finite floats refused."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"non-finite float {value!r} in upstream output")
        return float(value)
    if hasattr(value, "item"):  # numpy scalar
        return plain(value.item())
    raise TypeError(f"cannot encode {type(value).__name__}: {value!r}")


def seat_observation(env, seat):
    # What kaggle's agent runner hands the agent in `seat` (hidden fields dropped).
    return env._Environment__get_shared_state(seat).observation


def state_line(env, actions=None, logs=None):
    line = {}
    if logs is not None:
        line["logs"] = logs
    if actions is not None:
        line["actions"] = actions
    line["step"] = env.state[0].observation.step
    line["observation"] = plain(seat_observation(env, 0))
    line["rewards"] = [plain(s.reward) for s in env.state]
    line["statuses"] = [s.status for s in env.state]
    return json.dumps(line, separators=(",", ":"), allow_nan=False)


def new_env(name, seed, players, steps):
    configuration = {"randomSeed": seed}
    if steps is not None:
        configuration["episodeSteps"] = steps
    env = make(name, configuration=configuration)
    env.reset(players)
    return env


def play(env, ask, with_logs=False):
    """Plays `env` to its end and prints its lines. `ask(seat)` gives an
    ACTIVE seat's (action for `env.step`, action as recorded, log)."""
    out = sys.stdout
    out.write(state_line(env) + "\n")
    while not env.done:
        actions, recorded, logs = [], [], []
        for seat in range(len(env.state)):
            if env.state[seat].status != "ACTIVE":
                action, record, log = None, None, {}
            else:
                action, record, log = ask(seat)
            actions.append(action)
            recorded.append(record)
            logs.append(log)
        env.step(actions, logs)
        printed = [log.get("stdout", "") + log.get("stderr", "") for log in logs] if with_logs else None
        out.write(state_line(env, recorded, printed) + "\n")


def episode(args):
    agents_module = importlib.import_module(f"agents_{args.env}")
    names = args.agents.split(",")
    if len(names) != args.players:
        sys.exit(f"--agents names {len(names)} agents for {args.players} players")
    env = new_env(args.env, args.seed, args.players, args.steps)
    agents = [
        agents_module.make_agent(name, args.seed, seat, env.configuration)
        for seat, name in enumerate(names)
    ]

    def ask(seat):
        obs = structify(plain(seat_observation(env, seat)))
        try:
            action = plain(agents[seat](obs, env.configuration))
        except Exception as e:
            if not hasattr(e, "answer_text"):
                raise
            return e, {"raised": e.answer_text}, {}
        return action, action, {}

    play(env, ask)


def kaggle(args):
    from kaggle_environments.agent import Agent

    paths = args.agents.split(",")
    env = new_env(args.env, args.seed, len(paths), args.steps)
    agents = [Agent(path, env) for path in paths]

    def ask(seat):
        action, log = agents[seat].act(seat_observation(env, seat))
        if isinstance(action, BaseException):
            step = env.state[0].observation.step
            sys.exit(f"seat {seat} ({paths[seat]}) raised at step {step}:\n{log['stderr']}")
        return action, plain(action), log

    play(env, ask, with_logs=True)


def boards(args):
    # One environment, reset per seed: making one costs far more than a reset.
    env = new_env(args.env, args.start, args.players, None)
    for seed in range(args.start, args.stop):
        env.configuration.randomSeed = seed
        env.reset(args.players)
        line = {"seed": seed, "observation": plain(seat_observation(env, 0))}
        sys.stdout.write(json.dumps(line, separators=(",", ":"), allow_nan=False) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ep = sub.add_parser("episode")
    ep.add_argument("--env", required=True)
    ep.add_argument("--seed", type=int, required=True)
    ep.add_argument("--players", type=int, required=True)
    ep.add_argument("--agents", required=True)
    ep.add_argument("--steps", type=int)
    kg = sub.add_parser("kaggle")
    kg.add_argument("--env", required=True)
    kg.add_argument("--seed", type=int, required=True)
    kg.add_argument("--agents", required=True)
    kg.add_argument("--steps", type=int)
    bd = sub.add_parser("boards")
    bd.add_argument("--env", required=True)
    bd.add_argument("--players", type=int, required=True)
    bd.add_argument("--from", dest="start", type=int, required=True)
    bd.add_argument("--to", dest="stop", type=int, required=True)
    args = parser.parse_args()
    {"episode": episode, "kaggle": kaggle, "boards": boards}[args.command](args)


if __name__ == "__main__":
    main()
