"""Staged decoding of a UI4A spec, on the engine's side: the head, then a tail built for it.

The first stage decodes the head (title, theme, root) under `ui4a.declarations.head_schema`,
which ends the spec right after the root. The second continues the same text: its prompt is the
first stage's prompt and output token ids, less the token that closed the spec, so the prefix
cache holds all of it but the last block; its grammar (`tail_grammar`) re-spells that token's
text up to the closing brace, then admits an optional `"state"` and a `"data"` that declares
every dataset the head named (`ui4a.declarations.tail_schemas`), then the brace. The caller
streams one text: the head without its closing brace, then the tail after the re-spelled part.

vLLM takes a request's grammar as text, so the tail's is xgrammar's own EBNF, assembled from
grammars xgrammar builds from the JSON schemas with the options the spec's grammar has.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import xgrammar as xgr

from inference.serving.grammar_compiler import vllm_json_options
from ui4a.declarations import TailSchemas, head_schema, is_staged_schema, tail_schemas

log = logging.getLogger(__name__)
# One line a staged generation, which UI4A-Bench reads back (bench/ui4a_bench/tail_waits.py).
TAIL_STARTED = "staged decode: the tail (%s) began %.0f ms after the head"

# The options vLLM compiles the spec's schema with (its engine disables any whitespace).
JSON_OPTIONS = vllm_json_options(disable_any_whitespace=True)


def _literal(text: str) -> xgr.Grammar:
    quoted = text.replace("\\", "\\\\").replace('"', '\\"')
    return xgr.Grammar.from_ebnf(f'root ::= "{quoted}"')


def _property(name: str, value: dict[str, Any]) -> xgr.Grammar:
    schema = xgr.Grammar.from_json_schema(json.dumps(value), **JSON_OPTIONS)
    return xgr.Grammar.concat(_literal(f',"{name}":'), schema)


def _optional(grammar: xgr.Grammar) -> xgr.Grammar:
    return xgr.Grammar.union(grammar, xgr.Grammar.from_ebnf('root ::= ""'))


def first_stage_schema(schema_text: str) -> str:
    """The text of the schema a request under `schema_text` (as vLLM is given it) first decodes
    under: its head's, for a whole spec's; else the same."""
    schema = json.loads(schema_text)
    return json.dumps(head_schema(schema)) if is_staged_schema(schema) else schema_text


def tail_grammar(respelled: str, tail: TailSchemas) -> str:
    """The second stage's grammar: `respelled` (the text of the head's last token before the
    spec's closing brace), the state and the data where the tail has them (TailSchemas), then
    the closing brace."""
    parts = [_literal(respelled)] if respelled else []
    if tail.state is not None:
        state = _property("state", tail.state)
        parts.append(state if tail.state_required else _optional(state))
    if tail.data is not None:
        parts.append(_property("data", tail.data))
    parts.append(_literal("}"))
    return str(xgr.Grammar.concat(*parts))


@dataclass(frozen=True)
class HeadEnd:
    """Where the head's output is cut for the tail: the ids the tail's prompt keeps, and the
    text of the dropped token before the spec's closing brace (the tail spells it again)."""

    kept_ids: list[int]
    respelled: str


def head_end(output_ids: list[int], tokenizer: Any) -> HeadEnd | None:
    """Cut a finished head's output before the token holding the spec's closing brace (its last
    but any end-of-sequence ids); None if the output does not end as a head does."""
    ids = list(output_ids)
    stop_ids = set(getattr(tokenizer, "all_special_ids", ()) or ())
    while ids and ids[-1] in stop_ids:
        ids.pop()
    if not ids:
        return None
    last = tokenizer.decode(ids[-1:])
    if not last.endswith("}"):
        return None
    return HeadEnd(ids[:-1], last[:-1])


def _spec(head_text: str) -> dict[str, Any] | None:
    """The finished head as a spec, if it is one closed by its last character (the grammar
    makes it so; the stream must end whatever a backend did)."""
    try:
        spec = json.loads(head_text)
    except ValueError:
        return None
    return spec if isinstance(spec, dict) and head_text.endswith("}") else None


