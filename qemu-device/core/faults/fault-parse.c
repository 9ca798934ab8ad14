/*
 * atalab emulator core: the text form of fault rules (docs/faults.md,
 * "Rule files").  One rule a line:
 *
 *     KIND [key=value ...]        # comment
 *
 * Every key and value is checked; an error names the column of the token
 * at fault.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fault-internal.h"

static const char *const kind_names[ATALAB_FAULT_N_KINDS] = {
    [ATALAB_FAULT_UNC] = "unc",
    [ATALAB_FAULT_AMNF] = "amnf",
    [ATALAB_FAULT_IDNF] = "idnf",
    [ATALAB_FAULT_ABRT] = "abrt",
    [ATALAB_FAULT_WRITE_FAULT] = "write-fault",
    [ATALAB_FAULT_DF] = "df",
    [ATALAB_FAULT_ICRC] = "icrc",
    [ATALAB_FAULT_TIMEOUT] = "timeout",
    [ATALAB_FAULT_LOST_IRQ] = "lost-irq",
    [ATALAB_FAULT_SPURIOUS_IRQ] = "spurious-irq",
    [ATALAB_FAULT_BM_ERROR] = "bm-error",
    [ATALAB_FAULT_PROTOCOL] = "protocol",
    [ATALAB_FAULT_LATENCY] = "latency",
    [ATALAB_FAULT_RESET_FAIL] = "reset-fail",
    [ATALAB_FAULT_REMOVE] = "remove",
    [ATALAB_FAULT_CORRUPT] = "corrupt",
    [ATALAB_FAULT_POWER_CUT] = "power-cut",
    [ATALAB_FAULT_SENSE] = "sense",
    [ATALAB_FAULT_IDENTIFY_DATA] = "identify-data",
    [ATALAB_FAULT_END_STATUS] = "end-status",
};

static const char *const class_names[ATALAB_N_CLASSES] = {
    [ATALAB_CLASS_READ] = "read",
    [ATALAB_CLASS_WRITE] = "write",
    [ATALAB_CLASS_FLUSH] = "flush",
    [ATALAB_CLASS_IDENTIFY] = "identify",
    [ATALAB_CLASS_OTHER] = "other",
};

static const char *const violation_names[] = {
    [ATALAB_PROTO_DRQ_COUNT] = "drq-count",
    [ATALAB_PROTO_STATUS_PHASE] = "status-phase",
    [ATALAB_PROTO_IRQ_EARLY] = "irq-early",
};

const char *atalab_fault_kind_name(AtalabFaultKind kind)
{
    return kind < ATALAB_FAULT_N_KINDS ? kind_names[kind] : "?";
}

const char *atalab_cmd_class_name(AtalabCmdClass cls)
{
    return cls < ATALAB_N_CLASSES ? class_names[cls] : "?";
}

const char *atalab_fault_violation_name(int v)
{
    return v >= 0 && v < (int)G_N_ELEMENTS(violation_names) ?
           violation_names[v] : "?";
}

typedef struct Parser {
    const char *where;
    unsigned line;
    const char *text;           /* the whole line, for columns */
    char **err;
} Parser;

static bool fail(Parser *p, const char *at, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

static bool fail(Parser *p, const char *at, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    *p->err = g_strdup_printf("%s:%u:%u: %s", p->where, p->line,
                              (unsigned)(at - p->text) + 1, msg);
    g_free(msg);
    return false;
}

/* An unsigned number (decimal, 0x hex); the whole string. */
static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;

    if (!*s || *s == '-' || *s == '+') {
        return false;
    }
    errno = 0;
    *v = g_ascii_strtoull(s, &end, 0);
    return !errno && !*end;
}

/* NUMBER[ns|us|ms|s], default ms; or "forever" when allowed. */
static bool parse_duration(const char *s, bool forever_ok, int64_t *ns)
{
    static const struct {
        const char *suffix;
        int64_t scale;
    } units[] = {
        { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
    };
    char *end;
    double v;
    unsigned i;

    if (forever_ok && !strcmp(s, "forever")) {
        *ns = ATALAB_FAULT_NEVER_ENDS;
        return true;
    }
    if (!g_ascii_isdigit(*s)) {
        return false;
    }
    v = g_ascii_strtod(s, &end);
    if (!*end) {
        *ns = (int64_t)(v * 1000000);
        return v <= 1e12;
    }
    for (i = 0; i < G_N_ELEMENTS(units); i++) {
        if (!strcmp(end, units[i].suffix)) {
            *ns = (int64_t)(v * units[i].scale);
            return v * units[i].scale <= 9e18;
        }
    }
    return false;
}

static int lookup(const char *const *names, unsigned n, const char *s)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        if (names[i] && !strcmp(names[i], s)) {
            return i;
        }
    }
    return -1;
}

