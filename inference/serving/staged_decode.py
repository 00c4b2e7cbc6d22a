"""Staged decoding of a UI4A spec, on the engine's side: the head, then a tail built for it.

The first stage decodes the head (title, theme, root) under `ui4a.declarations.head_schema`,
which ends the spec right after the root. The last continues the same text: its prompt is the
first stage's prompt and output token ids, less the token that closed the spec, so the prefix
cache holds all of it but the last block; its grammar (`tail_grammar`) re-spells that token's
text up to the closing brace, then admits an optional `"state"` and a `"data"` that declares
every dataset the head named (`ui4a.declarations.tail_schemas`), then the brace. The caller
streams one text: the head without its closing brackets, then what the later stages add after
their re-spelled parts.

A head may open a dialog or switch to tabs it never draws: the button comes first, and a
grammar cannot look ahead to require what it aims at. Then a middle stage draws each such
dialog and tabs as the page's last children (`drawn_grammar`, `ui4a.undrawn`), cut in before
the page's closing brackets the same way; the tail follows it.

A head may also write a section again, verbatim, right after itself (`repeat_watch`): two
"Revenue" tiles alike. That copy is held back from the stream, cut out of the spec, and the
model writes on; the later stages' prompts then spell the spec as shown, without it. A head
that loops with small changes (a wizard's steps again and again, to the token limit) writes
sections with nothing new to show: after a node's second such child the head ends, closed by
its grammar, and the later stages run as after any head. So does a head in a loop of copies:
one that writes a child again, verbatim, where LOOP_COPIES copies of it were hidden, or once it
has hidden LOOP_CHARS characters of copies. The model's own context still holds what was
hidden, and greedy decoding may write copies until the token limit.

vLLM takes a request's grammar as text, so the tail's is xgrammar's own EBNF, assembled from
grammars xgrammar builds from the JSON schemas with the options the spec's grammar has.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import xgrammar as xgr

from inference.serving.repeat_watch import Copy, RepeatWatch, interchangeable_children
from inference.serving.stage_closing import JSON_OPTIONS, closing
from inference.serving.tail_budget import records_that_fit
from ui4a.declarations import (
    TailSchemas,
    first_steps,
    head_schema,
    is_staged_schema,
    tail_schemas,
)
from ui4a.undrawn import Undrawn, aimable, aiming_only_at, drawn_schema, to_draw

log = logging.getLogger(__name__)
# One line a staged generation, which UI4A-Bench reads back (bench/ui4a_bench/tail_waits.py).
TAIL_STARTED = "staged decode: the tail (%s) began %.0f ms after the head"
TARGETS_DRAWN = "staged decode: drew what the head's actions aim at but it never draws: %s"
STAGE_CLOSED = "staged decode: the %s, cut at the token limit, closed with %r"
REPEAT_DROPPED = "staged decode: the %s wrote an item again, verbatim; dropped it, closed with %r"
REPEAT_HIDDEN = "staged decode: the head wrote a %s's child again, verbatim; hid it and wrote on"
STALE_ENDED = (
    "staged decode: the head wrote a %s's second child with nothing new; ended it, with %r"
)
LOOP_ENDED = (
    "staged decode: the head wrote a %s's child again, in a loop of copies; ended it, with %r"
)
# What a stage does with an item written again, verbatim (`Stage.copies`).
Copies = Literal["kept", "hidden", "dropped"]
# A head ends at a copy written where this many were hidden already: after one, a model may
# still write on (a dashboard's tiles, then its table), and ending there lost it (2026-12-06).
LOOP_COPIES = 2
# A head ends at its next copy once it has hidden this many characters of copies. On the dev
# set (2026-12-06) the heads that ended on their own hid 272 at most; survey-04's, which wrote
# form cards and their fields again to the token limit, 1,344.
LOOP_CHARS = 600
# What closes a head whose page has children: the page's children, the page, the spec.
PAGE_END = "]}}"


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


def drawn_grammar(
    respelled: str, schema: dict[str, Any], head: dict[str, Any], targets: list[Undrawn]
) -> str:
    """The middle stage's grammar: `respelled` (the text of the head's token holding the page's
    closing bracket, up to it), the node that draws each of `targets`, then the page's end. Its
    actions aim only at the dialogs and tabs that `head` and `targets` hold."""
    parts = [_literal(respelled)] if respelled else []
    schema = aiming_only_at(schema, aimable(head, targets))
    for target in targets:
        node = xgr.Grammar.from_json_schema(
            json.dumps(drawn_schema(schema, target)), **JSON_OPTIONS
        )
        parts += [_literal(","), node]
    parts.append(_literal(PAGE_END))
    return str(xgr.Grammar.concat(*parts))


def trailing_closers(text: str) -> str:
    """The brackets and braces `text` ends with, which a later stage may cut in before: held
    back from the stream until more text follows them."""
    return text[len(text.rstrip("]}")) :]


@dataclass(frozen=True)
class HeadEnd:
    """Where the head's output is cut for the tail: the ids the tail's prompt keeps, and the
    text of the dropped token before the spec's closing brace (the tail spells it again)."""

    kept_ids: list[int]
    respelled: str


