/*
 * atalab-scenario: guest runs of scenarios through tools/atalab run, N at
 * a time, and campaign jobs for another engine.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "scenario.h"

/* The guest's script: positions, fast SCSI error handling, the workload. */
static char *guest_script(const Scenario *s)
{
    GString *g = g_string_new(NULL);
    unsigned i;

    for (i = 0; i < s->disks; i++) {
        g_string_append_printf(g, "DISK%u=$(blk-of %u)\n", i, i);
    }
    if (s->cdrom) {
        g_string_append(g, "CDROM=sr0\n");
    }
    g_string_append(g, "h=/proc/sys/kernel/hung_task_timeout_secs\n"
                    "[ ! -w $h ] || echo 0 >$h\n");
    if (s->scsi_timeout >= 0) {
        g_string_append_printf(g, "for t in /sys/block/s[dr]*/device/timeout; "
                               "do echo %d >$t; done\n",
                               s->scsi_timeout ? s->scsi_timeout : 1);
    }
    if (s->retries >= 0) {
        g_string_append_printf(g, "for t in /sys/class/scsi_disk/*/"
                               "max_retries; do echo %d >$t; done\n",
                               s->retries);
    }
    if (*s->setup) {
        g_string_append_printf(g, "%s\n", s->setup);
    }
    g_string_append_printf(g, "(\n%s\n)\nrc=$?\n", s->run);
    for (i = 0; i < s->sysfs->len; i++) {
        const char *e = g_ptr_array_index(s->sysfs, i);
        char *attr = g_strndup(e, strchr(e, '=') - e);

        g_string_append_printf(g, "printf '@sysfs %%s=%%s\\n' '%s' "
                               "\"$(cat /sys/class/ata_device/%s 2>&1)\"\n",
                               attr, attr);
        g_free(attr);
    }
    if (g_getenv("ATALAB_COVERAGE")) {
        /* the kernel's gcov counts, for tools/lib/coverage.sh */
        g_string_append(g, "/atalab/gcov-dump >&2\n");
    }
    g_string_append(g, "echo \"@exit $rc\"\n");
    return g_string_free(g, FALSE);
}

static char *atalab_cmd(void)
{
    return g_build_filename(atalab_root, "tools", "atalab", NULL);
}

/*
 * The CD-ROM's disc: 4 MiB whose 2048-byte block N holds N (32 bits, big
 * endian) then the bytes of block N's pattern, so a workload can check what
 * it read; the same for every scenario and seed.
 */
static char *disc_image(const Scenario *s, const char *dir)
{
    char *path = g_build_filename(dir, "disc.iso", NULL);
    size_t size = 4u << 20, i;
    uint8_t *buf = g_malloc(size);

    for (i = 0; i < size; i++) {
        size_t block = i / 2048, at = i % 2048;

        buf[i] = at < 4 ? block >> (8 * (3 - at)) : (uint8_t)(block * 7 + at);
    }
    g_file_set_contents(path, (const char *)buf, size, NULL);
    g_free(buf);
    return path;
}

