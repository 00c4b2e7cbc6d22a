"""Partial parsing: every prefix of a streamed spec gives something renderable."""

from __future__ import annotations

from typing import Any

from ui4a import parse_partial, render_body, render_document


def test_it_parses_and_renders_every_prefix_of_the_example(signup_text: str) -> None:
    last: dict[str, Any] | None = None
    for end in range(len(signup_text) + 1):
        spec = parse_partial(signup_text[:end])
        render_body(spec, partial=True)
        if spec is not None:
            last = spec
    assert last is not None
    render_document(last, partial=True)


def test_it_returns_the_whole_spec_once_complete(signup_text: str, signup: dict[str, Any]) -> None:
    assert parse_partial(signup_text) == signup


def test_it_completes_an_unfinished_string() -> None:
    assert parse_partial('{"title":"Sig') == {"title": "Sig"}
    assert parse_partial('{"root":{"t":"page","c":[{"t":"text","text":"Hel') == {
        "root": {"t": "page", "c": [{"t": "text", "text": "Hel"}]}
    }


def test_it_has_nothing_before_the_object_starts() -> None:
    assert parse_partial("") is None
    assert parse_partial("   ") is None
    assert parse_partial("Sure, here is") is None


def test_it_drops_trailing_garbage_after_a_complete_object() -> None:
    assert parse_partial('{"title":"x"} and that is all}') == {"title": "x"}
    assert parse_partial('{"title":"x"}}') == {"title": "x"}


def test_it_skips_prose_before_the_object() -> None:
    assert parse_partial('Here you go: {"title":"x"}') == {"title": "x"}


def test_it_gives_none_for_a_top_level_that_is_not_an_object() -> None:
    assert parse_partial("[1, 2") is None


def test_it_shows_placeholders_for_nodes_whose_type_has_not_arrived(scan: Any) -> None:
    spec = parse_partial('{"root":{"t":"page","c":[{"t":"te')
    html = render_body(spec, partial=True)
    assert 'class="u4-pending"' in html
    assert 'class="u4-pending"' in render_body(parse_partial('{"root":{"t":"page","c":[{'))


def test_it_shows_placeholders_for_data_that_has_not_arrived() -> None:
    text = (
        '{"root":{"t":"page","c":[{"t":"table","data":"orders"},'
        '{"t":"chart","title":"Sales","data":"orders","x":"m","y":["v"]}]},"data":{"ord'
    )
    html = render_body(parse_partial(text), partial=True)
    assert "Loading…" in html and "u4-chart-pending" in html
    done = render_body(parse_partial(text + 'ers":[{"m":"Jan","v":3}]}}'), partial=True)
    assert "Loading…" not in done and "u4-chart-pending" not in done and ">3</td>" in done
