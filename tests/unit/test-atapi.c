/*
 * atalab unit tests: the ATAPI CD-ROM -- signature, IDENTIFY PACKET
 * DEVICE, the PACKET protocol (interrupt reason, byte count limit, DMA),
 * sense data and unit attention, the tray, and the bounds a misbehaving
 * host meets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

#define CD              2               /* secondary master */
#define CH              (CD / 2)
#define CD_BLOCKS       400
#define CD_SECTORS      (CD_BLOCKS * 4)

#define IR_COD          0x01
#define IR_IO           0x02

/* A CD-ROM at CD beside a disk at 0; the power-on unit attention taken. */
static Rig *cd_rig(uint64_t sectors);

static uint8_t lbam_lbah_count(Rig *r, unsigned *bytes)
{
    *bytes = rig_in(r, CH, R_LBAM) | rig_in(r, CH, R_LBAH) << 8;
    return rig_in(r, CH, R_COUNT);
}

/* PACKET with the byte count limit, up to the packet's DRQ. */
static void packet_start(Rig *r, uint16_t limit, bool dma)
{
    rig_select(r, CD);
    rig_out(r, CH, R_FEATURE, dma ? 0x01 : 0x00);
    rig_out(r, CH, R_LBAM, limit);
    rig_out(r, CH, R_LBAH, limit >> 8);
    rig_command(r, CD, 0xA0);
    /* Accelerated DRQ: no interrupt; CoD set, IO clear */
    g_assert_false(r->fh.irq[CH]);
    g_assert_cmphex(rig_altstatus(r, CH), ==, ST_READY | ST_DRQ);
    g_assert_cmphex(rig_in(r, CH, R_COUNT) & 3, ==, IR_COD);
}

/* A whole packet command; returns at its first DRQ data block or end. */
static void packet(Rig *r, const uint8_t cdb[12], uint16_t limit, bool dma)
{
    packet_start(r, limit, dma);
    rig_write_data(r, CH, cdb, 12, false);
    fake_host_complete_all(&r->fh);
}

/* The command ended: status, interrupt reason CoD|IO, its interrupt. */
static void assert_end(Rig *r, uint8_t status)
{
    g_assert_true(r->fh.irq[CH]);
    g_assert_cmphex(rig_in(r, CH, R_COUNT) & 3, ==, IR_COD | IR_IO);
    g_assert_cmphex(rig_status(r, CH), ==, status);
    g_assert_false(r->fh.irq[CH]);
}

/* CHECK CONDITION with key, then REQUEST SENSE reports asc/ascq. */
static void assert_check(Rig *r, uint8_t key, uint8_t asc, uint8_t ascq);

/* Read a PIO data-in reply of len bytes, DRQ block by DRQ block. */
static size_t read_reply(Rig *r, uint8_t *buf, size_t max, size_t block_max)
{
    size_t got = 0;

    for (;;) {
        unsigned bytes;

        fake_host_complete_all(&r->fh);
        g_assert_true(r->fh.irq[CH]);
        if (!(rig_altstatus(r, CH) & ST_DRQ)) {
            return got;
        }
        g_assert_cmphex(lbam_lbah_count(r, &bytes) & 3, ==, IR_IO);
        g_assert_cmphex(rig_status(r, CH), ==, ST_READY | ST_DRQ);
        g_assert_cmpuint(bytes, >, 0);
        g_assert_cmpuint(bytes, <=, block_max);
        g_assert_cmpuint(got + bytes, <=, max);
        rig_read_data(r, CH, buf + got, bytes, false);
        got += bytes;
    }
}

static void request_sense(Rig *r, uint8_t sense[18])
{
    static const uint8_t cdb[12] = { 0x03, 0, 0, 0, 18 };

    packet(r, cdb, 18, false);
    g_assert_cmpuint(read_reply(r, sense, 18, 18), ==, 18);
    assert_end(r, ST_READY);
}

static void assert_check(Rig *r, uint8_t key, uint8_t asc, uint8_t ascq)
{
    uint8_t sense[18];

    g_assert_true(r->fh.irq[CH]);
    g_assert_cmphex(rig_in(r, CH, R_ERROR) >> 4, ==, key);
    assert_end(r, ST_READY | ST_ERR);
    request_sense(r, sense);
    g_assert_cmphex(sense[0], ==, 0x70);
    g_assert_cmphex(sense[2] & 0xF, ==, key);
    g_assert_cmphex(sense[12], ==, asc);
    g_assert_cmphex(sense[13], ==, ascq);
}

static void test_unit_ready(Rig *r)
{
    static const uint8_t cdb[12] = { 0x00 };

    packet(r, cdb, 0, false);
}

