/*
 * atalab-models: print the emulator core's personality table, one line per
 * controller model, for tools/atalab (run --list-models and the --model
 * checks).  Built from the core's own sources: the table has one home.
 *
 * One line per model, fields separated by tabs:
 *   name  vendor:device  modes  cable  registers  description
 * modes: the fastest PIO, multiword DMA and Ultra DMA mode the controller
 * times (e.g. "pio4,mwdma2,udma2"); cable: "cable" when the guest can read
 * the cable type from the controller (ICH PATA, IDE_CONFIG), "-" otherwise;
 * registers: the device-specific configuration registers, NAME@OFFSET,
 * comma-separated.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include <glib.h>

#include "controller/atalab-personality.h"

static void print_model(const AtalabPersonality *p)
{
    bool cable = (p->caps & ATALAB_CAP_ICH_CLOCKS) &&
                 !(p->caps & ATALAB_CAP_SATA);
    size_t i;

    printf("%s\t%04x:%04x\tpio%d", p->name, p->vendor_id, p->device_id,
           p->max_pio);
    if (p->max_mwdma >= 0) {
        printf(",mwdma%d", p->max_mwdma);
    }
    if (p->max_udma >= 0) {
        printf(",udma%d", p->max_udma);
    }
    printf("\t%s\t%s\t", cable ? "cable" : "-",
           p->caps & ATALAB_CAP_NATIVE ? "native" : "-");
    printf("%s@0x%02x", p->pi.name, p->pi.offset);
    for (i = 0; i < p->n_regs; i++) {
        printf(",%s@0x%02x", p->regs[i].name,
               p->regs[i].offset);
    }
    printf("\t%s\n", p->description);
}

int main(void)
{
    gchar **names = g_strsplit(atalab_personality_names(), ", ", -1);
    int status = 0;
    gchar **n;

    for (n = names; *n; n++) {
        const AtalabPersonality *p = atalab_personality_find(*n);

        if (!p) {
            fprintf(stderr, "atalab-models: '%s' is listed but not found\n",
                    *n);
            status = 1;
            continue;
        }
        print_model(p);
    }
    g_strfreev(names);
    return status;
}
