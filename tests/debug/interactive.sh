#!/usr/bin/env bash
# The default, interactive session on a terminal: gdb's prompt comes with
# the guest held at start_kernel; a pending breakpoint in ata_piix is hit on
# 'continue'; the kit's commands work; Ctrl-C interrupts the guest (and
# does not kill QEMU); after 'quit' the guest runs on to the end of its
# command and debug exits with its status.
. "$(dirname "$0")/lib.sh"
python3 - "$ATALAB" "$WORK" <<'PY' || fail "interactive session failed (console: $WORK/console.log)"
import os, pty, select, sys, time

atalab, work = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "dumb"
    os.execv(atalab, [atalab, "debug", "--quiet", "--log", work + "/console.log",
                      "--disk", work + "/d.img", "--disk-size", "16M", "--timeout", "120",
                      "--break", "piix_set_dmamode", "--", "sh", "-c", "sleep 2; echo guest-done; exit 5"])
seen = b""

def expect(what, timeout=90):
    global seen
    end = time.time() + timeout
    while what not in seen:
        left = end - time.time()
        r, _, _ = select.select([fd], [], [], max(left, 0))
        if left <= 0 or not r:
            sys.exit("timed out waiting for %r; got:\n%s" % (what, seen.decode(errors="replace")))
        try:
            seen += os.read(fd, 4096)
        except OSError:
            sys.exit("the session ended waiting for %r:\n%s" % (what, seen.decode(errors="replace")))
    seen = seen[seen.index(what) + len(what):]

expect(b"guest at start_kernel")
expect(b"(gdb) ")
os.write(fd, b"continue\n")
expect(b"Breakpoint 1, piix_set_dmamode")
expect(b"(gdb) ")
os.write(fd, b"atalab-assert adev->dma_mode == 0x42\n")
expect(b"atalab-assert: true")
expect(b"(gdb) ")
os.write(fd, b"continue\n")
expect(b"Continuing.")
time.sleep(1)
os.write(fd, b"\x03")
expect(b"SIGINT")
expect(b"(gdb) ")
os.write(fd, b"quit\n")
expect(b"guest-done")
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
print("ok: interactive gdb session; exit status", code)
sys.exit(0 if code == 5 else "exit status %d, expected 5" % code)
PY
