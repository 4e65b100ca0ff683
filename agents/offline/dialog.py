"""The offline main agent's dialog about one request: what the conversation asks for, which question is still open,
how an answer fills it, and the next step — a question (never the same twice in a row) or generate_material's args.

It reads its own earlier questions from the conversation, as a real model would; core.language.request reads the
teacher's words.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from agents.offline.messages import Turn
from core.language.dauer import bare_minutes
from core.language.fold import prepare
from core.language.klasse import G9, KLASSENSTUFE_MAX, KLASSENSTUFE_MIN, Oberstufe, bare_klasse
from core.language.request.extract import extract, known_term, read_topic, with_typos_fixed
from core.language.request.extraction import FACH_NAMEN, Extraction, merge, missing_fields
from core.language.text import fold

MATERIAL_NAMES = {"klausur": "Klausur", "differenzierung": "differenziertes Arbeitsblatt", "h5p": "H5P-Übung"}
FACH_NAMES = dict(FACH_NAMEN)
Terms = Mapping[str, Mapping[str, Sequence[str]]]
Grades = Mapping[str, Mapping[str, frozenset[int]]]

# How this module words its questions, and how it recognises them in the conversation afterwards.
ASKED: dict[str, re.Pattern[str]] = {
    "fach": re.compile(r"welches Fach", re.I),
    "klassenstufe": re.compile(r"welche (Klasse|Klassenstufe|Jahrgangsstufe)", re.I),
    "thema": re.compile(r"Schwerpunkt", re.I),
    "dauer_minuten": re.compile(r"wie lange|welche Dauer", re.I),
    "material_type": re.compile(r"was soll entstehen", re.I),
}
_DELEGATION = re.compile(
    r"(?<![a-z])(egal|keine ahnung|such du|suche du|waehl du|waehle du|entscheide du|du entscheidest|"
    r"mach (?:einfach )?(?:was|etwas|irgendwas)|irgendwas|irgendein\w*|ueberrasch mich|was passendes|"
    r"was du willst|dir ueberlassen|freie wahl|beliebig|whatever|you choose|up to you)(?![a-z])"
)
_CHATTY = frozenset(str.split("""
    ich du wir sie mach mache machen nimm nehmen dachte denke glaube wuerde wuerden sollte soll vielleicht eher
    gern gerne lieber einfach was etwas okay ok ja nein hmm brauche brauchen haette moechte will"""))
_LEADING_KLASSE = re.compile(r"^\s*(\d{1,2})\s?([a-g])?\s*[,;:]")
_AS_SUBJECT_MATTER = r"\b(zu|zum|zur|über|ueber|thema)\s+(dem\s+|der\s+|die\s+|den\s+)?{stem}\w*"
MAX_TOPIC_ANSWER_WORDS = 8
_MASCULINE = frozenset({"Test"})  # "ein Test … soll er", not "eine Klausur … soll sie"
_SHORT_EXAMS = frozenset({"Test", "Kurzkontrolle", "Lernkontrolle", "Stegreifaufgabe"})


def asked_in(reply: str) -> set[str]:
    return {name for name, rx in ASKED.items() if rx.search(reply or "")}


def _facts(e: Extraction) -> bool:
    return any(v is not None for v in (e.klassenstufe, e.dauer_minuten, e.afb_verteilung, e.aufgaben_anzahl,
                                       e.material_type, e.niveau)) or bool(e.afb_wishes or e.problems)


def _topic_answer(e: Extraction, text: str, terms: Terms) -> Extraction | None:
    """A message that only names a topic, taken as the teacher wrote it ("Chemie im Haushalt", "Leben der
    Arbeiterfamilien im 19. Jahrhundert"), not cut down to the words the rules know."""
    folded = fold(prepare(text))
    words = folded.split()
    if _facts(e) or not (e.thema or e.area_text) or len(words) > MAX_TOPIC_ANSWER_WORDS:
        return None
    if any(w.strip(",.!?") in _CHATTY for w in words):
        return None
    if e.fach and re.match(r"^\s*\w+\s*([,:;.!]|$)", folded) and e.thema is None:
        return None  # "Chemie" or "Bio: …" answers the Fach
    thema, parts = read_topic(text, topic_terms=terms)
    return dataclasses.replace(e, thema=thema, unterthemen=parts) if thema else None


def answer(e: Extraction, text: str, open_fields: set[str], terms: Terms) -> Extraction:
    """The extraction of one message, completed by what it answers: a bare "8" to "Für welche Klasse?", "90" to
    "Wie lange?", free text or "egal" to "Welchen Schwerpunkt?"."""
    folded = fold(prepare(text))
    if "klassenstufe" in open_fields and e.klassenstufe is None:
        bare = bare_klasse(folded)
        lead = _LEADING_KLASSE.match(folded)
        if bare is None and lead and KLASSENSTUFE_MIN <= int(lead.group(1)) <= KLASSENSTUFE_MAX:
            bare = int(lead.group(1)), lead.group(2)
        if bare is not None:
            stufe, letter = bare
            e = dataclasses.replace(e, klassenstufe=stufe, klasse=f"{stufe}{letter}" if letter else None)
            folded = ""
    if "dauer_minuten" in open_fields and e.dauer_minuten is None and (minutes := bare_minutes(folded)):
        e = dataclasses.replace(e, dauer_minuten=minutes)
    if "thema" not in open_fields:
        return e
    if _DELEGATION.search(folded):
        known = e.thema if e.thema and known_term(e.thema, topic_terms=terms) else None
        return dataclasses.replace(e, thema=known or e.area_text, unterthemen=())
    topic = _topic_answer(e, text, terms)
    if topic is not None:
        return topic
    if e.thema is None and e.area_text:  # the area again: that is the topic
        return dataclasses.replace(e, thema=e.area_text)
    return e


def understand(turns: Sequence[Turn], terms: Terms, oberstufe: Oberstufe = G9) -> Extraction:
    """The request as the conversation so far states it (EF/Q1/Q2 as `oberstufe` names them)."""
    state = Extraction()
    delegated = False
    for turn in turns:
        e = extract(turn.text, topic_terms=terms, oberstufe=oberstufe, fach=state.fach)
        open_fields = asked_in(turn.reply_before)
        e = answer(e, with_typos_fixed(turn.text, e.typos), open_fields, terms)
        delegated = "thema" in open_fields and bool(_DELEGATION.search(fold(prepare(turn.text))))
        state = merge(state, e)
    if state.thema is None and state.area_text:
        stem = re.escape(fold(state.area_text)[: max(5, len(state.area_text) - 2)])
        named = any(re.search(_AS_SUBJECT_MATTER.format(stem=stem), fold(t.text)) for t in turns)
        if named or delegated:  # "Klausur zur Optik", or "such du aus" after the area was named
            state = dataclasses.replace(state, thema=state.area_text)
    return state


# --- questions ---------------------------------------------------------------------------------------------------


def suggest_topics(terms: Terms, e: Extraction, grades: Grades | None = None, n: int = 4) -> list[str]:
    """Topics to offer: the terms of the named area, else the Themenfelder of the Fach that fit the Klassenstufe."""
    fields = terms.get(e.fach or "", {})
    if e.fach_hint and e.fach_hint in fields:
        return list(fields[e.fach_hint])[:n]
    names = list(fields)
    years = (grades or {}).get(e.fach or "", {})
    if e.klassenstufe and years:
        def distance(name: str) -> int:
            return min((abs(y - (e.klassenstufe or 0)) for y in years.get(name, ())), default=99)

        names = sorted((f for f in names if distance(f) <= 1), key=distance) or names
    return names[:n]


def _question(field: str, e: Extraction, again: bool, terms: Terms, grades: Grades | None,
              oberstufe: Oberstufe = G9) -> str:
    if field == "material_type":
        return ("Was soll entstehen: eine Klausur (mit Dauer), ein differenziertes Arbeitsblatt (drei Niveaus) oder "
                "eine interaktive H5P-Übung?")
    if field == "fach":
        return "Für welches Fach?"
    if field == "klassenstufe":
        if e.niveau and not again:
            return oberstufe.question()
        if again:
            return (f"Welche Klassenstufe genau? Bitte als Zahl von {KLASSENSTUFE_MIN} bis {KLASSENSTUFE_MAX} "
                    "(z. B. „8“) oder als Oberstufenjahrgang („EF“, „Q1“, „Q2“).")
        return "Für welche Klasse bzw. Klassenstufe?"
    if field == "thema":
        pronoun = _pronoun(e)
        if again:
            options = suggest_topics(terms, e, grades, n=5)
            listed = "".join(f"\n- {o}" for o in options)
            return (f"Mir fehlt noch der Schwerpunkt. Zur Auswahl zum Beispiel:{listed}\nOder nennen Sie ein "
                    "eigenes Thema in ein paar Worten." if options else
                    "Mir fehlt noch der Schwerpunkt: Nennen Sie bitte das Thema in ein paar Worten.")
        topics = suggest_topics(terms, e, grades)
        ex = f" Zum Beispiel: {', '.join(topics)}." if topics else ""
        return f"Welchen Schwerpunkt soll {pronoun} haben?{ex}"
    if again:
        return "Welche Dauer soll ich ansetzen – bitte in Minuten (z. B. 45 oder 90)?"
    if e.exam_word in _SHORT_EXAMS:
        return f"Wie lange soll {_pronoun(e)} dauern – z. B. 20 oder 30 Minuten?"
    return f"Wie lange soll {_pronoun(e)} dauern – 45 Minuten oder eine Doppelstunde (90 Minuten)?"


def _material_name(e: Extraction) -> str:
    """The material as the teacher named it: "Test", "Klassenarbeit", else the type's name."""
    if e.material_type == "klausur" and e.exam_word:
        return e.exam_word
    return MATERIAL_NAMES[e.material_type] if e.material_type else "Material"


def _pronoun(e: Extraction) -> str:
    if e.material_type == "klausur":
        return "er" if _material_name(e) in _MASCULINE else "sie"
    return {"h5p": "sie"}.get(e.material_type or "", "es")


def _intro(e: Extraction) -> str:
    if not e.material_type:
        return "Gern helfe ich."
    bits = []
    if e.fach:  # the teacher's topic when it is known ("zu „Exponentialfunktionen und Wachstum“"), else the area
        area = f" ({e.fach_hint})" if e.fach_hint and not e.thema else ""
        bits.append(f"in {FACH_NAMES.get(e.fach, e.fach)}{area}")
    if e.thema:
        bits.append(f"zu „{e.thema}“")
    if e.klasse:
        bits.append(f"für die {e.klasse}")
    elif e.klassenstufe:
        bits.append(f"für Klasse {e.klassenstufe}")
    name = _material_name(e)
    article = "ein" if e.material_type == "differenzierung" or name in _MASCULINE else "eine"
    return f"Gern — {article} {name} {' '.join(bits)}".rstrip() + "."


def ask(e: Extraction, missing: list[str], previous_reply: str, terms: Terms,
        grades: Grades | None = None, oberstufe: Oberstufe = G9) -> str:
    """The question for what is missing; what the previous reply already asked in vain is asked differently."""
    before = asked_in(previous_reply)
    questions = [_question(f, e, f in before, terms, grades, oberstufe) for f in missing]
    intro = _intro(e)
    if before & set(missing):
        intro = intro.replace("Gern — ", "Für ").rstrip(".") + " fehlt mir noch etwas." if e.material_type else ""
    text = _with_questions(intro, questions)
    if text == previous_reply:  # asked exactly so before: say so instead of repeating it word for word
        text = _with_questions("Entschuldigung, das habe ich noch nicht verstanden.", questions)
    return text


def _with_questions(intro: str, questions: list[str]) -> str:
    if len(questions) == 1:
        return f"{intro} {questions[0]}".strip()
    n = "Zwei" if len(questions) == 2 else "Ein paar"
    return f"{intro} {n} Fragen noch:\n".lstrip() + "\n".join(f"{i}. {q}" for i, q in enumerate(questions, 1))


def missing(e: Extraction) -> list[str]:
    """What must still be asked. A Dauer only for a Klausur (and only once the material type is clear)."""
    fields = missing_fields(e)
    if e.material_type != "klausur":
        fields = [f for f in fields if f != "dauer_minuten"]
    return fields


def arguments(e: Extraction, texts: Sequence[str]) -> dict[str, Any]:
    """The generate_material call for a complete request."""
    args: dict[str, Any] = {
        "fach": e.fach, "thema": e.thema, "material_type": e.material_type, "klassenstufe": e.klassenstufe,
        "klasse": e.klasse, "dauer_minuten": e.dauer_minuten, "zusatz": " ".join(t.strip() for t in texts)[:500],
    }
    if e.unterthemen:
        args["unterthemen"] = list(e.unterthemen)
    if e.aufgaben_anzahl is not None:
        args["anzahl"] = e.aufgaben_anzahl
    if e.niveau is not None:
        args["niveau"] = e.niveau
    if e.afb_verteilung:
        args["afb_ziel"] = dict(zip(("I", "II", "III"), e.afb_verteilung, strict=True))
    if e.afb_wishes:
        args["afb_wuensche"] = [{"thema": w.thema, "afb": w.afb} for w in e.afb_wishes]
    return args


SAME_AS_REFUSED = ("Mit denselben Angaben kann ich nichts anderes erstellen. Was soll ich ändern – ein anderes oder "
                   "weiter gefasstes Thema, eine andere Klassenstufe oder eine andere Materialart? Eigene Aufgaben "
                   "können Sie auf der Seite „Hochladen“ ergänzen.")


def same_request(args: Mapping[str, Any], refused: Mapping[str, Any]) -> bool:
    """Whether a generate_material call asks exactly what was refused (the wording in `zusatz` aside)."""
    def core(a: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in a.items() if k != "zusatz" and v not in (None, [], "")}

    return core(args) == core(refused)


def typo_note(text: str, terms: Terms, oberstufe: Oberstufe = G9, fach: str | None = None) -> str:
    """„Ich nehme an, Sie meinen „Satz des Pythagoras“.“ when the message misspelt a word of its topic (`fach`: the
    conversation's Fach so far)."""
    e = extract(text, topic_terms=terms, oberstufe=oberstufe, fach=fach)
    if not e.thema or not any(fold(meant) in fold(e.thema) for _, meant in e.typos):
        return ""
    return f"Ich nehme an, Sie meinen „{e.thema}“."


NOT_IN_SCOPE = ("Dabei kann ich leider nicht helfen. Ich erstelle Klausuren, differenzierte Arbeitsblätter und "
                "H5P-Übungen für den Unterricht – sagen Sie mir Fach, Klasse, Thema und Dauer, dann lege ich los.")


def _chosen_for_teacher(state: Extraction, turns: Sequence[Turn], terms: Terms,
                        grades: Grades | None) -> Extraction:
    """The teacher left the topic to the assistant ("egal") even after concrete options: take the first one."""
    offered = [t for t in turns if "thema" in asked_in(t.reply_before) and "Zur Auswahl" in t.reply_before]
    delegated = any(_DELEGATION.search(fold(prepare(t.text))) for t in turns
                    if "thema" in asked_in(t.reply_before))
    options = suggest_topics(terms, state, grades, n=1)
    if state.thema is None and offered and delegated and options:
        return dataclasses.replace(state, thema=options[0])
    return state


def next_step(turns: Sequence[Turn], terms: Terms, grades: Grades | None = None, oberstufe: Oberstufe = G9,
              faecher: Sequence[str] = ()) -> str | dict[str, Any]:
    """A reply to the teacher (question or problem) or the arguments of generate_material; EF, Q1 and Q2 are read
    as the teacher's Bundesland names them (`oberstufe`). When the topic words point to several Fächer equally,
    the one the teacher teaches (`faecher`, Fach keys) is taken; otherwise she is asked (decision 064)."""
    latest = extract(turns[-1].text, topic_terms=terms, oberstufe=oberstufe)
    if latest.problems:
        return " ".join(latest.problems)
    state = _chosen_for_teacher(understand(turns, terms, oberstufe), turns, terms, grades)
    if state.klassenstufe is None and state.niveau is not None:  # „Deutsch LK“: the Oberstufe (decision 068)
        state = replace(state, klassenstufe=oberstufe.course_year())
    if state.fach is None and len(mine := [f for f in state.fach_options if f in faecher]) == 1:
        state = replace(state, fach=mine[0], fach_source="topic")
    if not (state.fach or state.material_type or state.thema):
        return NOT_IN_SCOPE
    if state.material_type is None and state.dauer_minuten:  # only an exam has a duration („Erörterung, 90 Minuten“)
        state = replace(state, material_type="klausur")
    todo = missing(state)
    if todo:
        return ask(state, todo, turns[-1].reply_before, terms, grades, oberstufe)
    return arguments(state, [t.text for t in turns])
