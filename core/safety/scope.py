"""Out of scope (recipes, travel, money, private letters, unrelated coding, personal medical or legal
advice): refused only when the message has no teaching signal."""

from __future__ import annotations

from core.safety.signals import is_teaching
from core.safety.text import Rules, gap, has, rx

_REQUEST_CUE = rx(r"\?|\b(?:gib|schreib\w*|erstell\w*|mach\w*|plan\w*|empfiehl\w*|empfehl\w*|vorschl\w*|idee\w*|"
                   r"tipps?|hilf\w*|kannst du|koenntest du|wie|was|welche\w*|wo|brauche|suche|zeig\w*|nenn\w*|"
                   r"erklaer\w*|finde?|such\w*|bitte|soll|sollte|darf|muss|formulier\w*|verfass\w*|entwirf|"
                   r"ueberarbeit\w*|"
                   r"uebersetz\w*|buch|buche|reservier\w*|organisier\w*|besorg\w*|bestell\w*|lohnt|rate|rat)\b")
_FIRST_PERSON_SG = rx(r"\b(?:ich|mir|mich|mein\w*)\b")
_TECH = (r"(?:python|javascript|typescript|c\+\+|php|golang|sql|django|vba|excel-?makro\w*|makros?|powershell|bash|"
         r"shell|regex|docker|kubernetes|wordpress|html|css|linux|windows|batch)")
_CODE_THING = (r"(?:code\w*|skript\w*|script\w*|programm\w*|funktion|makro\w*|abfrage\w*|query|bug\w*|"
               r"fehlermeldung\w*|error|exception|traceback|debug\w*|kompilier\w*|refaktor\w*|website|webseite|"
               r"homepage|app|bot|plugin|funktioniert nicht)")
# A personal medical question: the symptom or drug in one clause with the teacher ("ich habe …", "soll ich …").
_MED_TERM = (r"(?:kopfschmerz\w*|migraene|fieber|husten|schnupfen|halsschmerz\w*|heiserkeit|rueckenschmerz\w*|"
             r"bauchschmerz\w*|zahnschmerz\w*|schmerzen|ausschlag|schwindel\w*|uebelkeit|erkaeltung|erkaeltet|"
             r"grippe|corona|covid|blutdruck|schlafstoerung\w*|schlaflos\w*|burn-?out|erschoepf\w*|depression\w*|"
             r"tinnitus|heuschnupfen|verstopfung|durchfall|herzrasen|medikament\w*|tablette\w*|ibuprofen|"
             r"paracetamol|aspirin|antibiotik\w*|dosis|nebenwirkung\w*|symptom\w*|impfung|schwanger\w*|befund\w*|"
             r"blutwerte|hausarzt|krankschreibung|krankgeschrieben|arzttermin)")
_MED_SELF = (r"(?:ich habe|ich hab|habe ich|hab ich|mir ist|mir tut|bei mir|ich leide|ich nehme|nehme ich|ich bin|"
             r"bin ich|soll ich|sollte ich|muss ich|kann ich|darf ich|ist das|meine?m?r? (?:tochter|sohn|kind|mann|"
             r"frau|arzt|aerztin|hausarzt|kopf|ruecken|bauch|hals|zahn|knie))")
