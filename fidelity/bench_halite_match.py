"""Times whole Halite episodes of kaggle-environments' built-in agents, in
process (no interpreter start-up or output counted): the upstream side of
"whole matches" in docs/benchmarks.md.

    python fidelity/bench_halite_match.py [--seeds 2,3,7] [--agent random]

Prints, per seed, the steps played, the seconds and the milliseconds a step.
"""

import argparse
import time

from kaggle_environments import make


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="2,3,7")
    parser.add_argument("--agent", default="random")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    for seed in [int(s) for s in args.seeds.split(",")]:
        env = make("halite", configuration={"randomSeed": seed})
        start = time.perf_counter()
        steps = env.run([args.agent] * args.players)
        elapsed = time.perf_counter() - start
        played = len(steps) - 1
        print(
            f"seed {seed}: {played} steps in {elapsed:.2f} s, "
            f"{elapsed / played * 1e3:.1f} ms a step, "
            f"statuses {[s.status for s in env.state]}"
        )


if __name__ == "__main__":
    main()
