/*
 * atalab unit tests: bus-master IDE registers and DMA transfers.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "rig.h"

#define BM_ACTIVE   0x01
#define BM_ERR      0x02
#define BM_INTR     0x04

#define PRDT        0x1000      /* descriptor table */
#define BUF         0x100000    /* data buffer, 1 MiB in */

static void test_registers(void)
{
    Rig *r = rig_new(0x5);
    AtalabCtrl *c = r->c;

    /*
     * Firmware leaves the drive DMA capable bits set for the drives it
     * found (0 and 2 here); a hardware reset clears them.
     */
    g_assert_cmphex(atalab_ctrl_bm_read(c, 2, 1), ==, 0x20);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 10, 1), ==, 0x20);
    atalab_ctrl_reset(c);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 0, 4), ==, 0);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 4, 4), ==, 0);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 8, 4), ==, 0);
    /* Command: only bits 0 and 3; reserved bits read 0 */
    atalab_ctrl_bm_write(c, 0, 0xF6, 1);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 0, 1), ==, 0x00);
    atalab_ctrl_bm_write(c, 0, 0x08, 1);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 0, 1), ==, 0x08);
    /* Status: 5/6 r/w, 7 simplex 0, 0 read-only */
    atalab_ctrl_bm_write(c, 2, 0xFF, 1);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 2, 1), ==, 0x60);
    atalab_ctrl_bm_write(c, 2, 0x00, 1);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 2, 1), ==, 0x00);
    /* PRD pointer: dword aligned */
    atalab_ctrl_bm_write(c, 4, 0xFFFFFFFF, 4);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 4, 4), ==, 0xFFFFFFFC);
    atalab_ctrl_bm_write(c, 5, 0x1234, 2);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 4, 4), ==, 0xFF1234FC);
    /* Reserved bytes */
    atalab_ctrl_bm_write(c, 1, 0xFF, 1);
    atalab_ctrl_bm_write(c, 3, 0xFF, 1);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 1, 1), ==, 0);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 3, 1), ==, 0);
    /* Secondary channel at offset 8, independent */
    atalab_ctrl_bm_write(c, 12, 0x2000, 4);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 12, 4), ==, 0x2000);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 4, 4), ==, 0xFF1234FC);
    /* Dword read over command, reserved, status, reserved */
    atalab_ctrl_bm_write(c, 2, 0x20, 1);
    g_assert_cmphex(atalab_ctrl_bm_read(c, 0, 4), ==, 0x00200008);
    /* ERR and INTR are write-one-to-clear */
    rig_prd(r, 0x3000, 0, 0xFFFFFF00, 512, true);
    rig_bm_setup(r, 0, 0x3000, true);
    rig_lba28(r, 0, 0, 1);
    rig_command(r, 0, 0xC8);
    rig_bm_start(r, 0, true);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_bm_status(r, 0) & BM_ERR, ==, BM_ERR);
    atalab_ctrl_bm_write(c, 2, 0x04, 1);            /* INTR only */
    g_assert_cmphex(rig_bm_status(r, 0) & BM_ERR, ==, BM_ERR);
    atalab_ctrl_bm_write(c, 2, 0x02, 1);
    g_assert_cmphex(rig_bm_status(r, 0) & BM_ERR, ==, 0);
    g_assert_true(fake_host_trace_has(&r->fh, "bm w 0x2 1 0x02"));
    rig_free(r);
}

/*
 * One DMA command: program PRDs (lens[], last with EOT unless no_eot),
 * run it with the given order, complete all I/O.
 */
static void dma_cmd(Rig *r, unsigned drive, uint8_t cmd, uint64_t lba,
                    unsigned count, bool start_first)
{
    unsigned ch = drive / 2;
    bool to_memory = cmd == 0xC8 || cmd == 0x25;

    rig_bm_setup(r, ch, PRDT + ch * 0x800, to_memory);
    if (start_first) {
        rig_bm_start(r, ch, to_memory);
    }
    if (cmd == 0x25 || cmd == 0x35) {
        rig_lba48(r, drive, lba, count);
    } else {
        rig_lba28(r, drive, lba, count);
    }
    rig_command(r, drive, cmd);
    if (!start_first) {
        rig_bm_start(r, ch, to_memory);
    }
    fake_host_complete_all(&r->fh);
}