_OOS: list[tuple[str, Rules, bool]] = [
    # (topic, pattern, needs a request cue)
    ("erotic", Rules(
        "erot|sexgeschicht|sexstor|porno|dirty talk|sexting",
        rx(r"\berotisch\w* (?:geschichte|story|text|gedicht|roman|fantasie|chat|rollenspiel)\w*|"
            r"\bsexgeschicht\w*|\bsexstor\w*|\bporno\w*|\bdirty talk\b|\bsexting mit\b")), False),
    ("cooking", Rules(
        "rezept|kochen|backen|essen|koche|backe|esse|grille|lasagne|pizza|kuchen|torte|suppe|spaghetti|steak|"
        "auflauf|brot|kekse|plaetzchen|"
        "salat|curry|risotto|gulasch",
        rx(r"\b(?:koch|back)?rezept(?!or)\w*\b|\bwas (?:koche|backe|esse|grille) (?:ich|wir)\b"
            r"|\bwie (?:backe|koche|brate|grille|backt|kocht|bereite) (?:ich|man)\b"
            + gap(30) + r"\b\w*(?:kuchen|torte|brot|suppe|salat|auflauf|braten|sosse|sauce|pizza|nudeln|reis|"
              r"kekse|muffins|fleisch|fisch|gemuese)\b|\bwas (?:soll|kann) ich (?:heute |morgen |am wochenende )?"
            r"(?:kochen|backen|essen)\b|\bwie (?:koche|backe|mache|bereite|kocht|backt|macht|brate|grille) "
            r"(?:ich|man) (?:eine?n? |die |den |das )?(?:\w+ )?(?:lasagne|pizza|kuchen|torte|suppe|"
            r"spaghetti|steak|auflauf|brot|kekse|plaetzchen|salat|curry|risotto|gulasch)\b")), False),
    ("cooking", Rules(
        "abendessen|mittagessen|fruehstueck|brunch|lasagne|spaghetti|kuchen|torte|kekse|plaetzchen|dessert|nachtisch|"
        "pasta|nudeln|carbonara|bolognese|pizza|burger|pfannkuchen|waffeln|muffins|brownies|sushi|eintopf|schnitzel|"
        "smoothie|marmelade|anleitung|rezept|"
        "cocktail|essensplan|einkaufsliste|grillparty|gericht",
        rx(r"\b(?:abendessen|mittagessen|fruehstueck\w*|brunch|lasagne|spaghetti|kuchen|torte|kekse|pasta|nudeln|"
            r"carbonara|bolognese|pizza|burger|pfannkuchen|waffeln|muffins|brownies|sushi|eintopf|schnitzel|"
            r"smoothie\w*|marmelade|\w+-(?:anleitung|rezept)|"
            r"plaetzchen|dessert|nachtisch|cocktail\w*|essensplan\w*|einkaufsliste\w*|grillparty|"
            r"vegane?s? gericht\w*)\b")), True),
    ("travel", Rules(
        "urlaub|reise|trip|backpacking|flug|fluege|hotel|ferienwohnung|ferienhaus|airbnb|mietwagen|kreuzfahrt|"
        "inclusive|sehenswuerdig|plan|packliste",
        rx(r"\b(?:\w*urlaub\w*|packliste\w*|reiseplan\w*|reiseroute\w*|reisetipp\w*|reiseziel\w*|rundreise\w*|"
            r"staedtereise\w*|staedtetrip\w*|roadtrip\w*|backpacking|flugticket\w*|fluege|hotel\w*|"
            r"ferienwohnung\w*|ferienhaus|airbnb|mietwagen|kreuzfahrt\w*|all-?inclusive|wochenendtrip\w*|"
            r"kurztrip\w*|flug (?:buchen|nach)|sehenswuerdigkeit\w*)\b"
            r"|\bplan\w* (?:mir |uns )?(?:ein|einen|eine|meinen|meine|unseren|unsere)? ?(?:\w+ )?(?:wochenende|"
            r"kurzurlaub|ausflug|tagesausflug|reise|trip|tour|aufenthalt|tag|tage) (?:in|nach|an)\b")), True),
    ("finance", Rules(
        "aktientipp|depot|etf|krypto|bitcoin|ethereum|geldanlage|geld anlegen|anlagetipp|steuer|baufinanzierung|"
        "ratenkredit|tagesgeld|festgeld|bauspar|altersvorsorge|riester|lotto|sportwette|wettquote",
        rx(r"\b(?:aktientipp\w*|depots?|(?:wertpapier|aktien|etf)depot\w*|etfs?|krypto(?:waehrung\w*|coins?|handel|"
            r"boerse\w*)?|bitcoin\w*|ethereum|geldanlage\w*|geld anlegen|anlagetipp\w*|steuererklaerung\w*|"
            r"baufinanzierung|ratenkredit|tagesgeld|festgeld|bausparvertrag|altersvorsorge|riester\w*|lottozahlen|"
            r"sportwette\w*|wettquote\w*|"
            r"steuern sparen)\b")), True),
    ("finance", Rules(
        "aktie|kredit|rendite|boerse|investier|geld|versicherung|beihilfe|pkv|rente|altersvorsorge|sparen|"
        "zuruecklegen|sparplan",
        rx(r"\b(?:aktie|aktien|kredit|rendite\w*|boerse\w*|investieren|investiere|geld|\w*versicherung\w*|rente|"
            r"altersvorsorge|sparen|zuruecklegen|sparplan|"
            r"beihilfe|pkv)\b" + gap(60)
            + r"\b(?:soll ich|sollte ich|brauche ich|lohnt sich|lohnen sich|empfiehlst|tipps?|kaufen|"
              r"verkaufen|anlegen|investieren|abschliessen|besser|guenstiger|sinnvoller)\b"
              r"|\b(?:soll ich|sollte ich|lohnt sich|lohnen sich|empfiehlst)\b" + gap(60)
            + r"\b(?:aktie|aktien|kredit|boerse\w*|investieren|anlegen|\w*versicherung\w*|rente|\w*sparen|"
              r"zuruecklegen|altersvorsorge)\b")), True),
    ("private_writing", Rules(
        "liebes|heiratsantrag|hochzeit|trauzeugen|junggesell|dating|tinder|partnerboerse|parship|valentin|jahrestag|"
        "bewerbung|"
        "kondolenz|beileid|trauerrede|gute|geburtstag|glueckwunsch|muttertag|vatertag|weihnachtskarte|lebenslauf|"
        "bewerbungsschreiben|anschreiben|kuendigungsschreiben|privat",
        rx(
        r"\b(?:liebesbrief\w*|liebesgedicht\w*|liebeserklaerung\w*|heiratsantrag\w*|hochzeitsrede\w*|valentins\w*|"
        r"bewerbung\w* (?:fuer mich|als \w+)|(?:meine|meiner) bewerbung\w*|(?:mein|meinen) (?:anschreiben|lebenslauf)|"
        r"trauzeugenrede\w*|junggesell\w*|dating-?profil\w*|tinder\w*|partnerboerse\w*|parship|valentinstag\w*|"
        r"hochzeitstag\w*|jahrestag\w*|kondolenz\w*|beileid\w*|trauerrede\w*|gute-?nacht-?geschichte\w*|"
        r"geburtstagskarte\w*|geburtstagsgedicht\w*|geburtstagsrede\w*|glueckwunschkarte\w*|muttertag\w*|"
        r"vatertag\w*|weihnachtskarte\w*|lebenslauf|bewerbungsschreiben|anschreiben fuer (?:meine|mich)|"
        r"kuendigungsschreiben|private?n? (?:e-?mail|mail|nachricht|brief)\w*)\b")), True),
    ("private_writing", Rules("an mein|fuer mein|kuendigung|beschwerde|reklamation|widerruf", rx(
        r"\b(?:an|fuer) (?:meinen|meine|meinem|meiner) (?:frau|mann|freundin|freund|partner\w*|ehemann|ehefrau|"
        r"verlobte\w*|ex|exfreund\w*|liebste\w*|schatz|schwieger\w*|vermieter\w*|nachbar\w*|hausverwaltung)\b|"
        r"\b(?:brief|e-?mail|mail|nachricht|gedicht|rede|text|karte|geschichte|sms|whatsapp)\w* (?:an|fuer) "
        r"(?:meine?n?|meinem) (?:frau|mann|freundin|freund|partner\w*|ehemann|ehefrau|verlobte\w*|ex\w*|mutter|"
        r"mama|vater|papa|eltern|oma|opa|schwester|bruder|tochter|sohn|kind|enkel\w*|nachbar\w*|vermieter\w*|"
        r"hausverwaltung|bank|versicherung|tante|onkel|schwieger\w*|hund|katze|familie|liebste\w*|schatz)\b"
        r"|\b(?:kuendigung|beschwerde|reklamation|widerruf)\w* (?:an|fuer|bei|meines|meiner|des|der|von|zu)\b"
        + gap(30) + r"\b(?:\w*vertrag\w*|abo\w*|fitnessstudio\w*|handy\w*|airline|fluggesellschaft|vermieter\w*|"
          r"amazon|telekom|vodafone|versicherung\w*|bank|paket\w*|bestellung\w*|hotel\w*|mitgliedschaft)\b")), True),
    ("coding", Rules(
        "python|javascript|typescript|c++|php|golang|sql|django|vba|makro|powershell|bash|regex|docker|kubernetes|"
        "wordpress|html|css|shell|linux|windows|batch",
        rx(rf"\b{_TECH}\b{gap(80)}\b{_CODE_THING}\b|\b{_CODE_THING}\b{gap(60)}\b{_TECH}\b"
            rf"|\b{_TECH}-(?:seite|site|blog|theme|plugin|skript|script|code|programm|server|datenbank|abfrage)\w*")),
     False),
    ("medical", Rules(
        "schmerz|migraene|fieber|husten|schnupfen|heiser|ausschlag|schwindel|uebelkeit|erkaelt|grippe|corona|"
        "covid|blutdruck|schlaf|burn|erschoepf|depression|tinnitus|heuschnupfen|verstopfung|durchfall|herzrasen|"
        "medikament|tablette|ibuprofen|paracetamol|aspirin|antibiotik|dosis|nebenwirkung|symptom|impfung|schwanger|"
        "befund|blutwerte|hausarzt|krank|arzttermin",
        rx(rf"\b{_MED_SELF}\b{gap(60)}\b{_MED_TERM}\b|\b{_MED_TERM}\b{gap(60)}\b{_MED_SELF}\b")), True),
    ("legal", Rules(
        "anwalt|anwaeltin|rechts|verklagen|klage|abmahnung|miet|nebenkosten|kuendigungsfrist|arbeitsrecht|"
        "dienstrecht|beamtenrecht|scheidung|sorgerecht|unterhalt|erb|strafanzeige|anzeige|bussgeld|blitzer|einspruch|"
        "schadenersatz|darf mein|kann mir mein|kann mein|muss mein|elternzeit|mutterschutz|teilzeitantrag|"
        "sonderurlaub|kuendigungsschutz|gez|rundfunkbeitrag|kindergeld|elterngeld|wohngeld|grundsteuer|"
        "zweitwohnung|steuerklasse|pension|besoldung",
        rx(r"\b(?:anwalt|anwaeltin|rechtsanwalt\w*|rechtsberatung|rechtslage|rechtlich\w*|verklagen|klage einreichen|"
            r"abmahnung|mietrecht|mietvertrag|mieterhoehung|nebenkostenabrechnung|kuendigungsfrist|"
            r"arbeitsrecht\w*|dienstrecht\w*|beamtenrecht\w*|scheidung\w*|sorgerecht\w*|unterhalt|"
            r"unterhaltszahlung\w*|unterhaltspflicht\w*|erbrecht|erbschaft|strafanzeige|anzeige erstatten|"
            r"bussgeld\w*|blitzer\w*|"
            r"einspruch|schadenersatz|rechtsschutz\w*)\b|\bdarf (?:mein|meine) (?:schulleit\w*|chef\w*|"
            r"arbeitgeber\w*|dienstherr\w*|vermieter\w*|nachbar\w*)\b"
            r"|\b(?:kann|darf|muss) (?:mir )?(?:mein|meine) (?:arbeitgeber\w*|dienstherr\w*|schulleit\w*|chef\w*|"
            r"vermieter\w*)\b|\b(?:elternzeit|mutterschutz|teilzeitantrag|sonderurlaub|kuendigungsschutz|gez|"
            r"rundfunkbeitrag|kindergeld|elterngeld|wohngeld|grundsteuer|zweitwohnung\w*|steuerklasse|pension\w*|"
            r"besoldung\w*)\b")), True),
    ("shopping", Rules(
        "welche|kaufempfehlung|produktvergleich|schnaeppchen",
        rx(r"\bwelche\w* (?:fernseher|laptop|notebook|handy|smartphone|auto|e-?auto|staubsauger|"
            r"waschmaschine|kaffeemaschine|kamera|fahrrad|e-?bike|kopfhoerer|matratze|spielkonsole)\w* "
            r"(?:soll|sollte|kann|kaufen|empfiehlst|ist besser)\b|\bkaufempfehlung\w*|\bproduktvergleich\w*"
            r"|\bschnaeppchen\w*")), False),
    ("private_writing", Rules(
        "hochzeit|taufe|beerdigung|trauerfeier|polterabend|junggesell|konfirmation|kommunion",
        rx(r"\b(?:rede|gedicht|text|karte|spruch|glueckwunsch)\w* (?:fuer|zur|zu|auf) (?:die |der |dem |"
            r"meine?r? |meinem )?(?:hochzeit|taufe|beerdigung|trauerfeier|polterabend|"
            r"junggesell\w*|konfirmation|kommunion)\b")), True),
    ("everyday", Rules(
        "arzt|aerzt|friseur|handwerker|steuerberater|physiotherap|psychotherap|heilprakti|makler|werkstatt",
        rx(r"\b(?:gute?n?|einen|eine|empfiehl\w*|empfehl\w*|finde\w*|such\w*) (?:\w+ )?(?:zahnarzt|arzt|aerztin|"
            r"hausarzt|frauenarzt|hautarzt|friseur\w*|handwerker|steuerberater\w*|tierarzt|physiotherapeut\w*|"
            r"psychotherapeut\w*|heilpraktiker\w*|makler\w*|autowerkstatt|werkstatt)\b")), True),
    ("everyday", Rules(
        "netflix|serie|film|podcast|spiel|buch|buecher",
        rx(r"\b(?:welche\w*|was fuer eine?n?) (?:\w+ )?(?:serie|film|podcast|spiel|buch|roman)\w* (?:soll|sollte|"
            r"kann) "
            r"ich\b|\bnetflix\w*|\bamazon prime\b|\bdisney\+")), True),
    ("everyday", Rules(
        "unternehmen|besichtigen|anschauen|ausgehen|unternimmt",
        rx(r"\bwas (?:kann|koennte|soll|sollte) (?:ich|man|wir) (?:am wochenende|heute abend|in den ferien|im urlaub|"
            r"in \w+|am \w+)\b" + gap(30) + r"\b(?:unternehmen|besichtigen|anschauen|ausgehen)\b")), True),
    ("everyday", Rules(
        "schenk|geschenk",
        rx(r"\b(?:was|welches geschenk|welche geschenke) (?:soll|kann|koennte|sollte) ich\b" + gap(40)
            + r"\bschenken\b|\bgeschenkidee\w*|\bgeschenk\w* fuer (?:meine?n?|meinem)\b")), True),
    ("everyday", Rules(
        "diaet|abnehm|kalorienzufuhr|trainingsplan|muskelaufbau|fitnessstudio",
        rx(r"\b(?:diaet\w*|abnehm\w*|kalorienzufuhr|trainingsplan\w*|muskelaufbau|fitnessstudio\w*)\b")), True),
    ("everyday", Rules(
        "fuer mich|wochenende|entspannen|heute abend|hamburg|berlin|muenchen|koeln|naehe",
        rx(r"\b(?:netflix\w*|serie|serien|film|filme|buch|buecher|podcasts?|restaurants?|bars?|cafes?|"
            r"kneipen?|clubs?)\b" + gap(40) + r"\b(?:fuer mich|fuers wochenende|am wochenende|zum "
            r"entspannen|heute abend|in (?:hamburg|berlin|muenchen|koeln|der naehe))\b")), True),
    ("everyday", Rules(
        "wetter|regnet|horoskop|sternzeichen|bundesliga|mein|unser|reifenwechsel|oelwechsel|tapezier",
        rx(r"\bwie wird das wetter\b|\bwetter(?:bericht|vorhersage)\b|\bregnet es (?:morgen|heute)\b|"
            r"\bhoroskop\w*|\bsternzeichen\b|\bbundesliga-?tipp\w*|\b(?:mein\w*|unser\w*) "
            r"(?:auto|wagen|garten|rasen|heizung|wohnung|haus|bad|kueche|waschmaschine|hund|katze)\b"
            + gap(50) + r"\b(?:reparier\w*|renovier\w*|streich\w*|einricht\w*|anlegen|wechseln|tauschen|"
              r"plan\w*|gestalt\w*|"
              r"kaputt|defekt|springt nicht an|entkalk\w*|erzieh\w*|frisst|tierarzt)\b"
              r"|\b(?:reifenwechsel|oelwechsel|tapezier\w*)\b")), False),
]
# The teacher's private life ("mein Haus", "meine beste Freundin", "mein Rücken") with no classroom anywhere.
_PRIVATE_LIFE = Rules("mein", rx(
    r"\b(?:mein|meine|meinen|meinem|meiner|meines)\s(?:\w+\s)?(?:haus|hauses|wohnung|garten|auto|autos|wagen|fahrrad|"
    r"hund|katze|haustier\w*|ruecken|knie|nacken|zaehne|zahn|haut|haare|nachbar\w*|vermieter\w*|freundin|freund|"
    r"mann|frau|ehemann|ehefrau|partner\w*|familie|schwiegermutter|schwiegervater|hochzeit|urlaub|einfahrt|balkon|"
    r"heizung|kueche|badezimmer|keller|dach|router|internetanschluss|handyvertrag|stromvertrag|konto|rente|"
    r"steuern|geld|ersparnisse|geburtstagsparty|party|diaet|gewicht|schwaegerin|schwager|schwester|bruder|cousine|"
    r"cousin|tante|onkel|oma|opa|eltern|mutter|vater|download-?ordner|ordner|festplatte|fotos|urlaubsfotos|"
    r"lebensversicherung|versicherung|vertrag|abo|elternzeit|gehalt|besoldung|umzug|renovierung|moebel)\b"
    r"|\b(?:geburtstagsfeier|hochzeitsfeier|hochzeit|feier|party|grillfest|junggesellenabschied) (?:meiner|meines|"
    r"von meiner|von meinem)\b"))
