"""Context around a match: is the phrase told to the agent, or quoted in order to refuse it?

Security skills and hardening guides quote attack strings ("ignore previous instructions",
`curl ... | bash`) to teach an agent to recognise and refuse them. The same string given to
the agent as an instruction is the attack. These helpers look at what surrounds a match
(negation before it in the same sentence, quotation marks, a blockquote, a fenced code block,
a heading such as "Examples of attacks", a document about detecting attacks) and say how
many severity steps the context is worth. Context lowers a finding; it never hides one.

Everything here is linear in the text: plain string scanning over the normalised view.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

from ..document import Document
from ..matching import rx
from ..models import Severity


# Words that, shortly before a match in the same sentence, turn it into something to refuse.
_NEGATION = rx(
    r"(?:\bnever\b|\bdon'?t\b|\bdo\s+not\b|\bdoes\s+not\b|\bmust\s+not\b|\bmustn'?t\b|\bshould\s+not\b|"
    r"\bshouldn'?t\b|\bcannot\b|\bcan'?t\b|\bwon'?t\b|\bnot\s+(?:follow|obey|comply|execute|run)\b|"
    r"\brefuse|\breject|\bdecline|\bbeware\b|\bbe\s+wary\b|\bwatch\s+(?:out\s+)?for\b|\blook\s+out\s+for\b|"
    r"\bdetect|\bflag(?:s|ged|ging)?\b|\bblock(?:s|ed|ing)?\b|\bwarn|\bred\s+flags?\b|\bsuspicious\b|"
    r"\bmalicious\b|\battack|\binjection\b|\bjailbreak|\bexploit|\bphishing\b|"
    r"\bphrases?\b|\bpatterns?\b|\battempts?\b|"
    r"\bif\s+(?:you\s+)?(?:see|encounter|find|notice|receive|read)\b|\bif\s+(?:a|an|the|any|some)\s+(?:\w+\s+){1,4}(?:says|asks|tells|contains|instructs|includes)\b|"
    r"\bclaims?\b|\bpretend|\bimpersonat|\bavoid\b|\bprohibit|\bforbid|\bdisallow|\bnot\s+allowed\b|"
    r"\bdangerous\b|\brisky\b|\bunsafe\b|\binsecure\b|\bvulnerab|\bthreats?\b|\bindicators?\b|\bignore\s+(?:any|such|them|it)\b)"
)

# Headings that frame what follows as things to detect or never to do. "Examples", "Security
# review", "Audit" or "Warning" say nothing about what the agent is to do with the text under
# them, and cost an attacker nothing to write, so they lower nothing.
_TEACHING_HEADING = rx(
    r"(?:attack|red\s+flag|detect|injection|malicious|threat|suspicious|anti-?pattern|don'?t|do\s+not|avoid|"
    r"never|forbidden|prohibited|indicator|\bioc|what\s+not|\bbad\b|dangerous|unsafe|jailbreak|exploit|refus|reject)"
)

# A document whose subject is attacks and how to resist them (security skills, scanners).
_TOPIC_WORDS = rx(
    r"(?:prompt[\s_-]+injection|jailbreak|malicious|attacker|exfiltrat|\bthreat|vulnerab|"
    r"red[\s_-]+team|security\s+(?:review|audit|scan)|detect(?:ion|s|ed)?\b|adversarial|indicator|\bioc\b|"
    r"\bsecurity\b|\battack|suspicious|sanitiz|\bscanner\b|defen[cs]e|hardening)"
)

_SENTENCE_END = ".!?;"


def _headings(doc: Document) -> tuple[list[int], list[str]]:
    """Line numbers and normalised texts of markdown headings outside code blocks."""
    nums: list[int] = []
    texts: list[str] = []
    if doc.kind != "prose":
        return nums, texts
    code = doc.code_block_lines
    norm_lines = doc.memo("norm_lines", lambda: doc.normalized_text.split("\n"))
    for no, line in enumerate(norm_lines, 1):
        if line[:1] not in "#*_":
            continue
        if line.startswith("#") and no not in code:
            nums.append(no)
            texts.append(line.lstrip("#").strip())
        elif line.startswith(("**", "__")) and line.rstrip().endswith(("**", "__", ":", "**:")) and len(line) < 120 and no not in code:
            nums.append(no)  # a bold line standing as a heading
            texts.append(line.strip("*_: "))
    return nums, texts


def heading_of(doc: Document, line_no: int) -> str:
    nums, texts = doc.memo("headings", lambda: _headings(doc))
    i = bisect.bisect_right(nums, line_no) - 1
    return texts[i] if i >= 0 else ""


def topic_density(doc: Document) -> int:
    """How many attack/defence topic words the document uses (capped; one pass)."""
    def count() -> int:
        n = 0
        for m in doc.finditer(_TOPIC_WORDS, limit=80):
            # Words inside host names and paths ("attacker.example.com") are not the topic.
            if doc.text[m.start - 1:m.start] in "./-_@" and m.start > 0 or doc.text[m.end:m.end + 1] in (".", "/", "_", "-") and doc.text[m.end:m.end + 1]:
                continue
            n += 1
        return n
    return doc.memo("topic", count)


def is_security_document(doc: Document) -> bool:
    """A document about attacks and defences: quoting attack text is its subject matter."""
    name = doc.path.lower()
    if any(w in name for w in ("security", "injection", "guard", "defen", "threat", "audit", "scan", "attack", "vet", "safety", "danger", "malware", "exploit")):
        return topic_density(doc) >= 3
    return topic_density(doc) >= 8


def _norm_line(doc: Document, line_no: int) -> str:
    lines = doc.memo("norm_lines", lambda: doc.normalized_text.split("\n"))
    return lines[line_no - 1] if 0 < line_no <= len(lines) else ""


def _prefix_in_sentence(doc: Document, start: int, reach: int = 160) -> str:
    """Normalised text before `start` on its line (and the line before, for wrapped
    sentences and list items introduced by a colon), cut at the last sentence end."""
    line_no, col = doc.position(start)
    line = doc.line_text(line_no)
    lo = max(0, col - 1 - reach * 2)
    before = line[lo:col - 1].lower()
    prev = _norm_line(doc, line_no - 1).rstrip()
    in_code = line_no in doc.code_block_lines
    # In prose, a period inside an earlier inline-code span (`curl http://... | sh`) ends no
    # sentence: "Never run `a ...`, `b` or `c`" negates all three. Only spans closed before the
    # match are read so: the span holding the match keeps its own separators (`x; curl ... | sh`).
    marks = _closed_code_spans(line, lo, col - 1) if not in_code and "`" in before else before
    # Join a wrapped sentence or the colon that introduces a quoted example; never join
    # lines of code (a "# do not remove" comment does not negate the command below it).
    if prev and not in_code and (prev.endswith(":") or (before.strip() == "" and prev[-1:] not in ".!?")):
        before = prev + " " + before
        marks = prev + " " + marks
    if not in_code and _is_list_item(line[:200]):
        intro = _list_intro(doc, line_no)
        if intro.endswith(":"):
            before = intro + " " + before  # "You must never:" governs every item of its list
            marks = intro + " " + marks
    before, marks = before[-reach:], marks[-reach:]
    cut = max(marks.rfind(c + " ") for c in _SENTENCE_END)
    before = before[cut + 1:] if cut >= 0 else before
    # URLs and paths are not words: "attacker.example.com" negates nothing.
    return " ".join(w for w in before.split(" ") if "://" not in w and "." not in w.strip(".,;:"))


def _closed_code_spans(line: str, lo: int, hi: int) -> str:
    """line[lo:hi] lowercased, with the text of every inline-code span closed before `hi`
    blanked (same length), so that its periods and semicolons end no sentence. Spans are
    paired from the start of the line (bounded: a huge line is read as is)."""
    text = line[lo:hi].lower()
    if hi > 4000 or len(text) != hi - lo:
        return text
    opens = [i for i, ch in enumerate(line[:hi]) if ch == "`"]
    out = list(text)
    for a, b in zip(opens[0::2], opens[1::2]):
        for i in range(max(a + 1, lo), b):
            out[i - lo] = "x"
    return "".join(out)


def _is_list_item(line: str) -> bool:
    s = line.lstrip()
    return s.startswith(("- ", "* ", "+ ")) or (s[:1].isdigit() and s.split(" ", 1)[0].rstrip(".)").isdigit())


def _list_intro(doc: Document, line_no: int) -> str:
    """The line that introduces the list holding `line_no` (within 40 lines), normalised."""
    for k in range(line_no - 1, max(0, line_no - 41), -1):
        text = doc.line_text(k)
        if not text.strip() or _is_list_item(text) or text.startswith((" ", "\t")):
            continue
        return _norm_line(doc, k).strip()
    return ""


def _quoted(doc: Document, start: int, end: int, marks: tuple[tuple[str, str], ...]) -> bool:
    """Inside the given quotation marks, or a blockquote, on the match's own line."""
    line_no, col = doc.position(start)
    line = doc.line_text(line_no)
    before = line[max(0, col - 1 - 2000):col - 1]  # bounded: quotes are local
    end_col = col - 1 + (end - start)
    after = line[end_col:end_col + 2000] if end_col <= len(line) else ""
    for open_, close in marks:
        if before.count(open_) % 2 == 1 if open_ == close else before.count(open_) > before.count(close):
            if close in after:
                return True
    return False


