"""From chosen tasks to the printed structure: one Aufgabe per material, the other tasks grouped by sub-topic,
sub-tasks ordered from AFB I to III, Aufgaben from the more reproductive to the more demanding."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from core.checks.promises import covers
from core.checks.topics import text_stems
from core.checks.views import TaskView
from core.composition.candidates import TaskCandidate
from core.language.text import fold
from core.materials import titles
from core.materials.blocks import MaterialBlock, Quelle
from core.materials.klausur import Aufgabe, Teilaufgabe

MAX_TEILAUFGABEN = 4
_RANK = {"I": 1, "II": 2, "III": 3}


MAX_TITLE = 70


def short_title(text: str, limit: int = MAX_TITLE) -> str:
    """A heading that fits, cut after a complete phrase (core.materials.titles)."""
    return titles.short_title(text, limit)


def title_options(group: Sequence[TaskCandidate], thema: str = "", topic_titles: Mapping[str, str] | None = None
                  ) -> list[str]:
    """Titles that say what the group's tasks ask, best first: the one text they work on (a table's caption is no
    title: 'Atommassen (gerundet)'), else their sub-topic(s), else the one topic they are filed under — never the
    exam's whole topic when that names parts the group lacks („Prozentrechnung und Zinsrechnung“ over three
    Prozent tasks). Later options name the group's own sub-topics, for when an earlier one is another's title."""
    first = group[0]
    options = []
    named = [m for m in first.materialien if m.titel and m.titel != "Material" and not (m.tabelle and not m.text)]
    if len(named) == 1:
        titel = named[0].titel
        for prefix in ("M1 ", "M2 ", "M3 ", "M 1 ", "Material: "):
            titel = titel.removeprefix(prefix)
        options.append(titles.without_editorial(titel))
    points: dict[str, int] = {}
    for c in group:
        if c.unterthema.strip():
            points[c.unterthema.strip()] = points.get(c.unterthema.strip(), 0) + c.punkte
    subs = list(points)
    topics = list(dict.fromkeys((topic_titles or {}).get(c.topic or "", "") for c in group))
    asked = [u for u in subs if thema and fold(thema) in fold(u)]
    if len(subs) > 2 and asked:  # the sub-topic the teacher asked for names the group ('Wirkungsgrad und …')
        options.append(asked[0])
    if len(subs) == 1:
        options.append(subs[0])
    elif len(subs) == 2 and len(" ".join(subs)) < 60:
        options.append(titles.join_parts(subs))
    if len(topics) == 1 and topics[0]:
        options.append(topics[0])
    main = sorted(subs, key=lambda u: -points[u])[:2]
    if len(main) == 2 and len(" ".join(main)) < 60:
        options.append(titles.join_parts(main))
    options += [*subs, thema] if not options else []
    # a table's caption tells two Aufgaben on one sub-topic apart ('Eigenschaften der Alkalimetalle'), never first
    options += [titles.without_editorial(m.titel) for m in first.materialien if m.tabelle and not m.text]
    said = " ".join(" ".join([c.text, *(b.text or "" for b in c.materialien)]) for c in group)
    out = [titles.capitalised(short_title(o)) for o in options if o.strip()]
    kept = [o for o in out if not titles.unsaid_part(o, thema, said)]  # not the whole topic over one part
    if not kept and (own := titles.said_parts(thema, said)):
        kept = [titles.capitalised(titles.join_parts(own))]  # 'Atombau', not „Atombau und Periodensystem“
    return list(dict.fromkeys(kept or out)) or ["Aufgabe"]


def aufgabe_titel(group: Sequence[TaskCandidate], thema: str = "", topic_titles: Mapping[str, str] | None = None
                  ) -> str:
    return title_options(group, thema, topic_titles)[0]


def pick_titles(options: Sequence[Sequence[str]]) -> list[str]:
    """One title per Aufgabe, each its first option unless another Aufgabe has it too: then the one with further
    options moves on to its next."""
    idx = [0] * len(options)
    for _ in range(max((len(o) for o in options), default=0)):
        chosen = [fold(o[i]) for o, i in zip(options, idx, strict=True)]
        counts = {t: chosen.count(t) for t in chosen}
        moved = False
        for n, t in enumerate(chosen):
            if counts[t] > 1 and idx[n] + 1 < len(options[n]):
                idx[n] += 1
                counts[t] -= 1
                moved = True
        if not moved:
            break
    return [o[i] for o, i in zip(options, idx, strict=True)]


def distinct_titles(aufgaben_: list[Aufgabe], thema: str) -> list[Aufgabe]:
    """Two Aufgaben never share a title: a repeated one gets the sub-topic its own tasks name, else a part number; a
    single Aufgabe on a material names the exam's topic too (a whole American-Dream exam is not titled
    „Declaration of Independence …“)."""
    if len(aufgaben_) == 1 and aufgaben_[0].materialien and thema and fold(thema) not in fold(aufgaben_[0].titel):
        aufgaben_[0].titel = short_title(f"{thema}: {aufgaben_[0].titel}", 100)
    seen: dict[str, int] = {}
    for a in aufgaben_:
        key = fold(a.titel)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            a.titel = f"{a.titel} (Teil {seen[key]})"
    return aufgaben_


def _weight(g: Sequence[TaskCandidate]) -> tuple[float, str]:
    return sum(_RANK[c.afb] * c.punkte for c in g) / max(sum(c.punkte for c in g), 1), g[0].key


def fingerprint(block: MaterialBlock) -> str:
    """A material by what it prints: the bank keeps the same poem or source under several topics."""
    rows = " ".join(" ".join(z) for z in block.tabelle.zeilen) if block.tabelle else ""
    body = " ".join(f"{block.text or ''} {rows}".casefold().split())
    return f"text:{body[:400]}" if len(body) >= 40 else f"titel:{block.titel.casefold()}|{body}"


def _material_parts(c: TaskCandidate) -> set[str]:
    """The materials a task works on ('topic/m1+m2' -> {'topic/m1', 'topic/m2'}, and what each prints); tasks
    sharing one share an Aufgabe, so a material is printed once."""
    key = c.material_key or ""
    if "/" in key and not key.startswith(("gen:", "mat:")):
        topic, labels = key.split("/", 1)
        parts = {f"{topic}/{label}" for label in labels.split("+")}
    else:
        parts = {key} if key else set()
    return parts | {fingerprint(b) for b in c.materialien} if parts else parts


def groups(chosen: Sequence[TaskCandidate], max_aufgaben: int | None = None) -> list[list[TaskCandidate]]:
    """Tasks sharing a material form one group; the rest are grouped by sub-topic (at most 4 per group), and
    single tasks of one topic are joined, so an exam has Aufgaben with sub-tasks, not a list of one-liners. With a
    wished number of Aufgaben, the smallest groups without material join others until it is met."""
    out: list[list[TaskCandidate]] = []
    by_material: list[tuple[set[str], list[TaskCandidate]]] = []
    by_sub: dict[str, list[TaskCandidate]] = {}
    for c in chosen:
        parts = _material_parts(c)
        if parts:
            homes = [entry for entry in by_material if entry[0] & parts]
            if not homes:
                homes = [(set(), [])]
                by_material.append(homes[0])
                out.append(homes[0][1])
            home = homes[0]
            for other in homes[1:]:  # a task on two materials joins the Aufgaben that print them
                home[0].update(other[0])
                home[1].extend(other[1])
                by_material.remove(other)
                out.remove(other[1])
            home[0].update(parts)
            home[1].append(c)
            continue
        key = c.unterthema.casefold()
        if key not in by_sub or len(by_sub[key]) >= MAX_TEILAUFGABEN:
            by_sub[key] = []
            out.append(by_sub[key])
        by_sub[key].append(c)
    singles = sorted((g for g in out if len(g) == 1 and not g[0].material_key), key=_weight)
    joined: list[list[TaskCandidate]] = []
    for g in singles:
        home = next((j for j in joined if len(j) < MAX_TEILAUFGABEN - 1 and j[0].topic == g[0].topic), None)
        if home is None:
            joined.append(list(g))
        else:
            home.extend(g)
    out = [g for g in out if not (len(g) == 1 and not g[0].material_key)] + joined
    while max_aufgaben and len(out) > max_aufgaben:
        loose = sorted((g for g in out if not g[0].material_key), key=len)
        if len(loose) < 2 and not (loose and len(out) > 1):
            break
        small = loose[0]
        out.remove(small)
        target = min((g for g in out if not g[0].material_key), key=len, default=None) or min(out, key=len)
        target.extend(small)
    for g in out:
        g.sort(key=lambda c: _RANK[c.afb])
    out.sort(key=_weight)
    return out


_M_REF = re.compile(r"\bM\s?(\d+)\b")


def renumber(text: str, mapping: Mapping[str, str]) -> str:
    """'M2' as the bank numbered it becomes the exam's number for that material ('M1')."""
    return _M_REF.sub(lambda m: f"M{mapping.get(m.group(1), m.group(1))}", text) if mapping else text


