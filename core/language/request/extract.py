"""The request reader's entry points: extract (one teacher message -> Extraction), read_topic (a message that only
names a topic), known_term (the usual spelling of a known term). Pure, deterministic, linear-time; no I/O."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from core.language import spelling
from core.language.document import CHUNK_RE, MARK, Doc
from core.language.fold import prepare
from core.language.klasse import G9, Oberstufe
from core.language.preferences import parse_avoid, parse_ratio
from core.language.request import english, forms, musts, periods, task_shapes, topics
from core.language.request.afb_wishes import extract_afb_wishes
from core.language.request.extraction import FACH_KEYS, FACH_NAMEN, AfbWish, Extraction, TopicTerms
from core.language.request.facts import extract_afb_distribution, extract_count, extract_dauer, extract_klasse
from core.language.request.inflection import adjective_parts
from core.language.request.material import extract_material
from core.language.request.scan import decide_fach, fach_options, scan_vocab
from core.language.request.subjects import BROAD_AREAS, UNSUPPORTED_SUBJECTS
from core.language.request.task_kinds import without_task_kinds
from core.language.request.thema import extract_thema
from core.language.request.vocabulary import Analysis, Vocab, known_term_in, profile_feld, vocab_for
from core.language.stopwords import only_reply
from core.language.text import fold, stem

# How it works, in short: the text is cleaned (HTML, dashes, whitespace), folded (lower case, ä -> ae, ß -> ss,
# accents dropped) with a map back to the original characters, and tokenised. Numeric facts (Klasse, Dauer, AFB,
# Aufgabenanzahl) come from small anchored regexes on the folded text; subjects, topic areas, material words and
# topic terms come from dictionary look-ups per token. Whatever is left — minus filler words — is the Thema.
# Every regex is anchored on a literal or bounded, and every token loop looks at most a fixed window around
# a token, so a 50 000-character paste costs milliseconds, never a catastrophic backtrack.


_VOCABULARY_WORDS = frozenset(("vocabulary", "vokabeln", "wortschatz", "words"))
_PLACEHOLDER = re.compile(r"\[[^\[\]]{1,40} entfernt\]")
# What the teacher rejects names no topic: „Nein, School life passt nicht. Dann bitte nur some/any …“.
_REJECTED = re.compile(r"(?:\bnein\b[,!.]?\s*)?[^.,;:!?\n]{1,60}?\s(?:passt|passen|geht|gefaellt|gefällt)\s+"
                       r"(?:mir\s+|uns\s+)?(?:leider\s+|so\s+|gar\s+|eher\s+)?nicht\b[.;!?]?", re.I)


def extract(text: str, *, topic_terms: TopicTerms | None = None, oberstufe: Oberstufe = G9,
            fach: str | None = None) -> Extraction:
    """Everything one teacher message says about the wanted material; impossible values become `problems`.

    `topic_terms` is the seeded subject vocabulary (fach -> themenfeld -> terms). It detects the Fach from topic
    words and wins over the small built-in vocabulary where both know a word. `oberstufe` is how the teacher's
    Bundesland names the Oberstufe years (EF, Q1, Q2). `fach` is the conversation's Fach so far: a message that
    names none ("Satz des Pythagros" as an answer) has its topic typos read against that Fach's vocabulary.
    """
    vocab, hyphen_words = vocab_for(topic_terms)
    text = _PLACEHOLDER.sub(" ", text or "")  # "[Name entfernt]" (privacy filter) says nothing about the material
    text = _REJECTED.sub(" ", text)
    text, typos = vocab.speller.corrected(spelling.correct(text))
    text = periods.protect(forms.as_versus(text))  # „17. Juni 1953“, „z. B.“, „vs.“: no sentence ends there
    e = _without_shapes(text, vocab, hyphen_words, oberstufe)
    if (e.fach or fach) and e.thema and (fixed := _fach_typos(text, e, vocab, e.fach or fach)):
        text = with_typos_fixed(text, tuple(fixed))
        e = _without_shapes(text, vocab, hyphen_words, oberstufe)
        typos += fixed
    e = _periods_restored(e)
    return dataclasses.replace(e, typos=tuple(typos)) if typos else e


def _periods_restored(e: Extraction) -> Extraction:
    """What the reader hands on with the periods periods.protect stood in for."""
    said = [e.thema or "", e.area_text or "", *e.unterthemen, *(w.thema for w in e.afb_wishes)]
    if periods.MARK not in "".join(said):
        return e
    return dataclasses.replace(
        e, thema=e.thema and periods.restore(e.thema), area_text=e.area_text and periods.restore(e.area_text),
        unterthemen=tuple(periods.restore(p) for p in e.unterthemen),
        afb_wishes=tuple(dataclasses.replace(w, thema=periods.restore(w.thema)) for w in e.afb_wishes),
    )


_WORD_OF_TEXT = re.compile(r"[^\W\d_]+")
_YEARS = re.compile(r"\d{3,4}(?:\s*[-–]\s*\d{2,4})?")


def _fach_typos(text: str, e: Extraction, vocab: Vocab, fach: str | None) -> list[tuple[str, str]]:
    """Words of the topic two edits off one word of the Fach's own vocabulary ("Satz des Pythagros"), when the topic
    is no known term as written; only unambiguous matches (core.language.spelling)."""
    speller = vocab.fach_spellers.get(fach or "")
    if speller is None or known_term_in(vocab, e.thema or ""):
        return []
    topic_words = set(_WORD_OF_TEXT.findall(" ".join([e.thema or "", *e.unterthemen])))
    return [(typed, meant) for typed, meant in speller.corrected(text)[1] if typed in topic_words]


def _without_shapes(text: str, vocab: Vocab, hyphen_words: frozenset[str], oberstufe: Oberstufe) -> Extraction:
    """The request read without the shape of its task (decision 061): „Thema Globalisation – analysis of a newspaper
    article plus comment“ is about globalisation. A shape of one kind of task („Analyse eines Gedichts“) is the topic
    when nothing else names one; two kinds („… plus comment“) or a feature („mit Analyse einer Karikatur“) never."""
    text = task_shapes.form_on_text(text)
    rest, never_topic = task_shapes.split(text)
    if rest == text:
        return _with_musts(text, vocab, hyphen_words, oberstufe)
    e = _with_musts(rest, vocab, hyphen_words, oberstufe)
    return e if e.thema or never_topic else _with_musts(text, vocab, hyphen_words, oberstufe)


def _with_musts(text: str, vocab: Vocab, hyphen_words: frozenset[str], oberstufe: Oberstufe) -> Extraction:
    """The request read with its must-have clauses as parts (decision 052): „Energie und Leistung, Wirkungsgrad soll
    vorkommen“ -> Thema „Energie und Leistung“, parts Energie, Leistung, Wirkungsgrad. The facts (Fach, Klasse,
    Dauer …) come from the whole text; an emphasis named alone is the topic („mit Schwerpunkt auf Redoxreaktionen“)."""
    whole = _extract(text, vocab, hyphen_words, nested=False, oberstufe=oberstufe)
    rest, wanted = musts.split(text)
    if not wanted:
        return whole
    tools = _TopicTools(vocab, hyphen_words)
    named = [p for w in wanted for p in _must_parts(w, tools)]
    if not named:
        return whole
    core = _extract(rest, vocab, hyphen_words, nested=False, oberstufe=oberstufe)
    thema, parts = core.thema, list(core.unterthemen)
    if thema is None and core.area_text:
        thema = topics.capitalised(core.area_text)  # „Genetik unter besonderer Berücksichtigung der …“
    if thema is None:
        thema, named = named[0], named[1:]
    seen = {fold(p) for p in (*parts, thema)}
    parts += [p for p in named if fold(p) not in seen and not seen.add(fold(p))]
    return dataclasses.replace(whole, thema=thema, unterthemen=tuple(parts))


def _must_parts(must: musts.Must, tools: _TopicTools) -> list[str]:
    """The parts a must-have clause names, each as a title names it: „Zünfte und Hanse“ -> Zünfte, Hanse."""
    e = _extract(musts.as_phrase(must.text), tools.vocab, tools.hyphen_words, nested=True)
    thema = e.thema or e.area_text
    if not thema:
        return []
    thema, parts = topics.split_peers(thema, tools.known, tools.is_topic)
    if not parts:
        parts = (topics.clean_topic(thema, tools.known, german=True) or thema,)
    return [topics.capitalised(p) for p in parts]


def _extract(text: str, vocab: Vocab, hyphen_words: frozenset[str], *, nested: bool, oberstufe: Oberstufe = G9
             ) -> Extraction:
    doc = Doc(text, hyphen_words)
    if not doc.tokens:
        return Extraction()
    problems: list[str] = []
    klasse, klassenstufe, niveau = extract_klasse(doc, problems, oberstufe)
    dauer = extract_dauer(doc, problems)
    afb = extract_afb_distribution(doc, problems)
    anzahl = extract_count(doc, problems)
    _, ratio_spans = parse_ratio(doc.fold)
    _, avoid_spans, _ = parse_avoid(doc)
    doc.consume_spans(ratio_spans + avoid_spans)

    analysis = Analysis()
    material = extract_material(doc, vocab, analysis)
    scan_vocab(doc, vocab, analysis)
    fach, source = decide_fach(analysis)
    in_english = english.is_english(doc.text)
    if in_english and source != "explicit":  # written in English: the English class, unless a subject is named
        fach, source = "englisch", "explicit"

    raw_wishes = extract_afb_wishes(doc, vocab)
    thema, thema_span = extract_thema(doc, vocab)
    if in_english and (named := english.english_topic(doc.text)):
        thema, thema_span = named, None
    if fach == "englisch" and (thema is None or fold(thema).split()[-1] in _VOCABULARY_WORDS):
        named = english.colon_topic(doc.text) if thema is None else english.vocabulary_topic(doc.text)
        thema, thema_span = (named, None) if named else (thema, thema_span)
    wishes: list[AfbWish] = []
    for wish_thema, level in raw_wishes:
        chosen = wish_thema or thema
        if chosen and all(w.thema != chosen or w.afb != level for w in wishes):
            wishes.append(AfbWish(thema=chosen, afb=level))
    hint = _hint(vocab, analysis, fach, thema, thema_span)
    if fach is None and analysis.unsupported:
        names = ", ".join(FACH_NAMEN[k] for k in FACH_KEYS[:-1]) + " und " + FACH_NAMEN[FACH_KEYS[-1]]
        problems.append(f"Das Fach {analysis.unsupported[0]} wird noch nicht unterstützt — möglich sind {names}.")
    area_text, area_broad = _area(doc, analysis)
    if thema and _YEARS.fullmatch(thema):  # a year range qualifies a topic, it is none: "Weimarer Republik 1918–1933"
        thema = f"{area_text} {thema}" if area_text else None
    unterthemen: tuple[str, ...] = ()
    if not nested:
        thema, unterthemen = _structure(doc.text, thema, area_text, area_broad, vocab, hyphen_words,
                                        german=not in_english)
        thema, unterthemen = _not_a_reply(*_titled(*without_task_kinds(thema, unterthemen)))
        if fach == "englisch" and thema and not unterthemen and (whole := english.whole_clause(doc.text, thema,
                                                                                            in_english=in_english)):
            thema = topics.capitalised(whole)
            sides = re.split(rf"\s+(?:vs[.{MARK}]?|versus)\s+", whole)  # „will-future vs. going-to future“
            unterthemen = tuple(map(topics.capitalised, sides)) if len(sides) == 2 else ()
    return Extraction(
        fach=fach, fach_hint=hint, klassenstufe=klassenstufe, klasse=klasse, thema=thema, dauer_minuten=dauer,
        material_type=material, afb_verteilung=afb, afb_wishes=tuple(wishes), aufgaben_anzahl=anzahl,
        problems=tuple(dict.fromkeys(problems)), unterthemen=unterthemen, niveau=niveau, fach_source=source,
        area_text=area_text, area_broad=area_broad, exam_word=analysis.exam_word if material == "klausur" else None,
        fach_options=fach_options(analysis) if fach is None else (),
    )


def _hint(vocab: Vocab, analysis: Analysis, fach: str | None, thema: str | None,
          thema_span: tuple[int, int] | None) -> str | None:
    """The topic area (Themenfeld) of the request, in the profile's own name for it."""
    if fach is None:
        return None
    hint = None
    for _, entries in sorted(analysis.areas, key=lambda a: a[0]):
        match = next((e for e in entries if e.fach == fach), None)
        if match is not None:
            hint = match.feld
            break
    if hint is None and thema_span is not None:
        for start, end, entries in analysis.topics:
            if start < thema_span[1] and end > thema_span[0]:
                match = next((e for e in entries if e.fach == fach), None)
                if match is not None:
                    hint = match.feld
                    break
    if hint is None and thema is not None:
        entries = [e for e in vocab.stem_idx.get(stem(fold(thema)), []) if e.fach == fach]
        if entries:
            hint = entries[0].feld
    return profile_feld(vocab, fach, hint) if hint is not None else None


