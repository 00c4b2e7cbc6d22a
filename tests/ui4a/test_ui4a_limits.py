"""Hard limits: oversized or absurdly nested input is refused quickly, never recursed into."""

from __future__ import annotations

import json
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from ui4a import Limits, SpecTooLarge, parse_partial, render_body, render_document, repair, validate


@contextmanager
def under(seconds: float) -> Iterator[None]:
    start = time.perf_counter()
    yield
    assert time.perf_counter() - start < seconds


def nested(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"t": "text", "text": "bottom"}
    for _ in range(depth):
        node = {"t": "stack", "c": [node]}
    return {"root": {"t": "page", "c": [node]}}


@pytest.mark.parametrize("check", [validate, repair, render_body, render_document])
def test_it_refuses_a_spec_nested_ten_thousand_deep(check: Callable[[Any], object]) -> None:
    spec = nested(10_000)
    with under(1.0), pytest.raises(SpecTooLarge, match="deeper than 32"):
        check(spec)


def test_it_refuses_deeply_nested_text_before_parsing() -> None:
    with under(1.0), pytest.raises(SpecTooLarge, match="deeper than 32"):
        parse_partial('{"root":' + "[" * 10_000)
    with under(1.0), pytest.raises(SpecTooLarge):
        parse_partial('{"root":{"t":"page","c":[' * 10_000)


def test_it_counts_brackets_inside_strings_as_text() -> None:
    assert parse_partial(json.dumps({"title": "[" * 100})) == {"title": "[" * 100}


def test_it_refuses_text_over_the_byte_limit() -> None:
    huge = '{"title":"' + "x" * 300_000 + '"}'
    with under(1.0), pytest.raises(SpecTooLarge, match="262144 bytes"):
        parse_partial(huge)
    with pytest.raises(SpecTooLarge):
        parse_partial('{"title":"' + "é" * 140_000)  # counted in UTF-8 bytes, not characters


def test_it_refuses_a_decoded_spec_with_a_huge_string() -> None:
    spec = {"root": {"t": "page", "c": [{"t": "text", "text": "x" * 300_000}]}}
    with under(1.0), pytest.raises(SpecTooLarge):
        render_body(spec)


def test_it_refuses_more_than_two_thousand_nodes() -> None:
    kids = [{"t": "stack", "c": [{"t": "text", "text": "x"}] * 8}] * 300
    with under(1.0), pytest.raises(SpecTooLarge, match="2000 nodes"):
        validate({"root": {"t": "page", "c": kids}})


def test_it_takes_custom_limits() -> None:
    with pytest.raises(SpecTooLarge):
        parse_partial('{"title":"hello"}', limits=Limits(max_bytes=8))
    assert parse_partial('{"title":"hello"}', limits=Limits(max_bytes=64)) == {"title": "hello"}


def test_it_is_a_value_error() -> None:
    assert issubclass(SpecTooLarge, ValueError)


# Hostile inputs, each as the decoded spec and as the text a model could stream. They are built
# once per module: building them takes longer than refusing them.
MB = 1024 * 1024
DEEP = 10_000
MILLION = 1_000_000


@pytest.fixture(scope="module")
def hostile() -> dict[str, tuple[dict[str, Any], str, str]]:
    """name -> (spec, its JSON text, the error it must get)."""
    leaf = {"t": "text", "text": "x"}
    # One leaf a million times over: the same shape to the checks, a 200th of the memory.
    wide = {"root": {"t": "page", "c": [leaf] * MILLION}}
    long = {"root": {"t": "page", "c": [{"t": "text", "text": "x" * (50 * MB)}]}}
    deep_text = '{"root":' + '{"t":"stack","c":[' * DEEP + json.dumps(leaf) + "]}" * DEEP + "}"
    return {
        "nested 10,000 deep": (nested(DEEP), deep_text, "deeper than 32 levels"),
        "a million nodes": (wide, json.dumps(wide), "more than 2000 nodes|bytes"),
        "a 50 MB string": (long, json.dumps(long), "over 262144 bytes"),
    }


ENTRY_POINTS: dict[str, Callable[[Any], object]] = {
    "parse_partial": parse_partial,
    "validate": validate,
    "repair": repair,
    "render_body": render_body,
}


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("case", ["nested 10,000 deep", "a million nodes", "a 50 MB string"])
def test_it_refuses_hostile_input_in_bounded_time_and_memory(
    hostile: dict[str, tuple[dict[str, Any], str, str]], case: str, entry: str
) -> None:
    spec, text, error = hostile[case]
    given: object = text if entry == "parse_partial" else spec
    check = ENTRY_POINTS[entry]
    with under(1.0), pytest.raises(SpecTooLarge, match=error):
        check(given)
    # Refusing looks at a bounded part of the input and copies none of it.
    tracemalloc.start()
    try:
        with pytest.raises(SpecTooLarge):
            check(given)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 256 * 1024, f"{peak} bytes to refuse {case}"


def test_it_refuses_a_wide_dataset_by_counting_values() -> None:
    # No strings and no nodes: only the count of values shows it could not fit the text limit.
    spec = {"root": {"t": "page"}, "data": {"big": [0] * MILLION}}
    with under(1.0), pytest.raises(SpecTooLarge, match="more values than 262144 bytes"):
        validate(spec)
