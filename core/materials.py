"""Domain models of the materials the specialists produce: Klausur, differentiated worksheet, H5P set.

Field descriptions are written for the model that fills these as structured output; derived values are computed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import BaseModel, Field, computed_field, model_validator
from pydantic.json_schema import SkipJsonSchema

from core.notenschluessel import NotenSchema, Notenstufe, compute_notenschluessel, default_schema

AFB = Literal["I", "II", "III"]
AFB_STUFEN: tuple[AFB, ...] = ("I", "II", "III")
MaterialType = Literal["klausur", "differenzierung", "h5p"]
NiveauName = Literal["grundlegend", "mittel", "erweitert"]
NIVEAU_NAMEN: tuple[NiveauName, ...] = ("grundlegend", "mittel", "erweitert")


# --- grounding -----------------------------------------------------------------------------------------------------


class Quelle(BaseModel):
    """What a task builds on, so that a teacher (and the grounding check) can trace it."""

    art: Literal["curriculum", "good_practice", "upload", "generator", "notiz", "eigene"] = Field(
        description=(
            "curriculum (aus search_curriculum), good_practice (aus get_good_practices bzw. compose_draft), "
            "generator (Rechenaufgabe aus compose_draft), notiz (Klassen-/Schulnotiz), upload, eigene."
        )
    )
    ref: str = Field(description="Die ref genau wie vom Werkzeug geliefert; bei 'eigene' ein kurzer Hinweis.")
    titel: str = Field(
        default="",
        description="Lesbarer Titel; darf leer bleiben, das System ergänzt ihn aus der Quelle.",
    )


# --- Klausur -------------------------------------------------------------------------------------------------------


class Kriterium(BaseModel):
    """One line of the Erwartungshorizont."""

    text: str = Field(
        description=(
            "Erwartete Schülerleistung, konkret und prüfbar (z. B. 'nennt U = R · I mit Einheiten'), "
            "keine bloße Wiederholung der Aufgabe."
        )
    )
    punkte: int = Field(ge=1, description="Punkte für dieses Kriterium (ganze Zahl ≥ 1).")


class Teilaufgabe(BaseModel):
    """A sub-task (a, b, c …) with its operator, AFB, points and Erwartungshorizont."""

    label: str = Field(description="Kennbuchstabe der Teilaufgabe innerhalb der Aufgabe: 'a', 'b', 'c' … (eindeutig).")
    operator: str = Field(
        description=(
            "Der Operator, mit dem die Teilaufgabe beginnt, in der Grundform aus der Operatorenliste des Fachs "
            "(z. B. 'Nennen', 'Erklären', 'Beurteilen')."
        )
    )
    text: str = Field(
        description="Aufgabenstellung für die Schülerinnen und Schüler, mit dem Operator formuliert, ohne Punktangabe."
    )
    afb: AFB = Field(
        description=(
            "Anforderungsbereich: 'I' Reproduktion, 'II' Reorganisation und Transfer, 'III' Reflexion und "
            "Problemlösung. Muss zum Operator passen."
        )
    )
    punkte: int = Field(ge=1, description="Punkte der Teilaufgabe; muss genau der Summe der Kriterien entsprechen.")
    erwartung: list[Kriterium] = Field(
        min_length=1,
        description="Erwartungshorizont: Kriterien mit Punkten, deren Summe genau 'punkte' ergibt.",
    )
    quellen: list[Quelle] = Field(
        default_factory=list,
        description="Worauf die Teilaufgabe aufbaut (Lehrplan-Abschnitte, Good Practices, Uploads).",
    )

    @property
    def kennung(self) -> str:
        """The label as printed after the task number: 'b)' or ' b ' -> 'b' (so '2b', never '2b)')."""
        return self.label.strip().rstrip(")").strip()


class Tabelle(BaseModel):
    """A real table (Klimadaten, Messreihe): column heads and rows of cells."""

    spalten: list[str] = Field(description="Spaltenköpfe, mit Einheiten, z. B. ['Monat', 'Temperatur in °C'].")
    zeilen: list[list[str]] = Field(description="Zeilen; jede Zeile hat so viele Zellen wie es Spalten gibt.")


class MaterialBlock(BaseModel):
    """Structured material of a task: a text with line numbers (poem, source, excerpt) or a table."""

    titel: str = Field(description="Überschrift des Materials, z. B. 'M1 Klimadaten Kairo' oder den Gedichttitel.")
    art: Literal["gedicht", "prosa", "sachtext", "drama", "quelle", "darstellung", "tabelle", "text", "fall"] = Field(
        default="text", description="Art des Materials."
    )
    text: str | None = Field(default=None, description="Der Text, Zeilen mit \\n getrennt; null bei Tabellen.")
    tabelle: Tabelle | None = Field(default=None, description="Die Tabelle; null bei Texten.")
    zeilennummern: bool = Field(default=False, description="true, wenn der Text mit Zeilennummern gedruckt wird.")
    quelle: str = Field(default="", description="Quellenangabe bzw. 'selbst verfasst'.")


class Aufgabe(BaseModel):
    """A numbered task of the exam, optionally with material, made of sub-tasks."""

    nummer: int = Field(ge=1, description="Laufende Nummer der Aufgabe in der Klausur: 1, 2, 3 … (eindeutig).")
    titel: str = Field(description="Kurzer Titel der Aufgabe, z. B. 'Reihenschaltung'.")
    material: str | None = Field(
        default=None,
        description=(
            "Optionales Material, das die Schüler für die Aufgabe brauchen (Text, Messwerttabelle als Text, Zitat, "
            "Fallbeschreibung). null, wenn die Aufgabe kein Material hat."
        ),
    )
    materialien: list[MaterialBlock] = Field(
        default_factory=list,
        description="Strukturiertes Material (Texte mit Zeilennummern, Tabellen); leer, wenn keins nötig ist.",
    )
    teilaufgaben: list[Teilaufgabe] = Field(min_length=1, description="Die Teilaufgaben a, b, c … dieser Aufgabe.")

    @property
    def punkte(self) -> int:
        return sum(t.punkte for t in self.teilaufgaben)


class Klausur(BaseModel):
    """An exam (Klassenarbeit/Klausur). Totals, AFB shares and the Notenschlüssel are computed, never supplied."""

    titel: str = Field(description="Titel der Klausur, z. B. '2. Klassenarbeit: Elektrische Stromkreise'.")
    fach: str = Field(description="Unterrichtsfach, z. B. 'Physik'.")
    klassenstufe: int = Field(ge=5, le=13, description="Klassenstufe 5 bis 13.")
    klasse: str | None = Field(default=None, description="Konkrete Klasse, z. B. '10a'; null, wenn nicht bekannt.")
    thema: str = Field(description="Thema bzw. Unterrichtsreihe, die die Klausur abprüft.")
    dauer_minuten: int = Field(gt=0, le=600, description="Bearbeitungszeit in Minuten, z. B. 45 oder 90.")
    niveau: Literal["Sek I", "gA", "eA"] = Field(
        description="'Sek I' für Klassen 5–10, in der Oberstufe 'gA' (grundlegendes) oder 'eA' (erhöhtes Niveau)."
    )
    hilfsmittel: list[str] = Field(
        default_factory=list,
        description="Zugelassene Hilfsmittel, z. B. ['Taschenrechner', 'Formelsammlung']. Leere Liste = keine.",
    )
    hinweise: list[str] = Field(
        default_factory=list,
        description="Hinweise für die Schüler auf dem Aufgabenblatt (z. B. 'Rechenwege angeben.'). Kann leer sein.",
    )
    aufgaben: list[Aufgabe] = Field(description="Die Aufgaben der Klausur in Reihenfolge.")
    # Gruppe B: the same exam with other numbers (parametric tasks re-drawn), made by the composer.
    gruppe_b: SkipJsonSchema[list[Aufgabe] | None] = Field(
        default=None, description="Aufgaben der Gruppe B (gleiche Struktur und Punkte, andere Zahlen)."
    )
    hinweise_lehrkraft: list[str] = Field(
        default_factory=list,
        description=(
            "Hinweise nur für die Lehrkraft (nie im Schülerblatt): was vom Auftrag abweicht oder fehlt und warum, "
            "z. B. 'Nur 6 statt 10 Fragen: zu Stammbaumanalyse liegen keine geprüften Fragen vor.' Sonst leer."
        ),
    )
    # Hidden from the model's output schema: the scale comes from the school's configuration (router).
    notenschema: SkipJsonSchema[NotenSchema] = Field(
        default_factory=lambda data: default_schema(data.get("klassenstufe", 5), data.get("niveau", "Sek I")),
        description=(
            "Notensystem und Schwellen. Weglassen, dann gilt der Standard passend zu Klassenstufe und Niveau "
            "(Oberstufe: 15-Punkte-System, sonst Noten 1–6). Der Notenschlüssel selbst wird berechnet."
        ),
    )

    @computed_field  # type: ignore[prop-decorator]
    @property
    def gesamtpunkte(self) -> int:
        return sum(a.punkte for a in self.aufgaben)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def afb_punkte(self) -> dict[AFB, int]:
        punkte: dict[AFB, int] = dict.fromkeys(AFB_STUFEN, 0)
        for teilaufgabe in self.teilaufgaben():
            punkte[teilaufgabe.afb] += teilaufgabe.punkte
        return punkte

    @computed_field  # type: ignore[prop-decorator]
    @property
    def afb_anteile(self) -> dict[AFB, float]:
        """Percent per AFB with one decimal; largest-remainder rounding, so the shares add up to exactly 100."""
        total = self.gesamtpunkte
        if total == 0:
            return dict.fromkeys(AFB_STUFEN, 0.0)
        tenths = {afb: p * 1000 / total for afb, p in self.afb_punkte.items()}
        floored = {afb: int(v) for afb, v in tenths.items()}
        missing = 1000 - sum(floored.values())
        for afb in sorted(AFB_STUFEN, key=lambda a: tenths[a] - floored[a], reverse=True)[:missing]:
            floored[afb] += 1
        return {afb: floored[afb] / 10 for afb in AFB_STUFEN}

    @computed_field  # type: ignore[prop-decorator]
    @property
    def notenschluessel(self) -> list[Notenstufe]:
        return compute_notenschluessel(self.gesamtpunkte, self.notenschema)

    def teilaufgaben(self) -> list[Teilaufgabe]:
        """All sub-tasks in exam order."""
        return [t for a in self.aufgaben for t in a.teilaufgaben]

    def quellen(self) -> list[tuple[Quelle, list[str]]]:
        """Distinct sources with the sub-task references ('1a', '2b') that use them, in order of first use."""
        seen: dict[tuple[str, str], tuple[Quelle, list[str]]] = {}
        for aufgabe in self.aufgaben:
            for teil in aufgabe.teilaufgaben:
                for quelle in teil.quellen:
                    entry = seen.setdefault((quelle.art, quelle.ref), (quelle, []))
                    entry[1].append(f"{aufgabe.nummer}{teil.kennung}")
        return list(seen.values())


# --- Rückfrage -----------------------------------------------------------------------------------------------------


class Absage(BaseModel):
    """The specialist cannot make a good material from what it has: it says so plainly, never pads."""

    grund: str = Field(description="Warum kein gutes Material möglich ist, in einem Satz.")
    gefunden: str = Field(description="Was an geprüften Aufgaben gefunden wurde (auch: nichts).")
    optionen: list[str] = Field(description="2 bis 4 konkrete Möglichkeiten für die Lehrkraft.")


class ClarificationRequest(BaseModel):
    """A specialist's Rückfrage to the teacher instead of a material."""

    frage: str = Field(description="Eine konkrete Frage an die Lehrkraft, in einem Satz.")
    kontext: str = Field(description="Warum die Frage nötig ist: was unklar ist und wofür die Antwort gebraucht wird.")
    vorschlaege: list[str] = Field(
        default_factory=list,
        description="2 bis 4 kurze Antwortvorschläge, die die Lehrkraft direkt übernehmen kann.",
    )


