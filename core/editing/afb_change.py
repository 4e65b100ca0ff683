"""An AFB change that means it: the sub-task is replaced by a reviewed bank task of its topic (same sub-topic first)
at the new AFB, with that task's operator, demand, Erwartungshorizont and points; only when the bank has none is
the sub-task extended by a demand of the new level (operator of the Fach's list, criteria with points), and the
change note says so."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from core.checks.operators import AFB_RANG
from core.editing.bank_tasks import BankTask, TaskBank
from core.editing.operators import fitting_operator, operator_fits
from core.editing.values import shorten
from core.language.imperativ import imperativ
from core.materials.klausur import Aufgabe, Kriterium, Teilaufgabe
from core.materials.notenschluessel import format_punkte

# Operators that carry the level's demand in a fallback, most fitting first (only those in the Fach's list count).
_FALLBACK_OPERATOREN = {"III": ("Beurteilen", "Bewerten", "Assess", "Evaluate", "Begründen"),
                        "II": ("Erklären", "Erläutern", "Explain", "Begründen")}
_DEMAND = {
    ("de", "III"): ("{verb} anschließend begründet, ob deine Antwort in jedem Fall gilt: Nenne eine Bedingung oder "
                    "Grenze, unter der sie nicht oder nur eingeschränkt zutrifft, und wäge ab, wie bedeutsam diese "
                    "Grenze hier ist.",
                    ["nennt eine fachlich zutreffende Bedingung oder Grenze, unter der die Antwort nicht oder nur "
                     "eingeschränkt gilt",
                     "begründet mit einem fachlichen Argument, warum die Antwort dort nicht (voll) gilt",
                     "wägt ab und kommt zu einem begründeten Urteil, wie bedeutsam diese Grenze für die Aufgabe ist"]),
    ("de", "II"): ("{verb} anschließend, warum deine Antwort fachlich zutrifft: Nenne den Zusammenhang (Regel, "
                   "Gesetz, Modell), auf dem sie beruht, und wende ihn auf diese Aufgabe an.",
                   ["nennt den fachlichen Zusammenhang (Regel, Gesetz, Modell), auf dem die Antwort beruht",
                    "wendet den Zusammenhang schlüssig auf die Aufgabe an"]),
    ("en", "III"): ("Then {verb_lower} whether your answer holds in every case: name one condition under which it "
                    "holds only partly and weigh how important that limit is here.",
                    ["names a condition under which the answer holds only partly",
                     "supports the limit with a relevant argument",
                     "weighs the limit and reaches a reasoned judgement"]),
    ("en", "II"): ("Then {verb_lower} why your answer is correct: name the rule or idea it rests on and apply it "
                   "to this task.",
                   ["names the rule or idea the answer rests on", "applies it convincingly to the task"]),
}


@dataclass
class AfbChange:
    """What one AFB change did: the sub-tasks the teacher addressed (kept as they are when rebalancing) and whether
    a bank task was found for each."""

    bank: TaskBank
    operatoren: Mapping[str, str]
    ausgleichen: bool = True
    fixed: list[Teilaufgabe] = field(default_factory=list)
    ohne_bank: list[str] = field(default_factory=list)

    def rewrite(self, aufgabe: Aufgabe, teil: Teilaufgabe, ref: str, afb: str, operator: str | None,
                changes: list[str]) -> Teilaufgabe:
        """The sub-task rewritten for `afb` (placed into `aufgabe` at the old one's place); one change line."""
        allein = len(aufgabe.teilaufgaben) == 1
        titles = None if allein else {m.titel for m in aufgabe.materialien}
        home = self.bank.home(aufgabe, teil)
        found = self.bank.candidates(home, afb, material_titles=titles, operator=operator, punkte=teil.punkte)
        if operator is not None:
            found = [c for c in found if c.teil.operator == operator] or found
        neu = self._from_bank(aufgabe, teil, ref, afb, found[0], allein, changes) if found else \
            self._extended(teil, ref, afb, operator, home.unterthema or home.topic, changes)
        aufgabe.teilaufgaben[next(i for i, x in enumerate(aufgabe.teilaufgaben) if x is teil)] = neu
        self.fixed.append(neu)
        return neu

    def _from_bank(self, aufgabe: Aufgabe, teil: Teilaufgabe, ref: str, afb: str, task: BankTask, allein: bool,
                   changes: list[str]) -> Teilaufgabe:
        curriculum = [q for q in teil.quellen if q.art == "curriculum"]
        neu = task.teil.model_copy(update={"label": teil.label, "quellen": [*task.teil.quellen, *curriculum]})
        if allein:  # the task is this sub-task: its material and title follow the new demand
            aufgabe.materialien, aufgabe.material = list(task.materialien), None
            if task.unterthema:
                aufgabe.titel = task.unterthema
        punkte = f"{format_punkte(teil.punkte)} → {format_punkte(neu.punkte)}" if neu.punkte != teil.punkte else \
            f"{format_punkte(neu.punkte)} wie bisher"
        changes.append(f"{ref}: AFB {teil.afb} → {afb} – ersetzt durch eine geprüfte Aufgabe aus der "
                       f"Aufgabensammlung ({task.unterthema or 'gleiches Thema'}; Operator {teil.operator} → "
                       f"{neu.operator}, {punkte}, Erwartungshorizont mit {len(neu.erwartung)} Kriterien): "
                       f"„{shorten(neu.text, 90)}“")
        return neu

    def _fallback_operator(self, current: str, afb: str, wished: str | None) -> str:
        if wished is not None:
            return wished
        for name in _FALLBACK_OPERATOREN.get(afb, ()):
            if name in self.operatoren and operator_fits(name, afb, self.operatoren):
                return name
        return fitting_operator(current, afb, self.operatoren)

    def _extended(self, teil: Teilaufgabe, ref: str, afb: str, wished: str | None, thema: str | None,
                  changes: list[str]) -> Teilaufgabe:
        """No bank task: a higher level adds a demand of that level with its criteria; a lower level keeps the task
        with an operator of that level (the note asks the teacher to check it)."""
        operator = self._fallback_operator(teil.operator, afb, wished)
        wo = f" zu „{thema}“" if thema else ""
        self.ohne_bank.append(ref)
        if AFB_RANG[afb] < AFB_RANG[teil.afb] or afb == "I":
            neu = teil.model_copy(update={"afb": afb, "operator": operator})
            changes.append(f"{ref}: AFB {teil.afb} → {afb}, Operator {teil.operator} → {operator} (keine Aufgabe mit "
                           f"AFB {afb}{wo} in der Aufgabensammlung; Aufgabentext und Erwartungshorizont bitte prüfen)")
            return neu
        sprache = "en" if self.bank.fach == "englisch" else "de"
        satz, kriterien = _DEMAND[(sprache, afb)]
        verb, teilwort = imperativ(operator)
        verb = f"{verb} {teilwort}".strip() if teilwort else verb
        text = f"{teil.text.rstrip()} {satz.format(verb=verb, verb_lower=verb.casefold())}"
        erwartung = [*teil.erwartung, *(Kriterium(text=k, punkte=1) for k in kriterien)]
        neu = teil.model_copy(update={"afb": afb, "operator": operator, "text": text, "erwartung": erwartung,
                                      "punkte": sum(e.punkte for e in erwartung)})
        changes.append(f"{ref}: AFB {teil.afb} → {afb}, Operator {teil.operator} → {operator}, "
                       f"{format_punkte(teil.punkte)} → {format_punkte(neu.punkte)}. In der Aufgabensammlung gibt es "
                       f"keine Aufgabe mit AFB {afb}{wo}; deshalb wurde die Teilaufgabe um eine Anforderung dieses "
                       f"Bereichs erweitert und der Erwartungshorizont um {len(kriterien)} Kriterien ergänzt – bitte "
                       f"prüfen.")
        return neu
