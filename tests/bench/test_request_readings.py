"""The request-readings check (bench/request_readings.py): a reading counts as drawn only where
the spec draws it, and its misses are kept to read."""

from __future__ import annotations

from bench.request_readings import field_drawn, tally, value_drawn

SPEC = (
    '{"root":{"t":"page","c":[{"t":"input","label":"Member number","bind":"member"},'
    '{"t":"progress","label":"Done","value":73},{"t":"text","text":"Order #58213"}]}}'
)


def test_a_reading_counts_where_the_spec_draws_it() -> None:
    assert field_drawn("member number", SPEC)
    assert not field_drawn("PIN", SPEC)
    assert value_drawn("73%", SPEC) and value_drawn("#58213", SPEC)
    assert not value_drawn("$42.00", SPEC)


def test_the_tally_keeps_the_misses() -> None:
    read = [("sign in: member number, PIN", ["member number", "PIN"], SPEC), ("a page", [], SPEC)]
    counts = tally(read, field_drawn)
    assert (counts["prompts"], counts["read"], counts["drawn"]) == (1, 2, 1)
    assert counts["missed"] == [{"reading": "PIN", "prompt": "sign in: member number, PIN"}]
