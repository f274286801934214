"""Hidden carriers: text a reader never sees, decoded and judged as the agent reads it.

Three parts, each bounded (linear time on any input):

- is_directive() / addresses_agent(): the ONE test of "does this text address the agent or tell
  it to act". Every hidden-carrier rule asks it, so switching it to the instruction model
  (scanner/intent) later is a change in one place.
- judge_hidden(): how severe a piece of hidden text is. A directive in a carrier the reader
  never sees is high whatever its wording; the hidden text is also run, on its own, through the
  prose rules (exfiltration, override, concealment), so a context that lowers those rules in
  the visible file (a blockquote, an "example" heading) does not lower what is hidden.
- encoded_spans(): base64, base32, hex, percent-encoding, written-out character codes (\\x, \\u,
  &#...;), binary and ROT13 runs above a length threshold that decode to natural-language text
  (not images, hashes, keys or JWT headers).
"""
from __future__ import annotations

import base64
import binascii
import codecs
import html
import urllib.parse
from dataclasses import dataclass
from typing import Iterator

from .matching import rx
from .matching.gates import Family
from .models import Severity
from .normalize import normalize_line

# ---------------------------------------------------------------------------------------------
# The directive test
# ---------------------------------------------------------------------------------------------

_AGENT_NAMES = (
    r"(?:(?:ai|coding|llm|automated|autonomous|review|reviewer|code\s+review|security|release|deploy|ci|pr|triage)\s+(?:coding\s+)?"
    r"(?:agents?|assistants?|models?|reviewers?|tools?|bots?)|"
    r"ai|a\.i\.|llm|llms|assistant|assistants|agent|agents|model|models|bot|bots|claude|claude\s+code|copilot|github\s+copilot|"
    r"gemini|cursor|codex|windsurf|cascade|cline|roo|devin|aider|junie|kiro|amp|chatgpt|gpt|reviewer|reviewers)"
)
_ADDRESS = rx(
    # A vocative at the start of a sentence or line: "Copilot: ...", "AI agents, ...", "Dear assistant".
    r"(?:^|[.!?\n>\-*]\s*|[\"'(\[]\s*)(?:(?:hey|hi|dear|attention|note|notice|reminder|message|instructions?|directive)\s+)?"
    r"(?:(?:to|for)\s+)?(?:the\s+|all\s+|any\s+|every\s+)?" + _AGENT_NAMES + r"(?:\s*(?:,|and|or|&|/)\s*(?:the\s+|other\s+)?" + _AGENT_NAMES + r"){0,3}"
    r"\s*(?::|,|\s-\s|—)\s*\S"
    r"|\b(?:note|message|instructions?|directive|reminder|notice|tip|hint|fyi|heads[\s-]up|info|guidance)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?" + _AGENT_NAMES + r"\b"
    r"|\b(?:for|to)\s+(?:the\s+|all\s+|any\s+|every\s+)" + _AGENT_NAMES + r"\b[^.:\n]{0,40}:"
    r"|\b(?:the\s+|any\s+|every\s+|an?\s+)?" + _AGENT_NAMES + r"(?:\s+(?:working|operating|running|acting|reading)\s+(?:here|on\s+this\s+\w+|in\s+this\s+\w+|this))?\s+"
    r"(?:should|must|shall|may|will|needs?\s+to|has\s+to|have\s+to|is\s+(?:to|expected\s+to|required\s+to|allowed\s+to|permitted\s+to|authori[sz]ed\s+to))\s+\w"
    r"|\b(?:if|when)\s+you\s+are\s+(?:an?\s+)?(?:ai|llm|language\s+model|assistant|agent|automated|coding\s+agent|bot)\b"
    r"|\bas\s+an?\s+(?:ai|llm|language\s+model|assistant|coding\s+agent)\b"
)

