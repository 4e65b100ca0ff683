"""Dates as the school sees them: the school's time zone for day boundaries and the dates shown to teachers."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from core.app.config import get_settings

# The one time zone (WERKBANK_TIMEZONE, default Europe/Berlin): day boundaries of the date filters, every time shown.
SCHOOL_TZ = ZoneInfo(get_settings().werkbank_timezone)


def local_time(value: datetime, fmt: str = "%d.%m.%Y %H:%M") -> str:
    return value.astimezone(SCHOOL_TZ).strftime(fmt)
