"""Reports what it sees of time and randomness: both must be virtual and seeded."""

import os
import random
import time


def act(state):
    wall = time.time_ns()
    start = time.monotonic_ns()
    time.sleep(0.05)
    slept = time.monotonic_ns() - start
    spins = 0
    while time.monotonic_ns() - start < 60_000_000:
        spins += 1
    return {
        "moves": [],
        "wall_ns": wall,
        "slept_ns": slept,
        "spins": spins,
        "urandom": os.urandom(8).hex(),
        "random": random.random(),
    }
