# ata_piix programs IDE_CONFIG for UDMA/100 at boot.
continue
atalab-expect-stop ^write cfg 0x54 2
atalab-expect-pc-in pci_conf1_write
atalab-expect-frame do_pata_set_dmamode
# The guest's wrong write (timing-violation.sh's): the PC is in the code
# that did the config write, reached from the sysfs config file.
continue
atalab-expect-stop ^write cfg 0x55 1 0x00$
atalab-expect-pc-in pci_conf1_write
atalab-expect-frame pci_user_write_config_byte
atalab-expect-frame pci_write_config
# The next Ultra DMA command breaks the timing rule: stopped where the
# driver wrote the command.
continue
atalab-expect-stop ^violation udma-timing ata0 d0$
atalab-expect-pc-in iowrite8
atalab-expect-frame ata_sff_exec_command
atalab-expect-frame ata_bmdma_qc_issue
