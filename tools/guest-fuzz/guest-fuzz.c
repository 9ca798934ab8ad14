/*
 * guest-fuzz: a seeded stream of the calls through which a program reaches
 * libata and sr in the guest: ATA pass-through (ATA_12, ATA_16, ATA_32)
 * and the SCSI commands libata translates, sent by SG_IO to the disk;
 * MMC commands to the CD-ROM; the HDIO, SCSI, SG, block and CD-ROM ioctls;
 * reads of the sysfs attributes libata, SCSI and sr export.
 *
 * Every draw comes from the seed alone, never from what an earlier call
 * returned, so a seed is a reproducible workload (--dry-run prints it
 * without a device).  Each call is a line on stdout, with what it got back.
 *
 * It checks what the kernel owes any caller (the contracts of SG_IO and of
 * the ioctls, not any one bug), and prints a line starting
 * "guest-fuzz: contract:" for each breach (explore's `contract` oracle):
 *  - SG_IO writes nothing past dxfer_len, nothing into a data-out buffer,
 *    nothing past mx_sb_len of the sense buffer; resid is within 0 to
 *    dxfer_len and sb_len_wr at most mx_sb_len (sg(4), scsi/sg.h);
 *  - an ioctl that returns a value through its argument writes all of it
 *    and nothing after it: called twice on buffers filled with two
 *    canaries, a byte that kept each call's canary was never written
 *    (its uapi type gives the size).
 * --self-test runs the checks on made-up results, on any machine.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/cdrom.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <scsi/scsi.h>
#include <scsi/sg.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_XFER (128 * 1024)   /* the largest data buffer drawn */
#define TAIL 64                 /* canary bytes after each buffer */
#define SENSE_MAX 255           /* sg_io_hdr.mx_sb_len is a byte */
#define CANARY_A 0xa5
#define CANARY_B 0x5a

/* ---- the random stream: splitmix64, the same on every host ---- */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A number in 0..n-1 (0 for n 0): one step of the stream whatever N is,
 * so that a draw from a list the guest finds (sysfs) moves it the same. */
static unsigned rnd(unsigned n)
{
    uint64_t v = rnd64();

    return n ? (unsigned)(v % n) : 0;
}

static bool chance(unsigned in)
{
    return rnd(in) == 0;
}

#define PICK(a) ((a)[rnd(sizeof(a) / sizeof((a)[0]))])

/* ---- what the run found ---- */

static unsigned contract_breaches;
static unsigned op_no;
/* What a breach line starts with: explore's contract oracle looks for it
 * (tools/lib/explore.sh); --self-test's made-up breaches say otherwise. */
static const char *breach_prefix = "guest-fuzz: contract";

/*
 * A breach is found while its call's line is still open (the result comes
 * after the checks): it is held, and printed on a line of its own once the
 * line ends (flush_breaches), where the oracle looks for it.
 */
static char held[4096];
static size_t held_len;

static void breach(const char *fmt, ...)
{
    va_list ap;
    int n;

    if (held_len < sizeof(held)) {
        n = snprintf(held + held_len, sizeof(held) - held_len, "%s: op %u: ", breach_prefix,
                     op_no);
        held_len += n > 0 ? (size_t)n : 0;
    }
    if (held_len < sizeof(held)) {
        va_start(ap, fmt);
        n = vsnprintf(held + held_len, sizeof(held) - held_len, fmt, ap);
        va_end(ap);
        held_len += n > 0 ? (size_t)n : 0;
    }
    if (held_len < sizeof(held) - 1) {
        held[held_len++] = '\n';
    } else {
        held[sizeof(held) - 2] = '\n';
        held_len = sizeof(held) - 1;
    }
    contract_breaches++;
}

static void flush_breaches(void)
{
    fwrite(held, 1, held_len, stdout);
    held_len = 0;
}

/* The first byte at or after FROM, before TO, that is not C; -1 if none. */
static long first_not(const uint8_t *b, size_t from, size_t to, uint8_t c)
{
    for (size_t i = from; i < to; i++) {
        if (b[i] != c) {
            return (long)i;
        }
    }
    return -1;
}

/* ---- SG_IO and its contract ---- */

typedef struct {
    uint8_t cdb[64];
    unsigned cdb_len;
    int dir;                /* SG_DXFER_NONE, _TO_DEV, _FROM_DEV */
    unsigned len;           /* dxfer_len */
    unsigned misalign;      /* the buffer starts this far into a page */
    unsigned sb_len;        /* mx_sb_len */
    unsigned timeout_ms;
} SgCall;

typedef struct {
    int rc, err;
    sg_io_hdr_t h;
} SgResult;

/*
 * The contract of one SG_IO on DATA (len + TAIL bytes: the data, then
 * canary C) and SENSE (SENSE_MAX + TAIL bytes of canary C before the
 * call), OUT the data-out buffer as it was sent.
 */
static void sg_check(const SgCall *c, const SgResult *r, const uint8_t *data,
                     const uint8_t *out, const uint8_t *sense, uint8_t canary)
{
    long at;

    at = first_not(data, c->len, c->len + TAIL, canary);
    if (at >= 0) {
        breach("SG_IO wrote byte %ld of a %u-byte data buffer", at, c->len);
    }
    if (c->dir == SG_DXFER_TO_DEV) {
        for (unsigned i = 0; i < c->len; i++) {
            if (data[i] != out[i]) {
                breach("SG_IO wrote byte %u of its %u-byte data-out buffer", i, c->len);
                break;
            }
        }
    }
    at = first_not(sense, c->sb_len, SENSE_MAX + TAIL, canary);
    if (at >= 0) {
        breach("SG_IO wrote sense byte %ld, mx_sb_len %u", at, c->sb_len);
    }
    if (r->rc) {
        return;
    }
    if (r->h.resid < 0 || (unsigned)r->h.resid > c->len) {
        breach("SG_IO resid %d outside 0..%u", r->h.resid, c->len);
    }
    if (r->h.sb_len_wr > c->sb_len) {
        breach("SG_IO sb_len_wr %u over mx_sb_len %u", r->h.sb_len_wr, c->sb_len);
    }
}

/* Sense key, ASC and ASCQ of fixed or descriptor sense data. */
static void sense_words(const uint8_t *s, unsigned n, char *out, size_t size)
{
    if (n >= 4 && ((s[0] & 0x7f) == 0x72 || (s[0] & 0x7f) == 0x73)) {
        snprintf(out, size, "%02x/%x/%02x/%02x", s[0], s[1] & 0xf, s[2], s[3]);
    } else if (n >= 14 && ((s[0] & 0x7f) == 0x70 || (s[0] & 0x7f) == 0x71)) {
        snprintf(out, size, "%02x/%x/%02x/%02x", s[0], s[2] & 0xf, s[12], s[13]);
    } else if (n) {
        snprintf(out, size, "%02x/len%u", s[0], n);
    } else {
        snprintf(out, size, "-");
    }
}

