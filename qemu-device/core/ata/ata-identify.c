/*
 * atalab emulator core: IDENTIFY DEVICE and IDENTIFY PACKET DEVICE data.
 *
 * Word layout: ATA/ATAPI-7 volume 1 (T13 1532D), IDENTIFY DEVICE command,
 * table "IDENTIFY DEVICE information", and IDENTIFY PACKET DEVICE command,
 * its table "IDENTIFY PACKET DEVICE information".  Words not set here are
 * 0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "ata-internal.h"

/* Largest CHS geometry of word 1/3/6: 16383 cylinders, 16 heads, 63 spt. */
#define CHS_MAX_CYLS    16383
#define CHS_HEADS       16
#define CHS_SPT         63

void atalab_ata_default_geometry(uint64_t sectors, uint16_t *cyls,
                                 uint16_t *heads, uint16_t *spt)
{
    uint64_t c = sectors / (CHS_HEADS * CHS_SPT);

    *heads = CHS_HEADS;
    *spt = CHS_SPT;
    *cyls = MAX(1, MIN(c, CHS_MAX_CYLS));
}

/*
 * ATA string: two characters per word, the first in bits 15:8, padded
 * with spaces.
 */
static void put_string(uint16_t *words, const char *s, unsigned nwords)
{
    size_t len = strlen(s);
    unsigned i;

    for (i = 0; i < nwords * 2; i++) {
        uint8_t ch = i < len ? (uint8_t)s[i] : ' ';

        if (i % 2 == 0) {
            words[i / 2] = (uint16_t)ch << 8;
        } else {
            words[i / 2] |= ch;
        }
    }
}

/* Bit mask of modes 0..max, e.g. 2 -> 0x07. */
static uint16_t modes_upto(int max)
{
    return max < 0 ? 0 : (1u << (max + 1)) - 1;
}

static uint16_t selected_mode(int mode)
{
    return mode < 0 ? 0 : 1u << (mode + 8);
}

/* Word 93: hardware reset result (ATA-7 vol. 1, IDENTIFY word 93). */
static uint16_t reset_result(const AtalabDrive *d)
{
    const AtalabAtaBus *ch = d->bus;
    uint16_t w = 0x4000;                    /* bit 14 shall be one */

    if (ch->cable80) {
        w |= 0x2000;                        /* CBLID- above V_iH */
    }
    if (d->unit == 0) {
        /* bit 0 one, bits 2:1 01b jumper, bit 3 diagnostics passed */
        w |= 0x000B;
        if (ch->drive[1].present) {
            w |= 0x0030;                    /* PDIAG- and DASP- seen */
        } else {
            w |= 0x0040;                    /* responds for device 1 */
        }
    } else {
        /* bit 8 one, bits 10:9 01b jumper, bit 11 PDIAG- asserted */
        w |= 0x0B00;
    }
    return w;
}

/* Bits of words 82/85 (supported/enabled) */
#define ID82_SMART              (1u << 0)
#define ID82_PM                 (1u << 3)
#define ID82_WCACHE             (1u << 5)
#define ID82_LOOKAHEAD          (1u << 6)
#define ID82_HPA                (1u << 10)
#define ID82_WRITE_BUFFER       (1u << 12)
#define ID82_READ_BUFFER        (1u << 13)
/* Bits of words 83/86 */
#define ID83_LBA48              (1u << 10)
#define ID83_FLUSH              (1u << 12)
#define ID83_FLUSH_EXT          (1u << 13)
/* Bits of words 84/87 */
#define ID84_SMART_ERROR_LOG    (1u << 0)
#define ID84_SMART_SELFTEST     (1u << 1)
#define ID84_GPL                (1u << 5)
#define ID84_FUA                (1u << 6)   /* WRITE DMA/MULTIPLE FUA EXT */
#define ID_VALID                0x4000      /* bit 14 one, bit 15 zero */

static void put_checksum(uint16_t words[256]);

