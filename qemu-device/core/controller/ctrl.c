/*
 * atalab emulator core: the controller -- life cycle, PCI configuration
 * registers, the wiring of each channel's ATA bus to its bus-master engine,
 * timing validation, and the one dispatch point (with its trace record) of
 * every register space.
 *
 * Configuration registers are data from the personality table; each byte
 * has a value, a reset value and a writable mask, so accesses of any size
 * at any offset work bytewise across register boundaries.  Bytes outside
 * the table are reserved: they read 0 and ignore writes (PIIX4 datasheet
 * 290562, "PCI Configuration Registers -- IDE Interface (Function 1)").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdio.h>
#include <string.h>

#include "ctrl-state.h"
#include "pci-ide-regs.h"
#include "../trace/trace.h"
#include "../trace/trace-writer.h"

static AtalabDrive *drive_at(AtalabCtrl *c, unsigned index)
{
    return &c->chan[index / 2].bus.drive[index % 2];
}

static bool has_sata(const AtalabCtrl *c)
{
    return c->pers->caps & ATALAB_CAP_SATA;
}

/* ---- hooks the ATA side calls ---------------------------------------- */

/*
 * The channel's interrupt line: what the PIIX4 sees on IRQ14/15.  The
 * engine watches it for BMISX.INTR; the host gets the level.
 */
static void hook_irq(void *opaque, unsigned channel, bool level)
{
    AtalabCtrl *c = opaque;
    const AtalabHost *h = c->host;

    atalab_trace(h, "irq%u %d", channel, level);
    atalab_bm_irq_line(&c->chan[channel].bm, level);
    if (h->set_irq) {
        h->set_irq(h->opaque, channel, level);
    }
}

/* Check a data transfer of d against the timing rules (counts, traces). */
static bool hook_check_xfer(void *opaque, const AtalabDrive *d, bool dma)
{
    AtalabXfer xfer = dma ? ATALAB_XFER_DMA : ATALAB_XFER_PIO;
    AtalabCtrl *c = opaque;
    AtalabDriveCheck *k = &c->check[d->index];
    AtalabViolation v[ATALAB_N_RULES];
    AtalabDriveMode m = {
        .pio_mode = d->pio_mode,
        .mwdma_mode = d->mwdma_mode,
        .udma_mode = d->udma_mode,
        .pio_max = ATA_PIO_MAX,
        .ata = !d->atapi,
        .sata = d->sata,
    };
    unsigned n, i;

    n = atalab_timing_check(c->pers, d->index, &k->timing, &m,
                            d->bus->cable80, xfer, v, G_N_ELEMENTS(v));
    k->xfer_checks++;
    k->violations += n;
    for (i = 0; i < n && i < G_N_ELEMENTS(v); i++) {
        k->rule_count[v[i].rule]++;
        atalab_trace(c->host, "ata%u violation d%u %s reg=%s expected=%s "
                     "actual=%s xfer=%s", d->bus->index, d->unit,
                     atalab_rule_name(v[i].rule), v[i].reg, v[i].expected,
                     v[i].actual, xfer == ATALAB_XFER_PIO ? "pio" : "dma");
        atalab_event(c->host, &(AtalabEvent) {
            .kind = ATALAB_EVENT_VIOLATION, .channel = d->bus->index,
            .drive = d->index, .name = atalab_rule_name(v[i].rule) });
    }
    /* a packet device's Error register has no ICRC bit */
    return n && c->strict && xfer == ATALAB_XFER_DMA && d->udma_mode >= 0 &&
           !d->atapi;
}

/* ---- life cycle -------------------------------------------------------- */

/*
 * ICH5 SATA: the host's drive number of port n's disk, and of the disk at
 * unit u of the PATA side (the positions MAP 000b leaves empty).
 */
#define PORT_DRIVE(n)           (2u * (n))
#define PATA_SIDE_DRIVE(u)      (2u * (u) + 1)

/* A disk of a SATA personality, kept for the positions MAP moves it to. */
static void disk_keep(AtalabCtrl *c, unsigned drive,
                      const AtalabDriveConfig *cfg)
{
    AtalabDriveConfig *k = &c->disk[drive];

    *k = *cfg;
    k->model = g_strdup(cfg->model);
    k->serial = g_strdup(cfg->serial);
    k->fwrev = g_strdup(cfg->fwrev);
}

