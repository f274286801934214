"""Token-level reading of scripts without a cheap parser (JavaScript/TypeScript, PowerShell,
Ruby, Perl, PHP, Go, Lua) and of Python or shell files their parsers could not read.

Linear time throughout: RE2 patterns from tokens.langs plus bounded windows after each match.
The flow is followed one step: a variable assigned from a fetch, a decode or a credential is
remembered by name, and a call that runs code or sends data is checked for those names in its
argument window. String pieces joined with `+`, `.join` or escapes are folded to see names an
author split on purpose.
"""
from __future__ import annotations

import bisect
import re
from typing import Iterator

import re2 as _re2  # byte-string substitution over scanned text: linear-time

from ...models import Confidence, Severity
from ...matching import rx
from ... import hosts as H
from .. import common as c
from .. import fact_kinds as K
from ..shell.base import _CRED_COMMAND
from .langs import VOCABULARIES, Vocabulary
from .text import auth_header_only as _auth_header_only, first_url as _first_url, fold as _fold, for_of as _for_of
from .text import is_literal as _is_literal, join_literals as _join_literals, pieces as _pieces, unquote as _unquote

WINDOW = 400  # characters of argument text read after a call token
MAX_MATCHES = 400
ASSIGNED_CHARS = 1000  # how much of an assigned value is read for taint
DL, DEC, CRED, SECRET, ENVDUMP = "download", "decoded", "credential", "secret-env", "whole-environment"
CLIP = "clipboard"  # the clipboard read (pbpaste, xclip -o, Get-Clipboard, navigator.clipboard.readText, pyperclip.paste)
NET = "network"  # text naming a network tool or a URL (a command string that will reach the network)
_NET_TEXT = rx(r"(?:\b(?:curl|wget|nc|ncat)\s|\bhttps?://)")


_NAME = rx(r"[A-Za-z_$][\w$]*")
_PS_NAME = rx(r"[A-Za-z_$][\w$]*(?:-[A-Za-z_]\w*)*")  # PowerShell's verb-noun command names (Get-Payload) are one name
_LIT_CHAIN = rx(r"""(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?:\s*\+\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))+|\[\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")(?:\s*,\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"))+\s*\]\s*\.\s*join\s*\(\s*(?:''|"")?\s*\)|'(?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}){3,}'|"(?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}){3,}\"""")
# Not a credential list: names worth hiding by string building (credential folders among dangerous calls and URLs).
_HIDDEN_NAME = rx(r"(?i)(?:child_process|execsync|^exec$|^spawn|^eval$|^function$|\bcurl\b|\bwget\b|/dev/tcp|/bin/(?:ba)?sh|powershell|invoke-expression|^iex$|\.ssh|id_rsa|\.aws|webhook|://|\.env\b|process\.env|readfilesync|base64)")


# Calls that show text to a person: a string literal handed to one is a message (TokenFlow.in_plain_string).
_PRINTS = rx(r"(?i)(?:\bwrite-(?:host|output|warning|error|verbose|information|debug|err\w*|info\w*|warn\w*|log\w*)\b|\becho\b|\bprint(?:ln|f)?\b"
             r"|\bputs\b|\bconsole\s*\.\s*\w+\s*\(|\blog(?:ger)?\s*\.\s*\w+\s*\(|\b(?:warn|die|croak|confess|throw|raise|say)\b"
             r"|\bnew\s+\w*error\s*\(|\berrors?\.new\s*\(|\bfmt\s*\.\s*\w*print\w*\s*\(|\b(?:log_)?(?:info|warn|warning|error|fatal)\s*\()")


def _name_spans_join(chain: str) -> bool:
    """Does a sensitive name cross a seam between the pieces of a literal chain ('chi' + 'ld_process',
    ['ev', 'al'].join(''))? A chain of whole sentences ('... set GH_TOKEN in .env ' + 'to fix this.')
    splits a long message, not a name; a literal made only of escapes hides every name it holds."""
    head = chain.split(".join", 1)[0] if ".join" in chain else chain
    parts = _pieces(head)
    if len(parts) < 2:
        return True  # '\x63\x75\x72\x6c': escapes, no seam
    # which pieces were written with escapes (their raw text, read without unescaping)
    escaped = [("\\x" in r or "\\u" in r) for r in _pieces(head.replace("\\", "\\\\"))]
    data = "".join(parts).encode("utf-8", "surrogatepass")
    ends, at = [], 0
    for p in parts:
        at += len(p.encode("utf-8", "surrogatepass"))
        ends.append(at)
    lead = len(data) - len(data.lstrip())
    for m in _HIDDEN_NAME.finditer(data[lead:len(data.rstrip())]):
        a, b = m.start() + lead, m.end() + lead
        if any(a < s < b for s in ends[:-1]):
            return True  # the name crosses a seam between pieces
        i = bisect.bisect_right(ends, a)
        if i < len(escaped) and escaped[i]:
            return True  # the name sits in a piece written with escapes
    return False


