/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parts of atalab-explore (atalab-explore.c says what each command does):
 * drawing scenarios (explore-draw.c), coverage sets (explore-cover.c) and
 * the coverage curve (explore-plot.c).
 */
#ifndef ATALAB_EXPLORE_H
#define ATALAB_EXPLORE_H

#include <glib.h>
#include <stdbool.h>

int explore_gen(guint64 seed, int argc, char **argv);
int explore_shrink(const char *path, unsigned k);

int explore_cover(const char *set, const char *info);
int explore_count(const char *set);
int explore_summary(const char *set, const char *against);
int explore_merge(const char *out, int n, char **sets);
bool explore_info_hit(const char *info, unsigned *hit);

int explore_plot(const char *out, const char *against, int n, char **logs);

#endif