AtalabCtrl *atalab_ctrl_new(const AtalabPersonality *personality,
                            const AtalabHost *host,
                            const AtalabDriveConfig drives[ATALAB_DRIVES])
{
    AtalabCtrl *c = g_new0(AtalabCtrl, 1);
    size_t i;
    unsigned b;

    c->pers = personality;
    /*
     * The parts trace through the inner host: its trace sink is the
     * writer, which hands the finished records to the host's.
     */
    c->inner = *host;
    if (host->trace) {
        c->writer = atalab_trace_writer_new(host);
        c->inner.trace = atalab_trace_writer_record;
        c->inner.trace_opaque = c->writer;
    }
    c->host = &c->inner;
    host = c->host;
    c->faults = atalab_faults_new(0);
    c->firmware_map = -1;
    c->firmware_ports = -1;
    c->ata_hooks = (AtalabAtaHooks) {
        .opaque = c,
        .irq = hook_irq,
        .check_xfer = hook_check_xfer,
    };
    for (i = 0; i <= personality->n_regs; i++) {
        const AtalabConfigReg *r = i < personality->n_regs ?
                                   &personality->regs[i] : &personality->pi;

        for (b = 0; b < r->size && r->offset + b < 256; b++) {
            c->cfg_reset[r->offset + b] = r->reset >> (8 * b);
            c->cfg_wmask[r->offset + b] = r->writable >> (8 * b);
        }
    }
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        AtalabChannel *ch = &c->chan[i];
        AtalabDriveConfig cfg[2] = { { .present = false }, {
            .present = false } };
        AtalabDmaClient client = {
            .opaque = &ch->bus,
            .started = atalab_ata_dma_started,
            .stopped = atalab_ata_dma_stopped,
        };

        for (b = 0; b < 2 && drives; b++) {
            cfg[b] = drives[i * 2 + b];
            /*
             * SATA: drives[] are the disks by the host's drive number
             * (PORT_DRIVE, PATA_SIDE_DRIVE), which MAP 000b puts at the
             * same positions, the PATA side's nowhere.
             */
            if (has_sata(c)) {
                disk_keep(c, i * 2 + b, &cfg[b]);
                if (atalab_personality_sata_port(personality, 0,
                                                 i * 2 + b) < 0) {
                    cfg[b].present = false;
                }
            }
        }
        for (b = 0; b < 2; b++) {
            c->route[i * 2 + b] =
                atalab_personality_sata_port(personality, 0, i * 2 + b);
        }
        ch->ctrl = c;
        atalab_bm_init(&ch->bm, i, host, &client);
        ch->bm.writer = c->writer;
        atalab_ata_bus_init(&ch->bus, i, host, &c->ata_hooks, &ch->bm.port,
                            c->faults, cfg, has_sata(c));
        ch->bus.cable80 = personality->default_cable80;
    }
    atalab_ctrl_reset(c);
    return c;
}

void atalab_ctrl_free(AtalabCtrl *c)
{
    unsigned i;

    if (!c) {
        return;
    }
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        atalab_ata_bus_fini(&c->chan[i].bus);
    }
    for (i = 0; i < G_N_ELEMENTS(c->disk); i++) {
        g_free((char *)c->disk[i].model);
        g_free((char *)c->disk[i].serial);
        g_free((char *)c->disk[i].fwrev);
    }
    atalab_trace_writer_free(c->writer);
    atalab_faults_free(c->faults);
    g_free(c);
}

/*
 * ICH5 SATA: a drive answers on its channel only while its port is enabled
 * (PCS PnE); PnP reads 1 for an enabled port with a device.  Enabling or
 * disabling a port resets its channel as a COMRESET would.
 */
