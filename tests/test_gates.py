"""A rule gate's set holds relaxed patterns (scanner/matching/relax.py): each must match every text its
original pattern matches, or a gate would hide a finding. Checked on random texts generated from
every gated pattern, with multi-byte characters wherever a dot, a negated class or \\S allows
them, then matched by RE2 itself; and the same check is shown to catch unsound relaxations."""
from __future__ import annotations

import importlib
import random
import re._parser as sre_parse

import pytest
import re2

from pattern_texts import ASCII, WIDE, TextMaker
from scanner.matching import relax, saved
from scanner.document import Document
from scanner.matching import rx
from scanner.matching import gates
from scanner.rules import RULE_MODULES, catalog

_TEXTS = TextMaker(ASCII + WIDE, wide_bias=True, extra_repeats=4)  # multi-byte characters: what Latin-1 must cover


def _generate(items, rnd: random.Random) -> str:
    return _TEXTS.generate(items, rnd)


def _families() -> list[gates.Family]:
    catalog()
    found = {}
    for name in (*RULE_MODULES, "scanner.carriers"):  # carriers: the encoded-text hints' family
        for value in vars(importlib.import_module(name)).values():
            if isinstance(value, gates.Family):
                found[id(value)] = value
    return list(found.values())


# The shapes a relaxation can get wrong, beyond what today's rule patterns hold: one character
# that may take several bytes, counted repeats of them, non-ASCII literals and ranges, anchors.
_PROBES = (
    r"a.b", r"a[^x]b", r"x\Sy", r"a\Wb", r"a\Db", r"a.{2}b", r"a[^\n]{0,3}b", r"a[^\n]{2,3}b",
    r"(?s:a.b)", r"[é-ü]x", "x[\\w\u2000-\u2fff]y", r"中文", r"(?:ab|é)\s+c",
    r"(?m)^x\S*$", r"\bword\b", r"(?:\S+\s+){0,2}z", r"[^a-z\s]{3}",
    r"a[^\Sb]c", r"[^\Wé]{2,5}z", r"[^é]{2}x", r"x[^é]y",
)


def _patterns() -> list[str]:
    return [r.pattern for f in _families() for r in f.regexes] + [p for p in _PROBES]


def _counterexamples(gate_for, seed: int, tries: int = 30) -> tuple[int, list[tuple[str, str]]]:
    """(texts the original patterns matched, those the gate built by gate_for(pattern) missed)."""
    rnd = random.Random(seed)
    checked, missed = 0, []
    for pattern in _patterns():
        regex, gate, tree = rx(pattern), gate_for(pattern), sre_parse.parse(pattern)
        for _ in range(tries):
            text = rnd.choice(["", "see ", "é", "# note\n", "中 "]) + _generate(list(tree), rnd) + rnd.choice(["", " end", "—", "\n"])
            data = text.encode("utf-8")
            if regex.search(data) is None:
                continue
            checked += 1
            if gate.search(data) is None:
                missed.append((pattern, text))
    return checked, missed


@pytest.mark.parametrize("seed", range(3))
def test_a_gate_matches_every_text_its_pattern_matches(seed):
    checked, missed = _counterexamples(_family_gate, seed)
    assert missed == []
    assert checked > 600  # the generator reaches the patterns: the test cannot pass by skipping


def _family_gate(pattern: str):
    """The pattern's gate as gates.Family builds it, compiled alone with the same options."""
    family = gates.Family("probe", rx(pattern))
    return _OneGate(family)


class _OneGate:
    def __init__(self, family: gates.Family) -> None:
        self.family = family

    def search(self, data: bytes):
        return True if self.family.scan(data) else None


def _naive_latin1(pattern: str):
    """The unsound shortcut: the pattern read byte by byte (a dot is then one byte, not one
    character)."""
    options = re2.Options()
    options.encoding = re2.Options.Encoding.LATIN1
    return re2.compile(pattern.encode("utf-8"), options)


def _narrowed(pattern: str):
    """An unsound widening: every star made optional (a pattern with no Latin-1 form, one that
    folds case, is left as it is)."""
    relaxed = relax.relaxed(pattern, latin1=True)
    if relaxed is None:
        return rx(pattern)
    options = re2.Options()
    options.encoding = re2.Options.Encoding.LATIN1
    return re2.compile(relaxed.replace("]*", "]?").encode("latin-1"), options)


@pytest.mark.parametrize("unsound", [_naive_latin1, _narrowed])
def test_the_check_catches_an_unsound_relaxation(unsound):
    checked, missed = _counterexamples(unsound, seed=0)
    assert missed, "the generated texts should have exposed this relaxation"


def test_every_family_pattern_is_relaxed_under_latin1():
    # A pattern relax.py stops understanding falls back to a slower UTF-8 set: say so here. One
    # that folds case (over raw text: remote_files.py) is relaxed for a UTF-8 set (see below).
    for family in _families():
        for regex in family.regexes:
            if regex.pattern.startswith("(?i)"):
                assert relax.relaxed(regex.pattern, latin1=False) is not None, regex.pattern
                continue
            assert relax.relaxed(regex.pattern, latin1=True) is not None, regex.pattern
    for pattern in _PROBES:
        assert relax.relaxed(pattern, latin1=True) is not None, pattern


def _single_characters_without_byte_runs(monkeypatch):
    """A dot or class taken once matches one byte only, not a multi-byte character."""
    node = relax._Emitter.node

    def narrow(self, op, arg, flags):
        if op in (relax.ANY, relax.NOT_LITERAL, relax.IN):
            return self.klass(op, arg, flags)[0] or "x"
        return node(self, op, arg, flags)
    monkeypatch.setattr(relax._Emitter, "node", narrow)


