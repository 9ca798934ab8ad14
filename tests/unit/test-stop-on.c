/*
 * atalab unit tests: stop conditions (core/stop-on.h), the parser and
 * matcher behind atalab-ide's stop-on property.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "ata/ata-device.h"
#include "rig.h"

/* text must be refused with exactly message. */
static void assert_refused(const char *text, const AtalabPersonality *p,
                           const char *message)
{
    char *err = NULL;
    AtalabStopList *l = atalab_stop_list_parse(text, p, &err);

    g_assert_null(l);
    g_assert_cmpstr(err, ==, message);
    g_free(err);
}

static unsigned parsed_len(const char *text, const AtalabPersonality *p)
{
    char *err = NULL;
    AtalabStopList *l = atalab_stop_list_parse(text, p, &err);
    unsigned n;

    g_assert_null(err);
    g_assert_nonnull(l);
    n = atalab_stop_list_len(l);
    atalab_stop_list_free(l);
    return n;
}

static void test_parse(void)
{
    const AtalabPersonality *piix4 = atalab_personality_find("piix4");
    const AtalabPersonality *piix3 = atalab_personality_find("piix3");
    g_auto(GStrv) rules = g_strsplit(atalab_violation_names(), ", ", -1);
    GString *many = g_string_new(NULL);
    unsigned i;

    g_assert_cmpuint(parsed_len("", piix4), ==, 0);
    g_assert_cmpuint(parsed_len("none", piix4), ==, 0);
    g_assert_cmpuint(parsed_len("violation;;none;cmd=0xc8", piix4), ==, 2);
    g_assert_cmpuint(parsed_len("cmd=200;cmd=0;cmd=0377", piix4), ==, 3);
    g_assert_cmpuint(parsed_len("write=udmatim;write=IDETIM0", piix4), ==, 2);
    /* No personality yet: any register name is taken. */
    g_assert_cmpuint(parsed_len("write=NOSUCH", NULL), ==, 1);
    g_assert_cmpuint(parsed_len("fault;fault=bad", piix4), ==, 2);
    /* Every rule the core can name, timing and data port alike. */
    g_assert_cmpuint(g_strv_length(rules), ==,
                     ATALAB_N_RULES + ATALAB_N_DATA_PORT_RULES);
    g_assert_true(g_strv_contains((const char *const *)rules,
                                  "data-write-no-drq"));
    g_assert_true(g_strv_contains((const char *const *)rules,
                                  "udma-timing"));
    for (i = 0; rules[i]; i++) {
        g_autofree char *text = g_strdup_printf("violation=%s", rules[i]);

        g_assert_cmpuint(parsed_len(text, piix4), ==, 1);
    }

    assert_refused("halt", piix4, "stop-on: unknown event 'halt' (known: "
                   "violation[=RULE], cmd=OPCODE, write=REGISTER, "
                   "fault[=RULE-ID])");
    {
        g_autofree char *msg = g_strdup_printf(
            "stop-on: unknown rule 'udma' (known: %s)",
            atalab_violation_names());

        assert_refused("cmd=0xc8;violation=udma", piix4, msg);
    }
    assert_refused("cmd=0x100", piix4,
                   "stop-on: cmd wants an opcode 0x00..0xff, got '0x100'");
    assert_refused("cmd=-1", piix4,
                   "stop-on: cmd wants an opcode 0x00..0xff, got '-1'");
    assert_refused("cmd=0xc8x", piix4,
                   "stop-on: cmd wants an opcode 0x00..0xff, got '0xc8x'");
    assert_refused("cmd", piix4,
                   "stop-on: cmd wants an opcode 0x00..0xff, got ''");
    /* PIIX3 has no Ultra DMA registers (290550). */
    assert_refused("write=UDMATIM", piix3,
                   "stop-on: write wants a register of model piix3, got "
                   "'UDMATIM'");
    assert_refused("write=", NULL,
                   "stop-on: write wants a register of model (any), got ''");
    assert_refused("fault=", piix4,
                   "stop-on: fault wants a rule id after '='");
    for (i = 0; i < ATALAB_STOP_MAX; i++) {
        g_string_append(many, "violation;");
    }
    g_assert_cmpuint(parsed_len(many->str, piix4), ==, ATALAB_STOP_MAX);
    g_string_append(many, "cmd=1");
    assert_refused(many->str, piix4, "stop-on: more than 16 conditions");
    g_string_free(many, TRUE);
}

static AtalabStopList *parse(const char *text, const AtalabPersonality *p)
{
    char *err = NULL;
    AtalabStopList *l = atalab_stop_list_parse(text, p, &err);

    g_assert_null(err);
    return l;
}

static AtalabEvent violation(const char *rule)
{
    return (AtalabEvent) { .kind = ATALAB_EVENT_VIOLATION, .channel = 1,
                           .drive = 3, .name = rule };
}

static AtalabEvent config_write(uint32_t addr, unsigned size)
{
    return (AtalabEvent) { .kind = ATALAB_EVENT_CONFIG_WRITE, .drive = -1,
                           .addr = addr, .size = size, .value = 0x1 };
}

