"""The optional dependencies (the package's extras): one check, one message.

A command, a match in a notebook or a benchmark that needs kaggle-environments,
matplotlib or Dask calls :func:`require` first; the ``ValueError`` names the extra to
install (the commands turn it into one line on stderr and exit status 2).
"""
import importlib.util

PACKAGE = "connectx-search"

EXTRAS = {"kaggle_environments": ("kaggle-environments", "games"),
          "matplotlib": ("matplotlib", "games"),
          "distributed": ("dask[distributed]", "cluster"),
          "jax": ("jax", "learn"), "optax": ("optax", "learn"),
          "textarena": ("textarena", "arenas"), "litellm": ("litellm", "arenas"),
          "anywidget": ("anywidget", "notebook")}


def require(module, feature):
    """``ValueError`` naming the extra to install if ``module`` (a key of
    :data:`EXTRAS`) cannot be imported; ``feature`` says what needs it."""
    if importlib.util.find_spec(module) is None:
        dist, extra = EXTRAS[module]
        raise ValueError(f"{feature} needs {dist}, which is not installed: "
                         f"pip install '{PACKAGE}[{extra}]'")
