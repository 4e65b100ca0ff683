"""Word lists of teacher requests: FILLER_WORDS never name a topic (function words, asking verbs, greetings, time
and size words), META_WORDS speak about the material, class or school; connectors and articles."""

from __future__ import annotations


def word_set(text: str) -> frozenset[str]:
    """A word list written as one string (easier to read and extend than a list of quoted words)."""
    return frozenset(text.split())


FILLER_WORDS = word_set("""
    a ab aber all alle allem allen aller alles also als am an auch auf aus bei beim bis bitte bzw da dabei dafuer
    dann darf das dass dazu dein deine dem den denn der des dessen dich die dies diese diesem diesen dieser dieses
    diesmal doch dort du durch eben eher ein eine einem einen einer eines einfach einige einmal er es etwa etwas
    euch euer fuer gegen gern gerne gleich ganz gar genau hier ich ihm ihn ihnen ihr ihre im in ins irgendwie ist ja
    je jede jeden jeder jedes jetzt kein keine keinem keinen keiner man mal manchmal mehr mein meine meinem meinen
    meiner mich mir mit moeglichst n nach ne nen nein nicht noch nochmal nun nur ob oder ohne per pro schon sehr
    sein seine sich sie so sodass solch sondern sowie statt um und uns unser unsere unserem unseren unserer unter
    viel viele vom von vor vorher wann war waren warum was weil welche welchem welchen welcher welches wenn wer wie
    wieder wir wo wohl zu zum zur zwar zwischen
    brauche braeuchte brauchen brauchst benoetige benoetigen moechte moechten moechtest will willst wollen wuerde
    wuerden wuerdest haette haetten haettest habe haben hast hat hatte kannst kann koennen koenntest koennte
    muss muessen musst soll sollen sollte sollten wird werden wurde wirst mach mache machen machst macht erstelle
    erstellen erstellst erstell erstellt generiere generieren generier schreibe schreiben schreib schreibst
    entwirf entwerfen entwickle entwickeln plane planen gib geben gibst schick schicke schicken liefere liefern
    erzeuge erzeugen baue bauen bereite vorbereiten suche suchen helfen hilf hilfst geht gehen gehe lass lassen
    tun bekomme bekommen kriege kriegen waere sind bin bist seid nehmen nimm nutze nutzen verwenden verwende
    behandeln behandelt behandle durchnehmen durchgenommen wiederholen ueben lernen lernt unterrichte unterrichten
    unterrichtet danke dank hallo hi hey moin servus tag guten liebe lieber liebes gruss gruesse lg vg vielen
    bitteschoen okay ok prima super toll
    heute morgen gestern uebermorgen gerade bald demnaechst naechste naechsten naechster naechstes kommende
    letzte letzten letzter letztes vergangene vergangenen vergangenes
    kommenden anstehende anstehenden diese woche wochen montag dienstag mittwoch donnerstag freitag
    neue neuen neues neuer kurze kurzen kurzes kleine kleinen kleines einfache einfachen leichte leichten schwere
    schweren schwierige anspruchsvolle anspruchsvollen gute guten schoene schoenen passende passenden
    schwer leicht lang lange kurz schnell hoch niedrig wenig wenige weniger insgesamt ca circa ungefaehr maximal
    mindestens hoechstens zirka etwa immer grundsaetzlich generell stets
    eins zwei drei vier fuenf sechs sieben acht neun zehn elf zwoelf
    """)
META_WORDS = word_set("""
    klasse klassen klassenstufe jahrgang jahrgangsstufe stufe lerngruppe gruppe kurs leistungskurs grundkurs lk gk
    schueler schuelerinnen schuelern sus lernende lernenden kinder jugendliche lehrer lehrerin lehrkraft kollege
    kollegin referendar referendarin frau herr
    aufgabe aufgaben teilaufgabe teilaufgaben frage fragen quizfragen item items material materialien unterricht
    unterrichtsstunde stunde stunden doppelstunde einzelstunde thema themen themenbereich themenfeld schwerpunkt
    schwerpunkte inhalt inhalte afb anforderungsbereich anforderungsbereiche niveau niveaus niveaustufen loesung
    loesungen musterloesung erwartungshorizont punkte punkten bewertung noten notenschluessel hilfe hilfen
    hilfekarten tipps vorschlag vorschlaege idee ideen entwurf version variante bereich fach faecher minuten min
    zeit dauer prozent bonusaufgabe zusatzaufgabe vorbereitung wiederholung einstieg einfuehrung uebung uebungen
    festigung sicherung vertiefung ueberblick grundlagen abschluss vorlage format layout beispiel beispiele
    schule gymnasium realschule gesamtschule hauptschule oberschule gemeinschaftsschule sekundarschule
    stadtteilschule mittelschule grundschule berufsschule schuljahr halbjahr semester abitur abi oberstufe
    jahr jahres vorjahr termin datum unterstufe mittelstufe sekundarstufe bayern hessen sachsen berlin hamburg
    bremen nrw niedersachsen thueringen
    brandenburg saarland bw i ii iii iv topic topics anforderungsniveau anforderungsniveaus grundlegend erhoeht
    """)
CONNECTORS = word_set(
    "und sowie der des von vom im am in mit oder bzw bei beim an um nach vor seit bis and of vs versus"
)

ARTICLES = word_set("den die das dem der einem einer einen eine ein")


# The words of a free reply to a question or to offered options („Standard passt“, „ok, dann so“, „egal“, „wie
# vorgeschlagen“): such a reply agrees or leaves the choice open — it never names a topic.
REPLY_WORDS = word_set("""
    ja jo jep ok okay o k gut gute prima super toll perfekt passt passen passend stimmt genau richtig einverstanden
    klar sicher gern gerne bitte danke dann so das den die der es wie so vorgeschlagen vorgeschlagene vorschlag
    vorschlaege standard standardmaessig default ueblich uebliche normal normale egal beliebig irgendwas irgendwie
    hauptsache alles auch mir uns ist sind wird nehmen nimm nehme mach mache machen los weiter weitermachen fein
    schon sowieso eh einfach lass lassen wir ich du sie sie oben erste vorherige fine sure yes alright whatever""")


# The words that make a message a reply at all: „Das“ alone is the topic das/dass, „Das passt“ is a reply.
_REPLY_MARKERS = word_set("""
    ja jo jep ok okay gut prima super toll perfekt passt passen stimmt genau richtig einverstanden klar gern gerne
    danke vorgeschlagen vorgeschlagene vorschlag standard standardmaessig default ueblich normal egal beliebig
    irgendwas hauptsache los weiter fein fine sure yes alright whatever""")


def only_reply(words: list[str]) -> bool:
    """The folded words are all words of a free reply, one of them agreement or indifference: no topic."""
    return bool(words) and all(w in REPLY_WORDS for w in words) and any(w in _REPLY_MARKERS for w in words)