def numbered_block(block: MaterialBlock, number: int) -> MaterialBlock:
    """The block titled with its number in the exam ('M2 Klimadaten Kairo'); the bank's own number goes."""
    titel = re.sub(r"^M\s?\d+\s*[:.–-]?\s*", "", block.titel).strip()
    titel = "" if titel.casefold() == "material" else titel
    return block.model_copy(update={"titel": f"M{number} {titel}".strip()})


def material_labels(material_key: str | None) -> list[str]:
    """The bank's own material numbers of a task ('topic/m2+m3' -> ['2', '3'])."""
    if not material_key or "/" not in material_key:
        return []
    return [re.sub(r"\D", "", part) for part in material_key.split("/", 1)[1].split("+")]


def _bank_part(material_key: str | None, i: int) -> str:
    """The bank material a task's i-th block is ('topic/m1+m2', 1 -> 'topic/m2'); '' for generated ones."""
    if not material_key or "/" not in material_key or material_key.startswith(("gen:", "mat:")):
        return ""
    topic, labels = material_key.split("/", 1)
    ids = labels.split("+")
    return f"{topic}/{ids[i]}" if i < len(ids) else ""


def with_rows(printed: MaterialBlock, block: MaterialBlock) -> MaterialBlock:
    """The printed table with the rows another chosen task works with added (the bank gives each task only its own
    rows of a shared table, seeds.bank_rows.material_block): never a row no chosen task uses."""
    if printed.tabelle is None or block.tabelle is None:
        return printed
    zeilen = [*printed.tabelle.zeilen, *(z for z in block.tabelle.zeilen if z not in printed.tabelle.zeilen)]
    return printed.model_copy(update={"tabelle": printed.tabelle.model_copy(update={"zeilen": zeilen})})


