/*
 * atalab core fuzzer: run one input (the byte code of fuzz-core.c) against
 * a fresh controller, aborting when an invariant breaks.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FUZZ_CORE_H
#define FUZZ_CORE_H

#include <stddef.h>
#include <stdint.h>

/* Guest RAM of the fuzz host; addresses beyond it fail (master abort). */
#define FUZZ_RAM_SIZE   (256 * 1024)

/*
 * An input: byte 0 flags (bits 0 and 3 both set: trace on; bit 1: the host
 * drains abandoned requests; bit 2: zero-copy maps; bits 4-7: drives 0-3
 * absent), byte 1 bits 1:0 the personality (piix4, piix3, ich5,
 * ich5-sata) and bits 5:2 drives 0-3 CD-ROMs, not disks, then operations:
 * an opcode byte (modulo FUZZ_N_OPS) and its operands, little-endian;
 * bytes past the end read as 0.
 */
/* A configuration operand from here up addresses PI (0x09). */
#define FUZZ_CFG_PI     0xC0

enum {
    FUZZ_CFG_WRITE,     /* offset-0x40 (FUZZ_CFG_PI..: PI), value:4,
                           size code (1/2/4/1) */
    FUZZ_CFG_READ,      /* offset-0x40 (or PI), size code */
    FUZZ_ATA_WRITE,     /* a (bit 0 channel, 3:1 reg, 4 32-bit data), value:4 */
    FUZZ_ATA_READ,      /* a as above */
    FUZZ_CTL_WRITE,     /* channel (bit 0), value */
    FUZZ_CTL_READ,      /* channel */
    FUZZ_BM_WRITE,      /* a (offset modulo 18, size code in 7:5), value:4 */
    FUZZ_BM_READ,       /* a as above */
    FUZZ_MEM,           /* address:3, n, n bytes: guest RAM contents */
    FUZZ_PRD,           /* table/8:2, n-1 (modulo 8), channel, n x (addr/2:3,
                           len:2); bit 24 of addr/2 puts it outside RAM */
    FUZZ_COMPLETE,      /* a: pending request a % n, result (a >> 4) % 6 */
    FUZZ_COMPLETE_B,    /* the same (weight) */
    FUZZ_COMPLETE_ALL,  /* every pending request, successfully, in order */
    FUZZ_ADVANCE,       /* milliseconds:2 on the virtual clock */
    FUZZ_RESET,         /* a: hardware reset when a < 16 */
    FUZZ_TASKFILE,      /* sel, lba:3, count, feature, cmd index (>= 0xC0:
                           opcode byte follows): what a driver writes;
                           after PACKET (A0h) 12 packet bytes, the first
                           below E0h an index of a CD-ROM command */
    FUZZ_TASKFILE_B,    /* the same (weight) */
    FUZZ_REENTER,       /* a: the next guest memory access makes access a */
    FUZZ_DATA,          /* a (bit 0 channel, bit 1 write), n-1, data */
    FUZZ_BM_CMD,        /* a: BMICX of channel a & 1 = a & 0x08 | a >> 1 & 1 */
    FUZZ_FAULT,         /* kind, drive, trigger, arg, lba:2: add a rule */
    FUZZ_N_OPS,
};

void fuzz_run(const uint8_t *data, size_t size);

#endif
