"""Safety and scope check before the main agent acts, and detection of personal data (pupil names, contacts,
diagnoses, grades) so that it never reaches knowledge or memories. Rule-based and deterministic offline.

Where the lines are (the labelled set `seeds/eval/safety.yaml` shows them by example):

- Teaching work is never refused: materials on any subject and topic, including sensitive curriculum topics
  (Nationalsozialismus, Sexualkunde, Drogen, Krieg, Suizidprävention, Rassismus) and analysing propaganda.
  Harmful rules fire on *instructions to do harm* (build, make, obtain; methods of self-harm; writing new hate
  speech; sexual content with minors), never on a topic word alone.
- Out of scope (recipes, travel, money, private letters, unrelated coding, personal medical/legal advice) is
  refused only when the message has no teaching signal: "Quiz zu Aktien für Wirtschaft 10" is teaching.
- Homework and cheating need the pupil's perspective ("ich bin in der 9b", "meinen Aufsatz", "mein Lehrer",
  "ohne dass die Aufsicht es merkt"); a teacher asking for a Musteraufsatz or the Lösungen of their own exam is
  teaching, and "wie verhindere ich Schummeln" is too.
- Personal data: a teaching request that mentions a named pupil is allowed; names, contacts, diagnoses and grades
  next to a name are replaced in `redacted_text`, and that is what may be stored. Refused (Datenschutz) are
  requests whose *subject* is a named person's record: Gutachten, Förderplan, Zeugnisbemerkung, "merk dir …",
  "was weißt du über …". Anonymous descriptions ("ein Schüler mit LRS") are not personal data.
- A first name alone (word problems: "Lisa kauft 3 Äpfel") is not personal data; it becomes one next to a
  surname, a class ("Tim aus der 7b"), a pupil word ("meine Schülerin Aylin") or a diagnosis/grade. Famous
  people of the curriculum (Goethe, Marie Curie, Anne Frank, …) are never pupils.
- Prompt injection never has an effect (tools and agents do not take instructions from content); it is flagged,
  and refused only when nothing else is asked.

Callers store `redacted_text` (never the raw text) and show `message` to the teacher. The cost is linear: regex
windows are bounded, rule families sit behind cheap substring gates (`text.Rules`), and 50 000 characters take a
fraction of a second. A model-based checker can be added through `Checker`; it never weakens the rules'
redaction and cannot overturn a refusal of harmful content.
"""
