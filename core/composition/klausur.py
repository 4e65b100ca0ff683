"""Compose an exam from real tasks: filter by the gate and the level, choose under the constraints, lay out, and
say honestly what is missing. Never pads: a shorter exam that is good beats a full one that says nothing."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from core.checks.filler import has_math
from core.checks.focus import Focus
from core.checks.topicality import TopicContext, contrast_parts
from core.composition import fill_up, head, shapes, writing
from core.composition.afb_fit import afb_note, fit
from core.composition.anrede import siezen_klausur
from core.composition.candidates import TaskCandidate
from core.composition.examples import ExampleStructure
from core.composition.filters import (
    filed_apart,
    fill_ups,
    focused,
    passing,
    series_member,
    unnamed_siblings,
    wish_only,
)
from core.composition.gruppen import parallels, wants_groups, with_group_b
from core.composition.layout import aufgaben
from core.composition.oberstufe import OBERSTUFE, oberstufe_notes, select_oberstufe, spread
from core.composition.report import Befund, Nachbar, artikel
from core.composition.select import FILL_BELOW, ExamSpec, Selection, carries, contrasts, mentions, select, serves
from core.composition.wishes import names_emphasis, only_named, own_wishes
from core.language.text import fold
from core.materials.blocks import AFB_STUFEN, Quelle
from core.materials.klausur import Klausur
from core.materials.request import MaterialRequest

SHORT = 0.75  # below this share of the budget the exam is declared shorter
AFB_TOLERANZ = 10.0
_RECHENFAECHER = ("mathematik", "physik", "chemie")


@dataclass
class KlausurAuftrag:
    """Everything the exam composer needs; no database (the service gathers it)."""

    request: MaterialRequest
    fach: str  # seed key
    fach_name: str
    klassenstufe: int
    afb_ziel: dict[str, int]
    candidates: list[TaskCandidate]
    topic: TopicContext | None = None
    operators: list[str] = field(default_factory=list)
    primary_topics: tuple[str, ...] = ()
    related_topics: tuple[str, ...] = ()
    nachbarn: list[Nachbar] = field(default_factory=list)
    notes: tuple[tuple[str, tuple[str, ...]], ...] = ()  # class/school notes with their key words
    avoid: tuple[str, ...] = ()
    extra_quellen: dict[str, list[Quelle]] = field(default_factory=dict)
    notizen: list[str] = field(default_factory=list)
    vorlage: ExampleStructure | None = None  # the teacher's example exam, as a model of structure
    afb_fest: bool = True  # the AFB split was set by the teacher (request, answer, preference)


@dataclass
class Composition:
    material: Klausur | None
    befund: Befund
    selection: Selection | None = None


def budget(dauer: int) -> int:
    """Working minutes of an exam: reading the sheet and checking take the rest."""
    return round(dauer * (0.95 if dauer >= 135 else 0.9))


def dauer_for(minuten: int) -> int:
    return max(10, 5 * math.ceil(minuten / 0.9 / 5))


def _niveau(a: KlausurAuftrag) -> str:
    if a.klassenstufe <= 10:
        return "Sek I"
    return "eA" if a.request.niveau == "erhoeht" else "gA"


def _art(a: KlausurAuftrag) -> str:
    zusatz = a.request.zusatz.casefold()
    for word, name in (("lernkontrolle", "Lernkontrolle"), ("kurzkontrolle", "Kurzkontrolle"), ("test", "Test")):
        if re.search(rf"\b{word}\b", zusatz):  # „Hypothesentest“ asks for no Test
            return name
    return "Klausur" if a.klassenstufe >= 11 else "Klassenarbeit"


def _hilfsmittel(a: KlausurAuftrag, chosen: Sequence[TaskCandidate]) -> list[str]:
    rechnen = any(has_math(" ".join(t for t, _ in c.erwartung)) for c in chosen)
    if a.fach in _RECHENFAECHER and rechnen:
        if a.klassenstufe >= 11:
            return ["Taschenrechner", "Formelsammlung"]
        if a.klassenstufe >= 7:
            return ["Taschenrechner"]
    if a.klassenstufe >= 11 and a.fach == "deutsch":
        return ["Wörterbuch der deutschen Rechtschreibung"]
    if a.klassenstufe >= 11 and a.fach == "englisch":
        return ["ein- und zweisprachiges Wörterbuch"]
    return []


def _afb_note(k: Klausur, ziel: dict[str, int], pool: Sequence[TaskCandidate]) -> str | None:
    """The split outside target ±10, with the level that falls short and why (core.composition.afb_fit)."""
    verfuegbar = {s: sum(c.punkte for c in pool if c.afb == s) for s in AFB_STUFEN}
    gewaehlt = {s: sum(t.punkte for t in k.teilaufgaben() if t.afb == s) for s in AFB_STUFEN}
    return afb_note(k.afb_anteile, ziel, verfuegbar, gewaehlt)


def _fit_pool(usable: Sequence[TaskCandidate], near: Sequence[TaskCandidate], spec: ExamSpec) -> list[TaskCandidate]:
    """What the AFB fit may choose from: the request's own tasks (another topic's only on a named part, never a
    wished topic's); no fill-up task on a part she did not name and no neighbour (decisions 027, 043)."""
    keys = {c.key for c in near}
    return [c for c in fill_up.serving(usable, spec) if c.key not in keys and c.key not in spec.wish_only
            and (c.key not in spec.elsewhere or any(carries(c, u, spec) for u in spec.unterthemen))]


