/*
 * atalab emulator core: SMART and the logs -- SMART READ DATA, READ
 * THRESHOLDS, ENABLE/DISABLE OPERATIONS, attribute autosave, automatic
 * off-line, RETURN STATUS, READ LOG, EXECUTE OFF-LINE IMMEDIATE with the
 * short and extended self-tests, and READ LOG EXT with the general purpose
 * log directory.
 *
 * ATA/ATAPI-7 volume 1 (T13 1532D): SMART feature set, the SMART command
 * and its subcommands (device SMART data structure, self-test log, summary
 * error log, SMART log directory), READ LOG EXT and the general purpose
 * logging feature set (log directory, extended comprehensive error log,
 * extended self-test log).  Attribute numbering follows common practice
 * (the specification leaves attributes vendor specific).
 *
 * Self-tests run on the virtual clock: the short one for SELFTEST_SHORT_NS,
 * the extended one for SELFTEST_EXTENDED_NS; both pass (fault injection can
 * later make them fail).  Off-line mode tests go on while commands arrive;
 * a reset interrupts them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "ata-internal.h"
#include "../host-timer.h"
#include "../trace/trace.h"

/* SMART subcommands (Features register) */
enum {
    SMART_READ_DATA = 0xD0,
    SMART_READ_THRESHOLDS = 0xD1,
    SMART_ATTR_AUTOSAVE = 0xD2,
    SMART_EXECUTE_OFFLINE = 0xD4,
    SMART_READ_LOG = 0xD5,
    SMART_WRITE_LOG = 0xD6,
    SMART_ENABLE = 0xD8,
    SMART_DISABLE = 0xD9,
    SMART_RETURN_STATUS = 0xDA,
    SMART_AUTO_OFFLINE = 0xDB,
};

/* LBA mid/high that every SMART command carries, and the "failing" pair */
#define SMART_KEY_MID           0x4F
#define SMART_KEY_HIGH          0xC2

/* EXECUTE OFF-LINE IMMEDIATE subcommands (LBA low) */
enum {
    OFFLINE_ROUTINE = 0x00,
    SELFTEST_SHORT = 0x01,
    SELFTEST_EXTENDED = 0x02,
    SELFTEST_ABORT = 0x7F,
    SELFTEST_SHORT_CAPTIVE = 0x81,
    SELFTEST_EXTENDED_CAPTIVE = 0x82,
};

/* Self-test execution status, bits 7:4 of SMART data byte 363 */
enum {
    ST_DONE_OK = 0x0,
    ST_ABORTED = 0x1,
    ST_INTERRUPTED_RESET = 0x2,
    ST_IN_PROGRESS = 0xF,
};

#define SEC_NS                  1000000000ll
#define SELFTEST_SHORT_NS       (2 * SEC_NS)
#define SELFTEST_EXTENDED_NS    (10 * SEC_NS)
/* Recommended polling times reported in SMART data, minutes */
#define SELFTEST_SHORT_MIN      1
#define SELFTEST_EXTENDED_MIN   2

/* Log addresses */
enum {
    LOG_DIRECTORY = 0x00,
    LOG_SUMMARY_ERROR = 0x01,
    LOG_EXT_COMPREHENSIVE_ERROR = 0x03,
    LOG_SELFTEST = 0x06,
    LOG_EXT_SELFTEST = 0x07,
};

typedef struct SmartAttr {
    uint8_t id;
    uint16_t flags;             /* bit 0 pre-failure, bit 1 on-line */
    uint8_t threshold;
} SmartAttr;

/* The attributes the drive reports, all well above their thresholds. */
static const SmartAttr smart_attrs[] = {
    { 1, 0x000B, 16 },          /* raw read error rate */
    { 5, 0x0033, 36 },          /* reallocated sectors */
    { 9, 0x0032, 0 },           /* power-on hours */
    { 12, 0x0032, 0 },          /* power cycles */
    { 194, 0x0022, 0 },         /* temperature */
    { 197, 0x0022, 0 },         /* current pending sectors */
    { 199, 0x003E, 0 },         /* Ultra DMA CRC errors */
};

#define ATTR_VALUE              100
#define ATTR_TEMPERATURE_C      36

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