static Rig *cd_rig(uint64_t sectors)
{
    Rig *r = rig_new_cd(0x1, 1u << CD, sectors);

    test_unit_ready(r);
    assert_check(r, 0x6, 0x29, 0x00);   /* power on, reset */
    return r;
}

static void test_signature(void)
{
    Rig *r = rig_new_cd(0x1, 1u << CD, CD_SECTORS);
    uint8_t st;

    rig_select(r, CD);
    g_assert_cmphex(rig_in(r, CH, R_COUNT), ==, 0x01);
    g_assert_cmphex(rig_in(r, CH, R_LBAL), ==, 0x01);
    g_assert_cmphex(rig_in(r, CH, R_LBAM), ==, 0x14);
    g_assert_cmphex(rig_in(r, CH, R_LBAH), ==, 0xEB);
    /* A packet device leaves DRDY clear after reset */
    g_assert_cmphex(rig_status(r, CH), ==, 0x00);
    rig_out(r, CH, R_LBAM, 0);
    rig_srst(r, CH);
    rig_select(r, CD);
    g_assert_cmphex(rig_in(r, CH, R_LBAM), ==, 0x14);
    g_assert_cmphex(rig_status(r, CH), ==, 0x00);

    /* IDENTIFY DEVICE: aborted, the signature shown again */
    rig_out(r, CH, R_LBAM, 0);
    rig_out(r, CH, R_LBAH, 0);
    rig_command(r, CD, 0xEC);
    g_assert_true(r->fh.irq[CH]);
    g_assert_cmphex(rig_in(r, CH, R_ERROR), ==, 0x04);
    st = rig_status(r, CH);
    g_assert_cmphex(st, ==, ST_READY | ST_ERR);
    g_assert_cmphex(rig_in(r, CH, R_LBAM), ==, 0x14);
    g_assert_cmphex(rig_in(r, CH, R_LBAH), ==, 0xEB);

    /* A disk command (READ DMA) is aborted */
    rig_command(r, CD, 0xC8);
    g_assert_cmphex(rig_in(r, CH, R_ERROR), ==, 0x04);
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY | ST_ERR);

    /* EXECUTE DEVICE DIAGNOSTIC: the signature, DRDY clear */
    rig_command(r, CD, 0x90);
    g_assert_true(r->fh.irq[CH]);
    g_assert_cmphex(rig_in(r, CH, R_ERROR), ==, 0x01);
    g_assert_cmphex(rig_status(r, CH), ==, 0x00);
    g_assert_cmphex(rig_in(r, CH, R_LBAH), ==, 0xEB);
    rig_free(r);
}

static void test_identify_packet(void)
{
    Rig *r = rig_new_cd(0x1, 1u << CD, CD_SECTORS);
    uint8_t raw[512], sum = 0;
    uint16_t w[256];
    char model[41];
    unsigned i;

    rig_select(r, CD);
    rig_command(r, CD, 0xA1);
    g_assert_true(r->fh.irq[CH]);
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY | ST_DRQ);
    rig_read_data(r, CH, raw, sizeof(raw), false);
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY);
    for (i = 0; i < 256; i++) {
        w[i] = raw[2 * i] | raw[2 * i + 1] << 8;
    }
    for (i = 0; i < 512; i++) {
        sum += raw[i];
    }
    g_assert_cmphex(sum, ==, 0);
    g_assert_cmphex(w[0], ==, 0x85C0);  /* ATAPI CD-ROM, removable */
    for (i = 0; i < 20; i++) {
        model[2 * i] = w[27 + i] >> 8;
        model[2 * i + 1] = w[27 + i] & 0xFF;
    }
    model[40] = 0;
    g_assert_cmpstr(g_strchomp(model), ==, "ATALAB CD-ROM");
    g_assert_cmphex(w[49] & 0x0300, ==, 0x0300);        /* LBA, DMA */
    g_assert_cmphex(w[82] & 0x0210, ==, 0x0210);        /* PACKET, RESET */
    g_assert_cmphex(w[88] & 0x3F, ==, 0x3F);
    g_assert_cmphex(w[93] & 0x4000, ==, 0x4000);
    rig_free(r);
}

