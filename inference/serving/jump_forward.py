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
"""

from __future__ import annotations

from typing import Any

from vllm.v1.core.sched.scheduler import Scheduler

# A draft token is rarely longer than this many characters of forced text.
FORCED_CHARS_PER_DRAFT = 16


def forced_text(grammar: Any) -> str:
    """What the request's grammar admits as the only continuation from here ("" when there is
    a choice, when it has ended, or for a grammar backend without jump-forward)."""
    matcher = getattr(grammar, "matcher", None)
    if matcher is None or grammar.is_terminated():
        return ""
    return str(matcher.find_jump_forward_string())


class JumpForwardScheduler(Scheduler):  # type: ignore[misc]
    """vLLM's scheduler, with each structured request's draft replaced by the tokens of the
    text its grammar forces next, where it forces any; elsewhere the prompt-lookup draft is
    kept (`keep_lookup_drafts`) or dropped."""

    keep_lookup_drafts = True

    def update_draft_token_ids(self, draft_token_ids: Any) -> None:
        super().update_draft_token_ids(draft_token_ids)
        for req_id in draft_token_ids.req_ids:
            request = self.requests.get(req_id)
            if request is None or request.is_finished() or request.is_prefill_chunk:
                continue
            forced = self._forced_drafts(request)
            drafts = request.spec_token_ids if self.keep_lookup_drafts else []
            # A lookup draft that starts with the forced tokens is kept: it may run on past them.
            if forced and drafts[: len(forced)] != forced:
                drafts = self.structured_output_manager.validate_tokens(request, forced)
            request.spec_token_ids = drafts

    def _forced_drafts(self, request: Any) -> list[int]:
        structured = request.structured_output_request
        if not request.use_structured_output or structured is None:
            return []
        grammar = structured.grammar  # None while it is still compiling
        if grammar is None or isinstance(grammar, Exception):
            return []
        # Only as much of the forced text as the drafts can hold is tokenized: a schema's
        # constant may force a long string, and this runs for every request at every step.
        text = forced_text(grammar)[: FORCED_CHARS_PER_DRAFT * self.num_spec_tokens]
        if not text:
            return []
        tokens = self.structured_output_manager.tokenizer.encode(text, add_special_tokens=False)
        return list(tokens[: self.num_spec_tokens])


class GrammarOnlyDraftScheduler(JumpForwardScheduler):
    """Jump-forward alone: no prompt-lookup drafts where the grammar leaves a choice."""

    keep_lookup_drafts = False
