"""``gingo serve``: run the companion (simulated board unless the config names hardware).

Prints the address(es) phones open, the pairing code with a QR code of the pairing
link, and the host code; advertises ``gingo._http._tcp`` over mDNS; stops cleanly on
SIGTERM or Ctrl-C (uvicorn handles both signals).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TextIO

from companion.cli import CommandError
from companion.commands.assemble import Service, build_service
from companion.commands.settings import add_arguments, from_args

log = logging.getLogger("gingo")


def configure(parser: argparse.ArgumentParser) -> None:
    add_arguments(parser, listen=True)
    parser.add_argument("--no-mdns", action="store_true", help="do not advertise gingo.local over mDNS")
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")


#: black text on a bright white background, whatever the terminal's own colours
INK_ON_PAPER = "\x1b[30;107m"
RESET = "\x1b[0m"
#: the quiet zone around the code, in modules (the QR standard asks for 4)
QUIET = 4


def qr_text(url: str, *, colour: bool = True) -> str:
    """The QR code of ``url`` as terminal text: two module rows per line in half blocks,
    with a quiet zone of 4 modules. ``colour`` paints it black on white with ANSI colours
    (dark modules dark on a light and on a dark terminal alike); without colour the
    blocks are the dark modules, which scans on a light background (a log, a printout).

    >>> lines = qr_text("http://gingo.local:8000/?code=1234").splitlines()
    >>> len(lines), lines[0].startswith(INK_ON_PAPER), lines[0].endswith(RESET)
    (19, True, True)
    """
    import qrcode

    qr = qrcode.QRCode(border=QUIET)
    qr.add_data(url)
    qr.make(fit=True)
    m = [[bool(x) for x in row] for row in qr.get_matrix()]
    if len(m) % 2:
        m.append([False] * len(m[0]))  # the last line's lower half: more quiet zone
    glyph = {(True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584", (False, False): " "}
    out = []
    for top, bottom in zip(m[0::2], m[1::2]):
        text = "".join(glyph[(a, b)] for a, b in zip(top, bottom))
        out.append(f"{INK_ON_PAPER}{text}{RESET}" if colour else text)
    return "\n".join(out) + "\n"


def colour_wanted(out: TextIO) -> bool:
    """ANSI colours for a terminal (not for a log or a pipe, nor with NO_COLOR set)."""
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


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
    print(f"  sensor thresholds: {svc.app.state.calibration}", file=out)
    for w in svc.warnings:
        print(f"  WARNING: {w}", file=out)
    if qr:
        link = f"{url_for(shown[0], port)}?code={svc.pairing.code}"
        colour = colour_wanted(out)
        text = qr_text(link, colour=colour)
        if text:
            print(f"Scan to pair ({link}):", file=out)
            print(text, file=out)
            if not colour:
                print("(printed without colours: it scans on a light background; open the address above "
                      "and type the code if it does not)", file=out)
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

        #: called once the server listens (the banner and mDNS: see _run)
        on_listening: Callable[[], None] | None = None

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            gc.enable()  # listening: the collector's first passes come after start-up (see run)
            if self.started and self.on_listening is not None:
                self.on_listening()

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


@contextlib.contextmanager
def skip_unused_imports() -> Iterator[None]:
    """Keep two imports the service never uses out of its start-up (issue 23: together
    some 30-45 ms of CPU here, a quarter to a third of a second of a Pi Zero's start),
    and put things back when the service stops (the command may run inside a test).

    * FastAPI asks of every route's models whether they are pydantic v1 models, and to
      ask it imports ``pydantic.v1`` (fastapi/_compat/shared.py,
      ``is_pydantic_v1_model_class``), pydantic 1's whole code base; an ImportError there
      means "no". The service has no v1 model, so ``pydantic.v1`` is blocked the way
      Python's import system documents: a ``None`` in ``sys.modules`` makes importing
      that name raise ModuleNotFoundError. (Left alone if something imported it first.)
    * pydantic looks for plugins in every installed distribution's entry points when it
      builds its first validator, unless ``PYDANTIC_DISABLE_PLUGINS`` says not to
      (pydantic/plugin/_loader.py); the service uses none. An operator's own setting of
      the variable wins.
    """
    blocked = "pydantic.v1" not in sys.modules
    unset = "PYDANTIC_DISABLE_PLUGINS" not in os.environ
    if blocked:
        sys.modules["pydantic.v1"] = None  # type: ignore[assignment]
    if unset:
        os.environ["PYDANTIC_DISABLE_PLUGINS"] = "__all__"
    try:
        yield
    finally:
        if blocked and sys.modules.get("pydantic.v1", 0) is None:
            del sys.modules["pydantic.v1"]
        if unset:
            os.environ.pop("PYDANTIC_DISABLE_PLUGINS", None)


def run(args: argparse.Namespace) -> int:
    # Start-up (the imports, the app's validators, the folded games) makes some 110,000
    # objects that live as long as the service and leaves next to no garbage; the cyclic
    # collector's passes over them while they are made were 0.1-0.2 s of CPU of a 0.8 s
    # start here (over a second of a Pi Zero's). It runs again once the server listens
    # (CleanServer.startup), or when start-up fails.
    gc.disable()
    try:
        with skip_unused_imports():
            return _run(args)
    finally:
        gc.enable()


def _run(args: argparse.Namespace) -> int:
    import uvicorn

    from companion.discovery import advertise, local_addresses

    settings = from_args(args, listen=True)
    host, port = settings.host, settings.port
    logging.basicConfig(level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")

    def warn(msg: str) -> None:
        print(f"gingo serve: WARNING: {msg}", file=sys.stderr, flush=True)

    _check_can_listen(host, port)
    try:
        svc = build_service(settings, warn)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    adverts: list[Any] = []
    announce: list[threading.Thread] = []
    server: Any = None

    def announced() -> None:
        addresses = local_addresses()
        banner(svc, host, port, addresses, qr=not args.no_qr, out=sys.stdout)
        if not args.no_mdns and host not in ("127.0.0.1", "localhost"):
            # zeroconf's register_service blocks while it probes the network for the name
            # and announces it (about 1.7 s: a 150-250 ms random wait, three probes 500 ms
            # apart, three announcements 225 ms apart; zeroconf/_core.py)
            adverts.append(advertise(port, addresses, warn=warn))

    def on_listening() -> None:
        # The banner (its QR code) and mDNS (importing zeroconf, registering) wait until the
        # server listens, on their own thread: on a Pi Zero's slow core they were CPU spent
        # before the first phone could connect, and the address shown now answers when it
        # is shown (issue 23)
        thread = threading.Thread(target=announced, name="gingo-announce", daemon=True)
        announce.append(thread)
        thread.start()

    try:
        svc.start()
        _Server = _server_class()
        # proxy_headers off: the per-address limits must count the real peer, never an
        # X-Forwarded-For a client made up
        config = uvicorn.Config(svc.app, host=host, port=port, workers=1, proxy_headers=False,
                                log_level=settings.log_level, lifespan="on", ws="websockets-sansio")
        server = _Server(config)
        server.on_listening = on_listening
        try:
            server.run()
        except SystemExit:
            # uvicorn logs the bind error and exits with status 3 when it cannot listen;
            # say what to do instead (a signal after start-up is not a SystemExit here)
            if server.started:
                raise
        if not server.started:
            raise CommandError(f"could not listen on {host}:{port} (port in use or address not "
                               "on this machine?); pass another --port or --host")
    finally:
        for thread in announce:
            thread.join(timeout=5.0)
        for advert in adverts:
            if advert is not None:
                advert.close()
        svc.stop()
    return 130 if getattr(server, "exit_signal", None) == signal.SIGINT else 0


__all__ = ["configure", "run", "qr_text", "colour_wanted", "banner"]

