"""Loops (the sample bot of the rule book): walk east unless being driven home."""


def act(state):
    me = state["self"]
    if me["returning"]:
        return "STAY"  # cut: the server drives you home
    return "EAST" if "EAST" in state["legal_actions"] else "STAY"