/* Byte 511: the two's complement of the sum of bytes 0-510. */
static void put_checksum(uint8_t *buf)
{
    uint8_t sum = 0;
    unsigned i;

    for (i = 0; i < 511; i++) {
        sum += buf[i];
    }
    buf[511] = -sum;
}

static uint32_t power_on_hours(AtalabDrive *d)
{
    int64_t now = atalab_now(d->host);

    return (uint32_t)((now - d->power_on_base) / (3600 * SEC_NS));
}

static void selftest_log_add(AtalabDrive *d, uint8_t test, uint8_t status)
{
    AtaSelfTestEntry *e = &d->selftest_log[d->selftest_next];

    e->lba_low = test;
    e->status = status;
    e->hours = power_on_hours(d);
    e->failing_lba = 0;
    d->selftest_next = (d->selftest_next + 1) % ATA_SELFTEST_ENTRIES;
    d->selftest_count++;
}

static void selftest_end(AtalabDrive *d, uint8_t status)
{
    const AtalabHost *h = d->host;
    uint8_t test = d->selftest_running & 0x7F;

    if (!d->selftest_running) {
        return;
    }
    atalab_timer_del(h, d->selftest_t);
    d->selftest_status = status;
    selftest_log_add(d, d->selftest_running, status);
    atalab_trace(h, "ata%u smart d%u self-test %s status=0x%02x",
                 d->bus->index, d->unit,
                 test == SELFTEST_SHORT ? "short" : "extended", status);
    d->selftest_running = 0;
}

static void selftest_expired(void *opaque)
{
    AtalabDrive *d = opaque;
    bool captive = d->selftest_running & 0x80;
    uint32_t seq = d->seq;

    atalab_trace(d->host, "ata%u timer d%u self-test", d->bus->index, d->unit);

    selftest_end(d, ST_DONE_OK << 4);
    /* A captive test is the command: it completes with the test. */
    if (captive && d->seq == seq && d->phase == ATA_PHASE_NODATA &&
        d->cmd == 0xB0) {
        atalab_ata_cmd_ok(d);
    }
}

void atalab_ata_smart_init(AtalabDrive *d)
{
    d->selftest_t = atalab_timer_new(d->host, selftest_expired, d);
}

void atalab_ata_smart_fini(AtalabDrive *d)
{
    atalab_timer_free(d->host, &d->selftest_t);
}

void atalab_ata_smart_reset(AtalabDrive *d)
{
    selftest_end(d, ST_INTERRUPTED_RESET << 4);
}

void atalab_ata_smart_power_on(AtalabDrive *d)
{
    /* SMART state persists on the medium; a reset stops a test. */
    atalab_ata_smart_reset(d);
    if (!d->power_cycles++) {
        d->smart_enabled = true;
        d->power_on_base = atalab_now(d->host);
    }
}

static void smart_data_source(AtalabDrive *d, uint32_t block, uint8_t *buf)
{
    unsigned i;

    memset(buf, 0, ATA_SECTOR_SIZE);
    put16(buf, 0x0010);                     /* data structure revision */
    for (i = 0; i < G_N_ELEMENTS(smart_attrs); i++) {
        uint8_t *e = buf + 2 + 12 * i;
        const SmartAttr *a = &smart_attrs[i];
        uint32_t raw = 0;

        e[0] = a->id;
        put16(e + 1, a->flags);
        e[3] = ATTR_VALUE;
        e[4] = ATTR_VALUE;
        switch (a->id) {
        case 9:
            raw = power_on_hours(d);
            break;
        case 12:
            raw = d->power_cycles;
            break;
        case 194:
            raw = ATTR_TEMPERATURE_C;
            e[3] = e[4] = 100 - ATTR_TEMPERATURE_C;
            break;
        case 199:
            raw = d->icrc_errors;
            break;
        }
        put32(e + 5, raw);
    }
    buf[362] = d->smart_auto_offline ? 0x82 : 0x02; /* off-line: done */
    buf[363] = d->selftest_status;
    put16(buf + 364, 30);                   /* off-line collection, s */
    /*
     * 367: EXECUTE OFF-LINE IMMEDIATE (0), abort/restart by host (2),
     * self-tests (4); no conveyance or selective self-test.
     */
    buf[367] = 0x15;
    put16(buf + 368, 0x0003);               /* saves data; autosave */
    buf[370] = 0x01;                        /* error logging */
    buf[372] = SELFTEST_SHORT_MIN;
    buf[373] = SELFTEST_EXTENDED_MIN;
    put_checksum(buf);
}