static void test_read_dma(void)
{
    Rig *r = rig_new(0x1);
    unsigned order;

    for (order = 0; order < 2; order++) {
        memset(r->fh.ram + BUF, 0, 8192);
        rig_prd(r, PRDT, 0, BUF, 4096, false);
        rig_prd(r, PRDT, 1, BUF + 4096, 4096, true);
        dma_cmd(r, 0, 0xC8, 16, 16, order);
        g_assert_true(rig_ram_matches_disk(r, BUF, 0, 16 * 512, 8192));
        /* PRD exactly consumed: ACTIVE=0 INTR=1 */
        g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_INTR);
        g_assert_true(r->fh.irq[0]);
        g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
        g_assert_false(r->fh.irq[0]);
        rig_bm_stop(r, 0);
        g_assert_cmpuint(r->fh.reads, ==, order + 1);
    }
    g_assert_true(fake_host_trace_has(&r->fh, "bm done ch0 status=0x04"));
    g_assert_true(fake_host_trace_has(&r->fh,
                  "ata0 cmd d0 0xc8 READ_DMA lba=16 count=16"));
    rig_free(r);
}

static void test_write_dma(void)
{
    Rig *r = rig_new(0x4);
    unsigned i;

    for (i = 0; i < 3 * 512; i++) {
        r->fh.ram[BUF + i] = i * 3 + 1;
    }
    rig_prd(r, PRDT + 0x800, 0, BUF, 1024, false);
    rig_prd(r, PRDT + 0x800, 1, BUF + 1024, 512, true);
    dma_cmd(r, 2, 0x35, 100, 3, false);
    g_assert_cmpmem(r->fh.disk[2] + 100 * 512, 1536, r->fh.ram + BUF, 1536);
    g_assert_cmphex(rig_bm_status(r, 1) & 7, ==, BM_INTR);
    g_assert_true(r->fh.irq[1]);
    g_assert_cmphex(rig_status(r, 1), ==, ST_READY);
    g_assert_cmpuint(r->fh.fua_writes, ==, 0);
    g_assert_cmpuint(r->fh.writes, ==, 1);
    /* Write cache off: DMA writes are FUA */
    rig_bm_stop(r, 1);
    g_assert_cmphex(rig_nodata(r, 2, 0xEF, 0x82, 0), ==, ST_READY);
    dma_cmd(r, 2, 0xCA, 100, 3, true);
    g_assert_cmpuint(r->fh.fua_writes, ==, 1);
    rig_free(r);
}

static void test_prd_format(void)
{
    Rig *r = rig_new(0x1);

    /* Bit 0 of address and count ignored; count 0 = 64 KiB */
    memset(r->fh.ram + BUF, 0, 0x30000);
    rig_prd(r, PRDT, 0, BUF + 0x20001, 0x201, false);
    rig_prd(r, PRDT, 1, BUF, 0, true);
    dma_cmd(r, 0, 0xC8, 0, (0x200 + 0x10000) / 512, true);
    g_assert_true(rig_ram_matches_disk(r, BUF + 0x20000, 0, 0, 0x200));
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 0x200, 0x10000));
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_INTR);
    g_assert_cmphex(r->fh.ram[BUF + 0x20200], ==, 0);
    rig_free(r);
}

