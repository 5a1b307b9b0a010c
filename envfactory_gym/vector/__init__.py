"""Gymnasium vectorization support: `AsyncVectorEnv` shared memory that carries any Unicode observation intact.

Importing this package registers the shared-memory handlers for `UnicodeText` (the registry imports it, so
`gym.make_vec(..., vectorization_mode="async")` is correct with gymnasium's default `shared_memory=True`).
"""

from .shared_text import SharedTextBatch

__all__ = ["SharedTextBatch"]
