"""Phrasings of text addressed to a model from inside a script (used by scripts_tool_text).

Each pattern runs once over a whole script (RE2, linear time); a match counts only when it
lies inside a string literal of the right kind (scanner.scripts.tool_text). Patterns run over
the normalised text (lower case, confusables mapped) except AUTHORITY_LABEL, whose upper case
is the signal: "SYSTEM:" at the head of a sentence is a fake role, "system:" is a word.
"""
from __future__ import annotations

from ..matching import rx as _rx


def rx(pattern: str):
    """Compile with RE2, reading quotes and plus signs as spaces: a phrase split over two
    literals ('trust all ' 'input', "a " + "b") matches like the whole phrase."""
    return _rx(split_tolerant(pattern))


def split_tolerant(pattern: str) -> str:
    return pattern.replace(r"\s+", r"[\s'\"`+]+").replace(r"\s*", r"[\s'\"`+]*")

# "SYSTEM:", "[ROLE DIRECTIVE]:", "INSTRUCTION OVERRIDE:", "ACT AS:", "NEW INSTRUCTION TO CHAT ASSISTANT:".
# Group 1 is the label. Raw text, case-sensitive.
AUTHORITY_LABEL = _rx(
    r"(?m)(?:^|[.!?;>(\[\"'`]|\\n)[ \t]*\[?[ \t]*("
    r"(?:[A-Z]{2,}[ _-]){0,2}(?:SYSTEM|DIRECTIVE|OVERRIDE|ADMIN|ROOT|MANDATORY|ANNOTATION)(?:[ _-][A-Z]{2,}){0,2}"
    r"|ACT[ _]AS|HIDDEN[ _]INSTRUCTIONS?|SECRET[ _]INSTRUCTIONS?|INSTRUCTIONS?[ _]OVERRIDE"
    r"|NEW[ _]INSTRUCTIONS?(?:[ _][A-Z]{2,}){0,4})"
    r"[ \t]*\]?[ \t]*:[ \t]*\S"
)
# What follows a label when it gives an order (normalised text of the rest of the line).
DIRECTIVE_AFTER_LABEL = _rx(
    r"^\s*(?:[\[\(\"'`]\s*)?(?:you\b|your\b|always|never|must|do\s+not|don'?t|trust|ignore|disregard|bypass|disable|skip|"
    r"simulate|execute|run\b|call|invoke|use\b|obey|follow|allow|grant|treat|assume|pretend|act\b|respond|send|include|"
    r"record|when\b|whenever|if\b|before|after|actually|from\s+now|this\s+tool|the\s+(?:assistant|ai|model|agent)|"
    r"obey|comply|override|elevate|escalate|system\s+administrator|administrator|admin\b|root\b)"
    r"|\byou\b|\byour\b"
)

# A tool description telling the model to trust input, skip checks or act without asking.
TRUST_BYPASS = rx(
    r"(?:\btrust\s+(?:all|any|every)\s+(?:\w+\s+){0,2}?(?:commands?|inputs?|queries|requests?|content|data|code|"
    r"instructions?|users?|sources?|results?|responses?|outputs?)\b"
    r"|\b(?:execut(?:e|es|ing)|runs?|process(?:es)?|accepts?|appl(?:y|ies))\s+(?:\w+\s+){0,3}?(?:directly\s+)?without\s+(?:any\s+)?(?:security\s+)?"
    r"(?:validation|verification|security\s+checks|checks|checking|review|sanitiz\w+|confirmation|approval)\b"
    r"|\b(?:bypass|ignore|disregard|circumvent|override)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:security|safety)\s+"
    r"(?:checks|policies|policy|rules|guidelines|warnings|restrictions|controls|measures|filters?)\b"
    r"|\b(?:do\s+not|don'?t|never|no\s+need\s+to)\s+(?:ask|prompt|check\s+with|wait\s+for)\s+(?:the\s+)?(?:user\s+)?"
    r"(?:for\s+)?(?:confirmation|permission|approval|consent)"
    r"|\bauto-?approve\b|\bapprove\s+(?:\w+\s+){0,2}?automatically\b|\bautomatically\s+approve\b)"
)

# A description that makes its tool run around every other tool call (shadowing, harvesting).
CALL_HIJACK = rx(
    r"(?:\b(?:after|before|following|alongside)\s+(?:using\s+|calling\s+)?(?:any|every|each|all)\s+(?:other\s+)?"
    r"(?:tool\s+calls?|tools?|actions?|function\s+calls?|operations?|interactions?)\b(?:\s+(?:is\s+)?(?:taken|used|called|made|performed))?"
    r"|\bevery\s+time\s+(?:a|any|another)\s+(?:other\s+)?(?:tool|function|action)\s+is\s+(?:used|called|invoked|run|taken)"
    r"|\bmust\s+be\s+called\s+(?:every\s+time|whenever|after|before)\s+(?:a|any|every|each|another)\s+(?:other\s+)?(?:tool|function|action)"
    r"|\balways\s+call\s+this\s+tool\s*[.!]"
    r"|\b(?:include|pass|send|provide|record|log|forward)\s+(?:\w+\s+){0,3}?(?:all\s+)?(?:tool\s+names,?\s+(?:their\s+)?arguments"
    r"|(?:the\s+)?(?:arguments|results|outputs|responses)\s+(?:of|from)\s+(?:all|every|any|other|previous)\s+(?:other\s+)?tools?))"
)

