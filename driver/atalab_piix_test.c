// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of atalab_piix's timing computation: the register fields
 * for each mode and drive, the bits each drive owns in the shared
 * registers, clean transitions between any two settings, and the ICH5
 * SATA port map.
 *
 * Expected field values come from the datasheet encodings (ISP 5-2 clocks,
 * RTC 4-1 clocks at 33 MHz; UDMATIM CT per base clock) applied to the
 * ATA/ATAPI-7 mode timings; they are not read back from the driver.
 */

#include <kunit/test.h>
#include <linux/ata.h>
#include <linux/libata.h>
#include <linux/module.h>

#include "atalab_piix.h"

#define NO_DMA	0xff
#define T	ATALAB_PIIX_TIME
#define IE	ATALAB_PIIX_IE
#define PPE	ATALAB_PIIX_PPE
#define DTE	ATALAB_PIIX_DTE

static const struct atalab_piix_chip piix3 = { .udma_clocks = 0 };
static const struct atalab_piix_chip piix4 = {
	.udma_clocks = BIT(ATALAB_PIIX_CLK_33),
};

static const struct atalab_piix_chip ich5 = {
	.udma_clocks = BIT(ATALAB_PIIX_CLK_33) | BIT(ATALAB_PIIX_CLK_66) |
		       BIT(ATALAB_PIIX_CLK_133),
};

/* IDENTIFY of a drive with words 64-70 valid and the given cycle times */
static void make_id(u16 *id, u16 dma_min, u16 pio, u16 pio_iordy)
{
	memset(id, 0, ATA_ID_WORDS * sizeof(*id));
	id[ATA_ID_FIELD_VALID] = 0x0007;
	id[ATA_ID_EIDE_DMA_MIN] = dma_min;
	id[ATA_ID_EIDE_DMA_TIME] = dma_min;
	id[ATA_ID_EIDE_PIO] = pio;
	id[ATA_ID_EIDE_PIO_IORDY] = pio_iordy;
}

struct timing_case {
	const char *name;
	const struct atalab_piix_chip *chip;
	u16 dma_min, pio, pio_iordy;	/* IDENTIFY words 65, 67, 68 */
	bool eide_invalid;		/* word 53 bit 1 clear */
	u8 pio_mode, dma_mode;
	bool iordy, ata_disk;
	int rc;
	struct atalab_piix_timing want;
};

#define FAST(isp_clk, rtc_clk)	.isp = 5 - (isp_clk), .rtc = 4 - (rtc_clk)
#define DISK	.iordy = true, .ata_disk = true
#define ID120	.dma_min = 120, .pio = 120, .pio_iordy = 120