static void test_inquiry_capacity(void)
{
    static const uint8_t inq[12] = { 0x12, 0, 0, 0, 96 };
    static const uint8_t inq5[12] = { 0x12, 0, 0, 0, 5 };
    static const uint8_t cap[12] = { 0x25 };
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t buf[128];

    packet(r, inq, 96, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 96), ==, 36);
    assert_end(r, ST_READY);
    g_assert_cmphex(buf[0], ==, 0x05);
    g_assert_cmphex(buf[1], ==, 0x80);
    g_assert_cmpmem(&buf[8], 8, "ATALAB  ", 8);
    g_assert_cmpmem(&buf[16], 16, "ATALAB CD-ROM   ", 16);
    /* the allocation length bounds the reply */
    packet(r, inq5, 96, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 96), ==, 5);
    assert_end(r, ST_READY);

    packet(r, cap, 8, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 8), ==, 8);
    assert_end(r, ST_READY);
    g_assert_cmpuint(buf[0] << 24 | buf[1] << 16 | buf[2] << 8 | buf[3], ==,
                     CD_BLOCKS - 1);
    g_assert_cmpuint(buf[6] << 8 | buf[7], ==, 2048);
    rig_free(r);
}

static void read10_cdb(uint8_t cdb[12], uint32_t lba, uint16_t blocks)
{
    memset(cdb, 0, 12);
    cdb[0] = 0x28;
    cdb[2] = lba >> 24;
    cdb[3] = lba >> 16;
    cdb[4] = lba >> 8;
    cdb[5] = lba;
    cdb[7] = blocks >> 8;
    cdb[8] = blocks;
}

static void assert_disc(const uint8_t *buf, uint32_t lba, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        if (buf[i] != fake_pattern(CD, (uint64_t)lba * 2048 + i)) {
            g_error("byte %zu of the read differs", i);
        }
    }
}

/* READ(10) by PIO with a byte count limit: DRQ blocks never above it. */
static void read_pio(uint16_t limit, size_t block_max)
{
    Rig *r = cd_rig(CD_SECTORS);
    size_t len = 5 * 2048;
    uint8_t *buf = g_malloc(len);
    uint8_t cdb[12];

    read10_cdb(cdb, 7, 5);
    packet(r, cdb, limit, false);
    g_assert_cmpuint(read_reply(r, buf, len, block_max), ==, len);
    assert_end(r, ST_READY);
    assert_disc(buf, 7, len);
    g_free(buf);
    rig_free(r);
}

static void test_read_pio(void)
{
    read_pio(2048, 2048);
    read_pio(4096, 4096);
    /* an odd limit is taken one lower: blocks stay whole words */
    read_pio(1001, 1000);
    /* 0 is no limit the host may give; the model takes FFFEh */
    read_pio(0, 0xFFFE);
    read_pio(0xFFFF, 0xFFFE);
}

static void test_read_dma(void)
{
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t cdb[12];

    rig_prd(r, 0x1000, 0, 0x10000, 3 * 2048, true);
    rig_bm_setup(r, CH, 0x1000, true);
    read10_cdb(cdb, CD_BLOCKS - 3, 3);
    /* libata starts the bus master after the packet */
    packet(r, cdb, 0x8000, true);
    g_assert_false(r->fh.irq[CH]);
    g_assert_cmphex(rig_altstatus(r, CH), ==, ST_READY | ST_DRQ);
    rig_bm_start(r, CH, true);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_bm_status(r, CH) & 0x07, ==, 0x04);     /* INTR */
    rig_bm_stop(r, CH);
    assert_end(r, ST_READY);
    g_assert_true(rig_ram_matches_disk(r, 0x10000, CD,
                                       (uint64_t)(CD_BLOCKS - 3) * 2048,
                                       3 * 2048));
    rig_free(r);
}

static void test_read_errors(void)
{
    static const uint8_t bad[12] = { 0xFF };
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t cdb[12];

    read10_cdb(cdb, CD_BLOCKS - 1, 2);
    packet(r, cdb, 2048, false);
    assert_check(r, 0x5, 0x21, 0x00);   /* LBA out of range */
    read10_cdb(cdb, 0xFFFFFF00, 0x0200);    /* wraps in 32 bits */
    packet(r, cdb, 2048, false);
    assert_check(r, 0x5, 0x21, 0x00);
    packet(r, bad, 2048, false);
    assert_check(r, 0x5, 0x20, 0x00);   /* invalid command opcode */

    /* a backend error: MEDIUM ERROR, unrecovered read error */
    read10_cdb(cdb, 0, 1);
    packet_start(r, 2048, false);
    rig_write_data(r, CH, cdb, 12, false);
    g_assert_true(fake_host_complete_nth_ret(&r->fh, 0, -5));
    assert_check(r, 0x3, 0x11, 0x00);
    rig_free(r);
}

