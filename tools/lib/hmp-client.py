#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""hmp-client SOCKET WAIT COMMAND...: run HMP commands on a QEMU monitor.

Connects to the unix socket (waiting up to WAIT seconds for QEMU to create
it), runs each COMMAND after the "(qemu) " prompt and prints its output.
Exit status: 0; 1 when the socket never answered or the connection broke
(quit: QEMU closing the connection after "quit" is success).
"""
import os
import socket
import sys
import time

PROMPT = b"(qemu) "


def connect(path, wait):
    deadline = time.monotonic() + wait
    while True:
        s = socket.socket(socket.AF_UNIX)
        try:
            s.connect(path)
            return s
        except OSError as e:
            s.close()
            if time.monotonic() >= deadline:
                sys.exit(f"atalab monitor: cannot connect to {path}: {e.strerror}")
            time.sleep(0.1)


def until_prompt(s, timeout):
    data = b""
    s.settimeout(timeout)
    while not data.endswith(PROMPT):
        chunk = s.recv(4096)
        if not chunk:
            return data, False
        data += chunk
    return data[: -len(PROMPT)], True


def main():
    path, wait, commands = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
    s = connect(path, wait)
    try:
        _, ok = until_prompt(s, 30)
        if not ok:
            sys.exit(f"atalab monitor: {path} closed before its prompt")
        for cmd in commands:
            s.sendall(cmd.encode() + b"\n")
            out, ok = until_prompt(s, 120)
            text = out.decode(errors="replace").replace("\r\n", "\n")
            # The monitor's line editor echoes the command line (with
            # terminal escapes) up to the first newline: drop it.
            sys.stdout.write(text.partition("\n")[2])
            if not ok:
                if cmd.split()[:1] == ["quit"] or cmd.split()[:1] == ["q"]:
                    return 0
                sys.exit(f"atalab monitor: {path} closed during '{cmd}'")
    except socket.timeout:
        sys.exit(f"atalab monitor: no answer from {path}")
    finally:
        s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
