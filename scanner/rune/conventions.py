"""Conventions that switch a security control off, unless the sentence negates them.

Each shape is one RE2 pattern over the normalised text (lower case, confusables mapped,
invisible characters removed), so "Disable CSRF" spelled with look-alike letters still matches.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..document import Document
from ..matching import Regex, rx
from .negation import names_advisory, negated

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
        r"|\bcors_(?:allow_all_origins|origin_allow_all)\s*=\s*true\b"
        # The request's own Origin reflected into the allow header: every site is allowed, with its cookies.
        r"|\b(?:echo|echoes|echoing|echoed|reflect|reflects|reflecting|mirror|mirrors|mirroring|copy|copies|copying|return|returns|send|sends|"
        r"put|puts|set|sets|use|uses)\s+(?:back\s+)?(?:the\s+|whatever\s+|any\s+)?(?:request'?s\s+|incoming\s+|caller'?s\s+|client'?s\s+|sender'?s\s+)?"
        r"`?origin`?(?:\s+header)?(?:\s+(?:value|it\s+(?:sends|sent)|(?:the\s+)?(?:request|caller|client|browser)\s+(?:sends|sent)))?\s+(?:back\s+)?"
        r"(?:in|into|as|to)\s+(?:the\s+)?`?access-control-allow-origin"
        r"|\baccess-control-allow-origin`?\s+(?:header\s+)?(?:to|=|as)\s+(?:whatever\s+|any\s+)?(?:the\s+)?(?:request'?s\s+|incoming\s+|caller'?s\s+)?`?origin`?\s+"
        r"(?:header\s+)?(?:the\s+)?(?:request|caller|client|browser)\s+(?:sends|sent|gives|presents)"
        r"|\baccess-control-allow-origin['\"`]?\s*[,:=]\s*(?:req|request|ctx|event|r)\.(?:headers?|get_header|header)\W{0,3}(?:get\W{0,3})?['\"]?origin"
        r"|\borigin\s*:\s*true\s*,\s*credentials\s*:\s*true\b|\bcredentials\s*:\s*true\s*,\s*origin\s*:\s*true\b"
        r"|\b(?:remove|removes|removing|drop|drops|dropping|delete|deletes|deleting)\s+(?:the\s+|any\s+|every\s+|all\s+)?(?:cors\s+)?origin\s+(?:allow-?lists?|whitelists?|checks?)\b")),
    # Backups before a destructive change left out: the next failed migration has nothing to go back to.
    Shape("backups before changes", rx(
        r"\b(?:skip|skipping|skipped|bypass|bypassing|omit|omitting|disable|disabling)\s+" + _ART + r"`?(?:pre-?migration\s+|database\s+|db\s+)?"
        r"(?:backups?|pg_dump|mysqldump|mongodump|pg_basebackup|(?:database|db)\s+(?:dumps?|snapshots?))`?")),
    Shape("authentication", rx(
        r"\b" + _OFF + r"\s+" + _ART + r"(?:auth|authentication|authorization|authorisation|login|permission checks?|access control|rbac|2fa|mfa)\b"
        r"|\bauth(?:entication)?(?:_enabled)?\s*[:=]\s*(?:false|none|off|disabled)\b"
        r"|\bpermission_classes\s*=\s*[\[(]\s*allowany\b|\blogin_required\s*=\s*false\b"
        # described, not named ("the checks that make sure only staff can reach the admin pages were
        # switched off"), and the agent told to keep them that way
        r"|\b(?:checks?|guards?|middleware|decorators?|filters?)\s+(?:that|which)\s+(?:make\s+sure|ensure|verify|check|enforce|guarantee)\s+(?:that\s+)?only\s+"
        r"(?:[^\s;!?.]+\s+){1,8}?(?:were|was|are|is|have\s+been|has\s+been|got)\s+(?:switched\s+off|turned\s+off|disabled|removed|bypassed|commented\s+out)\b"
        r"(?:[^#]|\n){0,240}?\b(?:leave|keep)\s+(?:them|it|those|these|that|the\s+\w+)\s+(?:switched\s+off|turned\s+off|off|disabled|removed|commented\s+out)\b")),
    Shape("code evaluation of user input", rx(
        r"\b(?:eval|exec)\s*\(\s*(?:request|req|input|user|params|body|query|sys\.argv|payload|form)\w*"
        # An evaluator in any language whose arguments, on the same line, carry a request or user
        # value: `new Function("ctx", "return (" + req.body.formula + ")")`, `vm.runInNewContext(
        # req.query.expr)`, `instance_eval(params[:code])`, `eval("$x = " . $_POST['f'])`.
        r"|(?:\bnew\s+function|\bfunction\s*\(\s*[\"'`]|\b(?:eval|exec|instance_eval|class_eval|module_eval|instance_exec|"
        r"vm\.run\w*|runin(?:new|this)?context|vm\.script|compile_restricted|loadstring|create_function|execscript|"
        r"scriptengine\.eval|engine\.eval|py_eval|exec_|evaluate_script)\s*\()"
        r"[^\n;]{0,160}?(?:\breq\.(?:body|query|params|headers)|\brequest\.(?:body|form|args|get_json|json|data|values|query|params|get|post)\b"
        r"|\bparams\s*(?:\[|\.(?:require|permit|fetch|get)?)|\$_(?:get|post|request|cookie)\b|\bsys\.argv\b|\buser_?input\b|\bevent\.body\b"
        r"|\bctx\.(?:request|query|params)\b|\bformdata\b|\binput\s*\(\s*\))"
        r"|\b(?:eval|exec)\w*(?:\(\))?\s+(?:on\s+|the\s+)?(?:user|untrusted|client|request|external)[- ](?:input|data|code|strings?|supplied)"
        r"|\b(?:pickle|marshal)\.loads?\s*\(\s*(?:request|req|user|body|payload)\w*|\bnew\s+function\s*\(\s*(?:req|user|input|body)\w*")),
    # Package sources whose integrity nobody checks any more: the checksum database off, TLS or
    # signature checks off for module, package or image downloads, an index trusted without TLS.
    Shape("package integrity checks", rx(
        r"\bgosumdb\s*[=:]\s*['\"]?off\b|\bgo(?:insecure|nosumdb|nosumcheck|noverify)\s*[=:]\s*['\"]?(?:\*|1|on|true|[\w.-]+\.[a-z]{2,})"
        r"|\bgoflags\s*[=:][^\n]{0,40}-insecure\b|\bgo\s+get\s+(?:-\w+\s+)*-insecure\b|\bgoprivate\s*[=:]\s*['\"]?\*(?:['\"\s,]|$)"
        r"|\b(?:--)?trusted-host\b\s*[= ]\s*\S|\bpip_trusted_host\s*[=:]"
        r"|\bnpm_config_strict_ssl\s*[=:]\s*['\"]?(?:false|0)\b|\benablestrictssl\s*[:=]?\s*['\"]?false\b"
        r"|\b(?:--no-verify-hashes|--allow-unauthenticated|--nogpgcheck|--no-gpg-checks|--insecure-registry|--disable-content-trust|--no-check-signatures)\b"
        r"|\bgpgcheck\s*=\s*0\b|\bdocker_content_trust\s*=\s*['\"]?0\b|\bpackage-lock\s*=\s*false\b"
        r"|\bdisable_checksum_validation\b|\bsignaturevalidationmode\W{1,4}accept\b"
        r"|\b" + _OFF + r"\s+" + _ART + r"(?:(?:checksum|integrity|signature|hash|sum)\s+(?:database|db|checks?|verification|validation|checking)|gosumdb|sumdb)\b")),
    # A secrets file exempted from the secret scanner: the scanner no longer stops it leaving.
    Shape("secret scanning", rx(
        r"\b(?:add|adds|adding|put|puts|list|lists|register|registers)\s+(?:[^\s;!?]+\s+){0,2}?`?[\w./*~-]*(?:\.env|secret|credential|\.pem|\.key|\.p12|"
        r"token|password|passwd|keystore|\.jks)[\w./*-]*`?\s+(?:[^\s;!?]+\s+){0,2}?(?:to|in|into|on)\s+(?:the\s+)?(?:allow-?list|ignore\s*list|exclusions?|"
        r"exceptions?|baseline|skip\s*list|ignore\s+file)\s+(?:in|of|for)\s+(?:the\s+)?`?(?:\.?gitleaks|trufflehog|detect-secrets|ggshield|"
        r"\.secrets\.baseline|secret[\s-]scann\w*|push\s+protection)"
        r"|\b(?:add|adds|adding|append|appends|put|puts)\s+(?:[^\s;!?]+\s+){0,2}?`?[\w./*~-]*(?:\.env|secret|credential|\.pem|\.key|token|password)[\w./*-]*`?"
        r"\s+(?:[^\s;!?]+\s+){0,2}?(?:to|in|into)\s+`?\.gitleaksignore\b"
        # the scanner set off as a state value ("secret scanning: disabled", "push protection: false")
        r"|\b(?:secret[\s-]scanning|push[\s-]protection|gitleaks|trufflehog|detect[\s-]secrets)(?:\s+(?:enabled|status))?\s*[:=]\s*['\"]?(?:false|off|no|disabled|none|0)\b")),
    Shape("secrets in version control", rx(
        r"\bcommit\w*\s+" + _ART + r"(?:\.env(?:[^.\w-]|$)|secrets?\b|api[ _-]?keys?\b|credentials\b|tokens?\b|private[ _-]keys?\b|passwords?\b)"
        r"|\b(?:hard[- ]?code|embed)\s+" + _ART + r"(?:secrets?|api[ _-]?keys?|credentials|passwords?|tokens?|private[ _-]keys?)\b"
        r"|\b(?:store|keep|put|check\s+in|add)\s+" + _ART + r"(?:secrets?|api[ _-]?keys?|credentials|passwords?|private[ _-]keys?)\s+(?:in|into|to)\s+"
        r"(?:the\s+)?(?:repo|repository|git|source|codebase|version control)\b"
        r"|\b(?:remove|delete)\s+\.env\s+from\s+\.gitignore\b"
        # a signing key, keystore or credentials file committed, or taken out of .gitignore
        r"|\b(?:commit|commits|committing|check\s+in|force-add|git\s+add\s+(?:-f|--force))\s+" + _ART + r"(?:[^\s;!?]+\s+){0,3}?`?[\w*./~-]*?"
        r"(?:\.(?:jks|keystore|p12|pfx|pem|key|ppk|kdbx|tfstate)|id_(?:rsa|ed25519|ecdsa|dsa)|credentials\.(?:json|toml|yml|yaml)|service[-_]account[\w.-]*\.json|master\.key)(?:[`'\"\s,;:)]|\.(?:\s|$)|$)"
        r"|\b(?:remove|removes|removing|delete|drop|take|un-?ignore)\w*\s+(?:[^\n.;]|\.\S){0,60}?\.(?:jks|keystore|p12|pfx|pem|key|properties|env|tfvars)`?"
        r"(?:[^\n.;]|\.\S){0,60}?\s+(?:from|out\s+of)\s+(?:the\s+)?`?\.gitignore\b"
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
            if not negated(doc, m.start, m.end) and not names_advisory(doc, m.start, m.end):
                yield ControlOff(m.start, m.end, shape.control)
