"""The tool loop on the live stack: the real engine's agent expert is given the python tool and
a new REPL session, and must work a task out by running code in it. The value is checked in
what the session computed, not in the model's word: the 135M agent writes the right cell for
this task but then tends to run it again instead of answering (bench/agent.py measures how
often it answers right), so the loop may end at its step limit."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import requests

from inference.tool_calls import PYTHON_TOOL
from studio.stack import Stack

pytestmark = pytest.mark.stack


def test_the_real_agent_works_a_task_out_by_running_code(stack: Stack, api_key: str) -> None:
    client = openai.OpenAI(base_url=f"{stack.url}/v1", api_key=api_key, max_retries=0)
    tools: Any = [PYTHON_TOOL]
    completion = client.chat.completions.create(
        model="macaron-tiny",
        messages=[{"role": "user", "content": "What is 2 to the power of 20?"}],
        tools=tools,
        max_tokens=120,
        temperature=0,
        extra_body={"router": "agent", "repl": "new"},
    )
    extra = completion.model_extra or {}
    repl = extra["repl"]
    try:
        assert extra["router"] == "agent"
        outputs = [step["stdout"] + (step["result"] or "") for step in repl["steps"]]
        assert any("1048576" in output for output in outputs), (
            f"no step computed 2**20; the agent wrote: {completion.choices[0].message.content!r}"
            f", steps: {repl['steps']}"
        )
        assert repl["stopped"] in ("answer", "step_limit")
        assert all(step["error"] is None for step in repl["steps"]), repl["steps"]
    finally:
        requests.delete(
            f"{stack.url}/v1/repl/sessions/{repl['session_id']}",
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=30,
        )
