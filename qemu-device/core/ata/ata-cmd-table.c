/*
 * atalab emulator core: the command table -- one row per opcode with its
 * name, protocol, flags and handler.  The one place to read the command
 * set of the emulated disks.
 *
 * Opcodes and names: ATA/ATAPI-7 volume 1 (T13 1532D), clause 6 and the
 * command code table (annex); retired opcodes from ATA-1..ATA-5 where real
 * drives still accept them (RECALIBRATE/SEEK ranges, the ATA-3 power
 * management opcodes 94h-99h, the "without retry" variants).  A row without
 * a handler is aborted (ABRT), which is what a drive does with a command it
 * does not implement.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>

#include "ata-internal.h"

/*
 * The fault class (docs/faults.md, class=): a command with a range reads
 * or writes the medium (READ VERIFY reads it); FLUSH and IDENTIFY rows
 * name theirs; everything else is "other".
 */
#define CLASS(f)            (((f) & RANGE) ? (((f) & ATA_CF_WRITE) ? \
                             ATALAB_CLASS_WRITE : ATALAB_CLASS_READ) : \
                             ATALAB_CLASS_OTHER)
#define ROW(n, p, f, h)     { n, p, (f), h, CLASS(f) }
#define NODATA(n, h, f)     ROW(n, ATA_PROTO_NONDATA, (f), h)
#define PIO_IN(n, h, f)     ROW(n, ATA_PROTO_PIO_IN, (f), h)
#define PIO_OUT(n, h, f)    ROW(n, ATA_PROTO_PIO_OUT, (f) | ATA_CF_WRITE, h)
#define DMA_IN(n, f)        ROW(n, ATA_PROTO_DMA, (f) | MEDIA | RANGE, \
                                atalab_ata_cmd_read)
#define DMA_OUT(n, f)       ROW(n, ATA_PROTO_DMA, \
                                (f) | ATA_CF_WRITE | MEDIA | RANGE, \
                                atalab_ata_cmd_write)
/* A standard command this ATA device does not implement. */
#define UNSUPPORTED(n)      ROW(n, ATA_PROTO_NONE, 0, NULL)

#define RD  atalab_ata_cmd_read
#define WR  atalab_ata_cmd_write
#define MEDIA   ATA_CF_MEDIA
#define RANGE   ATA_CF_RANGE
#define EXT     ATA_CF_LBA48
#define MULT    ATA_CF_MULTIPLE
#define OBS     ATA_CF_OBSOLETE

/*
 * The power management commands, disk and packet device alike (ATA-7
 * vol. 1, Power Management feature set), and their ATA-3 opcodes.
 */
#define POWER_ROWS \
    [0xE0] = NODATA("STANDBY_IMMEDIATE", atalab_ata_cmd_standby_immediate, \
                    0), \
    [0xE1] = NODATA("IDLE_IMMEDIATE", atalab_ata_cmd_idle_immediate, 0), \
    [0xE2] = NODATA("STANDBY", atalab_ata_cmd_standby, 0), \
    [0xE3] = NODATA("IDLE", atalab_ata_cmd_idle, 0), \
    [0xE5] = NODATA("CHECK_POWER_MODE", atalab_ata_cmd_check_power_mode, 0), \
    [0xE6] = NODATA("SLEEP", atalab_ata_cmd_sleep, 0)
#define POWER_ROWS_ATA3 \
    [0x94] = NODATA("STANDBY_IMMEDIATE", atalab_ata_cmd_standby_immediate, \
                    OBS), \
    [0x95] = NODATA("IDLE_IMMEDIATE", atalab_ata_cmd_idle_immediate, OBS), \
    [0x96] = NODATA("STANDBY", atalab_ata_cmd_standby, OBS), \
    [0x97] = NODATA("IDLE", atalab_ata_cmd_idle, OBS), \
    [0x98] = NODATA("CHECK_POWER_MODE", atalab_ata_cmd_check_power_mode, \
                    OBS), \
    [0x99] = NODATA("SLEEP", atalab_ata_cmd_sleep, OBS)

