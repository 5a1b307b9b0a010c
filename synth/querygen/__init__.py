"""QueryGen (paper 3.4): from sampled tool chains to verified multi-turn tasks, with SFT and RL exports.

Stages, one module each: planning, generation (decomposition, articulation), refinement, interaction,
evaluation, masking; `pipeline.synthesize` runs them for one chain and `cli` drives many.
"""

from .context import QueryGenConfig, QueryGenContext
from .models import SynthesisError
from .pipeline import SynthesisResult, synthesize

__all__ = ["QueryGenConfig", "QueryGenContext", "SynthesisError", "SynthesisResult", "synthesize"]
