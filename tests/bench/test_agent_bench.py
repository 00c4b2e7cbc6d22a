"""The agent bench's tasks: enough of them, each checker takes its right answer and refuses a
wrong one, a promotion counts only when the loop really promoted, and no task is a near copy
of an agent or coding training prompt (a shared run of five words, or Jaccard of 0.5 or more)."""

from __future__ import annotations

from collections import Counter

import pytest

from bench.agent_bench.checks import numbers_in, text, verdict
from bench.agent_bench.tasks import TASKS
from bench.overlap import JACCARD_LIMIT, content, jaccard, runs, training_prompts


def promotion(name: str, error: object = None) -> dict[str, object]:
    return {
        "tool": "promote_tool",
        "arguments": {"name": name, "tests": "assert True"},
        "error": error,
    }


def steps_for(task_id: str) -> list[dict[str, object]]:
    task = next(t for t in TASKS if t.id == task_id)
    names = {"slugify", "vowel_count", "is_prime", "fahrenheit_to_celsius"}
    return [promotion(n) for n in names if n in task.prompt] if task.kind == "promote" else []


def test_there_are_forty_or_more_distinct_tasks_across_kinds() -> None:
    assert len(TASKS) >= 40
    assert len({t.id for t in TASKS}) == len(TASKS)
    kinds = Counter(t.kind for t in TASKS)
    assert len(kinds) >= 6 and min(kinds.values()) >= 4


@pytest.mark.parametrize("task", TASKS, ids=[t.id for t in TASKS])
def test_each_checker_takes_its_answer_and_refuses_a_wrong_one(task: object) -> None:
    from bench.agent_bench.checks import AgentTask

    assert isinstance(task, AgentTask)
    steps = steps_for(task.id)
    assert task.check(f"The answer is {task.answer}.", steps)
    assert task.check(task.answer, steps)
    assert not task.check(f"The answer is {task.wrong}.", steps)
    assert not task.check("I cannot run code, sorry.", steps)
    if task.kind == "promote":
        assert not task.check(task.answer, [])  # said, but never promoted
        failed = [{**step, "error": {"ename": "AssertionError"}} for step in steps]
        assert not task.check(task.answer, failed)


def test_the_checkers_read_numbers_words_and_verdicts() -> None:
    assert numbers_in("F30 = 832,040; about 8.3e5 or -2.5") == [30, 832040, 8.3e5, -2.5]
    assert text("oiduts noracam")("It is 'Oiduts  Noracam'.", [])
    assert not text("oiduts")("oidutsx", [])
    assert verdict(True)("Yes, 7919 is prime.", [])
    assert not verdict(True)("No, 7919 is not prime.", [])
    assert verdict(False)("221 is not prime (13 x 17).", [])


def test_no_task_is_a_near_copy_of_a_training_prompt() -> None:
    prompts = training_prompts("agent") + training_prompts("coding")
    trained_runs = set().union(*(runs(p) for p in prompts))
    trained_words = [content(p) for p in prompts]
    close = []
    for task in TASKS:
        shared = runs(task.prompt) & trained_runs
        if shared:
            close.append(f"{task.id} shares {sorted(shared)[0]}")
        mine = content(task.prompt)
        score = max(jaccard(mine, theirs) for theirs in trained_words)
        if score >= JACCARD_LIMIT:
            close.append(f"{task.id} has Jaccard {score:.2f}")
    assert not close, close


def test_the_runner_asks_with_the_loop_or_without_it_and_sums_up() -> None:
    from bench.agent import Outcome, request_body, summary

    task = TASKS[0]
    looped = request_body(task, "agent", "tools", 300)
    assert looped["router"] == "agent" and looped["repl"] == "new"
    assert [t["function"]["name"] for t in looped["tools"]] == ["python", "promote_tool"]
    plain = request_body(task, "coding", "plain", 300)
    assert "tools" not in plain and "repl" not in plain
    assert plain["messages"] == [{"role": "user", "content": task.prompt}]
    done = summary(
        [
            Outcome("a", "arith", True, 2, 3.0, "answered", "42"),
            Outcome("b", "dates", False, 4, 5.0, "step_limit", ""),
        ]
    )
    assert done["success_rate"] == 0.5 and done["mean_steps"] == 3 and done["mean_seconds"] == 4
    assert done["by_kind"] == {"arith": "1/1", "dates": "0/1"}


def test_the_table_gives_each_figure_as_min_median_max_over_runs() -> None:
    from bench.agent import spread, table

    assert spread([3.0]) == "3"
    assert spread([5.0, 1.0, 2.0]) == "1/2/5"
    run = {"tasks": 45, "by_kind": {"arith": "1/5"}}
    printed = table(
        {
            ("agent", "tools"): [
                {**run, "solved": 2, "mean_steps": 2.5, "mean_seconds": 20.0},
                {**run, "solved": 3, "mean_steps": 2.0, "mean_seconds": 30.0},
                {**run, "solved": 2, "mean_steps": 3.0, "mean_seconds": 25.0},
            ]
        }
    )
    assert "2/2/3/45" in printed and "2/2.5/3" in printed and "20/25/30" in printed
