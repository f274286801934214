"""CLI subcommands; each module registers one (see scanner/cli.py)."""
