"""Issue #10, decision 037: a requested topic resolves to a bank topic only when the match covers what the teacher
named, never through one generic word it shares with a neighbour.

The labelled set below was written before the resolver was run on it (stop 22, n10a): half are phrases that mean a
specific bank topic, half are multi-word topics that share one word with bank topics and must resolve to nothing, or
only to a topic that covers one of their named parts (the `allowed` set)."""

from __future__ import annotations

import pytest

from core.checks.calibration import seed_index
from core.checks.topicality import resolve

# (fach, requested phrase, Klassenstufe, the bank topic it means)
SHOULD_RESOLVE = [
    ("englisch", "School life", 6, "school-life-britain"),
    ("englisch", "school life", 8, "school-life-britain"),
    ("englisch", "Schulleben in Großbritannien", 6, "school-life-britain"),
    ("englisch", "School of the Air", 8, "australia"),
    ("englisch", "The passive", 8, "passive-voice"),
    ("englisch", "Digital life and social media", 9, "media-digital-life"),
    ("englisch", "Reported speech", 9, "reported-speech"),
    ("englisch", "London", 6, "london"),
    ("deutsch", "Indirekte Rede", 9, "konjunktiv-indirekte-rede"),
    ("deutsch", "Naturlyrik", 7, "gedichte-naturlyrik"),
    ("deutsch", "Sprachwandel", 12, "sprachwandel-varietaeten"),
    ("biologie", "Ökosystem Wald", 7, "oekosystem-wald"),
    ("biologie", "Herz und Blutkreislauf", 8, "herz-blutkreislauf"),
    ("geschichte", "Leben in der Steinzeit", 5, "steinzeit"),
    ("geschichte", "Die Weimarer Republik", 9, "weimarer-republik"),
    ("geschichte", "Kalter Krieg", 10, "kalter-krieg"),
    ("geographie", "Tropischer Regenwald", 7, "tropischer-regenwald"),
    ("geographie", "Tourismus in den Alpen", 6, "alpen-tourismus"),
    ("mathematik", "Satz des Pythagoras", 8, "satz-des-pythagoras"),
    ("mathematik", "Prozentrechnung im Alltag", 7, "prozentrechnung"),
    ("physik", "Ohmsches Gesetz", 8, "ohmsches-gesetz"),
    ("physik", "Druck und Auftrieb", 9, "druck-auftrieb"),
    ("chemie", "Säuren und Basen", 9, "saeuren-basen-neutralisation"),
    ("chemie", "Atombau", 8, "atombau-periodensystem"),
]

# (fach, requested phrase, Klassenstufe, topics that cover one named part and may resolve — else nothing may)
SHOULD_NOT_RESOLVE = [
    ("englisch", "life in the city", 8, set()),
    ("englisch", "British food", 7, set()),
    ("englisch", "digital school", 8, {"media-digital-life"}),
    ("englisch", "school sports", 7, {"school-life-britain"}),
    ("englisch", "American food", 7, set()),
    ("englisch", "Umweltschutz", 9, {"globalisation-global-issues"}),
    ("deutsch", "Sprache und Digitalisierung", 11, set()),
    ("deutsch", "Sprache der Werbung", 8, {"zeitung-medien"}),
    ("deutsch", "Rechtschreibung im Chat", 7, {"rechtschreibung"}),
    ("biologie", "Ökosystem Stadt", 8, set()),
    ("biologie", "Leben im Meer", 7, set()),
    ("biologie", "Pilze und Flechten", 7, {"oekosystem-wald"}),
    ("chemie", "Chemie in der Küche", 7, set()),
    ("chemie", "Reaktionen im menschlichen Körper", 9, set()),
    ("chemie", "Energie aus Biomasse", 9, set()),
    ("physik", "Bewegung im Sport", 8, {"gleichfoermige-bewegung", "beschleunigte-bewegung"}),
    ("physik", "Licht in der Kunst", 7, {"licht-schatten"}),
    ("geschichte", "Frauen im Mittelalter", 7, set()),
    # stop 25 added the topic „Russische Revolution“ (Oberstufe items only): it is what these words name; a Klasse-9
    # request then finds no item at its grade and gets the options — a bank gap, not a misreading
    ("geschichte", "Revolution in Russland", 9, {"erster-weltkrieg", "russische-revolution"}),
    ("geschichte", "Krieg in Syrien", 10, set()),
    ("geographie", "Tourismus am Meer", 7, {"kuesten-meere"}),
    ("geographie", "Energie in der Schule", 8, set()),
    ("mathematik", "Spiegelungen und Symmetrie", 6, {"symmetrie"}),  # the bank has a Symmetrie topic since stop 23
]


