"""The requested material type from its words: "Klausur", "Übungsblatt", "H5P-Quiz", compounds ("Physikklausur"),
"AB", "auf drei Niveaus"; a material named only as the purpose ("zur Vorbereitung auf die Klausur") ranks lower."""

from __future__ import annotations

from core.language.document import Doc
from core.language.request.extraction import MaterialType
from core.language.request.subjects import SUBJECT_HEADS, SUBJECT_WORDS
from core.language.request.vocabulary import Analysis, Entry, Vocab
from core.language.stopwords import ARTICLES, word_set
from core.language.text import stem

_K, _D, _H = "klausur", "differenzierung", "h5p"
MATERIAL_WORDS: dict[str, tuple[MaterialType, bool]] = {  # fold -> (type, strong)
    **{w: (_K, True) for w in word_set("""klausur klausuren klassenarbeit klassenarbeiten test tests lernkontrolle
    lernkontrollen leistungskontrolle leistungskontrollen kurzkontrolle kurzkontrollen lernzielkontrolle
    lernzielkontrollen lernerfolgskontrolle leistungsnachweis leistungsueberpruefung kurztest vokabeltest
    stegreifaufgabe schulaufgabe abiturklausur vorabiklausur pruefung klassenarbeitsvorlage lek leks exam exams""")},
    **{w: (_D, True) for w in word_set("""arbeitsblatt arbeitsblaetter uebungsblatt uebungsblaetter foerdermaterial
    differenzierungsmaterial foerderblatt foerderblaetter foerderaufgaben worksheet worksheets""")},
    **{w: (_D, False) for w in word_set("""differenziert differenzierte differenzierten differenzierter differenziertes
    differenzierung binnendifferenzierung foerderung""")},
    **{w: (_H, True) for w in word_set("h5p quiz quizze quizzes quizfragen")},
    **{w: (_H, False) for w in word_set("""interaktiv interaktive interaktiven interaktiver interaktives lueckentext
    lueckentexte lueckentextuebung zuordnungsuebung learningapps""")},
}
_MATERIAL_TAILS: tuple[tuple[str, MaterialType, str], ...] = (  # suffix, type, which heads are allowed
    ("klassenarbeiten", _K, "any"), ("klassenarbeit", _K, "any"), ("klausuren", _K, "any"), ("klausur", _K, "any"),
    ("arbeitsblaetter", _D, "any"), ("arbeitsblatt", _D, "any"), ("uebungsblaetter", _D, "any"),
    ("uebungsblatt", _D, "any"), ("quizze", _H, "any"), ("quiz", _H, "any"), ("tests", _K, "known"),
    ("test", _K, "known"), ("arbeiten", _K, "subject"), ("arbeit", _K, "subject"),
)
_EXAM_WORDS = (  # word ending (folded) -> the name the chat uses
    ("klassenarbeiten", "Klassenarbeit"), ("klassenarbeit", "Klassenarbeit"), ("arbeit", "Klassenarbeit"),
    ("lernkontrollen", "Lernkontrolle"), ("lernkontrolle", "Lernkontrolle"), ("lek", "Lernkontrolle"),
    ("leks", "Lernkontrolle"), ("kurzkontrollen", "Kurzkontrolle"), ("kurzkontrolle", "Kurzkontrolle"),
    ("leistungskontrollen", "Leistungskontrolle"), ("leistungskontrolle", "Leistungskontrolle"), ("tests", "Test"),
    ("test", "Test"), ("schulaufgabe", "Schulaufgabe"), ("stegreifaufgabe", "Stegreifaufgabe"), ("ka", "Klassenarbeit"),
)
_TEST_HEADS = word_set("kurz vokabel wissens einstiegs abschluss lern lernstands zwischen eingangs diagnose")
_NIVEAU_WORDS = word_set("niveaus niveaustufen anforderungsniveaus leistungsniveaus schwierigkeitsstufen")
_NIVEAU_COUNTS = word_set("2 3 4 zwei drei vier verschiedenen mehreren unterschiedlichen verschiedene unterschiedliche")
_ARBEIT_DETERMINERS = word_set("eine die der naechste naechsten meine unsere ne diese")
_MATERIAL_NEGATIONS = word_set("kein keine keinen keiner ohne statt anstatt anstelle nicht")
_PURPOSE_WORDS = word_set("auf vor nach fuer zur vorbereitung")
_SKIP_BEFORE_MATERIAL = ARTICLES | word_set(
    "kommende kommenden anstehende anstehenden bevorstehende bevorstehenden naechste naechsten"
)