class TokenFlow:
    path = ""  # the script's path, when known (test files: scripts/test_inputs.py)

    def __init__(self, text: str, vocab: Vocabulary, language: str, context: dict | None = None, reason: str = "") -> None:
        self.text = text
        self.data = text.encode("utf-8", "surrogatepass")
        self.ascii = len(self.data) == len(text)
        self.v = vocab
        self.language = language
        self.doc_hosts = frozenset((context or {}).get("skill_hosts", ()))
        self.context = context or {}
        self.reason = reason
        self.facts: dict[tuple[str, int], c.Fact] = {}
        self.tainted: dict[str, set[str]] = {}
        self.label_memo: dict[bytes, tuple[frozenset[str], bytes]] = {}  # chunk -> _own_labels(chunk)
        self.label_names: dict[bytes, list[str]] = {}  # chunk -> the names labels() looks up in tainted
        self.assigned: list | None = None  # assignments(), once found
        self.defs: list | None = None  # function_defs(), once found
        self.bodies: list[tuple[str, bytes, bytes | None]] | None = None  # function_results' reading of each definition
        self.accumulated: list[tuple[str, bytes]] | None = None  # accumulator_writes' (name, argument) pairs
        self.alias_names: set[str] = set()
        self.env_names: dict[str, set[str]] = {}  # variable -> secret environment names it was read from
        self.url_vars: set[str] = set()  # PHP names assigned a URL literal (read calls on them fetch)
        self.read_values: dict[str, bytes] = {}  # variable -> the file-reading expression it was assigned
        self.path_fns: set[bytes] | None = None  # the script's own path-building functions (joins_path)
        self.path_fn_rx = None
        self.spawn_wrapper_rx = None  # None: not computed yet; False: the script defines none
        self.url_names: dict[str, str] | None = None  # name -> URL literal it was assigned (named_url)
        self.string_spans: list[tuple[int, int]] | None = None  # (start, end) of string literals (in_plain_string)
        self.helper_urls: dict[str, str] = {}  # a sending function -> the first URL its body sends to
        self.helper_secrets: dict[str, set[str]] = {}  # a sending function -> the secret names its body reads
        self.dl_urls: dict[str, str] = {}  # a name holding a saved download -> the URL its writer fetched
        self.filled: dict[str, str] = {}  # names handed to a download-writing function -> its URL ("" unknown)
        self.str_values: dict[str, str] | None = None  # name -> the string it was built to (literals and names joined)
        self.loopback: bool | None = None  # every fetch of the script asks a service on this machine (local_fetches_only)
        # A script that walks folders and picks files by a .env name test (`/^\.env/`, glob('**/.env*')):
        # what it reads from the files it found is the project's secrets.
        self.env_walk = self._env_name_test() and _DIR_WALK.search(self.data) is not None
        dyn = _DYNAMIC_ENV.get(language)
        # Secret names kept in a list and read through a computed index (`process.env[name]` over
        # ['AWS_SECRET_ACCESS_KEY', 'GITHUB_TOKEN', ...]): the read is a secret read.
        self.dynamic_env = dyn if dyn is not None and dyn.search(self.data) and self._listed_secret_names() >= 2 else None

    def _env_name_test(self) -> bool:
        """A .env name test somewhere in the script. `path.join(dir, '.env')` builds the path of one
        file (labelled a credential by that path when it is read); it picks nothing out of a walk."""
        for n, m in enumerate(_ENV_NAME_TEST.finditer(self.data)):
            if n >= 50:
                return True
            line_start = self.data.rfind(b"\n", 0, m.start()) + 1
            head = self.data[line_start:m.start() + 1]
            if _PATH_JOIN.search(head) and _JOIN_ARG_END.search(self.data[m.start():m.end() + 1]):
                continue
            return True
        return False

    def off(self, b: int) -> int:
        return b if self.ascii else len(self.data[:b].decode("utf-8", "replace"))

    def in_comment(self, b: int) -> bool:
        """Is byte offset b inside a line comment (code that never runs)?"""
        line_start = self.data.rfind(b"\n", 0, b) + 1
        prefix = self.data[line_start:b]
        stripped = prefix.lstrip()
        markers = _COMMENT_MARKERS.get(self.language, (b"#",))
        if stripped.startswith(markers):
            return True
        inline = b"//" if self.language in ("javascript", "typescript", "php", "go", "rust") else b"--" if self.language == "lua" else b"#"
        i = prefix.find(inline)
        if i >= 0 and not (inline == b"//" and prefix[max(0, i - 1):i] == b":"):  # not the // of a URL
            before = prefix[:i]
            return before.count(b"'") % 2 == 0 and before.count(b'"') % 2 == 0 and before.count(b"`") % 2 == 0
        return False

    def emit(self, kind: str, b_start: int, b_end: int, message: str, severity: Severity,
             confidence: Confidence = Confidence.MEDIUM, url: str = "", **props) -> None:
        if self.in_comment(b_start):
            return
        start, end = self.off(b_start), self.off(b_end)
        props = {"analysis": "tokens", **props}
        if self.reason:
            props["parse-error"] = self.reason
        fact = c.Fact(kind, start, max(end, start + 1), message, severity, confidence, props)
        if kind in (K.REMOTE_EXEC, K.CRED_EXFIL):
            fact = c.apply_url_context(fact, url, self.doc_hosts)
        key = (kind, start)
        if key not in self.facts or self.facts[key].severity < fact.severity:
            self.facts[key] = fact

    def window(self, b: int, limit: int = WINDOW) -> bytes:
        """Argument text after a call token: to the closing bracket or the end of the statement."""
        depth = 1
        end = min(len(self.data), b + limit)
        i = b
        while i < end:
            ch = self.data[i]
            if ch in b"([{":
                depth += 1
            elif ch in b")]}":
                depth -= 1
                if depth <= 0:
                    return self.data[b:i]
            elif ch == 0x3B and depth <= 1 and limit == WINDOW:  # ';' ends a statement, not a callback body
                return self.data[b:i]
            i += 1
        return self.data[b:end]

    def labels(self, chunk: bytes) -> set[str]:
        """What `chunk` carries: its own labels (worked out once per chunk: run() reads every
        assignment and function body twice, and the same arguments come back from several
        passes), then what the tainted names it uses carry, which grows between passes."""
        known = self.label_memo.get(chunk)
        if known is None:
            known = self.label_memo[chunk] = self._own_labels(chunk)
        own, joined = known
        out = set(own)
        if self.tainted:
            names = self.label_names.get(chunk)
            if names is None:
                # Words inside a JavaScript string are text, not names: fetch('https://x/api/agents.json')
                # reads no variable `agents`; a template's ${...} holes are code and stay.
                code = _code_only(joined) if self.language in ("javascript", "typescript") else joined
                names = self.label_names[chunk] = [m.group(0).decode("utf-8", "replace") for m in
                                                   (_PS_NAME if self.language == "powershell" else _NAME).finditer(code)]
            tainted = self.tainted
            for name in names:
                out |= tainted.get(name, set()) | tainted.get(name.lstrip("$"), set())
        return out

    def _own_labels(self, chunk: bytes) -> tuple[frozenset[str], bytes]:
        """labels() without the tainted names: (labels, the chunk with its literal pieces joined)."""
        out: set[str] = set()
        v = self.v
        chunk = _join_literals(chunk)
        if v.fetch.search(chunk):
            out.add(DL)
        if v.decode.search(chunk):
            out.add(DEC)
        if v.env_dump.search(chunk):
            out.add(ENVDUMP)
        for m in v.secret_env.finditer(chunk):
            name = next((g for g in m.groups() if g), b"").decode("utf-8", "replace")
            if c.is_secret_env_name(name):
                out.add(SECRET)
                break
        if self.dynamic_env is not None and self.dynamic_env.search(chunk):
            out.add(SECRET)
        if SECRET not in out and _computed_env_names(chunk):
            out.add(SECRET)  # os.Getenv(strings.Join([]string{"GH", "TOKEN"}, "_")): the name assembled at run time
        if (b"paste" in chunk or b"lip" in chunk) and _CLIP_READ.search(chunk):
            out.add(CLIP)
        text = chunk.decode("utf-8", "replace")
        pieces = _pieces(text)
        if (b"://" in chunk or b"curl" in chunk or b"wget" in chunk or len(pieces) > 2) and (
                _NET_TEXT.test(text) or _NET_TEXT.test("".join(pieces))):
            out.add(NET)
        if (b"security" in chunk or b"secret-tool" in chunk or b"auth" in chunk or b"credential" in chunk or b"token" in chunk
                or b"print-" in chunk or b"get-" in chunk or b"vault" in chunk or b"show" in chunk or b"view" in chunk) \
                and _CRED_COMMAND.search(_ARGV_SEP.sub(b" ", chunk)) and (v.spawn.search(chunk) or self.calls_spawn_wrapper(chunk)):
            out.add(CRED)  # `security find-generic-password -w`, `secret-tool lookup`, `gh auth token` run by the script: its output is a secret
        if c.is_credential_path(text) or any(c.is_credential_path(p) for p in pieces) or c.is_credential_path("".join(pieces)):
            out.add(CRED)
        elif self.env_walk and _FILE_READ.search(chunk):
            out.add(CRED)  # a file read in a script that walks folders picking .env files by name
        elif len(pieces) >= 2 and (_PATH_JOIN.search(chunk) or self.joins_path(chunk)) and c.is_credential_path("/".join(pieces)):
            out.add(CRED)  # File.join(Dir.home, ".aws", "credentials"), filepath.Join(home, ".ssh", "id_rsa"), home(".kube", "config")
        if self.url_vars and DL not in out:
            for m in _URL_READ.finditer(chunk):
                if m.group(1).decode("utf-8", "replace") in self.url_vars:
                    out.add(DL)  # file_get_contents($url) with $url = 'https://...': a fetch
                    break
        return frozenset(out), chunk

    def assignments(self):
        """(match, value) of each assignment, the value read up to ASSIGNED_CHARS. The pattern runs to
        the end of the value (a {0,1000} repeat made RE2's DFA crawl) and the search resumes where a
        capped value would have ended, so a statement hidden behind a long value is still read."""
        if self.assigned is None:  # found once: run() and its helpers read them up to six times
            self.assigned = []
            pos = 0
            for _ in range(MAX_MATCHES * 10):
                m = self.v.assign.search(self.data, pos)
                if m is None:
                    break
                value = m.group(2)[:ASSIGNED_CHARS]
                if _unfinished(value):
                    value = _whole_value(self.data, m.start(2))
                if b"<<" in value:
                    value += _heredoc_body(self.data, m.start(2), value)
                self.assigned.append((m, value))
                pos = max(min(m.end(), m.start(2) + ASSIGNED_CHARS), m.start() + 1)
        return iter(self.assigned)

    def run(self) -> list[c.Fact]:
        v = self.v
        if self.language == "php" and b"://" in self.data:
            for m, value in self.assignments():
                if value.lstrip()[:1] in (b"'", b'"') and _URL_START.search(value.lstrip()[1:12]) is not None:
                    self.url_vars.add(m.group(1).decode("utf-8", "replace"))
        for _ in range(2):  # second pass: names assigned from tainted names
            for m, value in self.assignments():
                name = m.group(1).decode("utf-8", "replace")
                if name in _SHARED_ROOTS and m.end(1) < len(self.data) and self.data[m.end(1)] in b".[":
                    continue  # process.env.X = ..., module.exports = ...: a runtime object, not a value the script builds
                if _FILE_READ.search(value):
                    self.read_values[name] = value
                found = self.labels(value)
                if found:
                    self.tainted[name] = self.tainted.get(name, set()) | found
                    if SECRET in found:
                        self.env_names.setdefault(name, set()).update(self.secret_names(value))
            if self.language in ("javascript", "typescript") and b" of " in self.data and b"for" in self.data:
                self.loop_bindings()
            if self.language in _BLOCK_BINDING:
                self.block_bindings()
            self.accumulator_writes()
            self.function_results()
            self.download_writers()
        self.saved_downloads()
        if self.language == "go" and b".Stdin" in self.data:
            self.go_stdin_exec()
        if self.language == "powershell" and b"$" in self.data:
            self.ps_copies()
        self.fetch_callbacks()
        self.exec_calls(v.exec_, spawn=False)
        self.exec_calls(v.spawn, spawn=True)
        aliases = self.aliases()
        if aliases is not None:
            self.exec_calls(aliases, spawn=True)
        if self.language == "powershell":
            verbs = self.run_verb_names()
            if verbs is not None:
                self.exec_calls(verbs, spawn=False)
            if b"$" in self.data:
                self.ps_saved_then_run()
        self.sends()
        self.embedded_shell()
        self.hidden_names()
        for kind, pattern, sev, msg in v.direct:
            for n, m in enumerate(pattern.finditer(self.data)):
                if n >= 20:
                    break
                self.emit(kind, m.start(), m.end(), msg, sev)
        self.text_shapes()
        return sorted(self.facts.values(), key=lambda f: (f.start, f.kind))

    def named_url(self, win: bytes) -> str:
        """The URL literal a name in `win` was assigned (`client.Post(eventsURL, ...)` with
        `const eventsURL = "https://..."`), for grading where a send goes."""
        if self.url_names is None:
            self.url_names = {}
            if b"://" in self.data:
                for m, value in self.assignments():
                    if b"://" in value[:300] and (u := _first_url(value[:300])):
                        self.url_names.setdefault(m.group(1).decode("utf-8", "replace").lstrip("$"), u)
        for m in _NAME.finditer(win[:200]):
            u = self.url_names.get(m.group(0).decode("utf-8", "replace").lstrip("$"))
            if u:
                return u
        return ""

    def function_defs(self) -> list:
        """The first MAX_MATCHES function definitions (_FUNC_DEF's pattern, else _SENDER_DEF's), found
        once: five passes read them, function_results and accumulator_writes twice each."""
        if self.defs is None:
            pattern = _FUNC_DEF.get(self.language) or _SENDER_DEF.get(self.language)
            self.defs = [] if pattern is None else [m for _, m in zip(range(MAX_MATCHES), pattern.finditer(self.data))]
        return self.defs

    def sending_functions(self, sinks):
        """The script's own functions whose body sends (`fn resolve(payload: &[u8])` looking names up,
        `function upload($data)` posting): a call to one is a send of its arguments."""
        pattern = _FUNC_DEF.get(self.language) or _SENDER_DEF.get(self.language)
        if pattern is None:
            return None
        at = sorted(m.start() for m in sinks)
        defs = self.function_defs()
        names = set()
        for i, m in enumerate(defs):
            end = min(defs[i + 1].start() if i + 1 < len(defs) else len(self.data), m.end() + 1500)
            k = bisect.bisect_left(at, m.end())
            name = (m.group(1) or m.group(m.lastindex or 1) or b"").decode("utf-8", "replace")
            if name and k < len(at) and at[k] < end and name not in ("main", "init", "__init__"):
                names.add(name.replace("$", "\\$"))
                body_url = _first_url(self.data[m.end():end])
                if body_url:
                    self.helper_urls[name] = body_url
                self.helper_secrets[name] = self.secret_names(self.data[m.end():end])
        if not names:
            return None
        if self.language == "powershell":  # `Send-Report $data`: PowerShell calls its functions without brackets
            return rx(r"(?i)\b(?:" + "|".join(sorted(names)[:50]) + r")\b[ \t]*\(?")
        return rx(r"\b(?:" + "|".join(sorted(names)[:50]) + r")\s*\(")

    def calls_spawn_wrapper(self, chunk: bytes) -> bool:
        """`const run = (cmd, args) => execFileSync(cmd, args)` then `run("gh", ["auth", "token"])`: a function of
        the script whose body starts a process runs what its callers name, so its call is a spawn."""
        if self.spawn_wrapper_rx is None:
            self.spawn_wrapper_rx = False
            pattern = _FUNC_DEF.get(self.language) or _SENDER_DEF.get(self.language)
            if pattern is not None:
                defs = self.function_defs()
                names = set()
                for i, m in enumerate(defs):
                    end = defs[i + 1].start() if i + 1 < len(defs) else len(self.data)
                    if self.v.spawn.search(self.data[m.end():min(end, m.end() + 800)]):
                        name = next((g for g in m.groups() if g), b"").decode("utf-8", "replace")
                        if name and name not in ("main", "init"):
                            names.add(name.replace("$", r"\$"))
                if names:
                    self.spawn_wrapper_rx = rx(r"\b(?:" + "|".join(sorted(names)[:50]) + r")\s*\(")
        return bool(self.spawn_wrapper_rx) and self.spawn_wrapper_rx.search(chunk) is not None

    def joins_path(self, chunk: bytes) -> bool:
        """Does `chunk` call one of the script's own functions that build a path (a `home(parts...)`
        wrapping filepath.Join(UserHomeDir(), ...))? Those take path pieces as a join does."""
        if self.path_fns is None:
            self.path_fns = set()
            pattern = _FUNC_DEF.get(self.language)
            if pattern is not None:  # _FUNC_DEF's own pattern: function_defs() reads it first
                defs = self.function_defs()
                for i, m in enumerate(defs):
                    end = defs[i + 1].start() if i + 1 < len(defs) else len(self.data)
                    if _PATH_JOIN.search(self.data[m.end():min(end, m.end() + 600)]):
                        self.path_fns.add(m.group(1))
            self.path_fn_rx = rx(r"\b(?:" + "|".join(sorted(n.decode("ascii", "replace") for n in self.path_fns)) + r")\s*\(") if self.path_fns else None
        return self.path_fn_rx is not None and self.path_fn_rx.search(chunk) is not None

    def function_results(self) -> None:
        """`def profile_blob; File.read(File.join(Dir.home, ".aws", "credentials")); end`: a function whose
        body reads a credential, dumps the environment, fetches or decodes hands that on to its callers,
        so its name carries what its body carries (the body is read up to the next definition, bounded)."""
        if self.bodies is None:  # (name, body, first return statement) of each definition, read once for both passes
            defs = self.function_defs()
            self.bodies = []
            for i, m in enumerate(defs):
                end = defs[i + 1].start() if i + 1 < len(defs) else len(self.data)
                body = self.data[m.end():min(end, m.end() + 1500)]
                returned = _RETURNED.search(body[:600])
                self.bodies.append((next((g for g in m.groups() if g), b"").decode("utf-8", "replace"), body,
                                    returned.group(0) if returned is not None else None))
        for name, body, returned in self.bodies:
            found = self.labels(body) & {CRED, ENVDUMP, DL, DEC, CLIP}
            # A getter whose return value is a secret (`func token() string { return os.Getenv(...) }`):
            # its call is the secret, as a variable assigned from the read would be.
            if returned is not None and SECRET in self.labels(returned):
                found = found | {SECRET}
                self.env_names.setdefault(name, set()).update(self.secret_names(returned))
            if found and name and name not in ("main", "init"):
                self.tainted[name] = self.tainted.get(name, set()) | found

    def download_writers(self) -> None:
        """`func fetch(dst string) { resp := http.Get(u); f := os.OpenFile(dst, ...); io.Copy(f, resp.Body) }`,
        `async function pull() { const r = await fetch(u); await writeFile(p, await r.text()); return p }`:
        a function of the script whose body fetches and writes a file. What it returns holds the download,
        and so do the names handed to it (`fetch(bin)` fills bin): running or importing them runs the download."""
        pattern = _FUNC_DEF.get(self.language) or _SENDER_DEF.get(self.language)
        if pattern is None or _FILE_OUT.search(self.data) is None:
            return
        defs = self.function_defs()
        writers: dict[str, str] = {}
        for i, m in enumerate(defs):
            end = defs[i + 1].start() if i + 1 < len(defs) else len(self.data)
            body = self.data[m.end():min(end, m.end() + 1500)]
            name = (m.group(1) or m.group(m.lastindex or 1) or b"").decode("utf-8", "replace")
            if not name or name in ("main", "init") or _FILE_OUT.search(body) is None or DL not in self.labels(body):
                continue
            writers[name] = _first_url(body) or self.named_url(body)
            self.tainted[name] = self.tainted.get(name, set()) | {DL}
            if writers[name]:
                self.dl_urls.setdefault(name, writers[name])
        if not writers:
            return
        names = "|".join(re.escape(n) for n in sorted(writers)[:50])
        calls = rx(r"(?i)\b(" + names + r")\b[ \t]*\(?" if self.language == "powershell" else r"\b(" + names + r")\s*\(")
        self.named_url(b"")
        url_names = self.url_names or {}
        for n, m in enumerate(calls.finditer(self.data)):
            if n >= MAX_MATCHES:
                break
            line_start = self.data.rfind(b"\n", 0, m.start()) + 1
            if pattern.search(self.data[line_start:m.end()]) is not None:
                continue  # the definition's own line
            win = self.window(m.end()) if self.language != "powershell" else _ps_statement(self.data[m.end():m.end() + WINDOW])
            writer = m.group(1).decode("utf-8", "replace")
            for arg in _TOP_ARGS.finditer(win[:300]):
                key = arg.group(1).decode("utf-8", "replace").lstrip("$")
                if key in url_names or key in _PS_DRIVES or not key:
                    continue  # the URL it fetches, not the file it fills
                self.tainted[key] = self.tainted.get(key, set()) | {DL}
                self.filled[key] = writers[writer] or self.filled.get(key, "")
                if writers[writer]:
                    self.dl_urls.setdefault(key, writers[writer])

    def dl_url(self, win: bytes) -> str:
        """The URL a saved download held by a name in `win` was fetched from."""
        if not self.dl_urls:
            return ""
        for m in (_PS_NAME if self.language == "powershell" else _NAME).finditer(win[:300]):
            u = self.dl_urls.get(m.group(0).decode("utf-8", "replace").lstrip("$"))
            if u:
                return u
        return ""

    def data_file_read(self, win: bytes) -> str:
        """The opaque data file (.dat, .txt, .bin, ...) an exec call's argument reads, directly or through a name assigned from a read."""
        chunks = [win]
        for m in _NAME.finditer(win):
            name = m.group(0).decode("utf-8", "replace").lstrip("$")
            if name in self.read_values:
                chunks.append(self.read_values[name])
        for chunk in chunks:
            if _FILE_READ.search(chunk):
                for lit in _DATA_LIT.finditer(chunk):
                    value = lit.group(1).decode("utf-8", "replace")
                    if c.is_data_file(value) and "://" not in value:
                        return value.rsplit("/", 1)[-1][:80]
        return ""

    def secret_names(self, chunk: bytes) -> set[str]:
        """Secret environment names a chunk reads, directly or through variables assigned from them."""
        names: set[str] = set()
        for m in self.v.secret_env.finditer(chunk):
            name = next((g for g in m.groups() if g), b"").decode("utf-8", "replace")
            if c.is_secret_env_name(name):
                names.add(name)
        if self.dynamic_env is not None and self.dynamic_env.search(chunk):
            names.add("*listed*")  # names from a list: never one vendor's own
        names.update(_computed_env_names(chunk))
        for m in _NAME.finditer(chunk):
            key = m.group(0).decode("utf-8", "replace")
            names |= self.env_names.get(key, set()) | self.env_names.get(key.lstrip("$"), set())
        return names

    def _listed_secret_names(self) -> int:
        n = 0
        for m in _SECRET_LITERAL.finditer(self.data):
            if c.is_secret_env_name(m.group(1).decode("ascii", "replace")):
                n += 1
                if n >= 2:
                    break
        return n

    def block_bindings(self) -> None:
        """`raw.scan(/.{1,1900}/m).each do |part|`, `foreach ($files as $f)`, `for k, v in pairs(t) do`,
        `for (line in lines)`: the block's names carry what the iterated value carries."""
        for n, m in enumerate(_BLOCK_BINDING[self.language].finditer(self.data)):
            if n >= MAX_MATCHES:
                break
            iterable, binding = (m.group(2), m.group(1)) if self.language in _BINDING_FIRST else (m.group(1), m.group(2))
            found = self.labels(iterable[:600])
            if not found:
                continue
            for name in _NAME.finditer(binding):
                key = name.group(0).decode("utf-8", "replace").lstrip("$")
                if key not in ("as", "my", "local", "in"):
                    self.tainted[key] = self.tainted.get(key, set()) | found

    def accumulator_writes(self) -> None:
        """`b.WriteString(k + "=" + os.Getenv(k))`, `parts.push(token)`, `sb.append(secret)`,
        `fmt.Fprintf(&buf, "%s", key)`: a builder, buffer or list written with a value carries
        what the value carries (its `.String()`, `join` or body later sent is that value)."""
        if self.accumulated is None:  # the writes are found once for both passes of run()
            self.accumulated = []
            for n, (name, arg) in enumerate(accumulations(self.data)):
                if n >= MAX_MATCHES:
                    break
                name = name.decode("utf-8", "replace")
                if name and name not in _SHARED_ROOTS and arg:
                    self.accumulated.append((name, arg))
        for name, arg in self.accumulated:
            found = self.labels(arg)
            if found:
                self.tainted[name] = self.tainted.get(name, set()) | found
                if SECRET in found:
                    self.env_names.setdefault(name, set()).update(self.secret_names(arg))

    def loop_bindings(self) -> None:
        """`for (const [k, v] of harvested)`: the loop's names carry what the iterated value carries."""
        i, n = self.data.find(b" of "), 0
        while i >= 0 and n < MAX_MATCHES:
            # Each ` of ` is checked on its own line only: a bounded pattern on a short slice.
            line_start = self.data.rfind(b"\n", 0, i) + 1
            line_end = self.data.find(b"\n", i)
            line_end = len(self.data) if line_end < 0 else line_end
            i = self.data.find(b" of ", i + 4)
            parsed = _for_of(self.data[line_start:min(line_end, line_start + 600)])
            if parsed is None:
                continue
            n += 1
            binding, iterable = parsed
            found = self.labels(iterable)
            if not found:
                continue
            for name in _NAME.finditer(binding):
                key = name.group(0).decode("utf-8", "replace")
                if key not in ("const", "let", "var"):
                    self.tainted[key] = self.tainted.get(key, set()) | found

    def string_values(self) -> dict[str, str]:
        """Names assigned a string built from literals and names already known (`a = "cu"`, `c = a + "rl ..."`,
        `$c = $a . $b`): what a command assembled from pieces reads as, once put together."""
        if self.str_values is None:
            self.str_values = {}
            if b'"' in self.data or b"'" in self.data:
                for n, (m, value) in enumerate(self.assignments()):
                    if n >= MAX_MATCHES * 2:
                        break
                    for name, expr in _declarations(m.group(1), value):
                        folded = _fold_expr(expr, self.str_values)
                        if folded is not None:
                            self.str_values[name.decode("utf-8", "replace").lstrip("$")] = folded
        return self.str_values

    def built_command(self, token: str, win: bytes) -> str:
        """The command string a process or shell call runs when it is assembled from named pieces; "" otherwise."""
        if not _NAME.search(win[:200]):
            return ""
        args = _split_top(win[:600])
        if not args:
            return ""
        prog = _unquote(args[0].strip()) if _is_literal(args[0]) else ""
        arg = args[0]
        if prog and _RUNS_CODE_PROGRAM.search(prog.encode()) is not None and len(args) >= 3 and _unquote(args[1].strip()) in ("-c", "/c", "-Command"):
            arg = args[2]  # exec.Command("sh", "-c", a+b), spawn("bash", ["-c", cmd])
        elif _is_literal(arg):
            return ""
        values = self.string_values()
        if not values:
            return ""
        folded = _fold_expr(arg.strip().lstrip(b"[").rstrip(b"]"), values)
        return folded if folded and (len(folded) >= 8) else ""

    def local_fetches_only(self) -> bool:
        """Every fetch call of the script names its URL (a literal, or a constant holding one) and each
        URL is this machine (`fetch(`${PROXY}/eval`)` with PROXY = 'http://localhost:3456', a browser's
        debugging port): what such a script "downloads" comes from a service the user runs, not from a
        stranger's host. A fetch whose URL the script does not spell out (a parameter, user input) and
        any host elsewhere keep the script in the network case."""
        if self.loopback is None:
            seen = 0
            for n, m in enumerate(self.v.fetch.finditer(self.data)):
                if n >= MAX_MATCHES:
                    seen = 0
                    break
                if self.in_comment(m.start()) or self.in_plain_string(m.start()):
                    continue
                win = self.window(m.end())
                url = _first_url(win) or self.named_url(win)
                if not url or not H.is_loopback_host(c.host_of(url)):
                    seen = 0
                    break
                seen += 1
            self.loopback = seen > 0
        return self.loopback

    def in_plain_string(self, b: int) -> bool:
        """Is byte offset b inside a string literal, outside any `$(...)`/`${...}`/`#{...}` hole: text a
        message prints (`Write-Err "... irm ... | iex"`), not a call the script makes?"""
        if self.string_spans is None:
            spans = []
            for n, m in enumerate(self.v.strings.finditer(self.data)):
                if n >= MAX_MATCHES * 25:
                    break
                spans.append(m.span())
            self.string_spans = spans
        i = bisect.bisect_right(self.string_spans, (b, len(self.data) + 1)) - 1
        if i < 0:
            return False
        s0, s1 = self.string_spans[i]
        if not s0 < b < s1 - 1:
            return False
        head = self.data[s0:b]
        # one line only: a stray backtick in a comment must not turn the code below it into "text"
        if b"\n" in head or b"$(" in head or b"${" in head or b"#{" in head:
            return False
        # only a message: the string is handed to a print, log or error call on its line, and to no process or
        # evaluator (`Start-Process pwsh -ArgumentList "-c ..."` runs it; `Set-Content x.ps1 "iex ..."` keeps it to run later)
        before = self.data[self.data.rfind(b"\n", 0, s0) + 1:s0]
        if _PRINTS.search(before) is None:
            return False
        return not (self.v.spawn.search(before) or self.v.exec_.search(before) or any(a.encode() in before for a in self.alias_names))

    def exec_calls(self, pattern, spawn: bool) -> None:
        for n, m in enumerate(pattern.finditer(self.data)):
            if n >= MAX_MATCHES:
                break
            if self.in_plain_string(m.start()) and not m.group(0).startswith((b"`", b"%x", b"qx")):
                continue  # the call's name inside a message's text: printed, not called
            token = m.group(0).decode("utf-8", "replace").strip()
            win = self.window(m.end())
            if self.language == "rust" and spawn and token.startswith("Command::new"):
                win = win + _rust_shell_arg(self.data, m.end() + len(win) + 1, win)
            if (spawn or self.language == "powershell") and (built := self.built_command(token, win)):
                self.run_built(m, token, win, built)
            # `.then(eval)` and a backtick or %x{} command carry their argument inside the token itself.
            found = self.labels(win) | (self.labels(m.group(0)) if token.startswith((".then", "`", "%x", "qx")) else set())
            if spawn and ENVDUMP in found and _only_child_env(self.v.env_dump, win):
                found.discard(ENVDUMP)  # `{ env: process.env }`: the child's own environment, not sent anywhere
            if self.url_vars and token.lower().startswith(("include", "require")):
                arg = win.strip().lstrip(b"(").strip()
                if arg.startswith(b"$") and _first_name_arg(arg[1:]).decode("utf-8", "replace") in self.url_vars:
                    found.add(DL)  # require_once $u with $u = 'https://...': code included from the network
            # PowerShell pipes into iex: `iwr $u | iex` puts the fetch before the token.
            line_start = self.data.rfind(b"\n", 0, m.start()) + 1
            before = self.data[max(line_start, m.start() - WINDOW):m.start()]
            if b"|" in before[-40:] or token.lower().startswith("|") or token.startswith(".then"):
                found |= self.labels(before) & {DL, DEC}
            url = _first_url(win + before) or self.dl_url(win)
            if DL in found:
                # A process given the body as a shell command (`exec.Command("sh", "-c", body)`) runs it as code.
                as_code = not spawn or _SHELL_DASH_C.search(win) is not None
                if spawn and not as_code and (prog := _FIXED_PROGRAM.search(win)) is not None \
                        and _RUNS_CODE_PROGRAM.search(prog.group(1)) is None and DL not in self.labels(win.split(b",")[0]):
                    # exec.Command("git", "checkout", tag), execFileSync('git', ['add', out]): a fixed program given a
                    # fetched argument (or a file holding fetched data), which no shell or interpreter reads as code
                    self.emit(K.REMOTE_EXEC, m.start(), m.end() + len(win), f"Content fetched from the network is passed as an argument to {prog.group(1).decode('utf-8', 'replace')}",
                              Severity.MEDIUM, Confidence.LOW, url=url)
                    continue
                if (not url or H.is_loopback_host(c.host_of(url))) and not as_code and self.local_fetches_only():
                    # a file or command run with data a local service answered (a browser's page size, a local
                    # proxy's reply): no stranger's code comes in; a body run as code (eval, sh -c) stays high
                    self.emit(K.REMOTE_EXEC, m.start(), m.end() + len(win), f"Content from a service on this machine (localhost) reaches {token.rstrip('( ')}",
                              Severity.MEDIUM, Confidence.LOW, url=url)
                    continue
                self.emit(K.REMOTE_EXEC, m.start(), m.end() + len(win), f"Content fetched from the network reaches {token.rstrip('( ')}",
                          Severity.CRITICAL if as_code else Severity.HIGH, url=url)
            elif DEC in found:
                self.emit(K.DECODE_EXEC, m.start(), m.end() + len(win), f"Decoded content reaches {token.rstrip('( ')}", Severity.CRITICAL)
            elif not spawn and (data_file := self.data_file_read(win)):
                self.emit(K.DECODE_EXEC, m.start(), m.end() + len(win), f"{token.rstrip('( ')} runs code read from a data file ({data_file}): a payload kept beside the script",
                          Severity.HIGH, data_file=data_file)
            elif not spawn and token.startswith(("eval", "new Function", "Function", "vm.", "new vm")):
                arg = win.strip()
                if arg and not _is_literal(arg):
                    self.emit(K.DYNAMIC_EXEC, m.start(), m.end() + len(win), f"{token.rstrip('( ')} runs code computed at run time",
                              Severity.MEDIUM, Confidence.LOW)
            elif spawn and NET in (first := self.labels(win.split(b",")[0])) and first & {SECRET, ENVDUMP, CRED}:
                # The command line itself carries harvested secrets to a network tool (`curl ...?k=${val}`).
                self.emit(K.CRED_EXFIL, m.start(), m.end() + len(win), f"Secrets or the environment are put into a network command run by {token.rstrip('( ')}",
                          Severity.HIGH, url=url, sources=sorted(first & {SECRET, ENVDUMP, CRED}))
            elif spawn and (prog := _FIXED_PROGRAM.search(win)) is not None and _NET_PROGRAM.search(prog.group(1)) is not None \
                    and (secrets := found & {SECRET, ENVDUMP, CRED}) and not (CRED not in found and _auth_header_only(win)):
                # system('curl', '-b', "sid=$c", $url), spawn('curl', [..., `-H`, `X: ${blob}`]): an argument vector
                # whose program is a network tool and whose arguments carry harvested secrets
                names = self.secret_names(win)
                if CRED not in found and ENVDUMP not in found and names and url and all(H.credential_goes_home(n, url) for n in names):
                    continue  # a vendor's key passed to curl for that vendor's own API
                self.emit(K.CRED_EXFIL, m.start(), m.end() + len(win), f"Secrets or credentials are passed as arguments to {prog.group(1).decode('utf-8', 'replace')} run by {token.rstrip('( ')}",
                          Severity.HIGH, url=url, sources=sorted(secrets))
            elif spawn and (b"${" in win or b"+" in win.split(b",")[0]) and self.language in ("javascript", "typescript"):
                self.emit(K.SHELL_INJECTION, m.start(), m.end() + len(win), f"{token.rstrip('( ')} runs a command string built at run time",
                          Severity.LOW, Confidence.LOW)

    def run_built(self, m, token: str, win: bytes, command: str) -> None:
        """A command string assembled from pieces, read as the shell (or PowerShell) line it becomes."""
        from ..shell.flow import analyze_text
        from ..command_grader import grade_command

        found = [f for f in analyze_text(command, self.context) if f.kind in (K.REMOTE_EXEC, K.DECODE_EXEC, K.CRED_EXFIL, K.REVERSE_SHELL)] \
            if self.language != "powershell" else []
        for f in found:
            self.emit(f.kind, m.start(), m.end() + len(win), f"{f.message} (a command assembled from pieces, run by {token.rstrip('( ')})",
                      f.severity, f.confidence, url=f.properties.get("url", ""), folded=command[:200])
        for g in grade_command(command):
            if g.severity >= Severity.MEDIUM and not any(f.kind == g.kind for f in found):
                self.emit(g.kind, m.start(), m.end() + len(win), f"{g.message} (a command assembled from pieces, run by {token.rstrip('( ')})",
                          g.severity, url=g.url, folded=command[:200])

    def aliases(self):
        """Names bound to a code-running function (`const { execSync: go } = ...`, `const run = cp.exec`)."""
        names = set()
        for m in _ALIAS.finditer(self.data):
            name = (m.group(1) or m.group(2) or b"").decode("utf-8", "replace")
            if name and name not in ("exec", "execSync", "spawn", "eval"):
                names.add(name)
            if len(names) > 50:
                break
        if not names:
            return None
        self.alias_names = names
        return rx(r"\b(?:" + "|".join(sorted(n.replace("$", r"\$") for n in names)) + r")\s*\(")

    def socket_writes(self):
        """Go: writes to a connection the script dialled (`conn, _ := net.Dial(...)`, then `conn.Write(key)`,
        `fmt.Fprint(conn, key)`, `io.Copy(conn, f)`): what is written is sent."""
        names = set()
        if self.language == "rust":
            # `let mut s = TcpStream::connect(..)?`, `if let Ok(mut s) = TcpStream::connect(..)`: then
            # `write!(s, ..)`, `s.write_all(..)`
            for n, m in enumerate(_RUST_CONNECT.finditer(self.data)):
                if n >= 20:
                    break
                names.add(m.group(1).decode("utf-8", "replace"))
            if not names:
                return None
            alt = "|".join(sorted(names))
            return rx(r"(?:\b(?:" + alt + r")\s*\.\s*(?:write(?:_all|_fmt)?|send(?:_to)?)\s*\(|\bwrite(?:ln)?!\s*\(\s*(?:&mut\s+)?(?:" + alt + r")\s*,)")
        if self.language == "php":
            # `$s = fsockopen(..)`, `$c = stream_socket_client(..)`: then `fwrite($s, ..)`, `fputs($s, ..)`
            for n, (m, value) in enumerate(self.assignments()):
                if n >= MAX_MATCHES * 2 or len(names) > 20:
                    break
                if _PHP_CONNECT.search(value) is not None:
                    names.add(m.group(1).decode("utf-8", "replace").lstrip("$"))
            if not names:
                return None
            alt = "|".join(sorted(names))
            return rx(r"\b(?:fwrite|fputs|socket_write|socket_send|stream_socket_sendto)\s*\(\s*\$(?:" + alt + r")\s*,")
        for m, value in self.assignments():
            if _GO_DIAL.search(value) is not None:
                names.add(m.group(1).decode("utf-8", "replace"))
            if len(names) > 20:
                break
        if not names:
            return None
        alt = "|".join(sorted(names))
        return rx(r"(?:\b(?:" + alt + r")\.Write(?:String|To)?\s*\(|\bfmt\.Fprint\w*\s*\(\s*(?:" + alt + r")\s*,|\bio\.Copy\s*\(\s*(?:" + alt + r")\s*,)")

    def saved_downloads(self) -> None:
        """`File.write(path, URI.open(u).read)`, `fs.writeFileSync(p, body)`, `os.WriteFile(p, b, 0755)`,
        `file_put_contents($p, file_get_contents($u))`: the path now holds downloaded content, so running
        it (`system("bash", path)`, `exec.Command(p)`) runs the download."""
        for n, m in enumerate(_SAVE_CALL.finditer(self.data)):
            if n >= 100:
                break
            name = m.group(1).decode("utf-8", "replace")
            if DL in self.labels(m.group(2)):
                self.tainted[name] = self.tainted.get(name, set()) | {DL}
        for n, m in enumerate(_COPY_STREAM.finditer(self.data)):
            if n >= 100:
                break
            if DL in self.labels(m.group(1)):
                name = m.group(2).decode("utf-8", "replace")
                self.tainted[name] = self.tainted.get(name, set()) | {DL}
        handles: set[str] = set()
        # Destination first: Go's io.Copy(f, resp.Body), f.ReadFrom(resp.Body), Node's body.pipe(out) reversed.
        for n, m in enumerate(_COPY_INTO.finditer(self.data)):
            if n >= 100:
                break
            name = (m.group(1) or m.group(3) or b"").decode("utf-8", "replace")
            if name and DL in self.labels(m.group(2) or m.group(4) or b""):
                self.tainted[name] = self.tainted.get(name, set()) | {DL}
                handles.add(name)
        if not handles and any(w in self.data for w in (b".write", b".Write", b"->print", b"->syswrite", b":write", b".puts", b".print")) \
                and (any(DL in v for v in self.tainted.values()) or self.v.fetch.search(self.data) is not None):
            # `f.Write(body)`, `out.write(await r.arrayBuffer())`, `$fh.print($resp)`: data written through a handle
            for n, m in enumerate(_HANDLE_WRITE.finditer(self.data)):
                if n >= 100:
                    break
                if DL in self.labels(m.group(2)):
                    handles.add(m.group(1).decode("utf-8", "replace"))
        if handles:
            self.handle_paths(handles)

    def handle_paths(self, handles: set[str]) -> None:
        """The path a download-filled handle was opened on (`f, _ := os.OpenFile(p, ...)`, `out = File.open(dst, "wb")`,
        `const ws = fs.createWriteStream(bin)`): the file at that path now holds the download, so running the
        path (`exec.Command(p)`, `spawn(bin)`) runs it, whatever the file is named."""
        for m, value in self.assignments():
            name = m.group(1).decode("utf-8", "replace")
            if name not in handles:
                continue
            opened = _OPENED_ON.search(value)
            if opened is not None:
                path = opened.group(1).decode("utf-8", "replace")
                if path not in handles:
                    self.tainted[path] = self.tainted.get(path, set()) | {DL}

    def ps_saved_then_run(self) -> None:
        """PowerShell: a download saved to a path held in a variable (`-OutFile $p`, `.DownloadFile($u, $f)`,
        `Start-BitsTransfer ... -Destination $p`) and that variable run later (`Start-Process $p`, `& $f`)."""
        urls: dict[str, str] = {}
        for m, value in self.assignments():
            u = _first_url(value) if b"://" in value else ""
            if u:
                urls[m.group(1).decode("utf-8", "replace").lower()] = u
        saved: dict[str, str] = {}
        for pattern in (_PS_SAVED_TO, _PS_DOWNLOADFILE):
            for n, m in enumerate(pattern.finditer(self.data)):
                if n >= 50:
                    break
                name = m.group(2).decode("utf-8", "replace").lower()
                if name in _PS_DRIVES:
                    continue  # "$env:TEMP\x.ps1": a drive path, not a variable
                line_start = self.data.rfind(b"\n", 0, m.start()) + 1
                line_end = self.data.find(b"\n", m.end())
                line = self.data[line_start:line_end if line_end >= 0 else len(self.data)]
                url = _first_url(line)
                if not url:
                    for v in _PS_VAR.finditer(m.group(1)):
                        url = urls.get(v.group(1).decode("utf-8", "replace").lower(), "")
                        if url:
                            break
                saved.setdefault(name, url)
        for name, url in self.filled.items():
            saved.setdefault(name.lower(), url)  # Save-Bundle $dest: a function of the script filled it
        if not saved:
            return
        from ..command_grader import grade_url

        for n, m in enumerate(_PS_RUN_VAR.finditer(self.data)):
            if n >= 50:
                break
            name = next((g for g in m.groups() if g), b"").decode("utf-8", "replace").lower()
            if name not in saved or name in _PS_DRIVES:
                continue
            url = saved[name]
            sev, grade, host = grade_url(url) if url else (Severity.HIGH, "unknown", "")
            if grade in ("vendor", "local"):
                continue
            self.emit(K.REMOTE_EXEC, m.start(), m.end(), f"A file saved from a download ({host or 'a computed URL'}) is run",
                      max(sev, Severity.HIGH) if grade not in ("release", "placeholder") else Severity.MEDIUM, url=url)

    def go_stdin_exec(self) -> None:
        """Go: `cmd := exec.Command("sh")` then `cmd.Stdin = resp.Body`: a shell or interpreter reads
        its program from standard input, so what is fed there is run as code."""
        shells: set[str] = set()
        for n, m in enumerate(_GO_CMD.finditer(self.data)):
            if n >= MAX_MATCHES:
                break
            prog = _GO_PROG.search(self.window(m.end()))
            if prog is not None and _RUNS_CODE_PROGRAM.search(prog.group(1)) is not None:
                shells.add(m.group(1).decode("utf-8", "replace"))
        if not shells:
            return
        for n, m in enumerate(_GO_STDIN.finditer(self.data)):
            if n >= MAX_MATCHES:
                break
            if m.group(1).decode("utf-8", "replace") not in shells:
                continue
            found = self.labels(m.group(2))
            if DL in found:
                self.emit(K.REMOTE_EXEC, m.start(), m.end(), "Content fetched from the network is fed to a shell's standard input",
                          Severity.CRITICAL, url=_first_url(self.data))
            elif DEC in found:
                self.emit(K.DECODE_EXEC, m.start(), m.end(), "Decoded content is fed to a shell's standard input", Severity.CRITICAL)

    def ps_copies(self) -> None:
        """PowerShell: `Copy-Item $cred $dir`, `Compress-Archive -Path "$dir/*" -DestinationPath $zip`:
        the destination holds what the source held, so sending it (`-Attachments $zip`) sends that."""
        for _ in range(2):  # a copy into a folder, then that folder archived
            for n, m in enumerate(_PS_COPY.finditer(self.data)):
                if n >= 50:
                    break
                args = m.group(1)
                dest = _PS_DEST.search(args)
                if dest is not None:
                    target, source = dest.group(1), args[:dest.start()] + args[dest.end():]
                else:
                    positional = [w for w in args.split() if not w.startswith(b"-")]
                    if len(positional) < 2:
                        continue
                    target, source = positional[1], positional[0]
                name = _PS_VAR.search(target)
                if name is None:
                    continue
                found = self.labels(source) & {CRED, SECRET, ENVDUMP}
                if found:
                    key = name.group(1).decode("utf-8", "replace")
                    self.tainted[key] = self.tainted.get(key, set()) | found

    def run_verb_names(self):
        """PowerShell names holding the run verb (`$run = "I" + "EX"`, `Set-Alias go Invoke-Expression`)
        and the calls made through them (`& $run $code`, `.($run) $code`, `go $code`)."""
        names, aliases = set(), set()
        for m, value in self.assignments():
            folded = _fold(value.decode("utf-8", "replace")) if value[:1] in (b"'", b'"', b"(") else ""
            if folded and _RUN_VERB.test(folded.strip()):
                names.add(m.group(1).decode("utf-8", "replace"))
            if len(names) > 20:
                break
        for m in _SET_ALIAS.finditer(self.data):
            aliases.add(m.group(1).decode("utf-8", "replace"))
            if len(aliases) > 20:
                break
        if not names and not aliases:
            return None
        parts = []
        if names:
            parts.append(r"[&.]\s*\(?\s*\$(?:" + "|".join(sorted(names)) + r")\b\)?")
        if aliases:
            parts.append(r"^\s*(?:" + "|".join(sorted(aliases)) + r")\b")
        return rx("(?im)(?:" + "|".join(parts) + ")")

    def fetch_names(self):
        """JavaScript: `get`/`request` taken out of the http(s) module by name (`const { get } =
        require("https")`, `import { request as r } from "node:https"`): a bare call of that name
        is the module's fetch. A pattern of those calls, or None."""
        if self.language not in ("javascript", "typescript") or b"http" not in self.data:
            return None
        names: set[str] = set()
        for n, m in enumerate(_HTTP_DESTRUCTURE.finditer(self.data)):
            if n >= 10:
                break
            for part in (m.group(1) or m.group(2) or b"").split(b","):
                words = part.replace(b":", b" as ").split()
                if words and words[0] in (b"get", b"request"):
                    name = words[-1].decode("utf-8", "replace")
                    if name.replace("$", "_").isidentifier():
                        names.add(name)
        if not names:
            return None
        return rx(r"(?:^|[^.\w$])(?:" + "|".join(sorted(n.replace("$", r"\$") for n in names)) + r")\s*\(")

    def fetch_callbacks(self) -> None:
        """`https.get(u, res => { ... eval(body) })`: code run inside the fetch's own callback."""
        named = self.fetch_names()
        found = list(self.v.fetch.finditer(self.data))[:MAX_MATCHES]
        if named is not None:
            found += list(named.finditer(self.data))[:MAX_MATCHES]
        for n, m in enumerate(found):
            if n >= MAX_MATCHES:
                break
            if self.in_plain_string(m.start()):
                continue  # a fetch's name inside a message's text
            win = self.window(m.end(), limit=1500)
            if self.language == "powershell":
                win = _ps_statement(win)  # no brackets close a PowerShell statement: it ends at a line not continued
            hit = self.v.exec_.search(win)
            if hit is not None and _is_literal(self.window(m.end() + hit.end())):
                hit = None  # [scriptblock]::Create("Write-Host 'done'"): a fixed text, not the response
            if hit is None:
                spawn = self.v.spawn.search(win)
                # execSync(body) where body accumulated the response (`body += chunk`): the download is run.
                if spawn is not None and (arg := _first_name_arg(win[spawn.end():spawn.end() + 80])) and (
                        arg + b" +=" in win or arg + b"+=" in win or arg + b" = Buffer.concat" in win):
                    hit = spawn
            if hit is None:
                hit = _saved_body_run(self.v.spawn, win)
            if hit is not None:
                token = hit.group(0).decode("utf-8", "replace").strip().rstrip("( ")
                self.emit(K.REMOTE_EXEC, m.start(), m.end() + hit.end(), f"Content fetched from the network is run by {token} in the fetch callback",
                          Severity.CRITICAL, url=_first_url(win))

    def sends(self) -> None:
        sent_any = False
        matches = list(self.v.send.finditer(self.data))[:MAX_MATCHES]
        if self.language in ("go", "rust", "php") and (sockets := self.socket_writes()) is not None:
            matches += list(sockets.finditer(self.data))[:MAX_MATCHES]
        if matches and (helpers := self.sending_functions(matches)) is not None:
            matches += list(helpers.finditer(self.data))[:MAX_MATCHES]
        decoded = bool(matches) and self.v.decode.search(self.data) is not None  # a destination decoded at run time needs a decoder
        for n, m in enumerate(matches):
            if n >= MAX_MATCHES:
                break
            sent_any = True
            win = self.window(m.end())
            found = self.labels(win)
            line_start = self.data.rfind(b"\n", 0, m.start()) + 1
            before = self.data[max(line_start, m.start() - WINDOW):m.start()]
            if b"|" in before[-60:] and self.language == "powershell":
                found |= self.labels(before)  # `Get-Content ~\.ssh\id_rsa | Invoke-RestMethod -Method Post`: piped in
            token = m.group(0).decode("utf-8", "replace").strip().rstrip("( ")
            if token.startswith("."):
                # a method sink reads its receiver: format!("{chunk}.{zone}:53").to_socket_addrs()
                found |= self.labels(before[-200:]) & {CRED, SECRET, ENVDUMP}
            if decoded and not token.startswith(".") and b"," in win and token not in self.helper_urls and DEC in self.labels(win.split(b",")[0]):
                # fetch(atob(h), {method: "POST", body}), Net::HTTP.post(URI(Base64.decode64(u)), data): the destination is
                # decoded at run time, kept out of the reader's sight
                self.emit(K.HOST_DATA_EXFIL, m.start(), m.end() + len(win), f"{token} sends data to an address the script decodes at run time (a hidden destination)",
                          Severity.HIGH)
            # A call of the script's own sending function sends where its body sends.
            url = self.helper_urls.get(token) or _first_url(win) or _first_url(self.data[max(0, m.start() - 200):m.start()]) or self.named_url(win)
            if found & {CRED, SECRET} and not _auth_header_only(win):
                # A call of the script's own sender adds the secrets its body reads (its own key for its own API).
                names = self.secret_names(win) or self.helper_secrets.get(token, set())
                if CRED not in found and names and url and all(H.credential_goes_home(n, url) for n in names):
                    # DD_API_KEY in its header to api.datadoghq.com: the vendor's own service, ordinary API use
                    self.emit(K.CRED_EXFIL, m.start(), m.end() + len(win), f"A vendor's key is sent to that vendor's own service ({token})",
                              Severity.LOW, Confidence.LOW, url=url, secrets=sorted(names), **{"lowered-because": ["secret sent to the service it belongs to"]})
                    continue
                self.emit(K.CRED_EXFIL, m.start(), m.end() + len(win), f"A credential or secret reaches {token}", Severity.CRITICAL,
                          url=url, sources=sorted(found & {CRED, SECRET}))
            elif ENVDUMP in found:
                self.emit(K.CRED_EXFIL, m.start(), m.end() + len(win), f"The whole environment reaches {token}", Severity.HIGH, url=url)
            elif CLIP in found and not _local_url(url):
                self.emit(K.HOST_DATA_EXFIL, m.start(), m.end() + len(win), f"The clipboard's contents reach {token}", Severity.HIGH, url=url)
        if sent_any and not any(f.kind in (K.CRED_EXFIL, K.HOST_DATA_EXFIL) for f in self.facts.values()) and (
                clip := _CLIP_READ.search(self.data)) is not None and not self.in_comment(clip.start()) and not _local_url(
                    url := _first_url(self.data) or self.named_url(self.data[clip.end():clip.end() + 2000])):
            # `const c = clip(); ... https.request({host, method: "PUT"}).end(c)`: the clipboard (copied passwords, keys,
            # tokens) read by a script that also sends over the network, the body handed over apart from the call
            self.emit(K.HOST_DATA_EXFIL, clip.start(), clip.end(), "Reads the clipboard in a script that also sends data over the network",
                      Severity.HIGH, Confidence.MEDIUM, url=url)
        if sent_any and not any(f.kind == K.CRED_EXFIL for f in self.facts.values()):
            strong = [m for m in self.v.strings.finditer(self.data) if c.is_strong_credential_path(_unquote(m.group(0)))]
            # `{ vars: process.env }` counts inside a send's arguments only (dotenv's `processEnv: process.env` sends nothing)
            dump = next((d for d in self.v.env_dump.finditer(self.data) if not _child_env(self.data, d.start())
                         and self.data[d.start():d.start() + 1] not in (b":", b"(", b",")), None)
            first = strong[0] if strong else dump
            if first is not None:
                self.emit(K.CRED_EXFIL, first.start(), first.end(), "Reads credentials or the whole environment in a script that also sends data over the network",
                          Severity.HIGH, Confidence.LOW)

    def embedded_shell(self) -> None:
        """String literals handed to a process or shell are read as shell commands."""
        from ..shell.flow import analyze_text

        for n, m in enumerate(self.v.strings.finditer(self.data)):
            if n >= MAX_MATCHES * 5:
                break
            raw = m.group(0)
            if len(raw) < 8 or not (b"|" in raw or b"/dev/tcp" in raw or b"$(" in raw or b"@" in raw or b"-o" in raw or _grader_trigger().search(raw)):
                continue
            line_start = self.data.rfind(b"\n", 0, m.start()) + 1
            head = self.data[line_start:m.start()]
            if not (self.v.spawn.search(head) or self.v.exec_.search(head) or any(a.encode() in head for a in self.alias_names)):
                continue
            command = _unquote(raw)
            found = analyze_text(command, self.context)
            for f in found:
                self.emit(f.kind, m.start(), m.end(), f"{f.message} (command string run by the script)", f.severity, f.confidence,
                          url=f.properties.get("url", ""))
            from ..command_grader import grade_command

            for g in grade_command(command):
                if not any(f.kind == g.kind for f in found):
                    self.emit(g.kind, m.start(), m.end(), f"{g.message} (command string run by the script)", g.severity, url=g.url)

    def hidden_names(self) -> None:
        for n, m in enumerate(_LIT_CHAIN.finditer(self.data)):
            if n >= MAX_MATCHES:
                break
            chain = m.group(0).decode("utf-8", "replace")
            value = _fold(chain)
            if value and _HIDDEN_NAME.test(value.strip()) and _name_spans_join(chain):
                self.emit(K.DYNAMIC_EXEC, m.start(), m.end(), f"A sensitive name is assembled from pieces or escapes to hide it: {value[:80]!r}",
                          Severity.HIGH, Confidence.MEDIUM, folded=value[:200])

    def test_input(self, at: int) -> bool:
        """A unit test's input whose refusal it asserts (scripts/test_inputs.py), not text the script acts on."""
        from ..test_inputs import rejected_input
        return rejected_input(self.data, at, self.path, (self.v.spawn, self.v.exec_))

    def text_shapes(self) -> None:
        seen = set()
        recon: dict = {}
        for n, m in enumerate(self.v.strings.finditer(self.data)):
            if n >= MAX_MATCHES * 5:
                break
            s = _unquote(m.group(0))
            if len(s) > 400 or s in seen:
                continue
            seen.add(s)
            for kind, test, sev, msg in (
                (K.CLOUD_METADATA, c.CLOUD_METADATA_HOST, Severity.HIGH, "Cloud instance-metadata endpoint (instance credentials)"),
                (K.PERSISTENCE, c.PERSISTENCE_PATH, Severity.MEDIUM, "Start-up, scheduler or login-key location (persistence)"),
                (K.DEFENSE_EVASION, c.EVASION_TEXT, Severity.MEDIUM, "Log, history, debugger or sandbox tampering, or a hidden file in a shared temp folder (defence evasion)"),
                (K.DESTRUCTIVE, c.DESTRUCTIVE_TEXT, Severity.HIGH, "Destroys the file system or machine"),
            ):
                if test.test(s) and not self.test_input(m.start()):
                    if kind == K.CLOUD_METADATA and c.reads_as_advice(s):
                        sev, msg = Severity.MEDIUM, msg + ", named in a sentence of advice"  # a tester told what to try
                    self.emit(kind, m.start(), m.end(), msg, sev, value=s[:120])
            if c.RECON_TEXT.test(s):
                recon.setdefault(s.lower(), m)
            if "://" in s and c.is_geo_lookup(s):
                self.emit(K.SURVEILLANCE, m.start(), m.end(), "Looks up the machine's public IP address and location", Severity.MEDIUM)
            if s.count(" ") <= 3 and c.is_strong_credential_path(s):
                self.emit(K.SENSITIVE_READ, m.start(), m.end(), "Names a credential store or system secret file", Severity.MEDIUM, value=s[:120])
        if len(recon) >= 2:
            first = min(recon.values(), key=lambda x: x.start())
            self.emit(K.RECON, first.start(), first.end(), f"Collects system account, process, network or hardware details ({len(recon)} sources)",
                      Severity.MEDIUM, Confidence.LOW)