# --- Differenzierung -----------------------------------------------------------------------------------------------


class Niveau(BaseModel):
    """One level of a differentiated worksheet."""

    name: NiveauName = Field(description="'grundlegend', 'mittel' oder 'erweitert'; jedes Niveau genau einmal.")
    aufgaben: list[str] = Field(description="Aufgaben dieses Niveaus, jede als vollständige Aufgabenstellung.")
    hilfekarten: list[str] = Field(
        description="Hilfekarten (gestufte Tipps), die die Schüler bei Bedarf nutzen; mindestens eine."
    )
    loesungen: list[str] = Field(
        description="Genau eine Lösung pro Aufgabe, in derselben Reihenfolge wie 'aufgaben'."
    )


class DifferenziertesMaterial(BaseModel):
    """A worksheet on one Lernziel on three levels (grundlegend, mittel, erweitert)."""

    titel: str = Field(description="Titel des Arbeitsblatts.")
    fach: str = Field(description="Unterrichtsfach, z. B. 'Biologie'.")
    klassenstufe: int = Field(ge=5, le=13, description="Klassenstufe 5 bis 13.")
    thema: str = Field(description="Thema der Stunde bzw. Reihe.")
    lernziel: str = Field(description="Das gemeinsame Lernziel aller drei Niveaus, als Kompetenz formuliert.")
    niveaus: list[Niveau] = Field(
        description="Genau drei Niveaus: 'grundlegend', 'mittel' und 'erweitert', jedes genau einmal."
    )
    materialien: list[MaterialBlock] = Field(
        default_factory=list, description="Material für alle Niveaus (Text, Tabelle); leer, wenn keins nötig ist."
    )
    quellen: list[Quelle] = Field(default_factory=list, description="Worauf das Material aufbaut.")
    hinweise_lehrkraft: list[str] = Field(
        default_factory=list,
        description=(
            "Hinweise nur für die Lehrkraft (nie im Schülerblatt): was vom Auftrag abweicht oder fehlt und warum, "
            "z. B. 'Nur 6 statt 10 Fragen: zu Stammbaumanalyse liegen keine geprüften Fragen vor.' Sonst leer."
        ),
    )


