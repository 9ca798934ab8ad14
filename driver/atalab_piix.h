/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * atalab_piix - configuration registers of the Intel PIIX3/PIIX4/ICH5 IDE
 * functions and the pure functions that compute their contents, shared by
 * the driver and its KUnit tests.
 *
 * Register layout: Intel 82371AB PIIX4 datasheet (290562), "PCI
 * Configuration Registers--IDE Interface (Function 1)"; Intel 82801EB ICH5
 * datasheet (252516), "IDE Controller Registers (D31:F1)" and "SATA
 * Controller Registers (D31:F2)".
 */
#ifndef ATALAB_PIIX_H
#define ATALAB_PIIX_H

#include <linux/bits.h>
#include <linux/types.h>

/* IDETIM (0x40 primary, 0x42 secondary): IDE timing */
#define ATALAB_PIIX_IDETIM(port)	(0x40 + 2 * (port))
#define ATALAB_PIIX_IDETIM_DECODE	BIT(15)		/* IDE decode enable */
#define ATALAB_PIIX_IDETIM_SITRE	BIT(14)		/* slave timing in SIDETIM */
#define ATALAB_PIIX_IDETIM_ISP		GENMASK(13, 12)	/* master IORDY sample point */
#define ATALAB_PIIX_IDETIM_RTC		GENMASK(9, 8)	/* master recovery time */
/* per drive: bits 3:0 master, 7:4 slave */
#define ATALAB_PIIX_IDETIM_DRIVE(devno)	(GENMASK(3, 0) << (4 * (devno)))
#define ATALAB_PIIX_TIME		BIT(0)		/* fast timing bank */
#define ATALAB_PIIX_IE			BIT(1)		/* IORDY sample enable */
#define ATALAB_PIIX_PPE			BIT(2)		/* prefetch and posting */
#define ATALAB_PIIX_DTE			BIT(3)		/* fast timing for DMA only */

/* SIDETIM (0x44): slave timing, bits 3:0 primary, 7:4 secondary */
#define ATALAB_PIIX_SIDETIM		0x44
#define ATALAB_PIIX_SIDETIM_PORT(port)	(GENMASK(3, 0) << (4 * (port)))
#define ATALAB_PIIX_SIDETIM_ISP		GENMASK(3, 2)
#define ATALAB_PIIX_SIDETIM_RTC		GENMASK(1, 0)

/* Ultra DMA: one bit (UDMACTL) or field (UDMATIM) per drive 0-3 */
#define ATALAB_PIIX_UDMACTL		0x48
#define ATALAB_PIIX_UDMACTL_EN(drive)	BIT(drive)
#define ATALAB_PIIX_UDMATIM		0x4a
#define ATALAB_PIIX_UDMATIM_CT(drive)	(GENMASK(1, 0) << (4 * (drive)))

/* ICH IDE_CONFIG (0x54): Ultra DMA base clocks and BIOS cable reports */
#define ATALAB_PIIX_IDE_CONFIG		0x54
#define ATALAB_PIIX_CB66(drive)		BIT(drive)		/* 66 MHz */
#define ATALAB_PIIX_CABLE80(drive)	BIT(4 + (drive))	/* 80-wire */
#define ATALAB_PIIX_FAST_CB(drive)	BIT(12 + (drive))	/* 133 MHz */

/* ICH5 SATA: port mapping and port control/status */
#define ATALAB_PIIX_MAP			0x90
#define ATALAB_PIIX_MAP_MV		GENMASK(2, 0)
#define ATALAB_PIIX_PCS			0x92
#define ATALAB_PIIX_PCS_ENABLE(sport)	BIT(sport)
#define ATALAB_PIIX_PCS_PRESENT(sport)	BIT(4 + (sport))

/* Ultra DMA base clocks: PCI, IDE_CONFIG xCBx, IDE_CONFIG FAST_xCBx */
enum atalab_piix_clock {
	ATALAB_PIIX_CLK_33,
	ATALAB_PIIX_CLK_66,
	ATALAB_PIIX_CLK_133,
	ATALAB_PIIX_CLKS
};

/* What the timing computation needs to know about a controller. */
struct atalab_piix_chip {
	unsigned int udma_clocks;	/* BIT(clock) per Ultra DMA base clock */
};

/* The setting of one drive position, in register field values. */
struct atalab_piix_timing {
	u8 flags;	/* ATALAB_PIIX_TIME, _IE, _PPE, _DTE */
	u8 isp;		/* ISP field: 5 - clocks */
	u8 rtc;		/* RTC field: 4 - clocks */
	bool udma;	/* Ultra DMA enabled */
	u8 udma_ct;	/* UDMATIM CT field */
	u8 udma_clock;	/* enum atalab_piix_clock */
};

/* The timing registers of one controller. */
struct atalab_piix_regs {
	u16 idetim[2];
	u8 sidetim;
	u8 udmactl;
	u16 udmatim;
	u32 ide_config;
};

#if IS_ENABLED(CONFIG_KUNIT)
int atalab_piix_compute_timing(const struct atalab_piix_chip *chip,
			       const u16 *id, u8 pio_mode, u8 dma_mode,
			       bool iordy, bool ata_disk,
			       struct atalab_piix_timing *t);
void atalab_piix_apply_timing(struct atalab_piix_regs *regs,
			      unsigned int port, unsigned int devno,
			      const struct atalab_piix_timing *t);
int atalab_piix_sata_map(u8 map, int sata_port[2]);
#endif

#endif