static bool parse_lba(Parser *p, const char *v, AtalabFaultRule *r)
{
    char *copy = g_strdup(v), *sep;
    uint64_t a, b;
    bool ok;

    sep = strpbrk(copy, "-+");
    if (!sep) {
        ok = parse_u64(copy, &a);
        b = a;
    } else {
        char op = *sep;

        *sep = 0;
        ok = parse_u64(copy, &a) && parse_u64(sep + 1, &b);
        if (ok && op == '+') {
            ok = b > 0 && a + b - 1 >= a;
            b = a + b - 1;
        }
    }
    g_free(copy);
    if (!ok || b < a) {
        return fail(p, v, "lba wants N, N-M (M >= N) or N+COUNT, got '%s'",
                    v);
    }
    r->has_lba = true;
    r->lba_first = a;
    r->lba_last = b;
    return true;
}

static bool parse_trigger(Parser *p, const char *v, AtalabFaultRule *r)
{
    const char *arg = strchr(v, ':');
    size_t len = arg ? (size_t)(arg - v) : strlen(v);
    double prob;
    char *end;

    if (!strcmp(v, "always")) {
        r->trigger = ATALAB_TRIGGER_ALWAYS;
        return true;
    }
    if (!arg) {
        return fail(p, v, "on wants always, nth:N, after:N, every:K, "
                    "prob:P or time:T0-T1, got '%s'", v);
    }
    arg++;
    if (len == 3 && !strncmp(v, "nth", 3)) {
        r->trigger = ATALAB_TRIGGER_NTH;
    } else if (len == 5 && !strncmp(v, "after", 5)) {
        r->trigger = ATALAB_TRIGGER_AFTER;
    } else if (len == 5 && !strncmp(v, "every", 5)) {
        r->trigger = ATALAB_TRIGGER_EVERY;
    } else if (len == 4 && !strncmp(v, "prob", 4)) {
        prob = g_ascii_strtod(arg, &end);
        if (!*arg || *end || !(prob > 0 && prob <= 1)) {
            return fail(p, arg, "prob wants a probability in (0, 1], "
                        "got '%s'", arg);
        }
        r->trigger = ATALAB_TRIGGER_PROB;
        r->p_scaled = (uint64_t)(prob * 4294967296.0);
        return true;
    } else if (len == 4 && !strncmp(v, "time", 4)) {
        char *copy = g_strdup(arg), *dash = strchr(copy, '-');
        bool ok = dash != NULL;

        if (ok) {
            *dash = 0;
            ok = parse_duration(copy, false, &r->t0) &&
                 parse_duration(dash + 1, true, &r->t1) && r->t1 >= r->t0;
        }
        g_free(copy);
        if (!ok) {
            return fail(p, arg, "time wants T0-T1 (durations such as 1500ms "
                        "or 2s; T1 may be 'forever'), got '%s'", arg);
        }
        r->trigger = ATALAB_TRIGGER_WINDOW;
        return true;
    } else {
        return fail(p, v, "unknown trigger '%.*s' (always, nth, after, "
                    "every, prob, time)", (int)len, v);
    }
    if (!parse_u64(arg, &r->n) || (r->n == 0 &&
                                   r->trigger != ATALAB_TRIGGER_AFTER)) {
        return fail(p, arg, "%.*s wants a positive count, got '%s'",
                    (int)len, v, arg);
    }
    return true;
}

/* KEY/ASC/ASCQ, each one or two hex digits, as SPC writes them: 3/11/00 */
static bool parse_sense(const char *v, unsigned part[3])
{
    unsigned i;

    for (i = 0; i < 3; i++) {
        size_t n = strspn(v, "0123456789abcdefABCDEF");

        if (n < 1 || n > 2 || v[n] != (i < 2 ? '/' : '\0')) {
            return false;
        }
        part[i] = g_ascii_strtoull(v, NULL, 16);
        v += n + 1;
    }
    return true;
}

