"""Jump-forward over the text the grammar forces (`MACARON_JUMP_FORWARD=1`), as drafts.

A UI4A spec is mostly syntax the schema leaves no choice about: `{"title":"` before a word
is written, `","root":{"t":"page","c":[{"t":"` after the title, `","c":[` inside a container.
Decoded one token a step, each forced token costs a whole forward. Jump-forward decoding skips
them; done by appending text to the output it also changes what the model writes (the
forced text's tokens may not be the ones the model picks), so here the forced text becomes the
step's speculative draft instead: the model checks it in one forward with the next token, and
a greedy output stays exactly what it was without, however the forced text was tokenized.

The drafts go in where vLLM's engine core hands each request its drafts, after the step's
tokens were accepted by the request's grammar (`Scheduler.update_draft_token_ids`, called from
the engine core's `post_step`; the engine turns vLLM's async scheduling off, which skips it).
So the setting needs vLLM's speculative decoding on: the engine turns on its prompt-lookup
drafter, whose drafts are kept where the grammar forces nothing only if `MACARON_SPEC_NGRAM`
asked for them.

Where the engine asks for them (`DRAFT_LIMITS`), drafts from the adapter's own corpus
(inference/serving/corpus_drafts.py) continue any draft shorter than a step's limit, and start
one where there is none. A request whose adapter has a corpus may draft more tokens a step
than one without (8 and 4 by default): its drafts are right more often, and vLLM's limit is the
larger, so the others are cut to theirs.
"""

from __future__ import annotations

from typing import Any

from inference.serving import ngram_jit_cache
from inference.serving.busy_threads import BusyThreadsScheduler
from inference.serving.corpus_drafts import CONTEXTS, DRAFT_LIMITS, CorpusDrafts, DraftTable

# A draft token is rarely longer than this many characters of forced text.
FORCED_CHARS_PER_DRAFT = 16


def forced_text(grammar: Any) -> str:
    """What the request's grammar admits as the only continuation from here ("" when there is
    a choice, when it has ended, or for a grammar backend without jump-forward)."""
    matcher = getattr(grammar, "matcher", None)
    if matcher is None or grammar.is_terminated():
        return ""
    return str(matcher.find_jump_forward_string())


class JumpForwardScheduler(BusyThreadsScheduler):
    """vLLM's scheduler, with each structured request's draft replaced by the tokens of the
    text its grammar forces next, where it forces any; elsewhere the prompt-lookup draft is
    kept (`keep_lookup_drafts`) or dropped. Then, for a request whose adapter has a corpus,
    the draft is continued from the corpus. Its steps' threads are set as its base's are."""

    keep_lookup_drafts = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ngram_jit_cache.enable()  # the drafter that carries these drafts, compiled once
        limits = (self.vllm_config.additional_config or {}).get(DRAFT_LIMITS, {})
        # Without limits (a scheduler vLLM made without our engine), every draft may fill
        # the step, and there are no corpus drafts.
        self._lookup_limit = int(limits.get("lookup", self.num_spec_tokens))
        self._corpus_limit = int(limits.get("corpus", 0))
        self._corpus = CorpusDrafts(self._encode) if self._corpus_limit > 0 else None

    def update_draft_token_ids(self, draft_token_ids: Any) -> None:
        super().update_draft_token_ids(draft_token_ids)
        for req_id in draft_token_ids.req_ids:
            request = self.requests.get(req_id)
            if request is None or request.is_finished() or request.is_prefill_chunk:
                continue
            table = self._corpus_table(request)
            limit = self._corpus_limit if table is not None else self._lookup_limit
            forced = self._forced_drafts(request, limit)
            drafts = request.spec_token_ids[:limit] if self.keep_lookup_drafts else []
            # A lookup draft that starts with the forced tokens is kept: it may run on past them.
            if forced and drafts[: len(forced)] != forced:
                drafts = self.structured_output_manager.validate_tokens(request, forced)
            if table is not None and len(drafts) < limit:
                drafts = self._continued(request, drafts, table, limit)
            request.spec_token_ids = drafts

    def _corpus_table(self, request: Any) -> DraftTable | None:
        lora = request.lora_request
        if self._corpus is None or lora is None:
            return None
        return self._corpus.table(lora.lora_path)

    def _continued(
        self, request: Any, drafts: list[int], table: DraftTable, limit: int
    ) -> list[int]:
        """`drafts`, continued from the corpus up to `limit` tokens, as far as the grammar
        admits."""
        context = list(request.all_token_ids[-CONTEXTS[0] :]) + drafts
        more = table.draft(context, limit - len(drafts))
        if not more:
            return drafts
        return list(self.structured_output_manager.validate_tokens(request, drafts + more))

    def _encode(self, text: str) -> list[int]:
        tokenizer = self.structured_output_manager.tokenizer
        return list(tokenizer.encode(text, add_special_tokens=False))

    def _forced_drafts(self, request: Any, limit: int) -> list[int]:
        structured = request.structured_output_request
        if not request.use_structured_output or structured is None:
            return []
        grammar = structured.grammar  # None while it is still compiling
        if grammar is None or isinstance(grammar, Exception):
            return []
        # Only as much of the forced text as the drafts can hold is tokenized: a schema's
        # constant may force a long string, and this runs for every request at every step.
        text = forced_text(grammar)[: FORCED_CHARS_PER_DRAFT * limit]
        if not text:
            return []
        return self._encode(text)[:limit]


class GrammarOnlyDraftScheduler(JumpForwardScheduler):
    """Jump-forward alone: no prompt-lookup drafts where the grammar leaves a choice."""

    keep_lookup_drafts = False
