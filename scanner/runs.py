"""Repository files that a setting runs: a hook's script, a status line or helper command, a
task, a dev container's lifecycle command, a local MCP server, a file every terminal sources.

The agent map (data/agent_files.yml, `runs`) names the settings files and the keys whose strings
are commands. Each word of such a command that names a file of the repository is an agent file
too: the agent runs it whenever the setting fires, so its content matters as much as the
setting's. Settings are parsed as JSON (never executed); a file that does not parse names nothing
here (the settings rules report what it holds).
"""
from __future__ import annotations

import bisect
import json
import posixpath
import re
from functools import lru_cache
from typing import Iterable, Iterator

from .agent_map import GlobSet, _raw
from .matching import rx

# `$CLAUDE_PROJECT_DIR/`, `${CLAUDE_PLUGIN_ROOT:-.}/`, `${workspaceFolder}/`, `%CD%\`: a variable
# that stands for a folder at the start of a word, quoted too (`"$CLAUDE_PROJECT_DIR"/.claude/x.sh`, the
# form Claude Code's documentation gives: the word's opening quote is stripped, its closing one stays).
# Bounded pattern over one short word.
_LEADING_VAR = re.compile(r"^(?:\$\{[A-Za-z_][A-Za-z0-9_]{0,60}(?::-[^}]{0,20})?\}|\$[A-Za-z_][A-Za-z0-9_]{0,60}|%[A-Za-z_]{1,30}%)[\"']?[\\/]")
_QUOTES = "\"'`()[];&|<>"
MAX_WORDS = 2000  # per settings file


@lru_cache(maxsize=1)
def _spec() -> tuple[GlobSet, frozenset[str], int]:
    runs = _raw().get("runs") or {}
    return GlobSet(runs.get("configs") or ()), frozenset(runs.get("keys") or ()), int(runs.get("max_files", 200))


@lru_cache(maxsize=1)
def _config_keys() -> tuple[tuple[GlobSet, frozenset[str]], ...]:
    """Keys read as commands in one settings file only (`config_keys`: Zed's `lsp.*.binary.path`)."""
    table = (_raw().get("runs") or {}).get("config_keys") or {}
    return tuple((GlobSet([glob]), frozenset(ks)) for glob, ks in table.items())


def _keys_for(config: str) -> frozenset[str]:
    extra = [ks for globs, ks in _config_keys() if globs.matches(config)]
    return _spec()[1].union(*extra) if extra else _spec()[1]


@lru_cache(maxsize=1)
def _module_paths() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in ((_raw().get("runs") or {}).get("module_paths") or {}).items()}


def _path_folders(value: str) -> list[str]:
    """The folders of a search path (`${workspaceFolder}/.vscode/shim:${env:PYTHONPATH}`), split at
    `:`/`;` outside `${...}`, each with a leading folder variable made `./`."""
    out, cur, depth = [], "", 0
    for ch in value[:4000]:
        depth += 1 if ch == "{" else -1 if ch == "}" and depth else 0
        if ch in ":;" and not depth:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    folders = []
    for f in out[:20]:
        f = _LEADING_VAR.sub("./", f.strip().strip("'\"").replace("\\", "/"))
        if f and "$" not in f and "://" not in f:
            folders.append(f.rstrip("/"))
    return folders


def _module_words(data) -> list[str]:
    """Files a language runs by itself from the folders a setting puts on its search path."""
    table = _module_paths()
    out: list[str] = []
    stack = [data]
    while stack and len(out) < 100:
        v = stack.pop()
        if isinstance(v, dict):
            for k, x in list(v.items())[:2000]:
                if k in table and isinstance(x, str):
                    out.extend(posixpath.join(f, name) for f in _path_folders(x) for name in table[k])
                elif isinstance(x, (dict, list)):
                    stack.append(x)
        elif isinstance(v, list):
            stack.extend(x for x in v[:2000] if isinstance(x, (dict, list)))
    return out


def is_runner(path: str) -> bool:
    """A settings file whose commands may run repository files."""
    return _spec()[0].matches(path)


def max_files() -> int:
    return _spec()[2]


def _strings(value, keys: frozenset[str], taken: bool = False) -> Iterator[str]:
    stack = [(value, taken)]
    while stack:
        v, t = stack.pop()
        if isinstance(v, str):
            if t:
                yield v
        elif isinstance(v, dict):
            stack.extend((x, t or k in keys) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, t) for x in v)


def _parse(text: str):
    try:
        return json.loads(text)
    except ValueError:
        pass
    # JSON with comments (VS Code's and Kiro's files): drop whole-line comments and retry.
    lines = [ln for ln in text.split("\n") if not ln.lstrip().startswith("//")]
    try:
        return json.loads("\n".join(lines))
    except ValueError:
        return None


def words(text: str, config: str = "") -> list[str]:
    """Path-like words of every command string in a settings file's text (`config`: its path, for
    the keys only that kind of file runs)."""
    data = _parse(text)
    if data is None:
        return []
    out: list[str] = _module_words(data) if _module_paths() else []
    if isinstance(data, dict):
        # a dev container's image: build.dockerfile (or the older top-level dockerFile), relative to devcontainer.json,
        # built and started when the folder is opened in a container (its RUN/CMD/ENTRYPOINT are read as shell)
        build = data.get("build") if isinstance(data.get("build"), dict) else {}
        for ref in (build.get("dockerfile"), build.get("dockerFile"), data.get("dockerFile"), data.get("dockerfile")):
            if isinstance(ref, str) and ref and "$" not in ref and "://" not in ref and is_dockerfile(posixpath.basename(ref)):
                out.append(ref if "/" in ref else "./" + ref)
    for s in _strings(data, _keys_for(config) if config else _spec()[1]):
        # Gemini CLI's path separator variable (`${extensionPath}${/}dist${/}server.js`)
        s = s.replace("${/}", "/").replace("${pathSeparator}", "/")
        for w in s.replace("=", " ").split():
            w = w.strip(_QUOTES)
            w = _LEADING_VAR.sub("./", w)
            if not w or w.startswith("-") or "://" in w or "$" in w or "*" in w:
                continue
            if "/" in w or "\\" in w or "." in w.lstrip("."):
                out.append(w.replace("\\", "/"))
            if len(out) >= MAX_WORDS:
                return out
    return out


def named_files(config: str, text: str, files: set[str]) -> list[str]:
    """Repository files (from `files`) that the settings file `config` names in its commands:
    each word tried relative to the settings file's folder and to every folder above it."""
    found: list[str] = []
    bases = []
    d = posixpath.dirname(config)
    while True:
        bases.append(d)
        if not d:
            break
        d = posixpath.dirname(d)
    for w in words(text, config):
        if w.startswith("/"):
            continue
        for base in bases:
            p = posixpath.normpath(posixpath.join(base, w))
            if p.startswith("../") or p == "..":
                break
            if p in files and p != config:
                if p not in found:
                    found.append(p)
                break
    return found