def teilaufgabe(c: TaskCandidate, label: str, extra: Sequence[Quelle] = (), mapping: dict[str, str] | None = None
                ) -> Teilaufgabe:
    m = mapping or {}
    return Teilaufgabe(label=label, operator=c.operator, text=renumber(c.text, m), afb=c.afb, punkte=c.punkte,
                       erwartung=[k.model_copy(update={"text": renumber(k.text, m)}) for k in c.kriterien()],
                       quellen=[c.quelle, *extra])


def filed_under(c: TaskCandidate, unterthema: str, topic_titles: Mapping[str, str], named: Sequence[str]) -> bool:
    """The task's topic is the named sub-topic: its title names that sub-topic and no other named one (a task filed
    under „Vulkanismus und Erdbeben“ is not thereby about earthquakes when „Vulkanismus“ was named too)."""
    title = TaskView(ref=c.key, text="", titel=topic_titles.get(c.topic or "", ""))
    # every word of the part, not half of them: a task filed under „Synthetische Evolutionstheorie“ is not thereby
    # on „Evolutionstheorien nach Lamarck“ (seven tasks were titled „Evolutionstheorien nach Lamarck: …“)
    if not title.titel or not all(covers([title], w) for w in unterthema.split() if text_stems(w)):
        return False
    return not any(fold(v) != fold(unterthema) and covers([title], v) for v in named)


