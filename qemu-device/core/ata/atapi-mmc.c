/*
 * atalab emulator core: the packet commands of the CD-ROM -- one row per
 * operation code, what each replies, sense data, unit attention, the tray
 * and media events.
 *
 * References: SCSI Primary Commands-3 (SPC-3, T10/1416-D): INQUIRY, MODE
 * SENSE(10), REQUEST SENSE (fixed format), TEST UNIT READY, PREVENT ALLOW
 * MEDIUM REMOVAL, START STOP UNIT, sense keys and the ASC/ASCQ table;
 * Multi-Media Commands-3 (MMC-3, T10/1363-D): READ CAPACITY, READ(10),
 * READ(12), READ TOC/PMA/ATIP formats 0 and 1, GET CONFIGURATION (the
 * Profile List, Core and Removable Medium features, CD-ROM profile 0008h),
 * GET EVENT STATUS NOTIFICATION (media class, polled), READ DISC
 * INFORMATION, READ TRACK INFORMATION, SET CD SPEED and the CD
 * Capabilities and Mechanical Status mode page (2Ah).  docs/atapi.md
 * lists what is modelled and what is not.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ata-internal.h"
#include "../trace/trace.h"

/* Sense keys (SPC-3, sense key descriptions) */
#define KEY_NOT_READY           0x2
#define KEY_ILLEGAL_REQUEST     0x5
#define KEY_UNIT_ATTENTION      0x6

/* Additional sense codes (SPC-3 annex, ASC and ASCQ assignments) */
#define ASC_INVALID_OPCODE      0x20
#define ASC_LBA_OUT_OF_RANGE    0x21
#define ASC_INVALID_FIELD       0x24
#define ASC_MEDIUM_CHANGED      0x28    /* not ready to ready change */
#define ASC_POWER_ON            0x29    /* power on, reset */
#define ASC_SAVING_UNSUPPORTED  0x39
#define ASC_REMOVAL_PREVENTED   0x53    /* ASCQ 02h */
#define ASC_NO_MEDIUM           0x3A    /* ASCQ 01h tray closed, 02h open */

/* The largest reply a command here builds (bytes). */
#define REPLY_MAX               256

/* MmcCmd.flags */
#define MMC_MEDIUM      0x1     /* needs a disc: NOT READY without one */
#define MMC_NO_UA       0x2     /* a unit attention does not stop it */
#define MMC_SENSE       0x4     /* reports the sense: does not clear it */

typedef struct MmcCmd {
    const char *name;
    void (*handler)(AtalabDrive *d, const uint8_t *cdb);
    unsigned flags;
} MmcCmd;

static uint16_t get_be16(const uint8_t *p)
{
    return (uint16_t)p[0] << 8 | p[1];
}

static uint32_t get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
           (uint32_t)p[2] << 8 | p[3];
}

static void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
    put_be16(p, v >> 16);
    put_be16(p + 2, v);
}

/* Space-padded ASCII field of len bytes. */
static void put_ascii(uint8_t *p, const char *s, size_t len)
{
    size_t n = strlen(s);

    memset(p, ' ', len);
    memcpy(p, s, MIN(n, len));
}

uint32_t atalab_atapi_blocks(const AtalabDrive *d)
{
    const AtapiState *p = &d->packet;

    if (!p->medium || p->tray_open) {
        return 0;
    }
    /* Bounded so that a block count in sectors fits 32 bits. */
    return MIN(d->native_sectors / ATAPI_BLOCK_SECTORS,
               (uint64_t)UINT32_MAX / ATAPI_BLOCK_SECTORS);
}

static bool ready(const AtalabDrive *d)
{
    return atalab_atapi_blocks(d) > 0;
}

static void illegal(AtalabDrive *d, uint8_t asc)
{
    atalab_atapi_check(d, KEY_ILLEGAL_REQUEST, asc, 0);
}

static void not_ready(AtalabDrive *d)
{
    atalab_atapi_check(d, KEY_NOT_READY, ASC_NO_MEDIUM,
                       d->packet.tray_open ? 0x02 : 0x01);
}

