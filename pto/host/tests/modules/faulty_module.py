"""A module that misbehaves on purpose, for the host's error tests.

config.fault picks how, at the evaluate call number config.at (default 1):
  status_error  replies {"status": "error", "message": "division by zero"}
  malformed     replies a frame whose body is not JSON
  wrong_length  replies two outputs for one
  die           exits with code 3 without replying
  hang          never replies
  spin          never replies: an endless loop of user code (it never reads the socket again)
  no_connect    (at start) exits before connecting
  no_n_states   (at initialize) omits n_states
  none          behaves: out = [-2 * in[1]]
With --connect-late it waits half a second before connecting (a stranger gets there first),
with --no-hello it skips the hello (a module of protocol 1).
config.n_states is what it reports at initialize (default 0); with config.count_lifecycle,
evaluate answers the number of commit and rollback requests received so far instead, and with
config.count_evaluations the number of evaluate requests (this one included); with
config.count_inputs, 1000 for a lean `kind` ("pto") plus the number of inputs received.
"""

import os
import socket
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "pto", "python"))
from tidelink_pto import TOKEN_ENV, encode_frame, hello, read_frame, _port  # noqa: E402


def main():
    port = _port(sys.argv[1:])
    fault = os.environ.get("FAULT_AT_START")
    if fault == "no_connect":
        sys.exit(4)
    if "--connect-late" in sys.argv:
        time.sleep(0.5)
    sock = socket.create_connection(("127.0.0.1", port))
    if "--no-hello" not in sys.argv:
        sock.sendall(encode_frame(hello(os.environ[TOKEN_ENV])))
    cfg, n, lifecycle, kind = {}, 0, 0, None
    while True:
        msg = read_frame(sock)
        op = msg["op"]
        if op == "initialize":
            cfg = msg["config"]
            kind = msg["kind"]
            reply = {"status": "ok", "name": "Faulty", "version": "0.1", "n_states": cfg.get("n_states", 0)}
            if cfg.get("fault") == "no_n_states":
                del reply["n_states"]
            sock.sendall(encode_frame(reply))
            continue
        if op == "evaluate":
            n += 1
            fault = cfg.get("fault", "none") if n >= int(cfg.get("at", 1)) else "none"
            if fault == "status_error":
                sock.sendall(encode_frame({"status": "error", "message": "division by zero"}))
            elif fault == "malformed":
                sock.sendall(struct.pack(">I", 5) + b"{oops")
            elif fault == "wrong_length":
                sock.sendall(encode_frame({"status": "ok", "out": [1.0, 2.0]}))
            elif fault == "die":
                sys.exit(3)
            elif fault == "hang":
                time.sleep(60)
            elif fault == "spin":
                while True:
                    pass
            elif cfg.get("count_evaluations"):
                sock.sendall(encode_frame({"status": "ok", "out": [float(n)]}))
            elif cfg.get("count_inputs"):
                lean = 1000.0 if kind == "pto" else 0.0
                sock.sendall(encode_frame({"status": "ok", "out": [lean + len(msg["in"])]}))
            elif cfg.get("count_lifecycle"):
                sock.sendall(encode_frame({"status": "ok", "out": [float(lifecycle)]}))
            else:
                sock.sendall(encode_frame({"status": "ok", "out": [-2.0 * msg["in"][1]]}))
            continue
        lifecycle += op in ("commit", "rollback")
        sock.sendall(encode_frame({"status": "ok"}))
        if op == "shutdown":
            return


if __name__ == "__main__":
    main()
