"""Agents for driving kaggle-environments' `kore_fleets` in the fidelity tests.

`make_agent(name, seed, seat, configuration)` returns `f(observation,
configuration) -> action`. Every agent draws from its own
`random.Random(seed * 1_000_003 + seat)`, so a (seed, seat, name) always gives
the same stream of actions.

Names:
  random            random legal orders: spawns (some over the cap or the
                    kore), launches with random plans (some longer than the
                    fleet may fly, some with conversions), nothing
  malformed         answers upstream reads without failing, but odd: unknown
                    uids, falsy values, lowercase and unicode plans, numbers
                    with spaces, dots and signs, non-dict answers
  crasher           `random`, but now and then an answer that upstream's
                    interpreter raises on (bad ints, bad plans, non-strings)
  builtin:NAME      upstream's own agents (random, miner, do_nothing, balanced,
                    attacker), each run on its own random stream

An answer that would make upstream's interpreter raise cannot be played
upstream (the whole episode would stop). The agent raises `AgentRaised`
instead, carrying the answer's JSON text: `upstream.py` passes the exception
to `env.step`, which marks the seat ERROR, and records the text as the answer
Ludus gets, on which Ludus marks the seat ERROR too.
"""

import contextlib
import io
import json
import random

from kaggle_environments.envs.kore_fleets import kore_fleets
from kaggle_environments.envs.kore_fleets.helpers import (
    Fleet,
    ShipyardAction,
    ShipyardActionType,
)


class AgentRaised(Exception):
    """Carries the answer that upstream's interpreter would raise on."""

    def __init__(self, answer_text):
        super().__init__(answer_text)
        self.answer_text = answer_text


def _own_shipyards(obs):
    return obs["players"][obs["player"]][1]


def _would_raise(obs, config, action):
    """Whether upstream's `Board(...).next()` raises on this answer."""
    if not isinstance(action, dict):
        return False
    for uid in _own_shipyards(obs):
        raw = action.get(uid)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                parsed = ShipyardAction.from_str(raw)
            if (
                parsed is not None
                and parsed.action_type == ShipyardActionType.SPAWN
                and parsed.num_ships != 0
            ):
                config["spawnCost"] * parsed.num_ships  # OverflowError for huge ints
        except Exception:
            return True
    return False


def _plan(rng, max_len):
    """A random flight plan: starts with a direction, then directions, counts and C."""
    length = rng.randint(1, max_len + rng.choice([0, 0, 0, 2, 5]))
    plan = rng.choice("NESW")
    while len(plan) < length:
        r = rng.random()
        if r < 0.45:
            plan += rng.choice("NESW")
        elif r < 0.9:
            plan += str(rng.randint(0, 12))
        else:
            plan += "C"
    return plan


def _random_orders(rng, obs, config):
    me = obs["players"][obs["player"]]
    kore = me[0]
    orders = {}
    for uid, (pos, ships, turns) in me[1].items():
        r = rng.random()
        if r < 0.15:
            continue
        if r < 0.55 or ships == 0:
            cap = 1
            for target in [2, 7, 17, 34, 60, 97, 147, 212, 294]:
                if turns >= target:
                    cap += 1
            n = rng.randint(0, cap + 1)
            if n * config["spawnCost"] <= kore or rng.random() < 0.1:
                orders[uid] = f"SPAWN_{n}"
                kore -= min(kore, n * config["spawnCost"])
            continue
        if ships >= 50 and rng.random() < 0.3:
            n = rng.randint(50, ships)
            plan = rng.choice("NESW") + str(rng.randint(1, 6)) + rng.choice(["C", "EC", "SC", "C"])
        else:
            n = rng.randint(1, ships + (1 if rng.random() < 0.1 else 0))
            plan = _plan(rng, Fleet.max_flight_plan_len_for_ship_count(max(n, 1)))
        orders[uid] = f"LAUNCH_{n}_{plan}"
    return orders


_ODD_VALUES = [
    None, "", 0, 0.0, False, [], {}, "HELLO", "spawn_1", "SPAWN_0", "SPAWN_99",
    "SPAWN_1.7", "SPAWN_ 1", "SPAWN_+1", "SPAWN_-0", "SPAWNX_1", "SPAWN_\u0661",
    "SPAWN_1\u00a0", "LAUNCH_999_N", "LAUNCH_1.9_e", "LAUNCH_2_n5e", "LAUNCH_3_\u017f",
    "LAUNCH_4_W\u00df", "LAUNCH_2_N" + "0" * 30, "LAUNCH_3_S0C", "LAUNCH_5_NC5",
    "LAUNCHED_1_E", "launch_1_N",
]

_CRASHING_VALUES = [
    "SPAWN_abc", "SPAWN_-1", "SPAWN_", "SPAWN_1_2", "SPAWN", "SPAWN_" + "9" * 400,
    "LAUNCH_0_N", "LAUNCH_2_X", "LAUNCH_2_", "LAUNCH_2", "LAUNCH_x_N", "LAUNCH_2_CN",
    "LAUNCH_2_N_E", 5, True, ["SPAWN_1"], {"a": 1}, 1.5,
]


def _malformed(rng, obs, config):
    r = rng.random()
    if r < 0.05:
        return rng.choice([None, "garbage", [1, 2], 7, "", "SPAWN_1", {}])
    orders = _random_orders(rng, obs, config)
    for uid in list(_own_shipyards(obs)):
        if rng.random() < 0.5:
            orders[uid] = rng.choice(_ODD_VALUES)
    for _ in range(rng.randint(0, 3)):
        key = rng.choice(["0-1", "1-1", "x", "", "99-99", "0-01", " 0-1"]) + rng.choice(["", "", "-1"])
        orders.setdefault(key, rng.choice(_ODD_VALUES + _CRASHING_VALUES))
    # Fleet uids are not shipyards: upstream ignores them.
    for player in obs["players"]:
        for fid in list(player[2])[:1]:
            orders[fid] = rng.choice(["SPAWN_1", "LAUNCH_1_N", 5])
    return orders


def _crasher(rng, obs, config):
    orders = _random_orders(rng, obs, config)
    shipyards = list(_own_shipyards(obs))
    if shipyards and rng.random() < 1 / 120:
        orders[rng.choice(shipyards)] = rng.choice(_CRASHING_VALUES)
    return orders


def make_agent(name, seed, seat, configuration):
    rng = random.Random(seed * 1_000_003 + seat)

    if name.startswith("builtin:"):
        builtin = kore_fleets.agents[name.split(":", 1)[1]]
        # Upstream's agents draw from the module-level `random`: give each its
        # own stream by swapping the generator's state in and out.
        state = rng.getstate()

        def act(obs, config):
            nonlocal state
            saved = random.getstate()
            random.setstate(state)
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    return builtin(obs, config)
            finally:
                state = random.getstate()
                random.setstate(saved)

    else:
        policy = {"random": _random_orders, "malformed": _malformed, "crasher": _crasher}[name]

        def act(obs, config):
            return policy(rng, obs, config)

    def agent(obs, config):
        action = act(obs, config)
        if _would_raise(obs, config, action):
            raise AgentRaised(json.dumps(action))
        return action

    return agent
