/*
 * Stop conditions over core events (stop-on.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "stop-on.h"

#include <errno.h>
#include <string.h>

#include "ata/ata-device.h"
#include "controller/atalab-timing.h"

typedef enum StopKind {
    STOP_VIOLATION,             /* name: a rule, or NULL for any */
    STOP_COMMAND,               /* opcode */
    STOP_WRITE,                 /* name: a configuration register */
    STOP_FAULT,                 /* name: a rule id, or NULL for any */
} StopKind;

typedef struct StopCond {
    StopKind kind;
    char *name;
    uint8_t opcode;
} StopCond;

struct AtalabStopList {
    StopCond cond[ATALAB_STOP_MAX];
    unsigned n;
};

/* The timing rules of timing.c, then the data-port checks of ata-device.c. */
static const char *violation_name(unsigned i)
{
    return i < ATALAB_N_RULES ? atalab_rule_name(i)
                              : atalab_data_port_rule_name(i - ATALAB_N_RULES);
}

#define N_VIOLATIONS (ATALAB_N_RULES + ATALAB_N_DATA_PORT_RULES)

static bool violation_known(const char *name)
{
    unsigned i;

    for (i = 0; i < N_VIOLATIONS; i++) {
        if (!strcmp(violation_name(i), name)) {
            return true;
        }
    }
    return false;
}

const char *atalab_violation_names(void)
{
    static gsize once;
    static const char *names;

    if (g_once_init_enter(&once)) {
        GString *s = g_string_new(NULL);
        unsigned i;

        for (i = 0; i < N_VIOLATIONS; i++) {
            g_string_append_printf(s, "%s%s", i ? ", " : "",
                                   violation_name(i));
        }
        names = g_string_free(s, FALSE);
        g_once_init_leave(&once, 1);
    }
    return names;
}

/* An opcode: 0x00..0xff in C notation (decimal, 0x hex, 0 octal). */
static bool parse_opcode(const char *text, uint8_t *op)
{
    char *end;
    guint64 v;

    if (!text || !g_ascii_isdigit(*text)) {
        return false;
    }
    errno = 0;
    v = g_ascii_strtoull(text, &end, 0);
    if (errno || *end || v > 0xff) {
        return false;
    }
    *op = v;
    return true;
}

static bool parse_one(const char *text, const AtalabPersonality *p,
                      StopCond *cond, char **err)
{
    g_auto(GStrv) kv = g_strsplit(text, "=", 2);
    const char *key = kv[0];
    const char *arg = kv[1];

    *cond = (StopCond) { 0 };
    if (!strcmp(key, "violation")) {
        if (arg && !violation_known(arg)) {
            *err = g_strdup_printf("stop-on: unknown rule '%s' (known: %s)",
                                   arg, atalab_violation_names());
            return false;
        }
        cond->kind = STOP_VIOLATION;
        cond->name = g_strdup(arg);
        return true;
    }
    if (!strcmp(key, "cmd")) {
        if (!parse_opcode(arg, &cond->opcode)) {
            *err = g_strdup_printf("stop-on: cmd wants an opcode 0x00..0xff, "
                                   "got '%s'", arg ? arg : "");
            return false;
        }
        cond->kind = STOP_COMMAND;
        return true;
    }
    if (!strcmp(key, "write")) {
        if (!arg || !*arg || (p && !atalab_personality_reg(p, arg))) {
            *err = g_strdup_printf("stop-on: write wants a register of model "
                                   "%s, got '%s'", p ? p->name : "(any)",
                                   arg ? arg : "");
            return false;
        }
        cond->kind = STOP_WRITE;
        cond->name = g_ascii_strup(arg, -1);
        return true;
    }
    if (!strcmp(key, "fault")) {
        /* any rule, or the rule with this id (docs/faults.md) */
        if (arg && !*arg) {
            *err = g_strdup("stop-on: fault wants a rule id after '='");
            return false;
        }
        cond->kind = STOP_FAULT;
        cond->name = g_strdup(arg);
        return true;
    }
    *err = g_strdup_printf("stop-on: unknown event '%s' (known: "
                           "violation[=RULE], cmd=OPCODE, write=REGISTER, "
                           "fault[=RULE-ID])", key);
    return false;
}

AtalabStopList *atalab_stop_list_parse(const char *text,
                                       const AtalabPersonality *p,
                                       char **err)
{
    g_auto(GStrv) items = g_strsplit(text ? text : "", ";", -1);
    AtalabStopList *l = g_new0(AtalabStopList, 1);
    unsigned i;

    for (i = 0; items[i]; i++) {
        if (!*items[i] || !strcmp(items[i], "none")) {
            continue;
        }
        if (l->n == ATALAB_STOP_MAX) {
            *err = g_strdup_printf("stop-on: more than %d conditions",
                                   ATALAB_STOP_MAX);
            atalab_stop_list_free(l);
            return NULL;
        }
        if (!parse_one(items[i], p, &l->cond[l->n], err)) {
            atalab_stop_list_free(l);
            return NULL;
        }
        l->n++;
    }
    return l;
}

void atalab_stop_list_free(AtalabStopList *l)
{
    unsigned i;

    if (!l) {
        return;
    }
    for (i = 0; i < l->n; i++) {
        g_free(l->cond[i].name);
    }
    g_free(l);
}

unsigned atalab_stop_list_len(const AtalabStopList *l)
{
    return l ? l->n : 0;
}

static bool cond_matches(const StopCond *cond, const AtalabPersonality *p,
                         const AtalabEvent *ev)
{
    const AtalabConfigReg *r;

    switch (cond->kind) {
    case STOP_VIOLATION:
        return ev->kind == ATALAB_EVENT_VIOLATION &&
               (!cond->name || !strcmp(cond->name, ev->name));
    case STOP_COMMAND:
        return ev->kind == ATALAB_EVENT_COMMAND && ev->value == cond->opcode;
    case STOP_WRITE:
        if (ev->kind != ATALAB_EVENT_CONFIG_WRITE || !p) {
            return false;
        }
        r = atalab_personality_reg(p, cond->name);
        return r && ev->addr < r->offset + r->size &&
               ev->addr + ev->size > r->offset;
    case STOP_FAULT:
        return ev->kind == ATALAB_EVENT_FAULT &&
               (!cond->name || !strcmp(cond->name, ev->name));
    }
    return false;
}

bool atalab_stop_list_matches(const AtalabStopList *l,
                              const AtalabPersonality *p,
                              const AtalabEvent *ev)
{
    unsigned i;

    for (i = 0; l && i < l->n; i++) {
        if (cond_matches(&l->cond[i], p, ev)) {
            return true;
        }
    }
    return false;
}

void atalab_event_describe(const AtalabEvent *ev, GString *out)
{
    switch (ev->kind) {
    case ATALAB_EVENT_VIOLATION:
        g_string_append_printf(out, "violation %s ata%u d%d", ev->name,
                               ev->channel, ev->drive & 1);
        break;
    case ATALAB_EVENT_COMMAND:
        g_string_append_printf(out, "cmd 0x%02x ata%u d%d", ev->value,
                               ev->channel, ev->drive & 1);
        break;
    case ATALAB_EVENT_CONFIG_WRITE:
        g_string_append_printf(out, "write cfg 0x%02x %u 0x%0*x", ev->addr,
                               ev->size, (int)ev->size * 2, ev->value);
        break;
    case ATALAB_EVENT_FAULT:
        g_string_append_printf(out, "fault %s ata%u d%d cmd 0x%02x",
                               ev->name, ev->channel, ev->drive & 1,
                               ev->value);
        break;
    }
}
