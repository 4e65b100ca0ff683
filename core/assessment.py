"""Assessment aid (human-led): a pupil's answer to one sub-task of a stored Klausur is held against that task's
Erwartungshorizont — per criterion met / partly / not found, the evidence quoted from the answer, a point range.

It is a suggestion for the teacher, never a grade. Pupil answers are personal data: nothing here writes them to the
database or to a log; they live only as long as the call.
"""

from __future__ import annotations

import logging
import re
import unicodedata
import uuid
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Literal, Protocol

from core.app.acting import acting
from core.app.errors import NotFoundError, UserError
from core.materials import Klausur, Kriterium, Teilaufgabe
from core.materials_service import local_time
from core.notenschluessel import format_punkte
from core.uploads.files import extract_text, safe_filename
from core.verification import Quantity, quantities, tokenize
from db.repos import materials as material_repo

log = logging.getLogger(__name__)

Met = Literal["yes", "partly", "no"]
MAX_ANSWER_CHARS = 20_000
HINWEIS = "Vorschlag — die Bewertung liegt bei Ihnen."
DATENSCHUTZ = ("Die Schülerantwort wird nur für diese Prüfung verwendet: Sie wird weder gespeichert noch an ein "
               "Sprachmodell geschickt.")
RULE_ASSESSOR = "regelbasiert"
UPLOAD_TYPES = ("txt", "docx")
MAX_EXAMS = 100


# --- results -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CriterionCheck:
    """One line of the checklist: a criterion of the Erwartungshorizont and what the answer shows of it."""

    kriterium: str
    punkte: int
    met: Met
    evidence: list[str]  # sentences quoted verbatim from the answer
    gefunden: list[str]  # what was recognised: terms, values, formulas
    fehlt: list[str]  # what the criterion names but the answer does not show
    punkte_min: int
    punkte_max: int
    automatisch: bool = True  # False: nothing in the criterion can be checked by rules — the teacher judges


@dataclass(frozen=True)
class Assessment:
    material_id: uuid.UUID
    task_ref: str
    klausur: str
    aufgabe: str
    operator: str
    afb: str
    max_punkte: int
    checks: list[CriterionCheck]
    punkte_min: int
    punkte_max: int
    assessor: str
    notes: list[str] = field(default_factory=list)
    hinweis: str = HINWEIS

    @property
    def spanne(self) -> str:
        """'5–7 von 10 Punkten' (or '7 von 10 Punkten' when both ends agree)."""
        von = (f"{self.punkte_min}" if self.punkte_min == self.punkte_max
               else f"{self.punkte_min}–{self.punkte_max}")
        return f"{von} von {self.max_punkte} {'Punkt' if self.max_punkte == 1 else 'Punkten'}"


class Assessor(Protocol):
    """What checks one answer against one sub-task. The rule-based assessor works offline; an LLM assessor may be
    plugged in later — it would send the pupil's answer to a model provider, so it must stay an explicit choice of
    the school (data protection), never a silent default."""

    name: str

    def check(self, *, task: Teilaufgabe, material: str | None, answer: str) -> list[CriterionCheck]: ...


# --- text analysis -----------------------------------------------------------------------------------------------

