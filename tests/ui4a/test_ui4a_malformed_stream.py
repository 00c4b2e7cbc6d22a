"""Text that is no JSON prefix at all (the ui expert decoding without its grammar wrote these)
parses to nothing instead of raising from inside partial-json-parser: a studio generation
renders each batch with it, and an exception there left the generation running forever."""

from __future__ import annotations

import pytest

from ui4a import parse_partial, render_body

SEEN = [
    '{"title":"Italy","root":{"t":"page","c":[{"t":"select","label":"Party size","bind":"f",'
    '"opts":["Allied","Alpine","Pro"],true',
    '{"title":"x","root":{"t":"page","c":[{"t":"button","label":"Add","on":[{"do":"append",'
    '"path":"t","value":{"name":"{draft}","filter":["name","=All"]},{"do":"reset"}]',
    '{"title":"x","state":{"a":1,{"b":2}',
]


@pytest.mark.parametrize("text", SEEN)
def test_it_returns_nothing_or_a_spec_for_malformed_text(text: str) -> None:
    for end in range(1, len(text) + 1):
        spec = parse_partial(text[:end])
        assert spec is None or isinstance(spec, dict)
        render_body(spec, partial=True)
