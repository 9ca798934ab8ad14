/*
 * atalab emulator core: offsets and bits of the PIIX/ICH IDE function's
 * device-specific configuration registers and bus-master registers.  The
 * one place these numbers are written down.
 *
 * PIIX4 datasheet (290562): "PCI Configuration Registers -- IDE Interface
 * (Function 1)" (IDETIM, SIDETIM, UDMACTL, UDMATIM) and "Bus Master IDE
 * I/O Registers" (BMICX, BMISX, BMIDTPX).  ICH5 datasheet (252516):
 * D31:F1 IDE_CONFIG, D31:F2 MAP and PCS.  Register names are the PIIX4
 * mnemonics (the ICH5 datasheet says IDE_TIM, SDMA_CNT, SDMA_TIM).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_PCI_IDE_REGS_H
#define ATALAB_PCI_IDE_REGS_H

/* Configuration space offsets. */
#define CFG_PI                  0x09    /* programming interface, 8 bits */
#define CFG_IDETIM0             0x40    /* primary channel timing, 16 bits */
#define CFG_IDETIM1             0x42    /* secondary channel timing */
#define CFG_SIDETIM             0x44    /* slave timing, 8 bits */
#define CFG_UDMACTL             0x48    /* Ultra DMA enables, 8 bits */
#define CFG_UDMATIM             0x4A    /* Ultra DMA cycle times, 16 bits */
#define CFG_IDE_CONFIG          0x54    /* ICH: clocks and cable, 32 bits */
#define CFG_MAP                 0x90    /* ICH SATA: port mapping, 8 bits */
#define CFG_PCS                 0x92    /* ICH SATA: port control, 16 bits */
/* The registers whose writes change a drive's timing: 0x40-0x57. */
#define CFG_TIMING_FIRST        CFG_IDETIM0
#define CFG_TIMING_LAST         (CFG_IDE_CONFIG + 3)

/*
 * PI, the class code's programming interface byte (PCI IDE Controller
 * Specification 1.0, "Programming Interface Byte"): 0 primary channel in
 * native mode, 1 primary can switch, 2 and 3 the same for the secondary,
 * 7 bus master.  ICH5 (252516, PI of D31:F1 and D31:F2) has bits 0 and 2
 * read/write (PNE, SNE) and 1 and 3 set; PIIX3/PIIX4 read 80h only.
 */
#define PI_NATIVE(channel)      (0x01u << (2 * (channel)))
#define PI_NATIVE_CAPABLE(ch)   (0x02u << (2 * (ch)))
#define PI_BUS_MASTER           0x80
#define PI_NATIVE_WMASK         (PI_NATIVE(0) | PI_NATIVE(1))

/*
 * IDETIM: 15 IDE decode enable, 14 SITRE, 13:12 ISP, 11:10 reserved, 9:8
 * RTC, 7:4 drive 1 and 3:0 drive 0 flags (DTE, PPE, IE, TIME).
 */
#define IDETIM_IDE              0x8000
#define IDETIM_SITRE            0x4000
#define IDETIM_ISP_SHIFT        12
#define IDETIM_RTC_SHIFT        8
#define IDETIM_TIME             0x1     /* fast timing bank */
#define IDETIM_IE               0x2     /* IORDY sample point enable */
#define IDETIM_PPE              0x4     /* prefetch and posting enable */
#define IDETIM_DTE              0x8     /* DMA timing enable only */
#define IDETIM_WMASK            0xF3FF
/* SIDETIM: 7:6 SISP1, 5:4 SRTC1, 3:2 PISP1, 1:0 PRTC1. */
#define SIDETIM_WMASK           0xFF
/* UDMACTL: 3 SSDE1, 2 SSDE0, 1 PSDE1, 0 PSDE0 (bit = drive number). */
#define UDMACTL_WMASK           0x0F
/* UDMATIM: 13:12 SCT1, 9:8 SCT0, 5:4 PCT1, 1:0 PCT0 (4 bits per drive). */
#define UDMATIM_WMASK           0x3333
/*
 * IDE_CONFIG: 3:0 PCB0/PCB1/SCB0/SCB1 (66 MHz clock, bit = drive), 7:4
 * PCR0/PCR1/SCR0/SCR1 (80-conductor cable reporting, written by firmware),
 * 10 WR_PingPong_EN, 15:12 FAST_PCB0..FAST_SCB1 (100 MHz clock), 17:16
 * PRIM_SIG_MODE, 19:18 SEC_SIG_MODE; 11, 9:8 and 31:20 reserved.
 */
#define IDE_CONFIG_CB_SHIFT     0
#define IDE_CONFIG_CABLE_SHIFT  4
#define IDE_CONFIG_FAST_SHIFT   12
#define IDE_CONFIG_WMASK        0x000FF4FFu
/* MAP: 2:0 map value (000b: port 0 primary master, port 1 secondary). */
#define MAP_WMASK               0x07
/* PCS: bit n PnE port enable (R/W), bit 4 + n PnP port present (RO). */
#define PCS_ENABLE_MASK         0x03
#define PCS_PRESENT_SHIFT       4
#define PCS_WMASK               0x0003

/* Bus master registers, per channel at 0 (primary) and 8 (secondary). */
#define BM_REG_CMD              0       /* BMICX */
#define BM_REG_STATUS           2       /* BMISX */
#define BM_REG_PRDT             4       /* BMIDTPX, 32 bits */
#define BM_CHANNEL_SIZE         8
/* BMICX */
#define BM_CMD_START            0x01
#define BM_CMD_WRITE            0x08    /* bus master writes to memory */
/* BMISX */
#define BM_STAT_ACTIVE          0x01
#define BM_STAT_ERR             0x02
#define BM_STAT_INTR            0x04
#define BM_STAT_DMA0            0x20    /* drive 0 DMA capable (software) */
#define BM_STAT_DMA1            0x40    /* drive 1 DMA capable (software) */

#endif
