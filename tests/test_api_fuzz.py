"""Schemathesis over the app's own OpenAPI: whatever the body, path or query, the API
answers without a 5xx, every 4xx is in the contract's error form, and every answer
conforms to what the route declares (status code, content type, and the body against
the route's response model: the routes answer with the table's own dicts, so this is
where those models are checked)."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import schemathesis
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from hypothesis import HealthCheck, settings

from companion.api import create_app
from companion.hardware.leds.sim import SimLeds
from companion.hardware.layout import default_layout
from companion.hardware.sensors.sim import SimSensors
from companion.pairing import Pairing
from companion.store import open_store
from companion.hardware.sync import BoardSync
from companion.table import HandInput, Table
from tests.test_table import GIN_HANDS, GINGO_ACTIONS

_DIR = Path(tempfile.mkdtemp(prefix="gingo-fuzz-"))
_STORE = open_store(_DIR)
_TABLE = Table(_STORE)
_PAIRING = Pairing(_STORE, code="111111", host_code="fuzz-host")
_SYNC = BoardSync(_TABLE, SimSensors(rate=100), SimLeds(), layout=default_layout())
APP = create_app(_TABLE, pairing=_PAIRING, sync=_SYNC, max_body=50_000, names=("testserver",))
TOKEN = _PAIRING.pair("111111", "fuzzer")
HEADERS = {"Authorization": f"Bearer {TOKEN}", "X-Host-Code": "fuzz-host"}

# real games for the generated requests to land on, one per variant
_GIN = _TABLE.create_game("gin", players=["A", "B"])["id"]
_TABLE.score_hand(_GIN, HandInput(0, hands=GIN_HANDS))
_GINGO = _TABLE.create_game("gingo", players=["A", "B"])["id"]
for _a in GINGO_ACTIONS[:3]:
    _TABLE.action(_GINGO, _a)
_COLOR = _TABLE.create_game("color_gin", players=["A", "B"])["id"]
_IDS = itertools.cycle([_GIN, _GINGO, _COLOR, None])

schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@schema.parametrize()
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: schemathesis.Case) -> None:
    if case.path_parameters and "game_id" in case.path_parameters:
        real = next(_IDS)
        if real is not None:
            case.path_parameters["game_id"] = real
    response = case.call(headers=HEADERS)
    assert response.status_code < 500, (case.method, case.path, response.text)
    case.validate_response(response, checks=CHECKS)
    if 400 <= response.status_code < 500:
        body = response.json()
        assert set(body) == {"error"} and body["error"]["message"], body
