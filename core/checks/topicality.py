"""On topic and at the right level: resolve a request to coverage topics, judge each task against them.

A task is off topic when it shares (almost) nothing with the request, or when a topic of another Themenfeld fits it
clearly better. It is above the level when it belongs to a topic taught two or more grades later, below it when an
Oberstufe request gets a task of a Klasse 5–8 topic.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.checks.levels import too_easy, too_hard
from core.checks.topics import TopicIndex, TopicInfo, request_topic, term_matches
from core.checks.views import TaskView
from core.language.text import STOPWORDS, fold, stem

MIN_ON_TOPIC = 1.0  # idf-weighted score a task needs against the request at all
OTHER_FIELD_RATIO = 2.0  # another Themenfeld's topic fitting this much better makes the task off topic
RESOLVE_SHARE = 0.6  # topics scoring within this share of the best one resolve together
MEANS_SHARE = 0.75  # idf-weighted share of the request's own words a topic's names must cover (decision 037)
LONG_MEANS_SHARE = 0.6  # the same for three words or more: one rarer word may be missing („… Tiere“)


@dataclass(frozen=True)
class TopicContext:
    """The requested topic for the checks: the index of the Fach and what the request resolved to."""

    index: TopicIndex
    request: TopicInfo
    resolved: tuple[TopicInfo, ...]
    klassenstufe: int | None = None
    wishes: tuple[TopicContext, ...] = ()  # topics the teacher wants one task on ("Induktion als AFB III")

    @property
    def fields(self) -> set[str]:
        return {t.themenfeld for t in self.resolved if t.themenfeld} | (
            {self.request.themenfeld} if self.request.themenfeld else set())


def resolve(index: TopicIndex, thema: str, unterthemen: Sequence[str] = (),
            klassenstufe: int | None = None) -> list[TopicInfo]:
    """Coverage topics a request means; grade-fitting topics first. [] when nothing fits."""
    found = _pair(index, thema, klassenstufe) or _resolve(index, thema, unterthemen, klassenstufe)
    if not found and len(sides := [p for p in thema.split(": ") if p.strip()]) == 2:
        # „Erörterung: Soziale Medien“ as a whole is no topic: the kind of text and its subject each are one
        found = [t for side in sides for t in _resolve(index, side, (), klassenstufe)[:1]]
        found = list(dict.fromkeys(found))
    return found
    for part in unterthemen:
        words = index.request_stems(part)
        if words and not any(index.coverage(words, t.id) >= MEANS_SHARE for t in found):
            # only a topic that names the part itself („Stammbaumanalyse“), not one sharing a word („Kultur“)
            found += [t for t in _resolve(index, part, (), klassenstufe)[:1]
                      if t not in found and index.one_name_covers(words, t.id)]
    return found


def _fits(index: TopicIndex, tid: str, klassenstufe: int | None) -> bool:
    ks = index.topics[tid].klassenstufen
    return klassenstufe is None or not ks or min(ks) - 1 <= klassenstufe <= max(ks) + 1


_AND = re.compile(r"\s+(?:und|and)\s+", re.I)


def _heads(index: TopicIndex, side: str, klassenstufe: int | None) -> list[str]:
    """The grade-fitting topics whose title has a part beginning with the side's words („Alkane“ of „Alkane und
    Erdöl“, „Absolutismus“ of „Absolutismus am Beispiel Ludwigs XIV.“, „Satz des Pythagoras“)."""
    words = [stem(w) for w in re.findall(r"[^\W\d_]+", fold(side))]
    words = [w for w in words if w in index.stems(side)]
    if not words:
        return []
    out = []
    for tid, t in index.topics.items():
        for part in PARTS.split(t.thema):
            own = [stem(w) for w in re.findall(r"[^\W\d_]+", fold(part))]
            own = [w for w in own if w in index.stems(part)]
            if own[: len(words)] == words and _fits(index, tid, klassenstufe):
                out.append(tid)
                break
    return out


def _pair(index: TopicIndex, thema: str, klassenstufe: int | None) -> list[TopicInfo]:
    """„Alkane und Alkohole“: each side heads the title of one grade-fitting topic, and they are two topics — the
    teacher named both, so both are meant; never one of them with a neighbour whose key words share a stem
    („Alkansäuren“ of Carbonsäuren). A side naming no topic's title („Basen“ of „Säuren und Basen“), or several, and
    a pair that is one topic's own title („Herz und Blutkreislauf“) are left to the usual resolution. [] then."""
    sides = [s for s in _AND.split(thema.strip()) if s.strip()]
    if len(sides) != 2:
        return []
    heads = [_heads(index, s, klassenstufe) for s in sides]
    if any(len(h) != 1 for h in heads) or heads[0] == heads[1]:
        return []
    return [index.topics[h[0]] for h in heads]


