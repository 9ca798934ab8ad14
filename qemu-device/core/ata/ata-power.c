/*
 * atalab emulator core: the Power Management feature set -- Active, Idle,
 * Standby and Sleep, the standby timer, and CHECK POWER MODE.
 *
 * ATA/ATAPI-7 volume 1 (T13 1532D): Power Management feature set (power
 * modes and the Standby timer), and the commands IDLE, IDLE IMMEDIATE,
 * STANDBY, STANDBY IMMEDIATE, SLEEP and CHECK POWER MODE (with the table
 * "Automatic Standby timer periods").  The ATA-3 opcodes 94h-99h run the
 * same handlers (ata-cmd-table.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "ata-internal.h"
#include "../host-timer.h"
#include "../trace/trace.h"

#define SEC_NS          1000000000ll
#define MIN_NS          (60 * SEC_NS)

/* CHECK POWER MODE results in the Count register */
#define POWER_COUNT_STANDBY     0x00
#define POWER_COUNT_IDLE        0x80
#define POWER_COUNT_ACTIVE      0xFF    /* "active or idle" */

static const char *const power_names[] = {
    [ATA_POWER_ACTIVE] = "active",
    [ATA_POWER_IDLE] = "idle",
    [ATA_POWER_STANDBY] = "standby",
    [ATA_POWER_SLEEP] = "sleep",
};

/*
 * Standby timer period of a Count value (ATA-7 vol. 1, "Automatic Standby
 * timer periods"): 0 disabled, 1-240 times 5 s, 241-251 (n - 240) times
 * 30 min, 252 21 min, 253 vendor-defined between 8 and 12 h (8 h here),
 * 254 reserved (treated as disabled), 255 21 min 15 s.
 */
static int64_t standby_period_ns(uint8_t count)
{
    if (count == 0 || count == 254) {
        return 0;
    }
    if (count <= 240) {
        return count * 5 * SEC_NS;
    }
    if (count <= 251) {
        return (count - 240) * 30 * MIN_NS;
    }
    if (count == 252) {
        return 21 * MIN_NS;
    }
    if (count == 253) {
        return 8 * 60 * MIN_NS;
    }
    return 21 * MIN_NS + 15 * SEC_NS;
}

static void set_power(AtalabDrive *d, AtaPower p)
{
    if (d->power == p) {
        return;
    }
    d->power = p;
    atalab_trace(d->host, "ata%u power d%u %s", d->bus->index, d->unit,
                 power_names[p]);
}

static void arm_standby_timer(AtalabDrive *d)
{
    const AtalabHost *h = d->host;
    int64_t period = standby_period_ns(d->standby_timer);

    if (!period || d->power == ATA_POWER_SLEEP ||
        d->power == ATA_POWER_STANDBY) {
        atalab_timer_del(h, d->standby_t);
        return;
    }
    atalab_timer_mod(h, d->standby_t, atalab_now(h) + period);
}

/* The standby timer ran out with no command: an idle drive spins down. */
static void standby_expired(void *opaque)
{
    AtalabDrive *d = opaque;

    atalab_trace(d->host, "ata%u timer d%u standby", d->bus->index, d->unit);

    if (d->power == ATA_POWER_SLEEP || d->power == ATA_POWER_STANDBY) {
        return;
    }
    if (d->phase != ATA_PHASE_IDLE) {
        arm_standby_timer(d);
        return;
    }
    atalab_trace(d->host, "ata%u standby-timer d%u expired", d->bus->index,
                 d->unit);
    set_power(d, ATA_POWER_STANDBY);
}

void atalab_ata_power_init(AtalabDrive *d)
{
    d->power = ATA_POWER_ACTIVE;
    d->standby_t = atalab_timer_new(d->host, standby_expired, d);
}

void atalab_ata_power_fini(AtalabDrive *d)
{
    atalab_timer_free(d->host, &d->standby_t);
}

void atalab_ata_power_on_defaults(AtalabDrive *d)
{
    /* A hardware reset wakes a sleeping drive into Standby. */
    set_power(d, d->power == ATA_POWER_SLEEP ? ATA_POWER_STANDBY :
              ATA_POWER_ACTIVE);
    d->standby_timer = 0;
    arm_standby_timer(d);
}

void atalab_ata_power_reset(AtalabDrive *d)
{
    if (d->power == ATA_POWER_SLEEP) {
        set_power(d, ATA_POWER_STANDBY);
    }
}

void atalab_ata_power_command(AtalabDrive *d, const AtaCmdInfo *info)
{
    if ((info->flags & ATA_CF_MEDIA) && (d->power == ATA_POWER_IDLE ||
                                         d->power == ATA_POWER_STANDBY)) {
        set_power(d, ATA_POWER_ACTIVE);
    }
    /* Every command restarts the standby timer. */
    arm_standby_timer(d);
}

static void enter(AtalabDrive *d, AtaPower p, bool set_timer)
{
    if (set_timer) {
        d->standby_timer = d->count;
        atalab_trace(d->host, "ata%u standby-timer d%u count=%u period=%"
                     G_GINT64_FORMAT "ms", d->bus->index, d->unit, d->count,
                     standby_period_ns(d->count) / 1000000);
    }
    set_power(d, p);
    arm_standby_timer(d);
    atalab_ata_cmd_ok(d);
}

void atalab_ata_cmd_standby(AtalabDrive *d)
{
    enter(d, ATA_POWER_STANDBY, true);
}

void atalab_ata_cmd_standby_immediate(AtalabDrive *d)
{
    enter(d, ATA_POWER_STANDBY, false);
}

void atalab_ata_cmd_idle(AtalabDrive *d)
{
    enter(d, ATA_POWER_IDLE, true);
}

void atalab_ata_cmd_idle_immediate(AtalabDrive *d)
{
    enter(d, ATA_POWER_IDLE, false);
}

void atalab_ata_cmd_check_power_mode(AtalabDrive *d)
{
    switch (d->power) {
    case ATA_POWER_STANDBY:
        d->count = POWER_COUNT_STANDBY;
        break;
    case ATA_POWER_IDLE:
        d->count = POWER_COUNT_IDLE;
        break;
    default:
        d->count = POWER_COUNT_ACTIVE;
        break;
    }
    atalab_ata_cmd_ok(d);
}

/*
 * SLEEP: the command completes (with its interrupt), then the interface
 * is inactive until a hardware or software reset, after which the drive
 * is in Standby.
 */
void atalab_ata_cmd_sleep(AtalabDrive *d)
{
    atalab_ata_cmd_ok(d);
    set_power(d, ATA_POWER_SLEEP);
    arm_standby_timer(d);
}