def referenced(configs: Iterable[tuple[str, str]], files: set[str]) -> list[tuple[str, str]]:
    """(file, settings file that runs it) for every (settings path, text) in `configs`."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for config, text in configs:
        for p in named_files(config, text, files):
            if p not in seen:
                seen.add(p)
                out.append((p, config))
    return out


# --- Scripts that an agent file tells the agent to run -------------------------------------
# `bash scripts/setup.sh`, `python tools/sync.py`, `go run ./cmd/y`, `./bin/x`, `npm run build`
# (-> the package.json script's command -> its file): an instruction file, a slash command, a
# subagent or a skill says to run a repository file, so that file is as much the agent's as the
# instruction. Only words of the text are read (inline code, fences, `!` lines, prose alike);
# a word names a file only when the file exists inside the repository. Bounded per agent file
# (AGENT_MAX_FILES) and in depth (AGENT_MAX_HOPS: a script such a command runs may run another).
AGENT_MAX_FILES = 50
AGENT_MAX_HOPS = 2
MAX_COMMAND_WORDS = 20_000
_INTERPRETERS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "fish", "source", ".", "python", "python3", "python2",
                           "py", "uv", "node", "nodejs", "deno", "bun", "ruby", "perl", "php", "pwsh", "powershell",
                           "powershell.exe", "pwsh.exe", "go", "tsx", "ts-node", "npx", "pnpx", "bunx", "lua",
                           "rscript", "julia", "env", "sudo", "exec", "time", "nohup", "xargs", "poetry", "pipenv",
                           # interpreters of languages the scanner has no analyser for: their files are still run
                           "elixir", "mix", "nu", "kotlin", "kotlinc", "dotnet", "dart", "awk", "gawk", "mawk", "java",
                           "jshell", "groovy", "scala", "scala-cli", "swift", "jbang", "bb", "escript", "tclsh",
                           "raku", "crystal", "osascript", "cscript", "wscript", "zx", "xonsh", "elvish", "nim", "zig"})
# Words between an interpreter and its file: subcommands and launchers, skipped (options are too).
_SKIP_WORDS = frozenset({"run", "exec", "x", "tsx", "ts-node", "python", "python3", "node", "bun", "--", "script", "-f", "-script"})
_PACKAGE_MANAGERS = frozenset({"npm", "pnpm", "yarn", "bun"})
# cargo subcommands that compile a crate (running its build script) and, for `run`, run its binary.
_CARGO_BUILDS = {"build": "build", "b": "build", "test": "build", "t": "build", "check": "build", "c": "build",
                 "bench": "build", "clippy": "build", "run": "run", "r": "run"}
_CARGO_MAX = 20  # build scripts taken for one cargo command (a workspace's members)
_INSTALL = frozenset({"install", "i", "ci", "add"})
_LIFECYCLE = ("preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare")  # npm install (no arguments) runs these, in this order
# Hooks npm runs before and after the commands every agent runs to check its work (`npm run build`,
# `npm test`, `npm start`) without their being named: nothing in the command says they run.
_HIDDEN_HOOKS = ("prebuild", "postbuild", "pretest", "posttest", "prestart", "poststart")
RAKEFILE_NAMES = frozenset({"Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"})


def _defines_rake_task(text: str, task: str) -> bool:
    """Whether a Rakefile or .rake file defines `task` (`ns:name`: a task `name` in a namespace `ns`);
    plain string search: `task :name`, `task "name"`, `task name: [...]`, `namespace :ns`."""
    *spaces, name = task.split(":")
    if not name:
        return False
    forms = (f"task :{name}", f'task "{name}"', f"task '{name}'", f"task {name}:", f"task(:{name}", f"task :'{name}'", f'task :"{name}"')
    if not any(f in text for f in forms):
        return False
    return all(f"namespace :{ns}" in text or f'namespace "{ns}"' in text or f"namespace '{ns}'" in text for ns in spaces if ns)


def _rake_loads(rakefile: str, text: str, files: set[str]) -> list[str]:
    """The repository's Ruby files a Rakefile loads at its top level (`require_relative 'lib/x'`, `load
    'tasks/y.rb'`): rake loads the Rakefile before any task, so they run with every task (an `at_exit`
    hook there runs after the tests). Lines indented inside a task block run only with that task: left."""
    folder = posixpath.dirname(rakefile)
    out: list[str] = []
    for line in text.splitlines()[:400]:
        head, _, rest = line.partition(" ")
        if head not in ("require_relative", "load") or not rest[:1] in ("'", '"'):
            continue
        name = rest[1:].split(rest[0], 1)[0]
        if not name or name.startswith("/") or ".." in name.split("/"):
            continue
        path = posixpath.normpath(posixpath.join(folder, name))
        for cand in (path, path + ".rb"):
            if cand in files and cand not in out:
                out.append(cand)
                break
        if len(out) >= 20:
            break
    return out


_NPM_BUILTIN = frozenset({"install", "i", "ci", "add", "remove", "uninstall", "update", "exec", "dlx", "x", "create",
                          "init", "publish", "pack", "link", "why", "ls", "list", "outdated", "audit", "config",
                          "set", "version", "view", "info", "login", "whoami", "cache", "store", "import"})
# Extensions of files that are only ever executed: such a path at a command's head runs it.
_SHELL_EXTS = (".sh", ".bash", ".zsh", ".fish", ".ps1", ".bat", ".cmd")
# composer commands that run none of composer.json's scripts (every other one may: install and update
# fire their events, `composer run X` and `composer X` run script X).
_COMPOSER_QUIET = frozenset({"help", "list", "show", "info", "outdated", "validate", "diagnose", "audit", "search",
                             "config", "why", "depends", "why-not", "prohibits", "licenses", "fund", "status",
                             "suggests", "check-platform-reqs", "clear-cache", "clearcache", "self-update", "selfupdate",
                             "about", "archive", "browse", "home", "init"})
_WORD_STRIP = "\"'`()[]{};,&|<>*"
# Extensions of modules a program imports or bundles by relative path (`require('./x.js')`,
# `{ in: './src/y.ts' }`): in source code such a path alone is not run (an interpreter before it is).
_MODULE_EXTS = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".py", ".rb", ".go", ".php", ".pm",
                ".lua", ".java", ".kt", ".kts", ".scala", ".swift", ".dart", ".rs", ".ex", ".exs")
_SCRIPT_EXTS = (".sh", ".bash", ".zsh", ".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".rb", ".pl", ".pm",
                ".php", ".ps1", ".psm1", ".go", ".lua", ".r", ".jl", ".tsx", ".jsx", ".bat", ".cmd",
                ".fish", ".nu", ".exs", ".ex", ".kts", ".dart", ".csx", ".awk", ".groovy", ".scala", ".swift", ".java",
                ".fsx", ".vbs", ".tcl", ".raku", ".cr", ".clj", ".bb", ".erl", ".escript", ".applescript", ".xsh", ".elv")


# Commands that read, compare, hash, list or test the files they are given and run none of them:
# `cmp -s "$root/scripts/install.sh" "$root/public/install"` names two files and runs neither. Not
# cp/mv/ln/install/tee: a file copied or linked somewhere may run from there. Piped on (`cat ./x | sh`,
# `grep -v '^#' ./x | bash`) what they read may run, so a pipe after them keeps their files.
_READERS = frozenset({"cmp", "diff", "colordiff", "sdiff", "diff3", "cat", "bat", "less", "more", "head", "tail", "wc",
                      "grep", "egrep", "fgrep", "rg", "ag", "cut", "sort", "uniq", "file", "stat", "ls", "du", "test",
                      "rm", "md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum", "b2sum", "cksum", "xxd", "hexdump",
                      "od", "strings", "readlink", "realpath", "basename", "dirname", "shellcheck", "shfmt", "jq", "yq",
                      "get-content", "compare-object", "get-filehash", "test-path", "fc", "comp"})
_SEP = "\x00"  # a command separator (`;`, `&&`, `||`) between words: a reader's arguments end there
_PIPE = "\x01"  # a pipe: what a reader read goes on to the next command
_SEP_TAIL = (";", "|", "&")


def _separator(raw: str, tail: bool) -> str:
    """_PIPE, _SEP or "" for the separator a raw word ends (tail) or starts with."""
    s = raw[len(raw.rstrip(";|&")):] if tail else raw[:len(raw) - len(raw.lstrip(";|&"))]
    if not s:
        return ""
    return _PIPE if "|" in s and "||" not in s else _SEP


def _command_lines(text: str) -> Iterator[list[str]]:
    """The words of each line (a fence's line, a `!` line, a prose line alike), cleaned; _SEP where
    a command separator stood."""
    count = 0
    for line in text.split("\n"):
        # Inline code is read as its own command: "run `go run ./x` once" -> ["go", "run", "./x"].
        pieces = line.split("`") if "`" in line else [line]
        for piece in pieces:
            ws = []
            for raw in piece.replace("=", " ").split():
                w = raw.strip(_WORD_STRIP)
                sep = _separator(raw, False) if raw.startswith(_SEP_TAIL) else ""
                if sep and ws and ws[-1] not in (_SEP, _PIPE):
                    ws.append(sep)
                if w.startswith("!"):
                    w = w[1:]
                if w.startswith(("$", "%")):  # _LEADING_VAR's only first characters: most words skip the call
                    w = _LEADING_VAR.sub("./", w)
                if w.endswith((".", ":")) and len(w) > 1 and w not in ("..",) and not w.endswith("/..."):
                    w = w.rstrip(".:")
                if w:
                    ws.append(w)
                sep = _separator(raw, True) if raw.endswith(_SEP_TAIL) else ""
                if sep and ws and ws[-1] not in (_SEP, _PIPE):
                    ws.append(sep)
            while ws and ws[-1] == _SEP:  # a trailing pipe stays: what was read goes on to the next line's command
                ws.pop()
            if ws:
                count += len(ws)
                yield ws
            if count > MAX_COMMAND_WORDS:
                return


