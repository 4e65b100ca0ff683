"""Prompt-Labor: prompt versions (edit, activate = rollback, diff), evaluation runs with progress, stored runs with
case detail and cost, and two runs side by side."""

import pandas as pd
import streamlit as st

from core.evaluation import service as ev
from views import ui

persona = ui.page_setup("prompt_labor")
me = persona.teacher_id
ss = st.session_state
st.title("Prompt-Labor")
tab_prompts, tab_run, tab_runs = st.tabs(["Prompt-Versionen", "Evaluation starten", "Läufe & Vergleich"])


def version_picker(label: str, versions: list[ev.VersionInfo], key: str, index: int = 0) -> ev.VersionInfo:
    if not versions:
        st.warning("Für diesen Agenten gibt es keine Prompt-Version. Bitte `python -m core seed` ausführen.")
        st.stop()
    by_id = {str(v.id): v for v in versions}
    chosen = st.selectbox(label, list(by_id), index=min(index, len(by_id) - 1), key=key,
                          format_func=lambda i: by_id[i].label)
    return by_id.get(chosen or "", versions[0])


with tab_prompts:
    agent = st.selectbox("Agent", ev.agent_names(), format_func=ev.agent_label, key="pl_agent")
    versions = ui.run(ev.list_versions, teacher_id=me, agent_name=agent) or []
    active = next((v for v in versions if v.is_active), None)
    if flash := ss.pop("pl_flash", None):
        st.success(flash)
    st.dataframe([{"Version": v.version, "Aktiv": "✓" if v.is_active else "", "Notiz": v.note or "–",
                   "Zeichen": len(v.text), "Erstellt": v.created_label} for v in versions],
                 hide_index=True)
    st.subheader("Neue Version")
    text = st.text_area("Anweisungen", value=active.text if active else "", height=260, key=f"pl_text_{agent}")
    note = st.text_input("Notiz (was ändert sich?)", key="pl_note")
    now = st.checkbox("Sofort aktivieren", key="pl_activate",
                      help="Sonst nur speichern – z. B. um die Version erst in einer Evaluation zu prüfen.")
    if st.button("Als neue Version speichern", key="pl_save", type="primary"):
        saved = ui.run(ev.save_version, teacher_id=me, agent_name=agent, text=text, note=note, activate=now)
        if saved:
            ss["pl_flash"] = f"Version {saved.version} gespeichert" + (" und aktiviert." if saved.is_active else ".")
            ss[f"pl_diff_a_{agent}"], ss[f"pl_diff_b_{agent}"] = str((active or saved).id), str(saved.id)
            st.rerun()
    if versions:
        st.subheader("Aktivieren (Rollback)")
        st.caption("Rollback heißt: eine ältere Version wieder aktivieren. Die Nummer bleibt, damit ihre "
                   "Evaluationsläufe vergleichbar bleiben.")
        target = version_picker("Version", versions, f"pl_target_{agent}")
        if st.button("Diese Version aktivieren", key="pl_activate_btn", disabled=target.is_active):
            done = ui.run(ev.activate_version, teacher_id=me, version_id=target.id)
            if done:
                ss["pl_flash"] = f"Version {done.version} ist jetzt aktiv – ab dem nächsten Lauf des Agenten."
                st.rerun()
    if len(versions) >= 2:
        st.subheader("Unterschied zweier Versionen")
        left, right = st.columns(2)
        with left:
            a = version_picker("Von", versions, f"pl_diff_a_{agent}", index=1)
        with right:
            b = version_picker("Zu", versions, f"pl_diff_b_{agent}", index=0)
        diff = ui.run(ev.diff_versions, teacher_id=me, version_a=a.id, version_b=b.id)
        if diff:
            st.caption(diff.summary)
            if not diff.same:
                st.code(diff.unified, language="diff", wrap_lines=True)

with tab_run:
    suites = ev.list_suites()
    for broken in (s for s in suites if s.fehler):
        st.warning(broken.fehler)
    usable = [s for s in suites if not s.fehler]
    if not usable:
        st.info("Keine Suite gefunden. Suiten liegen als YAML-Dateien in seeds/eval/.")
    else:
        suite = st.selectbox("Suite", usable, format_func=lambda s: s.label, key="ev_suite")
        st.caption(suite.beschreibung)
        c1, c2 = st.columns(2)
        run_agent = c1.selectbox("Agent", ev.agent_names(), format_func=ev.agent_label, key="ev_agent")
        run_versions = ui.run(ev.list_versions, teacher_id=me, agent_name=run_agent) or []
        active_index = next((i for i, v in enumerate(run_versions) if v.is_active), 0)
        with c2:
            run_version = version_picker("Prompt-Version", run_versions, f"ev_version_{run_agent}", index=active_index)
        model = c1.text_input("Modell", value=ev.default_model(run_agent), key=f"ev_model_{run_agent}",
                              help="offline, anthropic:…, openai:…, ollama:… oder openai-compatible:…@URL")
        limit = c2.number_input("Nur die ersten N Fälle (0 = alle)", min_value=0, max_value=500, value=0,
                                key="ev_limit")
        if model.strip() == "offline":
            st.caption(ev.OFFLINE_NOTE)
        if st.button("Evaluation starten", key="ev_start", type="primary"):
            bar = st.progress(0.0, text="Evaluation startet …")
            report = ui.run(ev.start_run, teacher_id=me, suite=str(suite.path), agent=run_agent,
                            prompt_version=str(run_version.id), model=model, limit=int(limit) or None,
                            on_progress=lambda done, total: bar.progress(done / total, text=f"Fall {done} von {total}"))
            if not report:
                bar.empty()  # the error above says what went wrong (and what of the run is kept)
            else:
                bar.progress(1.0, text="Fertig")
                st.success(f"Lauf abgeschlossen: {report.summary['bestanden']}/{report.summary['pruefungen']} "
                           f"Prüfungen bestanden ({ev.fmt_pct(report.pass_rate)}). Details unter „Läufe & Vergleich“.")
                ss["ev_run"] = str(report.run_id)

