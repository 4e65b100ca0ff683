"""A teacher's reaction to a generated material ("genau so!", "zu schwer", "keine Lückentexte mehr"): praise,
rejection or the aspect to change — or None for anything else, e.g. a new request."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, cast

from core.language.document import Doc
from core.language.preferences import preferences_of
from core.language.stopwords import word_set

FeedbackKind = Literal["positive", "negative"]
FeedbackAspect = Literal[
    "gesamt", "schwierigkeit_zu_hoch", "schwierigkeit_zu_niedrig", "laenge_zu_lang", "laenge_zu_kurz", "format"
]


@dataclass(frozen=True)
class Feedback:
    """A teacher's reaction to a generated material. `negative` means "change something"."""

    kind: FeedbackKind
    aspect: FeedbackAspect
    text: str


_CUES: dict[str, str] = {
    **{p: "pos" for p in [
        "genau so", "genauso", "genau richtig", "genau das", "perfekt", "super", "toll", "top", "prima", "spitze",
        "hervorragend", "ausgezeichnet", "sehr gut", "richtig gut", "echt gut", "total gut", "gut gemacht",
        "gut so", "so ist es gut", "so passt es", "passt so", "passt perfekt", "passt", "gefaellt mir",
        "gelungen", "sehr schoen", "wunderbar", "grossartig", "genial", "exzellent", "stark", "mega", "bestens",
        "einwandfrei", "uebernehme ich", "nehme ich so", "so lassen", "das ist gut", "klasse gemacht",
    ]},
    **{p: "neg" for p in [
        "passt nicht", "passt so nicht", "passt gar nicht", "gefaellt mir nicht", "gefaellt mir gar nicht",
        "nicht gut", "nicht gelungen", "nicht brauchbar", "unbrauchbar", "schlecht", "mies", "falsch",
        "fehlerhaft", "fehler", "quatsch", "mist", "enttaeuschend", "daneben", "nicht das was ich wollte",
        "nicht was ich wollte", "nicht zufrieden", "unzufrieden", "so nicht", "nochmal neu", "noch mal neu",
        "komplett neu", "nicht so gut", "nicht so toll", "nicht perfekt", "nicht super",
    ]},
    **{p: "schwierigkeit_zu_hoch" for p in [
        "zu schwer", "zu schwierig", "zu anspruchsvoll", "zu komplex", "zu kompliziert", "zu hoch",
        "zu hohes niveau", "niveau zu hoch", "zu viel verlangt", "ueberfordert", "ueberfordern", "ueberforderung",
        "einfacher", "leichter", "nicht so schwer", "weniger anspruchsvoll", "zu heftig", "nicht einfach genug",
        "nicht leicht genug",
    ]},
    **{p: "schwierigkeit_zu_niedrig" for p in [
        "zu leicht", "zu einfach", "zu simpel", "zu niedrig", "zu banal", "zu trivial", "niveau zu niedrig",
        "zu wenig anspruchsvoll", "unterfordert", "unterfordern", "anspruchsvoller", "schwerer", "schwieriger",
        "nicht so leicht", "nicht so einfach", "mehr afb iii", "mehr transfer", "nicht schwer genug",
        "nicht anspruchsvoll genug", "nicht schwierig genug",
    ]},
    **{p: "laenge_zu_lang" for p in [
        "zu lang", "zu lange", "zu viel", "zu viele", "zu umfangreich", "kuerzer", "weniger aufgaben",
        "nicht zu schaffen", "nicht schaffbar", "schafft keiner", "schaffen die nicht", "zeit reicht nicht",
        "zu wenig zeit", "zu knapp", "dauert laenger", "laenger als", "zu viel text",
    ]},
    **{p: "laenge_zu_kurz" for p in [
        "zu kurz", "zu wenig", "zu wenige", "mehr aufgaben", "laenger", "umfangreicher", "ausfuehrlicher",
        "zu schnell fertig", "zu schnell", "nicht lang genug", "nicht umfangreich genug",
    ]},
    **{p: "format" for p in [
        "format", "formatierung", "layout", "schriftgroesse", "tabelle", "aufgabenformat", "aufgabenformate",
        "aufgabentyp", "aufgabentypen", "multiple choice", "multiple-choice", "lueckentext", "lueckentexte",
        "bonusaufgabe", "zusatzaufgabe", "punkteverteilung", "nummerierung", "ueberschrift", "darstellung",
        "erwartungshorizont", "musterloesung", "loesungsblatt",
    ]},
}
_CUE_RE = re.compile(
    r"(?<![a-z0-9])(" + "|".join(re.escape(p).replace(r"\ ", r"\s") for p in sorted(_CUES, key=len, reverse=True))
    + r")(?![a-z0-9])"
)
_STANDING_RULE = re.compile(
    r"(?<![a-z])(?:immer|grundsaetzlich|generell|kuenftig|zukunft|naechstes\smal|jedes\smal|standardmaessig|stets)"
    r"(?![a-z])"
)
_WEAK_POSITIVE = word_set("gut schoen klasse cool nice fein gefaellt")
_CUE_NEGATED_BEFORE = re.compile(r"(?:nicht|kein|keine|nie|gar nicht)\s(?:so\s|ganz\s|wirklich\s|mehr\s)?$")
_EMOJI_POSITIVE = ("👍", "👌", "🙂", "😊", "😀", "😍", "👏", "🎉")
_EMOJI_NEGATIVE = ("👎", "🙁", "😞", "😕")
_INDEFINITE = word_set("ein eine einen einem ne nen neue neuen neues neuer weitere weiteren weiteres andere "
                        "anderen anderes noch")