def _without_stop_ids(output_ids: list[int], tokenizer: Any) -> list[int]:
    """The output less the end-of-sequence (special) ids it ends with."""
    ids = list(output_ids)
    stop_ids = set(getattr(tokenizer, "all_special_ids", ()) or ())
    while ids and ids[-1] in stop_ids:
        ids.pop()
    return ids


def head_end(output_ids: list[int], tokenizer: Any) -> HeadEnd | None:
    """Cut a finished head's output before the token holding the spec's closing brace (its last
    but any end-of-sequence ids); None if the output does not end as a head does."""
    ids = _without_stop_ids(output_ids, tokenizer)
    if not ids:
        return None
    last = tokenizer.decode(ids[-1:])
    if not last.endswith("}"):
        return None
    return HeadEnd(ids[:-1], last[:-1])


def cut_at(output_ids: list[int], tokenizer: Any, text: str, position: int) -> HeadEnd | None:
    """Cut the output `text` was decoded from before the token holding `text[position]`: the
    ids before it and that token's text up to `position`. None if the ids do not spell `text`
    token by token (a cut there could not be re-spelled)."""
    ids = _without_stop_ids(output_ids, tokenizer)
    low, high = 0, len(ids)  # the fewest ids whose text reaches past `position`
    while low < high:
        middle = (low + high) // 2
        if len(tokenizer.decode(ids[:middle])) > position:
            high = middle
        else:
            low = middle + 1
    if low == 0:
        return None
    before = tokenizer.decode(ids[: low - 1])
    if len(before) > position or before != text[: len(before)]:
        return None
    return HeadEnd(ids[: low - 1], text[len(before) : position])


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


def hidden(copy: Copy) -> bool:
    """Whether a head hides `copy` (and writes on) rather than keep it."""
    return not copy.stale and interchangeable_children(copy.key, copy.parent)


def copies_in(versions: Sequence[str]) -> frozenset[str]:
    """The children each of `versions` (specs as text) holds twice in a row, verbatim, which a
    head would hide: in a version the designer refines, those are theirs (a card duplicated by
    hand, say), and the model's rewrite keeps them."""
    kept: set[str] = set()
    for version in versions:
        kept.update(version[c.start + 1 : c.end] for c in RepeatWatch().feed(version) if hidden(c))
    return frozenset(kept)


def loops_in(versions: Sequence[str]) -> bool:
    """Whether one of `versions` holds a node's second stale child (repeat_watch): a page the
    designer made so, sections alike but for a number, which the model's rewrite would repeat
    too, and must not end at."""
    return any(c.stale for version in versions for c in RepeatWatch().feed(version))