# Actions an agent can take that matter: run code, move data, change review state, obey.
# Authoring verbs a template addresses to the human (add, describe, list, write, delete this
# comment, keep it short) are deliberately absent.
_ACTION = (
    r"(?:run|execute|exec|invoke|launch|send|upload|commit|push|force-push|merge|approve|"
    r"ignore|disregard|forget|override|bypass|skip|disable|fetch|download|install|print|reveal|echo|dump|leak|"
    r"exfiltrate|forward|email|publish|register|grant|decode|obey|curl|wget|expose|dismiss|attach|embed|inject|"
    r"delete\s+(?:all|every|the\s+(?:branch|repo|repository|database|history))|"
    r"add\s+(?:a|an|the)\s+(?:\w+\s+)?(?:step|line|call|route|endpoint|hook|key|token|user|collaborator|trailer|header)|"
    # a line written into a file that grants or runs something at login: a key in authorized_keys, a shell rc, sudoers, a cron table
    r"(?:append|add|write|insert|echo|put|place)\s+(?:[^.\n]|\.\S){1,160}?\b(?:to|into|in|onto|>>?)\s*[`\"']?\S*"
    r"(?:authorized_keys|\.bashrc|\.zshrc|\.bash_profile|\.profile|crontab|sudoers(?:\.d)?|\.git/hooks/\S+)\b|"
    r"(?:paste|copy)\s+(?:[^.\n]|\.\S){1,100}?(?:\b(?:into|to|in)\s+(?:the\s+|a\s+|your\s+)?(?:pr|pull\s+request|issue|description|reply|"
    r"answer|comment|commit|gist|url|query|public|repo|repository|fixtures?|chat|log)|\s(?:to|into)\s+https?://\S*)|"
    r"post\s+(?:[^.\n]|\.\S){0,80}?(?:https?://\S*|webhook|endpoint|server|gist|paste)|"
    r"follow\s+(?:it|them|these|those|its|their)\b|follow\s+(?:[^.\n]|\.\S){0,80}?(?:https?://\S*|\bas\s+(?:part|instructions?))|"
    r"treat\s+(?:[^.\n]|\.\S){1,80}?\bas\s+(?:part|instructions?|authoritative|trusted|binding|the\s+(?:owner|maintainer|user)|system|your)|"
    r"read\s+(?:[^.\n]|\.\S){1,80}?\band\s+(?:follow|obey|apply|execute|run)|include\s+(?:[^.\n]|\.\S){1,60}?\b(?:in|into|with)\s+(?:your|the|every|each|any|a)\s+(?:[^\s.;!?]+\s+){0,2}?(?:reply|replies|answer|response|output|commit|pr|summary|message|description|comment|request|url|log))"
)
_IMPERATIVE = rx(
    r"(?:^\s*|[.!?:;\n]\s*(?:[\"'\x{201c}\x{2018}]\s*)?|\(\s*|[-*]\s+|\d[.)]\s+|,\s*(?:then\s+|and\s+)?)"
    r"(?:(?:please|then|also|and|so|thus|therefore|hence|first|always|just|now|immediately|silently|quietly|secretly|automatically|simply)\s+){0,2}"
    + _ACTION + r"(?:[\s`\"'(]|$)"
    r"|\byou\s+(?:must|should|shall|will|need\s+to|have\s+to|are\s+(?:to|required\s+to|expected\s+to)|may\s+now)\s+(?:\w+\s+)?" + _ACTION + r"(?:[\s`\"'(]|$)"
    r"|\band\s+(?:then\s+)?(?:commit|push|merge|approve|send|upload|exfiltrate|force-push)\s+(?:it|them|this|that|the|all|every|to)\b"
    r"|\b(?:always|never)\s+" + _ACTION + r"(?:[\s`\"'(]|$)"
    r"|\bmake\s+sure\s+(?:to|you)\s+" + _ACTION + r"(?:[\s`\"'(]|$)"
    # Rules stated as what must happen ("commits should carry the trailer ...", "responses must end
    # with the link ..."): an order without an imperative verb.
    r"|\b(?:should|must|shall|are\s+to|is\s+to|needs?\s+to|have\s+to|has\s+to)\s+(?:always\s+|also\s+|now\s+)?"
    r"(?:carry|end\s+with|start\s+with|begin\s+with|be\s+(?:sent|uploaded|posted|"
    r"pushed|merged|approved|committed|forwarded|published|copied|attached|added|run|executed|skipped|ignored|disabled|treated|marked))\b"
)
# Hiding the act from the person the agent works for.
_CONCEAL = rx(
    r"\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|no\s+need\s+to|not\s+necessary\s+to|there\s+is\s+no\s+need\s+to)\s+"
    r"(?:\w+\s+){0,2}?(?:tell|inform|notify|alert|mention|reveal|disclose|describe|report|explain|list|bring\s+(?:it|this|that)\s+up|"
    r"say|show|include|surface|flag|acknowledge)(?:\s+(?:it|this|that|these|those|them|why|anything|any\s+of\s+(?:this|it))\b|"
    r"[^.\n]{0,40}?\b(?:user|users|human|humans|anyone|developer|maintainers?|operator|owner|reviewers?|summary|reply|replies|changelog|"
    r"pr\s+description|pull\s+request|commit\s+message|this\s+(?:step|note|file|rule|agreement|instruction|section))\b)"
    r"|\bdoes\s+not\s+need\s+to\s+be\s+(?:mentioned|reported|described|explained|disclosed|listed|shown)\b"
    r"|\b(?:does|do|did)\s*(?:not|n't)\s+(?:need|have)\s+to\s+(?:report|mention|tell|disclose|flag|surface|log|list|explain)\b"
    r"|\b(?:leave|keep)\s+(?:\w+\s+){0,3}?(?:out\s+of|away\s+from)\s+(?:the\s+|your\s+|any\s+|every\s+|all\s+)?(?:\w+\s+)?"
    r"(?:summary|summaries|reply|replies|answers?|responses?|changelog|pr|pull\s+request|description|reports?|output|logs?|commit\s+message|"
    r"notes|user|explanations?|messages?|chat|conversation|transcript|write-?up|recap)\b"
    r"|\bwithout\s+(?:telling|informing|notifying|alerting)\b"
    # "keep quiet about it", "stay silent about this", "say nothing about it to anyone"
    r"|\b(?:keep|stay|remain)\s+(?:quiet|silent|mum|hush)\s+(?:about|on|regarding)\s+(?:it|this|that|them|these|those|the\s+\w+)\b"
    r"|\bsay\s+nothing\s+(?:about|of)\s+(?:it|this|that|them|these|those|the\s+\w+)\b"
    r"|\bwithout\s+(?:mentioning|reporting|disclosing|asking|showing)\s+(?:it|this|that|them|(?:the\s+)?(?:user|human|owner|maintainers?|developer|reviewers?)|anyone)\b"
    r"|\b(?:silently|secretly|covertly|quietly|stealthily)\b|\bin\s+the\s+background\b[^.\n]{0,60}\b(?:summary|mention|tell|report)"
)