def _cite_notes(k: Klausur, sel: Selection) -> None:
    """A task chosen because of a class or school note names that note among its sources."""
    texts = {c.key: c.text for c in sel.chosen}
    for note, keys in sel.note_hits.items():
        wanted = {texts[key] for key in keys}
        for t in k.teilaufgaben():
            if t.text in wanted:
                t.quellen.append(Quelle(art="notiz", ref="notiz", titel=f"berücksichtigt: „{note}“"))


def _left_out(befund: Befund, a: KlausurAuftrag, siblings: Sequence[str], anzahl: int, *, narrower: bool) -> None:
    """Say which sub-topics the teacher did not name were left out; without a narrower focus they are offered like
    one (decision 014): „das ganze Thema nehmen“."""
    if not narrower and a.topic is not None and a.topic.resolved:
        befund.schwerpunkt = tuple(a.request.unterthemen) or (a.request.thema,)
        befund.schwerpunkt_thema = a.topic.resolved[0].thema
        befund.ausserhalb = anzahl
    befund.notizen.append(_left_out_line(a, siblings))


def _left_out_line(a: KlausurAuftrag, siblings: Sequence[str]) -> str:
    genannt = ", ".join(f"„{u}“" for u in a.request.unterthemen or (a.request.thema,))
    return f"Nur {genannt}: Aufgaben zu {', '.join(f'„{s}“' for s in siblings)} wurden nicht verwendet."


def _may_fill(a: KlausurAuftrag, focus: Focus) -> bool:
    """Named parts are emphasis, not the whole exam (decision 027): a list of sub-topics or a marked emphasis
    („(…)“, „mit Schwerpunkt …“) may be filled up with the topic's other tasks — not when the teacher says „nur …“,
    and not when she names a skill („Brüche addieren“): that skill is what the exam tests."""
    req = a.request
    if focus.subject or not (req.unterthemen or names_emphasis(req.zusatz)):
        return False
    return not only_named(req.zusatz, list(req.unterthemen) or list(focus.words) or [req.thema])


def _filled_note(a: KlausurAuftrag, focus: Focus, added: Sequence[TaskCandidate], gesamt: int, dauer: int) -> str:
    named = ", ".join(a.request.unterthemen or focus.words or (a.request.thema,))
    subs = list(dict.fromkeys(c.unterthema for c in added if c.unterthema))
    zu = " und ".join(", ".join(f"„{s}“" for s in subs).rsplit(", ", 1)) if subs else "weiteren Teilen des Themas"
    punkte = sum(c.punkte for c in added)
    ziel = f"damit die {dauer} Minuten gefüllt sind" if dauer == (a.request.dauer_minuten or 45) else \
        "um die Bearbeitungszeit so weit wie möglich zu füllen"
    return (f"Ergänzt um Aufgaben zu {zu} ({punkte} von {gesamt} Punkten), {ziel}: Zu „{named}“ allein gibt es "
            "nicht genug geprüfte Aufgaben. Wenn nur die genannten Teile geprüft werden sollen, schreiben Sie "
            f"„nur …“ – dann wird {artikel(_art(a), kuerzer=False)} kürzer.")