static void sata_update_ports(AtalabCtrl *c)
{
    uint8_t present_bits = 0;
    unsigned i;

    if (!has_sata(c)) {
        return;
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        AtalabDrive *d = drive_at(c, i);
        int port = c->route[i];
        bool on;

        if (port < 0) {
            continue;
        }
        on = d->attached && (c->cfg[CFG_PCS] & (1u << port));
        if (on) {
            present_bits |= 1u << (PCS_PRESENT_SHIFT + port);
        }
        if (on != d->present) {
            atalab_trace(c->host, "ata%u sata-port d%u port=%d %s",
                         d->bus->index, d->unit, port, on ? "up" : "down");
            atalab_ata_set_present(d, on);
            atalab_ata_bus_power_on(d->bus);
        }
    }
    c->cfg[CFG_PCS] = (c->cfg[CFG_PCS] & PCS_ENABLE_MASK) | present_bits;
}

/*
 * ICH5 SATA MAP: put at each position what the map value gives it (a
 * port's disk, nothing, or the PATA side's disk of that unit, a PATA
 * drive present without a port).  A drive moves only when idle: no
 * command under way and nothing with the host.  Otherwise the change ends
 * what the moved drives do, once, as a power-on would, and waits
 * (map_pending): the next ATA register access applies it once they are
 * idle and no bus master is inside a guest-memory access.  (A MAP write or
 * a reset can come from a bus master's own memory access, MMCONFIG:
 * re-attaching a drive then could pull its buffers from under it.)  The moved
 * channels then reset as a COMRESET does, and their ports come up as PCS
 * enables them.
 */
static void sata_apply_map(AtalabCtrl *c)
{
    unsigned map = c->cfg[CFG_MAP] & MAP_WMASK;
    bool moved[ATALAB_DRIVES], chan_moved[ATALAB_CHANNELS] = { false };
    bool any = false, wait = false;
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        moved[i] = atalab_personality_sata_port(c->pers, map, i) !=
                   c->route[i];
        any |= moved[i];
        wait |= moved[i] && !atalab_ata_drive_idle(drive_at(c, i));
    }
    /* Nothing is re-attached from inside a bus master's memory access. */
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        wait |= c->chan[i].bm.in_host > 0;
    }
    if (!any) {
        c->map_pending = false;
        return;
    }
    if (wait) {
        for (i = 0; i < ATALAB_DRIVES && !c->map_pending; i++) {
            if (moved[i]) {
                atalab_ata_drive_release(drive_at(c, i), "power-on");
            }
        }
        c->map_pending = true;
        return;
    }
    c->map_pending = false;
    for (i = 0; i < ATALAB_DRIVES; i++) {
        int port = atalab_personality_sata_port(c->pers, map, i);
        AtalabDriveConfig none = { .present = false };
        AtalabDrive *d = drive_at(c, i);
        unsigned drive = port >= 0 ? PORT_DRIVE(port) :
                         port == ATALAB_MAP_PATA ? PATA_SIDE_DRIVE(i % 2) : i;

        if (!moved[i]) {
            continue;
        }
        if (d->present && c->route[i] >= 0) {
            atalab_trace(c->host, "ata%u sata-port d%u port=%d down", i / 2,
                         i % 2, c->route[i]);
        }
        c->route[i] = port;
        chan_moved[i / 2] = true;
        atalab_ata_drive_reattach(d->bus, d->unit,
                                  port >= 0 || port == ATALAB_MAP_PATA ?
                                  &c->disk[drive] : &none, drive,
                                  port != ATALAB_MAP_PATA);
    }
    sata_update_ports(c);
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        if (chan_moved[i]) {
            atalab_ata_bus_power_on(&c->chan[i].bus);
        }
    }
}

/*
 * Decode every drive's setting; format and trace only the drives whose
 * setting changed.
 */
static void timing_update(AtalabCtrl *c)
{
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        AtalabDriveCheck *k = &c->check[i];
        AtalabDriveTiming t;

        /* The decode clears the whole struct first: memcmp is exact. */
        atalab_timing_decode(c->pers, c->cfg, i, &t);
        if (k->timing_str[0] && !memcmp(&t, &k->timing, sizeof(t))) {
            continue;
        }
        k->timing = t;
        atalab_timing_format(&t, k->timing_str, sizeof(k->timing_str));
        atalab_trace(c->host, "ata%u timing d%u %s", i / 2, i % 2,
                     k->timing_str);
    }
}

