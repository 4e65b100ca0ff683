"""The teacher's chat message made safe to process and store: control characters out, something printable in,
valid text, and not longer than the chat allows (longer texts go in as attached files)."""

from __future__ import annotations

import re

from core.app.errors import UserError

MAX_MESSAGE_CHARS = 4000
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean_message(message: str) -> str:
    """The message without control characters; a German UserError when nothing (valid) is left or it is too long."""
    text = _CONTROL.sub("", message or "").strip()
    # Only invisible characters (zero-width spaces, BOMs) is no message either.
    if not any(c.isprintable() and not c.isspace() for c in text):
        raise UserError("Bitte eine Nachricht eingeben, z. B. „Klausur Physik Klasse 10 zu Stromkreisen, 45 Minuten“.")
    if any("\ud800" <= c <= "\udfff" for c in text):  # undecodable bytes (e.g. a non-UTF-8 terminal) cannot be stored
        raise UserError("Die Nachricht enthält ungültige Zeichen (kein gültiger UTF-8-Text). Bitte den Text neu "
                        "eingeben oder aus einer anderen Quelle kopieren.")
    if len(text) > MAX_MESSAGE_CHARS:
        raise UserError(f"Die Nachricht ist zu lang ({len(text):,} Zeichen). Bitte kürzer fassen (höchstens "
                        f"{MAX_MESSAGE_CHARS:,} Zeichen) oder längere Texte als Datei anhängen.".replace(",", "."))
    return text
