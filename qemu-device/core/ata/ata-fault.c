/*
 * atalab emulator core: the fault plan of a drive -- what the rules the
 * fault engine fires (atalab-fault.h) mean for a command, decided here and
 * carried out by the layers above, as docs/faults.md lists them.
 *
 * A command asks the engine once, when it is accepted.  Either something
 * takes the command instead (AtaFaultTake: an error, a hang, a removal, a
 * power cut; ata-fault-take.c carries it out), or what fired becomes the
 * command's plan (AtaFaultPlan): an error at a sector (data before it
 * moves normally), a change to its end (lost or early interrupt, ICRC, a
 * delay, DRQ left set), bit flips in its data.  The data path then asks
 * the plan two questions: per data step (atalab_ata_fault_step, ata-io.c)
 * and at the command's end (atalab_ata_fault_end, ata-end.c); bit flips
 * (atalab_ata_fault_corrupt) and an early interrupt once busy
 * (atalab_ata_fault_busy) are the only other calls.  Software resets ask
 * about reset-fail rules.  The plan calls no ATA file but ata-bus.c.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <string.h>

#include "ata-internal.h"
#include "../trace/trace.h"

void atalab_ata_fault_fired(AtalabDrive *d, const AtalabFaultRule *r,
                            uint64_t lba, bool command)
{
    char cmd[8] = "none";

    if (command) {
        g_snprintf(cmd, sizeof(cmd), "0x%02x", d->cmd);
    }
    atalab_trace(d->host, "ata%u fault d%u rule=%s kind=%s cmd=%s lba=%"
                 PRIu64, d->bus->index, d->unit, r->id,
                 atalab_fault_kind_name(r->kind), cmd, lba);
    atalab_event(d->host, &(AtalabEvent) {
        .kind = ATALAB_EVENT_FAULT, .channel = d->bus->index,
        .drive = d->index, .name = r->id, .value = d->cmd });
}

/* A reset ends what a fault left behind (not a removal). */
void atalab_ata_fault_reset(AtalabDrive *d, bool power_on)
{
    memset(&d->fault, 0, sizeof(d->fault));
    if (d->wait == ATA_WAIT_COMPLETION || d->wait == ATA_WAIT_LAST_BLOCK ||
        (power_on && d->wait == ATA_WAIT_RESET)) {
        atalab_ata_wait_cancel(d);
    }
    d->df_sticky = false;
}

/* ---- commands ------------------------------------------------------------ */

static bool is_stop_kind(AtalabFaultKind k)
{
    return k == ATALAB_FAULT_UNC || k == ATALAB_FAULT_AMNF ||
           k == ATALAB_FAULT_WRITE_FAULT || k == ATALAB_FAULT_BM_ERROR;
}

/*
 * Ask the rules about the command q describes: the plan for it, or (true)
 * what takes it instead (*take).
 */
static bool fault_apply(AtalabDrive *d, const AtalabFaultQuery *qp,
                        AtaFaultTake *take)
{
    AtalabFaults *faults = d->bus->faults;
    AtaFaultPlan *plan = &d->fault;
    AtalabFaultQuery q = *qp;
    AtalabFaultHits hits;
    unsigned i;

    memset(plan, 0, sizeof(*plan));
    memset(take, 0, sizeof(*take));
    if (d->df_sticky) {
        /* A device fault stays until a reset (ATA-7 vol. 1, DF). */
        take->what = ATA_TAKE_ERROR;
        take->kind = ATALAB_FAULT_DF;
        return true;
    }
    atalab_faults_match(faults, &q, &hits);
    for (i = 0; i < hits.n; i++) {
        AtalabFaultRule *r = hits.rule[i];
        uint64_t lba = hits.lba[i];

        atalab_ata_fault_fired(d, r, q.has_lba ? lba : 0, true);
        take->rule = r;
        take->kind = r->kind;
        take->lba = lba;
        if (q.packet && (r->kind == ATALAB_FAULT_SENSE ||
                         r->kind == ATALAB_FAULT_IDNF ||
                         r->kind == ATALAB_FAULT_ABRT ||
                         (is_stop_kind(r->kind) &&
                          r->kind != ATALAB_FAULT_BM_ERROR))) {
            /* a packet device's errors come before any data moves */
            take->what = ATA_TAKE_CHECK;
            return true;
        }
        switch (r->kind) {
        case ATALAB_FAULT_IDNF:
        case ATALAB_FAULT_ABRT:
            take->what = ATA_TAKE_ERROR;
            return true;
        case ATALAB_FAULT_DF:
            d->df_sticky = true;
            take->what = ATA_TAKE_ERROR;
            return true;
        case ATALAB_FAULT_TIMEOUT:
            take->what = ATA_TAKE_HANG;
            return true;
        case ATALAB_FAULT_REMOVE:
            take->what = ATA_TAKE_REMOVE;
            return true;
        case ATALAB_FAULT_POWER_CUT:
            take->what = ATA_TAKE_POWER_CUT;
            return true;
        case ATALAB_FAULT_SPURIOUS_IRQ:
            plan->spurious = true;
            break;
        case ATALAB_FAULT_LOST_IRQ:
            plan->lost_irq = true;
            break;
        case ATALAB_FAULT_LATENCY:
            plan->latency += r->duration;
            break;
        case ATALAB_FAULT_CORRUPT:
            if (!plan->corrupt) {
                plan->corrupt = r;
            }
            break;
        case ATALAB_FAULT_PROTOCOL:
            if (!plan->protocol) {
                plan->protocol = r;
            }
            break;
        case ATALAB_FAULT_IDENTIFY_DATA:
            if (!plan->identify) {
                plan->identify = r;
            }
            break;
        case ATALAB_FAULT_END_STATUS:
            /* a packet command's end is its interrupt reason and sense */
            if (!plan->end_status && !q.packet) {
                plan->end_status = r;
            }
            break;
        case ATALAB_FAULT_ICRC:
            /* a packet device's Error register has no ICRC bit */
            if (!plan->end_error && !q.packet) {
                plan->end_error = ATALAB_FAULT_ICRC;
            }
            break;
        default:
            if (is_stop_kind(r->kind) && !plan->stop && !q.packet) {
                plan->stop = r;
                plan->stop_lba = lba;
            }
            break;
        }
    }
    memset(take, 0, sizeof(*take));
    return false;
}