void atalab_ctrl_reset(AtalabCtrl *c)
{
    unsigned i, b;

    atalab_trace(c->host, "cfg reset");
    memcpy(c->cfg, c->cfg_reset, sizeof(c->cfg));
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        AtalabChannel *ch = &c->chan[i];

        for (b = 0; b < 2 && has_sata(c); b++) {
            /* Ports disabled (PCS reset value); a PATA-side drive stays */
            if (ch->bus.drive[b].sata) {
                atalab_ata_set_present(&ch->bus.drive[b], false);
            }
        }
        atalab_bm_reset(&ch->bm);
        atalab_ata_bus_power_on(&ch->bus);
    }
    if (has_sata(c)) {
        sata_apply_map(c);
    }
    sata_update_ports(c);
    timing_update(c);
}

void atalab_ctrl_firmware_init(AtalabCtrl *c)
{
    unsigned i;

    /* IDE decode enable on both channels, as SeaBIOS leaves it. */
    c->cfg[CFG_IDETIM0 + 1] |= IDETIM_IDE >> 8;
    c->cfg[CFG_IDETIM1 + 1] |= IDETIM_IDE >> 8;
    /*
     * The port mapping firmware set up for (combined modes), before the
     * drives it moves are looked at.
     */
    if (has_sata(c) && c->firmware_map >= 0) {
        c->cfg[CFG_MAP] = c->firmware_map;
        sata_apply_map(c);
    }
    /*
     * The SATA ports it leaves enabled (PCS P0E/P1E of D31:F2, ICH5 252516;
     * at power-on both are off), as a board's firmware does for the ports
     * with a drive before it boots from one.
     */
    if (has_sata(c)) {
        c->cfg[CFG_PCS] |= atalab_ctrl_firmware_ports(c);
        sata_update_ports(c);
    }
    /* The channels the firmware was set up to leave in native mode. */
    for (i = 0; i < ATALAB_CHANNELS; i++) {
        if (c->firmware_native & (1u << i)) {
            c->cfg[CFG_PI] |= PI_NATIVE(i);
        }
    }
    for (i = 0; i < ATALAB_DRIVES; i++) {
        AtalabDrive *d = drive_at(c, i);

        if (!d->attached) {
            continue;
        }
        /*
         * BMISX drive DMA capable bits (PIIX4 datasheet, BMISX bits 5/6):
         * firmware that set the drive up for DMA records it there, and
         * drivers such as ata_generic read them back.
         */
        c->chan[i / 2].bm.status |= i % 2 ? BM_STAT_DMA1 : BM_STAT_DMA0;
        /*
         * ICH PATA: firmware reports the cable in IDE_CONFIG PCRx/SCRx
         * from each drive's IDENTIFY word 93 bit 13 (ICH5 IDE_CONFIG;
         * ata_piix reads it in ich_pata_cable_detect).
         */
        if ((c->pers->caps & ATALAB_CAP_ICH_CLOCKS) && !has_sata(c) &&
            d->bus->cable80) {
            c->cfg[CFG_IDE_CONFIG] |= 1u << (IDE_CONFIG_CABLE_SHIFT + i);
        }
    }
    atalab_trace(c->host, "cfg firmware-init");
    timing_update(c);
}

bool atalab_ctrl_native(const AtalabCtrl *c, unsigned channel)
{
    return channel < ATALAB_CHANNELS && (c->cfg[CFG_PI] & PI_NATIVE(channel));
}

/*
 * IDETIM.IDE enables the channel's command and control blocks wherever
 * they are: the legacy ports, or in native mode the BARs (ICH5 252516,
 * IDE_TIM bit 15; PIIX4 290562, IDETIM bit 15, has only the legacy ports).
 */
AtalabDecode atalab_ctrl_decode(const AtalabCtrl *c, unsigned channel)
{
    unsigned off = channel ? CFG_IDETIM1 : CFG_IDETIM0;

    if (channel >= ATALAB_CHANNELS || !(c->cfg[off + 1] & (IDETIM_IDE >> 8))) {
        return ATALAB_DECODE_OFF;
    }
    return atalab_ctrl_native(c, channel) ? ATALAB_DECODE_NATIVE :
                                            ATALAB_DECODE_LEGACY;
}

