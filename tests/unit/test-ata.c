/*
 * atalab unit tests: ATA registers, protocols and the command set.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

#define ERR_UNC  0x40
#define ERR_IDNF 0x10
#define ERR_ABRT 0x04

static void assert_abort(Rig *r, unsigned ch)
{
    g_assert_true(r->fh.irq[ch]);
    g_assert_cmphex(rig_in(r, ch, R_ERROR), ==, ERR_ABRT);
    g_assert_cmphex(rig_status(r, ch), ==, ST_READY | ST_ERR);
    g_assert_false(r->fh.irq[ch]);
}

static void assert_disk_pattern(Rig *r, unsigned drive, const uint8_t *buf,
                                uint64_t lba, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        if (buf[i] != fake_pattern(drive, lba * 512 + i)) {
            g_error("byte %zu: %02x != %02x", i, buf[i],
                    fake_pattern(drive, lba * 512 + i));
        }
    }
}

static uint8_t identify_checksum(const uint16_t *w)
{
    uint8_t sum = 0;
    unsigned i;

    for (i = 0; i < 256; i++) {
        sum += (w[i] & 0xFF) + (w[i] >> 8);
    }
    return sum;
}

static void test_identify_words(void)
{
    Rig *r = rig_new(0x1);
    uint16_t w[256];
    char model[41];
    unsigned i;

    rig_identify(r, 0, w);
    g_assert_cmphex(w[0], ==, 0x0040);
    g_assert_cmpuint(w[1], ==, RIG_SECTORS / (16 * 63));
    g_assert_cmpuint(w[3], ==, 16);
    g_assert_cmpuint(w[6], ==, 63);
    for (i = 0; i < 20; i++) {
        model[2 * i] = w[27 + i] >> 8;
        model[2 * i + 1] = w[27 + i] & 0xFF;
    }
    model[40] = 0;
    g_assert_cmpstr(g_strchomp(model), ==, "ATALAB HARDDISK");
    g_assert_cmphex(w[10], ==, ('A' << 8) | 'T');  /* serial ATALAB0000 */
    g_assert_cmphex(w[14], ==, ('0' << 8) | '0');
    g_assert_cmphex(w[15], ==, (' ' << 8) | ' ');
    g_assert_cmphex(w[19], ==, (' ' << 8) | ' ');
    g_assert_cmphex(w[47], ==, 0x8010);
    g_assert_cmphex(w[49] & 0x0B00, ==, 0x0B00);
    g_assert_cmphex(w[53] & 0x7, ==, 0x7);
    g_assert_cmpuint(w[54], ==, w[1]);
    g_assert_cmpuint(w[55], ==, 16);
    g_assert_cmpuint(w[56], ==, 63);
    g_assert_cmpuint(w[57] | (uint32_t)w[58] << 16, ==, w[1] * 16 * 63);
    g_assert_cmphex(w[59], ==, 0);
    g_assert_cmpuint(w[60] | (uint32_t)w[61] << 16, ==, RIG_SECTORS);
    g_assert_cmphex(w[63], ==, 0x0007);
    g_assert_cmphex(w[64], ==, 0x0003);
    g_assert_cmpuint(w[65], ==, 120);
    g_assert_cmpuint(w[68], ==, 120);
    g_assert_true(w[80] & (1 << 7));           /* ATA/ATAPI-7 */
    g_assert_true(w[82] & (1 << 5));           /* write cache */
    g_assert_cmphex(w[83] & 0xF400, ==, 0x7400);
    g_assert_cmphex(w[84] & 0xC000, ==, 0x4000);
    g_assert_true(w[85] & (1 << 5));           /* enabled at power-on */
    g_assert_cmphex(w[86] & 0x3400, ==, 0x3400);
    g_assert_cmphex(w[87] & 0xC000, ==, 0x4000);
    g_assert_cmphex(w[88], ==, 0x003F);
    /* word 93: device 0, no device 1, 40-conductor cable */
    g_assert_cmphex(w[93], ==, 0x404B);
    g_assert_cmpuint(w[100] | (uint32_t)w[101] << 16, ==, RIG_SECTORS);
    g_assert_cmpuint(w[102] | w[103], ==, 0);
    g_assert_cmphex(w[255] & 0xFF, ==, 0xA5);
    g_assert_cmphex(identify_checksum(w), ==, 0);
    rig_free(r);
}

static void test_identify_pair_cable(void)
{
    Rig *r = rig_new(0x3);
    uint16_t w[256];

    atalab_ctrl_set_cable80(r->c, 0, true);
    rig_identify(r, 0, w);
    g_assert_cmphex(w[93], ==, 0x603B);
    g_assert_cmphex(identify_checksum(w), ==, 0);
    rig_identify(r, 1, w);
    g_assert_cmphex(w[93], ==, 0x6B00);
    rig_free(r);
}

static void test_identify_big(void)
{
    FakeHost fh;
    AtalabDriveConfig d[4] = {
        { .present = true, .sectors = 0x123456789ull, .model = "BIG",
          .serial = "S1", .fwrev = "F1" },
    };
    AtalabCtrl *c;
    uint16_t w[256];
    unsigned i;

    /* No image: IDENTIFY does not touch the medium. */
    fake_host_init(&fh, false);
    c = atalab_ctrl_new(atalab_personality_find("piix4"), &fh.host, d);
    atalab_ctrl_cmd_write(c, 0, R_DEVICE, 0xA0, 1);
    atalab_ctrl_cmd_write(c, 0, R_COMMAND, 0xEC, 1);
    g_assert_true(fh.irq[0]);
    g_assert_cmphex(atalab_ctrl_cmd_read(c, 0, R_STATUS, 1), ==, 0x58);
    for (i = 0; i < 256; i += 2) {
        uint32_t v = atalab_ctrl_cmd_read(c, 0, R_DATA, 4);

        w[i] = v;
        w[i + 1] = v >> 16;
    }
    g_assert_cmphex(atalab_ctrl_cmd_read(c, 0, R_STATUS, 1), ==, 0x50);
    g_assert_cmphex(w[1], ==, 16383);
    g_assert_cmphex(w[60], ==, 0xFFFF);
    g_assert_cmphex(w[61], ==, 0x0FFF);
    g_assert_cmphex(w[100], ==, 0x6789);
    g_assert_cmphex(w[101], ==, 0x2345);
    g_assert_cmphex(w[102], ==, 0x0001);
    g_assert_cmphex(w[103], ==, 0);
    g_assert_cmphex(w[27], ==, ('B' << 8) | 'I');
    g_assert_cmphex(w[28], ==, ('G' << 8) | ' ');
    g_assert_cmphex(w[23], ==, ('F' << 8) | '1');
    g_assert_cmphex(w[10], ==, ('S' << 8) | '1');
    g_assert_cmphex(identify_checksum(w), ==, 0);
    atalab_ctrl_free(c);
    fake_host_cleanup(&fh);
}

