"""Harmful requests: instructions to do harm (weapons, drugs, violence, attacks, self-harm, hate, sexual
content with minors). Topic words alone never fire."""

from __future__ import annotations

from core.safety.messages import MSG_HARMFUL, MSG_HATE, MSG_MINORS, MSG_SELF_HARM
from core.safety.signals import ANALYSIS, PREVENT, is_teaching
from core.safety.text import Rules, gap, has, rx, words

_WEAPON = words(
    r"bomben?", r"\w*bombe", r"\w*bomben", r"sprengstoff\w*", r"sprengs[aä]tz\w*", r"sprengkoerper\w*",
    r"sprengladung\w*", r"molotow\w*", r"brandsatz\w*", r"napalm", r"tatp", r"acetonperoxid", r"nitroglyc?z?erin",
    r"schusswaffe\w*", r"waffen?", r"pistole\w*", r"gewehr\w*", r"revolver", r"munition", r"schalldaempfer\w*",
    r"nervengas\w*", r"giftgas\w*", r"sarin", r"rizin", r"ricin", r"anthrax", r"milzbrand\w*", r"biowaffe\w*",
    r"chemiewaffe\w*", r"chemische waffe\w*", r"sprengfalle\w*", r"boeller\w*", r"polenboeller\w*", r"kugelbombe\w*",
    r"rauchbombe\w*", r"brandbeschleuniger",
)
_HARMLESS_BOMB = rx(r"\b(?:wasserbombe\w*|kalorienbombe\w*|vitaminbombe\w*|saftbombe\w*|badebombe\w*|"
                     r"zeitbombe\w*|farbbombe\w*|glitzerbombe\w*|samenbombe\w*|seedbomb\w*)\b")
_SUBJ = r"(?:ich|man|wir)"
_MODAL = r"(?:kann|koennte|kannst|soll|sollte|muss|koennen|sollen|muessen)"
_HARM_WEAPON = Rules(
    "bomb|spreng|molotow|brandsatz|napalm|tatp|acetonperoxid|nitrogl|waffe|pistol|gewehr|revolver|munition|"
    "schalldaempfer|gas|sarin|rizin|ricin|anthrax|milzbrand|boeller|brandbeschleuniger",
    rx(rf"\bwie (?:baue|bastle|bastel|mische|mixe|baut|bastelt|mischt|baust|bastelst) {_SUBJ}\b{gap(40)}"
        rf"\b{_WEAPON}\b"),
    rx(rf"\bwie (?:stelle|stellt|stellst) {_SUBJ}\b{gap(40)}\b{_WEAPON}\b{gap(25)}\bher\b"),
    rx(rf"\bwie (?:mache|macht|machst) {_SUBJ} (?:selbst |selber |zu hause )?eine?n? (?:\w+ )?{_WEAPON}\b"),
    rx(rf"\bwie {_SUBJ}\b{gap(40)}\b{_WEAPON}\b{gap(25)}\b(?:baut|baue|bauen kann|herstellt|herstelle|"
        rf"herstellen kann|bastelt|bastle|zuendet|zuende|mischt|mische|druckt|drucke)\b"),
    rx(rf"\b(?:um|damit) (?:\w+ ){{0,3}}?{_WEAPON} (?:zu bauen|zu basteln|herzustellen|zu zuenden|zu mischen|"
        rf"zu zuenden|bauen|basteln|herstellen|zuenden)\b"),
    rx(rf"\b(?:ich|wir) (?:will|moechte|wollen|moechten|werde|werden)\b{gap(30)}\b{_WEAPON}\b{gap(20)}"
        rf"\b(?:bauen|basteln|herstellen|zuenden|zur explosion bringen|besorgen|kaufen)\b"),
    rx(rf"\b(?:wie {_MODAL} {_SUBJ}|wie {_MODAL}|anleitung\w*|bauanleitung\w*|bauplan|baupl[aä]ene|rezept\w*|"
        rf"tutorial|schritt fuer schritt|zeig mir|erklaer mir|sag mir|gib mir|beschreib\w* mir|schreib\w* mir)\b"
        rf"{gap(60)}\b{_WEAPON}\b{gap(40)}\b(?:bauen|basteln|herstellen|herzustellen|zu bauen|mischen|mixen|"
        rf"zuenden|zur explosion bringen|detonieren|drucken|3d-?drucken|besorgen|beschaffen|kaufen|selber|selbst)\b"),
    rx(rf"\b(?:anleitung|bauanleitung|bauplan|rezept|tutorial)\w* (?:zum|zur|fuer|fuers)(?: den| die| das| eine?n?)? "
        rf"(?:(?:bau|herstellung|bauen|herstellen|mischen|basteln)\b{gap(30)}\b)?{_WEAPON}\b"),
    rx(rf"(?:^|[.!?\n\"] ?)(?:bitte )?(?:bau|baue|bastle|bastel|mische|mix) (?:mir |uns )?(?:eine?n? |die |den |das )?"
        rf"(?:\w+ )?{_WEAPON}\b"),
    rx(r"\b(?:bombenbau|bombenbauanleitung|sprengstoffherstellung|waffenbau)\w*\b"),
    rx(rf"\bwo (?:kaufe|bekomme|kriege|bestelle|finde) (?:ich|man)\b{gap(30)}\b(?:schusswaffe\w*|waffen?|pistole\w*|"
        rf"gewehr\w*|munition|sprengstoff\w*|revolver)\b|\bdarknet\b{gap(40)}\b{_WEAPON}\b"),
    rx(r"\bwie (?:komme ich|kommt man|kann ich|bekomme ich|kriege ich) (?:illegal |ohne \w+ )?an (?:eine?n? )?"
        r"(?:scharfe )?(?:schusswaffe|waffe|pistole|gewehr|munition|sprengstoff)\b"),
)
_DRUG = words(r"crystal(?: meth)?", r"meth", r"methamphetamin", r"lsd", r"mdma", r"ecstasy", r"kokain", r"koks",
               r"crack", r"heroin", r"amphetamin\w*", r"ghb", r"k\.? ?o\.?-?tropfen", r"fentanyl", r"cannabis",
               r"marihuana", r"haschisch", r"hasch", r"drogen", r"ketamin", r"opium")