_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})
_WORD = re.compile(r"[a-zäöüß]+")
# Function words and the vocabulary of Erwartungshorizonte ('nennt', 'Ansatz', 'korrekt'): they say how a criterion
# is phrased, not what the answer must contain.
_STOP_WORDS = """
aber alle allen aller alles also als am an andere anderen auch auf aus bei beide beiden beim bereits bis bzw ca da
dabei dadurch dafuer damit dann darauf daraus das dass dem den denen der deren des dessen die dies diese diesem diesen
dieser dieses doch dort durch ein eine einem einen einer eines einmal er es etwa etwas fuer gegen hier ihr ihre ihm
ihn im in ins ist jede jedem jeden jeder jedes jeweils kann kein keine man mehr mit muss nach nicht noch nur ob oder
ohne sehr sein seine seiner sich sie sind so sowie statt ueber um und uns unter vom von vor wann war was weil wenn
werden wie wir wird wo zu zum zur zwischen z b zb usw ggf evtl bzw
ansatz angesetzt angegeben angeben angibt antwort antwortsatz aufgestellt beachtet begruendet begruendetes
begruendete begruendung benannt benennt berechnet berechnung beschreibt beschreibung beurteilt bestimmt bildet
darstellung deutung dargestellt eingesetzt einsetzen einheit einheiten erkannt erkennt erlaeutert erlaeuterung
ergebnis erklaert erklaerung fazit folgerung formuliert gebildet genannt gezeigt gibt hinweis korrekt korrekte
korrekter mindestens nachvollziehbar nennt nennung notiert punkt punkte richtig richtige richtiger sachgerecht
schluss schueler schuelerin schuelerinnen sinnvoll sinnvolle stellt stimmig urteil vergleich vergleicht
vollstaendig zutreffend zutreffende aspekt aspekte beispiel beispiele weiterer weitere
"""
_STOP = frozenset(_STOP_WORDS.split())
_OPTIONAL = re.compile(r"\([^()]*\)|\bz\.\s?B\..*$|\bzum Beispiel\b.*$|\boder\b[^.;]*$", re.I)
_SENTENCE = re.compile(r"(?:[^\n.!?;]|\.(?=\d))+(?:[.!?;]+|\n|$)")  # '0.25 A' does not end a sentence


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold().translate(_FOLD)


