"""Shields (the sample bot of the rule book): walk east, finishing every take."""


def act(state):
    me = state["self"]
    if me["need"]:
        return "STAY"  # finish taking or upgrading this cell
    return "EAST" if "EAST" in state["legal_actions"] else "STAY"