static const AtaCmdInfo cmd_table[256] = {
    [0x00] = UNSUPPORTED("NOP"),
    [0x03] = UNSUPPORTED("CFA_REQUEST_EXTENDED_ERROR"),
    [0x06] = UNSUPPORTED("DATA_SET_MANAGEMENT"),
    [0x08] = UNSUPPORTED("DEVICE_RESET"),
    [0x0B] = UNSUPPORTED("REQUEST_SENSE_DATA_EXT"),
    [0x10] = NODATA("RECALIBRATE", atalab_ata_cmd_recalibrate, MEDIA),
    [0x11 ... 0x1F] = NODATA("RECALIBRATE", atalab_ata_cmd_recalibrate,
                             MEDIA | OBS),
    [0x20] = PIO_IN("READ_SECTORS", RD, MEDIA | RANGE),
    [0x21] = PIO_IN("READ_SECTORS_NO_RETRY", RD, MEDIA | RANGE | OBS),
    [0x22] = UNSUPPORTED("READ_LONG"),
    [0x23] = UNSUPPORTED("READ_LONG_NO_RETRY"),
    [0x24] = PIO_IN("READ_SECTORS_EXT", RD, MEDIA | RANGE | EXT),
    [0x25] = DMA_IN("READ_DMA_EXT", EXT),
    [0x26] = UNSUPPORTED("READ_DMA_QUEUED_EXT"),
    [0x27] = NODATA("READ_NATIVE_MAX_ADDRESS_EXT",
                    atalab_ata_cmd_read_native_max, EXT),
    [0x29] = PIO_IN("READ_MULTIPLE_EXT", RD, MEDIA | RANGE | EXT | MULT),
    [0x2A] = UNSUPPORTED("READ_STREAM_DMA_EXT"),
    [0x2B] = UNSUPPORTED("READ_STREAM_EXT"),
    [0x2F] = PIO_IN("READ_LOG_EXT", atalab_ata_cmd_read_log_ext, EXT),
    [0x30] = PIO_OUT("WRITE_SECTORS", WR, MEDIA | RANGE),
    [0x31] = PIO_OUT("WRITE_SECTORS_NO_RETRY", WR, MEDIA | RANGE | OBS),
    [0x32] = UNSUPPORTED("WRITE_LONG"),
    [0x33] = UNSUPPORTED("WRITE_LONG_NO_RETRY"),
    [0x34] = PIO_OUT("WRITE_SECTORS_EXT", WR, MEDIA | RANGE | EXT),
    [0x35] = DMA_OUT("WRITE_DMA_EXT", EXT),
    [0x36] = UNSUPPORTED("WRITE_DMA_QUEUED_EXT"),
    [0x37] = NODATA("SET_MAX_ADDRESS_EXT", atalab_ata_cmd_set_max, EXT),
    [0x38] = UNSUPPORTED("CFA_WRITE_SECTORS_WITHOUT_ERASE"),
    [0x39] = PIO_OUT("WRITE_MULTIPLE_EXT", WR, MEDIA | RANGE | EXT | MULT),
    [0x3A] = UNSUPPORTED("WRITE_STREAM_DMA_EXT"),
    [0x3B] = UNSUPPORTED("WRITE_STREAM_EXT"),
    [0x3C] = UNSUPPORTED("WRITE_VERIFY"),
    [0x3D] = DMA_OUT("WRITE_DMA_FUA_EXT", EXT | ATA_CF_FUA),
    [0x3E] = UNSUPPORTED("WRITE_DMA_QUEUED_FUA_EXT"),
    [0x3F] = UNSUPPORTED("WRITE_LOG_EXT"),
    [0x40] = NODATA("READ_VERIFY_SECTORS", atalab_ata_cmd_read_verify,
                    MEDIA | RANGE),
    [0x41] = NODATA("READ_VERIFY_SECTORS_NO_RETRY",
                    atalab_ata_cmd_read_verify, MEDIA | RANGE | OBS),
    [0x42] = NODATA("READ_VERIFY_SECTORS_EXT", atalab_ata_cmd_read_verify,
                    MEDIA | RANGE | EXT),
    [0x45] = UNSUPPORTED("WRITE_UNCORRECTABLE_EXT"),
    [0x47] = UNSUPPORTED("READ_LOG_DMA_EXT"),
    [0x50] = UNSUPPORTED("FORMAT_TRACK"),
    [0x51] = UNSUPPORTED("CONFIGURE_STREAM"),
    [0x57] = UNSUPPORTED("WRITE_LOG_DMA_EXT"),
    [0x5B] = UNSUPPORTED("TRUSTED_NON_DATA"),
    [0x5C] = UNSUPPORTED("TRUSTED_RECEIVE"),
    [0x5D] = UNSUPPORTED("TRUSTED_RECEIVE_DMA"),
    [0x5E] = UNSUPPORTED("TRUSTED_SEND"),
    [0x5F] = UNSUPPORTED("TRUSTED_SEND_DMA"),
    [0x60] = UNSUPPORTED("READ_FPDMA_QUEUED"),
    [0x61] = UNSUPPORTED("WRITE_FPDMA_QUEUED"),
    [0x70] = NODATA("SEEK", atalab_ata_cmd_seek, MEDIA),
    [0x71 ... 0x7F] = NODATA("SEEK", atalab_ata_cmd_seek, MEDIA | OBS),
    [0x87] = UNSUPPORTED("CFA_TRANSLATE_SECTOR"),
    [0x90] = ROW("EXECUTE_DEVICE_DIAGNOSTIC", ATA_PROTO_DIAG, 0, NULL),
    [0x91] = NODATA("INITIALIZE_DEVICE_PARAMETERS",
                    atalab_ata_cmd_init_dev_params, 0),
    [0x92] = UNSUPPORTED("DOWNLOAD_MICROCODE"),
    [0x93] = UNSUPPORTED("DOWNLOAD_MICROCODE_DMA"),
    POWER_ROWS_ATA3,
    [0xA0] = UNSUPPORTED("PACKET"),
    [0xA1] = UNSUPPORTED("IDENTIFY_PACKET_DEVICE"),
    [0xA2] = UNSUPPORTED("SERVICE"),
    [0xB0] = ROW("SMART", ATA_PROTO_BY_FEATURE, 0, atalab_ata_cmd_smart),
    [0xB1] = UNSUPPORTED("DEVICE_CONFIGURATION"),
    [0xB6] = UNSUPPORTED("NV_CACHE"),
    [0xC0] = UNSUPPORTED("CFA_ERASE_SECTORS"),
    [0xC4] = PIO_IN("READ_MULTIPLE", RD, MEDIA | RANGE | MULT),
    [0xC5] = PIO_OUT("WRITE_MULTIPLE", WR, MEDIA | RANGE | MULT),
    [0xC6] = NODATA("SET_MULTIPLE_MODE", atalab_ata_cmd_set_multiple, 0),
    [0xC7] = UNSUPPORTED("READ_DMA_QUEUED"),
    [0xC8] = DMA_IN("READ_DMA", 0),
    [0xC9] = DMA_IN("READ_DMA_NO_RETRY", OBS),
    [0xCA] = DMA_OUT("WRITE_DMA", 0),
    [0xCB] = DMA_OUT("WRITE_DMA_NO_RETRY", OBS),
    [0xCC] = UNSUPPORTED("WRITE_DMA_QUEUED"),
    [0xCD] = UNSUPPORTED("CFA_WRITE_MULTIPLE_WITHOUT_ERASE"),
    [0xCE] = PIO_OUT("WRITE_MULTIPLE_FUA_EXT", WR,
                     MEDIA | RANGE | EXT | MULT | ATA_CF_FUA),
    [0xD1] = UNSUPPORTED("CHECK_MEDIA_CARD_TYPE"),
    [0xDA] = UNSUPPORTED("GET_MEDIA_STATUS"),
    [0xDB] = UNSUPPORTED("ACKNOWLEDGE_MEDIA_CHANGE"),
    [0xDC] = UNSUPPORTED("BOOT_POST_BOOT"),
    [0xDD] = UNSUPPORTED("BOOT_PRE_BOOT"),
    [0xDE] = UNSUPPORTED("MEDIA_LOCK"),
    [0xDF] = UNSUPPORTED("MEDIA_UNLOCK"),
    POWER_ROWS,
    [0xE4] = PIO_IN("READ_BUFFER", atalab_ata_cmd_read_buffer, 0),
    [0xE7] = { "FLUSH_CACHE", ATA_PROTO_NONDATA, 0, atalab_ata_cmd_flush,
               ATALAB_CLASS_FLUSH },
    [0xE8] = PIO_OUT("WRITE_BUFFER", atalab_ata_cmd_write_buffer, 0),
    [0xE9] = UNSUPPORTED("WRITE_SAME"),
    [0xEA] = { "FLUSH_CACHE_EXT", ATA_PROTO_NONDATA, EXT,
               atalab_ata_cmd_flush, ATALAB_CLASS_FLUSH },
    [0xEC] = { "IDENTIFY_DEVICE", ATA_PROTO_PIO_IN, 0,
               atalab_ata_cmd_identify, ATALAB_CLASS_IDENTIFY },
    [0xED] = UNSUPPORTED("MEDIA_EJECT"),
    [0xEE] = UNSUPPORTED("IDENTIFY_DMA"),
    [0xEF] = NODATA("SET_FEATURES", atalab_ata_cmd_set_features, 0),
    [0xF1] = UNSUPPORTED("SECURITY_SET_PASSWORD"),
    [0xF2] = UNSUPPORTED("SECURITY_UNLOCK"),
    [0xF3] = UNSUPPORTED("SECURITY_ERASE_PREPARE"),
    [0xF4] = UNSUPPORTED("SECURITY_ERASE_UNIT"),
    [0xF5] = UNSUPPORTED("SECURITY_FREEZE_LOCK"),
    [0xF6] = UNSUPPORTED("SECURITY_DISABLE_PASSWORD"),
    [0xF8] = NODATA("READ_NATIVE_MAX_ADDRESS", atalab_ata_cmd_read_native_max,
                    0),
    [0xF9] = NODATA("SET_MAX_ADDRESS", atalab_ata_cmd_set_max, 0),
};