/* A zeroed reply buffer: the bounce buffer the reply is sent from. */
static uint8_t *reply_buf(AtalabDrive *d)
{
    uint8_t *buf = atalab_ata_bounce(d);

    memset(buf, 0, REPLY_MAX);
    return buf;
}

/* Send len bytes of the reply, at most the allocation length. */
static void reply(AtalabDrive *d, size_t len, size_t alloc)
{
    atalab_atapi_send(d, MIN(len, alloc));
}

/* ---- commands ------------------------------------------------------------ */

static void cmd_test_unit_ready(AtalabDrive *d, const uint8_t *cdb)
{
    atalab_atapi_good(d);
}

static void cmd_request_sense(AtalabDrive *d, const uint8_t *cdb)
{
    AtapiState *p = &d->packet;
    uint8_t *buf = reply_buf(d);

    /* A unit attention that no command reported yet is reported here. */
    if (!p->sense_key && p->ua_asc) {
        p->sense_key = KEY_UNIT_ATTENTION;
        p->asc = p->ua_asc;
        p->ascq = 0;
        p->ua_asc = 0;
    }
    buf[0] = 0x70;                      /* current error, fixed format */
    buf[2] = p->sense_key;
    buf[7] = 10;                        /* additional sense length */
    buf[12] = p->asc;
    buf[13] = p->ascq;
    p->sense_key = p->asc = p->ascq = 0;
    reply(d, 18, cdb[4]);
}

static void inquiry_vpd(AtalabDrive *d, uint8_t page, size_t alloc)
{
    uint8_t *buf = reply_buf(d);
    size_t n = strlen(d->serial);

    buf[0] = 0x05;                      /* CD/DVD device */
    buf[1] = page;
    switch (page) {
    case 0x00:                          /* supported pages */
        buf[3] = 2;
        buf[4] = 0x00;
        buf[5] = 0x80;
        reply(d, 6, alloc);
        return;
    case 0x80:                          /* unit serial number */
        buf[3] = n;
        memcpy(&buf[4], d->serial, n);
        reply(d, 4 + n, alloc);
        return;
    }
    illegal(d, ASC_INVALID_FIELD);
}

static void cmd_inquiry(AtalabDrive *d, const uint8_t *cdb)
{
    size_t alloc = get_be16(&cdb[3]);
    uint8_t *buf;

    if (cdb[1] & 0x01) {
        inquiry_vpd(d, cdb[2], alloc);
        return;
    }
    if (cdb[2]) {
        illegal(d, ASC_INVALID_FIELD);
        return;
    }
    buf = reply_buf(d);
    buf[0] = 0x05;                      /* CD/DVD device */
    buf[1] = 0x80;                      /* removable medium */
    buf[2] = 0x05;                      /* SPC-3 */
    buf[3] = 0x02;                      /* response data format 2 */
    buf[4] = 36 - 5;                    /* additional length */
    put_ascii(&buf[8], "ATALAB", 8);
    put_ascii(&buf[16], d->model, 16);
    put_ascii(&buf[32], d->fwrev, 4);
    reply(d, 36, alloc);
}

/* The tray opens (the guest's eject, or the host's). */
static void tray_open(AtalabDrive *d)
{
    AtapiState *p = &d->packet;

    if (!p->tray_open && p->medium) {
        p->media_event = 0x03;          /* media removal */
    }
    p->tray_open = true;
}

/* The tray closes on a disc of sectors (0: none). */
static void tray_close(AtalabDrive *d, uint64_t sectors)
{
    AtapiState *p = &d->packet;

    d->native_sectors = d->sectors = d->sectors_nv = sectors;
    p->medium = sectors >= ATAPI_BLOCK_SECTORS;
    p->tray_open = false;
    if (p->medium) {
        p->media_event = 0x02;          /* new media */
        p->ua_asc = ASC_MEDIUM_CHANGED;
    }
}

