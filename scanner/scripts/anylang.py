"""Shapes read in every script language, the ones with no analyser too (script_sinks.yml any_language).

A script an agent runs is read at least as closely as prose, whatever its language: Elixir,
Nushell, fish, awk, Kotlin script or Dart are not parsed here, but two shapes do not need a parser:

- a credential SOURCE (a credential store's path, a credential CLI) and an outbound SINK (a
  network client, a socket, a publishing command, a git push) within WINDOW lines of each other,
  the credential's vendor not the destination (a keychain token sent to the host the keychain
  entry names is the vendor's API in use, and stays silent here);
- network-obtained code (a fetch) and a code LOADER (zipimport, URLClassLoader, Assembly.Load,
  import of a data: URL) within WINDOW lines;
- a coding agent's settings file (~/.claude/settings.json, ~/.codex/config.toml, ...) and a value
  that switches its permission prompts or sandbox off (bypassPermissions, `Bash(*)`, yolo) within
  WINDOW lines of a script that writes files: every later session then runs any tool unasked.

Text is matched line by line with RE2 (scanner.matching.rx, linear time); nothing is executed.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterator

from .. import hosts as H
from ..matching import rx, text_rx
from ..models import Confidence, Severity
from . import fact_kinds as K
from . import sink_table as T
from .common import URL_IN_TEXT, Fact, host_of

WINDOW = 60  # lines between a source and its sink, or a fetch and its loader
MAX_LINES = 5000
_COMMENT = ("#", "//", "--", ";", "*", "rem ", "'")


def _split(entries: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    for e in entries:
        fam, _, pat = e.partition(": ")
        out.append((fam.strip(), pat[4:] if pat.startswith("(?i)") else pat))
    return out


def _table_rx(entries):
    """One case-insensitive pattern: the alternation of a sink table's entries (each read with
    T.ordered at the call, where tests/test_sink_table.py sees which entries are read)."""
    return rx("(?i)(?:" + "|".join(p[4:] if p.startswith("(?i)") else p for p in entries) + ")")


@lru_cache(maxsize=1)
def _tables():
    sources = [(fam, rx("(?i)" + p)) for fam, p in _split(T.ordered("any_language", "credential_sources"))]
    sinks = [(fam, rx("(?i)" + p)) for fam, p in _split(T.ordered("any_language", "outbound_sinks"))]
    src_any = rx("(?i)(?:" + "|".join(p for _, p in _split(T.ordered("any_language", "credential_sources"))) + ")")
    sink_any = rx("(?i)(?:" + "|".join(p for _, p in _split(T.ordered("any_language", "outbound_sinks"))) + ")")
    families = {}
    for e in T.ordered("any_language", "vendor_families"):
        fam, _, doms = e.partition(": ")
        families[fam.strip()] = tuple(doms.split())
    loaders = _table_rx(T.ordered("any_language", "code_loaders"))
    fetch = _table_rx(T.ordered("any_language", "network_fetch"))
    path_loaders = _table_rx(T.ordered("any_language", "path_loaders"))
    archives = _table_rx(T.ordered("any_language", "path_archives"))
    return sources, sinks, src_any, sink_any, families, (loaders, path_loaders, archives), fetch


def _code_lines(text: str) -> list[tuple[int, str]]:
    """(offset, line) of each line that is not a whole-line comment."""
    out = []
    pos = 0
    for i, line in enumerate(text.split("\n")):
        if i >= MAX_LINES:
            break
        s = line.lstrip().lower()
        if s and not s.startswith(_COMMENT) and len(line) <= 4000:
            out.append((pos, line))
        else:
            out.append((pos, ""))
        pos += len(line) + 1
    return out


_JOIN = text_rx(r"[\"']\s*(?:,|/|\+)\s*[\"']")  # `".aws", "credentials"`, `".aws" / "credentials"`: one path in pieces
_REGEX_TEXT = ("(?i)", "\\s*", "\\s+", "\\b", "\\w", "\\d", "[^")


def _pattern_line(line: str) -> bool:
    """A line holding a regular expression (a scanner's rule, a grep): it names stores and sinks, it does not use them."""
    return any(r in line for r in _REGEX_TEXT)


def _in_message(line: str, a: int, b: int) -> bool:
    """The match sits in a quoted string of prose ("... sensitive files (e.g., ~/.ssh/id_rsa) ..."): a message, not a path."""
    for q in ('"', "'", "`"):
        i = line.rfind(q, 0, a)
        j = line.find(q, b)
        if i >= 0 and j >= 0 and line[i + 1:j].count(" ") >= 5:
            return True
    return False


# A search program's pattern argument (`grep -Eq '(^|/)\.npmrc|id_rsa'`, `[[ $f =~ ... ]]`): the names it holds are
# what the script looks for in its input, not files it opens.
_GREP_BEFORE = text_rx(r"(?:\b(?:grep|egrep|fgrep|rg|ag)(?:\s+-[-\w]+(?:=\S+)?)*(?:\s+-e)?|=~)\s*$")


def _in_grep_pattern(line: str, a: int, b: int) -> bool:
    for q in ("'", '"'):
        i = line.rfind(q, 0, a)
        j = line.find(q, b)
        if i >= 0 and j >= 0 and line.count(q, 0, i) % 2 == 0 and _GREP_BEFORE.search(line[max(0, i - 120):i]) is not None:
            return True
    return False


# A line that only shows text (a usage example, a log line): a URL in it is no destination.
_PRINT_LINE = text_rx(r"^\s*(?:print|echo|printf|puts|console\.(?:log|error|warn|info)|fmt\.(?:Print|Fprint)\w*|"
                      r"Write-(?:Host|Output)|(?:self\.)?log(?:ger|ging)?\.(?:debug|info|warning|warn|error)|"
                      r"log_\w+|info|warn|warning|error|die|fail|note|msg)\b\s*\(?\s*[fFrR]?[\"'`]")


def _prints_only(line: str) -> bool:
    """The line only shows a string (a usage example, `log_info "Install with: curl ..."`): what it
    names is read by a person, neither read nor sent by the script."""
    return _PRINT_LINE.search(line) is not None and not any(c in line for c in _CHAINS)


def _unprinted(text: str) -> str:
    """The text without the lines that only print a string: "Usage: probe.py https://my-svc.example"
    names no address the script sends to."""
    if "://" not in text:
        return text
    return "\n".join("" if "://" in line and _prints_only(line) else line for line in text.split("\n"))


_CHAINS = ("|", ";", "&", ">", "$(", "`")  # the printed text goes on to a command or a file


def _hosts(text: str, pieces: bool = False) -> list[str]:
    """The URL hosts the text names; with `pieces`, when it names none, those of URLs written in pieces
    (`"https://" + "hooks.acme-" + "sync.dev"`, `["https:", "", "sync.example", "v1"].join("/")`)."""
    if pieces and "://" not in text:
        found = _hosts(_JOIN.sub("/", _CONCAT.sub("", text)))
        return found or _hosts(_JOIN.sub("/", text))
    if pieces:
        return _hosts(text) or _hosts(_CONCAT.sub("", text))
    data = text.encode("utf-8", "surrogatepass")
    out = []
    for m in URL_IN_TEXT.finditer(data):
        h = host_of(m.group(0).decode("utf-8", "replace"))
        if h and h not in out and h not in ("localhost", "127.0.0.1", "0.0.0.0", "::1"):
            out.append(h)
        if len(out) >= 20:
            break
    return out


# A host name kept as a list of its labels joined with "." at run time: `table.concat({"a", "b", "io"}, ".")`,
# `["a", "b", "io"].join(".")`, `".".join(["a", "b", "io"])` (group 1 or 2: the quoted labels)
_DOTTED = text_rx(r"""[\[{(]\s*((?:["'][\w-]{1,63}["']\s*,\s*){1,6}["'][A-Za-z]{2,12}["'])\s*,?\s*[\]})]\s*(?:\)\s*)?(?:\.\s*join\s*\(\s*|,\s*)["']\.["']|"""
                   r"""["']\.["']\s*\.\s*join\s*\(\s*[\[(]\s*((?:["'][\w-]{1,63}["']\s*,\s*){1,6}["'][A-Za-z]{2,12}["'])""")
_LABEL = text_rx(r"""["']([\w-]{1,63})["']""")


def _dotted_hosts(text: str) -> list[str]:
    """Host names the script spells as a list of labels joined with dots: a destination kept out of sight."""
    if '"."' not in text and "'.'" not in text:
        return []
    out = []
    for n, m in enumerate(_DOTTED.finditer(text)):
        if n >= 20:
            break
        host = ".".join(_LABEL.findall(m.group(1) or m.group(2))).lower()
        if host not in out and not H.is_private_host(host):
            out.append(host)
    return out


def _in_family(host: str, domains: tuple[str, ...]) -> bool:
    return any(host == d or host.endswith("." + d) for d in domains)


def _names_home(words_text: str, host: str) -> bool:
    """A word near the credential source (its keychain service, its vault item) names the host's owner."""
    return H.entry_names_host(words_text, host)


def credential_in(text: str) -> str:
    """The family of the first credential source in a short text (a command line), or ""."""
    sources, _, src_any, *_ = _tables()
    raw = text[:2000].encode("utf-8", "surrogatepass")
    if src_any.search(raw) is None:
        return ""
    return next((fam for fam, r in sources if r.search(raw) is not None), "")


def _handed_to_sink(text: str, fam: str) -> list[Fact]:
    """The command running the script hands it a credential store; the script itself opens a raw channel."""
    _, sinks, _, sink_any, *_ = _tables()
    for no, (off, line) in enumerate(_code_lines(text)):
        if not line or _pattern_line(line):
            continue
        raw = line.encode("utf-8", "surrogatepass")
        if sink_any.search(raw) is None:
            continue
        for sf, r in sinks:
            m = r.search(raw)
            if m is not None and sf != "url":
                a = len(raw[:m.start()].decode("utf-8", "replace"))
                what = "a credential store" if fam == "-" else f"a {fam} credential"
                return [Fact(K.CRED_EXFIL, off + a, off + a + len(m.group(0).decode("utf-8", "replace")),
                             f"The command that runs this script hands it {what}, and the script sends data out through a raw channel or publish",
                             Severity.HIGH, Confidence.MEDIUM, {"analysis": "any-language", "source-family": fam, "source": "run-by argument"})]
    return []


@lru_cache(maxsize=1)
def _home_dir():
    return rx("(?i)(?:" + "|".join(p[4:] if p.startswith("(?i)") else p for p in T.ordered("any_language", "home_dir")) + ")")


def reads_home(text: str) -> bool:
    """The script builds paths on the user's home folder (os.homedir(), Path.home(), $HOME, ...)."""
    return _home_dir().search(text[:200_000].encode("utf-8", "surrogatepass")) is not None


def credentials_listed(text: str) -> str:
    """The family of the first credential store a side configuration lists (`"attach": [".npmrc", ...]`), or ""."""
    sources, _, src_any, *_ = _tables()
    raw = text[:20_000].encode("utf-8", "surrogatepass")
    if src_any.search(raw) is None:
        return ""
    return next((fam for fam, r in sources if r.search(raw) is not None), "")


def _listed_to_sink(text: str, listed: dict, families: dict) -> list[Fact]:
    """The script reads files under the home folder whose names a side configuration gives, that
    configuration lists credential stores, and the script sends data out: the credentials leave,
    though the script's own text names none of them."""
    _, sinks, _, sink_any, *_ = _tables()
    if not reads_home(text):
        return []
    fam, config, cfg_hosts = listed.get("family", "-"), listed.get("config", ""), tuple(listed.get("hosts", ()))
    dests = list(dict.fromkeys([*_hosts(text), *cfg_hosts]))
    own = families.get(fam, ())
    if dests and all(_in_family(h, own) for h in dests):
        return []
    for off, line in _code_lines(text):
        if not line or _pattern_line(line):
            continue
        raw = line.encode("utf-8", "surrogatepass")
        if sink_any.search(raw) is None:
            continue
        for sf, r in sinks:
            m = r.search(raw)
            if m is not None:
                a = len(raw[:m.start()].decode("utf-8", "replace"))
                where = next((h for h in dests if not _in_family(h, own)), "a computed address")
                what = "credential stores" if fam == "-" else f"{fam} credentials"
                return [Fact(K.CRED_EXFIL, off + a, off + a + len(m.group(0).decode("utf-8", "replace")),
                             f"Reads files under the home folder named by {config or 'a side configuration'}, which lists {what}, "
                             f"and sends data out ({where})", Severity.HIGH, Confidence.MEDIUM,
                             {"analysis": "any-language", "source-family": fam, "source": config[:120], "destination": where[:120]})]
    return []


def credential_to_sink(text: str, facts: list[Fact], context: dict | None = None) -> list[Fact]:
    """A credential source and an outbound sink near each other, sent outside the credential's vendor."""
    if any(f.kind == K.CRED_EXFIL and f.severity >= Severity.HIGH for f in facts):
        return []
    sources, sinks, src_any, sink_any, families, _, _ = _tables()
    data = text.encode("utf-8", "surrogatepass")
    if sink_any.search(data) is None:
        return []
    handed = (context or {}).get("input_credential")
    if handed:
        found = _handed_to_sink(text, handed)
        if found:
            return found
    listed = (context or {}).get("listed_credentials")
    if listed:
        found = _listed_to_sink(text, listed, families)
        if found:
            return found
    if src_any.search(data) is None and src_any.search(data.replace(b'"', b" ").replace(b"'", b" ").replace(b",", b" ")) is None \
            and src_any.search(_JOIN.sub("/", text).encode("utf-8", "surrogatepass")) is None:
        return []
    lines = _code_lines(text)
    found_src: list[tuple[int, str, int, int]] = []  # line, family, start, end
    found_sink: list[tuple[int, str]] = []
    for no, (off, line) in enumerate(lines):
        if not line or _pattern_line(line) or _prints_only(line):
            continue
        raw = line.encode("utf-8", "surrogatepass")
        variants = [raw]
        if (b"," in raw or b"/" in raw or b"+" in raw) and (b'"' in raw or b"'" in raw):
            # a path joined from pieces (joinpath(home, ".docker", "config.json"), home / ".aws" / "credentials"):
            # the pieces as one path; an argv list (["secret-tool", "search", ...]): the words of one command
            variants.append(_JOIN.sub("/", line).encode("utf-8", "surrogatepass"))
            variants.append(raw.replace(b'"', b" ").replace(b"'", b" ").replace(b",", b" "))
        raw = next((v for v in variants if src_any.search(v) is not None), raw)
        if src_any.search(raw) is not None:
            for fam, r in sources:
                m = r.search(raw)
                if m is not None:
                    a = len(raw[:m.start()].decode("utf-8", "replace"))
                    z = a + len(m.group(0).decode("utf-8", "replace"))
                    if _in_message(line, a, z) or _in_grep_pattern(line, a, z):
                        break
                    found_src.append((no, fam, off + a, off + a + len(m.group(0).decode("utf-8", "replace"))))
                    break
        if sink_any.search(raw) is not None:
            for fam, r in sinks:
                if r.search(raw) is not None:
                    found_sink.append((no, fam))
                    break
        if len(found_src) > 40 or len(found_sink) > 80:
            break
    if not found_src or not found_sink:
        return []
    file_hosts = _hosts(_unprinted(text))
    hidden = not file_hosts and bool(file_hosts := _dotted_hosts(text))  # a host spelled in pieces is nobody's home
    worst: Fact | None = None
    for sno, fam, start, end in found_src:
        near = [(k, sf) for k, sf in found_sink if abs(k - sno) <= WINDOW]
        if not near:
            continue
        own = families.get(fam, ())
        context = lines[sno][1][max(0, start - lines[sno][0]):][:200]
        dests: list[str] = []
        for k, sf in near:
            if sf in ("url", "channel"):
                dests.extend(f"url:{h}" for h in file_hosts if f"url:{h}" not in dests)
            elif sf not in dests:
                dests.append(sf)
        computed = not dests
        if computed:
            dests = ["a computed address"]

        # `git push origin v1.2` (or a bare `git push`) sends refs to the repository's own remote, where
        # the code already is: no credential read elsewhere in the script rides along.
        own_push = all(_OWN_REMOTE_PUSH.search(lines[k][1]) is not None for k, sf in near if sf == "git")

        def home(d: str) -> bool:
            if d.startswith("url:"):
                h = d[4:]
                return not hidden and (_in_family(h, own) or _names_home(context, h))
            return d == fam or (fam == "github" and d == "git") or (d == "git" and own_push)

        foreign = [d for d in dests if not home(d)]
        if not foreign:
            continue
        where = next((d[4:] for d in foreign if d.startswith("url:")), foreign[0])
        ips = any(d.startswith("url:") and H.is_ip(d[4:]) for d in foreign)
        sev = Severity.CRITICAL if ips else Severity.HIGH
        if computed and all(sf == "url" for _, sf in near):
            sev = Severity.MEDIUM  # an HTTP client with no address in the file: where it goes is not known here
        what = "a credential store" if fam == "-" else f"a {fam} credential"
        fact = Fact(K.CRED_EXFIL, start, end,
                    f"Reads {what} and sends data out ({where}) within {WINDOW} lines: the credential's vendor is not the destination",
                    sev, Confidence.MEDIUM, {"analysis": "any-language", "source-family": fam, "destination": where[:120]})
        if worst is None or fact.severity > worst.severity:
            worst = fact
    return [worst] if worst is not None else []


_OWN_REMOTE_PUSH = rx(r"\bgit\s+push\b(?:\s+-{1,2}[\w-]+(?:=\S+)?)*(?:\s+[\"']?(?:origin|upstream)\b[\"']?|\s*(?:$|[;&|#)]))")


@lru_cache(maxsize=1)
def _grants():
    entries = _split(T.ordered("any_language", "repository_grants"))
    return [(what, rx("(?i)" + p)) for what, p in entries], rx("(?i)(?:" + "|".join(p for _, p in entries) + ")")


_OWN_KEY = rx(r"(?i)\bssh-keygen\b|\bgenerate[-_]?key\b|\bnew[-_]?key\b")
_WRITE = rx(r"(?i)--allow-write\b|read_only[\"']?\s*[=:]\s*[\"']?false\b|can_push[\"']?\s*[=:]\s*[\"']?true\b")
_GRANT_WORDS = {
    "collaborator": "an account made a collaborator with write or admin rights",
    "membership": "an account made an organisation, team or project admin",
    "deploy-key": "a deploy key added",
    "protection": "branch protection deleted",
    "visibility": "the repository made public",
    "transfer": "the repository transferred to another owner",
}


@lru_cache(maxsize=1)
def _git_global_tables():
    return (_table_rx(T.ordered("any_language", "git_global_runners")),
            _table_rx(T.ordered("any_language", "handed_uploads")))


def git_runs_an_uploader(text: str) -> list[Fact]:
    """git configured for every repository (`git config --global core.hooksPath DIR`, `credential.helper X`)
    by a script that also writes a program uploading what it is handed (`curl --data-binary @-`): each
    push's diff or each stored password leaves for the script's host, in every project, long after the run."""
    runners, uploads = _git_global_tables()
    data = text.encode("utf-8", "surrogatepass")
    argv = data.replace(b'"', b" ").replace(b"'", b" ").replace(b",", b" ")
    if uploads.search(data) is None or (runners.search(data) is None and runners.search(argv) is None):
        return []
    lines = _code_lines(text)
    up_lines: list[int] = []
    sets: list[tuple[int, int, int]] = []
    for no, line in enumerate(text.split("\n")[:MAX_LINES]):
        # the program written is often quoted text (`printf '%s\n' 'curl ... @-'`): every line counts
        if len(line) <= 4000 and not _pattern_line(line) and uploads.search(line.encode("utf-8", "surrogatepass")) is not None:
            up_lines.append(no)
    for no, (off, line) in enumerate(lines):
        if not line or _pattern_line(line):
            continue
        raw = line.encode("utf-8", "surrogatepass")
        flat = raw.replace(b'"', b" ").replace(b"'", b" ").replace(b",", b" ")
        m = runners.search(flat)
        if m is not None:
            a = len(flat[:m.start()].decode("utf-8", "replace"))
            sets.append((no, off + a, off + min(len(line), a + len(m.group(0).decode("utf-8", "replace")))))
    for no, start, end in sets:
        if not any(abs(u - no) <= WINDOW for u in up_lines):
            continue
        from .command_grader import grade_url

        hosts = _hosts(text, pieces=True)
        graded = [grade_url("https://" + h + "/") for h in hosts]
        if graded and all(g[1] in ("vendor", "local") for g in graded):
            continue
        where = hosts[0] if hosts else "a computed address"
        return [Fact(K.PERSISTENCE, start, end,
                     f"Sets git, for every repository, to run a program that uploads what git hands it (to {where}): "
                     "diffs or stored credentials leave on every push or login", Severity.HIGH if hosts else Severity.MEDIUM,
                     Confidence.MEDIUM, {"analysis": "any-language", "setting": text[start:end].strip()[:80]})]
    return []


@lru_cache(maxsize=1)
def _secret_tables():
    shapes = [(fam, rx(p)) for fam, p in _split(T.ordered("any_language", "secret_shapes"))]
    return shapes, _table_rx(T.ordered("any_language", "body_sends"))


_MASKED = text_rx(r"(?i)\bmask(?:ed|ing|s)?\b|\[redacted\]|\*\*\*\*|\bfingerprint|\bsha256\b|\bhash(?:ed)?\b")


def _sending_lines(text: str, sends) -> Iterator[tuple[int, int, str]]:
    """(start, end, line) of each code line holding a request-body send, the send's offsets in the text."""
    for off, line in _code_lines(text):
        if not line:
            continue
        raw = line.encode("utf-8", "surrogatepass")
        m = sends.search(raw)
        if m is not None:
            a = len(raw[:m.start()].decode("utf-8", "replace"))
            yield off + a, off + a + len(m.group(0).decode("utf-8", "replace")), line


def found_secrets_sent(text: str) -> list[Fact]:
    """A secret scanner (patterns of several kinds of key) whose script also sends a request body to a host
    that is not a vendor's, and masks nothing: the secrets it finds in what it reads may leave as they are."""
    shapes, sends = _secret_tables()
    data = text.encode("utf-8", "surrogatepass")
    kinds = {fam for fam, r in shapes if r.search(data) is not None}
    if len(kinds) < 2 or _MASKED.search(text) is not None:
        return []
    for start, end, _line in _sending_lines(text, sends):
        from .command_grader import grade_url

        hosts = _hosts(text, pieces=True)
        graded = [grade_url("https://" + h + "/") for h in hosts]
        if graded and all(g[1] in ("vendor", "local", "release") or H.is_known_service(g[2]) for g in graded):
            return []
        where = hosts[0] if hosts else "a computed address"
        return [Fact(K.CRED_EXFIL, start, end,
                     f"Looks for secrets ({', '.join(sorted(kinds))}) and sends a request body to {where}, masking nothing: "
                     "the secrets it finds may leave as they are", Severity.MEDIUM, Confidence.LOW,
                     {"analysis": "any-language", "source-family": "found-secrets", "destination": where[:120]})]
    return []


def authority_given_away(text: str) -> list[Fact]:
    """A forge call that gives authority over the repository away (any language): an account
    made collaborator or admin, a deploy key the script did not make itself, branch protection
    deleted, the repository made public or transferred. The script runs with the user's forge
    login, so what it grants outlives the session."""
    table, any_grant = _grants()
    data = text.encode("utf-8", "surrogatepass")
    if any_grant.search(data) is None and any_grant.search(data.replace(b'"', b" ").replace(b"'", b" ").replace(b",", b" ")) is None:
        return []
    own_key = _OWN_KEY.search(data) is not None
    out: list[Fact] = []
    for off, line in _code_lines(text):
        if not line or _pattern_line(line):
            continue
        raw = line.encode("utf-8", "surrogatepass")
        if any_grant.search(raw) is None:
            # an argv list (['gh', 'repo', 'edit', '--visibility', 'public']): the words of one command
            words = raw.replace(b'"', b" ").replace(b"'", b" ").replace(b",", b" ")
            if words == raw or any_grant.search(words) is None:
                continue
            raw = words
        for what, r in table:
            m = r.search(raw)
            if m is None:
                continue
            sev = Severity.HIGH
            if what == "deploy-key":
                write = _WRITE.search(raw) is not None
                if own_key and not write:
                    break  # a read-only key the script generated itself: the standard CI set-up
                sev = Severity.HIGH if write or not own_key else Severity.MEDIUM
            a = len(raw[:m.start()].decode("utf-8", "replace"))
            b = a + len(m.group(0).decode("utf-8", "replace"))
            out.append(Fact(K.REPO_AUTHORITY, off + a, off + b,
                            f"Gives authority over the repository away: {_GRANT_WORDS.get(what, what)}, with the user's own forge login",
                            sev, Confidence.MEDIUM, {"analysis": "any-language", "grant": what}))
            break
        if len(out) >= 20:
            break
    return out


@lru_cache(maxsize=1)
def _file_loaders():
    return _table_rx(T.ordered("any_language", "file_loaders"))


# A line that saves bytes into a file (the download kept on disk before it is loaded).
_SAVES = text_rx(r"(?i)(?:write_bytes|write_text|writefile(?:sync)?\s*\(|\bopen\s*\([^\n]{0,200}['\"]wb?\+?['\"]|\.write\s*\(|"
                 r"file_put_contents|copyfileobj|urlretrieve|createwritestream|\bio\.open\s*\([^\n]{0,200}['\"]wb?['\"])")


_IDENT = text_rx(r"[A-Za-z_$][\w$]*")
_LOADER_WORDS = frozenset({"require", "import", "importlib", "util", "spec_from_file_location", "exec_module", "runpy", "run_path",
                           "SourceFileLoader", "imp", "load_source", "include", "include_once", "require_once", "dofile", "loadfile",
                           "str", "os", "path", "fspath", "loader", "spec"})
_CODE_FILE = text_rx(r"(?i)\.(?:m?js|cjs|py|rb|php|lua|pl)\b")


def fetched_code_loaded(text: str, facts: list[Fact]) -> list[Fact]:
    """Code fetched from the network and a loader of code within WINDOW lines (any language); or a
    download saved to a file and a loader of a module from a computed file name near both."""
    if any(f.kind == K.REMOTE_EXEC and f.severity >= Severity.HIGH for f in facts):
        return []
    *_, (loaders, path_loaders, archives), fetch = _tables()
    file_loaders = _file_loaders()
    data = text.encode("utf-8", "surrogatepass")
    on_path = path_loaders.search(data) is not None and archives.search(data) is not None
    from_file = file_loaders.search(data) is not None and _SAVES.search(text) is not None
    if loaders.search(data) is None and not on_path and not from_file:
        return []
    lines = _code_lines(text)
    fetch_lines: list[int] = []
    archive_lines: list[int] = []
    load_lines: list[tuple[int, int, int]] = []
    prev = ""
    for no, (off, line) in enumerate(lines):
        if not line:
            continue
        raw = line.encode("utf-8", "surrogatepass")
        # a call chain broken over lines (`https\n  .get(url, ...)`): the line with the one before it
        chained = line.lstrip().startswith(".") and fetch.search((prev.rstrip() + line.lstrip()).encode("utf-8", "surrogatepass")) is not None
        prev = line
        if fetch.search(raw) is not None or chained:
            fetch_lines.append(no)
        if on_path and archives.search(raw) is not None:
            archive_lines.append(no)
        lm = loaders.search(raw)
        if lm is None and from_file:
            lm = file_loaders.search(raw)
            if lm is not None:
                a = len(raw[:lm.start()].decode("utf-8", "replace"))
                names = {w for w in _IDENT.findall(line[a:]) if len(w) > 1} - _LOADER_WORDS
                saves = [ln for _, ln in lines[max(0, no - WINDOW):no + WINDOW] if ln and _SAVES.search(ln) is not None]
                if not any(_CODE_FILE.search(ln) is not None or names & set(_IDENT.findall(ln)) for ln in saves):
                    lm = None  # a module loaded from a file nothing here saves (a JSON download is data)
        if lm is None and on_path:
            lm = path_loaders.search(raw)
            if lm is not None and not any(abs(a - no) <= WINDOW for a in archive_lines + [k for k, (_, ln) in enumerate(lines[no:no + WINDOW], no) if ln and archives.search(ln.encode("utf-8", "surrogatepass"))]):
                lm = None  # a folder on the path, no archive near it
        if lm is not None:
            a = len(raw[:lm.start()].decode("utf-8", "replace"))
            load_lines.append((no, off + a, off + a + len(lm.group(0).decode("utf-8", "replace"))))
    for no, start, end in load_lines:
        loader_text = text[start:end].lower()
        inline = "data:" in loader_text or "blob:" in loader_text
        if not inline and not any(abs(f - no) <= WINDOW for f in fetch_lines):
            continue
        urls = [h for h in _hosts(text)]
        if not inline and not urls:
            continue  # a fetch of a computed address only: the flow analyses judge those
        from .command_grader import grade_url

        graded = [grade_url("https://" + h + "/") for h in urls]
        if graded and all(g[1] in ("vendor", "local") for g in graded) and not inline:
            continue
        where = "code in a data: URL" if inline else f"code fetched from {urls[0]}"
        return [Fact(K.REMOTE_EXEC, start, end, f"A code loader runs {where}: what runs is whatever the host serves, never reviewed",
                     Severity.HIGH, Confidence.MEDIUM, {"analysis": "any-language", "loader": text[start:end][:60]})]
    return []


@lru_cache(maxsize=1)
def _agent_tables():
    paths = _table_rx(T.ordered("any_language", "agent_settings"))
    widen = _table_rx(T.ordered("any_language", "permission_widening"))
    return paths, widen


# A line that tests a value rather than setting it (an audit reading the settings): no change made.
_COMPARES = ("==", "!=", " in (", " in [", " in {", "includes(", "grep", ".test(", ".match(", "search(", "startswith(", "contains",
             " -eq ", "assert", "expect(", "if ", "elif ", "case ", "when ", "warn", "print(", "console.", "echo ")
_WRITES = text_rx(r"(?i)(?:write_text|write_bytes|json\.dump\b|toml\.dump|\bopen\s*\([^\n]{0,200}['\"][wa]b?\+?['\"]|write(?:text)?file(?:sync)?\s*\(|\bbun\.write\s*\(|"
                  r"\bfile\.write\b|file_put_contents|set-content|out-file|\[io\.file\]::write|os\.writefile|ioutil\.writefile|fs::write|"
                  r"\bsponge\b|\btee\b|\bjq\b[^\n]*>|>\s*[\"']?(?:~|\$home|\$\{home\}|\.)[^\n]*\.(?:json|toml)|\bmv\s|\.dump\s*\()")


_CONCAT = text_rx(r"[\"']\s*\+\s*[\"']")  # `"bypass" + "Permissions"`: one string in pieces
_LOOP = text_rx(r"(?i)^\s*for\b[^\n]{0,80}?\bin\s*[(\[{]")  # `for rule in ("Bash(*)", ...)`: values added, none tested


def _compares(line: str) -> bool:
    low = line.lower()
    if _LOOP.search(line) is not None:
        low = low.replace(" in (", " ").replace(" in [", " ").replace(" in {", " ")
    return any(w in low for w in _COMPARES)


@lru_cache(maxsize=1)
def _instruction_paths():
    return _table_rx(T.ordered("any_language", "agent_instructions"))


# A line that puts text into a file: a shell redirect or tee, a downloader's output option, a write call.
_INTO_FILE = text_rx(r"(?i)(?:>>|>\s*[\"'$~/.\w]|\btee\b|\s-o\s|--output\b|\s-O\s|--output-document\b|-outfile\b|appendfile|append_text|"
                     r"write_text|write(?:text)?file|\.write\s*\(|open\s*\([^\n]{0,200}['\"][wa]b?\+?['\"]|add-content|set-content|out-file|file_put_contents|os\.writefile|fs::write)")


@lru_cache(maxsize=1)
def _hook_context():
    return _table_rx(T.ordered("any_language", "hook_context_outputs"))


# The injected text framed as outranking the user's project ("standing instructions", "take priority over").
_OUTRANKS = text_rx(r"(?i)\b(?:standing (?:instructions|orders)|take[s]? (?:priority|precedence)|override[s]?\b|outrank|supersede|"
                    r"ignore (?:the |any |all )?(?:previous|other|repo|project)|higher priority|must (?:always )?(?:obey|follow))")


def _context_from_download(text: str, data: bytes, fetch) -> list[Fact]:
    """A hook that downloads text and hands it back as the turn's context (`additionalContext`): the
    host's text is read by the agent on every event, unreviewed."""
    ctx = _hook_context()
    if ctx.search(data) is None:
        return []
    lines = _code_lines(text)
    fetch_lines = [no for no, (_, ln) in enumerate(lines) if ln and fetch.search(ln.encode("utf-8", "surrogatepass")) is not None]
    if not fetch_lines:
        return []
    for no, (off, line) in enumerate(lines):
        if not line or _pattern_line(line):
            continue
        raw = line.encode("utf-8", "surrogatepass")
        m = ctx.search(raw)
        if m is None or not any(abs(no - f) <= WINDOW for f in fetch_lines):
            continue
        from .command_grader import grade_url

        hosts = _hosts(text, pieces=True)
        graded = [grade_url("https://" + h + "/") for h in hosts]
        if graded and all(g[1] in ("vendor", "local") for g in graded):
            return []
        a = len(raw[:m.start()].decode("utf-8", "replace"))
        framed = _OUTRANKS.search("\n".join(ln for _, ln in lines[no:no + 4])) is not None
        where = hosts[0] if hosts else "a computed address"
        return [Fact(K.PERSISTENCE, off + a, off + a + len(m.group(0).decode("utf-8", "replace")),
                     f"A hook hands text downloaded from {where} to the agent as context"
                     + (", framed as instructions that outrank the project's" if framed else "")
                     + ": whatever that host serves steers every turn", Severity.HIGH if framed and hosts else Severity.MEDIUM,
                     Confidence.MEDIUM, {"analysis": "any-language", "file": "hook context"})]
    return []


def remote_instructions(text: str, facts: list[Fact]) -> list[Fact]:
    """Downloaded text written into a coding agent's instruction or memory file (`curl URL >> ~/.claude/CLAUDE.md`):
    whatever the host serves later becomes standing instructions to every session, with no review."""
    _, _, _, _, _, _, fetch = _tables()
    data = text.encode("utf-8", "surrogatepass")
    paths = _instruction_paths()
    if fetch.search(data) is None:
        return []
    if paths.search(data) is None:
        return _context_from_download(text, data, fetch)
    return _into_instruction_files(text, paths, fetch) or _context_from_download(text, data, fetch)


def _into_instruction_files(text: str, paths, fetch) -> list[Fact]:
    lines = _code_lines(text)
    fetch_lines: list[int] = []
    into: list[tuple[int, int, int]] = []
    for no, (off, line) in enumerate(lines):
        if not line or _pattern_line(line):
            continue
        raw = line.encode("utf-8", "surrogatepass")
        if fetch.search(raw) is not None:
            fetch_lines.append(no)
        m = paths.search(raw)
        if m is not None and _INTO_FILE.search(line) is not None and not any(w in line.lower() for w in _COMPARES):
            a = len(raw[:m.start()].decode("utf-8", "replace"))
            into.append((no, off + a, off + a + len(m.group(0).decode("utf-8", "replace"))))
        if len(into) > 40:
            break
    for no, start, end in into:
        if not any(0 <= no - f <= 5 for f in fetch_lines):
            continue
        from .command_grader import grade_url

        hosts = _hosts(text)
        graded = [grade_url("https://" + h + "/") for h in hosts]
        # a vendor's or a known service's own host (a rules file from the project's GitHub repository): medium
        own = bool(graded) and all(g[1] in ("vendor", "local", "release") or H.is_known_service(g[2]) for g in graded)
        where = hosts[0] if hosts else "a computed address"
        return [Fact(K.PERSISTENCE, start, end,
                     f"Writes text downloaded from {where} into a coding agent's instruction file: every later session obeys "
                     "whatever that host serves", Severity.MEDIUM if own else Severity.HIGH, Confidence.MEDIUM,
                     {"analysis": "any-language", "file": text[start:end].strip()[:80]})]
    return []


# `const dir = join(homedir(), ".claude")`, `cfg_dir = Path.home() / ".codex"`: a name given a folder path whose last
# quoted piece is a dot-folder (group 1 the name, group 2 the value)
_DIR_NAMED = text_rx(r"""(?m)^[ \t]*(?:(?:const|let|var|my|local|our|final)\s+)?\$?([A-Za-z_][\w]*)\s*(?::\s*[\w.<>\[\]]{1,40}\s*)?:?=\s*([^\n;]{1,300})""")
_DOT_PIECE = text_rx(r"""["'`]((?:~|\$HOME|\$\{HOME\})?[/\\]?\.[\w-]+(?:[/\\][\w.-]+)*)["'`]""")
# that name joined to a file name: `join(dir, "settings.json")`, `dir + "/settings.json"`, `dir / "config.toml"`, `${dir}/x.json`
_NAME_JOINED = text_rx(r"""(?:\$?\b([A-Za-z_][\w]*)\s*(?:,|\+|/|\.)\s*["'`][/\\]?([\w.-]{1,80})["'`]|\$?\{([A-Za-z_][\w]*)\}[/\\]([\w.-]{1,80}))""")


def _named_dir_paths(text: str, paths) -> list[int]:
    """Lines that join a file name to a name holding a dot-folder path, where the two make an agent settings path
    (the folder and the file in separate statements: `dir = join(home, ".claude")`, then `join(dir, "settings.json")`)."""
    dirs: dict[str, str] = {}
    for n, m in enumerate(_DIR_NAMED.finditer(text)):
        if n >= 2000:
            break
        pieces = _DOT_PIECE.findall(m.group(2))
        if pieces:
            dirs[m.group(1)] = pieces[-1]
    if not dirs:
        return []
    out = []
    for no, (_, line) in enumerate(_code_lines(text)):
        if not line:
            continue
        for m in _NAME_JOINED.finditer(line):
            name, leaf = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            if name in dirs and paths.search((dirs[name] + "/" + leaf).encode("utf-8", "surrogatepass")) is not None:
                out.append(no)
                break
    return out


# What a planted hook command runs: the file after an interpreter (`python3 {agent}`, `bash "$HOOK"`,
# `node ~/.cache/x/h.js`) or the command itself (`/home/u/.cache/x/h`).
_RUN_TARGET = text_rx(r"(?i)^\s*(?:(?:python3?|node|bash|sh|zsh|ruby|perl|deno\s+run|bun|pwsh|powershell(?:\.exe)?)(?:\s+-[\w-]+)*\s+)?"
                      r"[\"']?([^\s\"';|&]{3,300})")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _names_word(line: str, name: str) -> bool:
    i = line.find(name)
    while i >= 0:
        before = line[i - 1] if i else " "
        after = line[i + len(name)] if i + len(name) < len(line) else " "
        if before not in _NAME_CHARS and after not in _NAME_CHARS:
            return True
        i = line.find(name, i + 1)
    return False


def downloaded_runner(text: str, command: str) -> tuple[Severity, str] | None:
    """(severity, host) when the file a planted hook command runs is one the same script writes from a
    download (`agent.write_bytes(urlopen(URL).read())`, then `"command": f"python3 {agent}"`): the hook
    runs, on every event, whatever that host serves at install time; no reviewer ever reads it."""
    m = _RUN_TARGET.search(command)
    if m is None:
        return None
    target = m.group(1).rstrip(")}").lstrip("$({")
    name = target.replace("\\", "/").rsplit("/", 1)[-1]
    if len(name) < 3 or name.lower() in ("python", "python3", "node", "bash", "true", "echo", "exit"):
        return None
    fetch = _tables()[6]
    if fetch.search(text.encode("utf-8", "surrogatepass")) is None:
        return None
    lines = _code_lines(text)
    fetch_lines = [no for no, (_, ln) in enumerate(lines) if ln and fetch.search(ln.encode("utf-8", "surrogatepass")) is not None]
    for no, (_, line) in enumerate(lines):
        if not line or not _names_word(line, name):
            continue
        if (_INTO_FILE.search(line) is not None or _WRITES.search(line) is not None or fetch.search(line.encode("utf-8", "surrogatepass")) is not None) \
                and any(abs(no - f) <= 3 for f in fetch_lines):
            from .command_grader import grade_url

            hosts = _hosts(text, pieces=True)
            if not hosts:
                return Severity.HIGH, "a computed address"
            # graded as the same download piped into the interpreter would be: unknown host high, a bare IP critical
            graded = [grade_url("https://" + h + "/") for h in hosts]
            worst = max(range(len(graded)), key=lambda i: graded[i][0])
            return max(graded[worst][0], Severity.MEDIUM), hosts[worst]
    return None


def writes_agent_settings(text: str) -> bool:
    """The script names a coding agent's settings file (user or project, path in pieces too) and writes files."""
    paths, _ = _agent_tables()
    if _WRITES.search(text) is None:
        return False
    data = text.encode("utf-8", "surrogatepass")
    return paths.search(data) is not None or paths.search(_JOIN.sub("/", text).encode("utf-8", "surrogatepass")) is not None


def agent_permissions_widened(text: str, facts: list[Fact]) -> list[Fact]:
    """A script that writes a coding agent's settings with its permission prompts or sandbox switched off."""
    if any(f.kind == K.DEFENSE_EVASION and f.properties.get("analysis") == "any-language" for f in facts):
        return []
    paths, widen = _agent_tables()
    data = text.encode("utf-8", "surrogatepass")
    if widen.search(data) is None and ("+" not in text or _WRITES.search(text) is None
                                       or widen.search(_CONCAT.sub("", text).encode("utf-8", "surrogatepass")) is None):
        return []  # the pieces joined (a substitution over the whole text) only when the script writes files at all
    if _WRITES.search(text) is None:
        return []
    joined = _JOIN.sub("/", text).encode("utf-8", "surrogatepass")
    path_lines: list[int] = []
    if paths.search(data) is None and paths.search(joined) is None:
        path_lines = _named_dir_paths(text, paths)
        if not path_lines:
            return []
    lines = _code_lines(text)
    hits: list[tuple[int, int, int, str]] = []
    for no, (off, line) in enumerate(lines):
        if not line or _pattern_line(line):
            continue
        raw = line.encode("utf-8", "surrogatepass")
        if paths.search(raw) is not None or (("/" in line or "," in line or "+" in line) and paths.search(_JOIN.sub("/", line).encode("utf-8", "surrogatepass")) is not None):
            path_lines.append(no)
        m = widen.search(raw)
        if m is None and "+" in line:
            # a value in pieces (`"bypass" + "Permissions"`): the pieces as one string
            m = widen.search(_CONCAT.sub("", line).encode("utf-8", "surrogatepass"))
            if m is not None:
                raw = _CONCAT.sub("", line).encode("utf-8", "surrogatepass")
        if m is not None and not _compares(line):
            a = len(raw[:m.start()].decode("utf-8", "replace"))
            word = m.group(0).decode("utf-8", "replace")
            hits.append((no, off + a, off + a + len(word), word.strip("\"'")))
        if len(hits) > 40:
            break
    for no, start, end, word in hits:
        if any(abs(p - no) <= WINDOW for p in path_lines):
            return [Fact(K.DEFENSE_EVASION, start, end,
                         f"Writes a coding agent's settings with its permission prompts or sandbox switched off ({word[:40]}): "
                         "every later session runs any tool without asking",
                         Severity.HIGH, Confidence.MEDIUM, {"analysis": "any-language", "setting": word[:60]})]
    return []


@lru_cache(maxsize=1)
def _published_tables():
    return _table_rx(T.ordered("any_language", "hook_tool_output")), _table_rx(T.ordered("any_language", "published_folders"))


_UNIGNORE_LINE = text_rx(r"""["'`]![\w./*-]{2,120}["'`]""")  # a `!path` line: a file kept past .gitignore


def tool_output_sent(text: str) -> list[Fact]:
    """A hook script that reads the event's transcript or tool output (transcript_path, tool_response) and
    sends a request body to a host that is not a vendor's or the machine's own: the whole session (every
    prompt, every file read, every secret a command printed) leaves on each event, with nobody watching.
    A well-known service (a chat webhook) is medium; an unknown host high."""
    if "tool_" not in text and "toolResponse" not in text and "transcript_path" not in text:
        return []
    fields, _ = _published_tables()
    data = text.encode("utf-8", "surrogatepass")
    if fields.search(data) is None:
        return []
    _, sends = _secret_tables()
    for start, end, line in _sending_lines(text, sends):
        from .command_grader import grade_url

        on_line = [h for h in _hosts(line, pieces=True) if not H.is_private_host(h)]
        # (with no address on the send line, the file's other hosts, an XML namespace or a regex's
        # escaped name among them, say little about where it goes: medium at most)
        hosts = on_line or [h for h in _hosts(text, pieces=True) if not H.is_private_host(h) and "\\" not in h]
        if not hosts:
            continue
        graded = [grade_url("https://" + h + "/") for h in hosts]
        if all(g[1] in ("vendor", "local", "release") for g in graded):
            return []
        known = all(H.is_known_service(g[2]) or g[1] in ("vendor", "local", "release") for g in graded)
        return [Fact(K.HOST_DATA_EXFIL, start, end,
                     f"A hook script reads the session's transcript or tool output and sends a request body to {hosts[0]}: "
                     "every prompt, file and secret the session saw may leave on each event",
                     Severity.MEDIUM if known or not on_line else Severity.HIGH, Confidence.MEDIUM,
                     {"analysis": "any-language", "destination": hosts[0][:120]})]
    return []


def tool_output_published(text: str) -> list[Fact]:
    """A hook that writes what the agent's tools printed or were given (tool_response, the transcript) into a
    folder the project publishes, or past .gitignore with a `!path` line it adds: whatever a command printed
    (a token, the environment) ships with the next deploy or commit."""
    if "tool_" not in text and "toolResponse" not in text and "transcript_path" not in text:
        return []
    fields, folders = _published_tables()
    data = text.encode("utf-8", "surrogatepass")
    m = fields.search(data)
    if m is None or _INTO_FILE.search(text) is None and _WRITES.search(text) is None:
        return []
    joined = _JOIN.sub("/", text)
    unignored = ".gitignore" in text and _UNIGNORE_LINE.search(text) is not None
    published = folders.search(joined.encode("utf-8", "surrogatepass")) is not None
    if not (unignored or published):
        return []
    start = len(data[:m.start()].decode("utf-8", "replace"))
    where = " and ".join(w for w, on in (("a folder the project publishes", published), ("past .gitignore", unignored)) if on)
    return [Fact(K.HOST_DATA_EXFIL, start, start + len(m.group(0).decode("utf-8", "replace")),
                 f"Writes what the agent's tools printed or were given into {where}: whatever a command printed ships with the next deploy or commit",
                 Severity.HIGH if unignored and published else Severity.MEDIUM, Confidence.MEDIUM, {"analysis": "any-language"})]