_REQUEST_MATERIALS = word_set("""
    klausur klassenarbeit test quiz arbeitsblatt uebungsblatt h5p lernkontrolle material materialien""")


def _new_request_position(doc: Doc) -> int | None:
    """Where a request for *another* material starts ("… jetzt noch ein Quiz"), as a folded offset."""
    toks = doc.tokens
    for i, tok in enumerate(toks):
        f = tok.fold
        is_material = f in _REQUEST_MATERIALS or any(f.endswith(m) for m in ("klausur", "quiz", "arbeitsblatt"))
        if not is_material:
            continue
        for k in range(i - 1, max(-1, i - 4), -1):
            if toks[k + 1].brk == 2:
                break
            if toks[k].fold in _INDEFINITE:
                return toks[k].start
    return None


def classify_feedback(text: str) -> Feedback | None:
    """The teacher's reaction to a generated material, or None for anything else (a new request, a question).

    The most specific signal wins: difficulty or length complaints, then format wishes, then overall praise or
    rejection. Negated complaints ("nicht zu schwer") do not count.
    """
    doc = Doc(text, frozenset())
    if not doc.tokens and not any(e in doc.text for e in _EMOJI_POSITIVE + _EMOJI_NEGATIVE):
        return None
    fold = doc.fold
    limit = _new_request_position(doc)
    end = len(fold) if limit is None else limit
    found: dict[str, int] = {}
    for m in _CUE_RE.finditer(fold, 0, end):
        category = _CUES[" ".join(m.group(1).split())]
        negated = _CUE_NEGATED_BEFORE.search(fold[max(0, m.start() - 20):m.start()])
        if negated:  # "nicht gut" is a rejection, "nicht schlecht" praise, "nicht zu schwer" no complaint
            if category in ("pos", "neg"):
                category = "neg" if category == "pos" else "pos"
            else:
                continue
        found.setdefault(category, m.start())
    # A standing rule ("immer 5 Aufgaben", "keine Multiple Choice") is a format wish; a bare answer such as
    # "30/40/30 bitte" or "mit 5 Aufgaben" is not feedback.
    prefs = preferences_of(doc if limit is None else Doc(doc.text[: doc.ospan(0, end)[1]], frozenset())) if end else {}
    if prefs and ("dinge_vermeiden" in prefs or "bonusaufgabe" in prefs or "rechnung_theorie_ratio" in prefs
                  or _STANDING_RULE.search(fold, 0, end)):
        found.setdefault("format", 0)
    clean = (text or "").strip()
    aspects = [c for c in found if c.startswith(("schwierigkeit", "laenge"))]
    if aspects:
        aspect = cast(FeedbackAspect, min(aspects, key=lambda c: found[c]))
        return Feedback(kind="negative", aspect=aspect, text=clean)
    positive = "pos" in found or any(e in doc.text[: doc.ospan(0, end)[1] if end else 0] for e in _EMOJI_POSITIVE)
    negative = "neg" in found or any(e in doc.text for e in _EMOJI_NEGATIVE)
    if not positive and not negative and limit is None:
        words = [t.fold for t in doc.tokens]
        if 0 < len(words) <= 6 and not any(c.isdigit() for c in fold) and not fold.rstrip().endswith("?"):
            positive = any(w in _WEAK_POSITIVE for w in words) and "nicht" not in words
    if "format" in found:
        kind: FeedbackKind = "positive" if positive and not negative else "negative"
        return Feedback(kind=kind, aspect="format", text=clean)
    if negative:
        return Feedback(kind="negative", aspect="gesamt", text=clean)
    if positive:
        return Feedback(kind="positive", aspect="gesamt", text=clean)
    return None
