"""What the composer tells the teacher: what it found, what is missing and what she can do — in plain German."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.checks.topicality import says
from core.checks.topics import term_matches, text_stems
from core.checks.views import TaskView, views
from core.composition.parts_lexicon import treats
from core.language.text import fold, words
from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.h5p import H5PSet
from core.materials.klausur import Klausur
from core.materials.titles import join_parts
from core.materials.wording import anzahl

_UNUSED = re.compile(r"^(Nur .+?: Aufgaben zu )(.+)( wurden nicht verwendet\.)$")
_QUOTED = re.compile(r"„([^“]+)“")
_MISSING = re.compile(r"^Zu „([^“]+)“ habe ich keine geprüfte Aufgabe .*dieser Teil fehlt\.$")

_GENUS = {"Test": "m", "Quiz": "n", "Arbeitsblatt": "n"}  # the rest: Klausur, Klassenarbeit, …kontrolle


def artikel(was: str, *, akkusativ: bool = False, kuerzer: bool = True) -> str:
    """„die kürzere Klausur“, „den kürzeren Test“, „das kürzere Quiz“ (or without the adjective: „der Test“)."""
    genus = _GENUS.get(was, "f")
    art = {"m": "den" if akkusativ else "der", "n": "das", "f": "die"}[genus]
    adj = ("kürzeren" if genus == "m" and akkusativ else "kürzere") if kuerzer else ""
    return " ".join(x for x in (art, adj, was) if x)


@dataclass(frozen=True)
class Nachbar:
    """A topic of the bank near the requested one, offered as an option."""

    thema: str
    anzahl: int


@dataclass
class Befund:
    """The composer's honest account of one material."""

    was: str  # "Klassenarbeit", "Quiz", "Arbeitsblatt"
    thema: str
    gefunden: int = 0
    gewuenscht_minuten: int | None = None
    geschafft_minuten: int | None = None
    gewuenscht_anzahl: int | None = None
    geschafft_anzahl: int | None = None
    fehlende_unterthemen: list[str] = field(default_factory=list)
    fehlende_wuensche: list[str] = field(default_factory=list)
    afb_abweichung: str | None = None
    nachbarn: list[Nachbar] = field(default_factory=list)
    notizen: list[str] = field(default_factory=list)  # what the teacher's notes and examples changed
    einheit: str = "Aufgaben"
    schwerpunkt: tuple[str, ...] = ()  # the teacher's words naming a part of the topic (core.checks.focus)
    schwerpunkt_thema: str = ""  # the whole topic that part belongs to
    ausserhalb: int = 0  # checked items on other parts of that topic, left out
    ergaenzt: bool = False  # the named parts were filled up with the topic's other tasks (decision 027)
    klassenstufe: int | None = None
    angebote: tuple[str, ...] = ()  # the composer's own options: fill up with neighbours, the short exam (043)
    zeit_hinweis: str = ""  # the shorter exam's own note on its time when it offers to fill up (043)
    stub: bool = False  # too little on topic to hand out: no „so verwenden“, the short exam is an option (043)
    grund: str = ""  # why there is no material, when it is not that nothing was found

    @property
    def stueck(self) -> str:
        """The unit of whole items (a worksheet's items are three-level tasks)."""
        return "dreistufige Aufgaben" if self.einheit == "Aufgaben je Niveau" else self.einheit

    @property
    def schwerpunkt_name(self) -> str:
        """The emphasis in the teacher's words: her topic when it holds every focus word („Waagerechter und schiefer
        Wurf“, not „Waagerechter, schiefer, Wurf“)."""
        if self.schwerpunkt and all(w.casefold() in self.thema.casefold() for w in self.schwerpunkt):
            return self.thema
        return ", ".join(self.schwerpunkt)

    def focus_line(self) -> str | None:
        if not (self.schwerpunkt and self.ausserhalb) or self.ergaenzt:
            return None
        words = self.schwerpunkt_name
        one = self.ausserhalb == 1
        return (f"Nur Aufgaben zum Schwerpunkt „{words}“: {anzahl(self.ausserhalb, 'weitere geprüfte ' + self.stueck)} "
                f"zu „{self.schwerpunkt_thema}“ {'behandelt' if one else 'behandeln'} andere Teile des Themas und "
                f"{'wurde' if one else 'wurden'} nicht verwendet.")

    @property
    def kuerzer_zeit(self) -> bool:
        return bool(self.gewuenscht_minuten and self.geschafft_minuten is not None
                    and self.geschafft_minuten < self.gewuenscht_minuten)

    @property
    def weniger(self) -> bool:
        return bool(self.gewuenscht_anzahl and self.geschafft_anzahl is not None
                    and self.geschafft_anzahl < self.gewuenscht_anzahl)

    @property
    def kuerzer(self) -> bool:
        return self.kuerzer_zeit or self.weniger or bool(self.fehlende_unterthemen)

    def knapp(self) -> list[str]:
        """The notes that say what the material lacks against the request: time, number, named parts."""
        out = []
        if self.zeit_hinweis and (self.geschafft_minuten or self.weniger):  # one note, with the offer to fill up
            out.append(self.zeit_hinweis)
        elif self.gewuenscht_minuten and self.geschafft_minuten \
                and self.geschafft_minuten < self.gewuenscht_minuten:  # 0: no material, said in the refusal
            liegen = "liegt" if self.gefunden == 1 else "liegen"
            zu = f"Zu „{self.thema}“ {liegen}" + (" auch mit den übrigen Teilen des Themas" if self.ergaenzt else "")
            out.append(f"Kürzer als gewünscht: ausgelegt auf {self.geschafft_minuten} statt "
                       f"{self.gewuenscht_minuten} Minuten. {zu} "
                       f"nur {anzahl(self.gefunden, 'geprüfte ' + self.einheit)} in passender Klassenstufe vor; "
                       + ("mit Füllaufgaben wird nicht aufgefüllt." if self.ergaenzt else "aufgefüllt wird nicht."))
        if self.weniger and not self.zeit_hinweis:
            out.append(f"Nur {self.geschafft_anzahl} statt {self.gewuenscht_anzahl} {self.einheit}: mehr geprüfte "
                       f"{self.einheit} zu „{self.thema}“ gibt es in der Wissensbasis nicht"
                       + (", auch nicht zu den übrigen Teilen des Themas." if self.ergaenzt else
                          "; aufgefüllt wird nicht."))
        for u in self.fehlende_unterthemen:
            fuer = f"für Klasse {self.klassenstufe}" if self.klassenstufe else "in passender Klassenstufe"
            out.append(f"Zu „{u}“ habe ich keine geprüfte Aufgabe {fuer} – dieser Teil fehlt.")
        return out

    def hinweise(self) -> list[str]:
        """Lines for hinweise_lehrkraft: deviations with their reason, then what was taken into account."""
        out = self.knapp()
        for w in self.fehlende_wuensche:
            out.append(f"Wunsch nicht erfüllbar: {w} – dazu gibt es keine passende geprüfte Aufgabe.")
        if (line := self.focus_line()) and (self.kuerzer or not self.gefunden):
            out.append(line)
        if self.afb_abweichung:
            out.append(self.afb_abweichung)
        out += self.notizen
        return out

    def as_printed(self, tasks: Sequence[TaskView], unterthemen: Sequence[str]) -> None:
        """The notes on named parts said from the material as printed (decision 045): a part a printed task treats
        is neither „fehlt“ nor „nicht verwendet“; a named part no printed task treats is always named."""
        named = {fold(u) for u in (*unterthemen, self.thema)}
        kept = [u for u in self.fehlende_unterthemen if fold(u) not in named or not treats(tasks, u, self.thema)]
        gaps = [u for u in unterthemen if not treats(tasks, u, self.thema) and fold(u) not in {fold(x) for x in kept}]
        self.fehlende_unterthemen = [*kept, *gaps]
        self.notizen = [n for x in self.notizen if (n := unused_as_printed(x, tasks, self.thema))]

    def optionen(self) -> list[str]:
        if not (self.kuerzer or self.gefunden == 0):
            return []
        out = []
        if self.gefunden and not self.stub and (self.kuerzer_zeit or self.weniger or not self.fehlende_unterthemen):
            out.append(f"{artikel(self.was, akkusativ=True)} so verwenden")
        elif self.gefunden and not self.stub:  # only named parts missing: it is not shorter, it lacks them
            ohne = " und ".join(f"„{u}“" for u in self.fehlende_unterthemen)
            out.append(f"{artikel(self.was, akkusativ=True, kuerzer=False)} ohne {ohne} so verwenden")
        out += self.angebote
        near = [n for n in self.nachbarn if n.anzahl > 0][:3]
        if self.ausserhalb:
            out.append(f"das ganze Thema „{self.schwerpunkt_thema}“ nehmen "
                       f"({anzahl(self.ausserhalb, 'weitere geprüfte ' + self.stueck)})")
        if near:
            out.append("um verwandte Themen ergänzen: " + ", ".join(f"„{n.thema}“ ({n.anzahl})" for n in near))
        out.append("eigene Aufgaben auf der Seite „Hochladen“ ergänzen – sie werden dann mitverwendet")
        out.append("ein Sprachmodell konfigurieren (siehe README), das neue Aufgaben schreibt")
        return out


