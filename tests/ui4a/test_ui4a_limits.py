"""Hard limits: oversized or absurdly nested input is refused quickly, never recursed into."""

from __future__ import annotations

import json
import time
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