static void test_set_features(void)
{
    Rig *r = rig_new(0x1);
    uint16_t w[256];

    /* UDMA 5 */
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x03, 0x45), ==, ST_READY);
    rig_identify(r, 0, w);
    g_assert_cmphex(w[88], ==, 0x203F);
    g_assert_cmphex(w[63], ==, 0x0007);
    /* MWDMA 2 replaces it */
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x03, 0x22), ==, ST_READY);
    rig_identify(r, 0, w);
    g_assert_cmphex(w[88], ==, 0x003F);
    g_assert_cmphex(w[63], ==, 0x0407);
    /* PIO 4, PIO default */
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x03, 0x0C), ==, ST_READY);
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x03, 0x00), ==, ST_READY);
    /* Modes the drive lacks */
    rig_nodata(r, 0, 0xEF, 0x03, 0x46);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_ERR);
    rig_nodata(r, 0, 0xEF, 0x03, 0x23);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    rig_nodata(r, 0, 0xEF, 0x03, 0x0D);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    rig_nodata(r, 0, 0xEF, 0x03, 0x80);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    /* PIO default with IORDY disabled: IDENTIFY word 49 bit 10 says so */
    rig_identify(r, 0, w);
    g_assert_true(w[49] & (1 << 10));
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x03, 0x01), ==, ST_READY);
    rig_nodata(r, 0, 0xEF, 0x03, 0x02);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    /* Unsupported subcommands */
    rig_nodata(r, 0, 0xEF, 0x5A, 0);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    rig_nodata(r, 0, 0xEF, 0x00, 0);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    /* Look-ahead off and on: word 85 bit 6 follows, word 82 keeps it */
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x55, 0), ==, ST_READY);
    rig_identify(r, 0, w);
    g_assert_false(w[85] & (1 << 6));
    g_assert_true(w[82] & (1 << 6));
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0xAA, 0), ==, ST_READY);
    rig_identify(r, 0, w);
    g_assert_true(w[85] & (1 << 6));
    /* Reverting to power-on defaults off and on */
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x66, 0), ==, ST_READY);
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0xCC, 0), ==, ST_READY);
    /* Write cache off writes the cache back first; word 85 follows */
    g_assert_cmpuint(r->fh.flushes, ==, 0);
    rig_out(r, 0, R_FEATURE, 0x82);
    rig_command(r, 0, 0xEF);
    g_assert_cmphex(rig_altstatus(r, 0) & ST_BSY, ==, ST_BSY);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    g_assert_cmpint(fake_host_peek(&r->fh)->kind, ==, FAKE_FLUSH);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmpuint(r->fh.flushes, ==, 1);
    rig_identify(r, 0, w);
    g_assert_false(w[85] & (1 << 5));
    g_assert_true(w[82] & (1 << 5));
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x02, 0), ==, ST_READY);
    rig_identify(r, 0, w);
    g_assert_true(w[85] & (1 << 5));
    /* Error register cleared by the next successful command */
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0);
    rig_free(r);
}

static void test_set_multiple(void)
{
    Rig *r = rig_new(0x1);
    uint16_t w[256];
    static const uint8_t bad[] = { 3, 6, 32, 17, 255 };
    static const uint8_t good[] = { 1, 2, 4, 8, 16 };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(good); i++) {
        g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, good[i]), ==, ST_READY);
        rig_identify(r, 0, w);
        g_assert_cmphex(w[59], ==, 0x100 | good[i]);
    }
    /* An unsupported count is aborted and disables multiple mode. */
    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 8), ==, ST_READY);
        rig_nodata(r, 0, 0xC6, 0, bad[i]);
        g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
        rig_identify(r, 0, w);
        g_assert_cmphex(w[59], ==, 0);
    }
    /* Count 0 disables multiple mode: READ MULTIPLE is then aborted. */
    g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 4), ==, ST_READY);
    g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 0), ==, ST_READY);
    rig_identify(r, 0, w);
    g_assert_cmphex(w[59], ==, 0);
    rig_lba28(r, 0, 0, 4);
    rig_command(r, 0, 0xC4);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_ABRT);
    rig_free(r);
}

/* PIO data-in: one interrupt per DRQ block, BSY while the backend works. */
static void pio_read(Rig *r, unsigned drive, uint8_t cmd, bool lba48,
                     uint64_t lba, unsigned count, unsigned block,
                     bool wide32)
{
    unsigned ch = drive / 2;
    unsigned n = count ? count : (lba48 ? 65536 : 256);
    uint8_t *buf = g_malloc(512 * block);
    unsigned done = 0, raises = r->fh.irq_raises[ch];

    if (lba48) {
        rig_lba48(r, drive, lba, count);
    } else {
        rig_lba28(r, drive, lba, count);
    }
    rig_command(r, drive, cmd);
    while (done < n) {
        unsigned b = MIN(block, n - done);

        g_assert_cmphex(rig_altstatus(r, ch) & ST_BSY, ==, ST_BSY);
        g_assert_false(r->fh.irq[ch]);
        g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
        g_assert_cmpuint(fake_host_peek(&r->fh)->len, ==, b * 512);
        fake_host_complete_all(&r->fh);
        g_assert_true(r->fh.irq[ch]);
        g_assert_cmphex(rig_status(r, ch), ==, ST_READY | ST_DRQ);
        rig_read_data(r, ch, buf, b * 512, wide32);
        assert_disk_pattern(r, drive, buf, lba + done, b * 512);
        done += b;
    }
    g_assert_cmphex(rig_status(r, ch), ==, ST_READY);
    g_assert_false(r->fh.irq[ch]);
    g_assert_cmpuint(r->fh.irq_raises[ch] - raises, ==,
                     (n + block - 1) / block);
    g_free(buf);
}

