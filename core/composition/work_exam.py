"""An exam on one named literary work (decision 056): only tasks on that work; another work's tasks fill it only when
the teacher chose that offer. An Inhaltsangabe or Interpretation of the work is one main task on it with a few
preparation tasks (the shape of decision 054's essay exams) — or, when the bank has none, options, never a frame."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.composition import fill_up, works, writing
from core.composition.afb_fit import afb_note
from core.composition.candidates import TaskCandidate
from core.composition.filters import passing
from core.composition.klausur import Composition, KlausurAuftrag, budget, dauer_for, frame
from core.composition.oberstufe import OBERSTUFE, oberstufe_notes, select_oberstufe
from core.composition.report import Befund
from core.composition.select import FILL_BELOW, ExamSpec, Selection, select
from core.composition.works import INTERPRETATION, Work
from core.materials.blocks import AFB_STUFEN
from core.materials.request import MaterialRequest

MIN_MAIN_SHARE = {INTERPRETATION: 0.4, works.INHALTSANGABE: 0.6}  # the main task keeps this share of the points
_MAIN_NAME = {
    INTERPRETATION: ("Die Interpretation", "Interpretationsaufgabe"),
    works.INHALTSANGABE: ("Die Inhaltsangabe", "Inhaltsangabe"),
}
MAX_OFFERED = 3


@dataclass
class TextPlan(writing.Around):
    """An Inhaltsangabe or Interpretation of one work: its main task and preparation tasks on the same text."""

    label: str = ""

    @property
    def thema(self) -> str:
        return self.label


def label(work: Work, request: MaterialRequest) -> str:
    """„Macbeth (William Shakespeare)“; a speech by the name she used: „All the world's a stage (As You Like It)“."""
    if said := works.said_name(work, request):
        return f"{said} ({work.title})"
    return f"{work.title} ({work.author})" if work.author else work.title


def _grouped(tasks: Sequence[TaskCandidate], work: Work) -> dict[str, list[TaskCandidate]]:
    """Other works' tasks by the one work each prints (a task on several works or on none is offered under none),
    the author's own works first, then most points."""
    groups: dict[str, list[TaskCandidate]] = {}
    first: dict[str, bool] = {}
    for c in tasks:
        if len(printed := works.works_of(c)) == 1 and printed[0].key != work.key:
            groups.setdefault(name := printed[0].title, []).append(c)
            first[name] = first.get(name, False) or printed[0].surname == work.surname
    order = sorted(groups, key=lambda n: (not (work.surname and first[n]), -sum(c.punkte for c in groups[n]), n))
    return {n: groups[n] for n in order}


def _spec(a: KlausurAuftrag, work: Work, dauer: int, fill_ok: bool) -> ExamSpec:
    return ExamSpec(
        klassenstufe=a.klassenstufe,
        budget_minuten=budget(dauer),
        afb_ziel=a.afb_ziel,
        thema=work.title,
        salt=f"{a.request.fach}|{work.key}|{a.klassenstufe}|{dauer}",
        fill_ok=fill_ok,
    )


def _select(a: KlausurAuftrag, mine: list[TaskCandidate], fill: list[TaskCandidate], spec: ExamSpec) -> Selection:
    oben = a.klassenstufe >= OBERSTUFE
    text = f"{a.request.thema} {a.request.zusatz}"
    return oben and select_oberstufe(mine, spec, fill, request=text) or select(mine, spec, fill)


def _refusal(
    a: KlausurAuftrag, work: Work, dauer: int, grund: str, gefunden: int = 0, angebote: Sequence[str] = ()
) -> Composition:
    befund = Befund(
        was=frame(a, [], dauer).art,
        thema=label(work, a.request),
        gefunden=gefunden,
        gewuenscht_minuten=dauer,
        geschafft_minuten=0,
        klassenstufe=a.klassenstufe,
        grund=grund,
        angebote=tuple(angebote),
        stub=bool(gefunden),
    )
    return Composition(material=None, befund=befund)


def _not_here(a: KlausurAuftrag, work: Work, dauer: int, others: dict[str, list[TaskCandidate]]) -> Composition:
    art = frame(a, [], dauer).art
    grund = (
        f"Zu „{work.title}“ liegen in der Aufgabensammlung keine geprüften Aufgaben für Klasse "
        f"{a.klassenstufe} vor. Aufgaben zu anderen Werken setze ich nicht stillschweigend ein – das wäre eine "
        f"andere {art}."
    )
    if others:
        grund += (
            f" Geprüfte Aufgaben gibt es zu {fill_up.quoted(list(others)[:MAX_OFFERED])} – nennen Sie eines "
            f"dieser Werke, dann erstelle ich die {art} dazu."
        )
    return _refusal(a, work, dauer, grund)


