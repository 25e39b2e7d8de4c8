"""The tools on top of the agents: the ``connectx`` command (cli.py, args.py), the
library of games between agents (arena/), the browser app (server/), one main a command
(commands/), one benchmark a file (bench/) and the project's own tools (tools/).

Importing it first checks that the package's other top-level names are the package's own
(:func:`check_siblings`): another distribution may install a top-level ``agents``
(openai-agents does; kaggle-environments puts the folder of its Lux environment, which
holds an ``agents.py``, on ``sys.path``), and the tools would then fail deep inside that
distribution's code.
"""
import importlib.util
import os
import sys

# the package's top-level names besides ``scripts``: they are installed beside it, in HOME
SIBLINGS = ("agents", "heuristics", "submission")
HOME = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def foreign_sibling(names=SIBLINGS):
    """``(name, file)`` of the first of ``names`` that Python imports (or has imported)
    from elsewhere than :data:`HOME`, else None. Nothing of another
    distribution runs: a name not yet imported is only looked up (its spec)."""
    for name in names:
        module = sys.modules.get(name)
        if module is not None:
            found = getattr(module, "__file__", None)
        else:
            try:
                spec = importlib.util.find_spec(name)
            except (ImportError, ValueError):
                spec = None
            if spec is None:
                continue  # not found at all: the import itself says so
            found = spec.origin if spec.has_location else None
        if found is None or \
                os.path.realpath(found) != os.path.join(HOME, name, "__init__.py"):
            return name, found or f"a namespace package ({name}/ without __init__.py)"
    return None


def check_siblings():
    """Exit with status 2 and one line on stderr when :func:`foreign_sibling` finds a
    top-level name of the package taken by another distribution's module."""
    found = foreign_sibling()
    if found is not None:
        name, path = found
        print(f"connectx-search: Python imports {name!r} from {path}, not from this package "
              f"({os.path.join(HOME, name)}); install the package again (pip install -e . in "
              f"its folder, or its wheel), in an environment of its own (python3 -m venv) if "
              f"another distribution there installs {name!r}", file=sys.stderr)
        raise SystemExit(2)


check_siblings()