static void test_read_sectors(void)
{
    Rig *r = rig_new(0x5);

    pio_read(r, 0, 0x20, false, 100, 3, 1, false);
    pio_read(r, 0, 0x20, false, 0, 1, 1, true);
    pio_read(r, 2, 0x24, true, 0x1234, 2, 1, false);
    pio_read(r, 0, 0x24, true, RIG_SECTORS - 300, 0x105, 1, true);
    g_assert_true(fake_host_trace_has(&r->fh,
                  "ata0 cmd d0 0x20 READ_SECTORS lba=100 count=3"));
    rig_free(r);
}

static void test_read_multiple(void)
{
    Rig *r = rig_new(0x1);

    rig_lba28(r, 0, 10, 4);
    rig_command(r, 0, 0xC4);
    assert_abort(r, 0);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    rig_lba48(r, 0, 10, 4);
    rig_command(r, 0, 0x29);
    assert_abort(r, 0);

    g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 4), ==, ST_READY);
    pio_read(r, 0, 0xC4, false, 10, 10, 4, false);
    pio_read(r, 0, 0x29, true, 50, 9, 4, true);
    rig_free(r);
}

/* PIO data-out: first block without interrupt, then one per block. */
static void pio_write(Rig *r, unsigned drive, uint8_t cmd, bool lba48,
                      uint64_t lba, unsigned count, unsigned block)
{
    unsigned ch = drive / 2;
    unsigned n = count ? count : (lba48 ? 65536 : 256);
    uint8_t *buf = g_malloc(512 * block);
    unsigned done = 0, i, raises = r->fh.irq_raises[ch];

    if (lba48) {
        rig_lba48(r, drive, lba, count);
    } else {
        rig_lba28(r, drive, lba, count);
    }
    rig_command(r, drive, cmd);
    g_assert_false(r->fh.irq[ch]);
    while (done < n) {
        unsigned b = MIN(block, n - done);

        g_assert_cmphex(rig_altstatus(r, ch), ==, ST_READY | ST_DRQ);
        for (i = 0; i < b * 512; i++) {
            buf[i] = i ^ (lba + done) ^ 0x5A;
        }
        rig_write_data(r, ch, buf, b * 512, done % 2);
        g_assert_cmphex(rig_altstatus(r, ch) & ST_BSY, ==, ST_BSY);
        g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
        fake_host_complete_all(&r->fh);
        g_assert_true(r->fh.irq[ch]);
        g_assert_cmpmem(r->fh.disk[drive] + (lba + done) * 512, b * 512,
                        buf, b * 512);
        done += b;
        rig_status(r, ch);
    }
    g_assert_cmphex(rig_altstatus(r, ch), ==, ST_READY);
    g_assert_cmpuint(r->fh.irq_raises[ch] - raises, ==,
                     (n + block - 1) / block);
    g_free(buf);
}

static void test_write_sectors(void)
{
    Rig *r = rig_new(0x1);

    pio_write(r, 0, 0x30, false, 7, 3, 1);
    pio_write(r, 0, 0x34, true, 0x1001, 2, 1);
    g_assert_cmpuint(r->fh.fua_writes, ==, 0);
    rig_free(r);
}

static void test_write_multiple(void)
{
    Rig *r = rig_new(0x1);

    rig_lba28(r, 0, 10, 4);
    rig_command(r, 0, 0xC5);
    assert_abort(r, 0);
    rig_lba48(r, 0, 10, 4);
    rig_command(r, 0, 0x39);
    assert_abort(r, 0);
    g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 8), ==, ST_READY);
    pio_write(r, 0, 0xC5, false, 20, 19, 8);
    pio_write(r, 0, 0x39, true, 200, 16, 8);
    rig_free(r);
}

static void assert_idnf(Rig *r, unsigned ch)
{
    g_assert_true(r->fh.irq[ch]);
    g_assert_cmphex(rig_in(r, ch, R_ERROR), ==, ERR_IDNF);
    g_assert_cmphex(rig_status(r, ch), ==, ST_READY | ST_ERR);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
}

static void test_idnf(void)
{
    Rig *r = rig_new(0x1);
    static const uint8_t cmds28[] = { 0x20, 0x30, 0xC8, 0xCA, 0x40 };
    static const uint8_t cmds48[] = { 0x24, 0x34, 0x25, 0x35, 0x42 };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(cmds28); i++) {
        rig_lba28(r, 0, RIG_SECTORS, 1);
        rig_command(r, 0, cmds28[i]);
        assert_idnf(r, 0);
        rig_lba28(r, 0, RIG_SECTORS - 2, 3);
        rig_command(r, 0, cmds28[i]);
        assert_idnf(r, 0);
        rig_lba48(r, 0, 1ull << 40, 1);
        rig_command(r, 0, cmds48[i]);
        assert_idnf(r, 0);
    }
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 error d0 IDNF"));
    rig_free(r);
}

