"""Compose a worksheet on three Niveaus from checked three-level tasks: the best fitting one, or two or three
combined when the teacher named several sub-topics or tasks. Hilfekarten and solutions stay with their tasks."""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.checks.duplicates import duplicates
from core.checks.topics import text_stems
from core.checks.views import TaskView
from core.composition import fill_up
from core.composition.anrede import siezen_differenzierung
from core.composition.candidates import DiffCandidate, Umfeld, preference_score
from core.composition.filters import focused, named_part_only, passing
from core.composition.parts_lexicon import covers_part, filed_as, treats
from core.composition.report import Befund, titled
from core.materials.differenzierung import NIVEAU_NAMEN, DifferenziertesMaterial, Niveau

MAX_TEILE = 3
MAX_ERSATZ = 6  # items set aside for a repeat before the sheet is made without them


@dataclass
class DiffAuftrag(Umfeld):
    thema: str
    fach: str
    fach_name: str
    klassenstufe: int
    unterthemen: list[str]
    anzahl: int | None
    candidates: list[DiffCandidate]
    zusatz: str = ""


@dataclass
class DiffComposition:
    material: DifferenziertesMaterial | None
    befund: Befund


def _view(c: DiffCandidate) -> TaskView:
    """The task as the check will see it on the sheet (core.checks.views): its Lernziel, tasks and solutions — not its
    bank label, which the sheet does not print („Temperatur- und pH-Abhängigkeit“ over tasks on pH only)."""
    niveaus = c.niveaus.values()
    return TaskView(ref=c.key, text=" ".join(t for n in niveaus for t in n["aufgaben"]), titel=c.lernziel,
                    kriterien=tuple(t for n in niveaus for t in n["loesungen"]))


def _score(c: DiffCandidate, a: DiffAuftrag) -> float:
    return preference_score(c, salt=a.salt, primary_topics=a.primary_topics, klassenstufe=a.klassenstufe)


def _choose(usable: list[DiffCandidate], a: DiffAuftrag, befund: Befund) -> list[DiffCandidate]:
    ranked = sorted(usable, key=lambda c: -_score(c, a))
    chosen: list[DiffCandidate] = []
    for u in a.unterthemen:
        if any(covers_part([replace(_view(c), kriterien=())], u, a.thema) for c in chosen):
            continue  # a task already chosen asks for it (one Saiten task covers Tonhöhe and Frequenz)
        # an item whose tasks ask for the part before one whose solutions mention it („weitere Folgen: …“)
        asked = [c for c in ranked if c not in chosen and covers_part([replace(_view(c), kriterien=())], u, a.thema)]
        fitting = asked or [c for c in ranked if c not in chosen and covers_part([_view(c)], u, a.thema)]
        pick = next((c for c in fitting if filed_as(c.unterthema, u, a.thema)), fitting[0] if fitting else None)
        if pick is None:
            if not any(covers_part([_view(c)], u, a.thema) for c in chosen):
                befund.fehlende_unterthemen.append(u)
        elif len(chosen) < MAX_TEILE:
            chosen.append(pick)
    wanted_tasks = a.anzahl or 0
    while ranked and (not chosen or sum(len(c.niveaus["mittel"]["aufgaben"]) for c in chosen) < wanted_tasks):
        pick = next((c for c in ranked if c not in chosen), None)
        if pick is None or len(chosen) >= MAX_TEILE:
            break
        chosen.append(pick)
    return chosen


def _repeats_on(texts: list[str], name: str) -> list[int]:
    """Indexes of the tasks that repeat an earlier one on a Niveau, as the gate sees them (core.checks.gate:
    duplicates within a level)."""
    views = [TaskView(ref=str(i), text=t, gruppe=name) for i, t in enumerate(texts)]
    return sorted({int(d.second) for d in duplicates(views)})


def _trimmed(c: DiffCandidate, befund: Befund) -> DiffCandidate:
    """The item without a task that repeats another of its tasks on the same Niveau (with its help card and
    solution); the other Niveaus stay as written."""
    niveaus = dict(c.niveaus)
    for name, teile in c.niveaus.items():
        drop = _repeats_on(teile["aufgaben"], name)
        if not drop or len(drop) >= len(teile["aufgaben"]):
            continue
        n = len(teile["aufgaben"])
        niveaus[name] = {k: [x for i, x in enumerate(v) if i not in drop] if len(v) == n else v
                         for k, v in teile.items()}
        was = "eine Aufgabe" if len(drop) == 1 else f"{len(drop)} Aufgaben"
        befund.notizen.append(f"Auf Niveau „{name}“ habe ich {was} weggelassen, die eine andere Aufgabe dieses "
                              "Niveaus fast wiederholte.")
    return replace(c, niveaus=niveaus) if niveaus != c.niveaus else c


def _repeating(chosen: list[DiffCandidate]) -> DiffCandidate | None:
    """The chosen item whose task repeats a task of another chosen item on the same Niveau; None when none does."""
    for name in NIVEAU_NAMEN:
        owners = [c for c in chosen for _ in c.niveaus[name]["aufgaben"]]
        views = [TaskView(ref=str(i), text=t, gruppe=name)
                 for i, t in enumerate(t for c in chosen for t in c.niveaus[name]["aufgaben"])]
        for d in duplicates(views):
            if owners[int(d.first)] is not owners[int(d.second)]:
                return owners[int(d.second)]
    return None


