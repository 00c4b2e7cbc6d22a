"""The tool-loop examples: the messages serving sends, tool turns that are the real outcome of
their code, fixes that follow a real error, promotions of tested helpers, and saved tools that
the system message lists."""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest

from inference.offline.datasets import agent, coding, tool_loop
from inference.offline.datasets.cell_runner import run_trajectories
from inference.offline.datasets.common import Record
from inference.offline.datasets.tool_helpers import HELPERS
from inference.tool_calls import (
    PROMOTE,
    PROMOTE_TOOL,
    PYTHON,
    PYTHON_TOOL,
    parse_reply,
    promote_result_text,
    python_result_text,
    tools_system_text,
)

EXPERTS = ("agent", "coding")


@cache
def examples(expert: str) -> list[Record]:
    return tool_loop.generate(expert, 0)


def calls(rec: Record) -> list[tuple[str, dict[str, str]]]:
    found = []
    for message in rec["messages"][2:-1]:
        if message["role"] == "assistant":
            reply = parse_reply(message["content"])
            assert reply.content == "" and len(reply.calls) == 1, message["content"]
            found.append((reply.calls[0].name, reply.calls[0].arguments))
    return found


@pytest.mark.parametrize("expert", EXPERTS)
def test_each_example_is_the_conversation_serving_sends(expert: str) -> None:
    recs = examples(expert)
    assert len(recs) >= 150
    assert set(Counter(r["kind"] for r in recs)) == set(tool_loop.KINDS)
    plain = tools_system_text([PYTHON_TOOL, PROMOTE_TOOL])
    for rec in recs:
        roles = [m["role"] for m in rec["messages"]]
        assert roles[:2] == ["system", "user"] and roles[-1] == "assistant"
        assert roles[2:-1] == ["assistant", "tool"] * ((len(roles) - 3) // 2)
        assert rec["messages"][0]["content"].startswith(plain)
        assert parse_reply(rec["messages"][-1]["content"]).calls == []
        assert calls(rec), rec["id"]


@pytest.mark.parametrize("expert", EXPERTS)
def test_every_tool_turn_is_the_real_outcome_of_its_code(expert: str) -> None:
    recs = examples(expert)
    cells = [[args["code"] for name, args in calls(r) if name == PYTHON] for r in recs]
    outcomes = run_trajectories(cells, {h.name: h.source for h in HELPERS})
    for rec, ran in zip(recs, outcomes, strict=True):
        tool_turns = [m["content"] for m in rec["messages"] if m["role"] == "tool"]
        made = [python_result_text(**o.as_kwargs()) for o in ran]
        promoted = [
            promote_result_text(name=args["name"], version=1)
            for name, args in calls(rec)
            if name == PROMOTE
        ]
        assert tool_turns == made + promoted, rec["id"]


def test_a_fix_follows_a_real_error_and_the_answer_quotes_the_last_output() -> None:
    for rec in examples("agent") + examples("coding"):
        tools = [m["content"] for m in rec["messages"] if m["role"] == "tool"]
        errors = [bool(re.search(r"^\w+Error", text, re.M)) for text in tools]
        assert errors == ([True, False] if rec["kind"] == "tool_fix" else [False] * len(tools))
        if rec["kind"] in ("tool_compute", "tool_fix", "tool_saved"):
            last = tools[-1].strip("'")
            assert last.split()[0] in rec["messages"][-1]["content"], rec["id"]


def test_promotions_use_tested_helpers_and_saved_tools_are_listed() -> None:
    by_name = {h.name: h for h in HELPERS}
    for rec in examples("agent") + examples("coding"):
        system = rec["messages"][0]["content"]
        for name, args in calls(rec):
            if name == PROMOTE:
                assert args["tests"] == by_name[args["name"]].tests
            if name == PYTHON and "from macaron_tools import" in args["code"]:
                imported = args["code"].split("import ")[1].split()[0]
                assert f"- {imported}(" in system


def test_it_is_deterministic_for_a_seed_and_mixed_into_both_experts() -> None:
    assert tool_loop.generate("agent", 0) == examples("agent")
    assert tool_loop.generate("agent", 1) != examples("agent")
    assert examples("agent") != examples("coding")
    for generate, expert in ((agent.generate, "agent"), (coding.generate, "coding")):
        kinds = Counter(r["kind"] for r in generate(0))
        assert sum(kinds[k] for k in tool_loop.KINDS) == len(examples(expert))
        assert sum(n for k, n in kinds.items() if k not in tool_loop.KINDS) >= 200