static void test_count_zero(void)
{
    const uint64_t sectors = 65536 + 16;
    Rig *r = rig_new_full("piix4", 0x1, sectors, false);

    /* LBA28: 0 = 256 sectors */
    rig_lba28(r, 0, sectors - 255, 0);
    rig_command(r, 0, 0x40);
    assert_idnf(r, 0);
    rig_lba28(r, 0, sectors - 256, 0);
    rig_command(r, 0, 0x40);
    g_assert_cmphex(rig_altstatus(r, 0) & ST_BSY, ==, ST_BSY);
    g_assert_cmpuint(fake_host_complete_all(&r->fh), ==, 1);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    /* LBA48: 0 = 65536 sectors, read in 1 MiB pieces */
    rig_lba48(r, 0, sectors - 65535, 0);
    rig_command(r, 0, 0x42);
    assert_idnf(r, 0);
    rig_lba48(r, 0, sectors - 65536, 0);
    rig_command(r, 0, 0x42);
    g_assert_cmpuint(fake_host_complete_all(&r->fh), ==, 32);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    r->fh.reads = 0;
    /* Transferred length: PIO read of 256 sectors */
    pio_read(r, 0, 0x20, false, 3, 0, 1, true);
    g_assert_cmpuint(r->fh.reads, ==, 256);
    /* With 16-sector blocks, 65536 sectors = 4096 blocks */
    g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 16), ==, ST_READY);
    r->fh.reads = 0;
    pio_read(r, 0, 0x29, true, 5, 0, 16, true);
    g_assert_cmpuint(r->fh.reads, ==, 4096);
    rig_free(r);
}

static void test_chs(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[512];
    uint16_t w[256];
    unsigned cyl = 3, head = 5, sect = 7;
    uint64_t lba = (cyl * 16 + head) * 63 + sect - 1;

    /* Default translation 16 heads, 63 sectors */
    rig_out(r, 0, R_DEVICE, 0xA0 | head);
    rig_out(r, 0, R_COUNT, 1);
    rig_out(r, 0, R_LBAL, sect);
    rig_out(r, 0, R_LBAM, cyl);
    rig_out(r, 0, R_LBAH, 0);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
    rig_read_data(r, 0, buf, 512, false);
    assert_disk_pattern(r, 0, buf, lba, 512);

    /* Sector 0 does not exist */
    rig_out(r, 0, R_LBAL, 0);
    rig_out(r, 0, R_COUNT, 1);
    rig_command(r, 0, 0x20);
    assert_idnf(r, 0);

    /* INITIALIZE DEVICE PARAMETERS: 4 heads, 17 sectors per track */
    rig_out(r, 0, R_DEVICE, 0xA0 | 3);
    rig_out(r, 0, R_COUNT, 17);
    rig_command(r, 0, 0x91);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_identify(r, 0, w);
    g_assert_cmpuint(w[55], ==, 4);
    g_assert_cmpuint(w[56], ==, 17);
    g_assert_cmpuint(w[54], ==, RIG_SECTORS / (4 * 17));
    g_assert_cmpuint(w[3], ==, 16);     /* default geometry unchanged */
    lba = (cyl * 4 + 2) * 17 + sect - 1;
    rig_out(r, 0, R_DEVICE, 0xA0 | 2);
    rig_out(r, 0, R_COUNT, 1);
    rig_out(r, 0, R_LBAL, sect);
    rig_out(r, 0, R_LBAM, cyl);
    rig_out(r, 0, R_LBAH, 0);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_read_data(r, 0, buf, 512, false);
    assert_disk_pattern(r, 0, buf, lba, 512);
    /* Head 4 is beyond the new translation, sector 18 too */
    rig_out(r, 0, R_DEVICE, 0xA0 | 4);
    rig_out(r, 0, R_COUNT, 1);
    rig_command(r, 0, 0x20);
    assert_idnf(r, 0);
    rig_out(r, 0, R_DEVICE, 0xA0);
    rig_out(r, 0, R_LBAL, 18);
    rig_out(r, 0, R_COUNT, 1);
    rig_command(r, 0, 0x20);
    assert_idnf(r, 0);
    /* 0 sectors per track is invalid */
    rig_out(r, 0, R_COUNT, 0);
    rig_command(r, 0, 0x91);
    assert_abort(r, 0);
    rig_free(r);
}

static void test_unknown_opcodes(void)
{
    Rig *r = rig_new(0x1);
    static const uint8_t ops[] = { 0x00, 0x01, 0x08, 0x5C, 0xA0, 0xA1, 0xE9,
                                   0xFF };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(ops); i++) {
        rig_select(r, 0);
        rig_command(r, 0, ops[i]);
        assert_abort(r, 0);
    }
    /* Every standard opcode is named in the trace, supported or not. */
    g_assert_true(fake_host_trace_has(&r->fh, " 0xa1 IDENTIFY_PACKET_DEVICE "));
    g_assert_true(fake_host_trace_has(&r->fh, " 0x00 NOP "));
    g_assert_true(fake_host_trace_has(&r->fh, " 0x5c TRUSTED_RECEIVE "));
    g_assert_true(fake_host_trace_has(&r->fh, " 0x01 RESERVED_01 "));
    g_assert_true(fake_host_trace_has(&r->fh, " 0xff VENDOR_FF "));
    g_assert_false(fake_host_trace_has(&r->fh, "UNKNOWN"));
    rig_free(r);
}

static void test_flush(void)
{
    Rig *r = rig_new(0x1);
    static const uint8_t cmds[] = { 0xE7, 0xEA };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(cmds); i++) {
        g_string_truncate(r->fh.log, 0);
        rig_select(r, 0);
        rig_command(r, 0, cmds[i]);
        g_assert_cmphex(rig_altstatus(r, 0) & ST_BSY, ==, ST_BSY);
        g_assert_false(r->fh.irq[0]);
        g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
        g_assert_cmpint(fake_host_peek(&r->fh)->kind, ==, FAKE_FLUSH);
        /* While the host holds the flush (werror=stop), the drive is busy. */
        g_assert_cmphex(atalab_ctrl_drive_status(r->c, 0), ==,
                        ST_BSY | ST_DRDY);
        fake_host_complete_all(&r->fh);
        g_assert_cmpstr(r->fh.log->str, ==, "flush0 irq0=1 ");
        /* A peek at Status leaves INTRQ up; a read clears it. */
        g_assert_cmphex(atalab_ctrl_drive_status(r->c, 0), ==, ST_READY);
        g_assert_true(r->fh.irq[0]);
        g_assert_cmphex(atalab_ctrl_drive_status(r->c, 1), ==, 0x00);
        g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
        g_assert_false(r->fh.irq[0]);
    }
    /* A failing flush */
    r->fh.fail_ret = -5;
    rig_command(r, 0, 0xE7);
    fake_host_complete_all(&r->fh);
    assert_abort(r, 0);
    g_assert_cmpuint(r->fh.flushes, ==, 3);
    rig_free(r);
}

