"""One thin ``main(argv, prog=...)`` per ``connectx`` command (the table: :mod:`scripts.cli`)."""
