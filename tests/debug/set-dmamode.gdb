# ata_piix's set_dmamode runs with the mode libata chose (XFER_UDMA_2 on a
# PIIX4 with a UDMA/100 disk), called from ata_do_set_mode.
continue
atalab-expect-pc-in piix_set_dmamode
atalab-assert adev->dma_mode == 0x42
atalab-assert adev->devno == 0
atalab-expect-frame ata_do_set_mode
# The SET FEATURES (transfer mode) that follows, stopped by the device:
# issued from ata_dev_set_mode, written by ata_sff_exec_command.
continue
atalab-expect-stop ^cmd 0xef ata0 d0$
atalab-expect-pc-in iowrite8
atalab-expect-frame ata_sff_exec_command
atalab-expect-frame ata_dev_set_mode
