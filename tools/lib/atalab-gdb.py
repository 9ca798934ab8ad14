# SPDX-License-Identifier: GPL-2.0-or-later
"""gdb commands of `atalab debug` (sourced into gdb; docs/debugging.md).

atalab-boot DIR MODULE-DIR...   run the held guest to start_kernel, load
                                symbols with the kernel's lx-symbols
atalab-assert EXPR              fail unless EXPR is true
atalab-expect-frame FUNC        fail unless FUNC is in the backtrace
atalab-expect-pc-in FUNC        fail unless the PC is in FUNC (or in code
                                inlined into it)
atalab-expect-stop REGEX        fail unless the guest was stopped by the
                                device (stop-on), for a reason matching REGEX
atalab-batch --guest|--qemu FILE...   (used by --gdb-batch)
"""
import os
import re

import gdb

# What stopped the target last: "device", "breakpoint", "signal" or None.
last_stop = {"kind": None, "reason": None}


def device_stop():
    """(stops, last reason) from `info atalab` through the gdbstub."""
    try:
        text = gdb.execute("monitor info atalab", to_string=True)
    except gdb.error:
        return 0, None
    m = re.search(r"stops=(\d+), last stop: (.*)", text)
    if not m:
        return 0, None
    return int(m.group(1)), m.group(2).strip()


def on_stop(event):
    if isinstance(event, gdb.BreakpointEvent):
        last_stop.update(kind="breakpoint", reason=None)
        return
    # A device stop reaches gdb as SIGTRAP without a breakpoint; the
    # device's stop counter tells it from a step or an interrupt.
    stops, reason = device_stop()
    if stops > last_stop.get("stops", 0):
        last_stop.update(kind="device", reason=reason, stops=stops)
        gdb.write("atalab: the device stopped the guest: %s\n" % reason)
        return
    last_stop.update(kind="other", reason=None)


def on_exit(event):
    last_stop.update(kind="exited", reason=None)


gdb.events.stop.connect(on_stop)
gdb.events.exited.connect(on_exit)


def require_stopped(command):
    """The checks are about a stopped guest: fail once it has ended."""
    if last_stop["kind"] == "exited" or not target_alive():
        raise gdb.GdbError("%s: the guest is not stopped: it ended" % command)


def watch_modules(workdir, module_dirs):
    """lx-symbols MODULE-DIRs, without its reload of vmlinux (no module is
    loaded at start_kernel): the same command object and module breakpoint
    as the kernel's lx-symbols sets up.  Falls back to running lx-symbols
    (from workdir, which it scans too) if the script's insides differ."""
    try:
        from linux import symbols
        cmd = symbols.LxSymbols()
        cmd.module_paths = [os.path.abspath(p) for p in module_dirs]
        cmd.module_files = []
        cmd.module_files_updated = False
        cmd.loaded_modules = []
        cmd.breakpoint = symbols.LoadModuleBreakpoint(
            "kernel/module/main.c:do_init_module", cmd)
        return
    except (ImportError, AttributeError, TypeError):
        pass
    cwd = os.getcwd()
    gdb.execute("cd %s" % workdir, to_string=True)
    try:
        gdb.execute("lx-symbols %s" % " ".join(module_dirs), to_string=True)
    finally:
        gdb.execute("cd %s" % cwd, to_string=True)