@dataclass
class Spec:
    """The spec's text as the stages write it, and how much of it is streamed: the brackets
    and braces it ends with are held back, since a later stage may cut in before them, and so
    is an item that may be a verbatim copy of the one before it (`repeat_watch`). The head's
    copied children are hidden from it (`hide`): the text is then no longer the model's."""

    text: str = ""
    sent: int = 0
    tokens: int = 0
    reason: str | None = None
    prompt_tokens: int = 0
    # A stage was cut at the token limit and closed by its grammar's shortest ending: the
    # generation ends with "length", however the later stages end.
    closed: bool = False
    watch: RepeatWatch = field(default_factory=RepeatWatch)
    # Where the first copy hidden from the text began, if one was (the text before it is the
    # model's own).
    hidden_from: int | None = None
    # Children written twice that are not hidden: an earlier version held them so (copies_in).
    kept: frozenset[str] = frozenset()
    # Whether the head ends after a node's second stale child, or in a loop of copies: not
    # where an earlier version held such children (loops_in).
    ends_loops: bool = True
    # How many copies were hidden where each began (the comma before it).
    hidden_at: Counter[int] = field(default_factory=Counter)
    # How many characters of copies were hidden.
    hidden_chars: int = 0

    def add(self, text: str, tokens: int, reason: str | None) -> list[Copy]:
        """Add a stage's new text; the items in it written again, verbatim (RepeatWatch)."""
        self.text, self.tokens, self.reason = self.text + text, tokens, reason
        return self.watch.feed(text)

    def hide(self, copies: list[Copy]) -> list[Copy]:
        """Cut each of `copies` that is a node's interchangeable child out of the text, with the
        comma before it (never streamed: `flush` held it back), and read on: a later copy of
        the same child is one too. The copies and stale items not hidden, as the text is now; a
        copy in a loop of copies (the module's docstring) is not hidden, and `loops` (where the
        head `ends_loops`)."""
        left: list[Copy] = []
        while copy := next((c for c in copies if self._hides(c)), None):
            log.info(REPEAT_HIDDEN, copy.parent)
            left += [c for c in copies if c.end <= copy.start and not self._hides(c)]
            after = self.text[copy.end :]
            self.cut(copy.start)
            self.hidden_from = min(copy.start, self.hidden_from or copy.start)
            self.hidden_at[copy.start] += 1
            self.hidden_chars += copy.end - copy.start
            self.text += after
            copies = self.watch.feed(after)
        return [replace(c, loops=True) if self._loops(c) else c for c in left + copies]

    def _hideable(self, copy: Copy) -> bool:
        unsent = copy.start >= self.sent
        return hidden(copy) and unsent and self.text[copy.start + 1 : copy.end] not in self.kept

    def _loops(self, copy: Copy) -> bool:
        again = self.hidden_at[copy.start] >= LOOP_COPIES
        looping = again or self.hidden_chars >= LOOP_CHARS
        return self.ends_loops and looping and self._hideable(copy)

    def _hides(self, copy: Copy) -> bool:
        return self._hideable(copy) and not self._loops(copy)

    def cut(self, position: int) -> None:
        """Drop the text from `position` on, which was held back, never streamed."""
        assert position >= self.sent, (position, self.sent)
        self.text = self.text[:position]
        self.watch.rewind(position)

    def flush(self, *, hold: bool = True, last: bool = False, copies: Copies = "kept") -> Piece:
        """What is not streamed yet (less the closers it ends with, if `hold`, and less a
        possible copy the stage would not keep: `Stage.copies`), as a piece; the `last` ends
        the generation with the last stage's finish reason."""
        keep = len(self.text) - (len(trailing_closers(self.text)) if hold else 0)
        if copies == "dropped":
            keep = min(keep, self.watch.held_from())
        elif copies == "hidden":
            keep = min(keep, self.watch.held_from(interchangeable_children))
        keep = max(keep, self.sent)
        reason = self.reason if last else None
        if reason == "stop" and self.closed:
            reason = "length"
        piece = Piece(self.text[self.sent : keep], self.tokens, reason, self.prompt_tokens)
        self.sent = keep
        return piece


# vLLM's `generate(prompt, sampling_params, request_id)`, with the request's LoRA bound.
Generate = Callable[[Any, Any, str], AsyncIterator[Any]]
# A stage's sampling parameters: `max_tokens` and one of `json` (a schema) or `grammar` (EBNF).
StageParams = Callable[..., Any]


def tail_request_id(request_id: str) -> str:
    return f"{request_id}:tail"


def targets_request_id(request_id: str) -> str:
    return f"{request_id}:targets"


