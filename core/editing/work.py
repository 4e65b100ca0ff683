"""A patch at work: each operation (replace text, points, AFB, operator, add/remove/move, Erwartungshorizont)
changes the working copy of the exam and writes one German line about what changed."""

from __future__ import annotations

import logging
import re

from pydantic import ValidationError

from core.editing.addresses import AddressedExam, address_label
from core.editing.afb_change import AfbChange
from core.editing.errors import PatchError
from core.editing.operators import canonical_operator, fitting_operator, swap_verb
from core.editing.values import MAX_PUNKTE_TEILAUFGABE, afb_value, criteria, scale_points, shorten, sub_label
from core.materials import patch_ops as ops
from core.materials.blocks import Quelle
from core.materials.klausur import Aufgabe, Klausur, Kriterium, Teilaufgabe
from core.materials.notenschluessel import format_punkte
from core.materials.wording import anzahl

log = logging.getLogger(__name__)


class PatchWork(AddressedExam):
    """The working copy plus the operations; `result()` renumbers, reletters and validates the new exam."""

    afb_change: AfbChange | None = None  # with a task bank: AFB changes rewrite the sub-task (else: relabel only)

    def replace_text(self, op: ops.ReplaceText) -> None:
        neu = op.text.strip()
        if not neu:
            raise PatchError(f"Der neue Text für {op.ziel} ist leer. Bitte den gewünschten Wortlaut angeben.")
        if op.feld == "text":
            ((_, teil, ref),) = self.sub(op.ziel)
            alt = self._stelle(teil.text, op.alt)
            teil.text = self._ersetze(teil.text, alt, neu, ref)
            if alt and alt.strip():
                self._werte_im_erwartungshorizont(teil, alt, neu, ref)
            else:
                self.changes.append(f"{ref}: Aufgabentext neu formuliert („{shorten(teil.text)}“)")
            return
        a = self.task(op.ziel)
        if op.feld == "titel":
            alt_titel = a.titel
            a.titel = self._ersetze(a.titel, op.alt, neu, f"Aufgabe {a.nummer}")
            self.changes.append(f"Aufgabe {a.nummer}: Titel „{shorten(alt_titel)}“ → „{shorten(a.titel)}“")
        else:
            a.material = self._ersetze(a.material or "", op.alt, neu, f"Aufgabe {a.nummer}")
            self.changes.append(f"Aufgabe {a.nummer}: Material neu gefasst")

    @staticmethod
    def _stelle(text: str, alt: str | None) -> str | None:
        """The passage as it stands in the text ('12 Ω' also matches '12Ω' or '12 Ohm')."""
        if not alt or alt in text:
            return alt
        zahl = re.match(r"\s*(\d[\d.,]*)\s*(.*)$", alt)
        if zahl:
            einheit = {"ω": "(?:Ω|Ohm)", "ohm": "(?:Ω|Ohm)"}.get(zahl.group(2).casefold(), re.escape(zahl.group(2)))
            m = re.search(rf"(?<![\d,.]){re.escape(zahl.group(1))}\s*{einheit}", text)
            if m:
                return m.group(0)
        return alt

    def _werte_im_erwartungshorizont(self, teil: Teilaufgabe, alt: str, neu: str, ref: str) -> None:
        """A value swapped in the task text is swapped in the criteria too; what follows from it is named."""
        self.changes.append(f"{ref}: „{alt}“ → „{neu}“ im Aufgabentext")
        hits = [k for k in teil.erwartung if self._stelle(k.text, alt) in k.text]
        for k in hits:
            k.text = k.text.replace(self._stelle(k.text, alt) or alt, neu)
        if hits:
            self.changes.append(f"{ref}: Erwartungshorizont ebenso angepasst ({anzahl(len(hits), 'Kriterium')}); "
                                f"daraus berechnete Ergebnisse bitte nachrechnen")

    @staticmethod
    def _ersetze(text: str, alt: str | None, neu: str, ref: str) -> str:
        if alt is None or not alt.strip():
            return neu
        if alt not in text:
            raise PatchError(f"{ref}: Die Stelle „{shorten(alt)}“ kommt im bisherigen Text nicht vor. Bitte genau "
                             f"wie im Text angeben oder den ganzen Text ersetzen.")
        return text.replace(alt, neu)

    def set_points(self, op: ops.SetPoints) -> None:
        ((_, teil, ref),) = self.sub(op.ziel)
        if op.punkte < 1:
            raise PatchError(f"{ref}: {op.punkte} Punkte geht nicht – eine Teilaufgabe hat mindestens 1 Punkt.")
        if op.punkte > MAX_PUNKTE_TEILAUFGABE:
            raise PatchError(f"{ref}: {op.punkte} Punkte sind zu viele für eine Teilaufgabe (höchstens "
                             f"{MAX_PUNKTE_TEILAUFGABE}).")
        if op.punkte == teil.punkte:
            return
        if op.punkte < len(teil.erwartung):
            raise PatchError(f"{ref}: Der Erwartungshorizont hat {len(teil.erwartung)} Kriterien, bei {op.punkte} "
                             f"Punkten bekäme nicht jedes Kriterium einen Punkt. Bitte den Erwartungshorizont mit "
                             f"weniger Kriterien neu fassen (die Punkte ergeben sich dann aus den Kriterien) oder "
                             f"mindestens {len(teil.erwartung)} Punkte geben.")
        vorher = [c.punkte for c in teil.erwartung]
        neu = scale_points(vorher, op.punkte)
        teil.erwartung = [Kriterium(text=c.text, punkte=p) for c, p in zip(teil.erwartung, neu, strict=True)]
        self.changes.append(f"{ref}: {format_punkte(teil.punkte)} → {format_punkte(op.punkte)} (Erwartungshorizont "
                            f"anteilig angepasst: {'/'.join(map(str, vorher))} → {'/'.join(map(str, neu))})")
        teil.punkte = op.punkte

    def set_afb(self, op: ops.SetAfb) -> None:
        afb = afb_value(op.afb)
        operator = None
        if op.operator is not None:
            operator = canonical_operator(op.operator, self.operatoren)
            if operator is None:
                raise PatchError(self._unbekannt(op.operator))
        geaendert = False
        for a, teil, ref in self.sub(op.ziel, ganze_aufgabe=True):
            if self.afb_change is not None and teil.afb != afb and op.neu_fassen:  # a real rewrite for the level
                self.afb_change.ausgleichen &= op.ausgleichen
                neu = self.afb_change.rewrite(a, teil, ref, afb, operator, self.changes)
                self.subs[(a.nummer, teil.kennung.casefold())] = (a, neu)
                geaendert = True
            else:
                if self.afb_change is not None:  # asked for (or set by hand): rebalancing leaves it alone
                    self.afb_change.ausgleichen &= op.ausgleichen
                    self.afb_change.fixed.append(teil)
                geaendert |= self.change_afb(teil, ref, afb, operator)
        if not geaendert:
            raise PatchError(f"{op.ziel} ist bereits AFB {afb}; es gibt nichts zu ändern.")

    def change_afb(self, teil: Teilaufgabe, ref: str, afb: str, operator: str | None = None, note: str = "") -> bool:
        neu_op = operator or fitting_operator(teil.operator, afb, self.operatoren)
        if teil.afb == afb and neu_op == teil.operator:
            return False
        teile = [f"AFB {teil.afb} → {afb}"] if teil.afb != afb else []
        hinweis = ""
        if teil.afb != afb:  # the criteria were written for the old demand
            hinweis = "; Aufgabentext und Erwartungshorizont bitte prüfen" if neu_op != teil.operator else \
                "; Erwartungshorizont bitte prüfen"
        if neu_op != teil.operator:
            teile.append(f"Operator {teil.operator} → {neu_op}")
            teile += self._verb(teil, neu_op)
            teil.operator = neu_op
        teil.afb = afb
        self.changes.append(f"{ref}: {', '.join(teile)}{note}{hinweis}")
        return True

    def _verb(self, teil: Teilaufgabe, neu_op: str) -> list[str]:
        text = swap_verb(teil.text, teil.operator, neu_op)
        if text is None:
            return ["Aufgabentext beginnt nicht mit dem Operator – bitte anpassen"]
        teil.text = text
        return []

    def _unbekannt(self, operator: str) -> str:
        bekannte = ", ".join(sorted(self.operatoren, key=str.casefold))
        return (f"Den Operator „{operator.strip()}“ kennt die Operatorenliste für {self.k.fach} nicht. "
                f"Möglich sind: {bekannte}.")

    def set_operator(self, op: ops.SetOperator) -> None:
        ((_, teil, ref),) = self.sub(op.ziel)
        operator = canonical_operator(op.operator, self.operatoren)
        if operator is None:
            raise PatchError(self._unbekannt(op.operator) if op.operator.strip() else f"{ref}: Der Operator ist leer.")
        if operator == teil.operator:
            raise PatchError(f"{ref} hat bereits den Operator {operator}.")
        extra = self._verb(teil, operator)
        self.changes.append(f"{ref}: Operator {teil.operator} → {operator}" + (f" ({extra[0]})" if extra else ""))
        teil.operator = operator

    def _neue_teilaufgabe(self, neu: ops.TeilaufgabeNeu, ref: str) -> Teilaufgabe:
        operator = canonical_operator(neu.operator, self.operatoren)
        if operator is None:
            raise PatchError(self._unbekannt(neu.operator) if neu.operator.strip() else f"{ref}: Der Operator fehlt.")
        if not neu.text.strip():
            raise PatchError(f"{ref}: Der Aufgabentext ist leer. Bitte die Aufgabenstellung angeben.")
        erwartung = criteria(ref, neu.erwartung)
        quellen = list(neu.quellen) or [Quelle(art="eigene", ref="Ergänzung der Lehrkraft",
                                               titel="Ergänzung der Lehrkraft")]
        return Teilaufgabe(label="?", operator=operator, text=neu.text.strip(), afb=afb_value(neu.afb),
                           punkte=sum(c.punkte for c in erwartung), erwartung=erwartung, quellen=quellen)

    def add_subtask(self, op: ops.AddSubtask) -> None:
        a = self.task(op.ziel)
        teil = self._neue_teilaufgabe(op.teilaufgabe, f"Neue Teilaufgabe in Aufgabe {a.nummer}")
        i = self.position(op.position, len(a.teilaufgaben) + 1, f"Aufgabe {a.nummer}")
        a.teilaufgaben.insert(i, teil)
        self.relabel.append(a)
        self.changes.append(f"Aufgabe {a.nummer}: neue Teilaufgabe an Stelle {i + 1} ({teil.operator}, AFB "
                            f"{teil.afb}, {format_punkte(teil.punkte)})")

    def remove_subtask(self, op: ops.RemoveSubtask) -> None:
        ((a, teil, ref),) = self.sub(op.ziel)
        if address_label(op.ziel) is None:
            raise PatchError(f"„{op.ziel}“ ist eine ganze Aufgabe; zum Streichen einer Aufgabe „Aufgabe streichen“ "
                             f"verwenden, für eine Teilaufgabe z. B. „{ref}“ angeben.")
        if len(a.teilaufgaben) == 1:
            raise PatchError(f"{ref} ist die einzige Teilaufgabe von Aufgabe {a.nummer}. Bitte stattdessen die ganze "
                             f"Aufgabe streichen.")
        a.teilaufgaben.pop(self.index_of(a.teilaufgaben, teil))
        self.relabel.append(a)
        self.changes.append(f"{ref} entfernt ({teil.operator}, AFB {teil.afb}, {format_punkte(teil.punkte)})")

    def move_subtask(self, op: ops.MoveSubtask) -> None:
        ((a, teil, ref),) = self.sub(op.ziel)
        i = self.index_of(a.teilaufgaben, teil)
        j = self.position(op.position, len(a.teilaufgaben), f"Aufgabe {a.nummer}")
        if i == j:
            return
        a.teilaufgaben.insert(j, a.teilaufgaben.pop(i))
        self.relabel.append(a)
        self.changes.append(f"{ref} an Stelle {j + 1} von Aufgabe {a.nummer} verschoben")

    def add_task(self, op: ops.AddTask) -> None:
        neu = op.aufgabe
        if not neu.titel.strip():
            raise PatchError("Die neue Aufgabe braucht einen Titel.")
        if not neu.teilaufgaben:
            raise PatchError("Die neue Aufgabe braucht mindestens eine Teilaufgabe.")
        if neu.material is not None and not neu.material.strip():
            raise PatchError("Das Material der neuen Aufgabe ist leer – Material angeben oder weglassen.")
        teile = [self._neue_teilaufgabe(t, f"Neue Aufgabe, Teilaufgabe {i}")
                 for i, t in enumerate(neu.teilaufgaben, start=1)]
        a = Aufgabe(nummer=99, titel=neu.titel.strip(), material=(neu.material or "").strip() or None,
                    materialien=list(neu.materialien), teilaufgaben=teile)
        i = self.position(op.position, len(self.k.aufgaben) + 1, "Die Klausur")
        self.k.aufgaben.insert(i, a)
        self.relabel.append(a)
        self.changes.append(f"Neue Aufgabe an Stelle {i + 1}: „{shorten(a.titel)}“ ({format_punkte(a.punkte)})")

    def remove_task(self, op: ops.RemoveTask) -> None:
        a = self.task(op.ziel)
        if len(self.k.aufgaben) == 1:
            raise PatchError("Das ist die einzige Aufgabe der Klausur; sie kann nicht gestrichen werden.")
        self.k.aufgaben.pop(self.index_of(self.k.aufgaben, a))
        self.changes.append(f"Aufgabe {a.nummer} „{shorten(a.titel)}“ gestrichen ({format_punkte(a.punkte)})")

    def move_task(self, op: ops.MoveTask) -> None:
        a = self.task(op.ziel)
        i = self.index_of(self.k.aufgaben, a)
        j = self.position(op.position, len(self.k.aufgaben), "Die Klausur")
        if i == j:
            return
        self.k.aufgaben.insert(j, self.k.aufgaben.pop(i))
        self.changes.append(f"Aufgabe {a.nummer} „{shorten(a.titel)}“ an Stelle {j + 1} verschoben")

    def rewrite_erwartung(self, op: ops.RewriteErwartung) -> None:
        ((_, teil, ref),) = self.sub(op.ziel)
        erwartung = criteria(ref, op.erwartung)
        punkte = sum(c.punkte for c in erwartung)
        note = f", {format_punkte(teil.punkte)} → {format_punkte(punkte)}" if punkte != teil.punkte else ""
        teil.erwartung, teil.punkte = erwartung, punkte
        self.changes.append(f"{ref}: Erwartungshorizont neu gefasst ({anzahl(len(erwartung), 'Kriterium')}{note})")

    def result(self) -> Klausur:
        alt_total = self.total
        for nummer, a in enumerate(self.k.aufgaben, start=1):
            a.nummer = nummer
        for a in self.relabel:
            for i, t in enumerate(a.teilaufgaben):
                t.label = sub_label(i)
        neu_total = sum(a.punkte for a in self.k.aufgaben)
        if neu_total != alt_total:  # "insgesamt sind 45 Punkte erreichbar" must follow the new total
            self.k.hinweise = [re.sub(rf"\b{alt_total}(\s+Punkte)", rf"{neu_total}\1", h) for h in self.k.hinweise]
        try:
            return Klausur.model_validate(self.k.model_dump(mode="json"))
        except ValidationError as exc:
            log.warning("patch produced an invalid Klausur: %s", exc)
            raise PatchError("Die Änderung ergibt keine gültige Klausur (z. B. eine Teilaufgabe ohne Punkte). "
                             "Bitte die Angaben prüfen.") from exc
