/*
 * atalab unit tests: a fake host for the emulator core.
 *
 * In-memory disk images, a fake guest RAM, block requests that complete
 * only when the test runs them (so asynchrony is real), a virtual clock,
 * interrupt level recording and trace capture.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FAKE_HOST_H
#define FAKE_HOST_H

#include <glib.h>

#include "atalab-host.h"

#define FAKE_RAM_SIZE   (4 * 1024 * 1024)

typedef enum FakeOpKind {
    FAKE_READ,
    FAKE_WRITE,
    FAKE_FLUSH,
} FakeOpKind;

typedef struct FakeOp {
    FakeOpKind kind;
    unsigned drive;
    uint64_t offset;
    void *buf;
    size_t len;
    bool fua;
    AtalabIoDone *done;
    void *done_opaque;
} FakeOp;

typedef struct FakeHost {
    AtalabHost host;
    uint8_t *disk[4];
    uint64_t disk_bytes[4];
    uint8_t *ram;
    GQueue pending;             /* FakeOp *, oldest first */
    int64_t now;
    bool irq[2];
    unsigned irq_raises[2];
    GPtrArray *trace;           /* char *, one record each */
    GString *log;               /* "flush0 irq0=1 ..." in order */
    int fail_ret;               /* nonzero: the next completion fails */
    unsigned reads, writes, flushes, fua_writes;
    size_t max_len;             /* largest read/write request */
    unsigned dma_failures;
} FakeHost;

/* tracing: capture records (otherwise host.trace is NULL). */
void fake_host_init(FakeHost *fh, bool tracing);
void fake_host_cleanup(FakeHost *fh);
/* A disk image of sectors, filled with fake_pattern(). */
void fake_host_add_disk(FakeHost *fh, unsigned drive, uint64_t sectors);
uint8_t fake_pattern(unsigned drive, uint64_t offset);

unsigned fake_host_pending(FakeHost *fh);
/* Complete the oldest pending request; false if there was none. */
bool fake_host_complete_one(FakeHost *fh);
/* Complete requests (including new ones) until none is pending. */
unsigned fake_host_complete_all(FakeHost *fh);
/* Peek the oldest pending request (NULL if none). */
FakeOp *fake_host_peek(FakeHost *fh);

/* Does any captured record contain substr? */
bool fake_host_trace_has(FakeHost *fh, const char *substr);
unsigned fake_host_trace_count(FakeHost *fh, const char *substr);
void fake_host_trace_clear(FakeHost *fh);

#endif