bool atalab_ata_fault_command(AtalabDrive *d, AtaFaultTake *take)
{
    AtalabFaultQuery q = {
        .drive = d->index,
        .opcode = d->cmd,
        .cls = d->info->fault_class,
        .has_lba = d->info->flags & ATA_CF_RANGE,
        .lba = d->lba,
        .count = d->remaining,
        .udma = d->info->proto == ATA_PROTO_DMA && d->udma_mode >= 0,
        .now = atalab_now(d->host),
    };

    return fault_apply(d, &q, take);
}

bool atalab_ata_fault_packet(AtalabDrive *d, bool read, uint64_t lba,
                             uint32_t count, AtaFaultTake *take)
{
    AtalabFaultQuery q = {
        .drive = d->index,
        .opcode = d->cmd,
        .packet = true,
        .packet_op = d->packet.cdb[0],
        .cls = read ? ATALAB_CLASS_READ : ATALAB_CLASS_OTHER,
        .has_lba = read,
        .lba = lba,
        .count = count,
        .udma = d->packet.dma && d->udma_mode >= 0,
        .now = atalab_now(d->host),
    };

    return fault_apply(d, &q, take);
}

bool atalab_ata_fault_step(AtalabDrive *d, uint32_t want, bool medium,
                           AtaStep *step)
{
    AtaFaultPlan *plan = &d->fault;
    const AtalabFaultRule *p = plan->protocol;

    memset(step, 0, sizeof(*step));
    step->sectors = want;
    if (medium) {
        AtalabFaultRule *r = plan->stop;

        if (r && plan->stop_lba == d->lba) {
            /* At the planned error's sector: the step does not go. */
            plan->stop = NULL;
            step->stop = r->kind;
            step->stop_irq = r->irq;
            return false;
        }
        /* Data before a planned error moves normally. */
        if (r && plan->stop_lba >= d->lba && plan->stop_lba - d->lba < want) {
            step->sectors = plan->stop_lba - d->lba;
        }
        /*
         * Bit flips happen in the bounce buffer: on a write they must not
         * reach guest memory, on a read they are made before the data is
         * copied out.
         */
        step->bounce = plan->corrupt != NULL;
    }
    step->pio_bytes = (size_t)step->sectors * ATA_SECTOR_SIZE;
    /* A DRQ block of the wrong size. */
    if (p && p->violation == ATALAB_PROTO_DRQ_COUNT && step->pio_bytes > 2) {
        step->pio_bytes /= 2;
    }
    return true;
}