def _area(doc: Doc, analysis: Analysis) -> tuple[str | None, bool]:
    """The teacher's own words for the first topic area named ("Optik", "Atombau und Periodensystem") and whether
    it is a broad subject area that still needs a Schwerpunkt."""
    if not analysis.areas:
        return None, False
    i, entries = min(analysis.areas, key=lambda a: a[0])
    toks = doc.tokens
    if toks[i].area:
        j = i
        while j < len(toks) and toks[j].area and (j == i or toks[j].brk == 0):
            j += 1
        text = doc.text[toks[i].ostart:toks[j - 1].oend]
    else:  # named inside a compound ("Mechanikklausur")
        text = entries[0].display
    stems = tuple(stem(m.group()) for m in CHUNK_RE.finditer(fold(text)))
    return text, stems in BROAD_AREAS


@dataclass(frozen=True)
class _TopicTools:
    """The vocabulary and the nested extraction core.language.request.topics needs, as callbacks."""

    vocab: Vocab
    hyphen_words: frozenset[str]

    def known(self, term: str) -> str | None:
        return known_term_in(self.vocab, term)

    def head_topic(self, clause: str) -> str | None:
        e = _extract(forms.without_activity(clause), self.vocab, self.hyphen_words, nested=True)
        return e.thema or e.area_text

    def unit_head(self, clause: str) -> str | None:
        """The clause names a teaching unit and nothing else as its topic ("Weimarer Republik"), not a broad
        area that still needs a Schwerpunkt ("Optik")."""
        e = _extract(clause, self.vocab, self.hyphen_words, nested=True)
        if e.area_text is None or e.area_broad or (e.thema is not None and fold(e.thema) != fold(e.area_text)):
            return None
        return e.area_text

    def _single_term(self, word: str) -> bool:
        return " " not in word.strip() and any(len(e.words) == 1 for e in self.vocab.stem_idx.get(stem(fold(word)), ()))

    def is_topic(self, piece: str) -> bool:
        words = [fold(w) for w in _WORD_OF_TEXT.findall(piece)]
        if words and all(w in UNSUPPORTED_SUBJECTS for w in words):
            return True  # „Weimarer Republik: Wirtschaft und Politik“: a subject's name in a list of topics
        e = _extract(piece, self.vocab, self.hyphen_words, nested=True)
        facts = (e.klassenstufe, e.dauer_minuten, e.afb_verteilung, e.aufgaben_anzahl, e.material_type, e.niveau)
        if e.thema is None and e.area_text is None and not e.problems and self._single_term(piece):
            return True  # a known term that is also a word about the material ("Lösungen" of "Wasser und Lösungen")
        return bool(e.thema or e.area_text) and all(f is None for f in facts) and not e.problems


