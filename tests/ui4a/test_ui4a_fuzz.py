"""Property: ui4a's parse, validate, repair and render never raise (but SpecTooLarge), stay
within their time and byte budgets, and repair hands back strict JSON, for specs drawn from
the catalog with hostile values in every field. bench/fuzz_ui4a.py runs 10,000 of these."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from bench.fuzz_ui4a import check_spec, specs


@settings(
    max_examples=200,
    deadline=None,
    database=None,
    derandomize=True,  # the same cases on every run: a failure here is reproducible
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(specs())
def test_every_step_survives_hostile_specs_within_budget(spec: dict[str, Any]) -> None:
    check_spec(spec)
