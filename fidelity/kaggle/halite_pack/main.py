"""A Halite IV agent as a Kaggle submission of several files: this main.py
and, beside it, a module (`navigation.py`) and a package (`roles/`), as a
`.tar.gz` or folder would carry them. Deterministic."""

import sys

sys.path.append("/kaggle_simulations/agent")  # what Kaggle submissions did to import their files

from kaggle_environments.envs.halite.helpers import Board  # noqa: E402
from navigation import plan_moves  # noqa: E402
from roles import plan_spawns  # noqa: E402

print("halite_pack: loaded")


def agent(obs, config):
    board = Board(obs, config)
    me = board.current_player
    claimed = plan_moves(board, me)
    plan_spawns(board, me, claimed)
    if board.step % 100 == 99:
        print(f"step {board.step}: {me.halite} halite, {len(me.ships)} ships")
    return me.next_actions
