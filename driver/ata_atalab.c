// SPDX-License-Identifier: GPL-2.0-only
/*
 * ata_atalab - libata driver for Intel PIIX/ICH IDE controllers, developed
 * against the atalab emulator.
 *
 * Module skeleton: it loads and unloads and binds to nothing yet.  The
 * controller support arrives with the driver issue; until then upstream
 * ata_piix is the driver guests use.
 */

#include <linux/module.h>

static int __init ata_atalab_init(void)
{
	return 0;
}

static void __exit ata_atalab_exit(void)
{
}

module_init(ata_atalab_init);
module_exit(ata_atalab_exit);

MODULE_AUTHOR("atalab developers");
MODULE_DESCRIPTION("libata driver for Intel PIIX/ICH IDE controllers (atalab)");
MODULE_LICENSE("GPL");
