"""Helpers for writing Tidelink external force modules in Python (protocol v2).

A module is a small program the MBS solver starts as a child process. It connects to
127.0.0.1 on the port given as ``--tidelink-port N``, sends ``hello`` with the token the host
put in its environment (``TIDELINK_PTO_TOKEN``: the host accepts only its own child), and then
answers framed JSON requests: each frame is a 4-byte big-endian length followed by that many
bytes of UTF-8 JSON. ``run`` does all of it.

Two ways to write one:

* ``PtoModule``: implement ``force(state)`` (and optionally ``setup``, ``reset``,
  ``commit``, ``rollback``); the state arrives as a ``PtoState`` with named channels.
* ``ExternalForceModule``: the positional API, ``initialize(cfg)`` and
  ``evaluate(t, dt, inputs) -> list`` (multi-output modules, 6-DOF body forces).

Then call ``run(MyModule())`` at the bottom of the script. Pure standard library.

With ``TIDELINK_PTO_TRACE=FILE`` in its environment, ``run`` also writes every answer to FILE
(CSV: time, the two lead channels and the force, see ``Dispatcher``): the force or torque a
module applied, for plots (``pto/examples/run_visual_verification.py``).
"""

from __future__ import annotations

import json
import math
import os
import socket
import struct
import sys
import time
from typing import Any, Dict, List, Optional, Sequence

__all__ = [
    "PROTOCOL_VERSION",
    "PORT_FLAG",
    "TOKEN_ENV",
    "hello",
    "FrameError",
    "encode_frame",
    "decode_frame",
    "read_frame",
    "ExternalForceModule",
    "PtoModule",
    "PtoState",
    "Dispatcher",
    "TRACE_ENV",
    "run",
]

PROTOCOL_VERSION = 2
PORT_FLAG = "--tidelink-port"
TOKEN_ENV = "TIDELINK_PTO_TOKEN"
MAX_FRAME = 16 << 20


class FrameError(Exception):
    """A frame that could not be decoded (truncated, too long, not UTF-8 JSON)."""