# --- H5P -----------------------------------------------------------------------------------------------------------

_GAP = re.compile(r"\*([^*]*)\*")


@dataclass(frozen=True)
class Luecke:
    """A gap of a cloze text: accepted answers (first one is the solution) and an optional tip."""

    antworten: tuple[str, ...]
    tipp: str | None


def zerlege_lueckentext(text: str, *, alternativen: bool) -> list[str | Luecke]:
    """Split an H5P cloze text into plain text and gaps, following H5P's syntax.

    `*Antwort*` marks a gap, `:` starts a tip (`*Oslo:Hauptstadt*`). With alternativen=True (Blanks) a `/`
    separates accepted answers (`*Tür/Türe*`); DragText has exactly one answer per gap, so there `/` is literal.
    """
    parts: list[str | Luecke] = []
    pos = 0
    for match in _GAP.finditer(text):
        if match.start() > pos:
            parts.append(text[pos : match.start()])
        inhalt, _, tipp = match.group(1).partition(":")
        antworten = inhalt.split("/") if alternativen else [inhalt]
        parts.append(Luecke(tuple(a.strip() for a in antworten), tipp.strip() or None))
        pos = match.end()
    if pos < len(text):
        parts.append(text[pos:])
    return parts


class Antwort(BaseModel):
    """An option of a multiple-choice question."""

    text: str = Field(description="Antworttext, kurz und eindeutig.")
    korrekt: bool = Field(description="true, wenn diese Antwort richtig ist.")
    feedback: str | None = Field(
        default=None, description="Optionale Rückmeldung, die erscheint, wenn diese Antwort gewählt wurde."
    )


