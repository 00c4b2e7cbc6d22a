"""A streamed reply shows exactly the text a non-streamed one carries: `parse_reply`'s content,
however the reply is cut into pieces, and never a call's markup."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from inference.tool_calls import MAX_CALL_CHARS, ToolCall, parse_reply, render_call
from studio.services.tool_loop.reply_stream import CallFilter

CALL = render_call(ToolCall("python", {"code": "print(1)"}))


def streamed(text: str, cuts: list[int]) -> str:
    shown = CallFilter()
    out, start = [], 0
    for cut in [*sorted(set(cuts)), len(text)]:
        out.append(shown.feed(text[start:cut]))
        start = max(start, cut)
    out.append(shown.end())
    return "".join(out)


def test_a_call_is_left_out_and_the_text_around_it_kept() -> None:
    text = "  Let me run it.\n" + CALL + "\n\nDone. "
    assert streamed(text, list(range(len(text)))) == "Let me run it.\n\n\nDone."
    assert streamed(text, list(range(len(text)))) == parse_reply(text).content


def test_an_unclosed_or_oversized_block_is_text() -> None:
    unclosed = "a <tool_call>{" + '"x": 1'
    assert streamed(unclosed, [3, 9]) == unclosed
    oversized = "<tool_call>" + "x" * (MAX_CALL_CHARS + 50) + "</tool_call>" + CALL + "b"
    assert (
        streamed(oversized, list(range(0, len(oversized), 997))) == parse_reply(oversized).content
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [CALL, "<tool_call>", "</tool_call>", "<tool", "_call>", " ", "\n", "ab", "{}", "<"]
        ),
        max_size=30,
    ),
    st.lists(st.integers(min_value=0, max_value=600), max_size=20),
)
def test_any_reply_cut_anywhere_streams_its_parsed_content(
    parts: list[str], cuts: list[int]
) -> None:
    text = "".join(parts)
    assert streamed(text, cuts) == parse_reply(text).content


def test_what_it_holds_back_is_bounded_by_one_call() -> None:
    shown = CallFilter()
    for _ in range(3000):
        shown.feed("<tool_call>" + "x" * 20)
        assert shown.holding <= MAX_CALL_CHARS + 40
