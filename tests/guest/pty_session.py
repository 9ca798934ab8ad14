# SPDX-License-Identifier: GPL-2.0-or-later
"""A command on a pseudo-terminal, driven like a user at a keyboard (for the
interactive tests: atalab shell, atalab debug's gdb prompt)."""
import os
import pty
import select
import sys
import time


class Session:
    def __init__(self, argv, env=None):
        self.seen = b""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update(env or {})
            os.execv(argv[0], argv)

    def expect(self, what, timeout=90):
        """Wait for bytes what in the output; consume the output up to them."""
        end = time.time() + timeout
        while what not in self.seen:
            left = end - time.time()
            r, _, _ = select.select([self.fd], [], [], max(left, 0))
            if left <= 0 or not r:
                sys.exit("timed out waiting for %r; got:\n%s"
                         % (what, self.seen.decode(errors="replace")))
            try:
                self.seen += os.read(self.fd, 4096)
            except OSError:
                sys.exit("the session ended waiting for %r:\n%s"
                         % (what, self.seen.decode(errors="replace")))
        self.seen = self.seen[self.seen.index(what) + len(what):]

    def send(self, data):
        os.write(self.fd, data)

    def exit_status(self):
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)
