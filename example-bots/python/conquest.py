"""Conquest (the sample bot of the rule book): east, south, or build a mine."""


def act(state):
    if state["self"]["busy"]:
        return "WAIT"  # claiming, fighting or building
    for a in ("EAST", "SOUTH", "BUILD MINE"):
        if a in state["legal_actions"]:
            return a
    return "WAIT"
