/*
 * atalab trace reader: parses version-2 traces (traces/FORMAT.md) record by
 * record against the record table (qemu-device/core/trace/trace-records.h), the
 * one the writer follows.  A malformed line is refused with
 * "FILE:LINE: message".  Memory: the header and one record.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_TRACE_READ_H
#define ATALAB_TRACE_READ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

#include "trace/trace-records.h"

/* The forms of the record table by name: atalab_trace_forms[ATALAB_REC_X]. */
typedef enum AtalabTraceKind {
#define ATALAB_TRACE_KIND_ENUM(id, source, kind, unit, words, keys) \
    ATALAB_REC_##id,
    ATALAB_TRACE_RECORDS(ATALAB_TRACE_KIND_ENUM)
#undef ATALAB_TRACE_KIND_ENUM
    ATALAB_REC_N
} AtalabTraceKind;

#define ATALAB_TRACE_VERSION    2
#define ATALAB_TRACE_MAX_FIELDS 24

/* A field after the record's head: a word, or key=value. */
typedef struct AtalabTraceField {
    const char *key;            /* NULL for a word */
    const char *value;          /* the word, or the value */
} AtalabTraceField;

typedef struct AtalabTraceRecord {
    AtalabTraceKind kind;
    const AtalabTraceForm *form;
    int64_t time;
    char source[8];             /* "ata0", "bm", "cfg", "irq1", ... */
    int channel;                /* 0, 1; -1: the controller's (cfg) */
    int unit;                   /* dU or chN; -1 without */
    /* ACCESS */
    bool write;
    uint32_t offset;
    unsigned size;
    uint32_t value;
    /* the words and keys after the head, in order */
    unsigned n_fields;
    AtalabTraceField field[ATALAB_TRACE_MAX_FIELDS];
    char *text;                 /* the line (fields point into a copy) */
    char *buf;
} AtalabTraceRecord;

/*
 * Parse one record line.  strict: a key the record's form does not have
 * is an error (the writer's own output must pass); otherwise it is kept
 * (a newer writer may add keys).  On error returns false and sets *why
 * (g_free it); rec is then cleared.  Clear a parsed rec with
 * atalab_trace_record_clear().
 */
bool atalab_trace_parse(const char *line, bool strict,
                        AtalabTraceRecord *rec, char **why);
void atalab_trace_record_clear(AtalabTraceRecord *rec);

/* The line again, from the parsed fields (equal to what was parsed). */
char *atalab_trace_format(const AtalabTraceRecord *rec);

/* The value of key=, or NULL. */
const char *atalab_trace_get(const AtalabTraceRecord *rec, const char *key);
/* key= as a number (dec, or 0x hex); false when absent or not a number. */
bool atalab_trace_get_u64(const AtalabTraceRecord *rec, const char *key,
                          uint64_t *v);
/* key= as a signed decimal number; false when absent or not one. */
bool atalab_trace_get_i64(const AtalabTraceRecord *rec, const char *key,
                          int64_t *v);
/* The i-th word after the head, or NULL. */
const char *atalab_trace_word(const AtalabTraceRecord *rec, unsigned i);
/* The device the record concerns: dU, or dev=; -1 when none. */
int atalab_trace_device(const AtalabTraceRecord *rec);

/* ---- files --------------------------------------------------------- */

typedef struct AtalabTraceFile AtalabTraceFile;

/*
 * Open a trace ("-": standard input) and read its header.  NULL with *err
 * ("FILE:LINE: message") when it cannot be read or is not version 2.
 */
AtalabTraceFile *atalab_trace_open(const char *path, bool strict,
                                   GError **err);
/* The same on an open stream (closed by atalab_trace_close); name for messages. */
AtalabTraceFile *atalab_trace_open_stream(FILE *fp, const char *name,
                                          bool strict, GError **err);
void atalab_trace_close(AtalabTraceFile *f);
/* The name the file was opened with. */
const char *atalab_trace_path(const AtalabTraceFile *f);
/* The first header value of key ("personality"), or NULL. */
const char *atalab_trace_header(const AtalabTraceFile *f, const char *key);
/* The first value of key in header lines ("KEY VALUE"), or NULL. */
const char *atalab_trace_header_value(const GPtrArray *lines,
                                      const char *key);
/*
 * Header lines without the run's own times: "normalized to 0" (normalized
 * yes) or "relative to each command" (trace-time relative); NULL when the
 * times are the virtual clock's.
 */
const char *atalab_trace_times_lost(const GPtrArray *lines);
/* Every header line in order: "KEY VALUE" strings. */
const GPtrArray *atalab_trace_header_lines(const AtalabTraceFile *f);
/*
 * The next record into rec (cleared first): 1, or 0 at the end, or -1 with
 * *err set ("FILE:LINE: message").
 */
int atalab_trace_next(AtalabTraceFile *f, AtalabTraceRecord *rec,
                      GError **err);
/* The line number of the record read last. */
unsigned atalab_trace_line(const AtalabTraceFile *f);

/*
 * s as a JSON string (NULL: null) appended to out, the one JSON escaper of
 * the trace tools.  '<', '>' and '&' are escaped too, so that the text is
 * safe inside an HTML <script> element.
 */
void atalab_json_string(GString *out, const char *s);

#endif
