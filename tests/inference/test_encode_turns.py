"""A multi-turn example is trained on every assistant turn (each tool call and the answer) and
on nothing the server or the user wrote (system, user and tool turns)."""

from __future__ import annotations

from pathlib import Path

from inference.offline.datasets import tool_loop
from inference.offline.training.encode import IGNORE, conversation, encode
from inference.settings import EngineSettings

BASE = Path(EngineSettings.from_env().model)


def trained_runs(ids: list[int], labels: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    previous = IGNORE
    for token, label in zip(ids, labels, strict=True):
        if label != IGNORE:
            assert label == token
            if previous == IGNORE:
                runs.append([])
            runs[-1].append(token)
        previous = label
    return runs


def test_it_trains_every_assistant_turn_and_no_tool_turn() -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(BASE)
    rec = next(r for r in tool_loop.generate("agent", 0) if r["kind"] == "tool_fix")
    done = encode(tokenizer, "agent", rec, max_len=4096)
    assert not done.truncated
    whole = tokenizer.apply_chat_template(conversation("agent", rec), tokenize=False)
    assert tokenizer.decode(done.ids) == whole.rstrip("\n")
    said = [m["content"] for m in rec["messages"] if m["role"] == "assistant"]
    assert len(said) == 3  # the failing call, the fix, the answer
    runs = [tokenizer.decode(run) for run in trained_runs(done.ids, done.labels)]
    assert runs == [content + "<|im_end|>" for content in said]
    for message in rec["messages"]:
        if message["role"] in ("tool", "user", "system"):
            assert all(message["content"] not in run for run in runs)


def test_a_truncated_example_keeps_its_answer_and_loses_its_head() -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(BASE)
    rec = next(r for r in tool_loop.generate("agent", 0) if r["kind"] == "tool_fix")
    whole = encode(tokenizer, "agent", rec, max_len=4096)
    short = encode(tokenizer, "agent", rec, max_len=120)
    assert short.truncated and len(short.ids) == 120
    assert short.ids == whole.ids[-120:] and short.labels == whole.labels[-120:]
