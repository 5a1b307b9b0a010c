#!/usr/bin/env bash
# One GRPO run per trainer that can run on this GPU machine, with a tiny model (no downloads, no installs from the
# internet), writing the reward per step to $OUT. Run from the repository root:
#
#   OUT=/path/to/out bash benchmarks/gpu_trainers.sh              # uses what is installed
#   WHEELS=wheels OUT=... bash benchmarks/gpu_trainers.sh         # first installs the carried wheels (--no-index)
#
# Prepare WHEELS on a machine with PyPI (pure-Python wheels; torch and CUDA are the GPU machine's own):
#   pip download -d wheels --no-deps openrlhf==0.11.2 trl==1.16.0 datasets==5.2.0 accelerate==1.15.0 \
#       gymnasium sqlalchemy pydantic fastmcp ...   (what `pip install --dry-run -e .[train-test,trl]` lists)
#
# Writes $OUT/availability.txt (which trainer packages import), and for each run that can start:
#   $OUT/openrlhf_smoke/report.json      SFT then GRPO steps through OpenRLHF's real executor (gpu_tiny_grpo.py)
#   $OUT/learning/report.json, .png      SFT warm start, GRPO vs shuffled-reward control, 3 seeds (cpu_grpo_learning.py)
#   $OUT/rewards.tsv                     run, seed, step, mean reward
#   $OUT/{trl,verl,skyrl,verifiers}.log  each trainer's CPU integration test run here (TRL's GRPOTrainer step, verl's
#                                        AgentLoopWorker, skyrl-gym's make/step, verifiers' vf-eval); summary lines
#                                        in $OUT/trainer_tests.txt. verl and SkyRL GRPO runs need vLLM and a model
#                                        download (verl) or Python >= 3.12 (SkyRL's trainer): not run by this script.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-runs/gpu_trainers}"
PY="${PYTHON:-python}"
mkdir -p "$OUT"
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TRL_EXPERIMENTAL_SILENCE=1

if [[ -n "${WHEELS:-}" ]]; then
  "$PY" -m pip install --no-index --find-links "$WHEELS" --no-deps "$WHEELS"/*.whl >"$OUT/pip.log" 2>&1 \
    || echo "installing the carried wheels failed: see $OUT/pip.log" | tee -a "$OUT/availability.txt"
fi

: >"$OUT/availability.txt"
for module in torch transformers tokenizers gymnasium envfactory_gym openrlhf trl datasets verl skyrl_gym verifiers; do
  if "$PY" -c "import $module" 2>/dev/null; then
    echo "$module: $("$PY" -c "import $module; print(getattr($module, '__version__', 'present'))" 2>/dev/null)" >>"$OUT/availability.txt"
  else
    echo "$module: missing" >>"$OUT/availability.txt"
  fi
done
"$PY" -c "import torch; print('cuda:', torch.cuda.is_available(), torch.cuda.get_device_name() if torch.cuda.is_available() else '')" \
  >>"$OUT/availability.txt" 2>&1
cat "$OUT/availability.txt"
has() { grep -q "^$1: " "$OUT/availability.txt" && ! grep -q "^$1: missing" "$OUT/availability.txt"; }

if has envfactory_gym && has openrlhf && has transformers; then
  echo "== OpenRLHF executor: SFT then GRPO steps (gpu_tiny_grpo.py)"
  timeout 900 "$PY" benchmarks/gpu_tiny_grpo.py --device cuda --grpo-steps 8 --out "$OUT/openrlhf_smoke" \
    2>&1 | tee "$OUT/openrlhf_smoke.log"
  echo "== learning: GRPO vs shuffled-reward control, 3 seeds (cpu_grpo_learning.py on cuda)"
  timeout 1800 "$PY" benchmarks/cpu_grpo_learning.py --device cuda --seeds 0 1 2 --out "$OUT/learning" \
    2>&1 | tee "$OUT/learning.log"
else
  echo "skipped the OpenRLHF runs: envfactory_gym, openrlhf or transformers does not import" | tee -a "$OUT/availability.txt"
fi
if has trl && has datasets; then
  echo "== TRL GRPOTrainer with the zoo's environments (the CPU test, on this machine)"
  timeout 900 "$PY" -m pytest -q -p no:cacheprovider tests/training/test_trl_env.py -k grpo 2>&1 | tee "$OUT/trl.log"
else
  echo "skipped TRL: trl or datasets does not import" | tee -a "$OUT/availability.txt"
fi
if has verl && has transformers; then
  echo "== verl AgentLoopWorker over the zoo (the CPU test, on this machine; scripted generation server)"
  timeout 900 "$PY" -m pytest -q -p no:cacheprovider tests/training/test_verl_agent.py 2>&1 | tee "$OUT/verl.log"
else
  echo "skipped verl: verl or transformers does not import" | tee -a "$OUT/availability.txt"
fi
if has skyrl_gym; then
  echo "== SkyRL-gym text environments of the zoo (the CPU test, on this machine)"
  timeout 900 "$PY" -m pytest -q -p no:cacheprovider tests/training/test_skyrl_env.py 2>&1 | tee "$OUT/skyrl.log"
else
  echo "skipped SkyRL: skyrl_gym does not import" | tee -a "$OUT/availability.txt"
fi
# verifiers lives in its own venv (its pins conflict with this project's): ENVFACTORY_VERIFIERS_PYTHON or .venv-verifiers
VF_PY="${ENVFACTORY_VERIFIERS_PYTHON:-.venv-verifiers/bin/python}"
if [[ -x "$(dirname "$VF_PY")/vf-eval" ]]; then
  echo "== verifiers' vf-eval on envfactory-verifiers (the CPU test, scripted endpoint)"
  ENVFACTORY_VERIFIERS_PYTHON="$VF_PY" timeout 900 "$PY" -m pytest -q -p no:cacheprovider \
    tests/training/test_verifiers_env.py 2>&1 | tee "$OUT/verifiers.log"
else
  echo "skipped verifiers: no vf-eval beside $VF_PY (make install-test makes .venv-verifiers)" | tee -a "$OUT/availability.txt"
fi
: >"$OUT/trainer_tests.txt"
for run in trl verl skyrl verifiers; do  # one line per trainer test: its pytest summary
  [[ -f "$OUT/$run.log" ]] && echo "$run: $(grep -E "passed|failed|error" "$OUT/$run.log" | tail -1)" >>"$OUT/trainer_tests.txt"
done

"$PY" - "$OUT" <<'PYEOF'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
lines = ["run\tseed\tstep\treward_mean"]
smoke = out / "openrlhf_smoke" / "report.json"
if smoke.exists():
    for step, row in enumerate(json.loads(smoke.read_text())["grpo"]):
        lines.append(f"openrlhf_smoke\t0\t{step}\t{row['reward_mean']:.4f}")
learning = out / "learning" / "report.json"
if learning.exists():
    for seed in json.loads(learning.read_text())["seeds"]:
        for run in ("grpo", "control"):
            lines += [f"learning_{run}\t{seed['seed']}\t{step}\t{value:.4f}" for step, value in enumerate(seed[run])]
(out / "rewards.tsv").write_text("\n".join(lines) + "\n")
print(f"wrote {out / 'rewards.tsv'} ({len(lines) - 1} rows)")
PYEOF
