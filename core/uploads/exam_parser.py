"""Reading an exam's text line by line into tasks and sub-tasks ("Aufgabe 1", "1.", "a)", "1.1", parts and
bonus tasks) — faithful, nothing invented."""

from __future__ import annotations

import re
from collections.abc import Mapping

from core.app.errors import UserError
from core.materials.faecher import FAECHER, normalize_fach
from core.uploads.annotations import NUM, UNIT, parse_number
from core.uploads.exam import ParsedExam, ParsedTask, exam_notes
from core.uploads.files import MAX_TEXT_CHARS
from core.uploads.operators import OperatorTable

_AUFGABE = re.compile(r"^(?:Aufgabe|Aufg\.)\s*(\d{1,2})\s*[.:)]?(?:\s+|$)(.*)$", re.IGNORECASE)
_BONUS = re.compile(r"^(Zusatzaufgabe|Bonusaufgabe|Zusatz|Bonus)\s*(\d{0,2})\s*[.:)]?(?:\s+|$)(.*)$", re.IGNORECASE)
_TOP_NUMBER = re.compile(r"^(\d{1,2})\s*(?:\.\)|[.)])(?!\d)\s*(.*)$")
_DOTTED = re.compile(r"^(\d{1,2})\.(\d{1,2})\s*(?:\.\)|[.)])?(?:\s+|$)(.*)$")
_LETTER = re.compile(r"^(?:\(([a-z])\)|([a-z])\s*\)|([a-z])\.(?=\s))\s*(.*)$")
_TEIL = re.compile(r"^(?:Teil|Abschnitt)\s+([A-Z]|[IVX]{1,4}|\d{1,2})\b(.*)$")
_TOTAL = re.compile(
    r"^(?:Gesamtpunktzahl|Gesamtpunkte|Gesamt|Summe|Punkte\s+gesamt|Punktzahl\s+gesamt|"
    r"(?:max(?:imal)?\.?\s*)?erreichbare\s+Punkt(?:e|zahl))\b\s*[:=]?\s*(?:\|\s*)?(?:_*\s*/\s*)?"
    rf"(?P<p>{NUM})(?:\s*{UNIT})?", re.IGNORECASE)
_FOOTER = re.compile(r"^(?:Viel\s+Erfolg|Notenschlüssel|Bewertungsschlüssel|Erreichte\s+Punkte|Note\s*:|"
                     r"(?:Aufgabe|Aufgaben|Punkte|Erreicht|BE)\s*\|)", re.IGNORECASE)
_TITLE_WORDS = re.compile(
    r"\b(?:Klassenarbeit|Klausur|Kursarbeit|Schulaufgabe|Leistungskontrolle|Lernkontrolle|Leistungsnachweis|"
    r"Kurzkontrolle|Test|Arbeitsblatt|Übungsblatt|Lernzielkontrolle|Probearbeit|Stegreifaufgabe|Prüfung|"
    r"Leistungserhebung|Wiederholung|Übung)", re.IGNORECASE)
_FIELD = re.compile(r"^(?:Name|Datum|Note|Unterschrift|Punkte)\s*:", re.IGNORECASE)
_KLASSE = re.compile(r"\b(?:Klassenstufe|Jahrgangsstufe|Jahrgang|Klasse|Kl\.|Jg\.|Stufe)\s*:?\s*(\d{1,2})(?!\d)",
                     re.IGNORECASE)
_DAUER = re.compile(r"\b(?:Bearbeitungszeit|Arbeitszeit|Dauer|Zeit)\s*:?\s*(\d{1,3})\s*"
                    r"(Minuten|Min\.?|min|Stunden|Std\.?|h)\b", re.IGNORECASE)
_DAUER_LOOSE = re.compile(r"\b(\d{2,3})\s*(?:Minuten|Min\.|min)(?![\wäöü])")
_FACH_FIELD = re.compile(r"\bFach\s*:?\s*([A-Za-zÄÖÜäöüß]+)")