class MultiChoiceFrage(BaseModel):
    typ: Literal["multichoice"] = Field(default="multichoice", description="Immer 'multichoice'.")
    frage: str = Field(description="Die Frage.")
    antworten: list[Antwort] = Field(
        description="2 bis 10 Antwortoptionen; genau eine richtig, außer 'mehrfach' ist true (dann mindestens eine)."
    )
    mehrfach: bool = Field(default=False, description="true, wenn mehrere Antworten richtig sein dürfen.")
    erklaerung: str | None = Field(
        default=None, description="Rückmeldung nach dem Beantworten: warum die Lösung stimmt (ein bis zwei Sätze)."
    )


class TrueFalseFrage(BaseModel):
    typ: Literal["truefalse"] = Field(default="truefalse", description="Immer 'truefalse'.")
    frage: str = Field(description="Eine Aussage, die entweder richtig oder falsch ist.")
    wahr: bool = Field(description="true, wenn die Aussage richtig ist.")
    erklaerung: str | None = Field(
        default=None, description="Rückmeldung nach dem Beantworten: warum die Lösung stimmt (ein bis zwei Sätze)."
    )


class BlanksFrage(BaseModel):
    typ: Literal["blanks"] = Field(default="blanks", description="Immer 'blanks'.")
    text: str = Field(
        description=(
            "Lückentext; jede Lücke steht zwischen Sternchen: 'Die Hauptstadt von Norwegen ist *Oslo*.' "
            "Alternative richtige Antworten mit '/' trennen (*Tür/Türe*), ein Tipp folgt nach ':' (*Oslo:Stadt am "
            "Fjord*). Sternchen, '/' und ':' nur so verwenden."
        )
    )

    erklaerung: str | None = Field(
        default=None, description="Rückmeldung nach dem Beantworten: warum die Lösung stimmt (ein bis zwei Sätze)."
    )

    def luecken(self) -> list[Luecke]:
        return [p for p in zerlege_lueckentext(self.text, alternativen=True) if isinstance(p, Luecke)]