static void test_no_medium(void)
{
    static const uint8_t cap[12] = { 0x25 };
    static const uint8_t inq[12] = { 0x12, 0, 0, 0, 36 };
    Rig *r = cd_rig(0);
    uint8_t buf[64], cdb[12];

    test_unit_ready(r);
    assert_check(r, 0x2, 0x3A, 0x01);   /* medium not present, closed */
    packet(r, cap, 8, false);
    assert_check(r, 0x2, 0x3A, 0x01);
    read10_cdb(cdb, 0, 1);
    packet(r, cdb, 2048, false);
    assert_check(r, 0x2, 0x3A, 0x01);
    /* INQUIRY does not need a disc */
    packet(r, inq, 36, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 36), ==, 36);
    assert_end(r, ST_READY);
    rig_free(r);
}

static void get_event(Rig *r, uint8_t *event, uint8_t *media)
{
    static const uint8_t cdb[12] = { 0x4A, 0x01, 0, 0, 0x10, 0, 0, 0, 8 };
    uint8_t buf[8];

    packet(r, cdb, 8, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 8), ==, 8);
    assert_end(r, ST_READY);
    g_assert_cmphex(buf[2], ==, 0x04);
    *event = buf[4];
    *media = buf[5];
}

static void test_tray(void)
{
    static const uint8_t lock[12] = { 0x1E, 0, 0, 0, 1 };
    static const uint8_t unlock[12] = { 0x1E };
    static const uint8_t eject[12] = { 0x1B, 0, 0, 0, 0x02 };
    static const uint8_t load[12] = { 0x1B, 0, 0, 0, 0x03 };
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t ev, media;

    get_event(r, &ev, &media);
    g_assert_cmphex(ev, ==, 0);
    g_assert_cmphex(media, ==, 0x02);   /* present, tray closed */
    packet(r, lock, 0, false);
    assert_end(r, ST_READY);
    packet(r, eject, 0, false);
    assert_check(r, 0x5, 0x53, 0x02);   /* medium removal prevented */
    packet(r, unlock, 0, false);
    assert_end(r, ST_READY);
    packet(r, eject, 0, false);
    assert_end(r, ST_READY);
    test_unit_ready(r);
    assert_check(r, 0x2, 0x3A, 0x02);   /* tray open */
    get_event(r, &ev, &media);
    g_assert_cmphex(ev, ==, 0x03);      /* media removal */
    g_assert_cmphex(media, ==, 0x03);
    packet(r, load, 0, false);
    assert_end(r, ST_READY);
    test_unit_ready(r);
    assert_check(r, 0x6, 0x28, 0x00);   /* medium may have changed */
    test_unit_ready(r);
    assert_end(r, ST_READY);
    get_event(r, &ev, &media);
    g_assert_cmphex(ev, ==, 0x02);      /* new media */
    get_event(r, &ev, &media);
    g_assert_cmphex(ev, ==, 0x00);      /* reported once */
    rig_free(r);
}

static void test_toc_config_mode(void)
{
    static const uint8_t toc[12] = { 0x43, 0, 0, 0, 0, 0, 0, 0, 64 };
    static const uint8_t toc_msf[12] = { 0x43, 0x02, 0, 0, 0, 0, 0xAA, 0,
                                         64 };
    static const uint8_t conf[12] = { 0x46, 0, 0, 0, 0, 0, 0, 0, 64 };
    static const uint8_t mode[12] = { 0x5A, 0, 0x2A, 0, 0, 0, 0, 0, 64 };
    static const uint8_t saved[12] = { 0x5A, 0, 0xEA, 0, 0, 0, 0, 0, 64 };
    static const uint8_t track1[12] = { 0x52, 0x01, 0, 0, 0, 1, 0, 0, 64 };
    static const uint8_t track_lba[12] = { 0x52, 0x00, 0, 0, 0, 0x10, 0, 0,
                                           64 };
    static const uint8_t track2[12] = { 0x52, 0x01, 0, 0, 0, 2, 0, 0, 64 };
    Rig *r = cd_rig(CD_SECTORS);
    uint32_t f = CD_BLOCKS + 150;
    uint8_t buf[64];

    packet(r, toc, 64, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 64), ==, 20);
    assert_end(r, ST_READY);
    g_assert_cmpuint(buf[0] << 8 | buf[1], ==, 18);
    g_assert_cmpuint(buf[6], ==, 1);
    g_assert_cmpuint(buf[14], ==, 0xAA);
    g_assert_cmpuint(buf[18] << 8 | buf[19], ==, CD_BLOCKS);

    packet(r, toc_msf, 64, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 64), ==, 12);
    assert_end(r, ST_READY);
    g_assert_cmpuint(buf[6], ==, 0xAA);
    g_assert_cmpuint(buf[9], ==, f / 4500);
    g_assert_cmpuint(buf[10], ==, f / 75 % 60);
    g_assert_cmpuint(buf[11], ==, f % 75);

    packet(r, conf, 64, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 64), ==, 32);
    assert_end(r, ST_READY);
    g_assert_cmpuint(buf[6] << 8 | buf[7], ==, 0x0008); /* CD-ROM */

    packet(r, mode, 64, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 64), ==, 30);
    assert_end(r, ST_READY);
    g_assert_cmphex(buf[8], ==, 0x2A);
    g_assert_cmphex(buf[14] & 0x09, ==, 0x09);          /* eject, lock */
    packet(r, saved, 64, false);
    assert_check(r, 0x5, 0x39, 0x00);

    /* READ TRACK INFORMATION: track 1, by number and by an LBA in it */
    packet(r, track1, 64, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 64), ==, 36);
    assert_end(r, ST_READY);
    g_assert_cmpuint(buf[2], ==, 1);
    g_assert_cmpuint(buf[26] << 8 | buf[27], ==, CD_BLOCKS);
    packet(r, track_lba, 64, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 64), ==, 36);
    assert_end(r, ST_READY);
    packet(r, track2, 64, false);
    assert_check(r, 0x5, 0x24, 0x00);
    rig_free(r);
}

