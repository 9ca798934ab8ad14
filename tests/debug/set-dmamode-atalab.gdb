# atalab_piix's set_dmamode (one function, atalab_piix_set_mode, serves
# set_piomode too): the call libata makes for the DMA mode is the one where
# the device's transfer mode is its DMA mode (ata_do_set_mode, step 3).
# There the mode is XFER_UDMA_2 (PIIX4, UDMA/100 disk), PIO is PIO 4.
continue
while adev->xfer_mode != adev->dma_mode
  continue
end
atalab-expect-pc-in atalab_piix_set_mode
atalab-assert adev->dma_mode == 0x42
atalab-assert adev->pio_mode == 0x0c
atalab-assert adev->devno == 0
atalab-expect-frame ata_do_set_mode
# The SET FEATURES (transfer mode) that follows, stopped by the device.
continue
atalab-expect-stop ^cmd 0xef ata0 d0$
atalab-expect-frame ata_sff_exec_command
atalab-expect-frame ata_dev_set_mode