static bool dry_run;

/* A call's line ends here under --dry-run (true); else it goes out now,
 * before the call that may hang the guest. */
static bool line_only(void)
{
    if (dry_run) {
        putchar('\n');
        return true;
    }
    fflush(stdout);
    return false;
}

/* The end of a call's line: what an ioctl returned, and errno's name. */
static void print_rc(int rc)
{
    printf(" -> %d%s%s\n", rc, rc < 0 ? " " : "", rc < 0 ? strerrorname_np(errno) : "");
}

/* Sends C to FD (unless --dry-run), checks it, prints the outcome. */
static void sg_send(int fd, const SgCall *c, const char *what)
{
    static uint8_t pages[MAX_XFER + TAIL + 4096] __attribute__((aligned(4096)));
    static uint8_t out[MAX_XFER];
    static uint8_t sense[SENSE_MAX + TAIL];
    uint8_t *data = pages + c->misalign;
    uint8_t canary = op_no & 1 ? CANARY_A : CANARY_B;
    SgResult r = { 0 };
    char cdb[200] = "", sk[40];
    unsigned n = 0;

    for (unsigned i = 0; i < c->cdb_len && n < sizeof(cdb) - 3; i++) {
        n += snprintf(cdb + n, sizeof(cdb) - n, "%02x", c->cdb[i]);
    }
    printf("op %u %s cdb=%s dir=%s len=%u+%u sb=%u", op_no, what, cdb,
           c->dir == SG_DXFER_TO_DEV ? "out" : c->dir == SG_DXFER_FROM_DEV ? "in" : "none",
           c->len, c->misalign, c->sb_len);
    if (line_only()) {
        return;
    }
    memset(data, canary, c->len + TAIL);
    if (c->dir == SG_DXFER_TO_DEV) {
        for (unsigned i = 0; i < c->len; i++) {
            data[i] = (uint8_t)(i * 7 + op_no);
        }
        memcpy(out, data, c->len);
    }
    memset(sense, canary, sizeof(sense));
    r.h.interface_id = 'S';
    r.h.dxfer_direction = c->dir;
    r.h.cmd_len = (unsigned char)c->cdb_len;
    r.h.cmdp = (unsigned char *)c->cdb;
    r.h.dxfer_len = c->len;
    r.h.dxferp = c->len ? data : NULL;
    r.h.mx_sb_len = (unsigned char)c->sb_len;
    r.h.sbp = sense;
    r.h.timeout = c->timeout_ms;
    r.rc = ioctl(fd, SG_IO, &r.h);
    r.err = r.rc ? errno : 0;
    if (r.rc) {
        printf(" -> errno=%s\n", strerrorname_np(r.err) ? strerrorname_np(r.err) : "?");
    } else {
        sense_words(sense, r.h.sb_len_wr, sk, sizeof(sk));
        printf(" -> status=%#x host=%#x driver=%#x resid=%d sense=%s\n", r.h.status,
               r.h.host_status, r.h.driver_status, r.h.resid, sk);
    }
    sg_check(c, &r, data, out, sense, canary);
}

/* ---- drawing SCSI and ATA commands ---- */

static unsigned draw_len(unsigned natural)
{
    static const unsigned odd[] = { 0, 1, 2, 3, 4, 8, 18, 36, 96, 255, 256, 511, 512, 513,
                                    1023, 2047, 2048, 2049, 4095, 4096, 4097, 65536 };

    if (natural > MAX_XFER) {
        natural = MAX_XFER;
    }
    switch (rnd(5)) {
    case 0:
    case 1:
        return natural;
    case 2:
        return PICK(odd);
    case 3:     /* just short of, or just over, what the command moves */
        return natural > 1 ? natural - 1 - rnd(natural > 512 ? 512 : natural - 1) :
            rnd(2);
    default: {
        unsigned v = natural + 1 + rnd(1024);

        return v > MAX_XFER ? MAX_XFER : v;
    }
    }
}

static void draw_buffers(SgCall *c, unsigned natural, int natural_dir)
{
    static const unsigned sb[] = { 0, 1, 8, 13, 18, 22, 32, 64, 96, 252, 255 };
    static const int dirs[] = { SG_DXFER_NONE, SG_DXFER_TO_DEV, SG_DXFER_FROM_DEV };

    c->dir = chance(6) ? PICK(dirs) : natural_dir;
    /* No length with no direction: sg_io() refuses it before libata sees it. */
    c->len = c->dir == SG_DXFER_NONE ? 0 : draw_len(natural);
    c->misalign = chance(5) ? 1 + rnd(511) : 0;
    c->sb_len = chance(3) ? PICK(sb) : 32;
    c->timeout_ms = 2000 + rnd(4) * 1000;
}

/* ATA commands a disk implements, and a few it may not. */
static const uint8_t ata_opcodes[] = {
    0x00, 0x06, 0x08, 0x10, 0x20, 0x21, 0x24, 0x25, 0x27, 0x29, 0x2f, 0x30, 0x31,
    0x34, 0x35, 0x37, 0x39, 0x3d, 0x3f, 0x40, 0x41, 0x42, 0x44, 0x45, 0x47, 0x57,
    0x5b, 0x5c, 0x5d, 0x5e, 0x5f, 0x60, 0x61, 0x63, 0x64, 0x65, 0x70, 0x90, 0x91,
    0x92, 0xa0, 0xa1, 0xb0, 0xb1, 0xb4, 0xb6, 0xc4, 0xc5, 0xc6, 0xc8, 0xc9, 0xca,
    0xcb, 0xcc, 0xce, 0xda, 0xde, 0xdf, 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xe6,
    0xe7, 0xe8, 0xea, 0xec, 0xef, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf8, 0xf9,
};

/* Protocols (SAT-4 table 120) and the transfer direction they imply. */
static int proto_dir(unsigned proto)
{
    switch (proto) {
    case 4: case 10: return SG_DXFER_FROM_DEV;     /* PIO in, UDMA in */
    case 5: case 11: return SG_DXFER_TO_DEV;       /* PIO out, UDMA out */
    case 6: case 7: case 12:                        /* DMA, DMA queued, FPDMA */
        return chance(2) ? SG_DXFER_FROM_DEV : SG_DXFER_TO_DEV;
    default: return SG_DXFER_NONE;
    }
}

/*
 * Commands as a well-behaved caller sends them: the opcode, its protocol
 * (SAT-4 table 120), 48-bit or not, what moves (0 nothing, 1 in, 2 out),
 * the sectors it moves at most, the features.  Draws start from one of
 * these two times in three, so that most calls get past the SATL's checks
 * to the drive, then change a field of some.
 */