_HARM_DRUGS = Rules(
    "crystal|meth|lsd|mdma|ecstasy|kokain|koks|crack|heroin|amphetamin|ghb|tropfen|fentanyl|cannabis|marihuana|"
    "hasch|drogen|ketamin|opium",
    rx(rf"\bwie {_MODAL} {_SUBJ}\b{gap(40)}\b{_DRUG}\b{gap(30)}\b(?:herstellen|kochen|synthetisieren|anbauen|"
        rf"strecken|kaufen|besorgen|bestellen|verkaufen|dealen|schmuggeln|verabreichen|unbemerkt geben)\b"),
    rx(rf"\bwie (?:stelle|koche|synthetisiere|kaufe|bestelle|besorge|verkaufe|schmuggle|stellt|kocht|kauft) "
        rf"{_SUBJ}\b{gap(30)}\b{_DRUG}\b"),
    rx(rf"\bwie {_SUBJ}\b{gap(30)}\b{_DRUG}\b{gap(20)}\b(?:herstellt|herstelle|herstellen kann|kocht|koche|"
        rf"synthetisiert|anbaut|anbaue|kauft|kaufe|bekommt|bekomme|besorgt|besorge|streckt|strecke)\b"),
    rx(rf"\bwo (?:kann ich|kaufe ich|bekomme ich|bestelle ich|kriege ich|kann man|kauft man|bekommt man)\b"
        rf"{gap(30)}\b{_DRUG}\b"),
    rx(rf"\b(?:anleitung|rezept|syntheseweg)\w*\b{gap(30)}\b{_DRUG}\b"),
    rx(r"\bk\.? ?o\.?-?tropfen\b" + gap(40) + r"\b(?:jemandem|ins getraenk|verabreichen|geben|untermischen)\b"),
)
_PERSON = (r"(?:jemanden|jemandem|ihn|sie|einen menschen|menschen|leute|meine?n?|meiner|den lehrer|die lehrerin|"
           r"einen schueler|eine schuelerin|mitschueler\w*|kollegen|kollegin|nachbarn?|nachbarin|chef\w*|frau|mann)\b")
