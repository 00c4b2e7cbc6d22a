"""The request's own words, favoured while a UI4A spec decodes (`MACARON_COPY_BIAS`).

The ui expert's commonest failure on fresh prompts is a detail left out: a name, a column, an
option or a label the prompt gave, where the spec writes a plausible one of its training data
(bench/RESULTS.md, UI4A-Bench "missing: text"). A small additive logit on the tokens of the
designer's latest message tips the model's near-ties towards the words asked for, the way a
pointer-generator copies from its source. The grammar still decides what may come next: a
bias can only choose among the tokens it allows. Words of the schema's own vocabulary (its
keys and enum values: `button`, `table`, `open`, `danger`, ...) are not favoured: the words
are for the view's text, and a favoured `button` chose buttons where the prompt asked for
fields (bench/RESULTS.md).

vLLM's own `logit_bias` is off whenever speculative decoding is on (and ours always drafts), so
the bias travels in `SamplingParams.extra_args`, and the sampling hook (logit_rules.py) adds it
to the sampled rows of the logits in the model runner, the draft rows included, before the
sampler or the rejection sampler reads them: a draft is then checked against the same biased
choice the model would make without drafts.

A token's bias fades once the spec has written it `repeats` times: the words are needed where
the model would not write them unprompted, and a bias that never fades can hold the model in a
loop ("Sign-in to Sign-in to ..."). The count runs over the spec written so far (a staged
tail's prompt from `spec_from`, the head it continues, then the output) and, row by row, the
step's drafts before the row, so drafts still change nothing.

Where asked (`no_stutter`), a word is not favoured right after itself: where the spec has just
written a word, a favoured token that would start it again ("Signup" then " sign", "Book" then
" book") gets no bias there. The bias wrote the studio's default prompt a title "Signup signup"
and a reading list "Book book search", where the model alone writes the word once. Only the
bias is withheld; the model may still repeat a word of its own accord. It is off by default:
in three dev-set runs it met 240 to 243 requirements against 243 to 247 without it
(bench/RESULTS.md, 2026-12-06, 02:55).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from inference.serving.copy_follow import Follow, phrases
from inference.serving.step_rows import Row, Strings, asked, kept_in_batch

EXTRA_ARG = "macaron_copy_bias"
# At most this many words of a message are read, and this many tokens favoured: the cost of a
# step stays bounded whatever the message.
MAX_WORDS = 200
MAX_TOKENS = 1024
# How many of the spec's last tokens are read for the word just written: a longer word is let be.
WORD_CONTEXT = 8
TRAILING_WORD = re.compile(r"[^A-Za-z0-9]([A-Za-z0-9]+)$")
WORD = re.compile(r"[A-Za-z0-9$£€][\w$£€%'.:/-]{0,39}")
# Words every request says; favouring them would only make the labels wordier.
STOP_WORDS_TEXT = """
a an and are as at be but by can each for from has have i in into is it its me my of on or our
per should show shows so than that the their then this to us we which with you your page screen
view app want need make build create
"""
STOP_WORDS = frozenset(STOP_WORDS_TEXT.split())


def schema_words(schema: object) -> frozenset[str]:
    """Every property name and string enum or const value in a JSON schema, lower case."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.update(k.lower() for k in node.get("properties", {}))
            found.update(v.lower() for v in node.get("enum", ()) if isinstance(v, str))
            if isinstance(node.get("const"), str):
                found.add(node["const"].lower())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(found)


def content_words(message: str, vocabulary: frozenset[str] = frozenset()) -> list[str]:
    """The message's words worth copying, first appearance first, at most MAX_WORDS; trailing
    punctuation dropped; none of STOP_WORDS or `vocabulary` (lower case)."""
    seen: dict[str, None] = {}
    for match in WORD.finditer(message[: MAX_WORDS * 40]):
        word = match.group().rstrip(".:/'-")
        if word and word.lower() not in STOP_WORDS and word.lower() not in vocabulary:
            seen.setdefault(word, None)
        if len(seen) >= MAX_WORDS:
            break
    return list(seen)


def favoured_tokens(
    encode: Callable[[str], list[int]], message: str, vocabulary: frozenset[str] = frozenset()
) -> list[int]:
    """The token ids of the message's content words as a spec would spell them: as written,
    lower case and capitalised, at a string's start and after a space."""
    ids: dict[int, None] = {}
    for word in content_words(message, vocabulary):
        for form in dict.fromkeys((word, word.lower(), word[:1].upper() + word[1:])):
            for spelled in (form, " " + form):
                ids.update(dict.fromkeys(encode(spelled)))
    return list(ids)[:MAX_TOKENS]


