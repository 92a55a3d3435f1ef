"""Ship moves: mine, roam toward halite, come home with a full hold."""

from kaggle_environments.envs.halite.helpers import ShipAction

FULL = 500


def step_toward(start, goal, size):
    dy = (goal.y - start.y) % size
    dx = (goal.x - start.x) % size
    if dy:
        return ShipAction.NORTH if dy <= size // 2 else ShipAction.SOUTH
    if dx:
        return ShipAction.EAST if dx <= size // 2 else ShipAction.WEST
    return None


def plan_moves(board, me):
    """Sets every ship's next action; returns the cells claimed for next turn."""
    size = board.configuration.size
    claimed = []
    for index, ship in enumerate(me.ships):
        if not me.shipyards and index == 0:
            ship.next_action = ShipAction.CONVERT
            continue
        if ship.halite >= FULL and me.shipyards:
            move = step_toward(ship.position, me.shipyards[0].position, size)
        elif ship.cell.halite >= 100:
            move = None
        else:
            moves = ShipAction.moves()
            move = moves[(board.step + index) % 4]
        target = ship.position if move is None else ship.position.translate(move.to_point(), size)
        if target in claimed:
            move, target = None, ship.position
        claimed.append(target)
        ship.next_action = move
    return claimed
