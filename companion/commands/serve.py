"""``gingo serve``: run the companion (simulated board unless the config names hardware).

Prints the address(es) phones open, the pairing code with a QR code of the pairing
link, and the host code; advertises ``gingo._http._tcp`` over mDNS; stops cleanly on
SIGTERM or Ctrl-C (uvicorn handles both signals).
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from typing import Any, TextIO

from companion.cli import CommandError
from companion.hardware.config import load_config

log = logging.getLogger("gingo")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the whole LAN)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    parser.add_argument("--data", metavar="DIR", help="data directory (default $GINGO_DATA, "
                        "$XDG_DATA_HOME/gingo or ~/.local/share/gingo)")
    parser.add_argument("--config", metavar="FILE", help="hardware config TOML (default: simulated board)")
    parser.add_argument("--no-mdns", action="store_true", help="do not advertise gingo.local over mDNS")
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    parser.add_argument("--log-level", default="warning", choices=["debug", "info", "warning", "error"],
                        help="how much the server logs (default warning)")


@dataclass
class Service:
    """Everything ``gingo serve`` runs, built by :func:`build_service` (also for tests)."""

    app: Any
    table: Any
    store: Any
    pairing: Any
    sync: Any
    warnings: list[str] = field(default_factory=list)
    buttons: Any = None

    def start(self) -> None:
        self.sync.start()

    def stop(self) -> None:
        if self.buttons is not None:
            try:
                self.buttons.close()
            except Exception:
                pass
        self.sync.stop()
        try:
            self.pairing.flush()
        finally:
            self.store.close()


def build_service(data: str | os.PathLike[str] | None, config: str | None = None,
                  warn: Any = None, names: Sequence[str] = ()) -> Service:
    """Open the store, fold the games, pick the backends and build the app."""
    from companion.api import create_app
    from companion.pairing import Pairing
    from companion.paths import data_dir
    from companion.store import open_store
    from companion.sync import BoardSync
    from companion.table import Table

    warnings: list[str] = []

    def say(msg: str) -> None:
        warnings.append(msg)
        if warn is not None:
            warn(msg)

    folder = data_dir(data, writable=True)
    store = open_store(folder, exclusive=True)
    if store.damage is not None:
        say(store.damage.message())
    table = Table(store)
    for err in table.replay_errors:
        say(f"a stored game could not be replayed and is hidden: {err}")
    try:
        pairing = Pairing(store)
    except ValueError:  # a bad GINGO_PAIRING_WINDOW: say so before anything runs
        store.close()
        raise

    cfg = load_config(config)
    colors = dict(cfg.colors)
    layout = cfg.led_layout()
    sensors = _open_sensors(cfg, say)
    link = sensors if cfg.leds == "pico" else None
    leds = cfg.open_leds(say, link)
    buttons_pins = cfg.buttons
    reopen = functools.partial(_reopen_sensors, cfg) if sensors is None else None
    shutdown = functools.partial(power_off, cfg.shutdown_command) if buttons_pins else None
    sync = BoardSync(table, sensors, leds, layout=layout, colors=colors, reopen=reopen, shutdown=shutdown)
    # GINGO_HOSTNAMES: more names to answer to, comma separated (a name your router gives the Pi)
    extra = [n.strip() for n in os.environ.get("GINGO_HOSTNAMES", "").split(",") if n.strip()]
    app = create_app(table, pairing=pairing, sync=sync, warnings=warnings, names=[*names, *extra])
    svc = Service(app, table, store, pairing, sync, warnings)
    if buttons_pins:
        try:
            from companion.hardware.buttons import Buttons

            svc.buttons = Buttons(dict(buttons_pins), functools.partial(board_button, pairing, sync),
                                  hold_seconds=cfg.hold_seconds)
        except Exception as exc:  # no GPIO here: the board works without buttons
            say(f"buttons not available ({exc}); use the phones instead")
    return svc


def board_button(pairing: Any, sync: Any, name: str) -> None:
    """A board button: a long press of confirm (``pair_code``) makes a new pairing code
    (logged, and announced to the paired phones, which show it); the rest go to the board."""
    if name == "pair_code":
        pairing.rotate("the board's confirm button (long press)")
        return
    sync.button(name)


def power_off(command: Sequence[str]) -> str | None:
    """Run the shutdown command of the board's long-hold button; the error text if it
    failed (the service keeps running and tells the phones), else None.

    >>> power_off(["true"]) is None
    True
    >>> power_off(["false"])
    "shutting down failed: 'false' exited with 1 (the installer allows 'systemctl poweroff' for the service user)"
    """
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"shutting down failed: cannot run {' '.join(command)!r} ({exc})"
    if done.returncode != 0:
        why = (done.stderr or "").strip().splitlines()
        return (f"shutting down failed: {' '.join(command)!r} exited with {done.returncode}"
                + (f": {why[-1]}" if why else "")
                + " (the installer allows 'systemctl poweroff' for the service user)")
    return None


def _sensor_options(cfg: Any) -> dict[str, Any]:
    options = dict(cfg.sensor_options)
    if cfg.sensors == "sim":
        options.setdefault("rate", 200.0)
    if cfg.sensor_port and cfg.sensors == "serial":
        options.setdefault("port", cfg.sensor_port)
    return options


def _reopen_sensors(cfg: Any) -> Any:
    from companion.hardware.sensors import open_sensor_backend

    return open_sensor_backend(cfg.sensors, **_sensor_options(cfg))


def _open_sensors(cfg: Any, say: Any) -> Any:
    from companion.hardware.sensors import open_sensor_backend

    try:
        return open_sensor_backend(cfg.sensors, **_sensor_options(cfg))
    except Exception as exc:
        say(f"SENSORS OFFLINE: the {cfg.sensors} sensors cannot start ({exc}); the board shows 'offline', "
            "nothing is guessed, and the companion keeps trying every 5 seconds")
        return None


def qr_text(url: str) -> str:
    """The QR code of ``url`` as terminal text."""
    import io

    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.make(fit=True)
    buf = io.StringIO()
    qr.print_ascii(out=buf, invert=True)
    return buf.getvalue()


def banner(svc: Service, host: str, port: int, addresses: list[str], *, qr: bool, out: TextIO) -> None:
    """What a player needs at start-up: where to point the phone, the codes, the QR."""
    from companion.discovery import url_for

    shown = addresses if host in ("0.0.0.0", "::", "") else [host]
    if not shown:
        shown = ["127.0.0.1"]
    print("Gin-Go Companion is running.", file=out)
    for a in shown:
        print(f"  open   {url_for(a, port)}", file=out)
    print(f"  pairing code: {svc.pairing.code}  (good for {round(svc.pairing.window / 60)} minutes; "
          "a long press of the board's confirm button or a paired phone makes a new one)", file=out)
    print(f"  host code (delete games, manage phones): {svc.pairing.host_code}", file=out)
    print(f"  LEDs: {svc.sync.leds_name}   sensors: {getattr(svc.sync.sensors, 'name', 'offline')}", file=out)
    for w in svc.warnings:
        print(f"  WARNING: {w}", file=out)
    if qr:
        link = f"{url_for(shown[0], port)}?code={svc.pairing.code}"
        text = qr_text(link)
        if text:
            print(f"Scan to pair ({link}):", file=out)
            print(text, file=out)
    out.flush()


def _server_class() -> Any:
    import uvicorn

    class CleanServer(uvicorn.Server):
        """uvicorn re-raises SIGTERM after its shutdown, which would skip ours (LEDs off,
        sensors closed, log closed); here a signal just means "stop": exit status 0 after
        SIGTERM (systemd), 130 after Ctrl-C (SIGINT), like every other command."""

        exit_signal: int | None = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.exit_signal = sig
            super().handle_exit(sig, frame)
            self._captured_signals.clear()

    return CleanServer


def _check_can_listen(host: str, port: int) -> None:
    """Bind ``host:port`` once before anything starts, so a port in use or an address that
    is not this machine's is one clear line (uvicorn would log it and exit with status 3,
    after the banner said the companion is running)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise CommandError(f"could not listen on {host}:{port}: {getattr(exc, 'strerror', None) or exc}; "
                           "pass --host with an address of this machine (0.0.0.0 for the whole LAN)") from None
    family, kind, proto, _name, addr = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(addr)
        except OSError as exc:
            raise CommandError(f"could not listen on {host}:{port}: {exc.strerror or exc}; "
                               "pass another --port or --host (or stop what is using it)") from None


