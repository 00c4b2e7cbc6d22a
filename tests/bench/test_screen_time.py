"""The screen-time bench's reading of a stream and its figures: a component counts once the text
so far draws a catalog component below the root, and each refinement is set against the fresh
screen it refined."""

from __future__ import annotations

from bench.screen_time import Screen, compared_configs, component_visible, figures, spread


def test_a_component_is_visible_once_a_catalog_component_below_the_root_arrives() -> None:
    assert not component_visible("")
    assert not component_visible('{"root":{"t":"page","c":[')
    assert not component_visible('{"root":{"t":"page","c":[{"t":"hea')  # not a component yet
    assert component_visible('{"root":{"t":"page","c":[{"t":"heading","text":"Rev')


def screen(path: str, prompt: str, users: int, finished: float, first: float = 1.0) -> Screen:
    return Screen(path, prompt, users, first, finished, 100, 400, True)


def test_figures_take_medians_by_path_and_users_and_refinement_ratios() -> None:
    screens = [
        screen(path, prompt, users, finished * users)
        for path in ("api", "studio")
        for users in (1, 4)
        for prompt, finished in (("a", 10.0), ("b", 20.0), ("c", 30.0))
    ]
    screens += [screen("studio", "a:target", 1, 2.0), screen("studio", "b:target", 1, 4.0)]
    screens += [screen("studio", "a:title", 1, 10.0)]
    got = figures(screens)
    assert got["api 1u finished median s"] == 20 and got["studio 4u finished median s"] == 80
    assert got["api 1u first component median s"] == 1
    assert got["refinement:target vs fresh median"] == 0.2  # 2/10 and 4/20
    assert got["refinement:title vs fresh median"] == 1.0
    assert spread([3.0, None, 1.0, 2.0]) == "2 (1 to 3)" and spread([None]) == "-"


def test_a_reference_runs_with_its_settings_and_the_defaults_beside_it() -> None:
    before = [("MACARON_ENGINE_FORK", "0"), ("MACARON_JUMP_FORWARD", "0")]
    assert compared_configs(before, []) == {
        "default": {"MACARON_ENGINE_FORK": "0", "MACARON_JUMP_FORWARD": "0"},
        "with the defaults": {},
    }
    assert compared_configs([], [("MACARON_SPEC_NGRAM", "4")]) == {
        "default": {},
        "with MACARON_SPEC_NGRAM=4": {"MACARON_SPEC_NGRAM": "4"},
    }
    assert compared_configs([], []) == {"default": {}}
