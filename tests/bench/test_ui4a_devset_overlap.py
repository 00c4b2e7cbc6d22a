"""No UI4A-Bench dev prompt is close to a prompt the ui expert learns from: none shares a run of
five words with one, and none has a word overlap (Jaccard, stop words aside) of 0.5 or more.

The training prompts come through the dataset builder's public API, so the test holds for any
ui generator behind it."""

from __future__ import annotations

from bench.overlap import JACCARD_LIMIT, content, jaccard, runs, ui_training_prompts
from bench.ui4a_bench import devset


def test_it_reads_runs_and_overlap_as_defined() -> None:
    assert ("one", "two", "three", "four", "five") in runs("One, two; three four five six")
    assert runs("only four words here") == set()
    assert jaccard(content("the red car"), content("a red car")) == 1.0
    assert jaccard(content("red car"), content("blue car")) == 1 / 3


def test_no_dev_prompt_is_close_to_a_ui_training_prompt() -> None:
    train = ui_training_prompts()
    assert len(train) > 100
    train_runs: dict[tuple[str, ...], str] = {}
    for prompt in train:
        for run in runs(prompt):
            train_runs.setdefault(run, prompt)
    train_sets = [(content(p), p) for p in train]
    close: list[str] = []
    for dev in devset.load():
        shared = sorted(runs(dev.prompt) & train_runs.keys())
        if shared:
            close.append(
                f"{dev.id} shares {' '.join(shared[0])!r} with training prompt "
                f"{train_runs[shared[0]]!r}"
            )
        mine = content(dev.prompt)
        for theirs, prompt in train_sets:
            score = jaccard(mine, theirs)
            if score >= JACCARD_LIMIT:
                close.append(f"{dev.id} ({dev.prompt!r}) has Jaccard {score:.2f} with {prompt!r}")
                break
    assert close == [], "\n".join(close)
