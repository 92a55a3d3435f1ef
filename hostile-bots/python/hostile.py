"""Hostile behaviours in one Python bot, so the tests build and compile a
single component: the name of the bot's own planet picks the behaviour.

- loop: never answers (an endless loop)
- sleep: sleeps for a day every turn
- flood: prints 1 MiB to stdout and a line to stderr, then answers
- clock...: reports what it sees of time and randomness
- raise: counts its calls in a global and raises on the second
"""

import os
import random
import sys
import time

calls = 0
LINE = "x" * 1023


def act(state):
    global calls
    calls += 1
    mode = next(p["name"] for p in state["planets"] if p["owner"] == 1)
    if mode == "loop":
        n = 0
        while True:
            n += 1
    if mode == "sleep":
        time.sleep(86400)
    if mode == "flood":
        for _ in range(1024):
            print(LINE)
        print("and some stderr", file=sys.stderr)
    if mode.startswith("clock"):
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
    if mode == "raise":
        print(f"call {calls}")
        if calls == 2:
            raise RuntimeError("this bot raises on its second call")
    return {"moves": [], "calls": calls}
