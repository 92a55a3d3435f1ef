"""Ludus's stand-in package module: the game whose helpers the bot was built with."""