def _resolve(index: TopicIndex, thema: str, unterthemen: Sequence[str] = (),
             klassenstufe: int | None = None) -> list[TopicInfo]:
    ranked = index.ranked(" ".join([thema, *unterthemen]))
    if not ranked:
        return []

    def fits(tid: str) -> bool:
        return _fits(index, tid, klassenstufe)

    words = index.request_stems(thema)
    nouns = noun_stems(index, thema)
    verbs = {s for w in thema.split() if w[:1].islower() and w.endswith(("en", "ern", "eln"))
             for s in index.request_stems(w)}  # „addieren“ of „Brüche addieren“ — not „food“ of „British food“

    def means(tid: str) -> bool:
        """The topic's names cover the request's own words, weighted by how rare each is among the topics' names
        („Kalter Krieg“ is not „Erster Weltkrieg“: „kalt“ is unmatched; „school life“ is not Australia's „School
        of the Air“: „life“ is unmatched — decision 037); with sub-topics named, one of them suffices."""
        if not words or index.coverage(words, tid) >= (MEANS_SHARE if len(words) <= 2 else LONG_MEANS_SHARE):
            return True
        if nouns and words - nouns <= verbs and index.coverage(nouns, tid) == 1.0:
            return True  # it carries every noun: the subject, with something to do on it („Brüche addieren“)
        # a named part of several words is meant by one name holding them all, not by words scattered over names
        return any(index.coverage(part, tid) >= MEANS_SHARE and (len(part) < 2 or index.one_name_covers(part, tid))
                   for u in unterthemen if (part := index.request_stems(u)))

    meant = [(t, s) for t, s in ranked if means(t)]
    meaning = _by_nouns(index, thema, meant)
    # a named sub-topic that titles a topic of its own („Kurvendiskussion“ of „Funktionsuntersuchung
    # (Kurvendiskussion)“) is meant, however many of the request's nouns a Themenfeld lends another topic
    meaning += [(t, s) for t, s in meant if (t, s) not in meaning
                and any(index.stems(u) and index.stems(u) <= index.stems(index.topics[t].thema) for u in unterthemen)]
    if not meaning:
        return []
    # A topic that names the request's words itself (title, sub-topics, key words — not only inside a compound) is
    # what the teacher means, even when the plan puts it in other grades: "Stromkreise" in Klasse 10 is "Einfache
    # Stromkreise", not the electromagnet whose key words hold "Steuerstromkreis".
    # One of its names holding all the request's words („school life“ is a key word of School life in Britain) is
    # stronger still than words scattered over several names (decision 037).
    # Its title holding them all is strongest („Indirekte Rede“ is Konjunktiv und indirekte Rede, not the
    # Inhaltsangabe that uses indirect speech).
    phrased = [(t, s) for t, s in meaning if index.one_name_covers(words, t)]
    tiers = ([(t, s) for t, s in phrased if index.one_name_covers(words, t, title=True)],
             phrased if len(words) > 1 else [],
             [(t, s) for t, s in meaning if _names(index.terms(t), words)])
    fitting = (next((f for tier in tiers if (f := [(t, s) for t, s in tier if fits(t)])), [])
               or next((tier for tier in tiers if tier), [])
               or [(t, s) for t, s in meaning if fits(t)] or meaning)
    slug = re.sub(r"[^a-z0-9]+", "-", fold(thema)).strip("-")
    # the teacher used a topic's own name, or spelled its id and went on („If-clauses Typ 1 und 2“)
    named = [t for t, _ in fitting if _same_words(index, index.topics[t].thema, thema) or t == slug
             or (slug.startswith(f"{t}-") and "-" in t)]
    if named:  # the teacher used a topic's own name: that topic (and the sub-topics she named) is what she means
        extra = [t for t, _ in fitting if t not in named and any(index.terms_match(index.stems(u), t)
                                                                 for u in unterthemen)]
        return [index.topics[t] for t in [*named[:1], *extra]]
    best = fitting[0][1]
    return [index.topics[t] for t, s in fitting if s >= RESOLVE_SHARE * best]


