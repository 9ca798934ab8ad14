// SPDX-License-Identifier: GPL-2.0-only
/*
 * atalab_piix - libata driver for the IDE functions of the Intel PIIX3,
 * PIIX4 and ICH5 (PATA, and SATA in IDE mode)
 *
 * The timing registers are computed for each drive from the ATA timing of
 * its transfer mode and the cycle times the drive reports (IDENTIFY words
 * 65-68), quantized to the controller clocks: see
 * atalab_piix_compute_timing().  Every drive has its own timing (SITRE and
 * SIDETIM for slaves); a register shared by several drives is changed only
 * in the bits of the drive being programmed.
 *
 * Hardware documentation: Intel 82371SB PIIX3 datasheet (290550), Intel
 * 82371AB PIIX4 datasheet (290562), Intel 82801EB ICH5 datasheet (252516).
 * ATA timing: ATA/ATAPI-7 volume 2 (T13 1532D), PIO, multiword DMA and
 * Ultra DMA timing tables, as libata's ata_timing table holds them.
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/libata.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <kunit/visibility.h>
#include <scsi/scsi_host.h>

#include "atalab_piix.h"

#define DRV_NAME	"atalab_piix"

/* PCI clock period of the PIO/multiword DMA timing counters, ps */
#define ATALAB_PIIX_PCI_CLOCK_PS	30000

/* ISP 00b-11b: 5-2 clocks; RTC 00b-11b: 4-1 clocks */
#define ATALAB_PIIX_ISP_MIN	2
#define ATALAB_PIIX_ISP_MAX	5
#define ATALAB_PIIX_RTC_MIN	1
#define ATALAB_PIIX_RTC_MAX	4

/* Shortest PIO cycle without IORDY flow control (PIO mode 2), ns */
#define ATALAB_PIIX_NO_IORDY_CYCLE	240

/* IDENTIFY word 53 bit 1: words 64-70 are valid */
#define ATALAB_PIIX_ID_EIDE_VALID	BIT(1)

/* Time after enabling SATA ports for the links to come up, ms */
#define ATALAB_PIIX_PORT_ENABLE_MS	150

enum atalab_piix_type {
	ATALAB_PIIX3,
	ATALAB_PIIX4,
	ATALAB_ICH5_PATA,
	ATALAB_ICH5_SATA,
};

struct atalab_piix_host {
	const struct atalab_piix_chip *chip;
	spinlock_t lock;	/* config registers shared by both ports */
	int sata_port[2];	/* ICH5 SATA: port behind each channel */
};

/* Ultra DMA base clock periods (ps) */
static const unsigned int atalab_piix_clock_ps[ATALAB_PIIX_CLKS] = {
	[ATALAB_PIIX_CLK_33] = 30000,
	[ATALAB_PIIX_CLK_66] = 15000,
	[ATALAB_PIIX_CLK_133] = 7500,
};

/*
 * UDMATIM CT encodings: the cycle time, in clocks of the base clock, that
 * each field value selects (PIIX4 UDMATIM; ICH5 SDMA_TIM).  Other field
 * values are reserved for that clock.
 */
static const struct {
	u8 clock;
	u8 field;
	u8 clocks;
} atalab_piix_udma_ct[] = {
	{ ATALAB_PIIX_CLK_33, 0, 4 },
	{ ATALAB_PIIX_CLK_33, 1, 3 },
	{ ATALAB_PIIX_CLK_33, 2, 2 },
	{ ATALAB_PIIX_CLK_66, 1, 3 },
	{ ATALAB_PIIX_CLK_66, 2, 2 },
	{ ATALAB_PIIX_CLK_133, 1, 3 },
};

/*
 * The active, recovery and cycle times of @mode for the drive, in PCI
 * clocks: the mode's ATA timing, with the cycle lengthened to what the
 * drive reports in IDENTIFY (word 67 for PIO 0-2, 68 for PIO 3-4, 65 for
 * multiword DMA), rounded up to whole clocks.
 */
