"""Times kaggle-environments' `kore_fleets` on a recorded answer stream.

    replay_upstream.py --seed S --players N FILE

FILE has one JSON array of answers per step (each answer the JSON text of a
seat's action dict), as `KORE_STREAM_OUT` makes the engine benchmark write.
Prints the number of steps and the time per `env.step`.
"""

import argparse
import json
import time

from kaggle_environments import make


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("file")
    args = parser.parse_args()
    with open(args.file) as f:
        stream = [[json.loads(a) for a in json.loads(line)] for line in f if line.strip()]
    env = make("kore_fleets", configuration={"randomSeed": args.seed})
    env.reset(args.players)
    steps = 0
    start = time.perf_counter()
    for actions in stream:
        if env.done:
            break
        env.step(actions)
        steps += 1
    elapsed = time.perf_counter() - start
    print(json.dumps({"steps": steps, "ms_per_step": 1000 * elapsed / steps,
                      "rewards": [s.reward for s in env.state]}))


if __name__ == "__main__":
    main()