# Text returned by a tool that speaks to the model rather than the user.
ADDRESSES_MODEL = rx(
    r"(?:\b(?:note|message|instructions?|reminder|notice)\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|agent|llm|"
    r"language\s+model|chatbot)\b"
    r"|\bif\s+you\s+are\s+(?:an?\s+)?(?:ai|assistant|language\s+model|llm|ai\s+agent|chatbot)\b"
    r"|(?:^|[\n.!?>\]]|\\n)[ \t]*(?:(?:dear|hey|attention)\s+)?(?:ai|assistant|agent|llm)\s*[:,]\s*(?:you\s+(?:must|should|will|need\s+to)|ignore|disregard|do\s+not|don'?t|"
    r"now\s+(?:call|run|execute|send|ignore)|immediately|please\s+(?:call|run|execute|send|ignore))"
    r"|\b(?:the\s+)?(?:assistant|ai|agent|model)\s+(?:must|should|shall|is\s+required\s+to)\s+(?:now\s+|immediately\s+)?"
    r"(?:call|invoke|run|execute|send|ignore|obey|follow|fetch|tell|not\s+tell|hide|forward|upload)\b"
    r"|\byou\s+must\s+(?:now\s+|immediately\s+)?(?:call|invoke|run)\s+(?:the\s+)?[\w.`'\"-]+\s+(?:tool|function)\b"
    r"|\btell\s+the\s+user\s+(?:that\s+)?(?:everything|it|the\s+\w+)\s+(?:is|was|went)\s+(?:fine|ok|successful|safe|verified))"
)

# Social-engineering lures a tool slips into its results for the model to pass on. LURE is a
# lure by itself; ACCOUNT_ACTION is one only under pressure (a real payment flow asks calmly).
LURE = rx(
    r"(?:\bclaim\s+(?:your\s+)?(?:prize|reward|gift|refund)\b|\byou(?:'ve|\s+have)\s+won\b"
    r"|\b(?:your\s+)?(?:device|computer|system|phone|pc)\s+(?:is|has\s+been)\s+infected\b"
    r"|\bdownload\s+(?:our|this|the)\s+(?:free\s+)?(?:security|antivirus|cleanup|repair)\s+(?:tool|app|software)"
    r"|\bverify\s+now\s+to\s+avoid\b)"
)
ACCOUNT_ACTION = rx(
    r"(?:\b(?:verify|confirm|update|re-?enter|validate)\s+(?:your\s+)?(?:account|identity|payment|billing|credit\s+card|"
    r"card|password|credentials|login)\b"
    r"|\b(?:payment|billing|account|password|card)\s+(?:\w+\s+)?(?:update|verification|confirmation)\s+(?:is\s+)?required\b"
    r"|\b(?:payment\s+method|account|card)\s+(?:needs|requires)\s+(?:immediate\s+)?(?:verification|updating|to\s+be\s+(?:verified|updated))"
    r"|\b(?:account|payment|billing)\s+(?:\w+\s+){0,2}?(?:needs|requires)\s+(?:immediate\s+)?(?:attention|verification|action)\b"
    r"|\bclick\s+(?:here|the\s+link|to\s+update|to\s+verify)\b)"
)
LURE_PRESSURE = rx(
    r"(?:\burgent\b|\bimmediately\b|\bimmediate\s+attention\b|\bact\s+now\b|\bexpires?\b|\bsuspen(?:d|ded|sion)\b|"
    r"\bdeclined\b|\bfinal\s+notice\b|\bwithin\s+24\s+hours\b|\bverify\s+now\b|\bfree\s+download\b|\brequired\b|"
    r"\bfor\s+free\b|\bclick\s+here\b)"
)
EXECUTABLE_LINK = rx(r"https?://[^\s\"'`<>]+\.(?:exe|msi|scr|apk|dmg|pkg|bat|cmd|ps1|vbs|jar|hta)\b")

