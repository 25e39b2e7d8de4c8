"""Package data (opening books and the like), read through one function.

``read_resource(name)`` returns the bytes of ``agents/data/<name>``. The submission
bundler replaces this lookup with data embedded in the generated file (there is no
package directory on Kaggle), so agents must load their data only through here.
"""
import os

_DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

# Filled by a generated submission file: name -> bytes. Looked up first.
EMBEDDED = {}


def read_resource(name):
    """Bytes of the resource ``name``; ``FileNotFoundError`` names what is missing."""
    if name in EMBEDDED:
        return EMBEDDED[name]
    path = os.path.join(_DATA_DIR, name)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"agents resource {name!r} not found at {path}")
    with open(path, "rb") as f:
        return f.read()


def read_file(path):
    """Bytes of a user's file ``path`` that an agent option names (a network of
    ``connectx learn``): in a generated submission file, the resource embedded under the
    file's base name (the bundler embeds it from the agent's ``RESOURCE_PATHS``); else
    the file itself. ``FileNotFoundError`` names the path."""
    name = os.path.basename(path)
    if name in EMBEDDED:
        return EMBEDDED[name]
    if not os.path.isfile(path):
        raise FileNotFoundError(f"no file {path!r}")
    with open(path, "rb") as f:
        return f.read()