static void test_device_reset(void)
{
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t cdb[12], buf[2048];

    /* In the middle of a data-in transfer (DRQ): the reset takes it */
    read10_cdb(cdb, 0, 4);
    packet(r, cdb, 2048, false);
    g_assert_cmphex(rig_altstatus(r, CH), ==, ST_READY | ST_DRQ);
    rig_read_data(r, CH, buf, 100, false);
    rig_command(r, CD, 0x08);
    g_assert_false(r->fh.irq[CH]);
    g_assert_cmphex(rig_altstatus(r, CH), ==, 0x00);
    g_assert_cmphex(rig_in(r, CH, R_LBAM), ==, 0x14);
    g_assert_cmphex(rig_in(r, CH, R_LBAH), ==, 0xEB);
    g_assert_true(fake_host_trace_has(&r->fh, "abort d0 0xa0 device-reset"));
    /* and the device takes the next command */
    read10_cdb(cdb, 1, 1);
    packet(r, cdb, 2048, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 2048), ==, 2048);
    assert_end(r, ST_READY);
    assert_disc(buf, 1, 2048);
    rig_free(r);
}

/*
 * A reset in the middle of a packet command's data-in transfer ends the
 * transfer: IDENTIFY PACKET DEVICE then moves its 512 bytes and nothing of
 * the rest of the reply (seen in a guest: SRST during READ DISC
 * INFORMATION, then IDENTIFY PACKET DEVICE kept DRQ after 512 bytes).
 */
static void identify_after_reset(bool srst)
{
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t cdb[12], buf[2048];

    read10_cdb(cdb, 0, 4);
    packet(r, cdb, 2048, false);
    rig_read_data(r, CH, buf, 100, false);
    if (srst) {
        rig_srst(r, CH);
    } else {
        rig_command(r, CD, 0x08);
    }
    rig_select(r, CD);
    rig_command(r, CD, 0xA1);
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY | ST_DRQ);
    rig_read_data(r, CH, buf, 512, false);
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY);
    rig_free(r);
}

static void test_identify_after_reset(void)
{
    identify_after_reset(true);
    identify_after_reset(false);
}

static void test_packet_bounds(void)
{
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t cdb[12], buf[2048], two[4096];
    unsigned i;

    /* Reading the data port at the packet phase: no data, a violation */
    packet_start(r, 2048, false);
    g_assert_cmphex(atalab_ctrl_cmd_read(r->c, CH, R_DATA, 2), ==, 0xFFFF);
    g_assert_true(fake_host_trace_has(&r->fh, "data-read-no-drq"));
    /* More than 12 bytes: the rest goes nowhere, the command runs */
    read10_cdb(cdb, 2, 1);
    rig_write_data(r, CH, cdb, 12, false);
    for (i = 0; i < 8; i++) {
        atalab_ctrl_cmd_write(r->c, CH, R_DATA, 0xABCD, 2);
    }
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 2048), ==, 2048);
    assert_end(r, ST_READY);
    assert_disc(buf, 2, 2048);

    /*
     * QEMU's ATAPI CVE class of reading past the reply (the DRQ block
     * overrun): reads beyond the last block give all ones, move nothing
     * and leave the drive as the command left it
     */
    read10_cdb(cdb, 4, 1);
    packet(r, cdb, 2048, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 2048), ==, 2048);
    assert_end(r, ST_READY);
    for (i = 0; i < 64; i++) {
        g_assert_cmphex(atalab_ctrl_cmd_read(r->c, CH, R_DATA, 2), ==,
                        0xFFFF);
    }
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY);
    /* The byte count limit is PACKET's: rewriting LBA Mid/High between
     * DRQ blocks changes no block's size */
    read10_cdb(cdb, 6, 2);
    packet(r, cdb, 1024, false);
    fake_host_complete_all(&r->fh);
    rig_out(r, CH, R_LBAM, 0x00);
    rig_out(r, CH, R_LBAH, 0x20);
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY | ST_DRQ);
    rig_read_data(r, CH, two, 1024, false);
    /* the next blocks are PACKET's 1024 bytes again, not the 8192 written */
    g_assert_cmpuint(read_reply(r, two + 1024, 3072, 1024), ==, 3072);
    assert_disc(two, 6, 4096);
    rig_free(r);
}

