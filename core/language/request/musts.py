"""Clauses that name a part the material must have, beside its topic (decision 052): „…, Wirkungsgrad soll
vorkommen“, „der Reflexbogen sollte drin sein“, „bitte mit Brandbekämpfung“, „inkl. Zünfte und Hanse“, „auch
Vulkanismus“, „mit Schwerpunkt auf der Kubakrise“, „unter besonderer Berücksichtigung des Sinussatzes“.

`split` cuts such clauses out of a request and returns what they name, in the teacher's words with the leading
article; the reader reads the rest as before and adds the named things as parts. Pure regexes on bounded clauses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.language.document import MARK
from core.language.stopwords import META_WORDS
from core.language.text import fold

_END = r"(?=\s*(?:[,;.!?\n()]|\s[–—-]\s|$))"
_CLAUSE_START = r"(?:^|(?<=[,;.!?\n(])|(?<=\s[–—-]\s))"
_ITEM = r"(?P<item>[^\W\d_][^,;.!?\n()–—]{1,70}?)"
_MODAL = r"(?:soll(?:en|te|ten)?|muss|müssen|muß|müsste|müssten|darf|dürfen|könnte|könnten)"
_ADVERB = r"(?:auch|unbedingt|bitte|noch|schon|dabei|gern|gerne|mit|jedenfalls|auf\s+jeden\s+fall|möglichst)"
_PRESENT = (r"(?:vorkommen|drin\s*sein|drinnen\s+sein|dabei\s+sein|enthalten\s+sein|drankommen|behandelt\s+werden|"
            r"abgefragt\s+werden|berücksichtigt\s+werden|thematisiert\s+werden|auftauchen|rein)")
# „Wirkungsgrad soll vorkommen“, „der Reflexbogen sollte drin sein“, „signal words sollen auch vorkommen“
_BEFORE_VERB = re.compile(_CLAUSE_START + r"\s*(?:(?:und|aber|bitte|auch)\s+)*" + _ITEM + r"\s+" + _MODAL
                          + r"(?:\s+" + _ADVERB + r")*\s+" + _PRESENT + r"\b" + _END, re.I)
# „bitte mit Brandbekämpfung“, „bitte auch mit dem Versailler Vertrag“, „auch Vulkanismus“ (a clause of its own)
_LEAD_CLAUSE = re.compile(r"(?<=[,;\n])\s*(?:(?:und|aber)\s+)?(?:(?P<bitte>bitte\s+(?:auch\s+|noch\s+)?mit)|"
                          r"(?:auch|noch)\s+mit|(?P<auch>auch))\s+" + _ITEM + _END, re.I)
# „plus Wortschatz Holidays“, „dazu Vögel“, „außerdem Klimadiagramme“ (a clause of its own): an add-on is a part
_ADD_ON = re.compile(r"(?<=[,;\n])\s*(?:und\s+)?(?:plus|dazu|außerdem|ausserdem|zusätzlich|zusaetzlich)(?:\s+noch)?"
                     r"\s+(?:(?:mit|den|dem|die)\s+)?" + _ITEM + _END, re.I)
# „+ Vokabeln Clothes“, „mit Wortschatz Animals“, „plus Vokabeln zum Thema Environment“ (anywhere): the words named
_VOCABULARY = re.compile(r"\s(?:\+|plus|mit|dazu|außerdem|ausserdem|with)\s+(?:(?:dem|den)\s+)?"
                         r"(?:wortschatz|vokabeln|vokabular|vocabulary|words)\s+"
                         r"(?:(?:zum\s+thema|zum|zur|zu|on|about)\s+)?" + _ITEM + _END, re.I)
# „inkl. Zünfte und Hanse“, „inklusive Ester“, „einschließlich der Hanse“, „u. a. Hitlerputsch“ (anywhere; the
# periods of „u. a.“ are marked, core.language.request.periods)
_INCLUDING = re.compile(r"(?:,\s*|\s)(?:inkl\.?|inklusive|einschließlich|einschliesslich|unter anderem|"
                        rf"u[.{MARK}]\s?a[.{MARK}])\s+" + _ITEM + _END, re.I)
# „mit Schwerpunkt auf der Kubakrise“, „unter besonderer Berücksichtigung des Sinussatzes“: an emphasis; alone it
# is the topic („Klassenarbeit mit Schwerpunkt auf Redoxreaktionen“)
_EMPHASIS = re.compile(r"(?:,\s*|\s)(?:mit\s+(?:dem\s+|einem\s+)?(?:besonderem\s+)?(?:schwerpunkt|fokus|augenmerk)\s+"
                       r"(?:auf|bei)|unter\s+(?:besonderer\s+)?berücksichtigung(?:\s+von)?)\s+" + _ITEM + _END, re.I)

# Words that say how the material is made, not what it is about: „bitte mit Lösungen“, „auch mit drei Niveaus“.
_NOT_CONTENT = frozenset(fold(w) for w in str.split("""
    bildern bilder grafiken skizzen tabellen lösungen lösung lösungsblatt erwartungshorizont notenschlüssel
    bewertungsbogen punkten punkte zeitangaben hilfen hilfekarten tipps differenzierung niveaus niveau stufen
    sternchen zusatzaufgabe zusatzaufgaben bonusaufgabe operatoren wortliste vokabelliste glossar quellen
    quellenangaben material materialien text texten textauszug zeilennummern platz linien kästchen antworten
    gruppe gruppen version versionen variante varianten einleitung anleitung beispielen beispiel kurz lang länger
    kürzer schwerer leichter einfacher mehr weniger aufgaben fragen afb anforderungsbereich erklärung erklärungen
    deutsch englisch anweisungen lückentext"""))


@dataclass(frozen=True)
class Must:
    """A thing the material must have, as written („dem Versailler Vertrag“), and whether it was named as an
    emphasis („mit Schwerpunkt auf …“): named alone, an emphasis is the topic itself."""

    text: str
    emphasis: bool = False


def _content(item: str) -> bool:
    words = [fold(w) for w in re.findall(r"[^\W\d_]+", item)]
    return bool(words) and not any(w in _NOT_CONTENT or w in META_WORDS for w in words)


def split(text: str) -> tuple[str, tuple[Must, ...]]:
    """The request without its must-have clauses, and what they name. 'Klassenarbeit Physik 9 Energie und
    Leistung, 45 Minuten, Wirkungsgrad soll vorkommen' -> ('Klassenarbeit Physik 9 Energie und Leistung, 45
    Minuten', (Must('Wirkungsgrad'),))."""
    found: list[tuple[int, int, Must]] = []
    for rx, emphasis in ((_BEFORE_VERB, False), (_VOCABULARY, False), (_LEAD_CLAUSE, False), (_ADD_ON, False),
                         (_INCLUDING, False), (_EMPHASIS, True)):
        for m in rx.finditer(text):
            item = m.group("item").strip(" „“\"'")
            if not _content(item) or any(s < m.end() and m.start() < e for s, e, _ in found):
                continue
            if rx is _LEAD_CLAUSE and m.group("auch") and not item[:1].isupper() and item[:1].isalpha() \
                    and not _english_words(item):
                continue  # „auch gerne kürzer“: no thing named
            found.append((m.start(), m.end(), Must(item, emphasis)))
    if not found:
        return text, ()
    found.sort(key=lambda f: f[0])
    out, last = [], 0
    for start, end, _ in found:
        out.append(text[last:start])
        last = end
    out.append(text[last:])
    rest = re.sub(r"\s*,\s*(?=[,.;!?\n]|$)", "", "".join(out))
    return rest.strip(" ,;–—-"), tuple(f[2] for f in found)


