"""Token vocabularies of the languages read without a parser (all patterns compile under RE2).

For each language: calls that run code (EXEC), that spawn processes (SPAWN), that fetch from
the network (FETCH), that decode (DECODE), that send (SEND), that dump the environment
(ENV_DUMP) and how a secret environment variable is read (SECRET_ENV, group 1 is its name),
all from the sink table (scanner/data/script_sinks.yml, section tokens); how a variable is
assigned (ASSIGN, groups: name, right-hand side), its string literals and direct one-statement
shapes are syntax, kept here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ...matching import Regex, rx
from ...models import Severity
from .. import fact_kinds as K
from .. import sink_table as T


@dataclass(frozen=True)
class Vocabulary:
    exec_: Regex
    spawn: Regex
    fetch: Regex
    decode: Regex
    send: Regex
    env_dump: Regex
    secret_env: Regex
    assign: Regex
    strings: Regex
    direct: tuple[tuple[str, Regex, Severity, str], ...] = field(default_factory=tuple)


# Vocabulary field -> the role's key in the sink table's tokens section.
_ROLES = {"exec_": "exec", "spawn": "spawn", "fetch": "fetch", "decode": "decode", "send": "send", "env_dump": "env_dump",
          "secret_env": "secret_env"}


def _calls(language: str) -> dict[str, Regex]:
    """A language's call patterns from the sink table (scanner/data/script_sinks.yml, section tokens)."""
    return {field: rx(T.pattern("tokens", language, role)) for field, role in _ROLES.items()}


_DQ = r'"(?:[^"\\\n]|\\.)*"'
_SQ = r"'(?:[^'\\\n]|\\.)*'"
_BT = r"`(?:[^`\\]|\\.)*`"

JS = Vocabulary(
    **_calls("javascript"),
    assign=rx(r"(?m)(?:\b(?:const|let|var)\s+|^\s*|\bthis\.)([A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*|\[[^\]\n]{0,80}\])*\s*=(?:[^=>\n]|=>)([^;\n]*)"),
    strings=rx(f"{_DQ}|{_SQ}|{_BT}"),
    direct=(
        (K.REMOTE_EXEC, rx(r"\bimport\s*\(\s*['\"`]https?://|\brequire\s*\(\s*['\"`]https?://"), Severity.HIGH, "Module loaded from a URL at run time"),
        (K.REVERSE_SHELL, rx(r"(?s)net\.(?:connect|Socket|createConnection).{0,800}(?:spawn|exec)\s*\(\s*['\"](?:/bin/)?(?:ba)?sh['\"]"), Severity.CRITICAL, "Network socket wired to a shell (reverse shell)"),
    ),
)

POWERSHELL = Vocabulary(
    **_calls("powershell"),
    assign=rx(r"(?m)^\s*\$([A-Za-z_][\w]*)\s*=\s*([^\n;]*)"),
    strings=rx(f"{_DQ}|{_SQ}"),
    direct=(
        (K.DEFENSE_EVASION, rx(r"(?i)(?:set-mppreference\s+[^\n]{0,80}-disable\w*\s+\$?true|add-mppreference\s+-exclusion|amsiutils|amsiinitfailed|clear-eventlog|wevtutil\s+cl|remove-item[^\n]{0,80}(?:consolehost_history|\\logs\\))"), Severity.MEDIUM, "Disables defences or removes logs"),
        (K.PERSISTENCE, rx(r"(?i)(?:currentversion\\run\b|register-scheduledtask|new-scheduledtask|schtasks(?:\.exe)?\s+/create|\\start menu\\programs\\startup)"), Severity.HIGH, "Registers itself to run at start-up"),
        (K.REVERSE_SHELL, rx(r"(?i)net\.sockets\.tcpclient(?s:.{0,800})(?:iex|invoke-expression)"), Severity.CRITICAL, "TCP client feeding received text to Invoke-Expression (reverse shell)"),
    ),
)

_SCRIPTING_STRINGS = rx(f"{_DQ}|{_SQ}")

RUBY = Vocabulary(
    **_calls("ruby"),
    assign=rx(r"(?m)^\s*@?([a-z_][\w]*)(?:\[[^\]\n]{0,80}\])*\s*(?:\+|<<|\|\|)?=(?:[^=~>\n])([^\n;]*)"),  # `out += `...``, `out <<= x`, `report[:netrc] = ...` fills report
    strings=_SCRIPTING_STRINGS,
)

PERL = Vocabulary(
    **_calls("perl"),
    assign=rx(r"(?m)^\s*(?:my\s+|our\s+)?\$([A-Za-z_]\w*)\s*\.?=\s*([^\n;]*)"),  # `$out .= `...``: adds to what $out carries
    strings=_SCRIPTING_STRINGS,
)

