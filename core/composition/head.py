"""Whether an exam or quiz has a task on the head topic the teacher asked for (decision 067): the thing her topic
names, said by a task's own question or by its filing — not the first half of a compound („Insektenbestäubung“ is
pollination, not insects) and not the verbs of a skill („multiplizieren und dividieren“ of negative numbers)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.checks.topicality import TopicContext, name_stems
from core.checks.topics import TopicInfo, text_stems
from core.checks.views import TaskView
from core.composition.asking import asked
from core.composition.candidates import QuizCandidate, TaskCandidate
from core.composition.fill_up import quoted
from core.composition.filters import quiz_view, task_view
from core.composition.report import Befund, artikel, titled
from core.composition.select import ExamSpec, carries
from core.language.request.subjects import AREA_ALIASES
from core.language.text import words
from core.materials.titles import join_parts
from core.materials.wording import anzahl

_CONJUNCTS = re.compile(r"\s+(?:und|sowie|and|&)\s+|\s*[,;/+–—]\s*|\s+-\s+")


@dataclass(frozen=True)
class Item:
    """One chosen task or question as the head check reads it: what it asks, where the bank files it."""

    view: TaskView
    unterthema: str
    topic: str | None
    on_part: bool = False  # it carries a part she named with her topic: „Elektrizität (Ohmsches Gesetz, …)“


def head_parts(thema: str) -> list[set[str]]:
    """The nouns of each conjunct of her topic, as stems: „Dezimalzahlen multiplizieren und dividieren“ →
    [{dezimalzahl}] (a conjunct of verbs only names no thing), „Exponentielles Wachstum und Zerfall“ →
    [{exponenziell, wachstum}, {zerfall}]. A topic without any capitalised word counts with all its words."""
    head = re.sub(r"\([^)]*\)", " ", thema.partition(":")[0] or thema)  # „X (other name)“: the name is X
    parts = [p for p in _CONJUNCTS.split(head) if p.strip()]
    nouns = [text_stems(" ".join(w for w in words(p) if w[:1].isupper())) for p in parts]
    if not any(nouns):
        nouns = [text_stems(p) for p in parts]
    return [n for n in nouns if n]


def _names(token: str, word: str) -> bool:
    """The task's word names the head word: the same word (an ending apart), a compound ending in it („Kirschblüte“
    is a Blüte), or the first part of her compound („Bruch“ of „Bruchrechnung“) — never a compound it only begins
    („Insektenbestäubung“ is no Insekt, „Zahlen“ no Dezimalzahlen)."""
    if token == word:
        return True
    if token.startswith(word) or word.startswith(token):
        shorter = min(len(token), len(word))
        return abs(len(token) - len(word)) <= 1 or (len(token) < len(word) and shorter >= 5)
    return len(token) >= len(word) + 3 and token.endswith(word)


def _said(item: Item, topic: TopicContext | None) -> set[str]:
    """The words of what a task asks (its title and question) and of its filing: sub-topic, topic title and the
    topic's Themenfeld („Optik“ holds „Linsen und optische Geräte“) and the bank's own name for the topic (its id:
    „roemisches-reich“ files „Die Römer: Republik und Kaiserzeit“) — not its key words, which name what its tasks
    mention („Insektenbestäubung“ is a key word of the Blütenpflanzen). A Themenfeld says the area it is the other name
    of too: „Wahrscheinlichkeitsrechnung“ is „Stochastik“ (`AREA_ALIASES`), so a Hypothesentest is a Stochastik task."""
    a = asked(item.view).subject
    home = topic.index.topics.get(item.topic or "") if topic else None
    area = AREA_ALIASES.get(home.themenfeld, ("", ""))[1] if home else ""
    filing = f"{home.thema} {home.themenfeld} {area} {home.id.replace('-', ' ')}" if home else ""
    return text_stems(" ".join([a.titel, a.text, item.unterthema, filing]))


def about_head(item: Item, thema: str, topic: TopicContext | None) -> bool:
    """The task is about her head topic: filed under a resolved topic whose title her topic says as a whole, or its
    question or filing names every noun of one conjunct of her topic, or it carries a part she named."""
    if item.on_part:
        return True
    titles = {t.id: t.thema for t in topic.resolved} if topic else {}
    if item.topic in titles and _whole(titles[item.topic], name_stems(thema)):
        return True
    said = _said(item, topic)
    if any(all(any(_names(t, w) for t in said) for w in part) for part in head_parts(thema)):
        return True
    return _area_word(item, thema, topic)


def _area_word(item: Item, thema: str, topic: TopicContext | None) -> bool:
    """Her topic is a one-word key word of the task's topic, said exactly: „Stochastik“ is the field the
    Binomialverteilung and the Hypothesentests are taught in — a compound key word never counts
    („Insektenbestäubung“ names no Insekten)."""
    home = topic.index.topics.get(item.topic or "") if topic else None
    keys = {s for k in (home.schlagworte if home else ()) if len(words(k)) == 1 for s in text_stems(k)}
    return any(part <= keys for part in head_parts(thema))


def _whole(title: str, said: set[str]) -> bool:
    full, head = name_stems(title), name_stems(title.rpartition(":")[0])
    return bool(full) and full <= said or bool(head) and head <= said


def misses_head(items: Sequence[Item], thema: str, topic: TopicContext | None) -> bool:
    """Not one chosen task is about the head topic: the material is on something else (decision 067)."""
    return bool(items) and bool(head_parts(thema)) and not any(about_head(i, thema, topic) for i in items)


def what_it_is_on(items: Sequence[Item]) -> list[str]:
    """The sub-topics the chosen tasks are filed under, in order."""
    return list(dict.fromkeys(i.unterthema for i in items if i.unterthema))


def reason(thema: str, klassenstufe: int | None, parts: Sequence[str], umfang: str, was: str) -> str:
    """Why no exam or quiz was handed out although tasks were found: none of them is on her topic."""
    fuer = f" für Klasse {klassenstufe}" if klassenstufe else ""
    stueck = "Frage" if was == "Übung" else "Aufgabe"
    return (
        f"Zu „{thema}“ habe ich{fuer} keine geprüfte {stueck}. Vorhanden sind nur {umfang} zu "
        f"{quoted(parts[:3])} – {artikel(was, kuerzer=False)} daraus wäre nicht zu „{thema}“. Wählen Sie, wie es "
        "weitergehen soll."
    )


def option(parts: Sequence[str], umfang: str, thema: str) -> str:
    """The short material as an option (agents/offline/refusal.py reads „die kurze Fassung“ as that choice)."""
    return f"die kurze Fassung mit {umfang} zu {quoted(parts[:3])} erstellen – nicht zu „{thema}“"


def note(thema: str, parts: Sequence[str]) -> str:
    """What the material she chose anyway says about itself."""
    return (
        f"Keine Aufgabe ist zu „{thema}“: alle sind zu {quoted(parts[:3])}. Zu „{thema}“ selbst gibt es keine "
        "geprüfte Aufgabe in passender Klassenstufe – so erstellt, weil Sie die kurze Fassung gewählt haben."
    )


def exam_items(chosen: Sequence[TaskCandidate], spec: ExamSpec) -> list[Item]:
    return [Item(view=task_view(c), unterthema=c.unterthema, topic=c.topic,
                 on_part=any(carries(c, u, spec) for u in spec.unterthemen)) for c in chosen]


def quiz_items(chosen: Sequence[QuizCandidate]) -> list[Item]:
    return [Item(view=quiz_view(c), unterthema=c.unterthema, topic=c.topic) for c in chosen]


def judge(
    befund: Befund, items: Sequence[Item], thema: str, topic: TopicContext | None, *, umfang: str, chosen_short: bool
) -> bool:
    """No task is about her head topic: True — no material, the options first: the short material one answer away
    (its option starts „die kurze Fassung“), the nearest topics that exist, named. After she chose the short
    material, it says what it is on (False)."""
    if not misses_head(items, thema, topic):
        return False
    parts = what_it_is_on(items)
    if chosen_short:
        befund.notizen.insert(0, note(thema, parts))
        return False
    befund.grund, befund.stub = reason(thema, befund.klassenstufe, parts, umfang, befund.was), True
    befund.gefunden = 0  # nothing on her topic: what was found is said in the reason
    befund.fehlende_unterthemen = [thema, *befund.fehlende_unterthemen]  # what the material lacks (Befund.knapp)
    if befund.gewuenscht_minuten:
        befund.geschafft_minuten = 0
    befund.angebote = (option(parts, umfang, thema), *nearest(befund, items, thema, topic))
    befund.nachbarn, befund.ausserhalb = [], 0  # not „ergänzen“ nor „das ganze Thema“ of a topic she did not ask
    return True


def nearest(befund: Befund, items: Sequence[Item], thema: str, topic: TopicContext | None) -> list[str]:
    """The nearest topics that exist, as „das ganze Thema“ options (agents/offline/refusal.py): related topics with
    tasks for the class whose title or sub-topics name her topic („Brüche und Dezimalzahlen“ for „Dezimalzahlen
    multiplizieren“), then the topic the found tasks are filed under."""
    infos = {t.thema: t for t in topic.index.topics.values()} if topic else {}
    out = [
        f"das ganze Thema „{n.thema}“ nehmen ({anzahl(n.anzahl, 'geprüfte ' + befund.stueck)})"
        for n in befund.nachbarn
        if n.anzahl > 0 and n.thema in infos and _names_topic(infos[n.thema], thema)
    ]
    homes = {t.id: t.thema for t in topic.resolved} if topic else {}
    for title in dict.fromkeys(homes[i.topic] for i in items if i.topic in homes):
        out.append(f"das ganze Thema „{title}“ nehmen, zu dem die gefundenen {befund.stueck} gehören")
    return out[:3]


def _names_topic(info: TopicInfo, thema: str) -> bool:
    said = text_stems(" ".join([info.thema, *info.unterthemen]))
    return any(all(any(_names(t, w) for t in said) for w in part) for part in head_parts(thema))


def title(
    items: Sequence[Item], thema: str, unterthemen: Sequence[str], fehlende: Sequence[str], topic: TopicContext | None
) -> str:
    """What a material may be titled with: her topic without the parts it has no task on (`report.titled`) — or,
    when she chose it with no task on her topic, what its tasks are on (decision 067)."""
    if misses_head(items, thema, topic):
        return join_parts(what_it_is_on(items)[:3])
    return titled(thema, unterthemen, fehlende)