static int atalab_piix_mode_clocks(const u16 *id, u8 mode,
				   struct ata_timing *q)
{
	const struct ata_timing *s = ata_timing_find_mode(mode);
	struct ata_timing drive = { };

	if (!s)
		return -EINVAL;
	*q = *s;
	if (id[ATA_ID_FIELD_VALID] & ATALAB_PIIX_ID_EIDE_VALID) {
		if (mode <= XFER_PIO_2)
			drive.cycle = id[ATA_ID_EIDE_PIO];
		else if (mode <= XFER_PIO_4)
			drive.cycle = id[ATA_ID_EIDE_PIO_IORDY];
		else if (mode >= XFER_MW_DMA_0 && mode <= XFER_MW_DMA_2)
			drive.cycle = id[ATA_ID_EIDE_DMA_MIN];
		ata_timing_merge(&drive, q, q, ATA_TIMING_CYCLE);
	}
	q->active = DIV_ROUND_UP(q->active * 1000, ATALAB_PIIX_PCI_CLOCK_PS);
	q->recover = DIV_ROUND_UP(q->recover * 1000, ATALAB_PIIX_PCI_CLOCK_PS);
	q->cycle = DIV_ROUND_UP(q->cycle * 1000, ATALAB_PIIX_PCI_CLOCK_PS);
	return 0;
}

/*
 * Fit a timing (in clocks) into the fast timing bank: ISP must cover the
 * active time, RTC the recovery time and ISP + RTC the cycle.  A cycle
 * longer than both need is shared out as libata does (half of the rest to
 * the active time), within the ranges of the fields.  Returns false when
 * the bank cannot hold the timing; then only compatible timing (TIME
 * clear) is slow enough.
 */
static bool atalab_piix_fit_bank(const struct ata_timing *q,
				 unsigned int *isp, unsigned int *rtc)
{
	unsigned int rest;

	if (q->active > ATALAB_PIIX_ISP_MAX ||
	    q->recover > ATALAB_PIIX_RTC_MAX ||
	    q->cycle > ATALAB_PIIX_ISP_MAX + ATALAB_PIIX_RTC_MAX)
		return false;
	*isp = max_t(unsigned int, q->active, ATALAB_PIIX_ISP_MIN);
	*rtc = max_t(unsigned int, q->recover, ATALAB_PIIX_RTC_MIN);
	if (*isp + *rtc < q->cycle) {
		rest = q->cycle - *isp - *rtc;
		*isp += rest / 2;
		*rtc += rest - rest / 2;
	}
	if (*rtc > ATALAB_PIIX_RTC_MAX) {
		*isp += *rtc - ATALAB_PIIX_RTC_MAX;
		*rtc = ATALAB_PIIX_RTC_MAX;
	}
	if (*isp > ATALAB_PIIX_ISP_MAX) {
		*rtc += *isp - ATALAB_PIIX_ISP_MAX;
		*isp = ATALAB_PIIX_ISP_MAX;
	}
	return true;
}

/* Does a bank of @isp + @rtc clocks satisfy the timing @q? */
static bool atalab_piix_bank_covers(unsigned int isp, unsigned int rtc,
				    const struct ata_timing *q)
{
	return isp >= q->active && rtc >= q->recover && isp + rtc >= q->cycle;
}

/*
 * The Ultra DMA encoding for @mode: of the CT values the controller's base
 * clocks offer, the one with the shortest cycle that is not shorter than
 * the mode's (t2CYCTYP / 2).  The cycle must also be shorter than the next
 * slower mode's, or the controller would run that mode instead.
 */
