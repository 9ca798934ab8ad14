/*
 * atalab trace reader (trace-read.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-read.h"

#define MAX_TOKENS      (ATALAB_TRACE_MAX_FIELDS + 8)

void atalab_trace_record_clear(AtalabTraceRecord *rec)
{
    g_free(rec->buf);
    g_free(rec->text);
    memset(rec, 0, sizeof(*rec));
    rec->channel = rec->unit = -1;
}

/* ---- value types ------------------------------------------------------ */

static bool is_dec(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

static bool is_hex(const char *s)
{
    return s[0] == '0' && s[1] == 'x' && s[2] &&
           strspn(s + 2, "0123456789abcdef") == strlen(s + 2);
}

/* Is the word one of the '|'-separated alternatives (len bytes at alt)? */
static bool one_of(const char *alt, size_t len, const char *word)
{
    size_t n = strlen(word);
    const char *p = alt, *end = alt + len;

    while (p < end) {
        size_t k = strcspn(p, "|");

        if (k > (size_t)(end - p)) {
            k = end - p;
        }
        if (k == n && !strncmp(p, word, n)) {
            return true;
        }
        p += k + 1;
    }
    return false;
}

/* Does value match TYPE (len bytes at type; trace-records.h)? */
static bool type_matches(const char *type, size_t len, const char *value)
{
#define IS(t) (len == strlen(t) && !strncmp(type, t, len))
    if (IS("dec")) {
        return is_dec(value);
    }
    if (IS("int")) {
        return is_dec(value[0] == '-' ? value + 1 : value);
    }
    if (IS("hex")) {
        return is_hex(value);
    }
    if (IS("num")) {
        return is_dec(value) || is_hex(value);
    }
    if (IS("bool")) {
        return !strcmp(value, "0") || !strcmp(value, "1");
    }
    if (IS("word")) {
        return value[0] != '\0';
    }
    if (IS("HEX")) {
        return is_hex(value);
    }
    if (IS("WORD")) {
        return value[0] != '\0';
    }
#undef IS
    return one_of(type, len, value);
}

/* ---- one form --------------------------------------------------------- */

/* The next space-separated item of a spec: *p advances past it. */
static bool spec_next(const char **p, const char **item, size_t *len)
{
    *p += strspn(*p, " ");
    if (!**p) {
        return false;
    }
    *item = *p;
    *len = strcspn(*p, " ");
    *p += *len;
    return true;
}

static bool check_words(const AtalabTraceForm *f, char **words, unsigned n,
                        char **why)
{
    const char *p = f->words, *item;
    size_t len;
    unsigned w = 0;

    while (spec_next(&p, &item, &len)) {
        bool optional = item[len - 1] == '?';
        size_t plen = len - optional;

        if (plen == 4 && !strncmp(item, "REST", 4)) {
            w = n;
            break;
        }
        if (w < n && type_matches(item, plen, words[w])) {
            w++;
        } else if (!optional) {
            *why = w < n ?
                g_strdup_printf("'%s' where %.*s belongs", words[w],
                                (int)plen, item) :
                g_strdup_printf("%.*s missing", (int)plen, item);
            return false;
        }
    }
    if (w < n) {
        *why = g_strdup_printf("unexpected word '%s'", words[w]);
        return false;
    }
    return true;
}

/* The spec item of key in keys, or NULL. */
static const char *spec_key(const char *keys, const char *key, size_t *len)
{
    const char *p = keys, *item;
    size_t n = strlen(key);

    while (spec_next(&p, &item, len)) {
        if (!strncmp(item, key, n) && item[n] == ':') {
            return item;
        }
    }
    return NULL;
}

static bool check_keys(const char *keys, const AtalabTraceRecord *rec,
                       bool strict, char **why)
{
    const char *p = keys, *item;
    size_t len;
    unsigned i, j;

    for (i = 0; i < rec->n_fields; i++) {
        const AtalabTraceField *fl = &rec->field[i];
        const char *spec;

        if (!fl->key) {
            continue;
        }
        for (j = 0; j < i; j++) {
            if (rec->field[j].key && !strcmp(rec->field[j].key, fl->key)) {
                *why = g_strdup_printf("%s= twice", fl->key);
                return false;
            }
        }
        spec = spec_key(keys, fl->key, &len);
        if (!spec) {
            if (strict) {
                *why = g_strdup_printf("unknown key %s=", fl->key);
                return false;
            }
            continue;
        }
        spec += strlen(fl->key) + 1;
        len -= strlen(fl->key) + 1;
        len -= spec[len - 1] == '?';
        if (!type_matches(spec, len, fl->value)) {
            *why = g_strdup_printf("%s=%s is not %.*s", fl->key, fl->value,
                                   (int)len, spec);
            return false;
        }
    }
    while (spec_next(&p, &item, &len)) {
        g_autofree char *key = NULL;

        if (item[len - 1] == '?') {
            continue;
        }
        key = g_strndup(item, strcspn(item, ":"));
        if (!atalab_trace_get(rec, key)) {
            *why = g_strdup_printf("%s= missing", key);
            return false;
        }
    }
    return true;
}

/*
 * tok[from..n) into rec->field, the words also into words[]; val[i] is the
 * value of a key=value token (its '=' already cut), NULL for a word.
 * false (and *why) when there are more than a record holds.
 */
static bool split_fields(AtalabTraceRecord *rec, char **tok, char **val,
                         unsigned from, unsigned n, char **words,
                         unsigned *n_words, char **why)
{
    unsigned i;

    rec->n_fields = 0;
    *n_words = 0;
    if (n > from + ATALAB_TRACE_MAX_FIELDS) {
        *why = g_strdup_printf("more than %d fields after the record's head",
                               ATALAB_TRACE_MAX_FIELDS);
        return false;
    }
    for (i = from; i < n; i++) {
        AtalabTraceField *fl = &rec->field[rec->n_fields++];

        fl->key = val[i] ? tok[i] : NULL;
        fl->value = val[i] ? val[i] : tok[i];
        if (!val[i]) {
            words[(*n_words)++] = tok[i];
        }
    }
    return true;
}

/* ---- records ---------------------------------------------------------- */

static bool parse_source(AtalabTraceRecord *rec, const char *tok,
                         char *base, size_t base_len)
{
    static const char *const numbered[] = { "ata", "ctl", "irq" };
    unsigned i;

    if (!strcmp(tok, "cfg") || !strcmp(tok, "bm")) {
        g_strlcpy(base, tok, base_len);
        g_strlcpy(rec->source, tok, sizeof(rec->source));
        return true;
    }
    for (i = 0; i < G_N_ELEMENTS(numbered); i++) {
        if (strlen(tok) == 4 && !strncmp(tok, numbered[i], 3) &&
            (tok[3] == '0' || tok[3] == '1')) {
            g_strlcpy(base, numbered[i], base_len);
            g_strlcpy(rec->source, tok, sizeof(rec->source));
            rec->channel = tok[3] - '0';
            return true;
        }
    }
    return false;
}

static bool parse_access(AtalabTraceRecord *rec, char **tok, char **val,
                         unsigned n, bool strict, char **why)
{
    char *words[MAX_TOKENS];
    unsigned n_words;
    size_t digits;

    if (n < 6) {
        *why = g_strdup("an access needs offset, size and value");
        return false;
    }
    rec->kind = ATALAB_REC_ACCESS;
    rec->form = &atalab_trace_forms[ATALAB_REC_ACCESS];
    rec->write = tok[2][0] == 'w';
    if (!is_hex(tok[3]) || strlen(tok[3]) > 10) {
        *why = g_strdup_printf("offset '%s' is not 0x and hex digits", tok[3]);
        return false;
    }
    rec->offset = strtoul(tok[3], NULL, 16);
    if (strcmp(tok[4], "1") && strcmp(tok[4], "2") && strcmp(tok[4], "4")) {
        *why = g_strdup_printf("size '%s' is not 1, 2 or 4", tok[4]);
        return false;
    }
    rec->size = tok[4][0] - '0';
    digits = strlen(tok[5]) - 2;
    if (!is_hex(tok[5]) || digits != rec->size * 2) {
        *why = g_strdup_printf("value '%s' is not 0x and %u hex digits",
                               tok[5], rec->size * 2);
        return false;
    }
    rec->value = strtoul(tok[5], NULL, 16);
    if (!strcmp(rec->source, "bm")) {
        rec->channel = rec->offset >= 8;
    }
    if (!split_fields(rec, tok, val, 6, n, words, &n_words, why)) {
        return false;
    }
    if (n_words) {
        *why = g_strdup_printf("unexpected word '%s'", words[0]);
        return false;
    }
    return check_keys(rec->form->keys, rec, strict, why);
}

static bool try_form(AtalabTraceRecord *rec, const AtalabTraceForm *f,
                     char **tok, char **val, unsigned n, bool strict,
                     char **why)
{
    char *words[MAX_TOKENS];
    unsigned at = f->kind ? 3 : 2, n_words;
    const char *unit = f->unit == ATALAB_UNIT_DEV ? "d" : "ch";

    rec->unit = -1;
    if (f->unit != ATALAB_UNIT_NONE) {
        size_t ul = strlen(unit);

        if (at >= n || strlen(tok[at]) != ul + 1 ||
            strncmp(tok[at], unit, ul) ||
            (tok[at][ul] != '0' && tok[at][ul] != '1')) {
            *why = g_strdup_printf("%s0 or %s1 missing", unit, unit);
            return false;
        }
        rec->unit = tok[at][ul] - '0';
        if (f->unit == ATALAB_UNIT_CH) {
            rec->channel = rec->unit;
        }
        at++;
    }
    if (!split_fields(rec, tok, val, at, n, words, &n_words, why)) {
        return false;
    }
    if (!check_words(f, words, n_words, why) ||
        !check_keys(f->keys, rec, strict, why)) {
        return false;
    }
    rec->form = f;
    rec->kind = f - atalab_trace_forms;
    return true;
}

static bool parse_event(AtalabTraceRecord *rec, const char *base,
                        char **tok, char **val, unsigned n, bool strict,
                        char **why)
{
    const char *kind = strcmp(base, "irq") && n > 2 ? tok[2] : NULL;
    g_autofree char *first_why = NULL;
    const AtalabTraceForm *first = NULL;
    unsigned i, tried = 0;

    for (i = 0; i < ATALAB_REC_N; i++) {
        const AtalabTraceForm *f = &atalab_trace_forms[i];
        char *w = NULL;

        if (strcmp(f->source, base) || (f->kind == NULL) != (kind == NULL) ||
            (kind && strcmp(f->kind, kind))) {
            continue;
        }
        if (try_form(rec, f, tok, val, n, strict, &w)) {
            return true;
        }
        if (!tried++) {
            first = f;
            first_why = w;
        } else {
            g_free(w);
        }
    }
    if (!tried) {
        *why = g_strdup_printf("unknown record '%s %s'", tok[1],
                               kind ? kind : "");
    } else if (tried == 1) {
        *why = g_strdup_printf("%s %s: %s", tok[1], first->kind ?
                               first->kind : "", first_why);
    } else {
        *why = g_strdup_printf("%s %s matches none of its %u forms (as %s: "
                               "%s)", tok[1], kind ? kind : "", tried,
                               first->name, first_why);
    }
    return false;
}

bool atalab_trace_parse(const char *line, bool strict,
                        AtalabTraceRecord *rec, char **why)
{
    char *tok[MAX_TOKENS], *val[MAX_TOKENS], *p, *end;
    char base[8];
    unsigned n = 0;
    bool ok;

    memset(rec, 0, sizeof(*rec));
    rec->channel = rec->unit = -1;
    rec->text = g_strdup(line);
    rec->buf = g_strdup(line);
    for (p = rec->buf; ; p++) {
        if (n == MAX_TOKENS) {
            *why = g_strdup_printf("more than %d fields", MAX_TOKENS);
            goto fail;
        }
        tok[n++] = p;
        p = strchr(p, ' ');
        if (!p) {
            break;
        }
        *p = '\0';
    }
    for (unsigned i = 0; i < n; i++) {
        char *eq = i >= 2 ? strchr(tok[i], '=') : NULL;

        if (!tok[i][0]) {
            *why = g_strdup("empty field (two spaces, or one at an end)");
            goto fail;
        }
        if (eq == tok[i]) {
            *why = g_strdup_printf("'%s' has no key", tok[i]);
            goto fail;
        }
        val[i] = NULL;
        if (eq) {
            *eq = '\0';
            val[i] = eq + 1;
        }
    }
    if (n < 2) {
        *why = g_strdup("a record has a time and a source at least");
        goto fail;
    }
    errno = 0;
    rec->time = g_ascii_strtoll(tok[0], &end, 10);
    if (*end || errno || !is_dec(tok[0][0] == '-' ? tok[0] + 1 : tok[0])) {
        *why = g_strdup_printf("time '%s' is not a number", tok[0]);
        goto fail;
    }
    if (!parse_source(rec, tok[1], base, sizeof(base))) {
        *why = g_strdup_printf("unknown source '%s'", tok[1]);
        goto fail;
    }
    if (n >= 3 && strcmp(base, "irq") &&
        (!strcmp(tok[2], "r") || !strcmp(tok[2], "w"))) {
        ok = parse_access(rec, tok, val, n, strict, why);
    } else {
        ok = parse_event(rec, base, tok, val, n, strict, why);
    }
    if (ok) {
        return true;
    }
fail:
    atalab_trace_record_clear(rec);
    return false;
}

char *atalab_trace_format(const AtalabTraceRecord *rec)
{
    GString *s = g_string_new(NULL);
    const AtalabTraceForm *f = rec->form;
    unsigned i;

    g_string_append_printf(s, "%" PRId64 " %s", rec->time, rec->source);
    if (rec->kind == ATALAB_REC_ACCESS) {
        g_string_append_printf(s, " %c 0x%x %u 0x%0*x", rec->write ? 'w' : 'r',
                               rec->offset, rec->size, (int)rec->size * 2,
                               rec->value);
    } else {
        if (f->kind) {
            g_string_append_printf(s, " %s", f->kind);
        }
        if (f->unit != ATALAB_UNIT_NONE) {
            g_string_append_printf(s, " %s%d", f->unit == ATALAB_UNIT_DEV ?
                                   "d" : "ch", rec->unit);
        }
    }
    for (i = 0; i < rec->n_fields; i++) {
        const AtalabTraceField *fl = &rec->field[i];

        if (fl->key) {
            g_string_append_printf(s, " %s=%s", fl->key, fl->value);
        } else {
            g_string_append_printf(s, " %s", fl->value);
        }
    }
    return g_string_free(s, FALSE);
}

const char *atalab_trace_get(const AtalabTraceRecord *rec, const char *key)
{
    unsigned i;

    for (i = 0; i < rec->n_fields; i++) {
        if (rec->field[i].key && !strcmp(rec->field[i].key, key)) {
            return rec->field[i].value;
        }
    }
    return NULL;
}

bool atalab_trace_get_u64(const AtalabTraceRecord *rec, const char *key,
                          uint64_t *v)
{
    const char *s = atalab_trace_get(rec, key);

    if (!s || !(is_dec(s) || is_hex(s))) {
        return false;
    }
    *v = g_ascii_strtoull(s, NULL, is_hex(s) ? 16 : 10);
    return true;
}

bool atalab_trace_get_i64(const AtalabTraceRecord *rec, const char *key,
                          int64_t *v)
{
    const char *s = atalab_trace_get(rec, key);

    if (!s || !is_dec(s + (s[0] == '-'))) {
        return false;
    }
    *v = g_ascii_strtoll(s, NULL, 10);
    return true;
}

const char *atalab_trace_word(const AtalabTraceRecord *rec, unsigned i)
{
    unsigned k;

    for (k = 0; k < rec->n_fields; k++) {
        if (!rec->field[k].key && i-- == 0) {
            return rec->field[k].value;
        }
    }
    return NULL;
}

int atalab_trace_device(const AtalabTraceRecord *rec)
{
    const char *dev;

    if (rec->form && rec->form->unit == ATALAB_UNIT_DEV) {
        return rec->unit;
    }
    dev = atalab_trace_get(rec, "dev");
    return dev && (!strcmp(dev, "0") || !strcmp(dev, "1")) ? dev[0] - '0' :
           -1;
}

/* ---- files ------------------------------------------------------------ */

struct AtalabTraceFile {
    char *path;
    FILE *fp;
    bool strict;
    unsigned line;
    GPtrArray *header;          /* "KEY VALUE" */
    char *pending;              /* the first record line, read with the header */
    char *buf;
    size_t cap;
};

static void set_error(GError **err, const AtalabTraceFile *f, const char *msg)
{
    g_set_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s", f->path,
                f->line, msg);
}

