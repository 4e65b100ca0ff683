"""How people sign in: OIDC (`st.login`, configured in .streamlit/secrets.toml), local accounts, or the demo mode —
which is served only to this computer (loopback address, no proxy in between) and says so on every page."""

from __future__ import annotations

import ipaddress
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from core.app.accounts import local_accounts_exist
from core.app.config import ROOT, get_settings

Mode = Literal["demo", "local", "oidc"]
LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
# Headers a reverse proxy adds: a request that passed one did not come from this computer, whatever its socket says.
PROXY_HEADERS = ("x-forwarded-for", "x-forwarded-host", "x-real-ip", "forwarded", "via")

DEMO_REFUSED = (
    "Die Werkbank ist von außerhalb dieses Computers erreichbar, aber es ist keine Anmeldung eingerichtet. Ohne "
    "Anmeldung läuft sie nur im Demo-Modus auf diesem Rechner (Adresse 127.0.0.1). Bitte eine Anmeldung einrichten: "
    "OIDC in `.streamlit/secrets.toml` (Abschnitt [auth]) oder lokale Konten mit `python -m core account create …` "
    "— oder die App nur lokal starten (`streamlit run app.py`, ohne `--server.address`)."
)
DEMO_BANNER = ("Demo-Modus: keine Anmeldung, alle Personen sind Beispielpersonen, jede Person ist wählbar. Nur auf "
               "diesem Computer erreichbar — nicht für echte Schülerdaten.")


def oidc_in_secrets(files: tuple[Path, ...] = (ROOT / ".streamlit" / "secrets.toml",
                                               Path.home() / ".streamlit" / "secrets.toml")) -> bool:
    """An [auth] section in one of Streamlit's secrets files (read as a file: core never touches st.secrets)."""
    for f in files:
        try:
            if "auth" in tomllib.loads(f.read_text(encoding="utf-8")):
                return True
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
            continue
    return False


def auth_mode(*, oidc_configured: bool, accounts_exist: bool | None = None) -> Mode:
    """The sign-in in force: WERKBANK_AUTH when set, else OIDC when configured, else local accounts when any
    exist (asked of the database unless given), else the demo mode."""
    chosen = get_settings().werkbank_auth
    if chosen != "auto":
        return chosen
    if oidc_configured:
        return "oidc"
    exist = local_accounts_exist() if accounts_exist is None else accounts_exist
    return "local" if exist else "demo"


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    host = host.strip().strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_of(header: str) -> str:
    header = header.strip()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


@dataclass(frozen=True)
class Request:
    """What the frame knows about where the app listens and where a request comes from."""

    server_address: str | None  # server.address; None/"" means every interface
    client_ip: str | None  # None under AppTest (no socket)
    headers: Mapping[str, str]


def demo_allowed(request: Request) -> bool:
    """The demo mode only for this computer: bound to a loopback address, reached from it, by a loopback host name,
    and not through a reverse proxy."""
    if not is_loopback(request.server_address):
        return False
    if request.client_ip is not None and not is_loopback(request.client_ip):
        return False
    headers = {k.lower(): v for k, v in request.headers.items()}
    if any(h in headers for h in PROXY_HEADERS):
        return False
    host = headers.get("host")
    return host is None or is_loopback(_host_of(host))


def login_problem() -> str | None:
    """For `health`: a German problem when nobody has to sign in outside an explicit demo mode."""
    chosen = get_settings().werkbank_auth
    if chosen == "demo":
        return None
    mode = auth_mode(oidc_configured=oidc_in_secrets())
    if mode == "demo":
        return ("keine Anmeldung konfiguriert — die App läuft nur im Demo-Modus auf diesem Rechner. Für den Betrieb "
                "OIDC (.streamlit/secrets.toml, [auth]) oder lokale Konten (`python -m core account create`) "
                "einrichten; für eine reine Vorführung WERKBANK_AUTH=demo setzen.")
    return None


def role_from_claims(claims: Mapping[str, object]) -> str | None:
    """The role an IdP claim names (WERKBANK_OIDC_ROLE_CLAIM + WERKBANK_OIDC_ROLE_MAP), or None to keep the
    administrator's mapping in the database."""
    s = get_settings()
    if not s.werkbank_oidc_role_claim:
        return None
    value = claims.get(s.werkbank_oidc_role_claim)
    values = value if isinstance(value, list | tuple) else [value]
    for v in values:
        role = s.werkbank_oidc_role_map.get(str(v))
        if role in ("teacher", "curator", "product"):
            return role
    return None


def email_from_claims(claims: Mapping[str, object]) -> str | None:
    """The e-mail an IdP vouches for, or None: an address the IdP marks as unverified (`email_verified: false`, e.g.
    one a user typed into their own profile) must not sign anybody in as the teacher who owns it."""
    email = str(claims.get("email") or "").strip().lower()
    verified = claims.get("email_verified", True)
    if isinstance(verified, str):
        verified = verified.strip().lower() not in ("false", "0", "no")
    return email if "@" in email and verified is not False else None
