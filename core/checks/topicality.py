"""On topic and at the right level: resolve a request to coverage topics, judge each task against them.

A task is off topic when it shares (almost) nothing with the request, or when a topic of another Themenfeld fits it
clearly better. It is above the level when it belongs to a topic taught two or more grades later, below it when an
Oberstufe request gets a task of a Klasse 5–8 topic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from core.checks.topics import TopicIndex, TopicInfo, request_topic, term_matches, text_stems
from core.checks.views import TaskView

MIN_ON_TOPIC = 1.0  # idf-weighted score a task needs against the request at all
OTHER_FIELD_RATIO = 2.0  # another Themenfeld's topic fitting this much better makes the task off topic
RESOLVE_SHARE = 0.6  # topics scoring within this share of the best one resolve together
MEANS_SHARE = 0.75  # share of the request's own words a topic must cover to be what the request means


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
    ranked = index.ranked(" ".join([thema, *unterthemen]))
    if not ranked:
        return []

    def fits(tid: str) -> bool:
        ks = index.topics[tid].klassenstufen
        return klassenstufe is None or not ks or min(ks) - 1 <= klassenstufe <= max(ks) + 1

    words = text_stems(thema)

    def means(tid: str) -> bool:
        """The topic covers the request's own words ("Kalter Krieg" is not "Erster Weltkrieg": "kalt" is unmatched);
        with sub-topics named, one of them suffices."""
        if not words:
            return True
        terms = index.terms(tid)
        matched = sum(1 for w in words if any(term_matches(w, t) for t in terms))
        if matched >= max(1, round(len(words) * MEANS_SHARE)):
            return True
        return any(index.terms_match(text_stems(u), tid) for u in unterthemen)

    fitting = [(t, s) for t, s in ranked if fits(t) and means(t)] or [(t, s) for t, s in ranked if means(t)]
    if not fitting:
        return []
    named = [t for t, _ in fitting if _same_words(index.topics[t].thema, thema)]
    if named:  # the teacher used a topic's own name: that topic (and the sub-topics she named) is what she means
        extra = [t for t, _ in fitting if t not in named and any(index.terms_match(text_stems(u), t)
                                                                 for u in unterthemen)]
        return [index.topics[t] for t in [*named[:1], *extra]]
    best = fitting[0][1]
    return [index.topics[t] for t, s in fitting if s >= RESOLVE_SHARE * best]


def _same_words(a: str, b: str) -> bool:
    sa, sb = text_stems(a), text_stems(b)
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
    tokens = text_stems(text)
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


def level_reason(task: TaskView, ctx: TopicContext) -> str | None:
    if ctx.klassenstufe is None:
        return None
    ranked = ctx.index.ranked(scoring_text(task))
    if not ranked:
        return None
    best_id, best = ranked[0]
    topic = ctx.index.topics[best_id]
    if not topic.klassenstufen or best_id in {t.id for t in ctx.resolved}:
        return None
    runner_up = ranked[1][1] if len(ranked) > 1 else 0.0
    own = ctx.index.score_terms(text_stems(scoring_text(task)), ctx.index.pseudo(ctx.request))
    if best < 2 * MIN_ON_TOPIC or best < 1.5 * runner_up or best < 2 * own:
        return None  # not clearly one other topic: no level judgement
    k = ctx.klassenstufe
    if min(topic.klassenstufen) >= k + 2:
        return f"setzt „{topic.thema}“ voraus (üblich ab Klasse {min(topic.klassenstufen)}), zu schwer für Klasse {k}"
    requested_upper = ctx.request.oberstufe or k >= 11
    if requested_upper and max(topic.klassenstufen) <= 8:
        return f"ist Stoff der Klassen {min(topic.klassenstufen)}–{max(topic.klassenstufen)}, nicht Oberstufenniveau"
    return None