bool atalab_ctrl_set_firmware_native(AtalabCtrl *c, unsigned channels)
{
    unsigned i;

    for (i = 0; i < ATALAB_CHANNELS; i++) {
        if ((channels & (1u << i)) && !(c->pers->pi.writable & PI_NATIVE(i))) {
            return false;
        }
    }
    if (channels >> ATALAB_CHANNELS) {
        return false;
    }
    c->firmware_native = channels;
    return true;
}

unsigned atalab_ctrl_firmware_native(const AtalabCtrl *c)
{
    return c->firmware_native;
}

bool atalab_ctrl_set_firmware_map(AtalabCtrl *c, int map)
{
    if (map >= 0 && (!has_sata(c) || (map & ~MAP_WMASK))) {
        return false;
    }
    c->firmware_map = map;
    return true;
}

int atalab_ctrl_firmware_map(const AtalabCtrl *c)
{
    return c->firmware_map;
}

bool atalab_ctrl_set_firmware_ports(AtalabCtrl *c, int ports)
{
    if (ports < -1 || ports > PCS_ENABLE_MASK || (ports > 0 && !has_sata(c))) {
        return false;
    }
    c->firmware_ports = ports;
    return true;
}

unsigned atalab_ctrl_firmware_ports(const AtalabCtrl *c)
{
    unsigned ports;

    if (!has_sata(c)) {
        return 0;
    }
    if (c->firmware_ports >= 0) {
        return c->firmware_ports;
    }
    /* Port 0's drive is drive 0, port 1's drive 2 (ctrl-state.h). */
    ports = c->disk[0].present ? 1u : 0;
    if (c->disk[2].present) {
        ports |= 2u;
    }
    return ports;
}

/* Indexed by the channel mask. */
static const char *const ide_mode_names[1u << ATALAB_CHANNELS] = {
    "legacy", "native0", "native1", "native",
};

const char *atalab_ide_mode_name(unsigned channels)
{
    return channels < G_N_ELEMENTS(ide_mode_names) ?
           ide_mode_names[channels] : NULL;
}

bool atalab_ide_mode_parse(const char *name, unsigned *channels)
{
    unsigned i;

    for (i = 0; name && i < G_N_ELEMENTS(ide_mode_names); i++) {
        if (!strcmp(name, ide_mode_names[i])) {
            *channels = i;
            return true;
        }
    }
    return false;
}

/* ---- configuration space ---------------------------------------------- */

uint32_t atalab_ctrl_config_peek(const AtalabCtrl *c, uint32_t addr,
                                 unsigned size)
{
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < size && i < 4; i++) {
        if (addr + i < sizeof(c->cfg)) {
            v |= (uint32_t)c->cfg[addr + i] << (8 * i);
        }
    }
    return v;
}

bool atalab_ctrl_config_reg(const AtalabCtrl *c, const char *name,
                            uint32_t *value)
{
    const AtalabConfigReg *r = atalab_personality_reg(c->pers, name);

    if (!r) {
        return false;
    }
    *value = atalab_ctrl_config_peek(c, r->offset, r->size);
    return true;
}

uint32_t atalab_ctrl_config_read(AtalabCtrl *c, uint32_t addr, unsigned size)
{
    uint32_t v = atalab_ctrl_config_peek(c, addr, size);

    atalab_ctrl_trace_access(c, ATALAB_SPACE_CFG, 0, false, addr, size, v);
    return v;
}

static bool overlaps(uint32_t addr, unsigned size, unsigned first,
                     unsigned last)
{
    return addr <= last && addr + size > first;
}

