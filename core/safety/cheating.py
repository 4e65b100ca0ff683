"""Cheating and homework for pupils: the pupil's perspective is what makes them so; a teacher asking for a
Musteraufsatz or for the Lösungen of their own exam is teaching."""

from __future__ import annotations

import re

from core.safety.signals import PREVENT
from core.safety.text import Rules, gap, has, rx

_EXAM = (r"(?:klausur\w*|klassenarbeit\w*|kursarbeit\w*|schulaufgabe\w*|\w*tests?|ex|stegreifaufgabe\w*|"
         r"pruefung\w*|abi|abitur\w*|abipruefung\w*|zentralabitur|vergleichsarbeit\w*|vera|lernkontrolle\w*|"
         r"leistungskontrolle\w*|mathearbeit|deutscharbeit|englischarbeit|lateinarbeit|physikarbeit|chemiearbeit)")
# Strong signs that a teacher speaks; pupils do not talk like this.
_TEACHER_STRONG = rx(
    r"\bich unterrichte\b|\bich bin (?:\w+ )?(?:lehrer|lehrerin|lehrkraft|referendar\w*|klassenlehrer\w*|"
    r"fachlehrer\w*|schulleiter\w*|lehramtsanwaerter\w*)\b|\beingesetzt\b|\b(?:meine|meinen|unsere|unseren) "
    r"(?:\w+ )?(?:schueler|schuelerinnen|schuelern|sus)\b|\bden schuelern\b|\b(?:fuer|mit) (?:der|die|meiner|meine|"
    r"unserer) \d{1,2} ?[a-z]\b|\b(?:erwartungshorizont|notenschluessel|musterloesung|bewertungsbogen|"
    r"unterrichtsentwurf|lehrprobe|fachleiter|fachleitung|fachkonferenz|fachschaft|schulleitung|kollegium|"
    r"elternabend|fortbildung|lehrerkonferenz|"
    r"zeugnisnoten|probeklausur|uebungsaufgaben|korrigier|korrektur)\w*\b|\bsus\b"
)
_PUPIL_SELF = Rules(
    "ich bin|ich gehe|ich geh|lehrer|lehrkraft|wir |haben wir|hausaufgabe|mitschueler|meiner klasse|ich schreibe|"
    "ich sitze|frau|herr|ich hab|fuer die schule",
    rx(
    r"\bich (?:bin|gehe|geh) (?:in (?:der|die) (?:klasse )?|in klasse )(?:\d{1,2} ?[a-z]?\b|\d{1,2}\.|fuenfte|"
    r"sechste|siebte|achte|neunte|zehnte|elfte|zwoelfte|dreizehnte|oberstufe|q ?[12]|e ?phase)"
    r"|\bich bin (?:in der )?\d{1,2}\. klasse\b"
    r"|\bich bin (?:ein |eine )?(?:schueler|schuelerin|oberstufenschueler\w*|abiturient\w*)\b"
    r"|\bich bin (?:1[0-9]|[6-9])(?: jahre alt)?(?: und|,|\.|!|$)"
    r"|\b(?:mein|meinem|meinen|meines|unser|unserem|unseren) (?!ausbildungs|kolleg)(?:\w+)?lehrer\b"
    r"|\b(?:meine|meiner|unsere|unserer) (?!ausbildungs|kolleg)(?:\w+)?lehrerin\b|\bunsere lehrkraft\b"
    r"|\bwir (?:haben|hatten|muessen|sollen) (?:\w+ ){0,6}?(?:aufbekommen|auf bekommen|aufgekriegt|abgeben|"
    r"einreichen)\b|\bhaben wir (?:\w+ ){0,3}?(?:auf|aufbekommen)\b|\bals hausaufgabe(?:n)? (?:auf|aufbekommen)\b"
    r"|\bmeine mitschueler\w*|\bin meiner klasse (?:sind|haben|muessen) wir\b"
    r"|\bich (?:hab|habe|hab ich|schreib) (?:morgen|uebermorgen|heute|naechste woche|am \w+) (?:ein |einen |eine |"
    r"die |den )?"
    r"(?:\w+ )?(?:referat|vortrag|praesentation|test|klausur|arbeit|klassenarbeit|ex|abfrage|deutsch|mathe|englisch|"
    r"bio|physik|chemie|geschichte|erdkunde|latein|franzoesisch)\b"
    r"|\bfuer die schule\b"
    r"|\bwir (?:sollen|muessen) (?:bis (?:morgen|montag|dienstag|mittwoch|donnerstag|freitag|naechste woche) )?"
    r"(?:\w+ ){0,4}?(?:interpretieren|analysieren|zusammenfassen|schreiben|loesen|berechnen|uebersetzen|"
    r"eroertern|beschreiben|ausarbeiten|vorbereiten)\b"
    r"|\bich schreibe (?:morgen|uebermorgen|naechste woche|am \w+|bald|heute|gleich) (?:eine?n? |die |den )?"
    rf"(?:\w+ )?{_EXAM}\b"
    r"|\bich sitze (?:gerade |grade )?in (?:der|einer|dem) " + _EXAM
    + r"|\b(?:schreiben wir|wir schreiben)\b" + gap(25) + r"\b(?:morgen|uebermorgen|naechste woche|bald|gleich|"
      r"heute|am (?:montag|dienstag|mittwoch|donnerstag|freitag))\b"
      rf"|\b{_EXAM}\b (?:von|bei) (?:frau|herrn?|herr) \w+")
)
_DO_FOR_ME = rx(
    r"\b(?:schreib\w*|mach\w*|loes\w*|erledig\w*|verfass\w*|formulier\w*|uebernimm|rechne\w*|beantworte\w*|"
    r"bearbeite\w*|uebersetz\w*|fertig\w*|uebernehm\w*)\b|\bfuer mich\b|\bkannst du (?:\w+ ){0,4}?(?:machen|"
    r"schreiben|loesen)\b"
)
_PUPIL_DOC = Rules("mein|unser", rx(
    r"\b(?:mein|meine|meinen|meiner|meinem|meines|unsere?[nmr]?|unser)\s+(?:\w+\s+)?(?:[\w-]*hausaufgabe\w*|"
    r"[\w-]*hausis?|aufsatz|referat|"
    r"facharbeit|hausarbeit|seminararbeit|projektarbeit|eroerterung|gedichtanalyse|gedichtinterpretation|"
    r"textanalyse|inhaltsangabe|buchvorstellung|buchbericht|lesetagebuch|praktikumsbericht|"
    r"bewerbung fuer (?:ein|das|mein) praktikum)\b")
)
_HOMEWORK_WORD = rx(r"\b(?:\w*hausaufgabe\w*|hausis?|aufsatz|referat|facharbeit|hausarbeit|eroerterung|"
                     r"gedichtanalyse|inhaltsangabe|abgeben|abgabe|bis morgen|fuer morgen|loesungen?|aufgaben?|"
                     r"seite \d+|nummer \d+|nr\.? ?\d+)\b")