def stage_request_ids(request_id: str) -> list[str]:
    """Every id a staged generation's stages may run under, for an abort."""
    return [request_id, targets_request_id(request_id), tail_request_id(request_id)]


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

    async def stop(self) -> None:
        """End the request before it finishes: closing vLLM's output stream aborts it."""
        close = getattr(self._outputs, "aclose", None)
        if close is not None:
            await close()


@dataclass
class Stage:
    """One stage's request as it streams into the spec: its name, its grammar (closing's keyword
    arguments), and how many characters it writes first that the spec holds already (the text
    of the token the stage before it was cut in, spelled again)."""

    name: str
    run: Run
    grammar: dict[str, Any]
    respelled: int = 0
    # Called at the stage's first output (the tail logs how long it waited for it).
    on_first_output: Callable[[], None] | None = None
    # The first stage: its request's prompt is the generation's (the later stages' prompts
    # hold the earlier stages' output too).
    first: bool = False
    # What the stage does with an item written again, verbatim (RepeatWatch):
    # - "dropped" (the tail): the stage ends before it. The tail's arrays are the data's rows,
    #   which end the stage, so closing it there loses no more than the copies.
    # - "hidden" (the head): a node's interchangeable child is cut out of the spec, and the
    #   model writes on. Closing the head there would lose the rest of the page: a served spec
    #   in three held such a copy, most of them whole specs after it. The head ends only after
    #   a node's second stale child (repeat_watch), a loop that changes a number at a time, or
    #   at a copy in a loop of copies (`Spec.hide`), a loop that changes nothing.
    # - "kept" (the middle stage, whose tabs' panels pair with labels).
    copies: Copies = "kept"


async def _streamed(stage: Stage, spec: Spec, ids: Ids, tokenizer: Any) -> AsyncIterator[Piece]:
    """Stream `stage` into `spec`, its ids into `ids` (after those the spec's text so far is
    spelled by, less the re-spelled token's). A verbatim copy of an array's item ends the stage
    there, closed by its grammar, as if the model had stopped; a stage cut at the token limit
    is closed too, and the spec is marked `closed`. Yields all but the stage's last piece."""
    kept = len(ids.ids)
    skip = stage.respelled
    written = ""
    began = False
    async for more in stage.run.pieces():
        if not began and stage.on_first_output is not None:
            stage.on_first_output()
        began = True
        if stage.first:
            spec.prompt_tokens = more.prompt_tokens
        written += more.text
        copies = spec.add(more.text[skip:], more.tokens, more.finish_reason)
        skip = max(0, skip - len(more.text))
        if stage.copies == "hidden":
            copies = spec.hide(copies)
        loop = _loop(copies, stage.copies, spec.ends_loops)
        if loop is not None and await _dropped(stage, spec, written, loop, ids, tokenizer):
            return
        if more.finish_reason is None:
            yield spec.flush(copies=stage.copies)
    ids.replace_after(kept, stage.run.output_ids)
    length = spec.reason == "length"
    ending = await _closed(stage, spec, written, skip, ids, tokenizer) if length else ""
    if stage.copies == "hidden" and spec.hidden_from is not None:
        ids.respell_hidden(tokenizer, written + ending, spec.text, spec.hidden_from)


async def _closed(
    stage: Stage, spec: Spec, written: str, skip: int, ids: Ids, tokenizer: Any
) -> str:
    """Close a stage cut at the token limit with its grammar's shortest ending, if it has
    one, and mark the spec `closed`; the ending ("" if none). `skip`: how much of the stage's
    re-spelled text it has yet to write (the spec holds it already)."""
    ending = await asyncio.to_thread(closing, written, **stage.grammar)
    if ending is None:
        return ""
    log.info(STAGE_CLOSED, stage.name, ending)
    copies = spec.add(ending[skip:], spec.tokens, "stop")
    if stage.copies == "hidden":  # the last item, a copy, ended only with the ending
        spec.hide(copies)
    spec.closed = True
    kept = len(_without_stop_ids(ids.ids, tokenizer))
    ids.replace_after(kept, tokenizer.encode(ending, add_special_tokens=False), by_model=False)
    return ending


