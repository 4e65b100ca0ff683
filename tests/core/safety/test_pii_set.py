"""The personal-data detector on its labelled set (core/safety/data/pii_cases.json): ≥ 200 cases with lower case,
capitals, initials, non-German names, diagnoses and contact data, and texts that must stay untouched."""

from __future__ import annotations

from core.safety.pii_eval import load_cases, measure


def test_labelled_set_recall_and_precision() -> None:
    cases = load_cases()
    assert len(cases) >= 200 and sum(1 for _, pii in cases if not pii) >= 80
    fig = measure(cases)
    print(f"\nPII-Erkennung: {fig.cases} Fälle, Recall {fig.recall:.3f}, Precision {fig.precision:.3f}")
    assert fig.recall >= 0.95, fig.misses
    assert fig.precision >= 0.95, fig.false_alarms


def test_the_attacks_bypasses_are_redacted() -> None:
    from core.safety.service import redact

    for text, gone in [("Özlem Yılmaz … Diabetes Typ 1", ("Özlem", "Yılmaz", "Diabetes")),
                       ("jonas weber (adhs)", ("jonas", "weber", "adhs")),
                       ("Schülerin A. Nowak: Epilepsie", ("Nowak", "Epilepsie")),
                       ("FINN HOFFMANN HAT ADHS", ("FINN", "HOFFMANN", "ADHS"))]:
        out = redact(text)
        assert not [g for g in gone if g in out], out
