"""The rule-based assessor: offline and conservative, it looks up each criterion's components in the answer;
a criterion it finds nothing of is 'not found', not 'wrong'."""

from __future__ import annotations

import re

from core.assessment.components import Component, criterion_components, score_all
from core.assessment.results import RULE_ASSESSOR, Assessor, CriterionCheck, Met
from core.assessment.terms import stem_light
from core.assessment.values import Sentence, answer_sentences
from core.language.text import fold_composed
from core.materials.klausur import Kriterium, Teilaufgabe


def _range(met: Met, punkte: int) -> tuple[int, int]:
    if met == "yes":
        return punkte, punkte
    if met == "partly":
        return (punkte // 2, punkte - 1) if punkte > 1 else (0, 1)
    return 0, 0


def _quote(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _display(comp: Component, kriterium: str) -> str:
    """A component as the teacher reads it: the value or formula as written, a term in the criterion's spelling."""
    if comp.quantity is not None or comp.formula is not None or comp.coordinates is not None or comp.expression:
        return comp.label
    return next((w for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", kriterium) if stem_light(fold_composed(w)) == comp.label),
                comp.label)


class RuleAssessor:
    """Offline and conservative: key terms (stems, compounds, small typos), values with units (numerically, with
    tolerance) and formula symbols of each criterion are looked up in the answer. It cannot judge reasoning — a
    criterion it finds nothing of is 'not found', not 'wrong'."""

    name = RULE_ASSESSOR

    def check(self, *, task: Teilaufgabe, material: str | None, answer: str) -> list[CriterionCheck]:
        sentences = answer_sentences(answer)
        return [self._criterion(k, sentences) for k in task.erwartung]

    def _criterion(self, k: Kriterium, sentences: list[Sentence]) -> CriterionCheck:
        comps = criterion_components(k.text)
        if not comps:
            return CriterionCheck(k.text, k.punkte, "no", [], [], [], 0, k.punkte, automatisch=False)
        score_all(comps, sentences)
        required = [c for c in comps if not c.optional]
        total = sum(c.weight for c in required)
        got = sum(c.weight * c.score for c in required) + 0.5 * sum(c.weight * c.score for c in comps if c.optional)
        ratio = min(1.0, got / total) if total else 0.0
        met: Met = "yes" if ratio >= 0.7 else "partly" if ratio >= 0.3 or (ratio > 0 and total <= 2) else "no"
        found = [c for c in comps if c.score > 0]
        # evidence: the sentences that carry most of what was found
        weight_by_sentence: dict[int, float] = {}
        for c in found:
            if c.sentence is not None:
                weight_by_sentence[c.sentence] = weight_by_sentence.get(c.sentence, 0.0) + c.weight * c.score
        ranked = sorted(weight_by_sentence, key=lambda i: (-weight_by_sentence[i], i))
        # a second sentence only when it carries a real share of the evidence, not one stray word
        best = ranked[:1] + [i for i in ranked[1:2] if weight_by_sentence[i] >= max(2.0, 0.5 * weight_by_sentence[
            ranked[0]])]
        evidence = [_quote(sentences[i].text) for i in sorted(best)] if met != "no" else []
        lo, hi = _range(met, k.punkte)
        return CriterionCheck(
            kriterium=k.text, punkte=k.punkte, met=met, evidence=evidence,
            gefunden=[_display(c, k.text) + (" (ohne Einheit)" if c.score == 0.5 and c.quantity is not None else "")
                      for c in found],
            fehlt=[_display(c, k.text) for c in required if c.score == 0],
            punkte_min=lo, punkte_max=hi)


def default_assessor() -> Assessor:
    """The assessor used for the page. Always rule-based for now, also with a real model configured: sending pupil
    answers to a provider needs the school's consent and is therefore a separate, explicit setting (not built yet)."""
    return RuleAssessor()