def _loop(copies: list[Copy], kind: Copies, ends_loops: bool) -> Copy | None:
    """Where a stage that writes `copies` ends: a tail at its first copy, a head after the
    second stale child of a node (repeat_watch) or before a copy in a loop (`Spec.hide`)
    where it `ends_loops`; None: it writes on."""
    if kind == "dropped":
        return next((c for c in copies if not c.stale), None)
    if kind == "hidden" and ends_loops:
        return next((c for c in copies if c.stale or c.loops), None)
    return None


async def _dropped(
    stage: Stage, spec: Spec, written: str, loop: Copy, ids: Ids, tokenizer: Any
) -> bool:
    """End `stage` at `loop.start` in the spec (the comma before a verbatim copy, or after a
    stale item), closed by its grammar's shortest ending, if its grammar can close it there;
    whether it did."""
    loop_at = loop.start
    before = written[: len(written) - (len(spec.text) - loop_at)]
    ending = await asyncio.to_thread(closing, before, **stage.grammar)
    if ending is None:
        return False
    await stage.run.stop()
    if loop.loops:
        log.info(LOOP_ENDED, loop.parent, ending)
    elif loop.stale:
        log.info(STALE_ENDED, loop.parent, ending)
    else:
        log.info(REPEAT_DROPPED, stage.name, ending)
    kept = len(ids.ids)
    ids.replace_after(kept, stage.run.output_ids)
    hidden_from = spec.hidden_from
    cut = cut_at(ids.ids, tokenizer, spec.text, loop_at) if hidden_from is None else None
    spec.cut(loop_at)
    spec.add(ending, spec.tokens, "stop")
    if hidden_from is not None:  # the ids spell copies the spec no longer holds
        ids.respell_hidden(tokenizer, before + ending, spec.text, hidden_from)
    elif cut is not None:
        respelled = tokenizer.encode(cut.respelled + ending, add_special_tokens=False)
        ids.replace_after(len(cut.kept_ids), respelled, by_model=False)
    return True