void atalab_ctrl_config_write(AtalabCtrl *c, uint32_t addr, uint32_t val,
                              unsigned size)
{
    unsigned i;

    atalab_ctrl_trace_access(c, ATALAB_SPACE_CFG, 0, true, addr, size, val);
    for (i = 0; i < size && i < 4; i++) {
        uint32_t a = addr + i;
        uint8_t m;

        if (a >= sizeof(c->cfg)) {
            break;
        }
        m = c->cfg_wmask[a];
        c->cfg[a] = (c->cfg[a] & ~m) | ((val >> (8 * i)) & m);
    }
    if (overlaps(addr, size, CFG_TIMING_FIRST, CFG_TIMING_LAST)) {
        timing_update(c);
    }
    if (has_sata(c) && overlaps(addr, size, CFG_MAP, CFG_MAP)) {
        sata_apply_map(c);
    }
    if (has_sata(c) && overlaps(addr, size, CFG_PCS, CFG_PCS + 1)) {
        sata_update_ports(c);
    }
    atalab_event(c->host, &(AtalabEvent) {
        .kind = ATALAB_EVENT_CONFIG_WRITE, .drive = -1, .addr = addr,
        .size = size, .value = val });
}

/* ---- ATA and bus-master registers ------------------------------------- */

/*
 * A data port access inside a DRQ block goes to the writer's folding (a
 * write before it is carried out, a read after); any other access is one
 * access record.
 */
static bool data_access_begins(AtalabCtrl *c, unsigned channel, unsigned reg,
                               bool write, unsigned *dev, size_t *pos,
                               size_t *end)
{
    if (!c->writer || reg != ATA_REG_DATA || channel >= ATALAB_CHANNELS ||
        !atalab_ctrl_data_block(c, channel, write, dev, pos, end)) {
        return false;
    }
    atalab_trace_writer_data_access(c->writer, channel, true);
    return true;
}

/* A MAP change that waited for its drives: tried at each ATA access. */
static inline void map_retry(AtalabCtrl *c)
{
    if (G_UNLIKELY(c->map_pending)) {
        sata_apply_map(c);
    }
}

uint32_t atalab_ctrl_cmd_read(AtalabCtrl *c, unsigned channel, unsigned reg,
                              unsigned size)
{
    uint32_t v = 0xFFFFFFFFu;
    unsigned dev;
    size_t pos, end;
    bool block;

    map_retry(c);
    block = data_access_begins(c, channel, reg, false, &dev, &pos, &end);

    if (channel < ATALAB_CHANNELS && reg < 8) {
        v = atalab_ata_reg_read(&c->chan[channel].bus, reg, size);
    }
    if (size < 4) {
        v &= (1u << (8 * size)) - 1;
    }
    if (block) {
        atalab_trace_writer_data_access(c->writer, channel, false);
        atalab_trace_writer_data(c->writer, channel, dev, false, size, v,
                                 pos, end);
    } else {
        atalab_ctrl_trace_access(c, ATALAB_SPACE_ATA, channel, false, reg,
                                 size, v);
    }
    return v;
}

void atalab_ctrl_cmd_write(AtalabCtrl *c, unsigned channel, unsigned reg,
                           uint32_t val, unsigned size)
{
    unsigned dev;
    size_t pos, end;

    map_retry(c);
    if (c->writer && reg == ATA_REG_DATA && channel < ATALAB_CHANNELS &&
        atalab_ctrl_data_block(c, channel, true, &dev, &pos, &end)) {
        atalab_trace_writer_data(c->writer, channel, dev, true, size, val,
                                 pos, end);
        atalab_trace_writer_data_access(c->writer, channel, true);
        atalab_ata_reg_write(&c->chan[channel].bus, reg, val, size);
        atalab_trace_writer_data_access(c->writer, channel, false);
        return;
    }
    atalab_ctrl_trace_access(c, ATALAB_SPACE_ATA, channel, true, reg, size,
                             val);
    if (channel < ATALAB_CHANNELS && reg == ATA_REG_COMMAND) {
        bool dev1 = c->chan[channel].bus.device & ATA_DEV_DEV;

        atalab_event(c->host, &(AtalabEvent) {
            .kind = ATALAB_EVENT_COMMAND, .channel = channel,
            .drive = channel * 2 + dev1, .value = val & 0xFF });
    }
    if (channel < ATALAB_CHANNELS && reg < 8) {
        atalab_ata_reg_write(&c->chan[channel].bus, reg, val, size);
    }
}

