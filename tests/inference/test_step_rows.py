"""A request's output read as its tokens come (step_rows.OutputReader): each token once."""

from __future__ import annotations

from inference.serving.step_rows import OutputReader, after_drafts

TEXTS = {1: '{"a', 2: '":', 3: "1}"}


def spelled(seen: list[int]):
    def strings(token: int) -> str:
        seen.append(token)
        return TEXTS[token]

    return strings


def test_each_call_spells_only_the_tokens_not_read_yet() -> None:
    seen: list[int] = []
    reader = OutputReader()
    assert reader.unread([1], spelled(seen)) == ('{"a', False)
    assert reader.unread([1, 2, 3], spelled(seen)) == ('":1}', False)
    assert reader.unread([1, 2, 3], spelled(seen)) == ("", False)
    assert seen == [1, 2, 3]


def test_an_output_taken_back_is_read_again_from_its_start() -> None:
    reader = OutputReader()
    reader.unread([1, 2, 3], spelled([]))
    assert reader.unread([1, 2], spelled([])) == ('{"a":', True)
    assert reader.unread([1, 2, 3], spelled([])) == ("1}", False)


def test_each_row_comes_with_the_draft_before_it_up_to_one_left_out() -> None:
    assert list(after_drafts(3, [1, 2], TEXTS.__getitem__)) == [(0, ""), (1, '{"a'), (2, '":')]
    assert list(after_drafts(3, [1, -1], TEXTS.__getitem__)) == [(0, ""), (1, '{"a')]
    assert list(after_drafts(1, [], TEXTS.__getitem__)) == [(0, "")]
