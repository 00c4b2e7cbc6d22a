"""Property: ui4a's parse, validate, repair and render never raise (but SpecTooLarge), stay
within their time and byte budgets, and repair hands back strict JSON, for specs drawn from
the catalog with hostile values in every field, and for specs drawn from the decoding schema.
bench/fuzz_ui4a.py runs thousands of each."""

from __future__ import annotations

from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs pinned in dev deps
from hypothesis import HealthCheck, given, settings

from bench.fuzz_ui4a import check_spec, specs
from bench.schema_specs import decoding_schema, schema_specs

REPRODUCIBLE = settings(
    deadline=None,
    database=None,
    derandomize=True,  # the same cases on every run: a failure here is reproducible
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@settings(REPRODUCIBLE, max_examples=200)
@given(specs())
def test_every_step_survives_hostile_specs_within_budget(spec: dict[str, Any]) -> None:
    check_spec(spec)


VALIDATOR = jsonschema.Draft202012Validator(decoding_schema())


@settings(REPRODUCIBLE, max_examples=100)
@given(schema_specs())
def test_every_step_survives_what_the_decoding_schema_allows(spec: dict[str, Any]) -> None:
    # The composed strategy draws only what the grammar could decode; a drift would make
    # this fuzz cover something else.
    assert [e.message for e in VALIDATOR.iter_errors(spec)] == []
    check_spec(spec)
