"""Sign-in: local accounts (argon2, rate limit, disable), the mode in force, the demo mode only on this computer,
roles from IdP claims, and `health` naming a missing sign-in."""

from __future__ import annotations

import io
import uuid

import pytest
import sqlalchemy as sa

from core.app import accounts, auth
from core.app.config import get_settings
from core.app.errors import UserError
from core.ops.cli.main import main
from core.ops.health import health
from db.access_models import Account, LoginAttempt
from db.models import Teacher
from db.session import Identity, unit_of_work
from tests.pages.conftest import fresh_person

PASSWORD = "korrekt-Pferd-Batterie"


@pytest.fixture
def person(database) -> Teacher:  # noqa: ANN001
    tid = fresh_person()
    with unit_of_work(Identity.system()) as db:
        return db.get(Teacher, tid)


@pytest.fixture
def settings(monkeypatch):  # noqa: ANN001, ANN201
    def apply(**env: str) -> None:
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        get_settings.cache_clear()

    yield apply
    get_settings.cache_clear()


def test_password_is_stored_as_argon2id_hash_never_in_clear(person: Teacher) -> None:
    accounts.create_account(email=person.email, password=PASSWORD)
    with unit_of_work(Identity.system()) as db:
        stored = db.get(Account, person.id).password_hash
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_right_password_signs_in_and_wrong_one_or_unknown_email_get_the_same_message(person: Teacher) -> None:
    accounts.create_account(email=person.email, password=PASSWORD)
    assert accounts.sign_in(email=person.email.upper(), password=PASSWORD, client="10.1.1.1") == person.id
    with pytest.raises(UserError) as wrong:
        accounts.sign_in(email=person.email, password="falsch-falsch", client="10.1.1.1")
    with pytest.raises(UserError) as unknown:
        accounts.sign_in(email=f"niemand-{uuid.uuid4().hex[:6]}@test.de", password=PASSWORD, client="10.1.1.1")
    assert wrong.value.message == unknown.value.message == accounts.WRONG


def test_five_failures_pause_the_account_even_for_the_right_password(person: Teacher) -> None:
    accounts.create_account(email=person.email, password=PASSWORD)
    client = f"10.2.{uuid.uuid4().int % 250}.1"
    for _ in range(5):
        with pytest.raises(UserError):
            accounts.sign_in(email=person.email, password="nicht-das-richtige", client=client)
    with pytest.raises(UserError) as paused:
        accounts.sign_in(email=person.email, password=PASSWORD, client="10.9.9.9")
    assert "Zu viele Fehlversuche" in paused.value.message and "Minuten" in paused.value.message
    with unit_of_work(Identity.system()) as db:
        failures = db.scalar(sa.select(sa.func.count()).select_from(LoginAttempt).where(
            LoginAttempt.email == person.email, LoginAttempt.ok.is_(False)))
    assert failures == 5  # the refused sixth attempt is not even checked against the hash


def test_one_client_guessing_many_accounts_is_paused(database, settings) -> None:  # noqa: ANN001
    settings(WERKBANK_LOGIN_CLIENT_MAX_FAILURES="3")
    client = f"203.0.113.{uuid.uuid4().int % 250}"
    for i in range(3):
        with pytest.raises(UserError):
            accounts.sign_in(email=f"rate{i}-{uuid.uuid4().hex[:6]}@test.de", password="x" * 12, client=client)
    with pytest.raises(UserError) as paused:
        accounts.sign_in(email="noch.einer@test.de", password="x" * 12, client=client)
    assert "Zu viele Fehlversuche" in paused.value.message


def test_disabled_account_cannot_sign_in_and_is_signed_out(person: Teacher) -> None:
    accounts.create_account(email=person.email, password=PASSWORD)
    assert accounts.account_active(person.id)
    accounts.set_disabled(email=person.email, disabled=True)
    assert not accounts.account_active(person.id)
    with pytest.raises(UserError, match="gesperrt"):
        accounts.sign_in(email=person.email, password=PASSWORD, client="10.3.3.3")
    accounts.set_disabled(email=person.email, disabled=False)
    assert accounts.sign_in(email=person.email, password=PASSWORD, client="10.3.3.3") == person.id


def test_short_password_is_refused(person: Teacher) -> None:
    with pytest.raises(UserError, match="mindestens 10"):
        accounts.create_account(email=person.email, password="kurz")


def test_mode_follows_configuration(settings) -> None:  # noqa: ANN001
    settings(WERKBANK_AUTH="auto")
    assert auth.auth_mode(oidc_configured=True, accounts_exist=True) == "oidc"
    assert auth.auth_mode(oidc_configured=False, accounts_exist=True) == "local"
    assert auth.auth_mode(oidc_configured=False, accounts_exist=False) == "demo"
    settings(WERKBANK_AUTH="local")
    assert auth.auth_mode(oidc_configured=True, accounts_exist=False) == "local"


