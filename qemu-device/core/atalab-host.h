/*
 * atalab emulator core: the host interface.
 *
 * The core (this directory) is plain C plus glib and never includes QEMU
 * headers.  Everything it needs from its host -- QEMU's glue, a unit test or
 * the fuzzer -- goes through this one table of callbacks.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_HOST_H
#define ATALAB_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Completion of an asynchronous block request: ret is 0 or a negative errno. */
typedef void AtalabIoDone(void *opaque, int ret);

/* One piece of a block request's data. */
typedef struct AtalabIoVec {
    void *base;
    size_t len;
} AtalabIoVec;

/* Opaque timer handle owned by the host. */
typedef struct AtalabTimer AtalabTimer;
typedef void AtalabTimerFn(void *opaque);

/*
 * Something happened that a debugger may want to stop the guest at (the
 * host decides; atalab-ide's stop-on property).  Reported synchronously,
 * from inside the guest register access that caused it.
 */
typedef enum AtalabEventKind {
    /* A transfer broke a timing rule, or a data port access had no DRQ. */
    ATALAB_EVENT_VIOLATION,
    /* The guest wrote a command register: value is the opcode. */
    ATALAB_EVENT_COMMAND,
    /* The guest wrote device-specific configuration space. */
    ATALAB_EVENT_CONFIG_WRITE,
    /* A fault rule fired (name: the rule's id; docs/faults.md). */
    ATALAB_EVENT_FAULT,
} AtalabEventKind;

typedef struct AtalabEvent {
    AtalabEventKind kind;
    unsigned channel;           /* VIOLATION, COMMAND, FAULT */
    int drive;                  /* 0..3; -1 for CONFIG_WRITE */
    const char *name;           /* VIOLATION, FAULT: rule name; else NULL */
    uint32_t addr;              /* CONFIG_WRITE: offset (0x40..0xFF) */
    unsigned size;              /* CONFIG_WRITE: 1, 2 or 4 */
    uint32_t value;             /* COMMAND: opcode; CONFIG_WRITE: value */
} AtalabEvent;

typedef struct AtalabHost {
    void *opaque;               /* first argument of every callback below */

    /* Interrupt line of channel 0 (primary) or 1 (secondary). */
    void (*set_irq)(void *opaque, unsigned channel, bool level);

    /*
     * Bus-master access to guest memory.  Return 0 on success, or -1 when any
     * byte of [addr, addr + len) is not backed by guest memory; the core then
     * reports a PCI master abort in the bus-master status register.  The
     * access may reach the device's own registers (e.g. MMCONFIG): the core
     * re-checks its state after every call.
     */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf, size_t len);

    /*
     * Optional zero-copy access: map up to *len bytes of guest RAM at addr
     * for a block request to read into (to_memory) or write from.  Returns a
     * host pointer and sets *len to the bytes mapped (possibly fewer), or
     * returns NULL (with *len = 0) when that memory is not plain RAM; the
     * core then copies through dma_read/dma_write instead.  Every mapping is
     * released with dma_unmap; done is how many bytes were really accessed.
     * NULL callbacks: always copy.
     */
    void *(*dma_map)(void *opaque, uint64_t addr, size_t *len, bool to_memory);
    void (*dma_unmap)(void *opaque, void *ptr, size_t len, bool to_memory,
                      size_t done);

    /*
     * Block I/O on drive 0..3 (primary master, primary slave, secondary
     * master, secondary slave).  Always asynchronous: done() runs later, from
     * the host's main loop, never from inside the call.  offset and the
     * total length are in bytes, multiples of 512; the pieces of iov may have
     * any length.  fua: the data must be on stable storage before done()
     * reports success.  The core has at most one request per drive in
     * flight.
     */
    void (*blk_readv)(void *opaque, unsigned drive, uint64_t offset,
                      const AtalabIoVec *iov, unsigned niov,
                      AtalabIoDone *done, void *done_opaque);
    void (*blk_writev)(void *opaque, unsigned drive, uint64_t offset,
                       const AtalabIoVec *iov, unsigned niov, bool fua,
                       AtalabIoDone *done, void *done_opaque);
    void (*blk_flush)(void *opaque, unsigned drive,
                      AtalabIoDone *done, void *done_opaque);
    /*
     * Optional: finish the drive's request in flight now, the way QEMU's
     * ide_cancel_dma_sync drains it: its done() has run when this returns
     * (other completions may run too).  The core calls it when a reset or a
     * bus-master stop abandons a request.  NULL: the drive stays busy until
     * the abandoned request completes by itself.
     */
    void (*blk_drain)(void *opaque, unsigned drive);

    /* Virtual clock (nanoseconds; stops while the guest is paused). */
    int64_t (*clock_ns)(void *opaque);
    /* One-shot timers on that clock. */
    AtalabTimer *(*timer_new)(void *opaque, AtalabTimerFn *fn, void *fn_opaque);
    void (*timer_mod)(void *opaque, AtalabTimer *t, int64_t expire_ns);
    void (*timer_del)(void *opaque, AtalabTimer *t);
    void (*timer_free)(void *opaque, AtalabTimer *t);

    /*
     * Trace sink: one complete record per call, without the trailing newline
     * (format: traces/FORMAT.md).  May be NULL: tracing is then off.
     */
    void (*trace)(void *opaque, const char *record);
    /* First argument of trace instead of opaque, when not NULL. */
    void *trace_opaque;

    /*
     * Optional: the guest moved a CD-ROM's tray (START STOP UNIT): opened
     * it, or closed it.  On a close, the disc's size now in 512-byte
     * sectors (0: no disc): the host may have changed the disc while the
     * tray was open.  NULL: the disc stays the one the drive had.
     */
    uint64_t (*tray_moved)(void *opaque, unsigned drive, bool open);

    /*
     * Optional (NULL: not called).  Called after the event's trace record;
     * the access then completes normally.  ev is valid during the call only.
     */
    void (*event)(void *opaque, const AtalabEvent *ev);
} AtalabHost;

#endif