static bool parse_pair(Parser *p, const char *key, const char *v,
                       AtalabFaultRule *r, bool *times_set)
{
    uint64_t n;
    int i;

    if (!*v) {
        return fail(p, v, "%s has no value", key);
    }
    if (!strcmp(key, "id")) {
        if (strlen(v) >= ATALAB_FAULT_ID_LEN) {
            return fail(p, v, "id longer than %d characters",
                        ATALAB_FAULT_ID_LEN - 1);
        }
        for (i = 0; v[i]; i++) {
            if (!g_ascii_isalnum(v[i]) && !strchr("-_.", v[i])) {
                return fail(p, v + i, "id may hold letters, digits and "
                            "'-_.' only");
            }
        }
        g_strlcpy(r->id, v, sizeof(r->id));
    } else if (!strcmp(key, "drive")) {
        if (!strcmp(v, "any")) {
            r->drive = -1;
        } else if (!parse_u64(v, &n) || n > 3) {
            return fail(p, v, "drive wants 0-3 or any, got '%s'", v);
        } else {
            r->drive = n;
        }
    } else if (!strcmp(key, "cmd")) {
        if (!parse_u64(v, &n) || n > 0xFF) {
            return fail(p, v, "cmd wants an opcode (0x00-0xff), got '%s'",
                        v);
        }
        r->opcode = n;
    } else if (!strcmp(key, "cdb")) {
        if (!parse_u64(v, &n) || n > 0xFF) {
            return fail(p, v, "cdb wants a packet's operation code "
                        "(0x00-0xff), got '%s'", v);
        }
        r->packet_op = n;
    } else if (!strcmp(key, "sense")) {
        unsigned part[3];

        if (!parse_sense(v, part) || part[0] > 0xF) {
            return fail(p, v, "sense wants KEY/ASC/ASCQ in hex (e.g. "
                        "3/11/00), got '%s'", v);
        }
        r->has_sense = true;
        r->sense_key = part[0];
        r->asc = part[1];
        r->ascq = part[2];
    } else if (!strcmp(key, "class")) {
        i = lookup(class_names, ATALAB_N_CLASSES, v);
        if (!strcmp(v, "any")) {
            r->cls = -1;
        } else if (i < 0) {
            return fail(p, v, "class wants read, write, flush, identify, "
                        "other or any, got '%s'", v);
        } else {
            r->cls = i;
        }
    } else if (!strcmp(key, "lba")) {
        return parse_lba(p, v, r);
    } else if (!strcmp(key, "on")) {
        return parse_trigger(p, v, r);
    } else if (!strcmp(key, "times")) {
        if (!strcmp(v, "once")) {
            r->times = 1;
        } else if (!strcmp(v, "forever")) {
            r->times = ATALAB_FAULT_FOREVER;
        } else if (!parse_u64(v, &r->times) || !r->times) {
            return fail(p, v, "times wants once, a positive number or "
                        "forever, got '%s'", v);
        }
        *times_set = true;
    } else if (!strcmp(key, "delay") || !strcmp(key, "for")) {
        if (!parse_duration(v, !strcmp(key, "for"), &r->duration) ||
            r->duration <= 0) {
            return fail(p, v, "%s wants a duration such as 500ms or 2s%s, "
                        "got '%s'", key, strcmp(key, "for") ? "" :
                        " (or forever)", v);
        }
    } else if (!strcmp(key, "violation")) {
        i = lookup(violation_names, G_N_ELEMENTS(violation_names), v);
        if (i < 0) {
            return fail(p, v, "violation wants drq-count, status-phase or "
                        "irq-early, got '%s'", v);
        }
        r->violation = i;
    } else if (!strcmp(key, "bits")) {
        if (!parse_u64(v, &n) || !n || n > 4096) {
            return fail(p, v, "bits wants 1-4096 bit flips per sector, "
                        "got '%s'", v);
        }
        r->bits = n;
    } else if (!strcmp(key, "word")) {
        if (!parse_u64(v, &n) || n > 254) {
            return fail(p, v, "word wants an IDENTIFY word 0-254 (255 is "
                        "the checksum), got '%s'", v);
        }
        r->word = n;
    } else if (!strcmp(key, "value")) {
        if (!parse_u64(v, &n) || n > 0xFFFF) {
            return fail(p, v, "value wants a 16-bit word (0-0xffff), got "
                        "'%s'", v);
        }
        r->value = n;
    } else if (!strcmp(key, "status") || !strcmp(key, "error")) {
        if (!parse_u64(v, &n) || n > 0xFF) {
            return fail(p, v, "%s wants a register value 0x00-0xff, got "
                        "'%s'", key, v);
        }
        if (!strcmp(key, "status")) {
            r->status_value = n;
        } else {
            r->error_value = n;
        }
    } else if (!strcmp(key, "dir")) {
        if (strcmp(v, "read") && strcmp(v, "write")) {
            return fail(p, v, "dir wants read or write, got '%s'", v);
        }
        r->on_write = !strcmp(v, "write");
    } else if (!strcmp(key, "irq")) {
        if (strcmp(v, "yes") && strcmp(v, "no")) {
            return fail(p, v, "irq wants yes or no, got '%s'", v);
        }
        r->irq = !strcmp(v, "yes");
    } else if (!strcmp(key, "loss")) {
        double loss;
        char *end;

        loss = g_ascii_strtod(v, &end);
        if (*end || !(loss >= 0 && loss <= 1)) {
            return fail(p, v, "loss wants a probability in [0, 1], got "
                        "'%s'", v);
        }
        r->loss_scaled = (uint64_t)(loss * 4294967296.0);
    } else {
        return fail(p, key, "unknown key '%s'", key);
    }
    return true;
}