static void smart_thresholds_source(AtalabDrive *d, uint32_t block,
                                    uint8_t *buf)
{
    unsigned i;

    memset(buf, 0, ATA_SECTOR_SIZE);
    put16(buf, 0x0010);
    for (i = 0; i < G_N_ELEMENTS(smart_attrs); i++) {
        buf[2 + 12 * i] = smart_attrs[i].id;
        buf[2 + 12 * i + 1] = smart_attrs[i].threshold;
    }
    put_checksum(buf);
}

/* Pages of each log; 0 for one the drive does not have. */
static unsigned log_pages(uint8_t log, bool gpl)
{
    switch (log) {
    case LOG_DIRECTORY:
        return 1;
    case LOG_SUMMARY_ERROR:
    case LOG_SELFTEST:
        return gpl ? 0 : 1;
    case LOG_EXT_COMPREHENSIVE_ERROR:
    case LOG_EXT_SELFTEST:
        return gpl ? 1 : 0;
    }
    return 0;
}

static void log_directory(uint8_t *buf, bool gpl)
{
    unsigned log;

    put16(buf, 0x0001);                     /* logging version */
    for (log = 1; log < 256; log++) {
        put16(buf + 2 * log, log_pages(log, gpl));
    }
}

/* The self-test log entries, oldest first; returns how many. */
static unsigned selftest_entries(const AtalabDrive *d, unsigned max,
                                 const AtaSelfTestEntry **out)
{
    unsigned n = MIN(d->selftest_count, max), i;
    unsigned first = (d->selftest_next + ATA_SELFTEST_ENTRIES - n) %
                     ATA_SELFTEST_ENTRIES;

    for (i = 0; i < n; i++) {
        out[i] = &d->selftest_log[(first + i) % ATA_SELFTEST_ENTRIES];
    }
    return n;
}

/* The fields both self-test logs share, at the start of an entry. */
static void put_selftest_entry(uint8_t *p, const AtaSelfTestEntry *e)
{
    p[0] = e->lba_low;
    p[1] = e->status;
    put16(p + 2, e->hours);
    put32(p + 5, e->failing_lba);
}

static void selftest_log(const AtalabDrive *d, uint8_t *buf)
{
    const AtaSelfTestEntry *e[ATA_SELFTEST_ENTRIES];
    unsigned n = selftest_entries(d, ATA_SELFTEST_ENTRIES, e), i;

    put16(buf, 0x0001);                     /* revision */
    for (i = 0; i < n; i++) {
        put_selftest_entry(buf + 2 + 24 * i, e[i]);
    }
    buf[508] = n;                           /* most recent entry, 1-based */
}

/* Extended self-test log: 19 descriptors of 26 bytes per page. */
#define EXT_SELFTEST_PER_PAGE   19

static void ext_selftest_log(const AtalabDrive *d, uint8_t *buf)
{
    const AtaSelfTestEntry *e[EXT_SELFTEST_PER_PAGE];
    unsigned n = selftest_entries(d, EXT_SELFTEST_PER_PAGE, e), i;

    buf[0] = 0x01;                          /* revision */
    for (i = 0; i < n; i++) {
        put_selftest_entry(buf + 4 + 26 * i, e[i]);
    }
    put16(buf + 2, n);                      /* most recent descriptor */
}

static void log_page(AtalabDrive *d, uint8_t log, bool gpl, uint8_t *buf)
{
    memset(buf, 0, ATA_SECTOR_SIZE);
    switch (log) {
    case LOG_DIRECTORY:
        log_directory(buf, gpl);
        return;                             /* no checksum */
    case LOG_SUMMARY_ERROR:
        buf[0] = 0x01;                      /* version; no errors */
        break;
    case LOG_EXT_COMPREHENSIVE_ERROR:
        buf[0] = 0x01;
        break;
    case LOG_SELFTEST:
        selftest_log(d, buf);
        break;
    case LOG_EXT_SELFTEST:
        ext_selftest_log(d, buf);
        break;
    }
    put_checksum(buf);
}

