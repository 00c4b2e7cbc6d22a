"""Start-up phases of vLLM's engine-core process, logged as `inference.startup_phases` lines.

The engine core is a process vLLM starts, whose code is vLLM's: `install`, a vLLM general
plugin of its own (pyproject.toml; vLLM calls its plugins in every process it starts, before it
starts the engine core), wraps a few of vLLM's methods so the worker's log also says how long
the engine core took to start (a spawned one imports vLLM and torch again; a forked one has
them), to load the model and to set up its KV cache. Each wrapper only reads the clock around
vLLM's own method. It also puts our xgrammar compiler in place (`grammar_compiler.install`),
which logs the grammar's phases.
"""

from __future__ import annotations

import functools
import multiprocessing
import time
from collections.abc import Callable
from typing import Any

from inference import startup_phases

_installed = False


def install() -> None:
    """Wrap the engine core's start-up methods; once per process (a forked engine core inherits
    its parent's wrappers, and vLLM loads plugins once per process)."""
    global _installed
    if _installed:
        return
    _installed = True
    if multiprocessing.parent_process() is not None:
        # A spawned engine core, loading plugins from within its `EngineCore.__init__`, which
        # is too late to wrap: its start is logged from here.
        _log_process_start()
    from vllm.v1.engine.core import EngineCore
    from vllm.v1.executor.uniproc_executor import UniProcExecutor

    from inference.serving import grammar_compiler

    _record_process_start(EngineCore)
    _time_method(UniProcExecutor, "_init_executor", "engine core: model load")
    _time_method(EngineCore, "_initialize_kv_caches", "engine core: kv cache and model warm-up")
    grammar_compiler.install()


def _record_process_start(engine_core: type) -> None:
    """When an engine core starts in a process of its own, log that process's start up to here:
    its interpreter and imports when spawned, next to nothing when forked."""
    original: Callable[..., Any] = engine_core.__init__  # type: ignore[misc]

    @functools.wraps(original)
    def init(*args: Any, **kwargs: Any) -> Any:
        if multiprocessing.parent_process() is not None:
            _log_process_start()
        return original(*args, **kwargs)

    engine_core.__init__ = init  # type: ignore[misc]


def _log_process_start() -> None:
    """Also starts the grammar's early compile, when the worker asked for one: this is the
    first point where an engine core runs our code."""
    from inference.serving import grammar_compiler

    started = startup_phases.process_started_at()
    startup_phases.record("engine core: process start and imports", started, time.time())
    grammar_compiler.start_requested_precompile()


def _time_method(owner: type, name: str, phase: str) -> None:
    original: Callable[..., Any] = getattr(owner, name)

    @functools.wraps(original)
    def timed(*args: Any, **kwargs: Any) -> Any:
        with startup_phases.phase(phase):
            return original(*args, **kwargs)

    setattr(owner, name, timed)
