"""Build one self-contained Kaggle ConnectX submission file from the package.

    connectx build [--agent NAME] [--option key=value ...] --out main.py

(without ``--agent``: the package's best agent, ``agents.BEST``; the command line is
:mod:`scripts.commands.build`, this module is the library).

The file is generated, never hand-edited:

* the agent is built once here with the options (``agents.make``), so unknown or
  bad options fail the build with the package's own message;
* the modules it needs are found by walking the import graph (``import`` and
  ``from ... import`` statements anywhere in a module, lazy ones included) from
  the agent's module and the registry, restricted to the package's own packages
  (:data:`PACKAGES`); their source text is embedded as is, so a change in the
  package changes the next build;
* resources are the names in the agent's ``RESOURCES`` attribute (a tuple of
  file names under ``agents/data/``; an instance may narrow it according to its
  options) or, if the agent declares none, every file of ``agents/data/`` whose
  name a bundled module spells out in a string constant; they are embedded as
  base64 of lzma-compressed bytes with their sha256, and handed to
  ``agents.resources.EMBEDDED`` when that module is imported;
* ``submission/runtime.py`` is appended verbatim: an import hook that loads the
  embedded modules under their real names, and ``agent`` -- the last callable in
  the file, as Kaggle requires.

Checks made here (each failure is a ``BuildError`` naming the problem, exit 2):
an embedded module uses ``cache=True``, imports a third-party module other than
numpy/numba (and numba's llvmlite), or imports a package module that does not exist; an option is
unknown or invalid; a resource is missing; the file does not compile or does
not end with ``def agent``.
"""
import ast
import base64
import hashlib
import importlib.util
import lzma
import os
import sys
import textwrap

# The package's own top-level packages: imports of these are embedded, anything
# else must be the standard library or one of THIRD_PARTY.
PACKAGES = ("agents", "heuristics")
REGISTRY = "agents"                  # make(name, **options), AGENTS
RESOURCE_MODULE = "agents.resources"  # EMBEDDED: name -> bytes
JIT_MODULE = "agents.board.jit"      # HAVE_NUMBA
DATA = ("agents", "data")           # the resources: package data of agents
# what a Kaggle ConnectX image provides; llvmlite is numba's own compiler (installed
# with it), which agents.board.jit uses for its prefetch hint
THIRD_PARTY = ("numpy", "numba", "llvmlite")
RUNTIME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runtime.py")


class BuildError(ValueError):
    """The submission cannot be built; the message says why."""


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


def parse_option(text):
    """``"key=value"`` -> ``(key, value)`` with the command lines' one value parser
    (:func:`agents.options.parse_value`: int, float, true/false/none in any case, a
    quoted string, else the text); ``BuildError`` if malformed."""
    from agents.options import parse_option as parse
    try:
        return parse(text, "--option")
    except ValueError as exc:
        raise BuildError(str(exc)) from None


def data_folder(data_dir=None):
    """``data_dir``, or else the folder of the package data :data:`DATA`."""
    if data_dir is not None:
        return data_dir
    from agents.resources import data_path
    return str(data_path(*DATA))


# ---------------------------------------------------------------------------
# The import graph
# ---------------------------------------------------------------------------


def module_file(name, root=None):
    """(path, is_package) of the package module ``name`` under the folder ``root``, by
    default where the import system finds its top-level package (looked up, not
    imported); None where there is none."""
    if root is None:
        spec = importlib.util.find_spec(name.partition(".")[0])
        if spec is None or not spec.submodule_search_locations:
            return None
        root = os.path.dirname(os.path.abspath(list(spec.submodule_search_locations)[0]))
    base = os.path.join(root, *name.split("."))
    if os.path.isfile(os.path.join(base, "__init__.py")):
        return os.path.join(base, "__init__.py"), True
    if os.path.isfile(base + ".py"):
        return base + ".py", False
    return None