def _runnable(w: str) -> bool:
    """A word that can name a program: a script's extension, or none (`./bin/check`, `./cmd/y`)."""
    name = w.rstrip("/").rsplit("/", 1)[-1]
    return "." not in name.lstrip(".") or name.lower().endswith(_SCRIPT_EXTS)


def _bare(w: str) -> str:
    return w.rsplit("/", 1)[-1].lower()


# A line can name something a command runs only if it holds one of these: a `./` path, a
# variable-rooted path, a package manager, a script's extension, `-m`, or an interpreter with a
# path after it. One linear-time pass picks those lines; the word-by-word reading below then
# sees a few lines instead of every line of every agent file (it was most of a scan's time).
_CANDIDATE_LINE = rx(
    r"(?im)^[^\n]*(?:\./|\.\\|\$[A-Za-z_]\w*[\\/]|\$\{[^}\n]{1,90}\}[\\/]|%[A-Za-z_]+%[\\/]|\b(?:npm|pnpm|yarn|bun)\b|\s-m\s|"
    r"\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|pm|php|ps1|psm1|go|lua|r|jl|tsx|jsx|bat|cmd|"
    r"fish|nu|exs?|kts|dart|csx|awk|groovy|scala|swift|java|fsx|vbs|tcl|raku|cr|clj|bb|erl|escript|applescript|xsh|elv)\b|"
    r"\b(?:bash|sh|zsh|dash|ksh|fish|source|python[23]?|py|uv|node|nodejs|deno|ruby|perl|php|pwsh|powershell|go|"
    r"tsx|ts-node|npx|pnpx|bunx|lua|rscript|julia|poetry|pipenv|env|sudo|exec|time|nohup|xargs)\b[^\n]*[\\/]|"
    r"\bmake\s+[-\w]|\brake\s+[-\w]|\bdotnet\s+run\b|\bjust\s+[-\w]|\btask\s+[-\w:]|\bcomposer\s+[a-z]|\bgo\s+generate\b|hookspath|\bcargo\s+(?:\+\S+\s+)?(?:build|run|test|check|bench|xtask|b|r|t|c)\b|"
    r"(?:^|[^\w.])\.\s[^\n]*[\\/])[^\n]*")


def _candidate_text(text: str) -> str:
    """The lines of `text` that may hold a command naming a file (see _CANDIDATE_LINE)."""
    data = text.encode("utf-8", "surrogatepass")
    return "\n".join(m.group(0).decode("utf-8", "replace") for m in _CANDIDATE_LINE.finditer(data))


def commands(text: str, source: bool = False) -> Iterator[tuple[str, str]]:
    """(form, word) for each thing a command in `text` may run: ("path", a path written after an
    interpreter or as `./x`), ("module", a `python -m` module), ("npm", a package.json script's
    name), ("install", a package manager's install). `source`: text is a program's source code,
    where `'./x.ts'` alone is a module or an entry point a bundler is given, not a run."""
    return _commands(_candidate_text(text), source)


def _commands(text: str, source: bool = False) -> Iterator[tuple[str, str]]:
    """commands() over every line of `text` (the reference the candidate-line filter is held to)."""
    for ws in _command_lines(text):
        n = len(ws)
        head, reading = 0, False  # where the current command starts; inside a reader's arguments
        held: list[str] = []  # files a reader named: run only if what it read is piped on
        for i, w in enumerate(ws):
            if w in (_SEP, _PIPE):
                if w == _PIPE:
                    for h in held:
                        yield "path", h
                head, reading, held = i + 1, False, []
                continue
            b = _bare(w)
            if i == head and b in ("sudo", "env", "time", "nohup", "exec", "command", "builtin"):
                head = i + 1
            elif i == head:
                reading = b in _READERS
            elif reading and not (w.startswith(("-", "$", "./", ".\\", "/", "~")) or "/" in w or "." in w or w.isdigit()):
                reading = False  # a plain word ("diff ./a, then run ./b.sh"): prose, not the reader's arguments
            if b not in _HEAD_WORDS and b != "core.hookspath" and not w.startswith(("./", ".\\")) \
                    and not (i == head and ("/" in w or "\\" in w)):
                continue  # a word none of the branches below acts on (most words of most lines)
            if w.startswith(("./", ".\\")) and len(w) > 2 and "$" not in w and _runnable(w) \
                    and not (source and w.lower().rstrip("'\",);)]}").endswith(_MODULE_EXTS) and not _after_interpreter(ws, i)):
                if reading:
                    held.append(w)
                else:
                    yield "path", w
                continue
            if i == head and not source and ("/" in w or "\\" in w) and not w.startswith(("/", "~", "-", "\\")) and "$" not in w \
                    and "://" not in w and (w.lower().endswith(_SHELL_EXTS)
                                            or (w.lower().endswith(_SCRIPT_EXTS) and i + 1 < n and ws[i + 1].startswith("-"))):
                # `scripts/pr-summary.sh 42` at a command's head: the file is executed by its path (a shell
                # script's name says nothing else; another language's file with an option after it is a command line)
                yield "path", w
                continue
            if b in _PACKAGE_MANAGERS and i + 1 < n and ws[i + 1] not in (_SEP, _PIPE):
                nxt = ws[i + 1]
                at = i + 2 if nxt in ("run", "x", "exec") and i + 2 < n else i + 1
                if "/" in ws[at] and "://" not in ws[at] and "$" not in ws[at] and ws[at].lower().endswith(_SCRIPT_EXTS):
                    yield "path", ws[at]  # `bun scripts/x.ts`, `bun run tools/y.mjs`: the runtime runs a file
                    continue
                if nxt in _INSTALL or (b == "yarn" and nxt.startswith("--")):
                    yield "install", nxt
                elif nxt == "run" and i + 2 < n:
                    yield "npm", ws[i + 2]
                elif nxt == "test" or nxt == "start" or (b != "npm" and nxt not in _NPM_BUILTIN and not nxt.startswith("-")):
                    yield "npm", nxt
                continue
            if b == "yarn" and (i + 1 == n or ws[i + 1] in (_SEP, _PIPE)):
                yield "install", "yarn"
                continue
            if b == "make" and i + 1 < n:
                # `make -s check`: the Makefile's recipe for that target runs (its commands are read like a script's)
                skip = False
                for x in ws[i + 1:i + 8]:
                    if skip or x.startswith("-") or "=" in x:
                        skip = x in ("-C", "-f", "-I", "-o", "-W", "--directory", "--file", "--makefile")  # the option's value follows
                        continue
                    if x.replace("-", "").replace("_", "").replace(".", "").isalnum():
                        yield "make", x
                    break
                continue
            if b == "rake" and (i == head or ws[i - 1] == "exec") and i + 1 < n:
                # `bin/rake assets:sync`, `bundle exec rake db:seed`: the task's Ruby (a Rakefile or a .rake file) runs
                skip = False
                for x in ws[i + 1:i + 8]:
                    if x in (_SEP, _PIPE):
                        break
                    if skip or x.startswith("-") or "=" in x:
                        skip = x in ("-f", "-C", "-I", "-r", "-R", "--rakefile", "--directory", "--libdir", "--require", "--rakelibdir")
                        continue
                    if x.replace("-", "").replace("_", "").replace(":", "").isalnum():
                        yield "rake", x
                    break
                continue
            if b == "dotnet" and i + 1 < n and ws[i + 1] == "run":
                # `dotnet run --project tools/Diag`: the project's C# sources are compiled and run (no --project: the folder's)
                proj = "."
                for k in range(i + 2, min(n, i + 10)):
                    if ws[k] in (_SEP, _PIPE) or ws[k] == "--":
                        break
                    if ws[k] in ("--project", "-p") and k + 1 < n:
                        proj = ws[k + 1]
                    elif ws[k].startswith("--project="):
                        proj = ws[k].split("=", 1)[1]
                if "$" not in proj and "://" not in proj:
                    yield "dotnet", proj
                continue
            if b in ("just", "task") and i == head and i + 1 < n and ws[i + 1] not in (_SEP, _PIPE):
                # `just bootstrap`, `task setup:win`: the justfile's recipe / the Taskfile's task runs (read as shell);
                # only a name the file defines is followed (prose "just run it" names no recipe)
                skip = False
                for x in ws[i + 1:i + 8]:
                    if x in (_SEP, _PIPE):
                        break
                    if skip or x.startswith("-"):
                        skip = x in ("-f", "-d", "-t", "--justfile", "--working-directory", "--taskfile", "--dir")
                        continue
                    if x.replace("-", "").replace("_", "").replace(":", "").replace(".", "").isalnum():
                        yield b, x
                    break
                continue
            if b == "cargo" and i + 1 < n:
                # `cargo build`/`test`/`run`: cargo compiles and runs the crate's build script first; `run` then
                # runs the binary (`-p NAME`: that package's). Yielded as "cargo", "SUB[:NAME]".
                sub, pkg, k = "", "", i + 1
                while k < n and k < i + 12 and ws[k] not in (_SEP, _PIPE):
                    x = ws[k]
                    if not sub and x.startswith("+"):
                        pass
                    elif not sub:
                        sub = x
                    elif x in ("-p", "--package", "--bin") and k + 1 < n:
                        pkg = ws[k + 1]
                        k += 1
                    elif x.startswith(("--package=", "--bin=")):
                        pkg = x.split("=", 1)[1]
                    k += 1
                if sub in _CARGO_BUILDS:
                    yield "cargo", f"{_CARGO_BUILDS[sub]}:{pkg.strip(chr(39) + chr(34))}"
                elif sub == "xtask":  # the xtask convention: `cargo xtask ...` is `cargo run -p xtask -- ...`
                    yield "cargo", "xtask:xtask"
                continue
            if b == "go" and i + 1 < n and ws[i + 1] == "generate":
                # `go generate ./...`: go runs the `//go:generate` commands of the packages named (`-n` only prints them)
                args = [x for x in ws[i + 2:i + 10] if x not in (_SEP, _PIPE)]
                stop = next((k for k, x in enumerate(ws[i + 2:i + 10]) if x in (_SEP, _PIPE)), None)
                if stop is not None:
                    args = ws[i + 2:i + 2 + stop]
                if "-n" not in args:
                    pkgs = [x for x in args if not x.startswith("-") and "$" not in x and "://" not in x
                            and (x.startswith(".") or "/" in x)]
                    for x in pkgs[:5] or ["."]:
                        yield "gogenerate", x
                continue
            if b == "composer" and i + 1 < n and ws[i + 1] not in (_SEP, _PIPE) and not ws[i + 1].startswith("-") \
                    and ws[i + 1] not in _COMPOSER_QUIET:
                yield "composer", ws[i + 1]  # install/update/run X/a script's name: composer.json's scripts run
                continue
            if w.lower() == "core.hookspath" and i + 1 < n and "$" not in ws[i + 1] and "://" not in ws[i + 1]:
                yield "hooks", ws[i + 1]  # git runs every hook of that folder on commit, checkout, push
                continue
            if b not in _INTERPRETERS:
                continue
            j = i + 1
            while j < n and j < i + 6:
                x = ws[j]
                if x in ("-m",) and b.startswith("python") and j + 1 < n:
                    yield "module", ws[j + 1]
                    break
                if x.startswith("-") or x in _SKIP_WORDS:
                    j += 1
                    continue
                if "://" not in x and "$" not in x and _runnable(x) and ("/" in x or "\\" in x or x.lower().endswith(_SCRIPT_EXTS)):
                    # `go run ./cmd/y` runs a package: a folder's Go files. Elsewhere a path is a file.
                    yield ("package" if b == "go" and "run" in ws[i + 1:j] else "path"), x
                    break
                if not ws[j - 1].startswith("-"):
                    break
                j += 1  # an option's value (`-ExecutionPolicy Bypass -File x.ps1`)