def _consented_note(a: KlausurAuftrag, added: Sequence[TaskCandidate], refs: dict[str, str], gesamt: int) -> str:
    """After her consent (decision 043): which tasks are on the neighbour parts."""
    wo = list(dict.fromkeys(refs.get(c.key, "?") for c in added))
    return fill_up.filled_note(a.request.thema, wo, f"{sum(c.punkte for c in added)} von {gesamt} Punkten",
                               fill_up.names(added))


def _say_left_out(befund: Befund, a: KlausurAuftrag, sel: Selection, fill: Sequence[TaskCandidate],
                  siblings: Sequence[str], anzahl: int, *, narrower: bool) -> list[TaskCandidate]:
    """The notes on what was left out, said from what the exam holds (a sub-topic with a task in it was not left
    out); returns the fill-up tasks the exam got."""
    fill_keys = {c.key for c in fill}
    added = [c for c in sel.chosen if c.key in fill_keys]
    unused = [u for u in siblings if fold(u) not in {fold(c.unterthema) for c in sel.chosen}]
    if added:  # filled up: only a series member she left out on purpose is worth a word
        unused = [u for u in unused if series_member(u, a.request.unterthemen)]
        if unused:
            befund.notizen.append(_left_out_line(a, unused))
    elif unused:
        _left_out(befund, a, unused, anzahl, narrower=narrower)
    return added


def _near(usable: Sequence[TaskCandidate], fill: Sequence[TaskCandidate], spec: ExamSpec) -> list[TaskCandidate]:
    """The neighbour tasks: on the topic's unnamed parts or filed under another topic, carrying no named part —
    they fill the exam only with the teacher's consent (decision 043)."""
    return [c for c in fill if not serves(c, spec, sibling=True)] + [c for c in usable if not serves(c, spec)]


def _choose(a: KlausurAuftrag, usable: list[TaskCandidate], fill: list[TaskCandidate], near: list[TaskCandidate],
            spec: ExamSpec, befund: Befund | None = None) -> Selection:
    """Oberstufe: few large material Aufgaben (issue #10, core.composition.oberstufe), with a note when the bank
    does not allow it; at every level no Aufgabe with 40 % of the points in an exam of three or more. `near`: the
    neighbour tasks (`_near`), which fill up around the tasks that serve the request only with her consent."""
    oben, raw = a.klassenstufe >= OBERSTUFE, usable  # before serving() narrows it
    usable, fill = fill_up.serving(usable, spec), [*fill_up.serving(fill, spec, sibling=True),
                                                   *(near if spec.fill_ok else [])]
    sel = oben and select_oberstufe(usable, spec, fill, request=f"{a.request.thema} {a.request.zusatz}") or \
        select(usable, spec, fill)
    spread(sel, [c for c in [*usable, *fill] if c not in near], spec, oberstufe=oben)  # never for a neighbour
    fit(sel, _fit_pool(raw, near, spec), spec, oberstufe=oben)
    sel.note_hits = {n[0]: [c.key for c in sel.chosen if mentions(c, n)] for n in spec.notes}  # spread may swap
    if oben and befund is not None:
        befund.notizen += oberstufe_notes(sel, spec)
    return sel


def _offer(a: KlausurAuftrag, usable: list[TaskCandidate], fill: list[TaskCandidate], near: list[TaskCandidate],
           spec: ExamSpec, sel: Selection) -> list[TaskCandidate]:
    """The neighbour tasks the exam would get if she consents to fill it up — the exam that offer names is the one
    she then gets (decision 043); none when the on-topic tasks fill the time or the neighbours add none."""
    if spec.fill_ok or sel.minuten >= FILL_BELOW * spec.budget_minuten or not near:
        return []
    trial = _choose(a, usable, fill, near, replace(spec, fill_ok=True))
    return fill_up.neighbours(trial.chosen, near) if trial.minuten > sel.minuten else []