static void test_write_cache_fua(void)
{
    Rig *r = rig_new(0x1);

    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x82, 0), ==, ST_READY);
    pio_write(r, 0, 0x30, false, 1, 2, 1);
    g_assert_cmpuint(r->fh.writes, ==, 2);
    g_assert_cmpuint(r->fh.fua_writes, ==, 2);
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x02, 0), ==, ST_READY);
    pio_write(r, 0, 0x30, false, 1, 1, 1);
    g_assert_cmpuint(r->fh.fua_writes, ==, 2);
    /* Hardware reset: write cache back on */
    g_assert_cmphex(rig_nodata(r, 0, 0xEF, 0x82, 0), ==, ST_READY);
    atalab_ctrl_reset(r->c);
    pio_write(r, 0, 0x30, false, 1, 1, 1);
    g_assert_cmpuint(r->fh.fua_writes, ==, 2);
    rig_free(r);
}

/* WRITE MULTIPLE FUA EXT: forced unit access even with the cache on. */
static void test_fua_commands(void)
{
    Rig *r = rig_new(0x1);
    uint16_t w[256];

    rig_identify(r, 0, w);
    g_assert_true(w[84] & (1 << 6));
    g_assert_true(w[87] & (1 << 6));
    g_assert_cmphex(rig_nodata(r, 0, 0xC6, 0, 4), ==, ST_READY);
    pio_write(r, 0, 0xCE, true, 100, 8, 4);
    g_assert_cmpuint(r->fh.writes, ==, 2);
    g_assert_cmpuint(r->fh.fua_writes, ==, 2);
    pio_write(r, 0, 0x39, true, 100, 4, 4);
    g_assert_cmpuint(r->fh.fua_writes, ==, 2);
    g_assert_true(fake_host_trace_has(&r->fh,
                                      "0xce WRITE_MULTIPLE_FUA_EXT lba=100"));
    rig_free(r);
}

/* READ VERIFY reads the medium: a backend read error is UNC there. */
static void test_read_verify_error(void)
{
    Rig *r = rig_new(0x1);

    rig_lba28(r, 0, 77, 5);
    rig_command(r, 0, 0x40);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    g_assert_cmpuint(fake_host_peek(&r->fh)->len, ==, 5 * 512);
    r->fh.fail_ret = -5;
    fake_host_complete_all(&r->fh);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_UNC);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 77);
    rig_free(r);
}

/*
 * 28-bit commands reach sectors 0..0FFFFFFEh whatever the capacity (IDENTIFY
 * words 60-61 cap at 0FFFFFFFh); 48-bit commands go beyond.
 */
static void test_lba28_limit(void)
{
    Rig *r = rig_new_full("piix4", 0x1, 0x10000100, false);

    rig_lba28(r, 0, 0x0FFFFFFF, 1);
    rig_command(r, 0, 0x40);
    assert_idnf(r, 0);
    rig_lba28(r, 0, 0x0FFFFFF0, 16);
    rig_command(r, 0, 0xC8);
    assert_idnf(r, 0);
    rig_lba48(r, 0, 0x0FFFFFFF, 1);
    rig_command(r, 0, 0x42);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    fake_host_complete_all(&r->fh);
    rig_free(r);
}

/* A failed sector in CHS mode is reported as cylinder/head/sector. */
static void test_chs_error_address(void)
{
    Rig *r = rig_new(0x1);
    /* LBA 2000 = C 1, H 15, S 48 with 16 heads and 63 sectors */
    unsigned cyl = 2000 / (16 * 63), head = (2000 / 63) % 16;
    unsigned sect = 2000 % 63 + 1;

    rig_out(r, 0, R_DEVICE, 0xA0 | head);
    rig_out(r, 0, R_COUNT, 1);
    rig_out(r, 0, R_LBAL, sect);
    rig_out(r, 0, R_LBAM, cyl);
    rig_out(r, 0, R_LBAH, cyl >> 8);
    rig_command(r, 0, 0x20);
    r->fh.fail_ret = -5;
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_UNC);
    g_assert_cmpuint(fake_host_trace_count(&r->fh, "lba=2000"), >=, 1);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, sect);
    g_assert_cmphex(rig_in(r, 0, R_LBAM), ==, cyl);
    g_assert_cmphex(rig_in(r, 0, R_LBAH), ==, 0);
    g_assert_cmphex(rig_in(r, 0, R_DEVICE), ==, 0xA0 | head);
    rig_free(r);
}

static void test_seek_recalibrate_buffer(void)
{
    Rig *r = rig_new(0x1);
    uint8_t out[512], in[512];
    unsigned i;

    rig_lba28(r, 0, 1234, 0);
    rig_command(r, 0, 0x70);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_lba28(r, 0, RIG_SECTORS, 0);
    rig_command(r, 0, 0x7F);
    assert_idnf(r, 0);
    g_assert_cmphex(rig_nodata(r, 0, 0x10, 0, 0), ==, ST_READY);
    g_assert_cmphex(rig_nodata(r, 0, 0x1F, 0, 0), ==, ST_READY);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    /* WRITE BUFFER then READ BUFFER: the same 512 bytes */
    for (i = 0; i < 512; i++) {
        out[i] = i * 7 + 3;
    }
    rig_select(r, 0);
    rig_command(r, 0, 0xE8);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
    rig_write_data(r, 0, out, 512, false);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_command(r, 0, 0xE4);
    g_assert_true(r->fh.irq[0]);
    rig_status(r, 0);
    rig_read_data(r, 0, in, 512, true);
    g_assert_cmpmem(in, 512, out, 512);
    g_assert_cmpuint(r->fh.reads + r->fh.writes, ==, 0);
    rig_free(r);
}

