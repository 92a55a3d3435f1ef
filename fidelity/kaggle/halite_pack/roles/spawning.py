"""Spawning: one ship a turn per shipyard while the bank and the fleet allow."""

from kaggle_environments.envs.halite.helpers import ShipyardAction

MAX_SHIPS = 6


def plan_spawns(board, me, claimed):
    bank = me.halite
    for shipyard in me.shipyards:
        if bank >= board.configuration.spawn_cost and len(me.ships) < MAX_SHIPS and shipyard.position not in claimed:
            shipyard.next_action = ShipyardAction.SPAWN
            bank -= board.configuration.spawn_cost
