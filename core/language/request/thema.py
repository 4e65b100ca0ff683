"""The Thema of a request: after a marker ("Thema: …"), after a preposition ("zur Optik"), else the best run of
content words — an enumeration ("Alkane, Alkene und Alkine") stays one topic."""

from __future__ import annotations

from core.language.document import Doc
from core.language.request import topics
from core.language.request.phrases import CONJUNCTIONS, content_runs, topic_phrase
from core.language.request.subjects import BROAD_AREAS
from core.language.request.task_kinds import GENERIC_KINDS, GENITIVE_ARTICLES, SOURCE_KINDS, is_task_kind
from core.language.request.vocabulary import Vocab
from core.language.stopwords import ARTICLES, CONNECTORS, word_set
from core.language.text import fold, stem

_THEMA_MARKERS = word_set("""
    thema themen schwerpunkt schwerpunkte schwerpunktthema unterrichtsthema inhalt inhalte oberthema topic topics""")
_MARKER_FILLERS = word_set("""
    ist sind lautet lauten soll sollen sollte sein liegt liegen auf der die das den dem waere wird werden heute
    diesmal dabei hier also bitte eher vor allem nur soll's""")
THEMA_PREPS = {"zu": "plural", "zur": "fem", "zum": "masc", "ueber": "acc", "uber": "acc", "bezueglich": "gen"}

_LEAD_META = word_set("""
    wiederholung vorbereitung einfuehrung einstieg vertiefung festigung uebung sicherung grundlagen thema themen
    themenbereich bereich abschluss""")
_FEATURE_PREPS = word_set("mit ohne inklusive inkl samt plus")
_GENITIVE_LEAD = word_set("der des von vom in im die zur zum einer eines zweier")


def _article_case(prep: str, article: str, mode: str | None) -> str | None:
    """The case of the noun phrase after "zu einem …", "über den …": which endings to undo."""
    if prep in ("zu", "bezueglich"):
        return {"einem": "masc", "dem": "masc", "einer": "fem", "der": "fem", "den": "plural"}.get(article, mode)
    if prep in ("ueber", "uber") and article in ("den", "einen"):
        return "masc"  # "über den radioaktiven Zerfall" -> "radioaktiver Zerfall"
    return "plural" if article == "den" else mode


def _is_area_only(doc: Doc, start: int, end: int) -> bool:
    content = [t for t in doc.tokens[start:end] if t.fold not in CONNECTORS]
    return bool(content) and all(t.area for t in content)


def _broad_only(doc: Doc, start: int, end: int) -> bool:
    """Only broad subject areas ("zu Optik", "zur Mechanik und Optik"), no unit named as an area ("zu linearen
    Funktionen und linearen Gleichungssystemen" is a topic)."""
    if not _is_area_only(doc, start, end):
        return False
    segments: list[list[str]] = [[]]
    for t in doc.tokens[start:end]:
        if t.fold in CONNECTORS:
            segments.append([])
        else:
            segments[-1].append(stem(t.fold))
    return all(tuple(seg) in BROAD_AREAS or not seg for seg in segments)


def _after_skipping(doc: Doc, i: int, skip: frozenset[str], limit: int = 4) -> int:
    toks = doc.tokens
    j = i
    while j < len(toks) and j - i < limit and toks[j].fold in skip and (j == i or toks[j].brk == 0):
        j += 1
    return j


def _marker_candidates(doc: Doc, vocab: Vocab) -> list[tuple[str, bool, int, int]]:
    toks = doc.tokens
    out: list[tuple[str, bool, int, int]] = []
    for i, tok in enumerate(toks):
        if tok.consumed:
            continue
        is_marker = tok.fold in _THEMA_MARKERS or (
            tok.fold == "um" and i > 0 and toks[i - 1].fold in ("geht", "gehen", "dreht", "drehen", "handelt")
        )
        if not is_marker or i + 1 >= len(toks):
            continue
        colon = ":" in doc.fold[tok.end:toks[i + 1].start]
        if toks[i + 1].brk == 2 and not colon:
            continue
        j = _after_skipping(doc, i + 1, _MARKER_FILLERS)
        if j >= len(toks) or (j > i + 1 and toks[j].brk):
            continue
        runs = content_runs(doc, j, min(len(toks), j + 24), allow_area=True, allow_comma=tok.fold in (
            "themen", "schwerpunkte", "inhalte") or colon, first_only=True)
        if runs and runs[0][0] == j:
            text = topic_phrase(doc, vocab, runs[0][0], runs[0][1], None)
            if text:
                out.append((text, _is_area_only(doc, *runs[0]), runs[0][0], runs[0][1]))
    return out


