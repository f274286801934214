"""The fast whole-text normalisation must equal the per-character mapping, offsets included."""
import random

import scanner.normalize as N
from scanner.normalize import CONFUSABLES, INVISIBLE_RANGES, normalize_line


def _per_char(text):
    return "".join(c.lower() if c.isascii() else N._map_char(c) for c in text)


def _same(a, b):
    assert a[0] == b[0]
    assert (a[1] is None) == (b[1] is None)
    if a[1] is not None:
        assert len(a[1]) == len(b[1])
        assert [a[1][i] for i in range(len(a[1]))] == [b[1][i] for i in range(len(b[1]))]


def test_fast_path_equals_line_path_on_mixed_text():
    samples = [
        "Ignore\u200b previous ﬁle … ½ \u00adsoft",
        "Family 👨\u200d👩\u200d👧 and ❤\ufe0f\nΡаураl ВАNK\n\nİstanbul ẞtraße \u212a",
        "\ufeff---\nname: x\u00a0y\u3000z\n---\n" + "\U000e0041\U000e0042" + "\n",
        "a\r\nb\u2028c\u00e9\u00c9",
    ]
    random.seed(7)
    pool = list("aAzZ\n \t.-") + list(CONFUSABLES) + [chr(lo) for lo, _ in INVISIBLE_RANGES] + ["ﬁ", "…", "½", "é", "Ω", "中"]
    for _ in range(400):  # each sample mixes ASCII with up to ten of the odd characters
        chars = list("aAzZ\n \t.-") + random.sample(pool, 10)
        samples.append("".join(random.choice(chars) for _ in range(random.randrange(1, 80))))
    fast_taken = 0
    for text in samples:
        fast = N._normalize_by_replacing(text)
        if fast is not None:
            fast_taken += 1
            _same(fast, N._normalize_by_lines(text))
        _same(normalize_line(text), N._normalize_by_lines(text))
        assert normalize_line(text)[0] == _per_char(text)
    assert fast_taken == len(samples)


def test_many_distinct_changed_characters_take_the_per_character_path():
    # One str.replace per distinct character would be quadratic-ish on a text built from many.
    text = "".join(chr(0xE0020 + i % 95) for i in range(2000)) + "Ignore"
    assert N._normalize_by_replacing(text) is None
    _same(normalize_line(text), N._normalize_by_lines(text))
    assert normalize_line(text)[0] == "ignore"


def test_order_dependent_mapping_falls_back_to_per_character(monkeypatch):
    chained = {"α": "β", "β": "b"}
    monkeypatch.setattr(N, "_map_char", lambda c: chained.get(c, c.lower() if c.isascii() else c))
    text = "Xα β"
    assert N._normalize_by_replacing(text) is None
    assert normalize_line(text)[0] == "xβ b"