def imported_names(tree, name, is_package):
    """``(absolute name, required)`` of everything a module imports: ``import a.b``
    and ``from a import b`` require ``a.b`` and ``a``; ``a.b`` from the latter may
    be an attribute rather than a module (not required)."""
    out = []
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, True) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                if node.level - 1 > len(parts) - 1:
                    raise BuildError(f"{name}: relative import beyond the top-level package")
                base = ".".join(parts[:len(parts) - (node.level - 1)])
                module = base + ("." + node.module if node.module else "")
            else:
                module = node.module
            out.append((module, True))
            out.extend((f"{module}.{alias.name}", False) for alias in node.names
                       if alias.name != "*")
    return out


def uses_cache_true(tree):
    """True if any call passes ``cache=True`` (numba's disk cache: fails on Kaggle)."""
    return any(isinstance(node, ast.keyword) and node.arg == "cache"
               and isinstance(node.value, ast.Constant) and node.value.value is True
               for node in ast.walk(tree))


def collect_modules(roots, root=None, packages=PACKAGES):
    """Every package module reachable from ``roots`` by imports, with its parent
    packages: ``{name: (is_package, source)}`` sorted by name, and the sorted
    top-level names of the other modules they import."""
    found, external = {}, set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        if name.split(".")[0] not in packages:
            raise BuildError(f"{name} is not in the package ({', '.join(packages)})")
        where = module_file(name, root)
        if where is None:
            raise BuildError(f"package module {name} not found"
                             + (f" under {root}" if root else ""))
        path, is_package = where
        with open(path, encoding="utf-8") as f:
            source = f.read()
        try:
            tree = ast.parse(source, path)
        except SyntaxError as exc:
            raise BuildError(f"{name} ({path}) does not parse: {exc}") from None
        if uses_cache_true(tree):
            raise BuildError(f"{name} ({path}) uses cache=True: numba's disk cache "
                             "fails in a file run from a string and on Kaggle's read-only disk")
        found[name] = (is_package, source)
        parents = name.split(".")
        todo.extend(".".join(parents[:i]) for i in range(1, len(parents)))
        for imported, required in imported_names(tree, name, is_package):
            top = imported.split(".")[0]
            if top in packages:
                if module_file(imported, root) is not None:
                    todo.append(imported)
                elif required:
                    raise BuildError(f"{name} imports {imported}, which is not in the package")
            else:
                external.add(top)
    for top in sorted(external):
        if top not in THIRD_PARTY and top not in sys.stdlib_module_names and top != "__future__":
            raise BuildError(f"the agent's modules import {top!r}: a submission may use only "
                             f"the standard library, {', '.join(THIRD_PARTY)} and the package")
    return dict(sorted(found.items())), sorted(external)


# ---------------------------------------------------------------------------
# Resources
# ---------------------------------------------------------------------------


def agent_resources(player):
    """The resource names ``player`` declares (``RESOURCES``: a tuple of file
    names), or None if it declares nothing."""
    names = getattr(player, "RESOURCES", None)
    if names is None:
        return None
    if isinstance(names, str) or not all(isinstance(n, str) and n for n in names):
        raise BuildError(f"{type(player).__name__}.RESOURCES must be a tuple of file names, "
                         f"got {names!r}")
    return tuple(names)


def named_resources(modules, data_dir=None):
    """``{file name: [modules]}`` for the files in ``data_dir`` whose name appears as a
    string constant in a module (``BOOK_NAME = "book7x6.bin"``); ``data_dir``: by
    default the package data :data:`DATA`."""
    data_dir = data_folder(data_dir)
    if not os.path.isdir(data_dir):
        return {}
    files = {f for f in os.listdir(data_dir)
             if not f.startswith(".") and os.path.isfile(os.path.join(data_dir, f))}
    found = {}
    for name, (_, source) in modules.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value in files:
                found.setdefault(node.value, []).append(name)
    return {f: sorted(set(m)) for f, m in sorted(found.items())}