typedef struct {
    uint8_t cmd, proto, ext, data, max_count, features;
} AtaCommand;

static const AtaCommand ata_commands[] = {
    { 0xec, 4, 0, 1, 1, 0 },        /* IDENTIFY DEVICE */
    { 0xa1, 4, 0, 1, 1, 0 },        /* IDENTIFY PACKET DEVICE */
    { 0x20, 4, 0, 1, 16, 0 },       /* READ SECTOR(S) */
    { 0x24, 4, 1, 1, 16, 0 },       /* READ SECTOR(S) EXT */
    { 0x30, 5, 0, 2, 16, 0 },       /* WRITE SECTOR(S) */
    { 0x34, 5, 1, 2, 16, 0 },       /* WRITE SECTOR(S) EXT */
    { 0xc4, 4, 0, 1, 16, 0 },       /* READ MULTIPLE */
    { 0xc5, 5, 0, 2, 16, 0 },       /* WRITE MULTIPLE */
    { 0xc6, 3, 0, 0, 16, 0 },       /* SET MULTIPLE MODE */
    { 0xc8, 6, 0, 1, 64, 0 },       /* READ DMA */
    { 0x25, 6, 1, 1, 64, 0 },       /* READ DMA EXT */
    { 0xca, 6, 0, 2, 64, 0 },       /* WRITE DMA */
    { 0x35, 6, 1, 2, 64, 0 },       /* WRITE DMA EXT */
    { 0xc8, 10, 0, 1, 64, 0 },      /* READ DMA as UDMA in */
    { 0xca, 11, 0, 2, 64, 0 },      /* WRITE DMA as UDMA out */
    { 0x60, 12, 1, 1, 8, 0 },       /* READ FPDMA QUEUED */
    { 0x61, 12, 1, 2, 8, 0 },       /* WRITE FPDMA QUEUED */
    { 0x40, 3, 0, 0, 64, 0 },       /* READ VERIFY SECTOR(S) */
    { 0x42, 3, 1, 0, 64, 0 },       /* READ VERIFY SECTOR(S) EXT */
    { 0xe7, 3, 0, 0, 0, 0 },        /* FLUSH CACHE */
    { 0xea, 3, 1, 0, 0, 0 },        /* FLUSH CACHE EXT */
    { 0xe5, 3, 0, 0, 0, 0 },        /* CHECK POWER MODE */
    { 0xe1, 3, 0, 0, 0, 0 },        /* IDLE IMMEDIATE */
    { 0xe0, 3, 0, 0, 0, 0 },        /* STANDBY IMMEDIATE */
    { 0x00, 3, 0, 0, 0, 0 },        /* NOP */
    { 0xef, 3, 0, 0, 0, 0x02 },     /* SET FEATURES: write cache on */
    { 0xef, 3, 0, 0, 0, 0x82 },     /* SET FEATURES: write cache off */
    { 0xef, 3, 0, 0, 0, 0x03 },     /* SET FEATURES: transfer mode (count) */
    { 0xef, 3, 0, 0, 0, 0xaa },     /* SET FEATURES: read look-ahead on */
    { 0xf8, 3, 0, 0, 0, 0 },        /* READ NATIVE MAX ADDRESS */
    { 0x27, 3, 1, 0, 0, 0 },        /* READ NATIVE MAX ADDRESS EXT */
    { 0x2f, 4, 1, 1, 2, 0 },        /* READ LOG EXT */
    { 0x47, 6, 1, 1, 2, 0 },        /* READ LOG DMA EXT */
    { 0xb0, 4, 0, 1, 1, 0xd0 },     /* SMART READ DATA */
    { 0xb0, 4, 0, 1, 1, 0xd5 },     /* SMART READ LOG */
    { 0xb0, 3, 0, 0, 0, 0xda },     /* SMART RETURN STATUS */
    { 0xb0, 3, 0, 0, 0, 0xd8 },     /* SMART ENABLE OPERATIONS */
    { 0x90, 8, 0, 0, 0, 0 },        /* EXECUTE DEVICE DIAGNOSTIC */
    { 0x08, 9, 0, 0, 0, 0 },        /* DEVICE RESET */
    { 0x06, 6, 1, 2, 1, 1 },        /* DATA SET MANAGEMENT (TRIM) */
    { 0xf5, 3, 0, 0, 0, 0 },        /* SECURITY FREEZE LOCK */
};

