/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * atalab-explore: the data side of `tools/atalab explore` (tools/lib/
 * explore.sh runs the guests).
 *
 *   atalab-explore gen SEED [--kinds K,...] [--workloads W,...] [--timeout S]
 *                      [--append TEXT] [PARENT]
 *                                      a scenario on stdout: fault rules (of
 *                                      the kinds given, default all) and a
 *                                      workload (of those given) drawn with
 *                                      SEED, or PARENT (a corpus scenario)
 *                                      mutated
 *   atalab-explore shrink SCENARIO K   the Kth smaller variant of SCENARIO (a
 *                                      rule dropped, the probe workload, a rule
 *                                      firing once or at its first match), or
 *                                      exit 1 when there is no Kth
 *   atalab-explore cover SET INFO      fold an lcov tracefile into the
 *                                      coverage set SET; prints "new N hit H
 *                                      found F"
 *   atalab-explore count SET           prints "hit H found F"
 *   atalab-explore summary SET [INFO]  lines hit and found per source file,
 *                                      and INFO's (an lcov tracefile) next
 *                                      to them
 *   atalab-explore merge OUT SET...    OUT becomes the union of the SETs and
 *                                      of OUT; prints "hit H found F"
 *   atalab-explore plot SVG [--against INFO] LOG...
 *                                      the coverage curve of each runs.log
 *                                      (lines executed over runs) in SVG, with
 *                                      INFO's lines as a dashed line
 *
 * The coverage set is a text file, one line per source line: "H file:line"
 * (executed in some run) or "F file:line" (instrumented, not executed yet).
 * Only the files explore is about count (libata's core, EH, SFF and SCSI
 * layers and the PIIX drivers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"

static int usage(void)
{
    fprintf(stderr, "usage: atalab-explore gen SEED [--kinds K,...] [--workloads W,...] "
            "[--timeout S] [--append TEXT] [PARENT]\n"
            "       atalab-explore shrink SCENARIO K\n"
            "       atalab-explore cover SET INFO\n"
            "       atalab-explore count SET\n"
            "       atalab-explore summary SET [INFO]\n"
            "       atalab-explore merge OUT SET...\n"
            "       atalab-explore plot SVG [--against INFO] LOG...\n");
    return 2;
}

int main(int argc, char **argv)
{
    char *end;

    if (argc >= 3 && !strcmp(argv[1], "gen")) {
        guint64 seed = g_ascii_strtoull(argv[2], &end, 10);

        if (*end || !*argv[2]) {
            fprintf(stderr, "atalab-explore: gen wants a decimal seed, got '%s'\n", argv[2]);
            return 2;
        }
        return explore_gen(seed, argc - 3, argv + 3);
    }
    if (argc == 4 && !strcmp(argv[1], "shrink")) {
        unsigned long k = strtoul(argv[3], &end, 10);

        if (*end || !*argv[3]) {
            fprintf(stderr, "atalab-explore: shrink wants a variant number, got '%s'\n", argv[3]);
            return 2;
        }
        return explore_shrink(argv[2], k);
    }
    if (argc == 4 && !strcmp(argv[1], "cover")) {
        return explore_cover(argv[2], argv[3]);
    }
    if (argc == 3 && !strcmp(argv[1], "count")) {
        return explore_count(argv[2]);
    }
    if ((argc == 3 || argc == 4) && !strcmp(argv[1], "summary")) {
        return explore_summary(argv[2], argc == 4 ? argv[3] : NULL);
    }
    if (argc >= 4 && !strcmp(argv[1], "merge")) {
        return explore_merge(argv[2], argc - 3, argv + 3);
    }
    if (argc >= 4 && !strcmp(argv[1], "plot")) {
        const char *against = NULL;
        int first = 3;

        if (!strcmp(argv[3], "--against")) {
            if (argc < 6) {
                return usage();
            }
            against = argv[4];
            first = 5;
        }
        return explore_plot(argv[2], against, argc - first, argv + first);
    }
    return usage();
}
