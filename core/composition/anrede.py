"""How a material addresses the pupils: Oberstufe (Klasse 11–13) in the Sie-form, Sek I in the du-form, one form per
material. Bank tasks for the Oberstufe are partly written in the du-form and the generators always are, so the
composer turns the du-form of an Oberstufe material into the Sie-form; quoted text („…“) stays as written."""

from __future__ import annotations

import re

from core.materials.differenzierung import DifferenziertesMaterial
from core.materials.klausur import Klausur

# du-imperatives and du-forms that do not follow the rules below
_IRREGULAR = {
    "gib": "geben",
    "nimm": "nehmen",
    "lies": "lesen",
    "sieh": "sehen",
    "triff": "treffen",
    "miss": "messen",
    "wirf": "werfen",
    "hilf": "helfen",
    "iss": "essen",
    "tritt": "treten",
    "sprich": "sprechen",
    "vergiss": "vergessen",
    "hast": "haben",
    "bist": "sind",
    "kannst": "können",
    "musst": "müssen",
    "darfst": "dürfen",
    "sollst": "sollen",
    "willst": "wollen",
    "weißt": "wissen",
    "wirst": "werden",
    "erhältst": "erhalten",
    "hältst": "halten",
    "liest": "lesen",
    "siehst": "sehen",
    "gibst": "geben",
    "nimmst": "nehmen",
    "triffst": "treffen",
    "misst": "messen",
    "wirfst": "werfen",
    "hilfst": "helfen",
    "trittst": "treten",
    "sprichst": "sprechen",
    "läufst": "laufen",
    "fährst": "fahren",
    "trägst": "tragen",
    "schläfst": "schlafen",
    "lässt": "lassen",
}
# Imperatives that open a task sentence (the operators and the verbs tasks use around them)
_IMPERATIVE_WORDS = """
    analysiere arbeite begründe beachte beantworte belege benenne berechne berücksichtige beschreibe beschrifte
    bestimme bestätige beurteile beweise bewerte beziehe bilde charakterisiere deute diskutiere entscheide entwickle
    entwirf ergänze erkläre erläutere ermittle erörtere erstelle fasse fertige formuliere führe gehe gestalte gib
    gliedere interpretiere kennzeichne leite lies löse markiere nenne nimm nutze ordne plane prüfe rechne runde
    schätze schließe schreibe setze skizziere stelle triff übertrage überlege überprüfe untersuche vergleiche
    verfasse veranschauliche verwende vervollständige weise werte widerlege zeichne zeige zitiere notiere trage wähle
    folgere achte stell zeig nenn erklär unterscheide schlage ziehe grenze verdeutliche definiere klassifiziere
    identifiziere lokalisiere verorte kommentiere nimm schildere wende verbinde kreuze unterstreiche finde suche
    betrachte erschließe erfasse recherchiere präsentiere konstruiere vereinfache forme wandle lege beobachte
    protokolliere baue überlege denke versuche wäge halte korrigiere streiche füge benutze gib wiederhole stütze
    reflektiere positioniere modelliere simuliere exzerpiere ordne fasse stimme widerspreche überarbeite bereite
    beginne sage bezeichne kürze
"""
_IMPERATIVES = frozenset(_IMPERATIVE_WORDS.split())
_PRONOUNS = {
    "dein": "Ihr",
    "deine": "Ihre",
    "deinen": "Ihren",
    "deinem": "Ihrem",
    "deiner": "Ihrer",
    "deines": "Ihres",
    "dich": "sich",
    "dir": "sich",
}
_QUOTE = re.compile(r"„[^“]*“|\"[^\"]*\"")
# a clause opens a text, follows a sentence end, a line break, „und“/„oder“/comma, a dash or a label („(b) “, „b) “)
_CLAUSE_START = (r"(?:(?<=^)|(?<=[.!?:;]\s)|(?<=\n)|(?<=\bund\s)|(?<=\boder\s)|(?<=,\s)|(?<=[–—]\s)|(?<=\)\s)"
                 r"|(?<=^\s))")