static void cmd_start_stop(AtalabDrive *d, const uint8_t *cdb)
{
    AtapiState *p = &d->packet;
    bool start = cdb[4] & 0x01, load_eject = cdb[4] & 0x02;

    if (load_eject && !start) {
        if (p->locked) {
            atalab_atapi_check(d, KEY_ILLEGAL_REQUEST,
                               ASC_REMOVAL_PREVENTED, 0x02);
            return;
        }
        if (!p->tray_open) {
            tray_open(d);
            atalab_trace(d->host, "ata%u media d%u ejected", d->bus->index,
                         d->unit);
            if (d->host->tray_moved) {
                d->host->tray_moved(d->host->opaque, d->disk, true);
            }
        }
    } else if (load_eject && p->tray_open) {
        uint64_t sectors = d->native_sectors;

        /* the host may have changed the disc while the tray was open */
        if (d->host->tray_moved) {
            sectors = d->host->tray_moved(d->host->opaque, d->disk, false);
        }
        tray_close(d, sectors);
        atalab_trace(d->host, "ata%u media d%u loaded sectors=%" PRIu64,
                     d->bus->index, d->unit, sectors);
    }
    atalab_atapi_good(d);
}

static void cmd_prevent_allow(AtalabDrive *d, const uint8_t *cdb)
{
    d->packet.locked = cdb[4] & 0x01;
    atalab_atapi_good(d);
}

static void cmd_read_capacity(AtalabDrive *d, const uint8_t *cdb)
{
    uint8_t *buf = reply_buf(d);

    put_be32(&buf[0], atalab_atapi_blocks(d) - 1);
    put_be32(&buf[4], ATAPI_BLOCK_SIZE);
    reply(d, 8, 8);
}

static void read_blocks(AtalabDrive *d, uint32_t lba, uint32_t blocks)
{
    if ((uint64_t)lba + blocks > atalab_atapi_blocks(d)) {
        illegal(d, ASC_LBA_OUT_OF_RANGE);
        return;
    }
    atalab_atapi_send_medium(d, lba, blocks);
}

bool atalab_atapi_cdb_reads(const uint8_t *cdb, uint32_t *lba,
                            uint32_t *blocks)
{
    switch (cdb[0]) {
    case 0x28:                          /* READ(10) */
        *lba = get_be32(&cdb[2]);
        *blocks = get_be16(&cdb[7]);
        return true;
    case 0xA8:                          /* READ(12) */
        *lba = get_be32(&cdb[2]);
        *blocks = get_be32(&cdb[6]);
        return true;
    }
    return false;
}

static void cmd_read(AtalabDrive *d, const uint8_t *cdb)
{
    uint32_t lba, blocks;

    atalab_atapi_cdb_reads(cdb, &lba, &blocks);
    read_blocks(d, lba, blocks);
}

/* Mode page 01h: read error recovery parameters (MMC-3). */
static size_t page_error_recovery(uint8_t *p, bool changeable)
{
    p[0] = 0x01;
    p[1] = 0x0A;
    if (!changeable) {
        p[3] = 5;                       /* read retry count */
    }
    return 12;
}

/* Mode page 2Ah: CD capabilities and mechanical status (MMC-3). */
static size_t page_capabilities(const AtalabDrive *d, uint8_t *p,
                                bool changeable)
{
    p[0] = 0x2A;
    p[1] = 0x14;
    if (changeable) {
        return 22;
    }
    /* 6: tray loading (001b), eject, lock supported, lock state */
    p[6] = 0x20 | 0x08 | 0x01 | (d->packet.locked ? 0x02 : 0);
    put_be16(&p[8], 706);               /* max read speed, kB/s: 4x */
    put_be16(&p[12], 512);              /* buffer size, KiB */
    put_be16(&p[14], 706);              /* current read speed */
    return 22;
}