def extra_args(
    encode: Callable[[str], list[int]],
    message: str,
    bias: float,
    schema: object = None,
    *,
    repeats: int = 0,
    no_stutter: bool = False,
    spec_from: int | None = None,
    follow: float = 0.0,
) -> dict[str, Any]:
    """`SamplingParams.extra_args` favouring `message`'s words, other than `schema`'s own
    (schema_words), by `bias`, each token until the spec has written it `repeats` times (0:
    never fades), and never right after the same word where `no_stutter`; and the next token
    of its phrases by `follow` more (copy_follow.py; 0: off); the spec starts at prompt token
    `spec_from` (None: at the output). Empty when off."""
    tokens = favoured_tokens(encode, message, schema_words(schema)) if bias > 0 else []
    if not tokens:
        return {}
    wanted = {"tokens": tokens, "bias": bias, "repeats": repeats, "spec_from": spec_from}
    if no_stutter:
        wanted["no_stutter"] = True
    if follow > 0:
        wanted |= {"follow": follow, "phrases": phrases(encode, message)}
    return {EXTRA_ARG: wanted}


class Written:
    """How often the spec so far wrote each favoured token: its part of the prompt counted
    once, its output read on from where the last step's count stopped; and the tokens written
    `repeats` times (0: none ever are), whose bias is spent; the spec's last tokens, for the
    phrases it follows (`follow`) and, where the token's texts are known (`strings`), the word
    it has just written, which is not favoured again right after itself."""

    def __init__(
        self,
        favoured: list[int],
        repeats: int,
        prompt_part: list[int],
        follow: Follow | None = None,
        strings: Strings | None = None,
    ) -> None:
        self.favoured = favoured
        self.known = frozenset(favoured)
        self.repeats = repeats
        self.follow = follow
        self.strings = strings
        self.in_prompt = [t for t in prompt_part if t in self.known]
        self.before = prompt_part[-WORD_CONTEXT:]
        self.last = self.before
        # A favoured token that starts a word (" book"): the word's start, lower case.
        self._starts: dict[int, str] | None = None
        self._unrepeated: tuple[tuple[frozenset[int], str], list[int]] | None = None
        self.counts: Counter[int] = Counter()
        self.spent: frozenset[int] = frozenset()
        self.outputs_read = 0
        self._live: tuple[frozenset[int], list[int]] = (frozenset(), favoured)
        self._count(self.in_prompt)

    def update(self, outputs: list[int]) -> None:
        if len(outputs) < self.outputs_read:  # an output is never taken back; if it were
            self.counts, self.spent, self.outputs_read = Counter(), frozenset(), 0
            self.last = self.before
            self._count(self.in_prompt)
        self._count(outputs[self.outputs_read :])
        self.last = [*self.last, *outputs[self.outputs_read :]][-WORD_CONTEXT:]
        self.outputs_read = len(outputs)

    def _count(self, written: list[int]) -> None:
        found = [t for t in written if t in self.known]
        self.counts.update(found)
        if self.repeats > 0:
            self.spent |= {t for t in found if self.counts[t] >= self.repeats}

    def live(self, spent: frozenset[int]) -> list[int]:
        """The favoured tokens not in `spent`, the same list while `spent` stays the same."""
        if spent != self._live[0]:
            self._live = (spent, [t for t in self.favoured if t not in spent])
        return self._live[1]

    def just_written(self, context: list[int]) -> str:
        """The word `context` (the spec's last tokens) ends in, lower case; "" where it ends in
        none, or the word may start before it, or a token's text is unknown."""
        if self.strings is None or min(context, default=0) < 0:  # -1: a draft vLLM left out
            return ""
        found = TRAILING_WORD.search("".join(self.strings(t) for t in context))
        return found.group(1).lower() if found else ""

    def unrepeated(self, spent: frozenset[int], word: str) -> list[int]:
        """The live tokens less those that would start `word` again (the last list kept, so
        rows alike still share it)."""
        if self._unrepeated is None or self._unrepeated[0] != (spent, word):
            again = {t for t, start in self.word_starts().items() if word.startswith(start)}
            kept = [t for t in self.live(spent) if t not in again]
            self._unrepeated = ((spent, word), kept)
        return self._unrepeated[1]

    def word_starts(self) -> dict[int, str]:
        """Each favoured token that begins a word, and the word's start it spells (lower case)."""
        if self._starts is None:
            read = self.strings or (lambda token: "")
            spelled = {t: read(t) for t in self.favoured}
            self._starts = {
                t: text[1:].lower()
                for t, text in spelled.items()
                if text[:1] == " " and text[1:].isalnum()
            }
        return self._starts

    def rows(self, count: int, drafts: list[int]) -> Iterator[list[int]]:
        """The live tokens of each of `count` rows, row j counting drafts 0..j-1 as written
        (row j is only kept if they are accepted), less those that would start again the word
        written just before the row."""
        spent, more = self.spent, Counter[int]()
        for row in range(count):
            drafted = drafts[row - 1] if row > 0 else None
            if self.repeats > 0 and drafted in self.known:
                more[drafted] += 1
                if self.counts[drafted] + more[drafted] >= self.repeats:
                    spent = spent | {drafted}
            word = self.just_written([*self.last, *drafts[:row]][-WORD_CONTEXT:])
            yield self.unrepeated(spent, word) if word else self.live(spent)

    def followed(self, count: int, drafts: list[int]) -> Iterator[tuple[int, ...]]:
        """The tokens that carry a phrase of the request on, for each of `count` rows (row j
        after drafts 0..j-1); none where phrases are not followed."""
        for row in range(count):
            context = [*self.last, *drafts[:row]][-2:]
            yield self.follow.after(context) if self.follow is not None else ()


