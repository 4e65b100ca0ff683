"""A loopback fake OpenID Connect provider (a school's IdP such as VIDIS or Moodle), for `st.login` round trips.

Stdlib `http.server` in a thread plus joserfc for the signed id_token. It serves what Authlib reads:

- `/.well-known/openid-configuration`: the discovery document (S256 PKCE, an end_session_endpoint);
- `/authorize`: a sign-in page with an e-mail field; submitting it redirects back to `redirect_uri` with a code
  and the state it was given;
- `/token`: checks client id + secret (HTTP Basic or form), the code, the redirect_uri and the PKCE verifier, and
  issues an RS256-signed id_token (iss, aud, sub, nonce, exp, email, name, and the extra claims of that user);
- `/jwks`: the public key; `/logout`: records the sign-out and redirects to `post_logout_redirect_uri`.

    with FakeOidcProvider(users={"a@schule.de": {"name": "A", "rolle": "Lehrer"}}) as idp:
        idp.metadata_url  # -> [auth] server_metadata_url in .streamlit/secrets.toml
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from joserfc import jwt
from joserfc.jwk import RSAKey

CLIENT_ID = "werkbank-test"
CLIENT_SECRET = "fake-idp-secret-0123456789"


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  # keep pytest output clean
        pass

    def do_GET(self) -> None:  # noqa: N802
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        idp = self.server.idp
        if url.path == "/.well-known/openid-configuration":
            self._json(200, idp.discovery())
        elif url.path == "/jwks":
            self._json(200, {"keys": [idp.key.as_dict(private=False)]})
        elif url.path == "/authorize":
            self._sign_in_page(query)
        elif url.path == "/logout":
            idp.logouts.append(query)
            self._redirect(query.get("post_logout_redirect_uri") or "/")
        else:
            self._json(404, {"error": "not_found"})

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("content-length") or 0)
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        path = urlsplit(self.path).path
        if path == "/authorize":
            self._redirect(self.server.idp.grant(form))
        elif path == "/token":
            status, body = self.server.idp.token(form, self.headers.get("authorization", ""))
            self._json(status, body)
        else:
            self._json(404, {"error": "not_found"})

    def _sign_in_page(self, query: dict[str, str]) -> None:
        problem = self.server.idp.check_authorize(query)
        if problem:
            self._json(400, {"error": "invalid_request", "error_description": problem})
            return
        hidden = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
                         for k, v in query.items())
        page = (f"<html><body><h1>Schul-Login (Test-IdP)</h1><form method='post' action='/authorize'>{hidden}"
                "<label>E-Mail <input name='login' id='login'></label>"
                "<button type='submit'>Weiter</button></form></body></html>")
        body = page.encode()
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("location", location)
        self.send_header("content-length", "0")
        self.end_headers()

    def _json(self, status: int, payload: Any) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("cache-control", "no-store")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    idp: FakeOidcProvider


class FakeOidcProvider:
    """The IdP. `users` maps an e-mail to extra claims (name, a role claim …); an e-mail not in it still signs in
    (as an IdP would for any of its accounts) with just email + name."""

    def __init__(self, users: dict[str, dict[str, Any]] | None = None) -> None:
        self.users = dict(users or {})
        self.key = RSAKey.generate_key(2048, parameters={"kid": "fake-1", "use": "sig", "alg": "RS256"})
        self.logouts: list[dict[str, str]] = []
        self.issued: list[dict[str, Any]] = []  # the id_token claims handed out, in order
        self._codes: dict[str, dict[str, str]] = {}
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.idp = self
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self.issuer = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.metadata_url = f"{self.issuer}/.well-known/openid-configuration"  # [auth] server_metadata_url

    def discovery(self) -> dict[str, Any]:
        base = self.issuer
        return {"issuer": base, "authorization_endpoint": f"{base}/authorize", "token_endpoint": f"{base}/token",
                "jwks_uri": f"{base}/jwks", "end_session_endpoint": f"{base}/logout",
                "response_types_supported": ["code"], "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"], "code_challenge_methods_supported": ["S256"],
                "scopes_supported": ["openid", "email", "profile"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"]}

    def check_authorize(self, query: dict[str, str]) -> str | None:
        if query.get("client_id") != CLIENT_ID:
            return "unknown client_id"
        if query.get("response_type") != "code" or "openid" not in query.get("scope", "").split():
            return "response_type=code and scope openid required"
        if not query.get("redirect_uri") or not query.get("state"):
            return "redirect_uri and state required"
        return None

    def grant(self, form: dict[str, str]) -> str:
        """The user submitted the sign-in page: a one-time code, back to the client."""
        code = secrets.token_urlsafe(16)
        with self._lock:
            self._codes[code] = form
        return f"{form['redirect_uri']}?{urlencode({'code': code, 'state': form['state']})}"

    def token(self, form: dict[str, str], authorization: str) -> tuple[int, dict[str, Any]]:
        client_id, client_secret = form.get("client_id"), form.get("client_secret")
        if authorization.lower().startswith("basic "):
            client_id, _, client_secret = base64.b64decode(authorization[6:]).decode().partition(":")
        if (client_id, client_secret) != (CLIENT_ID, CLIENT_SECRET):
            return 401, {"error": "invalid_client"}
        with self._lock:
            grant = self._codes.pop(form.get("code", ""), None)  # a code works once
        if grant is None or form.get("redirect_uri") != grant["redirect_uri"]:
            return 400, {"error": "invalid_grant"}
        if grant.get("code_challenge"):
            verifier = form.get("code_verifier", "").encode()
            challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier).digest()).rstrip(b"=").decode()
            if challenge != grant["code_challenge"]:
                return 400, {"error": "invalid_grant", "error_description": "PKCE verifier does not match"}
        email = grant.get("login", "").strip().lower()
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": CLIENT_ID, "sub": hashlib.sha256(email.encode()).hexdigest()[:24],
                  "iat": now, "exp": now + 600, "email": email, "email_verified": True,
                  "name": email.split("@")[0], **self.users.get(email, {})}
        if grant.get("nonce"):
            claims["nonce"] = grant["nonce"]
        self.issued.append(claims)
        id_token = jwt.encode({"alg": "RS256", "kid": "fake-1"}, claims, self.key)
        return 200, {"access_token": secrets.token_urlsafe(24), "token_type": "Bearer", "expires_in": 600,
                     "id_token": id_token, "scope": "openid email profile"}

    def __enter__(self) -> FakeOidcProvider:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
