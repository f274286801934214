"""Conventions that switch a security control off, unless the sentence negates them.

Each shape is one RE2 pattern over the normalised text (lower case, confusables mapped,
invisible characters removed), so "Disable CSRF" spelled with look-alike letters still matches.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..document import Document
from ..matching import Regex, rx
from .negation import negated

_OFF = r"(?:disable|disabling|disabled|turn off|turning off|turned off|switch off|skip|skipping|skipped|bypass|bypassing|remove|removing|drop|dropping|ignore|ignoring|omit|omitting)"
_ART = r"(?:(?:the|all|any|every|our|its)\s+)?"


@dataclass(frozen=True)
class Shape:
    control: str
    regex: Regex


SHAPES = (
    Shape("input validation", rx(
        r"\b" + _OFF + r"\s+" + _ART + r"(?:(?:input|request|schema|form|data|server[- ]side|param(?:eter)?)\s+)?"
        r"(?:validation|validators?|saniti[sz]ation|sanitizing|sanitising|escaping)\b"
        r"|\bno\s+need\s+(?:to\s+validate|for\s+(?:input\s+)?validation)\b"
        r"|\btrust\s+(?:all\s+)?(?:user|client|request)\s+input\b")),
    Shape("CSRF protection", rx(
        r"\b" + _OFF + r"\s+" + _ART + r"(?:csrf|xsrf)\b"
        r"|\bexempt\w*\s+(?:\w+\s+){0,4}from\s+(?:csrf|xsrf)\b"
        r"|\bcsrf_exempt\b|\bwtf_csrf_enabled\s*=\s*false\b|\bcsrf\(\)\s*\.\s*disable\(\)"
        r"|\bcsrf\s*\(\s*\w*\s*->\s*\w*\s*\.\s*disable\(\)|\bcsrf(?:_protection|protection)?\s*[:=]\s*(?:false|off|disabled)\b")),
    Shape("TLS certificate verification", rx(
        r"\b" + _OFF + r"\s+" + _ART + r"(?:tls|ssl|https|certificate|cert|hostname)s?\s+(?:certificate\s+|cert\s+)?"
        r"(?:verification|validation|verify|verifying|checks?|checking|errors?)\b"
        r"|\bverify\s*=\s*false\b|\bnode_tls_reject_unauthorized\s*=\s*['\"]?0\b|\brejectunauthorized\s*:\s*false\b"
        r"|\binsecureskipverify\s*:\s*true\b|\bssl_?verify\w*\s*[:=]\s*(?:false|0|none|no)\b|\bcheck_hostname\s*=\s*false\b"
        r"|\bcert_none\b|\bstrict-ssl\s*(?:=|\s)\s*false\b|\bhttp\.sslverify\s+false\b"
        r"|\bcurl\s+(?:-[-\w]+\s+)*(?:-k|--insecure)\b|\bwget\s+(?:-[-\w]+\s+)*--no-check-certificate\b")),
    Shape("CORS origin restriction", rx(
        r"\baccess-control-allow-origin\s*:\s*['\"]?\*|\ballow(?:ed)?[_ -]?origins?\s*[:=]\s*\[?\s*['\"]\*['\"]"
        r"|\borigins?\s*:\s*['\"]\*['\"]|\ballow(?:ing)?\s+(?:all|any|every)\s+(?:cross[- ]origin\s+)?origins?\b"
        r"|\bcors_(?:allow_all_origins|origin_allow_all)\s*=\s*true\b")),
    Shape("authentication", rx(
        r"\b" + _OFF + r"\s+" + _ART + r"(?:auth|authentication|authorization|authorisation|login|permission checks?|access control|rbac|2fa|mfa)\b"
        r"|\bauth(?:entication)?(?:_enabled)?\s*[:=]\s*(?:false|none|off|disabled)\b"
        r"|\bpermission_classes\s*=\s*[\[(]\s*allowany\b|\blogin_required\s*=\s*false\b")),
    Shape("code evaluation of user input", rx(
        r"\b(?:eval|exec)\s*\(\s*(?:request|req|input|user|params|body|query|sys\.argv|payload|form)\w*"
        r"|\b(?:eval|exec)\w*(?:\(\))?\s+(?:on\s+|the\s+)?(?:user|untrusted|client|request|external)[- ](?:input|data|code|strings?|supplied)"
        r"|\b(?:pickle|marshal)\.loads?\s*\(\s*(?:request|req|user|body|payload)\w*|\bnew\s+function\s*\(\s*(?:req|user|input|body)\w*")),
    Shape("secrets in version control", rx(
        r"\bcommit\w*\s+" + _ART + r"(?:\.env(?:[^.\w-]|$)|secrets?\b|api[ _-]?keys?\b|credentials\b|tokens?\b|private[ _-]keys?\b|passwords?\b)"
        r"|\b(?:hard[- ]?code|embed)\s+" + _ART + r"(?:secrets?|api[ _-]?keys?|credentials|passwords?|tokens?|private[ _-]keys?)\b"
        r"|\b(?:store|keep|put|check\s+in|add)\s+" + _ART + r"(?:secrets?|api[ _-]?keys?|credentials|passwords?|private[ _-]keys?)\s+(?:in|into|to)\s+"
        r"(?:the\s+)?(?:repo|repository|git|source|codebase|version control)\b"
        r"|\b(?:remove|delete)\s+\.env\s+from\s+\.gitignore\b"
        # Credentials copied into the memory file itself, which is committed and read every session.
        r"|\b(?:(?:append|write|save|record|paste|store|add|keep|log)s?|cop(?:y|ies))\b(?:[^.\n]|\.\S){0,120}?\b(?:aws_secret_access_key|aws_access_key_id|secret[_ ]access[_ ]key|access[_ ]keys?|api[_ ]keys?|tokens?|passwords?|credentials|private[_ ]keys?|secrets?)\b"
        r"(?:[^.\n]|\.\S){0,120}?\b(?:to|into|in)\s+(?:this|the|our)\s+(?:file|memory|notes?|decisions?|log|conventions?|state)\b")),
)


@dataclass(frozen=True)
class ControlOff:
    start: int
    end: int
    control: str


def controls_off(doc: Document) -> Iterator[ControlOff]:
    for shape in SHAPES:
        for m in doc.finditer(shape.regex):
            if not negated(doc, m.start, m.end):
                yield ControlOff(m.start, m.end, shape.control)
