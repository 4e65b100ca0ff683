"""Dates as the school sees them: the school's time zone for day boundaries and the dates shown to teachers."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

SCHOOL_TZ = ZoneInfo("Europe/Berlin")  # day boundaries of the date filter and the dates shown


def local_time(value: datetime) -> str:
    return value.astimezone(SCHOOL_TZ).strftime("%d.%m.%Y %H:%M")
