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

typedef struct AtalabDriveConfig {
    bool present;
    uint64_t sectors;           /* capacity in 512-byte sectors */
    const char *model;          /* IDENTIFY words 27-46; NULL: default */
    const char *serial;         /* words 10-19; NULL: from the drive number */
    const char *fwrev;          /* words 23-26; NULL: default */
} AtalabDriveConfig;

#endif