# Every word _commands acts on by its bare name: the rest are passed over at once.
_HEAD_WORDS = _INTERPRETERS | _PACKAGE_MANAGERS | {"make", "dotnet", "just", "task", "cargo", "go", "composer", "rake"}


def _after_interpreter(ws: list[str], i: int) -> bool:
    """The word before ws[i] ends with an interpreter's name, also inside a call's string
    (`execSync('node ./x.js')`)."""
    if i == 0:
        return False
    prev = ws[i - 1]
    for mark in ("'", '"', "`", "(", "["):
        prev = prev.rsplit(mark, 1)[-1]
    return _bare(prev) in _INTERPRETERS


def _package_scripts(text: str) -> dict[str, str]:
    data = _parse(text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return {}
    return {k: v for k, v in scripts.items() if isinstance(k, str) and isinstance(v, str)}


def _bases(path: str) -> list[str]:
    """The top of the repository (the agent's working folder), then the file's folder and each above it."""
    out = [""]
    d = posixpath.dirname(path)
    while d:
        out.append(d)
        d = posixpath.dirname(d)
    return out


def _resolve(base: str, written: str, files: set[str], dirs: dict[str, list[str]]) -> list[str]:
    if written.startswith("/") or written.startswith("~"):
        return []
    p = posixpath.normpath(posixpath.join(base, written.replace("\\", "/")))
    if p == ".." or p.startswith("../") or p == ".":
        return []
    if p in files:
        return [p]
    if p in dirs:  # `go run ./cmd/y`: the package's Go files
        return dirs[p]
    return []


def agent_runs(starts: Iterable[str], read, files: set[str]) -> list[tuple[str, str]]:
    """(file, agent file that runs it) for the repository files the commands of the agent files
    `starts` run, up to AGENT_MAX_HOPS hops and AGENT_MAX_FILES files per agent file.
    `read(path)` -> text or None; `files`: every file of the repository."""
    dirs: dict[str, list[str]] = {}
    for f in files:
        if f.endswith(".go") and not f.endswith("_test.go"):
            lst = dirs.setdefault(posixpath.dirname(f), [])
            if len(lst) < 20:
                lst.append(f)
    for lst in dirs.values():
        lst.sort()
    packages: dict[str, dict[str, str]] = {}
    crates: dict[str, tuple[str, str, str]] = {}  # Cargo.toml -> (package name, build script, binary), read once
    manifests: list[str] | None = None  # the repository's Cargo.toml files, once a cargo command asks
    rakefiles: list[str] | None = None  # the repository's Rakefiles and .rake files, once a rake command asks
    gofiles: list[str] | None = None  # the repository's Go files, sorted, once a go generate asks
    go_texts: dict[str, str | None] = {}  # each Go file read once, whatever module or command asks

    def read_go(path: str) -> str | None:
        if path not in go_texts:
            go_texts[path] = read(path)
        return go_texts[path]

    def scripts_of(folder: str) -> tuple[str, dict[str, str]] | None:
        """The nearest package.json at or above `folder` (the top last)."""
        pj = _nearest(folder, files, "package.json")
        if pj is None:
            return None
        if pj not in packages:
            t = read(pj)
            packages[pj] = _package_scripts(t) if t else {}
        return posixpath.dirname(pj), packages[pj]

    out: list[tuple[str, str]] = []
    taken: set[str] = set()
    for start in starts:
        # A Go module's go.mod stands for `go generate ./...` in its folder (GO_MODULE at the top: a tree
        # with Go files and no go.mod of its own); its file need not exist or hold anything.
        text = "module" if posixpath.basename(start) == GO_MODULE else read(start)
        if not text:
            continue
        count = 0
        queue: list[tuple[str, str, int]] = [(start, text, 0)]
        ran_by: dict[str, str] = {}  # a file a go:generate directive runs: run by the Go file holding it
        while queue and count < AGENT_MAX_FILES:
            here, body, depth = queue.pop(0)
            bases = _bases(here)
            found: list[str] = []
            here_name = posixpath.basename(here)
            if here_name == "package.json":  # its install hooks run on `npm install`
                pending = [("install", "install")]  # and the hooks npm runs unasked around `npm run build`/`npm test`/`npm start`
            elif here_name == GO_MODULE and depth == 0:
                # `go generate ./...`, run in a Go module as `npm install` is in a Node project: each
                # `//go:generate` line of the module's packages runs as a command in its Go file's folder
                bases, pending = [posixpath.dirname(here)], [("gogenerate", "./...")]
            elif here_name == "composer.json" and depth == 0 and "/vendor/" not in "/" + here:  # only the root package's scripts run
                # `composer install`, run in a PHP project as `npm install` is in a Node one: composer fires the
                # root package's install, update and autoload-dump events (composer_as_shell's INSTALL_EVENTS)
                shell = composer_as_shell(body, COMPOSER_INSTALL_EVENTS)
                pending = []
                if shell.strip():
                    found.append(here)
                    folder = posixpath.dirname(here)
                    for f2, w2 in commands(shell):
                        if f2 in ("path", "package") and folder and not w2.startswith("/"):
                            w2 = posixpath.join(folder, w2)
                        if f2 not in ("install", "make", "composer"):
                            pending.append((f2, w2))
            elif here_name in BUILD_HOOK_CONFIGS and depth == 0:
                # `pip install .`, `uv sync`, `hatch build`: the build backend runs the project's build hooks
                bases, pending = [posixpath.dirname(here)], [("path", h) for h in build_hooks(here_name, body)]
            else:
                pending = list(commands(body, source=here.lower().endswith(_MODULE_EXTS)))
            expanded = 0
            while pending and expanded < 64:
                form, word = pending.pop(0)
                if form in ("path", "package"):
                    for base in bases:
                        hit = _resolve(base, word, files, dirs if form == "package" else {})
                        if hit:
                            found.extend(hit)
                            break
                elif form == "hooks":
                    for base in bases:
                        d = posixpath.normpath(posixpath.join(base, word.rstrip("/")))
                        hooks = [f for f in files if posixpath.dirname(f) == d and posixpath.basename(f) in _GIT_HOOKS]
                        if hooks:
                            found.extend(sorted(hooks))
                            break
                elif form == "make":
                    mk = _makefile_of(posixpath.dirname(here), files)
                    t = read(mk) if mk else None
                    if t and _may_define(t, word):
                        expanded += 1
                        found.append(mk)  # the recipe's commands are the Makefile's to answer for (read as shell)
                        folder = posixpath.dirname(mk)
                        for f2, w2 in commands(_recipe(t, word)):
                            if f2 in ("path", "package") and folder and not w2.startswith("/"):
                                w2 = posixpath.join(folder, w2)
                            if f2 not in ("install", "make"):
                                pending.append((f2, w2))
                elif form == "dotnet":
                    for base in bases:
                        d = posixpath.normpath(posixpath.join(base, word.replace("\\", "/")))
                        if d.endswith(".csproj"):
                            d = posixpath.dirname(d)
                        d = "" if d == "." else d
                        if d == ".." or d.startswith("../"):
                            continue
                        cs = sorted(f for f in files if posixpath.dirname(f) == d and f.endswith(".cs"))[:20]
                        if cs and any(posixpath.dirname(f) == d and f.endswith(".csproj") for f in files) or (cs and word != "."):
                            found.extend(cs)
                            break
                elif form in ("just", "task"):
                    names = JUSTFILE_NAMES if form == "just" else TASKFILE_NAMES
                    tf = _nearest(posixpath.dirname(here), files, *names)
                    t = read(tf) if tf else None
                    body = (_just_recipe(t, word) if form == "just" else _task_commands(t, word)) if t else None
                    if body is not None:
                        expanded += 1
                        found.append(tf)  # the recipe's commands are the file's to answer for (read as shell)
                        folder = posixpath.dirname(tf)
                        for f2, w2 in commands(body):
                            if f2 in ("path", "package") and folder and not w2.startswith("/"):
                                w2 = posixpath.join(folder, w2)
                            if f2 not in ("install", "make", "just", "task"):
                                pending.append((f2, w2))
                elif form == "rake":
                    if rakefiles is None:  # listed once: the Rakefiles and the .rake files of the repository
                        rakefiles = sorted(f for f in files if f.endswith(".rake") or posixpath.basename(f) in RAKEFILE_NAMES)[:200]
                    for rf in rakefiles:
                        t = read(rf)
                        if t and _defines_rake_task(t, word):
                            expanded += 1
                            found.append(rf)  # the task's Ruby is the file's to answer for (read as Ruby)
                            found.extend(_rake_loads(rf, t, files))  # and what the file loads runs with every task
                elif form == "gogenerate":
                    if gofiles is None:  # listed once, sorted: each module's files are a range of it
                        gofiles = sorted(f for f in files if f.endswith(".go"))
                    for gofile, line in _go_generate_lines(word, bases, files, read_go, gofiles):
                        expanded += 1
                        if here_name == GO_MODULE and "/vendor/" not in "/" + gofile and go_runs_remote(line):  # `./...` matches no vendor folder
                            found.append(gofile)  # the directive's own command line fetches and runs a module: graded as shell
                        for f2, w2 in commands(line):
                            if f2 in ("path", "package"):
                                hit = _resolve(posixpath.dirname(gofile), w2, files, dirs if f2 == "package" else {})
                                found.extend(hit)
                                if here_name == GO_MODULE:
                                    ran_by.update((h, gofile) for h in hit if h not in ran_by)
                elif form == "composer":
                    cj = _nearest(posixpath.dirname(here), files, "composer.json")
                    t = read(cj) if cj else None
                    if t:
                        expanded += 1
                        found.append(cj)  # its scripts' commands are composer.json's to answer for (read as shell)
                        folder = posixpath.dirname(cj)
                        for f2, w2 in commands(composer_as_shell(t)):
                            if f2 in ("path", "package") and folder and not w2.startswith("/"):
                                w2 = posixpath.join(folder, w2)
                            if f2 not in ("install", "make", "composer"):
                                pending.append((f2, w2))
                elif form == "cargo":
                    if manifests is None:  # listed once: each cargo command sorted the whole file list again
                        manifests = cargo_manifests(files)
                    found.extend(_cargo_runs(word, posixpath.dirname(here), files, read, crates, manifests))
                elif form == "module":
                    mod = word.replace(".", "/")
                    for cand in (f"{mod}.py", f"{mod}/__main__.py"):
                        if cand in files:
                            found.append(cand)
                            break
                else:
                    pkg = scripts_of(posixpath.dirname(here))
                    if pkg is None:
                        continue
                    folder, scripts = pkg
                    names = (_LIFECYCLE + _HIDDEN_HOOKS if posixpath.basename(here) == "package.json" else _LIFECYCLE) \
                        if form == "install" else (f"pre{word}", word, f"post{word}")
                    for name in names:
                        cmd = scripts.get(name)
                        if cmd:
                            expanded += 1
                            if posixpath.basename(here) != "package.json":
                                # the scripts' inline commands are package.json's to answer for (as composer.json's):
                                # `npm install` in an agent file runs its postinstall line as written
                                found.append(f"{folder}/package.json" if folder else "package.json")
                            for f2, w2 in commands(cmd):
                                if f2 in ("path", "package") and folder and not w2.startswith("/"):
                                    w2 = posixpath.join(folder, w2)
                                if f2 != "install":
                                    pending.append((f2, w2))
            for p in found:
                if p in taken or (p == start and here_name != "composer.json") or count >= AGENT_MAX_FILES:
                    continue
                t = read(p)
                if t is None:  # a binary or a link leaving the repository: nothing to read as a script
                    continue
                taken.add(p)
                count += 1
                out.append((p, ran_by.get(p, start)))
                if depth + 1 < AGENT_MAX_HOPS and t and posixpath.basename(p) not in RECIPE_FILE_NAMES:
                    queue.append((p, t, depth + 1))
    return out


GO_MODULE = "go.mod"
_GO_MODULES = 20  # go.mod files taken as starts


def go_module_starts(files: Iterable[str]) -> list[str]:
    """The starts that stand for `go generate ./...` (agent_runs): each go.mod's path, or `go.mod` at
    the top for a tree that holds Go files and no go.mod (a module checked out without its root, a
    GOPATH layout): go generate is run in a Go module as `npm install` is in a Node project."""
    mods, anygo = [], False
    for f in files:
        if posixpath.basename(f) == GO_MODULE:
            mods.append(f)
        elif not anygo and f.endswith(".go"):
            anygo = True
    # the shallowest first: a repository's own modules before the test fixtures nested in them
    return sorted(mods, key=lambda m: (m.count("/"), m))[:_GO_MODULES] or ([GO_MODULE] if anygo else [])


# Project files whose build backend runs a file of the repository on `pip install .`, `uv sync`,
# `python -m build`, `hatch build`: hatchling's custom build and metadata hooks (pyproject.toml's
# [tool.hatch...], hatch.toml's own tables), each `hatch_build.py` unless a `path` says otherwise;
# pdm-backend's build hook (`pdm_build.py`, or [tool.pdm.build]'s `custom-hook`).
BUILD_HOOK_CONFIGS = frozenset({"pyproject.toml", "hatch.toml"})


def build_hooks(name: str, text: str) -> list[str]:
    """The hook files a pyproject.toml or hatch.toml has its build backend run (relative to its folder);
    parsed as TOML data, never run."""
    if "custom" not in text and "pdm.backend" not in text:  # most project files are never parsed
        return []
    import tomllib

    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, ValueError, TypeError, RecursionError):
        return []
    out: list[str] = []
    hatch = data
    if name == "pyproject.toml":
        tool = data.get("tool")
        hatch = tool.get("hatch") if isinstance(tool, dict) else None
        system = data.get("build-system")
        backend = system.get("build-backend") if isinstance(system, dict) else None
        if isinstance(backend, str) and backend.startswith("pdm.backend"):
            # pdm-backend runs `pdm_build.py` beside pyproject.toml, or [tool.pdm.build]'s custom-hook
            pdm = tool.get("pdm") if isinstance(tool, dict) else None
            build = pdm.get("build") if isinstance(pdm, dict) else None
            hook = build.get("custom-hook", "pdm_build.py") if isinstance(build, dict) else "pdm_build.py"
            if isinstance(hook, str) and hook and "://" not in hook:
                out.append(hook)
    if not isinstance(hatch, dict):
        return out
    tables = []
    for section in ("build", "metadata"):
        sec = hatch.get(section)
        if not isinstance(sec, dict):
            continue
        tables.append(sec.get("hooks"))
        targets = sec.get("targets") if section == "build" else None
        if isinstance(targets, dict):
            tables.extend(t.get("hooks") for t in list(targets.values())[:20] if isinstance(t, dict))
    for hooks in tables:
        custom = hooks.get("custom") if isinstance(hooks, dict) else None
        if isinstance(custom, dict):
            path = custom.get("path", "hatch_build.py")
            if isinstance(path, str) and path and "://" not in path and path not in out:
                out.append(path)
    return out


