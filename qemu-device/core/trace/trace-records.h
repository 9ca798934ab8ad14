/*
 * atalab trace records, version 2: every record kind and its fields, once
 * (traces/FORMAT.md describes them; tests/tools/trace-format.sh checks that
 * it describes exactly these).  The trace writer (trace-writer.c) takes
 * from here which records carry a command number; the reader library
 * (tools/trace/trace-read.c) parses and checks every record with it.
 *
 * X(ID, SOURCE, KIND, UNIT, WORDS, KEYS), one row per form of a record:
 *
 * SOURCE  "cfg", "bm", or "ata", "ctl", "irq" (followed by the channel,
 *         ata0, irq1, ...).
 * KIND    the record's second field ("cmd", "done", ...); NULL for irq,
 *         whose second field is the line's level.
 * UNIT    ATALAB_UNIT_NONE, ATALAB_UNIT_DEV (a "dU" field follows the
 *         kind), ATALAB_UNIT_CH (a "chN" field follows it).
 * WORDS   the fields without '=' that follow, in order, space-separated:
 *         "a|b" one of these words, HEX 0x and hex digits, WORD any word,
 *         REST any words to the end; a trailing '?' makes one optional.
 * KEYS    the key=value fields, space-separated "name:TYPE", '?' after an
 *         optional one; TYPE is dec, int (may be negative), hex, num (dec
 *         or hex), bool (0 or 1), word, or "a|b" (one of these).
 *
 * Register accesses are the one record of another shape (ID ACCESS):
 * "<time> <space> <r|w> 0x<offset> <size> 0x<value>" and then KEYS.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_RECORDS_H
#define ATALAB_TRACE_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum AtalabTraceUnit {
    ATALAB_UNIT_NONE,
    ATALAB_UNIT_DEV,
    ATALAB_UNIT_CH,
} AtalabTraceUnit;

#define ATALAB_TRACE_OWNER  "dev:dec? seq:dec?"

#define ATALAB_TRACE_RECORDS(X) \
    X(ACCESS, "*", "r|w", ATALAB_UNIT_NONE, "", \
      "reg:word? cmd:word? bits:word? " ATALAB_TRACE_OWNER \
      " polls:dec? last:int?") \
    X(CFG_RESET, "cfg", "reset", ATALAB_UNIT_NONE, "", "") \
    X(CFG_FIRMWARE_INIT, "cfg", "firmware-init", ATALAB_UNIT_NONE, "", "") \
    X(IRQ, "irq", NULL, ATALAB_UNIT_NONE, "0|1", ATALAB_TRACE_OWNER) \
    X(ATA_CMD, "ata", "cmd", ATALAB_UNIT_DEV, "HEX WORD", \
      "lba:dec? count:num? feature:hex? seq:dec") \
    X(ATA_DONE, "ata", "done", ATALAB_UNIT_DEV, "HEX", "status:hex seq:dec") \
    X(ATA_ERROR, "ata", "error", ATALAB_UNIT_DEV, "WORD", \
      "cmd:hex status:hex error:hex seq:dec") \
    X(ATA_PACKET, "ata", "packet", ATALAB_UNIT_DEV, "HEX WORD", \
      "dma:bool limit:dec cdb:hex seq:dec") \
    X(ATA_MEDIA, "ata", "media", ATALAB_UNIT_DEV, \
      "open|closed|eject-request|ejected|loaded", \
      "sectors:dec? force:bool? seq:dec") \
    X(ATA_CHECK, "ata", "check", ATALAB_UNIT_DEV, "HEX", \
      "key:hex asc:hex ascq:hex seq:dec") \
    X(ATA_IO, "ata", "io", ATALAB_UNIT_DEV, "read|write|flush pre-image?", \
      "lba:dec? count:dec? fua:bool? direct:bool? seq:dec") \
    X(ATA_IO_DONE, "ata", "io-done", ATALAB_UNIT_DEV, \
      "read|write|flush pre-image?", "ret:int seq:dec") \
    X(ATA_IO_ERROR, "ata", "io-error", ATALAB_UNIT_DEV, "read|write|flush", \
      "lba:dec count:dec ret:int seq:dec") \
    X(ATA_ABORT, "ata", "abort", ATALAB_UNIT_DEV, \
      "HEX srst|diagnostic|power-on|removed|power-cut|device-reset", \
      "seq:dec") \
    X(ATA_ABANDON, "ata", "abandon", ATALAB_UNIT_DEV, "read|write|flush", \
      "lba:dec count:dec seq:dec") \
    X(ATA_STALE, "ata", "stale", ATALAB_UNIT_DEV, "read|write|flush", \
      "lba:dec count:dec ret:int seq:dec") \
    X(ATA_DMA_STUCK, "ata", "dma-stuck", ATALAB_UNIT_DEV, \
      "HEX prd-short|master-abort|stopped", "lba:dec seq:dec") \
    X(ATA_DMA_WAIT, "ata", "dma-wait", ATALAB_UNIT_DEV, "", \
      "other:d0|d1 seq:dec") \
    X(ATA_POWER, "ata", "power", ATALAB_UNIT_DEV, \
      "active|idle|standby|sleep", "seq:dec") \
    X(ATA_STANDBY_TIMER, "ata", "standby-timer", ATALAB_UNIT_DEV, "", \
      "count:dec period:word seq:dec") \
    X(ATA_STANDBY_EXPIRED, "ata", "standby-timer", ATALAB_UNIT_DEV, \
      "expired", "seq:dec") \
    X(ATA_SMART_STARTED, "ata", "smart", ATALAB_UNIT_DEV, \
      "self-test short|extended started", "seq:dec") \
    X(ATA_SMART_ENDED, "ata", "smart", ATALAB_UNIT_DEV, \
      "self-test short|extended", "status:hex seq:dec") \
    X(ATA_TIMER, "ata", "timer", ATALAB_UNIT_DEV, "standby|self-test|fault", \
      "seq:dec") \
    X(ATA_FAULT_TIMER, "ata", "fault-timer", ATALAB_UNIT_NONE, "", "") \
    X(ATA_HPA, "ata", "hpa", ATALAB_UNIT_DEV, "", \
      "max:dec sectors:dec nv:bool seq:dec") \
    X(ATA_BUG, "ata", "bug", ATALAB_UNIT_DEV, "REST", "seq:dec") \
    X(ATA_IGNORED, "ata", "ignored", ATALAB_UNIT_DEV, \
      "busy|drq|absent|sleeping", "reg:dec? cmd:hex? seq:dec") \
    X(ATA_VIOLATION, "ata", "violation", ATALAB_UNIT_DEV, "WORD", \
      "status:hex? reg:word? expected:word? actual:word? xfer:pio|dma? " \
      "seq:dec") \
    X(ATA_TIMING, "ata", "timing", ATALAB_UNIT_DEV, "", \
      "bank:word isp:word rtc:word iordy:bool prefetch:bool pio:word " \
      "mwdma:word udma:word ct:word? clk:word?") \
    X(ATA_TIMING_SUMMARY, "ata", "timing-summary", ATALAB_UNIT_DEV, "", \
      "checks:dec violations:dec") \
    X(ATA_SATA_PORT, "ata", "sata-port", ATALAB_UNIT_DEV, "up|down", \
      "port:dec") \
    X(ATA_RESET, "ata", "reset", ATALAB_UNIT_NONE, "", "srst:bool") \
    X(ATA_DATA, "ata", "data", ATALAB_UNIT_DEV, "in|out", \
      "bytes:dec width:word sum:hex off:dec? partial:bool? seq:dec") \
    X(ATA_REPEAT, "ata", "repeat", ATALAB_UNIT_DEV, "", \
      "cycles:dec records:dec bytes:dec sums:hex last:int? seq:dec") \
    X(ATA_FAULT, "ata", "fault", ATALAB_UNIT_DEV, "", \
      "rule:word kind:word cmd:word lba:dec seq:dec") \
    X(ATA_FAULT_RESET_OVER, "ata", "fault", ATALAB_UNIT_DEV, \
      "reset-fail over", "seq:dec") \
    X(ATA_FAULT_REMOVED, "ata", "fault", ATALAB_UNIT_DEV, "removed", \
      "seq:dec") \
    X(ATA_FAULT_REINSERTED, "ata", "fault", ATALAB_UNIT_DEV, "reinserted", \
      "seq:dec") \
    X(ATA_FAULT_CORRUPTED, "ata", "fault", ATALAB_UNIT_DEV, \
      "corrupted read|write", "lba:dec count:dec bits:dec seq:dec") \
    X(ATA_FAULT_IDENTIFY, "ata", "fault", ATALAB_UNIT_DEV, "identify-data", \
      "word:dec old:hex new:hex seq:dec") \
    X(ATA_FAULT_POWER_CUT, "ata", "fault", ATALAB_UNIT_DEV, "power-cut", \
      "lost:dec kept:dec seq:dec") \
    X(ATA_FAULT_RESTORE_FAILED, "ata", "fault", ATALAB_UNIT_DEV, \
      "power-cut restore failed", "lba:dec ret:int seq:dec") \
    X(ATA_FAULT_POWER_BACK, "ata", "fault", ATALAB_UNIT_DEV, "power back", \
      "seq:dec") \
    X(BM_START, "bm", "start", ATALAB_UNIT_CH, "to-memory|from-memory", \
      "prdt:hex " ATALAB_TRACE_OWNER) \
    X(BM_STOP, "bm", "stop", ATALAB_UNIT_CH, "", \
      "status:hex " ATALAB_TRACE_OWNER) \
    X(BM_PRD, "bm", "prd", ATALAB_UNIT_CH, "", \
      "at:hex addr:hex len:dec eot:bool " ATALAB_TRACE_OWNER \
      " prds:dec? step:int? last:int?") \
    X(BM_PRD_WRAP, "bm", "prd-wrap", ATALAB_UNIT_CH, "", \
      "addr:hex len:dec " ATALAB_TRACE_OWNER) \
    X(BM_PRD_NO_EOT, "bm", "prd-no-eot", ATALAB_UNIT_CH, "", \
      ATALAB_TRACE_OWNER) \
    X(BM_PRD_SHORT, "bm", "prd-short", ATALAB_UNIT_CH, "", \
      "left:dec " ATALAB_TRACE_OWNER) \
    X(BM_MASTER_ABORT, "bm", "master-abort", ATALAB_UNIT_CH, "", \
      "addr:hex len:dec " ATALAB_TRACE_OWNER) \
    X(BM_DIR_MISMATCH, "bm", "dir-mismatch", ATALAB_UNIT_CH, \
      "to-memory|from-memory", "bmicx:hex " ATALAB_TRACE_OWNER) \
    X(BM_DONE, "bm", "done", ATALAB_UNIT_CH, "", \
      "status:hex " ATALAB_TRACE_OWNER)

typedef struct AtalabTraceForm {
    const char *name;           /* "ATA_CMD" */
    const char *source;
    const char *kind;
    AtalabTraceUnit unit;
    const char *words;
    const char *keys;
} AtalabTraceForm;

/*
 * The table, one form per row of ATALAB_TRACE_RECORDS in its order
 * (trace-records.c); the reader names the rows (AtalabTraceKind).
 */
extern const AtalabTraceForm atalab_trace_forms[];
extern const unsigned atalab_trace_n_forms;

/*
 * The first form of SOURCE's records whose kind is the len bytes at kind
 * (len 0: irq, which has none); NULL when there is none.
 */
const AtalabTraceForm *atalab_trace_form_find(const char *source,
                                              const char *kind, size_t len);
/* Does the form have the key (required or optional)? */
bool atalab_trace_form_has_key(const AtalabTraceForm *f, const char *key);

#endif