static void cmd_mode_sense10(AtalabDrive *d, const uint8_t *cdb)
{
    uint8_t page = cdb[2] & 0x3F, control = cdb[2] >> 6;
    bool changeable = control == 1;
    uint8_t *buf;
    size_t len = 8;

    if (control == 3) {
        atalab_atapi_check(d, KEY_ILLEGAL_REQUEST, ASC_SAVING_UNSUPPORTED,
                           0);
        return;
    }
    if (page != 0x01 && page != 0x2A && page != 0x3F) {
        illegal(d, ASC_INVALID_FIELD);
        return;
    }
    buf = reply_buf(d);
    if (page == 0x01 || page == 0x3F) {
        len += page_error_recovery(&buf[len], changeable);
    }
    if (page == 0x2A || page == 0x3F) {
        len += page_capabilities(d, &buf[len], changeable);
    }
    put_be16(&buf[0], len - 2);         /* mode data length */
    reply(d, len, get_be16(&cdb[7]));
}

/* One feature descriptor of GET CONFIGURATION; returns its size. */
static size_t put_feature(const AtalabDrive *d, uint16_t code, uint8_t *p)
{
    put_be16(&p[0], code);
    p[2] = 0x03;                        /* persistent, current */
    switch (code) {
    case 0x0000:                        /* profile list: CD-ROM */
        p[3] = 4;
        put_be16(&p[4], 0x0008);
        p[6] = ready(d) ? 0x01 : 0;     /* current profile */
        return 8;
    case 0x0001:                        /* core: ATAPI interface */
        p[3] = 4;
        put_be32(&p[4], 0x00000002);
        return 8;
    case 0x0003:                        /* removable medium: as page 2Ah */
        p[3] = 4;
        p[4] = 0x20 | 0x08 | 0x01 | (d->packet.locked ? 0x04 : 0);
        return 8;
    }
    return 0;
}

static void cmd_get_configuration(AtalabDrive *d, const uint8_t *cdb)
{
    static const uint16_t features[] = { 0x0000, 0x0001, 0x0003 };
    uint8_t rt = cdb[1] & 0x03;
    uint16_t start = get_be16(&cdb[2]);
    uint8_t *buf;
    size_t len = 8;
    unsigned i;

    if (rt == 3) {
        illegal(d, ASC_INVALID_FIELD);
        return;
    }
    buf = reply_buf(d);
    for (i = 0; i < G_N_ELEMENTS(features); i++) {
        /* RT 0 and 1: from the starting feature on (all are current) */
        if (rt == 2 ? features[i] == start : features[i] >= start) {
            len += put_feature(d, features[i], &buf[len]);
        }
    }
    put_be32(&buf[0], len - 4);
    put_be16(&buf[6], ready(d) ? 0x0008 : 0x0000);
    reply(d, len, get_be16(&cdb[7]));
}

static void cmd_get_event_status(AtalabDrive *d, const uint8_t *cdb)
{
    AtapiState *p = &d->packet;
    uint8_t *buf;
    size_t len;

    if (!(cdb[1] & 0x01)) {
        /* Only polled operation (no asynchronous notification) */
        illegal(d, ASC_INVALID_FIELD);
        return;
    }
    buf = reply_buf(d);
    buf[3] = 0x10;                      /* supported: media class */
    if (cdb[4] & 0x10) {
        put_be16(&buf[0], 6);
        buf[2] = 0x04;                  /* media class */
        buf[4] = p->media_event;
        /* bit 1: media present, bit 0: tray open */
        buf[5] = (p->medium ? 0x02 : 0) | (p->tray_open ? 0x01 : 0);
        p->media_event = 0;
        len = 8;
    } else {
        put_be16(&buf[0], 2);
        buf[2] = 0x80;                  /* no event available */
        len = 4;
    }
    reply(d, len, get_be16(&cdb[7]));
}

/* A TOC address: LBA, or MSF with the 2-second lead-in (MMC-3). */
static void put_address(uint8_t *p, uint32_t lba, bool msf)
{
    if (msf) {
        uint32_t f = lba + 150;

        p[0] = 0;
        p[1] = f / (75 * 60);
        p[2] = (f / 75) % 60;
        p[3] = f % 75;
    } else {
        put_be32(p, lba);
    }
}

static size_t put_track(uint8_t *p, uint8_t track, uint32_t lba, bool msf)
{
    p[1] = 0x14;                        /* ADR 1, control: data track */
    p[2] = track;
    put_address(&p[4], lba, msf);
    return 8;
}