/* Keys that make sense for a kind, and the classes it can hit. */
static bool check_rule(Parser *p, const char *kind_at, AtalabFaultRule *r)
{
    bool reads = r->cls == -1 || r->cls == ATALAB_CLASS_READ;
    bool writes = r->cls == -1 || r->cls == ATALAB_CLASS_WRITE;

    switch (r->kind) {
    case ATALAB_FAULT_UNC:
    case ATALAB_FAULT_AMNF:
        if (!reads) {
            return fail(p, kind_at, "%s happens on reads: class must be "
                        "read or any", kind_names[r->kind]);
        }
        break;
    case ATALAB_FAULT_WRITE_FAULT:
        if (!writes) {
            return fail(p, kind_at, "write-fault happens on writes: class "
                        "must be write or any");
        }
        break;
    case ATALAB_FAULT_LATENCY:
        if (!r->duration) {
            return fail(p, kind_at, "latency needs delay=DURATION");
        }
        break;
    case ATALAB_FAULT_CORRUPT:
        if (!r->bits) {
            r->bits = 1;
        }
        if ((r->on_write && !writes) || (!r->on_write && !reads)) {
            return fail(p, kind_at, "corrupt dir=%s: class must be %s or "
                        "any", r->on_write ? "write" : "read",
                        r->on_write ? "write" : "read");
        }
        break;
    case ATALAB_FAULT_IDENTIFY_DATA:
        if (r->cls >= 0 && r->cls != ATALAB_CLASS_IDENTIFY) {
            return fail(p, kind_at, "identify-data changes IDENTIFY data: "
                        "class must be identify or any");
        }
        r->cls = ATALAB_CLASS_IDENTIFY;
        if (r->value >= 0 && (r->word < 0 || r->bits)) {
            return fail(p, kind_at, "identify-data value= needs word= and "
                        "no bits=");
        }
        if (r->word >= 0 && r->bits > 16) {
            return fail(p, kind_at, "identify-data word= has 16 bits to "
                        "flip, bits=%u", r->bits);
        }
        if (r->value < 0 && !r->bits) {
            r->bits = 1;
        }
        break;
    case ATALAB_FAULT_RESET_FAIL:
        if (r->opcode >= 0 || r->cls >= 0 || r->has_lba) {
            return fail(p, kind_at, "reset-fail matches software resets, "
                        "not commands: no cmd, class or lba");
        }
        if (!r->duration) {
            r->duration = ATALAB_FAULT_NEVER_ENDS;
        }
        break;
    case ATALAB_FAULT_REMOVE:
        if (!r->duration) {
            r->duration = ATALAB_FAULT_NEVER_ENDS;
        }
        break;
    default:
        break;
    }
    if (r->kind == ATALAB_FAULT_SENSE && !r->has_sense) {
        return fail(p, kind_at, "sense needs sense=KEY/ASC/ASCQ (e.g. "
                    "3/11/00)");
    }
    if (r->has_sense && r->kind != ATALAB_FAULT_SENSE) {
        return fail(p, kind_at, "sense= is for sense rules");
    }
    if (r->kind == ATALAB_FAULT_END_STATUS && r->status_value < 0) {
        return fail(p, kind_at, "end-status needs status=0xSS (and "
                    "error=0xEE, default 0x00)");
    }
    if ((r->status_value >= 0 || r->error_value >= 0) &&
        r->kind != ATALAB_FAULT_END_STATUS) {
        return fail(p, kind_at, "status= and error= are for end-status "
                    "rules");
    }
    if ((r->word >= 0 || r->value >= 0) &&
        r->kind != ATALAB_FAULT_IDENTIFY_DATA) {
        return fail(p, kind_at, "word= and value= are for identify-data "
                    "rules");
    }
    if (r->bits && r->kind != ATALAB_FAULT_CORRUPT &&
        r->kind != ATALAB_FAULT_IDENTIFY_DATA) {
        return fail(p, kind_at, "bits= is for corrupt and identify-data "
                    "rules");
    }
    if (r->violation >= 0 && r->kind != ATALAB_FAULT_PROTOCOL) {
        return fail(p, kind_at, "violation= is for protocol rules");
    }
    if (r->kind == ATALAB_FAULT_PROTOCOL && r->violation < 0) {
        return fail(p, kind_at, "protocol needs violation=drq-count, "
                    "status-phase or irq-early");
    }
    if (r->duration && r->kind != ATALAB_FAULT_LATENCY &&
        r->kind != ATALAB_FAULT_RESET_FAIL && r->kind != ATALAB_FAULT_REMOVE) {
        return fail(p, kind_at, "delay=/for= are for latency, reset-fail "
                    "and remove rules");
    }
    return true;
}

