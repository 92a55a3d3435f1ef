"""The Ludus wrapper around a Python bot: the component's `act` export.

The author's file is `ludus_user_bot.py`, with `def act(state)`. The state
arrives as JSON and is parsed into a dict; the answer is sent as it is when
it is a string, else as JSON. `print()` goes to the bot's log.

The author's code is compiled under the name of the author's own file
(`AUTHOR_FILE`, which the build writes below), and its lines are kept for
tracebacks: a traceback names `my_bot.py` and shows its lines, as Python
would on the author's machine, not the copy the build made.
"""

import importlib.util
import json
import linecache
import sys

import wit_world

import ludus_turn

# The name of the author's file; `ludus build-bot` writes it here.
AUTHOR_FILE = "bot.py"


def _load_author_module():
    """Runs the author's file as the module `ludus_user_bot` (at build time,
    when the interpreter is snapshotted, as an import would)."""
    spec = importlib.util.find_spec("ludus_user_bot")
    source = spec.loader.get_source("ludus_user_bot")
    # An entry without a modification time is never checked against a file.
    linecache.cache[AUTHOR_FILE] = (len(source), None, source.splitlines(True), AUTHOR_FILE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["ludus_user_bot"] = module
    # Named after the author's file, when no other module has that name, so
    # that its own classes (an exception of its own) are named as on the
    # author's machine; registered under it too, as `dataclasses` and
    # `typing` look a class's module up by name.
    name = AUTHOR_FILE.removesuffix(".py")
    if name.isidentifier() and name not in sys.modules and importlib.util.find_spec(name) is None:
        module.__name__ = name
        sys.modules[name] = module
    exec(compile(source, AUTHOR_FILE, "exec"), module.__dict__)
    return module


ludus_user_bot = _load_author_module()


def _author_file(filename):
    return AUTHOR_FILE if filename == AUTHOR_FILE else None


def _act(state):
    answer = ludus_user_bot.act(json.loads(state))
    if isinstance(answer, str):
        return answer
    try:
        return json.dumps(answer, separators=(",", ":"))
    except (TypeError, ValueError) as e:
        raise TypeError(f"act returned an answer JSON cannot carry: {e}") from None


class WitWorld(wit_world.WitWorld):
    def act(self, state: str) -> str:
        return ludus_turn.run(lambda: _act(state), _author_file)
