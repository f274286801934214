"""Rules raised by engines from facts about files rather than from their text.

They carry no text matcher (check=None); their engines' tests prove them.
"""
from __future__ import annotations

from ..models import Category, Confidence, Severity
from .base import rule

RULES = [
    rule(
        id="IG951", name="link-leaves-repository",
        title="Symbolic link in an agent file location points outside the repository, or never reaches a file",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.HIGH,
        rationale="An agent that follows the link reads a file no reviewer of this repository can see, "
                  "such as a home-directory secret or a file planted elsewhere on the machine. A link that loops "
                  "hides what the agent gets just as well. Links that stay inside the repository are followed "
                  "and their target is scanned under the link's path.",
        remediation="Replace the link with the file's content, or remove it.",
        check=None,
    ),
    rule(
        id="IG952", name="binary-in-skill",
        title="Compiled binary or archive shipped in a skill folder",
        category=Category.MALICIOUS_CODE, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="Skill instructions can tell an agent to run bundled files. A binary or archive cannot be "
                  "reviewed as text, and ClawHavoc-style skills shipped password-protected archives and droppers. "
                  "A tar, tar.gz/tgz/bz2/xz, gz or zip archive is read in memory (capped in members, sizes and "
                  "compression ratio; links never followed) and each member scanned as `archive!member`; only what "
                  "cannot be read inside (a bomb, an encrypted or corrupt archive, a link member, a nested archive, "
                  "an executable) raises this rule.",
        remediation="Ship source a reviewer can read, or fetch a pinned, checksummed release from the vendor.",
        check=None,
    ),
    # Files an agent would load or run that could not be read as text (scanner/engines/unread.py).
    # A skill's assets (name and bytes agree on an image, font, document or data format) are
    # listed as not scanned and never raise these.
    rule(
        id="IG954", name="agent-file-not-text",
        title="An agent file or a skill's file is binary, not text",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="An agent loads the file (an instruction file, a setting, a skill's script or reference) but no "
                  "reviewer or scanner can read it: NUL bytes, a compressed stream or an executable format hide "
                  "whatever it says or does. Agents and interpreters read such bytes anyway (a NUL-padded "
                  "AGENTS.md still reaches the model), so an unreadable agent file is not a clean one.",
        remediation="Replace it with plain text (UTF-8) a reviewer can read, or remove it; ship images, fonts and "
                    "documents under a name that matches their format.",
        check=None,
    ),
    rule(
        id="IG955", name="agent-file-over-size-cap",
        title="An agent file or a skill's script is over the size the scan reads",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="Instructions and scripts an agent loads are not normally megabytes long; padding a file past "
                  "the scanner's cap is a way to put a payload where no check looks, while the agent reads or "
                  "runs all of it.",
        remediation="Split or shorten the file, or raise limits.max-file-bytes / limits.script-max-bytes in the "
                    "base branch's configuration after reviewing it.",
        check=None,
    ),
    rule(
        id="IG956", name="agent-file-lfs-pointer",
        title="An agent file or a skill's script is a git LFS pointer",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="The repository holds only a pointer; the content an agent gets after `git lfs pull` comes from "
                  "an LFS server and is never part of the reviewed diff.",
        remediation="Commit agent files and scripts as ordinary git content, not through LFS.",
        check=None,
    ),
    rule(
        id="IG957", name="agent-file-unreadable",
        title="An agent file location holds something that could not be read",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="A file the scan could not open (permissions, I/O errors), a special file (FIFO, socket, device) "
                  "or a submodule at a path agents load: what the agent gets there was not checked.",
        remediation="Make it a readable regular file in this repository, or remove it.",
        check=None,
    ),
    rule(
        id="IG958", name="skill-beyond-walk-bounds",
        title="A skill folder is larger or deeper than the scan lists",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="Every file of a skill is classified so that no script hides in it. A skill with more entries "
                  "than the walk lists, nesting deeper than it follows, or more text files than it scans leaves "
                  "files unchecked that the skill can tell the agent to run.",
        remediation="Remove generated or vendored content from the skill folder; keep only what the skill uses.",
        check=None,
    ),
    # Provenance and change facts, raised by the Action (scanner/engines/provenance_findings.py, git_targets.py).
    rule(
        id="IG901", name="external-contributor-edits-agent-file",
        title="Agent file changed by a contributor the project has not learned to trust",
        category=Category.PROVENANCE, severity=Severity.MEDIUM, confidence=Confidence.HIGH,
        rationale="Agents obey instruction files, skills and agent settings without review at run time. A change "
                  "from outside the project (an author who is not an owner, member or collaborator, or a fork) "
                  "can look innocent line by line and still redirect what agents do, so it needs a maintainer's eyes "
                  "whatever its content.",
        remediation="Have a maintainer review the change to this file line by line before merging, or add the author "
                    "to trusted-users in the base branch's .github/instruction-guard.yml.",
        check=None,
    ),
    rule(
        id="IG902", name="untrusted-commit-touches-agent-file",
        title="A commit in the pull request by an untrusted author touches an agent file",
        category=Category.PROVENANCE, severity=Severity.MEDIUM, confidence=Confidence.MEDIUM,
        rationale="A trusted author's pull request can carry commits written by someone else (a cherry-pick, a "
                  "co-author, a compromised dependency bot). Its author has no commits in the base branch and is "
                  "not in trusted-users.",
        remediation="Check who wrote the commit and review its change to the agent file; trust the author by adding "
                    "their login or email to trusted-users.",
        check=None,
    ),
    rule(
        id="IG903", name="guard-configuration-changed",
        title="The pull request changes Instruction Guard's own configuration or trust store",
        category=Category.PROVENANCE, severity=Severity.LOW, confidence=Confidence.HIGH,
        rationale="Disabling rules, adding suppressions or trusting keys switches checks off for every later change. "
                  "This scan used the base commit's configuration, so the change takes effect only once merged.",
        remediation="Review the configuration change on its own; merge it separately from changes to agent files.",
        check=None,
    ),
    rule(
        id="IG904", name="agent-file-deleted",
        title="Agent file deleted",
        category=Category.PROVENANCE, severity=Severity.INFO, confidence=Confidence.HIGH,
        rationale="Deleting an instruction file, skill file or agent setting changes what agents do (a removed "
                  "guard rail is as effective as an added instruction) and leaves no line to comment on.",
        remediation="Confirm the deletion is intended and that no other file now takes its place.",
        check=None,
    ),
    rule(
        id="IG905", name="skill-moved",
        title="Skill folder renamed or moved",
        category=Category.PROVENANCE, severity=Severity.INFO, confidence=Confidence.HIGH,
        rationale="Agents find skills by folder; a moved skill can shadow another of the same name or start loading "
                  "for a different agent.",
        remediation="Confirm the new location and name are intended.",
        check=None,
    ),
    # What the Action could not read from git where agents load files (scanner/git_targets.py).
    rule(
        id="IG906", name="submodule-at-agent-path",
        title="A submodule sits where agents load files",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="A gitlink at an agent file or folder (CLAUDE.md, .claude, a skill's script) is another "
                  "repository's commit: what agents load there after `git submodule update` is never part of the "
                  "reviewed diff, and the Action does not fetch it.",
        remediation="Commit the agent files themselves into this repository, or move the submodule away from "
                    "paths agents load.",
        check=None,
    ),
    rule(
        id="IG907", name="agent-file-not-read-by-action",
        title="An agent file in the change could not be read from git",
        category=Category.HIDDEN_CONTENT, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="The Action reads the pull request's agent files from git objects. A blob over the size cap, a "
                  "git LFS pointer, a link loop or a skill past the scan budget leaves content the agent loads "
                  "unchecked, so it cannot count as clean.",
        remediation="Make the file plain text under the caps in this repository, or raise the limits in the base "
                    "branch's configuration after reviewing it.",
        check=None,
    ),
    rule(
        id="IG910", name="agent-edits-agent-file",
        title="A coding agent changed a file that steers coding agents",
        category=Category.PROVENANCE, severity=Severity.HIGH, confidence=Confidence.HIGH,
        rationale="An agent that edits its own instructions, skills, settings or memory can widen what every later "
                  "session is allowed to do, and a prompt injection it read elsewhere can persist itself this way. "
                  "Of all changes to these files it is the one a reviewer most needs to see. Agents are recognised "
                  "by their GitHub logins, commit identities and the Co-authored-by trailers they add "
                  "(scanner/data/agent_identities.yml).",
        remediation="Review the change line by line as if an outsider wrote it; once reviewed, approve the new content "
                    "in the trust store (`instruction-guard approve PATH`) on the base branch.",
        check=None,
    ),
    rule(
        id="IG911", name="virustotal-malicious",
        title="VirusTotal engines detect a bundled file as malicious",
        category=Category.MALICIOUS_CODE, severity=Severity.HIGH, confidence=Confidence.HIGH,
        rationale="The sha256 of a file shipped inside a skill is known to VirusTotal, and antivirus engines there detect it as malicious. Only the hash was sent (opt-in `--virustotal`).",
        remediation="Remove the file and find out how it entered the repository; treat the skill as compromised.",
        check=None,
    ),
    rule(
        id="IG912", name="virustotal-suspicious",
        title="VirusTotal engines call a bundled file suspicious",
        category=Category.MALICIOUS_CODE, severity=Severity.MEDIUM, confidence=Confidence.HIGH,
        rationale="The sha256 of a file shipped inside a skill is known to VirusTotal and at least one engine there calls it suspicious.",
        remediation="Open the VirusTotal report linked in the finding and decide whether the file belongs in the skill.",
        check=None,
    ),
    rule(
        id="IG913", name="virustotal-unknown",
        title="A bundled file is unknown to VirusTotal",
        category=Category.MALICIOUS_CODE, severity=Severity.INFO, confidence=Confidence.HIGH,
        rationale="No analysis of this sha256 exists on VirusTotal. Most project files are unknown there; this is a fact for the reviewer, never a verdict.",
        remediation="Nothing to do unless the file is a binary you did not expect in the skill.",
        check=None,
    ),
    rule(
        id="IG914", name="virustotal-unchecked",
        title="A bundled file could not be checked with VirusTotal",
        category=Category.MALICIOUS_CODE, severity=Severity.LOW, confidence=Confidence.HIGH,
        rationale="The lookup did not happen (no key, quota, budget or network error), so nothing is known about the file: unchecked is never clean.",
        remediation="Set the key named by `virustotal.key-env`, or raise the budget, and run again.",
        check=None,
    ),
    rule(
        id="IG916", name="judge-malicious",
        title="The semantic judge calls the file malicious",
        category=Category.PROMPT_INJECTION, severity=Severity.HIGH, confidence=Confidence.LOW,
        rationale="An LLM asked whether the file directs an agent beyond its own stated purpose answered malicious. Advisory unless the base configuration sets judge.gate: the judge is a second opinion for wording no rule can name, and models err.",
        remediation="Read the reason given and the file; if it is wrong, nothing is needed (the verdict is cached by content).",
        check=None,
    ),
    rule(
        id="IG917", name="judge-suspicious",
        title="The semantic judge calls the file suspicious",
        category=Category.PROMPT_INJECTION, severity=Severity.MEDIUM, confidence=Confidence.LOW,
        rationale="An LLM asked whether the file directs an agent beyond its own stated purpose answered suspicious. Advisory unless judge.gate is set.",
        remediation="Read the reason given and the file.",
        check=None,
    ),
    rule(
        id="IG918", name="judge-unjudged",
        title="The semantic judge could not judge the file",
        category=Category.PROMPT_INJECTION, severity=Severity.LOW, confidence=Confidence.HIGH,
        rationale="The file was not judged (too large, no key, provider unreachable, rate limited, daily cap, or an answer that was not the JSON verdict asked for). Unjudged is never clean; judge.strict makes it fail the verdict.",
        remediation="Fix the cause given in the message and run again.",
        check=None,
    ),
    rule(
        id="IG921", name="trusted-file-changed",
        title="A trusted agent file no longer matches its approved baseline",
        category=Category.INTEGRITY, severity=Severity.MEDIUM, confidence=Confidence.HIGH,
        rationale="The trust store records the sha256 of every approved agent file. Any change at all, whatever it "
                  "says, is reported, so a novel injection no pattern knows is still caught. Severity follows "
                  "who made the change: an author outside the trusted set raises it.",
        remediation="Review the change (the finding names the commit and author); if it is intended, re-baseline "
                    "with `instruction-guard approve FILE` and commit the trust store.",
        check=None,
    ),
    rule(
        id="IG922", name="trusted-file-removed",
        title="A trusted agent file was removed",
        category=Category.INTEGRITY, severity=Severity.MEDIUM, confidence=Confidence.HIGH,
        rationale="Removing an approved instruction or state file changes agent behaviour as much as editing it, "
                  "and another file (or a skill elsewhere) may now take its place.",
        remediation="Confirm the removal; then drop the baseline with `instruction-guard approve FILE`.",
        check=None,
    ),
    rule(
        id="IG923", name="agent-file-untrusted",
        title="Agent file is not in the trust store",
        category=Category.INTEGRITY, severity=Severity.LOW, confidence=Confidence.HIGH,
        rationale="Once a repository keeps a trust store, a new agent file nobody approved is the easiest place "
                  "to put instructions that escape review.",
        remediation="Review the file and record it with `instruction-guard trust FILE`.",
        check=None,
    ),
    rule(
        id="IG924", name="trust-store-changed",
        title="The trust store itself was changed (protected change)",
        category=Category.INTEGRITY, severity=Severity.LOW, confidence=Confidence.HIGH,
        rationale="Whoever edits the trust store decides which agent-file content counts as approved. In a pull "
                  "request the scan uses the base commit's store; a change by an outside author is high.",
        remediation="Review each re-approved file's change together with the store change; merge it separately.",
        check=None,
    ),
    rule(
        id="IG925", name="signature-invalid",
        title="A signed file's Ed25519 signature does not verify",
        category=Category.INTEGRITY, severity=Severity.HIGH, confidence=Confidence.HIGH,
        rationale="A signature binds the trust store (or an approved file) to a key the project lists. A signature "
                  "that no longer verifies means the file changed after signing, or it was signed by a key the "
                  "project does not trust.",
        remediation="Find out who changed the file; re-sign it with `instruction-guard sign FILE --key KEY` "
                    "using a key listed in integrity.public-keys, after review.",
        check=None,
    ),
    rule(
        id="IG926", name="signature-unverifiable",
        title="Signature cannot be checked: key or signature missing",
        category=Category.INTEGRITY, severity=Severity.MEDIUM, confidence=Confidence.HIGH,
        rationale="Signing only protects anything when both halves are present. A signed file with no configured "
                  "public key, or configured keys with an unsigned store, is unverified, not verified.",
        remediation="List the public key in integrity.public-keys, or sign the file with a listed key.",
        check=None,
    ),
    rule(
        id="IG953", name="skill-runs-flagged-script",
        title="Skill instructions send the agent to a bundled script that has a finding",
        category=Category.MALICIOUS_CODE, severity=Severity.HIGH, confidence=Confidence.MEDIUM,
        rationale="The SKILL.md is what the agent obeys; when it names a bundled script that downloads and runs "
                  "code, reads credentials or sends data away, following the instruction runs the payload. The "
                  "finding points at the instruction as well as at the script. Its severity is the script's, at most high; "
                  "a flagged script the skill ships without naming it is reported once, at most medium. Any agent file "
                  "that tells the agent to run a repository script (`bash scripts/setup.sh`) is linked the same way when "
                  "the script's findings name an attack at high or above: a note calling them known false positives, or "
                  "the script harmless telemetry, changes nothing the script does.",
        remediation="Review the bundled script's findings; remove the instruction or the dangerous code.",
        check=None,
    ),
]