_HOMEWORK_DOC = (r"(?:[\w-]*hausaufgabe\w*|hausis?|aufsatz|referat|facharbeit|hausarbeit|seminararbeit|eroerterung|"
                 r"gedichtanalyse|gedichtinterpretation|inhaltsangabe|buchvorstellung|praktikumsbericht|praesentation|"
                 r"vortrag)")
_PARENT_HOMEWORK = Rules(
    "sohn|tochter|kind",
    rx(rf"\b(?:mein|meine|meinem|meiner|meines) (?:sohn\w*|tochter|kind\w*)\b{gap(60)}"
        rf"\b{_HOMEWORK_DOC}\b|\b{_HOMEWORK_DOC}\b{gap(30)}\b(?:meines|meiner|fuer meinen|fuer meine|"
        rf"von meinem|von meiner) (?:sohn\w*|tochter|kind\w*)\b"))
_FOR_ME_HOMEWORK = Rules(
    "fuer mich|von mir|muss ich|soll ich|ich muss|ich soll",
    rx(r"\b(?:\w*hausaufgabe\w*|aufsatz|referat) (?:fuer mich|von mir)\b|\bfuer mich (?:\w+ ){0,3}?"
        r"(?:\w*hausaufgabe\w*|aufsatz|referat)\b|\b(?:muss ich|soll ich)\b" + gap(40)
        + r"\b(?:morgen|heute|bis \w+) (?:abgeben|einreichen|vorzeigen)\b"
          rf"|\bich (?:muss|soll)\b{gap(50)}\b{_HOMEWORK_DOC}\b{gap(40)}\b(?:abgeben|einreichen|"
          r"halten|vorzeigen|schreiben|fertig\w*|vorbereiten)\b")
)
# "… die ich morgen abgeben kann": the pupil hands it in.
_SUBMIT = Rules("abgeben|einreichen|vortragen|abliefern|vorzeigen|halten", rx(
    rf"\b(?:ich|wir)\b{gap(40)}\b(?:abgeben|einreichen|vortragen|abliefern|vorzeigen|halten muss|halten soll)\b"))