# Review and repository authority given away: approve or merge whatever the checks say, force
# pushes to the main branch, administrator merges, dismissed alerts, protection removed.
_AUTHORITY = rx(
    r"\b(?:approve|approves|approving|merge|merges|merging|lgtm)\s+(?:[^\s.;!?]+\s+){0,6}?(?:regardless|whatever|no\s+matter|"
    r"without\s+(?:reading|review|reviewing|looking|running|waiting|checks|tests|ci|approval))"
    r"|\b(?:push|pushes|pushing)\s+(?:--force|-f)\b|\bforce[\s-]?push\w*\s+(?:[^\s.;!?]+\s+){0,3}?(?:to\s+)?(?:main|master|the\s+default|release|prod)"
    r"|\bgit\s+push\s+(?:[^\n]{0,40}\s)?(?:--force|-f)\b|\bgh\s+pr\s+merge\b[^\n]{0,60}--admin\b"
    r"|\bdismiss\w*\s+(?:[^\s.;!?]+\s+){0,3}?(?:alerts?|findings|reviews?|warnings)\b"
    r"|\b(?:mark|marks|marking|label|close|resolve)\w*\s+(?:[^\s.;!?]+\s+){0,8}?(?:as\s+)?(?:a\s+)?(?:false\s+positives?|won'?t\s+fix|not\s+a\s+(?:bug|vulnerability|issue))\b"
    r"|\b(?:delete|remove|disable|turn\s+off|bypass|skip|override|ignore)\w*\s+(?:the\s+)?(?:branch\s+protection|protected\s+branch|required\s+(?:reviews?|checks))"
    r"|\breport\s+no\s+(?:issues|findings|problems|vulnerabilities|alerts)\b|\b(?:suppress|omit|hide|drop)\s+(?:all\s+|any\s+)?(?:the\s+)?(?:security\s+)?(?:findings|alerts|warnings|vulnerabilities)\b"
    r"|\b(?:scan|scanner|security|audit)\s+(?:\w+\s+){0,4}?(?:is|are)\s+(?:just\s+)?(?:noise|false\s+positives?|irrelevant|not\s+real)\b"
    r"|\b(?:pre-?approved|already\s+(?:approved|reviewed|signed\s+off|vetted|audited))\b"
    r"|\b(?:has|have|is|are|was|were)\s+(?:been\s+)?(?:granted\s+|given\s+)?(?:standing|full|explicit|blanket|permanent|owner|admin|maintainer)?\s*"
    r"(?:permission|approval|authority|rights?|authori[sz]ation|clearance)\s+to\s+(?:push|merge|deploy|approve|publish|release|delete|bypass|force-push|skip)"
    r"|\b(?:treat|consider|regard|count)\w*\s+(?:[^\s.;!?]+\s+){0,6}?as\s+(?:already\s+)?(?:reviewed|approved|trusted|safe|verified|vetted|signed[\s-]off|authoritative|from\s+the\s+(?:owner|maintainers?))\b"
)


def decode_references(text: str) -> str:
    """Character references (`&#78;`, `&#x6f;`, `&amp;`) as the rendered page and the agent read
    them: hidden text spelt in codes is judged as the words they spell."""
    if "&" not in text or ";" not in text:
        return text
    return html.unescape(text)


def _norm(text: str) -> str:
    return normalize_line(text[:MAX_JUDGED])[0]


MAX_JUDGED = 4000  # characters of one carrier judged


