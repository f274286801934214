"""The one table of the kinds of fact the script analyses report (Fact.kind, CommandFact.kind).

Every analysis (Python through `ast`, shell through tree-sitter-bash, the token languages, the
command grader, the skill-folder chain) names a kind through the constants below, and the rules
that turn facts into findings (scanner/rules/scripts_facts.py, scripts_behaviour.py) read them
the same way; no module spells a kind as a string literal. KINDS says, for each kind, what it
means and which rule reports it at which default severity (the rule's own; a fact carries its
own severity, which the rule's hit keeps).

tests/test_fact_kinds.py fails when an analysis emits a kind missing here, when a kind here is
emitted by no rule's fixtures or read by no rule, when a rule's id or severity disagrees with
this table, or when a kind's text appears as a literal outside this module.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..models import Severity


@dataclass(frozen=True)
class FactKind:
    meaning: str
    rule: str  # the rule id that reports facts of this kind
    severity: Severity  # that rule's default severity


# Names of the kinds, as the analyses and rules spell them.
REMOTE_EXEC = "remote-exec"
DECODE_EXEC = "decode-exec"
CRED_EXFIL = "credential-exfil"
REVERSE_SHELL = "reverse-shell"
DYNAMIC_EXEC = "dynamic-exec"
SHELL_INJECTION = "shell-injection"
DESERIALIZE = "unsafe-deserialize"
PERSISTENCE = "persistence"
SENSITIVE_READ = "sensitive-read"
CLOUD_METADATA = "cloud-metadata"
DEFENSE_EVASION = "defense-evasion"
SURVEILLANCE = "surveillance"
HOST_DATA_EXFIL = "host-data-exfil"
DESTRUCTIVE = "destructive"
PRIVILEGE = "privilege"
INPUT_TO_SINK = "input-to-sink"
RECON = "reconnaissance"
SYSTEM_ENUM = "system-enumeration"
NETWORK_SCAN = "network-scan"
EXHAUSTION = "resource-exhaustion"
WEB_SHELL = "web-shell"
QUERY_INJECTION = "query-injection"
PATH_TRAVERSAL = "path-traversal"
HIDDEN_COLLECTION = "hidden-collection"
CREDENTIAL_HOARD = "credential-hoarding"
FAKE_SECURITY = "fake-security"
RANSOM_LOCK = "ransom-lock"
DATA_WIPE = "user-data-deletion"
PERSONAL_HARVEST = "personal-data-harvest"
SPLIT_CHAIN = "split-exfiltration-chain"
REPO_AUTHORITY = "repository-authority"

_C, _H, _M = Severity.CRITICAL, Severity.HIGH, Severity.MEDIUM

KINDS: dict[str, FactKind] = {
    # What code does when it runs (scripts_facts.py, IG701-IG717): every language.
    REMOTE_EXEC: FactKind("downloaded content reaches an interpreter or exec", "IG701", _C),
    DECODE_EXEC: FactKind("decoded (base64/hex/zlib/...) content reaches an interpreter or exec", "IG702", _C),
    CRED_EXFIL: FactKind("a credential file, credential command or secret environment value reaches the network", "IG703", _C),
    REVERSE_SHELL: FactKind("a shell's input and output wired to a network socket", "IG704", _C),
    DYNAMIC_EXEC: FactKind("exec/eval/compile/import of a computed value, or a dangerous name assembled from pieces", "IG705", _M),
    SHELL_INJECTION: FactKind("a command string built at run time run by a shell", "IG706", _M),
    DESERIALIZE: FactKind("data loaded with a deserialiser that can run code (pickle, marshal, yaml.load)", "IG707", _M),
    PERSISTENCE: FactKind("a write to cron, shell start-up files, authorized_keys, services or Run keys", "IG708", _H),
    SENSITIVE_READ: FactKind("a credential store or system secret file read", "IG709", _M),
    CLOUD_METADATA: FactKind("the cloud instance-metadata service queried", "IG710", _H),
    DEFENSE_EVASION: FactKind("logs, history or security controls tampered with, or a sandbox detected", "IG711", _M),
    SURVEILLANCE: FactKind("keystrokes, clipboard or screen captured", "IG712", _M),
    HOST_DATA_EXFIL: FactKind("host details or captured input sent to the network", "IG713", _M),
    DESTRUCTIVE: FactKind("files or the machine destroyed (rm -rf ~, mkfs, fork bomb)", "IG714", _H),
    PRIVILEGE: FactKind("setuid bits, sudoers or privileged groups changed", "IG715", _M),
    INPUT_TO_SINK: FactKind("a tool argument, sys.argv or input() reaches code, shell, SQL or template execution", "IG716", _M),
    RECON: FactKind("several account, process, network or hardware details of the machine collected", "IG717", _M),
    # What a tool does to the host besides running code (scripts_behaviour.py, IG720-IG728):
    # Python's behaviour pass, and shell for resource exhaustion.
    SYSTEM_ENUM: FactKind("system secret files read, or the host's accounts, processes or hardware enumerated", "IG720", _M),
    NETWORK_SCAN: FactKind("ports or private address ranges swept", "IG721", _M),
    EXHAUSTION: FactKind("memory, CPU, threads, descriptors or disk exhausted on purpose", "IG722", _M),
    WEB_SHELL: FactKind("a web shell planted, or a magic string that unlocks command execution", "IG723", _M),
    QUERY_INJECTION: FactKind("an LDAP filter or MongoDB query built from caller input", "IG724", _M),
    PATH_TRAVERSAL: FactKind("a tool opens a path built from its argument without a base-folder check", "IG725", _M),
    HIDDEN_COLLECTION: FactKind("a tool quietly posts its arguments to an outside service", "IG726", _M),
    CREDENTIAL_HOARD: FactKind("a tool keeps the passwords it is handed in module-level state", "IG727", _M),
    FAKE_SECURITY: FactKind("a tool promises encryption but only encodes", "IG728", _M),
    # The user's own data (user_data.py, IG740-IG742) and the skill folder's files together (skill_chain.py, IG743).
    RANSOM_LOCK: FactKind("a file encrypted or password-archived, then its original deleted", "IG740", _M),
    DATA_WIPE: FactKind("documents, mail, calendars or contacts deleted by pattern", "IG741", _M),
    PERSONAL_HARVEST: FactKind("precise location, every mailbox address or the address book read", "IG742", _M),
    SPLIT_CHAIN: FactKind("credential collection, encoding and sending split across a skill's script files", "IG743", _H),
    # Any language (anylang.py, IG744): a forge call that hands the repository to someone.
    REPO_AUTHORITY: FactKind("an account, a key or the public given authority over the repository by a forge call", "IG744", _H),
}