/* argv of the run: the scenario's machine, its rules, its workload. */
static GPtrArray *run_argv(const Scenario *s, const char *dir)
{
    GPtrArray *a = str_array_new();
    char *rules = g_build_filename(dir, "rules", NULL);
    GString *text = g_string_new(NULL);
    unsigned i;

    for (i = 0; i < s->rules->len; i++) {
        g_string_append_printf(text, "%s\n",
                               (char *)g_ptr_array_index(s->rules, i));
    }
    g_file_set_contents(rules, text->str, -1, NULL);
    g_string_free(text, TRUE);
    g_ptr_array_add(a, atalab_cmd());
    g_ptr_array_add(a, g_strdup("run"));
    g_ptr_array_add(a, g_strdup("--quiet"));
    g_ptr_array_add(a, g_strdup("--model"));
    g_ptr_array_add(a, g_strdup(s->model));
    if (*s->cable) {
        g_ptr_array_add(a, g_strdup("--cable"));
        g_ptr_array_add(a, g_strdup(s->cable));
    }
    if (*s->ide_mode) {
        g_ptr_array_add(a, g_strdup("--ide-mode"));
        g_ptr_array_add(a, g_strdup(s->ide_mode));
    }
    g_ptr_array_add(a, g_strdup("--driver"));
    g_ptr_array_add(a, g_strdup(s->driver));
    if (*s->append) {
        g_ptr_array_add(a, g_strdup("--append"));
        g_ptr_array_add(a, g_strdup(s->append));
    }
    g_ptr_array_add(a, g_strdup("--disk-size"));
    g_ptr_array_add(a, g_strdup(s->disk_size));
    for (i = 0; i < s->disks; i++) {
        g_ptr_array_add(a, g_strdup("--disk"));
        g_ptr_array_add(a, g_strdup_printf("%s/disk%u.img", dir, i));
    }
    if (s->cdrom) {
        g_ptr_array_add(a, g_strdup("--cdrom"));
        g_ptr_array_add(a, disc_image(s, dir));
    }
    if (s->rules->len) {
        g_ptr_array_add(a, g_strdup("--faults"));
        g_ptr_array_add(a, g_strdup(rules));
    }
    g_ptr_array_add(a, g_strdup("--fault-seed"));
    g_ptr_array_add(a, g_strdup_printf("%" G_GUINT64_FORMAT, s->seed));
    g_ptr_array_add(a, g_strdup("--timeout"));
    g_ptr_array_add(a, g_strdup_printf("%u", s->timeout));
    if (s->deterministic) {
        g_ptr_array_add(a, g_strdup("--deterministic"));
    }
    g_ptr_array_add(a, g_strdup("--log"));
    g_ptr_array_add(a, g_build_filename(dir, "console.log", NULL));
    g_ptr_array_add(a, g_strdup("--trace"));
    g_ptr_array_add(a, g_build_filename(dir, "trace", NULL));
    g_ptr_array_add(a, g_strdup("--"));
    g_ptr_array_add(a, g_strdup("sh"));
    g_ptr_array_add(a, g_strdup("-c"));
    g_ptr_array_add(a, guest_script(s));
    g_ptr_array_add(a, NULL);
    g_free(rules);
    return a;
}

static unsigned running;

static void job_exited(GPid pid, gint status, gpointer opaque)
{
    Job *j = opaque;

    j->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    j->done = true;
    fprintf(stderr, "atalab-scenario: %s: guest run ended (exit %d) after "
            "%.1f s\n", j->s->name, j->status,
            (g_get_monotonic_time() - j->t0) / 1e6);
    running--;
    g_spawn_close_pid(pid);
}

bool job_start(Job *j)
{
    j->t0 = g_get_monotonic_time();
    GPtrArray *argv = run_argv(j->s, j->dir);
    char *out = g_build_filename(j->dir, "stdout", NULL);
    char *errp = g_build_filename(j->dir, "stderr", NULL);
    GError *err = NULL;
    int fd_out, fd_err;
    bool ok;

    fd_out = g_open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    fd_err = g_open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ok = g_spawn_async_with_fds(NULL, (char **)argv->pdata, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                &j->pid, -1, fd_out, fd_err, &err);
    close(fd_out);
    close(fd_err);
    if (!ok) {
        fprintf(stderr, "atalab-scenario: %s\n", err->message);
        g_error_free(err);
        j->status = 127;
        j->done = true;
    } else {
        running++;
        g_child_watch_add(j->pid, job_exited, j);
    }
    g_ptr_array_free(argv, TRUE);
    g_free(out);
    g_free(errp);
    return ok;
}

/* Run the scenarios, N at a time; their outputs under work/NAME. */
void run_all(GPtrArray *scen, unsigned jobs, const char *work)
{
    GMainContext *ctx = g_main_context_default();
    Job *js = g_new0(Job, scen->len);
    unsigned next = 0, done = 0, i;

    for (i = 0; i < scen->len; i++) {
        js[i].s = g_ptr_array_index(scen, i);
        js[i].dir = g_build_filename(work, js[i].s->name, NULL);
        g_mkdir_with_parents(js[i].dir, 0755);
    }
    while (done < scen->len) {
        while (next < scen->len && running < jobs) {
            fprintf(stderr, "atalab-scenario: running %s\n",
                    js[next].s->name);
            job_start(&js[next++]);
        }
        g_main_context_iteration(ctx, TRUE);
        for (i = 0, done = 0; i < scen->len; i++) {
            done += js[i].done;
        }
    }
    for (i = 0; i < scen->len; i++) {
        unsigned from = rows->len;

        evaluate(js[i].s, js[i].dir, js[i].status);
        save_rows(js[i].dir, js[i].s->name, from);
        g_free(js[i].dir);
    }
    g_free(js);
}