_DYNAMIC_ENV = {
    "javascript": rx(r"(?:(?:process|Bun)\.env\s*\[|\bDeno\.env\.get\s*\()\s*[A-Za-z_$]"),
    "typescript": rx(r"(?:(?:process|Bun)\.env\s*\[|\bDeno\.env\.get\s*\()\s*[A-Za-z_$]"),
    "powershell": rx(r"(?i)(?:\$env:\$|getenvironmentvariable\s*\(\s*\$|(?:get-item|get-childitem|gci)\s+(?:-path\s+)?[\"']?env:\$|\bget-content\s+env:\$)"),
    "ruby": rx(r"ENV\s*(?:\[\s*|\.fetch\s*\(\s*)[a-z_@]"), "perl": rx(r"\$ENV\{\s*\$"), "php": rx(r"(?i)getenv\s*\(\s*\$|\$_ENV\[\s*\$"),
    "python": rx(r"os\.(?:environ(?:\.get\s*\(|\[)|getenv\s*\()\s*[a-z_]"),
    "go": rx(r"\bos\.(?:Getenv|LookupEnv)\s*\(\s*[a-z_]"), "lua": rx(r"\bos\.getenv\s*\(\s*[a-z_]"),
}
_SHELL_DASH_C = rx(r"""^\s*\[?\s*['"`](?:/bin/|/usr/bin/)?(?:ba|z|da|k)?sh['"`]\s*,\s*['"`]-c['"`]|^\s*\[?\s*['"`]cmd(?:\.exe)?['"`]\s*,\s*['"`]/c['"`]""")
_STR_TOKEN = rx(r"""\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|(\$?[A-Za-z_][\w]*)|(\+|\.\.|\.|,|&))""")


