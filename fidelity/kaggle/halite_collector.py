"""A Halite IV agent on kaggle-environments' helpers, in the shape of a
Kaggle submission: one file whose last function is the agent.

Deterministic: no randomness, no iteration over sets or dicts of strings.
Its first ship builds a shipyard; ships mine where the cell is rich, move
to the richest neighbour where it is not, and bring their cargo home; the
shipyard spawns while the bank allows, up to a fleet of eight.
"""

from kaggle_environments.envs.halite.helpers import (
    Board,
    Point,
    ShipAction,
    ShipyardAction,
)

RETURN_AT = 400
MINE_ABOVE = 60


def toward(start, goal, size):
    """The move one step closer to `goal` on the torus (east-west first)."""
    dx = (goal.x - start.x) % size
    dy = (goal.y - start.y) % size
    if dx:
        return ShipAction.EAST if dx <= size // 2 else ShipAction.WEST
    if dy:
        return ShipAction.NORTH if dy <= size // 2 else ShipAction.SOUTH
    return None


def richest_neighbour(board, ship):
    best, best_halite = None, ship.cell.halite
    for move in ShipAction.moves():
        cell = board[ship.position.translate(move.to_point(), board.configuration.size)]
        if cell.halite > best_halite * 1.5 and cell.ship is None:
            best, best_halite = move, cell.halite
    return best


def agent(obs, config):
    board = Board(obs, config)
    me = board.current_player
    size = config.size
    bank = me.halite
    claimed = []
    for ship in me.ships:
        if not me.shipyards and ship is me.ships[0] and bank + ship.halite >= config.convertCost:
            ship.next_action = ShipAction.CONVERT
            continue
        if ship.halite >= RETURN_AT and me.shipyards:
            home = min(
                me.shipyards,
                key=lambda y: (y.position.distance_to(ship.position, size), y.id),
            )
            move = toward(ship.position, home.position, size)
        elif ship.cell.halite < MINE_ABOVE:
            move = richest_neighbour(board, ship) or toward(ship.position, Point(size // 2, size // 2), size)
        else:
            move = None
        target = ship.position if move is None else ship.position.translate(move.to_point(), size)
        if target in claimed:
            move, target = None, ship.position
        claimed.append(target)
        ship.next_action = move
    for shipyard in me.shipyards:
        if (
            bank >= config.spawnCost
            and len(me.ships) < 8
            and board.step < 300
            and shipyard.position not in claimed
        ):
            shipyard.next_action = ShipyardAction.SPAWN
            bank -= config.spawnCost
    return me.next_actions
