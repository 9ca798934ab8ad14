/*
 * atalab trace signals (trace-signals.h).
 *
 * BSY and DRQ are the Status a host read (Status or Alternate Status of
 * the drive the read names) or the status an end record gives.  ACTIVE is
 * set by a bus-master start and follows BMISX bit 0 as the host read it
 * and as a stop or done record gives it; a short PRD table or a master
 * abort clears it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "trace-signals.h"

#include <stdlib.h>
#include <string.h>

typedef struct Changes {
    TraceSignalChange *out;
    unsigned n;
} Changes;

static void add(Changes *c, TraceSignal sig, int channel, int unit, int v)
{
    c->out[c->n++] = (TraceSignalChange) { sig, channel, unit, v };
}

static void status(Changes *c, int channel, int unit, uint64_t st)
{
    add(c, TRACE_SIG_BSY, channel, unit, !!(st & 0x80));
    add(c, TRACE_SIG_DRQ, channel, unit, !!(st & 0x08));
}

/* The mode number after the last letter of "600ns/pio4", "on:udma5"; -1. */
static int mode_number(const char *v, const char *kind)
{
    const char *p = v ? strstr(v, kind) : NULL;

    if (!p || !g_ascii_isdigit(p[strlen(kind)])) {
        return -1;
    }
    return atoi(p + strlen(kind));
}

unsigned trace_signal_changes(const AtalabTraceRecord *r,
                              TraceSignalChange *out)
{
    Changes c = { out, 0 };
    int ch = r->channel, dev = atalab_trace_device(r);
    uint64_t x = 0;
    const char *udma;

    switch (r->kind) {
    case ATALAB_REC_IRQ:
        add(&c, TRACE_SIG_INTRQ, ch, -1, !strcmp(atalab_trace_word(r, 0), "1"));
        break;
    case ATALAB_REC_ACCESS:
        if (r->write || dev < 0 || ch < 0) {
            break;
        }
        if ((!strncmp(r->source, "ata", 3) && r->offset == 7 &&
             r->size == 1) || !strncmp(r->source, "ctl", 3)) {
            status(&c, ch, dev, r->value);
        } else if (!strcmp(r->source, "bm") && (r->offset & 7) == 2) {
            add(&c, TRACE_SIG_BM_ACTIVE, ch, -1, r->value & 1);
        }
        break;
    case ATALAB_REC_ATA_CMD:
        add(&c, TRACE_SIG_CMD, ch, r->unit,
            strtoul(atalab_trace_word(r, 0), NULL, 16));
        break;
    case ATALAB_REC_ATA_DONE:
    case ATALAB_REC_ATA_ERROR:
        if (atalab_trace_get_u64(r, "status", &x)) {
            status(&c, ch, r->unit, x);
        }
        add(&c, TRACE_SIG_CMD, ch, r->unit, 0);
        break;
    case ATALAB_REC_ATA_ABORT:
        add(&c, TRACE_SIG_CMD, ch, r->unit, 0);
        break;
    case ATALAB_REC_ATA_TIMING:
        udma = atalab_trace_get(r, "udma");
        add(&c, TRACE_SIG_PIO, ch, r->unit,
            mode_number(atalab_trace_get(r, "pio"), "/pio"));
        add(&c, TRACE_SIG_MWDMA, ch, r->unit,
            mode_number(atalab_trace_get(r, "mwdma"), "/mwdma"));
        add(&c, TRACE_SIG_UDMA, ch, r->unit,
            udma && g_str_has_prefix(udma, "on:") ?
            mode_number(udma, "udma") : 255);
        break;
    case ATALAB_REC_BM_START:
        add(&c, TRACE_SIG_BM_ACTIVE, ch, -1, 1);
        break;
    case ATALAB_REC_BM_STOP:
    case ATALAB_REC_BM_DONE:
        if (atalab_trace_get_u64(r, "status", &x)) {
            add(&c, TRACE_SIG_BM_ACTIVE, ch, -1, x & 1);
        }
        break;
    case ATALAB_REC_BM_PRD_SHORT:
    case ATALAB_REC_BM_MASTER_ABORT:
        add(&c, TRACE_SIG_BM_ACTIVE, ch, -1, 0);
        break;
    default:
        break;
    }
    return c.n;
}
