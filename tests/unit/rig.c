/*
 * atalab unit tests: a controller on a fake host, register helpers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

/* A controller of personality with drives[], booted by its firmware. */
static Rig *rig_new_drives(const char *personality,
                           AtalabDriveConfig drives[ATALAB_DRIVES],
                           bool tracing)
{
    Rig *r = g_new0(Rig, 1);
    const AtalabPersonality *p = atalab_personality_find(personality);
    unsigned i;

    g_assert(p);
    fake_host_init(&r->fh, tracing);
    for (i = 0; i < ATALAB_DRIVES; i++) {
        if (drives[i].present && drives[i].sectors) {
            fake_host_add_disk(&r->fh, i, drives[i].sectors);
        }
    }
    r->c = atalab_ctrl_new(p, &r->fh.host, drives);
    r->fh.ctrl = r->c;
    /*
     * The tests' firmware leaves the SATA ports as at power-on, for the
     * driver's code to enable (/sata/firmware-ports: the default).
     */
    atalab_ctrl_set_firmware_ports(r->c, 0);
    atalab_ctrl_firmware_init(r->c);
    return r;
}

Rig *rig_new_full(const char *personality, unsigned drive_mask,
                  uint64_t sectors, bool tracing)
{
    AtalabDriveConfig drives[ATALAB_DRIVES] = { 0 };
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        if (drive_mask & (1u << i)) {
            drives[i].present = true;
            drives[i].sectors = sectors ? sectors : RIG_SECTORS;
        }
    }
    return rig_new_drives(personality, drives, tracing);
}

Rig *rig_new_cd(unsigned disk_mask, unsigned cd_mask, uint64_t cd_sectors)
{
    AtalabDriveConfig drives[ATALAB_DRIVES] = { 0 };
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        if (disk_mask & (1u << i)) {
            drives[i].present = true;
            drives[i].sectors = RIG_SECTORS;
        } else if (cd_mask & (1u << i)) {
            drives[i].present = true;
            drives[i].kind = ATALAB_DRIVE_CD;
            drives[i].sectors = cd_sectors;
        }
    }
    return rig_new_drives("piix4", drives, true);
}

Rig *rig_new(unsigned drive_mask)
{
    return rig_new_full("piix4", drive_mask, 0, true);
}

void rig_free(Rig *r)
{
    fake_host_complete_all(&r->fh);
    atalab_ctrl_free(r->c);
    r->fh.ctrl = NULL;
    fake_host_cleanup(&r->fh);
    g_free(r);
}

uint8_t rig_in(Rig *r, unsigned ch, unsigned reg)
{
    return atalab_ctrl_cmd_read(r->c, ch, reg, 1);
}

void rig_out(Rig *r, unsigned ch, unsigned reg, uint8_t val)
{
    atalab_ctrl_cmd_write(r->c, ch, reg, val, 1);
}

uint8_t rig_status(Rig *r, unsigned ch)
{
    return rig_in(r, ch, R_STATUS);
}

uint8_t rig_altstatus(Rig *r, unsigned ch)
{
    return atalab_ctrl_ctl_read(r->c, ch);
}

void rig_devctl(Rig *r, unsigned ch, uint8_t val)
{
    atalab_ctrl_ctl_write(r->c, ch, val);
}

void rig_srst(Rig *r, unsigned ch)
{
    rig_devctl(r, ch, 0x04);
    rig_devctl(r, ch, 0x00);
}

void rig_select(Rig *r, unsigned drive)
{
    rig_out(r, drive / 2, R_DEVICE, 0xE0 | (drive % 2) << 4);
}

void rig_lba28(Rig *r, unsigned drive, uint32_t lba, unsigned count)
{
    unsigned ch = drive / 2;

    rig_out(r, ch, R_DEVICE, 0xE0 | (drive % 2) << 4 | ((lba >> 24) & 0xF));
    rig_out(r, ch, R_COUNT, count);
    rig_out(r, ch, R_LBAL, lba);
    rig_out(r, ch, R_LBAM, lba >> 8);
    rig_out(r, ch, R_LBAH, lba >> 16);
}

void rig_lba48(Rig *r, unsigned drive, uint64_t lba, unsigned count)
{
    unsigned ch = drive / 2;

    rig_out(r, ch, R_DEVICE, 0x40 | (drive % 2) << 4);
    rig_out(r, ch, R_COUNT, count >> 8);
    rig_out(r, ch, R_LBAL, lba >> 24);
    rig_out(r, ch, R_LBAM, lba >> 32);
    rig_out(r, ch, R_LBAH, lba >> 40);
    rig_out(r, ch, R_COUNT, count);
    rig_out(r, ch, R_LBAL, lba);
    rig_out(r, ch, R_LBAM, lba >> 8);
    rig_out(r, ch, R_LBAH, lba >> 16);
}

