/*
 * atalab emulator core: the controller's side of the trace -- what each
 * register access is (register names, decoded bits, the command written,
 * the selected device), the PIO data port handed to the writer's folding,
 * and the header (traces/FORMAT.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../ata/ata-device.h"
#include "ctrl-state.h"
#include "pci-ide-regs.h"
#include "../trace/trace-writer.h"

typedef struct BitName {
    uint8_t bit;
    const char *name;
} BitName;

/* ATA-7 vol. 1, Status register (bit 4: DSC of ATA-3, bit 2: CORR). */
static const BitName status_bits[] = {
    { 0x80, "BSY" }, { 0x40, "DRDY" }, { 0x20, "DF" }, { 0x10, "DSC" },
    { 0x08, "DRQ" }, { 0x04, "CORR" }, { 0x02, "IDX" }, { 0x01, "ERR" },
};

/* ATA-7 vol. 1, Error register (bits 1/0: TK0NF, AMNF of ATA-3). */
static const BitName error_bits[] = {
    { 0x80, "ICRC" }, { 0x40, "UNC" }, { 0x20, "MC" }, { 0x10, "IDNF" },
    { 0x08, "MCR" }, { 0x04, "ABRT" }, { 0x02, "TK0NF" }, { 0x01, "AMNF" },
};

static const BitName device_bits[] = {
    { 0x40, "LBA" }, { 0x10, "DEV" },
};

static const BitName devctl_bits[] = {
    { 0x80, "HOB" }, { 0x04, "SRST" }, { 0x02, "nIEN" },
};

/* PIIX4 datasheet 290562, BMICX: bit 3 read/write control, bit 0 start. */
static const BitName bmicx_bits[] = {
    { BM_CMD_WRITE, "WR" }, { BM_CMD_START, "START" },
};

/* PIIX4 datasheet 290562, BMISX. */
static const BitName bmisx_bits[] = {
    { 0x80, "SIMPLEX" }, { BM_STAT_DMA1, "DMA1" }, { BM_STAT_DMA0, "DMA0" },
    { BM_STAT_INTR, "INTR" }, { BM_STAT_ERR, "ERR" },
    { BM_STAT_ACTIVE, "ACTIVE" },
};

static void format_bits(char *buf, size_t len, uint8_t v, const BitName *b,
                        size_t n)
{
    size_t i, at = 0;

    buf[0] = '\0';
    for (i = 0; i < n; i++) {
        if (v & b[i].bit) {
            at += snprintf(buf + at, at < len ? len - at : 0, "%s%s",
                           at ? "|" : "", b[i].name);
        }
    }
    if (!at) {
        g_strlcpy(buf, "none", len);
    }
}

#define BITS(buf, v, table) \
    format_bits(buf, sizeof(buf), v, table, G_N_ELEMENTS(table))

static const char *ata_reg_name(unsigned reg, bool write)
{
    static const char *const names[8] = {
        "Data", NULL, "Count", "LBAL", "LBAM", "LBAH", "Device", NULL,
    };

    if (reg == ATA_REG_FEATURE) {
        return write ? "Features" : "Error";
    }
    if (reg == ATA_REG_COMMAND) {
        return write ? "Command" : "Status";
    }
    return reg < 8 ? names[reg] : NULL;
}

/* Names of the registers an access covers, joined by '+'. */
static void cover_names(char *buf, size_t len, uint32_t offset, unsigned size,
                        const char *(*name_of)(const void *, uint32_t),
                        const void *opaque)
{
    const char *last = NULL;
    size_t at = 0;
    unsigned i;

    buf[0] = '\0';
    for (i = 0; i < size && i < 4; i++) {
        const char *n = name_of(opaque, offset + i);

        if (n == last) {
            continue;
        }
        last = n;
        at += snprintf(buf + at, at < len ? len - at : 0, "%s%s",
                       at ? "+" : "", n);
    }
}