def noun_stems(index: TopicIndex, thema: str) -> set[str]:
    """Stems of the capitalised words of a German request (its nouns)."""
    return {s for w in thema.split() if w[:1].isupper() for s in index.request_stems(w)}


def _by_nouns(index: TopicIndex, thema: str, meaning: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The topics that carry most of the request's nouns: the nouns name the subject, the verbs what to do with it
    („Brüche addieren“ is about Brüche, not about adding negative numbers)."""
    nouns = noun_stems(index, thema)
    if not nouns or len(meaning) < 2:
        return meaning
    hits = {t: sum(1 for n in nouns if any(term_matches(n, x) for x in index.terms(t))
                   or index.coverage({n}, t) == 1.0) for t, _ in meaning}  # „Deutsches“ names „Deutsches Kaiserreich“
    most = max(hits.values())
    return [(t, s) for t, s in meaning if hits[t] == most] if most else meaning


def _names(terms: dict[str, float], words: set[str]) -> bool:
    """Every word is one of the topic's own terms (weight >= 2), or the start of one ('Stromkreis' ~
    'Stromkreisregel'), not merely a compound's tail ('Steuerstromkreis')."""
    own = [t for t, w in terms.items() if w >= 2.0]
    return bool(words) and all(any(t == w or t.startswith(w) or (w.startswith(t) and len(t) >= 5) for t in own)
                               for w in words)


def _same_words(index: TopicIndex, a: str, b: str) -> bool:
    sa, sb = index.stems(a), index.stems(b)
    return bool(sa) and sa == sb


def context(index: TopicIndex, thema: str, unterthemen: Sequence[str] = (), klassenstufe: int | None = None,
            extra: Sequence[str] = (), wishes: Sequence[str] = ()) -> TopicContext:
    resolved = tuple(resolve(index, thema, unterthemen, klassenstufe))
    req = request_topic(thema, unterthemen, resolved)
    if extra:
        req = replace(req, extra=tuple(extra))
    wished = tuple(context(index, w, (), klassenstufe) for w in wishes if w.strip())
    return TopicContext(index=index, request=req, resolved=resolved, klassenstufe=klassenstufe, wishes=wished)


def scoring_text(task: TaskView) -> str:
    return " ".join([task.titel, task.text, *task.kriterien])


SAME_FIELD_RATIO = 3.0  # a topic of the same Themenfeld must fit this much better (related topics often overlap)


def off_topic_reason(task: TaskView, ctx: TopicContext) -> str | None:
    """Why the task is not about the requested topic nor a wished one, or None."""
    reason = main_off_topic_reason(task, ctx)
    if reason and any(main_off_topic_reason(task, w) is None for w in ctx.wishes):
        return None
    return reason


def main_off_topic_reason(task: TaskView, ctx: TopicContext) -> str | None:
    """Why the task is not about the requested topic itself, or None. Judged by what the task asks and expects —
    not by a title, which may name another topic's sub-topic or a material."""
    return _off_topic(" ".join([task.text, *task.kriterien]), ctx)


