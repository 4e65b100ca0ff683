"""Assessment aid (human-led): a pupil's answer to one sub-task of a stored Klausur held against that task's
Erwartungshorizont, with the evidence quoted and a point range. A suggestion for the teacher, never a grade."""
