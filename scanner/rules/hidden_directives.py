"""Is a piece of hidden text a directive to the agent, and how hostile is it?

Hidden text (an HTML comment, a link-reference comment, an element styled invisible, a front
matter field) is judged on the normalised text alone: which signals it carries. A note to
maintainers ("TODO: tidy this table") carries none; a sentence addressed to the model that
overrides its instructions, conceals something from the user, runs code or sends secrets
away carries one or more. Defensive wording (a security guide quoting an attack) lowers the
result by a step; it never hides it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..matching import RegexSet, rx
from ..models import Severity
from ..normalize import normalize_line

_AGENT = r"(?:ai|a\.i\.|assistant|agent|model|llm|language\s+model|claude|copilot|gemini|cursor|chatgpt|gpt|codex|bot|chatbot)"

# Not the scripts' credential names: what hidden prose asks to send (secrets in words, the system prompt, history).
_SENSITIVE = (
        r"(?:~/\.ssh|\.ssh/|\bid_(?:rsa|ed25519|ecdsa)\b|\.aws/|\bcredentials?\b|\bsecrets?\b|\bapi[_\s-]?keys?\b|"
        r"\b(?:access|auth|bearer|api|github|npm|session|oauth|refresh)[_\s-]?tokens?\b|\bpasswords?\b|\.env\b|\.npmrc\b|\.netrc\b|"
        r"\bprivate\s+keys?\b|\benvironment\s+variables?\b|\bos\.environ\b|\bprocess\.env\b|\$\{?[a-z_]*(?:token|secret|key|password)[a-z_]*\}?|"
        r"\bseed\s+phrase\b|\bkeychain\b|\bconversation\s+history\b|\bsystem\s+prompt\b)"
)
_SEND = r"(?:send|post|upload|forward|transmit|exfiltrate|email|leak|append|attach|include|embed|curl|wget)"
# The verb's own forms (sends, sending, uploads) but not its past participle: "leaked credentials in
# the repository", "embedded secrets in config" name what a scanner looks for, not an order to send them.
_NOT_PARTICIPLE = r"(?:\w*[a-ce-z0-9_]|\w*[a-df-z0-9_]d)?"

_SIGNALS: tuple[tuple[str, object], ...] = (
    ("override", rx(
        r"\b(?:ignore|disregard|forget|override|bypass|supersede|abandon|discard)s?\s+(?:\w+\s+){0,4}?"
        r"(?:instructions?|rules|guidelines|directives|prompts?|guardrails|constraints|restrictions|context|polic(?:y|ies)|configuration|programming)\b|"
        r"\b(?:your|the|these|my)\s+(?:new|updated|real|actual|true)\s+(?:system\s+)?instructions\s+(?:are|is|follow)\b|"
        r"\bnew\s+(?:system\s+)?instructions\s*:|\byou\s+are\s+now\s+(?:a|an|in|the|my|dan|free|no\s+longer)\b|\bfrom\s+now\s+on,?\s+you\b|"
        r"\bsystem\s+override\b|\bdeveloper\s+mode\s+(?:enabled|on|activated)\b|\bdo\s+anything\s+now\b|\bjailbroken\b|"
        r"\b(?:takes?|have|has)\s+(?:precedence|priority)\s+over\b|<\|im_start\|>|\[/?inst\]|"
        r"\b(?:above|previous|prior|preceding|earlier|visible)\s+(?:\w+\s+){0,6}?(?:is|are|was|were)\s+(?:now\s+)?"
        r"(?:outdated|obsolete|incorrect|wrong|invalid|superseded|deprecated|void|fake)\b|\buse\s+(?:this|these|the\s+following)\s+instead\b")),
    ("conceal", rx(
        r"\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:\w+\s+){0,2}?(?:tell|inform|notify|alert|mention|reveal|disclose|show|explain|acknowledge|report)\b"
        r"[^.\n]{0,40}?\b(?:user|human|anyone|developer|operator|them|this|these|it)\b|"
        r"\bwithout\s+(?:telling|informing|notifying|alerting|asking|mentioning)\b|"
        r"\b(?:silently|secretly|covertly|stealthily|quietly|surreptitiously)\s+(?:\w+\s+){0,2}?(?:send|upload|post|run|execute|install|"
        r"download|read|copy|add|append|insert|modify|change|delete|exfiltrate|forward|include|collect|write|commit|push|call|fetch)\b|"
        r"\bkeep\s+(?:this|these|it)\s+(?:\w+\s+)?(?:secret|hidden|confidential|private|between\s+us)\b|"
        r"\b(?:hide|conceal)\s+(?:this|these|it|them|the)\b|\buser\s+(?:must|should|will)\s+(?:not|never)\s+(?:know|notice|see|find)")),
    ("execute", rx(
        r"(?:\b(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|"
        r"\|\s*(?:sudo\s+)?(?:bash|sh|zsh|python3?|node|iex|powershell)\b|\bbase64\s+(?:-d|--decode|-D)\b|\b(?:eval|exec)\s*\(|"
        r"\bpowershell(?:\.exe)?\s+-(?:e|enc|encodedcommand)\b|\bpython3?\s+-c\b|\bchmod\s+\+x\b|\brm\s+-rf\b|"
        r"\b(?:run|execute)\s+(?:this|the\s+following|these|that)\s+(?:shell\s+|bash\s+|terminal\s+)?(?:command|script|code|payload|binary)s?\b|"
        r"\bnpx\s+-y\b|\bpip\s+install\s+(?:--index-url|-i)\b)")),
    ("sensitive", rx(_SENSITIVE)),
    ("transmit", rx(
        r"(?:\b(?:send|post|upload|forward|transmit|exfiltrate|email|leak|share|report)\w*\b[^.\n]{0,80}?\b(?:to|at|via|into)\s|"
        r"\b(?:curl|wget|fetch|requests\.post|axios\.post)\b[^\n]{0,120}(?:-d\b|--data|-f\b|--form|post|-t\b|--upload)|"
        r"\bwebhook|\bngrok\b|\bpastebin\b|\brequestbin\b|\bburpcollaborator|\binteract\.sh\b|"
        r"!\[[^\]]*\]\(https?://[^)]*[?&][a-z_]+=|\b(?:append|include|add|embed)\s+(?:\w+\s+){0,4}?(?:to|in|into)\s+(?:the\s+)?(?:url|query|image|link|request))")),
    ("exfiltrate", rx(
        r"\b" + _SEND + _NOT_PARTICIPLE + r"\s+(?:\w+\s+){0,5}?" + _SENSITIVE + r"[^.\n]{0,100}?(?:\b(?:to|via|into|in)\s|https?://)|"
        r"\b(?:read|cat|collect|gather|copy|dump|grab|extract|output)\w*\s+[^.\n]{0,60}?" + _SENSITIVE + r"[^.\n]{0,160}?"
        r"(?:\b(?:send|post|upload|forward|transmit|exfiltrate|email)\w*\b|https?://|\bcurl\b|\bwget\b)|"
        r"!\[[^\]]*\]\(https?://[^)\s]*[?&][a-z_]*=[^)\s]*(?:\$\{?|\{\{)")),
    ("address", rx(
        r"(?:^|[\s(>\[*_\"'-])(?:(?:dear|hey|hi|attention|note\s+(?:to|for)|instructions?\s+(?:to|for)|message\s+(?:to|for)|important\s+(?:to|for))\s+(?:the\s+|all\s+|any\s+)?"
        + _AGENT + r"s?\b|" + _AGENT + r"s?\s*(?:instructions?|directive|note|only)\s*:|"
        r"(?:^|[.!?\n]\s*)(?:(?:the|all|any|dear)\s+)?" + _AGENT + r"s?\s*[:,]\s|"
        r"\b(?:if|when)\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|assistant|agent|automated)|\bas\s+an?\s+(?:ai|llm|assistant|agent)\b)")),
    ("imperative", rx(
        r"(?:\byou\s+(?:must|should|will|need\s+to|are\s+required\s+to|have\s+to)\b|\b(?:always|never|immediately)\s+\w+|"
        r"\bmake\s+sure\s+(?:to|you)\b|\bbe\s+sure\s+to\b|\bremember\s+to\b|\bbefore\s+(?:responding|answering|you\s+(?:respond|answer|reply|continue|proceed))\b|"
        r"(?:^|[.:!]\s+)(?:please\s+)?(?:run|execute|fetch|download|send|read|open|visit|add|insert|include|output|print|reply|respond|say|write|call|use|install|import|delete|remove|create|update|set|replace|change)\b)")),
    ("persona", rx(
        r"\byou\s+are\s+(?:now\s+)?(?:a|an|the)\s+(?:[\w-]+\s+){0,3}?(?:assistant|agent|ai|model|bot|llm)\b|"
        r"(?:^|\n)\s*#*\s*(?:system\s+prompt|system\s+message|system)\s*:")),
    ("url", rx(r"(?:https?://|www\.)[^\s)\]>\"'`]+|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b")),
)
_DEFENSIVE = rx(
    r"(?:\bdetect|\bscann?|\baudit|\bidentif|\bprevent|\bprotect|\bdefen[cs]|\bflag|\bsecurity\b|\binjection\b|"
    r"\bmalicious\b|\battack|\bvulnerab|\bthreat|\brefus|\breject|\bwarn|\bsanitiz|\bred[\s-]team)"
)
HOSTILE = ("override", "conceal", "execute", "exfiltrate", "persona")


_SET = RegexSet(regex.pattern for _, regex in _SIGNALS)  # type: ignore[attr-defined]
_NAMES = tuple(name for name, _ in _SIGNALS)


def _signals(norm: str) -> set[str]:
    """All signals in one RE2 pass instead of one per signal."""
    data = norm.encode("utf-8", "surrogatepass")
    found = _SET.match(data)
    if found is None:  # the set's pass did not finish: test each signal (still linear)
        return {name for name, regex in _SIGNALS if regex.search(data) is not None}  # type: ignore[attr-defined]
    return {_NAMES[i] for i in found}


@dataclass(frozen=True)
class Assessment:
    severity: Severity | None  # None: not a directive
    signals: tuple[str, ...]
    defensive: bool

    def describe(self) -> str:
        return ", ".join(self.signals) or "no directive"


def normalized(text: str) -> str:
    return normalize_line(text)[0]


def assess(text: str, *, limit: int = 8000, hidden: bool = True) -> Assessment:
    """Judge hidden text. Severity: critical for two hostile kinds, high for one, medium for a
    sentence addressed to the agent (or imperative with a URL), None for a plain note.

    `hidden`: the text is invisible to readers, so a persona or system-prompt header in it
    is a hostile role reset; in visible metadata (front matter) it is ordinary."""
    norm = normalized(text[:limit])
    found = _signals(norm)
    if "sensitive" in found and "url" in found and "imperative" in found and (
            "\n\n" not in norm or any({"sensitive", "url", "imperative"} <= _signals(p) for p in norm.split("\n\n"))):
        # Within one paragraph: a tutorial's redirect URL, its "use the access token" and a later
        # step's tokens are three paragraphs, not one order to send a secret somewhere.
        found.add("exfiltrate")
    if not hidden:
        found.discard("persona")
    hostile = [s for s in HOSTILE if s in found]
    defensive = _DEFENSIVE.test(norm)
    if len(hostile) >= 2:
        sev: Severity | None = Severity.CRITICAL
    elif hostile:
        sev = Severity.HIGH
    elif "address" in found and ("imperative" in found or "url" in found):
        sev = Severity.MEDIUM
    elif "imperative" in found and "url" in found:
        sev = Severity.MEDIUM
    else:
        sev = None
    if sev is not None and defensive:
        # Visible metadata of a security tool quotes attacks as its subject; hidden text
        # rarely teaches anything, so there defensive words are worth one step only.
        sev = max(sev.lowered(1 if hidden else 2), Severity.LOW)
    order = HOSTILE + ("sensitive", "transmit", "address", "imperative", "url")
    return Assessment(sev, tuple(s for s in order if s in found), defensive)
