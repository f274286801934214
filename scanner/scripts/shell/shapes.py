"""Shell shapes read per command after shell.flow has walked the syntax tree: persistence, evasion,
destruction, privilege, sensitive reads, reconnaissance, hard-coded git remotes, and endless
request loops. Split from shell.flow to keep each module readable; every function takes the
ShellFlow whose commands, variables and emit() it works with."""
from __future__ import annotations

from ...matching import rx
from ...models import Confidence, Severity
from .. import common as c
from .. import fact_kinds as K
from .base import FETCHERS, _parser, _walk


def endless_loop(flow, n) -> None:
    """`while true; do curl ...; done` with no pause or way out: a request flood (denial of service)."""
    body = next((ch for ch in n.children if ch.type == "do_group"), None)
    if body is None:
        return
    head = n.text[: body.start_byte - n.start_byte].decode("utf-8", "replace")
    words = head.replace(";", " ").split()
    forever = (words[:2] in (["while", "true"], ["while", ":"], ["until", "false"]) or words[:4] == ["while", "[", "1", "]"]
               or (n.type == "c_style_for_statement" and head.replace(" ", "").startswith("for((;;))")))
    if not forever:
        return
    fetch = None
    for m in _walk(body):
        if m.type == "command":
            prog, _, vals = flow.command_parts(m)
            if prog in ("sleep", "break", "exit", "return", "read", "wait", "timeout", "inotifywait"):
                return
            if fetch is None and (prog in FETCHERS or prog in ("nc", "ncat", "ping", "ab", "hping3") or prog in fetching_functions(flow)):
                fetch = m
    if fetch is not None:
        flow.emit(K.EXHAUSTION, fetch, "Sends network requests in an endless loop with no pause (request flood)",
                  Severity.MEDIUM, Confidence.MEDIUM)

def fetching_functions(flow) -> set[str]:
    """Names of shell functions whose body calls a fetcher (`ping() { curl -s "$U"; }`), found once."""
    if flow._fetching is None:
        flow._fetching = set()
        root = None
        if b"()" in flow.data or b"function" in flow.data:  # the tree run() parsed, as ShellFlow.functions reads it
            root = flow._root if flow._root is not None else _parser().parse(flow.data).root_node
        for n in _walk(root) if root is not None else ():
            if n.type == "function_definition":
                name = n.child_by_field_name("name")
                if name is not None and any(m.type == "command" and flow.command_parts(m)[0] in FETCHERS for m in _walk(n)):
                    flow._fetching.add(name.text.decode("utf-8", "replace").lower())
    return flow._fetching