/* An ATA PASS-THROUGH of 12, 16 or 32 bytes, its fields drawn. */
static void draw_passthrough(SgCall *c, char *what, size_t size)
{
    unsigned form = rnd(8), proto = rnd(16), count, tl, dir, ext;
    uint8_t cmd = chance(6) ? (uint8_t)rnd(256) : PICK(ata_opcodes);
    uint8_t flags, features = (uint8_t)rnd(256);
    uint64_t lba;
    static const unsigned counts[] = { 0, 1, 2, 3, 7, 8, 16, 64, 128, 255, 256 };

    count = chance(3) ? rnd(65536) : PICK(counts);
    lba = chance(4) ? rnd64() & 0xffffffffffffull : rnd(40000);
    tl = rnd(4);        /* T_LENGTH: none, FEATURES, SECTOR COUNT, TPSIU */
    flags = (uint8_t)(tl | (rnd(2) << 2) | (rnd(2) << 3) | (rnd(2) << 4) |
                      (rnd(2) << 5) | (chance(8) ? rnd(4) << 6 : 0));
    dir = (unsigned)proto_dir(proto);
    ext = rnd(2);
    if (rnd(3)) {       /* a well-formed command, one field changed in four */
        const AtaCommand *a = &PICK(ata_commands);
        unsigned off = chance(4) ? 1 + rnd(6) : 0;

        cmd = a->cmd;
        proto = a->proto;
        ext = a->ext;
        features = a->features;
        count = a->max_count ? 1 + rnd(a->max_count) : (a->features == 0x03 ? 0x40 | rnd(8) : 0);
        lba = a->cmd == 0xb0 ? 0xc24f00 | rnd(256) : rnd(32768 - 64);
        tl = a->data ? 2 : 0;
        flags = (uint8_t)(tl | (a->data ? 4 : 0) | (a->data == 1 ? 8 : 0) | rnd(2) << 5);
        dir = a->data == 1 ? SG_DXFER_FROM_DEV : a->data == 2 ? SG_DXFER_TO_DEV : SG_DXFER_NONE;
        switch (off) {
        case 1: proto = rnd(16); break;
        case 2: tl = rnd(4); flags = (uint8_t)((flags & ~3) | tl); break;
        case 3: flags ^= 8; break;                      /* T_DIR */
        case 4: flags ^= 4; break;                      /* BYT_BLOK */
        case 5: count = rnd(65536); break;
        case 6: flags ^= 0x10; break;                   /* T_TYPE */
        default: break;
        }
    }
    memset(c->cdb, 0, sizeof(c->cdb));
    if (form < 3) {                         /* ATA PASS-THROUGH (12) */
        c->cdb_len = 12;
        c->cdb[0] = 0xa1;
        c->cdb[1] = (uint8_t)(proto << 1 | (chance(8) ? rnd(8) << 5 : 0));
        c->cdb[2] = flags;
        c->cdb[3] = features;
        c->cdb[4] = (uint8_t)count;
        c->cdb[5] = (uint8_t)lba;
        c->cdb[6] = (uint8_t)(lba >> 8);
        c->cdb[7] = (uint8_t)(lba >> 16);
        c->cdb[8] = (uint8_t)(chance(2) ? 0x40 : rnd(256));
        c->cdb[9] = cmd;
    } else if (form < 7) {                  /* ATA PASS-THROUGH (16) */
        c->cdb_len = 16;
        c->cdb[0] = 0x85;
        c->cdb[1] = (uint8_t)(proto << 1 | ext | (chance(8) ? rnd(8) << 5 : 0));
        c->cdb[2] = flags;
        c->cdb[3] = (uint8_t)(chance(8) ? rnd(256) : 0);
        c->cdb[4] = features;
        c->cdb[5] = (uint8_t)(count >> 8);
        c->cdb[6] = (uint8_t)count;
        c->cdb[7] = (uint8_t)(lba >> 24);
        c->cdb[8] = (uint8_t)lba;
        c->cdb[9] = (uint8_t)(lba >> 32);
        c->cdb[10] = (uint8_t)(lba >> 8);
        c->cdb[11] = (uint8_t)(lba >> 40);
        c->cdb[12] = (uint8_t)(lba >> 16);
        c->cdb[13] = (uint8_t)(chance(2) ? 0x40 : rnd(256));
        c->cdb[14] = cmd;
        c->cdb[15] = (uint8_t)(chance(8) ? rnd(256) : 0);
    } else {                                /* ATA PASS-THROUGH (32) */
        c->cdb_len = 32;
        c->cdb[0] = 0x7f;
        c->cdb[7] = 0x18;                   /* additional CDB length */
        c->cdb[8] = 0x1f;
        c->cdb[9] = chance(8) ? (uint8_t)rnd(256) : 0xf0;   /* service action */
        c->cdb[10] = (uint8_t)(proto << 1 | ext);
        c->cdb[11] = flags;
        for (unsigned i = 0; i < 6; i++) {
            c->cdb[14 + i] = (uint8_t)(lba >> (8 * (5 - i)));
        }
        c->cdb[20] = (uint8_t)(chance(8) ? rnd(256) : 0);
        c->cdb[21] = features;
        c->cdb[22] = (uint8_t)(count >> 8);
        c->cdb[23] = (uint8_t)count;
        c->cdb[24] = (uint8_t)(chance(2) ? 0x40 : rnd(256));
        c->cdb[25] = cmd;
        c->cdb[28] = (uint8_t)(count >> 8);
        c->cdb[29] = (uint8_t)count;
    }
    /* What T_LENGTH, BYT_BLOK and the count say moves, in bytes. */
    {
        unsigned blocks = tl == 0 ? 0 : tl == 1 ? (count & 0xff) : count & 0xffff;
        unsigned natural = flags & 4 ? blocks * 512 : blocks;

        draw_buffers(c, natural, (int)(dir == (unsigned)SG_DXFER_NONE && tl ?
                                       (flags & 8 ? SG_DXFER_FROM_DEV : SG_DXFER_TO_DEV) :
                                       (int)dir));
    }
    snprintf(what, size, "ata%u proto=%u cmd=%02x t_length=%u t_dir=%u byt_blok=%u "
             "ck_cond=%u t_type=%u count=%u", c->cdb_len, proto, cmd, tl, (flags >> 3) & 1,
             (flags >> 2) & 1, (flags >> 5) & 1, (flags >> 4) & 1, count);
}

static void put_be(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        p[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
    }
}

/* A SCSI command libata translates or answers itself (SAT), or an MMC
 * command for the CD-ROM; sometimes any opcode at any length. */
