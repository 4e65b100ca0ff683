"""Runs of content words that can be a topic, and how such a run reads as one: dative and adjective endings undone,
the usual spelling of a known term preferred, the length bounded."""

from __future__ import annotations

import re
from collections.abc import Collection

from core.language.document import CHUNK_RE, MARK, Doc, Token
from core.language.request import english, topics
from core.language.request.forms import ACTIVITY_VERBS
from core.language.request.inflection import SAME_IN_DATIVE, plural_adjectives, undative
from core.language.request.vocabulary import Vocab
from core.language.stopwords import ARTICLES, CONNECTORS, FILLER_WORDS, META_WORDS, word_set
from core.language.text import fold, stem

THEMA_MAX_CHARS = 80

_ADJ_ENDINGS = ("e", "en", "er", "es", "em")

_NUMBERED = word_set("unit units lektion kapitel chapter teil band")
# What a lesson does with a topic, not the topic: "Brüche vertiefen" is about "Brüche".
_DIDACTIC_VERBS = word_set("""
    vertiefen festigen sichern einfuehren kennenlernen trainieren testen pruefen abfragen ueberpruefen abpruefen
    bearbeiten erarbeiten besprechen einueben anwenden vorbereiten liegen stehen dauern lauten kommen beinhalten
    enthalten umfassen abdecken drankommen vorkommen""")
_MODALS = word_set("soll sollen sollte sollten muss muessen kann koennen wird werden will wollen moechte moechten darf")
CONJUNCTIONS = word_set("und sowie oder bzw")
_AFTER_NOUN = word_set("des der von vom im in aus")
_QUALIFYING = word_set("im in der des")
_DATE_ABBREVIATIONS = word_set("jh v n")  # „im 19. Jh.“, „753 v. Chr.“
_DATIVE_PREPS = word_set("von vom mit bei aus nach seit zwischen unter in im")


def _blocked(tok: Token, allow_area: bool) -> bool:
    return tok.consumed and not (allow_area and tok.area)


def _is_content(doc: Doc, i: int, allow_area: bool) -> bool:
    tok = doc.tokens[i]
    if _blocked(tok, allow_area):
        return False
    f = tok.fold
    if f.isdigit():  # a year ("Revolution 1848"), a unit number ("Unit 4") or an ordinal ("17. Juni") belongs to it
        prev = doc.tokens[i - 1].fold if i > 0 and tok.brk == 0 else ""
        return (len(f) == 4 and 1000 <= int(f) <= 2100) or prev in _NUMBERED or doc.text[tok.oend:tok.oend + 1] == MARK
    if english.leads_to_class(doc, i):  # „for (my/the) year 12 …“
        return False
    if tok.vocab and (f not in META_WORDS or joined_to_topic(doc, i)):  # part of a known term, even "das und dass"
        return True
    if _truncated(doc, i):  # "Ein- und Ausfuhr": the first part of a compound whose head follows
        return True
    if f == "frage" and _named_question(doc, i - 1):  # "die deutsche Frage", "die soziale Frage"
        return True
    if f in FILLER_WORDS or f in META_WORDS or f in CONNECTORS:
        return False
    if len(f) < 3 and not tok.vocab and not (f in _DATE_ABBREVIATIONS and doc.text[tok.oend:tok.oend + 1] == MARK):
        return False
    if doc.mixed_case and not tok.cap and not tok.vocab and not tok.area:
        if _is_topic_verb(doc, i, allow_area):  # "Brüche kürzen und erweitern", "Adjektive steigern"
            return True
        # A lower-case word counts only as an attributive adjective before a capitalised noun, or before a second
        # such adjective that shares the noun ("zum waagerechten und schiefen Wurf").
        if not f.endswith(_ADJ_ENDINGS) or i + 1 >= len(doc.tokens):
            return False
        nxt = doc.tokens[i + 1]
        if _shares_noun(doc, i) and _is_content(doc, i + 2, allow_area):
            return True
        return (nxt.brk == 0 and (nxt.cap or nxt.vocab) and nxt.fold not in FILLER_WORDS
                and not _blocked(nxt, allow_area)
                and (nxt.fold not in META_WORDS or _named_question(doc, i)))
    return True


