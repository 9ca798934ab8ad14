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
atalab-assert $_streq(mod->name, "ata_atalab")
# driver/'s module: its symbol file (the unstripped driver/ build) is loaded.
# (The skeleton has no .text symbols yet; ata_atalab's functions resolve by
# name the same way once it has them.)
python
files = [o.filename for o in gdb.objfiles() if o.filename.endswith("/ata_atalab.ko")]
if not files:
    raise gdb.GdbError("no ata_atalab.ko symbol file loaded")
gdb.write("ata_atalab symbols: %s\n" % files[0])
end
