"""The dev set's checks can be met and can fail: for one prompt of every screen kind, a
hand-written spec (tests/bench/fixtures/ui4a_devset_specs.json) meets all its requirements and
passes its interaction script in Chromium, and a near-empty spec fails them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import ui4a
from bench.ui4a_bench import devset
from bench.ui4a_bench.judge import judge
from bench.ui4a_bench.view import ViewHost

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).with_name("fixtures") / "ui4a_devset_specs.json"
SPECS: dict[str, dict[str, Any]] = json.loads(FIXTURES.read_text())
PROMPTS = {p.id: p for p in devset.load()}
NEAR_EMPTY = {"root": {"t": "page", "c": [{"t": "text", "text": "Hello"}]}}


@pytest.fixture(scope="module")
def host(browser: Browser) -> Iterator[ViewHost]:
    viewer = ViewHost(browser)
    yield viewer
    viewer.close()


def repaired(spec: dict[str, Any]) -> dict[str, Any]:
    fixed = ui4a.repair(spec)
    assert fixed.spec is not None and fixed.problems == [], fixed.problems
    return fixed.spec


def test_every_screen_kind_has_a_fixture_and_most_have_a_script() -> None:
    assert {PROMPTS[i].kind for i in SPECS} == {p.kind for p in PROMPTS.values()}
    assert sum(bool(PROMPTS[i].script) for i in SPECS) >= 20


@pytest.mark.parametrize("prompt_id", sorted(SPECS))
def test_a_correct_spec_meets_the_prompts_requirements_and_script(
    host: ViewHost, prompt_id: str
) -> None:
    prompt = PROMPTS[prompt_id]
    verdict = judge(host, repaired(SPECS[prompt_id]), list(prompt.requires), script=prompt.script)
    assert verdict.clean, verdict.errors
    assert [o for o in verdict.requirements if not o.passed] == []
    assert verdict.all_met
    if prompt.script:
        assert verdict.script is not None and verdict.script.passed, verdict.script


@pytest.mark.parametrize("prompt_id", sorted(SPECS))
def test_a_near_empty_spec_fails_the_prompts_requirements_and_script(
    host: ViewHost, prompt_id: str
) -> None:
    prompt = PROMPTS[prompt_id]
    verdict = judge(host, repaired(NEAR_EMPTY), list(prompt.requires), script=prompt.script)
    assert verdict.clean and not verdict.all_met
    if prompt.script:
        assert verdict.script is not None and not verdict.script.passed
