"""The README's showcase prompts (bench/showcase.jsonl): the studio's own default prompt, and
prompts outside both the dev set and the ui training data."""

from __future__ import annotations

from bench.overlap import JACCARD_LIMIT, content, jaccard, runs, ui_training_prompts
from bench.showcase import SHOWCASE
from bench.ui4a_bench import devset
from inference.paths import REPO_ROOT


def test_every_line_parses_and_the_first_is_the_studios_default_prompt() -> None:
    shown = devset.load(SHOWCASE)
    assert len(shown) >= 4 and shown[0].id == "default"
    page = (REPO_ROOT / "static" / "studio" / "prompt.js").read_text()
    assert f'"{shown[0].prompt}"' in page, "the studio's placeholder prompt changed"


def test_no_other_showcase_prompt_is_close_to_a_dev_or_training_prompt() -> None:
    others = [p.prompt for p in devset.load()] + ui_training_prompts()
    their_runs = set().union(*(runs(p) for p in others))
    their_words = [content(p) for p in others]
    for shown in devset.load(SHOWCASE)[1:]:
        assert not runs(shown.prompt) & their_runs, shown.id
        mine = content(shown.prompt)
        assert max(jaccard(mine, theirs) for theirs in their_words) < JACCARD_LIMIT, shown.id
