"""The ui dataset's dashboards over a profiled dataset: every answer is valid, resolves against
the tables its prompt profiles with no problem, and names only what the profile shows."""

from __future__ import annotations

import json
from random import Random

import ui4a
from inference.offline.datasets import data_dashboards, ui
from ui4a.queries import is_query
from ui4a.tables import profile_text


def test_every_answer_resolves_against_the_profiled_tables() -> None:
    rng = Random(7)
    for _ in range(150):
        prompt, spec, tables = data_dashboards.example(rng)
        assert json.loads(ui.checked(spec))  # canonical and valid UI4A
        for table in tables:
            assert profile_text(table) in prompt  # the rows themselves are never in it
            assert str(table.rows[0]) not in prompt
        resolved = ui4a.resolve_data(spec, {t.name: t for t in tables})
        assert resolved.problems == [] and resolved.spec is not None
        for name, entry in spec["data"].items():
            assert is_query(entry)
            assert f'Dataset "{entry["from"]}"' in prompt
            assert resolved.spec["data"][name], f"{name} selected no rows"


def test_they_join_the_ui_dataset_after_the_other_examples() -> None:
    records = ui.generate(
        0,
        composed_count=30,
        screens_per_kind=1,
        data_dashboards_count=20,
        mixed_count=10,
        named_per_kind=0,
    )
    kinds = [r["kind"] for r in records]
    assert kinds.count("data-dashboard") == 20
    first_mixed = next(i for i, kind in enumerate(kinds) if kind.startswith("mixed"))
    # Then only the screens whose lists are drawn across domains, added after them.
    assert kinds[first_mixed - 20 : first_mixed] == ["data-dashboard"] * 20
    assert all(kind.startswith("mixed") for kind in kinds[first_mixed:])