def _crate(manifest: str, read, crates: dict) -> tuple[str, str, str]:
    """(package name, build script path, main binary path) of a Cargo.toml, parsed as TOML data (never run)."""
    got = crates.get(manifest)
    if got is None:
        import tomllib

        folder = posixpath.dirname(manifest)
        try:
            data = tomllib.loads(read(manifest) or "")
        except (tomllib.TOMLDecodeError, ValueError, TypeError, RecursionError):
            data = {}
        pkg = data.get("package") if isinstance(data.get("package"), dict) else {}
        build = pkg.get("build", "build.rs") if pkg else ""
        bins = data.get("bin") if isinstance(data.get("bin"), list) else []
        main = next((b.get("path") for b in bins if isinstance(b, dict) and isinstance(b.get("path"), str)), "src/main.rs") if pkg else ""
        name = pkg.get("name") if isinstance(pkg.get("name"), str) else ""
        got = crates[manifest] = (name, posixpath.join(folder, build) if isinstance(build, str) and build else "",
                                  posixpath.join(folder, main) if main else "")
    return got


def cargo_manifests(files: set[str]) -> list[str]:
    return sorted(f for f in files if posixpath.basename(f) == "Cargo.toml")[:200]


def _cargo_runs(word: str, folder: str, files: set[str], read, crates: dict, manifests: list[str]) -> list[str]:
    """Files a `cargo build|test|run [-p NAME]` runs: the build scripts of the crates it compiles (the
    nearest Cargo.toml at or above `folder`, or, for a workspace or the top of the repository, every
    crate's), and for `run` the binary's main source. `-p NAME` picks the crate of that name anywhere
    in the repository (a reviewer reads it the same way)."""
    sub, _, name = word.partition(":")
    if sub == "xtask":  # the crate called xtask (its binary and build script); a bare xtask/src/main.rs is read as one
        own = [m for m in manifests if _crate(m, read, crates)[0] == "xtask"][:1]
        if own:
            _, build, main = _crate(own[0], read, crates)
            return [p for p in (build, main) if p and p in files]
        d = folder
        while True:
            m = f"{d}/xtask/src/main.rs" if d else "xtask/src/main.rs"
            if m in files:
                return [m]
            if not d:
                return []
            d = posixpath.dirname(d)
    if not manifests:
        return []
    picked: list[str] = []
    if name:
        picked = [m for m in manifests if _crate(m, read, crates)[0] == name][:1]
    else:
        d = folder
        while True:
            m = f"{d}/Cargo.toml" if d else "Cargo.toml"
            if m in files:
                picked = [m]
                break
            if not d:
                break
            d = posixpath.dirname(d)
        if picked and not _crate(picked[0], read, crates)[0]:  # a virtual workspace manifest: every member is built
            top = posixpath.dirname(picked[0])
            picked = [m for m in manifests if not top or m.startswith(top + "/")]
    out: list[str] = []
    for m in picked[:_CARGO_MAX]:
        _, build, main = _crate(m, read, crates)
        if build and build in files:
            out.append(build)
        if sub == "run" and main and main in files and (name or m == picked[0]):
            out.append(main)
    return out


