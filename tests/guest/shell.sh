#!/usr/bin/env bash
# atalab shell gives an interactive shell in the guest on the terminal: on
# a pseudo-terminal, typed commands run in the guest, their output comes
# back, job control works (the shell has the console as its terminal), and
# 'exit N' ends the run with status N.
. "$(dirname "$0")/lib.sh"
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$(dirname "$0") python3 - "$ATALAB" "$WORK" <<'PY' || fail "interactive session failed (console: $WORK/console.log)"
import sys
from pty_session import Session

atalab, work = sys.argv[1], sys.argv[2]
s = Session([atalab, "shell", "--quiet", "--log", work + "/console.log",
             "--disk", work + "/d.img", "--disk-size", "16M", "--timeout", "120"])
s.expect(b"atalab: guest shell")
s.expect(b"# ")
s.send(b"echo sum=$((6 * 7)); cat /sys/class/ata_device/dev1.0/class\r")
s.expect(b"sum=42")
s.expect(b"ata")
s.send(b"sleep 30 &\r")
s.expect(b"# ")
s.send(b"jobs; kill %1\r")
s.expect(b"Running")
s.send(b"exit 7\r")
code = s.exit_status()
print("ok: shell session; exit status", code)
sys.exit(0 if code == 7 else "exit status %d, expected 7" % code)
PY
