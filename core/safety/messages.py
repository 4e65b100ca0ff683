"""The German refusal and hint messages (Sie-form, polite): each refusal says what the workbench can do
instead; placeholders that replace personal data."""

from __future__ import annotations

from collections.abc import Iterable

from core.safety.models import Finding

CAN_DO = ("Die Werkbank ist für Ihren Unterricht da: Ich erstelle Klausuren mit Erwartungshorizont und "
          "Notenschlüssel, differenzierte Arbeitsblätter in drei Niveaus und interaktive H5P-Übungen – zu jedem "
          "Fach und Thema.")

_OOS_TOPICS: dict[str, tuple[str, str]] = {
    # key: (what it is, a teaching angle on the same topic)
    "cooking": ("Kochrezepte und Essensplanung", "ein Arbeitsblatt zur Textsorte Rezept oder zu gesunder Ernährung"),
    "travel": ("private Reiseplanung", "eine Exkursion, eine Klassenfahrt oder ein Quiz zu einem Reiseland"),
    "finance": ("Geldanlage, Steuern und Finanztipps",
                "eine Unterrichtsstunde zu Aktien, Zinsen oder Inflation für Wirtschaft oder Mathematik"),
    "private_writing": ("private Texte wie Briefe, Glückwünsche oder Bewerbungen",
                        "ein Arbeitsblatt zum Schreiben von Briefen oder Bewerbungen für Ihre Klasse"),
    "coding": ("Programmierhilfe außerhalb des Unterrichts",
               "Übungsaufgaben oder ein Quiz zu Python, Algorithmen oder HTML für den Informatikunterricht"),
    "medical": ("persönliche medizinische Fragen – bitte wenden Sie sich dafür an eine Ärztin oder einen Arzt",
                "ein Arbeitsblatt zu Krankheiten, Immunsystem oder Erster Hilfe für Biologie"),
    "legal": ("persönliche Rechtsfragen – verbindlich beraten Sie z. B. Ihr Personalrat, Ihre Gewerkschaft oder "
              "eine Anwältin bzw. ein Anwalt", "eine Stunde zu Grundrechten oder zum Rechtsstaat für Politik"),
    "erotic": ("erotische Inhalte", "altersgerechtes Material zur Sexualerziehung"),
    "shopping": ("Kaufberatung und Produktvergleiche", "eine Stunde zu Verbraucherbildung oder Werbung"),
    "everyday": ("Alltagsfragen außerhalb der Schule", "Material zu genau diesem Thema für Ihren Unterricht"),
}


def oos_message(topic: str) -> str:
    what, angle = _OOS_TOPICS[topic]
    return (f"Dabei kann ich Ihnen leider nicht helfen – {what} gehört nicht zu den Aufgaben der Werkbank. "
            f"{CAN_DO} Wenn Sie das Thema im Unterricht aufgreifen möchten, erstelle ich gern z. B. {angle}.")


