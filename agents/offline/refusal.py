"""The options a refusal offered, which one the teacher's answer chooses, and what choosing it does.

A refusal reads „… Möglichkeiten: (1) das ganze Thema „X“ nehmen (13 weitere geprüfte Fragen); (2) um verwandte Themen
ergänzen: „A“ (12), „B“ (12); (3) eigene Aufgaben auf der Seite „Hochladen“ ergänzen …“ (core.generation.texts.
absage_text). The options are read back from the conversation, as a model would read them, so the choice works after a
reload or in another server process. An answer chooses one by its number („1“, „(1)“, „Option 1“, „die erste“) or by
its words („das ganze Thema“, „ergänzen“).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from core.composition import fill_up
from core.language.fold import prepare
from core.language.stopwords import only_reply, word_set
from core.language.text import fold

_OPTIONS = re.compile(r"Möglichkeiten: (\(1\) .*)$", re.S)
_ITEM = re.compile(r"(?:^|;\s)\((\d{1,2})\)\s")
_WHOLE = re.compile(r"^das ganze Thema „(.+?)“ nehmen")
_RELATED = re.compile(r"^um verwandte Themen ergänzen: (.*)$")
_QUOTED = re.compile(r"„(.+?)“")
_ORDINALS = {"erste": 1, "ersten": 1, "eins": 1, "zweite": 2, "zweiten": 2, "zwei": 2, "dritte": 3, "dritten": 3,
             "drei": 3, "vierte": 4, "vierten": 4, "vier": 4, "fuenfte": 5, "fuenften": 5, "fuenf": 5}
# Words around a choice that do not change it: „ja, nimm bitte Option 1“, „dann die erste Möglichkeit“.
_AROUND = word_set("""
    ja jo ok okay gut gern gerne bitte dann nimm nehmen nehme mach mache machen wir die das den der option optionen
    moeglichkeit vorschlag variante nummer nr punkt lieber doch also passt klingt waehle ich fuer mit""")
_YES = word_set("""ja jo ok okay gut gern gerne passt klingt einverstanden mach das so einfach bitte dann erstellen
    erstelle erstell machen los weiter genau richtig""")
_FILLER = frozenset({"hm", "hmm", "na", "naja", "aeh", "oh"})  # sounds before a choice: „Hm, dann 1 …“
_WORDS = re.compile(r"[a-z0-9]+")
_NAMED = re.compile(r"\b(?:option|moeglichkeit|vorschlag|variante|nummer|nr)\s*(\d{1,2}|erste|zweite|dritte|vierte)\b")
_MAX_WORDS = 10  # a longer message is a new wording of the request, read by the dialog


@dataclass(frozen=True)
class Choice:
    """What the teacher chose: a new generate_material call, or a reply (upload, model, which option?)."""

    args: dict[str, Any] | None = None
    reply: str | None = None


def offered(refusal: str) -> tuple[str, ...]:
    """The numbered options of a refusal text, in order; none when it offers none."""
    m = _OPTIONS.search(refusal or "")
    if not m:
        return ()
    body = m.group(1).rstrip().removesuffix(".")
    marks = list(_ITEM.finditer(body))
    if [int(x.group(1)) for x in marks] != list(range(1, len(marks) + 1)):
        return ()
    ends = [x.start() for x in marks[1:]] + [len(body)]
    return tuple(body[x.end():end].strip() for x, end in zip(marks, ends, strict=True))


OFFERED = "Möglichkeiten: "  # core.composition.report.options_text: „Möglichkeiten: (1) …; (2) ….“


def options_list(options: Sequence[str], *, after_material: bool = False) -> str:
    """The options one per line and how to choose one (after a shortened material: or to ask for a change)."""
    listed = "\n".join(f"- ({i}) {o}" for i, o in enumerate(options, 1))
    if after_material:
        return (f"\nMöglichkeiten:\n{listed}\n\nAntworten Sie mit der Nummer, z. B. „{min(2, len(options))}“ – oder "
                "sagen Sie frei, was ich ändern soll.")
    return f"\n\nMöglichkeiten:\n{listed}\n\nAntworten Sie einfach mit der Nummer, z. B. „1“."


def as_list(refusal: str) -> str:
    """The refusal as the teacher reads it: its options one per line, and how to choose one."""
    options = offered(refusal)
    if not options:
        return refusal
    return refusal[:refusal.rindex(OFFERED)].rstrip() + options_list(options)


def kind_of(option: str) -> str:
    if option.endswith("auffüllen") and option.startswith(("mit Aufgaben zu", "mit Fragen zu")):
        return "fill"
    if option.startswith(("die kurze Fassung", "trotzdem das Arbeitsblatt")):  # decisions 057, 066
        return "short"
    if _WHOLE.match(option):
        return "whole"
    if _RELATED.match(option):
        return "related"
    if "Hochladen" in option:
        return "upload"
    if "Sprachmodell" in option:
        return "model"
    return "shorter" if "kürzere" in option or option.endswith("so verwenden") else "other"


def number_of(text: str, options: Sequence[str]) -> int | None:
    """The option the answer names by its number („2“, „(2)“, „Option 2“, „die zweite“), or None."""
    words = _WORDS.findall(fold(prepare(text)))
    if not options or not words or len(words) > _MAX_WORDS:
        return None
    rest = [w for w in words if w not in _AROUND]
    number = _number(rest[0]) if len(rest) == 1 else None
    if number is None and (named := _NAMED.search(" ".join(words))):  # "Option 2, aber nur 8 Fragen"
        number = _number(named.group(1))
    lead = [i for i, w in enumerate(words) if w not in _AROUND and w not in _FILLER]
    if number is None and lead and _number(words[lead[0]]) is not None and (  # "Hm, dann 1 – aber Klasse 6"
            lead[0] + 1 == len(words) or words[lead[0] + 1] == "aber"):
        number = _number(words[lead[0]])
    return number if number is not None and 1 <= number <= len(options) else None


def chosen(text: str, options: Sequence[str]) -> int | None:
    """The 1-based number of the option the teacher's answer chooses, or None."""
    words = _WORDS.findall(fold(prepare(text)))
    if not options or not words or len(words) > _MAX_WORDS:
        return None
    if (number := number_of(text, options)) is not None:
        return number
    joined = " ".join(words)
    kinds = [kind_of(o) for o in options]
    wanted = None
    if re.search(r"\b(ganze|ganzes|gesamte|gesamtes|komplette|ganzen)\b.*\bthema", joined):
        wanted = "whole"
    elif re.search(r"\bauffuell", joined) and "fill" in kinds:
        wanted = "fill"
    elif re.search(r"\bverwandt|\bergaenz|\bnaechstliegend", joined):
        wanted = "related" if "related" in kinds else "upload"
    elif re.search(r"\bhochlad|\beigene aufgaben", joined):
        wanted = "upload"
    elif re.search(r"\bsprachmodell|\bki\b|\bmodell konfig", joined):
        wanted = "model"
    elif re.search(r"\bkuerzer|\bkurze fassung", joined):
        wanted = "short" if "short" in kinds else "shorter"
    return kinds.index(wanted) + 1 if wanted in kinds else None


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else _ORDINALS.get(word)


