"""Subcommands of the ``shogiban`` command line, one module each (see :mod:`shogiban.cli`)."""
