#!/usr/bin/env bash
# Stage 2: GRPO through OpenRLHF's agent interface, from the SFT epoch-1 checkpoint (or $MODEL).
# Usage: bash training/scripts/grpo.sh        (after sft.sh)   ADVANTAGE=erpo for ERPO with MEU masking.
set -euo pipefail
cd "$(dirname "$0")/../.."
source training/configs/paper.env
MODEL=${MODEL:-$(cat "$OUT/sft/epoch1_checkpoint")}

case "$ADVANTAGE" in
  group_norm) ESTIMATOR=group_norm ;;
  erpo) ESTIMATOR=flash_reinforce; export ENVFACTORY_ADVANTAGE=erpo ;;  # see training/advantage.py
  *) echo "ADVANTAGE must be group_norm or erpo, not $ADVANTAGE" >&2; exit 1 ;;
esac
export ENVFACTORY_MAX_STEPS=$MAX_STEPS

mkdir -p "$OUT/data" "$OUT/grpo"
envfactory train-data --mode "$RL_MODE" --split train --trainer openrlhf --out "$OUT/data/rl_$RL_MODE.jsonl"

python -m envfactory_training.ray_launch \
  --actor.model_name_or_path "$MODEL" \
  --train.agent_func_path "$PWD/training/openrlhf_agent.py" \
  --data.prompt_dataset "$OUT/data/rl_$RL_MODE.jsonl" \
  --data.input_key messages \
  --data.label_key label \
  --data.apply_chat_template \
  --data.max_len "$MAX_LEN" \
  --rollout.max_new_tokens "$GEN_LEN" \
  --rollout.n_samples_per_prompt "$N_SAMPLES" \
  --rollout.batch_size "$ROLLOUT_BATCH" \
  --rollout.micro_batch_size 2 \
  --rollout.temperature 1.0 \
  --train.batch_size "$TRAIN_BATCH" \
  --train.micro_batch_size 1 \
  --train.num_episodes "$RL_EPOCHS" \
  --train.max_epochs 1 \
  --algo.advantage.estimator "$ESTIMATOR" \
  --algo.kl.use_loss \
  --algo.kl.estimator k3 \
  --algo.kl.init_coef 1e-3 \
  --actor.adam.lr "$RL_LR" \
  --actor.num_nodes 1 \
  --actor.num_gpus_per_node "$GPUS" \
  --ref.num_nodes 1 \
  --ref.num_gpus_per_node "$GPUS" \
  --vllm.num_engines "$VLLM_ENGINES" \
  --vllm.tensor_parallel_size "$VLLM_TP" \
  --vllm.gpu_memory_utilization 0.6 \
  --vllm.enable_prefix_caching \
  --vllm.enable_sleep \
  --ds.enable_sleep \
  --train.colocate_all \
  --ds.zero_stage 3 \
  --ds.param_dtype bf16 \
  --ds.packing_samples \
  --actor.gradient_checkpointing_enable \
  --ckpt.path "$OUT/grpo/ckpt" \
  --ckpt.save_steps 20 \
  --ckpt.save_hf \
  --ckpt.output_dir "$OUT/grpo/final" \
  --logger.tensorboard_dir "$OUT/grpo/logs"
