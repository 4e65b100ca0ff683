"""Lineare Gleichungssysteme mit zwei Variablen (Klasse 8–9): solving, modelling a context and checking whether
a cashier's note can be right. Solutions are whole numbers or prices in cents, chosen before the equations.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import lcm

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import aufgabe, dez, euro, kl, poly, wahl

F = Fraction


def term2(a: Fraction | int, b: Fraction | int, u: str = "x", v: str = "y") -> str:
    """'2x + 3y', '−x − y', '5y' for a·u + b·v."""
    links = poly([a, 0], u) if a else ""
    if not b:
        return links or "0"
    rechts = poly([b, 0], v)
    if not links:
        return rechts
    return f"{links} {'−' if b < 0 else '+'} {rechts.lstrip('−')}"


def aufgeloest(var: str, rechts: Fraction, koeff: Fraction, wert: Fraction) -> str:
    """'x = −55 : (−11) = 5', or just 'x = 8' when the coefficient is 1."""
    if koeff == 1:
        return f"{var} = {dez(wert)}"
    return f"{var} = {dez(rechts)} : {kl(koeff)} = {dez(wert)}"


def additionsverfahren(g1: tuple, g2: tuple, u: str, v: str, wert_u: Fraction, wert_v: Fraction,
                       geld: bool = False) -> list[tuple[str, int]]:
    """Steps of the elimination of v, then back-substitution in I and a check in II. g = (a, b, c): a·u + b·v = c."""
    (a1, b1, c1), (a2, b2, c2) = g1, g2
    fmt = euro if geld else kl
    n = lcm(int(abs(b1) * 100), int(abs(b2) * 100)) / F(100)
    f1, f2 = n / abs(b1), n / abs(b2) * (-1 if (b1 > 0) == (b2 > 0) else 1)
    na, nc = f1 * a1 + f2 * a2, f1 * c1 + f2 * c2
    faktoren = ", ".join(f"{name} · {kl(f)}" for name, f in (("I", f1), ("II", f2)) if f != 1)
    zeilen = f"{term2(f1 * a1, f1 * b1, u, v)} = {dez(f1 * c1)} und {term2(f2 * a2, f2 * b2, u, v)} = {dez(f2 * c2)}"
    rest = c1 - a1 * wert_u
    addiert = f"{poly([na, 0], u)} = {dez(nc)}" + (f", also {aufgeloest(u, nc, na, wert_u)}" if na != 1 else "")
    eingesetzt = f"{poly([b1, 0], v)} = {dez(c1)} − {kl(a1)} · {kl(wert_u)} = {dez(rest)}"
    if b1 != 1:
        eingesetzt += f", also {aufgeloest(v, rest, b1, wert_v)}"
    return [
        (f"Additionsverfahren ({faktoren or 'ohne Umformung'}), damit {v} wegfällt: {zeilen}.", 1),
        (f"Addiert: {addiert}.", 1),
        (f"{u} in I eingesetzt: {eingesetzt}.", 1),
        (f"Probe in II: {kl(a2)} · {fmt(wert_u)} + {kl(b2)} · {fmt(wert_v)} = {fmt(c2)} stimmt.", 1),
    ]


def build_loesen(rng: random.Random, klasse: int) -> GeneratedTask:
    while True:
        x, y = F(rng.randint(-5, 9)), F(rng.randint(-5, 9))
        a1, b1, a2, b2 = (F(wahl(rng, [v for v in range(-6, 7) if v != 0])) for _ in range(4))
        if a1 * b2 - a2 * b1 != 0 and abs(b1) != abs(b2) and x != 0 and y != 0:
            c1, c2 = a1 * x + b1 * y, a2 * x + b2 * y
            if abs(c1) <= 60 and abs(c2) <= 60:
                break
    gl1, gl2 = f"{term2(a1, b1)} = {dez(c1)}", f"{term2(a2, b2)} = {dez(c2)}"
    text = (f"Löse das lineare Gleichungssystem mit einem Verfahren deiner Wahl und gib die Lösungsmenge an.\n"
            f"I: {gl1}\nII: {gl2}")
    schritte = additionsverfahren((a1, b1, c1), (a2, b2, c2), "x", "y", x, y)
    schritte.append((f"Lösungsmenge L = {{({dez(x)}|{dez(y)})}}; ein anderes Verfahren (Einsetzungs-, "
                     "Gleichsetzungsverfahren) mit richtigem Ergebnis ist gleichwertig.", 1))
    return aufgabe(operator="Lösen", afb="I", text=text, schritte=schritte, minuten=8,
                   werte={"I": gl1, "II": gl2}, ergebnis={"x": dez(x), "y": dez(y)})


# (text with {a1} {b1} {c1} {a2} {b2} {c2}, variable names, meanings, price range for u and v in cents, step)
_SACH = (
    ("Familie Weber zahlt im Freizeitbad für {a1} Erwachsene und {b1} Kinder zusammen {c1}. Familie Krüger zahlt für "
     "{a2} Erwachsene und {b2} Kinder {c2}. Bestimme die Eintrittspreise für einen Erwachsenen und für ein Kind.",
     ("e", "k"), ("Eintrittspreis eines Erwachsenen in €", "Eintrittspreis eines Kindes in €"),
     (700, 1400, 50), (300, 650, 50), "Ein Erwachsener zahlt {u}, ein Kind {v}."),
    ("Frau Aydın kauft auf dem Wochenmarkt {a1} kg Äpfel und {b1} kg Birnen für zusammen {c1}. Herr Lenz kauft am "
     "selben Stand {a2} kg Äpfel und {b2} kg Birnen für {c2}. Bestimme die Kilopreise von Äpfeln und Birnen.",
     ("a", "b"), ("Preis für 1 kg Äpfel in €", "Preis für 1 kg Birnen in €"),
     (180, 320, 10), (220, 380, 10), "1 kg Äpfel kostet {u}, 1 kg Birnen {v}."),
    ("Im Schulcafé bezahlt eine Lehrerin für {a1} Kaffee und {b1} Stück Kuchen {c1}. Ein Kollege bezahlt für {a2} "
     "Kaffee und {b2} Stück Kuchen {c2}. Bestimme den Preis für einen Kaffee und für ein Stück Kuchen.",
     ("k", "s"), ("Preis eines Kaffees in €", "Preis eines Stücks Kuchen in €"),
     (120, 250, 10), (150, 300, 10), "Ein Kaffee kostet {u}, ein Stück Kuchen {v}."),
)


def build_sachaufgabe(rng: random.Random, klasse: int) -> GeneratedTask:
    vorlage, (u, v), (bed_u, bed_v), (ulo, uhi, ust), (vlo, vhi, vst), antwort = wahl(rng, _SACH)
    while True:
        pu, pv = F(wahl(rng, range(ulo, uhi + 1, ust)), 100), F(wahl(rng, range(vlo, vhi + 1, vst)), 100)
        a1, b1, a2, b2 = (F(rng.randint(2, 5)) for _ in range(4))
        if a1 * b2 != a2 * b1 and pu != pv and abs(b1) != abs(b2):
            break
    c1, c2 = a1 * pu + b1 * pv, a2 * pu + b2 * pv
    text = vorlage.format(a1=dez(a1), b1=dez(b1), c1=euro(c1), a2=dez(a2), b2=dez(b2), c2=euro(c2))
    schritte = [
        (f"Variablen festgelegt: {u}: {bed_u}, {v}: {bed_v}.", 1),
        (f"Gleichungssystem: I: {term2(a1, b1, u, v)} = {dez(c1)} und II: {term2(a2, b2, u, v)} = {dez(c2)}.", 2),
        *additionsverfahren((a1, b1, c1), (a2, b2, c2), u, v, pu, pv)[:3],
        (f"Antwortsatz: {antwort.format(u=euro(pu), v=euro(pv))} Probe in II: {dez(a2)} · {euro(pu)} + {dez(b2)} · "
         f"{euro(pv)} = {euro(c2)}.", 1),
    ]
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=12,
                   werte={"I": f"{term2(a1, b1, u, v)} = {dez(c1)}", "II": f"{term2(a2, b2, u, v)} = {dez(c2)}"},
                   ergebnis={u: euro(pu), v: euro(pv)})


# (context, item u with price, item v with price, unit word)
_KASSE = (
    ("Am Kuchenstand der Klasse {kl} kostet ein Stück Kuchen {pu}, eine Waffel {pv}.", "Stück Kuchen", "Waffeln",
     F(2), F(1), "Teile"),
    ("Beim Schulkonzert kostet eine Karte für Erwachsene {pu}, für Schülerinnen und Schüler {pv}.", "Erwachsenenkarten",
     "Schülerkarten", F(6), F(7, 2), "Karten"),
    ("Beim Sponsorenlauf verkauft die Klasse {kl} Getränke: eine Flasche Wasser für {pu}, eine Apfelschorle für {pv}.",
     "Flaschen Wasser", "Apfelschorlen", F(1), F(9, 5), "Getränke"),
)


def build_pruefen(rng: random.Random, klasse: int) -> GeneratedTask:
    kontext, name_u, name_v, pu, pv, wort = wahl(rng, _KASSE)
    fall = wahl(rng, ("passt", "bruch", "negativ"))
    x, y = rng.randint(15, 60), rng.randint(15, 60)
    n = x + y
    e = pu * x + pv * y
    if fall == "bruch":
        e += wahl(rng, [d for d in (F(1, 2), F(1), F(3, 2)) if (d / (pu - pv)).denominator != 1])
    elif fall == "negativ":
        e = max(pu, pv) * n + wahl(rng, (F(5), F(10), F(15)))
    xu = (e - pv * n) / (pu - pv)
    yv = n - xu
    kl_name = f"{klasse}{wahl(rng, 'abc')}"
    text = (kontext.format(kl=kl_name, pu=euro(pu), pv=euro(pv)) + f" Abends steht im Kassenbuch: „Verkauft: {n} "
            f"{wort}, Einnahmen: {euro(e)}.“ Beurteile mithilfe eines linearen Gleichungssystems, ob diese Angaben "
            "stimmen können.")
    ganz = xu.denominator == 1 and yv.denominator == 1
    if ganz and xu >= 0 and yv >= 0:
        deutung = (f"Deutung: {dez(xu)} {name_u} und {dez(yv)} {name_v} sind natürliche Zahlen, die Angaben passen "
                   "zusammen.")
        urteil = ("Urteil: Die Angaben können stimmen; die Rechnung zeigt aber nur, dass sie widerspruchsfrei sind, "
                  "nicht, dass wirklich so viel verkauft wurde.")
    else:
        grund = "keine ganzen Zahlen" if not ganz else "eine negative Anzahl"
        deutung = f"Deutung: Die Lösung liefert {grund}; Anzahlen verkaufter Dinge müssen natürliche Zahlen sein."
        if ganz:
            deutung += (" Zur Kontrolle: Selbst wenn nur das teurere Angebot verkauft worden wäre, ergäbe das "
                        f"höchstens {dez(n)} · {euro(max(pu, pv))} = {euro(n * max(pu, pv))}.")
        urteil = ("Urteil: Die Angaben können nicht beide stimmen; vermutlich wurde falsch gezählt oder Wechselgeld "
                  "falsch herausgegeben.")
    schritte = [
        (f"Variablen: x Anzahl {name_u}, y Anzahl {name_v}; I: x + y = {n}, II: {term2(pu, pv)} = {dez(e)}.", 2),
        (f"I nach y umgestellt und in II eingesetzt: {poly([pu, 0])} + "
         f"{'' if pv == 1 else kl(pv) + ' · '}({n} − x) = {dez(e)}, also {poly([pu - pv, 0])} = {dez(e)} − "
         f"{dez(pv * n)} = {dez(e - pv * n)}.", 1),
        (f"x = {dez(e - pv * n)} : {kl(pu - pv)} {gerundet(xu)}; y = {n} − x {gerundet(yv)}." if pu - pv != 1 else
         f"y = {n} − x {gerundet(yv)}.", 1),
        (f"Kontrolle in II: {dez(pu)} · {_operand(xu)} + {dez(pv)} · {_operand(yv)} "
         f"{'=' if (xu * 100).denominator == 1 else '≈'} {dez(e)}.", 1),
        (deutung, 1),
        (urteil, 1),
    ]
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=12,
                   werte={"preis_u": euro(pu), "preis_v": euro(pv), "anzahl": str(n), "einnahmen": euro(e)},
                   ergebnis={"x": zahl_oder_bruch_text(xu), "y": zahl_oder_bruch_text(yv),
                             "moeglich": "ja" if ganz and xu >= 0 and yv >= 0 else "nein"})


def zahl_oder_bruch_text(x: Fraction) -> str:
    """Integers and short decimals as decimals, else rounded to two places."""
    return dez(x) if (x * 100).denominator == 1 else dez(x, 2)


def _operand(x: Fraction) -> str:
    text = zahl_oder_bruch_text(x)
    return f"({text})" if x < 0 else text


def gerundet(x: Fraction) -> str:
    """'= 26' or '≈ 17,33': the relation sign that fits the shown value."""
    return f"{'=' if (x * 100).denominator == 1 else '≈'} {zahl_oder_bruch_text(x)}"


_THEMA = "Lineare Gleichungssysteme"
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.lgs.loesen", fach="mathematik", thema=_THEMA,
              unterthema="Gleichungssysteme mit zwei Variablen lösen",
              schlagworte=("Gleichungssystem", "LGS", "Additionsverfahren", "Einsetzungsverfahren",
                           "Gleichsetzungsverfahren", "zwei Variablen"),
              klassenstufen=(8, 9), afb="I", operator="Lösen", build=build_loesen),
    Generator(key="mathematik.lgs.sachaufgabe", fach="mathematik", thema=_THEMA,
              unterthema="Sachaufgaben mit Gleichungssystemen",
              schlagworte=("Gleichungssystem", "LGS", "Sachaufgabe", "Textaufgabe", "Preise", "Modellieren"),
              klassenstufen=(8, 9), afb="II", operator="Bestimmen", build=build_sachaufgabe),
    Generator(key="mathematik.lgs.kasse_pruefen", fach="mathematik", thema=_THEMA,
              unterthema="Angaben mit einem Gleichungssystem überprüfen",
              schlagworte=("Gleichungssystem", "LGS", "Sachaufgabe", "überprüfen", "Lösbarkeit", "Modellieren"),
              klassenstufen=(8, 9), afb="III", operator="Beurteilen", build=build_pruefen),
)