def choose_resources(player, modules, data_dir=None):
    """(names, why): the agent's ``RESOURCES`` if it declares them, else every file
    of ``data_dir`` that a bundled module names in a string constant."""
    names = agent_resources(player)
    if names is not None:
        return names, f"declared by {type(player).__name__}.RESOURCES"
    named = named_resources(modules, data_dir)
    why = "; ".join(f"{f} named in {', '.join(m)}" for f, m in named.items())
    return tuple(named), why or "none declared or named"


def load_resources(names, data_dir=None, paths=None):
    """``{name: bytes}`` of the resources, read from ``paths[name]`` (a user's file an
    option names: the agent's ``RESOURCE_PATHS``) or else from ``data_dir`` (by default
    the package data :data:`DATA`)."""
    data_dir = data_folder(data_dir)
    out = {}
    for name in names:
        path = (paths or {}).get(name) or os.path.join(data_dir, name)
        if os.path.basename(name) != name or not os.path.isfile(path):
            raise BuildError(f"resource {name!r} not found at {path}")
        with open(path, "rb") as f:
            out[name] = f.read()
    return out


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------


def text_literal(text):
    """A readable Python literal for ``text``: triple-quoted, one source line per
    line (``repr`` when that cannot round-trip)."""
    body = text.replace("\\", "\\\\").replace("'''", "\\'\\'\\'")
    if body.endswith("'"):
        body = body[:-1] + "\\'"
    literal = "'''" + body + "'''"
    try:
        if ast.literal_eval(literal) == text:
            return literal
    except (ValueError, SyntaxError):
        pass
    return repr(text)


def _pack(data):
    """(sha256 hex, wrapped base64 of lzma-compressed ``data``)."""
    packed = base64.b64encode(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)).decode()
    return hashlib.sha256(data).hexdigest(), "\n".join(textwrap.wrap(packed, 76))


def bundle_id(agent_name, options, modules, resources, runtime):
    h = hashlib.sha256()
    for part in (agent_name, repr(sorted(options.items())), runtime):
        h.update(part.encode())
    for name, (is_package, source) in modules.items():
        h.update(f"\0{name}\0{is_package}\0".encode() + source.encode())
    for name, data in sorted(resources.items()):
        h.update(f"\0{name}\0".encode() + data)
    return h.hexdigest()


def render(agent_name, options, modules, resources, runtime=None, packages=PACKAGES,
           registry=REGISTRY, resource_module=RESOURCE_MODULE, jit_module=JIT_MODULE):
    """The submission file's text (the keyword arguments name the package layout)."""
    if runtime is None:
        with open(RUNTIME, encoding="utf-8") as f:
            runtime = f.read()
    if repr(options) != repr(ast.literal_eval(repr(options))):
        raise BuildError(f"options must be plain literals, got {options!r}")
    ident = bundle_id(agent_name, options, modules, resources, runtime)
    lines = [
        "# ConnectX submission generated by `connectx build`: do not edit,",
        "# rebuild. Kaggle runs this file and calls its last callable, `agent`.",
        f"# agent: {agent_name} {options!r}",
        f"# modules: {', '.join(modules)}",
        f"# resources: {', '.join(resources) or 'none'}",
        "",
        f"_AGENT_NAME = {agent_name!r}",
        f"_AGENT_OPTIONS = {options!r}",
        f"_BUNDLE_ID = {ident!r}",
        f"_PACKAGES = {tuple(packages)!r}",
        f"_REGISTRY = {registry!r}",
        f"_RESOURCE_MODULE = {resource_module!r}",
        f"_JIT_MODULE = {jit_module!r}",
        "",
        "_MODULES = {}",
    ]
    for name, (is_package, source) in modules.items():
        lines.append(f"_MODULES[{name!r}] = ({is_package!r}, {text_literal(source)})")
        lines.append("")
    lines.append("_RESOURCES = {}")
    for name, data in resources.items():
        digest, packed = _pack(data)
        lines.append(f"_RESOURCES[{name!r}] = ({digest!r}, '''\n{packed}\n''')")
    lines.append("")
    return "\n".join(lines) + "\n" + runtime