static int atalab_piix_udma_timing(const struct atalab_piix_chip *chip,
				   u8 mode, struct atalab_piix_timing *t)
{
	const struct ata_timing *s = ata_timing_find_mode(mode);
	unsigned int slower = UINT_MAX, best = UINT_MAX, cycle, i;

	if (!s)
		return -EINVAL;
	if (mode > XFER_UDMA_0)
		slower = ata_timing_find_mode(mode - 1)->udma * 1000;
	for (i = 0; i < ARRAY_SIZE(atalab_piix_udma_ct); i++) {
		u8 clock = atalab_piix_udma_ct[i].clock;

		if (!(chip->udma_clocks & BIT(clock)))
			continue;
		cycle = atalab_piix_udma_ct[i].clocks *
			atalab_piix_clock_ps[clock];
		if (cycle < s->udma * 1000 || cycle >= slower || cycle >= best)
			continue;
		best = cycle;
		t->udma = true;
		t->udma_ct = atalab_piix_udma_ct[i].field;
		t->udma_clock = clock;
	}
	return best == UINT_MAX ? -EINVAL : 0;
}

/**
 * atalab_piix_compute_timing - timing register fields for one drive
 * @chip: the controller
 * @id: the drive's IDENTIFY data
 * @pio_mode: the drive's PIO mode (XFER_PIO_0 to XFER_PIO_4)
 * @dma_mode: its DMA mode (XFER_MW_DMA_n, XFER_UDMA_n), 0xff for none
 * @iordy: IORDY flow control is used (ata_pio_need_iordy())
 * @ata_disk: the drive is an ATA (not ATAPI) device
 * @t: the result
 *
 * PIO and multiword DMA share the drive's fast timing bank (ISP, RTC at
 * 33 MHz).  The bank gets the multiword DMA timing when there is one; if
 * PIO would then run faster than its mode allows, DTE restricts the bank
 * to DMA and PIO uses compatible timing.  A timing slower than the bank can
 * hold leaves TIME clear (compatible timing).  Without IORDY no PIO cycle
 * is shorter than 240 ns.  Ultra DMA gets the CT value and base clock of
 * atalab_piix_udma_timing().  Prefetch and posting are for ATA disks only.
 * Fields of features not in use are zero, so that the result depends on
 * the arguments alone.
 *
 * Context: any.
 * Return: 0, or -EINVAL for a mode the controller cannot time.
 */
VISIBLE_IF_KUNIT int
atalab_piix_compute_timing(const struct atalab_piix_chip *chip, const u16 *id,
			   u8 pio_mode, u8 dma_mode, bool iordy, bool ata_disk,
			   struct atalab_piix_timing *t)
{
	struct ata_timing pio, dma;
	unsigned int isp = 0, rtc = 0;
	bool fast;
	int rc;

	memset(t, 0, sizeof(*t));
	if (pio_mode < XFER_PIO_0 || pio_mode > XFER_PIO_4)
		return -EINVAL;
	rc = atalab_piix_mode_clocks(id, pio_mode, &pio);
	if (rc)
		return rc;
	/* Cycles under 240 ns (PIO modes 3 and 4) need IORDY. */
	if (!iordy)
		pio.cycle = max_t(unsigned int, pio.cycle,
				  DIV_ROUND_UP(ATALAB_PIIX_NO_IORDY_CYCLE * 1000,
					       ATALAB_PIIX_PCI_CLOCK_PS));
	fast = atalab_piix_fit_bank(&pio, &isp, &rtc);

	if (dma_mode >= XFER_MW_DMA_0 && dma_mode <= XFER_MW_DMA_2) {
		unsigned int dma_isp, dma_rtc;

		rc = atalab_piix_mode_clocks(id, dma_mode, &dma);
		if (rc)
			return rc;
		fast = atalab_piix_fit_bank(&dma, &dma_isp, &dma_rtc);
		if (fast && !atalab_piix_bank_covers(dma_isp, dma_rtc, &pio))
			t->flags |= ATALAB_PIIX_DTE;
		isp = dma_isp;
		rtc = dma_rtc;
	} else if (dma_mode >= XFER_UDMA_0 && dma_mode <= XFER_UDMA_6) {
		rc = atalab_piix_udma_timing(chip, dma_mode, t);
		if (rc)
			return rc;
	} else if (dma_mode != 0xff) {
		return -EINVAL;
	}