/* The next line without its newline, or NULL at the end. */
static char *read_line(AtalabTraceFile *f)
{
    ssize_t n = getline(&f->buf, &f->cap, f->fp);

    if (n < 0) {
        return NULL;
    }
    f->line++;
    if (n && f->buf[n - 1] == '\n') {
        f->buf[n - 1] = '\0';
    }
    return f->buf;
}

static AtalabTraceFile *trace_start(AtalabTraceFile *f, GError **err)
{
    char *line;

    line = read_line(f);
    if (!line || strncmp(line, "# atalab-trace ", 15)) {
        f->line = 1;
        set_error(err, f, "not an atalab trace: the first line is not "
                  "'# atalab-trace 2' (traces/FORMAT.md)");
        goto fail;
    }
    if (strcmp(line + 15, "2")) {
        g_autofree char *m = g_strdup_printf("trace version %s; this reader "
                                             "reads version %d", line + 15,
                                             ATALAB_TRACE_VERSION);
        set_error(err, f, m);
        goto fail;
    }
    while ((line = read_line(f)) && line[0] == '#') {
        const char *kv = line + 1;

        if (*kv != ' ' || !kv[1] || kv[1] == ' ') {
            set_error(err, f, "a header line is '# KEY VALUE'");
            goto fail;
        }
        g_ptr_array_add(f->header, g_strdup(kv + 1));
    }
    if (line) {
        f->pending = g_strdup(line);
    }
    return f;
fail:
    atalab_trace_close(f);
    return NULL;
}

