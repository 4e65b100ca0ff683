"""Chat: the teacher talks to the workbench; live agent steps, Rückfrage buttons, downloads, ratings."""

import uuid

import streamlit as st

from core.chat.service import (
    Attachment,
    conversation_log,
    list_conversations,
    play_in_sandbox,
    played_log,
    scenarios,
    send,
    set_zip,
)
from views import ui, widgets

persona = ui.page_setup("chat")
tid = persona.teacher_id
if "conv_id" not in st.session_state:  # a reload (F5), bookmark or link opens the conversation in the URL
    st.session_state["conv_id"] = st.query_params.get("gespraech")

with st.sidebar:
    st.subheader("Gespräche")
    if st.button("➕ Neues Gespräch", key="new_conversation", width="stretch"):
        st.session_state["conv_id"] = None
    for c in ui.run(list_conversations, teacher_id=tid) or []:
        title = widgets.safe(c["title"] if len(c["title"]) <= 44 else c["title"][:43] + "…")  # labels render Markdown
        label = ("▶ " if str(c["id"]) == st.session_state.get("conv_id") else "") + \
            f"{c['when']} · {title}"
        if st.button(label, key=f"conv_{c['id']}", width="stretch"):
            st.session_state["conv_id"] = str(c["id"])

st.title("Chat")
if persona.role == "product":
    with st.expander("🎬 Demo-Modus: Szenarien mit einem Klick abspielen (in einer Sandbox)"):
        st.caption("Jedes Szenario läuft als frische Kopie der Demo-Lehrkraft mit eigener Schule und eigenen Klassen "
                   "– die Daten echter Lehrkräfte, auch der Demo-Lehrkraft, bleiben unverändert.")
        for sc in scenarios():
            left, right = st.columns([5, 1])
            left.markdown(f"**{sc.title}** — {sc.description}")
            if right.button("Abspielen", key=f"demo_{sc.id}"):
                with st.status(f"Szenario „{sc.title}“ läuft …", expanded=True) as status:
                    played = ui.run(play_in_sandbox, sc.id, owner_id=tid,
                                    on_step=lambda n, text, result: status.write(f"{n}. {widgets.safe(text)}"))
                    status.update(label=f"Szenario „{sc.title}“ " + ("fertig" if played else "abgebrochen"),
                                  state="complete" if played else "error")
                if played is not None:
                    st.session_state["demo_played"] = {"title": sc.title, "email": played.email,
                                                       "teacher": str(played.teacher_id),
                                                       "conv": str(played.conversation_id)}
        if shown := st.session_state.get("demo_played"):
            demo_log = ui.run(played_log, teacher_id=uuid.UUID(shown["teacher"]),
                              conversation_id=uuid.UUID(shown["conv"]))
            if demo_log:
                st.success(f"„{shown['title']}“ ist durchgelaufen ({len(demo_log['messages'])} Nachrichten).")
                for msg in demo_log["messages"]:
                    who = "Lehrkraft" if msg["role"] == "user" else "Werkbank"
                    st.markdown(f"**{who}:** {widgets.safe(msg['content'])}")
                if st.button("Im Chat als Sandbox-Lehrkraft öffnen (mit Downloads)", key="demo_open"):
                    st.query_params["persona"] = shown["email"]  # switched before the sidebar widget exists
                    st.session_state["conv_id"] = shown["conv"]
                    st.rerun()
conv_id = st.session_state.get("conv_id")
try:
    conv_uuid = uuid.UUID(conv_id) if conv_id else None
except ValueError:  # a mangled link
    st.warning("Der Link nennt kein gültiges Gespräch. Bitte links ein Gespräch wählen oder neu beginnen.")
    conv_uuid = None
log = ui.run(conversation_log, teacher_id=tid, conversation_id=conv_uuid) if conv_uuid else None
if conv_id and log is None:
    st.session_state["conv_id"] = conv_id = None
