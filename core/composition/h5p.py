"""Compose an H5P quiz from checked questions: named sub-topics first, question types mixed, no repeats, never
padded — fewer questions with an honest note when the bank has fewer. Questions on a neighbour part fill it up only
with the teacher's consent (decision 043, as for exams: core.composition.fill_up)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.checks.duplicates import similar
from core.checks.views import TaskView
from core.composition import fill_up, head
from core.composition.candidates import QuizCandidate, Umfeld, preference_score
from core.composition.filters import focused, named_part_only, passing, quiz_view
from core.composition.parts_lexicon import covers_part, filed_as
from core.composition.report import Befund
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


def _view(c: QuizCandidate) -> TaskView:
    return replace(quiz_view(c), titel=c.unterthema)


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


def _filled(chosen: list[QuizCandidate], fill: list[QuizCandidate], anzahl: int, a: QuizAuftrag
            ) -> list[QuizCandidate]:
    """The questions on the topic's other parts that filling up to the count would add (none are added here)."""
    trial = list(chosen)
    while len(trial) < anzahl and (pick := _pick(fill, trial, a)) is not None:
        trial.append(pick)
    return trial[len(chosen):]


def _parts(added: list[QuizCandidate]) -> list[str]:
    return list(dict.fromkeys(c.unterthema for c in added if c.unterthema))


def _fill_up(chosen: list[QuizCandidate], added: list[QuizCandidate], anzahl: int, a: QuizAuftrag,
             befund: Befund) -> None:
    """A whole-topic request fills the named parts up with the topic's other parts, labelled (decisions 027, 043)."""
    if not added:
        return
    chosen += added
    befund.ausserhalb = max(0, befund.ausserhalb - len(added))
    befund.ergaenzt = True
    zu = ", ".join(f"„{u}“" for u in _parts(added)) or "weiteren Teilen des Themas"
    genannt = ", ".join(f"„{u}“" for u in a.unterthemen)
    ziel = f"damit es {anzahl} Fragen sind" if len(chosen) >= anzahl else "damit es mehr Fragen sind"
    befund.notizen.insert(0, f"Ergänzt um {anzahl_text(len(added), 'Frage')} zu {zu}, {ziel}: Zu {genannt} allein "
                          "gibt es nicht genug geprüfte Fragen. Wenn nur die genannten Teile abgefragt werden sollen, "
                          "schreiben Sie „nur …“.")


def _too_few(n: int, anzahl: int) -> bool:
    return fill_up.below_stub_line(n, anzahl, items=n, min_items=fill_up.MIN_QUESTIONS)


def _offer(chosen: list[QuizCandidate], added: list[QuizCandidate], ziel: tuple[int, list[str]], a: QuizAuftrag,
           befund: Befund) -> bool:
    """Questions on a neighbour part only with her consent (decision 043): the shorter quiz and the offer to fill
    it up — or, below the stub line, no quiz and the options first (True)."""
    (anzahl, auch), parts, n = ziel, _parts(added), len(chosen)
    option = fill_up.offer_option(parts, anzahl, einheit="Fragen")
    da = [*(u for u in a.unterthemen if u not in befund.fehlende_unterthemen), *auch]  # what it is all on
    genannt = fill_up.quoted(da) if da else f"„{a.thema}“"
    befund.ausserhalb = 0  # the offer names what „das ganze Thema“ would add
    if not fill_up.short_ok(a.zusatz) and _too_few(n, anzahl):
        befund.grund, befund.stub = fill_up.stub_reason_count(_asked(a), n, anzahl), True
        befund.angebote = (fill_up.short_option_count(n), option)
        return True
    befund.angebote = (option,)
    befund.zeit_hinweis = fill_up.offer_note_count(genannt, n, anzahl, parts)
    return False


def _stub(n: int, anzahl: int, a: QuizAuftrag, befund: Befund) -> bool:
    """Too few questions on her focus while the topic's other parts or related topics could serve: the options come
    first, the two-question quiz is one of them (decision 043) — not a stub handed out with a note."""
    if fill_up.short_ok(a.zusatz) or not (befund.ausserhalb or a.nachbarn):
        return False
    if not _too_few(n, anzahl):
        return False
    befund.grund, befund.stub = fill_up.stub_reason_count(_asked(a), n, anzahl), True
    befund.angebote = (fill_up.short_option_count(n),)
    return True


def _asked(a: QuizAuftrag) -> str:
    """What she asked for in words: the named parts („Viren, Bakterien und Impfung“), else the topic."""
    return " und ".join(", ".join(a.unterthemen).rsplit(", ", 1)) if a.unterthemen else a.thema