def _repeats_without_high_bytes(monkeypatch):
    """A widened `[^\\n]*` left without the bytes of multi-byte characters."""
    klass = relax._Emitter.klass
    monkeypatch.setattr(relax._Emitter, "klass", lambda self, op, arg, flags, high=False: klass(self, op, arg, flags))


@pytest.mark.parametrize("mutation", [_single_characters_without_byte_runs, _repeats_without_high_bytes])
def test_the_check_catches_a_broken_translation(monkeypatch, mutation):
    mutation(monkeypatch)
    checked, missed = _counterexamples(_family_gate, seed=0)
    assert missed, "the generated texts should have exposed this translation"


@pytest.mark.parametrize("pattern, text", [
    (r"a.b", "aéb"), (r"a.b", "a😀b"), (r"a[^x]{0,2}b", "a中中b"), (r"x\Sy", "x\u00a0y"),
    (r"[é-ü]x", "üx"), (r"中文", "中文"), (r"(?m)^\s*z$", "a\n  z\nb"),
])
def test_latin1_gates_take_multi_byte_characters_as_characters(pattern, text):
    gate = _family_gate(pattern)
    assert rx(pattern).test(text) and gate.search(text.encode("utf-8"))
    assert not gate.search(b"nothing here")


def test_bounded_repeats_are_widened_but_short_group_counts_kept():
    assert relax.relaxed(r"a[^\n]{0,80}b", latin1=False) == r"a[^\x0a]*b"
    assert relax.relaxed(r"a[^\n]{0,80}b", latin1=True) == r"a[^\x0a]*b"  # every byte but \n
    assert relax.relaxed(r"a(?:\w+\s+){2,9}b", latin1=True) == r"a(?:[\w]+[\s]+)+b"
    assert relax.relaxed(r"a(?:\S+\s+){0,3}b", latin1=False) == r"a(?:[\S]+[\s]+){0,3}b"


@pytest.mark.parametrize("pattern", [
    r"(a)\1", r"a(?=b)", r"(?<=a)b", r"foo[[:alpha:]]", r"\Qa.b\E", r"a{,3}", r"\pLx", r"\x{E0000}",
    r"a\z", r"a\Z",
])
def test_what_is_not_understood_is_not_relaxed(pattern):
    assert relax.relaxed(pattern, latin1=True) is None
    assert relax.relaxed(pattern, latin1=False) is None


def test_case_folding_stays_in_a_utf8_set():
    # Under UTF-8 RE2 folds the Kelvin sign into k; a Latin-1 set would not.
    assert relax.relaxed(r"(?i)kill", latin1=True) is None
    assert relax.relaxed(r"(?i)kill", latin1=False) is not None
    family = gates.Family("probe", rx(r"(?i)kill\s+it"), rx(r"\bsteal[^\n]{0,5}keys"))
    assert family._utf8_set is not None
    assert family.scan("\u212aILL it".encode("utf-8")) == frozenset({0})
    assert family.scan("steal 中 keys".encode("utf-8")) == frozenset({1})
    assert family.scan(b"nothing") == frozenset()


def test_a_family_still_gates_whole_documents():
    family = gates.Family("probe", rx(r"\bsteal\s+(?:\w+\s+){0,2}keys"), rx(r"wallet[^\n]{0,20}seed"))
    doc = Document("CLAUDE.md", "Then steal the ssh keys.\nA wallet—its seed.\n")
    assert family.present(doc) == frozenset({0, 1})
    assert [doc.text[m.start:m.end] for m in family.finditer(doc, family.regexes[0])] == ["steal the ssh keys"]
    assert family.present(Document("CLAUDE.md", "Run the tests.\n")) == frozenset()


def test_the_catalog_families_name_every_pattern_that_matches():
    """The same check through the families' own sets, as the rules use them."""
    rnd = random.Random(7)
    checked = 0
    for family in _families():
        for index, regex in enumerate(family.regexes):
            tree = sre_parse.parse(regex.pattern)
            for _ in range(20):
                data = ("中 " + _generate(list(tree), rnd) + " —").encode("utf-8")
                if regex.search(data) is not None:
                    checked += 1
                    assert index in family.scan(data), (regex.pattern, data)
    assert checked > 300


def test_the_saved_relaxed_forms_are_those_the_derivation_gives_today():
    patterns = [r.pattern for family in _families() for r in family.regexes]
    stored = saved.load(relax.SAVED_PATH, relax.__file__)
    assert stored, "scanner/data/relaxed_patterns.json is missing or was saved by another relax.py"
    stale = [p for p in patterns for latin1 in (True, False)
             if stored.get(("latin1:" if latin1 else "utf8:") + p, "missing") != relax.relaxed(p, latin1)]
    assert not stale, f"regenerate with `python scripts/refresh_derivations.py`: {stale[:2]}"


def test_a_relaxed_form_is_read_from_the_saved_file_and_derived_when_missing(tmp_path, monkeypatch):
    path = tmp_path / "relaxed.json"
    assert relax.save_relaxed([r"a[^\n]{0,80}b"], path) == 2
    monkeypatch.setattr(relax, "SAVED_PATH", path)
    monkeypatch.setattr(relax, "_saved", None)
    assert relax.relaxed_saved(r"a[^\n]{0,80}b", latin1=False) == relax.relaxed(r"a[^\n]{0,80}b", latin1=False)
    assert relax.relaxed_saved(r"x{2,9}", latin1=True) == relax.relaxed(r"x{2,9}", latin1=True)  # not saved: derived
    monkeypatch.setattr(relax, "_saved", {"utf8:q": "SAVED"})  # the saved entry is the one used
    assert relax.relaxed_saved("q", latin1=False) == "SAVED"
    path.write_text(path.read_text().replace(saved.source_key(relax.__file__), "0" * 64))
    assert saved.load(path, relax.__file__) == {}