def _stub(a: KlausurAuftrag, sel: Selection, spec: ExamSpec) -> bool:
    """Too little on topic to hand out (decisions 043, 057): under 40 % of the time or a single task — whether or
    not neighbours could fill it, the options come first. Not after she chose the short exam."""
    if fill_up.short_ok(a.request.zusatz) or spec.budget_minuten < fill_up.MIN_BUDGET \
            or sel.minuten >= FILL_BELOW * spec.budget_minuten:  # one essay that fills the time is an exam
        return False
    return fill_up.below_stub_line(sel.minuten, spec.budget_minuten, items=len(sel.chosen), min_items=2)


def _say_offer(a: KlausurAuftrag, befund: Befund, sel: Selection, spec: ExamSpec, offer: Sequence[TaskCandidate],
               zeit: tuple[int, int]) -> bool:
    """The shorter exam is all on topic and filling up, where neighbours could, is her choice (decision 043): the
    note and the offer — or, with too little on topic or none on her topic, no exam and the options first, the short
    exam one of them (True; decisions 057, 067)."""
    (dauer_neu, dauer), thema = zeit, a.request.thema
    items = head.exam_items(sel.chosen, spec)
    if head.judge(befund, items, thema, a.topic, umfang=f"Aufgaben für ca. {dauer_neu} Minuten",
                  chosen_short=fill_up.short_ok(a.request.zusatz)):  # none on her topic: options first (067)
        return True
    in_exam = {fold(c.unterthema) for c in sel.chosen if c.unterthema}  # a part the exam has is no neighbour to add
    parts = [p for p in fill_up.names(offer) if fold(p) not in in_exam]
    option = (fill_up.offer_option(parts, dauer),) if offer else ()
    if _stub(a, sel, spec):
        befund.geschafft_minuten, befund.grund = 0, fill_up.stub_reason(thema, dauer_neu, dauer)
        befund.angebote, befund.stub = (fill_up.short_option(dauer_neu), *option), True
        return True
    if offer:
        befund.angebote = option
        befund.zeit_hinweis = fill_up.offer_note(thema, dauer_neu, dauer, parts)
    return False


def _spec(a: KlausurAuftrag, usable: list[TaskCandidate], fill: list[TaskCandidate], dauer: int,
          afb_ziel: dict[str, int]) -> ExamSpec:
    req = a.request
    return ExamSpec(klassenstufe=a.klassenstufe, budget_minuten=budget(dauer), afb_ziel=afb_ziel, thema=req.thema,
                    unterthemen=tuple(req.unterthemen), wuensche=tuple((w.thema, w.afb) for w in req.afb_wuensche),
                    primary_topics=a.primary_topics, related_topics=a.related_topics, notes=a.notes,
                    avoid=a.avoid, fill_ok=fill_up.consents(req.zusatz), whole_topic=fill_up.whole_topic(req.thema,
                    a.topic), other_words=fill_up.other_title_words(req.thema, a.topic),
                    salt=f"{req.fach}|{req.thema}|{a.klassenstufe}|{dauer}|"
                         f"{fill_up.without_choice(own_wishes(req.zusatz))}",
                    max_aufgaben=req.anzahl or (a.vorlage.aufgaben if a.vorlage else None),
                    operatoren=a.vorlage.operatoren if a.vorlage else (),
                    wish_only=frozenset(wish_only([*usable, *fill], a.topic)),
                    elsewhere=frozenset(filed_apart(usable, a.topic)),
                    prefer_generated=wants_groups(req.zusatz, req.gruppen),
                    topic_titles={t.id: t.thema for t in a.topic.resolved} if a.topic else {},
                    seiten=tuple(contrast_parts(req.thema, req.unterthemen, req.zusatz)))


