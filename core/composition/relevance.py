"""Whether a bank item belongs to a request by what it is about, not by a word it shares (decision 044).

The bank files every item under a topic and a sub-topic. That filing says what the item is about; its text, options
and distractors may share a word with any request („Wind“ in „Wind- und Solarstrom“, „Juden“ in a chronicle of
1349). So an item filed under another topic than the ones the request resolved to belongs to the request only when
its filing — its sub-topic and its topic's title — names what the teacher asked for (idf-weighted, on the words
that carry the request's meaning, decision 037), and its years lie in the era of the requested topics."""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.checks.topicality import TopicContext
from core.checks.topics import TopicIndex, TopicInfo, term_matches

FILING_SHARE = 0.75  # idf-weighted share of the request's meaning words the filing must name
NEAR_SHARE = 0.01  # the same in the Themenfeld of a requested topic: one meaning word
ERA_MARGIN = 30  # years a task may lie outside the requested topics' own years and still be of their era
_YEAR = re.compile(r"(?<![\d,.])(1[0-9]{3}|20[0-9]{2}|[5-9][0-9]{2})(?![\d,.])")


def years(text: str) -> set[int]:
    """The years a text names (500–2099; not a decimal, not part of a longer number)."""
    return {int(y) for y in _YEAR.findall(text)}


def _holds(name_word: str, word: str) -> bool:
    """The filing's word names the request's word: the same, or a compound of it („Wetterelemente“ names „Wetter“)
    — never a part of it („Klima“ of „Klimazonen“ does not name „Klimawandel“)."""
    return len(name_word) >= len(word) and term_matches(word, name_word)


def _names_share(index: TopicIndex, words: set[str], names: Iterable[str]) -> float:
    """The idf-weighted share of `words` that the names hold."""
    stems = set().union(set(), *(index.request_stems(n) for n in names))
    total = sum(index.name_idf(w) for w in words)
    got = sum(index.name_idf(w) for w in words if any(_holds(s, w) for s in stems))
    return got / total if total else 0.0


def request_parts(topic: TopicContext) -> list[set[str]]:
    """The meaning words of what was asked: the topic as a whole, each named sub-topic, each wished topic. A year
    range alone („1945–1990“) carries no meaning word and names nothing."""
    texts = [topic.request.thema, *topic.request.unterthemen, *(w.request.thema for w in topic.wishes)]
    return [w for t in texts if (w := topic.index.request_stems(t))]


def filing_names(c_topic: str | None, unterthema: str, index: TopicIndex) -> list[str]:
    """What an item's filing says it is about: its sub-topic and the title of its topic."""
    home = index.topics.get(c_topic or "")
    return [n for n in (unterthema, home.thema if home else "") if n.strip()]


def filed_for_request(c_topic: str | None, unterthema: str, topic: TopicContext, *, share: float = FILING_SHARE
                      ) -> bool:
    """The item's filing names the request as a whole or one part the teacher named (at least `share` of it)."""
    names = filing_names(c_topic, unterthema, topic.index)
    return any(_names_share(topic.index, words, names) >= share for words in request_parts(topic))


def era(topics: Iterable[TopicInfo]) -> tuple[int, int] | None:
    """The span of years the topics' own names give („Errichtung der Diktatur 1933/34“, „Kriegsende 1945“)."""
    found = {y for t in topics for n in (t.thema, t.themenfeld, *t.unterthemen, *t.schlagworte) for y in years(n)}
    return (min(found), max(found)) if found else None


def out_of_era(text: str, topic: TopicContext) -> bool:
    """The task is set in another time than the requested topics: every year it names lies far outside theirs
    (a chronicle of 1349 in a test on the Nazi persecution of Jews)."""
    span = era(topic.resolved)
    named = years(text)
    if span is None or not named:
        return False
    return all(y < span[0] - ERA_MARGIN or y > span[1] + ERA_MARGIN for y in named)


def belongs(*, c_topic: str | None, unterthema: str, text: str, topic: TopicContext | None) -> bool:
    """Whether a bank item filed under `c_topic` belongs to the request. An item of a requested topic belongs; one
    filed elsewhere only when its filing names what was asked and it is set in the requested topics' era. Without a
    resolved topic, or without a known filing, nothing is decided here (the word-based checks judge)."""
    if topic is None or not topic.resolved or c_topic is None or c_topic not in topic.index.topics:
        return True
    requested = {t.id for t in topic.resolved} | {t.id for w in topic.wishes for t in w.resolved}
    if c_topic in requested:
        return True
    if out_of_era(text, topic):
        return False
    # in the Themenfeld of a requested topic a filing naming one meaning word will do: an Oberstufe „Globalisierung
    # und Welthandel“ exam takes the tasks of „Globalisierung: … Global Cities“
    fields = {t.themenfeld for t in topic.resolved if t.themenfeld}
    near = topic.index.topics[c_topic].themenfeld in fields
    return filed_for_request(c_topic, unterthema, topic, share=NEAR_SHARE if near else FILING_SHARE)
