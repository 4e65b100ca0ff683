"""The personal-data detector measured on a labelled set (core/safety/data/pii_cases.json): every case is a text
and the pieces that must be removed ([] for texts that must stay as they are). Recall: share of those pieces no
longer in the redacted text; precision: share of removed findings that cover such a piece.

`python -m core.safety.pii_eval` prints the figures and every miss; tests/core/safety/test_pii_set.py holds them."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from core.safety.personal import find_personal_data, replace_findings

CASES = Path(__file__).parent / "data" / "pii_cases.json"


@dataclass
class Figures:
    cases: int = 0
    pieces: int = 0
    found_pieces: int = 0
    findings: int = 0
    right_findings: int = 0
    misses: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found_pieces / self.pieces if self.pieces else 1.0

    @property
    def precision(self) -> float:
        return self.right_findings / self.findings if self.findings else 1.0


def load_cases(path: Path = CASES) -> list[tuple[str, list[str]]]:
    return [(c["text"], list(c["pii"])) for c in json.loads(path.read_text(encoding="utf-8"))]


def measure(cases: list[tuple[str, list[str]]]) -> Figures:
    fig = Figures()
    for text, pieces in cases:
        fig.cases += 1
        findings = find_personal_data(text)
        redacted = replace_findings(text, findings)
        spans = []
        for piece in pieces:
            start = text.find(piece)
            assert start >= 0, f"label {piece!r} is not in {text!r}"
            spans.append((start, start + len(piece)))
            fig.pieces += 1
            if piece in redacted:
                fig.misses.append(f"{piece!r} in {text!r}")
            else:
                fig.found_pieces += 1
        for f in findings:
            fig.findings += 1
            if any(f.start < e and s < f.end for s, e in spans):
                fig.right_findings += 1
            else:
                fig.false_alarms.append(f"{f.text!r} ({f.kind}) in {text!r}")
    return fig


def main() -> int:
    fig = measure(load_cases())
    print(f"Fälle: {fig.cases}, zu entfernende Angaben: {fig.pieces}, Funde: {fig.findings}")
    print(f"Recall: {fig.recall:.3f}  Precision: {fig.precision:.3f}")
    for m in fig.misses:
        print("  übersehen:", m)
    for f in fig.false_alarms:
        print("  Fehlalarm:", f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
