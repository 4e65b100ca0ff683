"""The arguments of `python -m core`: every command with its options, German one-line errors (exit code 2), and
which group module and function run a command (`main` loads the group only then)."""

from __future__ import annotations

import argparse
import re
from typing import NoReturn


class GermanParser(argparse.ArgumentParser):
    """argparse with German one-line errors (exit code 2)."""

    def error(self, message: str) -> NoReturn:
        m = re.match(r"the following arguments are required: (.*)", message)
        if m:
            text = f"Es fehlt: {m.group(1)}."
        elif (m := re.match(r"argument (\S+): invalid choice: '?([^']*)'? \(choose from (.*)\)", message)):
            text = f"Ungültiger Wert „{m.group(2)}“ für {m.group(1)}. Möglich: {m.group(3)}."
        elif (m := re.match(r"argument (\S+): invalid (\w+) value: '?([^']*)'?", message)):
            text = f"Ungültiger Wert „{m.group(3)}“ für {m.group(1)} (erwartet: Zahl)."
        elif (m := re.match(r"unrecognized arguments: (.*)", message)):
            text = f"Unbekannte Argumente: {m.group(1)}."
        elif (m := re.match(r"argument (\S+): expected one argument", message)):
            text = f"{m.group(1)} braucht einen Wert."
        elif (m := re.match(r"argument (\S+): (.*)", message)):
            text = f"Ungültiger Wert für {m.group(1)}: {m.group(2)}."
        else:
            text = f"Ungültiger Aufruf ({message})."
        self.exit(2, f"Fehler: {text} Hilfe: python -m core --help\n")


def _rows_arg(value: str) -> str:
    if not re.fullmatch(r"\d+(,\d+)*", value.replace("_", "")):
        raise argparse.ArgumentTypeError("Zahlen durch Komma getrennt erwartet")
    return value.replace("_", "")


def _count(low: int, high: int | None = None):  # noqa: ANN202
    """An argparse type: a whole number in [low, high]; anything else is a German one-line error (exit 2)."""

    def parse(value: str) -> int:
        try:
            n = int(value.strip().replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"„{value[:20]}“ ist keine ganze Zahl") from None
        if n < low or (high is not None and n > high):
            span = f"ab {low}" if high is None else f"von {low} bis {high}"
            raise argparse.ArgumentTypeError(f"erwartet eine ganze Zahl {span}")
        return n

    return parse


def _command(sub: argparse._SubParsersAction, name: str, handler: str, **kwargs: str) -> argparse.ArgumentParser:
    """A sub-command run by `handler` ('group.function' in core.ops.cli)."""
    s = sub.add_parser(name, **kwargs)
    group, function = handler.split(".")
    s.set_defaults(group=group, handler=function)
    return s


def _operations(sub: argparse._SubParsersAction) -> None:
    s = _command(sub, "db-info", "database.cmd_db_info", help="Server, pgvector, Migration, Zeilenzahlen")
    s.add_argument("--json", action="store_true")
    _command(sub, "seed", "database.cmd_seed", help="Seed-Daten einspielen (idempotent)")


def _knowledge(sub: argparse._SubParsersAction) -> None:
    s = _command(sub, "wissenskarte", "knowledge.cmd_wissenskarte",
                 help="Die Wissenskarte, wie der Spezialist sie sieht")
    s.add_argument("--teacher", help="ID oder E-Mail (Standard: Demo-Lehrkraft Physik/Mathe)")
    s.add_argument("--agent", default="klausur", choices=["klausur", "differenzierung", "h5p"])
    s.add_argument("--fach", required=True)
    s.add_argument("--json", action="store_true")
    s = _command(sub, "import-knowledge", "knowledge.cmd_import",
                 help="Wissen aus einer JSON-Datei importieren (alles oder nichts)")
    s.add_argument("file")
    s = _command(sub, "search", "knowledge.cmd_search", help="Hybride Suche in Good Practices oder Lehrplan")
    s.add_argument("query")
    s.add_argument("--fach")
    s.add_argument("--teacher")
    s.add_argument("--kind", default="good_practice", choices=["good_practice", "curriculum"])
    s.add_argument("--agent", default="klausur", choices=["klausur", "differenzierung", "h5p"])
    s.add_argument("--limit", type=int, default=10)
    s.add_argument("--json", action="store_true")
    _command(sub, "reembed", "database.cmd_reembed", help="Einträge mit anderem Embedder neu einbetten")


def _bench(sub: argparse._SubParsersAction) -> None:
    s = _command(sub, "bench", "bench.cmd_bench", help="Benchmarks (schreibt docs/benchmarks.md)")
    s.add_argument("what", choices=["wissenskarte", "search", "chat", "pages", "load", "all"])
    s.add_argument("--runs", type=_count(1, 1000), default=20, help="nur für chat: Zahl der gemessenen Durchläufe")
    s.add_argument("--rows", type=_rows_arg, default="10000,100000")
    s.add_argument("--teachers", type=_count(1, 100_000), default=1000)
    s.add_argument("--queries", type=_count(1, 100_000), default=200)
    s.add_argument("--processes", default="", help="nur für load: App-Prozesse je Messung, z. B. 1,2")
    s.add_argument("--no-write", action="store_true", help="nur ausgeben, docs/benchmarks.md nicht ändern")
    s.add_argument("--keep", action="store_true", help="nur für wissenskarte/search: Benchmark-Datenbank behalten")
    s.add_argument("--reuse", action="store_true",
                   help="nur für wissenskarte/search: eine behaltene Benchmark-Datenbank erneut messen")