	if (fast) {
		t->flags |= ATALAB_PIIX_TIME;
		t->isp = ATALAB_PIIX_ISP_MAX - isp;
		t->rtc = ATALAB_PIIX_RTC_MAX - rtc;
	}
	if (iordy)
		t->flags |= ATALAB_PIIX_IE;
	if (ata_disk)
		t->flags |= ATALAB_PIIX_PPE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(atalab_piix_compute_timing);

/**
 * atalab_piix_apply_timing - put one drive's setting into a register image
 * @regs: the controller's timing registers
 * @port: channel, 0 primary, 1 secondary
 * @devno: 0 master, 1 slave
 * @t: the drive's setting
 *
 * Changes only the bits of that drive, and sets SITRE so that the slave
 * has its own timing in SIDETIM.  The IDE decode enable, the other drives'
 * bits, reserved bits and the BIOS cable reports are kept.
 *
 * Context: any.
 */
VISIBLE_IF_KUNIT void
atalab_piix_apply_timing(struct atalab_piix_regs *regs, unsigned int port,
			 unsigned int devno, const struct atalab_piix_timing *t)
{
	unsigned int drive = 2 * port + devno;
	u16 idetim = regs->idetim[port];

	idetim &= ~ATALAB_PIIX_IDETIM_DRIVE(devno);
	idetim |= t->flags << (4 * devno);
	idetim |= ATALAB_PIIX_IDETIM_SITRE;
	if (devno == 0) {
		idetim &= ~(ATALAB_PIIX_IDETIM_ISP | ATALAB_PIIX_IDETIM_RTC);
		idetim |= FIELD_PREP(ATALAB_PIIX_IDETIM_ISP, t->isp) |
			  FIELD_PREP(ATALAB_PIIX_IDETIM_RTC, t->rtc);
	} else {
		regs->sidetim &= ~ATALAB_PIIX_SIDETIM_PORT(port);
		regs->sidetim |= (FIELD_PREP(ATALAB_PIIX_SIDETIM_ISP, t->isp) |
				  FIELD_PREP(ATALAB_PIIX_SIDETIM_RTC, t->rtc)) <<
				 (4 * port);
	}
	regs->idetim[port] = idetim;

	regs->udmactl &= ~ATALAB_PIIX_UDMACTL_EN(drive);
	regs->udmatim &= ~ATALAB_PIIX_UDMATIM_CT(drive);
	regs->ide_config &= ~(ATALAB_PIIX_CB66(drive) |
			      ATALAB_PIIX_FAST_CB(drive));
	if (!t->udma)
		return;
	regs->udmactl |= ATALAB_PIIX_UDMACTL_EN(drive);
	regs->udmatim |= t->udma_ct << (4 * drive);
	if (t->udma_clock == ATALAB_PIIX_CLK_66)
		regs->ide_config |= ATALAB_PIIX_CB66(drive);
	else if (t->udma_clock == ATALAB_PIIX_CLK_133)
		regs->ide_config |= ATALAB_PIIX_FAST_CB(drive);
}
EXPORT_SYMBOL_IF_KUNIT(atalab_piix_apply_timing);

/**
 * atalab_piix_sata_map - the SATA port behind each channel (ICH5 MAP)
 * @map: the MAP register
 * @sata_port: the result: the port that is the master of channel 0 and 1
 *
 * Non-combined modes only: 000b puts port 0 on the primary channel and
 * port 1 on the secondary, 001b swaps them; there are no slaves.
 *
 * Context: any.
 * Return: 0; -EOPNOTSUPP for the combined modes (1xxb: a PATA channel
 * behind the SATA function), -EINVAL for the reserved values.
 */
VISIBLE_IF_KUNIT int atalab_piix_sata_map(u8 map, int sata_port[2])
{
	switch (FIELD_GET(ATALAB_PIIX_MAP_MV, map)) {
	case 0:
		sata_port[0] = 0;
		sata_port[1] = 1;
		return 0;
	case 1:
		sata_port[0] = 1;
		sata_port[1] = 0;
		return 0;
	case 2:
	case 3:
		return -EINVAL;
	default:
		return -EOPNOTSUPP;
	}
}
EXPORT_SYMBOL_IF_KUNIT(atalab_piix_sata_map);

static bool atalab_piix_has_udma(const struct atalab_piix_chip *chip)
{
	return chip->udma_clocks != 0;
}

static bool atalab_piix_has_ide_config(const struct atalab_piix_chip *chip)
{
	return chip->udma_clocks & ~BIT(ATALAB_PIIX_CLK_33);
}

static void atalab_piix_read_regs(struct pci_dev *pdev,
				  const struct atalab_piix_chip *chip,
				  struct atalab_piix_regs *regs)
{
	memset(regs, 0, sizeof(*regs));
	pci_read_config_word(pdev, ATALAB_PIIX_IDETIM(0), &regs->idetim[0]);
	pci_read_config_word(pdev, ATALAB_PIIX_IDETIM(1), &regs->idetim[1]);
	pci_read_config_byte(pdev, ATALAB_PIIX_SIDETIM, &regs->sidetim);
	if (atalab_piix_has_udma(chip)) {
		pci_read_config_byte(pdev, ATALAB_PIIX_UDMACTL, &regs->udmactl);
		pci_read_config_word(pdev, ATALAB_PIIX_UDMATIM, &regs->udmatim);
	}
	if (atalab_piix_has_ide_config(chip))
		pci_read_config_dword(pdev, ATALAB_PIIX_IDE_CONFIG,
				      &regs->ide_config);
}

/*
 * Write the registers that differ from @old.  Ultra DMA is switched off
 * before and on after the other registers change, so it never runs on a
 * half-written setting.
 */
static void atalab_piix_write_regs(struct pci_dev *pdev,
				   const struct atalab_piix_chip *chip,
				   const struct atalab_piix_regs *old,
				   const struct atalab_piix_regs *regs)
{
	unsigned int port;
	u8 udma_off = old->udmactl & regs->udmactl;

	if (atalab_piix_has_udma(chip) && udma_off != old->udmactl)
		pci_write_config_byte(pdev, ATALAB_PIIX_UDMACTL, udma_off);
	for (port = 0; port < 2; port++)
		if (regs->idetim[port] != old->idetim[port])
			pci_write_config_word(pdev, ATALAB_PIIX_IDETIM(port),
					      regs->idetim[port]);
	if (regs->sidetim != old->sidetim)
		pci_write_config_byte(pdev, ATALAB_PIIX_SIDETIM, regs->sidetim);
	if (!atalab_piix_has_udma(chip))
		return;
	if (regs->udmatim != old->udmatim)
		pci_write_config_word(pdev, ATALAB_PIIX_UDMATIM, regs->udmatim);
	if (atalab_piix_has_ide_config(chip) &&
	    regs->ide_config != old->ide_config)
		pci_write_config_dword(pdev, ATALAB_PIIX_IDE_CONFIG,
				       regs->ide_config);
	if (regs->udmactl != udma_off)
		pci_write_config_byte(pdev, ATALAB_PIIX_UDMACTL, regs->udmactl);
}

/*
 * Program the controller for the drive's PIO and DMA modes.  libata sets
 * the PIO mode before the DMA mode, and the PIO mode alone (with no DMA
 * mode) before a reset; each call programs everything the drive uses, so
 * that no bit of an earlier mode is left behind.
 */
static void atalab_piix_set_mode(struct ata_port *ap, struct ata_device *adev)
{
	struct pci_dev *pdev = to_pci_dev(ap->host->dev);
	struct atalab_piix_host *hpriv = ap->host->private_data;
	struct atalab_piix_regs old, regs;
	struct atalab_piix_timing t;
	unsigned long flags;

	if (atalab_piix_compute_timing(hpriv->chip, adev->id, adev->pio_mode,
				       adev->dma_mode, ata_pio_need_iordy(adev),
				       adev->class == ATA_DEV_ATA, &t)) {
		/* The port's mode masks keep libata from getting here. */
		ata_dev_warn(adev, "cannot time PIO %s DMA %s, using PIO 0\n",
			     ata_mode_string(ata_xfer_mode2mask(adev->pio_mode)),
			     ata_mode_string(ata_xfer_mode2mask(adev->dma_mode)));
		memset(&t, 0, sizeof(t));
	}

	spin_lock_irqsave(&hpriv->lock, flags);
	atalab_piix_read_regs(pdev, hpriv->chip, &old);
	regs = old;
	atalab_piix_apply_timing(&regs, ap->port_no, adev->devno, &t);
	atalab_piix_write_regs(pdev, hpriv->chip, &old, &regs);
	spin_unlock_irqrestore(&hpriv->lock, flags);
}

static bool atalab_piix_decode_enabled(struct ata_port *ap)
{
	struct pci_dev *pdev = to_pci_dev(ap->host->dev);
	u16 idetim;

	pci_read_config_word(pdev, ATALAB_PIIX_IDETIM(ap->port_no), &idetim);
	return idetim & ATALAB_PIIX_IDETIM_DECODE;
}

/* A channel whose IDE decode is off has no devices to reset. */
static int atalab_piix_pata_prereset(struct ata_link *link,
				     unsigned long deadline)
{
	if (!atalab_piix_decode_enabled(link->ap))
		return -ENOENT;
	return ata_sff_prereset(link, deadline);
}

/*
 * ICH5 SATA: a channel whose port reports no device in PCS is not reset:
 * nothing answers there.
 */
static int atalab_piix_sata_prereset(struct ata_link *link,
				     unsigned long deadline)
{
	struct ata_port *ap = link->ap;
	struct pci_dev *pdev = to_pci_dev(ap->host->dev);
	struct atalab_piix_host *hpriv = ap->host->private_data;
	int sport = hpriv->sata_port[ap->port_no];
	u16 pcs;

	if (!atalab_piix_decode_enabled(ap))
		return -ENOENT;
	pci_read_config_word(pdev, ATALAB_PIIX_PCS, &pcs);
	if (!(pcs & ATALAB_PIIX_PCS_PRESENT(sport))) {
		ata_link_dbg(link, "SATA port %d: no device\n", sport);
		return -ENOENT;
	}
	return ata_sff_prereset(link, deadline);
}

/*
 * ICH5 PATA: BIOS reports an 80-wire cable per drive in IDE_CONFIG.  Where
 * it reports none the cable is 40-wire; where it does, libata confirms it
 * with the drives' IDENTIFY word 93 (ATA_CBL_PATA_UNK: any drive that
 * detected an 80-wire cable makes it one).
 */
static int atalab_piix_ich_cable_detect(struct ata_port *ap)
{
	struct pci_dev *pdev = to_pci_dev(ap->host->dev);
	u32 cfg;

	pci_read_config_dword(pdev, ATALAB_PIIX_IDE_CONFIG, &cfg);
	if (!(cfg & (ATALAB_PIIX_CABLE80(2 * ap->port_no) |
		     ATALAB_PIIX_CABLE80(2 * ap->port_no + 1))))
		return ATA_CBL_PATA40;
	return ATA_CBL_PATA_UNK;
}

/* The bus master status INTR bit latches the channel's interrupt line. */
static bool atalab_piix_irq_check(struct ata_port *ap)
{
	if (!ap->ioaddr.bmdma_addr)
		return false;
	return ap->ops->bmdma_status(ap) & ATA_DMA_INTR;
}

static int atalab_piix_port_start(struct ata_port *ap)
{
	/* The data port takes 32-bit accesses (two 16-bit cycles). */
	ap->pflags |= ATA_PFLAG_PIO32 | ATA_PFLAG_PIO32CHANGE;
	return ata_bmdma_port_start(ap);
}

static struct scsi_host_template atalab_piix_sht = {
	ATA_BMDMA_SHT(DRV_NAME),
};

static struct ata_port_operations atalab_piix_sata_ops = {
	.inherits	= &ata_bmdma32_port_ops,
	.port_start	= atalab_piix_port_start,
	.sff_irq_check	= atalab_piix_irq_check,
	.cable_detect	= ata_cable_sata,
	.prereset	= atalab_piix_sata_prereset,
};

static struct ata_port_operations atalab_piix_pata_ops = {
	.inherits	= &ata_bmdma32_port_ops,
	.port_start	= atalab_piix_port_start,
	.sff_irq_check	= atalab_piix_irq_check,
	.cable_detect	= ata_cable_40wire,
	.set_piomode	= atalab_piix_set_mode,
	.set_dmamode	= atalab_piix_set_mode,
	.prereset	= atalab_piix_pata_prereset,
};

static struct ata_port_operations atalab_piix_ich_pata_ops = {
	.inherits	= &atalab_piix_pata_ops,
	.cable_detect	= atalab_piix_ich_cable_detect,
};

static const struct atalab_piix_chip atalab_piix_chips[] = {
	[ATALAB_PIIX3] = { .udma_clocks = 0 },
	[ATALAB_PIIX4] = { .udma_clocks = BIT(ATALAB_PIIX_CLK_33) },
	[ATALAB_ICH5_PATA] = {
		.udma_clocks = BIT(ATALAB_PIIX_CLK_33) |
			       BIT(ATALAB_PIIX_CLK_66) |
			       BIT(ATALAB_PIIX_CLK_133),
	},
	/* The SATA function's timing registers do not affect SATA. */
	[ATALAB_ICH5_SATA] = { .udma_clocks = 0 },
};

static const struct ata_port_info atalab_piix_port_info[] = {
	[ATALAB_PIIX3] = {
		.flags		= ATA_FLAG_SLAVE_POSS,
		.pio_mask	= ATA_PIO4,
		.mwdma_mask	= ATA_MWDMA2,
		.port_ops	= &atalab_piix_pata_ops,
	},
	[ATALAB_PIIX4] = {
		.flags		= ATA_FLAG_SLAVE_POSS,
		.pio_mask	= ATA_PIO4,
		.mwdma_mask	= ATA_MWDMA2,
		.udma_mask	= ATA_UDMA2,
		.port_ops	= &atalab_piix_pata_ops,
	},
	[ATALAB_ICH5_PATA] = {
		.flags		= ATA_FLAG_SLAVE_POSS,
		.pio_mask	= ATA_PIO4,
		.mwdma_mask	= ATA_MWDMA2,
		.udma_mask	= ATA_UDMA5,
		.port_ops	= &atalab_piix_ich_pata_ops,
	},
	[ATALAB_ICH5_SATA] = {
		.flags		= ATA_FLAG_SATA,
		.pio_mask	= ATA_PIO4,
		.mwdma_mask	= ATA_MWDMA2,
		.udma_mask	= ATA_UDMA6,
		.port_ops	= &atalab_piix_sata_ops,
	},
};

/*
 * ICH5 SATA: find the port behind each channel (MAP) and enable both ports
 * in PCS; a port with a device then comes up and reports it present.
 */
static int atalab_piix_sata_init(struct pci_dev *pdev,
				 struct atalab_piix_host *hpriv)
{
	u16 pcs, enable;
	u8 map;
	int rc;