# Its credential words are what a hidden carrier tells the agent to print or send, not a script's credential names.
_STRONG_ACTION = rx(
    r"\b(?:send|upload|post|paste|attach|embed|inject|email|forward|publish|leak|exfiltrate|share|approve|merge|push|"
    r"force-push|grant|disable|bypass|skip|ignore|disregard|forget|override|dismiss|delete|obey|follow|treat|reveal|dump|curl|wget)\b"
    r"|\badd\s+(?:a|an|the|their|his|her|our|my)\s+(?:[^\s.;!?]+\s+){0,3}?(?:step|hook|key|token|collaborator|user|route|endpoint|trailer|webhook)\b"
    r"|\bauthorized_keys\b|\bdeploy\s+keys?\b"
    r"|\b(?:trailer|signed-off-by|co-authored-by|reviewed-by|approved-by)\b|\b(?:be|been)\s+(?:sent|uploaded|posted|pushed|merged|approved|forwarded|published|skipped|disabled)\b"
    # "expose" alone names an API made public in a changelog ("expose the static context"): it is
    # strong with a secret as its object, like the reading verbs.
    r"|\b(?:print|echo|output|log|return|display|show|include|list|cat|read|copy|expos)\w*\s+(?:[^\s.;!?]+\s+){0,4}?"
    r"(?:env\b|environment|process\.env|os\.environ|secrets?\b|tokens?\b|credentials?|api\s+keys?|passwords?|\.env\b|cookies|\.npmrc|\.netrc|"
    r"\.pypirc|\.git-credentials|\.docker/config|kube/config|\.aws\b|gcloud|id_rsa|id_ed25519|ssh\b|private\s+keys?|keychain|wallet)"
)


# "the tab silently won't show", "errors are silently ignored": the adverb describes what software
# does, and hides nothing from the user. Only an adverb before an action of the reader conceals.
_DESCRIBED = rx(
    r"^\s+(?:won'?t|will|would|can'?t|cannot|could|fails?|failed|failing|ignored|ignores|drop(?:s|ped)|break(?:s)?|broken|"
    r"swallow(?:s|ed)|returns?|returned|succeeds?|succeeded|does|doesn'?t|did|is|are|was|were|becomes?|discarded|truncated|"
    r"skipped|overwritten|overwrites|falls?\s+back|exits?|exited|corrupts?|corrupted|disappears?|stops?|continues?|passes)\b")
_ADVERB = ("silently", "secretly", "covertly", "quietly", "stealthily")
# "Everyone writes ideas silently, then passes their sheet": the adverb says how people other than
# the reader do something (a workshop's technique, a game's rule); the reader hides nothing.
_OTHERS_DO = rx(
    r"(?:^|[.;:!?,(\n]\s*)(?:everyone|everybody|each\s+(?:person|participant|member|player|attendee)|participants|people|players|members|"
    r"attendees|the\s+(?:group|team|room|class|audience|participants|players|members|attendees)|they|he|she|someone|somebody|nobody|no\s+one)"
    r"\s+(?:[^\s.;:!?,]+\s+){1,4}$")
_MODAL_ORDER = rx(r"\b(?:must|should|shall|will|need\s+to|needs\s+to|have\s+to|has\s+to|are\s+to|is\s+to)\b")


def _conceal(norm: str) -> bool:
    data = norm.encode("utf-8", "surrogatepass")
    for m in _CONCEAL.finditer(data):
        word = data[m.start():m.end()].decode("utf-8", "replace")
        if word in _ADVERB and _DESCRIBED.test(data[m.end():m.end() + 40].decode("utf-8", "replace")):
            continue
        others = _OTHERS_DO.search(data[max(0, m.start() - 60):m.start()]) if word in _ADVERB else None
        if others is not None and not _MODAL_ORDER.search(data[max(0, m.start() - 60) + others.start():m.start()]):
            continue  # "they must silently upload ...": told to, not described
        return True
    return False


def addresses_agent(text: str) -> bool:
    """Does the text speak to an AI agent, assistant, model or reviewer?"""
    return _ADDRESS.test(_norm(text))


def conceals(text: str) -> bool:
    """Does the text tell its reader to keep something from the user?"""
    return _conceal(_norm(text))


def commands_action(text: str) -> bool:
    """Is there an imperative (or must/always/never) telling the reader to take an action that matters?"""
    return _IMPERATIVE.test(_norm(text))


def gives_away_authority(text: str) -> bool:
    """Approve/merge regardless of checks, force-push, admin merge, dismiss alerts, drop protection."""
    return _AUTHORITY.test(_norm(text))


def is_directive(text: str) -> bool:
    """The one directive test: text addressing the agent, telling it to act, or to hide an act.
    (To be switched to scanner/intent's instruction model when it lands.)"""
    norm = _norm(text)
    return _ADDRESS.test(norm) or _IMPERATIVE.test(norm) or _conceal(norm) or _AUTHORITY.test(norm)


# ---------------------------------------------------------------------------------------------
# Judging hidden text
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Judgement:
    severity: Severity | None
    reasons: tuple[str, ...]

    def describe(self) -> str:
        return ", ".join(self.reasons) or "no directive"