if conv_id:
    st.query_params["gespraech"] = conv_id  # the open conversation survives F5 and can be bookmarked
else:
    st.query_params.pop("gespraech", None)

if not log or not log["messages"]:
    st.info("Sagen Sie, was Sie brauchen – z. B. „Klausur Physik für die 10a zu Stromkreisen, 45 Minuten“, "
            "„differenziertes Arbeitsblatt zu Brüchen, Klasse 6“ oder „H5P-Quiz zur Fotosynthese, Klasse 8“.")

for msg in (log or {}).get("messages", []):
    with st.chat_message(msg["role"]):
        st.markdown(widgets.safe(msg["content"]))
        meta = msg["meta"]
        for notice in meta.get("notices") or []:
            st.info(notice)
        if msg["role"] == "assistant":
            if meta.get("steps"):
                with st.expander(f"Arbeitsschritte ({len(meta['steps'])}) · Modell: {meta.get('model')}"):
                    st.text("\n".join(meta["steps"]))
            materials = msg.get("materials") or []
            if len(materials) > 1:
                st.download_button("⬇ Alle Dateien als ZIP", file_name="Materialpaket.zip", mime="application/zip",
                                   data=lambda ids=[m["id"] for m in materials]: set_zip(teacher_id=tid,
                                                                                         material_ids=ids),
                                   key=f"zip_{msg['id']}", on_click="ignore")
            for m in materials:
                with st.container(border=len(materials) > 1):
                    widgets.material_panel(tid, m["id"], m["files"], key=f"{msg['id']}_{m['id'][:8]}")

question = (log or {}).get("open_question")
if question and question.get("vorschlaege"):
    st.caption("Antwort auf die Rückfrage wählen – oder frei antworten:")
    cols = st.columns(len(question["vorschlaege"]))
    for i, (col, option) in enumerate(zip(cols, question["vorschlaege"], strict=True)):
        if col.button(option, key=f"suggestion_{question['session_id']}_{i}"):
            st.session_state["pending"] = option

choices = (log or {}).get("choices") or []
if choices:
    st.caption("Möglichkeit wählen – oder frei antworten:")
    for col, (number, option) in zip(st.columns(len(choices)), choices, strict=True):
        label = option if len(option) <= 40 else option[:38].rsplit(" ", 1)[0] + " …"
        if col.button(f"({number}) {label}", key=f"choice_{log['messages'][-1]['id']}_{number}", help=option):
            st.session_state["pending"] = number

prompt = st.chat_input("Nachricht an die Werkbank …", accept_file="multiple", max_chars=4000,
                       file_type=["docx", "pdf", "txt", "md", "png", "jpg", "jpeg"], key="chat_input")
if prompt is not None:
    text = prompt if isinstance(prompt, str) else (prompt.text or "")
    uploads = [] if isinstance(prompt, str) else (prompt.files or [])
    st.session_state["pending"] = (text, [Attachment(f.name, f.type or "", f.getvalue()) for f in uploads])

pending = st.session_state.pop("pending", None)
if pending is not None:
    text, files = pending if isinstance(pending, tuple) else (pending, [])
    with st.chat_message("user"):
        st.markdown(widgets.safe(text) or "📎 " + ", ".join(f.filename for f in files))
    with st.chat_message("assistant"):
        status = st.status("Die Werkbank arbeitet …", expanded=True)
        result = ui.run(send, teacher_id=tid, message=text, attachments=files,
                        conversation_id=uuid.UUID(conv_id) if conv_id else None,
                        on_step=lambda line: status.write(widgets.safe(line)))
        if result is None:
            status.update(label="Das hat nicht geklappt", state="error", expanded=False)
        else:
            status.update(label=f"Fertig · {len(result.steps)} Schritte · {result.model}", state="complete",
                          expanded=False)
            st.session_state["conv_id"] = str(result.conversation_id)
            st.rerun()
