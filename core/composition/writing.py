"""Writing exams on one named issue (decision 054): the issue the teacher names decides — one large writing task on it,
at most a few preparation tasks on the same issue, never another issue's essay; an issue without a reviewed essay gets
options, not a task whose Erwartungshorizont would have to be invented."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.checks.filler import refers_to_material
from core.checks.gate import task_findings
from core.checks.topicality import TopicContext
from core.composition.anrede import siezen_klausur
from core.composition.candidates import TaskCandidate
from core.composition.filters import task_view
from core.composition.layout import aufgaben
from core.composition.report import Befund
from core.composition.select import Selection
from core.language.text import fold
from core.materials.blocks import AFB_STUFEN
from core.materials.klausur import Klausur
from core.materials.request import MaterialRequest

ESSAY_MINUTES = 20  # a writing task this long is the exam's essay, not a preparation task
MAX_PREP = 3
MIN_ESSAY_SHARE = 0.6  # the essay carries at least this share of the points
_GENRE = re.compile(r"er(?:ö|oe)rter|stellungnahme|leserbrief|\bkommentar\b|\bopinion essay|argumentative essay|"
                    r"\bcomment\b|\bfor and against\b|letter to the editor|\bessay\b", re.I)
_AFTER_GENRE = re.compile(r"^[\w-]*\s*(?:(?:zum|zu dem) thema|zur frage|zu der frage|(?:ü|ue)ber|"
                          r"on the (?:topic|question)(?: of)?|on|about|:)\s*:?\s*[„\"'‚]?"
                          r"(?P<x>[^,;\n“\"']+?\?|[^,;.\n“\"'?]+)", re.I)
_NOT_AN_ISSUE = re.compile(r"^(klasse|jahrgang|jgst|\d|fuer|for|mit|with|in|im|schreiben|verfassen)\b")
# a text to write about is a text-based task („Kommentar zu einem Zeitungsartikel“), not an issue
_A_TEXT = re.compile(r"\b(texte?s?|artikels?|article|cartoon|karikatur|statement|zitat|quote|gedichts?|poem|"
                     r"kurzgeschichte|story|rede|speech|material|m\d)\b")


@dataclass(frozen=True)
class Issue:
    key: str
    name: str  # how a note names it
    pattern: re.Pattern[str]  # on folded text


def _issue(key: str, name: str, *stems: str) -> Issue:
    return Issue(key, name, re.compile(r"(?<![a-z])(?:" + "|".join(stems) + ")"))


# The issues teachers set for argumentative writing in Klassen 7–10, with the words a request or a task names them by.
ISSUES = (
    _issue("handy", "Handyverbot an Schulen", r"handy", r"smartphone", r"mobile phones?", r"phone ban",
           r"phones? (?:in|at) school"),
    _issue("uniform", "Schuluniform", r"schuluniform", r"schulkleidung", r"einheitliche kleidung",
           r"school uniform", r"uniform"),
    _issue("ganztag", "Ganztagsschule", r"ganztag", r"all-day school"),
    _issue("hausaufgaben", "Hausaufgaben", r"hausaufgabe", r"homework"),
    _issue("social", "Social Media ab 16", r"social media", r"soziale (?:netzwerk|medien)", r"tiktok", r"instagram"),
    _issue("tempolimit", "Tempolimit auf Autobahnen", r"tempolimit", r"geschwindigkeitsbegrenz", r"speed limit"),
    _issue("wahlalter", "Wahlalter 16", r"wahlalter", r"wahlrecht ab", r"waehlen ab 16", r"voting age",
           r"vote at 16"),
    _issue("tierversuche", "Tierversuche", r"tierversuch", r"animal (?:testing|experiments)"),
    _issue("veggie", "fleischfreie Tage in der Mensa", r"fleisch", r"vegetari", r"veggie", r"\bmeat"),
    _issue("escooter", "E-Scooter", r"e-?scooter", r"elektroroller"),
    _issue("klassenfahrt", "Klassenfahrten", r"klassenfahrt", r"klassenreise", r"schulfahrt", r"school trips?"),
    _issue("nebenjob", "Nebenjob", r"nebenjob", r"schuelerjob", r"ferienjob", r"part-?time job"),
    _issue("ehrenamt", "Ehrenamt", r"ehrenamt", r"volunteer"),
)


# how the reply names the writing task: (none, the one, no such)
_FORMS = {"Erörterung": ("keine geprüfte Erörterung", "Die geprüfte Erörterung", "keine Erörterung"),
          "Opinion Essay": ("kein geprüfter Opinion Essay", "Der geprüfte Opinion Essay", "kein Essay")}


@dataclass
class Around:
    """An exam built around one main task — an essay on one issue, the interpretation of one text (decision 056) —
    with at most a few preparation tasks on the same issue or text."""

    chosen: list[TaskCandidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def thema(self) -> str:  # the exam's topic and title
        raise NotImplementedError

    main_name: str = "Die große Schreibaufgabe"  # how the AFB note names the main task
    bezug: tuple[str, str] = ("dasselbe Thema", "zum selben Thema")  # what all tasks are on, for the sheet and note
    main_key: str = ""  # the main task's key (default: the essay)

    def main(self) -> TaskCandidate | None:
        return next((c for c in self.chosen if c.key == self.main_key), None) or max(
            (c for c in self.chosen if _essay(c)), key=lambda c: c.punkte, default=None)


@dataclass
class WritingPlan(Around):
    """A writing exam on one issue: its name, whether the bank has a reviewed essay on it, and what was chosen."""

    issue: str = ""
    known: bool = False
    gattung: str = "Erörterung"  # how the reply names the writing task: „Erörterung“, „Opinion Essay“
    essay_minuten: int = 0  # the shortest reviewed essay on the issue, when it does not fit her time

    @property
    def thema(self) -> str:
        return f"{self.gattung} zum Thema {self.issue}"


def _hits(issue: Issue, text: str) -> int:
    return len(issue.pattern.findall(fold(text)))


def request_issue(request: MaterialRequest) -> tuple[Issue | None, str] | None:
    """The issue a writing request names: (a known issue, its name) or (None, the teacher's words); None when the
    request asks for no argumentative writing or names no issue."""
    texts = [request.zusatz, request.thema, *request.unterthemen]
    if not any(_GENRE.search(t) for t in texts if t):
        return None
    said = " ".join(t for t in texts if t)
    scored = sorted(((_hits(i, said), n, i) for n, i in enumerate(ISSUES)), key=lambda x: (-x[0], x[1]))
    if scored[0][0]:
        return scored[0][2], scored[0][2].name
    for t in texts:
        if t and (words := _named_words(t)):
            return None, words
    return None


def _named_words(text: str) -> str | None:
    """The teacher's words for the issue after the genre („Erörterung zum Thema Vier-Tage-Woche, 90 Minuten“)."""
    for genre in _GENRE.finditer(text):
        found = _AFTER_GENRE.match(text[genre.end():])
        words = found.group("x").strip(" „“\"'") if found else ""
        if len(words) >= 3 and not _NOT_AN_ISSUE.match(fold(words)) and not _A_TEXT.search(fold(words)) \
                and re.search(r"[^\W\d]{3}", words):
            return re.sub(r"\s+\d+\s*(?:min\w*|minutes?)$", "", words, flags=re.I).strip()
    return None


_OWN_GENRES = {"leserbrief": "Leserbrief", "kommentar": "Kommentar"}


def _other_genre(request: MaterialRequest, essay: TaskCandidate) -> str | None:
    """A Leserbrief or Kommentar she asked for, when the essay on her issue is of another kind."""
    said = fold(" ".join([request.zusatz, request.thema, *request.unterthemen]))
    for word, name in _OWN_GENRES.items():
        if re.search(rf"\b{word}", said) and word not in fold(essay.text):
            return name
    return None


def task_issue(c: TaskCandidate) -> Issue | None:
    """The issue a task is about: named in its own text first, then in its key, then in its material."""
    material = " ".join(f"{b.titel} {b.text or ''}" for b in c.materialien)
    key = " ".join(t for t, _ in c.erwartung)
    scores = [(3 * _hits(i, c.text) + _hits(i, key) + _hits(i, material), -n, i) for n, i in enumerate(ISSUES)]
    score, _, best = max(scores, key=lambda x: x[:2])
    return best if score else None


# writing (part of) an essay: beside the whole essay a second one, or its Einleitung or Schluss written twice
_ESSAY_OPERATORS = frozenset({"eroertern", "stellung nehmen", "sich auseinandersetzen", "gestalten", "comment",
                              "discuss"})


def _prep(c: TaskCandidate, essay: TaskCandidate) -> bool:
    """A preparation task for the essay: on its material (or none), and no part of an essay under another name."""
    return not _essay(c) and fold(c.operator) not in _ESSAY_OPERATORS and (
        c.material_key == essay.material_key or not c.materialien)


def as_the_gate_judges(usable: Sequence[TaskCandidate], request: MaterialRequest, topic: TopicContext | None,
                       operators: Sequence[str]) -> list[TaskCandidate]:
    """The tasks the final gate will keep: it judges by the topic the request resolves to, so a task filed
    elsewhere (the Erörterung topic beside „Medien“) must name the request's own words."""
    resolved = {t.id for t in topic.resolved} if topic is not None else set()
    return [c for c in usable if c.topic in resolved or not task_findings(
        [task_view(c)], thema=request.thema, unterthemen=request.unterthemen, topic=topic, operators=operators)]


def _essay(c: TaskCandidate) -> bool:
    return c.afb == "III" and c.minuten >= ESSAY_MINUTES


def closest(cands: Sequence[TaskCandidate], klassenstufe: int) -> list[TaskCandidate]:
    return sorted(cands, key=lambda c: (abs((c.klassenstufe or klassenstufe) - klassenstufe),
                                        (c.klassenstufe or 0) > klassenstufe, -c.punkte, c.key))


def plan(request: MaterialRequest, usable: Sequence[TaskCandidate], *, budget_minuten: int,
         klassenstufe: int) -> WritingPlan | None:
    """The writing exam for a request that names one issue, or None when it is not such a request."""
    named = request_issue(request) if klassenstufe <= 10 else None  # Oberstufe writing is material-based
    if named is None:
        return None
    issue, name = named
    gattung = "Opinion Essay" if fold(request.fach) == "englisch" else "Erörterung"
    on = [c for c in usable if issue is not None and task_issue(c) == issue]
    essays = closest([c for c in on if _essay(c)], klassenstufe)
    if not essays:
        return WritingPlan(issue=name, known=False, gattung=gattung)
    essay = next((c for c in essays if c.minuten <= budget_minuten), None)
    if essay is None:  # her time is too short for the essay: no exam of preparation tasks only
        return WritingPlan(issue=name, known=True, gattung=gattung, essay_minuten=min(c.minuten for c in essays))
    out = WritingPlan(issue=name, known=True, gattung=gattung, main_key=essay.key)
    out.chosen = around(essay, [c for c in on if _prep(c, essay)], budget_minuten=budget_minuten,
                        min_share=MIN_ESSAY_SHARE)
    if (genre := _other_genre(request, essay)) is not None:
        out.notes.append(f"Zu „{name}“ gibt es eine geprüfte Erörterung, aber keine Aufgabe „{genre}“: Die "
                         "Schreibaufgabe ist eine Erörterung zum selben Thema.")
    return out


def around(main: TaskCandidate, prep: Sequence[TaskCandidate], *, budget_minuten: int,
           min_share: float) -> list[TaskCandidate]:
    """The main task and up to MAX_PREP preparation tasks that fit her time while the main task keeps `min_share` of
    the points — on its material first, lower AFB first; the main task last, work on the material before it."""
    chosen, minuten = [main], main.minuten
    for c in sorted(prep, key=lambda c: (c.material_key != main.material_key, AFB_STUFEN.index(c.afb), c.key)):
        if len(chosen) > MAX_PREP or minuten + c.minuten > budget_minuten \
                or main.punkte < min_share * (sum(x.punkte for x in chosen) + c.punkte):
            continue
        chosen.append(c)
        minuten += c.minuten
    return sorted(chosen, key=lambda c: (c.key == main.key, AFB_STUFEN.index(c.afb), not refers_to_material(c.text)))


def _afb_note(k: Klausur, ziel: dict[str, int], p: Around, main: TaskCandidate | None, share: float) -> str | None:
    ist = k.afb_anteile
    if main is None or all(abs(ist[s] - ziel.get(s, 0)) <= 10 for s in AFB_STUFEN):
        return None
    return (f"AFB-Verteilung {'/'.join(f'{ist[s]:.0f}' for s in AFB_STUFEN)} statt "
            f"{'/'.join(str(ziel.get(s, 0)) for s in AFB_STUFEN)} %: {p.main_name} gehört zum AFB {main.afb} "
            f"und trägt {100 * share:.0f} % der Punkte"
            + (f"; die übrigen Punkte tragen die Vorarbeiten {p.bezug[1]}." if share < 1 else "."))


def refusal(p: WritingPlan, *, was: str, klassenstufe: int, dauer: int, known_here: Sequence[str]) -> Befund:
    """No exam: no reviewed essay on her issue, or her time is too short for it — said plainly, with what she can
    ask for instead (decision 054)."""
    befund = Befund(was=was, thema=p.issue, gefunden=0, gewuenscht_minuten=dauer, geschafft_minuten=0,
                    klassenstufe=klassenstufe)
    if p.known:
        befund.gefunden = 1  # the essay on her issue exists; only her time is too short for it
        mindestens = 5 * math.ceil(p.essay_minuten / 0.9 / 5)
        befund.grund = (f"{_FORMS[p.gattung][1]} zu „{p.issue}“ ist auf etwa {p.essay_minuten} Minuten Schreibzeit "
                        f"angelegt und passt nicht in {dauer} Minuten; eine Arbeit nur aus Vorarbeiten wäre "
                        f"{_FORMS[p.gattung][2]}. Nennen Sie eine Dauer von mindestens {mindestens} Minuten "
                        "(z. B. 90 Minuten), dann erstelle ich die Arbeit mit Vorarbeiten zum selben Thema.")
        return befund
    befund.grund = (f"Zu „{p.issue}“ liegt für Klasse {klassenstufe} {_FORMS[p.gattung][0]} mit "
                    "Erwartungshorizont vor. Eine Aufgabe, deren Erwartungshorizont nur allgemeine Kriterien nennt "
                    "(Aufbau, Sprache) und die inhaltlichen Argumente offenlässt, gebe ich nicht als fertige "
                    "Klassenarbeit aus, und Erörterungen zu anderen Themen setze ich nicht stillschweigend ein.")
    if known_here:
        befund.grund += (f" Geprüfte Schreibaufgaben dieser Art für Klasse {klassenstufe} gibt es zu "
                         + ", ".join(f"„{k}“" for k in known_here) + " – nennen Sie eines dieser Themen, dann "
                         "erstelle ich die Klassenarbeit dazu.")
    return befund


def issues_at(usable: Sequence[TaskCandidate]) -> list[str]:
    """The issues with a reviewed essay among the tasks at her class level, named in the reason."""
    found = {i.key for c in usable if _essay(c) and (i := task_issue(c)) is not None}
    return [i.name for i in ISSUES if i.key in found]


@dataclass(frozen=True)
class Frame:
    """What the exam composer decides for every exam: its kind, subject, level, aids, time and AFB target."""

    art: str
    fach_name: str
    niveau: str
    hilfsmittel: list[str]
    dauer: int
    afb_ziel: dict[str, int]


def compose(request: MaterialRequest, p: Around, frame: Frame, *, klassenstufe: int,
            notizen: Sequence[str] = ()) -> tuple[Klausur, Befund, Selection]:
    """The exam of one main task (an essay, an interpretation) and its preparation tasks, all on the named issue or
    text."""
    minuten, dauer = sum(c.minuten for c in p.chosen), frame.dauer
    befund = Befund(was=frame.art, thema=request.thema, gefunden=len(p.chosen), gewuenscht_minuten=request.dauer_minuten
                    or dauer, notizen=[*notizen, *p.notes], klassenstufe=klassenstufe)
    if dauer < (request.dauer_minuten or dauer):
        befund.geschafft_minuten = dauer
    gesamt, main = sum(c.punkte for c in p.chosen), p.main()
    thema = p.thema
    klausur = Klausur(
        titel=f"{frame.art} {frame.fach_name}: {thema}", fach=frame.fach_name, klassenstufe=klassenstufe,
        klasse=request.klasse, thema=thema, dauer_minuten=dauer, niveau=frame.niveau,
        hilfsmittel=frame.hilfsmittel,
        hinweise=[f"Bearbeitungszeit: {dauer} Minuten; insgesamt sind {gesamt} Punkte erreichbar.",
                  *([f"Alle Aufgaben beziehen sich auf {p.bezug[0]}: Die Vorarbeiten helfen dir beim Schreiben."]
                    if len(p.chosen) > 1 and p.main() is not None else [])],
        aufgaben=aufgaben(p.chosen, thema=thema),
    )
    if len(klausur.aufgaben) == 1 and (blocks := klausur.aufgaben[0].materialien):  # the material names the issue
        klausur.aufgaben[0].titel = re.sub(r"^M\d+\s*", "", blocks[0].titel)
    befund.afb_abweichung = _afb_note(klausur, frame.afb_ziel, p, main, main.punkte / gesamt if main and gesamt else 0)
    klausur.hinweise_lehrkraft = befund.hinweise()
    selection = Selection(chosen=list(p.chosen), minuten=minuten)
    return siezen_klausur(klausur), befund, selection