def options_text(optionen: Sequence[str]) -> str:
    return "Möglichkeiten: " + "; ".join(f"({i}) {o}" for i, o in enumerate(optionen, 1)) + "." if optionen else ""


def titled(thema: str, unterthemen: Sequence[str], fehlende: Sequence[str]) -> str:
    """What a material may be titled with: the request's topic — or, when it names a part the material has no
    task on („Waagerechter und schiefer Wurf“ without a schiefer Wurf), the named parts it does hold."""
    missing = {u.casefold() for u in fehlende}
    present = [u for u in unterthemen if u.casefold() not in missing]
    if not present or len(present) == len(unterthemen) or not any(says(thema, u) for u in fehlende):
        return thema
    return _shared_head(thema, present, fehlende) + join_parts(present)  # „A, B und C“, never „A und B und C“


_GOVERNS = frozenset(["bei", "von", "mit", "in", "im", "zu", "zum", "zur", "für", "über", "der", "des"])


def _shared_head(thema: str, present: Sequence[str], fehlende: Sequence[str]) -> str:
    """„Kommasetzung bei “ of „Kommasetzung bei Aufzählungen und Nebensätzen“ when only the Nebensätze are there:
    the words of a missing first part up to a word that governs what follows, which the reader gave to that part
    alone — so the title says „Kommasetzung bei Nebensätzen“, not „Nebensätzen“ (decision 050)."""
    for m in fehlende:
        ws = m.split()
        for i in range(len(ws) - 1, 0, -1):
            head = " ".join(ws[:i])
            if fold(ws[i - 1]) in _GOVERNS and thema.startswith(head) and not any(p.startswith(head) for p in present):
                return head + " "
    return ""