/* ---- campaigns: jobs for another engine, and their results ------------ */

static char *sha256_file(const char *path)
{
    gchar *data = NULL;
    gsize len = 0;
    char *sum;

    if (!g_file_get_contents(path, &data, &len, NULL)) {
        return g_strdup("missing");
    }
    sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (guchar *)data,
                                      len);
    g_free(data);
    return sum;
}

/*
 * What a job was made for: the cache keys of the kit's builds
 * ($ATALAB_INPUTS, set by tools/atalab scenario).
 */
static const char *kit_inputs(void)
{
    const char *v = g_getenv("ATALAB_INPUTS");

    return v && *v ? v : "unknown";
}

/* A job's checks before it runs (docs/scenarios.md, campaigns). */
bool job_inputs_ok(const char *path)
{
    const char *want_sum = g_getenv("ATALAB_JOB_SCENARIO_SHA256");
    const char *want_kit = g_getenv("ATALAB_JOB_INPUTS");
    char *sum;
    bool ok = true;

    if (want_sum) {
        sum = sha256_file(path);
        if (!sum || strcmp(sum, want_sum)) {
            fprintf(stderr, "atalab-scenario: %s: the scenario changed since "
                    "the job was made (sha256 %s, job made for %s)\n", path,
                    sum ? sum : "unreadable", want_sum);
            ok = false;
        }
        g_free(sum);
    }
    if (want_kit && strcmp(want_kit, kit_inputs())) {
        fprintf(stderr, "atalab-scenario: this kit's builds are not the ones "
                "the job was made for\n  job: %s\n  kit: %s\n", want_kit,
                kit_inputs());
        ok = false;
    }
    return ok;
}

int emit_jobs(const char *dir, GPtrArray *scen)
{
    const char *inputs = kit_inputs();
    char *list = g_build_filename(dir, "jobs.txt", NULL);
    GString *jobs = g_string_new(NULL);
    unsigned i;

    g_mkdir_with_parents(dir, 0755);
    for (i = 0; i < scen->len; i++) {
        Scenario *s = g_ptr_array_index(scen, i);
        char *jd = g_build_filename(dir, s->name, NULL);
        char *copy = g_build_filename(jd, "scenario", NULL);
        char *job = g_build_filename(jd, "job.sh", NULL);
        char *text = NULL, *sum, *tool = atalab_cmd(), *qtool, *qcopy, *qjd;
        char *qinputs;
        char *script;

        g_mkdir_with_parents(jd, 0755);
        g_file_get_contents(s->path, &text, NULL, NULL);
        g_file_set_contents(copy, text, -1, NULL);
        sum = sha256_file(copy);
        qtool = g_shell_quote(tool);
        qcopy = g_shell_quote(copy);
        qjd = g_shell_quote(jd);
        qinputs = g_shell_quote(inputs);
        script = g_strdup_printf(
            "#!/bin/sh\n"
            "# atalab scenario job: %s\n"
            "# inputs: scenario sha256 %s\n"
            "# kit: %s\n"
            "# driver: %s\n"
            "# The job refuses to run when the scenario copy or the kit's\n"
            "# builds (their cache keys) differ from these.\n"
            "ATALAB_JOB_SCENARIO_SHA256=%s ATALAB_JOB_INPUTS=%s \\\n"
            "\texec %s scenario --run-one %s %s%s%s%s\n",
            s->name, sum, inputs, s->driver, sum, qinputs, qtool, qcopy, qjd,
            g_getenv("ATALAB_COVERAGE") ? " --coverage" : "",
            driver_override ? " --driver " : "",
            driver_override ? driver_override : "");
        g_free(qinputs);
        g_file_set_contents(job, script, -1, NULL);
        g_chmod(job, 0755);
        g_string_append_printf(jobs, "%s\n", job);
        g_free(script);
        g_free(qtool);
        g_free(qcopy);
        g_free(qjd);
        g_free(sum);
        g_free(text);
        g_free(tool);
        g_free(job);
        g_free(copy);
        g_free(jd);
    }
    g_file_set_contents(list, jobs->str, -1, NULL);
    printf("%u jobs in %s (run each line of %s, e.g. with GNU parallel)\n",
           scen->len, dir, list);
    g_string_free(jobs, TRUE);
    g_free(list);
    return 0;
}