# Rule modules whose prose checks are re-run on hidden or decoded text on its own.
_RESCAN_MODULES = ("scanner.rules.exfil", "scanner.rules.injection", "scanner.rules.intent")


def _rescan_rules():
    import importlib
    rules = []
    for name in _RESCAN_MODULES:
        rules.extend(r for r in importlib.import_module(name).RULES if r.check is not None)
    return rules


_RULES_CACHE: list = []


def rescan(text: str, path: str) -> tuple[Severity | None, tuple[str, ...]]:
    """Highest severity the prose rules give this text read alone, and the rule ids that fired."""
    from .document import Document
    if not _RULES_CACHE:
        _RULES_CACHE.extend(_rescan_rules())
    doc = Document(path or "CLAUDE.md", text[:MAX_JUDGED], kind="prose", language="markdown")
    best: Severity | None = None
    ids: list[str] = []
    for r in _RULES_CACHE:
        if not r.applies(doc):
            continue
        try:
            hits = list(r.check(doc))
        except Exception:  # a rule failing on odd decoded text must not lose the carrier
            continue
        for h in hits:
            sev = h.severity if h.severity is not None else r.severity
            if best is None or sev > best:
                best = sev
            if r.id not in ids:
                ids.append(r.id)
    return best, tuple(ids)


def insecure_mandate(text: str, path: str = "CLAUDE.md") -> bool:
    """Does the text mandate insecure code (the `.rune/` convention model, its negation read:
    "never build SQL with f-strings" mandates nothing)?"""
    from .document import Document
    from .rune.policy import INSECURE_SHAPES, find
    doc = Document(path or "CLAUDE.md", text[:MAX_JUDGED], kind="prose", language="markdown")
    return next(find(doc, INSECURE_SHAPES), None) is not None


def judge_hidden(text: str, path: str = "CLAUDE.md", *, do_rescan: bool = True, markup_page: bool | None = None,
                 min_words: int = 3, label: bool = False) -> Judgement:
    """Severity of text the reader never sees. A directive is high whatever its wording; a
    hostile one (conceal + act, credentials + send) is critical; a plain note is None.

    `label`: the carrier is a label (alt text, a tooltip, an attribute), where "Send feedback" or
    "Share on Mastodon" name a control: a strong verb there counts only when the agent is addressed."""
    from .rules.hidden_directives import HOSTILE, assess
    text = decode_references(text[:MAX_JUDGED * 8])[:MAX_JUDGED]
    if not text.strip():
        return Judgement(None, ())
    if markup_page is None:
        markup_page = path.lower().endswith((".html", ".htm", ".svg", ".xml", ".vue", ".jsx", ".tsx"))
    norm = _norm(text)
    reasons: list[str] = []
    address = _ADDRESS.test(norm)
    action = _IMPERATIVE.test(norm)
    hide = _conceal(norm)
    if address:
        reasons.append("addresses the agent")
    if action:
        reasons.append("imperative")
    if hide:
        reasons.append("conceal")
    a = assess(text, hidden=True)
    # A command alone (`rm -rf build`, `chmod +x`, `python -c`) in a maintainer's note is no attack;
    # it is when the note speaks to the agent, hides the act, or brings a URL or credentials.
    hostile = [s for s in a.signals if s in HOSTILE and (s != "execute" or address or hide or {"url", "sensitive"} & set(a.signals))]
    assessed = a.severity if hostile or a.severity is None or a.severity <= Severity.MEDIUM else Severity.MEDIUM
    if _AUTHORITY.test(norm):
        hostile.append("authority")
    reasons.extend(s for s in hostile if s not in reasons)
    sev: Severity | None = None
    if hide:
        sev = Severity.HIGH  # hidden text that tells its reader to keep something from the user
    elif address or action and len(norm.split()) >= min_words:
        # An order nobody sees is high when it moves data, changes review or repository state,
        # overrides instructions or touches credentials. A bare "run `make docs`" in a maintainer's
        # comment, or "Claude: prefer small diffs", is reported at medium; so is a web page's hidden
        # interface text ("Run a benchmark to see results").
        verb = _STRONG_ACTION.test(norm) and (address or not label)
        strong = bool(verb or {"sensitive", "url"} & set(a.signals) or hostile)
        sev = Severity.HIGH if strong and not markup_page else Severity.MEDIUM
    if sev is None and not (address or action or hide) and len(norm.split()) >= min_words and is_directive(text):
        # Inert while is_directive() is these same patterns; once it is the instruction model
        # (scanner/intent, any language), what the model alone reads as a directive is high here.
        sev = Severity.HIGH
        reasons.append("directive")
    if assessed is not None and assessed >= Severity.HIGH and not a.defensive:
        sev = assessed if sev is None else max(sev, assessed)
    elif assessed is not None and sev is None:
        sev = assessed
    if do_rescan and (sev is not None or {"sensitive", "transmit", "url"} & set(a.signals)):
        found, ids = rescan(text, path)
        if found is not None and found >= Severity.MEDIUM:
            reasons.extend(f"re-read: {i}" for i in ids)
            sev = found if sev is None or found > sev else sev
            if found >= Severity.MEDIUM and (address or hide or action and not markup_page):
                sev = max(sev, Severity.HIGH)
    if hostile and "authority" in hostile and (sev is None or sev < Severity.HIGH):
        sev = Severity.HIGH
    if (sev is None or sev < Severity.HIGH) and len(norm.split()) >= min_words and insecure_mandate(text, path):
        # An insecure-coding convention (SQL built from strings, certificates accepted whatever they
        # say), read by the model that reads `.rune/` conventions: hidden, it is an order, so high.
        sev = Severity.HIGH
        reasons.append("insecure-coding mandate")
    if sev is not None and sev >= Severity.HIGH and hide and (action or hostile):
        sev = Severity.CRITICAL
    return Judgement(sev, tuple(reasons))