static void draw_scsi(SgCall *c, bool cdrom, char *what, size_t size)
{
    static const uint8_t disk_ops[] = {
        0x00, 0x03, 0x08, 0x0a, 0x12, 0x15, 0x1a, 0x1b, 0x1d, 0x25, 0x28, 0x2a, 0x2f,
        0x35, 0x3b, 0x3c, 0x41, 0x42, 0x55, 0x5a, 0x7f, 0x88, 0x8a, 0x8f, 0x91, 0x93,
        0x94, 0x95, 0x9e, 0xa0, 0xa2, 0xa3, 0xa8, 0xaa, 0xaf, 0xb5,
    };
    static const uint8_t mmc_ops[] = {
        0x00, 0x03, 0x12, 0x1a, 0x1b, 0x1e, 0x25, 0x28, 0x2b, 0x42, 0x43, 0x45, 0x46,
        0x4a, 0x4b, 0x4e, 0x51, 0x52, 0x55, 0x5a, 0xa3, 0xa4, 0xa8, 0xac, 0xad, 0xb9,
        0xbb, 0xbd, 0xbe,
    };
    static const uint8_t pages[] = { 0x00, 0x01, 0x08, 0x0a, 0x1a, 0x1c, 0x2a, 0x3f };
    static const uint8_t vpd[] = { 0x00, 0x80, 0x83, 0x89, 0xb0, 0xb1, 0xb2, 0xb6, 0xb9 };
    uint8_t op = cdrom ? PICK(mmc_ops) : PICK(disk_ops);
    unsigned alloc = chance(3) ? rnd(65536) : PICK(((const unsigned[]){ 0, 4, 8, 18, 36, 96,
                                                     252, 255, 256, 512, 2048, 4096 }));
    unsigned blocks = chance(3) ? rnd(300) : 1 + rnd(16), natural = alloc;
    unsigned blk = cdrom ? 2048 : 512;
    uint64_t lba = chance(5) ? rnd64() & 0xffffffffull : rnd(cdrom ? 2048 : 32768);
    int dir = SG_DXFER_FROM_DEV;

    memset(c->cdb, 0, sizeof(c->cdb));
    c->cdb[0] = op;
    c->cdb_len = op < 0x20 ? 6 : op < 0x60 ? 10 : op < 0x80 ? 10 : op < 0xa0 ? 16 : 12;
    switch (op) {
    case 0x00: case 0x1b: case 0x1e: case 0x35: case 0x91: case 0x1d:
    case 0x2b: case 0x4b: case 0x4e: case 0xb9: case 0xbb:
        natural = 0;
        dir = SG_DXFER_NONE;
        if (op == 0x1b) {           /* START STOP UNIT: start, stop, load, eject */
            c->cdb[4] = (uint8_t)(rnd(4) | (chance(4) ? rnd(16) << 4 : 0));
        } else if (op == 0x1e) {    /* PREVENT ALLOW MEDIUM REMOVAL */
            c->cdb[4] = (uint8_t)rnd(4);
        } else if (op == 0x1d) {    /* SEND DIAGNOSTIC: self-test codes */
            c->cdb[1] = (uint8_t)(rnd(8) << 5 | rnd(2) << 2);
        } else if (op == 0x35 || op == 0x91) {
            c->cdb[1] = (uint8_t)(rnd(2) << 1);    /* IMMED */
            put_be(c->cdb + 2, lba, op == 0x91 ? 8 : 4);
        }
        break;
    case 0x03: case 0x12: case 0x1a: case 0x5a: case 0x25: case 0x9e: case 0xa0:
    case 0xa3: case 0x43: case 0x46: case 0x4a: case 0x51: case 0x52: case 0x42:
    case 0xbd: case 0xad: case 0xac: case 0xa4: case 0xa2:
        if (op == 0x42 && !cdrom) { /* UNMAP: a parameter list out */
            dir = SG_DXFER_TO_DEV;
            natural = 8 + 16 * rnd(4);
            put_be(c->cdb + 7, natural, 2);
            break;
        }
        if (op == 0x12) {
            c->cdb[1] = (uint8_t)rnd(2);
            c->cdb[2] = c->cdb[1] ? PICK(vpd) : 0;
        } else if (op == 0x1a || op == 0x5a) {
            c->cdb[1] = (uint8_t)(rnd(2) << 3);
            c->cdb[2] = (uint8_t)(PICK(pages) | rnd(4) << 6);
            c->cdb[3] = chance(6) ? (uint8_t)rnd(256) : 0;
        } else if (op == 0x9e) {    /* READ CAPACITY (16), another action */
            c->cdb[1] = chance(4) ? (uint8_t)rnd(32) : 0x10;
        } else if (op == 0xa3) {    /* REPORT SUPPORTED OPERATION CODES */
            c->cdb[1] = chance(4) ? (uint8_t)rnd(32) : 0x0c;
            c->cdb[2] = (uint8_t)rnd(4);
            c->cdb[3] = PICK(disk_ops);
        } else if (op == 0x43) {    /* READ TOC/PMA/ATIP: format, track */
            c->cdb[1] = (uint8_t)(rnd(2) << 1);
            c->cdb[2] = (uint8_t)rnd(16);
            c->cdb[6] = (uint8_t)(chance(3) ? rnd(256) : 1);
            c->cdb[9] = (uint8_t)(rnd(4) << 6);
        } else if (op == 0x46) {    /* GET CONFIGURATION: RT, feature */
            c->cdb[1] = (uint8_t)rnd(4);
            put_be(c->cdb + 2, rnd(chance(2) ? 0x10000 : 0x40), 2);
        } else if (op == 0x4a) {    /* GET EVENT STATUS: polled, classes */
            c->cdb[1] = (uint8_t)(chance(5) ? 0 : 1);
            c->cdb[4] = (uint8_t)rnd(256);
        } else if (op == 0xa2) {    /* SECURITY PROTOCOL IN */
            c->cdb[1] = chance(2) ? 0 : (uint8_t)rnd(256);
        } else {
            c->cdb[1] = (uint8_t)(chance(4) ? rnd(256) : 0);
            c->cdb[2] = (uint8_t)(chance(4) ? rnd(256) : 0);
        }
        if (c->cdb_len == 6) {
            c->cdb[4] = (uint8_t)alloc;
            natural = alloc & 0xff;
        } else if (c->cdb_len == 10) {
            put_be(c->cdb + 7, alloc & 0xffff, 2);
            natural = alloc & 0xffff;
        } else if (c->cdb_len == 12) {
            put_be(c->cdb + 6, alloc, 4);
        } else {
            put_be(c->cdb + 10, alloc, 4);
        }
        break;
    case 0x15: case 0x55:           /* MODE SELECT (6), (10) */
        dir = SG_DXFER_TO_DEV;
        c->cdb[1] = (uint8_t)(0x10 | rnd(2));
        natural = 4 + rnd(40);
        if (op == 0x15) {
            c->cdb[4] = (uint8_t)natural;
        } else {
            put_be(c->cdb + 7, natural, 2);
        }
        break;
    case 0x7f:                      /* READ (32) and other variable length */
        c->cdb_len = 32;
        c->cdb[7] = 0x18;
        c->cdb[9] = chance(2) ? 0x09 : (uint8_t)rnd(256);
        put_be(c->cdb + 12, lba, 8);
        put_be(c->cdb + 28, blocks, 4);
        natural = blocks * blk;
        break;
    default: {                      /* READ, WRITE, VERIFY, WRITE SAME, ... */
        bool write = op == 0x0a || op == 0x2a || op == 0x8a || op == 0xaa ||
                     op == 0x3b || op == 0x93 || op == 0x41 || op == 0xb5;

        dir = write ? SG_DXFER_TO_DEV : SG_DXFER_FROM_DEV;
        if (c->cdb_len == 6) {
            put_be(c->cdb + 1, lba & 0x1fffff, 3);
            c->cdb[4] = (uint8_t)blocks;
            natural = (blocks & 0xff ? blocks & 0xff : 256) * blk;
        } else if (c->cdb_len == 10) {
            c->cdb[1] = (uint8_t)(chance(4) ? rnd(256) : 0);   /* FUA, DPO, ... */
            put_be(c->cdb + 2, lba, 4);
            put_be(c->cdb + 7, blocks & 0xffff, 2);
            natural = (blocks & 0xffff) * blk;
        } else if (c->cdb_len == 12) {
            put_be(c->cdb + 2, lba, 4);
            put_be(c->cdb + 6, blocks, 4);
            natural = blocks * blk;
        } else {
            c->cdb[1] = (uint8_t)(chance(4) ? rnd(256) : 0);
            put_be(c->cdb + 2, lba, 8);
            put_be(c->cdb + 10, blocks, 4);
            natural = blocks * blk;
        }
        if (op == 0x2f || op == 0x8f || op == 0x35 || op == 0x91) {
            dir = SG_DXFER_NONE;    /* VERIFY without BYTCHK */
            natural = 0;
        }
        if (op == 0x41 || op == 0x93) {
            natural = blk;          /* WRITE SAME: one block */
        }
        break;
    }
    }
    if (chance(12)) {               /* any opcode, any length */
        c->cdb[0] = (uint8_t)rnd(256);
        c->cdb_len = 6 + rnd(27);
    }
    draw_buffers(c, natural, dir);
    snprintf(what, size, "%s op=%02x", cdrom ? "mmc" : "scsi", c->cdb[0]);
}