with tab_runs:
    runs = ui.run(ev.list_runs, teacher_id=me) or []
    if not runs:
        st.info("Noch keine Evaluationsläufe. Starten Sie einen unter „Evaluation starten“.")
        st.stop()
    labels = {str(r.id): r.label for r in runs}
    if ss.get("ev_run") not in labels:
        ss["ev_run"] = next(iter(labels))
    run_id = st.selectbox("Lauf", list(labels), format_func=labels.get, key="ev_run")
    run = ui.run(ev.run_detail, teacher_id=me, run_id=run_id)
    if run:
        s = run.summary
        m1, m2, m3, m4, m5 = st.columns(5)
        m1.metric("Bestanden", ev.fmt_pct(float(s.get("quote", 0))), f"{s.get('bestanden')}/{s.get('pruefungen')}")
        m2.metric(f"Fälle ({run.status_label})", f"{s.get('faelle_fertig', 0)}/{s.get('faelle_gesamt', 0)}")
        m3.metric("Dauer je Fall", f"{float(s.get('dauer_s_mittel', 0)):.2f} s".replace(".", ","))
        costs = ui.run(ev.run_costs, teacher_id=me, run_id=run.id)
        if costs:
            m4.metric("Tokens" + (" (geschätzt)" if costs.estimated else ""),
                      f"{costs.input_tokens + costs.output_tokens:,}".replace(",", "."))
            m5.metric("Kosten (USD)", f"{costs.cost_usd:.4f}".replace(".", ",") + (" +?" if costs.cost_unknown else ""))
        if run.model == "offline":
            st.warning(ev.OFFLINE_NOTE)
        if s.get("abbruch"):
            st.warning(f"Abgebrochen: {s['abbruch']} – die fertigen Fälle sind unten aufgeführt.")
        st.dataframe(ev.case_table(run), hide_index=True, column_config={
            "Quote": st.column_config.ProgressColumn(min_value=0.0, max_value=1.0, format="percent")})
        failed = ev.failures(run)
        with st.expander(f"Nicht bestandene Prüfungen ({len(failed)})", expanded=bool(failed)):
            st.dataframe([{"Fall": c, "Prüfung": k, "Begründung": g} for c, k, g in failed], hide_index=True)
        if costs:
            with st.expander(f"Kosten je Fall aus llm_calls ({costs.calls} Aufrufe)"):
                st.dataframe(costs.rows, hide_index=True)
        st.subheader("Fall im Detail")
        case_name = st.selectbox("Fall", [c.name for c in run.cases], key="ev_case")
        if case_name:
            _, case = ev.case_detail(teacher_id=me, run_id=run.id, case_name=case_name)
            st.markdown(f"**Anfrage:** {case.anfrage}  \n**Erwartet:** {case.erwartung_text}")
            for turn in case.verlauf:
                st.chat_message("user").write(turn.lehrkraft)
                st.chat_message("assistant").markdown(turn.antwort)
            st.dataframe(ev.check_rows(case), hide_index=True)
            if case.ausgabe:
                with st.expander("Ausgabe (Zusammenfassung des Materials)"):
                    st.json(case.ausgabe)

    st.subheader("Zwei Läufe vergleichen")
    ids = list(labels)
    c1, c2 = st.columns(2)
    run_a = c1.selectbox("Lauf A", ids, index=min(1, len(ids) - 1), format_func=labels.get, key="ev_cmp_a")
    run_b = c2.selectbox("Lauf B", ids, index=0, format_func=labels.get, key="ev_cmp_b")
    cmp = ui.run(ev.compare_runs, teacher_id=me, run_a=run_a, run_b=run_b) if run_a != run_b else None
    if run_a == run_b:
        st.caption("Bitte zwei verschiedene Läufe wählen.")
    elif cmp:
        (st.info if cmp.meaningful else st.warning)(cmp.verdict)
        st.dataframe(cmp.totals, hide_index=True)
        if cmp.chart:
            st.bar_chart(pd.DataFrame(cmp.chart), x="Prüfung", y="Quote", color="Lauf", stack=False)
        st.dataframe(cmp.cases, hide_index=True, column_config={"Δ Quote": st.column_config.NumberColumn(
            format="percent")})
        st.markdown(f"**Umgeschlagene Prüfungen ({len(cmp.flips)})**")
        st.dataframe(cmp.flips, hide_index=True)
        st.markdown(f"**Ausgaben je Fall** · {len(cmp.diffs)} verschieden, {cmp.same_output} gleich")
        for case_name, diff in cmp.diffs:
            with st.expander(f"Unterschied: {case_name}"):
                st.code(diff, language="diff", wrap_lines=True)
