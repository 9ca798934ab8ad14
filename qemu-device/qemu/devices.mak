# Device configuration for atalab's qemu-system-x86_64: the q35 board, the
# atalab-ide controller, QEMU's stock PIIX IDE (for benchmarks against it)
# and isa-debug-exit.  Grafted as configs/devices/x86_64-softmmu/atalab.mak.
CONFIG_Q35=y
CONFIG_ATALAB_IDE=y
CONFIG_IDE_PIIX=y
CONFIG_ISA_DEBUG=y