def _clean_lines(text: str) -> list[str]:
    """Non-empty lines with runs of spaces collapsed; a tab stays (it separates right-aligned points)."""
    lines = []
    for raw in text[:MAX_TEXT_CHARS].replace("\r\n", "\n").replace("\x00", "").split("\n"):
        line = re.sub(r"[ \u00a0\f\v]+", " ", raw)
        line = re.sub(r" *\t[\t ]*", "\t", line).strip()
        if line:
            lines.append(line)
    return lines


def _top_number_chain(lines: list[str]) -> set[int]:
    """Line indexes of top-level "1." / "1)" tasks: the longest run 1, 2, 3 … (a title like "1. Klassenarbeit"
    followed by the real "1." loses to the later start)."""
    candidates = [(i, int(m.group(1))) for i, line in enumerate(lines) if (m := _TOP_NUMBER.match(line))]
    best: list[int] = []
    for start, (_, num) in enumerate(candidates):
        if num != 1:
            continue
        chain, expected = [candidates[start][0]], 2
        for i, n in candidates[start + 1:]:
            if n == expected:
                chain.append(i)
                expected += 1
        if len(chain) >= len(best):
            best = chain
    return set(best)


def _detect_fach(lines: list[str]) -> str | None:
    for line in lines:
        m = _FACH_FIELD.search(line)
        if m:
            try:
                return normalize_fach(m.group(1))
            except UserError:
                pass
    names = {**{v.lower(): k for k, v in FAECHER.items()}, "mathe": "mathematik", "erdkunde": "geographie",
             "geografie": "geographie", "bio": "biologie"}
    pattern = re.compile(r"(?<![\wäöüß])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True))
                         + r")(?![\wäöüß])", re.IGNORECASE)
    for line in lines:
        m = pattern.search(line)
        if m:
            return names[m.group(1).lower()]
    return None


def _title(lines: list[str]) -> str | None:
    def cell(line: str) -> str:
        parts = [p.strip() for p in line.split("|") if p.strip()]
        return next((p for p in parts if _TITLE_WORDS.search(p)), parts[0] if parts else line)

    for line in lines:
        if _TITLE_WORDS.search(line) and len(line) <= 160 and not _FIELD.match(line):
            return cell(line)[:200]
    for line in lines:
        if len(line) <= 120 and not _FIELD.match(line) and not _KLASSE.match(line):
            return cell(line)[:200]
    return None


