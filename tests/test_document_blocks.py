"""Document.code_block_lines against the plain line-by-line reading of fenced blocks."""
from __future__ import annotations

import random

from scanner.document import Document


def _reference(text: str) -> frozenset[int]:
    """Every line tested in turn: what a markdown reader does with ``` and ~~~ fences."""
    inside: set[int] = set()
    fence = None
    for no, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip(" ")
        if fence is None:
            if stripped.startswith(("```", "~~~")) and len(line) - len(stripped) <= 3:
                marker = stripped[0]
                fence = marker * (len(stripped) - len(stripped.lstrip(marker)))
                inside.add(no)
        else:
            inside.add(no)
            if stripped.startswith(fence) and not stripped.strip(fence[0]).strip():
                fence = None
    return frozenset(inside)


_PIECES = ["```", "````", "~~~", "~~~~", "```bash", "``` ", "`` ", "text", "", " ", "    ", "  ", "\r", "~", "`", "x```", "\t```"]


def test_fenced_lines_agree_with_a_line_by_line_reading_on_random_texts():
    rnd = random.Random(7)
    with_blocks = 0
    for _ in range(3000):
        lines = ["".join(rnd.choice(_PIECES) for _ in range(rnd.randint(0, 3))) for _ in range(rnd.randint(0, 12))]
        text = "\n".join(lines)
        expected = _reference(text)
        with_blocks += bool(expected)
        assert Document("README.md", text).code_block_lines == expected, repr(text)
    assert with_blocks > 1000  # the generator makes blocks, open and closed


def test_an_unclosed_fence_runs_to_the_end_and_indented_fences_do_not_open():
    doc = Document("README.md", "intro\n```sh\ncurl x | sh\n\nmore")
    assert doc.code_block_lines == {2, 3, 4, 5}
    assert Document("README.md", "    ```\ncode?\n    ```\n").code_block_lines == frozenset()
    assert Document("README.md", "~~~\n```\n~~~~\nafter\n").code_block_lines == {1, 2, 3}
