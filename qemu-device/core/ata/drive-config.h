/*
 * atalab emulator core: the drive positions of a controller and what the
 * host says of each drive at creation.  Shared by the controller
 * (atalab-ctrl.h) and the ATA side (ata-device.h), which thus need not
 * include each other.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef ATALAB_DRIVE_CONFIG_H
#define ATALAB_DRIVE_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#define ATALAB_CHANNELS 2
#define ATALAB_DRIVES   4       /* channel * 2 + (0 master, 1 slave) */

/* What is attached at a drive position. */
typedef enum AtalabDriveKind {
    ATALAB_DRIVE_DISK,          /* an ATA disk */
    ATALAB_DRIVE_CD,            /* an ATAPI CD-ROM (docs/atapi.md) */
} AtalabDriveKind;

typedef struct AtalabDriveConfig {
    bool present;
    AtalabDriveKind kind;
    /*
     * Capacity in 512-byte sectors: the disk's, or the size of the disc in
     * a CD-ROM's tray (0: the tray is empty).
     */
    uint64_t sectors;
    const char *model;          /* IDENTIFY words 27-46; NULL: default */
    const char *serial;         /* words 10-19; NULL: from the drive number */
    const char *fwrev;          /* words 23-26; NULL: default */
} AtalabDriveConfig;

#endif