void rig_command(Rig *r, unsigned drive, uint8_t cmd)
{
    rig_out(r, drive / 2, R_COMMAND, cmd);
}

uint8_t rig_nodata(Rig *r, unsigned drive, uint8_t cmd, uint8_t feature,
                   uint8_t count)
{
    unsigned ch = drive / 2;

    rig_select(r, drive);
    rig_out(r, ch, R_FEATURE, feature);
    rig_out(r, ch, R_COUNT, count);
    rig_command(r, drive, cmd);
    fake_host_complete_all(&r->fh);
    return rig_status(r, ch);
}

void rig_read_data(Rig *r, unsigned ch, void *buf, size_t len, bool wide32)
{
    uint8_t *p = buf;
    unsigned step = wide32 ? 4 : 2;
    size_t i, j;

    for (i = 0; i < len; i += step) {
        uint32_t v = atalab_ctrl_cmd_read(r->c, ch, R_DATA, step);

        for (j = 0; j < step; j++) {
            p[i + j] = v >> (8 * j);
        }
    }
}

void rig_write_data(Rig *r, unsigned ch, const void *buf, size_t len,
                    bool wide32)
{
    const uint8_t *p = buf;
    unsigned step = wide32 ? 4 : 2;
    size_t i, j;

    for (i = 0; i < len; i += step) {
        uint32_t v = 0;

        for (j = 0; j < step; j++) {
            v |= (uint32_t)p[i + j] << (8 * j);
        }
        atalab_ctrl_cmd_write(r->c, ch, R_DATA, v, step);
    }
}

void rig_identify(Rig *r, unsigned drive, uint16_t words[256])
{
    unsigned ch = drive / 2;
    uint8_t raw[512];
    unsigned i;

    rig_select(r, drive);
    rig_command(r, drive, 0xEC);
    g_assert_cmphex(rig_altstatus(r, ch), ==, ST_READY | ST_DRQ);
    g_assert_true(r->fh.irq[ch]);
    g_assert_cmphex(rig_status(r, ch), ==, ST_READY | ST_DRQ);
    rig_read_data(r, ch, raw, sizeof(raw), false);
    g_assert_cmphex(rig_status(r, ch), ==, ST_READY);
    for (i = 0; i < 256; i++) {
        words[i] = raw[2 * i] | raw[2 * i + 1] << 8;
    }
}

void rig_prd(Rig *r, uint32_t table, unsigned idx, uint32_t addr,
             uint32_t len, bool eot)
{
    uint8_t *e = r->fh.ram + table + idx * 8;
    uint32_t flags = (len & 0xFFFF) | (eot ? 0x80000000u : 0);
    unsigned i;

    for (i = 0; i < 4; i++) {
        e[i] = addr >> (8 * i);
        e[4 + i] = flags >> (8 * i);
    }
}

void rig_bm_setup(Rig *r, unsigned ch, uint32_t prdt, bool to_memory)
{
    atalab_ctrl_bm_write(r->c, ch * 8 + 4, prdt, 4);
    /* Clear ERR and INTR, as drivers do before a command. */
    atalab_ctrl_bm_write(r->c, ch * 8 + 2, 0x06, 1);
    atalab_ctrl_bm_write(r->c, ch * 8, to_memory ? 0x08 : 0x00, 1);
}

void rig_bm_start(Rig *r, unsigned ch, bool to_memory)
{
    atalab_ctrl_bm_write(r->c, ch * 8, (to_memory ? 0x08 : 0x00) | 1, 1);
}

void rig_bm_stop(Rig *r, unsigned ch)
{
    uint8_t cmd = atalab_ctrl_bm_read(r->c, ch * 8, 1);

    atalab_ctrl_bm_write(r->c, ch * 8, cmd & ~1, 1);
}

uint8_t rig_bm_status(Rig *r, unsigned ch)
{
    return atalab_ctrl_bm_read(r->c, ch * 8 + 2, 1);
}

bool rig_ram_matches_disk(Rig *r, uint64_t addr, unsigned drive,
                          uint64_t offset, size_t len)
{
    return memcmp(r->fh.ram + addr, r->fh.disk[drive] + offset, len) == 0;
}
