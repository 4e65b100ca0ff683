"""Topics as teachers write them, for the request reader: "Genetik: Mendel + Stammbaumanalyse", "Optik – Reflexion
und Brechung", "Weimarer Republik (Krisenjahr 1923, Goldene Zwanziger)", quoted titles, peer lists.

Pure string functions. What counts as a known term or as a topic at all is decided by the caller
(core.language.request.extract) and passed in as callbacks, so this module knows no vocabulary of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import islice

from core.language.document import MARK
from core.language.request.forms import contrasts_kept, fixed_pair
from core.language.request.inflection import shared_head

Known = Callable[[str], str | None]  # the usual spelling of a known term ("ohmsches gesetz" -> "Ohmsches Gesetz")
Check = Callable[[str], bool]  # is this piece of text a topic (no Klasse, Dauer, material word …)?
HeadTopic = Callable[[str], str | None]  # the topic a clause names, if any

MAX_HEAD_CHARS = 80
MAX_LIST_CHARS = 200
MAX_SEPARATORS = 8
MAX_ITEM_WORDS = 7

_SEPARATOR = re.compile(r":|\s-\s|\(")
# "Kalter Krieg, nur Kubakrise", "Plattentektonik – ausschließlich Vulkanismus", "(nur Kubakrise)": a restriction
# after the topic names the parts the material is limited to (core.composition reads the "nur" itself).
_RESTRICTION = re.compile(r"(?:,|\s-\s|\()\s*(?:nur|ausschließlich|ausschliesslich|lediglich|beschränkt auf|"
                          r"und zwar nur|aber nur)\s+(?:(?:die|der|das|den|dem|auf|zu|zur|zum)\s+)?", re.I)
_HEAD_BOUNDARY = re.compile(r"[.;,:()\n!?]|\s-\s")
_LIST_END = re.compile(r"[;\n()]|\.\s|\s-\s|:")
_ITEM_SPLIT = re.compile(rf"\s*(?:,|;|\+|&|\bund\b|\bsowie\b|\bvs[.{MARK}]?(?=\s)|\bversus\b|\bbzw[.{MARK}]?(?=\s))\s*")
_SLASH_SPLIT = re.compile(rf"\s*(?:,|;|\+|&|\bund\b|\bsowie\b|\bvs[.{MARK}]?(?=\s)|\bversus\b|/)\s*")
_PEER_SPLIT = re.compile(rf"\s*(?:,|\+|&|\bund\b|\bsowie\b|\bvs[.{MARK}]?(?=\s)|\bversus\b|\bbzw[.{MARK}]?(?=\s))\s*")
_QUOTED = re.compile(
    r"(?:^|(?<=[\s(:]))(?:„([^“”\"\n]{2,120})[“”\"]|\"([^\"\n]{2,120})\"|'([^'\n]{2,120})'(?=[\s,.;:!?)]|$)"
    r"|»([^«\n]{2,120})«|«([^»\n]{2,120})»|‚([^‘’\n]{2,120})[‘’])"
)
_STRIP = " \t\"'„“”‚‘’«»-,.;:!?()[]"
_NUMBERED_ITEM = re.compile(r"(.*\S)\s+(?:\d{1,2}|[IVX]{1,4})")  # "Typ 1", "Phase II"
_SHARED_PAIR = re.compile(r"[^\W\d_]+-\s(?:und|oder|bzw\.?)\s[^\W\d_]+")  # "Haupt- und Nebensätze"
_BARE_NUMBER = re.compile(r"\d{1,2}|[IVX]{1,4}")
_LEAD_FILLER = re.compile(
    r"^(?:(?:also|ja|ok|okay|gern|gerne|bitte|hmm|na|vielleicht|eher|lieber|am liebsten|ich dachte an|ich würde sagen|"
    r"thema(?:\s(?:ist|sind|soll sein))?|schwerpunkt(?:\s(?:ist|soll sein|auf))?|zum thema|zu|zum|zur|über|on|about|"
    r"das|die|der|den|dem|the|a|an)\b[\s,:]*)+",
    re.I,
)
_TRAIL_FILLER = re.compile(r"(?:[\s,]+(?:allgemein|insgesamt|generell|im allgemeinen|bitte|danke|please|thanks))+$",
                           re.I)
_FUNCTION_WORDS = frozenset(str.split("""
    und oder sowie der die das des dem den ein eine einer eines im am in an auf aus bei mit nach von vom zum zur um
    über für gegen unter zwischen vor of and the in on for to with a an"""))
_ADJ_ENDINGS = ("e", "en", "er", "es", "em")
# A parenthesis or list that starts so is a remark, not a sub-topic: "(wie letztes Jahr)", "(z. B. …)".
_NOT_A_TOPIC_START = frozenset(str.split("""
    wie z zb bzw etwa ca circa bitte ohne mit nur also siehe inkl inklusive ggf evtl eventuell max maximal mind
    mindestens keine kein nicht auch aber oder sonst gerne gern danke e.g eg i.e such like"""))
# Heads of compounds a list shares ("Reihen- und Parallelschaltung"), for when the vocabulary does not know them.
_SHARED_TAILS = (
    "schaltungen", "schaltung", "verfahren", "rechnung", "funktionen", "funktion", "gleichungen", "gleichung",
    "reaktionen", "reaktion", "energie", "kräfte", "kraft", "bewegungen", "bewegung", "zellen", "zelle", "teilung",
    "systeme", "system", "kreislauf", "sätze", "satz", "regeln", "regel", "formen", "form", "arten", "art",
    "wirtschaft", "politik", "kriege", "krieg", "linsen", "linse", "spiegel", "wellen", "welle", "säuren", "säure",
    "bindungen", "bindung", "stoffe", "stoff", "modelle", "modell", "zahlen", "zahl", "winkel", "körper", "flächen",
    "fläche", "lehre", "analyse", "sprache", "gedichte", "gedicht", "texte", "text", "entwicklung", "wandel",
)
# Prefixes two compounds share the stem after ("Ein- und Ausfuhr", "intra- und interspezifisch", "endo- und exotherm"),
# longest first
_PARTICLES = tuple(sorted(str.split("""
    aus ein auf ab an zu vor nach über unter um durch hin her intra inter extra endo exo homo hetero hypo hyper mikro
    makro prä post prae anti pro mono poly multi uni bi di tri sub super trans
    """), key=len, reverse=True))
GENRES = frozenset(str.split("""
    erörterung gedichtanalyse gedichtinterpretation interpretation analyse inhaltsangabe charakterisierung
    sachtextanalyse redeanalyse dramenanalyse szenenanalyse textanalyse kommentar leserbrief essay rezension
    diskussion argumentation"""))


# Neuter nouns (by their last part) for "zum elektrischen Feld" -> "elektrisches Feld"; others count as masculine.
_NEUTER_ENDINGS = (
    "chen", "lein", "ment", "um", "nis", "tum", "ma", "feld", "licht", "modell", "system", "gewicht", "volumen",
    "atom", "element", "metall", "verfahren", "experiment", "alter", "reich", "land", "meer", "klima", "wetter",
    "wasser", "blut", "herz", "auge", "ohr", "gas", "salz", "eisen", "glas", "kind", "tier", "buch", "gedicht",
    "drama", "maerchen", "märchen", "ende", "jahr", "hundert", "gesetz", "gehirn", "gebirge", "wort", "bild",
    "spiel", "lied", "ei", "prinzip", "molekuel", "molekül", "dreieck", "viereck", "rechteck", "prisma", "diagramm",
    "netz", "problem", "thema", "ziel", "mittel", "leben", "wissen", "lernen", "verhalten", "wachstum",
    # countries, continents and cities are neuter: "zum alten Ägypten", "zum antiken Rom"
    "ien", "ägypten", "aegypten", "athen", "sparta", "china", "japan", "europa", "afrika", "amerika",
    "israel", "palästina", "mesopotamien", "byzanz", "preußen", "russland", "frankreich", "reich",
    "kuba", "korea", "vietnam", "berlin",
)


def is_neuter(noun: str) -> bool:
    """A rough guess from the noun's last part ("Periodensystem", "Feld"); German gender has no rule. Rom is neuter,
    a Strom is not."""
    word = noun.lower()
    return word == "rom" or word.endswith(_NEUTER_ENDINGS) or (
        word.startswith("ge") and word.endswith("e") and len(word) > 5)


def _words(text: str) -> list[str]:
    return text.split()


def _size(item: str) -> int:
    """The words of a list item; the numbers of a date do not count („Sturm auf die Bastille am 14. Juli 1789“)."""
    return sum(not w.rstrip(MARK).isdigit() for w in _words(item))


def _is_adjective(word: str) -> bool:
    return word[:1].islower() and word.lower().endswith(_ADJ_ENDINGS) and len(word) > 3


def recase(text: str) -> str:
    """Capitalise nouns typed in lower case ("ohmsches gesetz" -> "ohmsches Gesetz"); adjectives before a noun and
    function words stay as they are."""
    words = _words(text)
    out = []
    for i, word in enumerate(words):
        # an adjective stands before its noun: "auftauende böden in sibirien" -> "auftauende Böden in Sibirien"
        before_noun = i + 1 < len(words) and words[i + 1].lower() not in _FUNCTION_WORDS
        if (word.islower() and len(word) >= 3 and word not in _FUNCTION_WORDS
                and not (before_noun and _is_adjective(word)) and word[:1].isalpha()):
            word = word[:1].upper() + word[1:]
        out.append(word)
    return " ".join(out)


def clean_topic(text: str, known: Known, *, german: bool = True) -> str:
    """A topic as it should be shown: no quotes, fillers or stray punctuation, German nouns capitalised (not in an
    English topic), known terms in their usual spelling (the teacher's own capitalised spelling is kept)."""
    text = " ".join(text.split()).strip(_STRIP)
    if not known(text):  # a known term keeps its words ("das und dass")
        text = _TRAIL_FILLER.sub("", _LEAD_FILLER.sub("", text)).strip(_STRIP)
    if not text:
        return ""
    canonical = known(text)
    if canonical:
        upper = sum(c.isupper() for c in text)
        own_case = upper and canonical.lower() == text.lower() and upper >= sum(c.isupper() for c in canonical)
        return text if own_case else canonical
    if text.islower() and german:
        text = recase(text)
        text = text[:1].upper() + text[1:] if not _is_adjective(_words(text)[0]) else text
    return text


def _expand_shared(parts: list[str], known: Known) -> list[str]:
    """'Reihen-', 'Parallelschaltung' -> 'Reihenschaltung', 'Parallelschaltung'."""
    last = parts[-1]
    tail = ""
    for prefix in (p[:-1] for p in parts[:-1] if p.endswith("-")):
        for cut in range(4, len(last) - 2):
            candidate = last[-cut:].lower()
            if known(prefix + candidate):
                tail = candidate if len(candidate) > len(tail) else tail
    if not tail and " " not in last:  # "exotherme Reaktionen" shares "therme Reaktionen", not "Reaktionen"
        tail = next((t for t in _SHARED_TAILS if last.lower().endswith(t) and len(last) > len(t) + 2), "")
    if not tail:  # "Ein- und Ausfuhr", "Auf- und Abbau": two particles before one stem
        particle = next((p for p in _PARTICLES if last.lower().startswith(p) and len(last) > len(p) + 2), "")
        tail = last[len(particle):] if particle else ""
    if not tail:
        return parts
    return [p[:-1] + tail if p.endswith("-") else p for p in parts]


def capitalised(topic: str) -> str:
    """A topic as a title starts with a capital ("lineare Funktionen" -> "Lineare Funktionen"); a first word with a
    capital inside ("pH-Wert", "iPad") keeps its spelling."""
    first = topic.split(" ", 1)[0]
    if first[:1].islower() and not any(c.isupper() for c in first):
        return topic[:1].upper() + topic[1:]
    return topic


def join_topics(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " und " + parts[-1]


def _noun_headed(part: str, known: Known) -> bool:
    words = _words(part)
    if not words:
        return False
    if part.endswith("-") or words[0][:1].isupper() or known(part) or words[0][:1].isdigit():
        return True
    return any(w[:1].isupper() for w in words[1:]) and _is_adjective(words[0])


_ADJECTIVE_PAIR = re.compile(r"^([^\W\d_A-ZÄÖÜ]+(?:e|er|es|en|em)) (und|oder|sowie) ([^\W\d_A-ZÄÖÜ]+(?:e|er|es|en|em)) "
                             r"([A-ZÄÖÜ][\w-]*)$")
# "Erster und Zweiter Weltkrieg", "Französische und Russische Revolution": capitalised, with the same ending
_NAME_PAIR = re.compile(r"^([A-ZÄÖÜ][^\W\d_]+(e|er|es)) (und|oder|sowie) ([A-ZÄÖÜ][^\W\d_]+\2) ([A-ZÄÖÜ][\w-]*)$")


# "Sinnesorgane Auge und Ohr", "Metalle Eisen und Kupfer": a noun right before its members heads them like a colon
_HEADED = re.compile(r"^([A-ZÄÖÜ][^\W\d_]{3,}) ([A-ZÄÖÜ][\w-]*(?:(?:, | und | sowie )[A-ZÄÖÜ][\w-]*)+)$")
# capitalised adjectives of a name ("Olympische Spiele", "Kalter Krieg", "Deutsches Kaiserreich") head nothing
_ADJECTIVE_LIKE = re.compile(r"(?:isch|lich|ig|ell|al|ar|iv|er|es|ten|ene|ste)e?[nmrs]?$", re.I)


def _headed_members(thema: str, known: Known) -> tuple[str, tuple[str, ...]] | None:
    m = _HEADED.match(thema)
    if m is None:
        return None
    head, members = m.group(1), m.group(2)
    first = _PEER_SPLIT.split(members)[0]
    if known(f"{head} {first}") or (_ADJECTIVE_LIKE.search(head) and not known(head)):
        return None
    parts = (members,) if fixed_pair(members, known) else tuple(p for p in _PEER_SPLIT.split(members) if p)
    return head, parts


# Two ordinals sharing what follows: "1. und 2. binomische Formel", "im 11. und 12. Jahrhundert" (periods marked)
_ORDINAL_PAIR = re.compile(rf"(.*?)(\d{{1,3}}{MARK})\s?(und|oder|bis|-)\s?(\d{{1,3}}{MARK})\s(\S.*)")


def _ordinal_parts(text: str) -> tuple[str, ...] | None:
    """Two parts when two ordinals lead ("1. und 2. Mendelsche Regel"); none when they qualify a topic ("Kreuzzüge
    im 11. und 12. Jahrhundert") or make a range ("1. bis 3. Hauptsatz"); None when no two ordinals share a noun."""
    pair = _ORDINAL_PAIR.fullmatch(text.strip())
    if pair is None:
        return None
    lead, first, joint, second, rest = pair.groups()
    if lead.strip() or joint != "und" or _PEER_SPLIT.search(rest):
        return ()
    return f"{first} {rest}", f"{second} {rest}"


def split_peers(thema: str, known: Known, is_topic: Check) -> tuple[str, tuple[str, ...]]:
    """'Ohmsches gesetz + reihenschaltung' -> ('Ohmsches Gesetz und Reihenschaltung', (both)). A known term
    ('Säuren und Basen') or a phrase whose parts are no topics of their own ('Brüche kürzen und erweitern') stays."""
    if known(thema) or fixed_pair(thema, known) or not _PEER_SPLIT.search(thema):
        return thema, ()
    if (ordinals := _ordinal_parts(thema)) is not None:
        return thema, ordinals
    if headed := _headed_members(thema, known) or shared_head(thema, known, is_topic):
        return headed
    if pair := _ADJECTIVE_PAIR.match(thema):
        nouns = tuple(capitalised(f"{adj} {pair.group(4)}") for adj in (pair.group(1), pair.group(3)))
        if all(is_topic(n) for n in nouns):  # "Waagerechter und schiefer Wurf": both throws
            return thema, nouns
    if pair := _NAME_PAIR.match(thema):
        nouns = (f"{pair.group(1)} {pair.group(5)}", f"{pair.group(4)} {pair.group(5)}")
        if all(is_topic(n) for n in nouns):  # "Waagerechter und schiefer Wurf": both throws
            return thema, nouns
    # a known term among comma-separated items stays whole: "Säuren und Basen, Neutralisation, pH-Wert"
    pieces = [piece for seg in thema.split(",") for piece in ([seg] if known(seg.strip()) else _PEER_SPLIT.split(seg))]
    parts = [p.strip(_STRIP.replace("-", "")) for p in pieces]
    parts = [p for p in parts if p]
    if len(parts) < 2 or any(_size(p) > MAX_ITEM_WORDS for p in parts):
        return thema, ()
    strong = bool(re.search(rf"\+|&|\bvs[.{MARK}]?\s|\bversus\b", thema))
    if thema.islower() and not strong and not all(known(p) for p in parts):
        return thema, ()
    if not all(_noun_headed(p, known) or (thema.islower() and strong) for p in parts):
        return thema, ()
    shared = any(p.endswith("-") for p in parts)
    parts = _expand_shared(parts, known)
    if not all(is_topic(p) for p in parts):
        return thema, ()
    cleaned = [clean_topic(p, known) for p in parts]
    cleaned = [c for c in cleaned if c]
    if len(cleaned) < 2:
        return thema, ()
    # "Reihen- und Parallelschaltung" stays as written; a contrast keeps its "vs."; other lists read "A, B und C".
    if shared:
        return clean_topic(thema, known), tuple(cleaned)
    return join_topics(contrasts_kept(thema, cleaned)), tuple(cleaned)



def _raw_items(window: str, known: Known) -> list[str]:
    """The pieces of a list. Among comma-separated items a pair that shares its compound's head ("Aufzählungen,
    Haupt- und Nebensätze") is one item; a chain across commas ("Einsetzungs-, Gleichsetzungs- und
    Additionsverfahren") and a pair alone ("Reihen- und Parallelschaltung") are split and expanded by the caller."""
    segments = window.split(",")
    if len(segments) < 2 or any(seg.strip().endswith("-") for seg in segments[:-1]):
        # „(Lunge/Gasaustausch)“, „(Alpha-/Beta-/Gammastrahlung)“: a slash separates parts as „und“ does
        return [window] if fixed_pair(window, known) else _SLASH_SPLIT.split(window)
    out: list[str] = []
    for seg in segments:
        if (ordinals := _ordinal_parts(seg)) is not None:
            out += list(ordinals) or [seg]
            continue
        pieces = _ITEM_SPLIT.split(seg)
        # "Brüche addieren und subtrahieren": a lone lower-case word after "und" shares the object before it
        verb_pair = len(pieces) == 2 and len(pieces[1].split()) == 1 and pieces[1].strip().islower() \
            and len(pieces[0].split()) > 1 and any(c.isupper() for c in pieces[0])
        out += [seg] if _SHARED_PAIR.fullmatch(seg.strip()) or verb_pair or fixed_pair(seg, known) else pieces
    return out


def _list_items(text: str, start: int, opened: str, known: Known, is_topic: Check) -> list[str]:
    window = text[start:start + MAX_LIST_CHARS]
    if opened == "(":
        end = window.find(")")
        window = window[:end] if end >= 0 else window
        if window.rstrip().endswith(("?", "!")):
            return []  # „present progressive (What are you doing right now?)“: an example sentence, not parts
    else:
        m = _LIST_END.search(window)
        if m and m.group() == "(" and (close := window.find(")", m.end())) >= 0:
            # "Analysis: Kurvendiskussion und Integralrechnung (Flächen zwischen Graphen), …": a parenthesis inside
            # the list names further parts
            inner = window[:m.start()] + ", " + window[m.end():close] + "," + window[close + 1:]
            m, window = _LIST_END.search(inner), inner
        window = window[:m.start()] if m else window
    items: list[str] = []
    for raw in _raw_items(window, known):
        item = raw.strip(_STRIP.replace("-", ""))
        if not item:
            continue
        if items and (numbered := _NUMBERED_ITEM.fullmatch(items[-1])) and _BARE_NUMBER.fullmatch(item):
            item = f"{numbered.group(1)} {item}"  # "Typ 1 und 2" -> "Typ 1", "Typ 2"
        first = _words(item)[0].lower().strip("." + MARK)
        if _size(item) > MAX_ITEM_WORDS or first in _NOT_A_TOPIC_START or not is_topic(item):
            break
        items.append(item)
    return items


# Labels of the parts of a language exam: „Grammatik: reported speech, Wortschatz: school life“ names two parts.
_PART_LABEL = (r"(?:grammatik|grammar|wortschatz|vokabeln|vokabular|vocabulary|thema|themen|topic|inhalt|inhalte|"
               r"schwerpunkt|lesen|leseverstehen|reading|hörverstehen|hoerverstehen|listening|schreiben|writing|"
               r"sprachmittlung|mediation|landeskunde|literatur|rechtschreibung|zeichensetzung)")
_LABELLED = re.compile(rf"(?:^|(?<=[\s,;.(]))({_PART_LABEL})\s*:\s*([^,;:\n()]{{1,60}}?)"
                       rf"(?=\s*(?:[,;\n()]|\.\s|\.?$|\b{_PART_LABEL}\s*:))", re.I)


def labelled_parts(text: str, known: Known, is_topic: Check) -> tuple[str, tuple[str, ...]] | None:
    """„Grammatik: reported speech, Wortschatz: school life“ -> ('Reported speech und School life', (both)): two or
    more labelled parts are the parts of the request, the labels are not."""
    found = [m.group(2).strip(_STRIP) for m in islice(_LABELLED.finditer(text), MAX_SEPARATORS)]
    parts = [clean_topic(p, known) or p for p in found if p and is_topic(p)]
    parts = [capitalised(p) for p in dict.fromkeys(parts)]
    if len(parts) < 2:
        return None
    return join_topics(parts), tuple(parts)


def header_list(text: str, head_topic: HeadTopic, known: Known, is_topic: Check,
                unit_head: HeadTopic | None = None) -> tuple[str, tuple[str, ...]] | None:
    """'Genetik: Mendel + Stammbaumanalyse' -> ('Genetik', ('Mendel', 'Stammbaumanalyse')): a topic followed by a
    colon, a dash or a parenthesis that lists sub-topics. A clause without a topic before the colon ("Deutsch
    Klasse 8: …") is no header. With `unit_head`, a teaching unit followed by a comma heads a list too: "Weimarer
    Republik, Krisenjahr 1923 und das Ende der Republik"."""
    seps = [(m, head_topic) for m in islice(_RESTRICTION.finditer(text), MAX_SEPARATORS)]
    seps += [(m, head_topic) for m in islice(_SEPARATOR.finditer(text), MAX_SEPARATORS)]
    if unit_head is not None:
        seps += [(m, unit_head) for m in islice(re.finditer(",", text), MAX_SEPARATORS)]
    for sep, read_head in seps:
        head_start = max(0, sep.start() - MAX_HEAD_CHARS)
        bounds = list(_HEAD_BOUNDARY.finditer(text, head_start, sep.start()))
        clause = text[bounds[-1].end() if bounds else head_start:sep.start()].strip()
        head = read_head(clause) if clause else None
        if not head:
            continue
        items = _list_items(text, sep.end(), sep.group().strip()[:1], known, is_topic)
        if items:
            items = _expand_shared(items, known)
            cleaned = tuple(c for c in (clean_topic(i, known) for i in items) if c)
            before = _topic_before(text, head_start, bounds, read_head) if sep.group().strip() == "(" else None
            if cleaned and before:  # "Atombau und Periodensystem, Ionenbindung (Kochsalz)": the list goes on
                head = clean_topic(head, known)
                return f"{before}, {head}", (before, head, *cleaned)
            if cleaned:
                return clean_topic(head, known), cleaned
    return None


def _topic_before(text: str, head_start: int, bounds: list[re.Match[str]], read_head: HeadTopic) -> str | None:
    """The topic before a comma that precedes a parenthesis' head: "Atombau und Periodensystem" in "Atombau und
    Periodensystem, Ionenbindung (Kochsalz)"."""
    if not bounds or bounds[-1].group() != ",":
        return None
    start = bounds[-2].end() if len(bounds) > 1 else head_start
    clause = text[start:bounds[-1].start()].strip()
    return read_head(clause) if clause else None


def quoted_topic(text: str, known: Known) -> str | None:
    """A quoted title is the topic: 'zum Thema „Kurzgeschichte“' -> 'Kurzgeschichte'; after a text type it names
    the task: 'Erörterung 'Soziale Medien'' -> 'Erörterung: Soziale Medien'."""
    m = _QUOTED.search(text)
    if m is None:
        return None
    content = next(g for g in m.groups() if g is not None).strip()
    if not content.strip(_STRIP):
        return None
    before = re.findall(r"[^\W\d_]+", text[max(0, m.start() - 40):m.start()])
    genre = next((w for w in reversed(before[-4:]) if w.lower() in GENRES), None)
    title = content.strip(" \"'„“”‚‘’«»")
    if title.islower():
        title = title[:1].upper() + title[1:]
    return f"{genre}: {title}" if genre else clean_topic(title, known) or title