_GIT_HOOKS = frozenset({"pre-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
                        "post-merge", "pre-push", "post-rewrite", "pre-auto-gc", "reference-transaction", "post-index-change",
                        "fsmonitor-watchman", "pre-merge-commit", "push-to-checkout", "applypatch-msg", "pre-applypatch", "post-applypatch"})


def _makefile_of(folder: str, files: set[str]) -> str | None:
    """The nearest Makefile at or above `folder`."""
    return _nearest(folder, files, "Makefile", "makefile", "GNUmakefile")


def _recipe(text: str, target: str, limit: int = 60) -> str:
    """The recipe lines (tab-indented) of `target` in a Makefile's text, and of the targets it depends on (one level)."""
    lines = text.split("\n")[:5000]
    def body(t: str) -> tuple[list[str], list[str]]:
        out: list[str] = []
        deps: list[str] = []
        for i, ln in enumerate(lines):
            if ln[:1] in ("\t", " ", "#") or ":" not in ln:
                continue
            head, _, rest = ln.partition(":")
            if t in head.split() and not rest.startswith("="):
                deps = rest.split(";", 1)[0].split()[:10]
                for r in lines[i + 1:i + 1 + limit]:
                    if not r.startswith("\t"):
                        break
                    out.append(r.strip().lstrip("@-+"))
                break
        return out, deps
    own, deps = body(target)
    for d in deps:
        own += body(d)[0]
    return "\n".join(own)


def _may_define(text: str, target: str) -> bool:
    """Make has a rule for `target` in this Makefile, or may have one it cannot be sure of
    (pattern rules, included files, targets built from variables): "to make this failure
    explicit" in a comment names no target a Makefile has, and make runs nothing for it."""
    for ln in text.split("\n")[:5000]:
        if ln[:1] in ("\t", " ", "#") or ":" not in ln:
            if ln.startswith(("include ", "-include ", "sinclude ")):
                return True
            continue
        head, _, rest = ln.partition(":")
        if rest.startswith("="):
            continue
        names = head.split()
        if target in names or any("%" in n or "$" in n for n in names):
            return True
    return False


MAKEFILE_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile"})
JUSTFILE_NAMES = ("justfile", "Justfile", ".justfile", "JUSTFILE")
TASKFILE_NAMES = ("Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml", "Taskfile.dist.yaml")
# Files whose recipes an agent file's command runs, read as the shell those recipes run (never queued as a script).
RECIPE_FILE_NAMES = MAKEFILE_NAMES | {"composer.json", "package.json"} | set(JUSTFILE_NAMES) | set(TASKFILE_NAMES)


