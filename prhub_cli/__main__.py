"""`python -m prhub_cli` runs the `prhub` command."""

from prhub_cli.main import run

run()
