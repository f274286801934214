"""Random texts that a parsed pattern (the stdlib parser's tree of one of our own patterns) is
meant to match, for the property tests of what is derived from the patterns: the word prefilter's
conditions (test_prefilter) and the gates' relaxed forms (test_gates). RE2 has the last word on
whether a generated text matches; the tests skip the ones it rejects."""
from __future__ import annotations

import random
from re._constants import (
    ANY, AT, BRANCH, CATEGORY, CATEGORY_DIGIT, CATEGORY_NOT_DIGIT, CATEGORY_NOT_SPACE,
    CATEGORY_NOT_WORD, CATEGORY_SPACE, CATEGORY_WORD, IN, LITERAL, MAX_REPEAT, MIN_REPEAT,
    NEGATE, NOT_LITERAL, RANGE, SUBPATTERN,
)

ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 \t\n_-./:;'\"<>()[]{}|&$@#%*+=?!~`\\"
# Characters of two, three and four UTF-8 bytes (a no-break space is not RE2's \s; the long s and
# the Kelvin sign fold to s and k under RE2's UTF-8 case folding).
WIDE = "é\u00a0ſ—\u212a中😀"
_SPACE = " \t\n\r\f"  # RE2's \s: ASCII only
CATEGORIES = {  # RE2's Perl classes are ASCII
    CATEGORY_DIGIT: lambda c: c in "0123456789", CATEGORY_NOT_DIGIT: lambda c: c not in "0123456789",
    CATEGORY_SPACE: lambda c: c in _SPACE, CATEGORY_NOT_SPACE: lambda c: c not in _SPACE,
    CATEGORY_WORD: lambda c: c.isascii() and (c.isalnum() or c == "_"),
    CATEGORY_NOT_WORD: lambda c: not (c.isascii() and (c.isalnum() or c == "_")),
}


def in_class(items, ch: str) -> bool:
    negate, hit = False, False
    for op, arg in items:
        if op is NEGATE:
            negate = True
        elif op is LITERAL:
            hit |= ord(ch) == arg
        elif op is RANGE:
            hit |= arg[0] <= ord(ch) <= arg[1]
        elif op is CATEGORY:
            hit |= CATEGORIES[arg](ch)
    return hit != negate


class TextMaker:
    """generate(tree items, rnd): a text for them. `pool`: the characters classes draw from;
    `wide_bias`: pick a multi-byte character half the time one is allowed; `extra_repeats`: how
    far past its minimum a repeat may go."""

    def __init__(self, pool: str, wide_bias: bool = False, extra_repeats: int = 3) -> None:
        self.pool = pool
        self.wide_bias = wide_bias
        self.extra_repeats = extra_repeats

    def _pick(self, choices: list[str], rnd: random.Random) -> str:
        if self.wide_bias:
            wide = [c for c in choices if c in WIDE]
            if wide and rnd.random() < 0.5:
                return rnd.choice(wide)
        return rnd.choice(choices) if choices else ""

    def generate(self, items, rnd: random.Random) -> str:
        out: list[str] = []
        for op, arg in items:
            if op is LITERAL:
                out.append(chr(arg))
            elif op is NOT_LITERAL:
                out.append(self._pick([c for c in self.pool if ord(c) != arg], rnd))
            elif op is ANY:
                out.append(self._pick([c for c in self.pool if c != "\n"], rnd))
            elif op is IN:
                out.append(self._pick([c for c in self.pool if in_class(arg, c)] or [chr(a) for o, a in arg if o is LITERAL], rnd))
            elif op is SUBPATTERN:
                out.append(self.generate(arg[-1], rnd))
            elif op is BRANCH:
                out.append(self.generate(rnd.choice(arg[1]), rnd))
            elif op in (MAX_REPEAT, MIN_REPEAT):
                low, high, child = arg
                count = rnd.randint(low, min(high, low + self.extra_repeats))
                out.extend(self.generate(child, rnd) for _ in range(count))
        return "".join(out)