def _off_topic(text: str, ctx: TopicContext) -> str | None:
    tokens = ctx.index.stems(text)
    own = ctx.index.score_terms(tokens, ctx.index.pseudo(ctx.request))
    resolved_ids = {t.id for t in ctx.resolved}
    fields = ctx.fields
    others = [(tid, s) for tid, s in ctx.index.ranked(text) if tid not in resolved_ids]
    other = others[0] if others else None
    if own < MIN_ON_TOPIC and not (other is None and own > 0):
        if other:
            return f"gehört zum Thema „{ctx.index.topics[other[0]].thema}“, nicht zu „{ctx.request.thema}“"
        return f"hat keinen erkennbaren Bezug zum Thema „{ctx.request.thema}“"
    for tid, score in others[:3]:
        ratio = SAME_FIELD_RATIO if ctx.index.topics[tid].themenfeld in fields else OTHER_FIELD_RATIO
        if score >= ratio * own:
            return f"gehört eher zum Thema „{ctx.index.topics[tid].thema}“ als zu „{ctx.request.thema}“"
    return None


_HYPHENATED = re.compile(r"\w+(?:-\w+)*")
PARTS = re.compile(r"\s+(?:und|and|vs\.?|versus|oder|or)\s+|[,;:()+/]", re.I)


def name_stems(text: str) -> set[str]:
    """Stems of every word but stopwords — operator-like words kept („present“ in „present perfect“ is the tense),
    numbers kept („Typ 1“), hyphenated words whole („if-clauses“ is no „relative clause“), spellings joined
    (Photo-/Fotosynthese, Ruhepotential/-zial, type/Typ)."""
    norm = fold(text).replace("ph", "f").replace("th", "t").replace("tial", "zial").replace("type", "typ")
    return {w if w.isdigit() else stem(w) for w in _HYPHENATED.findall(norm)
            if w.isdigit() or (len(w) > 1 and w not in STOPWORDS)}


def says(text: str, phrase: str) -> bool:
    """The text says every word of the phrase (word families and spellings alike)."""
    have, want = name_stems(text), name_stems(phrase)
    return all(any(term_matches(h, x) for h in have) for x in want)


CONTRAST = re.compile(r"\s+(?:vs\.?|versus|gegenüber|im Vergleich (?:zu[rm]?|mit))\s+", re.I)


_LIST_ITEM = re.compile(r"\s*(?:[,;+]|\bund\b|\bsowie\b)\s*", re.I)


def contrast_parts(thema: str, unterthemen: Sequence[str] = (), said: str = "") -> list[str]:
    """The two sides of a contrast the teacher asked for: around the „vs.“ of the topic, a list's other items left
    out („Mitose vs. Meiose und Chromosomen“ -> Mitose, Meiose); else two named parts her own words (`said`) set
    against each other („Landwirtschaft: Massentierhaltung vs. ökologischer Landbau, Sonderkulturen“); else []."""
    halves = CONTRAST.split(thema, maxsplit=1)
    if len(halves) == 2:
        sides = [_LIST_ITEM.split(halves[0])[-1].strip(" ."), _LIST_ITEM.split(halves[1])[0].strip(" .")]
        if all(sides):
            return sides
    for left, right in zip(unterthemen, unterthemen[1:], strict=False):
        if re.search(rf"{re.escape(left)}{CONTRAST.pattern}{re.escape(right)}", said, re.I):
            return [left, right]
    return []


def sets_side_by_side(text: str, seiten: Sequence[str]) -> bool:
    """The task says both sides of the contrast, so it can set them side by side (not one in passing only)."""
    return bool(seiten) and all(says(text, p) for p in seiten)


def says_request(text: str, ctx: TopicContext) -> bool:
    """The task says what the teacher asked for: every word of one part of her topic („Globalisierung“ of
    „Globalisierung und Welthandel“, „present perfect“) or of one named sub-topic."""
    parts = [p for t in [ctx.request.thema, *ctx.request.unterthemen] for p in PARTS.split(t) if name_stems(p)]
    return not parts or any(says(text, p) for p in parts)


def home_topic(index: TopicIndex, name: str) -> str | None:
    """The coverage topic a task's own topic name means (rows without a topic id: older seeds, a teacher's own)."""
    found = resolve(index, name) if name.strip() else []
    return found[0].id if found else None


