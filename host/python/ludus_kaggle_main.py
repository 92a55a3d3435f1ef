"""The Ludus wrapper around a Kaggle agent: the component's `act` export.

It calls the agent as kaggle-environments 1.33.2 does (`agent.py`):

- The agent is the last callable the submission's `main.py` defines: its
  code runs with `exec` in an empty namespace on the first call (so
  `__name__` is not `"__main__"`), with the agent's folder on `sys.path`.
- It gets `obs` and `config` as `Struct`s (a dict whose keys are also
  attributes), `config["__raw_path__"]` set to the path of `main.py`, and as
  many of the two as its code takes (`co_argcount`).
- What it returns goes out as JSON: the action dict for Kore or Halite.

What differs, because a bot is a sandboxed component:

- Everything is imported when the bot is built (componentize-py snapshots
  the interpreter then, and a bot has no files to import from later): every
  module the submission imports, and the helpers of kaggle-environments.
  The submission's own modules (files next to `main.py`) are kept as
  compiled code and imported from memory when the agent imports them, so
  their top-level code runs when it would on Kaggle.
- `random` is seeded from the seat's random stream before the agent's code
  first runs, as for every Ludus bot; an agent that seeds it itself still
  gets its own seed.

The build writes `ludus_kaggle_submission.py` with the submission's sources
and the imports to make; a failed import stops the build with a line
starting `ludus-build-error: `, which `ludus build-bot` shows.
"""

import importlib
import importlib.abc
import importlib.util
import io
import json
import linecache
import math
import sys

import wit_world

import ludus_kaggle_submission
import ludus_turn

# Where Kaggle unpacks a submission.
AGENT_DIR = "/kaggle_simulations/agent"
RAW_PATH = AGENT_DIR + "/main.py"

_MANIFEST = json.loads(ludus_kaggle_submission.MANIFEST)


class BuildError(Exception):
    """Stops the build; its message is one line that names the file and import."""

    def __init__(self, message):
        super().__init__("ludus-build-error: " + message.replace("\n", " "))


# --- obs and config, as kaggle_environments.utils gives them ---------------


class Struct(dict):
    """A dict whose keys are also attributes, as `kaggle_environments.utils.Struct`."""

    def __init__(self, **entries):
        entries = {k: v for k, v in entries.items() if k != "items"}
        dict.__init__(self, entries)
        self.__dict__.update(entries)

    def __setattr__(self, attr, value):
        self.__dict__[attr] = value
        self[attr] = value


def parse_state(state):
    """`obs` and `config` from the state's JSON, as upstream's `structify`
    makes them of the parsed JSON (every dict a `Struct`, every list a new
    list), but built while parsing rather than by a second pass."""
    parsed = json.loads(state, object_hook=lambda d: Struct(**d))
    return parsed["observation"], parsed["configuration"]


# --- the submission's own modules, imported from memory --------------------


def _compile_sources():
    code = {}
    for rel, source in _MANIFEST["sources"].items():
        path = AGENT_DIR + "/" + rel
        try:
            code[rel] = compile(source, path, "exec")
        except SyntaxError as e:
            raise BuildError(f"{rel} line {e.lineno}: SyntaxError: {e.msg}") from None
        # Tracebacks show the submission's lines: a bot has no files to
        # read them from (an entry without a time is never checked).
        linecache.cache[path] = (len(source), None, source.splitlines(True), path)
    return code


_CODE = _compile_sources()


class SubmissionFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the submission's modules (`strategy.py`, `pkg/__init__.py`, ...)
    by module name. It comes after the standard finders, as Kaggle appends
    the agent's folder to the end of `sys.path`."""

    def __init__(self, modules, packages):
        self.modules = modules  # module name -> source file
        self.packages = packages  # package name -> __init__ file or None

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.packages:
            rel = self.packages[fullname]
            origin = AGENT_DIR + "/" + (rel or fullname.replace(".", "/"))
            spec = importlib.util.spec_from_loader(fullname, self, origin=origin, is_package=True)
            spec.submodule_search_locations = [AGENT_DIR + "/" + fullname.replace(".", "/")]
        elif fullname in self.modules:
            origin = AGENT_DIR + "/" + self.modules[fullname]
            spec = importlib.util.spec_from_loader(fullname, self, origin=origin)
        else:
            return None
        spec.has_location = fullname in self.modules or self.packages.get(fullname) is not None
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = module.__name__
        rel = self.packages.get(name) if name in self.packages else self.modules.get(name)
        if rel is not None:
            exec(_CODE[rel], module.__dict__)


