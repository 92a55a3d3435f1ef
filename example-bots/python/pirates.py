"""Pirates (the sample bot): fire at the first ship in range, drink below
half health, otherwise sail the step that brings the ship nearest the flag."""

STEPS = {"nw": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (0, 1), "sw": (-1, 1), "w": (-1, 0)}


def distance(q1, r1, q2, r2):
    return (abs(q1 - q2) + abs(r1 - r2) + abs((q1 + r1) - (q2 + r2))) // 2


def act(state):
    me = state["player%d" % state["yourId"]]
    legal = state["legalActions"]
    for action in legal:
        if action.startswith("atk-"):
            return action
    if me["potNums"] > 0 and me["health"] * 2 < me["maxHealth"] and "up" in legal:
        return "up"
    flag = state["flag"]
    best = None
    for action in legal:
        if action in STEPS:
            dq, dr = STEPS[action]
            d = distance(me["q"] + dq, me["r"] + dr, flag["q"], flag["r"])
            if best is None or d < best[0]:
                best = (d, action)
    if best:
        return best[1]
    return legal[0]