class DragTextFrage(BaseModel):
    typ: Literal["dragtext"] = Field(default="dragtext", description="Immer 'dragtext'.")
    text: str = Field(
        description=(
            "Text mit Wörtern zum Hineinziehen zwischen Sternchen: '*Oslo* ist die Hauptstadt von Norwegen.' "
            "Pro Lücke genau ein Wort bzw. eine Wortgruppe; ein Tipp folgt nach ':'. Sternchen nur so verwenden."
        )
    )

    erklaerung: str | None = Field(
        default=None, description="Rückmeldung nach dem Beantworten: warum die Lösung stimmt (ein bis zwei Sätze)."
    )

    def luecken(self) -> list[Luecke]:
        return [p for p in zerlege_lueckentext(self.text, alternativen=False) if isinstance(p, Luecke)]


FRAGETYP_NAMEN: dict[str, str] = {
    "multichoice": "Multiple Choice",
    "truefalse": "Richtig/Falsch",
    "blanks": "Lückentext",
    "dragtext": "Drag-Text",
}

H5PFrage = Annotated[MultiChoiceFrage | TrueFalseFrage | BlanksFrage | DragTextFrage, Field(discriminator="typ")]


class H5PSet(BaseModel):
    """Interactive exercises exported as .h5p (QuestionSet or a single content type) and Moodle XML."""

    titel: str = Field(description="Titel der Übung.")
    fach: str = Field(description="Unterrichtsfach.")
    klassenstufe: int = Field(ge=5, le=13, description="Klassenstufe 5 bis 13.")
    thema: str = Field(description="Thema der Übung.")
    fragen: list[H5PFrage] = Field(description="Die Fragen in Reihenfolge; Typ über das Feld 'typ'.")
    quellen: list[Quelle] = Field(default_factory=list, description="Worauf die Fragen aufbauen.")
    hinweise_lehrkraft: list[str] = Field(
        default_factory=list,
        description=(
            "Hinweise nur für die Lehrkraft (nie im Schülerblatt): was vom Auftrag abweicht oder fehlt und warum, "
            "z. B. 'Nur 6 statt 10 Fragen: zu Stammbaumanalyse liegen keine geprüften Fragen vor.' Sonst leer."
        ),
    )