static const struct timing_case timing_cases[] = {
	/* PIO: t0 600/383 ns need compatible timing; 240, 180, 120 ns fit */
	{ "pio0", &piix4, ID120, .pio_mode = XFER_PIO_0, .dma_mode = NO_DMA,
	  DISK, .want = { .flags = IE | PPE } },
	{ "pio1", &piix4, ID120, .pio_mode = XFER_PIO_1, .dma_mode = NO_DMA,
	  DISK, .want = { .flags = IE | PPE } },
	{ "pio2", &piix4, ID120, .pio_mode = XFER_PIO_2, .dma_mode = NO_DMA,
	  DISK, .want = { .flags = T | IE | PPE, FAST(4, 4) } },
	{ "pio3", &piix4, ID120, .pio_mode = XFER_PIO_3, .dma_mode = NO_DMA,
	  DISK, .want = { .flags = T | IE | PPE, FAST(3, 3) } },
	{ "pio4", &piix4, ID120, .pio_mode = XFER_PIO_4, .dma_mode = NO_DMA,
	  DISK, .want = { .flags = T | IE | PPE, FAST(3, 1) } },
	{ "pio4-piix3", &piix3, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = NO_DMA, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1) } },
	/* the drive's own cycle times lengthen the cycle */
	{ "pio4-word68-180ns", &piix4, .dma_min = 120, .pio = 120,
	  .pio_iordy = 180, .pio_mode = XFER_PIO_4, .dma_mode = NO_DMA, DISK,
	  .want = { .flags = T | IE | PPE, FAST(4, 2) } },
	{ "pio2-word67-270ns", &piix4, .dma_min = 120, .pio = 270,
	  .pio_iordy = 120, .pio_mode = XFER_PIO_2, .dma_mode = NO_DMA, DISK,
	  .want = { .flags = T | IE | PPE, FAST(5, 4) } },
	{ "pio2-word67-300ns", &piix4, .dma_min = 120, .pio = 300,
	  .pio_iordy = 120, .pio_mode = XFER_PIO_2, .dma_mode = NO_DMA, DISK,
	  .want = { .flags = IE | PPE } },
	{ "pio4-words-invalid", &piix4, .dma_min = 600, .pio = 600,
	  .pio_iordy = 600, .eide_invalid = true, .pio_mode = XFER_PIO_4,
	  .dma_mode = NO_DMA, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1) } },
	/* without IORDY no cycle under 240 ns; no prefetch for ATAPI */
	{ "pio4-no-iordy", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = NO_DMA, .ata_disk = true,
	  .want = { .flags = T | PPE, FAST(5, 3) } },
	{ "pio2-no-iordy", &piix4, ID120, .pio_mode = XFER_PIO_2,
	  .dma_mode = NO_DMA, .ata_disk = true,
	  .want = { .flags = T | PPE, FAST(4, 4) } },
	{ "pio4-atapi", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = NO_DMA, .iordy = true,
	  .want = { .flags = T | IE, FAST(3, 1) } },
	/* multiword DMA shares the bank when PIO may run at its timing */
	{ "pio4-mwdma0", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_MW_DMA_0, DISK, .want = { .flags = IE | PPE } },
	{ "pio4-mwdma1", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_MW_DMA_1, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 2) } },
	{ "pio4-mwdma2", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_MW_DMA_2, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1) } },
	{ "pio4-mwdma2-word65-150ns", &piix3, .dma_min = 150, .pio = 120,
	  .pio_iordy = 120, .pio_mode = XFER_PIO_4, .dma_mode = XFER_MW_DMA_2,
	  DISK, .want = { .flags = T | IE | PPE, FAST(3, 2) } },
	/* ... and DTE keeps PIO on compatible timing when it may not */
	{ "pio0-mwdma2", &piix4, ID120, .pio_mode = XFER_PIO_0,
	  .dma_mode = XFER_MW_DMA_2, DISK,
	  .want = { .flags = T | IE | PPE | DTE, FAST(3, 1) } },
	{ "pio3-mwdma2", &piix4, ID120, .pio_mode = XFER_PIO_3,
	  .dma_mode = XFER_MW_DMA_2, DISK,
	  .want = { .flags = T | IE | PPE | DTE, FAST(3, 1) } },
	{ "pio3-mwdma1", &piix4, ID120, .pio_mode = XFER_PIO_3,
	  .dma_mode = XFER_MW_DMA_1, DISK,
	  .want = { .flags = T | IE | PPE | DTE, FAST(3, 2) } },
	{ "pio2-mwdma1", &piix4, ID120, .pio_mode = XFER_PIO_2,
	  .dma_mode = XFER_MW_DMA_1, DISK,
	  .want = { .flags = T | IE | PPE | DTE, FAST(3, 2) } },
	{ "pio0-mwdma0", &piix4, ID120, .pio_mode = XFER_PIO_0,
	  .dma_mode = XFER_MW_DMA_0, DISK, .want = { .flags = IE | PPE } },
	/* Ultra DMA: CT at 33 MHz (4, 3, 2 clocks), 66 MHz (3, 2), 133 (3) */
	{ "udma0-piix4", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_0, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1), .udma = true,
		    .udma_ct = 0, .udma_clock = ATALAB_PIIX_CLK_33 } },
	{ "udma1-piix4", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_1, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1), .udma = true,
		    .udma_ct = 1, .udma_clock = ATALAB_PIIX_CLK_33 } },
	{ "udma2-piix4", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_2, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1), .udma = true,
		    .udma_ct = 2, .udma_clock = ATALAB_PIIX_CLK_33 } },
	{ "udma3-piix4", &piix4, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_3, DISK, .rc = -EINVAL },
	{ "udma0-piix3", &piix3, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_0, DISK, .rc = -EINVAL },
	{ "udma0-ich5", &ich5, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_0, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1), .udma = true,
		    .udma_ct = 0, .udma_clock = ATALAB_PIIX_CLK_33 } },
	{ "udma2-ich5", &ich5, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_2, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1), .udma = true,
		    .udma_ct = 2, .udma_clock = ATALAB_PIIX_CLK_33 } },
	{ "udma3-ich5", &ich5, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_3, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1), .udma = true,
		    .udma_ct = 1, .udma_clock = ATALAB_PIIX_CLK_66 } },
	{ "udma4-ich5", &ich5, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_4, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1), .udma = true,
		    .udma_ct = 2, .udma_clock = ATALAB_PIIX_CLK_66 } },
	{ "udma5-ich5", &ich5, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_5, DISK,
	  .want = { .flags = T | IE | PPE, FAST(3, 1), .udma = true,
		    .udma_ct = 1, .udma_clock = ATALAB_PIIX_CLK_133 } },
	{ "udma5-ich5-pio0", &ich5, ID120, .pio_mode = XFER_PIO_0,
	  .dma_mode = XFER_UDMA_5, DISK,
	  .want = { .flags = IE | PPE, .udma = true, .udma_ct = 1,
		    .udma_clock = ATALAB_PIIX_CLK_133 } },
	{ "udma6-ich5", &ich5, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_6, DISK, .rc = -EINVAL },
	/* modes no PIIX/ICH has */
	{ "pio5", &ich5, ID120, .pio_mode = XFER_PIO_5, .dma_mode = NO_DMA,
	  DISK, .rc = -EINVAL },
	{ "swdma2", &ich5, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_SW_DMA_2, DISK, .rc = -EINVAL },
	{ "udma7", &ich5, ID120, .pio_mode = XFER_PIO_4,
	  .dma_mode = XFER_UDMA_7, DISK, .rc = -EINVAL },
};