_QUOTES = (('"', '"'), ("\u201c", "\u201d"), ("'", "'"), ("\u2018", "\u2019"))


@dataclass(frozen=True)
class Context:
    negated: bool
    quoted: bool  # quotation marks, a blockquote, a table row, a pattern list
    in_code_block: bool
    teaching_heading: bool
    security_document: bool
    backticked: bool = False  # inline code: quoting for prose, but how commands are given
    detection_list: bool = False  # a row of a list introduced as things to detect or never to do

    def steps(self, *, code_counts: bool = True, quotes_count: bool = True) -> int:
        """Severity steps this context is worth (0 = told to the agent as is)."""
        steps = 0
        if self.negated:
            steps += 2
        if (self.quoted and quotes_count) or (self.backticked and code_counts):
            steps += 1
        if self.in_code_block and code_counts:
            steps += 1
        if self.teaching_heading:
            steps += 1
        if self.security_document and steps:
            steps += 1  # quoting is the subject of a security document
        if self.detection_list:
            steps = max(steps, 2)
        return min(steps, 3)

    def describe(self) -> list[str]:
        return [name for name in ("negated", "quoted", "backticked", "in_code_block", "teaching_heading", "security_document", "detection_list") if getattr(self, name)]


def context_at(doc: Document, start: int, end: int) -> Context:
    line_no, col = doc.position(start)
    prose = doc.kind == "prose"
    prefix = _prefix_in_sentence(doc, start)
    negated = _NEGATION.test(prefix)
    line = doc.line_text(line_no)
    near = line if len(line) <= 4000 else line[max(0, col - 2000):col + 2000]  # bounded on huge lines
    quoted = (_quoted(doc, start, end, _QUOTES) or line[:200].lstrip().startswith("|")) if prose else False
    quoted = quoted or _pattern_line(near) or (not prose and _pattern_label(doc, line_no, line))
    backticked = prose and _quoted(doc, start, end, (("`", "`"),))
    in_code = prose and line_no in doc.code_block_lines
    heading = heading_of(doc, line_no) if prose else ""
    teaching = bool(heading) and _TEACHING_HEADING.test(heading)
    if prose and _acted_on(doc, line_no):
        # "Now run the example above": the sample is the order, whatever frames it.
        return Context(negated, False, False, False, False, False)
    detection = prose and _detection_list(doc, line_no, near)
    return Context(negated, quoted, in_code, teaching, is_security_document(doc), backticked, detection)


