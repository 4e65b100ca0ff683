"""Physik generators for motion: average speed, uniformly accelerated motion, stopping distance, a v-t table.

Speeds are chosen in m/s so that the km/h values and every derived quantity come out as clean decimals.
"""

from __future__ import annotations

import random
from fractions import Fraction as F

from core.composition.generators.base import GeneratedTask, Generator
from core.composition.generators.physik.common import aufgabe, gr, runden, tabelle, terminiert, z

KMH = F(18, 5)  # 1 m/s = 3,6 km/h

# --- average speed ---------------------------------------------------------------------------------------------------

_REISEN = (
    # (situation with {s} and {t}, speeds in m/s, times, unit of time, unit of distance)
    ("{name} fährt mit dem Fahrrad zur Schule. Für den {s} langen Schulweg braucht {er} {t}.",
     (4, 5, 6), (8, 10, 12, 15), "min", "km"),
    ("Ein Regionalexpress fährt ohne Zwischenhalt zwischen zwei Bahnhöfen. Für die {s} lange Strecke braucht er {t}.",
     (20, 25, 30, 35), (12, 15, 20, 24, 30), "min", "km"),
    ("Beim Lauftraining läuft {name} eine Runde von {s} Länge in {t}.",
     (F(5, 2), 3, F(7, 2), 4), (20, 25, 30, 40), "min", "km"),
    ("{name} schwimmt im Training {s} in {t}.",
     (F(4, 5), 1, F(5, 4), F(8, 5)), (80, 100, 125, 160, 200, 250, 320), "s", "m"),
    ("Ein Passagierflugzeug legt im Reiseflug in {t} eine Strecke von {s} zurück.",
     (200, 220, 240, 250), (30, 45, 60, 90), "min", "km"),
)
_NAMEN = (("Lena", "sie"), ("Jonas", "er"), ("Aylin", "sie"), ("Mats", "er"), ("Sophie", "sie"), ("Emil", "er"),
          ("Zeynep", "sie"), ("Paul", "er"))


