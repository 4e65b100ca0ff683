"""What a reader sees in the headings that the app's title check (core.materials.titles.title_faults) does not:

- a material title that names neither the topic nor anything of the request („Klausur Englisch: Shakespeare“ for
  Macbeth), or only a year range („Klausur Geschichte: 1945-1990“);
- a material title that drops the head of what was asked („Übung: Sauerstoff, Wasserstoff und Kohlenstoffdioxid“
  for „Nachweisreaktionen für Sauerstoff, …“, „Übung: Energie“ for „chemische Reaktion und Energie“);
- „X und Y und Z“.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.checks.topics import text_stems
from core.evaluation.topic_match import names_topic
from core.language.text import fold
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur

_DOUBLE_UND = re.compile(r"\bund\b.*\bund\b")
_ONLY_YEARS = re.compile(r"^[\s\d–\-/.,:]*$")
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*")
# The frame of a request: what is made, for whom, how long — never its topic.
_FRAME_WORDS = """
    klausur klassenarbeit test kurzkontrolle lernkontrolle arbeitsblatt quiz h5p h5p-quiz übung uebung differenziert
    differenziertes differenzierte niveaus niveau levels level worksheet differentiated please bitte klasse klassen
    klassenstufe jahrgang jahrgangsstufe year grade lk gk leistungskurs grundkurs oberstufe min minuten fragen
    aufgaben anforderungsbereiche thema zum zur zu über für mit in im an auf drei three erstelle erstellen brauche
    ich eine einen ein geo the an
    mathematik mathe physik chemie biologie bio deutsch geschichte geographie erdkunde englisch english kl kurs
    material materialien lösungen erwartungshorizont afb hilfekarten sek i ii q1 q2 ep schwerpunkt
    jgst jg diff ab kannst könntest kann could can would you mach mache machen bräuchte brauchen gib hätte hätten
    """
_FRAME = frozenset(fold(w) for w in _FRAME_WORDS.split())
_COMPOUND = ("test", "klausur", "arbeit", "blatt", "quiz")  # ends of frame compounds
_ASIDE = re.compile(r"\([^()]*\)")
_WORK = re.compile(r"„([^“]+)“")
_ADJECTIVE = re.compile(r"(?:sch|är|iv|id|al|ell|ar|ig|lich|bar|los|sam|haft)(?:e|er|es|en|em)$")


def names_word(token: str, wanted: str) -> bool:
    """A word of a text names a wanted word: contains it, or is at least half of it and starts it."""
    return wanted in token or (token in wanted and 2 * len(token) >= len(wanted) and wanted.startswith(token))


def _frame(word: str) -> bool:
    """A frame word, also misspelt („Physk“, „Geschichet“, „Erkunde“ for Erdkunde)."""
    w = fold(word)
    if w.endswith(_COMPOUND) and w not in ("protest", "contest"):  # „Mathetest“, „Mathe-Klausur“, „Übungsblatt“
        return True
    return w in _FRAME or (len(w) >= 5 and any(len(f) >= 6 and not f.startswith(w) and _close(w, f) for f in _FRAME))


def _close(a: str, b: str) -> bool:
    """At most two letters apart (edits or one swap)."""
    if abs(len(a) - len(b)) > 2:
        return False
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1] <= 2


def asked_head(anfrage: str) -> str | None:
    """The head of what the teacher asked for: the first noun of her request after its frame (material, Fach,
    class, length) — an adjective before it („Deutsches Kaiserreich“) and a possessor („Shakespeare's Macbeth“ is
    about Macbeth) left out, asides in parentheses too; None when there is none."""
    tokens = [t for t in _TOKEN.findall(_ASIDE.sub(" ", anfrage)) if not _frame(t.strip("-'’"))]
    for i, token in enumerate(tokens):
        word = token.strip("-'’")
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token.endswith(("'s", "’s")) or (_ADJECTIVE.search(word) and after[:1].isupper()):
            continue
        if word[:1].isupper() and len(word) > 2:
            return word
    return None


def _genitive(anfrage: str, head: str) -> str | None:
    """The noun a head governs in the genitive („Lyrik der Romantik“ → „Romantik“), which names the request too."""
    m = re.search(re.escape(head) + r"\s+(?:der|des|von)\s+(?:\w+\s+)?([A-ZÄÖÜ][\w-]+)", anfrage)
    return m.group(1) if m else None


def _said(part: str, stems: set[str], text: str) -> bool:
    wanted = text_stems(part)
    if not wanted:  # a word the stems leave out („Frage“)
        return fold(part) in fold(text)
    joined = " ".join(stems)  # a compound's first part said in another compound: „Blütenbau“ in „Kirschblüte“
    return any(names_word(t, w) or names_word(w, t) for w in wanted for t in stems) \
        or any(len(w) >= 6 and w[:4] in joined for w in wanted)


def material_title_faults(titel: str, woerter: Sequence[str], anfrage: str) -> list[str]:
    topic = titel.split(":", 1)[-1]
    if _ONLY_YEARS.match(topic):
        return [f"Titel nennt nur Jahreszahlen: „{titel}“"]
    asked, head = text_stems(anfrage), asked_head(anfrage)
    works = _WORK.findall(anfrage)  # a work the request quotes names it too („Nathan der Weise“ for „Aufklärung: …“)
    named = [head, _genitive(anfrage, head)] if head else []
    says_head = head is None or any(n and _said(n, text_stems(topic), topic) for n in named) \
        or any(fold(w) in fold(topic) for w in works)
    if not names_topic(topic, woerter) and not any(names_word(t, w) for t in text_stems(topic) for w in asked):
        return [f"Titel nennt das Thema nicht: „{titel}“"]
    return [] if says_head else [f"Titel lässt „{head}“ weg: „{titel}“"]


def reader_title_faults(m: Klausur | DifferenziertesMaterial | H5PSet, woerter: Sequence[str],
                        anfrage: str) -> list[str]:
    faults = material_title_faults(m.titel, woerter, anfrage)
    heads = [m.titel, *(a.titel for a in m.aufgaben)] if isinstance(m, Klausur) else [m.titel]
    return faults + [f"„{h}“: doppeltes „und“" for h in heads if _DOUBLE_UND.search(h)]
