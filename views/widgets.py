"""Widgets shared by pages: safe text, a stored material's panel (AFB chart, downloads, ratings)."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pandas as pd
import streamlit as st

from core.chat.service import file_bytes, material_brief, rate, rated_text
from views import ui

_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")


def safe(text: str) -> str:
    """Markdown without images or raw HTML: user text never loads remote content or injects markup."""
    text = _IMAGE.sub(lambda m: f"[Bild: {m.group(1) or 'entfernt'}]", text or "")
    # What the pattern cannot see (nested brackets "![a[b]](…)", reference images "![x][r]") loses its "!" syntax.
    text = text.replace("![", "!\\[")
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _rated(teacher_id: uuid.UUID, material_id: uuid.UUID, key: str, task_ref: str | None) -> None:
    value = st.session_state.get(key)
    if value is None:
        return
    learned = ui.run(rate, teacher_id=teacher_id, material_id=material_id, stars=value + 1, task_ref=task_ref)
    if learned is not None:
        st.toast(rated_text(value + 1, learned))


def afb_chart(view: dict[str, Any]) -> None:
    """AFB shares of the exam beside the target, grouped per AFB (labels horizontal: I, II, III)."""
    import altair as alt

    shares = view.get("afb_anteile") or {}
    target = (view.get("request") or {}).get("afb_ziel_verwendet") or {}
    rows = [{"AFB": f"AFB {k}", "Wert": "Ist", "Prozent": shares.get(k, 0)} for k in ("I", "II", "III")]
    rows += [{"AFB": f"AFB {k}", "Wert": "Ziel", "Prozent": target.get(k, 0)} for k in ("I", "II", "III") if target]
    chart = alt.Chart(pd.DataFrame(rows)).mark_bar().encode(
        x=alt.X("AFB:N", axis=alt.Axis(labelAngle=0, title=None)),
        xOffset="Wert:N",
        y=alt.Y("Prozent:Q", title="Anteil in %"),
        color=alt.Color("Wert:N", title=None),
        tooltip=["AFB", "Wert", "Prozent"],
    ).properties(height=200)
    st.altair_chart(chart, width="stretch")


def material_panel(teacher_id: uuid.UUID, material_id: str, files: list[dict[str, Any]], *, key: str) -> None:
    """Downloads, AFB chart and star ratings (whole material and single tasks) of one stored material."""
    mid = uuid.UUID(material_id)
    cols = st.columns(max(len(files), 1))
    for col, f in zip(cols, files, strict=False):
        col.download_button(f"⬇ {f['filename']}", data=lambda fid=f["id"]: file_bytes(teacher_id=teacher_id,
                                                                                         file_id=fid),
                            file_name=f["filename"], mime=f["mime"], key=f"dl_{key}_{f['id']}",
                            on_click="ignore")
    view = ui.run(material_brief, teacher_id=teacher_id, material_id=mid)
    if view is None:
        return
    if view["material_type"] == "klausur":
        afb_chart(view)
    if notes := [str(h) for h in (view.get("content") or {}).get("hinweise_lehrkraft") or [] if str(h).strip()]:
        st.info("**Hinweise für Sie**  \n" + "  \n".join(f"– {safe(h)}" for h in notes), icon="📝")
    if view["validation"]:
        st.warning("Noch offene Prüfhinweise: " + "; ".join(view["validation"]))
    fb_key = f"fb_{key}_{mid}"
    st.caption("Wie gut passt das Material?")
    st.feedback("stars", key=fb_key, on_change=_rated, args=(teacher_id, mid, fb_key, None))
    if view["material_type"] == "klausur":
        with st.expander("Einzelne Aufgaben bewerten"):
            for a in view["content"]["aufgaben"]:
                for t in a["teilaufgaben"]:
                    ref = f"{a['nummer']}{t['label'].strip(') ')}"
                    st.markdown(f"**{ref})** {safe(t['text'][:140])} · AFB {t['afb']} · {t['punkte']} P.")
                    k = f"fb_{key}_{mid}_{ref}"
                    st.feedback("stars", key=k, on_change=_rated, args=(teacher_id, mid, k, ref))
