"""The name tables of the Python behaviour analysis (IG720-IG729), shared by
python.behaviour (the walk) and the shape modules it runs (python.shapes, python.exhaustion),
which import this module rather than python.behaviour. The call and method names are the sink
table's (scanner/data/script_sinks.yml, section python_behaviour); the patterns are here."""
from __future__ import annotations

from ...matching import rx
from .. import sink_table as T

STRONG_SYSTEM = rx(r"^(?:/etc/(?:shadow|gshadow|sudoers|master\.passwd)|/proc/[^/]*/(?:environ|mem|maps)|/var/lib/sss/)")
WEAK_SYSTEM = rx(r"^(?:/etc/(?:passwd|group|fstab|mtab)$|/proc/(?:mounts|self/mounts|net/|[^/]*/(?:cmdline|status|fd)|partitions|modules)|"
                 r"/proc/(?:cpuinfo|meminfo|devices|version)$|/sys/(?:class/dmi|firmware|devices/virtual/dmi)|/dev/disk/by-)")
SYSTEM_CALLS = T.names("python_behaviour", "system_calls")
PRIVATE_CIDR = rx(r"^(?:10|127|172\.(?:1[6-9]|2\d|3[01])|192\.168|169\.254)\.\d{1,3}\.\d{1,3}/\d{1,2}$")
WEB_SHELL_TEXT = rx(r"(?i)(?:\b(?:eval|assert|system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|create_function)\s*\(\s*"
                    r"(?:(?:base64_decode|gzinflate|str_rot13|stripslashes)\s*\(\s*)*\$_(?:GET|POST|REQUEST|COOKIE|SERVER|FILES)\b|"
                    r"Runtime\.getRuntime\(\)\.exec\(\s*request\.getParameter|<%\s*eval\s+request)")
LDAP_FILTER = rx(r"\((?:[A-Za-z][\w.-]*|\x00)[<>~]?=\*?\x00")
NET_PREFIXES = T.ordered("python_behaviour", "network_prefixes")
NET_ATTRS = T.names("python_behaviour", "network_methods")
SEND_ATTRS = T.names("python_behaviour", "send_methods")
EXEC_SINKS = T.names("python_behaviour", "exec")
FILE_SINKS = T.names("python_behaviour", "file")
PATH_METHODS = T.names("python_behaviour", "path_methods")
PATH_GUARDS = ("realpath", "abspath", ".resolve(", "normpath", "commonpath", "is_relative_to", "secure_filename",
               "relative_to", "'..'", '".."', "safe_join", "basename(")
