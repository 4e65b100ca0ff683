"""Instruction-like text in an upload: "Ignoriere alle vorherigen Anweisungen", a "SYSTEM:" line, role-play, a
forged tool call, text hidden from the reader (white or tiny font, alt text, comments, invisible characters). Such an
upload is held for a curator's review; this finds the first passage that shows why (decision 028)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.safety.untrusted import looks_like_injection

# Invisible characters: zero-width, word joiners, bidi overrides, BOM; Unicode tag characters encode ASCII invisibly.
INVISIBLE = re.compile("[\u200b\u200c\u2060-\u2064\u202a-\u202e\u2066-\u2069\ufeff\U000e0000-\U000e007f]")
_TAGS = re.compile("[\U000e0020-\U000e007e]+")
# A role label in capitals ("SYSTEM:", "ASSISTANT:"), or a system prompt named as such; "System: Erde–Mond" in a
# Physik worksheet is no role label.
_ROLE = re.compile(r"^\W{0,3}(?:(?:SYSTEM|ASSISTANT|DEVELOPER)(?:[ -]?(?:PROMPT|MESSAGE|NACHRICHT))?|System-?[Pp]rompt|"
                   r"Systemnachricht|Systemanweisung)\W{0,3}\s*:", re.M)
_TOOL = re.compile(
    r"[\"'](?:tool_calls?|function_call|tool_use|tool_name|tool_call_id)[\"']\s*:"
    r"|[\"']name[\"']\s*:\s*[\"'][\w.-]+[\"']\s*,\s*[\"'](?:arguments|parameters|input|args)[\"']\s*:"
)
_MIN_HIDDEN_WORDS = 4  # white or tiny text of a few words (a hidden name, a page number) is no message to anybody
PASSAGE = 300

# What a teacher and a curator read as the reason (German).
REASONS = {
    "anweisung": "eine Anweisung an die KI („Ignoriere alle vorherigen Anweisungen …“ o. ä.)",
    "rolle": "eine Rollen-Markierung wie „SYSTEM:“, wie sie Anweisungen an eine KI vortäuscht",
    "werkzeug": "ein nachgeahmter Werkzeugaufruf (JSON), wie ihn eine KI absetzt",
    "unsichtbar": "mit unsichtbaren Zeichen versteckter Text",
    "versteckt": "für Lesende unsichtbarer Text (weiße, winzige oder ausgeblendete Schrift)",
    "alt": "eine Anweisung im Alternativtext eines Bildes",
    "kommentar": "eine Anweisung in einem Kommentar des Dokuments",
}


@dataclass(frozen=True)
class Flag:
    kind: str  # a key of REASONS
    passage: str

    @property
    def reason(self) -> str:
        return REASONS[self.kind]


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PASSAGE else text[: PASSAGE - 1] + "…"


# Ordinary teaching text the chat check reads as a jailbreak when it stands alone ("Kamera ohne Filter"): in an upload
# it counts only when a model is addressed next to it.
_PLAIN = re.compile(r"\bohne\s+(?:Filter|Zensur|Einschränkungen)\b", re.I)
_ADDRESSED = re.compile(r"\b(?:KI|AI|Modell|Assistent\w*|Bot|Chatbot|du|dich|dir|dein\w*|you|your)\b", re.I)


def _line_kind(line: str) -> str | None:
    visible = INVISIBLE.sub("", line)
    plain = [m for m in _PLAIN.finditer(visible)
             if not _ADDRESSED.search(visible[max(0, m.start() - 60): m.end() + 60])]  # near a model: not plain
    for m in reversed(plain):
        visible = visible[: m.start()] + " " + visible[m.end():]
    if looks_like_injection(visible):
        return "unsichtbar" if visible != line else "anweisung"
    if _ROLE.search(visible):
        return "rolle"
    if _TOOL.search(visible):
        return "werkzeug"
    return None


def instruction_flag(text: str, hidden: Iterable[tuple[str, str]] = ()) -> Flag | None:
    """The first reason to hold an upload: in its visible text, or in what the file hides (`hidden`: pairs of
    "versteckt" | "alt" | "kommentar" and the text found there). None for an ordinary document."""
    for kind, found in hidden:
        words = len(re.findall(r"\w+", found))
        if (kind == "versteckt" and words >= _MIN_HIDDEN_WORDS) or any(_line_kind(x) for x in found.splitlines()):
            return Flag(kind, _short(INVISIBLE.sub("", found)))
    tags = "".join(chr(ord(c) - 0xE0000) for run in _TAGS.findall(text or "") for c in run)
    if tags.strip():
        return Flag("unsichtbar", _short(tags))
    for line in (text or "").splitlines():
        if line.strip() and (kind := _line_kind(line)):
            return Flag(kind, _short(INVISIBLE.sub("", line)))
    if len(INVISIBLE.findall((text or "").lstrip("\ufeff"))) >= 20:  # a hidden payload we cannot read as words
        return Flag("unsichtbar", _short(next(ln for ln in text.splitlines() if INVISIBLE.search(ln))))
    return None
