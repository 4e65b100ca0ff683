"""Headings that read as complete phrases: a long title is cut at a word boundary after a complete phrase (never
after „bzw.“, „der“, „und“, never inside an open parenthesis), and a segment that repeats the one before it
(„Märchen der Brüder Grimm: Brüder Grimm: Die Sterntaler“) is printed once."""

from __future__ import annotations

import re

# Words after which a phrase is not complete: articles, prepositions, conjunctions, abbreviations.
_OPEN_END_WORDS = """
der die das den dem des ein eine einen einem einer eines und oder bzw sowie aber als wie mit ohne von vom zu zum zur
für über unter bei nach aus in im an am auf gegen zwischen um durch vor seit bis während wegen dass ob sich
of the an and or to for on at by with from vgl ca etc usw quer mitten direkt knapp
"""
_OPEN_END = frozenset(_OPEN_END_WORDS.split())
# A phrase boundary: a cut just before one of these leaves a complete phrase.
_PHRASE_START_WORDS = """
und oder bzw sowie mit ohne von vom zu zum zur für über unter bei nach aus in im an am auf gegen zwischen um durch vor
seit bis während wegen als
"""
_PHRASE_START = frozenset(_PHRASE_START_WORDS.split())
_ABBREVIATION = re.compile(r"(?:\b(?:bzw|vgl|ca|usw|etc|Nr|Art|Abb|Jh|Chr|St|Dr|Mio|Mrd|ggf|evtl|inkl|z\. ?B|u\. ?a|"
                           r"d\. ?h|v|n|s|S)|\b[A-ZÄÖÜa-zäöü])\.$")


def dedup_segments(text: str) -> str:
    """'A der B: B: C' -> 'A der B: C' — a colon segment that the segment before already says (or ends with) is
    dropped."""
    parts = [p.strip() for p in text.split(": ")]
    out: list[str] = []
    for part in parts:
        if out and part and (part.casefold() in out[-1].casefold() or out[-1].casefold().endswith(part.casefold())):
            continue
        out.append(part)
    return ": ".join(out)


def _word(token: str) -> str:
    return token.strip(".,;:!?()„“\"'–-").casefold()


def complete_words(words: list[str]) -> list[str]:
    """`words` without a trailing incomplete part: function words at the end and an unclosed parenthesis."""
    words = list(words)
    while words:
        joined = " ".join(words)
        if joined.count("(") > joined.count(")"):
            words = words[: max(i for i, w in enumerate(words) if "(" in w)]
            continue
        if _open_word(words[-1]) or words[-1].rstrip(",;:–-") == "":
            words.pop()
            continue
        break
    return words


def complete_phrase(text: str) -> str:
    """`text` without a dangling end ('Wahl der Schülersprecherin bzw' -> 'Wahl der Schülersprecherin'); a text
    that is nothing but open words stays."""
    body = text.removesuffix("…").rstrip()
    words = complete_words(body.split(" "))
    if not words:
        return text
    return " ".join(words).rstrip(" ,;:–-") + (" …" if body != text else "")


_ORDINAL = re.compile(r"\b\d+\.$")


def is_sentence_end(head: str) -> bool:
    """'… vom 22.' and 'z. B.' end no sentence: a number before the period is an ordinal or a date."""
    return not _ABBREVIATION.search(head) and not _ORDINAL.search(head)


def _open_word(token: str) -> bool:
    """A word a phrase cannot end on: a function word, an abbreviation ('z.', 'Nr.') or an ordinal ('22.', a date
    cut before its month)."""
    return _word(token) in _OPEN_END or bool(_ABBREVIATION.search(token) or _ORDINAL.search(token))


def single_colon(text: str) -> str:
    """'A: B: C' -> 'A: B – C': a heading has at most one colon; further segments read as 'Autor – Titel'."""
    head, sep, rest = text.partition(": ")
    return f"{head}{sep}{rest.replace(': ', ' – ')}" if sep else text


_EDITORIAL = re.compile(r"\s*\((?:[^()]*=[^()]*|(?:[^()]*,\s*)?(?:Auszug|Ausschnitt|Beispiel|vereinfacht|gekürzt|"
                        r"gerundet|bearbeitet|adaptiert|Modelldaten|fiktiv\w*|extract|excerpt|abridged|adapted|"
                        r"simplified))\)", re.I)