bool atalab_fault_parse_rule(const char *text, const char *where,
                             unsigned line, AtalabFaultRule *r, bool *empty,
                             char **err)
{
    /*
     * Tokens are cut in place in a copy of the line, so a pointer into the
     * copy gives the column in the line.
     */
    char *buf = g_strdup(text), *s = buf, *kind_at = NULL;
    Parser p = { where, line, buf, err };
    bool times_set = false, ok = true;
    int kind;

    memset(r, 0, sizeof(*r));
    r->drive = r->opcode = r->packet_op = r->cls = r->violation = -1;
    r->word = r->value = r->status_value = r->error_value = -1;
    r->trigger = ATALAB_TRIGGER_ALWAYS;
    r->irq = true;
    r->loss_scaled = 1ull << 31;               /* half */
    *empty = true;
    while (ok) {
        char *tok, *eq;

        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
            s++;
        }
        if (!*s || *s == '#') {
            break;
        }
        tok = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n' &&
               *s != '#') {
            s++;
        }
        if (*s == '#') {
            *s = 0;             /* a comment right after a token: done */
        } else if (*s) {
            *s++ = 0;
        }
        if (*empty) {
            *empty = false;
            kind_at = tok;
            kind = lookup(kind_names, ATALAB_FAULT_N_KINDS, tok);
            if (kind < 0) {
                ok = fail(&p, tok, "unknown fault kind '%s'", tok);
            }
            r->kind = kind;
            continue;
        }
        eq = strchr(tok, '=');
        if (!eq) {
            ok = fail(&p, tok, "expected key=value, got '%s'", tok);
            break;
        }
        *eq = 0;
        ok = parse_pair(&p, tok, eq + 1, r, &times_set);
    }
    if (ok && !*empty && !times_set) {
        r->times = r->trigger == ATALAB_TRIGGER_NTH ? 1 :
                   ATALAB_FAULT_FOREVER;
    }
    if (ok && !*empty) {
        ok = check_rule(&p, kind_at, r);
    }
    g_free(buf);
    return ok;
}
