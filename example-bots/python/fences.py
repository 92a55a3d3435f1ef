"""Fences (the sample bot of the rule book): close a loop when a move can."""


def act(state):
    if not state["your_turn"]:
        return "WAIT"
    for x1, y1, x2, y2, breaks, closes in state["legal_moves"]:
        if closes:  # comes back to your own lines
            return f"MOVE {x1} {y1} {x2} {y2}"
    return state["legal_actions"][0]
