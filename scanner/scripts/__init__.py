"""Bundled-script analysis: what a skill's setup.sh, helper.py or index.js would do if run.

`facts_for(doc)` returns the dangerous operations found in one script, computed once per
Document and shared by every rule in scanner/rules/scripts.py. Python is read through `ast`,
shell through tree-sitter-bash, the other languages by a linear-time token matcher (.bat/.cmd
lines by the command grader); a file
its parser rejects falls back to tokens and says so in each finding's properties. Nothing
here executes, imports or evaluates the scanned text.
"""
from __future__ import annotations

from . import fact_kinds as K
from . import sink_table as T
from .common import Fact
from ..models import Severity
from .language import ANALYSED_LANGUAGES, language_of

__all__ = ["Fact", "facts_for", "language_of", "ANALYSED_LANGUAGES"]

_CACHE_ATTR = "_script_facts"


def facts_for(doc) -> list[Fact]:
    cached = doc.__dict__.get(_CACHE_ATTR)
    if cached is None:
        if doc.language == "python":  # flow and behaviour run back to back over one tree, then drop it
            from .python.behaviour import python_analyses

            python_analyses(doc)
            facts = doc.__dict__[_CACHE_ATTR]
            extra = _credential_store_and_send(doc.text, facts) + _runs_data_file(doc.text, facts) + _in_code(doc.text, _download_then_run(doc.text, facts))
            extra += _install_from_url(doc.text, facts + extra)
            extra += _any_language(doc, facts + extra)
            facts = doc.__dict__[_CACHE_ATTR] = _local_persistence(doc.text, facts + extra)
            return facts
        cached = _analyse(doc)
        cached = _local_persistence(doc.text, cached + _any_language(doc, cached))
        doc.__dict__[_CACHE_ATTR] = cached
    return cached


def _local_persistence(text: str, facts: list[Fact]) -> list[Fact]:
    """Persistence (a crontab line, a shell start-up file, a launch agent, a Run key, a service) is high
    only when what it schedules is remote code, exfiltration or hidden: a script with no download,
    upload, decode, socket or hidden window anywhere, whose other facts send nothing, schedules local
    work (a nightly pg_dump), which stays reported at medium. Login keys (authorized_keys) and
    interpreter-loaded files (ld.so.preload, sitecustomize, .pth) are a way in whatever they run."""
    high = [f for f in facts if f.kind == K.PERSISTENCE and f.severity >= Severity.HIGH]
    if not high:
        return facts
    if any(f.kind in _REACHES_OUT and f.severity >= Severity.MEDIUM for f in facts):
        return facts
    from ..matching import rx

    global _REMOTE_OR_HIDDEN
    if _REMOTE_OR_HIDDEN is None:
        _REMOTE_OR_HIDDEN = rx(
            r"(?i)(?:\b(?:https?|ftp|wss?)://|\b(?:curl|wget|aria2c|ncat|netcat|socat|telnet|scp|sftp|tftp)\b|\bnc\s+-|/dev/(?:tcp|udp)/|"
            r"invoke-(?:webrequest|restmethod)|\b(?:iwr|irm)\b|download(?:string|file|data)|net\.webclient|\burlopen\b|\burlretrieve\b|"
            r"\brequests\.|\bhttpx\.|\bfetch\s*\(|\bhttps?\.(?:get|request)\b|\bsocket\b|base(?:64|32)\s+(?:-d|-D|--decode)|frombase64string|"
            r"\bb(?:64|32|85)decode\b|\batob\s*\(|\bunhexlify\b|-enc(?:odedcommand)?\s|-w(?:indowstyle)?\s+hidden|/tmp/\.|/dev/shm/|\beval\b|\biex\b)")
    if _REMOTE_OR_HIDDEN.search(text.encode("utf-8", "surrogatepass")) is not None:
        return facts
    out = []
    for f in facts:
        if f.kind == K.PERSISTENCE and f.severity >= Severity.HIGH:
            span = (text[f.start:f.end] + " " + f.message).lower()
            if not any(k in span for k in _WAY_IN):
                f = f.lowered(1, "schedules only local work: nothing in the script downloads, uploads, decodes or hides")
        out.append(f)
    return out