def _resolved(fach: str, phrase: str, klasse: int) -> list[str]:
    return [t.id for t in resolve(seed_index(fach), phrase, (), klasse)]


def test_the_labelled_set_is_balanced_over_all_eight_faecher() -> None:
    assert len(SHOULD_RESOLVE) + len(SHOULD_NOT_RESOLVE) >= 40
    assert abs(len(SHOULD_RESOLVE) - len(SHOULD_NOT_RESOLVE)) <= 2
    faecher = {"biologie", "chemie", "deutsch", "englisch", "geographie", "geschichte", "mathematik", "physik"}
    assert {c[0] for c in SHOULD_RESOLVE} == faecher == {c[0] for c in SHOULD_NOT_RESOLVE}


def test_resolver_precision_and_recall_on_the_labelled_set() -> None:
    resolved = wrong = hits = 0
    misses: list[str] = []
    for fach, phrase, klasse, want in SHOULD_RESOLVE:
        ids = _resolved(fach, phrase, klasse)
        resolved += bool(ids)
        if ids and set(ids) == {want}:
            hits += 1
        else:
            misses.append(f"{fach}: {phrase!r} -> {ids} (wanted {want})")
            wrong += bool(ids)
    for fach, phrase, klasse, allowed in SHOULD_NOT_RESOLVE:
        ids = _resolved(fach, phrase, klasse)
        resolved += bool(ids)
        if ids and not set(ids) <= allowed:
            wrong += 1
            misses.append(f"{fach}: {phrase!r} -> {ids} (allowed {sorted(allowed) or 'nothing'})")
    precision = (resolved - wrong) / resolved if resolved else 1.0
    recall = hits / len(SHOULD_RESOLVE)
    print(f"\nresolver on {len(SHOULD_RESOLVE) + len(SHOULD_NOT_RESOLVE)} labelled phrases: "
          f"precision {precision:.3f}, recall {recall:.3f}")
    print("\n".join(misses))
    assert precision >= 0.95, misses
    assert recall >= 0.9, misses


@pytest.mark.parametrize("fach, phrase, klasse", [
    ("englisch", "school life", 8), ("englisch", "School Life", 8)])
def test_one_shared_generic_word_does_not_pull_in_a_neighbour(fach: str, phrase: str, klasse: int) -> None:
    """„school life“ shares only „school“ with Australia (School of the Air) and Media and digital life
    (phone-free school): neither is what the teacher named."""
    ids = _resolved(fach, phrase, klasse)
    assert "australia" not in ids and "media-digital-life" not in ids, ids


def test_a_neighbours_task_is_not_on_topic_by_provenance_of_a_wrong_resolution() -> None:
    """The exam of the lead's blind check: with „school life“ resolved to Media and digital life, its Cyberbullying
    task passed as on topic by provenance. Now the request resolves to Reported speech only (School life in Britain
    is Klasse 5–6), and the gate judges the Cyberbullying task by its words."""
    from core.checks.topicality import context, off_topic_reason
    from core.checks.views import TaskView

    ctx = context(seed_index("englisch"), "Reported speech und School Life", ("Reported speech", "School Life"), 8)
    assert [t.id for t in ctx.resolved] == ["reported-speech"]
    task = TaskView(ref="1b", titel="Cyberbullying", text=(
        "Read the situation: Mia, 14, posted a dance video. Some classmates made a group chat called 'Mia the "
        "clown', shared the video with mean comments and sent her messages at night. Explain why cyberbullying like "
        "this can be even worse than bullying in the schoolyard. Give four reasons."),
        kriterien=("Kein Rückzugsort: Nachrichten erreichen Mia auch nachts und zu Hause (24/7).",
                   "Großes Publikum: Video und Kommentare werden schnell weiterverbreitet."))
    assert off_topic_reason(task, ctx) is not None
