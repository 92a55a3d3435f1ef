"""Ludus's stand-in package module: only `helpers` is bundled."""