def _teaching(sub: argparse._SubParsersAction) -> None:
    s = _command(sub, "chat", "teaching.cmd_chat", help="Eine Nachricht an die Werkbank (ein Zug des Gesprächs)")
    s.add_argument("message")
    s.add_argument("--teacher")
    group = s.add_mutually_exclusive_group()
    group.add_argument("--conversation", help="Gesprächs-ID zum Fortsetzen")
    group.add_argument("--new", action="store_true", help="neues Gespräch")
    s.add_argument("--out", help="Ordner für erzeugte Dateien")
    s.add_argument("--json", action="store_true")
    s = _command(sub, "material", "teaching.cmd_material", help="Ein gespeichertes Material anzeigen")
    s.add_argument("material_id")
    s.add_argument("--teacher")
    s.add_argument("--json", action="store_true")
    s = _command(sub, "rate", "teaching.cmd_rate", help="Ein Material mit 1–5 Sternen bewerten")
    s.add_argument("material_id")
    s.add_argument("stars", type=int)
    s.add_argument("--task", help="nur eine Teilaufgabe, z. B. 2b")
    s.add_argument("--teacher")


def _upkeep(sub: argparse._SubParsersAction) -> None:
    _command(sub, "health", "database.cmd_health", help="Zustand für den Betrieb (Exit-Code 1 bei Problemen)")
    s = _command(sub, "retention", "database.cmd_retention",
                 help="Abgelaufene Rückfragen und alte Protokolle aufräumen")
    days = _count(0, 36_500)  # a hundred years; more overflows the date arithmetic
    s.add_argument("--session-days", type=days, default=None, help="erledigte Rückfragen behalten (Tage, Std. 30)")
    s.add_argument("--trace-days", type=days, default=None,
                   help="Modellaufruf-Protokolle behalten (Tage, Std. 90)")
    s.add_argument("--conversation-days", type=days, default=None, help="Gespräche behalten (Tage, 0 = immer)")


def _evaluation(sub: argparse._SubParsersAction) -> None:
    s = _command(sub, "eval", "evaluation.cmd_eval",
                 help="Evaluations-Suite laufen lassen (Prompt-Version × Modell), Bericht als Tabelle")
    s.add_argument("--suite", required=True, help="Name in seeds/eval (z. B. standard) oder Pfad zu einer YAML-Datei")
    s.add_argument("--agent", default="main", help="main, klausur, differenzierung oder h5p (Standard: main)")
    s.add_argument("--prompt-version", default=None, help="Versionsnummer (z. B. 3) oder „aktiv“ (Standard)")
    s.add_argument("--model", default=None, help="z. B. offline oder anthropic:claude-sonnet-5-5 (Standard: "
                   "das für den Agenten eingestellte Modell)")
    s.add_argument("--limit", type=int, default=None, help="nur die ersten N Fälle")
    s.add_argument("--min-pass", type=float, default=0.95, help="Mindestquote bestandener Prüfungen (Standard 0.95)")
    s.add_argument("--teil", choices=["dev", "heldout", "heldout_2", "targeted_s21", "targeted_s23", "targeted_s24",
                                      "targeted_s25", "targeted_s25b", "targeted_s26", "targeted_s26b", "alle"],
                   default="alle",
                   help="nur für --suite requests: welcher Teil der Anfragen (Standard: alle)")
    s.add_argument("--json", action="store_true")


def _admin(sub: argparse._SubParsersAction) -> None:
    s = _command(sub, "account", "accounts.cmd_account", help="Lokale Konten: anlegen, Passwort, sperren, Liste")
    s.add_argument("action", choices=["create", "password", "disable", "enable", "list"])
    s.add_argument("email", nargs="?")
    s.add_argument("--name", help="Name (beim Anlegen einer neuen Person)")
    s.add_argument("--school", help="Schule (Name oder ID) beim Anlegen einer neuen Person")
    s.add_argument("--role", default=None, choices=["teacher", "curator", "product"])
    s.add_argument("--faecher", help="Fächer, durch Komma getrennt (z. B. physik,mathematik)")
    s.add_argument("--bundesland")
    s.add_argument("--password-stdin", action="store_true", help="Passwort von der Standardeingabe lesen")
    s.add_argument("--json", action="store_true")
    s = _command(sub, "upload", "uploads.cmd_upload",
                 help="Eine Datei importieren wie auf der Seite Hochladen (z. B. Lehrpläne in großer Zahl)")
    s.add_argument("file", nargs="+", help="eine oder mehrere Dateien (DOCX, PDF, TXT)")
    s.add_argument("--kind", required=True, choices=["example", "curriculum"])
    s.add_argument("--fach", help="Fach (bei Lehrplänen Pflicht)")
    s.add_argument("--scope", default="teacher", choices=["teacher", "school"])
    s.add_argument("--teacher", help="ID oder E-Mail der Lehrkraft, für die importiert wird")
    s.add_argument("--agent", default="klausur", choices=["klausur", "differenzierung"])
    s.add_argument("--keep-unstructured", action="store_true")
    s.add_argument("--json", action="store_true")
    s = _command(sub, "delete-my-data", "accounts.cmd_delete_data",
                 help="Alle Daten einer Lehrkraft löschen (Gespräche, Materialien, Uploads, eigenes Wissen)")
    s.add_argument("--teacher", required=True, help="ID oder E-Mail der Lehrkraft")
    s.add_argument("--yes", action="store_true", help="ohne Rückfrage löschen")


def build_parser() -> argparse.ArgumentParser:
    p = GermanParser(prog="python -m core", description="Werkbank — Kommandozeile")
    sub = p.add_subparsers(dest="command", required=True, metavar="befehl", parser_class=GermanParser)
    for add in (_operations, _knowledge, _bench, _teaching, _upkeep, _evaluation, _admin):
        add(sub)
    _command(sub, "db-stop", "database.cmd_db_stop", help="Die eingebettete Datenbank stoppen")
    return p
