"""The test broker itself (tests/mqtt_broker.py): loopback only, never 1883, accounts
and anonymous access as the test asks, TLS with the CA checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mqtt_broker import CA, Mosquitto, make_ca, need_mosquitto
from tests.mqtt_client import Watcher, try_connect

pytestmark = pytest.mark.mqtt


@pytest.fixture(scope="module")
def ca(tmp_path_factory: pytest.TempPathFactory) -> CA:
    need_mosquitto()  # skip (or fail with CI=true) before openssl runs
    return make_ca(tmp_path_factory.mktemp("ca"))


def test_config_is_loopback_only_never_1883(tmp_path: Path) -> None:
    with Mosquitto(tmp_path, anonymous=True) as broker:
        text = broker.config_text()
        assert broker.port != 1883
        listeners = [line for line in text.splitlines() if line.startswith("listener")]
        assert listeners == [f"listener {broker.port} 127.0.0.1"]
        assert "Opening ipv4 listen socket on port" in broker.output()
        assert try_connect(broker.port) == "ok"


def test_accounts_refuse_anonymous_and_wrong_password(tmp_path: Path) -> None:
    with Mosquitto(tmp_path, users={"board-a": "s3cret"}) as broker:
        assert "allow_anonymous false" in broker.config_text()
        assert try_connect(broker.port).startswith("refused")
        assert try_connect(broker.port, username="board-a", password="wrong").startswith("refused")
        assert try_connect(broker.port, username="board-a", password="s3cret") == "ok"


def test_tls_listener_checks_the_ca(tmp_path: Path, ca: CA, tmp_path_factory: pytest.TempPathFactory) -> None:
    other = make_ca(tmp_path_factory.mktemp("other-ca"), "someone-else")
    with Mosquitto(tmp_path, users={"b": "pw"}, ca=ca) as broker:
        assert broker.tls_port is not None
        assert try_connect(broker.tls_port, username="b", password="pw", ca=ca.cert) == "ok"
        # a certificate from another CA is refused by the client's check
        assert try_connect(broker.tls_port, username="b", password="pw", ca=other.cert).startswith("failed")
        # plaintext to the TLS listener does not get through
        assert try_connect(broker.tls_port, username="b", password="pw", timeout=3).startswith("failed")


def test_retained_message_survives_restart_with_persistence(tmp_path: Path) -> None:
    with Mosquitto(tmp_path, anonymous=True, persistence=True) as broker:
        with Watcher(broker.port, ()) as w:
            w.publish("gingo/test/state", "kept", retain=True)
        broker.restart()
        with Watcher(broker.port, ("gingo/test/state",)) as w:
            assert w.wait_topic("gingo/test/state").text == "kept"