static void test_prd_larger(void)
{
    Rig *r = rig_new(0x1);

    rig_prd(r, PRDT, 0, BUF, 8192, true);
    dma_cmd(r, 0, 0xC8, 0, 4, false);
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 0, 2048));
    /* PRD larger than the transfer: ACTIVE=1 INTR=1 */
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE | BM_INTR);
    g_assert_true(r->fh.irq[0]);
    rig_bm_stop(r, 0);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_INTR);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);

    /* More descriptors than needed, the last one unused */
    rig_prd(r, PRDT, 0, BUF, 2048, false);
    rig_prd(r, PRDT, 1, BUF + 4096, 2048, true);
    dma_cmd(r, 0, 0xCA, 0, 4, false);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE | BM_INTR);
    rig_free(r);
}

static void test_prd_short(void)
{
    Rig *r = rig_new(0x1);
    unsigned dir;

    for (dir = 0; dir < 2; dir++) {
        uint8_t cmd = dir ? 0xCA : 0xC8;

        rig_prd(r, PRDT, 0, BUF, 1024, true);
        dma_cmd(r, 0, cmd, 0, 4, false);
        /* PRD smaller than the transfer: ACTIVE=0 INTR=0, no interrupt */
        g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, 0);
        g_assert_false(r->fh.irq[0]);
        g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY | ST_DRQ);
        g_assert_true(fake_host_trace_has(&r->fh, "bm prd-short ch0"));
        /* The driver's timeout handling: stop, reset */
        rig_bm_stop(r, 0);
        rig_srst(r, 0);
        g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
        g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    }
    /* Nothing of the short write reached the disk */
    g_assert_cmpuint(r->fh.writes, ==, 0);
    rig_free(r);
}

static void test_prd_no_eot(void)
{
    Rig *r = rig_new(0x1);
    uint32_t table = 0x2FFF0;       /* two entries before the page end */

    rig_prd(r, table, 0, BUF, 512, false);
    rig_prd(r, table, 1, BUF + 512, 512, false);
    memset(r->fh.ram + 0x30000, 0xFF, 16);   /* would be entry 2 */
    atalab_ctrl_bm_write(r->c, 4, table, 4);
    atalab_ctrl_bm_write(r->c, 2, 0x06, 1);
    rig_lba28(r, 0, 0, 8);
    rig_command(r, 0, 0xC8);
    rig_bm_start(r, 0, true);
    fake_host_complete_all(&r->fh);
    g_assert_true(fake_host_trace_has(&r->fh, "bm prd-no-eot ch0"));
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, 0);
    g_assert_false(r->fh.irq[0]);
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 0, 1024));
    rig_bm_stop(r, 0);
    rig_srst(r, 0);

    /* Without EOT but the transfer ends first: "PRD larger" */
    atalab_ctrl_bm_write(r->c, 2, 0x06, 1);
    rig_lba28(r, 0, 0, 1);
    rig_command(r, 0, 0xC8);
    rig_bm_start(r, 0, true);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE | BM_INTR);
    rig_free(r);
}

static void test_64k_wrap(void)
{
    Rig *r = rig_new(0x1);

    memset(r->fh.ram + 0x20000, 0, 0x20000);
    rig_prd(r, PRDT, 0, 0x2FF00, 0x400, true);
    dma_cmd(r, 0, 0xC8, 0, 2, false);
    g_assert_true(rig_ram_matches_disk(r, 0x2FF00, 0, 0, 0x100));
    g_assert_true(rig_ram_matches_disk(r, 0x20000, 0, 0x100, 0x300));
    g_assert_cmphex(r->fh.ram[0x30000], ==, 0);
    g_assert_cmphex(r->fh.ram[0x20300], ==, 0);
    g_assert_true(fake_host_trace_has(&r->fh, "bm prd-wrap ch0"));
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_INTR);
    rig_free(r);
}

