"""No data file of the package holds a key twice: YAML keeps the last silently, so a merge that
leaves two `send:` lines in a lexicon would drop one side's entries without an error."""
from pathlib import Path

import pytest
import yaml

DATA = Path(__file__).resolve().parent.parent / "scanner" / "data"


class _StrictLoader(yaml.SafeLoader):
    pass


def _mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise ValueError(f"key {key!r} twice at {key_node.start_mark}")
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


@pytest.mark.parametrize("path", sorted(DATA.rglob("*.yml")), ids=lambda p: str(p.relative_to(DATA)))
def test_no_key_twice(path):
    yaml.load(path.read_text(encoding="utf-8"), Loader=_StrictLoader)


def test_a_repeated_key_is_caught():
    with pytest.raises(ValueError):
        yaml.load("terms:\n  send: [a]\n  send: [b]\n", Loader=_StrictLoader)