_HARM_VIOLENCE = Rules(
    "vergift|toet|ermord|erschiess|erstech|erwuerg|verletz|verpruegl|verpruegel|umbring|abstech|bring|gift|amok|"
    "schaden|weh zu tun|angst machen|droh|einschuechter|erpress|"
    "anschlag|attentat|massaker",
    rx(rf"\bwie (?:vergifte|toete|ermorde|erschiesse|ersteche|erwuerge|verletze|verpruegle|verpruegel) "
        rf"{_SUBJ} {_PERSON}"),
    rx(rf"\b(?:wie|womit) {_MODAL} {_SUBJ} (?:\w+ ){{0,2}}?{_PERSON} (?:\w+ ){{0,2}}?(?:vergiften|umbringen|toeten|"
        rf"ermorden|erschiessen|erstechen|erwuergen|verpruegeln|abstechen)\b"),
    rx(r"\bwie (?:bringe|bring) (?:ich|man) (?:\w+ ){1,3}?um\b(?! (?:den|die|das|ihre?n?|seine?n?|\d))"),
    rx(r"\b(?:nicht nachweisbar\w*|unauffaellig\w*) (?:gift\w*|vergift\w*)|\bgift\w*,? (?:das|der|die|den) "
        r"(?:man )?nicht nachweis\w*"),
    rx(r"\b(?:amoklauf|amok|anschlag|attentat|massaker|terroranschlag)\w* (?:planen|plane|vorbereiten|verueben|"
        r"durchfuehren)\b|\b(?:plane|planen|vorbereiten|verueben) (?:\w+ ){0,3}?(?:amoklauf|anschlag|attentat|"
        r"massaker)\b"),
    rx(r"\bich (?:bringe|bring|werde) (?:ihn|sie|dich|euch|alle) (?:noch )?(?:um|umbringen|abstechen|"
        r"erschiessen)\b(?! (?:den|die|das|ihre?n?|seine?n?|\d))"),
    rx(rf"\bich (?:will|werde|moechte) {_PERSON} (?:\w+ ){{0,2}}?(?:umbringen|toeten|abstechen|erschiessen|"
        rf"vergiften|ermorden)\b"),
    rx(r"\bwie (?:kann|koennte) (?:ich|man) (?:einem|einer|meinem|meiner|jemandem|ihm|ihr)\b" + gap(40)
        + r"\b(?:angst machen|drohen|einschuechtern|erpressen|bedrohen)\b|\b(?:drohungen|drohen|erpress\w*|"
          r"einschuechter\w*)\b" + gap(40) + r"\bdamit (?:er|sie|es)\b"),
    rx(r"\bum (?:jemanden|jemandem|ihn|ihm|sie|ihr|einen menschen|meine?[nm]? \w+|den \w+|die \w+) (?:\w+ ){0,2}?"
        r"(?:zu schaden|zu verletzen|zu toeten|umzubringen|zu vergiften|weh zu tun|zu ermorden)\b"),
)
_HACK_TARGET = (r"(?:wlan|w-lan|account|konto|server|schulserver|schulnetz\w*|netzwerk|notenportal|iserv|webuntis|"
                r"untis|moodle|lernplattform|instagram|whatsapp|facebook|tiktok|snapchat|handy|smartphone|computer|"
                r"rechner|laptop|pc|e-?mail\w*|passwort\w*|website|webseite|datenbank|kamera\w*|webcam\w*|"
                r"router|smart-?tv|alexa|cloud|icloud|tablet)")
