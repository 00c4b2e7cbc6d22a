"""The agent bench without a stack: the base model with one expert's adapter in transformers and
peft (greedy, on the CPU), and the tool loop played here: a python call's cells run in a child
process (the dataset's cell runner, every cell of the session again, which gives the same state
for this deterministic code), a promote_tool call passes when its asserts do. A quick check of an
adapter before serving it; bench/agent.py measures the real loop through the API.

    .venv/bin/python -m bench.agent_offline --adapter inference/offline/trained_adapters/agent \\
        --expert agent --ids fib30,gcd,md5 [--plain]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.agent_bench.checks import AgentTask
from bench.agent_bench.tasks import TASKS
from inference.offline.datasets.cell_runner import run_trajectories
from inference.serving.prompts import system_prompt
from inference.settings import EngineSettings
from inference.tool_calls import (
    PROMOTE,
    PROMOTE_TOOL,
    PYTHON,
    PYTHON_TOOL,
    parse_reply,
    promote_result_text,
    python_result_text,
    render_call,
    tools_system_text,
)

MAX_STEPS = 4


class Reference:
    """Greedy replies of the base model with one adapter."""

    def __init__(self, adapter: Path, max_new_tokens: int) -> None:
        from peft import PeftModel
        from transformers import AutoModelForCausalLM, AutoTokenizer

        base_path = EngineSettings.from_env().model
        self.tokenizer = AutoTokenizer.from_pretrained(base_path)
        base = AutoModelForCausalLM.from_pretrained(base_path)
        self.model = PeftModel.from_pretrained(base, str(adapter)).eval()
        self.end = self.tokenizer.convert_tokens_to_ids("<|im_end|>")
        self.max_new_tokens = max_new_tokens

    def reply(self, messages: list[dict[str, str]]) -> str:
        import torch

        text = self.tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=True
        )
        inputs = self.tokenizer(text, return_tensors="pt", add_special_tokens=False)
        with torch.no_grad():
            out = self.model.generate(
                **inputs,
                max_new_tokens=self.max_new_tokens,
                do_sample=False,
                eos_token_id=self.end,
                pad_token_id=self.end,
            )
        return str(
            self.tokenizer.decode(out[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True)
        )


def loop(ref: Reference, expert: str, task: AgentTask, tools: bool) -> dict[str, Any]:
    messages = [{"role": "system", "content": system_prompt(expert)}]
    if tools:
        messages.append(
            {"role": "system", "content": tools_system_text([PYTHON_TOOL, PROMOTE_TOOL])}
        )
    messages.append({"role": "user", "content": task.prompt})
    cells: list[str] = []
    steps: list[dict[str, Any]] = []
    answer, well_formed, first = "", True, ""
    for _ in range(MAX_STEPS if tools else 1):
        said = ref.reply(messages)
        first = first or said
        parsed = parse_reply(said)
        if not tools or not parsed.calls:
            answer = parsed.content
            well_formed = well_formed and "<tool_call>" not in said
            break
        call = parsed.calls[0]
        code = str(call.arguments.get("code" if call.name == PYTHON else "tests", ""))
        ran = run_trajectories([[*cells, code]])[0][-1]
        if call.name == PYTHON:
            cells.append(code)
            result = python_result_text(**ran.as_kwargs())
        elif call.name == PROMOTE and ran.error is None:
            result = promote_result_text(name=str(call.arguments.get("name")), version=1)
        else:
            result = python_result_text(**ran.as_kwargs())
        steps.append({"tool": call.name, "arguments": call.arguments, "error": ran.error})
        messages += [
            {"role": "assistant", "content": render_call(call)},
            {"role": "tool", "content": result},
        ]
    return {
        "task": task.id,
        "ok": task.check(answer, steps),
        "steps": len(steps),
        "well_formed_calls": well_formed,
        "answer": answer,
        "calls": [s["arguments"] for s in steps],
        "first_reply": first[:300],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.agent_offline", description=__doc__)
    parser.add_argument("--adapter", type=Path, required=True)
    parser.add_argument("--expert", default="agent", choices=("agent", "coding"))
    parser.add_argument("--ids", default="", help="task ids, comma-separated (default: all)")
    parser.add_argument("--plain", action="store_true", help="without tools: the baseline")
    parser.add_argument("--max-new-tokens", type=int, default=200)
    args = parser.parse_args(argv)
    ids = [i for i in args.ids.split(",") if i]
    tasks = [t for t in TASKS if not ids or t.id in ids]
    ref = Reference(args.adapter, args.max_new_tokens)
    rows = []
    for task in tasks:
        started = time.perf_counter()
        row = loop(ref, args.expert, task, tools=not args.plain)
        row["seconds"] = round(time.perf_counter() - started, 1)
        print(json.dumps(row, ensure_ascii=False), flush=True)
        rows.append(row)
    solved = sum(r["ok"] for r in rows)
    print(
        f"{solved}/{len(rows)} solved, {sum(r['steps'] for r in rows)} tool steps", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