/* Flip bits of sectors [lba, lba + sectors) in buf, as the rule says. */
void atalab_ata_fault_corrupt(AtalabDrive *d, uint8_t *buf, uint64_t lba,
                              uint32_t sectors, bool writing)
{
    AtalabFaultRule *r = d->fault.corrupt;
    uint32_t s;
    unsigned b;

    if (!r || r->on_write != writing) {
        return;
    }
    for (s = 0; s < sectors; s++) {
        if (r->has_lba && (lba + s < r->lba_first || lba + s > r->lba_last)) {
            continue;
        }
        for (b = 0; b < r->bits; b++) {
            uint64_t bit = atalab_fault_random(r) % (ATA_SECTOR_SIZE * 8);

            buf[(size_t)s * ATA_SECTOR_SIZE + bit / 8] ^= 1u << (bit % 8);
        }
    }
    atalab_trace(d->host, "ata%u fault d%u corrupted lba=%" PRIu64
                 " count=%u bits=%u %s", d->bus->index, d->unit, lba,
                 sectors, r->bits, writing ? "write" : "read");
}

/*
 * IDENTIFY (PACKET) DEVICE data as an identify-data rule says: a word set,
 * or bits flipped (in its word, or anywhere in words 0-254); a checksum
 * (word 255, signature A5h) made right again, as a drive whose firmware
 * reports these words would.  A trace record for each word changed.
 */
void atalab_ata_fault_identify(AtalabDrive *d, uint16_t words[256])
{
    const AtalabFaultRule *r = d->fault.identify;
    uint16_t old[256];
    uint8_t sum = 0;
    unsigned i, b;

    if (!r) {
        return;
    }
    memcpy(old, words, sizeof(old));
    if (r->value >= 0) {
        words[r->word] = r->value;
    }
    for (b = 0; r->value < 0 && b < r->bits; b++) {
        uint64_t bit = atalab_fault_random(d->fault.identify) %
                       (r->word >= 0 ? 16 : 255 * 16);

        words[r->word >= 0 ? (unsigned)r->word : bit / 16] ^= 1u << (bit % 16);
    }
    if ((words[255] & 0xFF) == 0xA5) {
        for (i = 0; i < 255; i++) {
            sum += (words[i] & 0xFF) + (words[i] >> 8);
        }
        sum += 0xA5;
        words[255] = 0xA5 | (uint16_t)(uint8_t)-sum << 8;
    }
    for (i = 0; i < 255; i++) {
        if (words[i] != old[i]) {
            atalab_trace(d->host, "ata%u fault d%u identify-data word=%u "
                         "old=0x%04x new=0x%04x", d->bus->index, d->unit, i,
                         old[i], words[i]);
        }
    }
}

void atalab_ata_fault_end(AtalabDrive *d, AtaEndAt at, uint8_t status,
                          AtaEnd *end)
{
    AtaFaultPlan *plan = &d->fault;
    const AtalabFaultRule *p = plan->protocol;
    bool completes = at == ATA_END_COMPLETE;

    memset(end, 0, sizeof(*end));
    if (completes && plan->end_error) {
        end->error = plan->end_error;
        plan->end_error = 0;
        return;
    }
    if ((completes || at == ATA_END_LAST_BLOCK) && plan->latency) {
        end->delay = plan->latency;
        plan->latency = 0;
        return;
    }
    end->status = status;
    if ((completes || at == ATA_END_DRAINED) &&
        p && p->violation == ATALAB_PROTO_STATUS_PHASE) {
        end->status |= ATA_STAT_DRQ;    /* "data" left when there is none */
    }
    /*
     * Whatever the rule says, BSY and DRQ too: a device that answers
     * what no driver expects.  The data moved as usual before it.
     */
    if ((completes || at == ATA_END_DRAINED) && plan->end_status) {
        end->status = plan->end_status->status_value;
        end->set_error = true;
        end->error_reg = plan->end_status->error_value >= 0 ?
                         plan->end_status->error_value : 0;
    }
    end->irq = at != ATA_END_DRAINED && !plan->lost_irq;
}

/* INTRQ before the data is ready, or for nothing. */
void atalab_ata_fault_busy(AtalabDrive *d)
{
    const AtalabFaultRule *p = d->fault.protocol;

    if ((p && p->violation == ATALAB_PROTO_IRQ_EARLY) || d->fault.spurious) {
        d->fault.spurious = false;
        atalab_ata_raise(d);
    }
}

/* ---- resets ------------------------------------------------------------- */

bool atalab_ata_fault_srst_release(AtalabDrive *d, int64_t *ns)
{
    AtalabFaultQuery q = {
        .drive = d->index,
        .reset = true,
        .now = atalab_now(d->host),
    };
    AtalabFaultHits hits;

    atalab_faults_match(d->bus->faults, &q, &hits);
    if (!hits.n) {
        return false;
    }
    atalab_ata_fault_fired(d, hits.rule[0], 0, false);
    *ns = hits.rule[0]->duration;
    return true;
}