_SEVERAL = re.compile(r",| und | and ")


def _named_title(group: Sequence[TaskCandidate], titel: str, unterthemen: Sequence[str],
                 topic_titles: Mapping[str, str], thema: str = "") -> str:
    """A requested sub-topic the group covers is named in the title when the texts do not name it themselves
    (a Mendel task about pea crosses need not say 'Mendel'; the title then does — with the teacher's word when
    only the topic the task is filed under carries it: 'Extremwertprobleme' over a box-volume task)."""
    texts = TaskView("x", " ".join(c.text for c in group), titel=titel)
    names = []
    for u in unterthemen:
        carriers = [c for c in group if covers([TaskView(c.key, c.text, titel=c.unterthema)], u)]
        # a topic titled with several things („Kräfte, Hookesches Gesetz und Hebel“) does not make each of its tasks
        # about each of them: a Gewichtskraft task was titled „Zweiseitiger Hebel: …“
        filed = [c for c in group if filed_under(c, u, topic_titles, unterthemen)
                 and not _SEVERAL.search(topic_titles.get(c.topic or "", ""))]
        if (carriers or filed) and not covers([texts], u):
            names.append(carriers[0].unterthema if carriers else u)
    names = list(dict.fromkeys(n for n in names if n and n.casefold() not in titel.casefold()))
    if names and fold(titel) in {fold(t) for t in (*topic_titles.values(), thema)}:
        return short_title(titles.join_parts(names), 100)  # not 'Brüche addieren …: Bruchrechnung'
    return short_title(f"{titles.join_parts(names)}: {titel}", 100) if names else titel


def aufgaben(chosen: Sequence[TaskCandidate], extra_quellen: dict[str, list[Quelle]] | None = None, *,
             thema: str = "", unterthemen: Sequence[str] = (), max_aufgaben: int | None = None,
             topic_titles: Mapping[str, str] | None = None) -> list[Aufgabe]:
    """The exam's Aufgaben; materials are numbered M1, M2 … through the exam and task texts refer to those."""
    out: list[Aufgabe] = []
    options: list[list[str]] = []
    next_m = 1
    for nummer, group in enumerate(groups(chosen, max_aufgaben), 1):
        blocks, mappings, printed, parts = [], {}, {}, {}
        for c in group:  # every material of the group once, in the order the tasks use them
            mapping = mappings.setdefault(c.key, {})
            for i, block in enumerate(c.materialien):
                labels = material_labels(c.material_key)
                # a generated or uploaded task numbers its own materials M1, M2 … in its text
                label = labels[i] if i < len(labels) else ("" if labels else str(i + 1))
                ident, part = fingerprint(block), _bank_part(c.material_key, i)
                if ident in printed or part in parts:  # one bank table, with the rows every chosen task uses
                    if ident not in printed:
                        at, number = parts[part]
                        blocks[at], printed[ident] = with_rows(blocks[at], block), number
                    if label:
                        mapping[label] = printed[ident]
                    continue
                printed[ident] = str(next_m)
                if part:
                    parts[part] = (len(blocks), str(next_m))
                if label:
                    mapping[label] = str(next_m)
                blocks.append(numbered_block(block, next_m))
                next_m += 1
        teile = [teilaufgabe(c, "abcdefghijklmnop"[i], (extra_quellen or {}).get(c.key, ()), mappings[c.key])
                 for i, c in enumerate(group)]
        options.append([_named_title(group, o, unterthemen, topic_titles or {}, thema)
                        for o in title_options(group, thema, topic_titles)])
        out.append(Aufgabe(nummer=nummer, titel="", material=None, materialien=blocks, teilaufgaben=teile))
    for aufgabe, titel in zip(out, pick_titles(options), strict=True):
        aufgabe.titel = titel
    return distinct_titles(out, thema)
