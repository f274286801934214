"""Integrity: trust-on-first-use baselines of agent files, their git-aware classification, signing.

Nothing here prints or exits; the CLI (scanner/commands/trust.py) and the integrity engine
(scanner/engines/integrity_findings.py) turn these facts into output and findings.
"""