static const char *cfg_byte_name(const void *opaque, uint32_t addr)
{
    const AtalabConfigReg *r = atalab_personality_reg_at(opaque, addr);

    return r ? r->name : "reserved";
}

static const char *bm_byte_name(const void *opaque, uint32_t offset)
{
    switch (offset % BM_CHANNEL_SIZE) {
    case BM_REG_CMD:
        return "BMICX";
    case BM_REG_STATUS:
        return "BMISX";
    case 1:
    case 3:
        return "reserved";
    default:
        return "BMIDTPX";
    }
}

static unsigned selected_dev(const AtalabCtrl *c, unsigned channel)
{
    return (c->chan[channel].bus.device & ATA_DEV_DEV) ? 1 : 0;
}

static void trace_access(AtalabCtrl *c, AtalabTraceSpace space,
                         unsigned channel, bool write, uint32_t offset,
                         unsigned size, uint32_t value)
{
    AtalabTraceAccess a = {
        .space = space, .channel = channel & 1, .dev = -1, .write = write,
        .offset = offset, .size = size, .value = value,
    };
    char reg[64], bits[64];
    uint8_t v = value;

    switch (space) {
    case ATALAB_SPACE_CFG:
        cover_names(reg, sizeof(reg), offset, size, cfg_byte_name, c->pers);
        a.reg = reg;
        break;
    case ATALAB_SPACE_BM:
        cover_names(reg, sizeof(reg), offset, size, bm_byte_name, NULL);
        a.reg = reg;
        if (size == 1 && offset % BM_CHANNEL_SIZE == BM_REG_CMD) {
            BITS(bits, v, bmicx_bits);
            a.bits = bits;
        } else if (size == 1 && offset % BM_CHANNEL_SIZE == BM_REG_STATUS) {
            BITS(bits, v, bmisx_bits);
            a.bits = bits;
        }
        break;
    case ATALAB_SPACE_CTL:
        a.dev = selected_dev(c, a.channel);
        a.reg = write ? "DevCtl" : "AltStatus";
        if (write) {
            BITS(bits, v, devctl_bits);
        } else {
            BITS(bits, v, status_bits);
        }
        a.bits = bits;
        break;
    case ATALAB_SPACE_ATA:
        a.dev = selected_dev(c, a.channel);
        a.reg = ata_reg_name(offset, write);
        if (offset == ATA_REG_DEVICE) {
            if (write) {
                a.dev = (v & ATA_DEV_DEV) ? 1 : 0;
            }
            BITS(bits, v, device_bits);
            a.bits = bits;
        } else if (offset == ATA_REG_COMMAND && write) {
            a.cmd = atalab_ata_cmd_name(v);
        } else if (offset == ATA_REG_COMMAND) {
            BITS(bits, v, status_bits);
            a.bits = bits;
        } else if (offset == ATA_REG_FEATURE && !write) {
            BITS(bits, v, error_bits);
            a.bits = bits;
        }
        break;
    }
    atalab_trace_writer_access(c->writer, &a);
}

/* Nothing is decoded when tracing is off (every access comes here). */
void atalab_ctrl_trace_access(AtalabCtrl *c, AtalabTraceSpace space,
                              unsigned channel, bool write, uint32_t offset,
                              unsigned size, uint32_t value)
{
    if (c->writer) {
        trace_access(c, space, channel, write, offset, size, value);
    }
}

bool atalab_ctrl_data_block(AtalabCtrl *c, unsigned channel, bool write,
                            unsigned *dev, size_t *pos, size_t *end)
{
    AtalabAtaBus *bus = &c->chan[channel & 1].bus;

    if (!atalab_ata_data_block(bus, write, pos, end)) {
        return false;
    }
    *dev = selected_dev(c, channel & 1);
    return true;
}

/* ---- the header -------------------------------------------------------- */

static void header_line(GString *s, const char *key, const char *fmt, ...)
    G_GNUC_PRINTF(3, 4);

