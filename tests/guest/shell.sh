#!/usr/bin/env bash
# atalab shell gives an interactive shell in the guest on the terminal: on
# a pseudo-terminal, typed commands run in the guest, their output comes
# back, job control works (the shell has the console as its terminal), and
# 'exit N' ends the run with status N.
. "$(dirname "$0")/lib.sh"
python3 - "$ATALAB" "$WORK" <<'PY' || fail "interactive session failed (console: $WORK/console.log)"
import os, pty, select, sys, time

atalab, work = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.execv(atalab, [atalab, "shell", "--quiet", "--log", work + "/console.log",
                      "--disk", work + "/d.img", "--disk-size", "16M", "--timeout", "120"])
seen = b""

def expect(what, timeout=90):
    global seen
    end = time.time() + timeout
    while what not in seen:
        left = end - time.time()
        if left <= 0:
            sys.exit("timed out waiting for %r; got:\n%s" % (what, seen.decode(errors="replace")))
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                sys.exit("the session ended waiting for %r:\n%s" % (what, seen.decode(errors="replace")))
            seen += chunk
    seen = seen[seen.index(what) + len(what):]

expect(b"atalab: guest shell")
expect(b"# ")
os.write(fd, b"echo sum=$((6 * 7)); cat /sys/class/ata_device/dev1.0/class\r")
expect(b"sum=42")
expect(b"ata")
os.write(fd, b"sleep 30 &\r")
expect(b"# ")
os.write(fd, b"jobs; kill %1\r")
expect(b"Running")
os.write(fd, b"exit 7\r")
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
print("ok: shell session; exit status", code)
sys.exit(0 if code == 7 else "exit status %d, expected 7" % code)
PY
