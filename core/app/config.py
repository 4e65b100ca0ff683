"""Settings of the workbench, read once from the environment (and `.env`).

Streamlit secrets reach this class as environment variables; core never touches `st.secrets`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
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


@lru_cache
def get_settings() -> Settings:
    return Settings()
