"""Times kaggle-environments' halite `env.step` on the action stream that
`cargo bench -p ludus-engine --bench halite` records.

    python fidelity/bench_halite.py target/halite-bench-stream.jsonl [--seed 7] [--repeat 3]

Prints the best time per step over the repeats and the final rewards (which
the Rust benchmark prints too: the same game on both sides).
"""

import argparse
import json
import time

from kaggle_environments import make


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("stream")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with open(args.stream) as f:
        steps = [json.loads(line) for line in f if line.strip()]
    best = None
    for _ in range(args.repeat):
        env = make("halite", configuration={"randomSeed": args.seed})
        env.reset(len(steps[0]))
        start = time.perf_counter()
        for actions in steps:
            env.step(actions)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print(f"{len(steps)} steps, best {best:.3f} s, {best / len(steps) * 1e3:.3f} ms per step")
    print("final rewards", [s.reward for s in env.state], "statuses", [s.status for s in env.state])


if __name__ == "__main__":
    main()
