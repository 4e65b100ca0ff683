"""Compose an H5P quiz from checked questions: named sub-topics first, question types mixed, no repeats, never
padded — fewer questions with an honest note when the bank has fewer."""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.checks.duplicates import similar
from core.composition.candidates import QuizCandidate, Umfeld, preference_score
from core.composition.filters import focused, named_part_only, passing, quiz_view
from core.composition.parts_lexicon import covers_part, filed_as
from core.composition.report import Befund, titled
from core.composition.wishes import only_named
from core.materials.h5p import H5PSet
from core.materials.wording import anzahl as anzahl_text

DEFAULT_ANZAHL = 10
TYPES = ("multichoice", "truefalse", "blanks", "dragtext")


@dataclass
class QuizAuftrag(Umfeld):
    thema: str
    fach: str
    fach_name: str
    klassenstufe: int
    anzahl: int | None
    unterthemen: list[str]
    candidates: list[QuizCandidate]
    ausgeschlossen: frozenset[str] = frozenset()  # question types the teacher does not want
    zusatz: str = ""  # the teacher's own words („nur …“)


@dataclass
class QuizComposition:
    material: H5PSet | None
    befund: Befund


def _score(c: QuizCandidate, a: QuizAuftrag) -> float:
    return preference_score(c, salt=a.salt, primary_topics=a.primary_topics, klassenstufe=a.klassenstufe)


def _pick(pool: list[QuizCandidate], chosen: list[QuizCandidate], a: QuizAuftrag) -> QuizCandidate | None:
    views = [quiz_view(x) for x in chosen]
    counts = {t: sum(1 for x in chosen if x.frage.get("typ") == t) for t in TYPES}
    best, best_s = None, float("-inf")
    for c in pool:
        if c in chosen or any(similar(v, quiz_view(c)) for v in views):
            continue
        s = _score(c, a) - 0.35 * counts.get(str(c.frage.get("typ")), 0)
        if s > best_s:
            best, best_s = c, s
    return best


def _fill_up(chosen: list[QuizCandidate], fill: list[QuizCandidate], anzahl: int, a: QuizAuftrag,
             befund: Befund) -> None:
    """Named parts are emphasis (decision 027): too few questions on them are filled up with the topic's other
    questions, and the note says which and how to get only the named parts."""
    added: list[QuizCandidate] = []
    while len(chosen) < anzahl and (pick := _pick(fill, chosen, a)) is not None:
        chosen.append(pick)
        added.append(pick)
    if not added:
        return
    befund.ausserhalb = max(0, befund.ausserhalb - len(added))
    befund.ergaenzt = True
    subs = list(dict.fromkeys(c.unterthema for c in added if c.unterthema))
    zu = ", ".join(f"„{u}“" for u in subs) or "weiteren Teilen des Themas"
    genannt = ", ".join(f"„{u}“" for u in a.unterthemen)
    ziel = f"damit es {anzahl} Fragen sind" if len(chosen) >= anzahl else "damit es mehr Fragen sind"
    befund.notizen.insert(0, f"Ergänzt um {anzahl_text(len(added), 'Frage')} zu {zu}, {ziel}: Zu {genannt} allein "
                          "gibt es nicht genug geprüfte Fragen. Wenn nur die genannten Teile abgefragt werden sollen, "
                          "schreiben Sie „nur …“.")


def compose_h5p(a: QuizAuftrag) -> QuizComposition:
    anzahl = a.anzahl or DEFAULT_ANZAHL
    allowed = [c for c in a.candidates if c.frage.get("typ") not in a.ausgeschlossen]
    usable = passing(allowed, thema=a.thema, unterthemen=a.unterthemen, topic=a.topic, operators=(),
                     wanted=a.klassenstufe, kurs=a.kurs, avoid=a.avoid)
    usable, focus, aus = focused(usable, a.topic)
    befund = Befund(was="Übung", thema=a.thema, gewuenscht_anzahl=anzahl, nachbarn=a.nachbarn, einheit="Fragen",
                    schwerpunkt=focus.words, schwerpunkt_thema=focus.topic, ausserhalb=aus, klassenstufe=a.klassenstufe)
    usable, fill = named_part_only(usable, befund, a.thema, a.unterthemen, a.topic)
    befund.gefunden = len(usable)
    chosen: list[QuizCandidate] = []
    for u in a.unterthemen:
        matching = [c for c in usable if covers_part([replace(quiz_view(c), titel=c.unterthema)], u, a.thema)]
        filed = [c for c in matching if filed_as(c.unterthema, u, a.thema)]  # about it, not mentioning it
        pick = _pick(filed, chosen, a) or _pick(matching, chosen, a)
        if pick is None:
            befund.fehlende_unterthemen.append(u)
        elif len(chosen) < anzahl:
            chosen.append(pick)
    while len(chosen) < anzahl and (pick := _pick(usable, chosen, a)) is not None:
        chosen.append(pick)
    if fill and a.unterthemen and not only_named(a.zusatz, a.unterthemen):
        _fill_up(chosen, fill, anzahl, a, befund)
    befund.geschafft_anzahl = len(chosen)
    if not chosen:
        return QuizComposition(material=None, befund=befund)
    order = {t: i for i, t in enumerate(TYPES)}
    chosen.sort(key=lambda c: (order.get(str(c.frage.get("typ")), 9), c.key))
    quellen = list({c.quelle.ref: c.quelle for c in chosen}.values())
    thema = titled(a.thema, a.unterthemen, befund.fehlende_unterthemen)
    s = H5PSet(titel=f"Übung: {thema}", fach=a.fach_name, klassenstufe=a.klassenstufe, thema=thema,
               fragen=[c.frage for c in chosen], quellen=quellen)
    s.hinweise_lehrkraft = befund.hinweise()
    return QuizComposition(material=s, befund=befund)
