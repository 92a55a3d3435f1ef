"""Times Kaggle agent files in kaggle-environments, in process: the upstream
side of "Kaggle agents" in docs/benchmarks.md, whose Ludus side is
`cargo bench -p ludus-fidelity --bench kaggle_agents` (which runs this).

    bench_kaggle_agents.py episode --env ENV --seed S --agents PATH,PATH [--repeat N]
        `env.run(paths)` of a fresh environment, N times: one JSON line each
        with the steps, the seconds and the final rewards.

    bench_kaggle_agents.py turn --agent PATH --state FILE [--repeat N]
        One turn of the agent on the state in FILE (the JSON text a Ludus
        bot receives: {"observation", "configuration"}), in native CPython:
        the agent loaded as upstream's `get_last_callable` loads it and
        called once first, then N timed calls of what the Ludus wrapper
        does in a turn (parse the JSON, structify, call, dump the answer),
        N of parsing and structifying the state and building the helpers'
        `Board` from it, and N of parsing and structifying alone. One JSON
        line, the best time of each in milliseconds.
"""

import argparse
import contextlib
import importlib
import io
import json
import sys
import time

with contextlib.redirect_stdout(sys.stderr):
    from kaggle_environments import make
    from kaggle_environments.agent import get_last_callable
    from kaggle_environments.utils import structify


def episode(args):
    paths = args.agents.split(",")
    for _ in range(args.repeat):
        env = make(args.env, configuration={"randomSeed": args.seed})
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            steps = env.run(paths)
        elapsed = time.perf_counter() - start
        line = {
            "steps": len(steps) - 1,
            "seconds": elapsed,
            "rewards": [s.reward for s in env.state],
        }
        print(json.dumps(line), flush=True)


def turn(args):
    with open(args.agent) as f:
        agent = get_last_callable(f.read(), path=args.agent)
    with open(args.state) as f:
        state = f.read()
    parsed = json.loads(state)
    env = "kore_fleets" if "kore" in parsed["observation"] else "halite"
    board = importlib.import_module(f"kaggle_environments.envs.{env}.helpers").Board

    def whole_turn():
        s = json.loads(state)
        obs, config = structify(s["observation"]), structify(s["configuration"])
        return json.dumps(agent(obs, config), separators=(",", ":"))

    def board_only():
        s = json.loads(state)
        board(structify(s["observation"]), structify(s["configuration"]))

    def parse_only():
        s = json.loads(state)
        structify(s["observation"]), structify(s["configuration"])

    def best(f):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            f()
            times.append(time.perf_counter() - start)
        return min(times) * 1e3

    with contextlib.redirect_stdout(io.StringIO()):
        answer = whole_turn()
        turn_ms = best(whole_turn)
        board_ms = best(board_only)
        parse_ms = best(parse_only)
    print(json.dumps({"turn_ms": turn_ms, "board_ms": board_ms, "parse_ms": parse_ms, "answer": answer}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ep = sub.add_parser("episode")
    ep.add_argument("--env", required=True)
    ep.add_argument("--seed", type=int, required=True)
    ep.add_argument("--agents", required=True)
    ep.add_argument("--repeat", type=int, default=1)
    tu = sub.add_parser("turn")
    tu.add_argument("--agent", required=True)
    tu.add_argument("--state", required=True)
    tu.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    {"episode": episode, "turn": turn}[args.command](args)


if __name__ == "__main__":
    main()