_REMOTE_OR_HIDDEN = None
_REACHES_OUT = frozenset({K.REMOTE_EXEC, K.DECODE_EXEC, K.CRED_EXFIL, K.HOST_DATA_EXFIL, K.REVERSE_SHELL, K.SURVEILLANCE, K.SPLIT_CHAIN})
_WAY_IN = ("authorized_keys", "ld.so.preload", "sitecustomize", "usercustomize", ".pth", "site-packages", "dist-packages", "sudoers", "ld_preload")


def _any_language(doc, facts: list[Fact]) -> list[Fact]:
    """The shapes read in every language (anylang): a credential near an outbound sink, fetched code near a
    loader, a forge call that gives the repository away, agent permissions widened."""
    from .anylang import (agent_permissions_widened, authority_given_away, credential_to_sink, fetched_code_loaded, found_secrets_sent,
                          git_runs_an_uploader, remote_instructions, tool_output_published, tool_output_sent)

    widened = agent_permissions_widened(doc.text, facts)
    if widened and doc.language == "python":
        widened = _in_code(doc.text, widened)  # a docstring describing the setting sets nothing
    return (credential_to_sink(doc.text, facts, getattr(doc, "context", None)) + fetched_code_loaded(doc.text, facts)
            + authority_given_away(doc.text) + widened + remote_instructions(doc.text, facts) + git_runs_an_uploader(doc.text)
            + found_secrets_sent(doc.text) + tool_output_published(doc.text) + tool_output_sent(doc.text))


def flow_facts(doc) -> list[Fact]:
    """facts_for's own analysis of a Python script (python.behaviour.python_analyses calls it)."""
    cached = doc.__dict__.get(_CACHE_ATTR)
    if cached is None:
        cached = doc.__dict__[_CACHE_ATTR] = _analyse(doc)
    return cached


def _analyse(doc) -> list[Fact]:
    lang = doc.language
    if lang == "python":
        # Names from modules, not `from . import module`: a package's fromlist costs a Python-level call per script.
        from .python.flow import analyze as analyze_python

        try:
            return list(analyze_python(doc))
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError) as exc:
            from .tokens.flow import analyze as analyze_tokens

            reason = f"{type(exc).__name__}: {str(exc)[:120]}"
            return analyze_tokens(doc, "python", reason=reason)
    if lang == "shell":
        from .shell.flow import analyze_parsed as analyze_shell
        from .tokens.flow import shell_fallback

        try:
            facts, has_error = analyze_shell(doc)
        except (RecursionError, MemoryError, ValueError) as exc:
            return shell_fallback(doc, f"{type(exc).__name__}: {str(exc)[:120]}")
        if any(f.properties.get("parse-error") for f in facts) or has_error:
            seen = {(f.kind, f.start) for f in facts}
            facts += [f for f in shell_fallback(doc, "tree-sitter-bash reported syntax errors") if (f.kind, f.start) not in seen]
        return facts + _graded_lines(doc.text, facts, shell=True)
    if lang == "powershell":
        from .tokens.flow import analyze as analyze_tokens

        facts = analyze_tokens(doc, lang)
        facts = facts + _graded_lines(doc.text, facts)
        facts = facts + _download_then_run(doc.text, facts)
        return facts + _encoded_commands(doc.text, facts)
    if lang == "batch":  # cmd.exe lines: what the command grader makes of each (powershell -c "iex ...", curl | ...)
        facts = _graded_lines(doc.text, [])
        facts = facts + _download_then_run(doc.text, facts, batch=True)
        return facts + _encoded_commands(doc.text, facts)
    if lang in ANALYSED_LANGUAGES:
        from .tokens.flow import analyze as analyze_tokens

        facts = analyze_tokens(doc, lang)
        facts = facts + _download_then_run(doc.text, facts)
        return facts + _install_from_url(doc.text, facts)
    return []