_HOMEWORK_DOC_WORD = rx(rf"\b{_HOMEWORK_DOC}\b")
_PUPIL_MATERIAL = rx(r"\b(?:\w*aufgaben?|arbeitsheft\w*|arbeitsblatt|arbeitsblaetter|buch|seite \d+)\b")
# Textbook exercises with a page reference: "meine Matheaufgaben, Seite 78, Nr. 2".
_TEXTBOOK = Rules("aufgabe", rx(
    r"\b(?:mein|meine|meinen|unsere?n?)\s+(?:\w+\s+)?\w*aufgaben?\b" + gap(40)
    + r"\b(?:seite|s\.|nr\.?|nummer|buch)\s?\d+"))
_EDIT = rx(r"\b(?:einfacher|schwerer|kuerzer|laenger|ueberarbeit\w*|anpass\w*|umformulier\w*|differenzier\w*|"
            r"veraender\w*|aender\w*)\b")
_FIRST_PERSON = rx(r"\b(?:ich|wir|man|mir|uns|mich)\b")
_CHEAT_VERB = (r"(?:schummel\w*|schumml\w*|spicken|spicke|spickt|abgucken|abgucke|abschauen|mogeln|mogle|"
               r"betruegen|betruege)")
# "Tipps zum Schummeln" — a teacher asks that about pupils ("welche Tricks nutzen Schüler"), a pupil for themselves.
_CHEAT_TIPS = Rules("schumm|spick|abguck|abschau|mogel|mogl|betrueg|abschreib", rx(
    rf"\b(?:tipps?|tricks?|ideen|wege|methoden|moeglichkeiten|anleitung|hilfe) (?:zum|fuer|fuers|beim) {_CHEAT_VERB}\b"
    r"|\b(?:schummel|spick|mogel)(?:tipps?|tricks?|ideen|methoden|anleitung\w*)\b"))
_ABOUT_PUPILS = rx(r"\b(?:schueler\w*|jugendliche\w*|kinder|aufsicht\w*|lehrkraefte)\b")
# The cheating verb with a first-person actor in the same clause ("wie kann ich … schummeln").
_CHEAT = Rules(
    "schumm|spick|abguck|abschau|mogel|mogl|betrueg|abschreib",
    rx(rf"\b(?:ich|wir|man)\b{gap(50)}\b{_CHEAT_VERB}\b|\b{_CHEAT_VERB}\b{gap(30)}\b(?:ich|wir|man)\b"
        rf"|\b(?:ich|wir|man)\b{gap(40)}\b(?:beim|bei der|bei dem|in der|im|waehrend der) (?:\w+ )?"
        rf"{_EXAM}\b{gap(20)}\b(?:abschreiben|abschreibe|abgucken|abschauen)\b"))
