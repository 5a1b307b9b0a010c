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


def chatml_tokenizer(
    corpus: Iterable[str], vocab_size: int = 600, chat_template: str = CHATML_TEMPLATE, split_words: bool = True
):
    """A `PreTrainedTokenizerFast` trained on `corpus`, with `<|im_start|>`/`<|im_end|>` (also eos and pad) and
    `chat_template` (default: ChatML without tools; pass a model's template, e.g. Qwen2.5's, to render `tools=`).
    `split_words=False` lets merges cross spaces and punctuation, so text that recurs in the corpus (a system
    prompt with its tool listing) becomes a few tokens: short sequences for CPU runs."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=split_words)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=["<|im_start|>", "<|im_end|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(corpus, trainer)
    wrapped = PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token="<|im_end|>", pad_token="<|im_end|>")
    wrapped.chat_template = chat_template
    return wrapped


def tiny_qwen2(tokenizer, width: int = 64, layers: int = 1, seed: int = 0):
    """A Qwen2 causal LM of `width` and `layers`, initialised at random with `seed`, sized to `tokenizer`."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=width,
        intermediate_size=4 * width,
        num_hidden_layers=layers,
        num_attention_heads=max(1, width // 64),
        num_key_value_heads=max(1, width // 64),
        max_position_embeddings=32768,
        tie_word_embeddings=True,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(seed)
    return Qwen2ForCausalLM(config)