def _host_names(host: str) -> list[str]:
    """``--host`` given as a name (not an address) is a name the companion answers to."""
    import ipaddress

    try:
        ipaddress.ip_address(host)
    except ValueError:
        return [host] if host else []
    return []


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from companion.discovery import advertise, local_addresses

    if not 0 < args.port < 65536:
        raise CommandError(f"--port {args.port} is not a TCP port (1..65535)")
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")

    def warn(msg: str) -> None:
        print(f"gingo serve: WARNING: {msg}", file=sys.stderr, flush=True)

    _check_can_listen(args.host, args.port)
    try:
        svc = build_service(args.data, args.config, warn, names=_host_names(args.host))
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    addresses = local_addresses()
    advert = None
    server: Any = None
    try:
        svc.start()
        banner(svc, args.host, args.port, addresses, qr=not args.no_qr, out=sys.stdout)
        if not args.no_mdns and args.host not in ("127.0.0.1", "localhost"):
            advert = advertise(args.port, addresses, warn=warn)
        _Server = _server_class()
        # proxy_headers off: the per-address limits must count the real peer, never an
        # X-Forwarded-For a client made up
        config = uvicorn.Config(svc.app, host=args.host, port=args.port, workers=1, proxy_headers=False,
                                log_level=args.log_level, lifespan="on", ws="websockets-sansio")
        server = _Server(config)
        try:
            server.run()
        except SystemExit:
            # uvicorn logs the bind error and exits with status 3 when it cannot listen;
            # say what to do instead (a signal after start-up is not a SystemExit here)
            if server.started:
                raise
        if not server.started:
            raise CommandError(f"could not listen on {args.host}:{args.port} (port in use or address not "
                               "on this machine?); pass another --port or --host")
    finally:
        if advert is not None:
            advert.close()
        svc.stop()
    return 130 if getattr(server, "exit_signal", None) == signal.SIGINT else 0


__all__ = ["Service", "build_service", "configure", "run", "qr_text", "banner"]

