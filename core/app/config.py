"""Settings of the workbench, read once from the environment (and `.env`).

Streamlit secrets reach this class as environment variables; core never touches `st.secrets`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parents[2]  # the repository: core/app/config.py -> ../../..


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str | None = Field(
        default=None,
        description="PostgreSQL >= 15 with pgvector >= 0.7. Empty: an embedded server in WERKBANK_DATA_DIR.",
    )
    database_admin_url: str | None = Field(
        default=None, description="Owner connection for migrations and seeds; defaults to DATABASE_URL."
    )
    werkbank_data_dir: Path = Field(default=ROOT / ".data", description="Where the embedded PostgreSQL lives.")
    werkbank_app_role: str = Field(default="werkbank_app", description="Runtime role without BYPASSRLS.")
    werkbank_db_name: str = Field(default="werkbank", pattern=r"^[a-z][a-z0-9_]{0,62}$",
                                  description="Database name on the embedded server (benchmarks use their own).")
    werkbank_embedder: str = Field(
        default="offline", description="'offline' (character n-gram hashing) or e.g. 'openai:text-embedding-3-small'."
    )
    werkbank_model: str = Field(default="offline", description="pydantic-ai model name, or 'offline'.")
    werkbank_auto_seed: bool = Field(default=True, description="Seed the database on first start.")
    werkbank_statement_timeout_ms: int = Field(default=30_000)
    werkbank_db_pool_size: int = Field(default=5, ge=1, le=200, description="Connections kept per process.")
    werkbank_db_max_overflow: int = Field(default=10, ge=0, le=200, description="Extra connections under load.")
    werkbank_session_ttl_minutes: int = Field(default=60, ge=1, description="How long a Rückfrage waits.")
    werkbank_timezone: str = Field(default="Europe/Berlin",
                                   description="The one time zone of every time shown and of the date filters.")

    @field_validator("werkbank_timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"WERKBANK_TIMEZONE „{value}“ ist keine bekannte Zeitzone; bitte z. B. "
                             "„Europe/Berlin“ eintragen.") from exc
        return value

    # Sign-in (docs/decisions/018-login-and-demo-mode.md)
    werkbank_auth: Literal["auto", "demo", "local", "oidc"] = Field(
        default="auto", description="auto: OIDC when [auth] is in secrets.toml, else local accounts when any exist, "
        "else the demo mode (served on this computer only).")
    werkbank_oidc_role_claim: str | None = Field(default=None, description="IdP claim that carries the role.")
    werkbank_oidc_role_map: dict[str, str] = Field(
        default_factory=dict, description='Claim value -> role, e.g. {"Lehrer": "teacher", "Redaktion": "curator"}.')
    werkbank_login_max_failures: int = Field(default=5, ge=1, description="Failed sign-ins before a pause.")
    werkbank_login_client_max_failures: int = Field(default=20, ge=1, description="Failed sign-ins per client.")
    werkbank_login_lock_minutes: int = Field(default=15, ge=1, description="How long the pause lasts.")

    # Uploads and retention
    werkbank_upload_keep_days: int = Field(default=0, ge=0, description="Days the raw uploaded file is kept; 0 = "
                                           "deleted right after parsing (the redacted text stays).")
    werkbank_upload_cpu_seconds: int = Field(default=10, ge=1, description="CPU seconds for parsing one upload.")
    werkbank_upload_wall_seconds: int = Field(default=20, ge=1, description="Wall-clock seconds for one upload.")
    werkbank_upload_memory_mb: int = Field(default=1024, ge=128, description="Address space of the parser process.")
    werkbank_upload_max_pages: int = Field(default=100, ge=1, description="Pages of a PDF that are read at most.")

    # Conversations
    werkbank_history_token_budget: int = Field(default=12_000, ge=1_000, description="Estimated tokens of "
                                               "conversation history sent along with a turn; older turns are "
                                               "summarised.")


@lru_cache
def get_settings() -> Settings:
    return Settings()