def _english_words(item: str) -> bool:
    return bool(re.fullmatch(r"[a-z][a-z -]{2,40}", item.strip()))


_ADJ = re.compile(r"^[a-zäöüß]+(?:en|er)$")


def as_phrase(item: str) -> str:
    """The named thing as a phrase the reader undoes the case of: its article turned into the preposition whose
    case it is („dem radioaktiven Zerfall“ -> „zum radioaktiven Zerfall“, „Entwicklungsländern“ -> „zu
    Entwicklungsländern“); a genitive head noun undone („des Sinussatzes“ -> „Sinussatz“). English stays."""
    if _english_words(item):
        return item
    words = item.split()
    article = fold(words[0])
    rest = words[1:]
    if article in ("des", "eines") and rest:
        last = rest[-1]
        if re.search(r"(?:s|z|ß|x)es$", last) or (last.endswith("es") and len(last) > 6):
            last = last[:-2]
        elif last.endswith("s") and not last.endswith("ss"):
            last = last[:-1]
        return " ".join([*rest[:-1], last])
    if article in ("dem", "einem") and rest:
        return "zum " + " ".join(rest)
    if article in ("der", "einer") and rest:
        return ("zur " if _ADJ.match(rest[0]) else "") + " ".join(rest)
    if article == "den" and rest:
        return "zu den " + " ".join(rest)
    if article in ("die", "das") and rest:
        return " ".join(rest)
    return "zu " + item