static void cmd_read_toc(AtalabDrive *d, const uint8_t *cdb)
{
    bool msf = cdb[1] & 0x02;
    uint8_t format = cdb[2] & 0x0F, track = cdb[6];
    uint8_t *buf;
    size_t len = 4;

    if (!format) {
        format = cdb[9] >> 6;           /* the older place of the format */
    }
    buf = reply_buf(d);
    buf[2] = buf[3] = 1;                /* first, last track or session */
    switch (format) {
    case 0:                             /* TOC: track 1, lead-out */
        if (track > 1 && track != 0xAA) {
            illegal(d, ASC_INVALID_FIELD);
            return;
        }
        if (track <= 1) {
            len += put_track(&buf[len], 1, 0, msf);
        }
        len += put_track(&buf[len], 0xAA, atalab_atapi_blocks(d), msf);
        break;
    case 1:                             /* session information */
        len += put_track(&buf[len], 1, 0, msf);
        break;
    default:
        illegal(d, ASC_INVALID_FIELD);
        return;
    }
    put_be16(&buf[0], len - 2);
    reply(d, len, get_be16(&cdb[7]));
}

static void cmd_read_disc_information(AtalabDrive *d, const uint8_t *cdb)
{
    uint8_t *buf = reply_buf(d);

    put_be16(&buf[0], 32);
    buf[2] = 0x0E;      /* last session complete, disc finalized */
    buf[3] = 1;         /* first track */
    buf[4] = 1;         /* sessions */
    buf[5] = 1;         /* first track of the last session */
    buf[6] = 1;         /* last track of the last session */
    reply(d, 34, get_be16(&cdb[7]));
}

/* READ TRACK INFORMATION (MMC-3): the one data track of the disc. */
static void cmd_read_track_information(AtalabDrive *d, const uint8_t *cdb)
{
    uint32_t blocks = atalab_atapi_blocks(d), number = get_be32(&cdb[2]);
    uint8_t *buf;

    switch (cdb[1] & 0x03) {
    case 0:                             /* an LBA: the track holding it */
        if (number >= blocks) {
            illegal(d, ASC_LBA_OUT_OF_RANGE);
            return;
        }
        break;
    case 1:                             /* a track number */
    case 2:                             /* a session number */
        if (number != 1) {
            illegal(d, ASC_INVALID_FIELD);
            return;
        }
        break;
    default:
        illegal(d, ASC_INVALID_FIELD);
        return;
    }
    buf = reply_buf(d);
    put_be16(&buf[0], 34);              /* data length */
    buf[2] = 1;                         /* track 1 */
    buf[3] = 1;                         /* session 1 */
    buf[5] = 0x04;                      /* track mode: data, uninterrupted */
    buf[6] = 0x01;                      /* data mode 1 */
    put_be32(&buf[24], blocks);         /* track size */
    reply(d, 36, get_be16(&cdb[7]));
}

static void cmd_set_cd_speed(AtalabDrive *d, const uint8_t *cdb)
{
    atalab_atapi_good(d);
}

static const MmcCmd mmc_table[256] = {
    [0x00] = { "TEST_UNIT_READY", cmd_test_unit_ready, MMC_MEDIUM },
    [0x03] = { "REQUEST_SENSE", cmd_request_sense, MMC_NO_UA | MMC_SENSE },
    [0x12] = { "INQUIRY", cmd_inquiry, MMC_NO_UA },
    [0x1B] = { "START_STOP_UNIT", cmd_start_stop, 0 },
    [0x1E] = { "PREVENT_ALLOW_MEDIUM_REMOVAL", cmd_prevent_allow, 0 },
    [0x25] = { "READ_CAPACITY", cmd_read_capacity, MMC_MEDIUM },
    [0x28] = { "READ_10", cmd_read, MMC_MEDIUM },
    [0x43] = { "READ_TOC_PMA_ATIP", cmd_read_toc, MMC_MEDIUM },
    [0x46] = { "GET_CONFIGURATION", cmd_get_configuration, MMC_NO_UA },
    [0x4A] = { "GET_EVENT_STATUS_NOTIFICATION", cmd_get_event_status,
               MMC_NO_UA },
    [0x51] = { "READ_DISC_INFORMATION", cmd_read_disc_information,
               MMC_MEDIUM },
    [0x52] = { "READ_TRACK_INFORMATION", cmd_read_track_information,
               MMC_MEDIUM },
    [0x5A] = { "MODE_SENSE_10", cmd_mode_sense10, 0 },
    [0xA8] = { "READ_12", cmd_read, MMC_MEDIUM },
    [0xBB] = { "SET_CD_SPEED", cmd_set_cd_speed, 0 },
};