def _structure(text: str, thema: str | None, area_text: str | None, area_broad: bool, vocab: Vocab,
               hyphen_words: frozenset[str], *, german: bool) -> tuple[str | None, tuple[str, ...]]:
    """Thema and Unterthemen from how the teacher wrote them: quoted, as a header with a list, as a peer list."""
    tools = _TopicTools(vocab, hyphen_words)
    known, head_topic, is_topic = tools.known, tools.head_topic, tools.is_topic
    quoted = forms.work_reference(text) or forms.quoted_words(text) or topics.quoted_topic(text, known)
    if quoted:
        return quoted, ()
    if contrasted := forms.contrast(text, thema, known):
        return contrasted
    header = topics.labelled_parts(text, known, is_topic) or topics.header_list(text, head_topic, known, is_topic,
                                                                                 tools.unit_head)
    if header:
        return header[0], adjective_parts(*header)
    if thema is None and area_text is not None and not area_broad:
        thema = area_text
    if thema is None:
        return None, ()
    if slashed := forms.slashed_peer(text, thema, is_topic):
        return slashed
    thema, parts = topics.split_peers(thema, known, is_topic)
    if parts:  # already cleaned part by part
        return thema, parts
    return topics.clean_topic(thema, known, german=german) or thema, parts


def with_typos_fixed(text: str, typos: tuple[tuple[str, str], ...]) -> str:
    """The text with the words an extraction took for typos in their meant spelling."""
    fixed = dict(typos)
    return _WORD_OF_TEXT.sub(lambda m: fixed.get(m.group(), m.group()), text) if fixed else text


