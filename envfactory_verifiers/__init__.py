"""The verifiers environment module of the zoo: `vf-eval envfactory-verifiers -a '{"env": "notion"}'`, or
`env_id = "envfactory-verifiers"` in prime-rl. See `envfactory_training.verifiers_env` and docs/training.md."""

from envfactory_training.verifiers_env import load_environment

__all__ = ["load_environment"]
