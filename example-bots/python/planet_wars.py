"""Planet Wars: every turn, send the ships of my strongest planet to the
weakest planet I do not own, when they are enough to take it.

Build: ludus build-bot planet_wars.py -o planet_wars.wasm
"""

import sys


def act(state):
    planets = state["planets"]
    mine = [p for p in planets if p["owner"] == 1]
    others = [p for p in planets if p["owner"] != 1]
    if not mine or not others:
        return {"moves": []}
    # Ties broken by name, so the choice never depends on list order.
    source = max(mine, key=lambda p: (p["ship_count"], p["name"]))
    target = min(others, key=lambda p: (p["ship_count"], p["name"]))
    # One ship is built before ships leave, so the full count may go.
    if source["ship_count"] <= target["ship_count"]:
        return {"moves": []}
    print(f"{source['name']} -> {target['name']}", file=sys.stderr)
    return {
        "moves": [
            {
                "origin": source["name"],
                "destination": target["name"],
                "ship_count": source["ship_count"],
            }
        ]
    }
