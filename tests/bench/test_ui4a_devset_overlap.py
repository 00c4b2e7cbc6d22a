"""No UI4A-Bench dev prompt is close to a prompt the ui expert learns from: none shares a run of
five words with one, and none has a word overlap (Jaccard, stop words aside) of 0.5 or more;
and none names what the pools of the name-drawing builders hold.

The training prompts come through the dataset builder's public API, so the test holds for any
ui generator behind it."""

from __future__ import annotations

import re

from bench.overlap import JACCARD_LIMIT, content, jaccard, runs, ui_training_prompts
from bench.ui4a_bench import devset
from inference.offline.datasets import account_vocab, builder_vocab, team_vocab


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


def test_no_name_the_pool_drawing_builders_draw_is_in_a_dev_prompt() -> None:
    """Those builders' names come from pools (builder_vocab.py) so that the expert learns to copy
    names; a pool name that a dev prompt asks for could be met from memory instead."""
    names = [
        *builder_vocab.TIER_NAMES,
        *builder_vocab.PERKS,
        *builder_vocab.POPULAR_BADGES,
        *(word for venue in builder_vocab.VENUES for word in (venue[0], venue[2], *venue[3])),
        *(word for shop, goods in builder_vocab.SHOPS for word in (shop, *(g for g, _ in goods))),
        *builder_vocab.SHIPPING,
        *builder_vocab.PAYMENTS,
        *(switch for _, switches in account_vocab.SWITCH_GROUPS for switch in switches),
        *(label for label, _ in account_vocab.SETTING_PICKERS),
        *account_vocab.ROLES,
        *(label for label, _ in account_vocab.PROFILE_STATS),
        *(flow for flow, _ in account_vocab.WIZARD_FLOWS),
        *(word for board, cards in team_vocab.BOARDS for word in (board, *cards)),
        *(lane for lanes in team_vocab.LANE_SETS for lane in lanes),
        *team_vocab.CARD_TAGS,
    ]
    prompts = [dev.prompt.lower() for dev in devset.load()]
    found = [
        name
        for name in names
        if any(re.search(rf"\b{re.escape(name.lower())}\b", prompt) for prompt in prompts)
    ]
    assert found == []
