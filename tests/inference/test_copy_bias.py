"""The request's words favoured while a spec decodes (inference/serving/copy_bias.py): which
tokens, bounded for any message, added to the right rows of the logits with drafts or without,
and carried from the engine's request to vLLM's sampler."""

from __future__ import annotations

import uuid
from dataclasses import replace
from types import SimpleNamespace

import torch
from vllm.sampling_params import SamplingParams

from inference.serving import copy_bias
from inference.serving.prompts import request_for
from inference.serving.step_rows import batch_rows


def encode_words(text: str) -> list[int]:
    """A stand-in tokenizer: one id per character (enough to see which words were read)."""
    return [ord(c) for c in text]


def test_content_words_drop_the_words_every_request_says() -> None:
    words = copy_bias.content_words(
        "A profile page for Mira Okafor, a florist in Lisbon. Show a Hire button; Mira again."
    )
    assert words == ["profile", "Mira", "Okafor", "florist", "Lisbon", "Hire", "button", "again"]


def test_the_schemas_own_words_are_left_to_the_grammar() -> None:
    schema = {
        "properties": {"t": {"enum": ["button", "input"]}, "label": {"type": "string"}},
        "anyOf": [{"const": "Dialog"}],
    }
    vocabulary = copy_bias.schema_words(schema)
    assert vocabulary == {"t", "button", "input", "label", "dialog"}
    words = copy_bias.content_words("Badge ID, password and a big Enter button", vocabulary)
    assert words == ["Badge", "ID", "password", "big", "Enter"]
    assert "button" in copy_bias.content_words("an Enter button")


def test_prices_and_times_stay_whole() -> None:
    assert copy_bias.content_words("Hobby $12, Pro $49.50 at 19:00") == [
        "Hobby",
        "$12",
        "Pro",
        "$49.50",
        "19:00",
    ]


def test_any_message_is_read_within_bounds() -> None:
    huge = " ".join(f"word{i}" for i in range(100_000))
    assert len(copy_bias.content_words(huge)) == copy_bias.MAX_WORDS
    tokens = copy_bias.favoured_tokens(lambda text: [hash(text + str(i)) for i in range(3)], huge)
    assert len(tokens) == copy_bias.MAX_TOKENS


def test_every_spelling_a_spec_would_use_is_favoured() -> None:
    tokens = set(copy_bias.favoured_tokens(lambda text: [hash(text)], "lisbon"))
    assert {hash("lisbon"), hash(" lisbon"), hash("Lisbon"), hash(" Lisbon")} == tokens


def test_off_or_empty_says_nothing() -> None:
    assert copy_bias.extra_args(encode_words, "Mira Okafor", 0.0) == {}
    assert copy_bias.extra_args(encode_words, "the a and", 2.0) == {}
    said = copy_bias.extra_args(encode_words, "Mira", 2.0)
    assert said[copy_bias.EXTRA_ARG]["bias"] == 2.0
    assert set(said[copy_bias.EXTRA_ARG]["tokens"]) == {ord(c) for c in " MiraMIRA".lower() + "M"}


def params(tokens: list[int], bias: float, **more: object) -> SamplingParams:
    wanted = {"tokens": tokens, "bias": bias, **more}
    return SamplingParams(extra_args={copy_bias.EXTRA_ARG: wanted})


def runner(
    requests: dict[str, SamplingParams | None], outputs: dict[str, list[int]] | None = None
) -> SimpleNamespace:
    """vLLM's model runner as `sampled_rows` reads it: the batch's order and each request's
    sampling params, prompt and output token ids."""
    states = {
        rid: SimpleNamespace(
            sampling_params=p,
            prompt_token_ids=[],
            output_token_ids=(outputs or {}).get(rid, []),
        )
        for rid, p in requests.items()
    }
    return SimpleNamespace(input_batch=SimpleNamespace(req_ids=list(requests)), requests=states)


def drafted(*drafts: list[int]) -> SimpleNamespace:
    """A step's SpecDecodeMetadata as `sampled_rows` reads it."""
    flat = [t for ids in drafts for t in ids]
    return SimpleNamespace(
        num_draft_tokens=[len(ids) for ids in drafts], draft_token_ids=torch.tensor(flat)
    )