_CONCEAL = Rules("unbemerkt|heimlich|unauffaellig|ohne dass|damit|dass|erwischt|versteck|schmuggl|schmuggel", rx(
    r"\b(?:ich|wir|man)\b" + gap(40) + r"\b(?:unbemerkt|heimlich|unauffaellig)\b"
    r"|\bohne dass (?:es )?(?:mein|meine|der|die|unser|unsere|ein|eine|jemand|keiner)\b" + gap(30)
    + r"\b(?:merkt|mitbekommt|sieht|bemerkt|erwischt|erkennt)\b"
    r"|\b(?:damit|dass|sodass) (?:es )?(?:mein|meine|der|die|unser|unsere|ein|eine)\b" + gap(30)
    + r"\bnicht (?:\w+ )?(?:merkt|mitbekommt|auffaellt|erkennt|bemerkt|findet|sieht|erwischt)\b"
    r"|\b(?:damit|dass|sodass) (?:es )?(?:keiner|niemand)\b" + gap(30)
    + r"\b(?:merkt|mitbekommt|erkennt|bemerkt|findet|sieht)\b"
    r"|\b(?:verstecke|versteck|verstecken|schmuggle|schmuggeln)\b" + gap(40) + r"\b(?:spickzettel\w*|handy\w*|"
    r"smartwatch\w*|loesung\w*|kopfhoerer\w*)\b"
    r"|\bohne erwischt zu werden\b|\bnicht erwischt (?:werde|werden|wird)\b"
    r"|\bohne dass es (?:\w+ )?(?:auffaellt|bemerkt wird|jemand merkt|jemand sieht)\b")
)
_CONCEAL_OBJECT = rx(rf"\b(?:{_EXAM}|handy\w*|smartwatch\w*|kopfhoerer\w*|ki|chatgpt|gpt|plagiat\w*|aufsatz|"
                      r"\w*hausaufgabe\w*|referat|facharbeit|spickzettel\w*|loesung\w*|unterschrift\w*|"
                      r"entschuldigung\w*|abschreiben|noten?)\b")
_GET = (r"(?:wie komme ich|wie kommt man|komme ich|gib|gebt|schick\w*|besorg\w*|verrat\w*|zeig\w*|sag\w* mir|"
        r"kennst du|weisst du|hast du|wo finde ich|wo bekomme ich|wo gibt es|an die|bekommen|besorgen|rankommen|"
        r"herausfinden|rausfinden)")
_LEAK = Rules("leak|vorab|vorher|im voraus|schon jetzt|heute schon", rx(
    r"\b(?:geleakt\w*|leak\w*)\b" + gap(60) + rf"\b{_EXAM}\b|\b{_EXAM}\b" + gap(60) + r"\b(?:geleakt\w*|leak\w*)\b"
    rf"|\b{_GET}\b{gap(50)}\b(?:vorab|vorher|im voraus|schon jetzt|heute schon|vor der pruefung)\b{gap(40)}"
    rf"\b(?:aufgaben|loesungen|antworten|fragen)\b{gap(40)}\b{_EXAM}\b"
    rf"|\b(?:vorab|vorher|im voraus|schon jetzt|heute schon)\b{gap(40)}\b(?:aufgaben|loesungen|antworten|fragen)\b"
    rf"{gap(40)}\b{_EXAM}\b{gap(40)}\b{_GET}\b"
    rf"|\b(?:aufgaben|loesungen|antworten|fragen)\b{gap(30)}\b{_EXAM}\b{gap(40)}\b(?:vorab|vorher|im voraus)\b"
    rf"{gap(20)}\b{_GET}\b")
)
_EXAM_NOUN = (r"(?:klausur|klassenarbeit|kursarbeit|schulaufgabe|pruefung|abipruefung|abiturpruefung|test|"
              r"vokabeltest|mathearbeit|deutscharbeit|englischarbeit|ex)")
_IN_EXAM_NOW = Rules(
    "sitze|waehrend|gerade|grade|jetzt|im moment",
    rx(rf"\bich (?:sitze|bin|schreibe) (?:gerade |grade |jetzt |im moment )(?:in |an )?(?:der |einer |dem |"
        rf"meiner )?(?:\w+ )?{_EXAM_NOUN}\b|\bich sitze (?:in |an )(?:der |einer |dem |meiner )(?:\w+ )?"
        rf"{_EXAM_NOUN}\b|\bwaehrend (?:der|dem|meiner|einer|unserer) (?:\w+ )?{_EXAM_NOUN}\b{gap(60)}"
        r"\b(?:mir|ich|uns|wir)\b|\b(?:mir|ich|uns|wir)\b" + gap(60)
        + rf"\bwaehrend (?:der|dem|meiner|einer|unserer) (?:\w+ )?{_EXAM_NOUN}\b"))
