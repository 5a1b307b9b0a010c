"""Gymnasium vectorization support: `AsyncVectorEnv` shared memory that carries any Unicode observation intact.

Importing this package registers the shared-memory handlers for `UnicodeText` (the registry imports it, so
`gym.make_vec(..., vectorization_mode="async")` is correct with gymnasium's default `shared_memory=True`).
`reset_to_tasks(vec, task_ids)` starts each sub-env on its own task.
"""

from .shared_text import SharedTextBatch
from .tasks import reset_to_tasks

__all__ = ["SharedTextBatch", "reset_to_tasks"]