def encode_frame(message: Any) -> bytes:
    """The frame of a JSON-serialisable message."""
    body = json.dumps(message, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return struct.pack(">I", len(body)) + body


def decode_frame(data: bytes):
    """Decodes the first frame of ``data``: ``(message, bytes used)``; raises FrameError."""
    if len(data) < 4:
        raise FrameError(f"truncated frame: expected 4 bytes of length prefix, got {len(data)}")
    (length,) = struct.unpack(">I", data[:4])
    if length > MAX_FRAME:
        raise FrameError(f"frame length {length} exceeds the limit of {MAX_FRAME} bytes")
    if len(data) < 4 + length:
        raise FrameError(f"truncated frame: expected {length} bytes of JSON body, got {len(data) - 4}")
    try:
        return json.loads(data[4 : 4 + length].decode("utf-8")), 4 + length
    except (UnicodeDecodeError, ValueError) as e:
        raise FrameError(f"frame body is not UTF-8 JSON: {e}") from e


def _recv_exact(sock: socket.socket, n: int, part: str) -> bytes:
    chunks = []
    got = 0
    while got < n:
        chunk = sock.recv(n - got)
        if not chunk:
            raise FrameError(f"truncated frame: expected {n} bytes of {part}, got {got}")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame(sock: socket.socket) -> Any:
    """Reads one frame from a socket; raises FrameError (EOF before a full frame)."""
    prefix = _recv_exact(sock, 4, "length prefix")
    (length,) = struct.unpack(">I", prefix)
    if length > MAX_FRAME:
        raise FrameError(f"frame length {length} exceeds the limit of {MAX_FRAME} bytes")
    return decode_frame(prefix + _recv_exact(sock, length, "JSON body"))[0]


def _read_frame_buffered(reader) -> Any:
    """``read_frame`` from a buffered reader of the socket (one system call per frame)."""
    prefix = reader.read(4)
    length = struct.unpack(">I", prefix)[0] if len(prefix) == 4 else 0
    if length > MAX_FRAME:
        raise FrameError(f"frame length {length} exceeds the limit of {MAX_FRAME} bytes")
    # decode_frame reports a short prefix or body and a body that is not JSON.
    return decode_frame(prefix + reader.read(length))[0]


class ExternalForceModule:
    """Positional API: override ``initialize`` and ``evaluate``.

    Before ``initialize`` is called, the host's announcement is stored on the instance:
    ``kind``, ``n_inputs``, ``n_outputs``, ``dt`` and ``in_names`` (may be empty).
    """

    kind: str = ""
    n_inputs: int = 0
    n_outputs: int = 1
    dt: float = 0.0
    in_names: List[str] = []

    def initialize(self, cfg: Dict[str, Any]) -> Dict[str, Any]:
        """Reads ``cfg`` (the YAML ``config``); returns name, version and n_states."""
        return {"name": type(self).__name__, "version": "1.0", "n_states": 0}

    def evaluate(self, t: float, dt: float, inputs: Sequence[float]) -> Sequence[float]:
        """Outputs for ``inputs`` at time ``t``."""
        raise NotImplementedError("override evaluate(t, dt, inputs)")

    def reset(self) -> None:
        """Clears internal state (the connection stays)."""

    def commit(self) -> None:
        """The state reached is accepted."""

    def rollback(self) -> None:
        """Back to the last committed state."""


class PtoState:
    """The state of a link at one time: ``time``, ``dt``, ``displacement``, ``velocity`` and,
    with the rich state, every other channel by name (``state.get("rel_accel")`` or
    ``state.rel_accel``). ``raw`` is the positional list, ``names`` its labels."""

    __slots__ = ("time", "dt", "raw", "names", "_index")

    def __init__(
        self,
        time: float,
        dt: float,
        raw: Sequence[float],
        names: Sequence[str],
        index: Optional[Dict[str, int]] = None,
    ):
        self.time = float(time)
        self.dt = float(dt)
        self.raw = list(raw)
        self.names = list(names) if names else ["displacement", "velocity"][: len(self.raw)]
        # ``index`` (name -> position of ``names``) may be shared between states of one module.
        self._index = index if index is not None else {n: i for i, n in enumerate(self.names)}

    @property
    def displacement(self) -> float:
        """Extension (m) or opening angle (rad) from rest; channel 0."""
        return self.raw[0]

    @property
    def velocity(self) -> float:
        """Extending / opening rate (m/s or rad/s); channel 1."""
        return self.raw[1]

    def get(self, name: str, default: Optional[float] = None) -> Optional[float]:
        """The channel called ``name``, or ``default`` if the host does not send it."""
        i = self._index.get(name)
        return self.raw[i] if i is not None and i < len(self.raw) else default

    def __getattr__(self, name: str) -> float:
        index = object.__getattribute__(self, "_index")
        if name in index:
            return object.__getattribute__(self, "raw")[index[name]]
        raise AttributeError(f"no channel {name!r}; channels: {', '.join(index)}")

    def __repr__(self) -> str:
        pairs = ", ".join(f"{n}={v:g}" for n, v in zip(self.names, self.raw))
        return f"PtoState(time={self.time:g}, dt={self.dt:g}, {pairs})"


class PtoModule(ExternalForceModule):
    """A one-output link law: override ``force(state)`` (N on a TSDA, N·m on an RSDA;
    resistive laws return e.g. ``-c * state.velocity``) and optionally ``setup(cfg)``."""

    def setup(self, cfg: Dict[str, Any]) -> Optional[Dict[str, Any]]:
        """Reads ``cfg``; may return name, version and n_states."""
        return None

    def force(self, state: PtoState) -> float:
        """The force (or torque) for ``state``."""
        raise NotImplementedError("override force(state)")

    def initialize(self, cfg: Dict[str, Any]) -> Dict[str, Any]:
        info = {"name": type(self).__name__, "version": "1.0", "n_states": 0}
        info.update(self.setup(cfg) or {})
        return info

    def evaluate(self, t: float, dt: float, inputs: Sequence[float]) -> Sequence[float]:
        names = self.in_names or ["displacement", "velocity"][: len(inputs)]
        cached = getattr(self, "_state_names", None)
        if cached is None or cached[0] is not self.in_names or len(cached[1]) != len(names):
            cached = (self.in_names, names, {n: i for i, n in enumerate(names)})
            self._state_names = cached
        return [float(self.force(PtoState(t, dt, inputs, cached[1], cached[2])))]


class Dispatcher:
    """Answers protocol requests for one module, without any transport: ``handle(msg)``
    returns the reply. ``run`` puts it on a socket; tests call it directly."""

    def __init__(self, module: ExternalForceModule, trace=None):
        self.module = module
        self.done = False
        # A text stream that gets one CSV row per evaluate (``TIDELINK_PTO_TRACE``): for a PTO
        # (kind ``pto*``) ``time_s,displacement,velocity,force``, else ``time_s,output_0,...``.
        # A window the coupling repeats asks again at the same time: the last row of a time is
        # the answer the solver kept.
        self.trace = trace

    def handle(self, msg: Any) -> Dict[str, Any]:
        try:
            return self._handle(msg)
        except Exception as e:  # the host aborts the run with this message
            return {"status": "error", "message": f"{type(e).__name__}: {e}"}

    def _handle(self, msg: Any) -> Dict[str, Any]:
        if not isinstance(msg, dict) or not isinstance(msg.get("op"), str):
            raise ValueError(f"not a request: {msg!r}")
        op = msg["op"]
        m = self.module
        if op == "initialize":
            if msg.get("protocol") != PROTOCOL_VERSION:
                raise ValueError(f"protocol {msg.get('protocol')!r} is not {PROTOCOL_VERSION}")
            m.kind = str(msg.get("kind", ""))
            m.n_inputs = int(msg.get("n_inputs", 0))
            m.n_outputs = int(msg.get("n_outputs", 1))
            m.dt = float(msg.get("dt", 0.0))
            m.in_names = list(msg.get("in_names") or [])
            info = dict(m.initialize(dict(msg.get("config") or {})) or {})
            for key, default in (("name", type(m).__name__), ("version", "1.0"), ("n_states", 0)):
                info.setdefault(key, default)
            overrides = [op for op in ("commit", "rollback") if getattr(type(m), op) is not getattr(ExternalForceModule, op)]
            if overrides and not info["n_states"]:
                print(
                    f"warning: {info['name']} overrides {' and '.join(overrides)} but reports n_states 0; the host "
                    "sends commit and rollback only to modules with internal states: report how many it keeps",
                    file=sys.stderr,
                )
            if self.trace is not None:
                self._trace_header(m)
            return {"status": "ok", **info}
        if op == "evaluate":
            inputs = list(msg["in"])
            out = [float(x) for x in m.evaluate(float(msg["t"]), float(msg["dt"]), inputs)]
            if len(out) != m.n_outputs:
                raise ValueError(f"evaluate returned {len(out)} values, {m.n_outputs} expected")
            if not all(math.isfinite(x) for x in out):
                raise ValueError(f"evaluate returned a non-finite value: {out}")
            if self.trace is not None:
                lead = [float(x) for x in inputs[:2]] if m.kind.startswith("pto") else []
                self.trace.write(",".join(repr(float(x)) for x in [float(msg["t"]), *lead, *out]) + "\n")
            return {"status": "ok", "out": out}
        if op in ("reset", "commit", "rollback"):
            getattr(m, op)()
            return {"status": "ok"}
        if op == "shutdown":
            self.done = True
            return {"status": "ok"}
        raise ValueError(f"unknown op {op!r}")

    def _trace_header(self, m: ExternalForceModule) -> None:
        self.trace.write("# tidelink_pto trace: one row per evaluate; a repeated time's last row is the one kept\n")
        if m.kind.startswith("pto"):
            self.trace.write("time_s,displacement,velocity,force\n")
        else:
            self.trace.write(",".join(["time_s"] + [f"output_{i}" for i in range(m.n_outputs)]) + "\n")


def _port(argv: Sequence[str]) -> int:
    for i, a in enumerate(argv):
        if a == PORT_FLAG and i + 1 < len(argv):
            return int(argv[i + 1])
        if a.startswith(PORT_FLAG + "="):
            return int(a.split("=", 1)[1])
    raise SystemExit(f"{PORT_FLAG} N is missing: this script is started by the Tidelink MBS solver")


def hello(token: str) -> Dict[str, Any]:
    """The first message a module sends: it proves it is the host's own child."""
    return {"op": "hello", "protocol": PROTOCOL_VERSION, "token": token}


def _token() -> str:
    token = os.environ.get(TOKEN_ENV, "").strip()
    if not token:
        raise SystemExit(f"{TOKEN_ENV} is missing: this script is started by the Tidelink MBS solver")
    return token


def _wait_for_request(sock: socket.socket, spin: float) -> None:
    """Polls ``sock`` for up to ``spin`` seconds until a request's first byte is there (the
    blocking read that follows takes over either way). Waking a sleeping process costs about
    as much as answering on a virtual machine; a short poll saves it when the host asks again
    soon, as it does once per solver step."""
    if spin <= 0.0:
        return
    sock.setblocking(False)
    try:
        end = time.perf_counter() + spin
        while time.perf_counter() < end:
            try:
                sock.recv(1, socket.MSG_PEEK)
                return  # data, or the host closed (b"")
            except BlockingIOError:
                os.sched_yield()  # let a runnable process (the host's partner) have the core
            except OSError:
                return
    finally:
        sock.setblocking(True)


SPIN_ENV = "TIDELINK_PTO_SPIN_US"
TRACE_ENV = "TIDELINK_PTO_TRACE"


def run(module: ExternalForceModule, argv: Optional[Sequence[str]] = None, spin_us: Optional[float] = None) -> None:
    """Connects to the host on ``--tidelink-port N``, says hello with the token of
    ``TIDELINK_PTO_TOKEN`` and serves requests until shutdown.

    After each reply it polls for the next request for ``spin_us`` microseconds before it
    sleeps (default: the ``TIDELINK_PTO_SPIN_US`` environment variable, which the host reads
    too, else 1000; 0 turns it off, e.g. for a module that must not use CPU while idle).
    With ``TIDELINK_PTO_TRACE=FILE`` it writes its answers to FILE (``Dispatcher``'s trace;
    one module per file: give each run its own)."""
    if spin_us is None:
        text = os.environ.get(SPIN_ENV, "").strip() or "1000"
        if not text.isdigit() or int(text) > 1_000_000:
            raise SystemExit(f"{SPIN_ENV}={text!r} is not a poll time: give whole microseconds from 0 (off) to 1000000")
        spin_us = float(text)
    port = _port(sys.argv[1:] if argv is None else argv)
    token = _token()
    trace_path = os.environ.get(TRACE_ENV, "").strip()
    trace = open(trace_path, "w", encoding="utf-8") if trace_path else None
    try:
        _serve(Dispatcher(module, trace), port, token, spin_us)
    finally:
        if trace is not None:
            trace.close()


def _serve(dispatcher: Dispatcher, port: int, token: str, spin_us: float) -> None:
    with socket.create_connection(("127.0.0.1", port)) as sock, sock.makefile("rb") as reader:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(encode_frame(hello(token)))
        while not dispatcher.done:
            _wait_for_request(sock, spin_us * 1e-6)
            try:
                msg = _read_frame_buffered(reader)
            except FrameError:
                return  # the host closed the connection
            sock.sendall(encode_frame(dispatcher.handle(msg)))
