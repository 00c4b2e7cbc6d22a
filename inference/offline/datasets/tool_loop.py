"""Tool-loop examples for the agent and coding experts, in exactly the messages serving sends.

An example is the tools system message (`tools_system_text`, sometimes listing saved tools), a
request, then the model's turns: python calls (`render_call`), each followed by the tool message
of that code's real outcome (`python_result_text`, the cells run at build time), sometimes a
`promote_tool` call and the server's reply to it, and last a plain answer. The expert's own
system prompt comes first, added by the encoder as for every record.
"""

from __future__ import annotations

from random import Random

from inference.offline.datasets.cell_runner import Outcome, run_trajectories
from inference.offline.datasets.common import Record, normalize, pick, record, sample
from inference.offline.datasets.tool_fixes import FIXES
from inference.offline.datasets.tool_helpers import HELPERS, Helper
from inference.offline.datasets.tool_tasks import COMPUTE, Task, shown
from inference.tool_calls import (
    PROMOTE,
    PROMOTE_TOOL,
    PYTHON,
    PYTHON_TOOL,
    GlobalToolDoc,
    ToolCall,
    promote_result_text,
    python_result_text,
    render_call,
    tools_system_text,
)

KINDS = ("tool_compute", "tool_fix", "tool_promote", "tool_saved")
# How often each kind is drawn: the coding expert writes and promotes more functions.
MIX: dict[str, dict[str, int]] = {
    "agent": {"tool_compute": 9, "tool_fix": 5, "tool_promote": 3, "tool_saved": 3},
    "coding": {"tool_compute": 5, "tool_fix": 5, "tool_promote": 6, "tool_saved": 4},
}
LIST_SAVED_SHARE = 0.25  # examples that list saved tools they do not need


def _promote_task(rng: Random, helper: Helper, expert: str) -> Task:
    ask = pick(
        rng,
        (
            "Write a helper `{n}` that {d}, test it, and save it as a tool.",
            "Define {n}(): it {d}. Check it with a couple of asserts, then promote it.",
            "I'd like a reusable tool named {n} that {d}. Test it first, then save it.",
            "make me a {n} function which {d}; once it passes tests, promote it",
        ),
    ).format(n=helper.name, d=helper.does)
    cell = f"{helper.source}\n\n{helper.tests}\nprint('tests passed')"
    tests = "\n    ".join(helper.tests.splitlines())
    code = f"```python\n{helper.source}\n\ndef test_{helper.name}() -> None:\n    {tests}\n```"
    answer = (
        f"Saved `{helper.name}` as a global tool (from macaron_tools import {helper.name}):\n{code}"
        if expert == "coding"
        else f"Saved `{helper.name}` as a global tool; any session can now use it with "
        f"`from macaron_tools import {helper.name}`."
    )
    return Task("tool_promote", ask, (cell,), lambda _: answer, promote=(helper.name, helper.tests))


def _saved_task(rng: Random, helper: Helper) -> Task:
    text, args = pick(rng, helper.inputs)
    call = f"{helper.name}({args})"
    code = f"from macaron_tools import {helper.name}\n" + (
        f"print({call})" if rng.random() < 0.4 else call
    )
    say = pick(rng, ("{v}", "The saved {n} tool gives: {v}", "Answer: {v}"))
    return Task(
        "tool_saved",
        helper.task.format(x=text),
        (code,),
        lambda outcomes: say.format(v=shown(outcomes[-1]), n=helper.name),
    )


def _draw(rng: Random, expert: str) -> tuple[Task, tuple[Helper, ...]]:
    """A task, and the saved tools its system message lists."""
    mix = MIX[expert]
    kind = rng.choices(list(mix), weights=list(mix.values()))[0]
    listed: list[Helper] = []
    if rng.random() < LIST_SAVED_SHARE:
        listed = sample(rng, HELPERS, rng.randint(1, 3))
    if kind == "tool_compute":
        return pick(rng, COMPUTE)(rng), tuple(listed)
    if kind == "tool_fix":
        return pick(rng, FIXES)(rng), tuple(listed)
    helper = pick(rng, HELPERS)
    if kind == "tool_promote":
        return _promote_task(rng, helper, expert), tuple(h for h in listed if h != helper)
    others = [h for h in sample(rng, HELPERS, rng.randint(1, 3)) if h != helper]
    return _saved_task(rng, helper), tuple(sample(rng, [helper, *others], len(others) + 1))


def _checked(task: Task, outcomes: list[Outcome]) -> list[Outcome]:
    """The outcomes, once they are what the task says: only a fix's first cell fails."""
    failed = [i for i, o in enumerate(outcomes) if o.error is not None]
    expected = [0] if task.must_fail_first else []
    if failed != expected:
        raise ValueError(f"{task.prompt!r}: cells {failed} failed, expected {expected}: {outcomes}")
    return outcomes


def _messages(
    task: Task, listed: tuple[Helper, ...], outcomes: list[Outcome]
) -> list[dict[str, str]]:
    docs = tuple(GlobalToolDoc(h.name, h.signature, h.doc) for h in listed)
    messages = [
        {"role": "system", "content": tools_system_text([PYTHON_TOOL, PROMOTE_TOOL], docs)},
        {"role": "user", "content": task.prompt},
    ]
    for cell, outcome in zip(task.cells, outcomes, strict=False):
        messages.append(
            {"role": "assistant", "content": render_call(ToolCall(PYTHON, {"code": cell}))}
        )
        messages.append({"role": "tool", "content": python_result_text(**outcome.as_kwargs())})
    if task.promote is not None:
        name, tests = task.promote
        call = ToolCall(PROMOTE, {"name": name, "tests": tests})
        messages.append({"role": "assistant", "content": render_call(call)})
        messages.append({"role": "tool", "content": promote_result_text(name=name, version=1)})
    messages.append({"role": "assistant", "content": task.answer(outcomes[: len(task.cells)])})
    return messages


def generate(expert: str, seed: int = 0, *, count: int = 180) -> list[Record]:
    """`count` tool-loop examples for `expert`, the same ones for the same seed."""
    rng = Random(f"tool-loop-{expert}-{seed}")
    drawn: dict[str, tuple[Task, tuple[Helper, ...]]] = {}
    for _ in range(count * 20):
        task, listed = _draw(rng, expert)
        drawn.setdefault(normalize(task.prompt), (task, listed))
        if len(drawn) >= count:
            break
    chosen = list(drawn.values())
    # A promotion's asserts run as a last cell too: a tool is only ever promoted if they pass.
    cells = [[*t.cells, *([t.promote[1]] if t.promote else [])] for t, _ in chosen]
    outcomes = run_trajectories(cells, {h.name: h.source for h in HELPERS})
    return [
        record(expert, task.kind, _messages(task, listed, _checked(task, ran)))
        for (task, listed), ran in zip(chosen, outcomes, strict=True)
    ]


def first_user_prompt(rec: Record) -> str:
    return str(next(m["content"] for m in rec["messages"] if m["role"] == "user"))
