/*
 * atalab emulator core: the trace writer (format: traces/FORMAT.md).
 *
 * The stage between the core's records and the host's trace sink.  The
 * controller hands it every register access with what it knows of it (the
 * channel, the selected device, the register's name and decoded bits); every
 * other record reaches it as text through the inner host's trace callback.
 * It folds the PIO data accesses of one DRQ block into one "data" record,
 * repeated identical Status/Alternate Status reads into one record with a
 * count, a regular run of PRDs into one "bm prd" record, and repeated
 * cycles of PIO transfer into a "repeat" record; it numbers each drive's
 * commands and marks every record of a command with its number, and
 * writes times absolute or relative to the channel's command start.
 *
 * Each channel has at most one pending fold (a data block, a poll run or a
 * PRD run) and a cycle in progress.  They are written before any record of
 * the channel they cannot take in, before any record of the whole
 * controller (cfg), on atalab_trace_writer_flush() and when the writer is
 * freed, so a flushed trace is complete and every channel's records are in
 * order.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_WRITER_H
#define ATALAB_TRACE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../atalab-host.h"

typedef enum AtalabTraceData {
    ATALAB_TRACE_DATA_BLOCK,    /* folded: data blocks and polls */
    ATALAB_TRACE_DATA_RAW,      /* one record per access, nothing folded */
} AtalabTraceData;

typedef enum AtalabTraceTime {
    ATALAB_TRACE_TIME_ABSOLUTE, /* the virtual clock */
    ATALAB_TRACE_TIME_RELATIVE, /* since the channel's latest command */
} AtalabTraceTime;

/* Register spaces of an access record. */
typedef enum AtalabTraceSpace {
    ATALAB_SPACE_CFG,
    ATALAB_SPACE_ATA,           /* command block of a channel */
    ATALAB_SPACE_CTL,           /* control block of a channel */
    ATALAB_SPACE_BM,            /* bus-master registers (both channels) */
} AtalabTraceSpace;

/* One register access, as the controller describes it. */
typedef struct AtalabTraceAccess {
    AtalabTraceSpace space;
    unsigned channel;           /* ATA, CTL; BM: derived from offset */
    int dev;                    /* ATA, CTL: the selected device; else -1 */
    bool write;
    uint32_t offset;
    unsigned size;
    uint32_t value;
    const char *reg;            /* register name(s), or NULL */
    const char *bits;           /* decoded bits ("BSY|DRQ"), or NULL */
    const char *cmd;            /* Command register write: its name */
} AtalabTraceAccess;

typedef struct AtalabTraceWriter AtalabTraceWriter;

/* Records go to out->trace(out->opaque, record); out must outlive w. */
AtalabTraceWriter *atalab_trace_writer_new(const AtalabHost *out);
/* Writes what is pending, then frees w (NULL: nothing). */
void atalab_trace_writer_free(AtalabTraceWriter *w);
void atalab_trace_writer_set_data(AtalabTraceWriter *w, AtalabTraceData m);
void atalab_trace_writer_set_time(AtalabTraceWriter *w, AtalabTraceTime m);
AtalabTraceData atalab_trace_writer_data_mode(const AtalabTraceWriter *w);
AtalabTraceTime atalab_trace_writer_time_mode(const AtalabTraceWriter *w);

/* Write every pending fold now. */
void atalab_trace_writer_flush(AtalabTraceWriter *w);
/* The latest (virtual clock) time of the records so far; 0 before one. */
int64_t atalab_trace_writer_latest(const AtalabTraceWriter *w);

/*
 * A record of the core, "<time_ns> <text>" (the AtalabHost.trace callback
 * of the host the controller gives its parts; opaque is the writer).
 */
void atalab_trace_writer_record(void *opaque, const char *record);

/* A register access other than a data port access inside a DRQ block. */
void atalab_trace_writer_access(AtalabTraceWriter *w,
                                const AtalabTraceAccess *a);

/*
 * A data port access that moves data of a DRQ block: pos bytes of the
 * block were moved before it, end is the block's length.  A write is
 * reported before the access is carried out, a read after.
 */
void atalab_trace_writer_data(AtalabTraceWriter *w, unsigned channel,
                              unsigned dev, bool write, unsigned size,
                              uint32_t value, size_t pos, size_t end);

/*
 * The bus-master engine of the channel loaded the descriptor at "at":
 * region addr, len bytes, EOT or not.
 */
void atalab_trace_writer_prd(AtalabTraceWriter *w, unsigned channel,
                             uint32_t at, uint32_t addr, uint32_t len,
                             bool eot);

/*
 * Around a data port access (begin before the core runs it, end after):
 * records the core writes meanwhile do not close the pending data block.
 */
void atalab_trace_writer_data_access(AtalabTraceWriter *w, unsigned channel,
                                     bool inside);

#endif