def filed_elsewhere(text: str, filed: str | None, ctx: TopicContext) -> bool:
    """Whether a task its authors filed under another topic of the Fach (`filed`) is about that topic and not what
    was asked: it does not say the request's words. The neighbour tolerance of `off_topic_reason` is for tasks of
    unknown origin; a word bag cannot tell a conditional from a past-tense task when both speak of „past perfect“
    and the tense words are all it sees."""
    if filed is None or filed not in ctx.index.topics or filed in {t.id for t in ctx.resolved}:
        return False
    return not says_request(text, ctx)


_ELEMENTARY = re.compile(r"^[\d\s+\-−·*×:/=,.()?]+$")


def _bare_arithmetic(text: str, ctx: TopicContext) -> bool:
    """Only numbers and the four operations beyond operator words ('Berechne 3/4 + 1/8.'): nothing an Oberstufe
    task could be about."""
    if ctx.index.stems(text):
        return False
    rest = re.sub(r"[A-Za-zÄÖÜäöüß]+", " ", text)
    return bool(re.search(r"\d", rest)) and bool(_ELEMENTARY.match(rest.strip()))


def cue_reason(task: TaskView, ctx: TopicContext) -> str | None:
    """Level by what the task names (core/checks/levels.py): a concept taught far later, or a Grundschul activity in
    the Oberstufe. A topic the teacher asked for sets the class it is judged against („Trigonometrie“ in Klasse 8 is
    her choice)."""
    if ctx.klassenstufe is None:
        return None
    k = ctx.klassenstufe
    requested_upper = ctx.request.oberstufe or k >= 11
    judged = max(k, min((min(t.klassenstufen) for t in ctx.resolved if t.klassenstufen), default=k))
    text = " ".join([task.text, *task.kriterien])
    if cue := too_hard(text, ctx.index, judged):
        return (f"verlangt „{cue.name}“ (üblich ab Klasse {cue.ab}) – zu schwer für Klasse {k}; "
                "ersetzen Sie die Aufgabe durch eine zum Stoff der Klasse")
    if requested_upper and (activity := too_easy(task.text, ctx.index)):
        return (f"ist eine Aufgabe auf Grundschulniveau („{activity}“) ohne Oberstufenanspruch – "
                "verlangen Sie Analyse, Anwendung oder Beurteilung")
    return None


NEAR_BEST = 1.5  # topics scoring within this factor of the best one are the candidates for what a task is about


def level_reason(task: TaskView, ctx: TopicContext) -> str | None:
    """Why the task is above or below the requested grade, or None. Judged only when the task clearly belongs to
    other topics than the requested ones — all topics near its best score — and all of those are taught two or more
    grades later (too hard), or, for an Oberstufe request, three or more grades earlier (too easy)."""
    if ctx.klassenstufe is None:
        return None
    requested_upper = ctx.request.oberstufe or ctx.klassenstufe >= 11
    if requested_upper and _bare_arithmetic(task.text, ctx):
        return "ist eine reine Grundrechenaufgabe ohne Oberstufenbezug"
    if reason := cue_reason(task, ctx):
        return reason
    ranked = ctx.index.ranked(scoring_text(task))
    if not ranked:
        return None
    best = ranked[0][1]
    near = [ctx.index.topics[t] for t, s in ranked if s * NEAR_BEST >= best]
    resolved = {t.id for t in ctx.resolved}
    if any(t.id in resolved or not t.klassenstufen for t in near):
        return None
    own = ctx.index.score_terms(ctx.index.stems(scoring_text(task)), ctx.index.pseudo(ctx.request))
    if best < 2 * MIN_ON_TOPIC or best < 2 * own:
        return None  # not clearly another topic: no level judgement
    k = ctx.klassenstufe
    topic = near[0]
    if all(min(t.klassenstufen) >= k + 2 for t in near):
        return f"setzt „{topic.thema}“ voraus (üblich ab Klasse {min(topic.klassenstufen)}), zu schwer für Klasse {k}"
    if requested_upper and all(max(t.klassenstufen) <= k - 3 for t in near):
        return f"ist Stoff der Klassen {min(topic.klassenstufen)}–{max(topic.klassenstufen)}, nicht Oberstufenniveau"
    return None