sys.meta_path.append(SubmissionFinder(_MANIFEST["modules"], _MANIFEST["packages"]))


# --- imports made at build time --------------------------------------------


def _preimport():
    for imp in _MANIFEST["imports"]:
        module, where = imp["module"], imp["where"]
        try:
            imported = importlib.import_module(module)
            for name in imp["names"]:
                if not hasattr(imported, name):
                    importlib.import_module(module + "." + name)
        except Exception as e:
            if imp["optional"]:
                continue
            what = f"`from {module} import {', '.join(imp['names'])}`" if imp["names"] else module
            # A missing `_name` is the native half of a standard module.
            native = isinstance(e, ModuleNotFoundError) and (e.name or "").startswith("_")
            native = (
                "; CPython in WebAssembly has no native extensions, so a module with"
                " native code cannot be used by a bot"
                if native
                else ""
            )
            raise BuildError(f"{where} imports {what}, which cannot be loaded in a Ludus bot ({e}){native}") from None


_preimport()


# --- the agent --------------------------------------------------------------


def load_agent():
    """Kaggle's `get_last_callable`: run main.py in an empty namespace and
    take the last callable value it holds (in order of first binding). What
    main.py prints meanwhile is held back and printed after it, with
    `print`, as upstream does (so it ends with one more newline)."""
    env = {}
    held = io.StringIO()
    stdout, sys.stdout = sys.stdout, held
    try:
        sys.path.append(AGENT_DIR)
        exec(_CODE["main.py"], env)
        sys.path.pop()
    finally:
        sys.stdout = stdout
        if held.getvalue():
            print(held.getvalue())
    callables = [v for v in env.values() if callable(v)]
    if not callables:
        raise RuntimeError("main.py defines no callable: Kaggle calls the last function it defines")
    return callables[-1]


def _jsonable(value):
    """The value as JSON can carry it. Anything else (an Enum member, a
    helper's action object, NaN) becomes an object, which the engines treat
    as upstream treats such a value: an error (Kore) or an invalid action
    (Halite), never a valid order."""
    if isinstance(value, (str, int)) or value is None:
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"unencodable": "float"}
    if isinstance(value, dict):
        return {
            (k if isinstance(k, (str, int, float, bool)) or k is None else repr(k)): _jsonable(v)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return {"unencodable": type(value).__name__}


def answer(action):
    """The Ludus answer for what the agent returned. Upstream reads anything
    that is not a dict as no action, so only dicts are sent as they are."""
    if not isinstance(action, dict):
        return "null"
    return json.dumps(_jsonable(action), separators=(",", ":"))


_agent = None


def _act(state):
    global _agent
    if _agent is None:
        # `random` is reseeded for this seat by now; the agent's own code
        # runs after (and may seed it again).
        _agent = load_agent()
    obs, config = parse_state(state)
    config["__raw_path__"] = RAW_PATH
    args = [obs, config]
    code = getattr(_agent, "__code__", None)
    if code is not None and hasattr(code, "co_argcount"):
        args = args[: code.co_argcount]
    return answer(_agent(*args))


def _author_file(filename):
    """A file of the submission, named as in it (`main.py`), or None."""
    rel = filename.removeprefix(AGENT_DIR + "/")
    return rel if rel != filename and rel in _CODE else None


class WitWorld(wit_world.WitWorld):
    def act(self, state: str) -> str:
        return ludus_turn.run(lambda: _act(state), _author_file)