const char *atalab_atapi_cdb_name(uint8_t opcode)
{
    static char names[256][8];
    static gsize once;

    if (mmc_table[opcode].name) {
        return mmc_table[opcode].name;
    }
    if (g_once_init_enter(&once)) {
        unsigned i;

        for (i = 0; i < 256; i++) {
            snprintf(names[i], sizeof(names[i]), "OP_%02X", i);
        }
        g_once_init_leave(&once, 1);
    }
    return names[opcode];
}

void atalab_ata_cd_tray(AtalabDrive *d, bool open, uint64_t sectors)
{
    if (open) {
        tray_open(d);
        atalab_trace(d->host, "ata%u media d%u open", d->bus->index,
                     d->unit);
        return;
    }
    tray_close(d, sectors);
    atalab_trace(d->host, "ata%u media d%u closed sectors=%" PRIu64,
                 d->bus->index, d->unit, sectors);
}

void atalab_ata_cd_eject_request(AtalabDrive *d, bool force)
{
    AtapiState *p = &d->packet;

    p->media_event = 0x01;              /* eject request */
    if (force) {
        p->locked = false;
    }
    atalab_trace(d->host, "ata%u media d%u eject-request force=%d",
                 d->bus->index, d->unit, force);
}

bool atalab_ata_cd_tray_open(const AtalabDrive *d)
{
    return d->packet.tray_open;
}

bool atalab_ata_cd_locked(const AtalabDrive *d)
{
    return d->packet.locked;
}

void atalab_atapi_mmc_power_on(AtalabDrive *d)
{
    AtapiState *p = &d->packet;

    p->medium = d->native_sectors >= ATAPI_BLOCK_SECTORS;
    p->locked = false;
    p->sense_key = p->asc = p->ascq = 0;
    p->media_event = 0;
    /* The first command after power-on learns of it (SPC-3, 29h/00h). */
    p->ua_asc = ASC_POWER_ON;
}

void atalab_atapi_trace_packet(AtalabDrive *d)
{
    const AtapiState *p = &d->packet;
    char cdb[2 * ATAPI_CDB_SIZE + 1];
    unsigned i;

    for (i = 0; i < ATAPI_CDB_SIZE; i++) {
        snprintf(&cdb[2 * i], 3, "%02x", p->cdb[i]);
    }
    /* The whole packet: what a diff compares, what replay feeds again */
    atalab_trace(d->host, "ata%u packet d%u 0x%02x %s dma=%d limit=%u "
                 "cdb=0x%s", d->bus->index, d->unit, p->cdb[0],
                 atalab_atapi_cdb_name(p->cdb[0]), p->dma, p->limit, cdb);
}

void atalab_atapi_execute(AtalabDrive *d)
{
    AtapiState *p = &d->packet;
    const MmcCmd *cmd = &mmc_table[p->cdb[0]];

    if (!cmd->handler) {
        illegal(d, ASC_INVALID_OPCODE);
        return;
    }
    /* A new command replaces the sense of the one before. */
    if (!(cmd->flags & MMC_SENSE)) {
        p->sense_key = p->asc = p->ascq = 0;
    }
    if (p->ua_asc && !(cmd->flags & MMC_NO_UA)) {
        uint8_t asc = p->ua_asc;

        p->ua_asc = 0;
        atalab_atapi_check(d, KEY_UNIT_ATTENTION, asc, 0);
        return;
    }
    if ((cmd->flags & MMC_MEDIUM) && !ready(d)) {
        not_ready(d);
        return;
    }
    cmd->handler(d, p->cdb);
}
