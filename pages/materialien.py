"""Meine Materialien: the teacher's materials — filter, page through, preview, download, rate."""

import re
import uuid

import streamlit as st

from core.editing.service import (
    FORM_ACTIONS,
    EditOutcome,
    apply_form_edit,
    edit_view,
    regenerate_my_material,
    restore_my_version,
    version_diff,
)
from core.materials.service import (
    FAECHER,
    MATERIAL_TYPES,
    QuizItem,
    check_quiz,
    list_my_materials,
    material_detail,
    rate_my_material,
)
from pages import ui

persona = ui.page_setup("materialien")
st.title("Meine Materialien")
if notice := st.session_state.pop("mat_notice", None):  # set by an edit just before the rerun
    st.success(notice, icon="✅")


def md(text: str) -> str:
    """Material texts come from a model: show them literally, not as markdown."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:])", r"\\\1", text)


def first_page() -> None:
    st.session_state.pop("mat_page", None)  # a new filter starts on page 1


def rate(material_id: uuid.UUID) -> None:
    stars = st.session_state.get(f"rate_{material_id}")
    if stars is not None:  # 0-based: five stars == 4
        outcome = ui.run(rate_my_material, teacher_id=persona.teacher_id, material_id=material_id, stars=stars + 1)
        if outcome:
            st.toast(outcome.message, icon="⭐")


def stored(outcome: EditOutcome | None) -> None:
    if outcome is not None:  # the new version is the newest material: show page 1 with the notice
        st.session_state["mat_notice"] = md(outcome.message).replace("\n", "  \n")
        st.session_state.pop("mat_page", None)
        st.rerun()


def edit(mid: uuid.UUID) -> None:
    """Bearbeiten: one change per submit or a new version from an instruction; earlier versions to download."""
    v = ui.run(edit_view, teacher_id=persona.teacher_id, material_id=mid)
    if v is None:
        return
    st.markdown(f"##### Bearbeiten (Version {v.version})")
    with st.form(f"edit_{mid}", border=False):
        c_ziel, c_art, c_wert = st.columns([2, 2, 3])
        ziel = c_ziel.selectbox("Teilaufgabe", list(v.teile), format_func=v.teile.get, key=f"ed_ziel_{mid}")
        aktion = c_art.selectbox("Änderung", list(FORM_ACTIONS), format_func=FORM_ACTIONS.get, key=f"ed_art_{mid}")
        wert = c_wert.text_input("Neuer Wert", key=f"ed_wert_{mid}", placeholder="z. B. 6 · II · Erklären · neuer Text",
                                 help="Operatoren des Fachs: " + ", ".join(v.operatoren))
        force = st.checkbox("Auch übernehmen, wenn die Prüfung danach Abweichungen meldet", key=f"ed_force_{mid}")
        if st.form_submit_button("Änderung übernehmen", key=f"ed_go_{mid}"):
            stored(ui.run(apply_form_edit, teacher_id=persona.teacher_id, material_id=mid, aktion=aktion, ziel=ziel,
                          wert=wert, force=force))
    with st.form(f"regen_{mid}", border=False):
        anweisung = st.text_input("Neu erzeugen mit Anweisung", key=f"re_text_{mid}",
                                  placeholder="z. B. „Mach Aufgabe 3 leichter“ oder „nur 30 Minuten“")
        if st.form_submit_button("Neu erzeugen", key=f"re_go_{mid}"):
            stored(ui.run(regenerate_my_material, teacher_id=persona.teacher_id, material_id=mid,
                          instruction=anweisung))
    for old in v.frueher:
        st.caption(md(f"Frühere Version {old.version} · {old.datum}" + "".join(f" · {c}" for c in old.aenderungen)))
        for col, f in zip(st.columns(max(len(old.files), 1)), old.files, strict=False):
            col.download_button(f.label, data=f.data, file_name=f"V{old.version}_{f.filename}", mime=f.mime, icon="⬇️",
                                key=f"dlv_{old.id}_{f.filename}", on_click="ignore")
        if st.button(f"Version {old.version} wiederherstellen", key=f"restore_{old.id}", icon="↩️"):
            stored(ui.run(restore_my_version, teacher_id=persona.teacher_id, material_id=mid, version=old.version))
    if v.frueher:
        compare(mid, [v.version, *(old.version for old in v.frueher)])


def compare(mid: uuid.UUID, versions: list[int]) -> None:
    """Two versions side by side; changed lines marked."""
    st.markdown("##### Versionen vergleichen")
    c_left, c_right = st.columns(2)
    left = c_left.selectbox("Links", versions, index=len(versions) - 1, key=f"cmp_l_{mid}",
                            format_func=lambda n: f"Version {n}")
    right = c_right.selectbox("Rechts", versions, index=0, key=f"cmp_r_{mid}", format_func=lambda n: f"Version {n}")
    rows = ui.run(version_diff, teacher_id=persona.teacher_id, material_id=mid, left=left, right=right)
    if rows is None:
        return
    changed = [r for r in rows if r[0] != "="]
    if not changed:
        st.caption(f"Version {left} und Version {right} sind inhaltlich gleich.")
        return
    st.caption(f"{len(changed)} geänderte {'Zeile' if len(changed) == 1 else 'Zeilen'} (– nur links, + nur rechts, "
               "~ geändert)")
    mark = {"-": "–", "+": "+", "~": "~"}
    st.dataframe([{"": mark[t], f"Version {left}": a, f"Version {right}": b} for t, a, b in changed],
                 hide_index=True, width="stretch", key=f"cmp_t_{mid}")


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
        edit(d.id)


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
    st.page_link("pages/chat.py", label="Zum Chat", icon="💬")
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