def test_a_requests_rows_are_its_drafts_and_the_one_after() -> None:
    batch = runner({"a": params([1], 1.0), "b": None, "c": params([2, 3], 2.0)})
    rows = [
        (r.first, r.count, r.drafts)
        for r in copy_bias.sampled_rows(batch, batch_rows(batch, drafted([4, 1], [], [2])))
    ]
    assert rows == [(0, 3, [4, 1]), (3, 1, []), (4, 2, [2])]
    rows = [
        (r.first, r.count, r.drafts) for r in copy_bias.sampled_rows(batch, batch_rows(batch, None))
    ]
    assert rows == [(0, 1, []), (1, 1, []), (2, 1, [])]


def test_only_the_asking_requests_rows_and_tokens_move() -> None:
    batch = runner({"a": params([1], 1.0), "b": SamplingParams(), "c": params([2, 3], 2.0)})
    logits = torch.zeros(6, 5)
    logits[5, 3] = float("-inf")  # a token the grammar forbids stays forbidden
    copy_bias.add_biases(
        logits, copy_bias.sampled_rows(batch, batch_rows(batch, drafted([0, 0], [], [4])))
    )
    expected = torch.zeros(6, 5)
    expected[0:3, 1] = 1.0
    expected[4:6, 2:4] = 2.0
    expected[5, 3] = float("-inf")
    assert torch.equal(logits, expected)


def biased_rows(batch: SimpleNamespace, drafts: SimpleNamespace | None, rows: int) -> torch.Tensor:
    logits = torch.zeros(rows, 5)
    copy_bias.add_biases(logits, copy_bias.sampled_rows(batch, batch_rows(batch, drafts)))
    return logits


def test_a_token_written_repeats_times_loses_its_bias() -> None:
    asking = params([1, 2], 1.0, repeats=2)
    assert biased_rows(runner({"a": asking}, {"a": [1, 0, 2]}), None, 1).tolist() == [
        [0, 1, 1, 0, 0]
    ]
    assert biased_rows(runner({"a": asking}, {"a": [1, 0, 2, 1]}), None, 1).tolist() == [
        [0, 0, 1, 0, 0]
    ]
    never = params([1, 2], 1.0, repeats=0)
    assert biased_rows(runner({"a": never}, {"a": [1] * 9}), None, 1).tolist() == [[0, 1, 1, 0, 0]]


def test_a_rows_earlier_drafts_count_as_written() -> None:
    """Row j is sampled as if drafts 0..j-1 were accepted, so it is biased as an engine
    without drafts would bias it after writing them."""
    asking = params([1, 2], 1.0, repeats=2)
    logits = biased_rows(runner({"a": asking}, {"a": [1]}), drafted([1, 2, 2]), 4)
    assert logits.tolist() == [[0, 1, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0]]


def test_a_tails_count_starts_where_its_prompt_holds_the_head() -> None:
    # The prompt is [9, 9] and the spec starts at its second token: a 9 is written already.
    asking = params([1, 4], 1.0, repeats=2, spec_from=1)
    batch = runner({"a": asking}, {"a": [4]})
    batch.requests["a"].prompt_token_ids = [4, 4]
    assert biased_rows(batch, None, 1).tolist() == [[0, 1, 0, 0, 0]]
    from_output = params([1, 4], 1.0, repeats=2)  # a head's: its prompt is the request's
    batch.requests["a"].sampling_params = from_output
    batch.macaron_copy_bias_written.clear()
    assert biased_rows(batch, None, 1).tolist() == [[0, 1, 0, 0, 1]]
    said = copy_bias.extra_args(encode_words, "Mira", 2.0, repeats=3, spec_from=7)
    assert said[copy_bias.EXTRA_ARG]["repeats"] == 3
    assert said[copy_bias.EXTRA_ARG]["spec_from"] == 7


def test_counts_follow_the_output_step_by_step_and_leave_with_the_request() -> None:
    asking = params([1], 1.0, repeats=2)
    batch = runner({"a": asking})
    outputs = batch.requests["a"].output_token_ids
    assert biased_rows(batch, None, 1)[0, 1] == 1.0
    outputs.append(1)
    assert biased_rows(batch, None, 1)[0, 1] == 1.0
    outputs.append(1)
    assert biased_rows(batch, None, 1)[0, 1] == 0.0
    assert set(batch.macaron_copy_bias_written) == {"a"}
    batch.input_batch.req_ids.clear()
    biased_rows(batch, None, 0)
    assert batch.macaron_copy_bias_written == {}