_EXAM_WORD = rx(rf"\b{_EXAM}\b")
_WHEN = r"(?:morgen|uebermorgen|naechste woche|bald|gleich|heute|am (?:montag|dienstag|mittwoch|donnerstag|freitag))"
# The class's own upcoming exam ("unseren Englischtest morgen", "was kommt morgen dran") — a pupil speaks.
_OUR_EXAM = Rules("unser|dran|kommen|schreiben", rx(
    rf"\bunsere?[nmr]? (?:\w+ )?{_EXAM}\b{gap(20)}\b{_WHEN}\b"
    rf"|\b(?:loesung\w*|antwort\w*)\b{gap(40)}\b(?:unsere?[nmr]?) (?:\w+ )?{_EXAM}\b{gap(20)}\b{_WHEN}\b"
    rf"|\b(?:welche|was fuer) (?:aufgaben|fragen|themen)\b{gap(40)}\b{_WHEN}\b{gap(40)}\b(?:drankommen|dran|"
    rf"vorkommen|kommen)\b"
    rf"|\b{_EXAM}\b,? (?:den|die|das) (?:wir|ich) {_WHEN} schreiben\b"
    rf"|\bwas kommt\b{gap(40)}\b{_WHEN}\b{gap(40)}\bdran\b|\bwas kommt\b{gap(40)}\bdran\b{gap(30)}"
    rf"\b{_WHEN}\b"))
_EXAM_ANSWERS = rx(r"\b(?:loesung\w*|antwort\w*|ergebnis\w*|was (?:kommt|drankommt)|welche aufgaben)\b")
_FORGERY = Rules(
    "faelsch|nachmach|nachahm",
    rx(r"\b(?:faelsch\w*|nachmach\w*|nachahm\w*)\b" + gap(40) + r"\b(?:unterschrift\w*|zeugnis\w*|"
        r"entschuldigung\w*|attest\w*|krankmeldung\w*|krankschreibung\w*|noten?|klassenbuch|ausweis)\b"
        r"|\b(?:unterschrift\w*|zeugnis\w*|entschuldigung\w*|attest\w*|krankmeldung\w*|krankschreibung\w*|"
        r"noten?|klassenbuch)\b" + gap(40) + r"\b(?:faelschen|faelsche|nachmachen|nachahmen)\b"))
_DETECTOR = (r"(?:ki-?detektor\w*|ki-?erkennung\w*|detektor\w*|turnitin|plagiats?pruefung\w*|plagiats?scanner\w*|"
             r"plagiats?erkennung\w*|plagiats?software|plagiats?check\w*|zerogpt|gptzero|ki-?check\w*|ki-?pruefung\w*)")
_EVASION = Rules("detektor|erkennung|turnitin|plagiat|gpt|ki|umschreib|umformulier|paraphras|check|pruefung|schreib",
                  rx(
    rf"\b{_DETECTOR}\b{gap(50)}\b(?:umgeh\w*|austricks\w*|ueberlist\w*|bestehen|durchkommen|taeusch\w*)\b"
    rf"|\b(?:umgeh\w*|austricks\w*|ueberlist\w*|taeusch\w*)\b{gap(30)}\b{_DETECTOR}\b"
    rf"|\b{_DETECTOR}\b{gap(40)}\b(?:nicht|kaum|nie) (?:\w+ )?(?:erkennt|erkennen|bemerkt|anschlaegt|anschlagen|"
    r"findet|merkt)\b"
    r"|\b(?:ki|chatgpt|gpt)(?:-?\w+)?\b" + gap(80) + r"\b(?:unerkannt|nicht (?:als \w+ )?(?:erkannt|erkennbar)|"
    r"nicht (?:\w+ )?(?:erkennt|auffaellt|auffallen|merkt|bemerkt)|menschlicher klingen|"
    r"wie von mir (?:selbst )?geschrieben)\b"
    rf"|\bkeine?[nr]? {_DETECTOR}\b{gap(20)}\b(?:findet|erkennt|merkt|bemerkt|anschlaegt)\b"
    r"|\bschreib\w*\b" + gap(30) + r"\bum,? (?:dass|damit|sodass|so dass)\b" + gap(40)
    + r"\b(?:nicht|keine?[nr]?|niemand)\b" + gap(30) + r"\b(?:merkt|erkennt|findet|auffaellt|bemerkt)\b"
    r"|\b(?:umschreib\w*|umformulier\w*|paraphrasier\w*)\b" + gap(40) + r"\b(?:damit|sodass|so dass)\b" + gap(40)
    + r"\b(?:nicht|keiner|niemand) (?:\w+ )?(?:merkt|erkennt|auffaellt|bemerkt)\b")
)