_IMPERATIVE = re.compile(_CLAUSE_START + r"([A-ZÄÖÜa-zäöüß]+)\b(?!\s+Sie\b)")
_DU_VERB = re.compile(r"\bdu\b((?:\s+[^\s.,;:!?]+){0,8}?)\s+([a-zäöüß]+(?:e?st|ßt))\b(?=\s*[.,;:!?)]|\s*$)")
_VERB_DU = re.compile(r"\b([a-zäöüß]+(?:e?st|ßt))\s+du\b")


def infinitive(imperative: str) -> str:
    """The infinitive of a du-imperative or du-form: 'erläutere' -> 'erläutern', 'ermittle' -> 'ermitteln',
    'bestimmst' -> 'bestimmen', 'gib' -> 'geben'."""
    w = imperative.lower()
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if w.endswith(("est",)) and len(w) > 5:
        return w[:-3] + "en"
    if w.endswith("st"):
        return w[:-2] + "en"
    if w.endswith(("ere", "ele")) and not w.endswith("iere"):
        return w[:-1] + "n"
    if re.search(r"[^aeiouäöülh]le$", w):
        return w[:-2] + "eln"
    if w.endswith("e"):
        return w + "n"
    return w + "en"


def _cap(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def _siezen_part(text: str) -> str:
    def imperative(m: re.Match[str]) -> str:
        w = m.group(1)
        if w.lower() not in _IMPERATIVES or (w.islower() and m.start() > 0 and not text[:m.start()].strip()):
            return w  # right after a quote only a capital opens a sentence („…“ Beurteile …)
        if w.lower() == "werte" and not re.match(r"[^.!?]*\baus\b", text[m.end() :]):
            return w  # „Werte über 5 …“ are values; only „werte … aus“ is the operator
        return f"{_cap(infinitive(w), w)} Sie"

    text = _IMPERATIVE.sub(imperative, text)
    text = _DU_VERB.sub(lambda m: f"Sie{m.group(1)} {infinitive(m.group(2))}", text)
    text = _VERB_DU.sub(lambda m: f"{_cap(infinitive(m.group(1)), m.group(1))} Sie", text)
    text = re.sub(r"\bdu\b", "Sie", text)
    text = re.sub(r"\bDu\b", "Sie", text)
    # after 'Beziehen Sie' the reflexive is 'sich'; elsewhere 'dir' is 'Ihnen'
    text = re.sub(r"\b(\w+en Sie) (dich|dir)\b", r"\1 sich", text)
    text = re.sub(r"\bdir\b", "Ihnen", text)
    return re.sub(r"\b(dein(?:e[nmrs]?)?|dich)\b", lambda m: _PRONOUNS[m.group(1)], text)


def siezen(text: str) -> str:
    """The text in the Sie-form; quoted passages unchanged."""
    out, last = [], 0
    for q in _QUOTE.finditer(text):
        out.append(_siezen_part(text[last : q.start()]))
        out.append(q.group(0))
        last = q.end()
    out.append(_siezen_part(text[last:]))
    return "".join(out)


def sie_form(klassenstufe: int) -> bool:
    return klassenstufe >= 11


def siezen_klausur(k: Klausur) -> Klausur:
    """The exam as an Oberstufe exam addresses its pupils: task texts and the sheet's notes in the Sie-form."""
    if not sie_form(k.klassenstufe):
        return k
    for t in k.teilaufgaben():
        t.text = siezen(t.text)
    for b in k.gruppe_b or []:
        for t in b.teilaufgaben:
            t.text = siezen(t.text)
    k.hinweise = [siezen(h) for h in k.hinweise]
    return k


def siezen_differenzierung(m: DifferenziertesMaterial) -> DifferenziertesMaterial:
    """The worksheet's tasks and help cards in the Sie-form for the Oberstufe."""
    if not sie_form(m.klassenstufe):
        return m
    for n in m.niveaus:
        n.aufgaben = [siezen(a) for a in n.aufgaben]
        n.hilfekarten = [siezen(h) for h in n.hilfekarten]
    return m
