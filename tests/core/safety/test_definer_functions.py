"""The SECURITY DEFINER functions as an attacker with the application role's SQL would try them (attack round,
issue #13): a temporary table that shadows the key table or the knowledge table must not change what they answer,
and nobody but the application role may call them."""

from __future__ import annotations

import hashlib
import uuid

import sqlalchemy as sa

from db.session import admin_engine, get_engine

DEFINERS = ("wb_identity_part(integer)", "wb_owns(text,uuid)",
            "wb_global_text_topk(text,text,text,text,text,integer)")


def _hmac(key: bytes, message: str) -> tuple[bytes, bytes, str]:
    key = key.ljust(64, b"\0")
    ipad, opad = bytes(b ^ 0x36 for b in key), bytes(b ^ 0x5C for b in key)
    inner = hashlib.sha256(ipad + message.encode()).digest()
    return ipad, opad, hashlib.sha256(opad + inner).hexdigest()


def test_a_temporary_key_table_does_not_let_the_app_role_forge_the_system_identity(database) -> None:  # noqa: ANN001
    payload = f"{uuid.uuid4()}|||system"
    ipad, opad, sig = _hmac(b"attacker", payload)
    with get_engine().connect() as c:  # the application role, as a SQL injection would have it
        c.execute(sa.text("CREATE TEMP TABLE wb_secrets (name text, ipad bytea, opad bytea)"))
        c.execute(sa.text("INSERT INTO wb_secrets VALUES ('identity', :i, :o)"), {"i": ipad, "o": opad})
        c.execute(sa.text("SELECT set_config('werkbank.identity', :p, false), set_config('werkbank.sig', :s, false)"),
                  {"p": payload, "s": sig})
        assert c.scalar(sa.text("SELECT wb_role()")) == "none"
        c.rollback()


def test_a_temporary_knowledge_table_does_not_feed_the_global_search(database) -> None:  # noqa: ANN001
    fake = uuid.uuid4()
    with get_engine().connect() as c:
        c.execute(sa.text("CREATE TEMP TABLE agent_knowledge AS SELECT * FROM public.agent_knowledge LIMIT 0"))
        c.execute(sa.text("INSERT INTO agent_knowledge (id, agent_type, scope_type, fach, knowledge_type, content, "
                          "source, status, quality_score, search_text) VALUES (:id, 'klausur', 'global', 'physik', "
                          "'good_practice', '{}', 'curator', 'active', 1.0, 'Zaubertrank')"), {"id": fake})
        ids = c.scalars(sa.text("SELECT id FROM wb_global_text_topk('physik', 'klausur', 'good_practice', "
                                "'zaubertrank', NULL, 10)")).all()
        c.rollback()
    assert fake not in ids


def test_the_definer_functions_are_callable_by_the_application_role_only(database) -> None:  # noqa: ANN001
    with admin_engine().connect() as c:
        for signature in DEFINERS:
            assert not c.scalar(sa.text("SELECT has_function_privilege('public', :f, 'EXECUTE')"),
                                {"f": signature}), signature
            assert c.scalar(sa.text(
                "SELECT p.prosecdef AND 'pg_temp' = ANY (string_to_array(replace(cfg, ' ', ''), ',')) FROM pg_proc p, "
                "unnest(p.proconfig) cfg WHERE p.oid = CAST(:f AS regprocedure) AND cfg LIKE 'search_path=%'"),
                {"f": signature}), signature


def test_the_app_role_cannot_create_objects_in_the_public_schema(database) -> None:  # noqa: ANN001
    with get_engine().connect() as c:
        assert not c.scalar(sa.text("SELECT has_schema_privilege(current_user, 'public', 'CREATE')"))