_EXCEPTION = rx(r"(?:\bexcept|\bexception|\bunless\b|\bbut\s+(?:run|use|install|allow)|\btrusted\b|\bis\s+(?:fine|ok|okay|allowed|safe)\b)")


# An intro that sends the reader looking for what follows ("Search the logs for these:", "grep
# for the lines below", "check for any of:"): the rows are what to find, not what to do.
_SEARCH_INTRO = rx(r"\b(?:search|grep|scan|hunt|look|check|comb|sweep|query)(?:es|ed|ing|s)?\s+(?:[\w'-]+\s+){0,3}?for\b")


def _item_head(doc: Document, line_no: int) -> int:
    """The line a wrapped list item starts on, for an indented continuation line of it (0: none)."""
    for k in range(line_no - 1, max(0, line_no - 13), -1):
        text = doc.line_text(k)
        if not text.strip():
            return 0
        if _is_list_item(text):
            return k
        if not text.startswith((" ", "\t")):
            return 0
    return 0


# A heading that names its list as what to look for ("What to look for", "Watch out for", "Warning
# signs"); not "Check for updates" or "Search for packages", which title steps.
_LOOK_FOR_HEADING = rx(r"(?:\b(?:look|watch)(?:ing)?\s+(?:out\s+)?for\b|\bwhat\s+to\s+(?:look|watch|search|scan|check|grep|hunt)\s+(?:out\s+)?for\b|"
                       r"\bwarning\s+signs\b|\btell-?tale\s+signs\b)")