void atalab_ata_identify(const AtalabDrive *d, uint16_t words[256])
{
    uint64_t lba28 = MIN(d->sectors, ATA_LBA28_LIMIT - 1);
    uint32_t cur_cap = (uint32_t)d->cur_cyls * d->cur_heads * d->cur_spt;
    uint16_t features82 = ID82_SMART | ID82_PM | ID82_WCACHE |
                          ID82_LOOKAHEAD | ID82_HPA | ID82_WRITE_BUFFER |
                          ID82_READ_BUFFER;
    uint16_t features83 = ID83_LBA48 | ID83_FLUSH | ID83_FLUSH_EXT;
    uint16_t features84 = ID84_SMART_ERROR_LOG | ID84_SMART_SELFTEST |
                          ID84_GPL | ID84_FUA;
    unsigned i;

    memset(words, 0, 256 * sizeof(words[0]));
    words[0] = 0x0040;                      /* ATA device, fixed */
    words[1] = d->cyls;
    words[3] = d->heads;
    words[6] = d->spt;
    put_string(&words[10], d->serial, 10);
    put_string(&words[23], d->fwrev, 4);
    put_string(&words[27], d->model, 20);
    words[47] = 0x8000 | ATA_MAX_MULT;      /* max sectors per DRQ block */
    /*
     * 11: IORDY supported, 10: IORDY may be disabled, 9: LBA supported,
     * 8: DMA supported
     */
    words[49] = (1 << 11) | ATA_ID49_IORDY_DISABLE | (1 << 9) | (1 << 8);
    words[50] = 0x4000;
    words[51] = 0x0200;                     /* obsolete PIO timing mode 2 */
    /* 0: words 54-58 valid, 1: words 64-70 valid, 2: word 88 valid */
    words[53] = 0x0007;
    words[54] = d->cur_cyls;
    words[55] = d->cur_heads;
    words[56] = d->cur_spt;
    words[57] = cur_cap;
    words[58] = cur_cap >> 16;
    words[59] = d->mult ? 0x0100 | d->mult : 0;
    words[60] = lba28;
    words[61] = lba28 >> 16;
    words[63] = modes_upto(2) | selected_mode(d->mwdma_mode);
    words[64] = 0x0003;                     /* PIO modes 3 and 4 */
    words[65] = 120;                        /* min MWDMA cycle, ns */
    words[66] = 120;                        /* recommended MWDMA cycle */
    words[67] = 120;                        /* min PIO cycle, no IORDY */
    words[68] = 120;                        /* min PIO cycle with IORDY */
    /* 80: major versions ATA/ATAPI-4 to ATA/ATAPI-7 */
    words[80] = 0x00F0;
    /* 82-84: feature sets supported; 85-87: enabled now */
    words[82] = features82;
    words[83] = ID_VALID | features83;
    words[84] = ID_VALID | features84;
    words[85] = features82 & ~(ID82_SMART | ID82_WCACHE | ID82_LOOKAHEAD);
    words[85] |= (d->smart_enabled ? ID82_SMART : 0) |
                 (d->wcache ? ID82_WCACHE : 0) |
                 (d->lookahead ? ID82_LOOKAHEAD : 0);
    words[86] = features83;
    words[87] = ID_VALID | features84;
    words[88] = modes_upto(d->sata ? 6 : 5) | selected_mode(d->udma_mode);
    if (d->sata) {
        /*
         * Serial ATA device: word 76 SATA capabilities (bit 1: 1.5 Gb/s),
         * 78/79 SATA features supported/enabled (none), word 93 zero (no
         * PATA cable), word 222 transport: serial (15:12 = 1), SATA 1.0a
         * (bit 1).  Serial ATA 1.0a / ATA8-ACS IDENTIFY DEVICE.
         */
        words[76] = 1 << 1;
        words[93] = 0;
        words[222] = 0x1000 | (1 << 1);
    } else {
        words[93] = reset_result(d);
    }
    for (i = 0; i < 4; i++) {
        words[100 + i] = d->sectors >> (16 * i);
    }
    put_checksum(words);
}

/* Word 255: signature A5h, then a checksum making all 512 bytes sum to 0 */
static void put_checksum(uint16_t words[256])
{
    uint8_t sum = 0xA5;
    unsigned i;

    for (i = 0; i < 255; i++) {
        sum += words[i] & 0xFF;
        sum += words[i] >> 8;
    }
    words[255] = 0x00A5 | (uint16_t)(uint8_t)(-sum) << 8;
}

/* Word 82/85 bits of a packet device */
#define ID82_PACKET             (1u << 4)
#define ID82_DEVICE_RESET       (1u << 9)

void atalab_ata_identify_packet(const AtalabDrive *d, uint16_t words[256])
{
    uint16_t features82 = ID82_PM | ID82_PACKET | ID82_DEVICE_RESET;

    memset(words, 0, 256 * sizeof(words[0]));
    /*
     * 15:14 10b packet device, 12:8 05h CD-ROM, 7 removable, 6:5 10b
     * DRQ within 50 us of PACKET (no interrupt for the packet), 1:0 00b
     * 12-byte packets
     */
    words[0] = 0x85C0;
    put_string(&words[10], d->serial, 10);
    put_string(&words[23], d->fwrev, 4);
    put_string(&words[27], d->model, 20);
    /* 11: IORDY, 10: IORDY may be disabled, 9: LBA, 8: DMA supported */
    words[49] = (1 << 11) | ATA_ID49_IORDY_DISABLE | (1 << 9) | (1 << 8);
    words[50] = 0x4000;
    /* 1: words 64-70 valid, 2: word 88 valid */
    words[53] = 0x0006;
    words[63] = modes_upto(2) | selected_mode(d->mwdma_mode);
    words[64] = 0x0003;                     /* PIO modes 3 and 4 */
    words[65] = 120;
    words[66] = 120;
    words[67] = 120;
    words[68] = 120;
    words[80] = 0x00F0;                     /* ATA/ATAPI-4 to -7 */
    words[82] = features82;
    words[83] = ID_VALID;
    words[84] = ID_VALID;
    words[85] = features82;
    words[86] = 0;
    words[87] = ID_VALID;
    words[88] = modes_upto(d->sata ? 6 : 5) | selected_mode(d->udma_mode);
    if (d->sata) {
        words[76] = 1 << 1;
        words[222] = 0x1000 | (1 << 1);
    } else {
        words[93] = reset_result(d);
    }
    put_checksum(words);
}

uint16_t atalab_ata_identify_word(const AtalabDrive *d, unsigned word)
{
    uint16_t words[256];

    atalab_ata_identify(d, words);
    return word < 256 ? words[word] : 0;
}
