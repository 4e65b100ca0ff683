"""Präferenzen: the teacher's own wishes per Fach and material type — a typed form, used from the next generation."""

import streamlit as st

from core.knowledge import service as preferences
from core.knowledge.service import AGENT_TYPES, FAECHER
from views import ui
from views.widgets import safe

YES_NO = {None: "keine Vorgabe", True: "ja", False: "nein"}

persona = ui.page_setup("praeferenzen")
st.title("Präferenzen")
st.caption("Ihre Wünsche je Fach und Material-Art. Sie gelten ab der nächsten Erstellung: Die Fach-Agenten lesen sie "
           "in ihrer Wissenskarte. Leere Felder bedeuten „keine Vorgabe“.")
if flash := st.session_state.pop("pf_flash", None):
    st.success(flash)

faecher = list(dict.fromkeys([*(f for f in persona.faecher if f in FAECHER), *FAECHER]))  # own subjects first
c1, c2 = st.columns(2)
fach = c1.selectbox("Fach", faecher, format_func=FAECHER.get, key="pf_fach")
agent = c2.selectbox("Material-Art", list(AGENT_TYPES), format_func=AGENT_TYPES.get, key="pf_agent")
state = ui.run(preferences.load_preferences, teacher_id=persona.teacher_id, agent_type=agent, fach=fach)
if state is None:
    st.stop()
f = state.form


def key(name: str) -> str:  # one set of widgets per Fach × Material-Art, so switching loads the stored values
    return f"pf_{fach}_{agent}_{name}"


with st.form(f"pf_form_{fach}_{agent}"):
    a, b, c = st.columns(3)
    anzahl = a.number_input("Aufgabenanzahl", 1, 12, value=f.aufgaben_anzahl, step=1, placeholder="keine Vorgabe",
                            key=key("anzahl"))
    teil = b.selectbox("Teilaufgaben", list(YES_NO), index=list(YES_NO).index(f.teilaufgaben),
                       format_func=YES_NO.get, key=key("teil"))
    bonus = c.selectbox("Bonusaufgabe", list(YES_NO), index=list(YES_NO).index(f.bonusaufgabe),
                        format_func=YES_NO.get, key=key("bonus"))

    st.markdown("**AFB-Zielverteilung** in Prozent — zusammen 100, oder alle drei leer lassen")
    afb = [col.number_input(f"AFB {name}", 0, 100, value=(f.afb_ziel or [None] * 3)[i], step=1,
                            placeholder="—", key=key(f"afb{i + 1}"))
           for i, (col, name) in enumerate(zip(st.columns(3), ("I", "II", "III"), strict=True))]
    st.markdown("**Rechnung : Theorie** in Prozent — zusammen 100, oder beide leer lassen")
    ratio = [col.number_input(name, 0, 100, value=(f.rechnung_theorie or [None] * 2)[i], step=1, placeholder="—",
                              key=key(f"rt{i + 1}"))
             for i, (col, name) in enumerate(zip(st.columns(2), ("Rechnung", "Theorie"), strict=True))]
    ppm = st.number_input("Punkte pro Minute", 0.5, 2.0, value=f.punkte_pro_minute, step=0.1, format="%.1f",
                          placeholder="Standard: 1,0", key=key("ppm"))

    if agent == "klausur":
        st.markdown("**Notenschlüssel Sek I** — ab wie viel Prozent der Punkte gilt Note 1 bis 5?")
        modus = st.radio("Notenschlüssel", ["Standard", "eigene Schwellen"], horizontal=True, key=key("ns"),
                         index=0 if f.notenschluessel is None else 1, label_visibility="collapsed")
        schwellen = [col.number_input(f"Note {n} ab %", 1, 100, value=state.schwellen[n - 1], step=1,
                                      key=key(f"ns{n}")) for n, col in enumerate(st.columns(5), 1)]
        st.caption(f"Zurzeit gilt: {state.notenschluessel_gilt}")

    stil = st.text_area("Stil", value=f.stil or "", max_chars=preferences.STIL_MAX, key=key("stil"),
                        placeholder="z. B. Alltagskontexte, kurze Sätze, Schülerinnen und Schüler direkt ansprechen")
    vermeiden = st.text_area("Dinge vermeiden — ein Eintrag pro Zeile", value="\n".join(f.dinge_vermeiden),
                             key=key("vermeiden"), placeholder="z. B. Induktion")
    frei = st.text_area("Weitere Wünsche — ein Eintrag pro Zeile", value="\n".join(f.frei), key=key("frei"),
                        placeholder="z. B. Immer eine Skizze zur ersten Aufgabe")
    if st.form_submit_button("Speichern", type="primary"):
        form = {"aufgaben_anzahl": anzahl, "teilaufgaben": teil, "bonusaufgabe": bonus, "afb_ziel": afb,
                "rechnung_theorie": ratio, "punkte_pro_minute": ppm, "stil": stil, "dinge_vermeiden": vermeiden,
                "frei": frei}
        if agent == "klausur":
            form["notenschluessel"] = None if modus == "Standard" else schwellen
        result = ui.run(preferences.save_preferences, teacher_id=persona.teacher_id, agent_type=agent, fach=fach,
                        form=form)
        if result is not None:
            st.session_state["pf_flash"] = result.message
            st.rerun()

st.subheader("Gespeichert — und woher es kommt")
if state.stored:
    st.markdown("\n".join(f"- {v.label} {safe(v.value)} · _{safe(v.quelle)}_" for v in state.stored))
else:
    st.info("Für dieses Fach und diese Material-Art ist noch nichts gespeichert. Präferenzen entstehen auch, wenn Sie "
            "Material gut bewerten oder im Chat sagen, was Ihnen wichtig ist.")
