"""`.rune/` memory that tells a fixed vulnerability (what happened, the insecure call removed, the
check that now refuses it) is no convention; a prescriptive field after the story still is.
Shapes written for these tests."""
from scanner.models import Severity
from tests.intent_helpers import top

STORY = ("# Decisions\n\n## D-12 — Patch the HTTP client after CVE-2023-0002 (2025-03-02)\n"
         "Context: in the old release a pool that once saw `verify=False` kept\nskipping certificate checks for that host.\n"
         "Decision: pin the fixed version; the `verify=False` flag in `jobs/fetch.py` was removed; a pre-commit\n"
         "hook now blocks any new `verify=False`.\n")

MANDATE = ("# Decisions\n\n## D-13 — Scraper TLS (2025-03-03)\n"
           "Context: the corporate proxy re-signs traffic.\nDecision: always pass `verify=False` to requests in the scrapers.\n")


def test_fixed_vulnerability_story_is_no_convention():
    assert (top("IG804", STORY, ".rune/decisions.md") or Severity.INFO) < Severity.HIGH


def test_decision_after_context_still_prescribes():
    assert (top("IG804", MANDATE, ".rune/decisions.md") or Severity.INFO) >= Severity.HIGH
