"""Prozentrechnung (Klasse 7–8): Rabatt, Mehrwertsteuer, Grundwert and Prozentsatz, and judging offers and claims.
Prices are whole euros and percentages multiples of five (or 19 %/7 %), so every amount comes out in whole cents.
"""

from __future__ import annotations

import random
from fractions import Fraction

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.mathematik.bausteine import aufgabe, dez, euro, prozent, runde, wahl

# (subject at the start of a sentence, verb, lowest price, highest price, step)
WAREN = (
    ("Eine Winterjacke", "kostet", 60, 160, 10), ("Ein Fahrrad", "kostet", 300, 900, 50),
    ("Kabellose Kopfhörer", "kosten", 40, 120, 10), ("Ein Schulrucksack", "kostet", 40, 90, 5),
    ("Eine Spielkonsole", "kostet", 250, 500, 10), ("Ein Paar Fußballschuhe", "kostet", 60, 140, 10),
)
NAMEN = ("Jana", "Malte", "Elif", "Noah", "Marie", "Luca", "Hannah", "Emil")


def faktor(p: Fraction, plus: bool) -> Fraction:
    return 1 + p / 100 if plus else 1 - p / 100


def _preis(rng: random.Random, lo: int, hi: int, step: int) -> int:
    return wahl(rng, range(lo, hi + 1, step))