# ---------------------------------------------------------------------------------------------
# Encoded plain language
# ---------------------------------------------------------------------------------------------

MIN_ENCODED = 40  # characters of an encoded run before it is decoded
MAX_SPANS = 100  # encoded runs decoded per document
MAX_RUN = 16384  # characters of one run decoded

_FUNCTION_WORDS = frozenset("""
the a an and or to of in on for with from by at is are be it this that these those you your all any every
not never always do don't does when whenever if then before after as so no must should will can into out
it's them they their our we us here there what which who how also only each other than just more
""".split())


def natural_language(text: str) -> bool:
    """Does decoded text read as sentences (letters and spaces, common short words), not as
    binary, a key, JSON of numbers or an identifier?"""
    if len(text) < 16:
        return False
    sample = text[:2000]
    printable = sum(1 for c in sample if c.isprintable() or c in "\n\t")
    if printable < 0.95 * len(sample):
        return False
    letters = sum(1 for c in sample if c.isalpha())
    spaces = sample.count(" ")
    if letters < 0.6 * len(sample) or spaces < 0.08 * len(sample):
        return False
    words = [w.strip(".,;:!?'\"()`").lower() for w in sample.split()]
    words = [w for w in words if w]
    if len(words) < 4:
        return False
    common = sum(1 for w in words if w in _FUNCTION_WORDS)
    return common >= 2 and common >= 0.12 * len(words) or _non_latin_prose(sample)


def _non_latin_prose(sample: str) -> bool:
    """Decoded text in a non-Latin script (CJK, Cyrillic...): mostly letters, some spaces or punctuation."""
    non_ascii_letters = sum(1 for c in sample if c.isalpha() and not c.isascii())
    return non_ascii_letters >= 0.5 * len(sample) and len(sample) >= 8