_LEAK_TIME = rx(r"\b(?:vorab|vorher|im voraus|schon jetzt|heute schon|schon vor|vor der (?:pruefung|klausur|arbeit)|"
                 r"bevor (?:wir|ich) (?:sie|es|die|den|das)? ?(?:schreiben|schreibe))\b")
_LEAK_THING = rx(r"\b(?:\w*aufgaben|loesungen|antworten|fragen)\b")
_LEAK_GET = rx(rf"\b{_GET}\b|\bwie (?:bekomme|kriege|komme|finde|erfahre) (?:ich|man)\b")
_ANSWERS_SENT = Rules("antwort|loesung", rx(
    rf"\b(?:in|waehrend) (?:der|dem|einer|meiner) (?:\w+ )?{_EXAM_NOUN}\b{gap(60)}\b(?:antwort\w*|loesung\w*)\b"
    rf"|\b(?:antwort\w*|loesung\w*)\b{gap(60)}\b(?:in|waehrend) (?:der|dem|einer|meiner) (?:\w+ )?{_EXAM_NOUN}\b"))
_OWN_GRADES = Rules("note|zeugnis|zensur", rx(
    r"\b(?:meine?n?|mein) (?:\w+ )?(?:noten?|zeugnis\w*|zensur\w*)\b" + gap(40)
    + r"\b(?:aendern|veraendern|aendere|manipulier\w*|hochsetzen|faelsch\w*|verbessern lassen|bearbeiten)\b"))


_CREATING = rx(r"\b(?:erstell\w*|entwirf|entwerf\w*|konzipier\w*|generier\w*)\b")


def _clauses(folded: str) -> list[str]:
    return re.split(r"[.!?\n]+", folded)


def cheating(folded: str) -> bool:
    if has(PREVENT, folded):
        return False
    teacher = has(_TEACHER_STRONG, folded)
    if _CHEAT.search(folded) or _EVASION.search(folded):
        return True
    if _CHEAT_TIPS.search(folded) and not teacher and not has(_ABOUT_PUPILS, folded):
        return True
    if _IN_EXAM_NOW.search(folded) and "aufsicht" not in folded and "beaufsichtig" not in folded:
        return True
    if _CONCEAL.search(folded) and _CONCEAL_OBJECT.search(folded) and not teacher:
        return True
    if _FORGERY.search(folded) and _FIRST_PERSON.search(folded):
        return True
    if not teacher and (_LEAK.search(folded) or any(
            _LEAK_TIME.search(c) and _LEAK_THING.search(c) and _LEAK_GET.search(c) and _EXAM_WORD.search(c)
            for c in _clauses(folded) if len(c) < 400)):
        return True
    if not teacher and _ANSWERS_SENT.search(folded) and _FIRST_PERSON.search(folded):
        return True
    if _OWN_GRADES.search(folded) and not teacher:
        return True
    if _OUR_EXAM.search(folded) and not teacher and has(_EXAM_WORD, folded) and not has(_CREATING, folded) \
            and (has(_EXAM_ANSWERS, folded) or "dran" in folded or "kommen" in folded):
        return True
    return not teacher and _PUPIL_SELF.search(folded) and has(_EXAM_ANSWERS, folded) and has(_EXAM_WORD, folded)


def homework(folded: str) -> bool:
    if has(_TEACHER_STRONG, folded):
        return False
    does = has(_DO_FOR_ME, folded)
    if _PUPIL_SELF.search(folded) and (does or has(_HOMEWORK_WORD, folded)):
        return True
    if not does:
        return False
    if _PARENT_HOMEWORK.search(folded) or _FOR_ME_HOMEWORK.search(folded) or _PUPIL_DOC.search(folded):
        return True
    if _SUBMIT.search(folded) and (has(_HOMEWORK_DOC_WORD, folded) or (
            has(_PUPIL_MATERIAL, folded) and not has(_EXAM_WORD, folded))):
        return True
    return _TEXTBOOK.search(folded) and not has(_EDIT, folded)
