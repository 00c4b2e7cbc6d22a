"""bench/spec_vocabulary.py renames the spec's own vocabulary, never the designer's names, and
counts each variant's tokens with the encoder it is given."""

from __future__ import annotations

import json

from bench.spec_vocabulary import measure

SPEC = {
    "title": "Orders",
    "root": {
        "t": "page",
        "c": [{"t": "heading", "text": "Orders"}, {"t": "table", "data": "orders"}],
    },
    "state": {"selected_order": ""},
    "data": {"orders": [{"customer_name": "Ada"}]},
}


def characters(text: str) -> list[str]:
    return list(text)


def test_short_codes_shrink_the_vocabulary_and_keep_the_designers_names() -> None:
    result = measure([SPEC], characters)
    written = len(json.dumps(SPEC, separators=(",", ":")))
    assert result["tokens"]["as written"] == written
    tokens = result["tokens"]
    assert tokens["both"] < tokens["short keys"] < written
    assert tokens["both"] < tokens["short component names"] < written
    assert result["distinct_component_names"] == 3  # page, heading, table


def test_state_keys_and_dataset_columns_are_not_vocabulary() -> None:
    """Renaming `customer_name` or `selected_order` would change what the designer named."""
    plain = measure([SPEC], characters)
    longer = json.loads(json.dumps(SPEC).replace("customer_name", "customer_full_name"))
    grown = measure([longer], characters)
    saved = {v: plain["tokens"]["as written"] - plain["tokens"][v] for v in plain["tokens"]}
    saved_too = {v: grown["tokens"]["as written"] - grown["tokens"][v] for v in grown["tokens"]}
    assert saved == saved_too