def prep_candidates(doc: Doc, vocab: Vocab, lo: int = 0, hi: int | None = None) -> list[tuple[str, int, int]]:
    toks = doc.tokens
    hi = len(toks) if hi is None else hi
    out: list[tuple[str, int, int]] = []
    for i in range(lo, hi):
        tok = toks[i]
        mode = THEMA_PREPS.get(tok.fold)
        if mode is None or tok.consumed or i + 1 >= hi or toks[i + 1].brk:
            continue
        j = i + 1
        if toks[j].fold in ARTICLES:
            mode = _article_case(tok.fold, toks[j].fold, mode)
            j += 1
        k = _after_skipping(doc, j, _LEAD_META, limit=1)
        if k == j and j + 1 < hi and toks[j].fold in GENERIC_KINDS and toks[j + 1].fold in GENITIVE_ARTICLES:
            k = j + 1  # "zur Analyse einer Kurzgeschichte"
        if k > j:  # "zur Wiederholung der Bruchrechnung": the topic follows the genitive
            j = _after_skipping(doc, k, _GENITIVE_LEAD, 2)
            mode = None
        if j >= hi or toks[j].brk:
            continue
        runs = content_runs(doc, j, min(hi, j + 12), allow_area=True, first_only=True)
        if runs and _broad_only(doc, *runs[0]):  # "zu Optik": a broad area alone is no topic yet
            runs = content_runs(doc, j, min(hi, j + 12), allow_area=False, first_only=True)
        if runs and runs[0][0] == j:
            end = _enumeration_end(doc, j, runs[0][1])
            text = topic_phrase(doc, vocab, j, end, mode)
            if text:
                out.append((text, j, end))
    return out


def _enumeration_end(doc: Doc, start: int, end: int) -> int:
    """Where an enumeration that starts with the run [start, end) ends: "Alkane, Alkene und Alkine" is one topic
    list only if it closes with "und"/"sowie"; a comma alone may also separate the topic from something else."""
    toks = doc.tokens
    pos = known_end = end
    while pos < len(toks) and toks[pos].brk == 1 and "," in doc.fold[toks[pos - 1].end:toks[pos].start]:
        nxt = content_runs(doc, pos, min(len(toks), pos + 8), allow_area=False, first_only=True)
        if not nxt or nxt[0][0] != pos:
            break
        if any(toks[k].fold in CONJUNCTIONS for k in range(nxt[0][0], nxt[0][1])):
            return nxt[0][1]
        if known_end == pos and toks[pos].vocab:  # "Kontinente und Ozeane, Gradnetz der Erde": a known term goes on
            known_end = nxt[0][1]
        pos = nxt[0][1]
    return known_end