static void test_master_abort(void)
{
    Rig *r = rig_new(0x1);

    /* PRD table outside guest RAM */
    atalab_ctrl_bm_write(r->c, 4, 0xFFFF0000, 4);
    atalab_ctrl_bm_write(r->c, 2, 0x06, 1);
    rig_lba28(r, 0, 0, 1);
    rig_command(r, 0, 0xC8);
    rig_bm_start(r, 0, true);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ERR);
    g_assert_false(r->fh.irq[0]);
    g_assert_true(fake_host_trace_has(&r->fh, "bm master-abort ch0"));
    rig_bm_stop(r, 0);
    rig_srst(r, 0);

    /* Read into a buffer beyond RAM: after the backend read */
    rig_prd(r, PRDT, 0, FAKE_RAM_SIZE + 0x1000, 512, true);
    dma_cmd(r, 0, 0xC8, 0, 1, false);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ERR);
    g_assert_false(r->fh.irq[0]);
    rig_bm_stop(r, 0);
    rig_srst(r, 0);

    /* Write from a buffer beyond RAM: nothing reaches the disk */
    rig_prd(r, PRDT, 0, 0xF0000000, 512, true);
    dma_cmd(r, 0, 0xCA, 0, 1, false);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ERR);
    g_assert_cmpuint(r->fh.writes, ==, 0);
    g_assert_false(r->fh.irq[0]);
    rig_free(r);
}

static void test_start_without_command(void)
{
    Rig *r = rig_new(0x1);

    rig_prd(r, PRDT, 0, BUF, 512, true);
    rig_bm_setup(r, 0, PRDT, true);
    rig_bm_start(r, 0, true);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    /* Direction change while active is ignored */
    atalab_ctrl_bm_write(r->c, 0, 0x01, 1);
    g_assert_cmphex(atalab_ctrl_bm_read(r->c, 0, 1), ==, 0x09);
    /* A PIO command does not feed the engine */
    rig_lba28(r, 0, 0, 1);
    rig_command(r, 0, 0x20);
    fake_host_complete_all(&r->fh);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE | BM_INTR);
    rig_status(r, 0);
    rig_srst(r, 0);
    rig_bm_stop(r, 0);
    g_assert_cmphex(rig_bm_status(r, 0) & BM_ACTIVE, ==, 0);
    atalab_ctrl_bm_write(r->c, 0, 0x00, 1);
    g_assert_cmphex(atalab_ctrl_bm_read(r->c, 0, 1), ==, 0x00);
    rig_free(r);
}

/*
 * PIIX4: bus master operation cannot be stopped and resumed.  A stop with
 * a chunk in flight drains it (nothing reaches guest memory afterwards),
 * the command moves no more data, and only a reset ends it.
 */
static void stop_midway(bool zero_copy)
{
    Rig *r = rig_new(0x1);
    uint8_t zero[4096] = { 0 };

    r->fh.zero_copy = zero_copy;
    memset(r->fh.ram + BUF, 0, 4096);
    rig_prd(r, PRDT, 0, BUF, 4096, true);
    rig_bm_setup(r, 0, PRDT, true);
    rig_lba28(r, 0, 0, 8);
    rig_command(r, 0, 0xC8);
    rig_bm_start(r, 0, true);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    rig_bm_stop(r, 0);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    g_assert_cmpuint(r->fh.drains, ==, 1);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, 0);
    g_assert_true(fake_host_trace_has(&r->fh, "dma-stuck d0 0xc8 stopped"));
    g_assert_true(fake_host_trace_has(&r->fh, "stale d0 read lba=0"));
    if (zero_copy) {
        /* The drained read went straight to memory. */
        g_assert_true(rig_ram_matches_disk(r, BUF, 0, 0, 4096));
        memset(r->fh.ram + BUF, 0, 4096);
    } else {
        g_assert_cmpmem(r->fh.ram + BUF, 4096, zero, 4096);
    }
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY | ST_DRQ);
    /* A new start does not resume the command. */
    rig_bm_start(r, 0, true);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    g_assert_cmpmem(r->fh.ram + BUF, 4096, zero, 4096);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE);
    rig_bm_stop(r, 0);
    /* Commands are refused while DRQ is set; SRST ends the command. */
    rig_lba28(r, 0, 0, 8);
    rig_command(r, 0, 0xC8);
    g_assert_true(fake_host_trace_has(&r->fh, "ignored d0 drq cmd=0xc8"));
    rig_srst(r, 0);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY);
    dma_cmd(r, 0, 0xC8, 0, 8, false);
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 0, 4096));
    rig_free(r);
}