# A row that opens with an order to run or install something: under an intro that only sends the
# reader searching ("What to look for", "Check for updates:"), such a row is a step, not a sample.
_ORDER_ROW = rx(r"^\s*(?:[-*+|]|\d+[.)])\s*(?:\*\*)?(?:first,?\s+|then\s+|now\s+|always\s+|please\s+|just\s+)?"
                r"(?:run|execute|paste|install|source|pipe|download|fetch|type|enter|invoke|launch|call|open|copy|add|set|send|upload|post)\b")


def _detection_list(doc: Document, line_no: int, line: str) -> bool:
    """A list item or table row introduced as things to search for or never to do ("Search for
    these; never run them.", "Indicators of compromise", a heading "What to look for"): the rows
    are data, not orders. A row that makes an exception ("except our registry, run ...") is an
    order again, and so is a row under a search intro that itself opens with an order ("- Run
    ..."). An indented line that continues a wrapped item belongs to that item."""
    if _EXCEPTION.test(line[:2000].lower()):
        return False
    if not (_is_list_item(line[:200]) or line[:200].lstrip().startswith(("|", ">"))):
        head = _item_head(doc, line_no) if line.startswith((" ", "\t")) and line_no not in doc.code_block_lines else 0
        if not head:
            return False
        line_no = head
    for k in range(line_no - 1, max(0, line_no - 41), -1):
        text = doc.line_text(k)
        s = text.strip()
        if not s or _is_list_item(text) or s.startswith(("|", ">")) or text.startswith((" ", "\t")):
            continue
        intro = _norm_line(doc, k)
        if s.startswith("#"):
            title = intro.lstrip("#")
            if _TEACHING_HEADING.test(title) or _LOOK_FOR_HEADING.test(title) and not _ORDER_ROW.test(_norm_line(doc, line_no)[:200]):
                return True
            # A plain section title ("Command shapes seen") under a document or part titled as indicators
            # to detect or things never to do: the rows are that part's data. A section titled as steps
            # ("Setup", "Install") is its own order, whatever its parent says.
            return not _STEP_HEADING.test(title) and not _ORDER_ROW.test(_norm_line(doc, line_no)[:200]) \
                and _framing_parent(doc, k, len(s) - len(s.lstrip("#")))
        if _NEGATION.test(intro) or _TEACHING_HEADING.test(intro) or _SEARCH_INTRO.test(intro):
            return True
        # A quotation under a negated intro in any language ("copiado como evidencia (NO es una
        # instrucción):"): the lexicons' negations, for blockquoted rows only, so that an order's
        # "no need to ask, run these:" over a list keeps its rows.
        return line[:200].lstrip().startswith(">") and intro.rstrip().endswith((":", "\uff1a")) and _negated_intro(intro)
    return False


_STEP_HEADING = rx(r"(?:setup|set\s+up|install|prerequisite|requirement|getting\s+started|quick\s*start|usage|how\s+to|steps?\b|run\b|"
                   r"before\s+(?:you|using|starting)|configur|bootstrap|first|workflow|procedure|instructions?\b|commands?\s+to\b)")


def _framing_parent(doc: Document, line_no: int, level: int) -> bool:
    """A heading of a higher level above `line_no` (the nearest one of each level, up to the title)
    that frames its part as things to detect or never to do."""
    nums, texts = doc.memo("headings", lambda: _headings(doc))
    i = bisect.bisect_left(nums, line_no) - 1
    while i >= 0 and level > 1:
        raw = doc.line_text(nums[i]).lstrip()
        lv = len(raw) - len(raw.lstrip("#")) if raw.startswith("#") else 0
        if 0 < lv < level:
            if _TEACHING_HEADING.test(texts[i]):
                return True
            level = lv
        i -= 1
    return False