AtalabTraceFile *atalab_trace_open(const char *path, bool strict,
                                   GError **err)
{
    AtalabTraceFile *f = g_new0(AtalabTraceFile, 1);

    f->path = g_strdup(path);
    f->strict = strict;
    f->header = g_ptr_array_new_with_free_func(g_free);
    f->fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f->fp) {
        g_set_error(err, G_FILE_ERROR, g_file_error_from_errno(errno),
                    "%s: %s", path, g_strerror(errno));
        atalab_trace_close(f);
        return NULL;
    }
    return trace_start(f, err);
}

AtalabTraceFile *atalab_trace_open_stream(FILE *fp, const char *name,
                                          bool strict, GError **err)
{
    AtalabTraceFile *f = g_new0(AtalabTraceFile, 1);

    f->path = g_strdup(name);
    f->strict = strict;
    f->header = g_ptr_array_new_with_free_func(g_free);
    f->fp = fp;
    return trace_start(f, err);
}

const char *atalab_trace_path(const AtalabTraceFile *f)
{
    return f->path;
}

void atalab_trace_close(AtalabTraceFile *f)
{
    if (!f) {
        return;
    }
    if (f->fp && f->fp != stdin) {
        fclose(f->fp);
    }
    g_ptr_array_unref(f->header);
    g_free(f->pending);
    g_free(f->buf);
    g_free(f->path);
    g_free(f);
}

