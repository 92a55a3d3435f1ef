"""Agents for Halite fidelity episodes (see upstream.py).

make_agent(name, seed, seat, configuration) -> f(observation, configuration) -> action

Names:
  idle            always {}
  random          random legal actions: moves, stays, converts and spawns, plus
                  actions the engine ignores (SPAWN for a ship, a move for a
                  shipyard, other seats' uids, unknown uids); it spawns and
                  converts only while it keeps spawnCost in the bank, so it
                  rarely drops out and episodes run their full length
  miner           mines until its hold is full, returns to a shipyard, builds
                  one when it has none and spawns while it keeps a reserve:
                  games with deposits, large banks and heavy ships
  malformed       like random, but sometimes answers with values the schema
                  turns into {} (strings, lists, numbers, null) and, now and
                  then, with a value it rejects (the seat becomes INVALID)
  builtin:random  kaggle-environments' own random agent

Every agent but builtin:random draws from its own random.Random seeded from
(seed, seat), so a stream is reproducible. builtin:random uses the global
`random` module, which populate_board seeds with the episode's randomSeed;
the agents of one episode share it in seat order.
"""

import random

MOVES = ["NORTH", "EAST", "SOUTH", "WEST"]


def _rng(name, seed, seat):
    return random.Random(f"{name}/{seed}/{seat}")


def _mine(obs):
    bank, yards, ships = obs["players"][obs["player"]]
    return bank, yards, ships


def _neighbour(pos, move, size):
    row, col = divmod(pos, size)
    if move == "NORTH":
        row = (row - 1) % size
    elif move == "SOUTH":
        row = (row + 1) % size
    elif move == "EAST":
        col = (col + 1) % size
    elif move == "WEST":
        col = (col - 1) % size
    return row * size + col


def _random_actions(rng, obs, config):
    bank, yards, ships = _mine(obs)
    reserve = config["spawnCost"]
    actions = {}
    for uid, (pos, cargo) in ships.items():
        r = rng.random()
        if r < 0.25:
            continue  # stay and mine
        if r < 0.30:
            after = bank + min(cargo - config["convertCost"], 0)
            if after >= reserve:
                bank = after
                actions[uid] = "CONVERT"
            else:
                actions[uid] = rng.choice(MOVES)
        elif r < 0.31:
            actions[uid] = "SPAWN"  # ignored: ships do not spawn
        else:
            actions[uid] = rng.choice(MOVES)
    for uid in yards:
        r = rng.random()
        if r < 0.35:
            if bank - config["spawnCost"] >= reserve or (not ships and bank >= config["spawnCost"]):
                bank -= config["spawnCost"]
                actions[uid] = "SPAWN"
            elif bank < config["spawnCost"]:
                actions[uid] = "SPAWN"  # the bank is short: refused
        elif r < 0.37:
            actions[uid] = rng.choice(MOVES + ["CONVERT"])  # ignored
    r = rng.random()
    if r < 0.05:
        # Another seat's asset: ignored.
        others = [u for p, player in enumerate(obs["players"]) if p != obs["player"] for u in player[2]]
        if others:
            actions[rng.choice(others)] = rng.choice(MOVES)
    elif r < 0.08:
        actions[f"{obs['step']}-{rng.randint(0, 99)}x"] = "NORTH"  # no such asset
    items = list(actions.items())
    rng.shuffle(items)
    return dict(items)


def _miner_actions(rng, obs, config):
    size = config["size"]
    bank, yards, ships = _mine(obs)
    halite = obs["halite"]
    actions = {}
    yard_cells = list(yards.values())
    taken = set()
    for uid, (pos, cargo) in ships.items():
        if not yard_cells and bank + cargo >= config["convertCost"] and uid == next(iter(ships)):
            actions[uid] = "CONVERT"
            continue
        if cargo > 400 and yard_cells:
            target = min(yard_cells, key=lambda c: _distance(pos, c, size))
            move = _step_towards(pos, target, size, rng)
        elif halite[pos] > 60 or rng.random() < 0.2:
            move = None
        else:
            best = max(MOVES, key=lambda m: (halite[_neighbour(pos, m, size)], rng.random()))
            move = best
        dest = pos if move is None else _neighbour(pos, move, size)
        if dest in taken and rng.random() < 0.7:
            move = rng.choice(MOVES)
            dest = _neighbour(pos, move, size)
        taken.add(dest)
        if move is not None:
            actions[uid] = move
    for uid, pos in yards.items():
        if bank >= 2 * config["spawnCost"] and (not ships or (len(ships) < 12 and rng.random() < 0.6)):
            actions[uid] = "SPAWN"
            bank -= config["spawnCost"]
    return actions


def _distance(a, b, size):
    ar, ac = divmod(a, size)
    br, bc = divmod(b, size)
    dr = abs(ar - br)
    dc = abs(ac - bc)
    return min(dr, size - dr) + min(dc, size - dc)


def _step_towards(pos, target, size, rng):
    options = [m for m in MOVES if _distance(_neighbour(pos, m, size), target, size) < _distance(pos, target, size)]
    return rng.choice(options) if options else None


def make_agent(name, seed, seat, configuration):
    if name == "idle":
        return lambda obs, config: {}
    if name == "builtin:random":
        from kaggle_environments.envs.halite.halite import random_agent

        return random_agent
    rng = _rng(name, seed, seat)
    if name == "random":
        return lambda obs, config: _random_actions(rng, obs, config)
    if name == "miner":
        return lambda obs, config: _miner_actions(rng, obs, config)
    if name == "malformed":

        def malformed(obs, config):
            r = rng.random()
            if r < 0.03:
                return rng.choice(["NORTH", ["NORTH"], 7, 2.5, None, True, [], ""])
            if r < 0.045:
                _, yards, ships = _mine(obs)
                uids = list(ships) + list(yards) or ["0-1"]
                bad = rng.choice([5, None, "north", "STAY", ["EAST"], {"a": 1}, 1.5, ""])
                actions = _random_actions(rng, obs, config)
                actions[rng.choice(uids)] = bad
                return actions
            return _random_actions(rng, obs, config)

        return malformed
    raise ValueError(f"unknown agent {name!r}")