Material = Klausur | DifferenziertesMaterial | H5PSet


# --- request -------------------------------------------------------------------------------------------------------


class AfbWunsch(BaseModel):
    """A teacher's wish such as 'eine Aufgabe zu Induktion als AFB III'."""

    thema: str = Field(description="Inhalt, zu dem die Lehrkraft eine bestimmte Aufgabe wünscht, z. B. 'Induktion'.")
    afb: AFB = Field(description="Gewünschter Anforderungsbereich dieser Aufgabe.")


class MaterialRequest(BaseModel):
    """What the main agent hands to the material router."""

    fach: str = Field(description="Unterrichtsfach, z. B. 'Physik'.")
    klassenstufe: int | None = Field(default=None, ge=5, le=13, description="Klassenstufe 5 bis 13, falls bekannt.")
    klasse: str | None = Field(default=None, description="Konkrete Klasse, z. B. '10a', falls genannt.")
    thema: str = Field(description="Thema bzw. Unterrichtsreihe.")
    material_type: MaterialType = Field(
        description="'klausur' (Klassenarbeit/Klausur), 'differenzierung' (Arbeitsblatt auf drei Niveaus), 'h5p'."
    )
    dauer_minuten: int | None = Field(default=None, gt=0, le=600, description="Dauer in Minuten, falls genannt.")
    unterthemen: list[str] = Field(
        default_factory=list,
        description="Ausdrücklich genannte Unterthemen, z. B. ['Mendelsche Regeln', 'Stammbaumanalyse']; sonst leer.",
    )
    anzahl: int | None = Field(
        default=None, ge=1, le=40, description="Gewünschte Anzahl Fragen bzw. Aufgaben, falls genannt."
    )
    niveau: Literal["grundlegend", "erhoeht"] | None = Field(
        default=None,
        description="Oberstufe: 'grundlegend' (Grundkurs, gA) oder 'erhoeht' (Leistungskurs, eA), falls genannt.",
    )
    gruppen: bool = Field(
        default=False, description="true, wenn die Lehrkraft Gruppe A und B wünscht (gleiche Klausur, andere Zahlen)."
    )
    zusatz: str = Field(default="", description="Weitere Wünsche der Lehrkraft im Wortlaut bzw. knapp zusammengefasst.")
    afb_ziel: dict[AFB, int] | None = Field(
        default=None,
        description="Gewünschte AFB-Verteilung in Prozent, z. B. {'I': 30, 'II': 40, 'III': 30}; Summe 100.",
    )
    afb_wuensche: list[AfbWunsch] = Field(
        default_factory=list,
        description="Ausdrückliche Wünsche wie 'eine Aufgabe zu Induktion als AFB III'.",
    )

    @model_validator(mode="after")
    def _afb_ziel_sums_to_100(self) -> MaterialRequest:
        if self.afb_ziel is not None:
            if any(v < 0 for v in self.afb_ziel.values()):
                raise ValueError("afb_ziel darf keine negativen Prozentwerte enthalten.")
            if sum(self.afb_ziel.values()) != 100:
                raise ValueError(f"afb_ziel muss sich zu 100 Prozent addieren, ergibt {sum(self.afb_ziel.values())}.")
        return self

