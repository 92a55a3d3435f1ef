"""A Kaggle Kore agent that reports how it is called: its answer carries,
under a key that is no shipyard (the engine ignores it), what it saw."""

import random

from kaggle_environments.envs.kore_fleets.helpers import Board

print("top level ran, __name__ is", __name__)
calls = 0


def agent(obs, config):
    return {"called": "agent, which is not the last callable"}


def report(obs, config, extra="not passed"):
    global calls
    calls += 1
    board = Board(obs, config)
    return {
        "probe": {
            "player": obs.player,
            "step": obs["step"],
            "size": config.size,
            "size_by_key": config["size"],
            "overage": obs.remainingOverageTime,
            "raw_path": config["__raw_path__"],
            "struct": [type(obs).__name__, type(obs.players).__name__, isinstance(config, dict)],
            "extra": extra,
            "calls": calls,
            "shipyards": len(board.current_player.shipyards),
            "random": random.random(),
        }
    }
