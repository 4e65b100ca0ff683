"""Prompt injection: instructions to the system inside a message or an upload. It never has an effect;
it is flagged, and refused only when nothing else is asked."""

from __future__ import annotations

import re

from core.safety.scope import SCHOOL_STRICT
from core.safety.signals import MATERIAL_WEAK, is_teaching
from core.safety.text import MAX_CHARS, Rules, gap, rx

# What the model must never reveal: its instructions.
_SECRET = (r"(?:system ?-?prompt\w*|systemnachricht\w*|systemanweisung\w*|systeminstruktion\w*|initial prompt|"
           r"developer message|interne?n? (?:anweisungen|instruktionen|regeln|vorgaben)|deine?n? (?:\w+ )?prompts?|"
           r"deine (?:\w+ )?(?:anweisungen|"
           r"instruktionen|vorgaben|regeln)|your (?:instructions|system prompt|rules))")
_INJECTION = [  # each behind its gate (see text.Rules)
    Rules(
        "ignorier|vergiss|vergesst|vergessen sie|missacht",
        rx(r"\b(?:ignorier\w*|vergiss|vergesst|vergessen sie|missacht\w*)\s+"
            r"(?:(?!meine?[nr]?\b)\w+[\s-]+){0,3}?(?:anweisung\w*|instruktion\w*|regeln|vorgaben|befehle|richtlinien|"
            r"einschraenkung\w*|systemprompt\w*|system-?prompt\w*|programmierung|prompts?)\b")),
    Rules(
        "vergiss|zeile|nachricht",
        rx(r"\bvergiss (?:alles|alle|saemtliche)\b" + gap(40) + r"\b(?:gesagt|beigebracht|vorgegeben|gelernt)\b"
            r"|\b(?:alles|den text|den gesamten text|den inhalt|die nachricht)\b (?:ueber|vor|oberhalb) "
            r"(?:dieser|der) (?:zeile|nachricht)\b")),
    Rules(
        "ignore|disregard|forget|override",
        rx(r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+)*(?:previous\s+|prior\s+|"
            r"above\s+|earlier\s+|preceding\s+|system\s+)?(?:instructions|prompts?|rules|directions|guidelines)\b")),
    Rules(
        "prompt|system|developer|intern|deine|your",
        rx(rf"\b{_SECRET}\b{gap(40)}\b(?:ausgeben|ausgabe|zeig\w*|nenn\w*|verrat\w*|gib|gebe|sag|print|reveal|"
            r"show|wiederhol\w*|kopier\w*|offenleg\w*|preisgeb\w*|lautet|lauten|anzeigen|auflisten|output|repeat)\b"),
        rx(rf"\b(?:gib|zeig\w*|nenn\w*|verrat\w*|sag\w*|wiederhol\w*|print|reveal|show|repeat|wie lautet|"
            rf"was steht in)\b{gap(30)}\b{_SECRET}\b"),
        rx(r"\b(?:was|wie) (?:sind|ist|lautet|lauten|steht in) (?:dein|deine|deinen|your|der|die|das) (?:\w+ )?"
            r"(?:anweisungen|instruktionen|systemprompt\w*|system-?prompt\w*|prompt|instructions)\b")),
    Rules(
        "du bist|bist du|you are|developer|entwickler|jailbreak|do anything|god|admin|keine |ohne |tu so|unzensiert|"
        "pretend|stell dir vor",
        rx(r"\b(?:du bist|you are|(?:ab sofort|ab jetzt|jetzt|nun|von nun an) bist du) (?:jetzt |ab sofort |ab jetzt |"
            r"nun |now )?(?:dan\b|eine? (?:ki|bot|assistent\w*|"
            r"modell|ai) (?:ohne|without)|nicht mehr an (?:deine|die) (?:regeln|anweisungen|vorgaben)|frei von "
            r"(?:allen |deinen )?(?:regeln|einschraenkungen)|uneingeschraenkt|ohne (?:regeln|filter|einschraenkungen|"
            r"zensur))|\b(?:developer ?mode|entwicklermodus|jailbreak\w*|do anything now|god ?mode|admin-?modus)\b"
            r"|\bkeine (?:regeln|einschraenkungen|filter|zensur) mehr\b|\bohne (?:filter|zensur|einschraenkungen)\b|"
            r"\btu so,? als (?:waerst|seist|wuerdest) du\b" + gap(40)
            + r"\b(?:unzensiert\w*|ohne (?:regeln|filter|einschraenkungen)|keine regeln|boese\w*|jailbroken)\b"
              r"|\bunzensierte?s? (?:modell|ki|version)\b|\bpretend (?:you are|to be|you're)\b"
            r"|\bstell dir vor,? du (?:haettest|hast|waerst|bist|wuerdest)\b" + gap(30) + r"\b(?:keine (?:regeln|"
            r"einschraenkungen|grenzen|filter)|ohne (?:regeln|einschraenkungen|filter)|uneingeschraenkt|frei)\b")),
    Rules(
        "anweisung|instruction|hinweis|an die ki|note to",
        rx(r"\b(?:neue anweisung(?:en)?|new instructions?|hinweis (?:an|fuer) (?:die )?(?:ki|kuenstliche intelligenz|"
            r"das modell|chatgpt|das system)|an die ki|note to (?:the )?(?:ai|model|assistant)|"
            r"anweisung (?:an|fuer) (?:die )?(?:ki|das modell|das system))\s?:")),
    Rules(
        "volle punkt|eine 1|eine eins|note 1|bestnote|15 punkte|full marks",
        rx(r"\b(?:gib|vergib|bewerte) (?:allen|jedem|jeder|diesem|dieser|diesen|mir) (?:\w+ ){0,3}?(?:die )?"
            r"(?:volle punktzahl|volle punkte|volle punkte|eine 1|eine eins|die note 1|die bestnote|bestnote|"
            r"15 punkte|full marks)\b")),
]
_INJECTION_MARKUP = rx(r"<\|?(?:im_start|im_end|system|endoftext)\|?>|\[/?(?:system|inst)\]|#{2,}\s*(?:system|"
                        r"instruction)|\bbegin (?:system|prompt)\b|\{\{\s*system")
_FILLER = rx(r"\b(?:und|dann|bitte|danach|jetzt|sofort|stattdessen|aus|and|then|please|instead|now|du|dich|dir)\b")


def injection_spans(text: str, folded: str) -> tuple[bool, str]:
    """(found, the folded text with the injection phrases cut out). Markup such as <|im_start|> is looked for in
    the raw text, because the HTML cleaning would take it for a tag."""
    found = _INJECTION_MARKUP.search(text[:MAX_CHARS].lower()) is not None
    rest = folded
    for rules in _INJECTION:
        if rules.search(rest):
            found = True
            for pattern in rules.patterns:
                rest = pattern.sub(" ", rest)
    return found, rest


def is_request_left(rest: str) -> bool:
    rest = _FILLER.sub(" ", rest)
    school = is_teaching(rest) or SCHOOL_STRICT.search(rest) is not None or MATERIAL_WEAK.search(rest) is not None
    return school and len(re.findall(r"\w{3,}", rest)) >= 2
