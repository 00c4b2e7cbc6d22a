"""Hosts one vLLM `AsyncLLM` per process, driven by an asyncio loop on a background thread.

Celery runs tasks on threads (`-P threads`); each task calls `stream()` and iterates deltas
synchronously while the shared engine batches every concurrent request together. Building an
engine costs most of a minute, so it happens once, when the worker starts, never per task.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import queue
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from inference import startup_phases
from inference.loras import AdapterInvalid, AdapterRef, adaptable_modules, local_ref
from inference.protocol import Delta, GenerationRequest
from inference.serving import (
    choice_kind,
    closing_quote,
    copy_bias,
    copy_steer,
    cpu_compile,
    identifier_kind,
    list_completion,
    tab_switch,
    word_loop,
)
from inference.serving.busy_threads import BUSY_THREADS
from inference.serving.corpus_drafts import DRAFT_LIMITS
from inference.serving.cpu_lora import WRAPPER
from inference.serving.lora_path_check import PROBE, engine_core_threads, verify_lora_path
from inference.serving.prefix_cache import PrefixCacheCounter, PrefixCacheStats
from inference.serving.residency import LoraResidency
from inference.serving.staged_decode import Run, first_stage_schema, stage_request_ids, staged
from inference.settings import EngineSettings, thread_environment
from ui4a.declarations import is_staged_schema

log = logging.getLogger(__name__)

_END = object()


@contextmanager
def _precompile_requested(config: Any, schema: str | None) -> Iterator[None]:
    """While vLLM starts its engine core, ask it to compile `schema` early (when not None)."""
    if schema is None:
        yield
        return
    from inference.serving import grammar_compiler

    grammar_compiler.request_precompile(
        schema,
        tokenizer=config.model_config.tokenizer,
        vocab_size=config.model_config.get_vocab_size(),
        options=grammar_compiler.vllm_json_options(
            config.structured_outputs_config.disable_any_whitespace
        ),
    )
    try:
        yield
    finally:  # the engine core has it now; no later process of ours should
        os.environ.pop(grammar_compiler.PRECOMPILE_REQUEST, None)


@contextmanager
def _engine_core_started_by(fork: bool) -> Iterator[None]:
    """With `fork`, vLLM starts its engine-core process by forking this one. Its CPU platform
    asks for spawn (it sets the variable while the config is made, so this comes after), for
    safety's sake: a fork inherits this process's threads' locks and OpenMP's state, and a
    child of a process whose OpenMP threads had started waits on threads it does not have. So
    only a fresh process forks (the worker: it has run no torch work when its engine starts;
    tests and benches that ran torch work first spawn); vLLM forks its engine core by default
    on GPUs from the same kind of process. The variable is put back once it started.
    Python's collector is frozen across the fork: the child inherits this process's millions of
    objects (torch, vLLM, Django), and vLLM collects twice while it loads the model, which took
    1.5 s of the child's start when every collection walked them all (bench/RESULTS.md)."""
    if not fork:
        yield
        return
    before = os.environ.get("VLLM_WORKER_MULTIPROC_METHOD")
    os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "fork"
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        if before is None:
            os.environ.pop("VLLM_WORKER_MULTIPROC_METHOD", None)
        else:
            os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = before


def _busy_threads(settings: EngineSettings) -> dict[str, int] | None:
    """The model's threads for one request's steps and for fuller ones, where they differ
    (inference/serving/busy_threads.py): a CPU engine's, with its threads held."""
    from vllm.platforms import current_platform

    idle, busy = settings.cpu_threads, settings.cpu_busy_threads
    if not current_platform.is_cpu() or not idle or not busy or busy == idle:
        return None
    return {"idle": idle, "busy": busy}