async def staged(
    generate: Generate,
    prompt: str,
    params: StageParams,
    schema: dict[str, Any],
    request_id: str,
    tokenizer: Any,
    max_tokens: int,
    earlier: Sequence[str] = (),
) -> AsyncIterator[Piece]:
    """A spec decoded as a head, the dialogs and tabs it aims at but never draws, then a tail
    (the module's docstring), streamed as one text. A copied child the head writes is hidden
    unless one of the `earlier` versions of the spec (a refinement's) held it twice too: the
    designer's own, kept as they made it. The head ends after a node's second stale child,
    unless one of them held such children too. A stage cut at the token limit is closed by
    its grammar's shortest ending (`stage_closing`), and the stages after it run on what tokens
    are left (at least one each, and are closed in turn); the generation's finish reason stays
    "length". A tail that writes a data row again, verbatim (`repeat_watch`), ends before the
    copy, closed the same way, and the generation ends whole ("stop"). A stage that ends
    otherwise than as its grammar closes (aborted, or not closable) ends the generation as it
    is."""
    head_grammar = head_schema(schema)
    head = Run(generate(prompt, params(max_tokens=max_tokens, json=head_grammar), request_id))
    spec = Spec(kept=copies_in(earlier), ends_loops=not loops_in(earlier))
    # The ids the stages spell, and which the model wrote (not a closing's, which are no
    # generated tokens: the usage counts only the model's).
    ids = Ids([])
    async for piece in _streamed(
        Stage("head", head, {"json_schema": head_grammar}, first=True, copies="hidden"),
        spec,
        ids,
        tokenizer,
    ):
        yield piece
    decoded = _spec(spec.text) if spec.reason == "stop" else None
    if decoded is None:  # the head alone, as it ended
        yield spec.flush(hold=False, last=True)
        return
    targets = to_draw(schema, decoded) if spec.text.endswith(PAGE_END) else []
    page_end = len(spec.text) - len(PAGE_END)
    page = cut_at(ids.ids, tokenizer, spec.text, page_end) if targets else None
    if page is not None:
        log.info(TARGETS_DRAWN, ", ".join(f"{t.component} {t.key}" for t in targets))
        spec.cut(page_end)
        yield spec.flush()
        grammar = drawn_grammar(page.respelled, schema, decoded, targets)
        middle = Run(
            generate(
                {"prompt_token_ids": head.prompt_ids + page.kept_ids},
                params(
                    max_tokens=max(1, max_tokens - len(page.kept_ids) - ids.hidden),
                    grammar=grammar,
                    spec_from=len(head.prompt_ids),
                ),
                targets_request_id(request_id),
            ),
            tokens_before=ids.written(len(page.kept_ids)),
        )
        ids.replace_after(len(page.kept_ids), [])
        stage = Stage("targets", middle, {"ebnf": grammar}, len(page.respelled))
        async for piece in _streamed(stage, spec, ids, tokenizer):
            yield piece
        decoded = _spec(spec.text) if spec.reason == "stop" else None
        if decoded is None:
            yield spec.flush(hold=False, last=True)
            return
    cut = head_end(ids.ids, tokenizer)
    if cut is None:
        yield spec.flush(hold=False, last=True)
        return
    spec.cut(len(spec.text) - 1)  # the spec's closing brace: the tail writes it again
    yield spec.flush(hold=False)
    left = max(1, max_tokens - len(cut.kept_ids) - ids.hidden)
    tail = tail_schemas(schema, decoded, max_rows=records_that_fit(left, decoded))
    grammar = tail_grammar(cut.respelled, tail)
    tail_prompt = {"prompt_token_ids": head.prompt_ids + cut.kept_ids}
    run = Run(
        generate(
            tail_prompt,
            params(max_tokens=left, grammar=grammar, spec_from=len(head.prompt_ids)),
            tail_request_id(request_id),
        ),
        tokens_before=ids.written(len(cut.kept_ids)),
    )
    ids.replace_after(len(cut.kept_ids), [])
    started = time.perf_counter()

    def tail_began() -> None:  # the tail's grammar compile and its prompt's uncached part
        waited = 1000 * (time.perf_counter() - started)
        log.info(TAIL_STARTED, ", ".join(tail.datasets) or "no datasets", waited)

    closing_grammar = {"ebnf": grammar, "numbers": first_steps(decoded)}
    stage = Stage("tail", run, closing_grammar, len(cut.respelled), tail_began, copies="dropped")
    async for piece in _streamed(stage, spec, ids, tokenizer):
        yield piece
    yield spec.flush(hold=False, last=True)


@dataclass
class Ids:
    """The token ids the stages so far spell, and whether the model wrote each."""

    ids: list[int]
    by_model: list[bool] = field(default_factory=list)
    # About how many tokens the model wrote that the ids no longer hold: the head's hidden
    # copies (`respell_hidden`). They count as written, and against the token limit.
    hidden: int = 0

    def __post_init__(self) -> None:
        self.by_model = self.by_model or [True] * len(self.ids)

    def written(self, first: int) -> int:
        """How many of the first `first` ids the model wrote, with the hidden ones: asked only
        at a cut after the head (the page's end, the spec's closing brace), after any copy."""
        return sum(self.by_model[:first]) + self.hidden

    def respell_hidden(self, tokenizer: Any, written: str, text: str, hidden_from: int) -> None:
        """Make the head's ids (spelling `written`, the model's text) spell `text`, the head with
        copies hidden from `hidden_from` on: the model's ids before the token that position is
        in, then the rest of `text` encoded. The next stage's prompt is then the spec so far."""
        model = _without_stop_ids(self.ids, tokenizer)
        cut = cut_at(model, tokenizer, written, hidden_from)
        kept = cut.kept_ids if cut is not None else []
        rest = text[len(tokenizer.decode(kept)) :]
        respelled = [*kept, *tokenizer.encode(rest, add_special_tokens=False)]
        self.hidden += sum(self.by_model[: len(model)]) - len(respelled)
        self.replace_after(0, respelled)

    def replace_after(self, kept: int, written: list[int], *, by_model: bool = True) -> None:
        self.ids = [*self.ids[:kept], *written]
        self.by_model = [*self.by_model[:kept], *[by_model] * len(written)]