static void test_block_errors(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[512] = { 0 };

    r->fh.fail_ret = -5;
    rig_lba28(r, 0, 33, 2);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, ERR_UNC);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 33);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_ERR);

    rig_lba28(r, 0, 40, 1);
    rig_command(r, 0, 0x30);
    r->fh.fail_ret = -28;
    rig_write_data(r, 0, buf, 512, false);
    fake_host_complete_all(&r->fh);
    assert_abort(r, 0);
    rig_free(r);
}

static void test_diagnostic(void)
{
    Rig *r = rig_new(0x3);

    rig_lba28(r, 1, 0x123456, 9);
    rig_command(r, 1, 0x90);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_in(r, 0, R_DEVICE) & 0x10, ==, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x01);
    g_assert_cmphex(rig_in(r, 0, R_COUNT), ==, 1);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 1);
    g_assert_cmphex(rig_in(r, 0, R_LBAM), ==, 0);
    g_assert_cmphex(rig_in(r, 0, R_LBAH), ==, 0);
    rig_select(r, 1);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x01);
    rig_free(r);
}

static void assert_signature(Rig *r, unsigned ch)
{
    g_assert_cmphex(rig_in(r, ch, R_COUNT), ==, 1);
    g_assert_cmphex(rig_in(r, ch, R_LBAL), ==, 1);
    g_assert_cmphex(rig_in(r, ch, R_LBAM), ==, 0);
    g_assert_cmphex(rig_in(r, ch, R_LBAH), ==, 0);
    g_assert_cmphex(rig_in(r, ch, R_ERROR), ==, 0x01);
}

static void test_srst(void)
{
    Rig *r = rig_new(0x3);

    /* A pending interrupt and changed registers */
    rig_lba28(r, 1, 0x55AA, 7);
    rig_command(r, 1, 0x77);
    g_assert_true(r->fh.irq[0]);
    rig_devctl(r, 0, 0x04);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_altstatus(r, 0) & ST_BSY, ==, ST_BSY);
    rig_devctl(r, 0, 0x00);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_in(r, 0, R_DEVICE) & 0x10, ==, 0);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    assert_signature(r, 0);
    rig_select(r, 1);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    assert_signature(r, 0);
    g_assert_false(r->fh.irq[0]);
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 reset srst=1"));
    /* Multiple mode survives SRST, not a hardware reset */
    g_assert_cmphex(rig_nodata(r, 1, 0xC6, 0, 4), ==, ST_READY);
    rig_srst(r, 0);
    pio_read(r, 1, 0xC4, false, 0, 8, 4, false);
    atalab_ctrl_reset(r->c);
    atalab_ctrl_firmware_init(r->c);
    rig_lba28(r, 1, 0, 8);
    rig_command(r, 1, 0xC4);
    assert_abort(r, 0);
    rig_free(r);
}

static void test_absent_slave(void)
{
    Rig *r = rig_new(0x1);
    uint16_t w[256];

    rig_select(r, 1);
    g_assert_cmphex(rig_status(r, 0), ==, 0x00);
    g_assert_cmphex(rig_altstatus(r, 0), ==, 0x00);
    /* Device 0 shadows the other registers */
    rig_out(r, 0, R_COUNT, 0x55);
    rig_out(r, 0, R_LBAL, 0xAA);
    g_assert_cmphex(rig_in(r, 0, R_COUNT), ==, 0x55);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 0xAA);
    g_assert_cmphex(rig_in(r, 0, R_DEVICE), ==, 0xF0);
    /* A command for device 1 is not executed */
    rig_command(r, 1, 0xEC);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, 0x00);
    g_assert_cmphex(atalab_ctrl_cmd_read(r->c, 0, R_DATA, 2), ==, 0xFFFF);
    /* Device 0 still works */
    rig_identify(r, 0, w);
    g_assert_cmphex(w[93] & 0x40, ==, 0x40);
    /* SRST with device 1 absent: device 0 error 01h */
    rig_srst(r, 0);
    assert_signature(r, 0);
    rig_free(r);
}

static void test_empty_channel(void)
{
    Rig *r = rig_new(0x1);
    unsigned reg;

    for (reg = 1; reg < 8; reg++) {
        rig_out(r, 1, reg, 0x00);
        g_assert_cmphex(rig_in(r, 1, reg), ==, 0x7F);
    }
    rig_command(r, 2, 0xEC);
    g_assert_cmphex(rig_altstatus(r, 1), ==, 0x7F);
    g_assert_cmphex(atalab_ctrl_cmd_read(r->c, 1, R_DATA, 2), ==, 0xFFFF);
    g_assert_cmphex(atalab_ctrl_cmd_read(r->c, 1, R_DATA, 4), ==,
                    0xFFFFFFFF);
    rig_srst(r, 1);
    g_assert_cmphex(rig_status(r, 1), ==, 0x7F);
    g_assert_false(r->fh.irq[1]);
    g_assert_cmpuint(r->fh.irq_raises[1], ==, 0);
    rig_free(r);
}

static void test_nien(void)
{
    Rig *r = rig_new(0x1);

    rig_devctl(r, 0, 0x02);
    rig_nodata(r, 0, 0xE1, 0, 0);
    rig_select(r, 0);
    rig_command(r, 0, 0xE1);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmpuint(r->fh.irq_raises[0], ==, 0);
    /* The pending interrupt is kept and shows once nIEN clears. */
    rig_devctl(r, 0, 0x00);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_false(r->fh.irq[0]);
    /* Setting nIEN drops a raised line without losing the interrupt */
    rig_command(r, 0, 0xE1);
    g_assert_true(r->fh.irq[0]);
    rig_devctl(r, 0, 0x02);
    g_assert_false(r->fh.irq[0]);
    rig_devctl(r, 0, 0x00);
    g_assert_true(r->fh.irq[0]);
    rig_free(r);
}

