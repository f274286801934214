"""The taint labels and function summaries of the Python analysis, shared by python.flow (the
driver), python.scope (statements and calls), python.sinks and python.sink_gate (what a call
reaches). Kept apart so those modules import it rather than each other."""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import sink_table as T

DL, DEC, SECRET, CRED, ENVDUMP, HOST, CAPTURE = "download", "decoded", "secret-env", "credential-file", "whole-environment", "host-data", "captured-input"
FILE, UNTRUSTED = "file-content", "untrusted-input"
SAVED = "saved-download"  # a path whose file was written with downloaded bytes: running it runs the download
EMPTY: frozenset[str] = frozenset()
REAL_SOURCES = frozenset({DL, DEC, SECRET, CRED, ENVDUMP, HOST, CAPTURE, FILE})

SOCKET_CONNECTS = T.names("python", "sinks", "socket_connect")  # a reverse shell's first step
_MUTATORS = frozenset({"append", "extend", "add", "update", "insert", "appendleft", "setdefault", "write", "writelines"})  # items.append(x): x is now in items


@dataclass
class Summary:
    returns: frozenset[str] = EMPTY  # taints a call returns whatever its arguments
    passthrough: frozenset[int] = frozenset()  # parameters that flow into the return value
    param_sinks: dict[int, set[str]] = field(default_factory=dict)  # parameter -> sink kinds
    param_urls: dict[int, str] = field(default_factory=dict)  # parameter -> fixed URL of the network sink it reaches
    param_url_args: dict[int, int] = field(default_factory=dict)  # parameter -> the parameter naming that sink's URL
    filled: frozenset[int] = frozenset()  # parameters naming a file the function fills with downloaded bytes
