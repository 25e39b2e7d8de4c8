"""The tools on top of the agents: the ``connectx`` command (cli.py, args.py), the
library of games between agents (arena/), the browser app (server/), one main a command
(commands/), one benchmark a file (bench/) and the project's own tools (tools/)."""