static void header_line(GString *s, const char *key, const char *fmt, ...)
{
    va_list ap;

    g_string_append_printf(s, "# %s ", key);
    va_start(ap, fmt);
    g_string_append_vprintf(s, fmt, ap);
    va_end(ap);
    g_string_append_c(s, '\n');
}

char *atalab_ctrl_trace_header(const AtalabCtrl *c,
                               const char *const *extra)
{
    GString *s = g_string_new("# atalab-trace 2\n");
    unsigned i;

    header_line(s, "personality", "%s", c->pers->name);
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        char key[16];

        snprintf(key, sizeof(key), "cable%u", i);
        header_line(s, key, "%u", c->chan[i].bus.cable80 ? 80 : 40);
    }
    header_line(s, "strict", "%s", c->strict ? "on" : "off");
    /* Absent: both channels legacy (every trace before native mode). */
    if (c->firmware_native) {
        header_line(s, "ide-mode", "%s",
                    atalab_ide_mode_name(c->firmware_native));
    }
    /* Absent: MAP 000b (every trace before port mapping) */
    if (c->firmware_map >= 0) {
        header_line(s, "sata-map", "%d", c->firmware_map);
    }
    /* Absent: no port enabled by firmware (every trace before it did) */
    if (atalab_ctrl_firmware_ports(c)) {
        header_line(s, "sata-ports", "%u", atalab_ctrl_firmware_ports(c));
    }
    if (c->writer) {
        header_line(s, "trace-data", "%s",
                    atalab_trace_writer_data_mode(c->writer) ==
                    ATALAB_TRACE_DATA_RAW ? "raw" : "block");
        header_line(s, "trace-time", "%s",
                    atalab_trace_writer_time_mode(c->writer) ==
                    ATALAB_TRACE_TIME_RELATIVE ? "relative" : "absolute");
    }
    /*
     * The disks by the host's drive number: where MAP 000b puts them (a
     * SATA personality's PATA-side disks, 1 and 3, are nowhere then).
     */
    for (i = 0; i < ATALAB_DRIVES; i++) {
        const AtalabDrive *d = &c->chan[i / 2].bus.drive[i % 2];
        bool sata = c->pers->caps & ATALAB_CAP_SATA;
        char key[24], model[41], serial[21], fwrev[9];

        snprintf(key, sizeof(key), "drive%u", i);
        if (sata ? !c->disk[i].present : !d->attached) {
            header_line(s, key, "absent");
            continue;
        }
        if (sata) {
            atalab_ata_disk_strings(&c->disk[i], i, model, serial, fwrev);
        } else {
            g_strlcpy(model, d->model, sizeof(model));
            g_strlcpy(serial, d->serial, sizeof(serial));
            g_strlcpy(fwrev, d->fwrev, sizeof(fwrev));
        }
        /* A CD-ROM: "cd sectors=S", S its disc's (0: an empty tray) */
        header_line(s, key, "%ssectors=%" PRIu64,
                    (sata ? c->disk[i].kind : d->atapi ? ATALAB_DRIVE_CD :
                     ATALAB_DRIVE_DISK) == ATALAB_DRIVE_CD ? "cd " : "",
                    sata ? c->disk[i].sectors : d->native_sectors);
        snprintf(key, sizeof(key), "drive%u.model", i);
        header_line(s, key, "%s", model);
        snprintf(key, sizeof(key), "drive%u.serial", i);
        header_line(s, key, "%s", serial);
        snprintf(key, sizeof(key), "drive%u.fwrev", i);
        header_line(s, key, "%s", fwrev);
    }
    header_line(s, "fault-seed", "%" PRIu64, atalab_faults_seed(c->faults));
    for (i = 0; i < atalab_faults_count(c->faults); i++) {
        g_autofree char *rule =
            atalab_fault_rule_text(atalab_faults_rule(c->faults, i));

        header_line(s, "fault", "%s", rule);
    }
    for (i = 0; extra && extra[i] && extra[i + 1]; i += 2) {
        header_line(s, extra[i], "%s", extra[i + 1]);
    }
    return g_string_free(s, FALSE);
}