def unused_as_printed(note: str, tasks: Sequence[TaskView], thema: str) -> str | None:
    """„Nur „X“: Aufgaben zu „A“, „B“ wurden nicht verwendet.“ without the parts a printed task treats — by the
    words that set the part apart from the request („type 3“ of „if-clauses type 3“ beside „If-clauses“, „Typ 1“),
    None when that leaves none; any other note as it is."""
    found = _UNUSED.match(note)
    if found is None:
        return note
    asked = text_stems(" ".join([thema, *_QUOTED.findall(found.group(1))]))
    left = [s for s in _QUOTED.findall(found.group(2)) if not (own := _own_words(s, asked))
            or not treats(tasks, own, thema)]
    if not left:
        return None
    return found.group(1) + ", ".join(f"„{s}“" for s in left) + found.group(3)


def _own_words(part: str, asked: set[str]) -> str:
    return " ".join(w for w in words(part) if (mine := text_stems(w)) and not any(
        term_matches(m, a) for m in mine for a in asked))


def note_as_printed(note: str, tasks: Sequence[TaskView], thema: str) -> str | None:
    """A note on a named part made true of the tasks as printed (after an edit too): „… dieser Teil fehlt“ goes
    when a task treats the part, „… nicht verwendet“ loses the parts a task treats."""
    if (found := _MISSING.match(note)) and treats(tasks, found.group(1), thema):
        return None
    return unused_as_printed(note, tasks, thema)


def agree_with_paper(material: Klausur | DifferenziertesMaterial | H5PSet | None, befund: Befund,
                     unterthemen: Sequence[str]) -> None:
    """The composer's account and the material's teacher notes, made true of the tasks as printed: the notes the
    account gives are recomputed, the material's other notes stay."""
    if material is None:
        return
    own = set(befund.hinweise())
    befund.as_printed(views(material), unterthemen)
    material.hinweise_lehrkraft = [*befund.hinweise(), *(h for h in material.hinweise_lehrkraft if h not in own)]
    thema = titled(befund.thema, unterthemen, befund.fehlende_unterthemen)  # never titled with a part it lacks
    if material.thema == befund.thema and thema != befund.thema and material.titel.endswith(befund.thema):
        material.titel, material.thema = material.titel[: -len(befund.thema)] + thema, thema