@pytest.mark.parametrize(("server", "client", "headers", "allowed"), [
    ("127.0.0.1", "127.0.0.1", {"Host": "localhost:8501"}, True),
    ("127.0.0.1", None, {}, True),
    ("::1", "::1", {"Host": "[::1]:8501"}, True),
    ("0.0.0.0", "127.0.0.1", {"Host": "localhost:8501"}, False),  # bound to every interface
    (None, "127.0.0.1", {}, False),  # streamlit's default: every interface
    ("192.168.1.20", "192.168.1.7", {"Host": "192.168.1.20:8501"}, False),
    ("127.0.0.1", "10.0.0.5", {}, False),
    ("127.0.0.1", "127.0.0.1", {"X-Forwarded-For": "198.51.100.7"}, False),  # a reverse proxy on this computer
    ("127.0.0.1", "127.0.0.1", {"Host": "werkbank.schule.de"}, False),
])
def test_demo_mode_only_for_this_computer(server, client, headers, allowed) -> None:  # noqa: ANN001
    assert auth.demo_allowed(auth.Request(server_address=server, client_ip=client, headers=headers)) is allowed


def test_only_an_email_the_idp_vouches_for_signs_in() -> None:
    assert auth.email_from_claims({"email": " Anna@Schule.de ", "email_verified": True}) == "anna@schule.de"
    assert auth.email_from_claims({"email": "anna@schule.de"}) == "anna@schule.de"  # IdPs that omit the claim
    assert auth.email_from_claims({"email": "anna@schule.de", "email_verified": False}) is None
    assert auth.email_from_claims({"email": "anna@schule.de", "email_verified": "false"}) is None
    assert auth.email_from_claims({"sub": "123"}) is None and auth.email_from_claims({"email": "kein-at"}) is None


def test_role_from_idp_claims_when_mapped(settings) -> None:  # noqa: ANN001
    assert auth.role_from_claims({"roles": ["Kurator"]}) is None  # no claim configured: the admin's mapping holds
    settings(WERKBANK_OIDC_ROLE_CLAIM="roles", WERKBANK_OIDC_ROLE_MAP='{"Kurator": "curator", "Lehrer": "teacher"}')
    assert auth.role_from_claims({"roles": ["Gast", "Kurator"]}) == "curator"
    assert auth.role_from_claims({"roles": "Lehrer"}) == "teacher"
    assert auth.role_from_claims({"roles": ["Admin"]}) is None


def test_health_names_a_missing_sign_in_outside_demo_mode(database, settings, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(auth, "oidc_in_secrets", lambda: False)
    monkeypatch.setattr(auth, "local_accounts_exist", lambda: False)
    settings(WERKBANK_AUTH="auto")
    report = health()
    row = next(c for c in report.checks if c["Prüfung"] == "Anmeldung")
    assert row["Status"] == "Problem" and "keine Anmeldung konfiguriert" in row["Details"] and not report.ok
    settings(WERKBANK_AUTH="demo")
    row = next(c for c in health().checks if c["Prüfung"] == "Anmeldung")
    assert row["Status"] == "ok" and "Demo-Modus" in row["Details"]


def test_secrets_file_with_auth_section_counts_as_oidc(tmp_path) -> None:  # noqa: ANN001
    secrets = tmp_path / "secrets.toml"
    secrets.write_text('[auth]\nredirect_uri = "https://werkbank.schule.de/oauth2callback"\n')
    assert auth.oidc_in_secrets((tmp_path / "fehlt.toml", secrets))
    secrets.write_text('[other]\nx = 1\n')
    assert not auth.oidc_in_secrets((secrets,))


def test_account_cli_creates_a_person_with_password_from_stdin(database, monkeypatch, capsys) -> None:  # noqa: ANN001
    email = f"neu-{uuid.uuid4().hex[:6]}@demo-gymnasium.de"
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    code = main(["account", "create", email, "--name", "Neue Lehrkraft", "--school", "Werkbank-Demo-Gymnasium Dresden",
                 "--faecher", "physik", "--password-stdin"])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert PASSWORD not in out.out
    assert accounts.sign_in(email=email, password=PASSWORD, client="10.4.4.4")
    assert main(["account", "disable", email]) == 0
    assert any(r.email == email and r.disabled for r in accounts.accounts())


def test_account_for_an_existing_curator_keeps_her_role_unless_one_is_given(database, monkeypatch, capsys) -> None:  # noqa: ANN001
    """An operator creating a password for a seeded curator without `--role` must not demote her to a teacher."""
    tid = fresh_person(role="curator")
    with unit_of_work(Identity.system()) as db:
        email = db.get(Teacher, tid).email
    monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
    assert main(["account", "create", email, "--password-stdin"]) == 0
    assert "(curator)" in capsys.readouterr().out
    with unit_of_work(Identity.system()) as db:
        assert db.get(Teacher, tid).role == "curator"
    other = fresh_person(role="curator")
    with unit_of_work(Identity.system()) as db:
        other_email = db.get(Teacher, other).email
    accounts.create_account(email=other_email, password=PASSWORD, role="teacher")
    with unit_of_work(Identity.system()) as db:
        assert db.get(Teacher, other).role == "teacher"


@pytest.mark.parametrize("argv", [
    ["account", "create", "kein-at-zeichen", "--name", "X"],
    ["account", "create", "unbekannt@test.de"],  # new person without a name
    ["account", "disable", "gibt-es-nicht@test.de"],
    ["account", "frobnicate", "x@test.de"],
    ["account", "create", "x@test.de", "--name", "X", "--school", "Keine Schule dieses Namens"],
])
def test_account_cli_bad_input_exits_2_with_german_message(database, argv, capsys) -> None:  # noqa: ANN001
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own errors leave through exit(2)
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("Fehler:") and "Traceback" not in err