SCHOOL_STRICT = rx(r"\b(?:lehrer\w*|lehrkr\w*|schueler\w*|schule\w*|unterricht\w*|klasse\w*|kurs\w*|"
                     r"thema|themen|lernen|paedagog\w*|didakt\w*)\b")
# Subjects that are unambiguous; "Musik" at a wedding or "Sport" after work is not a lesson.
_SUBJECT_STRICT = rx(r"\b(?:mathe\w*|deutschunterricht|englischunterricht|physik\w*|chemie\w*|biologie\w*|"
                      r"erdkunde|geographie|geografie|latein\w*|franzoesisch\w*|informatik\w*|sachunterricht)\b")
_PRIVATE_MAX = 400
# Medical and legal questions are out of scope only when they are the teacher's own ("ich", "mein").
_PERSONAL_TOPICS = {"medical", "legal"}


def out_of_scope(folded: str) -> str | None:
    if is_teaching(folded):
        return None
    cue = has(_REQUEST_CUE, folded)
    for topic, rules, needs_cue in _OOS:
        if (needs_cue and not cue) or not rules.search(folded):
            continue
        if topic in _PERSONAL_TOPICS and not has(_FIRST_PERSON_SG, folded):
            continue
        return topic
    # Only short messages: a long text with "mein Vater …" is a source or an upload, not a private request.
    if cue and len(folded) <= _PRIVATE_MAX and _PRIVATE_LIFE.search(folded) and not has(_SUBJECT_STRICT, folded) \
            and not has(SCHOOL_STRICT, folded):
        return "everyday"
    return None