uint32_t atalab_ctrl_ctl_read(AtalabCtrl *c, unsigned channel)
{
    uint32_t v = 0xFF;

    map_retry(c);
    if (channel < ATALAB_CHANNELS) {
        v = atalab_ata_altstatus(&c->chan[channel].bus);
    }
    atalab_ctrl_trace_access(c, ATALAB_SPACE_CTL, channel, false, 0, 1, v);
    return v;
}

void atalab_ctrl_ctl_write(AtalabCtrl *c, unsigned channel, uint32_t val)
{
    map_retry(c);
    atalab_ctrl_trace_access(c, ATALAB_SPACE_CTL, channel, true, 0, 1,
                             val & 0xFF);
    if (channel < ATALAB_CHANNELS) {
        atalab_ata_devctl_write(&c->chan[channel].bus, val);
    }
}

static uint8_t bm_read_byte(AtalabCtrl *c, uint32_t offset)
{
    if (offset >= BM_CHANNEL_SIZE * ATALAB_CHANNELS) {
        return 0;
    }
    return atalab_bm_read(&c->chan[offset / BM_CHANNEL_SIZE].bm,
                          offset % BM_CHANNEL_SIZE);
}

uint32_t atalab_ctrl_bm_read(AtalabCtrl *c, uint32_t offset, unsigned size)
{
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < size && i < 4; i++) {
        v |= (uint32_t)bm_read_byte(c, offset + i) << (8 * i);
    }
    atalab_ctrl_trace_access(c, ATALAB_SPACE_BM, 0, false, offset, size, v);
    return v;
}

void atalab_ctrl_bm_write(AtalabCtrl *c, uint32_t offset, uint32_t val,
                          unsigned size)
{
    unsigned i;

    atalab_ctrl_trace_access(c, ATALAB_SPACE_BM, 0, true, offset, size,
                             val);
    for (i = 0; i < size && i < 4; i++) {
        uint32_t o = offset + i;

        if (o < BM_CHANNEL_SIZE * ATALAB_CHANNELS) {
            atalab_bm_write(&c->chan[o / BM_CHANNEL_SIZE].bm,
                            o % BM_CHANNEL_SIZE, val >> (8 * i));
        }
    }
}

/* ---- properties and inspection ---------------------------------------- */

void atalab_ctrl_set_cable80(AtalabCtrl *c, unsigned channel, bool cable80)
{
    if (channel < ATALAB_CHANNELS) {
        c->chan[channel].bus.cable80 = cable80;
    }
}

bool atalab_ctrl_irq_level(const AtalabCtrl *c, unsigned channel)
{
    return channel < ATALAB_CHANNELS && c->chan[channel].bus.irq_level;
}

unsigned atalab_ctrl_drive_disk(const AtalabCtrl *c, unsigned position)
{
    return position < ATALAB_DRIVES ?
           c->chan[position / 2].bus.drive[position % 2].disk : position;
}

unsigned atalab_ctrl_inflight(const AtalabCtrl *c, unsigned drive)
{
    unsigned i, n = 0;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        const AtalabDrive *d = &c->chan[i / 2].bus.drive[i % 2];

        n += d->disk == drive && d->req.inflight;
    }
    return n;
}

uint8_t atalab_ctrl_drive_status(const AtalabCtrl *c, unsigned drive)
{
    return drive < ATALAB_DRIVES ?
           atalab_ata_peek_status(&c->chan[drive / 2].bus.drive[drive % 2]) :
           0x00;
}

/* The CD-ROM that is host disk number disk, where MAP puts it; or NULL. */
static AtalabDrive *cd_drive(const AtalabCtrl *c, unsigned disk)
{
    unsigned i;

    for (i = 0; i < ATALAB_DRIVES; i++) {
        const AtalabDrive *d = &c->chan[i / 2].bus.drive[i % 2];

        if (d->attached && d->atapi && d->disk == disk) {
            return (AtalabDrive *)d;
        }
    }
    return NULL;
}