static void test_stop_midway(void)
{
    stop_midway(true);
    stop_midway(false);
}

static void test_reset_inflight(void)
{
    Rig *r = rig_new(0x1);
    uint8_t zero[4096] = { 0 };

    /* Hardware reset with a bounced DMA read in flight */
    r->fh.zero_copy = false;
    memset(r->fh.ram + BUF, 0, 4096);
    rig_prd(r, PRDT, 0, BUF, 4096, true);
    rig_bm_setup(r, 0, PRDT, true);
    rig_lba28(r, 0, 0, 8);
    rig_command(r, 0, 0xC8);
    rig_bm_start(r, 0, true);
    atalab_ctrl_reset(r->c);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    g_assert_cmphex(rig_bm_status(r, 0), ==, 0);
    atalab_ctrl_firmware_init(r->c);
    g_assert_cmpmem(r->fh.ram + BUF, 4096, zero, 4096);
    g_assert_false(r->fh.irq[0]);

    /* SRST with a DMA write in flight: it lands, no interrupt follows */
    memset(r->fh.ram + BUF, 0xA5, 4096);
    rig_bm_setup(r, 0, PRDT, false);
    rig_lba28(r, 0, 0, 8);
    rig_command(r, 0, 0xCA);
    rig_bm_start(r, 0, false);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 1);
    rig_srst(r, 0);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 0);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & BM_INTR, ==, 0);
    g_assert_cmphex(r->fh.disk[0][100], ==, 0xA5);
    rig_free(r);
}

static void test_chunks(void)
{
    const uint64_t sectors = 65536 + 64;
    Rig *r = rig_new_full("piix4", 0x1, sectors, false);
    unsigned i;

    /* 4096 sectors (2 MiB): two 1 MiB backend requests */
    for (i = 0; i < 32; i++) {
        rig_prd(r, PRDT, i, BUF + (i % 8) * 0x10000, 0, i == 31);
    }
    dma_cmd(r, 0, 0x25, 7, 4096, false);
    g_assert_cmpuint(r->fh.reads, ==, 2);
    g_assert_cmpuint(r->fh.max_len, ==, 1024 * 1024);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_INTR);
    /* BUF last held PRD 24: sectors 7 + 24 * 128 onwards */
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, (7 + 3072) * 512,
                                       0x10000));
    rig_status(r, 0);
    rig_bm_stop(r, 0);

    /* LBA48 count 0 = 65536 sectors = 32 MiB, through one 64 KiB page */
    r->fh.reads = 0;
    for (i = 0; i < 512; i++) {
        rig_prd(r, PRDT, i, BUF, 0, i == 511);
    }
    dma_cmd(r, 0, 0x25, sectors - 65536, 0, true);
    g_assert_cmpuint(r->fh.reads, ==, 32);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_INTR);
    g_assert_true(rig_ram_matches_disk(r, BUF, 0,
                                       (sectors - 128) * 512, 0x10000));
    rig_status(r, 0);
    rig_bm_stop(r, 0);

    /* LBA28 count 0 = 256 sectors: one request of 128 KiB */
    r->fh.reads = 0;
    r->fh.max_len = 0;
    dma_cmd(r, 0, 0xC8, 0, 0, false);
    g_assert_cmpuint(r->fh.reads, ==, 1);
    g_assert_cmpuint(r->fh.max_len, ==, 256 * 512);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE | BM_INTR);
    rig_free(r);
}

