"""Instruction Guard: finds hidden and hostile instructions in coding-agent files."""
# The one place the version is written (pyproject.toml reads it): importlib.metadata would
# slow every start.
__version__ = "0.1.0"

TOOL_NAME = "instruction-guard"
INFORMATION_URI = "https://github.com/instruction-guard/instruction-guard"
