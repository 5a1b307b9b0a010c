"""A ChatML tokenizer trained in-process (byte-level BPE, so every text round-trips) with a Qwen-style chat
template: what the CPU tests and the GPU smoke run use where no model or tokenizer can be downloaded."""

from __future__ import annotations

from collections.abc import Iterable

# ChatML as Qwen renders it: consecutive tool results share one user block, each in <tool_response> tags.
CHATML_TEMPLATE = (
    "{% for m in messages %}"
    "{% if m['role'] == 'tool' %}"
    "{% if loop.first or messages[loop.index0 - 1]['role'] != 'tool' %}{{ '<|im_start|>user' }}{% endif %}"
    "{{ '\\n<tool_response>\\n' + m['content'] + '\\n</tool_response>' }}"
    "{% if loop.last or messages[loop.index0 + 1]['role'] != 'tool' %}<|im_end|>\n{% endif %}"
    "{% else %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def chatml_tokenizer(corpus: Iterable[str], vocab_size: int = 600, chat_template: str = CHATML_TEMPLATE):
    """A `PreTrainedTokenizerFast` trained on `corpus`, with `<|im_start|>`/`<|im_end|>` (also eos and pad) and
    `chat_template` (default: ChatML without tools; pass a model's template, e.g. Qwen2.5's, to render `tools=`)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=["<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False,
    )
    tokenizer.train_from_iterator(corpus, trainer)
    wrapped = PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token="<|im_end|>", pad_token="<|im_end|>")
    wrapped.chat_template = chat_template
    return wrapped
