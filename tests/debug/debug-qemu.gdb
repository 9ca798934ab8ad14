# The guest's first device-specific config write (the firmware's, through
# MMCONFIG), seen in the core: its offset is in the device-specific space,
# and it came through the glue's config space handler.
continue
atalab-assert addr >= 0x40 && (size == 1 || size == 2 || size == 4)
atalab-expect-frame atalab_config_write
atalab-expect-frame memory_region_dispatch_write