def _writing_exam(a: KlausurAuftrag, dauer: int) -> Composition | None:
    """An essay on the one issue she names, with its preparation tasks — or the reason there is none (decision 054).
    Tasks are taken as the final gate will judge them; when that gate would refuse the essay because her words
    resolve to another topic („Erörterung 'Soziale Medien'“ → Zeitung und Medien), the usual composer decides."""
    req = a.request
    loose = passing(a.candidates, thema=req.thema, unterthemen=req.unterthemen, topic=None, operators=a.operators,
                    wanted=a.klassenstufe, kurs=req.niveau, avoid=a.avoid)
    usable = writing.as_the_gate_judges(loose, req, a.topic, a.operators)
    if (w := writing.plan(req, usable, budget_minuten=budget(dauer), klassenstufe=a.klassenstufe)) is None:
        return None
    if not w.chosen and writing.plan(req, loose, budget_minuten=budget(dauer), klassenstufe=a.klassenstufe).chosen:
        return None  # her words resolve to another topic, whose gate would refuse the essay: the usual composer
    if not w.chosen:
        return Composition(material=None, befund=writing.refusal(
            w, was=_art(a), klassenstufe=a.klassenstufe, dauer=dauer, known_here=writing.issues_at(usable)))
    return Composition(*writing.compose(a.request, w, frame(a, w.chosen, dauer), klassenstufe=a.klassenstufe,
                                        notizen=a.notizen))


def frame(a: KlausurAuftrag, chosen: Sequence[TaskCandidate], dauer: int) -> writing.Frame:
    """The frame of an exam of these tasks: planned for their time when they fill less than three quarters of hers."""
    minuten = sum(c.minuten for c in chosen)
    return writing.Frame(art=_art(a), fach_name=a.fach_name, niveau=_niveau(a), hilfsmittel=_hilfsmittel(a, chosen),
                         dauer=dauer if minuten >= SHORT * budget(dauer) else min(dauer, dauer_for(minuten)),
                         afb_ziel=a.afb_ziel)


def _unmet(sel: Selection, spec: ExamSpec, zusatz: str) -> list[str]:
    """What she named that no chosen task is (decision 069): a task that sets „A vs. B“ side by side — not one whose
    key mentions the other in passing; the sub-tasks on one material count together — and a kind of task she named
    („mit Kartenarbeit“)."""
    aufgaben: dict[str, list[TaskCandidate]] = {}
    for c in sel.chosen:
        aufgaben.setdefault(c.material_key or c.key, []).append(c)
    contrast = spec.seiten and not any(contrasts(group, spec) for group in aufgaben.values())
    return ["Gegenüberstellung " + " – ".join(spec.seiten)] * bool(contrast) + shapes.missing(zusatz, sel.chosen)