def _rabatt(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    ware, verb, lo, hi, step = wahl(rng, WAREN)
    g, p = _preis(rng, lo, hi, step), Fraction(wahl(rng, (10, 15, 20, 25, 30, 40)))
    r = g * p / 100
    n = g - r
    text = (f"{ware} {verb} {euro(g)}. Im Schlussverkauf wird der Preis um {prozent(p)} reduziert. Berechne den "
            "Preisnachlass in Euro und den neuen Preis.")
    schritte = [(f"Preisnachlass: {prozent(p)} von {euro(g)} = {euro(r)}.", 1),
                (f"Neuer Preis: {euro(g)} − {euro(r)} = {euro(n)}.", 1),
                (f"Kontrolle mit dem Faktor: {euro(g)} · {dez(faktor(p, False))} = {euro(n)}; Antwortsatz mit "
                 "Einheit.", 1)]
    return text, schritte, {"art": "rabatt", "preis": euro(g), "prozentsatz": prozent(p)}, \
        {"nachlass": euro(r), "neu": euro(n)}


_MWST_KONTEXTE = (
    ("Ein Malerbetrieb berechnet für das Streichen eines Klassenraums {n} netto. Dazu kommen 19 % Mehrwertsteuer.",
     19, (400, 1500, 50)),
    ("Ein Laptop wird im Onlineshop für Geschäftskunden für {n} ohne Mehrwertsteuer angeboten. Privatkunden zahlen "
     "zusätzlich 19 % Mehrwertsteuer.", 19, (400, 1200, 10)),
    ("Ein Partyservice berechnet für das Buffet des Abiballs {n} zuzüglich 7 % Mehrwertsteuer.", 7,
     (600, 2000, 100)),
)


def _mwst(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    vorlage, satz, (lo, hi, step) = wahl(rng, _MWST_KONTEXTE)
    n, p = _preis(rng, lo, hi, step), Fraction(satz)
    m = n * p / 100
    b = n + m
    text = vorlage.format(n=euro(n)) + " Berechne die Mehrwertsteuer und den Endpreis."
    schritte = [(f"Mehrwertsteuer: {prozent(p)} von {euro(n)} = {euro(m)}.", 1),
                (f"Endpreis: {euro(n)} + {euro(m)} = {euro(b)}.", 1),
                (f"Kontrolle mit dem Faktor: {euro(n)} · {dez(faktor(p, True))} = {euro(b)}; Antwortsatz mit "
                 "Einheit.", 1)]
    return text, schritte, {"art": "mwst", "netto": euro(n), "prozentsatz": prozent(p)}, \
        {"mwst": euro(m), "brutto": euro(b)}


_ERHOEHUNG_KONTEXTE = (
    ("Der Monatsbeitrag im Fitnessstudio", 20, 45), ("Der Monatsbeitrag im Sportverein", 10, 30),
    ("Die Monatskarte für Bus und Bahn", 30, 60), ("Die Miete für einen Stellplatz in der Tiefgarage", 40, 90),
)


def _erhoehung(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    was, lo, hi = wahl(rng, _ERHOEHUNG_KONTEXTE)
    g, p = _preis(rng, lo, hi, 1), Fraction(wahl(rng, (4, 5, 6, 8, 10, 12, 15)))
    e = g * p / 100
    n = g + e
    text = (f"{was} beträgt {euro(g)}. Er soll im nächsten Jahr um {prozent(p)} steigen. Berechne die Erhöhung "
            "in Euro und den neuen Betrag.")
    if was.startswith("Die"):
        text = text.replace(" Er soll", " Sie soll")
    schritte = [(f"Erhöhung: {prozent(p)} von {euro(g)} = {euro(e)}.", 1),
                (f"Neuer Betrag: {euro(g)} + {euro(e)} = {euro(n)}.", 1),
                (f"Kontrolle mit dem Faktor: {euro(g)} · {dez(faktor(p, True))} = {euro(n)}; Antwortsatz mit "
                 "Einheit.", 1)]
    return text, schritte, {"art": "erhoehung", "preis": euro(g), "prozentsatz": prozent(p)}, \
        {"erhoehung": euro(e), "neu": euro(n)}


def build_prozentwert(rng: random.Random, klasse: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = wahl(rng, (_rabatt, _mwst, _erhoehung))(rng)
    return aufgabe(operator="Berechnen", afb="I", text=text, schritte=schritte, minuten=4, werte=werte,
                   ergebnis=ergebnis)


def _alter_wert(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    if rng.random() < 0.5:
        ware, verb, lo, hi, step = wahl(rng, WAREN)
        g, p, plus = _preis(rng, lo, hi, step), Fraction(wahl(rng, (10, 20, 25, 30, 40))), False
        n = g * faktor(p, plus)
        text = (f"Im Sale {verb} {ware[0].lower()}{ware[1:]} nach einer Preissenkung um {prozent(p)} nur noch "
                f"{euro(n)}. Bestimme den ursprünglichen Preis.")
    else:
        name = wahl(rng, NAMEN)
        g, p, plus = Fraction(wahl(rng, range(800, 1201, 20))), Fraction(wahl(rng, (2, 3, 4, 5, 6))), True
        n = g * faktor(p, plus)
        text = (f"Nach einer Erhöhung um {prozent(p)} beträgt die Ausbildungsvergütung von {name} jetzt {euro(n)} im "
                "Monat. Bestimme die Vergütung vor der Erhöhung.")
    q = faktor(p, plus)
    zeichen = "+" if plus else "−"
    falsch = n - n * p / 100 if plus else n + n * p / 100
    schritte = [
        (f"Der neue Wert entspricht 100 % {zeichen} {prozent(p)} = {prozent(q * 100)} des alten Werts (Grundwert "
         "gesucht).", 1),
        (f"Grundwert: G = {euro(n)} : {dez(q)} = {euro(g)}.", 1),
        (f"Probe: {prozent(p)} von {euro(g)} = {euro(g * p / 100)}, und {euro(g)} {zeichen} {euro(g * p / 100)} = "
         f"{euro(n)}.", 1),
        (f"Die {prozent(p)} beziehen sich auf den alten Wert; {euro(n)} {'−' if plus else '+'} {prozent(p)} von "
         f"{euro(n)} = {euro(runde(falsch, 2))} wäre deshalb falsch.", 1),
    ]
    return text, schritte, {"art": "grundwert", "neu": euro(n), "prozentsatz": prozent(p),
                            "richtung": "plus" if plus else "minus"}, {"grundwert": euro(g)}


def _netto(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    n = Fraction(wahl(rng, range(100, 1001, 10)))
    b = n * Fraction(119, 100)
    was = wahl(rng, ("die Reparatur eines Rollers", "einen neuen Drucker für das Büro", "die Wartung der Heizung"))
    text = (f"Auf einer Rechnung für {was} steht der Endbetrag {euro(b)} einschließlich 19 % Mehrwertsteuer. Bestimme "
            "den Nettobetrag und die enthaltene Mehrwertsteuer.")
    falsch = runde(b * Fraction(81, 100), 2)
    schritte = [("Der Endbetrag entspricht 100 % + 19 % = 119 % des Nettobetrags (Grundwert gesucht).", 1),
                (f"Nettobetrag: {euro(b)} : 1,19 = {euro(n)}.", 1),
                (f"Mehrwertsteuer: {euro(b)} − {euro(n)} = {euro(b - n)}.", 1),
                (f"Falsch wäre, 19 % vom Endbetrag abzuziehen: {euro(b)} · 0,81 ≈ {euro(falsch)}, das ist nicht der "
                 "Nettobetrag.", 1)]
    return text, schritte, {"art": "netto", "brutto": euro(b), "prozentsatz": "19 %"}, \
        {"netto": euro(n), "mwst": euro(b - n)}


_SATZ_KONTEXTE = (
    ("Die Einwohnerzahl einer Gemeinde", (8000, 40000, 500)), ("Die Zahl der Mitglieder eines Sportvereins",
                                                                 (400, 1600, 100)),
    ("Die Zahl der Besucherinnen und Besucher eines Zoos pro Jahr", (120000, 400000, 10000)),
)


def _prozentsatz(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    was, (lo, hi, step) = wahl(rng, _SATZ_KONTEXTE)
    a = _preis(rng, lo, hi, step)
    p = Fraction(wahl(rng, (2, 3, 4, 5, 6, 8, 12, 15))) * wahl(rng, (1, -1))
    b = a * (1 + p / 100)
    d = b - a
    wort = "gestiegen" if p > 0 else "gesunken"
    text = (f"{was} ist innerhalb eines Jahres von {dez(a)} auf {dez(b)} {wort}. Bestimme die prozentuale "
            f"{'Zunahme' if p > 0 else 'Abnahme'}.")
    schritte = [(f"Änderung: {dez(b)} − {dez(a)} = {dez(d)}.", 1),
                ("Grundwert ist der alte Wert, auf den sich die Änderung bezieht.", 1),
                (f"Prozentsatz: {dez(abs(d))} : {dez(a)} = {dez(abs(p) / 100)} = {prozent(abs(p))}.", 1),
                (f"Antwortsatz: Die Zahl ist um {prozent(abs(p))} {wort}.", 1)]
    return text, schritte, {"art": "prozentsatz", "alt": dez(a), "neu": dez(b)}, {"prozentsatz": prozent(p)}


def build_grundwert(rng: random.Random, klasse: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = wahl(rng, (_alter_wert, _netto, _prozentsatz))(rng)
    return aufgabe(operator="Bestimmen", afb="II", text=text, schritte=schritte, minuten=6, werte=werte,
                   ergebnis=ergebnis)


_ANGEBOT_WAREN = (("ein E-Bike", 1500, 3000, 100), ("eine Waschmaschine", 400, 900, 50),
                  ("ein Laptop", 600, 1400, 50), ("ein Sofa", 800, 1600, 100))


def _skonto(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    ware, lo, hi, step = wahl(rng, _ANGEBOT_WAREN)
    while True:
        g = Fraction(_preis(rng, lo, hi, step))
        r1, s = Fraction(wahl(rng, (10, 15, 20))), Fraction(wahl(rng, (2, 3, 5)))
        r2 = r1 + s - wahl(rng, (0, 0, 1, 2))
        a1 = g * faktor(r1, False)
        a = a1 * faktor(s, False)
        b = g * faktor(r2, False)
        if a != b:
            break
    guenstiger, diff = ("B", a - b) if b < a else ("A", b - a)
    gesamt = faktor(r1, False) * faktor(s, False)
    familie = wahl(rng, ("Öztürk", "Schneider", "Nowak", "Berger", "Wagner"))
    text = (f"Familie {familie} möchte {ware} für {euro(g)} kaufen. Händler A gewährt {prozent(r1)} Rabatt und auf "
            f"den reduzierten Preis zusätzlich {prozent(s)} Skonto bei Barzahlung. Händler B gewährt einmalig "
            f"{prozent(r2)} Rabatt. Herr {familie} meint: „{prozent(r1)} und {prozent(s)} sind zusammen "
            f"{prozent(r1 + s)}, also ist A mindestens so gut wie B.“ Beurteile die Aussage und gib an, welches "
            "Angebot günstiger ist.")
    schritte = [
        (f"Angebot A, Rabatt: {euro(g)} · {dez(faktor(r1, False))} = {euro(a1)}.", 1),
        (f"Angebot A, Skonto auf den reduzierten Preis: {euro(a1)} · {dez(faktor(s, False))} = {euro(a)}.", 1),
        (f"Angebot B: {euro(g)} · {dez(faktor(r2, False))} = {euro(b)}.", 1),
        (f"Vergleich: Angebot {guenstiger} ist um {euro(diff)} günstiger.", 1),
        (f"Begründung: Die Nachlässe addieren sich nicht, weil sich das Skonto auf den bereits reduzierten Preis "
         f"bezieht: {dez(faktor(r1, False))} · {dez(faktor(s, False))} = {dez(gesamt)}, also nur "
         f"{prozent((1 - gesamt) * 100)} Nachlass insgesamt.", 1),
        ((f"Urteil: Das Ergebnis stimmt hier zwar (A ist günstiger), die Begründung aber nicht: A gewährt "
          f"insgesamt nur {prozent((1 - gesamt) * 100)}, B mit {prozent(r2)} aber noch weniger." if guenstiger == "A"
          else f"Urteil: Die Aussage ist falsch; A gewährt insgesamt nur {prozent((1 - gesamt) * 100)}, B ist "
          "günstiger.") + " Gleiche Leistung (Garantie, Lieferung) vorausgesetzt.", 1),
    ]
    return text, schritte, {"art": "skonto", "preis": euro(g), "rabatt_a": prozent(r1), "skonto_a": prozent(s),
                            "rabatt_b": prozent(r2)}, {"a": euro(a), "b": euro(b), "guenstiger": guenstiger}


def _hin_und_zurueck(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    ware, verb, lo, hi, step = wahl(rng, WAREN)
    g = Fraction(_preis(rng, lo, hi, step))
    if rng.random() < 0.7:
        p = q = Fraction(wahl(rng, (10, 20, 25, 30, 40)))
        erst_hoch = rng.random() < 0.5
        aussage = "Jetzt ist der Preis wieder genauso hoch wie vorher."
    else:
        p, q, erst_hoch = Fraction(25), Fraction(20), True
        aussage = "Die Kunden sparen jetzt also 5 % gegenüber dem ursprünglichen Preis."
    f1, f2 = (faktor(p, True), faktor(q, False)) if erst_hoch else (faktor(p, False), faktor(q, True))
    z = g * f1
    e = z * f2
    w1, w2 = ("erhöht", "gesenkt") if erst_hoch else ("gesenkt", "erhöht")
    text = (f"{ware} {verb} {euro(g)}. Der Preis wird erst um {prozent(p)} {w1} und einige Wochen später um "
            f"{prozent(q)} {w2}. Ein Kunde behauptet: „{aussage}“ Beurteile diese Aussage.")
    vergleich = ("genau beim Ausgangspreis" if e == g else
                 f"{euro(abs(g - e))} {'unter' if e < g else 'über'} dem Ausgangspreis")
    schritte = [
        (f"Nach der ersten Änderung: {euro(g)} · {dez(f1)} = {euro(z)}.", 1),
        (f"Nach der zweiten Änderung: {euro(z)} · {dez(f2)} = {euro(e)}.", 1),
        (f"Vergleich: Der Endpreis liegt {vergleich}.", 1),
        (f"Allgemein: {dez(f1)} · {dez(f2)} = {dez(f1 * f2)}; die zweite Änderung bezieht sich auf den geänderten "
         "Preis als neuen Grundwert.", 1),
        ("Urteil: Die Aussage ist falsch, "
         + ("der Preis ist nicht wieder der alte, sondern niedriger." if e < g else
            "die Kunden zahlen genau den ursprünglichen Preis und sparen nichts.") + "", 1),
    ]
    return text, schritte, {"art": "hin_und_zurueck", "preis": euro(g), "erst": prozent(p), "dann": prozent(q),
                            "richtung": "hoch" if erst_hoch else "runter"}, {"endpreis": euro(e)}


_MENGEN_WAREN = (("ein T-Shirt", "T-Shirts", 10, 25), ("eine Dose Tennisbälle", "Dosen Tennisbälle", 5, 12),
                 ("eine Flasche Sonnencreme", "Flaschen Sonnencreme", 8, 16),
                 ("ein Federball-Set", "Federball-Sets", 12, 24))


def _drei_fuer_zwei(rng: random.Random) -> tuple[str, list[tuple[str, int]], dict[str, str], dict[str, str]]:
    einzeln, mehrzahl, lo, hi = wahl(rng, _MENGEN_WAREN)
    p, r = Fraction(wahl(rng, range(lo, hi + 1))), Fraction(wahl(rng, (20, 25, 30, 35, 40)))
    k = wahl(rng, (2, 4, 5, 3, 6))
    name = wahl(rng, NAMEN)
    a = (k - k // 3) * p
    b = k * p * faktor(r, False)
    besser = "A" if a < b else ("B" if b < a else "beide gleich")
    text = (f"{name} braucht {k} {mehrzahl}. In zwei Geschäften kostet {einzeln} jeweils {euro(p)}. "
            f"Geschäft A wirbt mit „Nimm 3, zahl 2“, Geschäft B mit „{prozent(r)} auf alles“. Beurteile, in welchem "
            f"Geschäft {name} einkaufen sollte, und begründe allgemein, wann sich Angebot A lohnt.")
    k3 = -(-k // 3) * 3
    a3 = (k3 - k3 // 3) * p
    schritte = [
        (f"Geschäft A: {k} Stück, davon {k // 3 or 'keins'} gratis: {k - k // 3} · {euro(p)} = {euro(a)}.", 1),
        (f"Geschäft B: {k} · {euro(p)} · {dez(faktor(r, False))} = {euro(b)}.", 1),
        ("Vergleich: " + (f"Geschäft {besser} ist günstiger" if besser != "beide gleich" else
                          "Beide kosten gleich viel") + f" (Unterschied {euro(abs(a - b))}).", 1),
        ("„Nimm 3, zahl 2“ entspricht beim Kauf von genau 3 Stück einem Nachlass von 1/3 ≈ 33,3 %, aber nur für "
         "volle Dreiergruppen; B gewährt den Nachlass auf jedes Stück.", 1),
        (f"Allgemein: A lohnt sich nur, wenn man Vielfache von 3 kauft und der Rabatt bei B unter 33,3 % liegt "
         f"(hier {prozent(r)}" + ("" if r < 33 else ", also ist B sogar bei vollen Dreiergruppen günstiger") + ").", 1),
        (f"Urteil im Sachkontext: {name} sollte in Geschäft {besser if besser != 'beide gleich' else 'A oder B'} "
         f"kaufen" + _zusatz_dreier(name, k, k3, a3, b), 1),
    ]
    return text, schritte, {"art": "drei_fuer_zwei", "stueckpreis": euro(p), "rabatt_b": prozent(r),
                            "anzahl": str(k)}, {"a": euro(a), "b": euro(b)}


def _zusatz_dreier(name: str, k: int, k3: int, a3: Fraction, b: Fraction) -> str:
    if k3 == k:
        return "."
    if a3 < b:
        return (f"; {k3} Stück kosten bei A nur {euro(a3)} – wenn {name} die zusätzlichen Stücke gebrauchen kann, "
                "ist A sogar die bessere Wahl.")
    return f"; auch {k3} Stück bei A ({euro(a3)}) wären nicht günstiger als {k} Stück bei B."


def build_angebote(rng: random.Random, klasse: int) -> GeneratedTask:
    text, schritte, werte, ergebnis = wahl(rng, (_skonto, _hin_und_zurueck, _drei_fuer_zwei))(rng)
    return aufgabe(operator="Beurteilen", afb="III", text=text, schritte=schritte, minuten=10, werte=werte,
                   ergebnis=ergebnis)


_THEMA = "Prozentrechnung"
GENERATORS: tuple[Generator, ...] = (
    Generator(key="mathematik.prozent.prozentwert", fach="mathematik", thema=_THEMA,
              unterthema="Rabatt, Mehrwertsteuer und Preiserhöhung berechnen",
              schlagworte=("Prozent", "Prozentrechnung", "Prozentwert", "Rabatt", "Mehrwertsteuer", "Preis"),
              klassenstufen=(7, 8), afb="I", operator="Berechnen", build=build_prozentwert),
    Generator(key="mathematik.prozent.grundwert", fach="mathematik", thema=_THEMA,
              unterthema="Grundwert und Prozentsatz bestimmen",
              schlagworte=("Prozent", "Prozentrechnung", "Grundwert", "Prozentsatz", "Netto", "Brutto"),
              klassenstufen=(7, 8), afb="II", operator="Bestimmen", build=build_grundwert),
    Generator(key="mathematik.prozent.angebote", fach="mathematik", thema=_THEMA,
              unterthema="Angebote und Behauptungen zu Prozenten beurteilen",
              schlagworte=("Prozent", "Prozentrechnung", "Rabatt", "Skonto", "Angebote vergleichen", "Preisvergleich"),
              klassenstufen=(7, 8), afb="III", operator="Beurteilen", build=build_angebote),
)
