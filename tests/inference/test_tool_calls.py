"""How tools are shown to the experts and their calls read back (inference/tool_calls.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from inference.tool_calls import (
    MAX_CALLS,
    PYTHON_TOOL,
    GlobalToolDoc,
    ToolCall,
    parse_reply,
    python_result_text,
    render_call,
    tools_system_text,
)

WEATHER = {
    "type": "function",
    "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}},
}


def test_a_rendered_call_parses_back_to_itself() -> None:
    call = ToolCall("python", {"code": 'print("é\\n")\nx = {"a": 1}'})
    parsed = parse_reply("Let me check.\n" + render_call(call))
    assert parsed.content == "Let me check."
    assert [(c.name, c.arguments) for c in parsed.calls] == [(call.name, call.arguments)]
    assert parsed.calls[0].id == "call_0"


def test_a_block_that_is_not_a_call_stays_in_the_text() -> None:
    text = "<tool_call>not json</tool_call> and <tool_call>[1]</tool_call>"
    parsed = parse_reply(text)
    assert parsed.calls == []
    assert parsed.content == text


def test_arguments_given_as_a_json_string_are_read() -> None:
    parsed = parse_reply('<tool_call>{"name": "f", "arguments": "{\\"a\\": 2}"}</tool_call>')
    assert parsed.calls[0].arguments == {"a": 2}


def test_at_most_max_calls_are_read() -> None:
    text = render_call(ToolCall("f", {})) * (MAX_CALLS + 3)
    assert len(parse_reply(text).calls) == MAX_CALLS


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('<>/tool_cal{}":,[] ax')), max_size=300))
def test_any_text_parses_without_raising(text: str) -> None:
    parsed = parse_reply(text)
    assert len(parsed.calls) <= MAX_CALLS


def test_the_system_text_names_python_functions_and_saved_tools() -> None:
    text = tools_system_text(
        [PYTHON_TOOL, WEATHER],
        (GlobalToolDoc("slugify", "(text: str) -> str", "Make a slug.\nMore."),),
    )
    assert "persistent session" in text
    assert '"name":"get_weather"' in text
    assert "- slugify(text: str) -> str: Make a slug." in text
    assert "macaron_tools" not in tools_system_text([WEATHER], (GlobalToolDoc("s", "()"),))


def test_a_cell_outcome_reads_as_output_value_then_error() -> None:
    text = python_result_text(
        stdout="hi\n", stderr="", result="42", error={"ename": "ValueError", "evalue": "bad"}
    )
    assert text == "hi\n42\nValueError: bad"
    cell_error = {"name": "ZeroDivisionError", "value": "division by zero", "traceback": []}
    assert python_result_text(stdout="", stderr="", result=None, error=cell_error) == (
        "ZeroDivisionError: division by zero"
    )
    assert python_result_text(stdout="", stderr="", result=None, error=None) == "(no output)"
    long = python_result_text(stdout="x" * 5000, stderr="", result=None, error=None, limit=100)
    assert len(long) == 100 and long.endswith("[truncated]")
