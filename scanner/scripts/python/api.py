"""What standard and popular Python calls do, by fully qualified name.

The flow analysis resolves every call to a dotted name ("subprocess.run", "requests.Session.post")
through imports, aliases and getattr, then asks these tables what role the call plays. The
names are the sink table's (scanner/data/script_sinks.yml); this module gives them their Python
shapes and predicates.
"""
from __future__ import annotations

from functools import lru_cache

from .. import sink_table as T

EXEC_SINKS = T.names("python", "sinks", "exec")
IMPORT_SINKS = T.names("python", "sinks", "import")
SHELL_ALWAYS = T.names("python", "sinks", "shell")  # calls whose first argument is parsed by a shell
PROCESS_CALLS = T.names("python", "sinks", "process")
DESERIALIZERS = T.names("python", "sinks", "deserialize")
DESERIALIZERS_IF_REMOTE = T.names("python", "sinks", "deserialize_if_remote")
DESERIALIZERS_FETCHING = T.names("python", "sinks", "deserialize_fetching")  # open a URL given as their path
DECODERS = T.names("python", "sources", "decoders")
CODEC_NAMES = T.ordered("python", "sources", "codec_names")
DOWNLOAD_PREFIXES = T.ordered("python", "sinks", "download", "prefixes")
DOWNLOAD_SOCKET = T.names("python", "sinks", "download", "socket")
NETWORK_PREFIXES = T.ordered("python", "sinks", "network", "prefixes")
NETWORK_EXACT = T.names("python", "sinks", "network", "exact")
# Methods that send data whatever object they are called on, when the object's type is unknown.
SENDING_METHODS = T.names("python", "methods", "sending")
HOST_INFO = T.names("python", "sources", "host_info")
CAPTURE = T.names("python", "sources", "capture")
ENV_GETTERS = T.names("python", "sources", "env_getters")
# Values chosen by whoever runs the script: an attribute read (sys.argv) or a call's result (input()).
UNTRUSTED_VALUES = T.names("python", "sources", "untrusted_values")
UNTRUSTED_CALLS = T.names("python", "sources", "untrusted_calls")
# Method names that capture input whatever the receiver (tkinter's clipboard_get).
CAPTURE_METHODS = T.names("python", "methods", "capture")
CONSTRUCTOR_ALIASES = T.mapping("python", "types", "constructor_aliases")
# Calls that hand out a cloud SDK's resolved keys -> the vendor they belong to (sent there, they go home).
SDK_CREDENTIALS = {q: "aws" for q in T.names("python", "sources", "sdk_credentials", "aws")}
SHELL_NAMES = T.ordered("python", "types", "shell_names")
INTERPRETER_NAMES = SHELL_NAMES + T.ordered("python", "types", "interpreter_names")


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def normalize(qualname: str) -> str:
    for prefix in ("builtins.", "__builtins__.", "__builtin__."):
        if qualname.startswith(prefix):
            qualname = qualname[len(prefix):]
    return qualname


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def is_download(q: str) -> bool:
    return q.startswith(DOWNLOAD_PREFIXES) or q in DOWNLOAD_SOCKET


NETWORK_VERBS = T.names("python", "sinks", "network", "verbs")
# Types worth remembering for a variable: what its later method calls mean.
TRACKED_TYPES = T.names("python", "types", "tracked")


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def is_network(q: str) -> bool:
    if q in NETWORK_EXACT:
        return True
    if q.startswith(NETWORK_PREFIXES):
        return q.rsplit(".", 1)[-1] in NETWORK_VERBS
    return "." in q and q.rsplit(".", 1)[1] in SENDING_METHODS and not q.startswith(("self.", "cls."))


@lru_cache(maxsize=8192)  # called for every resolved call; pure in its argument
def is_shell_call(q: str) -> bool:
    return q in SHELL_ALWAYS or q.startswith(("os.exec", "os.spawn")) or q in PROCESS_CALLS