MSG_HOMEWORK = (
    "Hausaufgaben, Aufsätze oder Referate, die Schülerinnen und Schüler selbst abgeben sollen, schreibt die "
    "Werkbank nicht. Sie ist ein Werkzeug für Lehrkräfte: Ich erstelle z. B. Übungsaufgaben mit Lösungen, "
    "Hilfekarten in drei Niveaus oder eine Checkliste zum Aufsatzschreiben. Wenn du Schülerin oder Schüler bist: "
    "Frag gern deine Lehrkraft nach Übungsmaterial – selbst geschrieben lernst du am meisten."
)
MSG_CHEATING = (
    "Beim Schummeln, beim Umgehen von Prüfungsregeln oder beim Beschaffen von Prüfungslösungen helfe ich nicht. "
    "Gern erstelle ich stattdessen Übungsaufgaben mit Lösungen zur Vorbereitung auf eine Klausur oder Ideen, wie "
    "Sie Täuschungsversuchen in Prüfungen vorbeugen. " + CAN_DO
)
MSG_HARMFUL = (
    "Anleitungen zu Waffen, Sprengstoffen, Giften, Drogen oder Angriffen auf Menschen und Computersysteme gebe "
    "ich nicht. Für den Unterricht erstelle ich gern Material zu den Themen selbst – z. B. zu "
    "Verbrennungsreaktionen in Chemie, zur Drogen- und Gewaltprävention oder zu IT-Sicherheit in Informatik."
)
MSG_SELF_HARM = (
    "Das klingt, als ginge es Ihnen oder jemandem in Ihrem Umfeld gerade sehr schlecht. Bei Methoden, sich selbst "
    "zu verletzen, helfe ich nicht – aber niemand muss damit allein bleiben: Die TelefonSeelsorge ist rund um die "
    "Uhr kostenlos und anonym erreichbar unter 0800 111 0 111 oder 0800 111 0 222 (auch online unter "
    "telefonseelsorge.de); Kinder und Jugendliche erreichen die Nummer gegen Kummer unter 116 111. In akuter "
    "Gefahr wählen Sie bitte den Notruf 112. Für den Unterricht erstelle ich gern Material zur Suizidprävention "
    "und zu Hilfsangeboten."
)
MSG_HATE = (
    "Hetze, Propaganda oder herabwürdigende Inhalte gegen Menschengruppen erstelle ich nicht. Für den Unterricht "
    "helfe ich gern, solche Inhalte zu analysieren und zu entlarven – z. B. mit einem Arbeitsblatt zur Analyse "
    "von NS-Propaganda oder zu Strategien gegen Hassrede im Netz."
)
MSG_MINORS = (
    "Sexualisierte Inhalte mit Kindern oder Jugendlichen erstelle ich unter keinen Umständen. Für den Unterricht "
    "erstelle ich gern altersgerechtes Material zur Sexualerziehung oder zur Prävention sexualisierter Gewalt. "
    "Bei einem Verdacht auf sexualisierte Gewalt berät das Hilfe-Telefon Sexueller Missbrauch kostenlos und "
    "anonym unter 0800 22 55 530."
)
MSG_PERSONAL_REFUSED = (
    "Aus Datenschutzgründen erstelle ich keine Gutachten, Berichte oder Einschätzungen zu namentlich genannten "
    "Schülerinnen und Schülern und speichere keine Angaben zu ihnen (Namen, Noten, Diagnosen, Kontaktdaten). Gern "
    "erstelle ich eine anonymisierte Vorlage – z. B. „Förderplan für einen Schüler der Klasse 7 mit LRS“ – oder "
    "passendes Fördermaterial für Ihre Klasse."
)
MSG_INJECTION_REFUSED = (
    "Ihre Nachricht enthält nur eine Anweisung an das System (z. B. „ignoriere alle vorherigen Anweisungen“). "
    "Solchen Anweisungen folge ich nicht, und meine internen Vorgaben gebe ich nicht heraus. Sagen Sie mir gern, "
    "welches Material Sie brauchen – z. B. „Klausur Physik Klasse 9, Optik, 45 Minuten“. " + CAN_DO
)
MSG_INJECTION_NOTE = (
    "Hinweis: Der Text enthält eine eingebettete Anweisung an das System (etwa „ignoriere alle Anweisungen“). Sie "
    "wird nicht befolgt – ich bearbeite nur Ihre eigentliche Anfrage."
)
MSG_CHECKER_REFUSED = "Bei dieser Anfrage kann ich leider nicht helfen. " + CAN_DO

KIND_LABELS: dict[str, str] = {
    "name": "Namen", "email": "E-Mail-Adressen", "phone": "Telefonnummern", "address": "Adressen",
    "birthdate": "Geburtsdaten", "iban": "Bankverbindungen", "health": "Gesundheitsangaben",
    "grade_of_pupil": "Noten",
}
REPLACEMENTS: dict[str, str] = {
    "name": "[Name entfernt]", "email": "[E-Mail entfernt]", "phone": "[Telefonnummer entfernt]",
    "address": "[Adresse entfernt]", "birthdate": "[Geburtsdatum entfernt]", "iban": "[IBAN entfernt]",
    "health": "[Gesundheitsangabe entfernt]", "grade_of_pupil": "[Note entfernt]",
}


def personal_hint(findings: Iterable[Finding]) -> str:
    kinds = list(dict.fromkeys(KIND_LABELS[f.kind] for f in findings))
    listed = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " und " + kinds[-1]
    return (f"Hinweis zum Datenschutz: Ihre Nachricht enthält personenbezogene Angaben ({listed}). Ich habe sie "
            "entfernt und speichere sie nicht – für das Material sind sie auch nicht nötig. Beschreiben Sie den "
            "Bedarf am besten anonym, z. B. „ein Schüler mit LRS in Klasse 7“.")