_HACK = Rules(
    "hack|knack|ausspion|ausspaeh|lahmleg|einbrech|eindring|keylogger|trojaner|ransomware|ddos|schadsoftware|"
    "malware|virus|phishing|passwort|passwoert|zugangsdaten|login|account|konto|handy|mail|chat|nachrichten|"
    "webcam|kamera",
    rx(rf"\b{_HACK_TARGET}\b{gap(40)}\b(?:hacken|hacke|hackt|knacken|knacke|ausspionieren|ausspaehen|lahmlegen|"
        rf"einbrechen|eindringen)\b"),
    rx(rf"\b(?:hacken|hacke ich|hackt man|einbrechen in|eindringen in|lahmlegen)\b{gap(40)}\b{_HACK_TARGET}\b"),
    rx(r"\b(?:wie|anleitung|schreib\w*|erstell\w*|programmier\w*|bau\w*|zeig\w*|gib mir)\b" + gap(60)
        + r"\b(?:keylogger|trojaner|ransomware|ddos\w*|schadsoftware|malware|virus (?:programmieren|schreiben)|"
          r"phishing-?(?:mail|seite|nachricht|link|e-mail)\w*)\b"),
    rx(r"\b(?:passwort|passwoerter|zugangsdaten|login|account|konto|handy|e-?mails?|chats?|nachrichten)\w* "
        r"(?:meines|meiner|von meinem|von meiner|des|der|eines|einer) (?:\w+ )?(?:kolleg\w*|schueler\w*|chef\w*|ex\w*|"
        r"freund\w*|nachbar\w*|mann|frau|partner\w*|lehrer\w*|schulleit\w*|mitschueler\w*|tochter|sohn)\b"),
    rx(r"\b(?:passwort|passwoerter|zugangsdaten|login)\w*" + gap(40) + r"\b(?:herausfinden|rausfinden|knacken|"
        r"auslesen|stehlen|klauen|abgreifen|ausspionieren)\b"),
)
_HARM_SELF = Rules(
    "mich|mir|sich|suizid|selbstmord|sterb|leben",
    rx(r"\b(?:wie|womit|auf welche (?:art|weise)|welche (?:methode|art)|am besten)\b" + gap(40)
        + r"\b(?:bringe ich mich um|mich (?:\w+ ){0,2}?(?:umbringen|toeten|umzubringen|zu toeten|erhaengen|"
          r"vergiften|ritzen)|mir (?:\w+ ){0,2}?das leben (?:nehmen|zu nehmen)|suizid begehen|selbstmord begehen|"
          r"mich ritzen|mich (?:selbst )?"
          r"(?:verletzen|zu verletzen)|schmerzlos sterben)\b"),
    rx(r"\bich (?:will|moechte|werde|wuerde am liebsten|muss) (?:mich (?:umbringen|toeten|ritzen)|mir das leben "
        r"nehmen|nicht mehr leben|sterben)\b|\bich (?:bringe|bring) mich um\b"),
    rx(r"\bum mich (?:\w+ ){0,2}?(?:umzubringen|zu toeten|zu verletzen|zu ritzen|zu erhaengen|zu vergiften)\b"
        r"|\bum mir (?:\w+ ){0,2}?das leben zu nehmen\b"),
    rx(r"\bwie (?:ritze|verletze|toete|erhaenge|vergifte|ritzt|verletzt|toetet|erhaengt|vergiftet) (?:ich|man) "
        r"(?:mich|sich)\b"),
)
_HARM_SELF_SOFT = Rules(  # suppressed by a prevention/teaching context
    "suizid|selbstmord|selbsttoet|ritz|sterb|verletz|umzubringen|toeten|leben zu nehmen|tablett|pille|paracetamol|"
    "ibuprofen|insulin|medikament|toedlich",
    rx(r"\b(?:methode\w*|wege?|moeglichkeiten|arten|tipps?|tricks?)\b" + gap(30)
        + r"\bsich (?:selbst )?(?:zu verletzen|zu ritzen|umzubringen|zu toeten|das leben zu nehmen)\b"),
    rx(r"\b(?:suizid|selbstmord|selbsttoetung)(?:methode|anleitung)\w*|\b(?:methoden?|wege?|anleitung|"
        r"moeglichkeiten) (?:zum|zur|fuer den|fuer einen|fuer) (?:suizid|selbstmord|selbsttoetung|ritzen|sterben)\b"),
    rx(r"\b(?:wie ?viele?|welche\w*|welche menge|wie viel|wieviel)\b" + gap(40) + r"\b(?:tabletten|pillen|"
        r"schlaftabletten|paracetamol|ibuprofen|insulin|medikamente)\b" + gap(50)
        + r"\b(?:toedlich\w*|sterben|zu sterben|umbringen|umzubringen|nicht mehr (?:aufwachen|aufzuwachen)|"
          r"nie wieder (?:aufwachen|aufzuwachen)|ueberdosis)\b"),
    rx(r"\b(?:ich|mich|mir)\b" + gap(40) + r"\btoedliche dosis\b|\btoedliche dosis\b" + gap(40)
        + r"\b(?:ich|mich|mir)\b"),
)
_CREATE = (r"(?:schreib\w*|verfass\w*|formulier\w*|erstell\w*|entwirf|entwerf\w*|generier\w*|dicht\w*|mach\w*|"
           r"gib mir|sammle|sammel\w*|erfinde\w*|komponier\w*|texte|reim\w*|denk dir)")
_HATE_ADJ = (r"(?:antisemitisch\w*|rassistisch\w*|volksverhetzend\w*|menschenverachtend\w*|hetzerisch\w*|"
             r"fremdenfeindlich\w*|auslaenderfeindlich\w*|homophob\w*|transfeindlich\w*|islamfeindlich\w*|"
             r"muslimfeindlich\w*|judenfeindlich\w*|frauenfeindlich\w*|behindertenfeindlich\w*|neonazi\w*|"
             r"voelkisch\w*|hasserfuellt\w*|herabwuerdigend\w*)")