class Boot(gdb.Command):
    """atalab-boot DIR MODULE-DIR...: run the guest (held at reset) to
start_kernel, where the kernel's memory is readable, then start the kernel's
lx-symbols with MODULE-DIRs (its own scan of the working directory is done
in DIR).  Module symbols then load whenever the guest inserts a module."""

    def __init__(self):
        super().__init__("atalab-boot", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if len(argv) < 2:
            raise gdb.GdbError("usage: atalab-boot DIR MODULE-DIR...")
        gdb.Breakpoint("start_kernel", internal=True, temporary=True)
        gdb.execute("continue", to_string=True)
        watch_modules(argv[0], argv[1:])
        gdb.write("atalab: guest at start_kernel; module symbols load when "
                  "modules are inserted (lx-symbols)\n")


class Assert(gdb.Command):
    """atalab-assert EXPR: fail (an error, ending a script) unless EXPR,
evaluated in the selected frame, is true."""

    def __init__(self):
        super().__init__("atalab-assert", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        require_stopped("atalab-assert")
        value = gdb.parse_and_eval(arg)
        if not bool(value):
            raise gdb.GdbError("atalab-assert: false: %s" % arg)
        gdb.write("atalab-assert: true: %s\n" % arg)


def frames():
    f = gdb.newest_frame()
    while f is not None:
        yield f
        f = f.older()


def backtrace_text():
    return " <- ".join(f.name() or "??" for f in frames())


class ExpectFrame(gdb.Command):
    """atalab-expect-frame FUNC: fail unless a frame of the backtrace (inlined
ones included) is in function FUNC."""

    def __init__(self):
        super().__init__("atalab-expect-frame", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        require_stopped("atalab-expect-frame")
        name = arg.strip()
        if not any(f.name() == name for f in frames()):
            raise gdb.GdbError("atalab-expect-frame: %s is not in the "
                               "backtrace: %s" % (name, backtrace_text()))
        gdb.write("atalab-expect-frame: %s is in the backtrace\n" % name)


class ExpectPcIn(gdb.Command):
    """atalab-expect-pc-in FUNC: fail unless the stop PC is in function FUNC,
directly or in code inlined into it."""

    def __init__(self):
        super().__init__("atalab-expect-pc-in", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        require_stopped("atalab-expect-pc-in")
        name = arg.strip()
        chain = []
        for f in frames():
            chain.append(f.name() or "??")
            if f.type() != gdb.INLINE_FRAME:
                break
        if name not in chain:
            raise gdb.GdbError("atalab-expect-pc-in: the PC 0x%x is in %s, "
                               "not in %s" % (gdb.newest_frame().pc(),
                                              " inlined in ".join(chain),
                                              name))
        gdb.write("atalab-expect-pc-in: the PC 0x%x is in %s\n"
                  % (gdb.newest_frame().pc(), name))


class ExpectStop(gdb.Command):
    """atalab-expect-stop REGEX: fail unless the last stop was requested by
the device (atalab-ide stop-on) for a reason matching REGEX, e.g.
"violation udma-timing" or "write cfg 0x55"."""

    def __init__(self):
        super().__init__("atalab-expect-stop", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        require_stopped("atalab-expect-stop")
        if last_stop["kind"] != "device":
            raise gdb.GdbError("atalab-expect-stop: the last stop was not "
                               "the device's (%s)" % last_stop["kind"])
        if not re.search(arg.strip(), last_stop["reason"] or ""):
            raise gdb.GdbError("atalab-expect-stop: the device stopped the "
                               "guest for '%s', not /%s/"
                               % (last_stop["reason"], arg.strip()))
        gdb.write("atalab-expect-stop: %s\n" % last_stop["reason"])


def target_alive():
    inf = gdb.selected_inferior()
    return inf is not None and inf.pid != 0


class Batch(gdb.Command):
    """atalab-batch --guest|--qemu FILE...: source each FILE, stopping at
the first error; then let the guest go (--guest: no more device stops,
detach; --qemu: delete the breakpoints, continue to QEMU's end) and quit
gdb with status 1 when a script failed."""

    def __init__(self):
        super().__init__("atalab-batch", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        how, files = argv[0], argv[1:]
        failed = False
        for f in files:
            try:
                gdb.execute("source %s" % f)
            except gdb.error as e:
                gdb.write("atalab debug: %s: %s\n" % (f, e))
                failed = True
                break
        try:
            if target_alive() and how == "--guest":
                try:
                    gdb.execute("monitor qom-set /machine/peripheral/ata "
                                "stop-on none", to_string=True)
                except gdb.error:
                    pass
                gdb.execute("detach", to_string=True)
            elif target_alive():
                gdb.execute("delete", to_string=True)
                gdb.execute("continue")
        except gdb.error as e:
            gdb.write("atalab debug: after the scripts: %s\n" % e)
        gdb.execute("quit %d" % (1 if failed else 0))


Boot()
Assert()
ExpectFrame()
ExpectPcIn()
ExpectStop()
Batch()