static void timing_case_desc(const struct timing_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(timing, timing_cases, timing_case_desc);

static void timing_fields_test(struct kunit *test)
{
	const struct timing_case *c = test->param_value;
	struct atalab_piix_timing t;
	u16 *id;
	int rc;

	id = kunit_kzalloc(test, ATA_ID_WORDS * sizeof(*id), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, id);
	make_id(id, c->dma_min, c->pio, c->pio_iordy);
	if (c->eide_invalid)
		id[ATA_ID_FIELD_VALID] &= ~0x0002;
	rc = atalab_piix_compute_timing(c->chip, id, c->pio_mode, c->dma_mode,
					c->iordy, c->ata_disk, &t);
	KUNIT_ASSERT_EQ(test, rc, c->rc);
	if (rc)
		return;
	KUNIT_EXPECT_EQ(test, t.flags, c->want.flags);
	KUNIT_EXPECT_EQ(test, t.isp, c->want.isp);
	KUNIT_EXPECT_EQ(test, t.rtc, c->want.rtc);
	KUNIT_EXPECT_EQ(test, t.udma, c->want.udma);
	KUNIT_EXPECT_EQ(test, t.udma_ct, c->want.udma_ct);
	KUNIT_EXPECT_EQ(test, t.udma_clock, c->want.udma_clock);
}

/* Base clock periods (ps) and CT clock counts of the datasheets */
static const unsigned int clock_ps[] = { 30000, 15000, 7500 };

static unsigned int ct_clocks(u8 clock, u8 ct)
{
	static const u8 clocks[ATALAB_PIIX_CLKS][4] = {
		{ 4, 3, 2, 0 }, { 0, 3, 2, 0 }, { 0, 3, 0, 0 },
	};

	return clocks[clock][ct & 3];
}

/*
 * What the controller does with a setting: PIO and DMA cycle (ns) and the
 * Ultra DMA cycle (ps); 600 ns stands for compatible timing.
 */
static void decode(const struct atalab_piix_timing *t, unsigned int *pio,
		   unsigned int *dma, unsigned int *udma)
{
	unsigned int fast = ((5 - t->isp) + (4 - t->rtc)) * 30;

	*pio = (t->flags & T) && !(t->flags & DTE) ? fast : 600;
	*dma = (t->flags & T) ? fast : 600;
	*udma = t->udma ? ct_clocks(t->udma_clock, t->udma_ct) *
			  clock_ps[t->udma_clock] : 0;
}

struct chip_case {
	const char *name;
	const struct atalab_piix_chip *chip;
	u8 udma_max;	/* 0xff: none */
};

static const struct chip_case chip_cases[] = {
	{ "piix3", &piix3, 0xff },
	{ "piix4", &piix4, XFER_UDMA_2 },
	{ "ich5", &ich5, XFER_UDMA_5 },
};

static void chip_case_desc(const struct chip_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(chip, chip_cases, chip_case_desc);

/* The DMA modes a chip has: none, MWDMA 0-2, its Ultra DMA modes. */
static unsigned int chip_dma_modes(const struct chip_case *c, u8 *modes)
{
	unsigned int n = 0;
	u8 m;

	modes[n++] = NO_DMA;
	for (m = XFER_MW_DMA_0; m <= XFER_MW_DMA_2; m++)
		modes[n++] = m;
	if (c->udma_max != 0xff)
		for (m = XFER_UDMA_0; m <= c->udma_max; m++)
			modes[n++] = m;
	return n;
}

/*
 * Every PIO mode with every DMA mode of the chip, for drives reporting
 * 120 to 600 ns cycles: the computation succeeds and no cycle is shorter
 * than the mode or the drive allows.
 */
static void never_too_fast_test(struct kunit *test)
{
	const struct chip_case *c = test->param_value;
	static const u16 cycles[] = { 120, 180, 240, 383, 600 };
	u8 modes[12], pio_mode;
	unsigned int n = chip_dma_modes(c, modes), i, k;
	u16 *id;

	id = kunit_kzalloc(test, ATA_ID_WORDS * sizeof(*id), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, id);
	for (k = 0; k < ARRAY_SIZE(cycles); k++) {
		make_id(id, cycles[k], cycles[k], cycles[k]);
		for (pio_mode = XFER_PIO_0; pio_mode <= XFER_PIO_4; pio_mode++) {
			for (i = 0; i < n; i++) {
				const struct ata_timing *pt, *dt;
				struct atalab_piix_timing t;
				unsigned int pio, dma, udma;
				int rc;

				rc = atalab_piix_compute_timing(c->chip, id,
								pio_mode,
								modes[i], true,
								true, &t);
				KUNIT_ASSERT_EQ_MSG(test, rc, 0,
						    "pio %#x dma %#x", pio_mode,
						    modes[i]);
				decode(&t, &pio, &dma, &udma);
				pt = ata_timing_find_mode(pio_mode);
				KUNIT_EXPECT_GE_MSG(test, pio,
						    max(pt->cycle, cycles[k]),
						    "pio %#x dma %#x cycle %u",
						    pio_mode, modes[i],
						    cycles[k]);
				if (modes[i] == NO_DMA)
					continue;
				dt = ata_timing_find_mode(modes[i]);
				if (modes[i] >= XFER_UDMA_0) {
					KUNIT_EXPECT_GE(test, udma,
							dt->udma * 1000U);
					continue;
				}
				KUNIT_EXPECT_FALSE(test, t.udma);
				KUNIT_EXPECT_GE_MSG(test, dma,
						    max(dt->cycle, cycles[k]),
						    "pio %#x dma %#x cycle %u",
						    pio_mode, modes[i],
						    cycles[k]);
			}
		}
	}
}

/* The bits of each register that belong to drive (port, devno). */
static void drive_bits(const struct atalab_piix_chip *chip,
		       unsigned int port, unsigned int devno,
		       struct atalab_piix_regs *m)
{
	unsigned int drive = 2 * port + devno;

	memset(m, 0, sizeof(*m));
	m->idetim[port] = ATALAB_PIIX_IDETIM_DRIVE(devno) |
			  ATALAB_PIIX_IDETIM_SITRE;
	if (devno == 0)
		m->idetim[port] |= ATALAB_PIIX_IDETIM_ISP |
				   ATALAB_PIIX_IDETIM_RTC;
	else
		m->sidetim = ATALAB_PIIX_SIDETIM_PORT(port);
	m->udmactl = ATALAB_PIIX_UDMACTL_EN(drive);
	m->udmatim = ATALAB_PIIX_UDMATIM_CT(drive);
	m->ide_config = ATALAB_PIIX_CB66(drive) | ATALAB_PIIX_FAST_CB(drive);
}

/* a == b in every bit outside the mask m */
static bool regs_equal_outside(const struct atalab_piix_regs *a,
			       const struct atalab_piix_regs *b,
			       const struct atalab_piix_regs *m)
{
	return !((a->idetim[0] ^ b->idetim[0]) & ~m->idetim[0]) &&
	       !((a->idetim[1] ^ b->idetim[1]) & ~m->idetim[1]) &&
	       !((a->sidetim ^ b->sidetim) & ~m->sidetim) &&
	       !((a->udmactl ^ b->udmactl) & ~m->udmactl) &&
	       !((a->udmatim ^ b->udmatim) & ~m->udmatim) &&
	       !((a->ide_config ^ b->ide_config) & ~m->ide_config);
}

#define REGS_LEN	40

static void regs_str(const struct atalab_piix_regs *r, char *buf)
{
	snprintf(buf, REGS_LEN, "%04x %04x %02x %02x %04x %08x",
		 r->idetim[0], r->idetim[1], r->sidetim, r->udmactl,
		 r->udmatim, r->ide_config);
}

/* Stop the test unless a == b outside m; the message says what it was. */
static void assert_regs(struct kunit *test, const struct atalab_piix_regs *a,
			const struct atalab_piix_regs *b,
			const struct atalab_piix_regs *m, const char *what,
			unsigned int pos, unsigned int x, unsigned int y)
{
	char sa[REGS_LEN], sb[REGS_LEN];

	if (regs_equal_outside(a, b, m))
		return;
	regs_str(a, sa);
	regs_str(b, sb);
	KUNIT_ASSERT_FAILURE(test, "%s (drive %u, settings %u, %u): %s, want %s",
			     what, pos, x, y, sa, sb);
}

/* Deterministic register contents for the other drives' bits */
static void fill_regs(struct atalab_piix_regs *r, u32 *seed)
{
	u32 v[4];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		*seed = *seed * 1664525 + 1013904223;
		v[i] = *seed;
	}
	r->idetim[0] = v[0];
	r->idetim[1] = v[0] >> 16;
	r->sidetim = v[1];
	r->udmactl = (v[1] >> 8) & 0x0f;
	r->udmatim = (v[1] >> 16) & 0x3333;
	r->ide_config = v[2] & 0x000ff4ff;
}

/*
 * For every drive position, any two settings A and B of the chip's modes
 * and several register backgrounds: programming a drive changes only its
 * own bits (and SITRE), programming is idempotent, and B programmed over A
 * gives exactly the registers B programmed over the background: nothing of
 * A is left behind.
 */
static void transitions_test(struct kunit *test)
{
	const struct chip_case *c = test->param_value;
	struct atalab_piix_timing *set;
	u8 modes[12], pio_mode;
	unsigned int n_dma = chip_dma_modes(c, modes), n = 0, a, b, pos, i;
	u32 seed = 1;
	u16 *id;

	id = kunit_kzalloc(test, ATA_ID_WORDS * sizeof(*id), GFP_KERNEL);
	set = kunit_kcalloc(test, 5 * n_dma, sizeof(*set), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, id);
	KUNIT_ASSERT_NOT_NULL(test, set);
	make_id(id, 120, 120, 120);
	for (pio_mode = XFER_PIO_0; pio_mode <= XFER_PIO_4; pio_mode++)
		for (i = 0; i < n_dma; i++)
			KUNIT_ASSERT_EQ(test, 0,
					atalab_piix_compute_timing(c->chip, id,
								   pio_mode,
								   modes[i],
								   true, true,
								   &set[n++]));

	for (i = 0; i < 4; i++) {
		static const struct atalab_piix_regs none;
		struct atalab_piix_regs bg, ra, rb, rab, raa, mask;

		fill_regs(&bg, &seed);
		for (pos = 0; pos < 4; pos++) {
			drive_bits(c->chip, pos / 2, pos % 2, &mask);
			for (a = 0; a < n; a++) {
				ra = bg;
				atalab_piix_apply_timing(&ra, pos / 2, pos % 2,
							 &set[a]);
				assert_regs(test, &ra, &bg, &mask,
					    "other drives' bits", pos, a, a);
				raa = ra;
				atalab_piix_apply_timing(&raa, pos / 2, pos % 2,
							 &set[a]);
				assert_regs(test, &raa, &ra, &none, "idempotent",
					    pos, a, a);
				for (b = 0; b < n; b++) {
					rb = bg;
					atalab_piix_apply_timing(&rb, pos / 2,
								 pos % 2,
								 &set[b]);
					rab = ra;
					atalab_piix_apply_timing(&rab, pos / 2,
								 pos % 2,
								 &set[b]);
					assert_regs(test, &rab, &rb, &none,
						    "transition", pos, a, b);
				}
			}
		}
	}
}

/* The register values of known settings, from the datasheet bit layout */
static void apply_layout_test(struct kunit *test)
{
	const struct atalab_piix_timing udma5 = {
		.flags = T | IE | PPE, FAST(3, 1), .udma = true, .udma_ct = 1,
		.udma_clock = ATALAB_PIIX_CLK_133,
	};
	const struct atalab_piix_timing udma4 = {
		.flags = T | IE | PPE, FAST(3, 3), .udma = true, .udma_ct = 2,
		.udma_clock = ATALAB_PIIX_CLK_66,
	};
	const struct atalab_piix_timing pio0 = { .flags = IE | PPE };
	struct atalab_piix_regs r = {
		.idetim = { 0x8000, 0x8000 }, .ide_config = 0x000000f0,
	};

	/* primary master UDMA 5: ISP 10b, RTC 11b, PSDE0, PCT0 01b, FAST */
	atalab_piix_apply_timing(&r, 0, 0, &udma5);
	KUNIT_EXPECT_EQ(test, r.idetim[0], 0xe307);
	KUNIT_EXPECT_EQ(test, r.udmactl, 0x01);
	KUNIT_EXPECT_EQ(test, r.udmatim, 0x0001);
	KUNIT_EXPECT_EQ(test, r.ide_config, 0x000010f0);
	/* secondary slave UDMA 4: SIDETIM 7:4, SSDE1, SCT1 10b, SCB1 */
	atalab_piix_apply_timing(&r, 1, 1, &udma4);
	KUNIT_EXPECT_EQ(test, r.idetim[1], 0xc070);
	KUNIT_EXPECT_EQ(test, r.sidetim, 0x90);
	KUNIT_EXPECT_EQ(test, r.udmactl, 0x09);
	KUNIT_EXPECT_EQ(test, r.udmatim, 0x2001);
	KUNIT_EXPECT_EQ(test, r.ide_config, 0x000010f8);
	/* back to PIO 0: only that drive's bits clear */
	atalab_piix_apply_timing(&r, 1, 1, &pio0);
	KUNIT_EXPECT_EQ(test, r.idetim[1], 0xc060);
	KUNIT_EXPECT_EQ(test, r.sidetim, 0x00);
	KUNIT_EXPECT_EQ(test, r.udmactl, 0x01);
	KUNIT_EXPECT_EQ(test, r.udmatim, 0x0001);
	KUNIT_EXPECT_EQ(test, r.ide_config, 0x000010f0);
}

static void sata_map_test(struct kunit *test)
{
	int port[2] = { -1, -1 };
	unsigned int map;

	KUNIT_EXPECT_EQ(test, atalab_piix_sata_map(0x00, port), 0);
	KUNIT_EXPECT_EQ(test, port[0], 0);
	KUNIT_EXPECT_EQ(test, port[1], 1);
	KUNIT_EXPECT_EQ(test, atalab_piix_sata_map(0x01, port), 0);
	KUNIT_EXPECT_EQ(test, port[0], 1);
	KUNIT_EXPECT_EQ(test, port[1], 0);
	/* bits above 2:0 are not the map value */
	KUNIT_EXPECT_EQ(test, atalab_piix_sata_map(0xf8, port), 0);
	KUNIT_EXPECT_EQ(test, port[0], 0);
	KUNIT_EXPECT_EQ(test, port[1], 1);
	KUNIT_EXPECT_EQ(test, atalab_piix_sata_map(0x02, port), -EINVAL);
	KUNIT_EXPECT_EQ(test, atalab_piix_sata_map(0x03, port), -EINVAL);
	for (map = 4; map < 8; map++)
		KUNIT_EXPECT_EQ(test, atalab_piix_sata_map(map, port),
				-EOPNOTSUPP);
}

static struct kunit_case atalab_piix_timing_cases[] = {
	KUNIT_CASE_PARAM(timing_fields_test, timing_gen_params),
	KUNIT_CASE_PARAM(never_too_fast_test, chip_gen_params),
	KUNIT_CASE_PARAM(transitions_test, chip_gen_params),
	KUNIT_CASE(apply_layout_test),
	KUNIT_CASE(sata_map_test),
	{ }
};

static struct kunit_suite atalab_piix_timing_suite = {
	.name = "atalab_piix_timing",
	.test_cases = atalab_piix_timing_cases,
};

kunit_test_suite(atalab_piix_timing_suite);

MODULE_DESCRIPTION("KUnit tests of the atalab_piix timing computation");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
