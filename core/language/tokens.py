"""Token estimates for texts we send to models, where no tokenizer can be downloaded (offline machines).

German text runs at roughly 3–3.5 characters per token in current BPE tokenizers; we divide by 3.2 to stay on
the safe side, so a budget checked with this estimate holds for real models too.
"""

from __future__ import annotations

import math

CHARS_PER_TOKEN = 3.2


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN) if text else 0