def _exam(
    a: KlausurAuftrag, work: Work, mine: list[TaskCandidate], others: dict[str, list[TaskCandidate]], dauer: int
) -> Composition:
    """The exam of the work's tasks; the offered works' tasks fill it only after her consent (decision 043)."""
    req, offered = a.request, list(others)[:MAX_OFFERED]
    consent = fill_up.consents(req.zusatz) and bool(offered)
    fill = [c for n in offered for c in others[n]] if consent else []
    spec = _spec(a, work, dauer, consent)
    sel = _select(a, mine, fill, spec)
    short = sel.minuten < FILL_BELOW * spec.budget_minuten and bool(offered) and not consent
    if (
        short
        and not fill_up.short_ok(req.zusatz)
        and spec.budget_minuten >= fill_up.MIN_BUDGET
        and (sel.minuten < fill_up.MIN_SHARE * spec.budget_minuten or len(sel.chosen) == 1)
    ):
        minuten = dauer_for(sel.minuten)
        grund = fill_up.stub_reason(work.title, minuten, dauer) + (
            f" Aufgaben zu anderen Werken ({fill_up.quoted(offered)}) setze ich nicht ohne Ihr Einverständnis ein."
        )
        return _refusal(
            a, work, dauer, grund, len(mine), (fill_up.short_option(minuten), fill_up.offer_option(offered, dauer))
        )
    rahmen = frame(a, sel.chosen, dauer)
    if short:
        rahmen = replace(rahmen, dauer=min(dauer, dauer_for(sel.minuten)))
    plan = TextPlan(chosen=sel.chosen, label=label(work, req))
    klausur, befund, _ = writing.compose(req, plan, rahmen, klassenstufe=a.klassenstufe, notizen=a.notizen)
    befund.thema, befund.gefunden = work.title, len(mine)
    if short:
        befund.zeit_hinweis = fill_up.offer_note(work.title, rahmen.dauer, dauer, offered)
        befund.angebote = (fill_up.offer_option(offered, dauer),)
    verfuegbar = {s: sum(c.punkte for c in mine if c.afb == s) for s in AFB_STUFEN}
    gewaehlt = {s: sum(c.punkte for c in sel.chosen if c.afb == s) for s in AFB_STUFEN}
    befund.afb_abweichung = afb_note(klausur.afb_anteile, rahmen.afb_ziel, verfuegbar, gewaehlt)
    if a.klassenstufe >= OBERSTUFE:
        befund.notizen += oberstufe_notes(sel, spec)
    added = fill_up.neighbours(sel.chosen, fill)
    if added:
        sources = {c.quelle.ref for c in added}  # the printed text is the addressed one („Fassen Sie …“)
        refs = [
            f"{au.nummer}{t.kennung}"
            for au in klausur.aufgaben
            for t in au.teilaufgaben
            if any(q.ref in sources for q in t.quellen)
        ]
        names = [n for n in offered if any(c in others[n] for c in added)]
        gesamt = sum(c.punkte for c in sel.chosen)
        befund.ergaenzt = True
        befund.notizen.insert(
            0, fill_up.filled_note(work.title, refs, f"{sum(c.punkte for c in added)} von {gesamt} Punkten", names)
        )
    klausur.hinweise_lehrkraft = befund.hinweise()
    return Composition(material=klausur, befund=befund, selection=sel)


