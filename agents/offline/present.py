"""The offline main agent's words for a tool result: what the teacher reads in the chat and the CLI (markers like
[session:…] stay in the history only; a shortened material's options as a numbered list she can answer with)."""

from __future__ import annotations

import re

from pydantic_ai.messages import ToolReturnPart

from agents.offline import refusal
from agents.offline.messages import text_of


def present(part: ToolReturnPart) -> str:
    """A tool result in the words the teacher reads (markers like [session:…] stay in the history only)."""
    text = text_of(part.content)
    if text.startswith(("MATERIALSET_FERTIG", "MATERIALSET_RÜCKFRAGEN")):
        body = text.split("\n", 1)[1] if "\n" in text else text
        return re.sub(r"\[(session|material):[0-9a-fA-F-]{36}\]", "", body).strip()
    if text.startswith("RÜCKFRAGE_AN_LEHRER"):
        head, _, rest = text.partition(": ")
        who = re.search(r"\((.*?)\)", head)
        frage = rest.split("\n", 1)[0]
        kontext = re.search(r"^Kontext: (.*)$", text, re.M)
        vorschlaege = re.search(r"^Vorschläge: (.*)$", text, re.M)
        lines = [f"Der {who.group(1) if who else 'Fach-Assistent'} hat eine Rückfrage: **{frage}**"]
        if kontext:
            lines.append(kontext.group(1))
        if vorschlaege and vorschlaege.group(1) != "keine":
            lines.append("")
            lines += [f"- {v.split(') ', 1)[-1]}" for v in vorschlaege.group(1).split(" | ")]
            lines.append("\nWählen Sie einen Vorschlag oder antworten Sie frei.")
        return "\n".join(lines)
    if text.startswith("MATERIAL_FERTIG"):
        body = text.split("\n")[1:]
        if not body:
            return "Fertig."
        lines = [f"Fertig: **{body[0]}**"] + [f"- {line}" for line in body[1:]
                                                if not line.startswith(("Dateien", refusal.OFFERED))]
        files = next((line for line in body if line.startswith("Dateien")), "")
        if files:
            lines.append(f"\n{files} — zum Herunterladen unten. Sagen Sie gern, was gut ist oder was ich ändern soll.")
        if options := refusal.offered(next((line for line in body if line.startswith(refusal.OFFERED)), "")):
            lines.append(refusal.options_list(options, after_material=True))
        return "\n".join(lines)
    if text.startswith("FEHLER: "):
        return refusal.as_list(text[len("FEHLER: "):])
    if text.startswith("DATEIEN"):
        return text.split("\n", 1)[-1]
    return text