_RUST_SHELL = rx(r"^\s*[\"'](?:/bin/|/usr/bin/)?(?:ba|z|da|k)?sh[\"']\s*$")
_RUST_C_ARG = rx(r"^\s*(?:\.\s*arg\s*\(\s*\"-c\"\s*\)\s*\.\s*arg\s*\(\s*&?\s*([A-Za-z_]\w*|\"(?:[^\"\\\n]|\\.)*\")\s*\)"
                 r"|\.\s*args\s*\(\s*&?\s*\[\s*\"-c\"\s*,\s*&?\s*([A-Za-z_]\w*|\"(?:[^\"\\\n]|\\.)*\")(?:\s*\.\s*as_str\s*\(\s*\))?\s*\])")


def _rust_shell_arg(data: bytes, at: int, win: bytes) -> bytes:
    """Rust's builder: `Command::new("sh").arg("-c").arg(cmd)` (or `.args(["-c", &cmd])`) runs `cmd` as a shell
    line; the window of `Command::new(` holds only the program, so the command is added as its `-c` arguments."""
    if _RUST_SHELL.search(win) is None:
        return b""
    m = _RUST_C_ARG.search(data[at:at + 300])
    if m is None:
        return b""
    return b', "-c", ' + (m.group(1) or m.group(2))


