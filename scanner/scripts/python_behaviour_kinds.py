"""The name tables of the Python behaviour analysis (IG720-IG729), shared by
python_behaviour (the walk) and the shape modules it runs (python_shapes, python_exhaustion),
which import this module rather than python_behaviour."""
from __future__ import annotations

from ..matching import rx

STRONG_SYSTEM = rx(r"^(?:/etc/(?:shadow|gshadow|sudoers|master\.passwd)|/proc/[^/]*/(?:environ|mem|maps)|/var/lib/sss/)")
WEAK_SYSTEM = rx(r"^(?:/etc/(?:passwd|group|fstab|mtab)$|/proc/(?:mounts|self/mounts|net/|[^/]*/(?:cmdline|status|fd)|partitions|modules)|"
                 r"/proc/(?:cpuinfo|meminfo|devices|version)$|/sys/(?:class/dmi|firmware|devices/virtual/dmi)|/dev/disk/by-)")
SYSTEM_CALLS = frozenset({"pwd.getpwall", "grp.getgrall", "spwd.getspall", "psutil.process_iter", "psutil.pids", "psutil.users",
                          "psutil.disk_partitions", "psutil.net_connections", "psutil.Process", "spwd.getspnam"})
PRIVATE_CIDR = rx(r"^(?:10|127|172\.(?:1[6-9]|2\d|3[01])|192\.168|169\.254)\.\d{1,3}\.\d{1,3}/\d{1,2}$")
WEB_SHELL_TEXT = rx(r"(?i)(?:\b(?:eval|assert|system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec|create_function)\s*\(\s*"
                    r"(?:(?:base64_decode|gzinflate|str_rot13|stripslashes)\s*\(\s*)*\$_(?:GET|POST|REQUEST|COOKIE|SERVER|FILES)\b|"
                    r"Runtime\.getRuntime\(\)\.exec\(\s*request\.getParameter|<%\s*eval\s+request)")
LDAP_FILTER = rx(r"\((?:[A-Za-z][\w.-]*|\x00)[<>~]?=\*?\x00")
NET_PREFIXES = ("requests.", "httpx.", "urllib.request.", "urllib3.", "aiohttp.", "http.client.", "socket.")
NET_ATTRS = frozenset({"connect", "connect_ex", "create_connection", "urlopen", "get", "post", "head", "request"})
SEND_ATTRS = frozenset({"post", "put", "patch"})
EXEC_SINKS = frozenset({"exec", "eval", "os.system", "os.popen", "subprocess.run", "subprocess.call", "subprocess.Popen",
                        "subprocess.check_output", "subprocess.check_call", "subprocess.getoutput", "compile"})
FILE_SINKS = frozenset({"open", "io.open", "os.listdir", "os.scandir", "os.walk", "os.remove", "os.unlink", "shutil.rmtree",
                        "shutil.copy", "shutil.copyfile", "shutil.move", "os.rename", "send_file", "flask.send_file"})
PATH_METHODS = frozenset({"read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "unlink", "rmdir"})
PATH_GUARDS = ("realpath", "abspath", ".resolve(", "normpath", "commonpath", "is_relative_to", "secure_filename",
               "relative_to", "'..'", '".."', "safe_join", "basename(")