/* ---- ioctls ---- */

typedef enum { OUT_ONLY, IN_OUT, VALUE } IoKind;

typedef struct {
    const char *name;
    unsigned long req;
    IoKind kind;
    unsigned size;          /* bytes the uapi type says come back */
    bool cdrom;             /* for the CD-ROM, not the disk */
} Ioctl;

/* Output-only ioctls: the whole of SIZE written, nothing after it. */
static const Ioctl ioctls[] = {
    { "HDIO_GET_32BIT", HDIO_GET_32BIT, OUT_ONLY, sizeof(unsigned long), false },
    { "HDIO_GET_IDENTITY", HDIO_GET_IDENTITY, OUT_ONLY, 512, false },
    { "HDIO_GETGEO", HDIO_GETGEO, OUT_ONLY, sizeof(struct hd_geometry), false },
    { "SCSI_IOCTL_GET_IDLUN", SCSI_IOCTL_GET_IDLUN, OUT_ONLY, 8, false },
    { "SCSI_IOCTL_GET_BUS_NUMBER", SCSI_IOCTL_GET_BUS_NUMBER, OUT_ONLY, sizeof(int), false },
    { "SG_GET_VERSION_NUM", SG_GET_VERSION_NUM, OUT_ONLY, sizeof(int), false },
    { "SG_GET_TIMEOUT", SG_GET_TIMEOUT, VALUE, 0, false },
    { "SG_GET_RESERVED_SIZE", SG_GET_RESERVED_SIZE, OUT_ONLY, sizeof(int), false },
    { "SG_EMULATED_HOST", SG_EMULATED_HOST, OUT_ONLY, sizeof(int), false },
    { "BLKGETSIZE64", BLKGETSIZE64, OUT_ONLY, sizeof(uint64_t), false },
    { "BLKSSZGET", BLKSSZGET, OUT_ONLY, sizeof(int), false },
    { "BLKPBSZGET", BLKPBSZGET, OUT_ONLY, sizeof(unsigned int), false },
    { "BLKIOMIN", BLKIOMIN, OUT_ONLY, sizeof(unsigned int), false },
    { "BLKROGET", BLKROGET, OUT_ONLY, sizeof(int), false },
    { "CDROMREADTOCHDR", CDROMREADTOCHDR, OUT_ONLY, sizeof(struct cdrom_tochdr), true },
    { "CDROM_GET_MCN", CDROM_GET_MCN, OUT_ONLY, sizeof(struct cdrom_mcn), true },
    { "CDROM_GET_CAPABILITY", CDROM_GET_CAPABILITY, VALUE, 0, true },
    { "CDROM_DRIVE_STATUS", CDROM_DRIVE_STATUS, VALUE, 0, true },
    { "CDROM_DISC_STATUS", CDROM_DISC_STATUS, VALUE, 0, true },
    { "CDROM_MEDIA_CHANGED", CDROM_MEDIA_CHANGED, VALUE, 0, true },
};

/*
 * An output-only ioctl's contract: CALL run on a buffer of SIZE + TAIL
 * bytes of CANARY_A, then of CANARY_B.  A byte of the SIZE that kept its
 * canary both times was never written; a byte after SIZE that changed
 * either time was written past the type.  Returns the first call's result.
 */
typedef int (*IoctlCall)(void *ctx, void *buf);

static int ioctl_out_check(const char *name, unsigned size, IoctlCall call, void *ctx)
{
    uint8_t a[512 + TAIL], b[512 + TAIL];
    int ra, rb;
    long at;

    memset(a, CANARY_A, sizeof(a));
    memset(b, CANARY_B, sizeof(b));
    ra = call(ctx, a);
    rb = call(ctx, b);
    if (ra == 0 && rb == 0) {
        for (unsigned i = 0; i < size; i++) {
            if (a[i] == CANARY_A && b[i] == CANARY_B) {
                breach("%s left byte %u of its %u unwritten", name, i, size);
                break;
            }
        }
    }
    at = first_not(a, size, size + TAIL, CANARY_A);
    if (at < 0) {
        at = first_not(b, size, size + TAIL, CANARY_B);
    }
    if (at >= 0) {
        breach("%s wrote byte %ld, past its %u", name, at, size);
    }
    return ra;
}

static int ioctl_on_fd(void *ctx, void *buf)
{
    const int *p = ctx;

    return ioctl(p[0], (unsigned long)(unsigned)p[1], buf) ? -errno : 0;
}

/* An ioctl whose argument is a value, not a pointer: its result printed. */
static void ioctl_by_value(int fd, const char *name, unsigned long req, unsigned long arg,
                           bool show_arg)
{
    int rc;

    printf("op %u ioctl %s", op_no, name);
    if (show_arg) {
        printf(" %lu", arg);
    }
    if (line_only()) {
        return;
    }
    rc = ioctl(fd, req, arg);
    print_rc(rc);
}

/* An output-only ioctl's line: the call, checked, and its result. */
static void ioctl_out_line(const char *name, unsigned size, IoctlCall call, void *ctx)
{
    int rc;

    printf("op %u ioctl %s", op_no, name);
    if (line_only()) {
        return;
    }
    rc = ioctl_out_check(name, size, call, ctx);
    printf(" -> %s\n", rc ? strerrorname_np(-rc) : "0");
}

static void do_ioctl(int fd, const Ioctl *io)
{
    int ctx[2] = { fd, (int)io->req };

    if (io->kind == VALUE) {
        ioctl_by_value(fd, io->name, io->req, 0, false);
        return;
    }
    ioctl_out_line(io->name, io->size, ioctl_on_fd, ctx);
}

/* The ioctls that send something: HDIO_DRIVE_CMD and _TASK with drawn
 * registers, HDIO_SET_32BIT, and the CD-ROM's tray, lock and speed. */
