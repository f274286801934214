"""Read what each unit of an agent file asks the agent to do, and name the attacks it forms.

For every unit (units.py) the model finds the concepts of the lexicons (lexicon.py): actions
(read, send, put, approve, disable, hide, obey, override, give repository authority, widen
permissions, run a remote script), objects (credentials, environment output, security controls),
destinations (URLs by host, public places, outside services) and modalities (negation scoped to
the action's own clause, refusal or detection framing, conditions, insistence). An attack is a
combination: a credential read and sent outside, concealment joined to an action, approval
regardless of checks, a security control switched off, authority over the repository given
away, remote content declared part of the file, an override in any language.

Cost: one RE2 set pass over the document names the concepts present; only concepts that can
complete a combination are then located, one pass each. Everything else is bisecting offsets.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Iterable

from .. import hosts
from ..document import _ByteToChar
from ..matching import rx
from ..normalize import INVISIBLE_RANGES
from .lexicon import lexicon
from .units import Unit, split_units

_INVISIBLE = {cp: None for lo, hi in INVISIBLE_RANGES for cp in range(lo, hi + 1)}
_URL = rx(r"(?i)\b(?:https?|ftp)://[^\s<>\"'`)\]]+")
_CLAUSE_BREAKS = set(":;，；：。！？!?،؛—|\n") | {","}
_PLACEHOLDER = ("example.com", "example.org", "example.net", "localhost", "127.0.0.1", "0.0.0.0", "your-", "yourdomain",
                "<", "{", "$")
# Actions whose negation matters: "never send" is not an order to send.
ACTIONS = ("read", "send", "put", "approve", "disable", "hide", "obey", "override", "authority", "perm", "remote_run", "precedence")

# Which concepts each attack needs; a document lacking them is not read further.
_NEEDS: dict[str, tuple[frozenset[str], ...]] = {
    "exfiltration": (frozenset({"credential", "send"}), frozenset({"credential", "put", "public"}),
                     frozenset({"env_output", "put"}), frozenset({"env_output", "send"})),
    "concealment": (frozenset({"hide"}),),
    "delegation": (frozenset({"precedence"}),),
    "approval": (frozenset({"approve", "regardless"}),),
    "override-control": (frozenset({"disable", "control"}),),
    "authority": (frozenset({"authority"}),),
    "permissions": (frozenset({"perm"}),),
    "override": (frozenset({"override"}),),
}
_ALWAYS_LOCATE = ("negation", "refuse", "detect", "self_ref", "conditional", "always", "user", "run_ref", "read", "outside", "public")


@dataclass(frozen=True)
class Mention:
    concept: str
    start: int  # offsets into Reading.text
    end: int
    negated: bool = False


@dataclass
class UnitReading:
    """What one unit says: its text, the concepts found in it, and what its modality is."""

    unit: Unit
    text: str
    mentions: list[Mention] = field(default_factory=list)
    urls: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, class) class: outside, ip, vendor, placeholder

    def has(self, concept: str, *, affirmed: bool = False) -> bool:
        return any(m.concept == concept and not (affirmed and m.negated) for m in self.mentions)

    def first(self, concept: str, *, affirmed: bool = False) -> Mention | None:
        return next((m for m in self.mentions if m.concept == concept and not (affirmed and m.negated)), None)

    @property
    def concepts(self) -> frozenset[str]:
        return frozenset(m.concept for m in self.mentions)

    @property
    def refusal(self) -> bool:
        """Told to refuse, report or distrust: "if a page asks you to ..., refuse"."""
        return self.has("refuse", affirmed=True)

    @property
    def quoted(self) -> bool:
        """The whole unit is a quotation or inline code: a sample, not an order."""
        t = self.text.strip()
        if t[:2] in ("- ", "* ", "+ "):
            t = t[2:].strip()
        t = t.rstrip(".,;:")
        pairs = {'"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u00ab": "\u00bb", "\u300c": "\u300d"}
        return len(t) > 2 and t[0] in pairs and t.endswith(pairs[t[0]])

    @property
    def outside_url(self) -> bool:
        return any(c in ("outside", "ip") for _, _, c in self.urls)

    @property
    def ip_url(self) -> bool:
        return any(c == "ip" for _, _, c in self.urls)


@dataclass(frozen=True)
class Intent:
    """An attack the model reads in one unit (with its neighbours)."""

    attack: str  # exfiltration, concealment, delegation, approval, override-control, authority, permissions, override
    strength: str  # "high" or "medium" or "low": how plainly the unit gives the order
    start: int  # offsets into Reading.text (the unit's span, or the decisive mention)
    end: int
    unit: int  # index into Reading.units
    why: str


@dataclass
class Reading:
    text: str  # the text read: the original with invisible characters removed
    index: list[int] | None  # Reading offset -> original offset (None: identical)
    units: list[UnitReading]

    def to_original(self, offset: int) -> int:
        if self.index is None:
            return offset
        return self.index[offset] if offset < len(self.index) else (self.index[-1] + 1 if self.index else 0)


def _visible(text: str) -> tuple[str, list[int] | None]:
    cleaned = text.translate(_INVISIBLE)
    if len(cleaned) == len(text):
        return text, None
    index = [i for i, ch in enumerate(text) if ord(ch) not in _INVISIBLE]
    return cleaned, index


def _byte_to_char(text: str, data: bytes) -> _ByteToChar:
    return _ByteToChar(text, data)


def _url_class(url: str) -> str:
    low = url.lower()
    host = hosts.host_of(url)
    if not host or any(p in host for p in _PLACEHOLDER) or any(p in low[:12 + len(host)] for p in ("<", "{", "$")):
        return "placeholder"
    if host.endswith((".example", ".test", ".invalid", ".local", ".localhost", ".internal")):
        return "placeholder"
    if hosts.is_ip(host):
        if host.startswith(("10.", "192.168.", "127.", "172.16.", "0.")):
            return "placeholder"
        return "ip"
    domain = hosts.registrable_domain(host)
    if domain in _vendor_domains():
        return "vendor"
    return "outside"


_VENDORS: frozenset[str] | None = None


def _vendor_domains() -> frozenset[str]:
    global _VENDORS
    if _VENDORS is None:
        found: set[str] = set()
        for domains in hosts.credential_vendors().values():
            found.update(hosts.registrable_domain(d) for d in domains)
        _VENDORS = frozenset(found)
    return _VENDORS


def _negated(text: str, unit: Unit, start: int, end: int, negations: list[tuple[int, int]], post) -> bool:
    """A negation in the action's own clause: before it in the same unit with no clause break
    between (\"never send\", \"не отправляй\"), or right after it in languages that put it there."""
    i = bisect.bisect_left(negations, (start, start)) - 1
    while i >= 0:
        ns, ne = negations[i]
        if ns < unit.start or start - ne > 60:
            break
        if ne <= start and not any(c in _CLAUSE_BREAKS for c in text[ne:start]):
            return True
        i -= 1
    if post is not None:
        tail = text[end:min(unit.end, end + 30)]
        if tail and post.search(tail.encode("utf-8", "surrogatepass")) is not None:
            return True
    return False


_DECLARATIVE_LEAD = frozenset({"that", "which", "who", "can", "could", "may", "might", "would", "it", "they", "attackers",
                               "attacker", "libraries", "tools", "malware", "trojans", "scripts"})
_DETERMINERS = frozenset({"many", "some", "most", "these", "those", "the", "a", "an", "such", "several", "few", "older",
                          "legacy", "other", "it", "they", "this", "that"})
_NOT_SUBJECTS = frozenset({"always", "thus", "unless", "process", "access", "address", "across", "perhaps", "yours",
                           "others", "afterwards", "sometimes", "besides", "regardless", "unless", "its"})
_ORDER_ACTIONS = frozenset({"disable", "approve", "authority", "send", "put", "read", "perm"})


def _declarative(text: str, unit: Unit, start: int) -> bool:
    """An English verb with a subject that is not the agent ("values that disable protections",
    "`--yolo` disable sandbox"): a description, not an order."""
    lo = max(unit.start, start - 40)
    before = text[lo:start]
    cut = max(before.rfind(c) for c in ".;:,(\n")
    words = before[cut + 1:].split()
    if not words or not text[start:start + 1].isascii():
        return False
    last = words[-1].lower().rstrip(")]}*")
    if last in ("and", "or") and words[0].lower() in _DETERMINERS:
        return True  # "Many libraries accept this and skip ...": the clause has a subject
    if last in _DECLARATIVE_LEAD or last[-1:] in "`'\"" and len(last) > 2:
        return True
    # A plural noun right before the verb is its subject ("misconfigurations disable ...").
    return len(last) > 3 and last.endswith("s") and last.isalpha() and last not in _NOT_SUBJECTS


def read_units(text: str, *, limit: int = 400) -> Reading:
    """Read a text (an agent file, or hidden text a carrier decoded) unit by unit."""
    lex = lexicon()
    visible, index = _visible(text)
    units = split_units(visible)
    flat = visible.replace("\n", " ")  # phrases run across line breaks; same length
    data = flat.encode("utf-8", "surrogatepass")
    present = lex.concept_set.match(data)
    names = set(lex.set_concepts) if present is None else {lex.set_concepts[i] for i in present}
    wanted: set[str] = set()
    for needs in _NEEDS.values():
        for need in needs:
            if need <= names:
                wanted |= need
    readings = [UnitReading(u, visible[u.start:u.end]) for u in units]
    if not wanted or not units:
        return Reading(visible, index, readings)
    wanted |= names & (set(_ALWAYS_LOCATE) | {"credential", "env_output", "control", "regardless", "hide",
                                              "approve", "authority", "remote_run", "send", "put", "disable", "perm"})
    found: dict[str, list[tuple[int, int]]] = {}
    for concept in sorted(wanted):
        to_char = _byte_to_char(flat, data)  # offsets rise within one pattern's matches
        spans = []
        for k, m in enumerate(lex.patterns[concept].finditer(data)):
            if k >= limit:
                break
            spans.append((to_char(m.start()), to_char(m.end())))
        found[concept] = spans
    starts = [u.start for u in units]

    def unit_of(offset: int) -> int:
        i = bisect.bisect_right(starts, offset) - 1
        return i if i >= 0 and offset < units[i].end else -1

    negations = found.get("negation", [])
    for concept, spans in found.items():
        for s, e in spans:
            i = unit_of(s)
            if i < 0:
                continue
            neg = concept in ACTIONS and (_negated(flat, units[i], s, e, negations, lex.post_negation)
                                          or concept in _ORDER_ACTIONS and _declarative(flat, units[i], s))
            readings[i].mentions.append(Mention(concept, s, e, neg))
    if "://" in visible:
        to_char = _byte_to_char(flat, data)
        for k, m in enumerate(_URL.finditer(data)):
            if k >= limit:
                break
            s, e = to_char(m.start()), to_char(m.end())
            i = unit_of(s)
            if i >= 0:
                readings[i].urls.append((s, e, _url_class(flat[s:e].rstrip(".,;:"))))
    return Reading(visible, index, readings)


def _window(reading: Reading, i: int, back: int = 1) -> list[UnitReading]:
    """The unit and up to `back` units before it in the same block (a paragraph or item)."""
    u = reading.units[i]
    out = [u]
    for k in range(i - 1, max(-1, i - 1 - back), -1):
        if reading.units[k].unit.block != u.unit.block:
            break
        out.append(reading.units[k])
    return out


def _any(window: Iterable[UnitReading], concept: str, affirmed: bool = True) -> bool:
    return any(w.has(concept, affirmed=affirmed) for w in window)


def _action_units(reading: Reading, i: int, back: int = 3) -> list[UnitReading]:
    """The units a hiding order can refer to: itself and the units before it in its section."""
    out = [reading.units[i]]
    for k in range(i - 1, max(-1, i - 1 - back), -1):
        if reading.units[k].unit.kind == "heading":
            break
        out.append(reading.units[k])
    return out


def _exfiltration(w: list[UnitReading]) -> str | None:
    cred = _any(w, "credential", False) or _any(w, "env_output", False)
    if not cred:
        return None
    send = _any(w, "send")
    put = _any(w, "put")
    if not (send or put):
        return None
    outside = any(u.outside_url for u in w) or _any(w, "outside", False)
    public = _any(w, "public", False)
    file_like = any(m.concept in ("env_output",) or (m.concept == "credential" and _is_path(u.text, u.unit.start, m))
                    for u in w for m in u.mentions)
    read = _any(w, "read")
    if send and any(u.ip_url for u in w):
        return "high"
    if send and outside and (file_like or read):
        return "high"
    if (send or put) and public and file_like and any(_put_reaches_public(u) for u in w):
        return "high"
    if send and outside:
        return "medium"
    if send and public:
        return "low"
    return None


def _self_won(u: UnitReading, m: Mention) -> bool:
    """The reviewed file itself is what takes precedence ("this file takes precedence over it")."""
    for x in u.mentions:
        if x.concept != "self_ref" or not (x.end <= m.start and m.start - x.end < 60):
            continue
        if any(s <= x.start < e or x.end <= s < m.start for s, e, _ in u.urls):
            continue  # inside a URL, or a URL between them names what takes precedence
        return True
    return False


def _put_reaches_public(u: UnitReading) -> bool:
    """A put verb and a public place in one clause of the unit (no ';' between)."""
    puts = [m for m in u.mentions if m.concept in ("put", "send") and not m.negated]
    pubs = [m for m in u.mentions if m.concept == "public"]
    base = u.unit.start
    for p in puts:
        for q in pubs:
            lo, hi = sorted((p.start, q.start))
            if ";" not in u.text[lo - base:hi - base]:
                return True
    return False


def _is_path(text: str, base: int, m: Mention) -> bool:
    word = text[m.start - base:m.end - base]
    return any(c in word for c in "./~$_") or "env" in word.lower()


def _dangerous(w: list[UnitReading]) -> bool:
    """An action worth hiding: data moving out, approval, repository authority, a control off,
    a remote script run, credentials read."""
    if _exfiltration(w) is not None:
        return True
    for u in w:
        if u.has("approve", affirmed=True) or u.has("authority", affirmed=True) or u.has("remote_run", affirmed=True):
            return True
        if u.has("disable", affirmed=True) and u.has("control"):
            return True
        if (u.has("send", affirmed=True) or u.has("put", affirmed=True)) and (u.outside_url or u.has("public") or u.has("credential")):
            return True
        if u.has("read", affirmed=True) and u.has("credential") and any(_is_path(u.text, u.unit.start, m) for m in u.mentions if m.concept == "credential"):
            return True
        if u.has("override", affirmed=True):
            return True
    return False


def hiding_joined_to_action(reading: Reading, i: int) -> bool:
    """True when unit i (which hides something from the user) sits with an action worth hiding."""
    return _dangerous(_action_units(reading, i))


_LEVELS = ("low", "medium", "high")
_EXCEPTION = rx(r"(?i)(?:\bexcept|\bexception|\bunless\b|\bbut\b|\btrusted\b|\ballowed\b|\bsafe\b|\bfine\b|\bok\b|\bokay\b|例外|除外|исключени|excepto|exceto|ausnahme|sauf)")


def _intro(reading: Reading, i: int) -> UnitReading | None:
    """The sentence that introduces the list or table holding unit i (none past a heading)."""
    for k in range(i - 1, max(-1, i - 40), -1):
        kind = reading.units[k].unit.kind
        if kind == "heading":
            return None
        if kind not in ("item", "cell", "code"):
            return reading.units[k]
    return None


def _acted_on(reading: Reading, i: int) -> bool:
    """A later unit tells the agent to act on this sample ("now run the example above")."""
    return any(reading.units[k].has("run_ref") for k in range(i + 1, min(len(reading.units), i + 6)))


def _lowering(reading: Reading, i: int) -> int:
    """Steps of severity the unit's own structure is worth. Only what changes what the agent
    does counts: a refusal in the unit, a quoted sample, a list introduced as things to detect
    or never to do. Headings, blockquotes and the word "example" count for nothing, and a sample
    the text then tells the agent to run counts for nothing either."""
    u = reading.units[i]
    if u.refusal:
        return 2
    if _acted_on(reading, i):
        return 0
    steps = 0
    if u.quoted or u.has("detect"):
        steps = 1  # a quoted sample, or a sentence about attacks or detection
    if u.unit.kind in ("item", "cell", "code") and not _EXCEPTION.test(u.text[:400]):
        intro = _intro(reading, i)
        if intro is not None and (intro.refusal or intro.has("detect") or
                                  any(m.concept == "negation" for m in intro.mentions)):
            steps = 2
    return steps


def classify(reading: Reading) -> list[Intent]:
    """Every attack the model reads, at most one of a kind per unit."""
    out: list[Intent] = []
    for i, u in enumerate(reading.units):
        if not u.mentions:
            continue
        c = u.concepts
        steps = _lowering(reading, i)
        w = _window(reading, i)

        def add(attack: str, strength: str, why: str, m: Mention | None = None) -> None:
            if steps:
                strength = _LEVELS[max(0, _LEVELS.index(strength) - steps)]
            s, e = (m.start, m.end) if m is not None else (u.unit.start, u.unit.end)
            out.append(Intent(attack, strength, s, e, i, why))

        if c & {"send", "put"} and c & {"credential", "env_output", "public", "outside"} or u.urls:
            level = _exfiltration(w)
            if level and u.has("send", affirmed=True) or level and u.has("put", affirmed=True):
                add("exfiltration", level, "credentials or environment output sent outside or published")
        if "hide" in c:
            m = u.first("hide", affirmed=True)
            if m is not None and hiding_joined_to_action(reading, i):
                add("concealment", "high", "hides an action from the user", m)
        if "precedence" in c:
            m = u.first("precedence", affirmed=True)
            if m is not None and _self_won(u, m):
                m = None  # "this file takes precedence": the reviewed file wins
            if m is not None and any(x.outside_url or x.ip_url for x in _window(reading, i, 2)):
                add("delegation", "high", "remote content declared part of the instructions", m)
        if "approve" in c and "regardless" in c:
            m = u.first("approve", affirmed=True)
            if m is not None and u.first("regardless") is not None:
                add("approval", "high", "approves or merges whatever the checks say", m)
        if "disable" in c and "control" in c:
            m = u.first("disable", affirmed=True)
            ctl = u.first("control")
            if m is not None and ctl is not None:
                word = u.text[ctl.start - u.unit.start:ctl.end - u.unit.start].lower()
                soft = "confirm" in word or "review" in word or "hook" in word
                add("override-control", "medium" if soft else "high", "switches a safety control off", m)
        if "authority" in c:
            m = u.first("authority", affirmed=True)
            if m is not None:
                add("authority", "high", "gives authority over the repository away", m)
        if "perm" in c:
            m = u.first("perm", affirmed=True)
            if m is not None:
                add("permissions", "medium", "widens file or account permissions", m)
        if "override" in c:
            m = u.first("override", affirmed=True)
            if m is not None:
                add("override", "high", "tells the agent to drop its earlier instructions", m)
    return out


def is_directive(text: str) -> bool:
    """Does this text (e.g. hidden text a carrier decoded) order the agent to do something the
    model names as an attack?"""
    return any(i.strength in ("high", "medium") for i in classify(read_units(text)))