static void test_match(void)
{
    const AtalabPersonality *p = atalab_personality_find("piix4");
    AtalabStopList *any = parse("violation", p);
    AtalabStopList *one = parse("violation=udma-timing;cmd=0xC8", p);
    AtalabStopList *reg = parse("write=udmatim", p);
    AtalabStopList *faults = parse("fault=bad", p);
    AtalabEvent ev;

    ev = violation("pio-overclock");
    g_assert_true(atalab_stop_list_matches(any, p, &ev));
    g_assert_false(atalab_stop_list_matches(one, p, &ev));
    g_assert_false(atalab_stop_list_matches(NULL, p, &ev));
    ev = violation("udma-timing");
    g_assert_true(atalab_stop_list_matches(one, p, &ev));
    ev = (AtalabEvent) { .kind = ATALAB_EVENT_COMMAND, .value = 0xC8 };
    g_assert_true(atalab_stop_list_matches(one, p, &ev));
    g_assert_false(atalab_stop_list_matches(any, p, &ev));
    ev.value = 0xCA;
    g_assert_false(atalab_stop_list_matches(one, p, &ev));

    /* UDMATIM is 0x4A-0x4B: a write to any of its bytes, no other. */
    ev = config_write(0x4A, 2);
    g_assert_true(atalab_stop_list_matches(reg, p, &ev));
    ev = config_write(0x4B, 1);
    g_assert_true(atalab_stop_list_matches(reg, p, &ev));
    ev = config_write(0x48, 4);
    g_assert_true(atalab_stop_list_matches(reg, p, &ev));
    ev = config_write(0x48, 2);
    g_assert_false(atalab_stop_list_matches(reg, p, &ev));
    ev = config_write(0x4C, 1);
    g_assert_false(atalab_stop_list_matches(reg, p, &ev));
    g_assert_false(atalab_stop_list_matches(reg, NULL, &ev));

    ev = (AtalabEvent) { .kind = ATALAB_EVENT_FAULT, .name = "bad" };
    g_assert_true(atalab_stop_list_matches(faults, p, &ev));
    ev.name = "good";
    g_assert_false(atalab_stop_list_matches(faults, p, &ev));

    atalab_stop_list_free(any);
    atalab_stop_list_free(one);
    atalab_stop_list_free(reg);
    atalab_stop_list_free(faults);
}

static void test_describe(void)
{
    GString *s = g_string_new(NULL);
    AtalabEvent ev = violation("udma-timing");

    atalab_event_describe(&ev, s);
    g_string_append(s, "; ");
    ev = (AtalabEvent) { .kind = ATALAB_EVENT_COMMAND, .channel = 0,
                         .drive = 1, .value = 0xEF };
    atalab_event_describe(&ev, s);
    g_string_append(s, "; ");
    ev = config_write(0x4A, 2);
    atalab_event_describe(&ev, s);
    g_string_append(s, "; ");
    ev = (AtalabEvent) { .kind = ATALAB_EVENT_FAULT, .channel = 1,
                         .drive = 2, .name = "bad", .value = 0xC8 };
    atalab_event_describe(&ev, s);
    g_assert_cmpstr(s->str, ==, "violation udma-timing ata1 d1; "
                    "cmd 0xef ata0 d1; write cfg 0x4a 2 0x0001; "
                    "fault bad ata1 d0 cmd 0xc8");
    g_string_free(s, TRUE);
}

/* The events a controller reports meet the conditions that name them. */
static void test_core_events(void)
{
    Rig *r = rig_new_full("piix4", 0x1, 0, true);

    r->fh.stop = parse("violation=data-read-no-drq;cmd=0xec;write=UDMATIM",
                       atalab_ctrl_personality(r->c));
    rig_select(r, 0);
    atalab_ctrl_cmd_write(r->c, 0, R_DATA, 0x1234, 2);
    g_assert_cmpuint(r->fh.stops, ==, 0);
    atalab_ctrl_cmd_read(r->c, 0, R_DATA, 2);
    g_assert_cmpuint(r->fh.stops, ==, 1);
    atalab_ctrl_config_write(r->c, 0x48, 0x1, 1);
    g_assert_cmpuint(r->fh.stops, ==, 1);
    atalab_ctrl_config_write(r->c, 0x4B, 0x2, 1);
    g_assert_cmpuint(r->fh.stops, ==, 2);
    rig_nodata(r, 0, 0xE5, 0, 0);
    g_assert_cmpuint(r->fh.stops, ==, 2);
    rig_command(r, 0, 0xEC);
    g_assert_cmpuint(r->fh.stops, ==, 3);
    g_assert_cmpstr(r->fh.stop_reasons->str, ==,
                    "violation data-read-no-drq ata0 d0\n"
                    "write cfg 0x4b 1 0x02\n"
                    "cmd 0xec ata0 d0\n");
    fake_host_complete_all(&r->fh);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/stop-on/parse", test_parse);
    g_test_add_func("/stop-on/match", test_match);
    g_test_add_func("/stop-on/describe", test_describe);
    g_test_add_func("/stop-on/core-events", test_core_events);
    return g_test_run();
}