	pci_read_config_byte(pdev, ATALAB_PIIX_MAP, &map);
	rc = atalab_piix_sata_map(map, hpriv->sata_port);
	if (rc == -EOPNOTSUPP) {
		dev_err(&pdev->dev, "MAP %#x: combined mode is not supported\n",
			map);
		return -ENODEV;
	}
	if (rc) {
		dev_err(&pdev->dev, "MAP %#x: reserved value\n", map);
		return -ENODEV;
	}
	dev_info(&pdev->dev, "MAP %#x: SATA port %d primary, %d secondary\n",
		 map, hpriv->sata_port[0], hpriv->sata_port[1]);

	enable = ATALAB_PIIX_PCS_ENABLE(hpriv->sata_port[0]) |
		 ATALAB_PIIX_PCS_ENABLE(hpriv->sata_port[1]);
	pci_read_config_word(pdev, ATALAB_PIIX_PCS, &pcs);
	if ((pcs & enable) != enable) {
		pci_write_config_word(pdev, ATALAB_PIIX_PCS, pcs | enable);
		msleep(ATALAB_PIIX_PORT_ENABLE_MS);
	}
	return 0;
}

static int atalab_piix_probe(struct pci_dev *pdev,
			     const struct pci_device_id *ent)
{
	const struct ata_port_info *ppi[] = {
		&atalab_piix_port_info[ent->driver_data], NULL
	};
	struct atalab_piix_host *hpriv;
	struct ata_host *host;
	int rc;

	rc = pcim_enable_device(pdev);
	if (rc)
		return rc;

	hpriv = devm_kzalloc(&pdev->dev, sizeof(*hpriv), GFP_KERNEL);
	if (!hpriv)
		return -ENOMEM;
	hpriv->chip = &atalab_piix_chips[ent->driver_data];
	spin_lock_init(&hpriv->lock);

	if (ent->driver_data == ATALAB_ICH5_SATA) {
		rc = atalab_piix_sata_init(pdev, hpriv);
		if (rc)
			return rc;
	}

	rc = ata_pci_bmdma_prepare_host(pdev, ppi, &host);
	if (rc)
		return rc;
	host->private_data = hpriv;
	host->flags |= ATA_HOST_PARALLEL_SCAN;

	/* Some ICH5 BIOSes leave PCI INTx disabled. */
	if (ent->driver_data == ATALAB_ICH5_PATA ||
	    ent->driver_data == ATALAB_ICH5_SATA)
		pci_intx(pdev, 1);

	pci_set_master(pdev);
	return ata_pci_sff_activate_host(host, ata_bmdma_interrupt,
					 &atalab_piix_sht);
}

static const struct pci_device_id atalab_piix_pci_tbl[] = {
	{ PCI_VDEVICE(INTEL, PCI_DEVICE_ID_INTEL_82371SB_1), ATALAB_PIIX3 },
	{ PCI_VDEVICE(INTEL, PCI_DEVICE_ID_INTEL_82371AB), ATALAB_PIIX4 },
	{ PCI_VDEVICE(INTEL, PCI_DEVICE_ID_INTEL_82801EB_11), ATALAB_ICH5_PATA },
	/* The SATA function in IDE mode only */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, PCI_DEVICE_ID_INTEL_82801EB_1),
	  .class = PCI_CLASS_STORAGE_IDE << 8, .class_mask = 0xffff00,
	  .driver_data = ATALAB_ICH5_SATA },
	{ }
};
MODULE_DEVICE_TABLE(pci, atalab_piix_pci_tbl);

static struct pci_driver atalab_piix_pci_driver = {
	.name		= DRV_NAME,
	.id_table	= atalab_piix_pci_tbl,
	.probe		= atalab_piix_probe,
	.remove		= ata_pci_remove_one,
};
module_pci_driver(atalab_piix_pci_driver);

MODULE_AUTHOR("atalab developers");
MODULE_DESCRIPTION("libata driver for Intel PIIX3/PIIX4/ICH5 IDE controllers");
MODULE_LICENSE("GPL");