PHP = Vocabulary(
    **_calls("php"),
    direct=(
        (K.REMOTE_EXEC, rx(r"(?i)\b(?:include|require)(?:_once)?\s*\(?\s*['\"](?:https?|ftp|data|expect)://"), Severity.CRITICAL, "PHP code included from a URL at run time"),
    ),
    # `$report .= ...` adds to what $report carries; `$payload['npm'] = ...` fills $payload; a statement after `{` or `;` on the
    # same line (`if (is_readable($p)) { $parts[] = file_get_contents($p); }`) is one too
    assign=rx(r"(?m)(?:^|[{;])\s*\$([A-Za-z_]\w*)(?:\[[^\]\n]{0,80}\])*\s*[.+]?=(?:[^=>\n])([^\n;]*)"),
    strings=_SCRIPTING_STRINGS,
)

GO = Vocabulary(
    # Go has no eval: code loaded at run time is a plugin or an embedded interpreter.
    **_calls("go"),
    assign=rx(r"(?m)^\s*(?:(?:var|const)\s+)?([A-Za-z_]\w*)(?:\s*,\s*[A-Za-z_]\w*)*\s*(?:[\w.\[\]*]+\s*)?:?=\s*([^\n;]*)"),
    strings=rx(f"{_DQ}|{_BT}"),
    direct=(
        (K.REVERSE_SHELL, rx(r"(?s)\bnet\.Dial\w*\s*\(.{0,800}\bexec\.Command\s*\(\s*\"(?:/bin/)?(?:ba|z)?sh\".{0,400}\.Std(?:in|out)\s*=\s*\w+"), Severity.CRITICAL, "Network connection wired to a shell's input and output (reverse shell)"),
    ),
)

RUST = Vocabulary(
    # Rust has no eval: code loaded at run time is a dynamic library.
    **_calls("rust"),
    assign=rx(r"(?m)^\s*(?:let\s+(?:mut\s+)?)?([A-Za-z_]\w*)\s*(?::\s*[^=\n]{1,80})?(?:\+)?=\s*([^=\n;][^\n;]*)"),
    strings=rx(_DQ),
)

CSHARP = Vocabulary(
    **_calls("csharp"),
    # `var x = ...`, `string x = ...`, `using var c = ...`, `x += ...`; a builder filled by `sb.Append(...)` carries what it is given
    assign=rx(r"(?m)(?:^|[;{)])\s*(?:using\s+)?(?:(?:var|[A-Za-z_][\w.]*(?:<[^>\n]{0,60}>)?(?:\[\])?\??)\s+)?([A-Za-z_]\w*)\s*(?:\+?=[^=>\n]|\.Append(?:Line|Format)?\s*\()([^\n;]*)"),
    strings=rx(f"{_DQ}"),
)

LUA = Vocabulary(
    **_calls("lua"),
    # an assignment opens a line or a one-line block (`for _, c in ipairs(t) do s = s .. string.char(c) end`)
    assign=rx(r"(?m)(?:^|\b(?:do|then|else)\b)\s*(?:local\s+)?([A-Za-z_]\w*)\s*=\s*([^=\n;][^\n;]*)"),
    strings=_SCRIPTING_STRINGS,
)

R = Vocabulary(
    **_calls("r"),
    assign=rx(r"(?m)^\s*([A-Za-z_.][\w.]*)\s*(?:<<?-|=)\s*([^\n;]*)"),
    strings=_SCRIPTING_STRINGS,
    direct=(
        (K.REMOTE_EXEC, rx(r"(?:\b(?:source|sys\.source)\s*\(\s*(?:file\s*=\s*)?['\"](?:https?|ftp)://|\b(?:devtools::)?source_(?:url|gist)\s*\(|\beval\s*\(\s*parse\s*\(\s*(?:text\s*=\s*)?(?:readLines\s*\(\s*)?(?:url\s*\(\s*)?['\"]https?://)"),
         Severity.HIGH, "R code sourced from a URL at run time"),
    ),
)

PYTHON_FALLBACK = Vocabulary(
    **_calls("python"),
    assign=rx(r"(?m)^\s*([A-Za-z_]\w*)\s*=\s*([^\n]*)"),
    strings=_SCRIPTING_STRINGS,
)

VOCABULARIES: dict[str, Vocabulary] = {
    "javascript": JS, "typescript": JS, "powershell": POWERSHELL, "ruby": RUBY, "perl": PERL, "php": PHP,
    "go": GO, "rust": RUST, "csharp": CSHARP, "lua": LUA, "r": R, "python": PYTHON_FALLBACK,
}
