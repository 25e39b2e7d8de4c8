"""The run configurations of ``connectx learn``: each mode's is a dataclass (its
``Plan``: :mod:`~scripts.learn.teacher`, :mod:`~scripts.learn.reinforce`,
:mod:`~scripts.learn.recipe`, :mod:`~scripts.learn.zero`), and the fields made with
:func:`option` are that mode's command-line options. The command derives its flags
from them (:func:`options`, :func:`modes_of`; its modes:
:func:`scripts.commands.learn.modes`): a flag belongs to the modes whose configuration
has its field, and no other mode takes it (:func:`refusal`).

This module imports no argument parser: an option's ``kind`` names the check of its
value, which the command layer turns into its parser's type.
"""
import dataclasses
from dataclasses import dataclass

# the kinds of option values (the command maps each to its argument type)
KINDS = ("text", "int", "positive_int", "count", "positive_float", "share", "switch",
         "no_switch", "list")


def option(default, help, kind="text", metavar=None, shown=None):
    """A configuration field that is a command-line option: its ``default``, its
    ``help`` (without the default), its ``kind`` of value (:data:`KINDS`: ``switch`` a
    flag that sets True, ``no_switch`` a ``--no-NAME`` flag that sets False, ``list``
    an option given any number of times), its ``metavar`` and the default as the help
    shows it (``shown``; None: the default itself)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of option {kind!r}")
    meta = {"help": help, "kind": kind, "metavar": metavar, "shown": shown}
    if kind == "list":
        return dataclasses.field(default_factory=lambda: list(default), metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


@dataclass
class Start:
    """The network a run starts from and its size (``--mode teacher`` and ``zero``)."""
    init: str = option(None, "start from this network (.npz, e.g. --mode teacher's; "
                             "its architecture), not from random weights", metavar="NET",
                       shown="none: random weights")
    trunk: str = option(None, "the network's convolutions, channels by layer",
                        metavar="F1,F2,...", shown="32,32,32,32")
    value_hidden: int = option(None, "the value head's hidden units (0: linear)", "int",
                               metavar="H", shown=32)

    def sized(self):
        """Whether ``--trunk`` or ``--value-hidden`` size the network."""
        return self.trunk is not None or self.value_hidden is not None


def flag(field):
    """The command-line flag of an option field: ``--value-hidden`` for
    ``value_hidden``, ``--no-database`` for the ``no_switch`` field ``database``."""
    name = field.name.replace("_", "-")
    return f"--no-{name}" if field.metadata["kind"] == "no_switch" else f"--{name}"


def options(config):
    """The option fields of a configuration class (or instance), in order."""
    return [f for f in dataclasses.fields(config) if "help" in f.metadata]


def modes_of(configs):
    """``{flag: [(mode, field), ...]}`` of ``configs`` (``{mode: class}``), the flags in
    the order of their first appearance."""
    out = {}
    for mode, config in configs.items():
        for f in options(config):
            out.setdefault(flag(f), []).append((mode, f))
    return out


def refusal(flag_name, configs, mode):
    """None when ``mode`` takes the option ``flag_name``, else the one line that says
    which modes do: ``--trunk is an option of --mode teacher and zero``."""
    owners = [m for m, _ in modes_of(configs).get(flag_name, ())]
    if mode in owners:
        return None
    listed = owners[0] if len(owners) == 1 else \
        ", ".join(owners[:-1]) + " and " + owners[-1]
    return f"{flag_name} is an option of --mode {listed}"
