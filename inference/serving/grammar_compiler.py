"""The xgrammar compiler vLLM's engine core uses: with the grammar cache, a grammar compiled ahead
while the model loads, and each compile logged as a start-up phase.

vLLM compiles a request's grammar in its engine-core process, when the first request that needs
it arrives: for the worker, its warm-up, after the model has loaded. With
`MACARON_GRAMMAR_PRECOMPILE=1` the worker names the warm-up's schema before vLLM starts the
engine core (`request_precompile`, through the environment, which a spawned or forked engine
core inherits), and the engine core compiles it on a thread of its own as soon as it starts,
while its main thread loads the model; the warm-up then finds it compiled. The early compile
builds its own tokenizer table from the model's tokenizer and is used only if that table equals
vLLM's, token for token; otherwise the grammar is compiled again, as without it. Off by
default: on 2 cores it did not pay (the load and the compile slow each other; bench/RESULTS.md,
"Worker start-up").

`install` (from our vLLM plugin, in every process vLLM starts) makes vLLM's xgrammar backend
build `CachingGrammarCompiler`s.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import xgrammar as xgr

from inference import startup_phases
from inference.serving.grammar_cache import (
    GrammarCache,
    cache_dir,
    cache_enabled,
    compile_json_schema_cached,
)

log = logging.getLogger(__name__)

PRECOMPILE_REQUEST = "MACARON_GRAMMAR_PRECOMPILE_REQUEST"  # set by the worker for its engine core
_XGRAMMAR_COMPILER = xgr.GrammarCompiler  # xgrammar's own, before `install` replaces it
_pending: dict[str, Future[xgr.CompiledGrammar]] = {}


def vllm_json_options(disable_any_whitespace: bool) -> dict[str, Any]:
    """The options vLLM's xgrammar backend compiles a JSON schema with (backend_xgrammar.py)."""
    return {
        "any_whitespace": not disable_any_whitespace,
        "separators": (",", ":") if disable_any_whitespace else None,
    }


def request_precompile(
    schema: str, *, tokenizer: str, vocab_size: int, options: dict[str, Any]
) -> None:
    """In the worker, before vLLM starts its engine core: have it compile `schema` (the exact
    text vLLM will be asked for) with `options` as soon as it starts."""
    request = {"schema": schema, "tokenizer": tokenizer, "vocab_size": vocab_size}
    os.environ[PRECOMPILE_REQUEST] = json.dumps({**request, "options": options})


def start_requested_precompile() -> None:
    """In an engine core, as it starts: compile the requested grammar, if any, on a thread."""
    raw = os.environ.pop(PRECOMPILE_REQUEST, None)
    if raw is None:
        return
    request = json.loads(raw)
    options = _normalized(request["options"])
    future: Future[xgr.CompiledGrammar] = Future()
    _pending[_key(request["schema"], options)] = future

    def compile_() -> None:
        try:
            with startup_phases.phase("grammar: precompile"):
                from transformers import AutoTokenizer

                tokenizer = AutoTokenizer.from_pretrained(request["tokenizer"])
                info = xgr.TokenizerInfo.from_huggingface(
                    tokenizer, vocab_size=request["vocab_size"]
                )
                # A core is left to the model's load, which runs beside it.
                threads = max(1, (os.cpu_count() or 2) - 1)
                compiler = _XGRAMMAR_COMPILER(info, max_threads=threads)
                grammar = _compile(
                    compiler.compile_json_schema, info, request["schema"], options, early=True
                )
                future.set_result(grammar)
        except BaseException as exc:  # the warm-up compiles it again; say why
            log.warning("the grammar's early compile failed (%r); compiling at warm-up", exc)
            future.set_exception(exc)

    threading.Thread(target=compile_, name="grammar-precompile", daemon=True).start()


def _normalized(options: dict[str, Any]) -> dict[str, Any]:
    separators = options.get("separators")
    return {**options, "separators": tuple(separators) if separators is not None else None}


def _key(schema: str, options: dict[str, Any]) -> str:
    return json.dumps([schema, options], sort_keys=True)


def _compile(
    compile_json_schema: Callable[..., xgr.CompiledGrammar],
    info: xgr.TokenizerInfo,
    schema: str,
    options: dict[str, Any],
    *,
    early: bool = False,
) -> xgr.CompiledGrammar:
    """`compile_json_schema` is a plain xgrammar compiler's, for `info`'s tokenizer."""
    if cache_enabled():
        return compile_json_schema_cached(
            compile_json_schema, info, GrammarCache(cache_dir()), schema, **options
        )
    name = "grammar: early compile" if early else "grammar: compile"
    with startup_phases.phase(name, schema_chars=len(schema)):
        return compile_json_schema(schema, **options)


def same_tokenizer(a: xgr.TokenizerInfo, b: xgr.TokenizerInfo) -> bool:
    """Whether a grammar compiled for `a` masks tokens exactly as one compiled for `b`."""
    return (
        a.dump_metadata() == b.dump_metadata()
        and sorted(a.special_token_ids) == sorted(b.special_token_ids)
        and a.decoded_vocab == b.decoded_vocab
    )


def _claim_precompiled(
    schema: str, options: dict[str, Any], info: xgr.TokenizerInfo
) -> xgr.CompiledGrammar | None:
    future = _pending.pop(_key(schema, _normalized(options)), None)
    if future is None:
        return None
    with startup_phases.phase("grammar: wait for precompile") as detail:
        try:
            grammar = future.result()
        except BaseException:
            grammar = None
        usable = grammar is not None and same_tokenizer(grammar.tokenizer_info, info)
        detail["used"] = usable
    if grammar is not None and not usable:
        log.warning("the early-compiled grammar has another tokenizer table; compiling again")
    return grammar if usable else None


class CachingGrammarCompiler(_XGRAMMAR_COMPILER):
    """xgrammar's compiler, with JSON-schema grammars taken from an early compile or the grammar
    cache when those are on, and each compile logged as a start-up phase."""

    def __init__(self, tokenizer_info: xgr.TokenizerInfo, **kwargs: Any) -> None:
        super().__init__(tokenizer_info, **kwargs)
        self.tokenizer_info = tokenizer_info

    def compile_json_schema(self, schema: Any, **options: Any) -> xgr.CompiledGrammar:
        if not isinstance(schema, str):
            return super().compile_json_schema(schema, **options)
        early = _claim_precompiled(schema, options, self.tokenizer_info)
        if early is not None:
            return early
        return _compile(super().compile_json_schema, self.tokenizer_info, schema, options)


def install() -> None:
    """Make vLLM's xgrammar backend build `CachingGrammarCompiler`s (vLLM reaches xgrammar's
    classes through the module at call time), and log its set-up (the tokenizer's token table
    for xgrammar) as a phase."""
    from vllm.v1.structured_output.backend_xgrammar import XgrammarBackend

    xgr.GrammarCompiler = CachingGrammarCompiler  # type: ignore[misc]
    original = XgrammarBackend.__post_init__

    def post_init(self: Any) -> None:
        with startup_phases.phase("grammar: tokenizer info"):
            original(self)

    XgrammarBackend.__post_init__ = post_init