def _one_text(
    a: KlausurAuftrag,
    work: Work,
    kind: str,
    mine: list[TaskCandidate],
    others: dict[str, list[TaskCandidate]],
    dauer: int,
) -> Composition:
    """One main task of the kind asked on the work, with up to three preparation tasks on the same text; without such
    a task the plain reason and the options (the work's other tasks, another work's, upload, a model)."""
    mains = [c for c in mine if works.is_main(c, kind)]
    main = next((c for c in writing.closest(mains, a.klassenstufe) if c.minuten <= budget(dauer)), None)
    name, aufgabe = _MAIN_NAME[kind]
    if main is None:
        trial = _select(a, mine, [], _spec(a, work, dauer, False))
        minuten = dauer_for(trial.minuten) if trial.chosen else 0
        stufen = "/".join(s for s in AFB_STUFEN if any(c.afb == s for c in trial.chosen))
        grund = (
            f"Zu „{work.title}“ liegt für Klasse {a.klassenstufe} keine geprüfte {aufgabe} vor, die den Text als "
            "Ganzes erschließt; einen allgemeinen Auftrag ohne ausgearbeiteten Erwartungshorizont gebe ich nicht "
            "als fertige Arbeit aus, und Aufgaben zu anderen Werken setze ich nicht stillschweigend ein."
        )
        if trial.chosen:
            grund += (
                f" Zu „{work.title}“ gibt es {len(trial.chosen)} andere geprüfte Aufgaben (AFB {stufen}) für "
                f"ca. {minuten} Minuten."
            )
        elsewhere = [n for n, cs in others.items() if any(works.is_main(c, kind) for c in cs)][:MAX_OFFERED]
        if elsewhere:
            grund += (
                f" Eine geprüfte {aufgabe} gibt es zu {fill_up.quoted(elsewhere)} – nennen Sie eines dieser "
                "Werke, dann erstelle ich die Arbeit dazu."
            )
        angebote = [
            *([fill_up.short_option(minuten)] if trial.chosen else []),
            *([fill_up.offer_option(list(others)[:MAX_OFFERED], dauer)] if others and trial.chosen else []),
        ]
        return _refusal(a, work, dauer, grund, len(trial.chosen), angebote)
    prep = [
        c
        for c in mine
        if c.key != main.key
        and not works.is_main(c, kind)
        and not works.writes_part(c)
        and (c.material_key == main.material_key or not c.materialien)
    ]
    plan = TextPlan(
        label=f"{kind}: {label(work, a.request)}",
        main_name=name,
        main_key=main.key,
        bezug=("denselben Text", "zum selben Text"),
    )
    plan.chosen = writing.around(
        main, writing.closest(prep, a.klassenstufe), budget_minuten=budget(dauer), min_share=MIN_MAIN_SHARE[kind]
    )
    plan.notes.append(
        f"{name} zu „{work.title}“ ist die Hauptaufgabe; die übrigen Aufgaben bereiten sie am selben "
        "Text vor. Aufgaben zu anderen Werken wurden nicht verwendet."
    )
    klausur, befund, sel = writing.compose(
        a.request, plan, frame(a, plan.chosen, dauer), klassenstufe=a.klassenstufe, notizen=a.notizen
    )
    befund.thema = work.title
    klausur.hinweise_lehrkraft = befund.hinweise()
    return Composition(material=klausur, befund=befund, selection=sel)


def compose(a: KlausurAuftrag) -> Composition | None:
    """The exam on the one work a Deutsch or Englisch request names, or None when it names none (or is an essay on an
    issue, decision 054): then the usual composer decides."""
    req = a.request
    if a.fach not in works.LITERARY_FAECHER or (a.klassenstufe <= 10 and writing.request_issue(req) is not None):
        return None
    if (found := works.named_work(req, a.candidates)) is None:
        return None
    work, known_work = found
    if not known_work and works.is_topic(work, a.topic):
        return None  # a quoted topic of the bank („Interpretation „Lyrik der Romantik““), not a work it lacks
    dauer = req.dauer_minuten or 45
    loose = passing(
        a.candidates,
        thema=req.thema,
        unterthemen=req.unterthemen,
        topic=None,
        operators=a.operators,
        wanted=a.klassenstufe,
        kurs=req.niveau,
        avoid=a.avoid,
    )
    usable = writing.as_the_gate_judges(loose, req, a.topic, a.operators)
    known = works.catalogue(a.candidates)
    mine = [c for c in usable if works.on_work(c, work, known, works.homes(a.candidates, work))]
    resolved = {t.id for t in a.topic.resolved} if a.topic is not None else set()
    others = _grouped(
        [
            c
            for c in usable
            if c not in mine
            and c.herkunft != "generator"
            and (c.topic in resolved or any(w.surname == work.surname for w in works.works_of(c) if work.surname))
        ],
        work,
    )
    if not mine:
        return _not_here(a, work, dauer, others)
    kind = works.asked_kind(req)
    if kind is None and all(c in mine for c in usable if c.topic in resolved):
        return None  # her topic is this work („Goethes Faust“): nothing could stand in for it, the usual composer
    if kind is not None and not (fill_up.consents(req.zusatz) or fill_up.short_ok(req.zusatz)):
        return _one_text(a, work, kind, mine, others, dauer)
    return _exam(a, work, mine, others, dauer)
