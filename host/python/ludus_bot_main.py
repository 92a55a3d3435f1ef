"""The Ludus wrapper around a Python bot: the component's `act` export.

The author's file is `ludus_user_bot.py`, with `def act(state)`. The state
arrives as JSON and is parsed into a dict; the answer is sent as it is when
it is a string, else as JSON. `print()` goes to the bot's log.
"""

import json

import wit_world

import ludus_turn
import ludus_user_bot


def _act(state):
    answer = ludus_user_bot.act(json.loads(state))
    if isinstance(answer, str):
        return answer
    return json.dumps(answer, separators=(",", ":"))


class WitWorld(wit_world.WitWorld):
    def act(self, state: str) -> str:
        return ludus_turn.run(lambda: _act(state))
