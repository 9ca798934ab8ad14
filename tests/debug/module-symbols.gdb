# Each do_init_module stop comes after lx-symbols loaded the module's
# symbols: they resolve by name, at the module's relocated addresses.
continue
atalab-assert $_streq(mod->name, "ata_piix")
atalab-assert (unsigned long)&piix_set_dmamode >= (unsigned long)mod->core_layout.base
atalab-assert (unsigned long)&piix_set_dmamode < (unsigned long)mod->core_layout.base + mod->core_layout.size
atalab-assert piix_pata_ops.set_dmamode == piix_set_dmamode
python
where = gdb.execute("info symbol piix_init_one", to_string=True)
if "ata_piix.ko" not in where:
    raise gdb.GdbError("piix_init_one is not from ata_piix.ko: " + where)
end
continue
atalab-assert $_streq(mod->name, "atalab_piix")
# driver/'s module: its symbols come from the unstripped driver/ build and
# resolve at the module's relocated addresses.
atalab-assert (unsigned long)&atalab_piix_set_mode >= (unsigned long)mod->core_layout.base
atalab-assert (unsigned long)&atalab_piix_set_mode < (unsigned long)mod->core_layout.base + mod->core_layout.size
atalab-assert atalab_piix_pata_ops.set_dmamode == atalab_piix_set_mode
python
files = [o.filename for o in gdb.objfiles() if o.filename.endswith("/atalab_piix.ko")]
if not files:
    raise gdb.GdbError("no atalab_piix.ko symbol file loaded")
where = gdb.execute("info symbol atalab_piix_probe", to_string=True)
if "atalab_piix.ko" not in where:
    raise gdb.GdbError("atalab_piix_probe is not from atalab_piix.ko: " + where)
gdb.write("atalab_piix symbols: %s\n" % files[0])
end
