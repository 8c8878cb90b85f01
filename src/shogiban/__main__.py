"""``python -m shogiban`` runs the command line."""

from shogiban.cli import main

raise SystemExit(main())
