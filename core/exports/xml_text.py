"""Text that every export can carry: XML 1.0 forbids some characters a model or a paste can produce, and the
error an export raises when a material cannot be exported as it is."""

from __future__ import annotations

import re
from collections.abc import Sequence

# Characters XML 1.0 forbids (C0 controls except tab/newline/CR, lone surrogates, U+FFFE/U+FFFF). A model or a paste
# can produce them; lxml refuses them and other parsers choke, so every export strips them first.
_XML_INVALID = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class ExportError(ValueError):
    """The material cannot be exported as it is; `fehler` says why, in German, for the teacher."""

    def __init__(self, fehler: Sequence[str]) -> None:
        self.fehler = list(fehler)
        super().__init__("Export nicht möglich: " + " ".join(self.fehler))


def xml_safe(text: str) -> str:
    """`text` without the characters XML 1.0 cannot carry."""
    return _XML_INVALID.sub("", text)