const char *atalab_trace_header_value(const GPtrArray *lines,
                                      const char *key)
{
    size_t n = strlen(key);
    unsigned i;

    for (i = 0; i < lines->len; i++) {
        const char *h = g_ptr_array_index(lines, i);

        if (!strncmp(h, key, n) && (h[n] == ' ' || !h[n])) {
            return h[n] ? h + n + 1 : h + n;
        }
    }
    return NULL;
}

const char *atalab_trace_times_lost(const GPtrArray *lines)
{
    if (!g_strcmp0(atalab_trace_header_value(lines, "normalized"), "yes")) {
        return "normalized to 0";
    }
    if (!g_strcmp0(atalab_trace_header_value(lines, "trace-time"),
                   "relative")) {
        return "relative to each command";
    }
    return NULL;
}

const char *atalab_trace_header(const AtalabTraceFile *f, const char *key)
{
    return atalab_trace_header_value(f->header, key);
}

const GPtrArray *atalab_trace_header_lines(const AtalabTraceFile *f)
{
    return f->header;
}

int atalab_trace_next(AtalabTraceFile *f, AtalabTraceRecord *rec,
                      GError **err)
{
    g_autofree char *pending = g_steal_pointer(&f->pending);
    const char *line = pending ? pending : read_line(f);
    g_autofree char *why = NULL;

    atalab_trace_record_clear(rec);
    if (!line) {
        if (ferror(f->fp)) {
            set_error(err, f, g_strerror(errno));
            return -1;
        }
        return 0;
    }
    if (line[0] == '#') {
        set_error(err, f, "a header line after the records");
        return -1;
    }
    if (!atalab_trace_parse(line, f->strict, rec, &why)) {
        set_error(err, f, why);
        return -1;
    }
    return 1;
}

unsigned atalab_trace_line(const AtalabTraceFile *f)
{
    return f->line;
}

void atalab_json_string(GString *out, const char *s)
{
    if (!s) {
        g_string_append(out, "null");
        return;
    }
    g_string_append_c(out, '"');
    for (; *s; s++) {
        unsigned char c = *s;

        if (c == '"' || c == '\\') {
            g_string_append_c(out, '\\');
            g_string_append_c(out, c);
        } else if (c < 0x20 || c == '<' || c == '>' || c == '&') {
            g_string_append_printf(out, "\\u%04x", c);
        } else {
            g_string_append_c(out, c);
        }
    }
    g_string_append_c(out, '"');
}