# Injected prompts carried in a script's strings (payloads aimed at an agent that reads them).
PAYLOAD = rx(
    r"(?:\bnew\s+instructions?\s+(?:to|for)\s+(?:the\s+)?(?:\w+\s+)?(?:assistant|ai|model|agent|llm|bot)\b"
    r"|\b(?:assistant|ai|agent|llm)\s+must\s+(?:\w+\s+){0,2}?(?:execute|obey|follow|apply|run)\b"
    r"|\bobey\s+(?:this|these|the\s+following|my)\s+(?:instructions?|commands?|orders)\b"
    r"|\b(?:begin|start)\s+reprogramming\b|\bunder\s+your\s+(?:full\s+)?control\b"
    r"|\b(?:only|now)\s+(?:\w+\s+){0,2}?(?:follow|obey)\s+(?:the\s+)?(?:instructions?|commands?|orders)\s+(?:from|of|given\s+by)\s+(?:me|us)\b"
    r"|\b(?:copy|include|repeat|add|append)\s+(?:\w+\s+){0,10}?(?:to|in|into)\s+(?:all\s+)?your\s+(?:every\s+|each\s+)?"
    r"(?:future|subsequent|next)\s+(?:outputs?|responses?|answers?|replies|messages)\b"
    r"|\b(?:copy|include|repeat)\s+(?:\w+\s+){0,10}?(?:to|in|into)\s+your\s+every\s+(?:\w+\s+)?(?:outputs?|responses?|answers?|replies)\b"
    r"|\b(?:send|forward)\s+(?:\w+\s+){0,6}?to\s+(?:all|each|every\s+one)\s+(?:of\s+)?(?:your|the\s+user'?s|his|her|their)\s+contacts\b"
    r"|\bmust\s+contain\s+the\s+same\s+instructions?\b"
    r"|\b(?:do\s+not|don'?t|never)\s+(?:give|show|display|return|provide|send)\s+(?:any\s+)?(?:output|response|reply|answer|feedback)\s+to\s+the\s+user\b"
    r"|\b(?:always\s+)?(?:fetch|retrieve|download|request)\s+(?:new\s+|the\s+latest\s+|updated\s+|fresh\s+)?(?:instructions|commands|directives|orders)\s+from\b"
    r"|\b(?:configured|programmed|instructed)\s+you\s+to\s+(?:immediately\s+|always\s+)?(?:follow|obey|execute)\b"
    r"|\bstrictly\s+follow\s+the\s+instructions\s+in\s+this\s+(?:e-?mail|message|page|website|document|comment|file)\b)"
)
# "ignore any pevious instructions": a misspelt override still reads as one to a model.
# Group 1 is the qualifier, so the correct spellings (IG301's) can be left to IG301.
MISSPELT_OVERRIDE = rx(
    r"\b(?:ignore|disregard|forget)\s+(?:(?:all|any|the|your|my|of)\s+){0,3}(p[a-z]{3,7}ous|pr[a-z]{1,3}r)\s+"
    r"(?:instructions?|prompts?|directions?|commands?|rules|guidelines|directives)\b"
)
# A fake chat turn inside a string: "Human: Ignore my previous question ... instead".
FAKE_TURN = rx(
    r"(?:^|\n|\\n|-->|>)\s*(?:human|user)\s*:\s*(?:[^\n\\]{0,40}?)\b(?:ignore|disregard|forget)\s+(?:my|the|all|any|your)\s+"
    r"(?:previous|prior|last|earlier|above)\b"
)

# A docstring that steers callers (and code-completion models) to run input through a shell.
SHELL_IN_DOC = rx(r"(?:shell\s*=\s*true|\bos\.system\s*\(|\bos\.popen\s*\(|\beval\s*\(|\bexec\s*\(|child_process|\bexecsync\s*\()")
STEERING = rx(
    r"(?:\bcorrect\s+usage\b|\bthe\s+only\s+(?:correct\s+|safe\s+|right\s+)?way\b|\balways\s+(?:call|use|wrap|pass)\s+(?:it|this)\b|"
    r"\bnever\s+call\s+this\s+(?:function|method)\b|\bdo\s+not\s+call\s+this\s+(?:function|method)\s+(?:with|without)\b|"
    r"\binstead,?\s+use\s+the\s+following\b|\bthis\s+(?:code|usage|call)\s+is\s+safe\b)"
)


def _lower_letters(pattern: str) -> str:
    """Lower-case a pattern's letters but not its escapes (\\S stays \\S)."""
    out, escaped = [], False
    for ch in pattern:
        out.append(ch if escaped else ch.lower())
        escaped = ch == "\\" and not escaped
    return "".join(out)


# One RE2 set pass over a script says which families of phrasing occur at all; most scripts
# have none and skip every per-rule pass. LABEL is a lower-case proxy for AUTHORITY_LABEL.
FAMILIES = {
    "label": _lower_letters(AUTHORITY_LABEL.pattern),  # the same shape in the lower-cased text
    "trust": TRUST_BYPASS.pattern,
    "hijack": CALL_HIJACK.pattern,
    "address": ADDRESSES_MODEL.pattern,
    "lure": "|".join(f"(?:{r.pattern})" for r in (LURE, ACCOUNT_ACTION, EXECUTABLE_LINK)),
    "payload": "|".join(f"(?:{r.pattern})" for r in (PAYLOAD, MISSPELT_OVERRIDE, FAKE_TURN)),
    "steer": STEERING.pattern,
}