def without_editorial(text: str) -> str:
    """A caption's editorial notes and data are no part of a heading: '(Auszug)', '(Beispiel)', '(c = 1 mol/L)'."""
    return " ".join(_EDITORIAL.sub("", text).split()) or text


_RANGE_START = frozenset({"von", "vom", "ab", "zwischen"})
_ASIDE = re.compile(r"\s*\([^()]*\)")


def without_asides(text: str, limit: int) -> str:
    """A long heading without its asides: trailing parentheses first ('(Auszug)', '(vereinfacht)'), then any
    ('(c = 1 mol/L)'); what they leave is a complete phrase."""
    while len(text) > limit and (m := re.search(r"\s*\([^()]*\)[\s,.;]*$", text)) and m.start() > 0:
        text = complete_phrase(text[:m.start()].rstrip(" ,;"))
    if len(text) > limit and _ASIDE.search(text):
        text = " ".join(_ASIDE.sub("", text).split())
    return text


def short_title(text: str, limit: int = 70) -> str:
    """A heading of at most about `limit` characters: the text itself when short enough; else the part before a
    sentence end, colon or dash; else cut before the last phrase that does not fit (ending with '…' only when the cut
    falls inside a phrase)."""
    text = single_colon(dedup_segments(" ".join(text.split()).strip(" :–-")))
    if len(text) <= limit:
        return text
    text = without_asides(text, limit)
    if len(text) <= limit:
        return text
    for sep in (". ", ": ", " – ", "; ", ", "):
        start = 0
        while (i := text.find(sep, start)) >= 0:
            head = text[:i + (1 if sep == ". " else 0)]
            start = i + 1
            if sep == ". " and not is_sentence_end(head):
                continue
            if sep == ": " and len(head) < limit // 2:  # 'Kubakrise 1962: <the speech, shortened>'
                tail = short_title(text[i + 2:], limit - len(head) - 2)
                if len(tail) >= 15 and not tail.endswith("…"):
                    return f"{head}: {tail}"
            if sep == ", " and len(head.rsplit(" ", 1)[-1]) <= 2:
                break  # 'Salzen A, B und C': a list of labels is not cut after its first
            if 12 <= len(head) <= limit:
                return head.strip(" :–-").rstrip(".") if sep != ". " else head.rstrip(".")
            break
    words = text[: limit + 1].split(" ")[:-1] if text[limit:limit + 1] != " " else text[:limit].split(" ")
    # Prefer a cut before a preposition or conjunction: what stays is a complete phrase.
    for i in range(len(words) - 1, 1, -1):
        if _word(words[i]) in _PHRASE_START:
            if _word(words[i]) == "bis" and any(_word(w) in _RANGE_START for w in words[:i]):
                continue  # 'von Nordnorwegen bis zur Südspitze': the range stays whole or goes whole
            head = complete_words(words[:i])
            if len(" ".join(head)) >= max(20, limit // 2):
                return " ".join(head).rstrip(" ,;:–-")
            break
    head = complete_words(words) or words
    return " ".join(head).rstrip(" ,;:–-") + " …"


# Stems of common adjectives ('intermediär', 'dihybrid', 'linear'): lower-case after 'und'. Adjectives in -isch may
# belong to a name („Französische Revolution“) and keep their capital.
_ADJECTIVE_STEM = re.compile(r"(?:är|iv|id|al|ell|ar|ig|lich|bar|los|sam|haft|ent|ant)(?:e|er|es|en|em)$")


def join_parts(parts: list[str]) -> str:
    """'Mendelsche Regeln', 'Intermediärer Erbgang' -> 'Mendelsche Regeln und intermediärer Erbgang': a part after
    the first that opens with a common adjective before its noun is written in lower case."""
    out: list[str] = []
    for i, part in enumerate(parts):
        words = part.split(" ")
        shared = 0
        while i and shared < len(words) - 1 and shared < len(parts[0].split(" ")) \
                and words[shared].casefold() == parts[0].split(" ")[shared].casefold():
            shared += 1
        if shared and _word(words[shared - 1]) not in _OPEN_END:  # not 'Satz des Pythagoras und Thales'
            words = words[shared:]  # 'if-clauses type 1', 'if-clauses type 3' -> 'if-clauses type 1 und 3'
        part = " ".join(words)
        if i and len(words) > 1 and words[1][:1].isupper() and _ADJECTIVE_STEM.search(words[0]) \
                and words[0][:1].isupper() and words[0][1:].islower():
            part = " ".join([words[0].lower(), *words[1:]])
        out.append(part)
    if len(out) > 1 and any(" und " in p for p in out):  # not 'Alkalimetalle, Halogene und Edelgase und …'
        items = [x for p in out for x in p.split(" und ")]  # nor 'Entdeckungsfahrten und Conquista und Folgen'
        return ", ".join(items[:-1]) + " und " + items[-1]
    return " und ".join(out)


def capitalised(text: str) -> str:
    """The heading's first letter in upper case, unless its first word is written in mixed case on purpose
    ('pH-Wert', 'mRNA', 'e-Funktionen')."""
    first = text.split(" ", 1)[0]
    if any(ch.isupper() for ch in first[1:]) or re.match(r"^[a-z]-", first):
        return text
    return text[:1].upper() + text[1:]


# Words no heading ends on (a verb particle like 'vor' in „Mephisto stellt sich vor“ may end one).
_DANGLING_WORDS = """der die das den dem des ein eine einen einem einer eines und oder bzw sowie vom zum zur
the of and or"""
_DANGLING = frozenset(_DANGLING_WORDS.split())
_DATE_CUT = re.compile(r"\b(?:vom|am|bis|ab|seit|zum)\s+\d{1,2}\.?$")


def _said(part: str, text: str) -> bool:
    """A part of a topic is said in a text when one of its words is, by its stem or a compound's first part
    ('Zinsrechnung' by 'zins', 'Prozentrechnung' by 'prozent')."""
    words = re.findall(r"\w{4,}", part.casefold())
    return not words or any(w[:max(4, len(w) - 8)] in text for w in words)


def topic_parts(thema: str) -> list[str]:
    return [p.strip() for p in re.split(r" und |, | sowie ", thema) if p.strip()]


def said_parts(thema: str, text: str) -> list[str]:
    """The parts of a topic a text says ('Atombau' of „Atombau und Periodensystem“ over an atom-model task)."""
    return [p for p in topic_parts(thema) if _said(p, text.casefold())]


def unsaid_part(title: str, thema: str, text: str) -> str | None:
    """The part of a several-part topic a heading claims while the text under it does not say it: „Zinsrechnung“
    for „Prozentrechnung und Zinsrechnung“ over Prozent tasks; None when the heading is not the whole topic."""
    parts = topic_parts(thema)
    if len(parts) < 2 or " ".join(title.casefold().split()) != " ".join(thema.casefold().split()):
        return None
    return next((p for p in parts if not _said(p, text.casefold())), None)


def title_faults(titles: list[str], thema: str = "", texts: list[str] | None = None) -> list[str]:
    """What a teacher would have to fix in a material's headings: a title cut off ('… vom 22', '… der …', an open
    parenthesis), a chain of colons, two Aufgaben with one title, or the exam's whole topic over one of several
    Aufgaben when a part of it is not in that Aufgabe („Prozentrechnung und Zinsrechnung“ over Prozent tasks;
    `texts`: what each Aufgabe prints)."""
    faults = []
    seen: set[str] = set()
    for i, t in enumerate(titles):
        body = t.removesuffix("…").rstrip()
        key = " ".join(t.casefold().split())
        last = body.rsplit(" ", 1)[-1]
        if t.endswith("…") or _DATE_CUT.search(body) or t.count("(") != t.count(")") or \
                _word(last) in _DANGLING or _ABBREVIATION.search(last) or _ORDINAL.search(last):
            faults.append(f"abgeschnitten: „{t}“")
        if t.count(": ") > 1:
            faults.append(f"Kette: „{t}“")
        if key in seen:
            faults.append(f"doppelt: „{t}“")
        text = texts[i] if texts and i < len(texts) else ""
        if len(titles) > 1 and text and (part := unsaid_part(t, thema, text)):
            faults.append(f"ganzes Thema über einer Aufgabe ohne „{part}“: „{t}“")
        seen.add(key)
    return faults