/*
 * A packet device's ATA command set (ATA-7 vol. 1, PACKET command feature
 * set: the commands a packet device implements, and IDENTIFY DEVICE, which
 * it aborts with its signature in the registers).  Every other opcode is
 * aborted; names come from the disk's table.
 */
static const AtaCmdInfo packet_cmd_table[256] = {
    [0x08] = NODATA("DEVICE_RESET", atalab_atapi_device_reset,
                    ATA_CF_ANY_STATE),
    [0x90] = ROW("EXECUTE_DEVICE_DIAGNOSTIC", ATA_PROTO_DIAG, 0, NULL),
    POWER_ROWS_ATA3,
    [0xA0] = ROW("PACKET", ATA_PROTO_PACKET, 0, atalab_atapi_cmd_packet),
    [0xA1] = { "IDENTIFY_PACKET_DEVICE", ATA_PROTO_PIO_IN, 0,
               atalab_ata_cmd_identify, ATALAB_CLASS_IDENTIFY },
    POWER_ROWS,
    [0xEC] = { "IDENTIFY_DEVICE", ATA_PROTO_NONDATA, 0,
               atalab_atapi_cmd_identify_device, ATALAB_CLASS_IDENTIFY },
    [0xEF] = NODATA("SET_FEATURES", atalab_ata_cmd_set_features, 0),
};