def _credential_store_and_send(text: str, facts: list[Fact]) -> list[Fact]:
    """A Python script that names a credential store (~/.ssh, ~/.aws/credentials, ...) and also
    mails, uploads over ftp or posts data: the flow may pass through archives or helpers the
    analysis does not follow, so the pair is reported (high, low confidence) as a file read is not."""
    from ..models import Confidence, Severity

    if any(f.kind == K.CRED_EXFIL for f in facts):
        return []
    reads = [f for f in facts if f.kind == K.SENSITIVE_READ and not _config_only(text[f.start:f.end])]
    if not reads:
        return []
    from ..matching import rx

    global _PY_SEND
    if _PY_SEND is None:
        _PY_SEND = rx(r"(?:\bsmtplib\b|\bftplib\b|\.storbinary\s*\(|\.sendmail\s*\(|\.send_message\s*\(|\brequests\.(?:post|put)\s*\(|"
                      r"\bhttpx\.(?:post|put)\s*\(|\.sendall\s*\(|\.sendto\s*\(|\bdata\s*=\s*[^\n]*urlopen|\burlopen\s*\([^\n]*data\s*=)")
    m = _PY_SEND.search(text.encode("utf-8", "surrogatepass"))
    if m is None:
        return []
    first = reads[0]
    return [Fact(K.CRED_EXFIL, first.start, first.end, "Names a credential store in a script that also mails, uploads or posts data",
                 Severity.HIGH, Confidence.LOW, {"analysis": "python-ast", "channel": m.group(0).decode("utf-8", "replace")[:40]})]


_PY_SEND = None
_BATCH_DL = None
_CONFIG_ONLY = T.ordered("credentials", "config_files")
_KEY_NAMES = T.ordered("credentials", "key_files")


def _config_only(span: str) -> bool:
    """A read of ~/.aws/config or ~/.kube/config (region, context) is not a key read."""
    low = span.lower().replace("\\", "/")
    return any(c in low for c in _CONFIG_ONLY) and not any(k in low for k in _KEY_NAMES)
_INSTALL_ARGV = None
_PKG_URL = None


def _install_from_url(text: str, facts: list[Fact]) -> list[Fact]:
    """Any language: a package installer spawned with its words as separate arguments
    (`[sys.executable, "-m", "pip", "install", SRC]`, `spawn("npm", ["install", url])`) in a file that
    names a package archive or git URL: installing from a URL runs the package's setup code, so it is
    the remote code of that host. The command grader reads the one-string form; this reads the list."""
    from ..models import Confidence

    if any(f.kind == K.REMOTE_EXEC and f.severity >= Severity.MEDIUM for f in facts):
        return []
    global _INSTALL_ARGV, _PKG_URL
    if _INSTALL_ARGV is None:
        from ..matching import rx

        _INSTALL_ARGV = rx(r"(?i)['\"](?:pip3?|uv|npm|pnpm|yarn|bun|gem|pipx|cargo)['\"]\s*,\s*\[?\s*(?:['\"]pip['\"]\s*,\s*)?['\"](?:install|add|i)['\"]")
        _PKG_URL = rx(r"(?i)['\"`]((?:git\+)?(?:https?|ftp)://[^\s'\"`]+?(?:\.whl|\.tar\.gz|\.tgz|\.tar\.bz2|\.zip|\.gem|\.egg|\.crate|\.git(?:@[\w./-]+)?|#egg=[\w.-]+))['\"`]|['\"`](git\+(?:https?|ssh)://[^\s'\"`]+)['\"`]")
    data = text.encode("utf-8", "surrogatepass")
    m = _INSTALL_ARGV.search(data)
    if m is None:
        return []
    from .command_grader import grade_url

    worst = None
    for u in _PKG_URL.finditer(data):
        url = (u.group(1) or u.group(2) or b"").decode("utf-8", "replace")
        sev, grade, host = grade_url(url[4:] if url.lower().startswith("git+") else url)
        if grade in ("vendor", "local", "release", "placeholder") or grade == "unknown" and host in ("github.com", "gitlab.com", "bitbucket.org"):
            continue  # a vendor's or a public repository's own package: reviewable
        if worst is None or sev > worst[0]:
            worst = (sev, grade, host, url)
    if worst is None:
        return []
    sev, grade, host, url = worst
    start = len(data[:m.start()].decode("utf-8", "replace"))
    from .command_grader import grade_words

    return [Fact(K.REMOTE_EXEC, start, start + len(m.group(0).decode("utf-8", "replace")),
                 f"A package installer is run on a package URL, which runs its setup code ({grade_words(grade)}: {host})",
                 sev, Confidence.MEDIUM, {"analysis": "install-from-url", "url": url[:200], "host": host})]