static void do_ioctl_in(int fd, bool cdrom)
{
    uint8_t buf[4 + 4 * 512 + TAIL];
    uint8_t canary = op_no & 1 ? CANARY_A : CANARY_B;
    unsigned which = rnd(cdrom ? 5 : 3), size = 0;
    unsigned long req = 0;
    const char *name = "";
    int rc;

    memset(buf, canary, sizeof(buf));
    if (cdrom) {
        static const struct { const char *n; unsigned long r; unsigned max; } cd[] = {
            { "CDROMEJECT", CDROMEJECT, 0 }, { "CDROMCLOSETRAY", CDROMCLOSETRAY, 0 },
            { "CDROM_LOCKDOOR", CDROM_LOCKDOOR, 2 }, { "CDROM_SELECT_SPEED", CDROM_SELECT_SPEED, 64 },
            { "CDROM_MEDIA_CHANGED", CDROM_MEDIA_CHANGED, 2 },
        };

        ioctl_by_value(fd, cd[which].n, cd[which].r, cd[which].max ? rnd(cd[which].max) : 0,
                       true);
        return;
    }
    if (which == 0) {
        ioctl_by_value(fd, "HDIO_SET_32BIT", HDIO_SET_32BIT, rnd(4), true);
        return;
    }
    if (which == 1) {           /* HDIO_DRIVE_CMD: command, sector, feature, count */
        name = "HDIO_DRIVE_CMD";
        req = HDIO_DRIVE_CMD;
        buf[0] = chance(4) ? (uint8_t)rnd(256) : PICK(ata_opcodes);
        buf[1] = (uint8_t)rnd(256);
        buf[2] = (uint8_t)rnd(256);
        buf[3] = (uint8_t)rnd(5);
        size = 4 + buf[3] * 512;
    } else {                    /* HDIO_DRIVE_TASK: seven registers */
        name = "HDIO_DRIVE_TASK";
        req = HDIO_DRIVE_TASK;
        buf[0] = chance(4) ? (uint8_t)rnd(256) : PICK(ata_opcodes);
        for (unsigned i = 1; i < 7; i++) {
            buf[i] = (uint8_t)rnd(256);
        }
        size = 7;
    }
    printf("op %u ioctl %s %02x %02x %02x %02x", op_no, name, buf[0], buf[1], buf[2], buf[3]);
    if (line_only()) {
        return;
    }
    rc = ioctl(fd, req, buf);
    print_rc(rc);
    if (first_not(buf, size, size + TAIL, canary) >= 0) {
        breach("%s wrote byte %ld, past its %u", name, first_not(buf, size, size + TAIL, canary),
               size);
    }
}

/* ---- sysfs ---- */