static void test_altstatus_and_ack(void)
{
    Rig *r = rig_new(0x1);
    unsigned i;

    rig_select(r, 0);
    rig_command(r, 0, 0xE1);
    g_assert_true(r->fh.irq[0]);
    for (i = 0; i < 3; i++) {
        g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
        g_assert_true(r->fh.irq[0]);
    }
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_false(r->fh.irq[0]);
    g_assert_true(fake_host_trace_has(&r->fh, "irq0 1"));
    g_assert_true(fake_host_trace_has(&r->fh, "irq0 0"));
    g_assert_true(fake_host_trace_has(&r->fh, "ctl0 r 0x0 1 0x50"));

    /* One record per access, events aside */
    fake_host_trace_clear(&r->fh);
    rig_command(r, 0, 0xE1);
    rig_altstatus(r, 0);
    rig_status(r, 0);
    atalab_ctrl_cmd_read(r->c, 0, R_DATA, 4);
    g_assert_cmpuint(fake_host_trace_count(&r->fh, " ata0 w "), ==, 1);
    g_assert_cmpuint(fake_host_trace_count(&r->fh, " ata0 r "), ==, 2);
    g_assert_cmpuint(fake_host_trace_count(&r->fh, " ctl0 r "), ==, 1);
    g_assert_true(fake_host_trace_has(&r->fh, "ata0 r 0x0 4 0xffffffff"));
    rig_free(r);
}

/*
 * Writing the Command register clears the device's pending interrupt
 * (ATA-7 vol. 1), so a command issued while an old interrupt is still
 * pending gives the controller a new edge at its completion: the line
 * drops, rises again, and BMISX.INTR (which follows rising edges of the
 * line) is set again.
 */
static void test_command_clears_interrupt(void)
{
    Rig *r = rig_new(0x1);
    unsigned raises;

    rig_select(r, 0);
    rig_command(r, 0, 0xE1);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & 0x04, ==, 0x04);
    /* The guest leaves it pending and clears BMISX.INTR only. */
    atalab_ctrl_bm_write(r->c, 2, 0x04, 1);
    g_assert_cmphex(rig_bm_status(r, 0) & 0x04, ==, 0);
    raises = r->fh.irq_raises[0];
    /* A flush: the command write drops the line, the completion raises it */
    rig_command(r, 0, 0xE7);
    g_assert_false(r->fh.irq[0]);
    fake_host_complete_all(&r->fh);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmpuint(r->fh.irq_raises[0], ==, raises + 1);
    g_assert_cmphex(rig_bm_status(r, 0) & 0x04, ==, 0x04);
    g_assert_true(g_str_has_suffix(r->fh.log->str,
                                   "irq0=0 flush0 irq0=1 "));
    rig_free(r);
}

/* EXECUTE DEVICE DIAGNOSTIC clears both devices' pending interrupts. */
static void test_diagnostic_clears_interrupts(void)
{
    Rig *r = rig_new(0x3);

    /* Both devices with an interrupt pending */
    rig_select(r, 1);
    rig_command(r, 1, 0xE1);
    rig_select(r, 0);
    rig_command(r, 0, 0xE1);
    g_assert_true(r->fh.irq[0]);
    rig_command(r, 0, 0x90);
    /* Device 0 interrupts for the diagnostic; device 1 has none left. */
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_false(r->fh.irq[0]);
    rig_select(r, 1);
    g_assert_false(r->fh.irq[0]);
    rig_free(r);
}

/* BMISX.INTR comes from the line: with nIEN set no edge, so no INTR. */
static void test_intr_follows_line(void)
{
    Rig *r = rig_new(0x1);

    rig_devctl(r, 0, 0x02);
    rig_select(r, 0);
    rig_command(r, 0, 0xE1);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & 0x04, ==, 0);
    rig_devctl(r, 0, 0x00);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & 0x04, ==, 0x04);
    rig_free(r);
}

static void test_absent_slave_keeps_master_irq(void)
{
    Rig *r = rig_new(0x1);

    rig_select(r, 0);
    rig_command(r, 0, 0xE1);
    g_assert_true(r->fh.irq[0]);
    /* Selecting the absent device 1 releases INTRQ ... */
    rig_select(r, 1);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, 0x00);
    /* ... and reading its status does not acknowledge device 0 */
    rig_select(r, 0);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    g_assert_false(r->fh.irq[0]);
    rig_free(r);
}

static void test_hob(void)
{
    Rig *r = rig_new(0x1);

    rig_lba48(r, 0, 0x665544332211ull, 0xABCD);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 0x11);
    g_assert_cmphex(rig_in(r, 0, R_COUNT), ==, 0xCD);
    rig_devctl(r, 0, 0x80);
    g_assert_cmphex(rig_in(r, 0, R_COUNT), ==, 0xAB);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 0x44);
    g_assert_cmphex(rig_in(r, 0, R_LBAM), ==, 0x55);
    g_assert_cmphex(rig_in(r, 0, R_LBAH), ==, 0x66);
    /* A command block write clears HOB */
    rig_out(r, 0, R_FEATURE, 0);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 0x11);
    g_assert_cmphex(rig_in(r, 0, R_COUNT), ==, 0xCD);
    rig_free(r);
}

static void test_busy_writes_ignored(void)
{
    Rig *r = rig_new(0x1);
    uint8_t buf[512];

    rig_lba28(r, 0, 8, 1);
    rig_command(r, 0, 0x20);
    g_assert_cmphex(rig_altstatus(r, 0) & ST_BSY, ==, ST_BSY);
    rig_out(r, 0, R_LBAL, 0x99);
    rig_out(r, 0, R_DEVICE, 0xF0);
    rig_command(r, 0, 0xEC);
    g_assert_true(fake_host_trace_has(&r->fh, "ignored d0 busy reg=3"));
    g_assert_true(fake_host_trace_has(&r->fh, "ignored d0 busy reg=7"));
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 8);
    g_assert_cmphex(rig_in(r, 0, R_DEVICE) & 0x10, ==, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
    /* A command while DRQ is ignored too */
    rig_command(r, 0, 0xE1);
    g_assert_true(fake_host_trace_has(&r->fh, "ignored d0 drq cmd=0xe1"));
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_DRQ);
    rig_read_data(r, 0, buf, 512, false);
    assert_disk_pattern(r, 0, buf, 8, 512);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    rig_free(r);
}