_DATA_LITERAL = None
_DL_RUN = None
_WRITE = None


def _download_then_run(text: str, facts: list[Fact], batch: bool = False) -> list[Fact]:
    """Any language: a file written from a download on one line and run on a later line
    (urlretrieve then runpy/subprocess, createWriteStream then require, -OutFile then &,
    File.write(URI.open) then load). The same path names both; the download's host grades it.
    `batch`: cmd.exe lines, where Windows' own downloaders (certutil -urlcache, bitsadmin /transfer)
    fetch and a line that starts the file (`start`, `call`, the path as the command, a system
    binary that loads it) runs it."""
    from ..models import Confidence

    if any(f.kind == K.REMOTE_EXEC for f in facts):
        return []
    global _DL_RUN
    if _DL_RUN is None:
        from ..matching import rx

        _DL_RUN = (
            rx(r"(?i)(?:/tmp/|\$env:temp\\|%temp%\\|\$tmpdir/|\./)?[\w.$:/\\-]*\.(?:py|sh|bash|js|mjs|cjs|ps1|bat|cmd|exe|rb|pl|php|bin|run|dll|so|dylib|jar|vbs|hta|scr|msi)\b"),
            rx(r"(?i)(?:urlretrieve|urlopen|requests\.get|httpx\.get|\bfetch\s*\(|https?\.get\s*\(|\bhttp\.newrequest\b|\.do\s*\(\s*req|axios|invoke-webrequest|\biwr\b|start-bitstransfer|downloadfile|uri\.open|open-uri|net::http|\bcurl\b|\bwget\b|lwp|getstore|file_get_contents\s*\(\s*['\"]https?)"),
            rx(r"(?i)(?:runpy|run_path|exec_module|spec_from_file_location|subprocess|os\.system|os\.exec|popen|\brequire\s*\(|\bimport\s*\(|child_process|\bexec(?:sync|file)?\s*\(|\bexec\.command(?:context)?\s*\(|\bspawn|start-process|invoke-item|^\s*&\s|^\s*\.\s|\bsystem\s*\(|\bload\s*\(?|\bchmod\b|\bsource\b|\bbash\b|\bsh\b|\bpython3?\b|\bnode\b|\bpwsh\b|\bpowershell\b)"),
        )
    path_rx, fetch_rx, run_rx = _DL_RUN
    if batch:
        global _BATCH_DL
        if _BATCH_DL is None:
            from ..matching import rx

            _BATCH_DL = (rx(r"(?i)(?:\bcertutil(?:\.exe)?\b[^\n]*-(?:urlcache|verifyctl)\b|\bbitsadmin(?:\.exe)?\b[^\n]*/(?:transfer|addfile)\b|\bcurl(?:\.exe)?\b|\bwget\b|\bpowershell\b[^\n]*(?:downloadfile|invoke-webrequest|\biwr\b))"),
                         rx(r"(?i)^\s*@?(?:(?:start|call)\b|[\"']?[\w.:%\\/-]+\.(?:exe|bat|cmd|msi|scr)\b|(?:rundll32|regsvr32|msiexec|wscript|cscript|mshta|powershell|pwsh)(?:\.exe)?\b)"))
        fetch_rx, batch_run = _BATCH_DL
        run_rx = batch_run
    global _WRITE
    if _WRITE is None:
        from ..matching import rx

        _WRITE = rx(r"(?i)(?:open\s*\([^)]*['\"][wa]b?['\"]|write_text|write_bytes|writefilesync|\bwritefile\s*\(|\bos\.writefile\s*\(|\bioutil\.writefile\s*\(|os\.create\s*\(|file_put_contents\s*\(|createwritestream|file\.write|file\.open\s*\([^)]*['\"]w|set-content|out-file|copy_stream|\.write\s*\()")
    data = text.encode("utf-8", "surrogatepass")
    if not fetch_rx.search(data):
        return []
    lines = text.split("\n")[:5000]
    seen: dict[str, int] = {}
    for no, line in enumerate(lines):
        raw = line.encode("utf-8", "surrogatepass")
        if len(raw) > 2000:
            continue
        for m in path_rx.finditer(raw):
            token = m.group(0).decode("utf-8", "replace").lower()
            if len(token) < 5 or "://" in line[max(0, m.start() - 12):m.start() + 3]:
                continue  # the URL's own path, not a local file
            if token not in seen:
                near = "\n".join(lines[max(0, no - 5):no]).encode("utf-8", "surrogatepass")
                if fetch_rx.search(raw) or (_WRITE.search(raw) and fetch_rx.search(near)):
                    seen[token] = no
                    if raw.lower().count(token.encode()) >= 2 and run_rx.search(raw[m.end():]):
                        no_run = no  # written and run on one line (a callback)
                    else:
                        continue
                else:
                    continue
            if (no > seen[token] and run_rx.search(raw)) or seen[token] == no:
                from .command_grader import _first_url, grade_url

                url = _first_url(lines[seen[token]]) or _first_url("\n".join(lines[max(0, seen[token] - 5):seen[token]]))
                sev, grade, host = grade_url(url)
                if grade in ("vendor", "local"):
                    return []
                start = sum(len(x) + 1 for x in lines[:no])
                # A placeholder host (example.com) in a script is still a download that is run: medium, not silence.
                return [Fact(K.REMOTE_EXEC, start, start + max(1, len(line)), f"A file written from a download ({host or 'a computed URL'}) is run on line {no + 1}",
                             max(sev, Severity.HIGH) if grade not in ("release", "placeholder") else Severity.MEDIUM, Confidence.MEDIUM,
                             {"analysis": "download-then-run", "url": url[:200], "path": token[:120]})]
    return []