def _choose_without_repeats(usable: list[DiffCandidate], a: DiffAuftrag, befund: Befund) -> list[DiffCandidate]:
    """The items for the sheet; an item that would repeat a task of another on one Niveau is replaced by the next
    fitting one (or left out), and a task repeating one of its own item is left out with a note — never handed to
    the gate, which would refuse the whole sheet (#10, cause A3)."""
    missing = list(befund.fehlende_unterthemen)
    set_aside: list[DiffCandidate] = []
    while True:
        befund.fehlende_unterthemen[:] = missing
        chosen = _choose([c for c in usable if c not in set_aside], a, befund)
        repeat = _repeating(chosen)
        if repeat is None:
            break
        set_aside.append(repeat)
        if len(set_aside) >= MAX_ERSATZ:  # keep what does not repeat, in the order chosen
            kept: list[DiffCandidate] = []
            for c in chosen:
                if _repeating([*kept, c]) is None:
                    kept.append(c)
            chosen = kept
            break
    notes = Befund(was=befund.was, thema=befund.thema)
    chosen = [_trimmed(c, notes) for c in chosen]
    befund.notizen += notes.notizen
    return chosen


def _within_parts(thema: str, unterthemen: list[str]) -> bool:
    parts = text_stems(" ".join(unterthemen))
    return text_stems(thema) <= parts


def _off_request(chosen: list[DiffCandidate], a: DiffAuftrag, befund: Befund) -> bool:
    """No sheet when she named parts and no chosen task is about her topic or any of them (decision 066): the
    options come first, the sheet on what the tasks are about is one of them. The topic counts too — a sheet on
    „Enzyme“ asked with „Schlüssel-Schloss, Temperatur“ is on what she asked for (decision 063's withdrawn rule
    looked only at the parts). A task filed under a label that is the part counts (decision 045)."""
    if not a.unterthemen or fill_up.short_ok(a.zusatz):
        return False
    topic = [] if _within_parts(a.thema, a.unterthemen) else [a.thema]  # „A und B von C“ is no topic beside A, B
    if any(treats([_view(c)], p, a.thema, filing=c.unterthema) for c in chosen for p in (*topic, *a.unterthemen)):
        return False
    genannt, dort = fill_up.quoted(a.unterthemen), fill_up.quoted(list(dict.fromkeys(c.unterthema for c in chosen)))
    befund.grund = (f"Zu {genannt} habe ich keine geprüfte dreistufige Aufgabe für Klasse {a.klassenstufe}. Die "
                    f"passendsten vorhandenen behandeln {dort} – nicht das, was Sie genannt haben. Wählen Sie, wie "
                    "es weitergehen soll.")
    befund.stub, befund.angebote = True, (f"trotzdem das Arbeitsblatt zu {dort} erstellen (ohne {genannt})",)
    befund.fehlende_unterthemen = list(a.unterthemen)
    return True


def compose_differenzierung(a: DiffAuftrag) -> DiffComposition:
    usable = passing(a.candidates, thema=a.thema, unterthemen=a.unterthemen, topic=a.topic, operators=(),
                     wanted=a.klassenstufe, kurs=a.kurs, avoid=a.avoid)
    usable, focus, aus = focused(usable, a.topic)
    befund = Befund(was="Arbeitsblatt", thema=a.thema, nachbarn=a.nachbarn, einheit="Aufgaben je Niveau",
                    gewuenscht_anzahl=a.anzahl, schwerpunkt=focus.words, schwerpunkt_thema=focus.topic,
                    ausserhalb=aus, klassenstufe=a.klassenstufe)
    usable, _ = named_part_only(usable, befund, a.thema, a.unterthemen, a.topic)
    # a task filed under another topic that treats neither the topic nor a named part is a neighbour's (decision
    # 043): never silently on the sheet — with none of her topic's own, the options name the related topics
    near = fill_up.elsewhere(usable, a.topic, a.thema, a.unterthemen, lambda c: replace(_view(c), titel=c.unterthema))
    usable = [c for c in usable if c not in near]
    befund.gefunden = len(usable)
    chosen = _choose_without_repeats(usable, a, befund)
    if not chosen or _off_request(chosen, a, befund):
        return DiffComposition(material=None, befund=befund)
    niveaus = []
    for name in NIVEAU_NAMEN:
        aufgaben = [t for c in chosen for t in c.niveaus[name]["aufgaben"]]
        niveaus.append(Niveau(name=name, aufgaben=aufgaben,
                              hilfekarten=[h for c in chosen for h in c.niveaus[name]["hilfekarten"]],
                              loesungen=[t for c in chosen for t in c.niveaus[name]["loesungen"]]))
    befund.geschafft_anzahl = min(len(n.aufgaben) for n in niveaus)
    lernziel = chosen[0].lernziel if len(chosen) == 1 else " Außerdem: ".join(
        [chosen[0].lernziel, *(c.lernziel.replace("Die Schülerinnen und Schüler ", "sie ", 1) for c in chosen[1:])])
    thema = titled(a.thema, a.unterthemen, befund.fehlende_unterthemen)
    m = DifferenziertesMaterial(
        titel=f"Arbeitsblatt {a.fach_name}: {thema}", fach=a.fach_name, klassenstufe=a.klassenstufe, thema=thema,
        lernziel=lernziel, niveaus=niveaus, materialien=[c.material for c in chosen if c.material is not None],
        quellen=list({c.quelle.ref: c.quelle for c in chosen}.values()))
    m.hinweise_lehrkraft = befund.hinweise()
    return DiffComposition(material=siezen_differenzierung(m), befund=befund)