_HATE_NOUN = (r"(?:hetz\w*|hass\w*|propaganda\w*|parole\w*|witz\w*|beleidigung\w*|schimpfw\w*|beschimpfung\w*|post|"
    r"posts|"
              r"kommentar\w*|tweet\w*|rede|reden|text|texte|lied\w*|song\w*|gedicht\w*|rap\w*|manifest\w*|"
              r"flugbla\w*|plakat\w*|slogan\w*|meme\w*|spruch|sprueche|aufruf\w*|pamphlet\w*)")
_GROUP = (r"(?:juden|juedinnen|jued\w*|muslim\w*|moslem\w*|auslaender\w*|fluechtling\w*|gefluechtete\w*|migrant\w*|"
          r"asylanten|asylbewerber\w*|schwarze\w*|sinti|roma|tuerken|araber\w*|afrikaner\w*|polen|russen|"
          r"ukrainer\w*|homosexuell\w*|schwule\w*|lesben|queere?n?|transmenschen|transpersonen|behinderte\w*|frauen|"
          r"christen|deutsche)")
# Hateful words next to a creating verb ("erstelle rassistische Witze"); a material or analysis context lifts these.
_HARM_HATE_NEAR = Rules(
    "antisemit|rassist|volksverhetz|menschenverachtend|hetzerisch|feindlich|homophob|neonazi|voelkisch|"
    "hasserfuell|herabwuerdig|propaganda",
    rx(rf"\b{_CREATE}\b{gap(12)}\b(?:eine?n? |mir |uns )?(?:\w+ )?propaganda\w*"),
    rx(rf"\b{_CREATE}\b{gap(60)}\b{_HATE_ADJ}\b{gap(30)}\b{_HATE_NOUN}\b"),
    rx(rf"\b{_CREATE}\b{gap(40)}\b{_HATE_NOUN}\b{gap(40)}\b{_HATE_ADJ}\b"),
)
# Hate against a named group, or dehumanising statements: only an analysis context lifts these.
_HARM_HATE = Rules(
    "gegen|propaganda|minderwertig|untermensch|ungeziefer|parasit|schaedling|abschaum|tiere|schuld|kriminell|"
    "vertreiben|"
    "unglueck|vergasen|ausrotten|vernichten|abschlachten|holocaust",
    rx(rf"\b{_CREATE}\b{gap(60)}\b{_HATE_NOUN}\b{gap(40)}\bgegen (?:die |alle )?{_GROUP}\b"),
    rx(rf"\b{_CREATE}\b{gap(60)}\b{_GROUP}\b{gap(30)}\b(?:schuld|minderwertig\w*|kriminell\w*|parasit\w*|"
        rf"untermensch\w*|ungeziefer|abschaum|ausrotten|vertreiben|vernichten)\b"),
    rx(rf"\b{_CREATE}\b{gap(30)}\b(?:eine?n?|mir eine?n?) (?:\w+ )?(?:nazi|ns)-?propaganda\w*"),
    rx(rf"\b{_GROUP} (?:sind|als|waren)\b{gap(20)}\b(?:minderwertig\w*|untermensch\w*|ungeziefer|parasit\w*|"
        rf"schaedling\w*|abschaum|tiere|schuld an allem|unser unglueck)\b"),
    rx(rf"\b{_GROUP}\b{gap(20)}\b(?:minderwertig\w*|untermenschen|ungeziefer|parasiten|abschaum) (?:sind|seien|"
        rf"waren)\b"),
    rx(rf"\b{_GROUP} (?:vergasen|ausrotten|vernichten|abschlachten)\b|\bholocaust (?:hat es nie gegeben|ist eine "
        rf"luege|war eine luege|hat nie stattgefunden|leugn\w*)|\bden holocaust leugn\w*"),
)
_EROTIC_HARD = r"(?:erotisch\w*|sexgeschicht\w*|sexszene\w*|sexstor\w*|sexuelle? fantasie\w*|sexuelle? phantasie\w*)"
_EROTIC_SOFT = (r"(?:porno\w*|nackt\w*|sexuelle?n? (?:bilder|fotos|videos|handlung\w*|darstellung\w*|inhalte)|"
                r"intime? (?:bilder|fotos|videos)|sex mit|sex\b|anzueglich\w*|lolita|loli)")
_MINOR = (r"(?:kind\w*|minderjaehrig\w*|schueler\w*|maedchen|jungen?|\d{1,2}-?jaehrig\w*|(?:zwoelf|dreizehn|"
          r"vierzehn|fuenfzehn|sechzehn|siebzehn|zehn|elf|neun|acht)jaehrig\w*|teen\w*|jugendlich\w*|"
          r"grundschueler\w*|unter (?:14|16|18))")
