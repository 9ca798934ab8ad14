/*
 * atalab-scenario: what its parts share (docs/scenarios.md).
 *
 *   scenario-load.c     scenario files: parsed, checked, located errors
 *   scenario-run.c      guest runs through tools/atalab run, N at a time;
 *                       campaign jobs for another engine
 *   scenario-eval.c     every expectation of a run, as result rows
 *   scenario-report.c   the table, JUnit XML, merging a campaign's rows
 *   atalab-scenario.c   the command line
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_SCENARIO_H
#define ATALAB_SCENARIO_H

#include <stdbool.h>

#include <glib.h>

#include "faults/atalab-fault.h"

#define MAX_POSITIONS   4

typedef struct Pattern {
    unsigned position;
    char *offset, *size, *seed;
} Pattern;

typedef struct Scenario {
    char *path;
    char *name;
    char *description;
    char *model, *cable, *ide_mode, *driver, *append, *disk_size;
    unsigned disks;
    guint64 seed;
    unsigned timeout;
    bool deterministic;         /* run --deterministic */
    bool cdrom;                 /* a CD-ROM at the secondary master */
    GPtrArray *rules;           /* char *: rule lines */
    GPtrArray *rule_ids;        /* char *: their ids */
    char *setup;                /* guest commands before the faults */
    char *run;                  /* the workload */
    int scsi_timeout;           /* -1: leave */
    int retries;                /* -1: leave */
    /* expectations */
    bool has_exit;
    int exit_status;
    GPtrArray *log;             /* must appear */
    bool log_in_order;
    GPtrArray *no_log;          /* must not appear */
    GPtrArray *sysfs;           /* "dev1.0/xfer_mode=XFER_UDMA_2" */
    GPtrArray *fired;           /* "id=N", "id>=N" */
    GPtrArray *stdout_has;
    GPtrArray *patterns;        /* Pattern * */
    bool has_violations;
    unsigned violations;
    GPtrArray *effects;         /* Effect *: rules whose effect is checked */
} Scenario;

/*
 * effect = ID: what a firing of the rule does, as the trace shows it
 * (docs/scenarios.md): latency delays its command's end by the rule's
 * delay; spurious-irq raises INTRQ; lost-irq ends its command without.
 */
typedef struct Effect {
    char *id;
    AtalabFaultKind kind;
    int64_t delay;              /* latency: the rule's delay= */
} Effect;

typedef struct Row {
    char *scenario, *expectation, *seen;
    bool pass;
} Row;

typedef struct Job {
    Scenario *s;
    char *dir;
    GPid pid;
    int status;
    bool done;
    gint64 t0;                  /* start, monotonic microseconds */
} Job;

/* atalab-scenario.c */
extern GPtrArray *rows;         /* Row *, of every scenario run */
extern const char *atalab_root;
extern const char *driver_override; /* --driver: replaces [scenario] driver */

/* scenario-load.c */
void scenario_free(Scenario *s);
Scenario *scenario_load(const char *path);
GPtrArray *str_array_new(void);

/* scenario-run.c */
int emit_jobs(const char *dir, GPtrArray *scen);
bool job_inputs_ok(const char *path);
bool job_start(Job *j);
void run_all(GPtrArray *scen, unsigned jobs, const char *work);

/* scenario-eval.c */
void row_add(const char *scenario, const char *expectation,
             const char *seen, bool pass);
void evaluate(const Scenario *s, const char *dir, int run_status);
void save_rows(const char *dir, const char *scenario, unsigned from);

/* scenario-report.c */
int merge_results(const char *dir);
unsigned print_table(void);
void write_junit(const char *path);

#endif
