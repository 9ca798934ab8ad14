/*
 * atalab emulator core: what the fault engine's two files share.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_FAULT_INTERNAL_H
#define ATALAB_FAULT_INTERNAL_H

#include "atalab-fault.h"

/*
 * Parse one line into *r.  *empty: the line is blank or a comment (r is
 * then meaningless).  On error false, *err "WHERE:LINE:COLUMN: message".
 */
bool atalab_fault_parse_rule(const char *text, const char *where,
                             unsigned line, AtalabFaultRule *r, bool *empty,
                             char **err);
const char *atalab_fault_violation_name(int violation);

#endif
