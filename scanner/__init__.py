"""Instruction Guard: finds hidden and hostile instructions in coding-agent files."""
from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("instruction-guard")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"

TOOL_NAME = "instruction-guard"
INFORMATION_URI = "https://github.com/instruction-guard/instruction-guard"