# Template calls whose placeholders (`{}`, `{name}`, `%s`, `%v`, `%d`) take the arguments after the template,
# and a list of pieces joined by a literal separator.
_TEMPLATE_HEAD = rx(r"^(?:format!|fmt\.Sprintf|sprintf|String\.format|string\.format|format)\s*\(")
_PLACEHOLDER = rx(r"\{[A-Za-z_]?\w{0,40}(?::[^{}]{0,20})?\}|%[-+ 0#]{0,3}\d{0,3}[svdq]")
_NAMED_ARG = rx(r"^\s*([A-Za-z_]\w*)\s*=[^=]")
_JOINED = rx(r"^&?\[([^\]]{1,600})\]\s*\.\s*join\s*\(\s*(\"[^\"\n]{0,8}\"|'[^'\n]{0,8}')\s*\)$")


def _fold_template(expr: bytes, values: dict[str, str], depth: int) -> str | None:
    """`format!("{}{} -fsSL http://{}/x | {}", "cu", "rl", h, "sh")`, `fmt.Sprintf(...)`, `["203", "0"].join(".")`:
    the text the call makes, its placeholders filled with the folded arguments (an argument the script does not
    spell out reads as `x`, kept only when a literal piece says something). None for any other expression."""
    if depth > 2:
        return None
    j = _JOINED.search(expr)
    if j is not None:
        items = [_fold_expr(a, values, depth + 1) for a in _split_top(j.group(1))]
        if not items or any(i is None for i in items):
            return None
        return _unquote(j.group(2)).join(items)  # type: ignore[arg-type]
    h = _TEMPLATE_HEAD.search(expr)
    if h is None or not expr.endswith(b")"):
        return None
    args = _split_top(expr[h.end():-1])
    if len(args) < 2 or not _is_literal(args[0]):
        return None
    template = _unquote(args[0].strip())
    named: dict[str, str] = {}
    rest: list[str | None] = []
    for a in args[1:20]:
        kw = _NAMED_ARG.search(a)
        if kw is not None:  # Rust's `format!("{a}", a = "x")`
            v = _fold_expr(a[kw.end() - 1:], values, depth + 1)
            if v is not None:
                named[kw.group(1).decode("utf-8", "replace")] = v
            continue
        rest.append(_fold_expr(a, values, depth + 1))
    if not any(r for r in rest) and not named:
        return None
    it = iter(rest)
    data = template[:2000].encode("utf-8", "surrogatepass")
    out, last = [], 0
    for m in _PLACEHOLDER.finditer(data):
        out.append(data[last:m.start()].decode("utf-8", "replace"))
        last = m.end()
        ph = m.group(0).decode("utf-8", "replace")
        name = ph[1:-1].split(":", 1)[0] if ph.startswith("{") else ""
        if name and not name.isdigit():
            out.append(named.get(name, values.get(name, "x")))  # `{host}`: a named argument, or a name the script assigned
            continue
        v = next(it, None)
        out.append(v if v is not None else "x")
    out.append(data[last:].decode("utf-8", "replace"))
    return "".join(out)