def _durchschnitt(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, speeds, zeiten, t_einheit, s_einheit = rng.choice(_REISEN)
    while True:
        v, t = F(rng.choice(speeds)), rng.choice(zeiten)
        t_s = t * 60 if t_einheit == "min" else t
        s_m = v * t_s
        if s_einheit == "km" or s_m % 25 == 0:
            break
    s = s_m / 1000 if s_einheit == "km" else s_m
    s_text, t_text = gr(s, s_einheit), gr(t, t_einheit)
    name, er = rng.choice(_NAMEN)
    situation = vorlage.format(name=name, er=er, s=s_text, t=t_text)
    text = f"{situation} Berechne die Durchschnittsgeschwindigkeit in m/s und in km/h."
    if s_einheit == "km" or t_einheit == "min":
        umrechnen = f"Umrechnen in Grundeinheiten: s = {s_text} = {gr(s_m, 'm')} und t = {t_text} = {gr(t_s, 's')}."
    else:
        umrechnen = f"Werte mit Einheiten: s = {s_text} und t = {t_text}."
    schritte = [
        ("Ansatz: v = s / t.", 1),
        (umrechnen, 1),
        (f"v = {gr(s_m, 'm')} / {gr(t_s, 's')} = {gr(v, 'm/s')}.", 1),
        (f"Umrechnung: v = {gr(v, 'm/s')} = {z(v)} · 3,6 km/h = {gr(v * KMH, 'km/h')}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Berechnen", afb="I", text=text, schritte=schritte,
                   minuten=5, werte={"s": s_text, "t": t_text},
                   ergebnis={"v": gr(v, "m/s"), "v_kmh": gr(v * KMH, "km/h")})


# --- uniformly accelerated motion ------------------------------------------------------------------------------------

_ANFAHREN = (
    # (situation with {t} and {v}, pronoun, speeds in m/s, times in s, speed given in km/h?)
    ("Ein Auto beschleunigt an einer Ampel gleichmäßig aus dem Stand und erreicht nach {t} eine Geschwindigkeit "
     "von {v}.", "es", (10, 15, 20), (4, 5, 6, 8, 10), True),
    ("Ein Motorrad beschleunigt gleichmäßig aus dem Stand und hat nach {t} eine Geschwindigkeit von {v}.", "es",
     (20, 25, 30), (4, 5, 6, 8), True),
    ("Eine S-Bahn fährt gleichmäßig beschleunigt aus dem Bahnhof an und hat nach {t} eine Geschwindigkeit von {v}.",
     "sie", (15, 20, 25), (20, 25, 30, 40, 50), True),
    ("Ein Passagierflugzeug beschleunigt auf der Startbahn gleichmäßig aus dem Stand und hebt nach {t} mit einer "
     "Geschwindigkeit von {v} ab.", "es", (70, 75, 80), (25, 30, 35, 40), True),
    ("Eine Sprinterin beschleunigt nach dem Startschuss gleichmäßig und erreicht nach {t} ihre Höchstgeschwindigkeit "
     "von {v}.", "sie", (8, 9, 10), (2, F(5, 2), 4, 5), False),
)


def _beschleunigung(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, pronomen, speeds, zeiten, in_kmh = rng.choice(_ANFAHREN)
    while True:
        v, t = F(rng.choice(speeds)), F(rng.choice(zeiten))
        a = v / t
        if terminiert(a) and runden(a, 2) == a:
            break
    s = a * t * t / 2
    v_text = gr(v * KMH, "km/h") if in_kmh else gr(v, "m/s")
    text = (vorlage.format(t=gr(t, "s"), v=v_text) + f" Bestimme die Beschleunigung und den Weg, den {pronomen} "
            "in dieser Zeit zurücklegt.")
    if in_kmh:
        erster = f"Umrechnung der Endgeschwindigkeit: {v_text} = {gr(v, 'm/s')}; Start aus dem Stand, also Δv = " \
                 f"{gr(v, 'm/s')}."
    else:
        erster = f"Start aus dem Stand, also Δv = {gr(v, 'm/s')} − 0 m/s = {gr(v, 'm/s')}."
    schritte = [
        (erster, 1),
        ("Ansatz: a = Δv / Δt.", 1),
        (f"a = {gr(v, 'm/s')} / {gr(t, 's')} = {gr(a, 'm/s²')}.", 1),
        ("Ansatz für den Weg bei gleichmäßiger Beschleunigung aus dem Stand: s = ½ · a · t².", 1),
        (f"s = ½ · {gr(a, 'm/s²')} · ({gr(t, 's')})² = {gr(s, 'm')}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Bestimmen", afb="II", text=text, schritte=schritte,
                   minuten=7, werte={"v": gr(v, "m/s"), "t": gr(t, "s")},
                   ergebnis={"a": gr(a, "m/s²"), "s": gr(s, "m")})


# --- stopping distance: judging a claim ------------------------------------------------------------------------------

_GEFAHREN = (
    # (place with the limit, obstacle, speeds driven, allowed speed, braking deceleration, reaction time, who)
    ("Vor einer Grundschule gilt Tempo 30. Ein Autofahrer fährt dort mit {v1}. Plötzlich läuft {d} vor dem Auto "
     "ein Kind auf die Fahrbahn.", (40, 50), 30, F(8), F(1), "dem Kind"),
    ("In einer Wohnstraße gilt Tempo 30. Bei Regen fährt eine Autofahrerin dort mit {v1}. "
     "{d} vor ihr tritt ein Fußgänger zwischen zwei parkenden Autos hervor.", (40, 50), 30, F(5), F(1),
     "dem Fußgänger"),
    ("Auf einer Landstraße gilt wegen Wildwechsels Tempo 70. Eine Autofahrerin fährt dort mit {v1}. {d} vor ihr "
     "springt ein Reh auf die Straße.", (90, 100), 70, F(8), F(1), "dem Reh"),
    ("Vor einer Baustelle auf der Bundesstraße gilt Tempo 60. Ein Fahrer fährt mit {v1} und schaut kurz auf sein "
     "Handy, sodass er verspätet reagiert. {d} vor ihm taucht ein Stauende auf.", (80, 90), 60, F(8), F(2),
     "dem Stauende"),
)


def _anhalteweg_teile(v_kmh: int, t_r: F, a: F) -> tuple[F, F, F, F]:
    """Speed in m/s (1 decimal, as written), reaction and braking distance (1 decimal) and their sum."""
    v = F(runden(F(v_kmh) / KMH, 1))
    s_r = F(runden(v * t_r, 1))
    s_b = F(runden(v * v / (2 * a), 1))
    return v, s_r, s_b, s_r + s_b


def _anhalteweg(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    vorlage, schnell, erlaubt, a, t_r, hindernis = rng.choice(_GEFAHREN)
    v1 = rng.choice(schnell)
    w1, w2 = _anhalteweg_teile(v1, t_r, a), _anhalteweg_teile(erlaubt, t_r, a)
    behauptung_stimmt = rng.random() < 0.25
    lo, hi = (int(w2[3] * 2 // 3), int(w2[3]) - 1) if behauptung_stimmt else (int(w2[3]) + 2, int(w1[3]) - 1)
    d = rng.randint(lo, hi)
    situation = vorlage.format(v1=gr(v1, "km/h"), d=gr(d, "m"))
    sie = "sie" if "fahrerin" in vorlage else "er"
    zitat = (f"„Auch mit den erlaubten {erlaubt} km/h hätte ich nicht mehr rechtzeitig vor {hindernis} anhalten "
             "können.“")
    text = (f"{situation} Nach dem Unfall sagt {'die Fahrerin' if sie == 'sie' else 'der Fahrer'}: {zitat} "
            f"Beurteile diese Aussage anhand der Anhaltewege bei beiden Geschwindigkeiten (Reaktionszeit "
            f"{gr(t_r, 's', 1)}, Bremsverzögerung {gr(a, 'm/s²', 1)}). Runde auf eine Nachkommastelle.")
    tr = gr(t_r, "s", 1)
    an = gr(a, "m/s²", 1)

    def ms(w: tuple[F, F, F, F]) -> str:
        return gr(w[0], "m/s", 1)

    schritte = [
        (f"Umrechnung: {v1} km/h ≈ {ms(w1)} und {erlaubt} km/h ≈ {ms(w2)}.", 1),
        (f"Reaktionsweg s_R = v · t_R: bei {v1} km/h s_R = {ms(w1)} · {tr} ≈ {gr(w1[1], 'm', 1)}, bei {erlaubt} km/h "
         f"s_R = {ms(w2)} · {tr} ≈ {gr(w2[1], 'm', 1)}.", 1),
        ("Ansatz für den Bremsweg: s_B = v² / (2 · a).", 1),
        (f"Bremswege: s_B = ({ms(w1)})² / (2 · {an}) ≈ {gr(w1[2], 'm', 1)} bei {v1} km/h und s_B = ({ms(w2)})² / "
         f"(2 · {an}) ≈ {gr(w2[2], 'm', 1)} bei {erlaubt} km/h.", 1),
        (f"Anhaltewege s_A = s_R + s_B: {gr(w1[1], 'm', 1)} + {gr(w1[2], 'm', 1)} = {gr(w1[3], 'm', 1)} bei {v1} km/h "
         f"und {gr(w2[1], 'm', 1)} + {gr(w2[2], 'm', 1)} = {gr(w2[3], 'm', 1)} bei {erlaubt} km/h.", 2),
    ]
    if behauptung_stimmt:
        schritte += [
            (f"Vergleich mit dem Abstand von {d} m: Auch bei {erlaubt} km/h ist der Anhalteweg mit "
             f"{gr(w2[3], 'm', 1)} länger als {d} m.", 1),
            (f"Urteil: Die Aussage trifft zu. Bei {erlaubt} km/h hätte das Auto bis zur Unfallstelle aber schon "
             "länger gebremst und wäre deutlich langsamer gewesen; der Bremsweg wächst quadratisch mit der "
             "Geschwindigkeit.", 1),
        ]
    else:
        schritte += [
            (f"Vergleich mit dem Abstand von {d} m: Bei {erlaubt} km/h ({gr(w2[3], 'm', 1)}) käme das Auto vor "
             f"{hindernis} zum Stehen, bei {v1} km/h ({gr(w1[3], 'm', 1)}) nicht.", 1),
            (f"Urteil: Die Aussage ist falsch. Mit der erlaubten Geschwindigkeit hätte {sie} rechtzeitig anhalten "
             "können; weil der Bremsweg quadratisch mit der Geschwindigkeit wächst, verlängert schon eine kleine "
             "Überschreitung den Anhalteweg stark.", 1),
        ]
    return aufgabe(klassenstufe=klassenstufe, operator="Beurteilen", afb="III", text=text, schritte=schritte,
                   minuten=12,
                   werte={"v1": gr(v1, "km/h"), "v2": gr(erlaubt, "km/h"), "d": gr(d, "m"), "t_R": tr, "a": an},
                   ergebnis={"s_A1": gr(w1[3], "m", 1), "s_A2": gr(w2[3], "m", 1),
                             "urteil": "zutreffend" if behauptung_stimmt else "falsch"})


# --- evaluating a v-t table ------------------------------------------------------------------------------------------

_FAHRTEN = (
    # (title, situation, top speeds in m/s, time step in s, steps accelerating / constant / braking)
    ("Straßenbahn", "Eine Straßenbahn fährt von einer Haltestelle zur nächsten.", (10, 12, 14), 2, (3, 4, 5),
     (3, 4, 5), (2, 3, 4)),
    ("Radfahrerin", "Eine Radfahrerin fährt von einer Ampel bis zur nächsten Ampel.", (4, 5, 6), 1, (2, 3, 4),
     (4, 5, 6), (2, 3)),
    ("Aufzug", "Ein Aufzug fährt in einem Hochhaus vom Erdgeschoss nach oben.", (2, 3, 4), 1, (2, 3, 4),
     (3, 4, 5, 6), (2, 3, 4)),
    ("Elektroauto", "Bei einer Testfahrt fährt ein Elektroauto an, fährt eine Zeit lang gleichmäßig und bremst dann "
     "bis zum Stillstand.", (15, 20, 25), 2, (3, 4, 5), (3, 4), (2, 3)),
)


def _vt_tabelle(rng: random.Random, klassenstufe: int) -> GeneratedTask:
    titel, situation, tops, dt, n1s, n2s, n3s = rng.choice(_FAHRTEN)
    while True:
        v1, n1, n2, n3 = F(rng.choice(tops)), rng.choice(n1s), rng.choice(n2s), rng.choice(n3s)
        werte = [v1 * min(k, n1) / n1 if k <= n1 + n2 else v1 * (n1 + n2 + n3 - k) / n3
                 for k in range(n1 + n2 + n3 + 1)]
        a1, a3 = v1 / (n1 * dt), -v1 / (n3 * dt)
        if all(terminiert(x) and runden(x, 1) == x for x in werte) and all(runden(x, 2) == x for x in (a1, a3)):
            break
    t1, t2, t3 = n1 * dt, n2 * dt, n3 * dt
    s1, s2, s3 = v1 * t1 / 2, v1 * t2, v1 * t3 / 2
    zeilen = [[z(k * dt), z(v)] for k, v in enumerate(werte)]
    material = tabelle(f"M1 Messwerte: {titel}", ["Zeit t in s", "Geschwindigkeit v in m/s"], zeilen)
    text = (f"{situation} Die Tabelle im Material zeigt die gemessene Geschwindigkeit. Werte die Messwerte aus: "
            "Beschreibe die drei Bewegungsabschnitte, bestimme die Beschleunigung beim Anfahren und beim Bremsen und "
            "bestimme den insgesamt zurückgelegten Weg.")
    v, e = gr(v1, "m/s"), t1 + t2
    schritte = [
        (f"Abschnitte erkannt: gleichmäßig beschleunigt von 0 s bis {t1} s, gleichförmig mit {v} von {t1} s bis "
         f"{e} s, gleichmäßig verzögert von {e} s bis {e + t3} s (in gleichen Zeiten gleiche Änderung von v).", 1),
        (f"Anfahren: a₁ = Δv / Δt = {v} / {t1} s = {gr(a1, 'm/s²')}.", 1),
        (f"Bremsen: a₃ = Δv / Δt = −{v} / {t3} s = {gr(a3, 'm/s²')} (Verzögerung {gr(-a3, 'm/s²')}).", 1),
        ("Der Weg entspricht der Fläche unter dem v-t-Graphen (Dreieck, Rechteck, Dreieck).", 1),
        (f"Anfahren: s₁ = ½ · {v} · {t1} s = {gr(s1, 'm')}.", 1),
        (f"Gleichförmige Fahrt: s₂ = {v} · {t2} s = {gr(s2, 'm')}.", 1),
        (f"Bremsen: s₃ = ½ · {v} · {t3} s = {gr(s3, 'm')}; Gesamtweg s = {gr(s1, 'm')} + {gr(s2, 'm')} + "
         f"{gr(s3, 'm')} = {gr(s1 + s2 + s3, 'm')}.", 1),
    ]
    return aufgabe(klassenstufe=klassenstufe, operator="Auswerten", afb="II", text=text, schritte=schritte,
                   minuten=11, material=material,
                   werte={"v_max": v, "t1": gr(t1, "s"), "t2": gr(t2, "s"), "t3": gr(t3, "s")},
                   ergebnis={"a1": gr(a1, "m/s²"), "a3": gr(a3, "m/s²"), "s": gr(s1 + s2 + s3, "m")})


_SCHLAGWORTE = ("Bewegung", "Geschwindigkeit", "Kinematik", "Mechanik")

GENERATORS: tuple[Generator, ...] = (
    Generator("physik.bewegung.durchschnittsgeschwindigkeit", "physik", "Bewegung", "Durchschnittsgeschwindigkeit",
              (*_SCHLAGWORTE, "v = s/t", "Durchschnittsgeschwindigkeit", "km/h"), (7, 9), "I", "Berechnen",
              _durchschnitt),
    Generator("physik.bewegung.beschleunigung", "physik", "Bewegung", "Gleichmäßig beschleunigte Bewegung",
              (*_SCHLAGWORTE, "Beschleunigung", "beschleunigte Bewegung", "Anfahren"), (9, 11), "II", "Bestimmen",
              _beschleunigung, ("Sek I", "gA")),
    Generator("physik.bewegung.anhalteweg", "physik", "Bewegung", "Anhalteweg und Verkehrssicherheit",
              (*_SCHLAGWORTE, "Anhalteweg", "Bremsweg", "Reaktionsweg", "Verkehr"), (9, 10), "III", "Beurteilen",
              _anhalteweg),
    Generator("physik.bewegung.vt_tabelle", "physik", "Bewegung", "Bewegungsabläufe aus Messwerten auswerten",
              (*_SCHLAGWORTE, "v-t-Diagramm", "Messwerte", "Beschleunigung", "Weg"), (9, 11), "II", "Auswerten",
              _vt_tabelle, ("Sek I", "gA")),
)