def _named(chosen: list[QuizCandidate], added: list[QuizCandidate], a: QuizAuftrag, befund: Befund) -> None:
    """The consented fill-up names its questions by number (decision 043; the head core.editing.notes reads)."""
    nummern = [str(i) for i, c in enumerate(chosen, 1) if c in added]
    if nummern:
        befund.ergaenzt = True
        note = fill_up.filled_note(_asked(a), nummern, f"von {len(chosen)}", _parts(added), ("Frage", "Fragen"))
        befund.notizen.insert(0, note)


def compose_h5p(a: QuizAuftrag) -> QuizComposition:
    anzahl = a.anzahl or DEFAULT_ANZAHL
    allowed = [c for c in a.candidates if c.frage.get("typ") not in a.ausgeschlossen]
    usable = passing(allowed, thema=a.thema, unterthemen=a.unterthemen, topic=a.topic, operators=(),
                     wanted=a.klassenstufe, kurs=a.kurs, avoid=a.avoid)
    usable, focus, aus = focused(usable, a.topic)
    befund = Befund(was="Übung", thema=a.thema, gewuenscht_anzahl=anzahl, nachbarn=a.nachbarn, einheit="Fragen",
                    schwerpunkt=focus.words, schwerpunkt_thema=focus.topic, ausserhalb=aus, klassenstufe=a.klassenstufe)
    usable, fill = named_part_only(usable, befund, a.thema, a.unterthemen, a.topic)
    near = fill_up.elsewhere(usable, a.topic, a.thema, a.unterthemen, _view)
    usable = [c for c in usable if c not in near]
    befund.gefunden = len(usable)
    chosen: list[QuizCandidate] = []
    for u in a.unterthemen:
        matching = [c for c in usable if covers_part([_view(c)], u, a.thema)]
        filed = [c for c in matching if filed_as(c.unterthema, u, a.thema)]  # about it, not mentioning it
        pick = _pick(filed, chosen, a) or _pick(matching, chosen, a)
        if pick is None:
            befund.fehlende_unterthemen.append(u)
        elif len(chosen) < anzahl:
            chosen.append(pick)
    while len(chosen) < anzahl and (pick := _pick(usable, chosen, a)) is not None:
        chosen.append(pick)
    nur = only_named(a.zusatz, a.unterthemen)
    # the topic's other parts serve a request naming no part, and a part its topic names („Vulkanismus“ of „Vulkane
    # und Erdbeben: Plattentektonik“): they fill up with a label (027). A part named after the topic („Ökologie:
    # Räuber-Beute-Beziehung“) is the quiz's focus: the topic's other parts are neighbours, only with her consent
    # (decisions 043, 057) — ten questions on Lotka-Volterra are not eight on the rest of ecology
    whole = fill_up.whole_topic(a.thema, a.topic) and (not a.unterthemen or fill_up.restates_title(a.unterthemen,
                                                                                                  a.topic))
    serving = [c for c in fill if whole or fill_up.said_in(c.unterthema, a.thema, a.unterthemen)]
    labelled = _filled(chosen, serving, anzahl, a) if serving and a.unterthemen and not nur else []
    _fill_up(chosen, labelled, anzahl, a, befund)
    added = [] if nur else _filled(chosen, [*(c for c in fill if c not in serving), *near], anzahl, a)
    consented = bool(added) and fill_up.consents(a.zusatz)
    if consented:
        chosen += added
        befund.ausserhalb = max(0, befund.ausserhalb - len(added))
    befund.geschafft_anzahl = len(chosen)
    items = head.quiz_items(chosen)  # none on her topic: the options first (decision 067)
    if head.judge(befund, items, a.thema, a.topic, umfang=anzahl_text(len(chosen), "Frage"),
                  chosen_short=fill_up.short_ok(a.zusatz)):
        return QuizComposition(material=None, befund=befund)
    if not chosen or added and not consented and _offer(chosen, added, (anzahl, _parts(labelled)), a, befund):
        return QuizComposition(material=None, befund=befund)
    if not added and _stub(len(chosen), anzahl, a, befund):
        return QuizComposition(material=None, befund=befund)
    order = {t: i for i, t in enumerate(TYPES)}
    chosen.sort(key=lambda c: (order.get(str(c.frage.get("typ")), 9), c.key))
    if consented:
        _named(chosen, added, a, befund)
    quellen = list({c.quelle.ref: c.quelle for c in chosen}.values())
    thema = head.title(items, a.thema, a.unterthemen, befund.fehlende_unterthemen, a.topic)
    s = H5PSet(titel=f"Übung: {thema}", fach=a.fach_name, klassenstufe=a.klassenstufe, thema=thema,
               fragen=[c.gezeigt() for c in chosen], quellen=quellen)
    s.hinweise_lehrkraft = befund.hinweise()
    return QuizComposition(material=s, befund=befund)
