#!/usr/bin/env bash
# The default, interactive session on a terminal: gdb's prompt comes with
# the guest held at start_kernel; a pending breakpoint in ata_piix is hit on
# 'continue'; the kit's commands work; Ctrl-C interrupts the guest (and
# does not kill QEMU); after 'quit' the guest runs on to the end of its
# command and debug exits with its status.  The guest's command outlasts
# the second between 'continue' and Ctrl-C by 5 s, for a loaded host.
. "$(dirname "$0")/lib.sh"
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$(dirname "$0")/../guest python3 - "$ATALAB" "$WORK" <<'PY' || fail "interactive session failed (console: $WORK/console.log)"
import sys
import time
from pty_session import Session

atalab, work = sys.argv[1], sys.argv[2]
s = Session([atalab, "debug", "--quiet", "--log", work + "/console.log",
             "--disk", work + "/d.img", "--disk-size", "16M", "--timeout", "120",
             "--break", "piix_set_dmamode", "--", "sh", "-c", "sleep 6; echo guest-done; exit 5"],
            env={"TERM": "dumb"})
s.expect(b"guest at start_kernel")
s.expect(b"(gdb) ")
s.send(b"continue\n")
s.expect(b"Breakpoint 1, piix_set_dmamode")
s.expect(b"(gdb) ")
s.send(b"atalab-assert adev->dma_mode == 0x42\n")
s.expect(b"atalab-assert: true")
s.expect(b"(gdb) ")
# libata may set the mode again (EH revalidation under load): without the
# breakpoint, the interrupt below always finds the guest running
s.send(b"delete 1\n")
s.expect(b"(gdb) ")
s.send(b"continue\n")
s.expect(b"Continuing.")
time.sleep(1)
s.send(b"\x03")
s.expect(b"SIGINT")
s.expect(b"(gdb) ")
s.send(b"quit\n")
s.expect(b"guest-done")
code = s.exit_status()
print("ok: interactive gdb session; exit status", code)
sys.exit(0 if code == 5 else "exit status %d, expected 5" % code)
PY
