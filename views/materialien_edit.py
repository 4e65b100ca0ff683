"""Meine Materialien, Bearbeiten: direct editing of an exam (a sub-task's operator, AFB, text and Erwartungshorizont;
tasks ordered, removed or added from the bank or written by hand), quick changes, a new version from an instruction,
earlier versions with their downloads, restore and compare. Every save is a new version, checked like any other."""

import re
import uuid

import pandas as pd
import streamlit as st

from core.editing.service import (
    FORM_ACTIONS,
    EditOutcome,
    EditView,
    add_task,
    apply_form_edit,
    edit_view,
    regenerate_my_material,
    restore_my_version,
    save_subtask,
    version_diff,
)
from views import ui

AFB = ["I", "II", "III"]
FORCE = "Auch übernehmen, wenn die Prüfung danach Abweichungen meldet"


def md(text: str) -> str:
    """Material texts come from a model: show them literally, not as markdown."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~$:])", r"\\\1", text)


def stored(outcome: EditOutcome | None) -> None:
    """A new version was stored: show page 1 (it is the newest material) with what changed and what the check says."""
    if outcome is not None:
        check = "" if outcome.faults else "\n- Prüfung: ohne Beanstandung (AFB-Anteile, Operatoren, Punkte und Zeit)"
        st.session_state["mat_notice"] = md(outcome.message + check).replace("\n", "  \n")
        st.session_state.pop("mat_page", None)
        st.rerun()


def criteria_table(rows: list[tuple[str, int]], key: str) -> list[dict[str, object]]:
    st.caption("Erwartungshorizont – die Punkte der Kriterien ergeben die Punkte der Teilaufgabe; der "
               "Notenschlüssel wird danach neu berechnet. Zeilen hinzufügen oder löschen geht direkt in der Tabelle.")
    table = st.data_editor(
        pd.DataFrame(rows, columns=["kriterium", "punkte"]), num_rows="dynamic", hide_index=True, key=key,
        width="stretch", column_config={
            "kriterium": st.column_config.TextColumn("Kriterium", width="large"),
            "punkte": st.column_config.NumberColumn("Punkte", min_value=1, max_value=100, step=1, format="%d")})
    return table.to_dict("records")


def subtask_editor(teacher_id: uuid.UUID, mid: uuid.UUID, v: EditView) -> None:
    teile = {t.ref: t for a in v.aufgaben for t in a.teile}
    ref = st.selectbox("Teilaufgabe", list(teile), format_func=v.teile.get, key=f"de_ref_{mid}")
    teil = teile[ref]
    ops = list(dict.fromkeys([teil.operator, *v.operator_afb]))
    with st.form(f"de_form_{mid}_{ref}", border=False):
        c_op, c_afb = st.columns([3, 1])
        operator = c_op.selectbox("Operator", ops, index=0, key=f"de_op_{mid}_{ref}",
                                  format_func=lambda o: f"{o} (üblich AFB {v.operator_afb.get(o, '–')})")
        afb = c_afb.selectbox("AFB", AFB, index=AFB.index(teil.afb), key=f"de_afb_{mid}_{ref}")
        text = st.text_area("Aufgabentext", teil.text, height=130, key=f"de_text_{mid}_{ref}")
        kriterien = criteria_table(teil.kriterien, f"de_eh_{mid}_{ref}")
        force = st.checkbox(FORCE, key=f"de_force_{mid}_{ref}")
        if st.form_submit_button("Teilaufgabe speichern (neue Version)", key=f"de_go_{mid}_{ref}", type="primary"):
            stored(ui.run(save_subtask, teacher_id=teacher_id, material_id=mid, ziel=ref, operator=operator, afb=afb,
                          text=text, kriterien=kriterien, force=force))


def task_order(teacher_id: uuid.UUID, mid: uuid.UUID, v: EditView) -> None:
    force = st.checkbox(FORCE, key=f"ord_force_{mid}")
    for a in v.aufgaben:
        c_title, c_up, c_down, c_del = st.columns([6, 1, 1, 1])
        c_title.markdown(md(f"**Aufgabe {a.nummer}** · {a.titel} · {a.punkte} P."))
        actions = (("aufgabe_vor", c_up, "↑", "nach oben", a.nummer > 1),
                   ("aufgabe_zurueck", c_down, "↓", "nach unten", a.nummer < len(v.aufgaben)),
                   ("aufgabe_streichen", c_del, "🗑", "entfernen", len(v.aufgaben) > 1))
        for aktion, col, icon, hilfe, possible in actions:
            if col.button(icon, key=f"ord_{aktion}_{mid}_{a.nummer}", help=f"Aufgabe {a.nummer} {hilfe}",
                          disabled=not possible):
                stored(ui.run(apply_form_edit, teacher_id=teacher_id, material_id=mid, aktion=aktion,
                              ziel=f"{a.nummer}a", force=force))


def new_task(teacher_id: uuid.UUID, mid: uuid.UUID, v: EditView) -> None:
    stellen = list(range(1, len(v.aufgaben) + 2))
    quelle = st.radio("Neue Aufgabe", ["Aus der Aufgabensammlung", "Selbst formulieren"], horizontal=True,
                      key=f"new_src_{mid}")
    with st.form(f"new_form_{mid}", border=False):
        position = st.selectbox("An Stelle", stellen, index=len(stellen) - 1, key=f"new_pos_{mid}")
        force = st.checkbox(FORCE, key=f"new_force_{mid}")
        if quelle == "Aus der Aufgabensammlung":
            if not v.bank:
                st.caption("Zu den Themen dieser Klausur gibt es keine weitere Aufgabe ohne Material in der "
                           "Aufgabensammlung.")
            bank_id = st.selectbox("Aufgabe", list(v.bank), format_func=v.bank.get, key=f"new_bank_{mid}",
                                   index=None, placeholder="Aufgabe aus der Sammlung wählen")
            if st.form_submit_button("Aufgabe hinzufügen (neue Version)", key=f"new_go_bank_{mid}"):
                if bank_id is None:
                    st.error("Bitte eine Aufgabe aus der Liste wählen.")
                else:
                    stored(ui.run(add_task, teacher_id=teacher_id, material_id=mid, bank_id=bank_id,
                                  position=position, force=force))
            return
        titel = st.text_input("Titel der Aufgabe", key=f"new_titel_{mid}")
        c_op, c_afb = st.columns([3, 1])
        operator = c_op.selectbox("Operator", list(v.operator_afb), key=f"new_op_{mid}",
                                  format_func=lambda o: f"{o} (üblich AFB {v.operator_afb.get(o, '–')})")
        afb = c_afb.selectbox("AFB", AFB, key=f"new_afb_{mid}")
        text = st.text_area("Aufgabentext", key=f"new_text_{mid}")
        kriterien = criteria_table([("", 1)], f"new_eh_{mid}")
        if st.form_submit_button("Aufgabe hinzufügen (neue Version)", key=f"new_go_own_{mid}"):
            stored(ui.run(add_task, teacher_id=teacher_id, material_id=mid, titel=titel, operator=operator or "",
                          afb=afb, text=text, kriterien=kriterien, position=position, force=force))


def quick(teacher_id: uuid.UUID, mid: uuid.UUID, v: EditView) -> None:
    """One change per submit (points, AFB with a rewrite for the new level, …) or a new version from an instruction."""
    with st.form(f"edit_{mid}", border=False):
        c_ziel, c_art, c_wert = st.columns([2, 2, 3])
        ziel = c_ziel.selectbox("Teilaufgabe", list(v.teile), format_func=v.teile.get, key=f"ed_ziel_{mid}")
        aktion = c_art.selectbox("Änderung", list(FORM_ACTIONS), format_func=FORM_ACTIONS.get, key=f"ed_art_{mid}")
        wert = c_wert.text_input("Neuer Wert", key=f"ed_wert_{mid}", placeholder="z. B. 6 · II · Erklären · neuer Text",
                                 help="Operatoren des Fachs: " + ", ".join(v.operatoren))
        force = st.checkbox(FORCE, key=f"ed_force_{mid}")
        if st.form_submit_button("Änderung übernehmen", key=f"ed_go_{mid}"):
            stored(ui.run(apply_form_edit, teacher_id=teacher_id, material_id=mid, aktion=aktion, ziel=ziel,
                          wert=wert, force=force))
    with st.form(f"regen_{mid}", border=False):
        anweisung = st.text_input("Neu erzeugen mit Anweisung", key=f"re_text_{mid}",
                                  placeholder="z. B. „Mach Aufgabe 3 leichter“ oder „nur 30 Minuten“")
        if st.form_submit_button("Neu erzeugen", key=f"re_go_{mid}"):
            stored(ui.run(regenerate_my_material, teacher_id=teacher_id, material_id=mid, instruction=anweisung))


def edit(teacher_id: uuid.UUID, mid: uuid.UUID) -> None:
    """The Bearbeiten section of one exam: editor tabs, earlier versions with downloads and restore, comparison."""
    v = ui.run(edit_view, teacher_id=teacher_id, material_id=mid)
    if v is None:
        return
    st.markdown(f"##### Bearbeiten (Version {v.version})")
    st.caption("Jede Speicherung ist eine neue Version; die bisherige bleibt abrufbar. Die Prüfung (AFB-Anteile, "
               "Operatoren, Punkte, Zeit) läuft bei jeder Speicherung, der Notenschlüssel wird neu berechnet.")
    t_teil, t_order, t_new, t_quick = st.tabs(["Teilaufgabe bearbeiten", "Aufgaben ordnen", "Aufgabe hinzufügen",
                                               "Schnelländerung"])
    with t_teil:
        subtask_editor(teacher_id, mid, v)
    with t_order:
        task_order(teacher_id, mid, v)
    with t_new:
        new_task(teacher_id, mid, v)
    with t_quick:
        quick(teacher_id, mid, v)
    for old in v.frueher:
        st.caption(md(f"Frühere Version {old.version} · {old.datum}" + "".join(f" · {c}" for c in old.aenderungen)))
        for col, f in zip(st.columns(max(len(old.files), 1)), old.files, strict=False):
            col.download_button(f.label, data=f.data, file_name=f"V{old.version}_{f.filename}", mime=f.mime, icon="⬇️",
                                key=f"dlv_{old.id}_{f.filename}", on_click="ignore")
        if st.button(f"Version {old.version} wiederherstellen", key=f"restore_{old.id}", icon="↩️"):
            stored(ui.run(restore_my_version, teacher_id=teacher_id, material_id=mid, version=old.version))
    if v.frueher:
        compare(teacher_id, mid, [v.version, *(old.version for old in v.frueher)])


def compare(teacher_id: uuid.UUID, mid: uuid.UUID, versions: list[int]) -> None:
    """Two versions side by side; changed lines marked."""
    st.markdown("##### Versionen vergleichen")
    c_left, c_right = st.columns(2)
    left = c_left.selectbox("Links", versions, index=len(versions) - 1, key=f"cmp_l_{mid}",
                            format_func=lambda n: f"Version {n}")
    right = c_right.selectbox("Rechts", versions, index=0, key=f"cmp_r_{mid}", format_func=lambda n: f"Version {n}")
    rows = ui.run(version_diff, teacher_id=teacher_id, material_id=mid, left=left, right=right)
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
