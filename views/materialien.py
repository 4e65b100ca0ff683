"""Meine Materialien: the teacher's materials — filter, page through, preview, download, rate."""

import uuid

import streamlit as st

from core.materials.service import (
    FAECHER,
    MATERIAL_TYPES,
    QuizItem,
    check_quiz,
    list_my_materials,
    material_detail,
    rate_my_material,
)
from views import ui
from views.materialien_edit import edit, md

persona = ui.page_setup("materialien")
st.title("Meine Materialien")
if notice := st.session_state.pop("mat_notice", None):  # set by an edit just before the rerun
    st.success(notice, icon="✅")


def first_page() -> None:
    st.session_state.pop("mat_page", None)  # a new filter starts on page 1


def rate(material_id: uuid.UUID) -> None:
    stars = st.session_state.get(f"rate_{material_id}")
    if stars is not None:  # 0-based: five stars == 4
        outcome = ui.run(rate_my_material, teacher_id=persona.teacher_id, material_id=material_id, stars=stars + 1)
        if outcome:
            st.toast(outcome.message, icon="⭐")


def play(mid: uuid.UUID, items: list[QuizItem]) -> None:
    """The quiz as a pupil sees it: answer, check, feedback per question, score."""
    st.markdown("##### Ausprobieren wie eine Schülerin oder ein Schüler")
    answers: list[object] = []
    with st.form(f"quiz_{mid}"):
        for n, item in enumerate(items, 1):
            st.markdown(f"**{n}.** {md(item.prompt)}")
            key = f"q_{mid}_{n}"
            if item.kind in ("choice", "truefalse"):
                answers.append(st.radio("Antwort", item.options, index=None, key=key, label_visibility="collapsed"))
            elif item.kind == "choices":
                answers.append([o for i, o in enumerate(item.options) if st.checkbox(o, key=f"{key}_{i}")])
            else:
                if item.options:
                    st.caption("Wörter: " + " · ".join(item.options))
                cols = st.columns(min(len(item.solution), 4) or 1)
                answers.append([cols[i % len(cols)].text_input(f"Lücke {i + 1}", key=f"{key}_{i}")
                                for i in range(len(item.solution))])
        checked = st.form_submit_button("Überprüfen", key=f"quiz_go_{mid}")
    if checked:
        result = check_quiz(items, answers)
        for n, (ok, text) in enumerate(zip(result.correct, result.feedback, strict=True), 1):
            (st.success if ok else st.error)(f"{n}. {md(text)}", icon="✅" if ok else "❌")
        st.metric("Ergebnis", result.score)


def show(material_id: uuid.UUID | str, *, bearbeiten: bool = False) -> None:
    d = ui.run(material_detail, teacher_id=persona.teacher_id, material_id=material_id)
    if d is None:
        return
    for col, f in zip(st.columns(max(len(d.files), 1)), d.files, strict=False):
        col.download_button(f.label, data=f.data, file_name=f.filename, mime=f.mime, icon="⬇️",
                            key=f"dl_{d.id}_{f.filename}", on_click="ignore")
    if d.info:
        st.caption(md(d.info))
    if d.hinweise:
        st.info("**Hinweise für Sie**  \n" + "  \n".join(f"– {md(h)}" for h in d.hinweise), icon="📝")
    for fault in d.faults:
        st.warning(f"Prüfhinweis: {md(fault)}", icon="⚠️")
    for a in d.aufgaben:
        st.markdown(f"**{md(a.kopf)}**")
        if a.material:
            st.text(a.material)
        for t in a.teile:
            st.markdown(f"*{md(t.kopf)}*")
            st.text(t.text)
            st.text("Erwartungshorizont:\n" + "\n".join(f"  ✓ {e}" for e in t.erwartung))
    if d.afb:
        left, right = st.columns(2)
        with left:
            st.markdown("**AFB-Anteile** (Ist und Ziel, in Prozent)")
            st.bar_chart(d.afb, stack=False, height=220)
        with right:
            st.markdown("**Notenschlüssel**")
            st.dataframe(d.notenschluessel, hide_index=True)
    if d.niveaus:
        for tab, (_, sections) in zip(st.tabs([n for n, _ in d.niveaus]), d.niveaus, strict=True):
            for title, items in sections:
                tab.markdown(f"**{title}**")
                tab.text("\n".join(f"{i}. {item}" for i, item in enumerate(items, start=1)) or "–")
    if d.quiz:
        play(d.id, d.quiz)
    if d.h5p_lines:
        with st.expander("Lösungsübersicht"):
            st.text("\n".join(d.h5p_lines))
    if bearbeiten and d.aufgaben:  # exams whose structure loads
        edit(persona.teacher_id, d.id)


wanted = st.query_params.get("material")
if wanted:
    st.subheader("Ausgewähltes Material")
    show(wanted)
    st.divider()

c_fach, c_typ, c_von, c_bis = st.columns(4)
fach = c_fach.selectbox("Fach", [None, *dict.fromkeys([*persona.faecher, *FAECHER])], key="mat_fach",
                        format_func=lambda f: "Alle Fächer" if f is None else FAECHER.get(f, f), on_change=first_page)
typ = c_typ.selectbox("Typ", [None, *MATERIAL_TYPES], key="mat_typ", on_change=first_page,
                      format_func=lambda t: "Alle Typen" if t is None else MATERIAL_TYPES[t])
von = c_von.date_input("Von", value=None, format="DD.MM.YYYY", key="mat_von", on_change=first_page)
bis = c_bis.date_input("Bis", value=None, format="DD.MM.YYYY", key="mat_bis", on_change=first_page)
filtered = any(v is not None for v in (fach, typ, von, bis))

wanted_page = st.session_state.get("mat_page", 1)
result = ui.run(list_my_materials, teacher_id=persona.teacher_id, fach=fach, material_type=typ, date_from=von,
                date_to=bis, page=wanted_page)
if result is None:
    st.stop()
if result.total == 0 and not filtered:
    st.info("Hier erscheinen Ihre Materialien, sobald Sie das erste erstellt haben. Schreiben Sie im **Chat** "
            "zum Beispiel: „Klausur Physik für die 10a zu Stromkreisen, 45 Minuten“.", icon="👋")
    st.page_link("views/chat.py", label="Zum Chat", icon="💬")
    st.stop()
if result.total == 0:
    st.info("Für diese Auswahl gibt es keine Materialien. Bitte die Filter lockern.")
    st.stop()

st.caption(f"{result.total} {'Material' if result.total == 1 else 'Materialien'} · Seite {result.page} von "
           f"{result.pages}")
for card in result.items:
    with st.container(border=True):
        head, stars = st.columns([4, 1])
        head.markdown(f"**{md(card.titel)}**" + (f" · Version {card.version}" if card.version > 1 else ""))
        head.caption(md(f"{card.typ} · {card.fach} · {card.klasse} · {card.datum} · Modell: {card.model}")
                     + (f" · ⚠️ {card.faults} Prüfhinweise" if card.faults else ""))
        with stars:
            st.feedback("stars", key=f"rate_{card.id}", default=card.rating - 1 if card.rating else None,
                        on_change=rate, args=(card.id,))
        box = st.expander("Vorschau und Downloads", key=f"open_{card.id}", on_change="rerun")
        if box.open:  # only opened materials load their content and file bytes
            with box:
                show(card.id, bearbeiten=True)

if result.pages > 1:
    if result.page != wanted_page:  # core clamped it (fewer results than before)
        st.session_state["mat_page"] = result.page
    st.pagination(result.pages, key="mat_page")