class _Reader:
    """The parser's state while it reads an exam's lines, one after the other."""

    def __init__(self, lines: list[str]) -> None:
        self.aufgabe_style = any(_AUFGABE.match(line) for line in lines)
        self.number_tops = set() if self.aufgabe_style else _top_number_chain(lines)
        self.implicit_tops = not self.aufgabe_style and not self.number_tops
        self.vorspann: list[str] = []
        self.nachspann: list[str] = []
        self.tasks: list[ParsedTask] = []
        self.current: ParsedTask | None = None
        self.target: ParsedTask | None = None  # where the next line of text goes (a task or its sub-task)
        self.teil: str | None = None
        self.state = "pre"
        self.gesamt: float | int | None = None

    def start_task(self, nummer: str, rest: str, bonus: bool = False) -> None:
        self.current = ParsedTask(nummer=nummer, bonus=bonus, teil=self.teil)
        self.tasks.append(self.current)
        self.target, self.state = self.current, "task"
        if rest and not self.add_sub(rest):
            self.current.lines.append(rest)

    def _sub(self, style: str, nummer: str, first: str | None) -> bool:
        assert self.current is not None
        self.current.sub_style = style
        self.target = ParsedTask(nummer=nummer)
        self.current.teilaufgaben.append(self.target)
        if first:
            self.target.lines.append(first)
        return True

    def add_sub(self, line: str) -> bool:
        """A sub-task ("a)", "1.1", or "1." under "Aufgabe 1") of the current task starts here."""
        current = self.current
        if current is None:
            return False
        subs = current.teilaufgaben
        m = _LETTER.match(line)
        if m and current.sub_style in (None, "letter"):
            letter = m.group(1) or m.group(2) or m.group(3)
            if letter == chr(ord("a") + len(subs)):
                return self._sub("letter", letter, m.group(4))
        m = _DOTTED.match(line)
        if m and current.sub_style in (None, "dotted") and m.group(1) == current.nummer:
            return self._sub("dotted", f"{m.group(1)}.{m.group(2)}", m.group(3))
        m = _TOP_NUMBER.match(line)
        if m and self.aufgabe_style and current.sub_style in (None, "number") and int(m.group(1)) == len(subs) + 1:
            return self._sub("number", m.group(1), m.group(2))
        return False

    def read(self, i: int, line: str) -> None:
        total = _TOTAL.match(line)
        if total and self.gesamt is None:
            self.gesamt = parse_number(total.group("p"))
        m_auf = _AUFGABE.match(line) if self.aufgabe_style else None
        m_bonus = _BONUS.match(line)
        if m_auf:
            self.start_task(m_auf.group(1), m_auf.group(2))
        elif m_bonus and (self.state != "pre" or self.tasks):
            self.start_task(m_bonus.group(2) or "Zusatz", m_bonus.group(3), bonus=True)
        elif i in self.number_tops:
            m = _TOP_NUMBER.match(line)
            self.start_task(m.group(1), m.group(2))
        elif _TEIL.match(line) and len(line) <= 120:
            self.teil = line
            self.state, self.current, self.target = "between", None, None
        elif self.implicit_tops and (m := _DOTTED.match(line)) and (
                self.current is None or m.group(1) != self.current.nummer):
            self.start_task(m.group(1), "")  # "1.1", "1.2" without a "1." line: task 1 exists only as its number
            self.add_sub(line)
        else:
            self._text(line, is_total=total is not None)

    def _text(self, line: str, *, is_total: bool) -> None:
        """A line that starts nothing: it belongs to the current (sub-)task, a part's label, or around the tasks."""
        if self.state == "task" and self.current is not None:
            if is_total or _FOOTER.match(line):
                self.state = "post"
                self.nachspann.append(line)
            elif not self.add_sub(line):
                assert self.target is not None
                self.target.lines.append(line)
        elif self.state == "between" and self.teil is not None:
            self.teil = f"{self.teil}\n{line}"  # the introduction of a part ("Hilfsmittel: …") belongs to its label
        elif self.state == "pre":
            self.vorspann.append(line)
        else:
            self.nachspann.append(line)


def _fach_from_hint(fach_hint: str | None) -> str | None:
    if not fach_hint:
        return None
    try:
        return normalize_fach(fach_hint)
    except UserError:
        return None


def _dauer(head: list[str]) -> int | None:
    for line in head:
        m = _DAUER.search(line)
        if m:
            n = int(m.group(1))
            return n * 60 if m.group(2).lower().startswith(("h", "std", "stunde")) else n
    return next((int(m.group(1)) for line in head if (m := _DAUER_LOOSE.search(line))), None)


def parse_exam(text: str, *, fach_hint: str | None = None, operators: Mapping[str, str] | None = None) -> ParsedExam:
    """Tasks, sub-tasks, points, AFB and operators of an exam or worksheet text — faithful, nothing invented.

    `operators` (name -> AFB, e.g. the subject's list) overrides the general table when AFB is inferred."""
    table = OperatorTable.build(operators)
    lines = _clean_lines(text)
    reader = _Reader(lines)
    for i, line in enumerate(lines):
        reader.read(i, line)
    for t in reader.tasks:
        t.finish(table)
    head = reader.vorspann[:40]
    titel = _title(head)
    fach_doc = _detect_fach(head)
    fach = fach_doc if fach_doc is not None else _fach_from_hint(fach_hint)
    klassenstufe = next((int(m.group(1)) for line in head if (m := _KLASSE.search(line))
                         and 1 <= int(m.group(1)) <= 13), None)
    exam = ParsedExam(
        titel=titel, fach=fach, fach_im_dokument=fach_doc, klassenstufe=klassenstufe, dauer_minuten=_dauer(head),
        gesamtpunkte=reader.gesamt, aufgaben=reader.tasks,
        vorspann="\n".join(line for line in reader.vorspann if line != titel and not _TOTAL.match(line))[:4000],
        nachspann="\n".join(line for line in reader.nachspann if not _TOTAL.match(line))[:4000], hinweise=[],
    )
    exam.hinweise = exam_notes(exam)
    return exam