class VllmEngine:
    """The real engine: base model plus one LoRA adapter per expert, with `enable_lora`."""

    def __init__(
        self,
        settings: EngineSettings,
        *,
        count_prefix_cache: bool = False,
        lora_wrapper: str = WRAPPER,
        warm_up_schema: str | None = None,
        profile_dir: Path | None = None,
        fresh_process: bool = False,
    ) -> None:
        """`lora_wrapper` is the punica wrapper a CPU engine must prove it runs before it
        starts: ours, except for a benchmark's "vLLM as it comes" reference, which proves it
        runs vLLM's own (`lora_path_check.STOCK_WRAPPER`). `warm_up_schema` is the JSON schema
        (as vLLM will be given it) that the first request decodes under: with the settings'
        `grammar_precompile`, the engine core compiles it while it loads the model.
        `profile_dir` turns on vLLM's torch profiler for `profiled` (bench/decode_profile.py):
        the engine core writes its traces there. `fresh_process` says this process has run no
        torch work yet (the worker hosting its engine): only then may the settings'
        `engine_core_fork` fork the engine core from it (`_engine_core_started_by`)."""
        self.settings = settings
        self._fork = settings.engine_core_fork and fresh_process
        self._profile_dir = profile_dir
        # What the warm-up's first decode runs under: a staged spec's head schema.
        self._warm_up_schema = warm_up_schema
        if settings.staged_data and warm_up_schema is not None:
            self._warm_up_schema = first_stage_schema(warm_up_schema)
        self._lora_wrapper = lora_wrapper
        self._prefix_counter = PrefixCacheCounter() if count_prefix_cache else None
        self.torch_threads: list[int] = []  # per model process, as its torch reports them
        # CPU builds size their KV cache from this; harmless on GPUs.
        os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="vllm-engine-loop", daemon=True
        )
        self._thread.start()
        try:
            self._llm: Any = self._call(self._build())
        except BaseException:
            self._stop_loop()
            raise
        self._tokenizer: Any = self._llm.get_tokenizer()
        self.residency = LoraResidency(self._llm, settings.max_resident_loras)
        self._closed = False

    def _call(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    async def _build(self) -> Any:
        with startup_phases.phase("engine imports (vllm's engine modules)"):
            from vllm.engine.arg_utils import AsyncEngineArgs
            from vllm.platforms import current_platform
            from vllm.v1.engine.async_llm import AsyncLLM

        on_cpu = current_platform.is_cpu()
        if on_cpu and self.settings.tensor_parallel_size == 1:
            # Run the model inside vLLM's engine-core process (its "uni" executor) rather than
            # in a worker process of its own: the two poll each other over shared memory, and
            # on a small host that polling takes a core from the model: single-stream decode
            # ran about 1.3x faster this way on 2 cores (bench/RESULTS.md).
            os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
        if on_cpu and self.settings.cpu_threads:
            # A spawned engine core reads it as it starts. A forked one keeps what this process's
            # OpenMP runtime read when torch was imported, which is why the worker exports it
            # before that (inference.settings.export_engine_threads).
            os.environ.update(thread_environment(self.settings.cpu_threads))
        args = AsyncEngineArgs(
            model=self.settings.model,
            enable_lora=True,
            max_loras=self.settings.max_loras,
            # vLLM's own cache is as large as our residency bound, so it never evicts on its
            # own: LoraResidency decides, and times each load.
            max_cpu_loras=self.settings.max_resident_loras,
            max_lora_rank=self.settings.max_lora_rank,
            lora_target_modules=self._lora_targets(),
            max_model_len=self.settings.max_model_len,
            max_num_seqs=self.settings.max_num_seqs,
            tensor_parallel_size=self.settings.tensor_parallel_size,
            enable_prefix_caching=True,
            # float32 on a CPU unless set, not vLLM's bfloat16: EngineSettings.cpu_dtype says why.
            dtype=self.settings.cpu_dtype if on_cpu else "auto",
            # The CPU worker refuses the default fraction on a small machine.
            gpu_memory_utilization=0.5 if on_cpu else 0.9,
            structured_outputs_config={"backend": "xgrammar", "disable_any_whitespace": True},
            speculative_config=self._speculation(),
            **self._scheduler(),
            **self._profiler(),
            disable_log_stats=True,
            # Lets the check below ask the process that runs the model which LoRA path it runs.
            worker_extension_cls=PROBE if on_cpu else "",
        )
        loggers = [self._prefix_counter.logger_factory()] if self._prefix_counter else None
        # Starts vLLM's engine-core process, which loads the model and logs its own phases.
        compiled = on_cpu and self.settings.cpu_compile
        if compiled:
            cpu_compile.prepare_environment()
        with startup_phases.phase("engine construction", fork=on_cpu and self._fork):
            config = args.create_engine_config()
            if compiled:
                cpu_compile.compile_with_lora(config)
            precompile = self._warm_up_schema if self.settings.grammar_precompile else None
            with (
                _precompile_requested(config, precompile),
                _engine_core_started_by(on_cpu and self._fork),
            ):
                llm = AsyncLLM.from_vllm_config(
                    config, stat_loggers=loggers, disable_log_stats=args.disable_log_stats
                )
        if on_cpu:
            try:
                with startup_phases.phase("lora path check") as detail:
                    await verify_lora_path(llm, self._lora_wrapper)
                    self.torch_threads = await engine_core_threads(llm)
                    detail["torch_threads"] = self.torch_threads
                self._warn_unless_threads_as_set()
            except BaseException:
                llm.shutdown()
                raise
        return llm

    def recheck_threads(self) -> list[int]:
        """Ask each model process again for its torch threads, and warn as at the start if they
        are not the settings': a library run since (numba's first parallel loop, say) may have
        changed OpenMP's count under torch. Empty for an engine that is not on a CPU."""
        if self.torch_threads:
            self.torch_threads = self._call(engine_core_threads(self._llm))
            self._warn_unless_threads_as_set()
        return self.torch_threads

    def _warn_unless_threads_as_set(self) -> None:
        """Extra OpenMP threads spin beside the model and take cores the rest of the host needs;
        a forked engine core keeps the count its parent read as it imported torch."""
        wanted = self.settings.cpu_threads
        if wanted and any(threads != wanted for threads in self.torch_threads):
            log.warning(
                "the engine core runs %s torch threads, not the %d MACARON_ENGINE_THREADS asks: "
                "torch was imported before OMP_NUM_THREADS was set, or a numba loop ran without "
                "NUMBA_NUM_THREADS (inference.settings.thread_environment)",
                self.torch_threads,
                wanted,
            )

    def _lora_targets(self) -> list[str] | None:
        """The layers vLLM wraps for LoRA: the base's projections, the only layers an adapter
        may target, unless `lora_head` asks for vLLM's own choice (which adds the head). A hub
        id names no local weights to read them from: vLLM's choice then too."""
        if self.settings.lora_head or not Path(self.settings.model).is_dir():
            return None
        try:
            return sorted(adaptable_modules(Path(self.settings.model)))
        except AdapterInvalid:
            return None

    def _speculation(self) -> dict[str, Any] | None:
        """vLLM's prompt-lookup drafter, when the settings ask for drafts: a draft starts where
        the last 2 to 4 tokens appeared before, in the prompt or the output so far."""
        tokens = self.settings.draft_tokens
        if tokens <= 0:
            return None
        return {
            "method": "ngram",
            "num_speculative_tokens": tokens,
            "prompt_lookup_min": 2,
            "prompt_lookup_max": 4,
        }

    def _scheduler(self) -> dict[str, Any]:
        """Jump-forward: a scheduler that drafts the text the grammar forces, and from an
        adapter's corpus where the settings ask; each of ours also sets the model's threads by
        how many requests a step holds, where idle and busy counts differ. Named, not
        imported: vLLM imports it in the engine core, and this process needs none of it (but
        the config keys).
        Without async scheduling (vLLM-cpu never has it; a GPU engine would): with it, vLLM
        hands drafts over where this scheduler does not put them in."""
        config: dict[str, Any] = {}
        busy = _busy_threads(self.settings)
        if busy:
            config[BUSY_THREADS] = busy
        if not self.settings.jump_forward:
            if not config:
                return {}
            name = "inference.serving.busy_threads.BusyThreadsScheduler"
        else:
            alone = self.settings.spec_ngram_tokens <= 0
            name = "inference.serving.jump_forward." + (
                "GrammarOnlyDraftScheduler" if alone else "JumpForwardScheduler"
            )
            config[DRAFT_LIMITS] = {
                "lookup": self.settings.lookup_draft_tokens,
                "corpus": self.settings.corpus_draft_tokens,
            }
        return {"scheduler_cls": name, "async_scheduling": False, "additional_config": config}

    def _profiler(self) -> dict[str, Any]:
        if self._profile_dir is None:
            return {}
        from vllm.config.profiler import ProfilerConfig

        config = ProfilerConfig(
            profiler="torch",
            torch_profiler_dir=str(self._profile_dir),
            torch_profiler_with_stack=False,
            torch_profiler_use_gzip=False,
            ignore_frontend=True,
        )
        return {"profiler_config": config}

    @contextmanager
    def profiled(self, name: str) -> Iterator[None]:
        """The engine core under vLLM's torch profiler for the block; its trace is written to
        `profile_dir` as `<name>_*.pt.trace.json` when the block ends."""
        if self._profile_dir is None:
            raise RuntimeError("this engine was started without a profile_dir")
        self._call(self._llm.start_profile(profile_prefix=name))
        try:
            yield
        finally:
            self._call(self._llm.stop_profile())

    def prompt_for(self, request: GenerationRequest) -> str:
        messages = [{"role": m.role, "content": m.content} for m in request.messages]
        extra: dict[str, Any] = {"tools": list(request.tools)} if request.tools else {}
        text = self._tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=True, **extra
        )
        return str(text)

    def _adapter(self, request: GenerationRequest) -> AdapterRef | None:
        if request.adapter is not None:
            return request.adapter
        if request.expert is None:
            return None
        return local_ref(request.expert, self.settings.adapter_root)

    def _sampling_params(
        self,
        request: GenerationRequest,
        *,
        max_tokens: int | None = None,
        spec_from: int | None = None,
        **structured: Any,
    ) -> Any:
        """`structured`: a stage's own `json` schema or `grammar` (staged_decode), in place of
        the request's schema; `spec_from`: where in the stage's prompt the spec begins (a
        tail's continues its head's)."""
        from vllm.sampling_params import RequestOutputKind, SamplingParams, StructuredOutputsParams

        if not structured and request.json_schema is not None:
            structured = {"json": request.json_schema}
        return SamplingParams(
            max_tokens=max_tokens or request.max_tokens,
            temperature=request.temperature,
            top_p=request.top_p,
            seed=request.seed,
            ignore_eos=request.ignore_eos,
            stop=list(request.stop) or None,
            output_kind=RequestOutputKind.DELTA,
            structured_outputs=StructuredOutputsParams(**structured) if structured else None,
            extra_args=self._copy_bias(request, spec_from) or None,
        )

    def _copy_bias(self, request: GenerationRequest, spec_from: int | None) -> dict[str, Any]:
        """The latest user message's words favoured, for a UI4A spec (copy_bias.py); a head
        steered off copying a child (copy_steer.py), its tab switches held to its tabs' labels
        (tab_switch.py), its identifier fields to a text kind (identifier_kind.py), a question's
        choices to radios (choice_kind.py), its lists
        gone on to the message's items (list_completion.py) and its fields and buttons drawn as
        the message names them (field_completion.py, button_completion.py); the later stages'
        strings ended where the model meant to end them (closing_quote.py); and no word a third
        time in a row (word_loop.py)."""
        users = [m.content for m in request.messages if m.role == "user"]
        schema = request.json_schema
        if not users or schema is None or not is_staged_schema(schema):
            return {}

        def encode(text: str) -> list[int]:
            return list(self._tokenizer.encode(text, add_special_tokens=False))

        # Only the head writes a node's children (the later stages continue its prompt), and
        # only the later stages have their strings ended where the model meant (closing_quote.py).
        head_rules = (
            copy_steer.request_args(self.settings.copy_steer)
            | tab_switch.request_args()
            | (identifier_kind.request_args() if self.settings.identifier_text else {})
            | (choice_kind.request_args(users[-1]) if self.settings.choice_radios else {})
            | list_completion.request_args(
                users[-1],
                lists=self.settings.list_hold,
                buttons=self.settings.button_hold,
                fields=self.settings.field_hold,
                cards=self.settings.list_cards,
                texts=self.settings.named_texts,
            )
            if spec_from is None
            else {}
        )
        ends = closing_quote.request_args() if spec_from is not None else {}
        return (
            head_rules
            | ends
            | word_loop.request_args()
            | copy_bias.extra_args(
                encode,
                users[-1],
                self.settings.copy_bias,
                schema,
                repeats=self.settings.copy_bias_repeats,
                no_stutter=self.settings.copy_bias_no_stutter,
                spec_from=spec_from,
                follow=self.settings.copy_follow,
            )
        )

    def _staged(self, request: GenerationRequest) -> bool:
        """Whether `request` decodes a UI4A spec in two stages (EngineSettings.staged_data)."""
        schema = request.json_schema
        return (
            schema is not None
            and not request.ignore_eos
            and self.settings.staged_data
            and is_staged_schema(schema)
        )

    async def _produce(self, request: GenerationRequest, out: queue.Queue[object]) -> None:
        adapter = None  # set once acquired, so only an acquired adapter is released
        try:
            wanted = self._adapter(request)
            load_ms = None
            lora_request = None
            verified_sha256 = None
            if wanted is not None:
                from vllm.lora.request import LoRARequest

                load_ms = await self.residency.acquire(wanted)
                adapter = wanted
                # The checked copy, never `wanted.path`, which anyone may have written since.
                checked = self.residency.loaded_from(wanted.lora_id)
                lora_request = LoRARequest(wanted.name, wanted.lora_id, checked)
                verified_sha256 = self.residency.loaded_sha256(wanted.lora_id)

            def generate(prompt: Any, params: Any, request_id: str) -> AsyncIterator[Any]:
                outputs: AsyncIterator[Any] = self._llm.generate(
                    prompt, params, request_id, lora_request=lora_request
                )
                return outputs

            prompt = self.prompt_for(request)
            if self._staged(request):
                assert request.json_schema is not None
                pieces = staged(
                    generate,
                    prompt,
                    partial(self._sampling_params, request),
                    request.json_schema,
                    request.request_id,
                    self._tokenizer,
                    request.max_tokens,
                    [m.content for m in request.messages if m.role == "assistant"],
                )
            else:
                params = self._sampling_params(request)
                pieces = Run(generate(prompt, params, request.request_id)).pieces()
            async for piece in pieces:
                out.put(
                    Delta(
                        piece.text,
                        piece.tokens,
                        piece.finish_reason,
                        piece.prompt_tokens,
                        load_ms,
                        verified_sha256,
                    )
                )
                load_ms = verified_sha256 = None  # said once, on the first delta
        except BaseException as exc:  # handed to the consuming thread, which re-raises
            out.put(exc)
        finally:
            if adapter is not None:
                await self.residency.release(adapter)
            out.put(_END)

    def stream(self, request: GenerationRequest) -> Iterator[Delta]:
        if self._closed:
            raise RuntimeError("the engine has been shut down")
        out: queue.Queue[object] = queue.Queue()
        future = asyncio.run_coroutine_threadsafe(self._produce(request, out), self._loop)
        finished = False
        try:
            while (item := out.get()) is not _END:
                if isinstance(item, BaseException):
                    raise item
                assert isinstance(item, Delta)
                finished = item.finished
                yield item
        finally:
            if not finished:  # the caller stopped early: free the engine's slot
                self.abort(request.request_id)
            future.cancel()

    def reset_prefix_cache(self) -> None:
        """Drop every cached prefix block, so the next request computes its whole prompt."""
        if not self._call(self._llm.reset_prefix_cache()):
            raise RuntimeError("the prefix cache can only be reset while no request runs")

    def prefix_cache_stats(self) -> PrefixCacheStats:
        """Prompt tokens looked up in the prefix cache and found there, since the start."""
        if self._prefix_counter is None:
            raise RuntimeError("start the engine with count_prefix_cache=True to count")
        return self._prefix_counter.snapshot()

    def abort(self, request_id: str) -> None:
        if not self._closed:
            # A staged generation's later stages run under ids of their own.
            self._call(self._llm.abort(stage_request_ids(request_id)))

    def load_adapter(self, ref: AdapterRef) -> float:
        return float(self._call(self.residency.preload(ref)))

    def unload_adapter(self, lora_id: int, *, wait: bool) -> None:
        """With `wait=False` the drain runs on the engine's loop and this returns at once, so a
        broadcast handler never blocks the worker's consumer behind a long generation."""
        future = asyncio.run_coroutine_threadsafe(self.residency.unload(lora_id), self._loop)
        if wait:
            future.result()

    def resident_adapters(self) -> list[dict[str, Any]]:
        async def snapshot() -> list[dict[str, Any]]:
            return self.residency.snapshot()

        return list(self._call(snapshot()))

    def shutdown(self) -> None:
        """Stop the engine core process and the loop; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        try:
            # Shut down on the engine's own loop so its output task is cancelled cleanly.
            self._call(self._shutdown_on_loop())
        finally:
            self._llm = None
            self._stop_loop()

    def _stop_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    async def _shutdown_on_loop(self) -> None:
        self._llm.shutdown()