def _named_question(doc: Doc, i: int) -> bool:
    """The adjective at i names a question of history before "Frage" ("deutsche Frage", "soziale Frage"): a topic,
    not a quiz question."""
    toks = doc.tokens
    if i < 0 or i + 1 >= len(toks) or toks[i + 1].fold != "frage" or toks[i + 1].brk:
        return False
    f = toks[i].fold
    return f.endswith("e") and len(f) > 4 and f not in ARTICLES and f not in FILLER_WORDS and f not in META_WORDS


def joined_to_topic(doc: Doc, i: int) -> bool:
    """A topic term that is also a word about the material ("Lösungen") joined by "und" to a topic word before it:
    "Wasser und Lösungen" is a topic, "mit Lösungen" or "Erwartungshorizont und Lösungen" is not."""
    toks = doc.tokens
    if i < 2 or toks[i].brk or toks[i - 1].brk or toks[i - 1].fold not in CONJUNCTIONS:
        return False
    prev = toks[i - 2]
    return ((prev.cap or prev.vocab) and not prev.consumed and prev.fold not in META_WORDS
            and prev.fold not in FILLER_WORDS)


def _truncated(doc: Doc, i: int) -> bool:
    """A word ending in a hyphen right before "und"/"oder" ("Ein-", "Reihen-"): a compound shortened to its first
    part, whatever the part alone would mean ("ein" as an article)."""
    toks = doc.tokens
    tok = toks[i]
    return (i + 2 < len(toks) and not tok.consumed and doc.fold[tok.end:tok.end + 1] == "-"
            and toks[i + 1].fold in CONJUNCTIONS and toks[i + 1].brk == 0 and toks[i + 2].brk == 0)


def _shares_noun(doc: Doc, i: int) -> bool:
    """A lower-case adjective joined by "und"/"oder" to a second lower-case one: both describe the noun after it."""
    toks = doc.tokens
    if not (i + 2 < len(toks) and toks[i + 1].fold in CONJUNCTIONS and toks[i + 1].brk == 0 and toks[i + 2].brk == 0):
        return False
    if not toks[i].cap and not toks[i + 2].cap and toks[i + 2].fold.endswith(_ADJ_ENDINGS):
        return True
    # "zum Ersten und Zweiten Weltkrieg": capitalised adjectives of a name, both before its noun
    return _cap_adjective(doc, i) and _cap_adjective(doc, i + 2) and toks[i].fold[-2:] == toks[i + 2].fold[-2:]


_CAP_ADJ_ENDINGS = ("ten", "igen", "lichen", "ellen", "alen", "ischen")


def _cap_adjective(doc: Doc, i: int) -> bool:
    """A capitalised word with an adjective's dative ending before a capitalised noun or a second such word:
    "Ersten", "Kalten", "Industriellen" in names ("zur Zweiten Industriellen Revolution")."""
    toks = doc.tokens
    tok = toks[i]
    if not (tok.cap and doc.mixed_case and tok.fold.endswith(_CAP_ADJ_ENDINGS)) or i + 1 >= len(toks):
        return False
    nxt = toks[i + 1]
    if nxt.brk:
        return False
    if nxt.fold in CONJUNCTIONS:
        return i + 2 < len(toks) and toks[i + 2].brk == 0 and toks[i + 2].cap
    return nxt.cap


def _is_topic_verb(doc: Doc, i: int, allow_area: bool) -> bool:
    """An infinitive right after a topic noun names what is done with it ("Satzglieder bestimmen")."""
    toks = doc.tokens
    f = toks[i].fold
    if (not f.endswith(("en", "ern", "eln")) or len(f) < 5 or f in _DIDACTIC_VERBS or f in ACTIVITY_VERBS
            or toks[i].brk or i == 0):
        return False
    k = i
    while k > 0 and i - k < 12 and toks[k].brk < 2:  # "Schwerpunkt soll auf Induktion liegen": the main verb
        k -= 1
        if toks[k].fold in _MODALS:
            return False
    prev = toks[i - 1]
    if prev.fold in ("und", "oder") and i >= 2 and prev.brk == 0:
        return _is_topic_verb(doc, i - 2, allow_area)
    return (prev.cap or prev.vocab) and not prev.consumed and prev.fold not in FILLER_WORDS \
        and prev.fold not in META_WORDS