def unclear(text: str) -> bool:
    """A bare consent („ja“, „ok, gerne“) that names no option, or a bare number that is none of them."""
    words = _WORDS.findall(fold(prepare(text)))
    rest = [w for w in words if w not in _AROUND]
    bare_number = len(rest) == 1 and _number(rest[0]) is not None
    return bool(words) and len(words) <= 5 and (bare_number or all(w in _YES for w in words) or only_reply(words))


WHICH = "Welche Möglichkeit soll ich nehmen?"


def which_one(options: Sequence[str]) -> str:
    """The question which option she means, in one line with the numbers she can answer with, then the options."""
    listed = "\n".join(f"- ({i}) {o}" for i, o in enumerate(options, 1))
    numbers = " oder ".join(", ".join(str(i) for i in range(1, len(options) + 1)).rsplit(", ", 1))
    return f"{WHICH} Antworten Sie einfach mit der Nummer: {numbers}.\n{listed}"


UPLOAD = ("Gern: Laden Sie Ihre Aufgaben auf der Seite „Hochladen“ hoch (Word, PDF oder Text). Sobald sie verarbeitet "
          "sind, schreiben Sie hier „nochmal versuchen“ – dann erstelle ich das Material mit denselben Angaben neu "
          "und verwende Ihre Aufgaben mit.")
MODEL = ("Ein Sprachmodell richtet ein, wer Werkbank betreibt: mit einem Schlüssel für Anthropic oder OpenAI oder "
         "einem lokalen Modellserver (README, Abschnitt „Konfiguration“). Danach schreiben Sie hier „nochmal "
         "versuchen“, und das Modell schreibt die fehlenden Aufgaben. Bis dahin kann ich nur geprüfte Aufgaben "
         "verwenden.")
NO_SHORTER = ("Eine kürzere Fassung gibt es hier nicht: Zu diesem Auftrag habe ich nichts Verwendbares gefunden. "
              "Wählen Sie eine der anderen Möglichkeiten oder nennen Sie ein anderes Thema.")


def carry_out(options: Sequence[str], number: int, refused: Mapping[str, Any]) -> Choice:
    """What choosing option `number` does with the refused generate_material arguments. Related topics complete the
    whole topic when that was offered too (the part asked for had nothing), else the topic asked for."""
    option = options[number - 1]
    kind = kind_of(option)
    if kind == "whole" and (m := _WHOLE.match(option)):
        args = {k: v for k, v in refused.items() if k != "unterthemen"}
        return Choice(args={**args, "thema": m.group(1)})
    if kind == "related" and (m := _RELATED.match(option)):
        related = _QUOTED.findall(m.group(1))
        whole = next((w.group(1) for o in options if (w := _WHOLE.match(o))), None)
        own = [t for t in refused.get("unterthemen") or [] if t not in related]
        return Choice(args={**refused, "thema": whole or refused.get("thema"), "unterthemen": [*own, *related]})
    if kind in ("fill", "short"):  # the same request, with her consent to fill up or to the short exam (043)
        said = fill_up.CONSENT if kind == "fill" else fill_up.SHORT_OK
        return Choice(args={**refused, "zusatz": f"{refused.get('zusatz') or ''} {said}.".strip()})
    if kind == "upload":
        return Choice(reply=UPLOAD)
    if kind == "model":
        return Choice(reply=MODEL)
    return Choice(reply=NO_SHORTER)


_RETRY = re.compile(r"\b(nochmal|noch einmal|erneut|jetzt)\s+(versuch|probier)|\b(versuch|probier)\w*\s+(es\s+)?"
                    r"(nochmal|noch einmal|erneut)")


def wants_retry(text: str) -> bool:
    """„nochmal versuchen“: the same request again on purpose (after an upload or a configured model)."""
    return bool(_RETRY.search(fold(prepare(text))))
