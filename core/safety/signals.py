"""Teaching signals shared by several rules: a material, a subject, prevention, analysis — enough to outweigh
an out-of-scope or a harm word."""

from __future__ import annotations

from core.safety.text import has, rx

_MATERIAL = rx(
    r"\b(?:(?:klausur\w*|klassenarbeit\w*|kursarbeit\w*|schulaufgabe\w*|lernkontroll\w*|leistungskontroll\w*|"
    r"lernstandserhebung\w*|vokabeltest\w*|kurztest\w*|wissenstest\w*|arbeitsbl\w*|uebungsbl\w*|"
    r"uebungsaufgabe\w*|uebungsmaterial\w*|aufgabenbl\w*|aufgabenstellung\w*|textaufgabe\w*|sachaufgabe\w*|quiz\w*|"
    r"h5p|lueckentext\w*|kreuzwortraetsel\w*|zuordnungsaufgabe\w*|multiple[- ]choice|differenzier\w*|"
    r"niveaustufe\w*|erwartungshorizont\w*|notenschluessel\w*|bewertungs\w*|punkteverteilung|afb|"
    r"anforderungsbereich\w*|operatoren|unterricht\w*|doppelstunde\w*|stundenentwurf\w*|stundenverlauf\w*|"
    r"stundeneinstieg|verlaufsplan\w*|tafelbild\w*|lernziel\w*|kompetenz\w*|lehrplan\w*|rahmenlehrplan\w*|"
    r"bildungsplan\w*|kerncurriculum|lernzirkel\w*|stationenlernen|lernstation\w*|stationsarbeit|wochenplanarbeit|"
    r"lerntheke\w*|lernpfad\w*|hilfekarte\w*|musterloesung\w*|foerdermaterial\w*|sus|lerngruppe\w*|"
    r"leistungskurs\w*|grundkurs\w*|klassenfahrt\w*|exkursion\w*|wandertag\w*|schullandheim\w*|projekttag\w*|"
    r"projektwoche\w*|elternabend\w*|jahrgangsstufe\w*|oberstufe|sekundarstufe|abitur\w*|informatik\w*|"
    r"im fach|vertretungsstunde\w*|schulstunde\w*|klassenleiterstunde\w*|klassenrat|\w+praevention)\b"
    r"|(?:eine|die|meine|unsere|naechste|letzte|erste|ganze) (?:\w+ )?stunde (?:zu|zum|zur|ueber|vor|in|mit|fuer)\b"
    r"|sek ?(?:i|ii|1|2)\b|klasse ?\d|\d{1,2}\. ?klasse|jahrgang ?\d"
    r"|(?:fuer|mit|in) (?:die|der|meine|meiner|unsere|unserer) \d{1,2} ?[a-z]\b"
    r"|(?:meine|meinen|meiner|unsere|unseren|den|die|der) schueler(?:innen|n)?\b|meiner klasse\b)"
)
_SUBJECT = rx(
    r"\b(?:mathe\w*|deutsch\w*|englisch\w*|franzoesisch\w*|spanisch\w*|latein\w*|physik\w*|chemie\w*|biologie\w*|"
    r"bio|geschichte|geschichts\w+|geografie|geographie|erdkunde|politik\w*|sozialkunde|gemeinschaftskunde|"
    r"wirtschaft\w*|religion\w*|ethik\w*|philosophie\w*|kunst\w*|musik\w*|sport\w*|sachunterricht|"
    r"naturwissenschaft\w*|nawi|gesellschaftslehre|hauswirtschaft|technik)\b"
)
PREVENT = rx(
    r"(?<!nicht )\b(?:erkennen|erkenne ich|erkennt man|verhinder\w*|vorbeug\w*|vermeid\w*|unterbind\w*|aufdeck\w*|"
    r"aufdecken|entdecken|ertappen|erwischen|erwische ich|umgang mit|reagieren|reagiere ich|massnahme\w*|"
    r"taeuschungsversuch\w*|sanktion\w*|konsequenz\w*|praevention\w*|\w+praevention|sorge ich dafuer|schuetzen|"
    r"merke ich|bemerke ich|feststellen|nachweisen|nachweise ich|ueberpruefen|ueberpruefe ich|"
    r"schuetze ich|aufklaer\w*|damit um|gehe ich (?:\w+ ){0,4}?um)\b"
)
ANALYSIS = rx(
    r"\b(?:analys\w*|analysier\w*|untersuch\w*|erkennen|erkenne|entlarv\w*|vergleich\w*|einordn\w*|quelle\w*|"
    r"quellenkritik|interpretier\w*|interpretation\w*|widerleg\w*|gegenrede|gegenargument\w*|aufklaer\w*|"
    r"praevention\w*|zivilcourage|courage|diskutier\w*|reflektier\w*|thematisier\w*|besprech\w*|wirkung\w*|"
    r"umgang|gegen (?:rassismus|antisemitismus|hass|hetze|rechts|diskriminierung)|menschenrechte|demokratie\w*|"
    r"vorurteil\w*|stereotyp\w*|klischee\w*|fakten\w*|faktencheck|dargestellt|darstellung\w*)\b"
)


# Words that are teaching words only next to a subject: "Übungen" for the back, "Test" for Corona, "Niveau" of a hotel.
MATERIAL_WEAK = rx(r"(?<!-)\b(?:uebung|uebungen|tests?|niveaus?|vokabel\w*|moodle|docx|material\w*)\b")


def is_teaching(folded: str) -> bool:
    """A clear teaching signal (a material, a class, the classroom) — enough to outweigh an out-of-scope word."""
    return has(_MATERIAL, folded) or (has(MATERIAL_WEAK, folded) and has(_SUBJECT, folded))
