"""Whether a request points to an example of the teacher's own ("wie meine hochgeladene Klausur", "im Stil der
Vorlage", "wie letztes Jahr"): then that example fixes the structure and the AFB split."""

from __future__ import annotations

import re

WANTS_EXAMPLE = re.compile(
    r"(wie|ähnlich|aehnlich|nach dem muster|im stil|orientier\w*)\W+(an\W+)?(meine[rsm]?|unsere[rsm]?|der|die)?\W*"
    r"(hochgeladen\w*|alte[rn]?|letzte[rn]?|eigene[rn]?|vorlage|beispiel)|meine[rsm]? (hochgeladen\w*|alte[rn]?) "
    r"(klausur|klassenarbeit|arbeit|vorlage)|wie letztes (mal|jahr)", re.I)


def wants_example(text: str) -> bool:
    return bool(WANTS_EXAMPLE.search(text or ""))