/* The guest opens the tray, the host takes the disc, the guest closes it. */
static void test_guest_tray_host_disc(void)
{
    static const uint8_t eject[12] = { 0x1B, 0, 0, 0, 0x02 };
    static const uint8_t load[12] = { 0x1B, 0, 0, 0, 0x03 };
    Rig *r = cd_rig(CD_SECTORS);

    packet(r, eject, 0, false);
    assert_end(r, ST_READY);
    g_assert_true(fake_host_trace_has(&r->fh, "media d0 ejected"));
    r->fh.disc_sectors[CD] = 0;
    packet(r, load, 0, false);
    assert_end(r, ST_READY);
    g_assert_true(fake_host_trace_has(&r->fh, "media d0 loaded sectors=0"));
    test_unit_ready(r);
    assert_check(r, 0x2, 0x3A, 0x01);   /* no disc, tray closed */
    rig_free(r);
}

/* The host moves the tray (QEMU's eject and change commands). */
static void test_host_media(void)
{
    static const uint8_t cap[12] = { 0x25 };
    static const uint8_t lock[12] = { 0x1E, 0, 0, 0, 1 };
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t ev, media, buf[8];

    g_assert_false(atalab_ctrl_cd_tray_open(r->c, CD));
    g_assert_true(atalab_ctrl_cd_tray(r->c, CD, true, 0));
    g_assert_true(atalab_ctrl_cd_tray_open(r->c, CD));
    test_unit_ready(r);
    assert_check(r, 0x2, 0x3A, 0x02);
    get_event(r, &ev, &media);
    g_assert_cmphex(ev, ==, 0x03);
    /* another disc, half the size (the host's image stays as it was) */
    g_assert_true(atalab_ctrl_cd_tray(r->c, CD, false, CD_SECTORS / 2));
    g_assert_true(fake_host_trace_has(&r->fh, "media d0 closed sectors=800"));
    test_unit_ready(r);
    assert_check(r, 0x6, 0x28, 0x00);
    get_event(r, &ev, &media);
    g_assert_cmphex(ev, ==, 0x02);
    g_assert_cmphex(media, ==, 0x02);
    packet(r, cap, 8, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 8), ==, 8);
    assert_end(r, ST_READY);
    g_assert_cmpuint(buf[2] << 8 | buf[3], ==, CD_BLOCKS / 2 - 1);
    /* an eject request while locked: the guest is told; force unlocks */
    packet(r, lock, 0, false);
    assert_end(r, ST_READY);
    g_assert_true(atalab_ctrl_cd_locked(r->c, CD));
    g_assert_true(atalab_ctrl_cd_eject_request(r->c, CD, false));
    g_assert_true(atalab_ctrl_cd_locked(r->c, CD));
    get_event(r, &ev, &media);
    g_assert_cmphex(ev, ==, 0x01);
    g_assert_true(atalab_ctrl_cd_eject_request(r->c, CD, true));
    g_assert_false(atalab_ctrl_cd_locked(r->c, CD));
    /* a disk is no CD-ROM */
    g_assert_false(atalab_ctrl_cd_tray(r->c, 0, true, 0));
    rig_free(r);
}

static void add_rule(Rig *r, const char *text)
{
    g_autofree char *err = NULL;

    if (!atalab_faults_add(atalab_ctrl_faults(r->c), text, "test", 1, &err)) {
        g_error("%s", err);
    }
    atalab_ctrl_faults_changed(r->c);
}

