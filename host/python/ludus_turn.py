"""One turn of a Python bot, as every Ludus wrapper runs it."""

import random
import sys
import traceback

_seeded = False


def run(body):
    """Returns `body()`: on the first turn after reseeding `random`, which
    was seeded once at build time, when the interpreter was snapshotted, from
    this seat's stream. An exception's traceback goes to the log and the turn
    ends in a trap (the next turn starts from a fresh instance). The output
    is flushed: Python buffers it, and there is no exit to flush it."""
    global _seeded
    try:
        if not _seeded:
            random.seed()
            _seeded = True
        return body()
    except BaseException:
        traceback.print_exc()
        raise
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
