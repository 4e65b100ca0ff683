"""Reading a teacher's request for a material from German (and English) chat messages: Fach, Klasse, Thema,
Unterthemen, Dauer, material type, AFB wishes; the offline model and the supervisor's rules read requests with it."""