/* Fault rules on packet commands: sense, and the ATA kinds that apply. */
static void test_faults(void)
{
    static const uint8_t tur[12] = { 0x00 };
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t cdb[12], buf[2048];

    /* sense=: CHECK CONDITION on the matching packet, once; no data */
    add_rule(r, "sense id=s drive=2 cdb=0x28 sense=3/11/00 times=1");
    test_unit_ready(r);
    assert_end(r, ST_READY);
    read10_cdb(cdb, 5, 1);
    packet(r, cdb, 2048, false);
    assert_check(r, 0x3, 0x11, 0x00);
    g_assert_true(fake_host_trace_has(&r->fh, "rule=s kind=sense cmd=0xa0"));
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    packet(r, cdb, 2048, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 2048), ==, 2048);
    assert_end(r, ST_READY);
    assert_disc(buf, 5, 2048);

    /* a read fault by range: lba= counts 512-byte sectors */
    add_rule(r, "unc id=u drive=2 class=read lba=400+4 times=1");
    read10_cdb(cdb, 99, 1);
    packet(r, cdb, 2048, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 2048), ==, 2048);
    assert_end(r, ST_READY);
    read10_cdb(cdb, 100, 1);
    packet(r, cdb, 2048, false);
    assert_check(r, 0x3, 0x11, 0x00);

    /* abrt: ABORTED COMMAND */
    add_rule(r, "abrt id=a drive=2 cdb=0x00 times=1");
    packet(r, tur, 0, false);
    assert_check(r, 0xB, 0x00, 0x00);

    /* lost-irq: the command ends, its interrupt never comes */
    add_rule(r, "lost-irq id=l drive=2 cdb=0x00 times=1");
    packet(r, tur, 0, false);
    g_assert_false(r->fh.irq[CH]);
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY);

    /* timeout: BSY until DEVICE RESET */
    add_rule(r, "timeout id=t drive=2 cdb=0x00 times=1");
    packet(r, tur, 0, false);
    g_assert_cmphex(rig_altstatus(r, CH), ==, ST_BSY | ST_DRDY);
    rig_command(r, CD, 0x08);
    g_assert_cmphex(rig_altstatus(r, CH), ==, 0x00);
    test_unit_ready(r);
    assert_end(r, ST_READY);
    rig_free(r);

    /* A sense or cdb= rule never matches a disk's command */
    r = rig_new(0x1);
    add_rule(r, "sense id=s sense=3/11/00");
    add_rule(r, "abrt id=c cdb=0x00");
    g_assert_cmphex(rig_nodata(r, 0, 0xE5, 0, 0), ==, ST_READY);
    rig_free(r);
}

/* Resets against the rules and the held SRST; ATA commands stay ATA's. */
static void test_resets_and_rules(void)
{
    static const uint8_t tur[12] = { 0x00 };
    static const uint8_t inq[12] = { 0x12, 0, 0, 0, 36 };
    Rig *r = cd_rig(CD_SECTORS);
    uint8_t buf[64];

    /* a byte count limit of 1: word-sized blocks, and the command ends */
    packet(r, inq, 1, false);
    g_assert_cmpuint(read_reply(r, buf, sizeof(buf), 2), ==, 36);
    assert_end(r, ST_READY);

    /* DEVICE RESET meets no fault rule: it ends a timeout */
    add_rule(r, "timeout id=t drive=2 times=2");
    packet(r, tur, 0, false);
    g_assert_cmphex(rig_altstatus(r, CH), ==, ST_BSY | ST_DRDY);
    rig_command(r, CD, 0x08);
    g_assert_cmphex(rig_altstatus(r, CH), ==, 0x00);
    g_assert_cmpuint(atalab_faults_find(atalab_ctrl_faults(r->c), "t")->fired,
                     ==, 1);
    g_assert_true(atalab_faults_remove(atalab_ctrl_faults(r->c), "t"));

    /* while SRST is held no command is taken, DEVICE RESET included */
    rig_devctl(r, CH, 0x04);
    rig_command(r, CD, 0x08);
    g_assert_cmphex(rig_altstatus(r, CH), ==, ST_BSY);
    rig_devctl(r, CH, 0x00);
    g_assert_cmphex(rig_altstatus(r, CH), ==, 0x00);

    /* an ATA command of the CD-ROM fails as an ATA command: ABRT */
    add_rule(r, "abrt id=a drive=2 class=identify times=1");
    rig_select(r, CD);
    rig_command(r, CD, 0xA1);
    g_assert_cmphex(rig_in(r, CH, R_ERROR), ==, 0x04);
    g_assert_cmphex(rig_status(r, CH), ==, ST_READY | ST_ERR);

    /* a reset-fail rule ends with the packet device's reset status */
    add_rule(r, "reset-fail id=rf drive=2 for=10ms times=1");
    rig_srst(r, CH);
    g_assert_cmphex(rig_altstatus(r, CH), ==, ST_BSY);
    fake_host_advance(&r->fh, 20000000);
    g_assert_cmphex(rig_altstatus(r, CH), ==, 0x00);
    rig_free(r);
}