static char **attrs;
static unsigned n_attrs;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The readable attributes (regular files) of DIR's entries, one level down. */
static void collect_attrs(const char *dir, bool entries)
{
    DIR *d = opendir(dir);
    struct dirent *e;

    if (!d) {
        return;
    }
    while ((e = readdir(d))) {
        char path[512];
        struct stat st;

        if (e->d_name[0] == '.') {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (entries) {
            collect_attrs(path, false);
        } else if (!stat(path, &st) && S_ISREG(st.st_mode) && (st.st_mode & S_IRUSR)) {
            attrs = realloc(attrs, (n_attrs + 1) * sizeof(*attrs));
            attrs[n_attrs++] = strdup(path);
        }
    }
    closedir(d);
}

static void do_sysfs(void)
{
    char buf[4096];
    const char *path;
    ssize_t n = 0;
    int fd;

    unsigned k = rnd(n_attrs);  /* drawn whatever the guest has: the stream moves the same */

    if (!n_attrs) {
        printf("op %u sysfs: no attribute\n", op_no);
        return;
    }
    path = attrs[k];
    printf("op %u sysfs %s", op_no, path);
    if (line_only()) {
        return;
    }
    fd = open(path, O_RDONLY);
    if (fd < 0 || (n = read(fd, buf, sizeof(buf))) < 0) {
        printf(" -> %s\n", strerrorname_np(errno));
    } else {
        printf(" -> %zd bytes\n", n);
    }
    if (fd >= 0) {
        close(fd);
    }
}

/* ---- self-test: the checks on made-up results ---- */

typedef struct {
    unsigned write, from;
} FakeIoctl;

static int fake_ioctl(void *ctx, void *buf)
{
    const FakeIoctl *f = ctx;

    memset((uint8_t *)buf + f->from, 0, f->write);
    return 0;
}

static int self_test(void)
{
    static const struct { const char *what; FakeIoctl f; unsigned size; unsigned want; } io[] = {
        { "all 8 bytes written", { 8, 0 }, 8, 0 },
        { "1 of 8 written", { 1, 0 }, 8, 1 },
        { "the last 4 of 8 written", { 4, 4 }, 8, 1 },
        { "9 written for 8", { 9, 0 }, 8, 1 },
        { "1 of 8 and 1 past", { 9, 0 }, 1, 1 },
    };
    uint8_t data[16 + TAIL], sense[SENSE_MAX + TAIL], out[16];
    SgCall c = { .len = 16, .sb_len = 18, .dir = SG_DXFER_FROM_DEV };
    SgResult r = { 0 };
    unsigned failed = 0, before;

    breach_prefix = "self-test: caught";

    for (unsigned i = 0; i < sizeof(io) / sizeof(io[0]); i++) {
        before = contract_breaches;
        ioctl_out_check(io[i].what, io[i].size, fake_ioctl, (void *)&io[i].f);
        flush_breaches();
        if ((contract_breaches - before > 0) != (io[i].want > 0)) {
            printf("self-test: FAIL: ioctl %s: %u breaches\n", io[i].what,
                   contract_breaches - before);
            failed++;
        }
    }
    struct { const char *what; int data_at, sense_at, resid, sb_wr, dir; unsigned want; } sg[] = {
        { "clean", -1, -1, 0, 18, SG_DXFER_FROM_DEV, 0 },
        { "data past dxfer_len", 16, -1, 0, 18, SG_DXFER_FROM_DEV, 1 },
        { "sense past mx_sb_len", -1, 18, 0, 18, SG_DXFER_FROM_DEV, 1 },
        { "resid negative", -1, -1, -1, 18, SG_DXFER_FROM_DEV, 1 },
        { "resid over dxfer_len", -1, -1, 17, 18, SG_DXFER_FROM_DEV, 1 },
        { "sb_len_wr over mx_sb_len", -1, -1, 0, 19, SG_DXFER_FROM_DEV, 1 },
        { "data-out changed", 3, -1, 0, 0, SG_DXFER_TO_DEV, 1 },
        { "data-out kept", -1, -1, 0, 0, SG_DXFER_TO_DEV, 0 },
    };
    for (unsigned i = 0; i < sizeof(sg) / sizeof(sg[0]); i++) {
        memset(data, CANARY_A, sizeof(data));
        memset(sense, CANARY_A, sizeof(sense));
        memset(data, 0x11, 16);
        memcpy(out, data, 16);
        memset(sense, 0x22, 18);
        if (sg[i].data_at >= 0) {
            data[sg[i].data_at] ^= 0xff;
        }
        if (sg[i].sense_at >= 0) {
            sense[sg[i].sense_at] ^= 0xff;
        }
        c.dir = sg[i].dir;
        r.h.resid = sg[i].resid;
        r.h.sb_len_wr = (unsigned char)sg[i].sb_wr;
        before = contract_breaches;
        sg_check(&c, &r, data, out, sense, CANARY_A);
        flush_breaches();
        if ((contract_breaches - before > 0) != (sg[i].want > 0)) {
            printf("self-test: FAIL: SG_IO %s: %u breaches\n", sg[i].what,
                   contract_breaches - before);
            failed++;
        }
    }
    /* A call's line as the guest prints it, then its breach on a line of
     * its own (the oracle reads lines that start with the prefix). */
    {
        FakeIoctl half = { 4, 0 };

        ioctl_out_line("FAKE_HALF", 8, fake_ioctl, &half);
        flush_breaches();
    }
    printf("self-test: %s (%u checks failed)\n", failed ? "FAIL" : "ok", failed);
    return failed ? 1 : 0;
}

/* ---- main ---- */

enum { C_PT, C_SCSI, C_IOCTL, C_SYSFS, C_N };
static const char *const class_names[C_N] = { "passthrough", "scsi", "ioctl", "sysfs" };

static void usage(void)
{
    fprintf(stderr,
            "usage: guest-fuzz [options] DISK [CDROM]\n"
            "       guest-fuzz --self-test\n"
            "  --seed N          the draws' seed (default 1)\n"
            "  --ops N           calls to make (default 40)\n"
            "  --classes LIST    passthrough,scsi,ioctl,sysfs (default all)\n"
            "  --time-limit S    make no call after S seconds (default 60)\n"
            "  --dry-run         print the calls, make none\n"
            "exit status: 0 no contract breach, 1 breaches, 2 bad usage.\n");
    exit(2);
}

static unsigned long number(const char *opt, const char *s)
{
    char *end;
    unsigned long v;

    errno = 0;
    v = strtoul(s, &end, 0);
    if (errno || end == s || *end) {
        fprintf(stderr, "guest-fuzz: %s: not a number: '%s'\n", opt, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    unsigned long seed = 1, ops = 40, limit = 60;
    bool classes[C_N] = { true, true, true, true };
    const char *disk = NULL, *cdrom = NULL;
    int dfd = -1, cfd = -1;
    struct timespec t0, t;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (!strcmp(a, "--self-test")) {
            return self_test();
        } else if (!strcmp(a, "--dry-run")) {
            dry_run = true;
        } else if (i + 1 < argc && !strcmp(a, "--seed")) {
            seed = number(a, argv[++i]);
        } else if (i + 1 < argc && !strcmp(a, "--ops")) {
            ops = number(a, argv[++i]);
        } else if (i + 1 < argc && !strcmp(a, "--time-limit")) {
            limit = number(a, argv[++i]);
        } else if (i + 1 < argc && !strcmp(a, "--classes")) {
            char *list = strdup(argv[++i]), *save = NULL;

            memset(classes, 0, sizeof(classes));
            for (char *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
                unsigned k;

                for (k = 0; k < C_N && strcmp(w, class_names[k]); k++) {
                }
                if (k == C_N) {
                    fprintf(stderr, "guest-fuzz: --classes: unknown class '%s' "
                            "(passthrough, scsi, ioctl, sysfs)\n", w);
                    exit(2);
                }
                classes[k] = true;
            }
            free(list);
        } else if (a[0] == '-') {
            usage();
        } else if (!disk) {
            disk = a;
        } else if (!cdrom) {
            cdrom = a;
        } else {
            usage();
        }
    }
    if (!disk) {
        usage();
    }
    if (!dry_run) {
        dfd = open(disk, O_RDWR | O_NONBLOCK);
        if (dfd < 0) {
            fprintf(stderr, "guest-fuzz: %s: %s\n", disk, strerror(errno));
            return 2;
        }
        if (cdrom && (cfd = open(cdrom, O_RDONLY | O_NONBLOCK)) < 0) {
            fprintf(stderr, "guest-fuzz: %s: %s\n", cdrom, strerror(errno));
            return 2;
        }
        collect_attrs("/sys/class/ata_port", true);
        collect_attrs("/sys/class/ata_link", true);
        collect_attrs("/sys/class/ata_device", true);
        collect_attrs("/sys/class/scsi_host", true);
        collect_attrs("/sys/class/scsi_device", true);
        collect_attrs("/sys/class/scsi_disk", true);
        {
            char dir[256];

            snprintf(dir, sizeof(dir), "/sys/class/block/%s/device", strrchr(disk, '/') + 1);
            collect_attrs(dir, false);
            if (cdrom) {
                snprintf(dir, sizeof(dir), "/sys/class/block/%s/device",
                         strrchr(cdrom, '/') + 1);
                collect_attrs(dir, false);
            }
        }
        qsort(attrs, n_attrs, sizeof(*attrs), cmp_str);
    }
    rng_state = seed;
    printf("guest-fuzz: seed %lu, %lu ops on %s%s%s\n", seed, ops, disk, cdrom ? " and " : "",
           cdrom ? cdrom : "");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (op_no = 1; op_no <= ops; op_no++) {
        unsigned k;
        bool on_cd = cdrom && chance(3);
        int fd = on_cd ? cfd : dfd;
        SgCall c;
        char what[200];

        clock_gettime(CLOCK_MONOTONIC, &t);
        if (!dry_run && (unsigned long)(t.tv_sec - t0.tv_sec) >= limit) {
            printf("guest-fuzz: stopped before op %u: %lu s time limit\n", op_no, limit);
            break;
        }
        do {
            k = rnd(C_N);
        } while (!classes[k]);
        switch (k) {
        case C_PT:
            if (on_cd) {        /* the CD-ROM's pass-through is SCSI's: MMC */
                draw_scsi(&c, true, what, sizeof(what));
            } else {
                draw_passthrough(&c, what, sizeof(what));
            }
            sg_send(fd, &c, what);
            break;
        case C_SCSI:
            draw_scsi(&c, on_cd, what, sizeof(what));
            sg_send(fd, &c, what);
            break;
        case C_IOCTL:
            if (chance(3)) {
                do_ioctl_in(fd, on_cd);
            } else {
                const Ioctl *io;

                do {
                    io = &ioctls[rnd(sizeof(ioctls) / sizeof(ioctls[0]))];
                } while (io->cdrom != on_cd);
                do_ioctl(fd, io);
            }
            break;
        default:
            do_sysfs();
            break;
        }
        flush_breaches();
    }
    printf("guest-fuzz: %u contract breaches\n", contract_breaches);
    return contract_breaches ? 1 : 0;
}