def content_runs(doc: Doc, lo: int, hi: int, *, allow_area: bool, allow_comma: bool = False,
          first_only: bool = False) -> list[tuple[int, int]]:
    """Maximal runs of content tokens in [lo, hi), joined by connectors ('Säuren und Basen')."""
    toks = doc.tokens
    runs: list[tuple[int, int]] = []
    start: int | None = None
    last = -1
    i = lo
    here = allow_area  # an area word qualifies a topic after "im", "der" … ("Religion im Mittelalter")
    while i < hi:
        tok = toks[i]
        if start is not None and (tok.brk == 2 or (tok.brk == 1 and not allow_comma) or i - start >= 10):
            runs.append((start, last + 1))
            start, here = None, allow_area
            if first_only:
                return runs
        if _is_content(doc, i, here):
            if start is None:
                start = i
            last = i
            i += 1
            continue
        if start is not None and tok.fold in CONNECTORS and not _blocked(tok, allow_area):
            k = i + 1
            while k < hi and k <= i + 2 and toks[k].brk == 0:  # "Tourismus in den Alpen"
                if _is_content(doc, k, here) or (toks[k].area and tok.fold in _QUALIFYING and not toks[start].area):
                    break
                if toks[k].fold not in CONNECTORS and toks[k].fold not in ARTICLES:
                    k = hi
                    break
                k += 1
            if k < hi and k <= i + 2 and toks[k].brk == 0 and _is_content(doc, k, here):
                i = k
                continue
            if (k < hi and k <= i + 2 and toks[k].brk == 0 and tok.fold in _QUALIFYING and not toks[start].area
                    and toks[k].area):
                i, here = k, True
                continue
        if start is not None:
            runs.append((start, last + 1))
            start, here = None, allow_area
            if first_only:
                return runs
        i += 1
    if start is not None:
        runs.append((start, last + 1))
    return runs


def _years_at_end(doc: Doc, start: int, end: int) -> int:
    """Where a year or a range of years at the end of [start, end) begins ("1945–1990"), else `end`."""
    toks = doc.tokens
    k = end
    while k > start and end - k < 2 and len(toks[k - 1].fold) == 4 and toks[k - 1].fold.isdigit():
        k -= 1
    return k


def _conjunct_case(article: str, mode: str | None) -> str | None:
    """The case a conjunct's own article stands for, as the ending rules name it ("plural", "fem", "masc")."""
    dative = mode in ("plural", "fem", "masc")
    if article in ("dem", "einem", "einen"):
        return "masc"
    if article in ("der", "einer"):
        return "fem" if dative else None
    if article == "den":
        return "plural" if dative else "masc"
    return None


def _stems_spelling(vocab: Vocab, raw: str, own_last: str) -> str | None:
    """Several words with the stems of a known term ("das Ohmsche Gesetz" ~ "Ohmsches Gesetz"): its spelling, but the
    teacher's number ("zu galvanischen Zellen" -> "galvanische Zellen"). Single words keep the teacher's form
    ("Widerstände" stays plural even if only "Widerstand" is known)."""
    stems = tuple(stem(m.group()) for m in CHUNK_RE.finditer(fold(raw)))
    known = vocab.by_stems.get(stems) if len(stems) > 1 else None
    if not known:
        return None
    best = min(known, key=lambda e: (not e.from_profile, abs(len(e.display) - len(raw)))).display
    head, _, last = best.rpartition(" ")
    if not head or fold(own_last) == fold(last) or not own_last[:1].isupper():
        return best
    return f"{plural_adjectives(head)} {own_last}"