/* Opcodes ATA-7 leaves to vendors (annex, command codes). */
static bool vendor_specific(uint8_t op)
{
    return (op >= 0x80 && op <= 0x8F && op != 0x87) || op == 0x9A ||
           (op >= 0xC1 && op <= 0xC3) || op == 0xF0 ||
           op == 0xF7 || op >= 0xFA;
}

const AtaCmdInfo *atalab_ata_cmd_info(uint8_t opcode)
{
    return &cmd_table[opcode];
}

const AtaCmdInfo *atalab_ata_packet_cmd_info(uint8_t opcode)
{
    return &packet_cmd_table[opcode];
}

const AtaCmdInfo *atalab_ata_drive_cmd_info(const AtalabDrive *d,
                                            uint8_t opcode)
{
    return d->atapi ? &packet_cmd_table[opcode] : &cmd_table[opcode];
}

const char *atalab_ata_cmd_protocol(uint8_t opcode)
{
    static const char *const names[] = {
        [ATA_PROTO_NONE] = "aborted",
        [ATA_PROTO_NONDATA] = "non-data",
        [ATA_PROTO_PIO_IN] = "pio-in",
        [ATA_PROTO_PIO_OUT] = "pio-out",
        [ATA_PROTO_DMA] = "dma",
        [ATA_PROTO_DIAG] = "diagnostic",
        [ATA_PROTO_BY_FEATURE] = "by-feature",
        [ATA_PROTO_PACKET] = "packet",
    };

    return names[cmd_table[opcode].proto];
}

const char *atalab_ata_cmd_name(uint8_t opcode)
{
    static char names[256][16];
    static gsize once;

    if (cmd_table[opcode].name) {
        return cmd_table[opcode].name;
    }
    if (g_once_init_enter(&once)) {
        unsigned i;

        for (i = 0; i < 256; i++) {
            snprintf(names[i], sizeof(names[i]), "%s_%02X",
                     vendor_specific(i) ? "VENDOR" : "RESERVED", i);
        }
        g_once_init_leave(&once, 1);
    }
    return names[opcode];
}
