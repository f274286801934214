"""Shell commands in `.rune/` state that write to, delete from or download into system paths.

Commands come from fenced code blocks whose language is a shell (or unlabelled) and from inline
code spans. Each is tokenised by a linear scanner that respects quotes, split at `;`, `&&`,
`||`, `|` and `&`, and read by what the command does with each argument: a destination (`cp`,
`mv`, `tee`, `>`/`>>`, `curl -o`, `wget -O/-P`, `dd of=`, `tar -C`), a target it deletes or
changes (`rm`, `chmod`, `sed -i`), or a PowerShell cmdlet that writes. Reading a system file
(`cat /etc/hosts`, `source ~/.bashrc`) or writing inside the project is never reported.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Iterator

from ..document import Document

MAX_COMMAND = 4096  # characters of one command line looked at
SHELL_FENCES = frozenset({
    "", "sh", "bash", "shell", "zsh", "fish", "ksh", "console", "shell-session", "terminal", "shellsession",
    "powershell", "pwsh", "ps1", "ps", "cmd", "bat", "batch", "dos", "text", "txt",
})

# Startup files and credentials under a home folder: written there, they run or grant access later (write
# targets, so not the scripts' credential reads of scanner/data/script_sinks.yml).
HOME_TARGETS = (".ssh", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc",
                ".zshenv", ".zprofile", ".zlogin", ".kshrc", ".cshrc", ".tcshrc", ".config/fish/config.fish",
                ".config/autostart", ".gnupg", ".aws/credentials", ".netrc", ".gitconfig")
SYSTEM_ROOTS = ("/etc", "/usr", "/bin", "/sbin", "/var", "/lib", "/lib64", "/lib32", "/boot", "/opt")
SOFT_ROOTS = ("/usr/local", "/opt", "/var/tmp")  # system-wide but routine for installers: lower
WINDOWS_ROOTS = ("c:\\windows", "c:/windows", "%systemroot%", "%windir%", "$env:windir", "$env:systemroot",
                 "${env:windir}", "${env:systemroot}", "c:\\program files", "c:/program files")
HOME_PREFIXES = ("~/", "$home/", "${home}/", "/root/", "$env:userprofile\\", "$env:userprofile/", "%userprofile%\\",
                 "%userprofile%/", "~\\")

DELETE_OR_CHANGE = frozenset({"rm", "rmdir", "unlink", "shred", "truncate", "chmod", "chown", "chgrp", "chattr",
                              "touch", "mkdir", "setfacl", "tee", "remove-item", "ri", "del", "erase", "rd",
                              "set-content", "add-content", "out-file", "new-item", "clear-content", "ni", "sc", "ac"})
DESTINATION_LAST = frozenset({"cp", "mv", "install", "ln", "rsync", "scp", "copy-item", "move-item", "copy", "move",
                              "xcopy", "robocopy", "cpi", "mi", "git"})
IN_PLACE = frozenset({"sed", "perl", "gsed"})  # only with -i
OUTPUT_OPTIONS = {
    "curl": {"-o", "--output", "--output-dir"},
    "wget": {"-o", "--output-document", "-p", "--directory-prefix", "--output-file"},
    "tar": {"-c", "--directory"},
    "unzip": {"-d"},
    "invoke-webrequest": {"-outfile"}, "iwr": {"-outfile"}, "wget.exe": {"-outfile"}, "curl.exe": {"-o", "--output"},
    "invoke-restmethod": {"-outfile"}, "irm": {"-outfile"},
    "start-bitstransfer": {"-destination"}, "copy-item": {"-destination"}, "move-item": {"-destination"},
    "install": {"-t", "--target-directory"}, "cp": {"-t", "--target-directory"}, "mv": {"-t", "--target-directory"},
}
WRAPPERS = frozenset({"sudo", "doas", "exec", "command", "nohup", "time", "env", "builtin", "nice", "xargs"})


@dataclass(frozen=True)
class Token:
    text: str  # unquoted
    start: int  # offsets in the command string
    end: int
    op: bool = False  # an operator: ; && || | & > >> 2> &> <


def tokenize(cmd: str) -> list[Token]:
    """Split a command line into words and operators in one pass; quotes group, never nest."""
    tokens: list[Token] = []
    i, n = 0, min(len(cmd), MAX_COMMAND)
    while i < n:
        ch = cmd[i]
        if ch in " \t\r\n":
            i += 1
            continue
        if ch == "#" and (i == 0 or cmd[i - 1] in " \t"):
            break  # a comment
        two = cmd[i:i + 2]
        if two in ("&&", "||", ">>", "&>", "2>", "1>", ">|"):
            if two in ("2>", "1>") and cmd[i + 2:i + 3] == ">":
                tokens.append(Token(">>", i, i + 3, True))
                i += 3
                continue
            tokens.append(Token(">" if two in ("&>", "2>", "1>", ">|") else two, i, i + 2, True))
            i += 2
            continue
        if ch in ";|&><":
            tokens.append(Token(ch, i, i + 1, True))
            i += 1
            continue
        start = i
        out: list[str] = []
        while i < n and cmd[i] not in " \t\r\n;|&><":
            c = cmd[i]
            if c in "'\"":
                close = cmd.find(c, i + 1, n)
                if close < 0:
                    close = n
                out.append(cmd[i + 1:close])
                i = close + 1
                continue
            if c == "\\" and i + 1 < n and cmd[i + 1] in " \t'\"":
                out.append(cmd[i + 1])
                i += 2
                continue
            out.append(c)
            i += 1
        tokens.append(Token("".join(out), start, min(i, n)))
    return tokens


def system_target(word: str) -> tuple[str, bool] | None:
    """(what it is, soft) when a path is a protected system location, else None."""
    w = word.strip().lower()
    if not w:
        return None
    for prefix in HOME_PREFIXES:
        if w.startswith(prefix):
            rest = w[len(prefix):].replace("\\", "/")
            for t in HOME_TARGETS:
                if rest == t or rest.startswith(t + "/"):
                    return f"~/{t}", False
            return None
    if w in ("$profile", "${profile}") or w.startswith("$profile."):
        return "PowerShell profile", False
    for root in WINDOWS_ROOTS:
        if w.startswith(root):
            return root, "program files" in root
    if w.startswith("/"):
        for root in SYSTEM_ROOTS:
            if w == root or w.startswith(root + "/"):
                soft = any(w == s or w.startswith(s + "/") for s in SOFT_ROOTS)
                return root, soft
    return None


@dataclass(frozen=True)
class SystemWrite:
    start: int  # offsets in the command string
    end: int
    verb: str
    target: str
    soft: bool


def _simple_commands(tokens: list[Token]) -> Iterator[list[Token]]:
    current: list[Token] = []
    for t in tokens:
        if t.op and t.text in (";", "&&", "||", "|", "&"):
            if current:
                yield current
            current = []
        else:
            current.append(t)
    if current:
        yield current


def _analyse(words: list[Token]) -> Iterator[SystemWrite]:
    # Redirections first: any command writing its output into a system path.
    plain: list[Token] = []
    i = 0
    while i < len(words):
        t = words[i]
        if t.op and t.text in (">", ">>"):
            if i + 1 < len(words) and not words[i + 1].op:
                hit = system_target(words[i + 1].text)
                if hit:
                    yield SystemWrite(t.start, words[i + 1].end, "redirects output into", hit[0], hit[1])
            i += 2
            continue
        if t.op:
            i += 1
            continue
        plain.append(t)
        i += 1
    while plain and (plain[0].text.lower() in WRAPPERS or _is_assignment(plain[0].text)):
        plain = plain[1:]
        while plain and plain[0].text.startswith("-"):  # the wrapper's own flags
            plain = plain[1:]
    if not plain:
        return
    name = plain[0].text.lower().rsplit("/", 1)[-1]
    args = plain[1:]
    operands = [a for a in args if not a.text.startswith("-")]
    for a, value in _option_values(name, args):
        hit = system_target(value)
        if hit:
            yield SystemWrite(a.start, a.end, f"{name} writes into", hit[0], hit[1])
    if name == "dd":
        for a in args:
            if a.text.lower().startswith("of="):
                hit = system_target(a.text[3:])
                if hit:
                    yield SystemWrite(a.start, a.end, "dd writes into", hit[0], hit[1])
    if name in IN_PLACE and not any(a.text.startswith("-i") or a.text == "--in-place" or a.text.startswith("-pi") for a in args):
        return
    if name in DELETE_OR_CHANGE or name in IN_PLACE:
        for a in operands:
            hit = system_target(a.text)
            if hit:
                verb = "deletes" if name in ("rm", "rmdir", "unlink", "shred", "remove-item", "ri", "del", "erase", "rd") else "changes"
                yield SystemWrite(a.start, a.end, f"{name} {verb}", hit[0], hit[1])
    elif name in DESTINATION_LAST and operands:
        if name == "git" and (len(operands) < 3 or operands[0].text != "clone"):
            return
        dest = operands[-1]
        if len(operands) >= 2 or name in ("copy-item", "move-item"):
            hit = system_target(dest.text)
            if hit:
                yield SystemWrite(dest.start, dest.end, f"{name} writes into", hit[0], hit[1])


def _is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.replace("_", "a").isalnum()


def _option_values(name: str, args: list[Token]) -> Iterator[tuple[Token, str]]:
    """(token, value) for each output option of the command: `-o X`, `--output=X`, `-oX`."""
    opts = OUTPUT_OPTIONS.get(name)
    if not opts:
        return
    for j, a in enumerate(args):
        low = a.text.lower()
        if low in opts:
            if j + 1 < len(args):
                yield Token(a.text, a.start, args[j + 1].end), args[j + 1].text
            continue
        for o in opts:
            if o.startswith("--") and low.startswith(o + "="):
                yield a, a.text[len(o) + 1:]
            elif not o.startswith("--") and len(o) == 2 and low.startswith(o) and len(low) > 2:
                yield a, a.text[2:]


def system_writes(cmd: str) -> list[SystemWrite]:
    found: list[SystemWrite] = []
    for words in _simple_commands(tokenize(cmd)):
        found.extend(_analyse(words))
    return found


@dataclass(frozen=True)
class Command:
    text: str
    offset: int  # where text starts in the document
    inline: bool


def commands(doc: Document) -> Iterator[Command]:
    """Shell command lines of a markdown document: shell code blocks and inline code spans."""
    fence: str | None = None
    shell_block = False
    pos = 0
    for line in doc.lines:
        start = pos
        pos += len(line) + 1
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if fence is None:
            if indent <= 3 and stripped.startswith(("```", "~~~")):
                marker = stripped[0]
                run = len(stripped) - len(stripped.lstrip(marker))
                fence = marker * run
                info = stripped[run:].strip().split(" ", 1)[0].strip("{}.").lower()
                shell_block = info in SHELL_FENCES
                continue
            yield from _inline_spans(line, start)
            continue
        if stripped.startswith(fence) and not stripped.strip(fence[0]).strip():
            fence = None
            continue
        if shell_block:
            body = stripped
            offset = start + indent
            for prompt in ("$ ", "# ", "> ", "PS> ", "% "):
                if body.startswith(prompt) and prompt != "# ":
                    body, offset = body[len(prompt):], offset + len(prompt)
                    break
            yield Command(body, offset, False)


def _inline_spans(line: str, line_start: int) -> Iterator[Command]:
    """Code spans of one line: a run of N backticks up to the next run of exactly N.

    Runs are indexed by length first, so finding each closing run is a binary search and a line
    of many unmatched runs of different lengths stays O(n log n), not quadratic.
    """
    runs: list[tuple[int, int]] = []  # (start, length)
    i, n = 0, len(line)
    while True:
        i = line.find("`", i)
        if i < 0:
            break
        j = i
        while j < n and line[j] == "`":
            j += 1
        runs.append((i, j - i))
        i = j
    if len(runs) < 2:
        return
    by_length: dict[int, list[int]] = {}
    for idx, (_, length) in enumerate(runs):
        by_length.setdefault(length, []).append(idx)
    idx = 0
    while idx < len(runs):
        start, length = runs[idx]
        same = by_length[length]
        k = bisect.bisect_right(same, idx)
        if k >= len(same):
            idx += 1
            continue
        close_idx = same[k]
        close = runs[close_idx][0]
        yield Command(line[start + length:close], line_start + start + length, True)
        idx = close_idx + 1