@dataclass
class RequestRows:
    """One request's rows of a step's logits: its drafts' and the one after them."""

    first: int
    count: int
    bias: float = 0.0  # 0: the request asked for none
    written: Written | None = None
    drafts: list[int] = field(default_factory=list)  # the step's draft token ids
    follow_bias: float = 0.0  # on a phrase's next token (copy_follow.py); 0: none


def add_biases(logits: Any, batch: Iterable[RequestRows]) -> None:
    """Add each request's bias to its rows of `logits` in place: rows alike (the usual case)
    take one indexed add together."""
    import torch

    for rows in batch:
        if rows.written is None or not rows.bias:
            continue
        runs: list[tuple[int, list[int]]] = []  # (rows in the run, its tokens)
        for tokens in rows.written.rows(rows.count, rows.drafts):
            if runs and runs[-1][1] is tokens:
                runs[-1] = (runs[-1][0] + 1, tokens)
            else:
                runs.append((1, tokens))
        first = rows.first
        for count, tokens in runs:
            if tokens:
                index = torch.tensor(tokens, dtype=torch.long, device=logits.device)
                logits[first : first + count, index] += rows.bias
            first += count
        if rows.follow_bias:
            for row, next_ids in enumerate(rows.written.followed(rows.count, rows.drafts)):
                if next_ids:
                    index = torch.tensor(next_ids, dtype=torch.long, device=logits.device)
                    logits[rows.first + row, index] += rows.follow_bias


def _written(
    state: Any,
    wanted: dict[str, Any],
    kept: dict[str, Written],
    req_id: str,
    strings: Callable[[], Strings] | None,
) -> Written:
    """The request's counts of favoured tokens written, brought up to this step."""
    written = kept.get(req_id)
    if written is None:
        spec_from = wanted.get("spec_from")
        prompt = list(state.prompt_token_ids or ()) if spec_from is not None else []
        repeats = int(wanted.get("repeats") or 0)
        follow = None
        if wanted.get("follow"):
            follow = Follow.of(wanted.get("phrases") or [], frozenset(wanted["tokens"]))
        read = strings() if strings is not None and wanted.get("no_stutter") else None
        written = Written(wanted["tokens"], repeats, prompt[spec_from:], follow, read)
        kept[req_id] = written
    written.update(state.output_token_ids)
    return written


def sampled_rows(
    runner: Any, batch: Iterable[Row], strings: Callable[[], Strings] | None = None
) -> Iterable[RequestRows]:
    """The rows of each request in the runner's `batch` (step_rows.batch_rows), in batch order.
    Each biased request's counts are kept on the runner while it is in the batch (a request
    back after leaving it is counted again). `strings` gives the tokens' texts, which tell the
    word just written (None: unknown, and a word may be favoured right after itself)."""
    kept: dict[str, Written] = kept_in_batch(runner, "macaron_copy_bias_written")
    for req_id, state, first, count, mine in batch:
        wanted: dict[str, Any] | None = asked(state, EXTRA_ARG)
        if not wanted:
            yield RequestRows(first, count)
        else:
            written = _written(state, wanted, kept, req_id, strings)
            follow_bias = float(wanted.get("follow") or 0.0)
            yield RequestRows(first, count, float(wanted["bias"]), written, mine, follow_bias)