static void test_dma_errors(void)
{
    Rig *r = rig_new(0x1);

    rig_prd(r, PRDT, 0, BUF, 4096, true);
    r->fh.fail_ret = -5;
    dma_cmd(r, 0, 0xC8, 4, 8, false);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & (BM_INTR | BM_ERR), ==, BM_INTR);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x40);
    g_assert_cmphex(rig_in(r, 0, R_LBAL), ==, 4);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_ERR);
    rig_bm_stop(r, 0);
    r->fh.fail_ret = -5;
    dma_cmd(r, 0, 0xCA, 4, 8, false);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x04);
    g_assert_cmphex(rig_status(r, 0), ==, ST_READY | ST_ERR);
    rig_bm_stop(r, 0);
    /* IDNF on a DMA command: interrupt, INTR, no transfer */
    dma_cmd(r, 0, 0xC8, RIG_SECTORS, 1, true);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_ACTIVE | BM_INTR);
    g_assert_cmphex(rig_in(r, 0, R_ERROR), ==, 0x10);
    rig_free(r);
}

static void test_nien_intr(void)
{
    Rig *r = rig_new(0x1);

    /* INTR follows the interrupt line, which nIEN keeps low. */
    rig_prd(r, PRDT, 0, BUF, 512, true);
    rig_devctl(r, 0, 0x02);
    dma_cmd(r, 0, 0xC8, 0, 1, false);
    g_assert_false(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, 0);
    g_assert_cmphex(rig_altstatus(r, 0), ==, ST_READY);
    rig_devctl(r, 0, 0x00);
    g_assert_true(r->fh.irq[0]);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_INTR);
    rig_free(r);
}

static void test_both_channels(void)
{
    Rig *r = rig_new(0x5);

    rig_prd(r, PRDT, 0, BUF, 2048, true);
    rig_prd(r, PRDT + 0x800, 0, BUF + 0x10000, 2048, true);
    rig_bm_setup(r, 0, PRDT, true);
    rig_bm_setup(r, 1, PRDT + 0x800, true);
    rig_lba28(r, 0, 1, 4);
    rig_command(r, 0, 0xC8);
    rig_lba28(r, 2, 2, 4);
    rig_command(r, 2, 0xC8);
    rig_bm_start(r, 1, true);
    rig_bm_start(r, 0, true);
    g_assert_cmpuint(fake_host_pending(&r->fh), ==, 2);
    fake_host_complete_all(&r->fh);
    g_assert_true(rig_ram_matches_disk(r, BUF, 0, 512, 2048));
    g_assert_true(rig_ram_matches_disk(r, BUF + 0x10000, 2, 1024, 2048));
    g_assert_true(r->fh.irq[0]);
    g_assert_true(r->fh.irq[1]);
    g_assert_cmphex(rig_bm_status(r, 0) & 7, ==, BM_INTR);
    g_assert_cmphex(rig_bm_status(r, 1) & 7, ==, BM_INTR);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/bmdma/registers", test_registers);
    g_test_add_func("/bmdma/read-dma", test_read_dma);
    g_test_add_func("/bmdma/write-dma", test_write_dma);
    g_test_add_func("/bmdma/prd-format", test_prd_format);
    g_test_add_func("/bmdma/prd-larger", test_prd_larger);
    g_test_add_func("/bmdma/prd-short", test_prd_short);
    g_test_add_func("/bmdma/prd-no-eot", test_prd_no_eot);
    g_test_add_func("/bmdma/64k-wrap", test_64k_wrap);
    g_test_add_func("/bmdma/master-abort", test_master_abort);
    g_test_add_func("/bmdma/start-without-command",
                    test_start_without_command);
    g_test_add_func("/bmdma/stop-midway", test_stop_midway);
    g_test_add_func("/bmdma/reset-inflight", test_reset_inflight);
    g_test_add_func("/bmdma/chunks", test_chunks);
    g_test_add_func("/bmdma/errors", test_dma_errors);
    g_test_add_func("/bmdma/nien-intr", test_nien_intr);
    g_test_add_func("/bmdma/both-channels", test_both_channels);
    return g_test_run();
}