def _stem(word: str) -> str:
    """A light German stemmer: enough to meet 'Spannungen'/'Spannung', 'Lampe'/'Lampen', 'geschaltet'/'schaltet'."""
    for long, short in (("ungen", "ung"), ("heiten", "heit"), ("keiten", "keit"), ("innen", "in")):
        if word.endswith(long):
            return word[: -len(long)] + short
    for suffix in ("ern", "en", "er", "es", "em", "e", "n", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            return word[: -len(suffix)]
    return word


def _terms(text: str) -> list[str]:
    """Content words of a text as stems, in order, without duplicates (length ≥ 4, no function words)."""
    out: dict[str, None] = {}
    for w in _WORD.findall(_fold(text)):
        if len(w) >= 4 and w not in _STOP:
            out[_stem(w)] = None
    return list(out)


def _distance_at_most(a: str, b: str, limit: int) -> bool:
    if abs(len(a) - len(b)) > limit:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        cur = [i]
        for j, cb in enumerate(b, start=1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return False
        prev = cur
    return prev[-1] <= limit


_LINKS = ("s", "es", "n", "en", "e", "")


def _term_score(term: str, stems: set[str]) -> float:
    """1.0 when the answer has the term (also inside a compound, or spelled slightly wrong), 0.5 for half a compound."""
    if term in stems:
        return 1.0
    for s in stems:
        if len(s) >= len(term) + 3 and s.endswith(term):  # 'widerstand' in 'gesamtwiderstand'
            return 1.0
        limit = 2 if len(term) >= 10 else 1 if len(term) >= 7 else 0
        if limit and _distance_at_most(term, s, limit):  # 'wiederstand'
            return 1.0
    # the criterion's compound spelled out: 'Stromstärke' ~ 'Stärke des Stroms'
    for head in (s for s in stems if len(s) >= 4 and term.endswith(s) and len(term) - len(s) >= 3):
        rest = term[: -len(head)]
        for link in _LINKS:
            modifier = rest[: len(rest) - len(link)] if link and rest.endswith(link) else rest
            if len(modifier) >= 3 and any(s.startswith(modifier) for s in stems if s != head):
                return 1.0
        return 0.5
    if any(len(s) >= 5 and s.startswith(term) and len(s) >= len(term) + 3 for s in stems):
        return 0.5  # 'strom' -> 'stromstaerke': related, not the same
    return 0.0


def _is_symbol(text: str) -> bool:
    return ((len(text) <= 2 and _fold(text) not in _STOP) or any(c in text for c in "₀₁₂₃₄₅₆₇₈₉_")
            or text.startswith("Δ"))


def _formulas(text: str) -> list[tuple[frozenset[str], str]]:
    toks = tokenize(text)
    found: list[tuple[frozenset[str], str]] = []
    for r, t in enumerate(toks):
        if t.kind != "rel" or r == 0 or toks[r - 1].kind != "word" or not _is_symbol(toks[r - 1].text):
            continue
        symbols = {toks[r - 1].text.casefold()}
        numeric = False
        prev_kind, end = "op", t.end
        for u in toks[r + 1:]:
            if u.kind == "word" and _is_symbol(u.text) and prev_kind in ("op", "lp"):
                symbols.add(u.text.casefold())
            elif u.kind in ("num", "frac"):
                numeric = True
                break
            elif u.kind not in ("op", "lp", "rp", "sup", "pi", "sqrt", "vulgar") or (u.kind == "op" and u.text == ":"):
                break
            prev_kind, end = u.kind, u.end
        if not numeric and len(symbols) >= 2:
            found.append((frozenset(symbols), text[toks[r - 1].start: end].strip()))
    return found


def formulas(text: str) -> list[frozenset[str]]:
    """Symbolic formulas of a text as sets of their symbols: 'R = U / I' -> {r, u, i} (so 'U = R · I' matches)."""
    return [f for f, _ in _formulas(text)]


_VALUE_NAME = re.compile(r"([A-Za-zΑ-Ωα-ωΔ][A-Za-z₀-₉\d_'′]*(?:\([^()=]{1,12}\))?)\s*[=≈]\s*$")
_TUPLE = re.compile(r"\(\s*([−-]?\d+(?:,\d+)?(?:\s*[|;]\s*[−-]?\d+(?:,\d+)?)+)\s*\)")
_SUBSCRIPTS = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


@dataclass(frozen=True)
class _Named:
    """A value with the symbol it is assigned to, if any: 'x₁ = 1' -> ('x1', 1)."""

    quantity: Quantity
    name: str | None

    @property
    def weak(self) -> bool:
        """Small whole numbers without a unit ('1', '2') turn up everywhere: alone they are weak evidence."""
        v = self.quantity.value
        return not v.united and float(v.raw).is_integer() and abs(v.raw) <= 12


def _named_values(text: str) -> list[_Named]:
    inside = [(m.start(), m.end()) for m in _TUPLE.finditer(text)]
    out = []
    for q in quantities(text):
        if any(a <= q.start < b for a, b in inside):
            continue  # coordinates are compared as a whole
        m = _VALUE_NAME.search(text[: q.start])
        out.append(_Named(q, m.group(1).translate(_SUBSCRIPTS).casefold() if m else None))
    return out


def _tuples(text: str) -> list[tuple[float, ...]]:
    return [tuple(float(x.strip().replace("−", "-").replace(",", ".")) for x in re.split(r"[|;]", m.group(1)))
            for m in _TUPLE.finditer(text)]


@dataclass
class _Sentence:
    text: str
    stems: set[str]
    values: list[_Named]
    tuples: list[tuple[float, ...]]
    formulas: list[frozenset[str]]
    math: str  # the sentence in the normalized form of `_expressions`


def _decimal_points(text: str) -> str:
    """Pupils often type '0.25 A': read a point between digits as a decimal comma — except thousands ('1.000')."""
    return re.sub(r"(?<![\d.])(\d+)\.(\d{1,2}|\d{4,})(?![\d.])", r"\1,\2", text)


def _sentences(answer: str) -> list[_Sentence]:
    out = []
    for m in _SENTENCE.finditer(answer):
        raw = m.group().strip()
        if not raw:
            continue
        readable = _decimal_points(raw)
        out.append(_Sentence(raw, {_stem(w) for w in _WORD.findall(_fold(readable)) if len(w) >= 3},
                             _named_values(readable), _tuples(readable), formulas(readable), _norm_math(readable)))
    return out


def _value_score(wanted: _Named, got: _Named) -> float:
    """1.0 for the same value (and dimension), 0.5 for the right number without the unit the criterion has, or for
    a small whole number that is not assigned to the same symbol."""
    w, g = wanted.quantity.value, got.quantity.value
    if w.united and g.united:
        if w.dims != g.dims:
            return 0.0
        # the criterion's stated precision, or 2 %: pupils round differently, but '9 A' is not '8,7 A'
        tol = max(0.02 * abs(w.si), (w.half_digit or 0) * (w.unit_scale if w.ops == 0 else 1))
        return 1.0 if abs(w.si - g.si) <= max(tol, 1e-12) else 0.0
    tol = max(0.02 * abs(w.raw), w.half_digit or 0)
    if abs(w.raw - g.raw) > max(tol, 1e-12):
        return 0.0
    score = 0.5 if w.united and not g.united else 1.0
    if wanted.weak and not (wanted.name and wanted.name == got.name):
        score = min(score, 0.5)
    return score


def _tuple_score(wanted: tuple[float, ...], got: tuple[float, ...]) -> float:
    if len(wanted) != len(got):
        return 0.0
    return 1.0 if all(abs(a - b) <= max(0.02 * abs(a), 0.05) for a, b in zip(wanted, got, strict=True)) else 0.0


# --- rule-based assessor -----------------------------------------------------------------------------------------


@dataclass
class _Component:
    label: str
    weight: float
    optional: bool
    quantity: _Named | None = None
    formula: frozenset[str] | None = None
    coordinates: tuple[float, ...] | None = None
    expression: str | None = None  # normalized, e.g. "f'(x)=12x²-2"
    score: float = 0.0
    sentence: int | None = None


_MATH_NORM = str.maketrans({"−": "-", "–": "-", "·": "*", "×": "*", "⋅": "*", "′": "'", "≈": "="})
_RUN_BREAK = re.compile(r"[,;:](?=\s)|\.(?=\s|$)|(?<!\S)(?!(?:sin|cos|tan|log|lg|ln)\b)[A-Za-zÄÖÜäöüß]{3,}(?!\S)")


def _norm_math(text: str) -> str:
    return re.sub(r"\s+", "", text.translate(_MATH_NORM)).replace("^2", "²").replace("^3", "³").rstrip(".")


def _has_unit(text: str) -> bool:
    """Physics-style calculations ('R = 24 Ω') are matched by their values, not as written."""
    return any(q.value.united for q in quantities(text))


def _expressions(text: str) -> list[tuple[int, int, str]]:
    """Symbolic math of a text ('f'(x) = 12x² − 2', 'x = 14'): spans and normalized form, split at words and
    punctuation. Matched as written (after normalizing spaces, signs and powers), since rules cannot do algebra."""
    out = []
    pos = 0
    for m in [*_RUN_BREAK.finditer(text), None]:
        end = m.start() if m else len(text)
        run = text[pos:end]
        stripped = run.strip()
        if stripped and re.search(r"[=≈]", stripped) and re.search(r"[A-Za-zα-ωΔ]", stripped) \
                and re.search(r"\d", stripped) and len(_norm_math(stripped)) >= 3 and not _has_unit(stripped):
            start = pos + run.index(stripped)
            out.append((start, start + len(stripped), _norm_math(stripped)))
        pos = m.end() if m else len(text)
    return out


def _components(kriterium: str) -> list[_Component]:
    """What a criterion asks for: its values, formulas and key terms. Parenthesised parts and examples ('z. B. …',
    '… oder …') are optional: they count when found, but are not required."""
    core = _OPTIONAL.sub(" ", kriterium)
    required_values = [n.quantity.value.si for n in _named_values(core)]
    expressions = _expressions(kriterium)
    core_norm = _norm_math(core)
    numbers = _named_values(kriterium)
    comps: list[_Component] = [_Component(kriterium[a:b], 3.0, e not in core_norm, expression=e)
                               for a, b, e in expressions]
    for n, named in enumerate(numbers):
        q = named.quantity
        optional = all(abs(v - q.value.si) > 1e-12 * max(1.0, abs(v)) for v in required_values)
        comps.append(_Component(kriterium[q.start:q.end], 3.0 if n == len(numbers) - 1 else 2.0, optional,
                                quantity=named))
    core_tuples = set(_tuples(core))
    for m, coords in zip(_TUPLE.finditer(kriterium), _tuples(kriterium), strict=True):
        comps.append(_Component(m.group(), 3.0, coords not in core_tuples, coordinates=coords))
    core_formulas = set(formulas(core))
    for f, shown in dict(_formulas(kriterium)).items():
        comps.append(_Component(f"Formel {shown}", 2.0, f not in core_formulas, formula=f))
    symbols = {s for c in comps if c.formula for s in c.formula}
    core_terms = set(_terms(core))
    for term in _terms(kriterium):
        if term not in symbols:
            comps.append(_Component(term, 1.0, term not in core_terms))
    if comps and all(c.optional for c in comps):  # 'Begründetes Urteil, z. B. mit …': the example is the content
        for c in comps:
            c.optional = False
    return comps


def _scores(comp: _Component, sentences: list[_Sentence]) -> list[float]:
    out = []
    for s in sentences:
        if comp.quantity is not None:
            out.append(max((_value_score(comp.quantity, q) for q in s.values), default=0.0))
        elif comp.coordinates is not None:
            out.append(max((_tuple_score(comp.coordinates, t) for t in s.tuples), default=0.0))
        elif comp.expression is not None:
            out.append(1.0 if comp.expression in s.math else 0.0)
        elif comp.formula is not None:  # the same symbols, in any arrangement: 'U = R · I' shows 'R = U / I'
            out.append(1.0 if any(comp.formula <= f for f in s.formulas) else 0.0)
        else:
            out.append(_term_score(comp.label, s.stems))
    return out


def _score_all(comps: list[_Component], sentences: list[_Sentence]) -> None:
    """Best score per component; ties go to the sentence that shows most of the criterion (the evidence)."""
    table = [_scores(c, sentences) for c in comps]
    totals = [sum(c.weight * row[i] for c, row in zip(comps, table, strict=True)) for i in range(len(sentences))]
    for comp, row in zip(comps, table, strict=True):
        if not row or max(row) == 0:
            continue
        comp.score = max(row)
        comp.sentence = max((i for i, v in enumerate(row) if v == comp.score), key=lambda i: (totals[i], -i))


def _range(met: Met, punkte: int) -> tuple[int, int]:
    if met == "yes":
        return punkte, punkte
    if met == "partly":
        return (punkte // 2, punkte - 1) if punkte > 1 else (0, 1)
    return 0, 0


def _quote(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _display(comp: _Component, kriterium: str) -> str:
    """A component as the teacher reads it: the value or formula as written, a term in the criterion's spelling."""
    if comp.quantity is not None or comp.formula is not None or comp.coordinates is not None or comp.expression:
        return comp.label
    return next((w for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", kriterium) if _stem(_fold(w)) == comp.label), comp.label)


class RuleAssessor:
    """Offline and conservative: key terms (stems, compounds, small typos), values with units (numerically, with
    tolerance) and formula symbols of each criterion are looked up in the answer. It cannot judge reasoning — a
    criterion it finds nothing of is 'not found', not 'wrong'."""

    name = RULE_ASSESSOR

    def check(self, *, task: Teilaufgabe, material: str | None, answer: str) -> list[CriterionCheck]:
        sentences = _sentences(answer)
        return [self._criterion(k, sentences) for k in task.erwartung]

    def _criterion(self, k: Kriterium, sentences: list[_Sentence]) -> CriterionCheck:
        comps = _components(k.text)
        if not comps:
            return CriterionCheck(k.text, k.punkte, "no", [], [], [], 0, k.punkte, automatisch=False)
        _score_all(comps, sentences)
        required = [c for c in comps if not c.optional]
        total = sum(c.weight for c in required)
        got = sum(c.weight * c.score for c in required) + 0.5 * sum(c.weight * c.score for c in comps if c.optional)
        ratio = min(1.0, got / total) if total else 0.0
        met: Met = "yes" if ratio >= 0.7 else "partly" if ratio >= 0.3 or (ratio > 0 and total <= 2) else "no"
        found = [c for c in comps if c.score > 0]
        # evidence: the sentences that carry most of what was found
        weight_by_sentence: dict[int, float] = {}
        for c in found:
            if c.sentence is not None:
                weight_by_sentence[c.sentence] = weight_by_sentence.get(c.sentence, 0.0) + c.weight * c.score
        ranked = sorted(weight_by_sentence, key=lambda i: (-weight_by_sentence[i], i))
        # a second sentence only when it carries a real share of the evidence, not one stray word
        best = ranked[:1] + [i for i in ranked[1:2] if weight_by_sentence[i] >= max(2.0, 0.5 * weight_by_sentence[
            ranked[0]])]
        evidence = [_quote(sentences[i].text) for i in sorted(best)] if met != "no" else []
        lo, hi = _range(met, k.punkte)
        return CriterionCheck(
            kriterium=k.text, punkte=k.punkte, met=met, evidence=evidence,
            gefunden=[_display(c, k.text) + (" (ohne Einheit)" if c.score == 0.5 and c.quantity is not None else "")
                      for c in found],
            fehlt=[_display(c, k.text) for c in required if c.score == 0],
            punkte_min=lo, punkte_max=hi)


def default_assessor() -> Assessor:
    """The assessor used for the page. Always rule-based for now, also with a real model configured: sending pupil
    answers to a provider needs the school's consent and is therefore a separate, explicit setting (not built yet)."""
    return RuleAssessor()


# --- service -----------------------------------------------------------------------------------------------------


def _normalize_ref(task_ref: str) -> str:
    text = re.sub(r"(?i)^\s*(teil)?aufgabe\s*", "", task_ref or "")
    return re.sub(r"[\s).]", "", text).casefold()


def _find_task(k: Klausur, task_ref: str) -> tuple[str, Teilaufgabe]:
    wanted = _normalize_ref(task_ref)
    refs: list[tuple[str, Teilaufgabe]] = [(f"{a.nummer}{t.kennung}", t) for a in k.aufgaben for t in a.teilaufgaben]
    for ref, teil in refs:
        if ref.casefold() == wanted:
            return ref, teil
    single = [a for a in k.aufgaben if str(a.nummer) == wanted and len(a.teilaufgaben) == 1]
    if single:
        teil = single[0].teilaufgaben[0]
        return f"{single[0].nummer}{teil.kennung}", teil
    known = ", ".join(ref for ref, _ in refs)
    raise UserError(f"Die Teilaufgabe „{task_ref.strip() or '(leer)'}“ gibt es in dieser Klausur nicht. "
                    f"Vorhanden sind: {known}.")


def _material_of(task: Teilaufgabe, k: Klausur) -> str | None:
    return next((a.material for a in k.aufgaben if any(t is task for t in a.teilaufgaben)), None)


def _load_exam(teacher_id: uuid.UUID, material_id: uuid.UUID | str) -> tuple[uuid.UUID, Klausur]:
    try:
        mid = material_id if isinstance(material_id, uuid.UUID) else uuid.UUID(str(material_id))
    except ValueError:
        raise NotFoundError("Diese Klausur gibt es nicht. Bitte eine Klausur aus der Liste wählen.") from None
    with acting(teacher_id) as (db, teacher, _):
        row = material_repo.get_material(db=db, material_id=mid)
        if row is None or row.teacher_id != teacher.id:
            raise NotFoundError("Diese Klausur gibt es nicht (oder sie gehört einer anderen Lehrkraft).")
        if row.material_type != "klausur":
            raise UserError("Das gewählte Material ist keine Klausur — nur Klausuren haben einen Erwartungshorizont. "
                            "Bitte eine Klausur wählen.")
        content = dict(row.content)
    return mid, Klausur.model_validate(content)


def _clean_answer(pupil_answer: str | None, ref: str) -> str:
    text = unicodedata.normalize("NFC", (pupil_answer or "").replace("\x00", "")).strip()
    if not text:
        raise UserError("Die Schülerantwort ist leer. Bitte den Text der Antwort einfügen oder eine TXT- oder "
                        "DOCX-Datei hochladen.")
    if len(text) > MAX_ANSWER_CHARS:
        # Refused, not cut: a checklist over half an answer would mark the rest as 'not found'.
        raise UserError(f"Die Antwort ist mit {len(text):,} Zeichen zu lang für eine Teilaufgabe (höchstens "
                        f"{MAX_ANSWER_CHARS:,}). Bitte nur die Antwort auf Teilaufgabe {ref} einfügen."
                        .replace(",", "."))
    return text


def assess(*, teacher_id: uuid.UUID, material_id: uuid.UUID | str, task_ref: str, pupil_answer: str,
           assessor: Assessor | None = None) -> Assessment:
    """Check a pupil's answer to one sub-task of one of the teacher's exams. Reads only; the answer is not stored."""
    mid, k = _load_exam(teacher_id, material_id)
    ref, task = _find_task(k, task_ref)
    answer = _clean_answer(pupil_answer, ref)
    used = assessor or default_assessor()
    checks = used.check(task=task, material=_material_of(task, k), answer=answer)
    notes = []
    if all(c.met == "no" for c in checks if c.automatisch) and any(c.automatisch for c in checks):
        notes.append("In der Antwort wurde zu keinem Kriterium etwas gefunden. Passt die Antwort zu Teilaufgabe "
                     f"{ref}? Formulierungen mit anderen Worten erkennt die Prüfung nicht — bitte selbst lesen.")
    if any(not c.automatisch for c in checks):
        notes.append("Kriterien ohne prüfbare Begriffe oder Werte sind offen gelassen (Spanne 0 bis volle Punktzahl).")
    return Assessment(
        material_id=mid, task_ref=ref, klausur=k.titel, aufgabe=task.text, operator=task.operator, afb=task.afb,
        max_punkte=task.punkte, checks=checks, punkte_min=sum(c.punkte_min for c in checks),
        punkte_max=sum(c.punkte_max for c in checks), assessor=used.name, notes=notes)


# --- choices and uploads for the page ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TaskChoice:
    ref: str
    label: str  # "2b) Berechnen · AFB I · 3 Punkte"
    text: str
    erwartung: list[str]


@dataclass(frozen=True)
class ExamChoice:
    id: uuid.UUID
    label: str  # "Klassenarbeit Stromkreise · 10a · 03.05.2026 14:10"
    tasks: list[TaskChoice]


def exam_choices(*, teacher_id: uuid.UUID) -> list[ExamChoice]:
    """The teacher's exams, latest first, each with its sub-tasks (what the page offers to choose from)."""
    with acting(teacher_id) as (db, teacher, _):
        rows = material_repo.list_materials(db=db, teacher_id=teacher.id, material_type="klausur", limit=MAX_EXAMS)
        loaded = [(r.id, r.titel, r.created_at, dict(r.content)) for r in rows]
    choices = []
    for mid, titel, created, content in loaded:
        try:
            k = Klausur.model_validate(content)
        except ValueError:
            log.warning("stored exam %s does not validate; left out of the assessment choices", mid)
            continue
        wer = k.klasse or f"Klassenstufe {k.klassenstufe}"
        tasks = [TaskChoice(ref=f"{a.nummer}{t.kennung}",
                            label=f"{a.nummer}{t.kennung}) {t.operator} · AFB {t.afb} · {format_punkte(t.punkte)}",
                            text=t.text, erwartung=[f"{e.text} ({format_punkte(e.punkte)})" for e in t.erwartung])
                 for a in k.aufgaben for t in a.teilaufgaben]
        choices.append(ExamChoice(id=mid, label=f"{titel} · {wer} · {local_time(created)}", tasks=tasks))
    return choices


def answer_from_upload(*, filename: str, data: bytes) -> str:
    """The text of an uploaded pupil answer (TXT or DOCX). Only read, never stored."""
    suffix = PurePath(safe_filename(filename)).suffix.lower().lstrip(".")
    if suffix not in UPLOAD_TYPES:
        raise UserError("Bitte die Antwort als TXT- oder DOCX-Datei hochladen (Fotos und PDFs werden hier nicht "
                        "gelesen) — oder den Text direkt einfügen.")
    _, text = extract_text(filename, data)
    if not text.strip():
        raise UserError("In der Datei steht kein Text. Bitte die Antwort als Text einfügen.")
    return text