static void smart_log_source(AtalabDrive *d, uint32_t block, uint8_t *buf)
{
    log_page(d, d->log_address, false, buf);
}

static void gp_log_source(AtalabDrive *d, uint32_t block, uint8_t *buf)
{
    log_page(d, d->log_address, true, buf);
}

static void start_log_read(AtalabDrive *d, uint8_t log, unsigned first,
                           unsigned count, bool gpl, AtaPioSource *source)
{
    unsigned pages = log_pages(log, gpl);

    if (!count || first >= pages || count > pages - first) {
        atalab_ata_cmd_abort(d);
        return;
    }
    d->log_address = log;
    atalab_ata_pio_in_generated(d, count, source);
}

static void execute_offline(AtalabDrive *d)
{
    const AtalabHost *h = d->host;
    uint8_t sub = d->lbal;
    bool extended = (sub & 0x7F) == SELFTEST_EXTENDED;
    int64_t duration = extended ? SELFTEST_EXTENDED_NS : SELFTEST_SHORT_NS;

    switch (sub) {
    case OFFLINE_ROUTINE:
        atalab_ata_cmd_ok(d);
        return;
    case SELFTEST_ABORT:
        selftest_end(d, ST_ABORTED << 4);
        atalab_ata_cmd_ok(d);
        return;
    case SELFTEST_SHORT:
    case SELFTEST_EXTENDED:
    case SELFTEST_SHORT_CAPTIVE:
    case SELFTEST_EXTENDED_CAPTIVE:
        break;
    default:
        atalab_ata_cmd_abort(d);
        return;
    }
    if (d->selftest_running || !d->selftest_t) {
        atalab_ata_cmd_abort(d);
        return;
    }
    d->selftest_running = sub;
    d->selftest_status = ST_IN_PROGRESS << 4 | 9;   /* 90% to go */
    atalab_timer_mod(h, d->selftest_t, atalab_now(h) + duration);
    atalab_trace(h, "ata%u smart d%u self-test %s started", d->bus->index,
                 d->unit, extended ? "extended" : "short");
    if (sub & 0x80) {
        /* Captive: BSY until the test is over. */
        d->phase = ATA_PHASE_NODATA;
        d->status = ATA_STAT_BSY | ATA_STAT_DRDY;
        return;
    }
    atalab_ata_cmd_ok(d);
}

void atalab_ata_cmd_smart(AtalabDrive *d)
{
    if (d->lbam != SMART_KEY_MID || d->lbah != SMART_KEY_HIGH ||
        (!d->smart_enabled && d->feature != SMART_ENABLE)) {
        atalab_ata_cmd_abort(d);
        return;
    }
    switch (d->feature) {
    case SMART_READ_DATA:
        atalab_ata_pio_in_generated(d, 1, smart_data_source);
        return;
    case SMART_READ_THRESHOLDS:
        atalab_ata_pio_in_generated(d, 1, smart_thresholds_source);
        return;
    case SMART_READ_LOG:
        start_log_read(d, d->lbal, 0, d->count, false, smart_log_source);
        return;
    case SMART_EXECUTE_OFFLINE:
        execute_offline(d);
        return;
    case SMART_ATTR_AUTOSAVE:
        d->smart_autosave = d->count != 0;
        break;
    case SMART_AUTO_OFFLINE:
        d->smart_auto_offline = d->count != 0;
        break;
    case SMART_ENABLE:
        d->smart_enabled = true;
        break;
    case SMART_DISABLE:
        d->smart_enabled = false;
        break;
    case SMART_RETURN_STATUS:
        /* No attribute at or below its threshold: 4Fh/C2h stay. */
        d->lbam = SMART_KEY_MID;
        d->lbah = SMART_KEY_HIGH;
        break;
    default:
        atalab_ata_cmd_abort(d);
        return;
    }
    atalab_ata_cmd_ok(d);
}

/*
 * READ LOG EXT: log address in LBA low, first page in LBA mid (and its
 * previous contents), page count in Count (16 bits, 0 is not allowed).
 */
void atalab_ata_cmd_read_log_ext(AtalabDrive *d)
{
    unsigned first = (unsigned)d->hob_lbam << 8 | d->lbam;
    unsigned count = (unsigned)d->hob_count << 8 | d->count;

    start_log_read(d, d->lbal, first, count, true, gp_log_source);
}