def topic_phrase(doc: Doc, vocab: Vocab, start: int, end: int, mode: str | None) -> str | None:
    toks = doc.tokens
    while end > start and toks[end - 1].fold in CONNECTORS:
        end -= 1
    if end <= start:
        return None
    years = _years_at_end(doc, start, end)
    # "Weimarer Republik 1918–1933": the range qualifies the topic, which is read without it
    if start < years < end and toks[years - 1].fold not in CONNECTORS:
        head = topic_phrase(doc, vocab, start, years, mode)
        return f"{head} {doc.text[toks[years].ostart:toks[end - 1].oend]}" if head else None
    raw_words = [t.orig for t in toks[start:end]]
    words = list(raw_words)
    dropped: set[int] = set()
    case = mode
    for k in range(start, end):
        tok = toks[k]
        if k > start and k + 1 < end and toks[k - 1].fold in CONJUNCTIONS and tok.fold in ARTICLES:
            # "über die Hanse und den Fernhandel" -> "Hanse und Fernhandel": the conjunct's article goes, its case
            # decides the endings that follow
            dropped.add(k - start)
            case = _conjunct_case(tok.fold, mode)
            continue
        if case not in ("plural", "fem", "masc"):
            continue
        is_last = k == end - 1 or (toks[k + 1].fold in CONNECTORS and not _shares_noun(doc, k))
        ends_conjunct = k == end - 1 or toks[k + 1].fold in CONJUNCTIONS or toks[k + 1].brk == 1 or (
            tok.cap and toks[k + 1].fold in _AFTER_NOUN)  # „zu Gedichten des Expressionismus“
        f = tok.fold
        if not is_last and f.endswith("en") and (not tok.cap or f.endswith(("ischen", "schen")) or not
                                                 doc.mixed_case or (case != "plural" and _cap_adjective(doc, k))):
            # "zur quadratischen Ergänzung" -> "quadratische", "zum radioaktiven Zerfall" -> "radioaktiver"
            head = next((toks[j].orig for j in range(k + 1, end)
                         if (toks[j].cap and not _cap_adjective(doc, j)) or j == end - 1), "")
            ending = ("es" if topics.is_neuter(head) else "er") if case == "masc" else "e"
            words[k - start] = tok.orig[:-2] + ending
        elif ends_conjunct and case == "plural" and vocab.display.get(tok.fold) is None and not (
                k > start and toks[k - 1].fold in _DATIVE_PREPS):  # „Eigenschaften von Metallen“ stays
            words[k - start] = undative(tok.orig, vocab.display.get)  # a known word ("Linsen") is already nominative
    seps = []
    for k in range(start, end - 1):
        gap = doc.text[toks[k].oend:toks[k + 1].ostart]
        seps.append(re.sub(r"\s+", " ", gap) or " ")

    def join(parts: list[str], skip: Collection[int] = ()) -> str:
        out = parts[0]
        for i, (sep, part) in enumerate(zip(seps, parts[1:], strict=True), 1):
            if i not in skip:
                out += sep + part
        return out

    raw, modified = join(raw_words), join(words, dropped)
    candidates = [raw, modified]
    if mode == "plural" and fold(words[-1]).endswith("en") and not fold(words[-1]).endswith(SAME_IN_DATIVE):
        # "Vulkanen" -> "Vulkane" if that is a known term
        candidates.append(join([*words[:-1], words[-1][:-1]], dropped))
    for candidate in candidates:
        canonical = vocab.display.get(" ".join(m.group() for m in CHUNK_RE.finditer(fold(candidate))))
        if canonical:
            return canonical
    if spelled := _stems_spelling(vocab, raw, words[-1]):
        return spelled
    text = modified.strip(" \"'„“”‚‘’«»-,.;:!?()[]")
    if not text:
        return None
    if doc.all_upper:
        text = " ".join(w.capitalize() for w in text.split(" "))
    elif not doc.mixed_case:  # written in lower case: nouns capitalised ("auftauende Böden in Sibirien")
        text = topics.recase(text)
        text = text[:1].upper() + text[1:]
    if len(text) > THEMA_MAX_CHARS:
        cut = text.rfind(" ", 0, THEMA_MAX_CHARS)
        text = text[: cut if cut > 0 else THEMA_MAX_CHARS]
    return text
