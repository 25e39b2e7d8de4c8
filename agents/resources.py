"""Package data (opening books, suites, labelled positions, the page's files), found
through one function on :mod:`importlib.resources`.

``data_path(package, *parts)`` is the path of a file shipped in a package (declared in
``pyproject.toml``'s package-data): every reader of package data asks it, so the same
code reads the checkout, an editable install and an installed wheel.
``read_resource(name)`` returns the bytes of ``agents/data/<name>``. The submission
bundler replaces this lookup with data embedded in the generated file (there is no
package directory on Kaggle), so agents must load their data only through here.
"""
import os
import pathlib
from importlib import resources as _resources

# Filled by a generated submission file: name -> bytes. Looked up first.
EMBEDDED = {}


def data_path(package, *parts):
    """The path (``pathlib.Path``) of the package data ``parts`` of the importable
    ``package`` ("agents", "scripts", "scripts.server"), which may not exist: the caller
    that reads it names what is missing. The package is installed as files (a wheel
    unpacked, or an editable checkout), never imported from a zip, so the path is the
    file itself."""
    found = _resources.files(package)
    for part in parts:
        found = found.joinpath(part)
    return pathlib.Path(str(found))


def read_resource(name):
    """Bytes of the resource ``name``; ``FileNotFoundError`` names what is missing."""
    if name in EMBEDDED:
        return EMBEDDED[name]
    path = data_path("agents", "data", name)
    if not path.is_file():
        raise FileNotFoundError(f"agents resource {name!r} not found at {path}")
    return path.read_bytes()


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