bool atalab_ctrl_cd_tray(AtalabCtrl *c, unsigned disk, bool open,
                         uint64_t sectors)
{
    AtalabDrive *d = cd_drive(c, disk);

    if (disk < ATALAB_DRIVES && !open) {
        /* where MAP takes the disc next */
        c->disk[disk].sectors = sectors;
    }
    if (!d) {
        return false;
    }
    atalab_ata_cd_tray(d, open, sectors);
    return true;
}

bool atalab_ctrl_cd_eject_request(AtalabCtrl *c, unsigned disk, bool force)
{
    AtalabDrive *d = cd_drive(c, disk);

    if (d) {
        atalab_ata_cd_eject_request(d, force);
    }
    return d;
}

bool atalab_ctrl_cd_tray_open(const AtalabCtrl *c, unsigned disk)
{
    AtalabDrive *d = cd_drive(c, disk);

    return d && atalab_ata_cd_tray_open(d);
}

bool atalab_ctrl_cd_locked(const AtalabCtrl *c, unsigned disk)
{
    AtalabDrive *d = cd_drive(c, disk);

    return d && atalab_ata_cd_locked(d);
}

const AtalabPersonality *atalab_ctrl_personality(const AtalabCtrl *c)
{
    return c->pers;
}

bool atalab_ctrl_cable80(const AtalabCtrl *c, unsigned channel)
{
    return channel < ATALAB_CHANNELS && c->chan[channel].bus.cable80;
}

void atalab_ctrl_set_strict(AtalabCtrl *c, bool strict)
{
    c->strict = strict;
}

bool atalab_ctrl_timing(const AtalabCtrl *c, unsigned drive,
                        AtalabDriveTiming *t)
{
    if (drive >= ATALAB_DRIVES) {
        return false;
    }
    *t = c->check[drive].timing;
    return true;
}

const char *atalab_ctrl_timing_string(const AtalabCtrl *c, unsigned drive)
{
    return drive < ATALAB_DRIVES ? c->check[drive].timing_str : "";
}

unsigned atalab_ctrl_xfer_checks(const AtalabCtrl *c, unsigned drive)
{
    return drive < ATALAB_DRIVES ? c->check[drive].xfer_checks : 0;
}

unsigned atalab_ctrl_violations(const AtalabCtrl *c, unsigned drive)
{
    return drive < ATALAB_DRIVES ? c->check[drive].violations : 0;
}

unsigned atalab_ctrl_rule_count(const AtalabCtrl *c, unsigned drive,
                                AtalabRule rule)
{
    if (drive >= ATALAB_DRIVES || rule >= ATALAB_N_RULES) {
        return 0;
    }
    return c->check[drive].rule_count[rule];
}

AtalabFaults *atalab_ctrl_faults(AtalabCtrl *c)
{
    return c->faults;
}

void atalab_ctrl_faults_changed(AtalabCtrl *c)
{
    unsigned i;

    for (i = 0; i < ATALAB_CHANNELS; i++) {
        atalab_ata_faults_changed(&c->chan[i].bus);
    }
}

void atalab_ctrl_set_trace_data(AtalabCtrl *c, AtalabTraceData mode)
{
    if (c->writer) {
        atalab_trace_writer_set_data(c->writer, mode);
    }
}

void atalab_ctrl_set_trace_time(AtalabCtrl *c, AtalabTraceTime mode)
{
    if (c->writer) {
        atalab_trace_writer_set_time(c->writer, mode);
    }
}

void atalab_ctrl_trace_flush(AtalabCtrl *c)
{
    if (c->writer) {
        atalab_trace_writer_flush(c->writer);
    }
}

void atalab_ctrl_trace_summary(AtalabCtrl *c)
{
    unsigned i;
    int64_t t;

    atalab_ctrl_trace_flush(c);
    /*
     * Timed as the trace's latest record: when the host closes the trace
     * (QEMU: as it exits) depends on the host, not on the guest.
     */
    t = c->writer ? atalab_trace_writer_latest(c->writer) :
        atalab_now(c->host);
    for (i = 0; i < ATALAB_DRIVES; i++) {
        const AtalabDriveCheck *k = &c->check[i];

        atalab_trace_at(c->host, t, "ata%u timing-summary d%u checks=%u "
                        "violations=%u", i / 2, i % 2, k->xfer_checks,
                        k->violations);
    }
}