def check_last_callable(text, filename="<submission>"):
    """``BuildError`` unless the file compiles and its last statement is ``def agent``
    taking (obs, config): Kaggle calls the last callable a file defines."""
    try:
        tree = ast.parse(text, filename)
        compile(tree, filename, "exec")
    except SyntaxError as exc:
        raise BuildError(f"generated file does not compile: {exc}") from None
    last = tree.body[-1] if tree.body else None
    if not (isinstance(last, ast.FunctionDef) and last.name == "agent"
            and [a.arg for a in last.args.args] == ["obs", "config"]):
        raise BuildError("generated file must end with `def agent(obs, config)`")


class Bundle:
    """A built submission: ``text`` and what went into it."""

    def __init__(self, agent_name, options, modules, external, resources, text, why=""):
        self.agent_name = agent_name
        self.resources_why = why
        self.options = options
        self.modules = modules
        self.external = external
        self.resources = resources
        self.text = text

    def summary(self):
        size = len(self.text.encode())
        source = sum(len(s.encode()) for _, s in self.modules.values())
        raw = sum(len(d) for d in self.resources.values())
        lines = [
            f"agent: {self.agent_name} {self.options!r}",
            f"size: {size} bytes ({size / 1024:.1f} KiB)",
            f"modules ({len(self.modules)}, {source} bytes of source): "
            + ", ".join(self.modules),
            f"resources ({len(self.resources)}, {raw} bytes before compression): "
            + (", ".join(f"{n} ({len(d)} bytes)" for n, d in self.resources.items()) or "none")
            + (f" [{self.resources_why}]" if self.resources_why else ""),
            f"imports outside the package: {', '.join(self.external)}",
        ]
        return "\n".join(lines)


def build(agent_name=None, options=None, root=None, data_dir=None, check_options=True):
    """Build the submission for ``agent_name`` (default: the package's best agent,
    ``agents.BEST``) with ``options`` (a dict).

    The agent is built once to check the options (and to read ``RESOURCES`` from
    the instance); ``check_options=False`` skips that -- for tests of agents that
    compile everything in their constructor -- and reads the class attribute."""
    options = dict(options or {})
    if root is not None and root not in sys.path:
        sys.path.insert(0, root)
    import agents
    if agent_name is None:
        agent_name = agents.BEST
    try:
        # the agent's own defaults for a Kaggle file (e.g. perfect: warmup=background)
        options = {**getattr(agents.agent_class(agent_name), "SUBMISSION_OPTIONS", {}),
                   **options}
        player = agents.make(agent_name, **options) if check_options \
            else agents.agent_class(agent_name)
    except ValueError as exc:
        raise BuildError(str(exc)) from None
    module = agents.AGENTS[agent_name].split(":")[0]
    modules, external = collect_modules([REGISTRY, module], root)
    names, why = choose_resources(player, modules, data_dir)
    if names and RESOURCE_MODULE not in modules:
        raise BuildError(f"agent {agent_name!r} needs resources {names} ({why}) but does not "
                         f"import {RESOURCE_MODULE}, the only way to read them")
    resources = load_resources(names, data_dir, getattr(player, "RESOURCE_PATHS", None))
    text = render(agent_name, options, modules, resources)
    check_last_callable(text)
    return Bundle(agent_name, options, modules, external, resources, text, why)


if __name__ == "__main__":
    # the library, not a command: say which command builds (python -m submission.build
    # used to exit 0 writing nothing)
    print("submission.build is the bundler's library: write a file with `connectx build --out "
          "main.py` (python -m scripts.commands.build --out main.py)", file=sys.stderr)
    sys.exit(2)
