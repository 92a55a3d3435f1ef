"""Counts its turns in a global and raises on its second turn."""

calls = 0


def act(state):
    global calls
    calls += 1
    print(f"call {calls}")
    if calls == 2:
        raise RuntimeError("this bot raises on its second call")
    return {"moves": [], "calls": calls}