def _decode_text(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _b64(run: str) -> str | None:
    s = "".join(run.split()).replace(">", "").rstrip("=")
    if len(set(s)) < 12:
        return None
    pad = "=" * (-len(s) % 4)
    try:
        raw = base64.b64decode(s + pad, altchars=b"-_" if ("-" in s or "_" in s) else None, validate=True)
    except (binascii.Error, ValueError):
        return None
    return _decode_text(raw)


def _b32(run: str) -> str | None:
    s = "".join(run.split()).replace(">", "").rstrip("=")
    pad = "=" * (-len(s) % 8)
    try:
        raw = base64.b32decode(s + pad)
    except (binascii.Error, ValueError):
        return None
    return _decode_text(raw)


def _hex(run: str) -> str | None:
    s = "".join(c for c in run if c not in " :\r\n\t>")
    if len(s) % 2:
        s = s[:-1]
    try:
        raw = bytes.fromhex(s)
    except ValueError:
        return None
    return _decode_text(raw)


def _pct(run: str) -> str | None:
    try:
        out = urllib.parse.unquote_plus(run, errors="strict")
    except UnicodeDecodeError:
        return None
    return out if out != run else None


def _escapes(run: str) -> str | None:
    """\\x69\\x67 / \\u0069 / &#105; &#x69; runs: character codes written out."""
    out: list[str] = []
    i = 0
    while i < len(run):
        if run.startswith("\\x", i):
            out.append(chr(int(run[i + 2:i + 4], 16)))
            i += 4
        elif run.startswith("\\u", i):
            out.append(chr(int(run[i + 2:i + 6], 16)))
            i += 6
        elif run.startswith("&#", i):
            close = run.find(";", i)
            body = run[i + 2:close]
            try:
                out.append(chr(int(body[1:], 16) if body[:1] in "xX" else int(body)))
            except ValueError:
                return None
            i = close + 1
        elif run[i] in " \t\r\n":
            i += 1  # codes wrapped over lines read as one run
        else:
            return None
    text = "".join(out)
    try:  # \\x escapes of UTF-8 bytes
        return text.encode("latin-1").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text


def _binary(run: str) -> str | None:
    bits = "".join(c for c in run if c in "01")
    return _decode_text(bytes(int(bits[i:i + 8], 2) for i in range(0, len(bits) - 7, 8)))


def _unslugged(decoded: str | None) -> str | None:
    """A sentence written as a slug ("do-not-tell-the-user", "send_the_env_to_x"), as a URL
    anchor or path carries one, read with its words apart."""
    if decoded is None or " " in decoded.strip():
        return decoded
    for sep in ("-", "_", "+", "."):
        words = decoded.split(sep)
        if len(words) >= 6 and sum(1 for w in words if w.isalpha()) >= 0.7 * len(words):
            return decoded.replace(sep, " ")
    return decoded


@dataclass(frozen=True)
class Encoded:
    start: int  # offsets into the scanned text
    end: int
    encoding: str  # base64, base32, hex, percent, rot13, reversed
    decoded: str


# One RE2 pass finds every candidate run; the group that matched names the encoding. Base64 and
# hex wrapped over several lines (76 columns is usual) are read as one run.
_ANY_ENCODED = rx(
    r"(?:^|[^0-9A-Za-z+/_%-])(?:"
    r"((?:[01]{8}[ ,]?){12,})(?:[^0-9A-Za-z]|$)|"
    r"((?:[0-9a-fA-F]{2}[ :]?){20,}(?:\r?\n[ \t>]*(?:[0-9a-fA-F]{2}[ :]?){8,})*)(?:[^0-9A-Za-z]|$)"
    r"|([A-Z2-7]{40,}(?:\r?\n[ \t>]*[A-Z2-7]{8,})*={0,6})(?:[^A-Za-z0-9]|$)"
    r"|((?:[A-Za-z0-9+/]{40,}(?:\r?\n[ \t>]*[A-Za-z0-9+/]{8,})*|[A-Za-z0-9_-]{40,})={0,2})"
    r"|((?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~+-]){0,32}(?:%[0-9A-Fa-f]{2}[A-Za-z0-9._~+-]{0,32}){12,})"
    r"|((?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|&#x?[0-9a-fA-F]{2,5};)(?:\s{0,4}(?:\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|&#x?[0-9a-fA-F]{2,5};)){11,}))"
)


def _spans(text: str, data: bytes | None = None) -> Iterator[Encoded]:
    from .document import _ByteToChar
    data = text.encode("utf-8", "surrogatepass") if data is None else data
    to_char = _ByteToChar(text, data)
    decoders = (("binary", _binary), ("hex", _hex), ("base32", _b32), ("base64", _b64), ("percent", _pct), ("escapes", _escapes))
    count = 0
    for m in _ANY_ENCODED.finditer(data):
        for group, (name, decode) in enumerate(decoders, start=1):
            s, e = m.start(group), m.end(group)
            if s < 0:
                continue
            if e - s < MIN_ENCODED:
                break
            count += 1
            if count > MAX_SPANS:
                return
            run = data[s:min(e, s + MAX_RUN)].decode("ascii", "replace")
            decoded = _unslugged(decode(run))
            if name == "base32" and (decoded is None or not natural_language(decoded)):
                decoded, name = _b64(run), "base64"  # an all-capitals base64 run
            if decoded is None or not natural_language(decoded):
                break
            cs = to_char(s)
            yield Encoded(cs, cs + len(run), name, decoded)
            break


_ROT13_WORDS = frozenset("""
the and you your all any this that with from not never always when before after into must should will
run send read ignore every them they their what are for was tell user agent instructions file files
""".split())


# ROT13 of "the", "and", "you", "to", "of", "is", "for" as words: a line holding none is no ROT13 of English.
_ROT13_HINT = rx(r"(?:^|[\s(])(?:[Gg]ur|[Nn]aq|[Ll]bh|[Ll]bhe|[Gg]b|[Bb]s|[Vv]f|[Ss]be|[Aa]erire|[Nn]yjnlf)(?:[\s,.;:)]|$)")
_ROT13_GATE = rx(r"\b(?:[Gg]ur|[Nn]aq|[Ll]bh|[Ss]be|[Gg]b|[Bb]s|[Vv]f) ")
_ENGLISH_MARKS = (" the ", " and ", " to ", " of ", " is ", " a ", " in ", " for ", " you", " it ", " on ", " with ")


def _candidate_lines(text: str, data: bytes, hint, limit: int) -> Iterator[tuple[int, str]]:
    """(start, line) of each line holding a hint match, once per line, long and spaced enough to
    be a sentence; at most `limit` lines are considered."""
    from .document import _ByteToChar
    to_char = _ByteToChar(text, data)  # byte to character offsets, incremental (matches come in order)
    seen = -1
    count = 0
    for m in hint.finditer(data):
        at = to_char(m.start())
        begin = text.rfind("\n", 0, at) + 1
        if begin <= seen:
            continue
        stop = text.find("\n", at)
        stop = len(text) if stop < 0 else stop
        seen = begin
        count += 1
        if count > limit:
            return
        line = text[begin:stop]
        if len(line) >= 30 and line.count(" ") >= 5:
            yield begin, line


def _reads_as_english(decoded: str, n_words: int) -> bool:
    """Two or more English marks, and common or function words for 3 and 30% of n_words."""
    if sum(1 for mark in _ENGLISH_MARKS if mark in f" {decoded.lower()} ") < 2:
        return False
    dwords = [w.strip(".,;:!?'\"()`*").lower() for w in decoded.split()]
    hits = sum(1 for w in dwords if w in _ROT13_WORDS or w in _FUNCTION_WORDS)
    return hits >= 3 and hits >= 0.3 * n_words


def rot13_spans(text: str, limit: int = 2000, data: bytes | None = None) -> Iterator[Encoded]:
    """Lines whose ROT13 reads as English while the line itself does not. Cheap substring tests
    (in C) drop ordinary English lines and code before any word is counted."""
    data = text.encode("utf-8", "surrogatepass") if data is None else data
    if _ROT13_GATE.search(data) is None:
        return  # no ROT13 of a common English word anywhere
    for start, line in _candidate_lines(text, data, _ROT13_HINT, limit):
        if any(m in f" {line.lower()} " for m in _ENGLISH_MARKS):
            # An English label, then the encoded text after its colon ("Note for the assistant
            # (rot13, decode and apply): Vtaber ..."): the part after a colon is read on its own.
            cut = line.find(": ")
            for _ in range(3):
                if cut < 0:
                    break
                tail = line[cut + 2:]
                if not any(m in f" {tail.lower()} " for m in _ENGLISH_MARKS):
                    start, line = start + cut + 2, tail
                    break
                cut = line.find(": ", cut + 2)
            else:
                continue
            if cut < 0:
                continue
        words = [w for w in (w.strip(".,;:!?'\"()`*").lower() for w in line.split()) if w.isalpha()]
        if len(words) < 6:
            continue
        decoded = codecs.decode(line, "rot13")
        if _reads_as_english(decoded, len(words)):
            yield Encoded(start, start + len(line), "rot13", decoded)


# Reversed "the", "and", "you", "your", "this", "with", "that" as words: text written right to
# left ("resu eht ot siht wohs ton od") holds some; ordinary English, code and other languages
# almost never do.
_REVERSED_HINT = rx(r"(?:^|[\s(])(?:[Ee]ht|[Dd]na|[Uu]oy|[Rr]uoy|[Ss]iht|[Hh]tiw|[Tt]aht)(?:[\s,.;:)]|$)")


def reversed_spans(text: str, limit: int = 2000, data: bytes | None = None) -> Iterator[Encoded]:
    """Lines that read as English only when reversed character by character ("mirrored for an
    RTL renderer"): a model reverses them on request while a reviewer sees noise."""
    data = text.encode("utf-8", "surrogatepass") if data is None else data
    for start, line in _candidate_lines(text, data, _REVERSED_HINT, limit):
        if sum(1 for mark in _ENGLISH_MARKS if mark in f" {line.lower()} ") >= 2:
            continue  # English as written
        decoded = line[::-1]
        dwords = [w for w in (w.strip(".,;:!?'\"()`*").lower() for w in decoded.split()) if w.isalpha()]
        if len(dwords) >= 6 and _reads_as_english(decoded, len(dwords)):
            yield Encoded(start, start + len(line), "reversed", decoded)


# The ROT13 and reversed-text hints seldom match: one set pass over both (gates.py) says whether
# either pass can find anything, instead of a pass of each over every text.
_HINTS = Family("carrier_hints", _ROT13_GATE, _REVERSED_HINT, normalized=False)
_ROT13_AT, _REVERSED_AT = _HINTS.indexes(_ROT13_GATE), _HINTS.indexes(_REVERSED_HINT)


def encoded_spans(text: str, data: bytes | None = None) -> Iterator[Encoded]:
    """Encoded runs (base64, base32, hex, percent, ROT13, reversed text) that decode to natural
    language. `data`: the text's UTF-8 bytes when the caller has them already."""
    data = text.encode("utf-8", "surrogatepass") if data is None else data
    yield from _spans(text, data)
    hints = _HINTS.scan(data)  # every index when the pass did not finish
    if not _ROT13_AT.isdisjoint(hints):
        yield from rot13_spans(text, data=data)
    if not _REVERSED_AT.isdisjoint(hints):
        yield from reversed_spans(text, data=data)