def _in_code(text: str, facts: list[Fact]) -> list[Fact]:
    """Drops line-matched facts that sit inside a Python multi-line string (a prompt or docstring
    describing SSRF to 169.254.169.254 and subprocess.run): the text is data, not the script's
    code, and a string the script does run is read by the flow analysis itself."""
    if not facts:
        return facts
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return facts
    spans = [(n.lineno, n.end_lineno) for n in ast.walk(tree)
             if isinstance(n, ast.Constant) and isinstance(n.value, str) and (n.end_lineno or n.lineno) > n.lineno]
    if not spans:
        return facts
    out = []
    for f in facts:
        line = text.count("\n", 0, f.start) + 1
        if not any(a < line < b for a, b in spans):  # strictly inside: the opening and closing lines hold code too
            out.append(f)
    return out


def _runs_data_file(text: str, facts: list[Fact]) -> list[Fact]:
    """exec/compile/eval/marshal of text read from a data file of the script's own folder
    (rules.dat, notes.txt): a payload kept beside the code, run as code. The read and the
    literal are looked for on the lines up to the call (a bounded window)."""
    from .common import is_data_file
    from ..models import Confidence, Severity

    calls = [f for f in facts if f.kind in (K.DYNAMIC_EXEC, K.DESERIALIZE)]
    if not calls or any(f.kind == K.DECODE_EXEC for f in facts):
        return []
    from ..matching import rx

    global _DATA_LITERAL
    if _DATA_LITERAL is None:
        _DATA_LITERAL = rx(r"['\"]([^'\"\n]+\.[A-Za-z0-9]{2,6})['\"]")
    for f in calls:
        lo = text.rfind("\n", 0, max(0, f.start - 1500)) + 1 if f.start > 1500 else 0
        window = text[lo:f.end]
        if not any(r in window for r in ("open(", "read_text(", "read_bytes(", ".read()", "readFileSync(", "File.read(")):
            continue
        for m in _DATA_LITERAL.finditer(window.encode("utf-8", "surrogatepass")):
            name = m.group(1).decode("utf-8", "replace")
            if is_data_file(name) and "://" not in name:
                return [Fact(K.DECODE_EXEC, f.start, f.end, f"Runs code read from a data file ({name.rsplit('/', 1)[-1]}): a payload kept beside the script",
                             Severity.HIGH, Confidence.MEDIUM, {"analysis": "python-ast", "data-file": name[:120]})]
    return []


