# The UNC rule fires at the READ DMA that reaches its sector: the guest
# stops where the driver wrote that command.
continue
atalab-expect-stop ^fault bad ata0 d0 cmd 0xc8$
atalab-expect-pc-in iowrite8
atalab-expect-frame ata_sff_exec_command