_MATERIAL_TAIL_WORDS = tuple(tail for tail, _, _ in _MATERIAL_TAILS)


def _compound_parts(fold: str) -> tuple[str, MaterialType, str] | None:
    if not fold.endswith(_MATERIAL_TAIL_WORDS):
        return None
    for tail, mtype, heads in _MATERIAL_TAILS:
        if fold.endswith(tail) and len(fold) > len(tail) + 1:
            return fold[: -len(tail)].rstrip("-"), mtype, heads
    return None


def _lookup_head(head: str, vocab: Vocab) -> tuple[str | None, list[Entry]]:
    """A compound head ('physik', 'optik', 'bruchrechnungs') as subject or vocabulary entries."""
    for candidate in (head, head[:-1] if head.endswith("s") else head):
        if candidate in SUBJECT_HEADS:
            return SUBJECT_HEADS[candidate], []
        entries = [e for e in vocab.stem_idx.get(stem(candidate), []) if len(e.words) == 1]
        if entries:
            return None, entries
    return None, []


def extract_material(doc: Doc, vocab: Vocab, analysis: Analysis) -> MaterialType | None:
    toks = doc.tokens
    strong_free: list[MaterialType] = []
    strong_purpose: list[MaterialType] = []
    weak: list[MaterialType] = []
    for i, tok in enumerate(toks):
        if tok.consumed:
            continue
        f = tok.fold
        found = MATERIAL_WORDS.get(f)
        if found is None and tok.orig == "KA":  # the usual abbreviation of Klassenarbeit (not "ka", keine Ahnung)
            found = (_K, True)
        if found is None:
            found = _special_material(doc, i, vocab, analysis)
        if found is None:
            continue
        mtype, strong = found
        tok.consumed = True
        prev = [toks[k].fold for k in range(max(0, i - 2), i) if toks[k + 1].brk < 2]
        if any(p in _MATERIAL_NEGATIONS for p in prev):
            continue
        if not strong:
            weak.append(mtype)
            continue
        # "Übungsblatt zur Vorbereitung auf die Klausur": the Klausur is the purpose, not the requested material.
        k = i - 1
        while k >= 0 and toks[k + 1].brk == 0 and toks[k].fold in _SKIP_BEFORE_MATERIAL:
            k -= 1
        purpose = k >= 0 and toks[k + 1].brk == 0 and toks[k].fold in _PURPOSE_WORDS
        (strong_purpose if purpose else strong_free).append(mtype)
        if not purpose and mtype == _K and analysis.exam_word is None:
            analysis.exam_word = exam_word(f)
    for bucket in (strong_free, strong_purpose, weak):
        if bucket:
            return bucket[0]
    return None


def exam_word(fold: str) -> str:
    """How the teacher named the exam ("Mathetest" -> "Test", "LEK" -> "Lernkontrolle"): the chat says it so."""
    for tail, name in _EXAM_WORDS:
        if fold.endswith(tail):
            return name
    return "Klausur"


def _special_material(doc: Doc, i: int, vocab: Vocab, analysis: Analysis) -> tuple[MaterialType, bool] | None:
    toks = doc.tokens
    tok = toks[i]
    f = tok.fold
    prev = toks[i - 1] if i > 0 and tok.brk == 0 else None
    nxt = toks[i + 1] if i + 1 < len(toks) and toks[i + 1].brk == 0 else None
    if f == "arbeit":
        if prev is not None and (prev.fold in _ARBEIT_DETERMINERS or prev.fold in SUBJECT_WORDS):
            return _K, True
        return None
    if f == "ab" and tok.orig == "AB":
        return _D, True
    if f in _NIVEAU_WORDS:
        return (_D, False) if prev is not None and prev.fold in _NIVEAU_COUNTS else None
    if f in ("multiple", "single") and nxt is not None and nxt.fold.startswith("choice"):
        nxt.consumed = True
        return _H, False
    if f in ("multiple-choice", "multiplechoice"):
        return _H, False
    parts = _compound_parts(f)
    if parts is None:
        return None
    head, mtype, allowed = parts
    subject, entries = _lookup_head(head, vocab)
    if subject is not None:
        analysis.subjects.append((i, subject))
    elif entries:
        if any(e.kind == "area" for e in entries):
            analysis.areas.append((i, [e for e in entries if e.kind == "area"]))
        else:
            analysis.topics.append((i, i + 1, entries))
    known = subject is not None or bool(entries)
    if allowed == "any" or (allowed == "known" and (known or head in _TEST_HEADS)) or (
        allowed == "subject" and subject is not None
    ):
        return mtype, True
    return None
