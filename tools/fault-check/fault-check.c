/*
 * fault-check: check fault rule files (docs/faults.md, "Rule files") with
 * the emulator core's own parser, before a guest boots.  Prints each
 * file's first error as FILE:LINE:COLUMN: message, or with --list the
 * rules as the device will hold them.  Exit 0 when every file is good.
 *
 * usage: fault-check [--list] FILE...
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "faults/atalab-fault.h"

int main(int argc, char **argv)
{
    bool list = false;
    int i, bad = 0, files = 0;

    for (i = 1; i < argc; i++) {
        AtalabFaults *f;
        char *err = NULL;

        if (!strcmp(argv[i], "--list")) {
            list = true;
            continue;
        }
        files++;
        f = atalab_faults_new(0);
        if (!atalab_faults_load(f, argv[i], &err)) {
            fprintf(stderr, "%s\n", err);
            g_free(err);
            bad = 1;
        } else if (list) {
            char *text = atalab_faults_list(f);

            fputs(text, stdout);
            g_free(text);
        }
        atalab_faults_free(f);
    }
    if (!files) {
        fprintf(stderr, "usage: fault-check [--list] FILE...\n");
        return 2;
    }
    return bad;
}
