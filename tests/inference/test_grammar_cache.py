"""The compiled-grammar cache: round trip, entries it must not trust, and the token masks a cached
grammar gives against a fresh compile. A small made-up vocabulary and a small UI4A-shaped schema
(recursive nodes, enums, bounds) keep it quick: xgrammar serializes the real UI4A grammar slowly
(minutes, even on this vocabulary), which is why the cache is off by default."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import xgrammar as xgr

from inference.serving import grammar_cache
from inference.serving.grammar_cache import GrammarCache, cache_key, tokenizer_fingerprint
from inference.serving.grammar_compiler import same_tokenizer, vllm_json_options

# Every printable character, and pieces a JSON tokenizer has, so the walk meets multi-char tokens.
VOCAB = [chr(c) for c in range(32, 127)] + ['{"', '":', '","', '"}', "type", "title", "true"]
OPTIONS = vllm_json_options(disable_any_whitespace=True)
NODE = {
    "type": "object",
    "required": ["type"],
    "properties": {
        "type": {"enum": ["stack", "text", "button", "input", "card"]},
        "label": {"type": "string"},
        "gap": {"type": "integer", "minimum": 0, "maximum": 8},
        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 6},
    },
}
SCHEMA = json.dumps(
    {
        "type": "object",
        "required": ["title", "root"],
        "properties": {
            "title": {"type": "string", "maxLength": 40},
            "root": {"$ref": "#/$defs/node"},
            "state": {"type": "object", "additionalProperties": {"type": ["string", "boolean"]}},
        },
        "$defs": {"node": NODE},
    }
)


def tokenizer(vocab: list[str] = VOCAB) -> xgr.TokenizerInfo:
    return xgr.TokenizerInfo(
        ["</s>", *vocab],
        vocab_type=xgr.VocabType.RAW,
        stop_token_ids=[0],
        vocab_size=len(vocab) + 1,
    )


@pytest.fixture(scope="module")
def info() -> xgr.TokenizerInfo:
    return tokenizer()


@pytest.fixture(scope="module")
def fresh(info: xgr.TokenizerInfo) -> xgr.CompiledGrammar:
    return xgr.GrammarCompiler(info).compile_json_schema(SCHEMA, **OPTIONS)


class CountingCompiler:
    def __init__(self, info: xgr.TokenizerInfo) -> None:
        self.compiler = xgr.GrammarCompiler(info, cache_enabled=False)
        self.calls = 0

    def compile_json_schema(self, schema: str, **options: Any) -> xgr.CompiledGrammar:
        self.calls += 1
        return self.compiler.compile_json_schema(schema, **options)


def key_for(info: xgr.TokenizerInfo, schema: str = SCHEMA) -> str:
    return cache_key(schema, OPTIONS, tokenizer_fingerprint(info))


def allowed(matcher: xgr.GrammarMatcher, vocab_size: int) -> np.ndarray:
    bitmask = xgr.allocate_token_bitmask(1, vocab_size)
    matcher.fill_next_token_bitmask(bitmask)
    bits = np.unpackbits(bitmask.numpy().view(np.uint8), bitorder="little")[:vocab_size]
    return bits.astype(bool)


def test_it_round_trips_a_compiled_grammar(tmp_path: Path, info, fresh) -> None:
    cache = GrammarCache(tmp_path)
    key = key_for(info)
    assert cache.load(key, info) is None
    cache.store(key, fresh)
    loaded = cache.load(key, info)
    assert loaded is not None
    assert str(loaded.grammar) == str(fresh.grammar)
    assert not list(tmp_path.glob(".staging-*")), "no staging file is left behind"


def test_a_corrupt_entry_is_compiled_again_not_trusted(tmp_path: Path, info) -> None:
    cache = GrammarCache(tmp_path)
    compiler = CountingCompiler(info)
    cached = grammar_cache.compile_json_schema_cached
    cached(compiler.compile_json_schema, info, cache, SCHEMA, **OPTIONS)
    cached(compiler.compile_json_schema, info, cache, SCHEMA, **OPTIONS)
    assert compiler.calls == 1, "the second call reads the cache"

    path = cache.path(key_for(info))
    data = bytearray(path.read_bytes())
    data[-10] ^= 0x01  # one bit of the payload
    path.write_bytes(bytes(data))
    assert cache.load(key_for(info), info) is None
    assert not path.exists(), "the corrupt entry is removed"

    path.write_bytes(b'{"format": 1, "key": "')  # a torn header
    cached(compiler.compile_json_schema, info, cache, SCHEMA, **OPTIONS)
    assert compiler.calls == 2, "compiled again"
    assert cache.load(key_for(info), info) is not None, "and stored whole again"


def test_a_stale_entry_is_compiled_again_not_trusted(tmp_path: Path, info, fresh) -> None:
    """An entry is trusted only under the key it was written for: another schema's, or one
    written for another tokenizer, is never read in its place."""
    cache = GrammarCache(tmp_path)
    other = key_for(info, schema='{"type": "string"}')
    cache.store(other, fresh)
    cache.path(other).rename(cache.path(key_for(info)))
    assert cache.load(key_for(info), info) is None

    renamed = tokenizer([*VOCAB[:-1], "false"])
    assert key_for(renamed) != key_for(info)
    assert cache_key(SCHEMA, vllm_json_options(False), tokenizer_fingerprint(info)) != key_for(info)


def test_a_cached_grammar_masks_tokens_as_a_fresh_compile_does(tmp_path: Path, info, fresh):
    cache = GrammarCache(tmp_path)
    cache.store(key_for(info), fresh)
    loaded = cache.load(key_for(info), info)
    assert loaded is not None
    size = info.vocab_size
    for seed in range(3):  # three seeded walks through the grammar, 60 tokens each
        rng = random.Random(seed)
        a, b = xgr.GrammarMatcher(fresh), xgr.GrammarMatcher(loaded)
        for _ in range(60):
            mask = allowed(a, size)
            assert np.array_equal(mask, allowed(b, size))
            assert 0 < mask.sum() < size, "the grammar constrains this step"
            token = rng.choice(np.flatnonzero(mask).tolist())
            if a.is_terminated() or token == 0:
                break
            assert a.accept_token(token) and b.accept_token(token)


def test_an_early_grammar_is_used_only_for_the_same_tokenizer(info) -> None:
    assert same_tokenizer(info, tokenizer())
    assert not same_tokenizer(info, tokenizer([*VOCAB[:-1], "false"]))
