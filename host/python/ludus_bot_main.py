"""The Ludus wrapper around a Python bot: the component's `act` export.

The author's file is `ludus_user_bot.py`, with `def act(state)`. The state
arrives as JSON and is parsed into a dict; the answer is sent as it is when
it is a string, else as JSON. `print()` goes to the bot's log.
"""

import json
import random
import sys
import traceback

import wit_world

import ludus_user_bot


_seeded = False


class WitWorld(wit_world.WitWorld):
    def act(self, state: str) -> str:
        global _seeded
        try:
            if not _seeded:
                # `random` was seeded once at build time, when the interpreter
                # was snapshotted: reseed it from this seat's stream.
                random.seed()
                _seeded = True
            answer = ludus_user_bot.act(json.loads(state))
            if isinstance(answer, str):
                return answer
            return json.dumps(answer, separators=(",", ":"))
        except BaseException:
            # The traceback goes to the log; the turn ends in a trap, and the
            # next turn starts from a fresh instance.
            traceback.print_exc()
            raise
        finally:
            # Not a terminal: Python buffers its output, and there is no exit
            # to flush it.
            sys.stdout.flush()
            sys.stderr.flush()
