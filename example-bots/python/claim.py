"""Claim (the sample bot of the rule book): walk east, finishing every capture."""


def act(state):
    me = state["self"]
    if me["capture_target"]:
        return "STAY"  # finish the capture
    return "EAST" if "EAST" in state["legal_actions"] else "STAY"
