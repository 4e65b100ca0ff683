"""Curation of good practices: teachers share their tasks for curation; curators rate, edit, merge, promote and
retire them. Every change is recorded in `knowledge_changes` (who, when, before/after).

Rules of the desk: global rows are the curators' to edit, retire and merge; a row a teacher shared stays the
teacher's (rate it, mark it reviewed, or promote an anonymised global copy — the teacher keeps the original).
`revision` versions the editable content: edits are optimistic (`UPDATE … WHERE revision = :expected`); ratings are
counters under a row lock and do not bump it, so a rating never makes a colleague's open edit stale.
"""