def _just_heads(text: str) -> dict[str, tuple[int, list[str]]]:
    """A justfile's recipes: name -> (line index of its header, the recipes it depends on). A header is an
    unindented `name param*: dep*` line (not `:=`, not a setting or an attribute)."""
    out: dict[str, tuple[int, list[str]]] = {}
    for i, ln in enumerate(text.split("\n")[:5000]):
        if not ln or ln[0] in " \t#[" or ":" not in ln or ln.startswith(("set ", "export ", "alias ", "import ", "mod ")):
            continue
        head, _, rest = ln.partition(":")
        if rest.startswith("=") or not head.strip():
            continue
        words_ = head.split()
        name = words_[0].lstrip("@_") or words_[0]
        if name.replace("-", "").replace("_", "").isalnum():
            out.setdefault(words_[0].lstrip("@"), (i, [d.split("(")[0] for d in rest.split("#", 1)[0].split()[:10]]))
    return out


def _just_body(lines: list[str], at: int, limit: int = 60) -> list[str]:
    out: list[str] = []
    for r in lines[at + 1:at + 1 + limit]:
        if r and r[0] not in " \t":
            break
        out.append(r.strip().lstrip("@-").replace("{{", "${").replace("}}", "}"))
    return out


def _just_recipe(text: str, name: str) -> str | None:
    """The commands of recipe `name` of a justfile (and of the recipes it depends on, one level), or None:
    the file has no such recipe."""
    heads = _just_heads(text)
    if name not in heads:
        return None
    lines = text.split("\n")[:5000]
    at, deps = heads[name]
    own = _just_body(lines, at)
    for d in deps:
        if d in heads and d != name:
            own = _just_body(lines, heads[d][0]) + own
    return "\n".join(own)


def is_dockerfile(name: str) -> bool:
    """Dockerfile, Containerfile, Dockerfile.dev, dev.Dockerfile: a container build file by name."""
    low = name.lower()
    return low in ("dockerfile", "containerfile") or low.startswith(("dockerfile.", "containerfile.")) or low.endswith(".dockerfile")


_DOCKER_SHELL = frozenset({"RUN", "CMD", "ENTRYPOINT"})


def _docker_exec_form(rest: str) -> str | None:
    """`["sh", "-c", "a && b"]` as the shell it runs; `["node", "x.js"]` as a command line. None: not exec form."""
    if not rest.startswith("["):
        return None
    try:
        argv = json.loads(rest)
    except ValueError:
        return None
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) for a in argv):
        return None
    if len(argv) >= 3 and posixpath.basename(argv[0]) in ("sh", "bash", "ash", "dash", "zsh") and argv[1] in ("-c", "-lc", "-ec", "-ce"):
        return argv[2].replace("\n", " ; ")
    return " ".join("'" + a.replace("'", "'\\''") + "'" if not a.replace("-", "").replace("_", "").replace(".", "").replace("/", "").isalnum() else a
                    for a in argv)


def dockerfile_as_shell(text: str) -> str:
    """A Dockerfile read as the shell its RUN, CMD and ENTRYPOINT lines run, line for line (line numbers
    kept): shell form as written (continuation lines kept), exec form (`["sh", "-c", "..."]`) as the command
    it runs, `ENV K=V`/`ARG K=V` as assignments, every other line blank. A dev container's image is built and
    started with the user's workspace mounted when the folder is opened."""
    out: list[str] = []
    cont = False
    for ln in text.split("\n"):
        if cont:
            out.append(ln)
            cont = ln.rstrip().endswith("\\")
            continue
        s = ln.strip()
        word, _, rest = s.partition(" ")
        op = word.upper()
        rest = rest.strip()
        if op in _DOCKER_SHELL and rest:
            while rest.startswith("--") and " " in rest:  # RUN --mount=type=cache,target=/x cmd
                rest = rest.split(" ", 1)[1].lstrip()
            form = _docker_exec_form(rest)
            out.append(form.replace("\n", " ; ") if form is not None else rest)
            cont = form is None and rest.rstrip().endswith("\\")
        elif op in ("ENV", "ARG") and rest:
            if "=" in rest.split(" ", 1)[0]:
                out.append("export " + rest if op == "ENV" else rest.split(" ", 1)[0])
            else:
                k, _, v = rest.partition(" ")
                out.append(f"export {k}={v.strip()}" if v.strip() and k.replace("_", "").isalnum() else "")
            cont = rest.rstrip().endswith("\\")
        else:
            out.append("")
            cont = s.endswith("\\") and bool(s) and not s.startswith("#")
    return "\n".join(out)


def justfile_as_shell(text: str) -> str:
    """A justfile read as the shell its recipes run, line for line (line numbers kept): recipe lines without
    their indentation and `@-` prefixes (`{{x}}` -> `${x}`), `x := v` as a shell assignment, every other
    line blank."""
    out: list[str] = []
    for ln in text.split("\n"):
        if ln[:1] in (" ", "\t") and ln.strip():
            out.append(ln.strip().lstrip("@-").replace("{{", "${").replace("}}", "}"))
            continue
        s = ln.strip()
        if s.startswith("export "):
            s = s[7:].lstrip()
        name, op, value = s.partition(":=")
        if op and name.strip().replace("_", "").replace("-", "").isalnum():
            v = value.strip()
            if v[:1] == "`" and v[-1:] == "`" and len(v) > 1:
                v = "$(" + v[1:-1] + ")"
            out.append(f"{name.strip().replace('-', '_')}={v}")
        else:
            out.append("")
    return "\n".join(out)


def _taskfile(text: str) -> dict:
    import yaml

    try:
        data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # noqa: S506 - a safe loader, data only
    except (yaml.YAMLError, ValueError, RecursionError):
        return {}
    tasks = data.get("tasks") if isinstance(data, dict) else None
    return tasks if isinstance(tasks, dict) else {}


def _task_cmds(task) -> tuple[list[str], list[str]]:
    """(commands, dependencies) of one Taskfile task: `cmds` items (a string, `cmd:`), a bare string or list task."""
    if isinstance(task, str):
        return [task], []
    if isinstance(task, list):
        task = {"cmds": task}
    if not isinstance(task, dict):
        return [], []
    cmds: list[str] = []
    deps: list[str] = []
    for c in (task.get("cmds") if isinstance(task.get("cmds"), list) else [task.get("cmd")])[:100]:
        if isinstance(c, str):
            cmds.append(c)
        elif isinstance(c, dict):
            if isinstance(c.get("cmd"), str):
                cmds.append(c["cmd"])
            elif isinstance(c.get("task"), str):
                deps.append(c["task"])
    for d in (task.get("deps") if isinstance(task.get("deps"), list) else [])[:20]:
        d = d.get("task") if isinstance(d, dict) else d
        if isinstance(d, str):
            deps.append(d)
    return cmds, deps


def _task_commands(text: str, name: str) -> str | None:
    """The commands of Taskfile task `name` (and of the tasks it depends on or calls, one level), or None."""
    tasks = _taskfile(text)
    if name not in tasks:
        return None
    own, deps = _task_cmds(tasks[name])
    for d in deps:
        if d in tasks and d != name:
            own = _task_cmds(tasks[d])[0] + own
    return "\n".join(c.replace("{{.", "${").replace("}}", "}") for c in own)


def taskfile_as_shell(text: str) -> str:
    """A Taskfile read as the shell its tasks run, line for line (line numbers kept): a line holding one of
    the tasks' commands (`- cmd`, `cmd: cmd`) becomes that command, every other line blank. Parsed as YAML
    data, never run; a block scalar's commands keep their own lines."""
    wanted: set[str] = set()
    for t in list(_taskfile(text).values())[:500]:
        for c in _task_cmds(t)[0]:
            for part in c.split("\n"):
                if part.strip():
                    wanted.add(part.strip())
    out: list[str] = []
    for ln in text.split("\n"):
        s = ln.strip()
        for pre in ("- cmd:", "cmd:", "- "):
            if s.startswith(pre):
                s = s[len(pre):].strip()
                break
        if len(s) > 1 and s[0] == s[-1] and s[0] in "'\"":
            s = s[1:-1]
        out.append(s.replace("{{.", "${").replace("}}", "}") if s in wanted or (s and s in wanted) else
                   (ln.strip().replace("{{.", "${").replace("}}", "}") if ln.strip() in wanted else ""))
    return "\n".join(out)


