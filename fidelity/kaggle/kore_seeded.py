"""A Kore 2022 agent on kaggle-environments' helpers, in the shape of a
Kaggle submission: one file whose last function is the agent.

It draws from `random`, which it seeds itself at the top of the file, so it
plays the same moves wherever it runs: in kaggle-environments (where the
file runs on the agent's first call) and in Ludus (where the bot's seeded
`random` is seeded again by this line). Only one seat of a game may play
it upstream: there every agent shares one `random` module.
"""

import random

from kaggle_environments.envs.kore_fleets.helpers import (
    Board,
    Direction,
    Fleet,
    ShipyardAction,
)

random.seed(2022)
print("kore_seeded: seeded")


def flight_plan(ships):
    """A loop out and back (N3E3S3W style), cut to what `ships` may fly;
    large fleets sometimes end in C, to build a shipyard."""
    first = Direction.from_index(random.randrange(4))
    turn = first.rotate_right() if random.random() < 0.5 else first.rotate_left()
    legs = [first, turn, first.opposite(), turn.opposite()]
    plan = "".join(d.to_char() + str(random.randint(1, 6)) for d in legs)
    if ships >= 60 and random.random() < 0.3:
        plan = first.to_char() + str(random.randint(2, 5)) + "C"
    return plan[: Fleet.max_flight_plan_len_for_ship_count(ships)]


def agent(obs, config):
    board = Board(obs, config)
    me = board.current_player
    kore = me.kore
    for shipyard in me.shipyards:
        if shipyard.ship_count >= 21 and random.random() < 0.5:
            ships = random.randint(21, shipyard.ship_count)
            shipyard.next_action = ShipyardAction.launch_fleet_with_flight_plan(ships, flight_plan(ships))
        elif kore >= config.spawnCost:
            ships = min(shipyard.max_spawn, int(kore // config.spawnCost))
            shipyard.next_action = ShipyardAction.spawn_ships(ships)
            kore -= ships * config.spawnCost
    if obs.step % 100 == 0:
        print(f"step {obs['step']}: {me.kore:.3f} kore, {len(me.fleets)} fleets")
    return me.next_actions
