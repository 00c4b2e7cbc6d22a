"""Compiled xgrammar grammars kept on disk, so a worker need not compile the UI4A grammar again.

vLLM compiles a request's JSON schema into an xgrammar `CompiledGrammar` (the token masks of
every grammar state over the whole vocabulary) the first time it sees it, in its engine-core
process. `GrammarCache` stores one under a key that hashes everything the compiled form
depends on: the schema text, the compile options, the tokenizer (its metadata and every token's
bytes), xgrammar's version and this file's format. An entry is written atomically (a temporary
file renamed into place), carries its key and the sha256 of its payload, and is checked against
both before xgrammar reads it; a stale or corrupt entry is removed and compiled again, never
trusted.

Off by default (`MACARON_GRAMMAR_CACHE=1` turns it on), because it does not pay for the grammar
that matters: xgrammar 0.2.8 serializes only to JSON, and the UI4A grammar on the default
tokenizer (13 MB in memory) became 0.6 GB of JSON, took longer to write and to read back than
to compile, and writing it inside the engine core took it past 11 GB and the kernel killed it
(bench/RESULTS.md, "Worker start-up"). So grammars over `MACARON_GRAMMAR_CACHE_MAX_BYTES` in
memory (default 4 MB) are compiled but not stored.

`grammar_compiler` puts it in vLLM's path.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import xgrammar as xgr

from inference import startup_phases
from inference.paths import data_home

log = logging.getLogger(__name__)

FORMAT = 1  # of an entry: a header line (JSON), then xgrammar's serialized grammar
SUFFIX = ".xgrammar.json"


def cache_enabled() -> bool:
    return os.environ.get("MACARON_GRAMMAR_CACHE", "0") == "1"


def cache_dir() -> Path:
    return Path(os.environ.get("MACARON_GRAMMAR_CACHE_DIR", str(data_home() / "grammar-cache")))


def max_cached_bytes() -> int:
    """The largest grammar (its size in memory) worth storing: xgrammar's JSON of the UI4A
    grammar was about 50 times its size in memory (627 MB for 13 MB), and writing it took the
    engine core past 11 GB."""
    return int(os.environ.get("MACARON_GRAMMAR_CACHE_MAX_BYTES", str(4 * 2**20)))


def tokenizer_fingerprint(info: xgr.TokenizerInfo) -> str:
    """The sha256 of what a compiled grammar depends on in a tokenizer: its metadata (vocabulary
    type and size, stop tokens, prefix space) and the bytes of every token, in order."""
    digest = hashlib.sha256(info.dump_metadata().encode())
    digest.update(repr(sorted(info.special_token_ids)).encode())
    digest.update(b"".join(len(t).to_bytes(4, "little") + t for t in info.decoded_vocab))
    return digest.hexdigest()


def cache_key(schema: str, options: dict[str, Any], tokenizer: str) -> str:
    """`tokenizer` is `tokenizer_fingerprint`'s; `options` the compile's keyword arguments."""
    parts = {
        "format": FORMAT,
        "xgrammar": version("xgrammar"),
        "options": options,
        "tokenizer": tokenizer,
    }
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode())
    digest.update(schema.encode())
    return digest.hexdigest()


class GrammarCache:
    """One file per compiled grammar in `root`, named by its key."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, key: str) -> Path:
        return self.root / f"{key}{SUFFIX}"

    def load(self, key: str, info: xgr.TokenizerInfo) -> xgr.CompiledGrammar | None:
        """The grammar stored under `key`, or None when there is none or it fails a check (the
        entry is then removed, so the next store replaces it)."""
        path = self.path(key)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            head, _, payload = data.partition(b"\n")
            header = json.loads(head)
            if header.get("format") != FORMAT or header.get("key") != key:
                raise ValueError("the entry was stored under another key or format")
            if header.get("sha256") != hashlib.sha256(payload).hexdigest():
                raise ValueError("the payload does not match its sha256")
            return xgr.CompiledGrammar.deserialize_json(payload.decode(), info)
        except (ValueError, RuntimeError) as exc:  # xgrammar raises RuntimeError subclasses
            log.warning("grammar cache entry %s is unusable (%s); compiling again", path, exc)
            path.unlink(missing_ok=True)
            return None

    def store(self, key: str, grammar: xgr.CompiledGrammar) -> Path:
        """Write atomically: readers see the old entry or the whole new one, never a part."""
        payload = grammar.serialize_json().encode()
        header = {"format": FORMAT, "key": key, "sha256": hashlib.sha256(payload).hexdigest()}
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.path(key)
        fd, staging = tempfile.mkstemp(dir=self.root, prefix=".staging-")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(json.dumps(header).encode() + b"\n")
                out.write(payload)
                out.flush()
                os.fsync(out.fileno())
            os.replace(staging, path)
        except BaseException:
            Path(staging).unlink(missing_ok=True)
            raise
        return path


def compile_json_schema_cached(
    compile_json_schema: Callable[..., xgr.CompiledGrammar],
    info: xgr.TokenizerInfo,
    cache: GrammarCache,
    schema: str,
    **options: Any,
) -> xgr.CompiledGrammar:
    """`compile_json_schema(schema, **options)` (a `GrammarCompiler`'s, whose tokenizer is
    `info`), read from `cache` when it holds it, compiled and stored there when not."""
    with startup_phases.phase("grammar: cache load") as detail:
        key = cache_key(schema, options, tokenizer_fingerprint(info))
        grammar = cache.load(key, info)
        detail["hit"] = grammar is not None
    if grammar is not None:
        return grammar
    with startup_phases.phase("grammar: compile", schema_chars=len(schema)):
        grammar = compile_json_schema(schema, **options)
    with startup_phases.phase("grammar: cache write") as detail:
        detail["grammar_bytes"] = size = grammar.memory_size_bytes
        if size > max_cached_bytes():
            log.warning("grammar of %d bytes not cached: over the cache's limit", size)
            detail["skipped"] = True
        else:
            detail["bytes"] = cache.store(key, grammar).stat().st_size
    return grammar