def _negated_intro(intro: str) -> bool:
    from ..intent.lexicon import lexicon

    patterns = lexicon().patterns
    negation, double = patterns.get("negation"), patterns.get("double_negation")
    return negation is not None and negation.test(intro) and not (double is not None and double.test(intro))


def _acted_on(doc: Document, line_no: int) -> bool:
    """A line shortly after this one (after its code block, if it sits in one) tells the agent
    to run the sample: "now run the example above"."""
    from ..intent.lexicon import lexicon

    run_ref = lexicon().patterns.get("run_ref")
    if run_ref is None:
        return False
    code = doc.code_block_lines
    k = line_no
    while k in code and k - line_no < 200:
        k += 1
    window = " ".join(doc.line_text(j) for j in range(k, min(len(doc.lines), k + 6) + 1))
    return bool(window.strip()) and run_ref.test(window)


def lowered(base: Severity, ctx: Context, *, code_counts: bool = True, quotes_count: bool = True,
            floor: Severity = Severity.LOW) -> Severity:
    """The base severity lowered by the context, never below `floor` (LOW: a lowered hit stays visible)."""
    sev = base.lowered(ctx.steps(code_counts=code_counts, quotes_count=quotes_count))
    return max(sev, floor)


_MAX_WINDOW = 8000


