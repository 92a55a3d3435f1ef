"""What the shipyards do."""

from .spawning import plan_spawns  # noqa: F401