def read_topic(text: str, *, topic_terms: TopicTerms | None = None) -> tuple[str | None, tuple[str, ...]]:
    """A message that only names a topic (the answer to "Welchen Schwerpunkt?"), read as a whole: its Thema as the
    teacher wrote it, cleaned, and its sub-topics."""
    vocab, hyphen_words = vocab_for(topic_terms)
    text = periods.protect(forms.without_activity(prepare(vocab.speller.correct(spelling.correct(text or "")))))
    if only_reply(_WORD_OF_TEXT.findall(fold(text))):  # „ok, dann so“: a reply, no topic
        return None, ()
    tools = _TopicTools(vocab, hyphen_words)
    german = not english.is_english(text)
    quoted = forms.work_reference(text) or forms.quoted_words(text) or topics.quoted_topic(text, tools.known)
    if quoted:
        return _titled(quoted, ())
    if contrasted := forms.contrast(text, None, tools.known) or forms.contrast(text, text.strip(), tools.known):
        return _titled(*contrasted)
    header = topics.header_list(text, tools.head_topic, tools.known, tools.is_topic)
    if header:
        return _titled(*header)
    thema, parts = topics.split_peers(topics.clean_topic(text, tools.known, german=german), tools.known,
                                      tools.is_topic)
    return _not_a_reply(*_titled(thema or None, parts))


def _not_a_reply(thema: str | None, parts: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """No topic when the words are those of a free reply („Standard passt“, „ok, dann so“, „egal“)."""
    if thema and only_reply(_WORD_OF_TEXT.findall(fold(thema))):
        return None, ()
    return thema, parts


def _titled(thema: str | None, parts: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """Thema and Unterthemen as the teacher reads them: each starts with a capital; a period stays a period."""
    return (topics.capitalised(periods.restore(thema)) if thema else thema), tuple(
        topics.capitalised(periods.restore(p)) for p in parts)


def known_term(term: str, *, topic_terms: TopicTerms | None = None) -> str | None:
    """The usual spelling of a known topic term or Themenfeld ("ohmsches gesetz" -> "Ohmsches Gesetz"), else None."""
    return known_term_in(vocab_for(topic_terms)[0], term)