def _without_generic_kind(doc: Doc, runs: list[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    """"Analyse einer Kurzgeschichte", "Interpretation eines Gedichts": the run after the genitive is the topic, the
    kind of work before it is not."""
    toks = doc.tokens
    out = []
    source = None  # "Analyse einer Karikatur …": the Karikatur is no topic either
    for n, r in enumerate(runs):
        nxt = runs[n + 1] if n + 1 < len(runs) else None
        kind = all(toks[k].fold in GENERIC_KINDS for k in range(r[0], r[1]))
        if kind and nxt and nxt[0] == r[1] + 1 and toks[r[1]].fold in GENITIVE_ARTICLES and toks[nxt[0]].brk == 0:
            if all(toks[k].fold in SOURCE_KINDS for k in range(nxt[0], nxt[1])):
                source = nxt
            continue
        if r != source:
            out.append(r)
    if source and not out and not any(t.area for t in toks):  # "Analyse einer Rede": nothing else names a topic
        return [source]
    return out


def _nominative(text: str | None, vocab: Vocab) -> str | None:
    """A single genitive noun as the vocabulary spells it: "Gedichts" -> "Gedicht"."""
    if not text or " " in text or not text.endswith("s"):
        return text
    for cut in (1, 2):
        known = vocab.display.get(fold(text[:-cut]))
        if known:
            return known
    return text


_GENRE_FOLDS = frozenset(fold(g) for g in topics.GENRES)
_BEFORE_MARKER = word_set("zum zu dem thema themen mit")


def _genre_before(doc: Doc, start: int) -> str | None:
    """The text type a "zum Thema X" follows ("dialektische Erörterung zum Thema Handyverbot"), with its adjective."""
    toks = doc.tokens
    k = start - 1
    while k >= 0 and start - k <= 3 and toks[k].fold in _BEFORE_MARKER and toks[k].brk == 0:
        k -= 1
    if k < 0 or k == start - 1 or toks[k].fold not in _GENRE_FOLDS or toks[k + 1].brk:
        return None
    first = k - 1 if k > 0 and toks[k].brk == 0 and not toks[k - 1].cap and not toks[k - 1].consumed and \
        toks[k - 1].fold.endswith(("e", "en", "er", "es")) else k
    return topics.capitalised(doc.text[toks[first].ostart:toks[k].oend])


# Words for the vocabulary of a topic: „Vokabeln zum Thema school life“ asks for words on the topic, no part of its own.
_WORDS_ON = word_set("vokabeln vokabel vokabular wortschatz woerter begriffe fachbegriffe redemittel vocabulary words")
_MARKER_PREPS = word_set("zum zu dem mit")


def _parts_before(doc: Doc, vocab: Vocab, start: int) -> tuple[str, int] | None:
    """The parts named right before „zum Thema Y“ („reported speech und Vokabeln zum Thema school life“,
    „Kommasetzung und Wortarten zum Thema Tiere“): they are asked for as much as Y. Their text (without a word for
    Y's vocabulary) and where they start, else None."""
    toks = doc.tokens
    k = start - 1
    while k >= 0 and start - k <= 4 and toks[k].fold not in _THEMA_MARKERS:
        k -= 1
    p = k
    while p > 0 and k - p < 2 and toks[p - 1].fold in _MARKER_PREPS and toks[p].brk == 0:
        p -= 1
    if k < 0 or p == k or p == 0 or toks[p].brk:
        return None
    runs = [r for r in content_runs(doc, max(0, p - 12), p, allow_area=False) if r[1] == p]
    if not runs:
        return None
    first, last = runs[-1]
    while last > first and (toks[last - 1].fold in _WORDS_ON or toks[last - 1].fold in CONJUNCTIONS):
        last -= 1
    text = topic_phrase(doc, vocab, first, last, None) if last > first else None
    return (text, first) if text else None


def extract_thema(doc: Doc, vocab: Vocab) -> tuple[str | None, tuple[int, int] | None]:
    markers = _marker_candidates(doc, vocab)
    for text, area_only, start, end in markers:
        if not area_only:
            genre = _genre_before(doc, start)
            if genre:
                return f"{genre}: {text}", (start, end)
            if before := _parts_before(doc, vocab, start):
                return f"{before[0]} + {text}", (before[1], end)  # „+“: split into parts however written
            return text, (start, end)
    if markers:
        return markers[0][0], (markers[0][2], markers[0][3])
    preps = prep_candidates(doc, vocab)
    if preps:
        text, start, end = preps[0]
        return text, (start, end)
    toks = doc.tokens
    runs = []
    for start, end in content_runs(doc, 0, len(toks), allow_area=False):
        has_vocab = any(t.vocab for t in toks[start:end])
        # "Quiz mit Anweisungen auf Deutsch": a "mit …" phrase describes the material, it is not its topic.
        if start > 0 and toks[start - 1].fold in _FEATURE_PREPS and toks[start].brk == 0 and not has_vocab:
            continue
        runs.append((start, end, has_vocab))
    if not runs:
        return None, None
    # "Weimarer Republik …, mit Quellenanalyse": a kind of task is the topic only when nothing else is named, and
    # never when it is a feature of the material ("Klausur mit Quellenanalyse" still needs a topic)
    def kind_only(r: tuple[int, int, bool]) -> bool:
        return all(is_task_kind(t.fold) for t in toks[r[0]:r[1]] if t.fold not in CONNECTORS)

    def featured(r: tuple[int, int, bool]) -> bool:
        return kind_only(r) and r[0] > 0 and toks[r[0] - 1].fold in _FEATURE_PREPS
    runs = [r for r in runs if not kind_only(r)] or [r for r in runs if not featured(r)]
    runs = _without_generic_kind(doc, runs)
    if not runs:
        return None, None
    best = next((r for r in runs if r[2]), runs[0])
    end = _enumeration_end(doc, best[0], best[1])
    text = topic_phrase(doc, vocab, best[0], end, None)
    if best[0] >= 2 and toks[best[0] - 1].fold in GENITIVE_ARTICLES and toks[best[0] - 2].fold in GENERIC_KINDS:
        text = _nominative(text, vocab)
    return text, (best[0], end)