_ENC_OPTION = None
_ENC_LITERAL = None


def _encoded_commands(text: str, facts: list[Fact]) -> list[Fact]:
    """PowerShell's -EncodedCommand (-e, -ec, -enc, ...) handed a base64 literal kept apart from it (a
    variable, an -ArgumentList array): the literal that decodes to UTF-16LE text is the command run.
    It is decoded and graded (a download cradle, a credential sent); the hiding is itself a finding."""
    global _ENC_OPTION, _ENC_LITERAL
    if _ENC_OPTION is None:
        from ..matching import rx

        _ENC_OPTION = rx(r"(?i)(?:^|[\s'\"(,])-(?:e|ec|en|enc|enco|encod|encode|encoded|encodedc\w*)['\"]?(?:\s|,|$)")
        _ENC_LITERAL = rx(r"['\"]?([A-Za-z0-9+/]{40,}={0,2})['\"]?")
    data = text.encode("utf-8", "surrogatepass")
    if _ENC_OPTION.search(data) is None:
        return []
    import base64
    import binascii

    from ..models import Confidence
    from .command_grader import _grade

    out: list[Fact] = []
    for n, m in enumerate(_ENC_LITERAL.finditer(data)):
        if n >= 50 or len(out) >= 5:
            break
        lit = m.group(1)
        if len(lit) % 4:
            continue
        try:
            raw = base64.b64decode(lit, validate=True)
        except (binascii.Error, ValueError):
            continue
        if len(raw) < 8 or raw[1::2].count(0) * 10 < len(raw[1::2]) * 9:
            continue  # not UTF-16LE text: some other blob
        try:
            payload = raw.decode("utf-16-le")
        except UnicodeDecodeError:
            continue
        if not payload.isprintable() and not all(ch.isprintable() or ch in "\r\n\t" for ch in payload):
            continue
        a, b = len(data[:m.start(1)].decode("utf-8", "replace")), len(data[:m.end(1)].decode("utf-8", "replace"))
        graded = [g for g in _grade(payload) if g.severity >= Severity.MEDIUM]
        for g in graded:
            props = {"analysis": "encoded-command", "grade": g.grade, "decoded": payload[:200]}
            if g.url:
                props["url"] = g.url
            if g.host:
                props["host"] = g.host
            out.append(Fact(g.kind, a, b, f"PowerShell -EncodedCommand payload: {g.message}", g.severity, properties=props))
        if not graded and not any(f.kind == K.DECODE_EXEC and f.start <= a < f.end for f in facts):
            out.append(Fact(K.DECODE_EXEC, a, b, "PowerShell runs a command hidden as -EncodedCommand base64", Severity.HIGH,
                            Confidence.MEDIUM, {"analysis": "encoded-command", "decoded": payload[:200]}))
    return out


def _graded_lines(text: str, facts: list[Fact], shell: bool = False) -> list[Fact]:
    """The command grader's findings on a script's lines that its own analysis did not report.
    `shell`: a shell script, whose `case` items' pattern lists are strings compared, not commands."""
    from .command_grader import grade_lines

    out = []
    for g in grade_lines(text):
        if any(f.kind == g.kind and f.start < g.end and g.start < f.end for f in facts):
            continue
        if shell and "case" in text:
            from .tokens.flow import _in_case_pattern

            if _in_case_pattern(text, g.start, g.end):
                continue
        props = {"analysis": "command-grader", "grade": g.grade}
        if g.url:
            props["url"] = g.url
        if g.host:
            props["host"] = g.host
        out.append(Fact(g.kind, g.start, g.end, g.message, g.severity, properties=props))
    return out

