"""The literal prefilter may skip an RE2 pass only when no match is possible."""
from __future__ import annotations

import importlib
import pkgutil

import pytest
import re2

import scanner
from scanner.matching import COMPILED, PREFILTER_MIN_BYTES, rx
from scanner.prefilter import required_literals
from scanner.rules import catalog


def literals(pattern):
    found = required_literals(pattern)
    return None if found is None else ({x.encode() for x in found[0]}, found[1])


PAD = b"\n" * PREFILTER_MIN_BYTES  # the prefilter only engages on texts this long


@pytest.mark.parametrize("pattern, expected", [
    (r"curl\s+-s", ({b"curl"}, False)),
    (r"\b(?:ignore|disregard)\s+previous", ({b"previous"}, False)),
    (r"(?:ignore|disregard)\s+\w+", ({b"ignore", b"disregard"}, False)),
    (r"(?i)Base64\s+-d", ({b"Base64"}, True)),
    (r"x(?i:Eval)\(", ({b"Eval"}, True)),
    (r"(?:abc)+defg", ({b"defg"}, False)),
    (r"(?:abc)?def", ({b"def"}, False)),
])
def test_literals_every_match_needs(pattern, expected):
    assert literals(pattern) == expected


@pytest.mark.parametrize("pattern", [
    r"(?:abc)?de",  # an optional part requires nothing, and two letters are no filter
    r"(?:foo|\w+)\d",  # a branch with one unconstrained alternative requires nothing
    r"[[:alpha:]]+word",  # POSIX class: Python would misread it as a class plus literals
    r"\pLword",  # RE2-only syntax Python cannot parse
    r"a{0,3}",
])
def test_no_filter_when_unsure(pattern):
    assert literals(pattern) is None


def test_case_folding_is_re2s_own():
    pattern = rx(r"(?i)kill")
    assert pattern.may_match(b"KiLL -9" + PAD)
    assert not pattern.may_match(b"nothing here" + PAD)
    # KELVIN SIGN folds to k under RE2's (?i): the literal set folds the same way.
    kelvin = "\u212aill".encode() + PAD
    assert re2.search(rb"(?i)kill", kelvin) is not None
    assert pattern.may_match(kelvin) and pattern.search(kelvin) is not None


def test_short_texts_skip_the_literal_pass():
    assert rx(r"curl\s+-s").may_match(b"nothing here")


def _all_patterns():
    catalog()
    for info in pkgutil.walk_packages(scanner.__path__, "scanner."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    return list(COMPILED)


def _texts():
    texts = []
    for r in catalog():
        for fixture in (*r.must_match, *r.must_not_match, *r.lowered):
            text = getattr(fixture, "text", fixture)
            texts += [text, text.upper(), text.lower(), text.swapcase()]
    return texts


def test_prefilter_never_hides_a_match():
    patterns = _all_patterns()
    assert sum(1 for p in patterns if p._needs) > 100, "the prefilter should cover most rule patterns"
    texts = [t.encode("utf-8", "surrogatepass") + PAD for t in _texts()]
    checked = 0
    for p in patterns:
        if not p._needs:
            continue
        for data in texts:
            if p._re.search(data) is not None:  # the raw RE2 answer, no prefilter
                checked += 1
                assert p.may_match(data), (p.pattern, data[:200])
    assert checked > 100