def _fold_expr(expr: bytes, values: dict[str, str], depth: int = 0) -> str | None:
    """A string expression of literals and known names joined by + . .. & (or juxtaposed literals) -> its text;
    None when any part is unknown (a call, a number, a name never assigned a string)."""
    expr = expr.strip().rstrip(b";").strip()
    if not expr or len(expr) > 1200 or expr.count(b"${") or b"`" in expr:
        return None
    if expr[-1:] == b")" and (b"format" in expr[:20] or b"printf" in expr[:20] or b".join" in expr):
        return _fold_template(expr, values, depth)
    out: list[str] = []
    pos, parts = 0, 0
    while pos < len(expr):
        m = _STR_TOKEN.search(expr, pos)
        if m is None or m.start() != pos:
            return None
        pos = m.end()
        if m.group(4) is not None:
            if m.group(4) == b",":
                return None  # an argument list, not one string
            continue
        if m.group(3) is not None:
            v = values.get(m.group(3).decode("utf-8", "replace").lstrip("$"))
            if v is None:
                return None
            out.append(v)
        else:
            lit = m.group(1) if m.group(1) is not None else m.group(2)
            out.append(_unquote(b'"' + lit + b'"'))
        parts += 1
        if sum(len(x) for x in out) > 4000:
            return None
    return "".join(out) if parts else None


_DECL = rx(r"""^\s*,?\s*\$?([A-Za-z_]\w*)\s*[:.]?=\s*""")


def _declarations(first: bytes, value: bytes) -> list[tuple[bytes, bytes]]:
    """`a = "x", b = "y" + a` (one statement declaring several names) -> [(a, "x"), (b, "y" + a)]."""
    out = [(first, value)]
    if b"=" not in value or b"," not in value:
        return out
    pieces = _split_top(value)
    if len(pieces) < 2:
        return out
    out = [(first, pieces[0])]
    for p in pieces[1:]:
        m = _DECL.search(p)
        if m is None:
            return [(first, value)]
        out.append((m.group(1), p[m.end():]))
    return out


def _split_top(text: bytes) -> list[bytes]:
    """Top-level comma-separated parts (quotes and brackets respected), bounded by the text given."""
    parts, depth, quote, start, i = [], 0, 0, 0, 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == 0x5C:
                i += 2
                continue
            if ch == quote:
                quote = 0
        elif ch in b"\"'`":
            quote = ch
        elif ch in b"([{":
            depth += 1
        elif ch in b")]}":
            depth -= 1
        elif ch == 0x2C and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def _ps_statement(win: bytes) -> bytes:
    """The PowerShell statement a window starts: up to the first line end not continued by `|`, a
    backtick, an open bracket or a comma (`iwr $u | ForEach-Object {` runs on; `$r = irm $u` stops)."""
    i = win.find(b"\n")
    while i >= 0:
        head = win[:i].rstrip()
        if not head.endswith((b"|", b"`", b"{", b"(", b",")):
            return win[:i]
        i = win.find(b"\n", i + 1)
    return win


def _unfinished(value: bytes) -> bool:
    """Does an assigned value read to the first `;` or line end stop short: inside a string
    ("data:text/javascript;base64," + ...) or an open bracket (a literal spread over lines)?"""
    return (value.count(b'"') % 2 == 1 or value.count(b"'") % 2 == 1 or value.count(b"`") % 2 == 1
            or value.count(b"[") + value.count(b"{") + value.count(b"(") > value.count(b"]") + value.count(b"}") + value.count(b")"))


def _heredoc_body(data: bytes, start: int, value: bytes) -> bytes:
    """The body of a here-document an assignment opens (`msg = <<~MAIL`, Perl's `<<"EOT"`, PHP's `<<<EOT`):
    the lines after the statement up to the one holding only its tag, at most ASSIGNED_CHARS bytes;
    b"" when the value opens none. What the body interpolates (`#{parts.join}`) is in the value."""
    i = value.find(b"<<")
    j = i + 2
    if j < len(value) and value[j] == 0x3C:  # PHP's <<<
        j += 1
    if j < len(value) and value[j] in b"~-":
        j += 1
    quote = value[j] if j < len(value) and value[j] in b"\"'" else 0
    j += 1 if quote else 0
    k = j
    while k < len(value) and (chr(value[k]).isalnum() or value[k] == 0x5F):
        k += 1
    tag = value[j:k]
    if not tag or not (chr(tag[0]).isalpha() or tag[0] == 0x5F):
        return b""
    nl = data.find(b"\n", start)
    if nl < 0:
        return b""
    end = min(len(data), nl + 1 + ASSIGNED_CHARS)
    pos = nl + 1
    while pos < end:
        eol = data.find(b"\n", pos, end)
        line = data[pos:eol if eol >= 0 else end]
        if line.strip().rstrip(b";") == tag:
            return b"\n" + data[nl + 1:pos]
        if eol < 0:
            break
        pos = eol + 1
    return b"\n" + data[nl + 1:end]


def _whole_value(data: bytes, start: int) -> bytes:
    """The value from `start` to the `;` or line end that closes it outside strings and brackets,
    at most ASSIGNED_CHARS bytes (one bounded pass)."""
    end = min(len(data), start + ASSIGNED_CHARS)
    depth, quote, i = 0, 0, start
    while i < end:
        ch = data[i]
        if quote:
            if ch == 0x5C:  # backslash: the next byte is escaped
                i += 2
                continue
            if ch == quote or (ch == 0x0A and quote != 0x60):
                quote = 0
        elif ch in b"\"'`":
            quote = ch
        elif ch in b"([{":
            depth += 1
        elif ch in b")]}":
            depth -= 1
            if depth < 0:
                return data[start:i]
        elif (ch == 0x3B or ch == 0x0A) and depth <= 0:
            return data[start:i]
        i += 1
    return data[start:end]


def _saved_body_run(spawn, win: bytes):
    """In a fetch's callback: the accumulated response written to a file (`writeFileSync(f, body)`
    after `body += chunk`), then a process started on that file (`fork(f)`, `spawn("node", [f])`):
    the download is run from disk. The spawn match, or None."""
    for n, save in enumerate(_SAVE_CALL.finditer(win)):
        if n >= 5:
            break
        path, body = save.group(1), _first_name_arg(save.group(2))
        if not body or not (body + b" +=" in win or body + b"+=" in win or body + b" = Buffer.concat" in win):
            continue
        rest = win[save.start(2):]
        for k, sp in enumerate(spawn.finditer(rest)):
            if k >= 5:
                break
            args = rest[sp.end():sp.end() + 120]
            i = args.find(path)
            while i >= 0:
                before, after = args[i - 1:i] if i else b"", args[i + len(path):i + len(path) + 1]
                if not (before.isalnum() or before in (b"_", b"$", b".", b'"', b"'")) and not (after.isalnum() or after in (b"_", b"$", b'"', b"'")):
                    return sp
                i = args.find(path, i + 1)
    return None