def text_shapes(flow) -> None:
    """Per-command text shapes: persistence, evasion, destruction, privilege, sensitive reads."""
    recon: dict[str, object] = {}
    remotes: list = []
    pushes = False
    secrets_added = None
    pulled: set[str] = set()  # remotes the script fetches or pulls from: a source, not a destination
    for n in flow._commands:
        line = n.text.decode("utf-8", "replace")
        if len(line) > 2000:
            line = line[:2000]
        prog, _, vals = flow.command_parts(n)
        if prog in c.CLIPBOARD_COMMANDS and not (prog in ("xclip", "xsel") and not any(v in ("-o", "--output", "-out") for v in vals)):
            flow.emit(K.SURVEILLANCE, n, f"Reads the clipboard ({prog})", Severity.MEDIUM, Confidence.MEDIUM)
        if prog in FETCHERS and any(c.is_geo_lookup(v) for v in vals if "://" in v or "." in v):
            flow.emit(K.SURVEILLANCE, n, "Looks up the machine's public IP address and location", Severity.MEDIUM, Confidence.MEDIUM)
        if prog == "git" and len(vals) >= 3 and vals[0] == "remote" and vals[1] in ("add", "set-url") and any("://" in v or "@" in v for v in vals[2:]):
            remotes.append(n)
        if prog == "git" and vals[:1] == ["push"]:
            pushes = True
        if prog == "git" and vals[:1] == ["add"] and secrets_added is None and any(_secret_file(v) for v in vals[1:]):
            secrets_added = n  # `git add -f .env`: a secret file (ignored by git for that reason) put into a commit
        if prog == "git" and vals[:1] in (["fetch"], ["pull"], ["rebase"], ["merge"]) and len(vals) >= 2:
            pulled.update(v.split("/", 1)[0] for v in vals[1:] if not v.startswith("-"))
        m = c.RECON_TEXT.search(line.encode("utf-8", "surrogatepass"))
        if m is not None:
            recon.setdefault(m.group(0).decode("utf-8", "replace").lower(), n)
        if prog in ("cp", "mv", "install", "ln", "tee", "rsync") and vals and c.PERSISTENCE_PATH.test(vals[-1]) and not vals[-1].startswith("-"):
            flow.emit(K.PERSISTENCE, n, f"Copies a file into a start-up or interpreter-loaded location ({vals[-1][:80]})",
                      Severity.HIGH, Confidence.MEDIUM)
        if (prog == "crontab" or ("crontab" in line and prog in ("echo", "printf") and _CRON_SCHEDULE.test(line))) and not _LOOKS_UP_CRONTAB.test(line):
            args = [v for v in vals if not v[:1].isdigit() and not v.startswith((">", "<", "&")) and v != "/dev/null"]  # `crontab -l 2>/dev/null`: the redirect is no argument
            flow.emit(K.PERSISTENCE, n, "Edits the user's crontab", Severity.MEDIUM if args == ["-l"] else Severity.HIGH, Confidence.MEDIUM)
        if c.EVASION_TEXT.test(line) and prog in ("rm", "shred", "truncate", "history", "unset", "setenforce", "auditctl", "systemctl", "ufw", "touch", "kill", "export", "cat", "ln", ">", "echo"):
            flow.emit(K.DEFENSE_EVASION, n, "Tampers with logs, history or security controls", Severity.MEDIUM, Confidence.MEDIUM)
        if c.DESTRUCTIVE_TEXT.test(line + " "):
            flow.emit(K.DESTRUCTIVE, n, "Destroys the file system or machine", Severity.HIGH, Confidence.MEDIUM)
        if c.PRIVILEGE_TEXT.test(line) and prog in ("chmod", "echo", "usermod", "tee", "printf"):
            flow.emit(K.PRIVILEGE, n, "Privilege escalation (setuid bit, sudoers, privileged group)", Severity.MEDIUM, Confidence.MEDIUM)
        if prog in ("cat", "cp", "tar", "zip", "base64", "xxd", "head", "less", "more", "strings", "sqlite3") and any(c.is_strong_credential_path(v) for v in vals):
            flow.emit(K.SENSITIVE_READ, n, "Reads a credential store or system secret file", Severity.MEDIUM, Confidence.MEDIUM)
        if prog in ("curl", "wget") and c.CLOUD_METADATA_HOST.test(line):
            flow.emit(K.CLOUD_METADATA, n, "Fetches the cloud instance-metadata endpoint (instance credentials)", Severity.HIGH)
    if remotes and pushes and secrets_added is not None:
        # the environment file committed, then the repository pushed to a remote the script names: the secrets leave with it
        flow.emit(K.HOST_DATA_EXFIL, remotes[0], "Commits secret files (.env, secrets) and pushes the repository to a hard-coded git remote",
                  Severity.HIGH, Confidence.MEDIUM, added=secrets_added.text.decode("utf-8", "replace")[:120])
    elif remotes and pushes:
        flow.emit(K.HOST_DATA_EXFIL, remotes[0], "Adds a hard-coded git remote and pushes the repository to it", Severity.MEDIUM, Confidence.MEDIUM)
    elif remotes:
        # A remote nobody fetches from is a destination: the repository's code can now be pushed to a host
        # the script chose (source-code exfiltration staged for a later `git push --all`).
        sinks = [r for r in remotes if flow.command_parts(r)[2][2] not in pulled]
        if sinks:
            url = next((v for v in flow.command_parts(sinks[0])[2][3:] if "://" in v or "@" in v), "")
            flow.emit(K.HOST_DATA_EXFIL, sinks[0], "Points a git remote at a hard-coded outside repository that the script never pulls from",
                      Severity.MEDIUM, Confidence.LOW, url=url)
    if len(recon) >= 2:
        first = min(recon.values(), key=lambda x: x.start_byte)
        flow.emit(K.RECON, first, f"Collects system account, process, network or hardware details ({len(recon)} sources)",
                  Severity.MEDIUM, Confidence.LOW, sources=sorted(recon)[:10])


def _secret_file(v: str) -> bool:
    """A path `git add` is given that names a secret file (`.env`, `.env.*`, `config/secrets*.yml`, a key), globs read as their plain name."""
    if v.startswith("-") or len(v) > 300:
        return False
    plain = v.replace("*", "").rstrip(".")
    return c.is_credential_path(plain) or c.is_credential_path(v)


# a schedule in printed text (`echo "*/5 * * * * cmd" | crontab -`): a message naming crontab is no entry
_CRON_SCHEDULE = rx(r"(?:^|[\s'\"])(?:[\d*/,-]+\s+){4}[\d*/,-]+\s|@(?:reboot|hourly|daily|weekly|monthly|yearly|annually|midnight)\b")
# `command -v crontab`, `which crontab`: asks whether the program exists, runs nothing
_LOOKS_UP_CRONTAB = rx(r"\b(?:command\s+-[vV]|which|type|hash)\s+crontab\b")