def block_of(doc: Document, offset: int) -> tuple[int, int]:
    """Character span of the fenced code block or paragraph holding `offset`.

    Co-occurrence rules (a secret read and a network send) look within this window: a code
    block is one program; in prose a paragraph is one thought.
    """
    line_no, _ = doc.position(offset)
    n = len(doc.lines)
    code = doc.code_block_lines
    if line_no in code:
        lo = line_no
        while lo > 1 and (lo - 1) in code and not _is_fence(doc.lines[lo - 1]):
            lo -= 1
        hi = line_no
        while hi < n and (hi + 1) in code:
            hi += 1
            if _is_fence(doc.lines[hi - 1]):
                break
    elif doc.kind != "prose":
        lo, hi = max(1, line_no - 12), min(n, line_no + 12)  # scripts and configs: nearby lines
    else:
        lo = line_no
        while lo > 1 and doc.lines[lo - 2].strip() and lo - 1 not in code and line_no - lo < 15:
            lo -= 1
        hi = line_no
        while hi < n and doc.lines[hi].strip() and hi + 1 not in code and hi - line_no < 15:
            hi += 1
    start = doc.line_starts[lo - 1]
    end = doc.line_starts[hi - 1] + len(doc.lines[hi - 1])
    if end - start > _MAX_WINDOW:  # a megabyte line is not one thought: look nearby only
        start, end = max(start, offset - _MAX_WINDOW // 2), min(end, offset + _MAX_WINDOW // 2)
    return start, end


_PATTERN_MARKS = ("\\s", "\\b", "(?:", "(?i", "re.compile", "regex", "pattern", "RegExp", ".test(", "re.search", "re.match", "keywords", "signatures", "PHRASES", "MARKERS", "INDICATORS")


def _pattern_line(line: str) -> bool:
    """In code, a line that lists attack text as data (a regex, a keyword list element)."""
    s = line.strip()
    if any(mark in line for mark in _PATTERN_MARKS):
        return True
    return len(s) > 2 and s[0] in "\"'`" and s.rstrip(",").endswith(("\"", "'", "`")) and s.count(s[0]) == 2


_COMMENT_MARKS = ("#", "//", "--", "/*", "*")
MAX_LABEL_WORDS = 8  # a comment naming the group of patterns below it, not a sentence


def _pattern_label(doc: Document, line_no: int, line: str) -> bool:
    """In code, a short comment that names the group of patterns listed under it (`# System prompt
    override (critical)` over `{"regex": r"...", ...}`): the title of a detector's table, as a heading
    is of a list. A comment that says more than a label, or stands over code that lists no pattern,
    is read as written."""
    s = line.strip()
    if not s.startswith(_COMMENT_MARKS):
        return False
    words = [w for w in s.lstrip("#/-* ").split() if any(ch.isalnum() for ch in w)]
    if not words or len(words) > MAX_LABEL_WORDS:
        return False
    seen = 0
    for k in range(line_no + 1, min(line_no + 8, len(doc.lines) + 1)):
        nxt = doc.line_text(k)
        if not nxt.strip() or nxt.strip() in ("{", "[", "(", "({", "[{"):
            continue
        if _pattern_line(nxt[:4000]):
            return True
        seen += 1
        if seen >= 2:
            return False
    return False


def _is_fence(line: str) -> bool:
    s = line.lstrip(" ")
    return s.startswith(("```", "~~~"))


def norm_line_at(doc: Document, offset: int, cap: int = 4000) -> str:
    """The normalised line holding `offset` (around the offset when the line is huge)."""
    line_no, col = doc.position(offset)
    line = _norm_line(doc, line_no)
    if len(line) <= cap:
        return line
    return line[max(0, col - cap // 2):col + cap // 2]


def norm_slice(doc: Document, start: int, end: int, cap: int = 20000) -> str:
    """Normalised text for an original character span, at most `cap` characters.

    ASCII lines are cut at the exact columns (normalising ASCII keeps offsets); other lines
    are taken whole. The cap keeps windows bounded on megabyte-long lines.
    """
    first, c1 = doc.position(start)
    last, c2 = doc.position(max(start, end - 1))
    parts = []
    size = 0
    for i in range(first, last + 1):
        line = _norm_line(doc, i)
        raw = doc.line_text(i)
        if raw.isascii() if len(raw) < 4096 else len(line) == len(raw):
            lo = c1 - 1 if i == first else 0
            hi = c2 if i == last else len(line)
            line = line[lo:hi]
        parts.append(line[:cap - size])
        size += len(parts[-1]) + 1
        if size >= cap:
            break
    return "\n".join(parts)


# -- hosts --------------------------------------------------------------------------------
_URL_HOST = rx(r"(?:https?|ftp|wss?)://(?:[^\s/@\"'`<>)]*@)?(\[[0-9a-f:]+\]|[a-z0-9._-]+)")
_IPV4 = rx(r"^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$")

# Services whose purpose is receiving data from anywhere: request bins, tunnels, pastes,
# anonymous file drops, chat webhooks. Sending secrets there is exfiltration by design.
EXFIL_HOSTS = (
    "webhook.site", "requestbin", "pipedream.net", "pipedream.com", "ngrok.io", "ngrok-free.app", "ngrok.app",
    "ngrok.dev", "trycloudflare.com", "serveo.net", "localhost.run", "loca.lt", "localtunnel.me",
    "interact.sh", "oast.fun", "oast.pro", "oast.live", "oast.site", "oast.online", "oast.me",
    "burpcollaborator.net", "oastify.com", "canarytokens.com", "dnslog.cn", "ceye.io", "requestcatcher.com",
    "hookbin.com", "beeceptor.com", "mockbin.org", "postb.in", "ptsv2.com", "ptsv3.com",
    "pastebin.com", "paste.ee", "hastebin.com", "ghostbin", "termbin.com", "dpaste", "rentry.co", "rentry.org",
    "glot.io", "transfer.sh", "0x0.st", "file.io", "tmpfiles.org", "anonfiles", "gofile.io", "catbox.moe",
    "bashupload.com", "temp.sh", "oshi.at", "discord.com/api/webhooks", "discordapp.com", "api.telegram.org",
)
PASTE_HOSTS = (
    "pastebin.com", "paste.ee", "hastebin.com", "ghostbin", "termbin.com", "dpaste", "rentry.co", "rentry.org",
    "glot.io", "transfer.sh", "0x0.st", "file.io", "tmpfiles.org", "anonfiles", "gofile.io", "catbox.moe",
    "bashupload.com", "temp.sh", "gist.githubusercontent.com", "oshi.at", "mega.nz", "mediafire.com",
    "dropbox.com", "drive.google.com", "github.com/user-attachments",
)
# Placeholder hosts used by documentation; never a real destination.
EXAMPLE_HOSTS = ("example.com", "example.org", "example.net", "localhost", "127.0.0.1", "0.0.0.0", "your-", "yourdomain", "<")


def hosts_in(text: str) -> list[str]:
    """Host names of the URLs in a (normalised) text, in order."""
    out = []
    for m in _URL_HOST.finditer(text.encode("utf-8", "surrogatepass")):
        out.append(m.group(1).decode("utf-8", "replace").strip("[]").rstrip("."))
    return out


def is_ip(host: str) -> bool:
    return _IPV4.test(host) or ":" in host


def host_matches(host_or_text: str, names: tuple[str, ...]) -> bool:
    return any(n in host_or_text for n in names)