def test_the_engine_asks_for_a_specs_bias_and_no_other() -> None:
    from inference.serving.engine import VllmEngine
    from inference.settings import EngineSettings

    engine = VllmEngine.__new__(VllmEngine)  # its sampling params only: no model is loaded
    engine.settings = replace(EngineSettings.from_env(), copy_bias=2.0)
    engine._tokenizer = SimpleNamespace(encode=lambda text, add_special_tokens: encode_words(text))
    spec = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt="Mira", max_tokens=9)
    said = engine._sampling_params(spec).extra_args[copy_bias.EXTRA_ARG]
    assert said["bias"] == 2.0 and ord("M") in said["tokens"]
    # The UI4A schema's words are not favoured: "table" is a component.
    table = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt="table", max_tokens=9)
    assert copy_bias.EXTRA_ARG not in engine._sampling_params(table).extra_args
    chat = request_for(request_id=str(uuid.uuid4()), expert="chat", prompt="Mira", max_tokens=9)
    assert not engine._sampling_params(chat).extra_args
    engine.settings = replace(engine.settings, copy_bias=0.0)
    assert copy_bias.EXTRA_ARG not in engine._sampling_params(spec).extra_args


def test_rows_alike_share_one_token_list_step_after_step() -> None:
    """The steady state costs one indexed add a request a step, not one a row."""
    written = copy_bias.Written([1, 2, 3], 2, [])
    written.update([1, 1])
    first = list(written.rows(3, [7, 8]))
    assert first[0] == [2, 3] and first[0] is first[1] is first[2]
    written.update([1, 1, 7])
    assert next(written.rows(1, [])) is first[0]
    split = list(written.rows(3, [2, 2]))
    assert split == [[2, 3], [2, 3], [3]] and split[0] is split[1]


# A stand-in vocabulary for the word rule: each id's text, as the tokenizer decodes it alone.
TEXTS = {1: '":"', 2: "Sign", 3: "up", 4: " sign", 5: " book", 6: "Book", 7: " search", 8: '"'}


def test_a_word_is_not_favoured_right_after_itself() -> None:
    """ "Signup" then " sign" again, "Book" then " book": the bias withheld where a favoured
    token would start again the word just written, and only there."""
    written = copy_bias.Written([2, 3, 4, 5, 6, 7], 0, [], strings=TEXTS.__getitem__)
    written.update([1, 2, 3])  # ":"Signup
    assert next(written.rows(1, [])) == [2, 3, 5, 6, 7]
    written.update([1, 2, 3, 8])  # ":"Signup" ends the string: a word may start again
    assert next(written.rows(1, [])) == [2, 3, 4, 5, 6, 7]
    written.update([1, 2, 3, 8, 1, 6])  # ...":"Book
    assert next(written.rows(1, [])) == [2, 3, 4, 6, 7]


def test_a_draft_row_reads_the_word_its_drafts_wrote() -> None:
    written = copy_bias.Written([4, 5, 6, 7], 0, [], strings=TEXTS.__getitem__)
    written.update([1])
    rows = list(written.rows(3, [6, 7]))  # row 1 after "Book", row 2 after "Book search"
    assert rows == [[4, 5, 6, 7], [4, 6, 7], [4, 5, 6]]


def test_without_token_texts_every_word_stays_favoured() -> None:
    written = copy_bias.Written([5, 6], 0, [])
    written.update([1, 6])
    assert next(written.rows(1, [])) == [5, 6]


def test_only_a_request_that_asks_has_its_stutter_withheld() -> None:
    def biased(asking: SamplingParams) -> list[float]:
        batch = runner({"a": asking}, {"a": [1, 6]})  # ":"Book
        logits = torch.zeros(1, 9)
        rows = copy_bias.sampled_rows(batch, batch_rows(batch, None), lambda: TEXTS.__getitem__)
        copy_bias.add_biases(logits, rows)
        return [float(v) for v in logits[0, 5:7]]  # " book", "Book"

    assert biased(params([5, 6], 1.0, no_stutter=True)) == [0.0, 1.0]
    assert biased(params([5, 6], 1.0)) == [1.0, 1.0]
    said = copy_bias.extra_args(encode_words, "Mira", 2.0, no_stutter=True)
    assert said[copy_bias.EXTRA_ARG]["no_stutter"] is True
    assert "no_stutter" not in copy_bias.extra_args(encode_words, "Mira", 2.0)[copy_bias.EXTRA_ARG]


def test_a_draft_vllm_left_out_reads_as_no_word() -> None:
    """vLLM pads a step's drafts with -1 where they broke the grammar; a -1 has no text."""
    written = copy_bias.Written([5, 6], 0, [], strings=TEXTS.__getitem__)
    written.update([1])
    assert list(written.rows(3, [6, -1])) == [[5, 6], [6], [5, 6]]
