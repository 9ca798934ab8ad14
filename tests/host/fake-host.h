/*
 * atalab tests: the one fake host of the emulator core, for the unit tests
 * (tests/unit) and the core fuzzer (tests/fuzz).
 *
 * In-memory disk images, a fake guest RAM, block requests that complete
 * only when the test runs them (so asynchrony is real), a virtual clock
 * with timers, interrupt level recording, trace capture and the host
 * events the core reports (AtalabHost.event, as text: "fault ID ch0 d0
 * 0xc8", "command ch0 d0 0xc8", "violation RULE ch0 d0", "config 0x40 2
 * 0xa307").
 *
 * A request's data moves only when it completes: a write reaches the disk
 * image then (from the buffers the core handed over, which must still be
 * valid), a read fills its buffers then.  fake_host_complete_nth()
 * completes requests in any order.  The host checks what any host may
 * rely on, and aborts when the core breaks it: only changes of an
 * interrupt line are reported, requests are whole sectors, a write never
 * lands over a write to the same sector issued after it, a flush never
 * completes before a write issued ahead of it, every mapping is unmapped
 * and every timer freed, every trace record is one of the record table's
 * and none reports a broken core invariant (" bug ").
 * Modes a test can set after fake_host_init():
 *   drain       the host can drain a drive's request (blk_drain): the core
 *               then finishes abandoned requests at once (default on); off,
 *               abandoned requests complete only when the test says
 *   zero_copy   dma_map/dma_unmap map fake RAM directly (default on)
 *   keep_trace  keep the records for the trace functions (default on)
 *   check_records  parse every record against the record table (default
 *               on; a fuzzer turns it off for speed)
 *   echo_trace  print every record on stderr (default off)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FAKE_HOST_H
#define FAKE_HOST_H

#include <glib.h>

#include "controller/atalab-ctrl.h"
#include "atalab-host.h"
#include "stop-on.h"

/* fake_host_init's guest RAM; addresses beyond it fail (master abort). */
#define FAKE_RAM_SIZE   (4 * 1024 * 1024)
#define FAKE_MAX_IOV    1024
/* Disk images hold at most this many sectors (64 MiB) of data. */
#define FAKE_DISK_MAX_SECTORS   131072

typedef enum FakeOpKind {
    FAKE_READ,
    FAKE_WRITE,
    FAKE_FLUSH,
} FakeOpKind;

typedef struct FakeOp {
    FakeOpKind kind;
    unsigned drive;
    uint64_t offset;
    AtalabIoVec *iov;
    unsigned niov;
    size_t len;
    bool fua;
    uint32_t seq;               /* write: issue number; flush: writes before */
    AtalabIoDone *done;
    void *done_opaque;
} FakeOp;

typedef struct FakeHost {
    AtalabHost host;
    uint8_t *disk[4];
    uint64_t disk_bytes[4];
    /* What tray_moved says is in a CD-ROM's tray when the guest closes it
     * (512-byte sectors): the image's size until a test changes it. */
    uint64_t disc_sectors[4];
    uint32_t write_seq[4];      /* writes issued per drive */
    uint32_t *landed[4];        /* per sector: the last write that landed */
    uint8_t *ram;
    size_t ram_size;
    GQueue pending;             /* FakeOp *, oldest first */
    int64_t now;
    GPtrArray *timers;          /* AtalabTimer * */
    bool irq[2];
    unsigned irq_raises[2];     /* rising edges of each line */
    GPtrArray *trace;           /* char *, one record each */
    GString *log;               /* "flush0 irq0=1 ..." in order */
    GPtrArray *events;          /* char *: the events the core reported */
    int fail_ret;               /* nonzero: the next completion fails */
    unsigned reads, writes, flushes, fua_writes, drains;
    unsigned maps, unmaps, mapped_now;
    size_t max_len;             /* largest read/write request */
    unsigned dma_failures;
    unsigned inflight[4];       /* requests per drive now */
    unsigned max_inflight[4];   /* the most a drive ever had */
    /* Modes (see above) */
    bool drain;
    bool zero_copy;
    bool keep_trace;
    bool check_records;
    bool echo_trace;
    /*
     * Stop conditions (stop-on.h), checked against every event as
     * atalab-ide's stop-on does: stops counts the matches, stop_reasons
     * holds their descriptions, one per line.  NULL: none.
     */
    AtalabStopList *stop;
    unsigned stops;
    GString *stop_reasons;
    /* Called on every guest memory access (re-entrancy tests). */
    void (*on_dma)(void *opaque, uint64_t addr, bool write);
    void *on_dma_opaque;
    /*
     * The controller on this host, when tracing: the trace functions
     * below flush its trace writer first, so they see every record.
     */
    AtalabCtrl *ctrl;
} FakeHost;

/* tracing: capture records (otherwise host.trace is NULL). */
void fake_host_init(FakeHost *fh, bool tracing);
/* The same with ram_size bytes of guest RAM. */
void fake_host_init_ram(FakeHost *fh, bool tracing, size_t ram_size);
void fake_host_cleanup(FakeHost *fh);
/*
 * Back to the state fake_host_init left, keeping the disk images (every
 * sector written restored to the pattern) and the RAM (zeroed): what a
 * fuzzer does between runs, without allocating.  Nothing may be pending,
 * mapped or keep a timer.
 */
void fake_host_reset(FakeHost *fh, bool tracing);
/* A disk image of sectors, filled with fake_pattern(). */
void fake_host_add_disk(FakeHost *fh, unsigned drive, uint64_t sectors);
uint8_t fake_pattern(unsigned drive, uint64_t offset);

unsigned fake_host_pending(FakeHost *fh);
/* Complete the oldest pending request; false if there was none. */
bool fake_host_complete_one(FakeHost *fh);
/* Complete the n-th oldest pending request (0: oldest). */
bool fake_host_complete_nth(FakeHost *fh, unsigned n);
/* The same with the result ret (0 or a negative errno). */
bool fake_host_complete_nth_ret(FakeHost *fh, unsigned n, int ret);
/* Complete requests (including new ones) until none is pending. */
unsigned fake_host_complete_all(FakeHost *fh);
/* Peek the n-th oldest pending request (NULL if none). */
FakeOp *fake_host_peek_nth(FakeHost *fh, unsigned n);
FakeOp *fake_host_peek(FakeHost *fh);

/* Advance the virtual clock by ns, running the timers that expire. */
void fake_host_advance(FakeHost *fh, int64_t ns);

/* Write what fh->ctrl's trace writer holds back (polls, a data block). */
void fake_host_trace_flush(FakeHost *fh);
/* Does any captured record contain substr? */
bool fake_host_trace_has(FakeHost *fh, const char *substr);
unsigned fake_host_trace_count(FakeHost *fh, const char *substr);
void fake_host_trace_clear(FakeHost *fh);
/* How many reported events start with prefix (atalab_event_describe). */
unsigned fake_host_event_count(FakeHost *fh, const char *prefix);

#endif
