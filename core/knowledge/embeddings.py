"""Pluggable embedders behind pydantic-ai's `Embedder`: an offline character-n-gram hashing model by default.

The offline model needs no download: German compounds ("Brechungswinkel", "Reihenschaltung") share character
n-grams with their parts, which is why it beats small English sentence models on our task texts.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
from pydantic_ai import Embedder, EmbeddingModel, EmbeddingResult, EmbeddingSettings, RequestUsage
from pydantic_ai.embeddings.result import EmbedInputType

from core.app.config import get_settings
from core.app.sync import run_sync
from core.language.text import fold_compatible
from db.models import EMBEDDING_DIM

# Texts are cut here before embedding: a task or query longer than this adds noise, not meaning.
MAX_EMBED_CHARS = 4000

_WORD = re.compile(r"[a-z0-9]+")

# Function words carry no topic; they only pull unrelated texts together.
STOPWORDS = frozenset({
    "a", "ab", "aber", "alle", "allem", "allen", "aller", "alles", "als", "also", "am", "an", "and", "ander",
    "andere", "anderen", "auch", "auf", "aus", "bei", "beim", "bereits", "bis", "bitte", "da", "dabei", "damit",
    "dann", "das", "dass", "dem", "den", "denen", "der", "des", "dessen", "die", "dies", "diese", "diesem",
    "diesen", "dieser", "dieses", "doch", "dort", "du", "durch", "ein", "eine", "einem", "einen", "einer",
    "eines", "er", "es", "etwa", "euch", "fuer", "gegen", "hat", "hatte", "ihnen", "ihr", "ihre", "ihren", "im",
    "in", "ist", "ja", "je", "jede", "jedem", "jeden", "jeder", "jedes", "kann", "kein", "keine", "koennen",
    "man", "mehr", "mit", "muss", "nach", "nicht", "noch", "nun", "nur", "ob", "oder", "of", "ohne", "sich",
    "sie", "sind", "so", "sowie", "the", "to", "ueber", "um", "und", "uns", "unter", "vom", "von", "vor",
    "waehrend", "war", "was", "weil", "welche", "welchen", "welcher", "wenn", "wer", "werden", "wie", "wir",
    "wird", "wo", "zu", "zum", "zur", "zwei",
})


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(fold_compatible(text[:MAX_EMBED_CHARS])) if w not in STOPWORDS and len(w) > 1]


def _bucket(feature: str, dim: int) -> tuple[int, float]:
    h = zlib.crc32(feature.encode())
    return h % dim, (1.0 if (h >> 31) & 1 else -1.0)


@lru_cache(maxsize=200_000)
def _word_features(word: str, dim: int) -> tuple[tuple[int, float], ...]:
    """Whole word (weight 1) plus its padded character 3-, 4- and 5-grams (weight shared)."""
    padded = f"#{word}#"
    grams = [padded[i : i + n] for n in (3, 4, 5) for i in range(len(padded) - n + 1)]
    out: list[tuple[int, float]] = []
    b, s = _bucket("w:" + word, dim)
    out.append((b, s * 1.0))
    weight = 1.5 / max(len(grams), 1) ** 0.5
    for g in grams:
        b, s = _bucket(g, dim)
        out.append((b, s * weight))
    return tuple(out)


def hashing_vector(text: str, dim: int = EMBEDDING_DIM) -> list[float]:
    vec = np.zeros(dim, dtype=np.float32)
    counts: dict[str, int] = {}
    for w in words(text):
        counts[w] = counts.get(w, 0) + 1
    for w, n in counts.items():
        tf = 1.0 + np.log(n)
        for b, v in _word_features(w, dim):
            vec[b] += tf * v
    norm = float(np.linalg.norm(vec))
    if norm == 0.0:
        # An empty text gets a fixed, non-zero vector so cosine distance stays defined.
        vec[0] = 1.0
        norm = 1.0
    return (vec / norm).tolist()


class HashingEmbeddingModel(EmbeddingModel):
    """Deterministic offline embedder: feature hashing of words and their character n-grams."""

    def __init__(self, dimensions: int = EMBEDDING_DIM, *, settings: EmbeddingSettings | None = None):
        super().__init__(settings=settings)
        self._dim = dimensions

    @property
    def model_name(self) -> str:
        return f"hashing-ngram-v1-{self._dim}"

    @property
    def system(self) -> str:
        return "offline"

    async def embed(
        self, inputs: str | Sequence[str], *, input_type: EmbedInputType, settings: EmbeddingSettings | None = None
    ) -> EmbeddingResult:
        inputs, settings = self.prepare_embed(inputs, settings)
        return EmbeddingResult(
            embeddings=[hashing_vector(t, self._dim) for t in inputs],
            inputs=inputs,
            input_type=input_type,
            model_name=self.model_name,
            provider_name=self.system,
            usage=RequestUsage(input_tokens=sum(len(t.split()) for t in inputs)),
        )

    async def max_input_tokens(self) -> int | None:
        return None


@lru_cache
def get_embedder() -> Embedder:
    """The configured embedder: WERKBANK_EMBEDDER=offline (default) or a pydantic-ai name like
    'openai:text-embedding-3-small' (asked for EMBEDDING_DIM dimensions so the column size fits)."""
    name = get_settings().werkbank_embedder
    if name in ("", "offline"):
        return Embedder(HashingEmbeddingModel(EMBEDDING_DIM))
    return Embedder(name, settings={"dimensions": EMBEDDING_DIM})


def embedding_model_name() -> str:
    model = get_embedder().model
    return model.model_name if isinstance(model, EmbeddingModel) else str(get_settings().werkbank_embedder)


def embed_documents(texts: Sequence[str]) -> list[list[float]]:
    if not texts:
        return []
    model = get_embedder().model
    if isinstance(model, HashingEmbeddingModel):  # fast path: no event loop for bulk seeding
        return [hashing_vector(t[:MAX_EMBED_CHARS], model._dim) for t in texts]
    result = run_sync(get_embedder().embed_documents([t[:MAX_EMBED_CHARS] for t in texts]))
    return [list(e) for e in result.embeddings]


def embed_query(text: str) -> list[float]:
    model = get_embedder().model
    if isinstance(model, HashingEmbeddingModel):
        return hashing_vector(text[:MAX_EMBED_CHARS], model._dim)
    return list(run_sync(get_embedder().embed_query(text[:MAX_EMBED_CHARS])).embeddings[0])
