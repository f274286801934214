"""Shapes of poisoned `.rune/` memory beyond a switched-off control (scanner/rune/conventions.py):

- review policy: a decision that lets changes reach the main branch or a release without review,
  approval or checks (admins merge with --admin, "don't request reviewers", "skip approval");
- insecure code by convention, in any wording: SQL built from strings, certificates accepted
  whatever they say, customer text handed to the language's evaluator, credentials tracked in
  git, routes that go around the auth middleware;
- hidden-instruction phrases the rune seed lists ("ignore previous conventions", "forget
  everything above", "pretend to be", "you are now ...").

Every shape is one RE2 pattern over the normalised text (lower case, look-alikes mapped, invisible
characters removed); a shape marked negatable is dropped when the sentence negates it
("never build SQL with f-strings").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ..document import Document
from ..matching import Regex, rx
from .negation import counter_example, names_advisory, negated

_W = r"(?:[^\s;!?]+\s+)"  # one token and its space (a word, `code`, a path): bounded counts keep it linear


@dataclass(frozen=True)
class Shape:
    kind: str  # what the entry does, for the message
    regex: Regex
    negatable: bool = True
    in_code: bool = False  # also read in code blocks (the negation then reads the block's framing)


REVIEW_SHAPES = (
    Shape("lets changes merge without review, approval or checks", rx(
        r"\b(?:merge|merged|merges|merging|push|pushed|pushes|pushing|land|lands|ship|ships|release|releases|deploy|deploys)\s+"
        + _W + r"{0,8}?without\s+(?:any\s+|a\s+|the\s+|waiting\s+for\s+(?:a\s+|the\s+)?|second\s+)?(?:code\s+|peer\s+|human\s+|green\s+)?"
        r"(?:reviews?|reviewers?|approvals?|sign-?offs?|ci|checks|status\s+checks|tests)\b")),
    Shape("pushes straight to the protected branch", rx(
        r"\b(?:push|pushes|pushed|pushing|commit|commits|merge|merges|land|lands|landed|ship|ships)\s+(?:[^\s;!?]+\s+){0,3}?(?:directly|straight|right)\s+(?:in)?to\s+"
        r"(?:`)?(?:main|master|trunk|prod|production|release|the\s+(?:default|main|release)\s+branch)\b")),
    Shape("merges with administrator rights past branch protection", rx(
        r"\bgh\s+pr\s+merge\b[^\n]{0,80}--admin\b|\bmerge\w*\s+" + _W + r"{0,4}?(?:with|using)\s+(?:admin|administrator)\s+(?:rights|privileges|override)")),
    Shape("skips review, approval or required checks", rx(
        r"\b(?:skip|skips|skipping|bypass|bypasses|bypassing|override|overrides|dismiss|dismisses|dismissing|waive|waives|disable|disables)\s+"
        r"(?:the\s+|all\s+|any\s+|every\s+)?(?:code\s+|peer\s+|human\s+|manual\s+|maintainer\s+|required\s+|pull\s+request\s+|pr\s+|security\s+)?"
        r"(?:reviews?|approvals?|review\s+requirements?|branch\s+protections?|required\s+checks|status\s+checks|ci\s+checks|security\s+alerts)\b")),
    Shape("tells the agent not to ask for review", rx(
        r"\b(?:don'?t|do\s+not|never|no\s+need\s+to)\s+(?:request|ask\s+for|wait\s+for|add)\s+(?:a\s+|any\s+)?(?:second\s+)?(?:reviews?|reviewers?|approvals?)\b"),
        negatable=False),
    Shape("makes review optional", rx(
        r"\b(?:code\s+)?(?:reviews?|approvals?|sign-?offs?|reviewers?)\s+(?:is|are)\s+(?:now\s+)?(?:optional|(?:no\s+longer|not)\s+(?:required|needed|necessary|mandatory))\b"
        r"|\bself-?approv\w+|\bapprove\s+(?:your|their|his|her|its)\s+own\s+(?:prs?|pull\s+requests?|changes|code|work)\b"
        r"|\b(?:codeowners?|code\s+owners?)\s+(?:[^\s;!?]+\s+){0,3}?(?:optional|not\s+required|skipped|bypass\w*|ignored)\b"
        # the same set as a state value ("required approvals: 0", "codeowners review: false")
        r"|\b(?:(?:required|minimum|min)\s+(?:approving\s+)?(?:approvals?|reviews?|reviewers?)|approving\s+reviews?\s+count|(?:approvals?|reviews?|reviewers?)\s+(?:required|needed))"
        r"\s*[:=]\s*['\"]?0\b"
        r"|\b(?:require\s+)?(?:codeowners?|code\s+owners?)(?:\s+reviews?|\s+approvals?)?(?:\s+required)?\s*[:=]\s*['\"]?(?:false|off|no|disabled|none|0)\b"
        r"|\b(?:branch\s+protection|required\s+status\s+checks|require\s+(?:pull\s+request\s+)?reviews?|enforce\s+admins)(?:\s+enabled)?\s*[:=]\s*['\"]?(?:false|off|no|disabled|none)\b")),
    # Merging or approving handed to the agent as a state value ("agents may merge to main: true").
    Shape("lets agents merge or approve", rx(
        r"\b(?:agents?|bots?|assistants?|ai|llms?)\s+(?:may|can|are\s+allowed\s+to|allowed\s+to|(?:are\s+)?permitted\s+to)\s+(?:self\s+)?(?:merge|approve|admin\s+merge|push)\b"
        r"[^\n:]{0,40}:\s*['\"]?(?:true|yes|on|enabled|allowed)\b"
        r"|\b(?:allow|let)\s+(?:the\s+)?(?:agents?|bots?|assistants?)\s+(?:to\s+)?(?:self\s+)?(?:merge|approve)\b[^\n:]{0,40}:\s*['\"]?(?:true|yes|on|enabled)\b")),
    Shape("merges before checks or review report", rx(
        r"\bmerge\w*\s+(?:[^\s;!?]+\s+){0,8}?(?:before|without\s+waiting\s+for)\s+(?:the\s+|any\s+)?(?:ci|checks|tests|builds?|reviews?|reviewers?|approvals?)\b"
        r"|\bmerge\w*\s+(?:[^\s;!?]+\s+){0,6}?as\s+soon\s+as\s+(?:they|it|the\s+prs?|the\s+pull\s+requests?)\s+(?:are\s+|is\s+)?(?:open|opens|opened|created|pushed|appear|appears)\b")),
    Shape("merges on failing checks or skips commit hooks", rx(
        r"\bmerge\w*\s+(?:[^\s;!?]+\s+){0,4}?(?:even\s+)?(?:when|if|while|with)\s+(?:the\s+)?(?:ci|checks|tests|build|pipeline)\s+(?:is\s+|are\s+)?"
        r"(?:red|failing|failed|broken)\b|\bgit\s+(?:commit|push)\b[^\n]{0,60}--no-verify\b")),
    Shape("security tests or scanners switched off", rx(
        r"-m\s+[\"']not\s+security[\"']|\s-p\s+no:(?:bandit|semgrep|safety)\b"
        r"|\b(?:security|sast|bandit|semgrep|codeql|snyk|trivy|gosec|brakeman)\s+(?:tests?|suites?|scans?|scanners?|checks?)?\s*"
        r"(?:(?:and|or|,)\s+(?:[^\s.;!?]+\s+){0,3}?)?(?:are|is|get|gets|were|was|be)\s+(?:(?:now|then|simply|just|all|both|always|also)\s+)?(?:skipped|disabled|removed|dropped|excluded|turned\s+off)\b")),
    # Changes run on production with nothing between: migrations or scripts applied straight to
    # the live database, no staging, no review of the run.
    Shape("runs changes straight against production", rx(
        r"\b(?:run|runs|running|apply|applies|applying|execute|executes|executing|point|points)\s+(?:[^\s;!?]+\s+){0,3}?"
        r"(?:migrations?|schema\s+changes?|ddl|backfills?|data\s+fixes|sql\s+scripts?)\s+(?:[^\s;!?]+\s+){0,2}?"
        r"(?:directly|straight|right)\s+(?:against|on|in|to|into|at)\s+(?:the\s+)?(?:prod|production|live)\b")),
    # The review's findings settled in memory instead of in front of people: recorded as accepted risk
    # and kept off the pull request or away from its author. The "not" is the order itself, so the
    # clause-level negation is not read; a line labelled a bad example still is.
    Shape("records findings as accepted risk and keeps them from the pull request", rx(
        r"\baccepted\s+risks?\b(?:[^.;!?\n]|\n[ \t]*[^\s\-*+#>|]){0,120}?\b(?:not|never)\s+(?:be\s+|to\s+be\s+)?(?:brought\s+up|raised|mentioned|reported|flagged|posted|surfaced|shown|commented\s+on)\s+"
        r"(?:on|in|to|with)\s+(?:the\s+|its\s+|their\s+)?(?:pull\s+requests?|prs?|merge\s+requests?|mrs?|authors?|reviewers?|users?|developers?|maintainers?)\b"),
        negatable=False),
    Shape("approves changes whatever they contain", rx(
        r"\b(?:auto-?approve|approve)\s+" + _W + r"{0,4}?(?:regardless|whatever|no\s+matter|without\s+(?:reading|review|looking))")),
)

INSECURE_SHAPES = (
    Shape("SQL built by string formatting", rx(
        r"\b(?:build|builds|building|built|construct\w*|compose|composing|assembl\w*|generat\w*|writ\w*|creat\w*|make|concatenat\w*|format\w*)\s+"
        + _W + r"{0,3}?(?:sql|quer(?:y|ies)|statements?|where\s+clauses?)\s+" + _W + r"{0,4}?(?:with|using|via|by|through|as)\s+" + _W + r"{0,2}?"
        r"(?:f-?strings?|string\s+(?:formatting|concatenation|interpolation|templates?|building)|concatenat\w+|interpolat\w+|\.format|format\(\)|"
        r"%[\s-]?(?:formatting|s\b)|template\s+(?:literals?|strings?)|\+\s*operators?|sprintf)"
        r"|\b(?:f-?strings?|string\s+(?:formatting|concatenation|interpolation)|template\s+literals?|sprintf|\.format\(\))\s+" + _W + r"{0,4}?"
        r"(?:for|to\s+build|to\s+construct|to\s+write|in|into)\s+" + _W + r"{0,2}?(?:sql|quer(?:y|ies))\b"
        r"|\b(?:interpolat\w*|concatenat\w*|splic\w*|inlin\w*|paste|embed\w*|append\w*|inject\w*|put|puts|insert|inserts|place|places|drop|drops|stick|feed|feeds|pass|passes)\s+"
        + _W + r"{0,6}?(?:directly\s+|straight\s+)?(?:into|in|to)\s+"
        r"(?:the\s+)?(?:raw\s+)?(?:sql|quer(?:y|ies)|statements?|where\s+clauses?|select|sql\s+strings?)\b"
        r"|\b(?:instead\s+of|skip\w*|drop\w*|without|no\s+more)\s+(?:\w+\s+)?(?:bound|bind|binding|prepared|parameteri[sz]ed|placeholder)\s+"
        r"(?:parameters|params|statements|queries|values)")),
    # Said outright ("accept any certificate", "certificate verification off"): a sentence that
    # rejects it ("Rejected option: turning certificate verification off") mandates nothing.
    Shape("TLS certificates accepted whatever they say", rx(
        r"\b(?:accept|accepts|accepting|trust|trusts|trusting|allow|allows|allowing)\s+" + _W + r"{0,2}?(?:any|all|every|whatever|whichever|invalid|untrusted|expired|unknown|mismatched)\s+"
        + _W + r"{0,2}?(?:certificates?|certs?|cas?|certificate\s+authorit\w+|tls\s+certificates?)\b"
        r"|\bignor\w*\s+" + _W + r"{0,2}?(?:certificate|cert|tls|ssl|x\.?509|hostname|host\s+name)\s+(?:\w+\s+)?(?:errors?|warnings?|mismatch\w*|failures?|problems?|validation|verification|checks?)"
        r"|\b(?:certificate|cert|tls|ssl|hostname|host\s+name)\s+(?:verification|validation|checking|checks?)\s+(?:\w+\s+)?(?:off|disabled|false|optional)\b")),
    # Said through a negation of its own ("should not fail when the name doesn't match", "don't
    # verify the certificate"): the sentence's negation is the order, so it is never read as one.
    Shape("TLS certificates accepted whatever they say", rx(
        r"\b(?:not|never|n't)\s+" + _W + r"{0,2}?(?:fail|error|complain|abort|reject|raise)\w*\s+" + _W + r"{0,3}?(?:when|if|on|for)\s+" + _W + r"{0,5}?"
        r"(?:names?|host\s*names?|hosts?|certificates?|certs?)\s+" + _W + r"{0,5}?(?:match|matches|mismatch\w*|invalid|expired|wrong|untrusted|self-signed)"
        r"|\b(?:don'?t|do\s+not|never|no\s+need\s+to|stop)\s+(?:verify|verifying|check|checking|validat\w+)\s+(?:the\s+)?(?:server'?s?\s+)?(?:tls\s+|ssl\s+)?(?:certificates?|certs?|host\s*names?)\b"),
        negatable=False),
    Shape("user input handed to a code evaluator", rx(
        r"\b(?:hand|pass|feed|give|send|forward|run|pipe)\w*\s+" + _W + r"{0,8}?(?:user|customer|client|request|untrusted|submitted|typed|entered|supplied|provided|input)\w*\s+"
        + _W + r"{0,6}?(?:to|into|through)\s+" + _W + r"{0,4}?(?:eval|exec|evaluator|interpreter|vm\.run\w*|function\s+constructor|new\s+function)\b"
        r"|\b(?:customers?|users?|clients?|callers?|visitors?)\s+can\s+(?:use|run|write|enter|submit|type|execute)\s+any\s+(?:python|javascript|js|ruby|php|lua|sql|shell)?\s*(?:code|expressions?|scripts?|commands?|statements?)\b"
        r"|\b(?:eval|exec|evaluat\w+|execut\w+)\s+" + _W + r"{0,3}?(?:whatever|any|the)\s+(?:python\s+|javascript\s+|js\s+|code\s+)?(?:code|expressions?|formulas?|text)\s+"
        r"(?:the\s+)?(?:customers?|users?|clients?|callers?)\s+(?:type|types|typed|enter|enters|entered|send|sends|sent|submit\w*|provide\w*|write|writes)")),
    Shape("credentials tracked in the repository", rx(
        r"\b(?:credentials?|secrets?|keys|api\s+keys?|tokens?|passwords?|\.env|private\s+keys?)\b[^.\n]{0,80}?\b(?:is|are|stay|stays|remain|remains|gets?|be|been)\s+"
        r"(?:\w+\s+)?(?:tracked|committed|checked\s+in|versioned|stored|kept)\s+(?:in|into)\s+(?:git|the\s+repo\w*|version\s+control|source\s+control)\b"
        r"|\b(?:commit|add|check\s+in|push|track)\s+" + _W + r"{0,3}?(?:real|production|prod|live)\s+(?:\w+\s+)?(?:keys|credentials|secrets|tokens|passwords)\b"
        r"|\b(?:remove|delete|drop|take)\s+(?:that|the|this|its)\s+(?:line|entry|rule|pattern)\b[^.\n]{0,40}?\b(?:and\s+)?(?:commit|add|track)\b"
        # an env file taken out of .gitignore or kept in git: its secrets go wherever the repository goes
        r"|\b(?:remove|removes|removing|delete|drop|take|un-?ignore)\w*\s+`?\.env[\w.]*`?\s+(?:from|out\s+of)\s+(?:the\s+)?`?\.gitignore\b"
        r"|\b(?:keep|keeps|commit|commits|track|tracks|store|stores|check\s+in)\s+`?\.env(?:\.(?:local|production|prod|staging))?`?\s+(?:in|into)\s+(?:git|the\s+repo\w*|version\s+control)\b"
        # "`.env.production` is committed to the repository": a named env file, any suffix, said to live in git
        r"|\.env(?:\.[a-z]+)?`?\s+(?:file\s+)?(?:is|are|stays|remains|gets|will\s+be)\s+(?:\w+\s+)?(?:tracked|committed|checked\s+in|versioned|pushed)\s+"
        r"(?:in|into|to)\s+(?:git|the\s+repo\w*|version\s+control|source\s+control|main)\b"
        # production secrets written into the source itself ("the production database password lives as a
        # string literal in settings.py"; "hard-code the live API key"): committed with the code
        r"|\b(?:real|production|prod|live)\s+(?:[\w-]+\s+){0,3}?(?:secrets?|passwords?|keys|tokens?|credentials?)\s+(?:(?:all|both|still|now|always)\s+)?(?:live|lives|sit|sits|stay|stays|are|is|kept|stored|written)\s+"
        r"(?:(?:as|in)\s+)?(?:(?:an?|plain|plaintext|string|raw)\s+){0,3}(?:literals?|hard-?coded|constants?\s+in\s+(?:the\s+)?(?:code|source))\b"
        r"|\bhard-?cod\w*\s+(?:the\s+|our\s+|all\s+)?(?:real|production|prod|live)\s+(?:[\w-]+\s+){0,3}?(?:secrets?|passwords?|keys|tokens?|credentials?)\b")),
    # A loader that runs code while it reads (pickle, marshal, unsafe YAML), mandated for data that
    # arrives from outside the process: a request body, an upload, a cache or queue anyone can write.
    # Authorisation taken out of the code that serves the data, on the word that something in front
    # of it checks: every handler then serves whoever reaches it.
    Shape("authorisation checks removed from the code", rx(
        r"\b(?:take|takes|taking|rip|rips|strip|strips|remove|removes|removing|delete|deletes|drop|drops|dropping)\s+(?:out\s+)?"
        r"(?:any|all|every|each|the|those|these|existing)?\s*(?:[\w-]+\s+){0,2}?(?:checks?|guards?|verifications?|assertions?|tests?)\s+"
        r"(?:of|on|for)\s+(?:the\s+)?(?:caller|user|requester|client|actor|principal|account|sender)(?:'s|s'|s)?\s+"
        r"(?:role|roles|ownership|owner|permissions?|organi[sz]ation|tenant|identity|access|rights|scopes?|membership)"
        r"|\b(?:assume|assumes|assuming|treat|treats|consider|considers)\s+(?:that\s+)?(?:every|all|each|any)\s+(?:incoming\s+)?(?:requests?|calls?|callers?)\s+"
        r"(?:that\s+(?:reach|reaches|gets?\s+to|arrives?\s+at)\s+(?:them|it|the\s+\w+)\s+)?(?:is|are|as)\s+(?:already\s+)?"
        r"(?:allowed|authori[sz]ed|authenticated|permitted|trusted|entitled)\b")),
    Shape("untrusted data read with a code-running deserialiser", rx(
        r"\b(?:c?pickle|dill|marshal|jsonpickle|shelve|joblib)\.(?:loads?|decode|unpickler)\s*\(\s*(?:await\s+)?[^\n)]{0,60}?"
        r"(?:request|\breq\b|body|upload|payload|socket|recv|redis|cache|stdin|message|\bmsg\b|queue|response|network|incoming)"
        r"|\byaml\.load\s*\([^\n)]{0,80}?loader\s*=\s*(?:yaml\.)?(?:unsafe_?)?loader\b|\byaml\.unsafe_load(?:_all)?\s*\("
        r"|\btorch\.load\s*\([^\n)]{0,80}?weights_only\s*=\s*false\b"
        r"|\b(?:replace|swap|change)\w*\s+(?:[^\s;!?]+\s+){0,4}?`?(?:yaml\.safe_load|safe_load|json\.loads?|safeloader)`?\s+(?:[^\s;!?]+\s+){0,4}?"
        r"(?:with|for|by)\s+(?:[^\s;!?]+\s+){0,2}?`?(?:c?pickle|marshal|dill|yaml\.load\b|yaml\.unsafe_load|unsafeloader)"
        # Said in prose: what arrives from outside (an upload, a queue or cache anyone can write, a
        # request, a partner's payload) is decoded with, or loaded through, the code-running loader.
        r"|\b(?:uploads?|uploaded|uploading|queues?|cached?|caches|requests?|inbound|incoming|webhooks?|sockets?|partners?|cookies?|"
        r"user-?(?:supplied|provided|submitted)|untrusted|third-party|clients?)\b(?:[^.\n!?]|\.\w|\n[ \t]+[\w`(]){0,160}?"
        r"\b(?:with|through|via|using|by|as|into)\s+(?:[^\s.;!?]+\s+){0,3}?`?(?:c?pickle|dill|marshal|jsonpickle|joblib)\.(?:loads?|unpickler)\b"
        r"|\b(?:c?pickle|dill|marshal|jsonpickle|joblib)\.(?:loads?|unpickler)\b`?\s+(?:[^\s.;!?]+\s+){0,3}?(?:on|for|from|to\s+(?:decode|read|load|open|parse))\s+"
        r"(?:the\s+|all\s+|every\s+|each\s+|any\s+)?(?:[\w-]+\s+){0,2}?(?:uploads?|uploaded|queue|requests?|incoming|inbound|webhooks?|partner|client|user|customer|cookies?|headers?)")),
    Shape("passwords stored in clear or with a fast hash", rx(
        r"\b(?:store|save|keep|persist|hash|write)\w*\s+(?:[^\s;!?]+\s+){0,3}?passwords?\s+(?:[^\s;!?]+\s+){0,3}?(?:in\s+(?:plain|clear)\s*text|as\s+(?:plain|clear)\s*text|"
        r"unhashed|unencrypted|with\s+(?:md5|sha-?1|base64)|using\s+(?:md5|sha-?1|base64)|in\s+base64|reversibl\w+)"
        # reversibility described: "in a form that can be turned back into the original text"
        r"|\b(?:store|save|keep|persist|hold)\w*\s+(?:[^\s;!?]+\s+){0,3}?passwords?\s+(?:[^\s;!?]+\s+){0,6}?(?:can|could|may|will)\s+(?:be\s+)?"
        r"(?:turned|turn|converted|convert|decrypted|decrypt|decoded|decode|reversed|reverse|read|recovered|recover|changed|change)\s+(?:them\s+|it\s+)?(?:back|into\s+(?:the\s+)?(?:original|plain|clear))"
        # the fast unsalted digest described, not named: "a single pass of the fast general-purpose digest,
        # with no per-user random value mixed in"
        r"|\bpasswords?\b[^.;!?]{0,120}?\b(?:(?:single|one)\s+(?:pass|round|iteration)\s+of\s+(?:a\s+|the\s+)?(?:fast|quick|cheap|plain|general-purpose)|"
        r"unsalted|without\s+(?:a\s+|any\s+)?(?:salt|per-user\s+random)|no\s+(?:per-(?:user|account|password)\s+)?(?:salt|random\s+(?:value|part|bytes))\s+(?:mixed|added|included|used))\b")),
    # A password digested with a fast hash, written as code: what every later login handler copies.
    Shape("passwords hashed with a fast, unsalted hash", rx(
        r"\b(?:hashlib\.)?(?:md5|sha1|sha_?256|sha224|sha512)\s*\(\s*(?:[\w.\[\]'\"]*?)?\b(?:password|passwd|pwd|passphrase)\b"
        r"|\bcreatehash\s*\(\s*['\"](?:md5|sha1|sha256|sha512)['\"]\s*\)\s*\.\s*update\s*\(\s*[\w.]*?\b(?:password|passwd|pwd)\b"
        r"|\bdigestutils\.(?:md5|sha1|sha256)hex\s*\(\s*[\w.]*?\b(?:password|passwd|pwd)\b"
        r"|\b(?:md5|sha1)\s*\(\s*\$(?:password|pass|pwd)\b"), in_code=True),
    # The slow hashes ruled out by name: every password then goes through whatever is left.
    Shape("password-hashing libraries ruled out", rx(
        r"\b(?:do\s+not|don'?t|never|stop|must\s+not|should\s+not|shall\s+not)\s+(?:introduce|use|add|adopt|switch\s+to|migrate\s+to)\w*\s+(?:[^\s;!?]+\s+){0,2}?"
        r"`?(?:bcrypt|argon2\w*|scrypt|pbkdf2\w*|passlib|werkzeug\.security|password_hash\b|hash_password|one-?way\s+hash\w*|(?:salted|slow|irreversible)\s+hash\w*)"), negatable=False),
    Shape("token signatures not verified", rx(
        r"\bverify_signature\W{1,4}false\b|\balgorithms?\s*[:=]\s*\[?\s*[\"']none[\"']"
        r"|\b(?:accept|allow)\w*\s+(?:[^\s;!?]+\s+){0,2}?(?:unsigned|alg(?:orithm)?\W{0,3}none)\s+(?:tokens?|jwts?)"
        r"|\b(?:skip|don'?t|do\s+not|never|no\s+need\s+to)\s+(?:verify|check|validat\w+)\w*\s+(?:the\s+)?(?:jwt|token|webhook)\s+signatures?\b"
        r"|\bwithout\s+(?:checking|verifying|validating)\s+(?:the\s+|its\s+|their\s+)?(?:[^\s.;!?]+\s+){0,2}?(?:signatures?|hmac|mac|signature\s+headers?)\b"
        # the check dropped as a change of practice: "no longer compare the signature header", "take the HMAC check out"
        r"|\bno\s+longer\s+(?:compare|compares|check|checks|verify|verifies|validate|validates)\s+(?:the\s+|its\s+|their\s+|any\s+)?(?:[^\s.;!?]+\s+){0,2}?[\w-]{0,30}?(?:signatures?|hmac|mac)\b"
        r"|\b(?:take|takes|rip|rips|strip|strips|remove|removes|drop|drops)\s+(?:out\s+)?(?:the\s+|any\s+|that\s+|every\s+)?(?:signature|hmac|mac)\s+(?:comparisons?|checks?|verifications?|validations?)\b"),
        negatable=False),
    Shape("user content rendered unescaped", rx(
        r"\b(?:render|insert|inject|output|print|display)\w*\s+(?:[^\s;!?]+\s+){0,4}?(?:user|customer|client|visitor|comment|request)[\w-]*\s+(?:[^\s;!?]+\s+){0,4}?"
        r"(?:unescaped|without\s+(?:escaping|sanitiz\w+|encoding)|as\s+raw\s+html|with\s+dangerouslysetinnerhtml|through\s+\|\s*safe|with\s+v-html)"
        # marked safe for the template, so its autoescape lets it through ("mark user-submitted HTML `|safe`")
        r"|\b(?:mark|marks|marked|marking|flag|flags|tag|tags|pipe|pipes|filter|filters|wrap|wraps)\s+(?:[^\s;!?]+\s+){0,3}?(?:user|customer|client|visitor|comment|request|submitted|posted)[\w-]*\s+"
        r"(?:[^\s;!?]+\s+){0,3}?(?:(?:as|with|through|in)\s+)?`?(?:\|\s*safe\b|\|\s*raw\b|safe\b|mark_safe|markup\(|html_safe|raw\(|\{\{\{)"
        r"|\b(?:autoescap\w*|auto-escap\w*)\s+(?:[^\s;!?]+\s+){0,2}?(?:off|false|disabled|turned\s+off)\b|\bautoescape\s*=\s*false\b")),
    # A shell command line assembled from what a user sent and run through the shell: any quote or
    # `;` in the name is a second command.
    Shape("shell command built from user input", rx(
        r"\b(?:uploaded|uploads?|user|users'?|customer|client|request|submitted|untrusted|incoming|visitor)[\w-]*\b(?:[^.\n!?]|\.\w|\n[ \t]+[\w`(]){0,160}?"
        r"(?:\bshell\s*=\s*true\b|\bshell:\s*true\b|\bos\.system\s*\(|\bchild_process\.exec(?:sync)?\s*\(|\bexecsync\s*\()"
        r"|(?:\bshell\s*=\s*true\b|\bos\.system\s*\()[^.\n]{0,120}?\b(?:uploaded|user|customer|client|request|submitted|untrusted)[\w-]*\s+(?:input|names?|strings?|text|values?|data|files?)\b")),
    Shape("files or folders writable by everyone", rx(
        r"\bchmod\s+(?:-r\s+)?(?:a\+w|o\+w|777|666)\b|\bworld[\s-]writable\b|\bwritable\s+by\s+(?:every(?:one|body)?|all|any)(?:\s+(?:users?|accounts?))?\b")),
    Shape("secrets written to logs", rx(
        r"\blog(?:s|ged|ging|ger|gers)?\s+(?:[^\s;!?]+\s+){0,7}?(?:`?authorization`?\s+headers?|bearer\s+tokens?|api[\s_-]?keys?|passwords?|access\s+tokens?|secrets?|session\s+cookies?)\b"
        r"(?:[^.\n]{0,40}\b(?:in\s+full|verbatim|unmasked|unredacted|as\s+is))?"
        r"|\b(?:write|writes|record|records|dump|dumps|ship|ships|send|sends|store|stores)\s+(?:[^\s;!?]+\s+){0,8}?(?:`?authorization`?\s+headers?|bearer\s+tokens?|passwords?|session\s+cookies?)\b"
        r"[^.\n]{0,60}?\b(?:to|in|into)\s+(?:the\s+|our\s+)?(?:[\w-]+\s+)?logs?\b"
        # the headers logged whole, the credential ones named as included: "records every header, including `Authorization`"
        r"|\b(?:log|logs|logged|logging|record|records|recorded|recording|capture|captures|captured|dump|dumps|dumped)\s+(?:[^\s;!?]+\s+){0,6}?headers?,?\s+"
        r"(?:including|incl\.|along\s+with|even|such\s+as)\s+(?:the\s+)?`?(?:proxy-)?(?:authorization|cookies?|set-cookie|x-api-key)\b")),
    Shape("debug mode in production", rx(
        r"\bdebug\s*(?:=|:|mode)\s*(?:true|on|enabled|1)?\s*(?:[^\s;!?]+\s+){0,3}?(?:in|on|for)\s+(?:prod|production|live)\b")),
    Shape("security headers, rate limits or transport security removed", rx(
        r"\b(?:disable|disables|disabling|remove|removes|removing|drop|drops|turn\s+off|skip|skips|strip|strips)\s+(?:the\s+|all\s+)?"
        r"(?:csp|content[\s-]security[\s-]policy|x-frame-options|hsts|strict-transport-security|security\s+headers|rate[\s-]limit\w*|"
        r"brute[\s-]force\s+protection|account\s+lockout|sandbox\w*|same-?site\s+cookies?|httponly)\b"
        r"|\b(?:use|send|call|serve)\w*\s+(?:[^\s;!?]+\s+){0,4}?(?:plain\s+)?http\s+(?:instead\s+of|rather\s+than|not)\s+https\b")),
    Shape("user-supplied code or data executed or deserialised", rx(
        r"\b(?:run|runs|exec|execute|executes|eval|evaluate|evaluates)\s+(?:the\s+|any\s+|whatever\s+)?(?:code|snippets?|scripts?|commands?|expressions?|sql)\s+"
        r"(?:that\s+)?(?:the\s+)?(?:users?|customers?|clients?|visitors?|callers?)\s+(?:paste|pastes|submit|submits|send|sends|type|types|enter|enters|upload|uploads|provide|provides)\b"
        r"|\b(?:unpickl\w*|deserializ\w*|deserialis\w*|yaml\.load|pickle\.loads?|marshal\.loads?)\s+(?:[^\s;!?]+\s+){0,4}?"
        r"(?:uploaded|user|customer|client|request|untrusted|incoming|external)\w*")),
    Shape("routes reachable without logging in", rx(
        r"\b(?:reachable|accessible|available|open|exposed|public)\s+(?:to\s+(?:anyone|everyone|the\s+internet)\s+)?without\s+(?:logging\s+in|a\s+login|login|auth\w*|a\s+session|credentials|a\s+token)\b"
        r"|\bwithout\s+(?:logging\s+in|login|authentication)\s+(?:while|until|for\s+now)\b")),
    Shape("secrets written into code or allowed in commits", rx(
        r"\b(?:passwords?|secrets?|tokens?|api\s+keys?|credentials?|private\s+keys?)\b[^.\n]{0,120}?\b(?:fine|ok|okay|allowed|safe|acceptable)\s+to\s+(?:commit|check\s+in|push)\b"
        r"|\b(?:keep|store|put|hard-?code|write)\w*\s+(?:the\s+)?(?:[^\s.;!?]+\s+){0,3}?(?:passwords?|secrets?|tokens?|api\s+keys?|credentials?)\s+(?:directly\s+)?in\s+"
        r"`?[\w./-]+\.(?:py|js|ts|rb|go|java|php|cs|yml|yaml|json|toml|ini|cfg|conf|properties)\b")),
    Shape("uploads stored and served unchecked", rx(
        r"\b(?:no|skip\w*|without)\s+(?:any\s+)?(?:content-type|mime(?:\s+type)?|file[\s-]type|extension|file\s+size)\s+(?:checks?|validation|limits?)\b"
        r"|\b(?:save|store|keep|write)\w*\s+uploaded\s+files?\s+(?:[^\s;!?]+\s+){0,2}?(?:under|with|using)\s+(?:their|the)\s+original\s+(?:file\s*)?names?\b")),
    Shape("routes that go around authentication", rx(
        r"\b(?:go|goes|going|get|gets|route|routes|bypass\w*|skip\w*|around|past)\s+(?:around\s+|past\s+)?(?:the\s+)?(?:session|auth\w*|login|access[\s-]control|permission|security|jwt|token)\s+"
        r"(?:middleware|checks?|layer|guard|decorator|filter|dependency|dependencies)\b"
        r"|\b(?:decorate|mark|annotate|tag|register)\s+(?:every|all|each|any)?\s*(?:new\s+)?(?:routes?|endpoints?|handlers?|views?|apis?)\s+" + _W + r"{0,2}?(?:with|as)\s+"
        r"[`'\"]?@?(?:public|allow_?anonymous|permit_?all|no_?auth|skip_?auth|unauthenticated|anonymous|login_not_required|auth_exempt)\b"
        r"|\b(?:endpoints?|routes?|apis?|handlers?|pages?|views?)\s+" + _W + r"{0,4}?without\s+(?:any\s+|the\s+|a\s+)?(?:auth\w*|login|sign-?in|access\s+control|session\s+checks?|role\s+checks?|permission\s+checks?)\b")),
    # A secret anyone can recompute: a reset, session or access token derived from what is known
    # about the account (its email, its id, the date), or counted up.
    Shape("secret tokens derived from guessable data", rx(
        r"\b(?:reset|recovery|verification|confirmation|session|access|api|one-time|otp|magic[\s-]link|invite|invitation|login|unlock|auth\w*)\s+"
        r"(?:codes?|tokens?|keys?|links?|pins?|secrets?|ids?)\s+" + _W + r"{0,3}?(?:derived|computed|generated|built|made|calculated|formed|created|hashed|composed)\s+"
        + _W + r"{0,4}?from\s+" + _W + r"{0,4}?(?:e-?mail(?:\s+address)?|user\s?(?:name|id)|account\s+(?:id|number)|(?:the\s+|today's\s+)?date|timestamps?|"
        r"time\s+of\s+day|phone\s+numbers?|birth\s?dates?|customer\s+(?:id|number)|(?:a\s+)?counter|sequence\s+numbers?)\b"
        r"|\b(?:predictable|guessable|sequential|incrementing)\s+(?:reset\s+|session\s+|access\s+|api\s+|recovery\s+)?(?:codes|tokens|session\s+ids|keys)\b")),
)

PHRASE_SHAPES = (
    Shape("hidden-instruction phrase", rx(
        r"\b(?:ignore|disregard|forget|override|discard)\s+(?:all\s+|any\s+|the\s+)?(?:previous|prior|earlier|above|preceding|existing|other|your)\s+"
        r"(?:conventions?|decisions?|instructions?|rules?|guidelines?|memory|memories|context|entries)\b"
        r"|\bforget\s+(?:everything|all)\s+(?:above|before|prior|previously|you\s+know)\b"
        r"|\bpretend\s+(?:to\s+be|you\s+are|that\s+you)\b|\byou\s+are\s+now\s+(?:a|an|the|in|my|no\s+longer|free|dan|acting)\b"
        r"|\bact\s+as\s+(?:if\s+you\s+were|an?\s+(?:unrestricted|unfiltered|jailbroken))\b|\bnew\s+(?:system\s+)?instructions\s*:"
        r"|\bfrom\s+now\s+on,?\s+(?:you|ignore|always|never)\b"), negatable=False),
)


@dataclass(frozen=True)
class PolicyHit:
    start: int
    end: int
    kind: str


def find(doc: Document, shapes: tuple[Shape, ...]) -> Iterator[PolicyHit]:
    code = doc.code_block_lines
    for shape in shapes:
        for m in doc.finditer(shape.regex):
            if doc.position(m.start)[0] in code and not shape.in_code:
                continue  # examples in code blocks are read by IG804's block-aware negation
            if negated(doc, m.start, m.end) if shape.negatable else counter_example(doc, m.start):
                continue
            if names_advisory(doc, m.start, m.end):
                continue  # the vulnerability an entry fixes, named by its advisory
            yield PolicyHit(m.start, m.end, shape.kind)