def _first_name_arg(after: bytes) -> bytes:
    """`b)` or ` body, {...})` after a call's `(` -> b"b" / b"body"; b"" when the first argument is not a bare name."""
    a = after.lstrip()
    n = 0
    while n < len(a) and (chr(a[n]).isalnum() or a[n] in b"_$"):
        n += 1
    return a[:n] if n and not chr(a[0]).isdigit() and a[n:n + 1].strip()[:1] in (b")", b",", b"") else b""


_URL_START = rx(r"(?i)^(?:https?|ftp)://")
_URL_READ = rx(r"(?i)\b(?:(?:file_get_contents|fopen|file|readfile|copy|simplexml_load_file)\s*\(|(?:include|require)(?:_once)?\b\s*\(?)\s*\$(\w+)")
# `const { get, request: r } = require("https")`, `import { get } from "node:http"`: the members taken by name
_HTTP_DESTRUCTURE = rx(r"""\{([^{}\n]{1,120})\}\s*=\s*require\s*\(\s*['"](?:node:)?https?['"]\s*\)|\bimport\s*\{([^{}\n]{1,120})\}\s*from\s*['"](?:node:)?https?['"]""")
_SAVE_CALL = rx(r"(?:\bFile\.(?:write|binwrite)|\bfile_put_contents|\bwriteFileSync|\bfs\.writeFile|\bfs\.promises\.writeFile|\bos\.WriteFile|\bioutil\.WriteFile|\bDeno\.writeTextFile|\bBun\.write)\s*\(\s*\$?([A-Za-z_]\w*)\s*,([^\n]{0,400})")
# Writes a file (a download saved by a function of the script): Go, JavaScript, Ruby, PHP, PowerShell, Rust, Perl, Lua, R, Python
_FILE_OUT = rx(r"(?i)(?:\bos\.(?:OpenFile|Create|WriteFile)\s*\(|\bioutil\.WriteFile\s*\(|\bwriteFile(?:Sync)?\s*\(|\bcreateWriteStream\s*\(|"
               r"\bFile\.(?:write|binwrite)\s*\(|\bFile\.open\s*\([^)\n]{0,200}['\"][wa]b?['\"]|\bIO\.copy_stream\s*\(|\bfile_put_contents\s*\(|"
               r"\bfopen\s*\([^)\n]{0,200}['\"][wax]b?\+?['\"]|\bout-file\b|\bset-content\b|-outfile\b|\.downloadfile\s*\(|\[io\.file\]::writeall\w*\s*\(|"
               r"\bfs::write\s*\(|\bFile::create\s*\(|\bgetstore\s*\(|\bmirror\s*\(|\bio\.open\s*\([^)\n]{0,200}['\"][wa]b?['\"]|\bdownload\.file\s*\(|"
               r"\bopen\s*\([^)\n]{0,200}['\"][wa]b?['\"]|\.write_(?:bytes|text)\s*\()")
# bare names among a call's top-level arguments (`fetch(bin)`, `download(url, $dest)`, `Save-Tool -Path $p`)
_TOP_ARGS = rx(r"(?:^|[,(\s])\s*\$?([A-Za-z_][\w]*)\s*(?:$|[,)]|\s)")
_SHARED_ROOTS = frozenset({"process", "window", "document", "module", "exports", "global", "globalThis", "console", "self",
                           "ENV", "_ENV", "_SERVER", "GLOBALS", "_SESSION", "_COOKIE", "os", "sys"})
_COPY_INTO = rx(r"\bio\.Copy(?:N|Buffer)?\s*\(\s*([A-Za-z_]\w*)\s*,([^\n]{1,300})|\b([A-Za-z_]\w*)\.ReadFrom\s*\(([^\n]{1,300})")
# a handle opened for writing on a path held by a name (group 1): Go, Ruby, Python, PHP, Perl, Lua, Node, Rust
_OPENED_ON = rx(r"""(?i)^\s*(?:(?:try|await)\s+)?(?:os\.(?:OpenFile|Create)|File\.(?:open|new|create)|File::create|OpenOptions::new\(\)[^\n]{0,80}\.open|open|io\.open|fopen|(?:fs\.)?createWriteStream|(?:fs\.)?openSync|(?:await\s+)?(?:fs\.)?(?:promises\.)?open|Deno\.(?:open|create)(?:Sync)?)\s*\(\s*\$?([A-Za-z_]\w*)\s*[,)]""")
# data written through a handle: `f.Write(body)`, `out.write(buf)`, `$fh->print($x)`, `fh:write(body)`
_HANDLE_WRITE = rx(r"\b\$?([A-Za-z_]\w*)\s*(?:\.|->|:)\s*(?:Write|WriteString|write|write_all|print|puts|syswrite)\s*\(([^\n]{1,300})")
# a value appended into a builder, buffer or list held by a name: Go's strings.Builder/bytes.Buffer
# and fmt.Fprint*(&buf, ...), JS push/concat, Python/Java append/extend
# A write to a builder, buffer or list, and its argument: the rest of the line, 300 characters at most.
# Read in two steps (accumulations()): a `[^\n]{1,300}` tail on the search pattern, whose matches can
# overlap anywhere in the text, made RE2's automaton outgrow its budget and rebuild its states all
# along every file (a third of the token reading of JavaScript); after the head, the same tail is
# one short match anchored where the argument starts.
_ACCUMULATE_HEAD = rx(r"\b\$?([A-Za-z_]\w*)\s*(?:\.|->)\s*(?:WriteString|WriteByte|WriteRune|Write|write|push|unshift|append|extend|concat)\s*\(([^\n])"
                      r"|\bfmt\.Fprint(?:f|ln)?\s*\(\s*&?([A-Za-z_]\w*)\s*,([^\n])")
_ACCUMULATE_TAIL = rx(r"^[^\n]{1,300}")
_TAIL_BYTES = 300 * 4  # 300 characters of UTF-8: the tail never reads past them


def accumulations(data: bytes) -> Iterator[tuple[bytes, bytes]]:
    """(name, argument) of each match, in order, of _ACCUMULATE_HEAD with its last group `[^\n]`
    widened to `[^\n]{1,300}` (tests/test_matching_shortcuts.py holds the two equal). The head alone
    decides where a match starts and what it names: all the tail adds is one character that is not a
    line break, which the head's last group already is. The argument is then the greedy tail from
    there, and the next search starts where it ends, as finditer's would."""
    pos = 0
    while True:
        m = _ACCUMULATE_HEAD.search(data, pos)
        if m is None:
            return
        g = 2 if m.group(1) is not None else 4
        a = m.start(g)
        tail = _ACCUMULATE_TAIL.search(data[a:a + _TAIL_BYTES])
        arg = tail.group(0) if tail is not None else data[a:m.end(g)]  # never None: data[a] is not a line break
        yield m.group(g - 1), arg
        pos = a + len(arg)
_COPY_STREAM = rx(r"\bIO\.copy_stream\s*\(([^\n]{1,300}),\s*([A-Za-z_]\w*)\s*\)")
_PS_SAVED_TO = rx(r"(?i)\b(?:invoke-webrequest|iwr|invoke-restmethod|irm|start-bitstransfer|curl(?:\.exe)?|wget)\b((?:[^\n]|`\r?\n){0,400}?)-(?:outfile|destination|o)\s+[\"']?\$(\w+)")
_PS_DOWNLOADFILE = rx(r"(?i)\.downloadfile(?:async)?\s*\(([^,\n]{1,200}),\s*[\"']?\$(\w+)")
_PS_VAR = rx(r"\$(\w+)")
_PS_DRIVES = frozenset({"env", "variable", "function", "alias", "global", "script", "local", "using", "private"})
_PS_RUN_VAR = rx(r"(?im)(?:^\s*[&.]\s*[\"']?\$(\w+)\b|\b(?:start-process|saps|start)\s+(?:-filepath\s+)?[\"']?\$(\w+)\b|\binvoke-item\s+[\"']?\$(\w+)\b|-file\s+[\"']?\$(\w+)\b|\bcmd(?:\.exe)?\s+/c\s+[\"']?\$(\w+)\b)")
_GO_CMD = rx(r"\b([A-Za-z_]\w{0,40})\s*:?=\s*exec\.Command(?:Context)?\s*\(")
_GO_STDIN = rx(r"\b([A-Za-z_]\w{0,40})\.Stdin\s*=\s*([^\n;]{1,200})")
_PS_COPY = rx(r"(?im)(?:^|[{;])\s*(?:copy-item|copy|cp|cpi|move-item|move|mv|compress-archive)\s+([^\n|;}]{1,400})")
_GO_PROG = rx(r"""^\s*(?:\w+\s*,\s*)?["'`]([^"'`\s]{1,80})["'`]""")
_PS_DEST = rx(r"(?i)-destination(?:path)?\s+(\S+)")
_PHP_CONNECT = rx(r"(?i)^\s*@?\s*(?:fsockopen|pfsockopen|stream_socket_client|socket_create)\s*\(")
_RUST_CONNECT = rx(r"\blet\s+(?:(?:Ok|Some)\s*\(\s*)?(?:mut\s+)?([a-z_]\w*)\s*\)?\s*(?::\s*[^=\n]{1,60})?=\s*(?:std::net::)?(?:TcpStream|UdpSocket|\w*TlsStream|tokio::net::TcpStream)::connect\w*\s*\(")
_GO_DIAL = rx(r"\b(?:net\.Dial\w*|tls\.Dial\w*|\w*[dD]ialer\.Dial\w*)\s*\(")
# exec.Command("git", ...), CommandContext(ctx, "git", ...), execFileSync('git', [...]), spawn(["git", ...]), system("git", ...)
_NET_PROGRAM = rx(r"(?i)(?:^|/)(?:curl|wget|nc|ncat|netcat|socat|xh|curlie|https?|scp|sftp|rsync|sendmail|mailx?|swaks|dig|nslookup|drill|host|ftp|lftp|tftp|smbclient)(?:\.exe)?$")
# exec.Command("security", "find-generic-password"), run("gh", ["auth", "token"]): the words of one
# command. RE2 (linear): with Python's `re` the two whitespace runs around `[` backtrack quadratically.
_ARGV_SEP = _re2.compile(rb"""['"`]\s*,\s*\[?\s*['"`]""")
_FIXED_PROGRAM = rx(r"""^\s*(?:\w+\s*,\s*)?\[?\s*["']([^"'\s\n]{1,80})["']\s*[,\]]""")
_RUNS_CODE_PROGRAM = rx(r"(?i)(?:^|/)(?:ba|z|da|k|c|tc)?sh$|(?:^|/)(?:python[\d.]*|node|deno|bun|ruby|perl|php|pwsh|powershell|cmd|osascript|eval|source|env|sudo|xargs)(?:\.exe)?$")
_RUN_VERB = rx(r"(?i)^(?:iex|invoke-expression|invoke-command|icm)$")
_SET_ALIAS = rx(r"(?i)\b(?:set-alias|new-alias|sal|nal)\s+(?:-name\s+)?([A-Za-z_]\w*)\s+(?:-value\s+)?['\"]?(?:iex|invoke-expression)\b")
_PATH_JOIN = rx(r"(?i)(?:\bFile\.(?:join|expand_path)\b|\bfilepath\.Join\b|\bpath\.(?:join|resolve)\b|\bos\.path\.join\b|\bjoin-path\b|\bPath\.Combine\b|\[io\.path\]::combine|\bcatfile\b)")
# Definitions whose name carries what the body reads (JavaScript has its own, finer, flow).
_FUNC_DEF = {
    "ruby": rx(r"(?m)^[ \t]*def[ \t]+(?:self\.)?([a-z_]\w*)"),
    "go": rx(r"(?m)^func[ \t]+(?:\([^)\n]*\)[ \t]*)?([A-Za-z_]\w*)[ \t]*\("),
    "rust": rx(r"(?m)^[ \t]*(?:pub(?:\([\w ]*\))?[ \t]+)?(?:async[ \t]+)?fn[ \t]+([A-Za-z_]\w*)[ \t]*[<(]"),
    "php": rx(r"(?i)\bfunction[ \t]+([A-Za-z_]\w*)[ \t]*\("),
    "powershell": rx(r"(?im)^[ \t]*function[ \t]+([A-Za-z_][\w-]*)[ \t]*[({]"),  # Get-Payload: verb-noun names
    "perl": rx(r"(?m)^[ \t]*sub[ \t]+([A-Za-z_]\w*)"),
    "python": rx(r"(?m)^[ \t]*def[ \t]+([A-Za-z_]\w*)[ \t]*\("),
    "lua": rx(r"(?m)^[ \t]*(?:local[ \t]+)?function[ \t]+(?:\w+[.:])?([A-Za-z_]\w*)[ \t]*\("),
}
# JavaScript's named functions, for sending_functions only (its taint has its own, finer, flow)
_JS_DEF = rx(r"(?m)^[ \t]*(?:export[ \t]+)?(?:(?:async[ \t]+)?function\*?[ \t]+([A-Za-z_$][\w$]*)[ \t]*\(|(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)[ \t]*=[ \t]*(?:async[ \t]*)?(?:function\b|\([^)\n]{0,200}\)[ \t]*=>|[A-Za-z_$][\w$]*[ \t]*=>))")
_SENDER_DEF = {"javascript": _JS_DEF, "typescript": _JS_DEF}
# The first return statement of a function body (to its line's end), for getters that return a secret.
_RETURNED = rx(r"(?m)^[ \t]*return\b[^\n]{1,400}")
# An environment read whose name is not one literal: the argument is read for its quoted pieces.
_ENV_GETTER = rx(r"(?:\bos\.(?:Getenv|LookupEnv|getenv)|\bos\.environ(?:\.get)?|\bprocess\.env|\bDeno\.env\.get|\benv::var(?:_os)?|"
                 r"\bENV(?:\.fetch)?|\$ENV|\bgetenv|\bSystem\.getenv|\bSys\.getenv|\[(?:system\.)?environment\]::getenvironmentvariable)\s*[\[({]")