def compose_klausur(a: KlausurAuftrag) -> Composition:
    req = a.request
    dauer = req.dauer_minuten or 45
    if writing.request_issue(req) is not None and (essay := _writing_exam(a, dauer)) is not None:
        return essay
    usable = passing(a.candidates, thema=req.thema, unterthemen=req.unterthemen, topic=a.topic,
                     operators=a.operators, wanted=a.klassenstufe, kurs=req.niveau, avoid=a.avoid)
    alle, (usable, focus, aus) = usable, focused(usable, a.topic, req.unterthemen)
    before = len(usable)
    usable, siblings = unnamed_siblings(usable, req.thema, req.unterthemen, a.topic)
    fill = fill_ups(alle, usable, req.thema, req.unterthemen, a.topic) if _may_fill(a, focus) else []
    befund = Befund(was=_art(a), thema=req.thema, gefunden=len(usable), gewuenscht_minuten=dauer,
                    nachbarn=a.nachbarn, notizen=list(a.notizen), schwerpunkt=focus.words,
                    schwerpunkt_thema=focus.topic, ausserhalb=0 if fill else aus, klassenstufe=a.klassenstufe)
    if not usable:
        if siblings:
            _left_out(befund, a, siblings, before, narrower=bool(focus))
        befund.geschafft_minuten = 0
        return Composition(material=None, befund=befund)
    afb_ziel = a.afb_ziel
    if a.vorlage is not None:
        befund.notizen.append(a.vorlage.hinweis())
        if a.vorlage.afb and not a.afb_fest:
            afb_ziel = a.vorlage.afb
    spec = _spec(a, usable, fill, dauer, afb_ziel)
    near = _near(usable, fill, spec)  # once per request: the choice, the offer and the AFB note read it
    sel = _choose(a, usable, fill, near, spec, befund)
    befund.gefunden = len(fill_up.serving(usable, spec)) + len(fill_up.serving(fill, spec, sibling=True))
    offer = _offer(a, usable, fill, near, spec, sel)
    added = _say_left_out(befund, a, sel, [*fill, *(c for c in near if c not in fill)], siblings,
                          before - len(usable), narrower=bool(focus))
    befund.fehlende_unterthemen = sel.missing_unterthemen
    befund.fehlende_unterthemen += _unmet(sel, spec, req.zusatz)
    befund.fehlende_wuensche = [f"„{t}“ als AFB {afb}" for t, afb in sel.missing_wuensche]
    if not sel.chosen:
        befund.geschafft_minuten = 0
        return Composition(material=None, befund=befund, selection=sel)
    dauer_neu = min(dauer, dauer_for(sel.minuten)) if sel.minuten < SHORT * spec.budget_minuten or offer else dauer
    if dauer_neu < dauer:
        befund.geschafft_minuten = dauer_neu
    if _say_offer(a, befund, sel, spec, offer, (dauer_neu, dauer)):
        return Composition(material=None, befund=befund, selection=sel)
    gesamt = sum(c.punkte for c in sel.chosen)
    items = head.exam_items(sel.chosen, spec)
    thema = head.title(items, req.thema, req.unterthemen, befund.fehlende_unterthemen, a.topic)
    klausur = Klausur(
        titel=f"{_art(a)} {a.fach_name}: {thema}", fach=a.fach_name, klassenstufe=a.klassenstufe, klasse=req.klasse,
        thema=thema, dauer_minuten=dauer_neu, niveau=_niveau(a), hilfsmittel=_hilfsmittel(a, sel.chosen),
        hinweise=[f"Bearbeitungszeit: {dauer_neu} Minuten; insgesamt sind {gesamt} Punkte erreichbar.",
                  "Achte auf die Operatoren: Sie sagen, was in deiner Antwort erwartet wird."],
        aufgaben=aufgaben(sel.chosen, a.extra_quellen, thema=req.thema,  # a wished topic is named like a sub-topic
                          unterthemen=[*req.unterthemen, *(w.thema for w in req.afb_wuensche)],
                          max_aufgaben=spec.max_aufgaben, topic_titles=spec.topic_titles),
    )
    if wants_groups(req.zusatz, req.gruppen):
        klausur, n = with_group_b(klausur, parallels(sel.chosen, usable))
        gleich = [f"{a.nummer}{t.kennung}" for a, b in zip(klausur.aufgaben, klausur.gruppe_b or [], strict=False)
                  for t, u in zip(a.teilaufgaben, b.teilaufgaben, strict=False) if t.text == u.text]
        befund.notizen.append(
            "Gruppe A/B nicht möglich: zu keiner Aufgabe gibt es eine geprüfte Parallelaufgabe oder neu wählbare "
            "Zahlen; beide Gruppen wären gleich." if not n else
            f"Gruppe B: {n} Teilaufgabe(n) mit anderen Zahlen oder einer geprüften Parallelaufgabe (gleiches "
            "Unterthema, gleicher AFB, gleiche Punkte)" + (f"; in beiden Gruppen gleich: {', '.join(gleich)}."
                                                         if gleich else "."))
    befund.afb_abweichung = _afb_note(klausur, afb_ziel, _fit_pool(usable, near, spec))
    refs = {c.key: f"{au.nummer}{t.kennung}" for au in klausur.aufgaben for t in au.teilaufgaben
            for c in sel.chosen if c.text == t.text}
    if added:
        befund.ergaenzt = True
        befund.notizen.insert(0, _consented_note(a, added, refs, gesamt) if spec.fill_ok else
                              _filled_note(a, focus, added, gesamt, dauer_neu))
    _cite_notes(klausur, sel)
    note_lines = [f"Notiz „{t}“ berücksichtigt in {', '.join(refs.get(k, '?') for k in keys)}." if keys else
                  f"Notiz „{t}“ konnte nicht berücksichtigt werden: keine passende geprüfte Aufgabe."
                  for t, keys in sel.note_hits.items()]
    befund.notizen += note_lines
    klausur.hinweise_lehrkraft = befund.hinweise()
    return Composition(material=siezen_klausur(klausur), befund=befund, selection=sel)