def _make_refs(s: str) -> str:
    """A Makefile line's references in shell spelling: `$(X)`/`${X}` -> `${X}`, `$(wildcard a b)` -> `a b`,
    `$(shell c)` -> `$(c)`, `$$` -> `$`. One pass, no regular expression."""
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c != "$" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        nx = s[i + 1]
        if nx == "$":
            out.append("$")
            i += 2
            continue
        if nx not in "({":
            out.append("${" + nx + "}" if nx.isalnum() or nx == "_" else "$" + nx)
            i += 2
            continue
        close = ")" if nx == "(" else "}"
        depth, j = 1, i + 2
        while j < n and depth:
            if s[j] == nx:
                depth += 1
            elif s[j] == close:
                depth -= 1
            j += 1
        inner = s[i + 2:j - 1] if not depth else s[i + 2:]
        head, _, rest = inner.partition(" ")
        if head in ("wildcard", "strip", "sort", "realpath", "abspath") and rest:
            out.append(_make_refs(rest))
        elif head == "shell" and rest:
            out.append("$(" + _make_refs(rest) + ")")
        elif head and all(ch.isalnum() or ch in "_." for ch in head) and not rest:
            out.append("${" + head.replace(".", "_") + "}")
        else:
            out.append("$(" + _make_refs(inner) + ")")
        i = j
    return "".join(out)


def makefile_as_shell(text: str) -> str:
    """A Makefile read as the shell its recipes run, line for line (line numbers kept): recipe lines
    without their tab and `@-+` prefixes, variable assignments as shell assignments, every other
    line blank. A setting that runs `make target` runs these commands."""
    out: list[str] = []
    for ln in text.split("\n"):
        if ln.startswith("\t"):
            out.append(_make_refs(ln.strip().lstrip("@-+ ")))
            continue
        s = ln.strip()
        if not s or s.startswith("#"):
            out.append("")
            continue
        exported = s.startswith("export ")
        if exported:
            s = s[7:].lstrip()
        name = ""
        for op in ("::=", ":=", "?=", "+=", "!=", "="):
            k = s.find(op)
            if k > 0:
                cand = s[:k].strip()
                if cand and all(ch.isalnum() or ch in "_." for ch in cand):
                    name, value = cand.replace(".", "_"), s[k + len(op):].strip()
                    if op == "!=":
                        value = "$(" + value + ")"
                break
        if not name:
            out.append("")
            continue
        value = _make_refs(value).replace("\\", "\\\\").replace('"', '\\"')
        out.append(("export " if exported else "") + f'{name}="{value}"')
    return "\n".join(out)


def _nearest(folder: str, files: set[str], *names: str) -> str | None:
    """The nearest file called one of `names` at or above `folder` (the first name wins in a folder)."""
    d = folder
    while True:
        for name in names:
            p = f"{d}/{name}" if d else name
            if p in files:
                return p
        if not d:
            return None
        d = posixpath.dirname(d)


def _composer_command(c: str) -> str:
    """A composer.json script entry as the shell command composer runs: `@php x` -> `php x`, `@composer x`
    -> `composer x`, `@putenv K=V` -> `export K=V`; a PHP callback (`Vendor\\Class::method`) or a reference
    to another script (`@test`) runs no command of its own: blank."""
    c = c.strip()
    if c.startswith("@putenv "):
        return "export " + c[8:].strip()
    for tool in ("@php ", "@composer "):
        if c.startswith(tool):
            return c[1:]
    if c.startswith("@") or (" " not in c and "::" in c):
        return ""
    return c


# Events `composer install` / `composer update` fire for the root package (getcomposer.org/doc/articles/scripts.md):
# the install/update commands, the autoloader dump both end with, and the package and operation events between.
COMPOSER_INSTALL_EVENTS = frozenset({"pre-install-cmd", "post-install-cmd", "pre-update-cmd", "post-update-cmd",
                                     "pre-autoload-dump", "post-autoload-dump", "pre-operations-exec",
                                     "pre-package-install", "post-package-install", "pre-package-update", "post-package-update"})


def composer_as_shell(text: str, events: frozenset[str] | None = None) -> str:
    """A composer.json read as the shell its scripts run, line for line (line numbers kept): a line holding
    a script's command (a `"name": "cmd"` pair or a list's `"cmd"` item) becomes that command, every other
    line blank. Parsed as JSON data, never run. `composer install` in an agent file runs these; `events`:
    only those scripts (and the scripts they call by `@name`), as composer install runs them unasked."""
    data = _parse(text)
    scripts = data.get("scripts") if isinstance(data, dict) else None
    wanted: set[str] = set()
    if isinstance(scripts, dict) and events is not None:
        names = [k for k in scripts if k in events]
        for k in list(names):
            v = scripts.get(k)
            for c in (v if isinstance(v, list) else [v])[:100]:
                if isinstance(c, str) and c.startswith("@") and c[1:].split(" ", 1)[0] in scripts:
                    names.append(c[1:].split(" ", 1)[0])  # `@other`: that script runs too (one step)
        scripts = {k: scripts[k] for k in names}
    if isinstance(scripts, dict):
        for v in list(scripts.values())[:500]:
            for c in (v if isinstance(v, list) else [v])[:100]:
                if isinstance(c, str):
                    wanted.add(c)
    out: list[str] = []
    for ln in text.split("\n"):
        s = ln.strip().rstrip(",")
        got: list[str] = []
        if wanted and s.startswith('"'):
            for wrap in ("{%s}", "[%s]"):
                try:
                    v = json.loads(wrap % s)
                except ValueError:
                    continue
                vals = list(v.values()) if isinstance(v, dict) else v
                for x in vals[:1] if isinstance(v, dict) else vals[:20]:
                    for c in (x if isinstance(x, list) else [x])[:20]:
                        if isinstance(c, str) and c in wanted:
                            got.append(_composer_command(c))
                break
        out.append(" ; ".join(g for g in got if g))
    return "\n".join(out)


def go_runs_remote(line: str) -> bool:
    """A `//go:generate` command that fetches and runs a module by path and version (`go run host/mod@v`):
    its own command line is what runs, so the Go file holding it is read as that shell (go_generate_as_shell)."""
    ws = line.split()
    for i in range(len(ws) - 2):
        if ws[i] == "go" and ws[i + 1] == "run":
            for w in ws[i + 2:i + 8]:
                if w.startswith("-"):
                    continue
                return "@" in w and "." in w.split("/", 1)[0]
    return False


def go_generate_as_shell(text: str) -> str:
    """A Go file read as the commands of its `//go:generate` lines (line numbers kept, every other line blank)."""
    return "\n".join(ln[len("//go:generate "):] if ln.startswith("//go:generate ") else "" for ln in text.split("\n"))


_GO_GENERATE_FILES = 300  # Go files read for one `go generate`


def _go_generate_lines(word: str, bases: list[str], files: set[str], read, gofiles: list[str] | None = None) -> list[tuple[str, str]]:
    """(Go file, command) for each `//go:generate` directive of the packages `go generate WORD` names:
    `./...` every package below the folder, `./x` that package, relative to the first base folder
    that has it. The command is resolved from the Go file's folder (go runs it there).
    `gofiles`: the repository's Go files, sorted (listed once by a caller that asks for several folders)."""
    recursive = word == "..." or word.endswith("/...")
    rel = word[:-3].rstrip("/") if recursive else word
    out: list[tuple[str, str]] = []
    if gofiles is None:
        gofiles = sorted(f for f in files if f.endswith(".go"))
    for base in bases:
        d = posixpath.normpath(posixpath.join(base, rel or "."))
        if d == ".." or d.startswith("../"):
            continue
        d = "" if d == "." else d
        pre = d + "/" if d else ""
        at = bisect.bisect_left(gofiles, pre)
        gos = []
        for f in gofiles[at:]:
            if not f.startswith(pre) or len(gos) >= _GO_GENERATE_FILES:
                break
            if recursive or posixpath.dirname(f) == d:
                gos.append(f)
        if not gos:
            continue
        for g in gos:
            t = read(g)
            if not t or "//go:generate" not in t:
                continue
            for ln in t.split("\n"):
                if ln.startswith("//go:generate ") and len(out) < 100:
                    out.append((g, ln[len("//go:generate "):]))
        break
    return out
