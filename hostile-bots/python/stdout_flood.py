"""Prints 1 MiB to stdout and a line to stderr every turn, then answers."""

import sys

LINE = "x" * 1023


def act(state):
    for _ in range(1024):
        print(LINE)
    print("and some stderr", file=sys.stderr)
    return {"moves": []}