_NAME_PIECE = rx(r"^[A-Za-z_][A-Za-z0-9_]{0,40}$")


def _computed_env_names(chunk: bytes) -> set[str]:
    """Secret names an environment read assembles from literal pieces (`os.Getenv(strings.Join([]string{"GH",
    "TOKEN"}, "_"))`, `process.env[["NPM", "TOKEN"].join("_")]`, `os.environ["AWS_SECRET" + "_ACCESS_KEY"]`):
    the pieces joined with the separator among them, or with none."""
    out: set[str] = set()
    if b"env" not in chunk.lower():
        return out
    for n, m in enumerate(_ENV_GETTER.finditer(chunk)):
        if n >= 10:
            break
        depth, i, end = 1, m.end(), min(len(chunk), m.end() + 300)
        while i < end and depth > 0:
            depth += chunk[i] in b"([{"
            depth -= chunk[i] in b")]}"
            i += 1
        parts = _pieces(chunk[m.end():i - 1].decode("utf-8", "replace"))
        if len(parts) < 2 or len(parts) > 8:
            continue
        seps = [p for p in parts if p in ("_", "-", "")]
        names = [p for p in parts if p not in seps and _NAME_PIECE.search(p.encode())]
        if len(names) < 2 or len(names) + len(seps) != len(parts):
            continue
        glued = any(p.startswith("_") or p.endswith("_") for p in names)  # "AWS_SECRET" + "_ACCESS_KEY"
        for sep in dict.fromkeys(["", *seps, "_"] if glued else [*seps, "_", ""]):
            name = sep.join(names)
            if c.is_secret_env_name(name) and not c.NOT_SECRET_ENV.test(name):
                out.add(name.upper())
                break
    return out


# A clipboard read: the command-line readers (pbpaste, wl-paste, xclip/xsel asked for output, PowerShell's
# Get-Clipboard, termux) and the library calls (navigator.clipboard.readText, clipboardy, pyperclip.paste, Win32).
_CLIP_READ = rx(r"(?i)(?:\bpbpaste\b|\bwl-paste\b|\bxclip\b[^\n|;]{0,40}[\s'\"]-o(?:ut)?\b|\bxsel\b[^\n|;]{0,30}(?:[\s'\"]-[a-z]*o[a-z]*\b|--output)|\bget-clipboard\b|"
                r"termux-clipboard-get|clipboard\.read(?:text)?\s*\(|clipboardy\.read|pyperclip\.paste\s*\(|getclipboarddata\s*\(|"
                r"clipboard\.gettext\s*\()")
_FILE_READ = rx(r"(?i)(?:readfilesync|readfile\s*\(|file\.read|file\.binread|io\.read|get-content|\[io\.file\]::read|open\s*\(|\bslurp\b|file_get_contents\s*\(\s*(?:__dir__|dirname|\$))")
_BLOCK_BINDING = {
    "ruby": rx(r"(?m)^[ \t]*(?:[\w@.]+\s*=\s*)?(\S[^\n]{0,400}?)\s*(?:\bdo|\{)\s*\|([^|\n]{1,80})\|"),
    "php": rx(r"(?i)\bforeach\s*\(([^\n]{1,300}?)\s+as\s+([^)\n]{1,80})\)"),
    "lua": rx(r"\bfor\s+([\w\s,]{1,80})\s+in\s+([^\n]{1,300}?)\s+do\b"),
    "perl": rx(r"\bfor(?:each)?\s+my\s+(\$\w+)\s*\(([^\n]{1,300})\)"),
    "r": rx(r"\bfor\s*\(\s*([\w.]+)\s+in\s+([^\n]{1,300})\)"),
}
_BINDING_FIRST = frozenset({"lua", "perl", "r"})
_ENV_NAME_TEST = rx(r"(?:['\"/}*]\^?\\?\.env(?:['\"*$(|]|\\\.|\.\*|\.(?:local|prod\w*|dev\w*|staging|stage|test|live)\b|\b[^.\w])|glob\w*\s*\([^\n)]{0,80}\.env(?:['\"*]|\.(?:local|prod\w*)\b))")
_DIR_WALK = rx(r"(?i)(?:recursivedirectoryiterator|\bscandir\s*\(|\bglob\s*\(|\bopendir\s*\(|\bdir\.glob\b|\bdir\[|\bfind\.find\b|\bos\.walk\b|\brglob\s*\(|readdirsync|\breaddir\b|\blist\.files\s*\(|\bfilepath\.walk|\bget-childitem\b[^\n]*-recurse|\bfile::find\b)")
_JOIN_ARG_END = rx(r"""^['"]\.env['"]\s*[),]""")  # '.env' as a whole argument of a path join
_JS_STRING = rx(r"""'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`""")
_TEMPLATE_HOLE = rx(r"\$\{[^{}`]*\}")


def _code_only(chunk: bytes) -> bytes:
    """JavaScript text with string contents dropped, template ${...} holes kept."""
    if b"'" not in chunk and b'"' not in chunk and b"`" not in chunk:
        return chunk
    out, last = [], 0
    for m in _JS_STRING.finditer(chunk):
        out.append(chunk[last:m.start()])
        lit = m.group(0)
        out.append(b" ".join(h.group(0) for h in _TEMPLATE_HOLE.finditer(lit)) if lit[:1] == b"`" else b"''")
        last = m.end()
    out.append(chunk[last:])
    return b"".join(out)


_DATA_LIT = rx(r"['\"`]([^'\"`\n]+\.[A-Za-z0-9]{2,6})['\"`]")
_SECRET_LITERAL = rx(r"['\"]([A-Z][A-Z0-9]*_[A-Z0-9_]+)['\"]")

_ALIAS = rx(r"(?:\b(?:exec|execSync|spawn|spawnSync|execFile|execFileSync|eval|runInThisContext)\s*:\s*([A-Za-z_$][\w$]*)|"
            r"\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:[\w$.]+\.)?(?:exec|execSync|spawn|spawnSync|eval|execFile)\s*[;\n])")
_COMMENT_MARKERS = {
    "javascript": (b"//", b"/*", b"*"), "typescript": (b"//", b"/*", b"*"), "php": (b"//", b"#", b"/*", b"*"),
    "go": (b"//", b"/*", b"*"), "rust": (b"//", b"/*", b"*"), "lua": (b"--",), "powershell": (b"#", b"<#"), "ruby": (b"#",), "perl": (b"#",), "python": (b"#",),
}
def _grader_trigger():
    from ..command_grader import _LINE_TRIGGER

    return _LINE_TRIGGER


def analyze(doc, language: str | None = None, reason: str = "") -> list[c.Fact]:
    lang = language or doc.language
    vocab = VOCABULARIES.get(lang)
    if vocab is None:
        return []
    flow = TokenFlow(doc.text, vocab, lang, getattr(doc, "context", None) or {}, reason)
    flow.path = getattr(doc, "path", "") or ""
    return flow.run()


def shell_fallback(doc, reason: str) -> list[c.Fact]:
    """Shell text the parser rejected: the one-line shapes, by pattern. A line whose first word is a
    comment (`# ... which is how curl ... | bash delivers it`) runs nothing, parsed or not."""
    out = []
    text = doc.text
    for kind, pattern, sev, msg in _SHELL_LINES:
        for n, m in enumerate(doc.finditer(pattern, normalized=False)):
            if n >= 50:
                break
            if text[text.rfind("\n", 0, m.start) + 1:m.start].lstrip().startswith("#"):
                continue
            if _in_case_pattern(text, m.start, m.end):
                continue
            out.append(c.Fact(kind, m.start, m.end, msg, sev, Confidence.MEDIUM, {"analysis": "tokens", "parse-error": reason}))
    return out


# A `case` item's pattern list: globs and quoted strings joined by `|`, closed by `)` (`*"curl "*"| sh"*|*"wget "*)`).
# Bounded, anchored at the start of one line.
_CASE_ITEM = rx(r"""^[ \t]*\(?(?:[^\s()"'|;]|"[^"\n]*"|'[^'\n]*'|[ \t]*\|[ \t]*)+\)""")
_CASE_HEAD = rx(r"(?:^|[\s;&|(])case\s[^\n]{0,200}\sin(?:\s|$)")


def _in_case_pattern(text: str, start: int, end: int) -> bool:
    """The match lies in a `case` item's pattern list, inside a `case ... in` block: the text is what
    the pattern compares a string against (a guard that denies `curl ... | sh`), never a command."""
    b0 = text.rfind("\n", 0, start) + 1
    b1 = text.find("\n", start)
    line = text[b0:len(text) if b1 < 0 else b1]
    m = _CASE_ITEM.search(line.encode("utf-8", "surrogatepass"))
    if m is None or b0 + len(line.encode("utf-8", "surrogatepass")[:m.end()].decode("utf-8", "replace")) < end:
        return False
    head = text.rfind("case ", 0, b0)
    if head < 0 or "esac" in text[head:b0]:
        return False
    return _CASE_HEAD.search(text[max(0, head - 1):b0].encode("utf-8", "surrogatepass")) is not None


_SHELL_LINES = (
    (K.REMOTE_EXEC, rx(r"(?i)\b(?:curl|wget)\b[^\n|;]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|da|k)?sh\b"), Severity.CRITICAL, "Remote content piped into a shell"),
    (K.DECODE_EXEC, rx(r"(?i)base64\s+(?:-d|--decode|-D)\b[^\n;]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b"), Severity.CRITICAL, "Decoded content piped into a shell"),
    (K.REVERSE_SHELL, rx(r"(?i)(?:ba)?sh\s+-i\s*[^\n]{0,40}/dev/tcp/"), Severity.CRITICAL, "Interactive shell wired to a /dev/tcp socket"),
)


_CHILD_ENV = rx(r"\benv\s*[:=]\s*\{[^{}]*$")
_ENV_KEY = rx(r"\benv\s*$")
_CHILD_CALL = rx(r"\b(?:spawn|spawnSync|exec|execSync|execFile|execFileSync|fork|execa|execaSync|execaCommand|Worker|Command|run|runSync|\$)\s*\(?[^;]*$")


def _local_url(url: str) -> bool:
    """A URL on this machine or the private network (a clipboard tool's own local daemon)."""
    host = c.host_of(url) if url else ""
    return bool(host) and H.is_private_host(host)


def _child_env(data: bytes, at: int) -> bool:
    """`spawn(cmd, args, { env: { ...process.env, PNPM_HOME } })`, `execSync(cmd, { env: process.env })`: the
    environment handed to a child process, which inherits it anyway; not a read of every secret to send."""
    if data[at:at + 3] == b"...":
        return _CHILD_ENV.search(data[max(0, at - 120):at]) is not None
    if data[at:at + 1] == b":" and _ENV_KEY.search(data[max(0, at - 20):at]) is not None:
        return _CHILD_CALL.search(data[max(0, at - 400):at]) is not None
    return False


def _only_child_env(env_dump, win: bytes) -> bool:
    """Every whole-environment read in a process call's arguments is the child's own environment."""
    found = False
    for m in env_dump.finditer(win):
        found = True
        if not (win[m.start():m.start() + 3] == b"..." or (win[m.start():m.start() + 1] == b":" and _ENV_KEY.search(win[max(0, m.start() - 20):m.start()]) is not None)):
            return False
    return found
