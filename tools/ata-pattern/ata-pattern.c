/*
 * ata-pattern: write or verify a reproducible data pattern on a block device
 * or image file, and report the throughput.
 *
 * Every 512-byte sector holds its sector number and the seed, followed by a
 * pseudo-random stream derived from both, so a sector written to the wrong
 * place, a stale sector and a corrupted byte are all told apart.  The same
 * program runs in the guest (static binary in the initramfs, O_DIRECT) and on
 * the host (checking the image file after the guest powered off).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SECTOR 512

static void usage(void)
{
    fprintf(stderr,
            "usage: ata-pattern write|verify|read PATH [options]\n"
            "  --size BYTES     bytes to cover (default 64M; K/M/G suffix)\n"
            "  --offset BYTES   start offset (default 0, sector aligned)\n"
            "  --seed N         pattern seed (default 1)\n"
            "  --block BYTES    I/O size (default 1M)\n"
            "  --direct         O_DIRECT (bypass the page cache)\n"
            "  --no-fsync       write: no fsync at the end (the data may stay\n"
            "                   in the drive's write cache)\n"
            "  --dsync          O_DSYNC: each write is durable when it returns\n"
            "                   (FUA writes where the device has them)\n"
            "read only reads (for throughput), verify also checks.\n");
    exit(2);
}

static uint64_t parse_size(const char *opt, const char *s)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno || end == s) {
        fprintf(stderr, "ata-pattern: %s: bad size '%s'\n", opt, s);
        exit(2);
    }
    switch (*end) {
    case 'G': v <<= 10; /* fall through */
    case 'M': v <<= 10; /* fall through */
    case 'K': v <<= 10; end++; break;
    default: break;
    }
    if (*end) {
        fprintf(stderr, "ata-pattern: %s: bad size '%s'\n", opt, s);
        exit(2);
    }
    return v;
}

static void fill_sector(uint8_t *p, uint64_t lba, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL ^ (lba + 1) * 0xbf58476d1ce4e5b9ULL;
    unsigned i;

    memcpy(p, &lba, 8);
    memcpy(p + 8, &seed, 8);
    for (i = 16; i < SECTOR; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(p + i, &x, 8);
    }
}

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    uint64_t size = 64 << 20, offset = 0, seed = 1, block = 1 << 20;
    uint64_t done, first_lba, bad = 0;
    int direct = 0, dsync = 0, do_fsync = 1, fd, i;
    const char *mode, *path;
    uint8_t *buf, *want;
    double t0, dt;

    if (argc < 3) {
        usage();
    }
    mode = argv[1];
    path = argv[2];
    if (strcmp(mode, "write") && strcmp(mode, "verify") && strcmp(mode, "read")) {
        usage();
    }
    for (i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--direct")) {
            direct = 1;
        } else if (!strcmp(argv[i], "--dsync")) {
            dsync = 1;
        } else if (!strcmp(argv[i], "--no-fsync")) {
            do_fsync = 0;
        } else if (i + 1 < argc && !strcmp(argv[i], "--size")) {
            size = parse_size(argv[i], argv[i + 1]), i++;
        } else if (i + 1 < argc && !strcmp(argv[i], "--offset")) {
            offset = parse_size(argv[i], argv[i + 1]), i++;
        } else if (i + 1 < argc && !strcmp(argv[i], "--seed")) {
            seed = parse_size(argv[i], argv[i + 1]), i++;
        } else if (i + 1 < argc && !strcmp(argv[i], "--block")) {
            block = parse_size(argv[i], argv[i + 1]), i++;
        } else {
            fprintf(stderr, "ata-pattern: unknown option '%s'\n", argv[i]);
            usage();
        }
    }
    if (size % SECTOR || offset % SECTOR || !block || block % SECTOR) {
        fprintf(stderr, "ata-pattern: size, offset and block must be "
                "multiples of %d\n", SECTOR);
        return 2;
    }
    fd = open(path, (mode[0] == 'w' ? O_WRONLY | O_CREAT : O_RDONLY) |
              (direct ? O_DIRECT : 0) | (dsync ? O_DSYNC : 0), 0644);
    if (fd < 0) {
        fprintf(stderr, "ata-pattern: %s: %s\n", path, strerror(errno));
        return 1;
    }
    if (posix_memalign((void **)&buf, 4096, block) ||
        posix_memalign((void **)&want, 4096, SECTOR)) {
        fprintf(stderr, "ata-pattern: out of memory\n");
        return 1;
    }
    first_lba = offset / SECTOR;
    t0 = now();
    for (done = 0; done < size; ) {
        size_t n = size - done < block ? size - done : block;
        ssize_t r;
        uint64_t s;

        if (mode[0] == 'w') {
            for (s = 0; s < n / SECTOR; s++) {
                fill_sector(buf + s * SECTOR, first_lba + done / SECTOR + s,
                            seed);
            }
            r = pwrite(fd, buf, n, offset + done);
        } else {
            r = pread(fd, buf, n, offset + done);
        }
        if (r != (ssize_t)n) {
            fprintf(stderr, "ata-pattern: %s at offset %" PRIu64 ": %s\n",
                    mode, offset + done,
                    r < 0 ? strerror(errno) : "short transfer");
            return 1;
        }
        if (mode[0] == 'v') {
            for (s = 0; s < n / SECTOR; s++) {
                uint64_t lba = first_lba + done / SECTOR + s;

                fill_sector(want, lba, seed);
                if (memcmp(want, buf + s * SECTOR, SECTOR)) {
                    if (bad++ < 5) {
                        uint64_t got_lba;

                        memcpy(&got_lba, buf + s * SECTOR, 8);
                        fprintf(stderr, "ata-pattern: sector %" PRIu64
                                " differs (it holds sector %" PRIu64
                                "'s header)\n", lba, got_lba);
                    }
                }
            }
        }
        done += n;
    }
    if (mode[0] == 'w' && do_fsync && fsync(fd)) {
        fprintf(stderr, "ata-pattern: fsync: %s\n", strerror(errno));
        return 1;
    }
    dt = now() - t0;
    close(fd);
    if (bad) {
        fprintf(stderr, "ata-pattern: %" PRIu64 " of %" PRIu64
                " sectors differ\n", bad, size / SECTOR);
        return 1;
    }
    printf("%s %" PRIu64 " bytes in %.2f s (%.1f MB/s)%s\n", mode, size, dt,
           dt > 0 ? size / dt / 1e6 : 0.0, mode[0] == 'v' ? ", pattern ok" : "");
    return 0;
}