@dataclass(frozen=True)
class Piece:
    """New text of a generation, however many stages it runs in; `tokens` counts all so far."""

    text: str
    tokens: int
    finish_reason: str | None
    prompt_tokens: int


# vLLM's `generate(prompt, sampling_params, request_id)`, with the request's LoRA bound.
Generate = Callable[[Any, Any, str], AsyncIterator[Any]]
# A stage's sampling parameters: `max_tokens` and one of `json` (a schema) or `grammar` (EBNF).
StageParams = Callable[..., Any]


def tail_request_id(request_id: str) -> str:
    return f"{request_id}:tail"


class Run:
    """One vLLM request's delta outputs as pieces, keeping its prompt's and output's ids."""

    def __init__(self, outputs: AsyncIterator[Any], tokens_before: int = 0) -> None:
        self._outputs = outputs
        self._before = tokens_before
        self.output_ids: list[int] = []
        self.prompt_ids: list[int] = []

    async def pieces(self) -> AsyncIterator[Piece]:
        async for output in self._outputs:
            completion = output.outputs[0]
            self.output_ids += completion.token_ids
            # With delta outputs only some carry the prompt's ids; keep them once seen.
            self.prompt_ids = list(output.prompt_token_ids or ()) or self.prompt_ids
            reason = completion.finish_reason if output.finished else None
            if output.finished and reason is None:
                reason = "abort"
            tokens = self._before + len(self.output_ids)
            yield Piece(completion.text, tokens, reason, len(self.prompt_ids))


async def staged(
    generate: Generate,
    prompt: str,
    params: StageParams,
    schema: dict[str, Any],
    request_id: str,
    tokenizer: Any,
    max_tokens: int,
) -> AsyncIterator[Piece]:
    """A spec decoded as a head then a tail (the module's docstring), streamed as one text. A
    head that ends otherwise than with its closing brace (cut off, aborted) ends the generation
    as it is."""
    head = Run(
        generate(prompt, params(max_tokens=max_tokens, json=head_schema(schema)), request_id)
    )
    text = held = ""  # the head's text, and a closing brace held back from the stream
    async for piece in head.pieces():
        text += piece.text
        out = held + piece.text
        held = "}" if out.endswith("}") else ""
        if piece.finish_reason is None:
            yield Piece(out[: len(out) - len(held)], piece.tokens, None, piece.prompt_tokens)
            continue
        cut = head_end(head.output_ids, tokenizer) if piece.finish_reason == "stop" else None
        decoded = _spec(text) if cut is not None else None
        if cut is None or decoded is None:  # the head alone, as it ended
            yield Piece(out, piece.tokens, piece.finish_reason, piece.prompt_tokens)
            return
        yield Piece(out[:-1], piece.tokens, None, piece.prompt_tokens)
        tail = tail_schemas(schema, decoded)
        grammar = tail_grammar(cut.respelled, tail)
        tail_prompt = {"prompt_token_ids": head.prompt_ids + cut.kept_ids}
        left = max(1, max_tokens - len(cut.kept_ids))
        run = Run(
            generate(
                tail_prompt,
                params(max_tokens=left, grammar=grammar, spec_from=len(head.prompt_ids)),
                tail_request_id(request_id),
            ),
            tokens_before=len(cut.kept_ids),
        )
        skip = len(cut.respelled)  # streamed already, as the head's
        started = time.perf_counter()
        async for more in run.pieces():
            if started:  # the tail's grammar compile and its prompt's uncached part, in all
                log.info(
                    TAIL_STARTED,
                    ", ".join(tail.datasets) or "no datasets",
                    1000 * (time.perf_counter() - started),
                )
                started = 0.0
            yield Piece(more.text[skip:], more.tokens, more.finish_reason, piece.prompt_tokens)
            skip = max(0, skip - len(more.text))
        return
