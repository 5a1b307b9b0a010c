#!/usr/bin/env bash
# Stage 1: SFT on ground-truth chats of the train split. Writes the path of the epoch-1 checkpoint (where RL
# starts, as in the paper) to $OUT/sft/epoch1_checkpoint.   Usage: MODEL=Qwen/Qwen3-4B bash training/scripts/sft.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source training/configs/paper.env
: "${MODEL:?set MODEL to a Hugging Face model name or path}"

mkdir -p "$OUT/data" "$OUT/sft"
envfactory train-data --mode sft --split train --trainer openrlhf --out "$OUT/data/sft.jsonl"
ROWS=$(wc -l < "$OUT/data/sft.jsonl")
STEPS_PER_EPOCH=$(( ROWS / SFT_BATCH ))
if (( STEPS_PER_EPOCH < 1 )); then
  echo "only $ROWS SFT chats: lower SFT_BATCH (now $SFT_BATCH) below that" >&2
  exit 1
fi

deepspeed --num_gpus "$GPUS" --module openrlhf.cli.train_sft \
  --model.model_name_or_path "$MODEL" \
  --data.dataset "$OUT/data/sft.jsonl" \
  --data.input_key messages \
  --data.apply_chat_template \
  --data.multiturn \
  --data.max_len "$MAX_LEN" \
  --train.batch_size "$SFT_BATCH" \
  --train.micro_batch_size "$SFT_MICRO_BATCH" \
  --train.max_epochs "$SFT_EPOCHS" \
  --adam.lr "$SFT_LR" \
  --ds.zero_stage 2 \
  --ds.param_dtype bf16 \
  --model.gradient_checkpointing_enable \
  --ds.packing_samples \
  --ckpt.path "$OUT/sft/ckpt" \
  --ckpt.save_steps "$STEPS_PER_EPOCH" \
  --ckpt.max_num "$SFT_EPOCHS" \
  --ckpt.save_hf \
  --ckpt.output_dir "$OUT/sft/final" \
  --logger.tensorboard_dir "$OUT/sft/logs"

echo "$OUT/sft/ckpt/global_step${STEPS_PER_EPOCH}_hf" > "$OUT/sft/epoch1_checkpoint"
echo "epoch-1 checkpoint: $(cat "$OUT/sft/epoch1_checkpoint")"
