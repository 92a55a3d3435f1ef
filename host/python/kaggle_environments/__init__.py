"""Ludus's own stand-in for the `kaggle_environments` package inside a bot.

The real package's `__init__` registers every environment, which imports
numpy and much else that cannot run in WebAssembly. A Kaggle agent needs
only the helpers: `kaggle_environments.helpers` and
`kaggle_environments.envs.<game>.helpers`, which `ludus build-bot` takes
unchanged from the kaggle-environments release below and bundles beside
this module.
"""

__version__ = "1.33.2"
