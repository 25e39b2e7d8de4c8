"""The optional dependencies (the package's extras): one check, one message.

A command, a match in a notebook or a benchmark that needs kaggle-environments,
matplotlib or Dask calls :func:`require` first; the ``ValueError`` names the extra to
install (the commands turn it into one line on stderr and exit status 2).
"""
import importlib.util
import sys

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


# jsonschema (which kaggle-environments imports) checks the "iri" formats with
# rfc3987_syntax when that module imports; it builds a grammar at import time: 3 of the
# 4.5 s of CPU that ``import kaggle_environments`` costs. No kaggle schema uses those
# formats (none of its environments' JSON has a "format": "iri...").
IRI_GRAMMAR = "rfc3987_syntax"


def skip_iri_grammar():
    """Mark :data:`IRI_GRAMMAR` absent (``import`` then raises ImportError, which
    jsonschema expects: its iri format check is then not registered) unless it is
    imported already. Only for processes the package owns -- the ``connectx`` command,
    the test suite; ``submission/worker.py``, which may not import the package, does the
    same in its two lines -- never on importing a library module."""
    sys.modules.setdefault(IRI_GRAMMAR, None)
