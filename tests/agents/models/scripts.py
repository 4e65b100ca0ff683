"""Scripted models for the model tests: each request takes the next row of a table (an exception to raise or a
response to return)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

from pydantic_ai.exceptions import ModelHTTPError
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
from pydantic_ai.models import Model
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from agents.models.names import OFFLINE_MODEL_NAME

SONNET = "claude-sonnet-4-6"

Row = Exception | ModelResponse | Callable[[list[ModelMessage]], ModelResponse]


@dataclass
class Script:
    rows: Sequence[Row]
    calls: int = 0
    seen: list[list[ModelMessage]] = field(default_factory=list)

    def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        row = self.rows[min(self.calls, len(self.rows) - 1)]  # the last row repeats
        self.calls += 1
        self.seen.append(messages)
        if isinstance(row, Exception):
            raise row
        if isinstance(row, ModelResponse):
            return ModelResponse(parts=list(row.parts), usage=row.usage)
        return row(messages)


def scripted(rows: Sequence[Row], name: str = SONNET) -> tuple[FunctionModel, Script]:
    script = Script(rows)
    return FunctionModel(script, model_name=name), script


def text(content: str, usage: RequestUsage | None = None) -> ModelResponse:
    return ModelResponse(parts=[TextPart(content)], usage=usage or RequestUsage())


def offline_factory(role: str) -> Model:
    """Stands in for the lead's offline rule model."""
    return FunctionModel(lambda messages, info: text(f"Offline-Antwort ({role})."), model_name=OFFLINE_MODEL_NAME)


def http_error(status: int, body: object = None, headers: dict[str, str] | None = None) -> ModelHTTPError:
    return ModelHTTPError(status, SONNET, body, headers=headers)


class Sleeps(list[float]):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


def http_date(delta: timedelta) -> str:
    return format_datetime(datetime.now(UTC) + delta, usegmt=True)