static void test_data_port_without_drq(void)
{
    Rig *r = rig_new(0x1);

    rig_select(r, 0);
    g_assert_cmphex(atalab_ctrl_cmd_read(r->c, 0, R_DATA, 2), ==, 0xFFFF);
    g_assert_cmphex(atalab_ctrl_cmd_read(r->c, 0, R_DATA, 4), ==,
                    0xFFFFFFFF);
    atalab_ctrl_cmd_write(r->c, 0, R_DATA, 0x1234, 2);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    g_assert_true(fake_host_trace_has(&r->fh, "violation d0 data-read"));
    g_assert_true(fake_host_trace_has(&r->fh, "violation d0 data-write"));
    /* While BSY (read in flight) as well */
    rig_lba28(r, 0, 1, 1);
    rig_command(r, 0, 0x20);
    g_assert_cmphex(atalab_ctrl_cmd_read(r->c, 0, R_DATA, 2), ==, 0xFFFF);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(atalab_ctrl_cmd_read(r->c, 0, R_DATA, 2), ==,
                    fake_pattern(0, 512) | fake_pattern(0, 513) << 8);
    /* Writing during data-in does nothing */
    atalab_ctrl_cmd_write(r->c, 0, R_DATA, 0, 2);
    g_assert_cmphex(r->fh.disk[0][512], ==, fake_pattern(0, 512));
    rig_free(r);
}

/* The same guest work with and without a trace: tracing changes nothing. */
static void no_trace_run(bool tracing, uint16_t w[256], GString *log,
                         uint8_t *disk)
{
    Rig *r = rig_new_full("piix4", 0x3, 0, tracing);
    uint8_t buf[1024];

    rig_identify(r, 1, w);
    rig_lba28(r, 0, 5, 2);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    rig_read_data(r, 0, buf, 1024, true);
    rig_lba28(r, 0, 40, 2);
    rig_command(r, 0, 0x30);
    rig_write_data(r, 0, buf, 1024, false);
    fake_host_complete_all(&r->fh);
    rig_status(r, 0);
    rig_srst(r, 0);
    g_assert_true(tracing ? r->fh.trace->len > 0 : r->fh.trace->len == 0);
    g_string_append(log, r->fh.log->str);
    memcpy(disk, r->fh.disk[0], 64 * 512);
    rig_free(r);
}

static void test_no_trace(void)
{
    uint16_t w_on[256], w_off[256];
    GString *log_on = g_string_new(NULL), *log_off = g_string_new(NULL);
    uint8_t *disk_on = g_malloc(64 * 512), *disk_off = g_malloc(64 * 512);

    no_trace_run(true, w_on, log_on, disk_on);
    no_trace_run(false, w_off, log_off, disk_off);
    g_assert_cmpmem(w_on, sizeof(w_on), w_off, sizeof(w_off));
    g_assert_cmpstr(log_on->str, ==, log_off->str);
    g_assert_cmpstr(log_on->str, !=, "");
    g_assert_cmpmem(disk_on, 64 * 512, disk_off, 64 * 512);
    g_string_free(log_on, TRUE);
    g_string_free(log_off, TRUE);
    g_free(disk_on);
    g_free(disk_off);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ata/identify/words", test_identify_words);
    g_test_add_func("/ata/identify/pair-cable80", test_identify_pair_cable);
    g_test_add_func("/ata/identify/big", test_identify_big);
    g_test_add_func("/ata/set-features", test_set_features);
    g_test_add_func("/ata/set-multiple", test_set_multiple);
    g_test_add_func("/ata/read-sectors", test_read_sectors);
    g_test_add_func("/ata/read-multiple", test_read_multiple);
    g_test_add_func("/ata/write-sectors", test_write_sectors);
    g_test_add_func("/ata/write-multiple", test_write_multiple);
    g_test_add_func("/ata/idnf", test_idnf);
    g_test_add_func("/ata/count-zero", test_count_zero);
    g_test_add_func("/ata/chs", test_chs);
    g_test_add_func("/ata/unknown-opcodes", test_unknown_opcodes);
    g_test_add_func("/ata/flush", test_flush);
    g_test_add_func("/ata/write-cache-fua", test_write_cache_fua);
    g_test_add_func("/ata/block-errors", test_block_errors);
    g_test_add_func("/ata/fua-commands", test_fua_commands);
    g_test_add_func("/ata/read-verify-error", test_read_verify_error);
    g_test_add_func("/ata/lba28-limit", test_lba28_limit);
    g_test_add_func("/ata/chs-error-address", test_chs_error_address);
    g_test_add_func("/ata/seek-recalibrate-buffer",
                    test_seek_recalibrate_buffer);
    g_test_add_func("/ata/diagnostic", test_diagnostic);
    g_test_add_func("/ata/srst", test_srst);
    g_test_add_func("/ata/absent-slave", test_absent_slave);
    g_test_add_func("/ata/empty-channel", test_empty_channel);
    g_test_add_func("/ata/nien", test_nien);
    g_test_add_func("/ata/altstatus-and-ack", test_altstatus_and_ack);
    g_test_add_func("/ata/absent-slave-keeps-master-irq",
                    test_absent_slave_keeps_master_irq);
    g_test_add_func("/ata/command-clears-interrupt",
                    test_command_clears_interrupt);
    g_test_add_func("/ata/diagnostic-clears-interrupts",
                    test_diagnostic_clears_interrupts);
    g_test_add_func("/ata/intr-follows-line", test_intr_follows_line);
    g_test_add_func("/ata/hob", test_hob);
    g_test_add_func("/ata/busy-writes-ignored", test_busy_writes_ignored);
    g_test_add_func("/ata/data-port-without-drq",
                    test_data_port_without_drq);
    g_test_add_func("/ata/no-trace", test_no_trace);
    return g_test_run();
}