static void test_fault_rules(void)
{
    static const struct {
        const char *line, *error;
    } bad[] = {
        { "sense drive=2", "test:1:1: sense needs sense=KEY/ASC/ASCQ" },
        { "sense sense=3/1g/00", "test:1:13: sense wants KEY/ASC/ASCQ" },
        { "sense sense=13/11/00", "test:1:13: sense wants KEY/ASC/ASCQ" },
        { "sense sense=3/11", "test:1:13: sense wants KEY/ASC/ASCQ" },
        { "unc sense=3/11/00", "test:1:1: sense= is for sense rules" },
        { "abrt cdb=0x100", "test:1:10: cdb wants a packet's operation code" },
    };
    AtalabFaults *f = atalab_faults_new(1);
    g_autofree char *list = NULL;
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autofree char *err = NULL;

        g_assert_false(atalab_faults_add(f, bad[i].line, "test", 1, &err));
        if (!g_str_has_prefix(err, bad[i].error)) {
            g_error("'%s': '%s', want '%s'", bad[i].line, err, bad[i].error);
        }
    }
    g_assert_true(atalab_faults_parse_text(f,
                  "sense id=x drive=2 cdb=0x28 sense=3/11/00\n", "t", NULL));
    list = atalab_faults_list(f);
    g_assert_nonnull(strstr(list, "sense id=x drive=2 cdb=0x28 "));
    g_assert_nonnull(strstr(list, " sense=3/11/00"));
    atalab_faults_free(f);
}

static void test_header(void)
{
    Rig *r = rig_new_cd(0x1, 1u << CD, CD_SECTORS);
    Rig *e = rig_new_cd(0x1, 1u << CD, 0);
    g_autofree char *h = atalab_ctrl_trace_header(r->c, NULL);
    g_autofree char *he = atalab_ctrl_trace_header(e->c, NULL);

    g_assert_nonnull(strstr(h, "# drive0 sectors=8192\n"));
    g_assert_nonnull(strstr(h, "# drive2 cd sectors=1600\n"));
    g_assert_nonnull(strstr(h, "# drive2.model ATALAB CD-ROM\n"));
    g_assert_nonnull(strstr(he, "# drive2 cd sectors=0\n"));
    rig_free(r);
    rig_free(e);
}

/*
 * EXECUTE DEVICE DIAGNOSTIC waits for a request it abandoned on the disk
 * (a host that cannot drain); a DEVICE RESET of the packet device 0 meanwhile
 * does not change how the diagnostic ends: with a reset's status, 00h.
 */
static void test_diagnostic_after_device_reset(void)
{
    /* channel 0: device 0 the CD-ROM, device 1 a disk */
    Rig *r = rig_new_cd(1u << 1, 1u << 0, CD_SECTORS);

    r->fh.drain = false;
    rig_prd(r, 0x1000, 0, 0x2000, 512, true);
    rig_bm_setup(r, 0, 0x1000, true);
    rig_lba28(r, 1, 0, 1);
    rig_command(r, 1, 0xC8);            /* READ DMA on the disk */
    rig_bm_start(r, 0, true);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    rig_select(r, 0);
    rig_out(r, 0, R_COMMAND, 0x90);    /* waits for the abandoned read */
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_BSY);
    rig_out(r, 0, R_COMMAND, 0x08);    /* DEVICE RESET reaches device 0 */
    fake_host_complete_all(&r->fh);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_altstatus(r, 0), ==, 0x00);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x01);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/atapi/signature", test_signature);
    g_test_add_func("/atapi/identify-packet", test_identify_packet);
    g_test_add_func("/atapi/inquiry-capacity", test_inquiry_capacity);
    g_test_add_func("/atapi/read-pio", test_read_pio);
    g_test_add_func("/atapi/read-dma", test_read_dma);
    g_test_add_func("/atapi/read-errors", test_read_errors);
    g_test_add_func("/atapi/no-medium", test_no_medium);
    g_test_add_func("/atapi/tray", test_tray);
    g_test_add_func("/atapi/toc-config-mode", test_toc_config_mode);
    g_test_add_func("/atapi/device-reset", test_device_reset);
    g_test_add_func("/atapi/identify-after-reset", test_identify_after_reset);
    g_test_add_func("/atapi/packet-bounds", test_packet_bounds);
    g_test_add_func("/atapi/header", test_header);
    g_test_add_func("/atapi/host-media", test_host_media);
    g_test_add_func("/atapi/guest-tray-host-disc", test_guest_tray_host_disc);
    g_test_add_func("/atapi/faults", test_faults);
    g_test_add_func("/atapi/fault-rules", test_fault_rules);
    g_test_add_func("/atapi/resets-and-rules", test_resets_and_rules);
    g_test_add_func("/atapi/diagnostic-after-device-reset",
                    test_diagnostic_after_device_reset);
    return g_test_run();
}