# Erotic content *about* a minor ("über eine Schülerin") is refused whatever else the text says; mere co-occurrence
# ("erotische Lyrik des Barock mit Schülern der Q2 besprechen") only without a teaching or analysis context.
_HARM_MINORS_HARD = Rules(
    "erot|sex|fantasie|phantasie",
    rx(rf"\b{_EROTIC_HARD}\b{gap(40)}\b(?:ueber|zwischen|von|mit) (?:eine?[mnr]? |zwei |die |den |dem |der )?"
        rf"(?:\w+ )?{_MINOR}\b"),
)
_HARM_MINORS_NEAR = Rules(
    "erot|sex|fantasie|phantasie",
    rx(rf"\b{_EROTIC_HARD}\b{gap(80)}\b{_MINOR}\b"),
    rx(rf"\b{_MINOR}\b{gap(80)}\b{_EROTIC_HARD}\b"),
)
_HARM_MINORS_SOFT = Rules(
    "porno|nackt|sex|intim|anzueglich|loli",
    rx(rf"\b{_EROTIC_SOFT}{gap(60)}\b{_MINOR}\b"),
    rx(rf"\b{_MINOR}\b{gap(60)}\b{_EROTIC_SOFT}"),
)
_SEX_ED = rx(r"\b(?:sexualkunde|sexualerziehung|sexualpaedagog\w*|aufklaerung\w*|praevention\w*|schutz\w*|"
              r"schuetz\w*|missbrauch\w*|grooming|cybergrooming|sexting|strafbar\w*|risiken|gefahren|verdacht\w*|"
              r"melden|hilfe\w*|warnsignal\w*|medienkompetenz|jugendschutz|pubertaet|verhuetung)\b")
_DRUG_PREVENTION = rx(r"\b(?:praevention\w*|drogenpraevention|suchtpraevention|aufklaer\w*|sucht\w*|gefahren|"
                       r"risiken|unterricht\w*|arbeitsbl\w*|quiz\w*|klausur\w*|roman\w*|film\w*|serie\w*)\b")
_SELF_HARM_CONTEXT = rx(r"\b(?:praevention\w*|suizidpraevention|werther\w*|vorbeug\w*|hilfsangebot\w*|"
                         r"erkennen|anzeichen|warnsignal\w*|unterricht\w*|arbeitsbl\w*|klausur\w*|roman\w*|"
                         r"figur\w*|gedicht\w*|novelle\w*|drama\w*|interpretation\w*|ethik\w*|pharmakolog\w*)\b")
_VIOLENCE_CONTEXT = rx(r"\b(?:verhinder\w*|vorbeug\w*|schuetz\w*|praevention\w*|gewaltpraevention|roman\w*|umgang|"
                        r"reagier\w*|gehe ich damit um|hilfe holen|"
                        r"figur\w*|drama\w*|novelle\w*|szene\w*|interpretation\w*|krimi\w*|spiel\w*|film\w*)\b")


def harmful(folded: str) -> str | None:
    """The refusal message when the text asks for harm, else None."""
    if _HARM_SELF.search(folded):
        return MSG_SELF_HARM
    if _HARM_SELF_SOFT.search(folded) and not has(_SELF_HARM_CONTEXT, folded):
        return MSG_SELF_HARM
    if _HARM_MINORS_HARD.search(folded):
        return MSG_MINORS
    teaching = is_teaching(folded) or has(ANALYSIS, folded)
    if not teaching and _HARM_MINORS_NEAR.search(folded):
        return MSG_MINORS
    if not teaching and _HARM_MINORS_SOFT.search(folded) and not has(_SEX_ED, folded):
        return MSG_MINORS
    if _HARM_WEAPON.search(_HARMLESS_BOMB.sub(" ", folded)):
        return MSG_HARMFUL
    if _HARM_DRUGS.search(folded) and not has(_DRUG_PREVENTION, folded):
        return MSG_HARMFUL
    if _HARM_VIOLENCE.search(folded) and not has(_VIOLENCE_CONTEXT, folded):
        return MSG_HARMFUL
    if _HACK.search(folded) and not has(PREVENT, folded) and not is_teaching(folded):
        return MSG_HARMFUL
    if not has(ANALYSIS, folded):
        if _HARM_HATE.search(folded):
            return MSG_HATE
        if _HARM_HATE_NEAR.search(folded) and not is_teaching(folded):
            return MSG_HATE
    return None
