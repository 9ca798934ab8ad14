/*
 * atalab trace report: the page's script (docs/trace-report.md).  It draws
 * the timeline from the model the report wrote (element atalab-model) and
 * shows a clicked item's records from the trace's text (atalab-trace).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
'use strict';
(function () {
  const SVG = 'http://www.w3.org/2000/svg';
  const LABEL_W = 150;
  const LANE_H = 20;
  const AXIS_H = 22;
  const MAX_SHOWN = 2000;
  /* the command record's fields: trace-report.c, json_cmds() */
  const C = { start: 0, end: 1, protocol: 2, outcome: 3, seq: 4, line: 5,
    endLine: 6, name: 7, params: 8, result: 9, phase: 10, bytes: 11,
    faults: 12 };
  const model = JSON.parse(document.getElementById('atalab-model').textContent);
  if (model.mode === 'pair') {
    pairView();
    return;
  }
  const traceText = document.getElementById('atalab-trace').textContent;
  const box = document.getElementById('timeline');
  const statusLine = document.getElementById('status');
  const detailTitle = document.getElementById('detail-title');
  const detailRecords = document.getElementById('detail-records');
  let lines = null;
  let selected = null;          /* {lane, index} */


  /* ---- lanes ---- */
  const lanes = [];
  model.channels.forEach(function (ch, c) {
    lanes.push({ kind: 'irq', title: ch.name + ' INTRQ', channel: c,
      items: ch.irq, repeats: ch.repeat });
    lanes.push({ kind: 'bm', title: ch.name + ' bus master', channel: c,
      items: ch.bm });
    lanes.push({ kind: 'srst', title: ch.name + ' SRST', channel: c,
      items: ch.srst });
  });
  model.drives.forEach(function (d, i) {
    if (!d.present && !d.cmds.length) {
      return;
    }
    const events = d.faults.map(function (e) { return [e[0], e[1], e[2], 'fault']; })
      .concat(d.violations.map(function (e) { return [e[0], e[1], e[2], 'violation']; }))
      .sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    lanes.push({ kind: 'cmd', title: d.name + ' commands', channel: i >> 1,
      drive: i, items: d.cmds });
    lanes.push({ kind: 'event', title: d.name + ' faults, violations',
      channel: i >> 1, drive: i, items: events });
    lanes.push({ kind: 'timing', title: d.name + ' timing', channel: i >> 1,
      drive: i, items: d.timing });
  });

  /* ---- the view: [v0, v1] ns of virtual time ---- */
  const tEnd = Math.max(model.t1, model.t0 + 1);
  let v0 = model.t0;
  let v1 = tEnd;

  function fit() {
    const pad = (tEnd - model.t0) * 0.01;
    v0 = model.t0 - pad;
    v1 = tEnd + pad;
  }

  function plotWidth() {
    return Math.max(200, box.clientWidth - LABEL_W);
  }

  function fmtTime(ns) {
    const a = Math.abs(ns);
    if (a >= 1e9) { return (ns / 1e9).toFixed(a >= 1e10 ? 2 : 3) + ' s'; }
    if (a >= 1e6) { return (ns / 1e6).toFixed(a >= 1e7 ? 2 : 3) + ' ms'; }
    if (a >= 1e3) { return (ns / 1e3).toFixed(a >= 1e4 ? 2 : 3) + ' us'; }
    return Math.round(ns) + ' ns';
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) {
      e.setAttribute(k, attrs[k]);
    }
    if (parent) {
      parent.appendChild(e);
    }
    return e;
  }

  /* ---- drawing ---- */
  let svg = null;

  function draw() {
    const W = plotWidth();
    const H = AXIS_H + lanes.length * LANE_H + 4;
    const scale = W / (v1 - v0);
    const x = function (ns) { return LABEL_W + (ns - v0) * scale; };
    const clip = function (px) { return Math.max(LABEL_W - 2, Math.min(LABEL_W + W + 2, px)); };
    const root = el('svg', { width: LABEL_W + W, height: H });
    const defs = el('defs', {}, root);
    const hatch = el('pattern', { id: 'hatch', width: 4, height: 4,
      patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
    el('rect', { width: 2, height: 4, fill: '#e15759' }, hatch);
    el('clipPath', { id: 'plot' }, defs).appendChild(
      el('rect', { x: LABEL_W, y: 0, width: W, height: H }));
    const plot = el('g', { 'clip-path': 'url(#plot)' });

    lanes.forEach(function (lane, li) {
      el('rect', { class: 'lane-bg' + (li % 2 ? ' odd' : ''), x: 0,
        y: AXIS_H + li * LANE_H, width: LABEL_W + W, height: LANE_H }, root);
    });
    /* time axis */
    const step = niceStep((v1 - v0) / (W / 110));
    for (let k = Math.ceil((v0 - model.t0) / step); ; k++) {
      const ns = model.t0 + k * step;
      if (ns > v1) { break; }
      const px = x(ns);
      el('line', { class: 'tick', x1: px, x2: px, y1: AXIS_H - 4, y2: H }, plot);
      el('text', { class: 'axis', x: px + 2, y: 12 }, plot).textContent = fmtTime(ns - model.t0);
    }
    lanes.forEach(function (lane, li) {
      const y = AXIS_H + li * LANE_H;
      el('text', { class: 'lane-label', x: 4, y: y + 14 }, root).textContent = lane.title;
      drawLane(plot, lane, li, y, x, clip);
    });
    /* controller resets across every lane */
    model.resets.forEach(function (r, i) {
      if (r[0] < v0 || r[0] > v1) { return; }
      const l = el('line', { class: 'reset-line', x1: x(r[0]), x2: x(r[0]),
        y1: AXIS_H, y2: H, 'data-lane': -1, 'data-i': i }, plot);
      el('title', {}, l).textContent = 'controller reset (line ' + r[1] + ')';
    });
    root.appendChild(plot);
    if (svg) {
      box.replaceChild(root, svg);
    } else {
      box.appendChild(root);
    }
    svg = root;
  }

  function niceStep(raw) {
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1))));
    const m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }

  /* Draw a lane's items in view. */
  function drawLane(plot, lane, li, y, x, clip) {
    const g = el('g', { 'data-lane': li }, plot);
    let last = null;            /* the last signal rect, for merging */

    if (lane.kind === 'timing') {
      lane.items.forEach(function (s, i) {
        const end = i + 1 < lane.items.length ? lane.items[i + 1][0] : tEnd;
        if (end < v0 || s[0] > v1) { return; }
        const x0 = clip(x(s[0]));
        const w = Math.max(1, clip(x(end)) - x0);
        el('rect', { class: 'timing-seg ' + (i % 2 ? 'b' : 'a'), x: x0, y: y + 2,
          width: w, height: LANE_H - 4, 'data-i': i }, g);
        if (w > s[2].length * 6.2 + 6) {
          el('text', { class: 'timing-text', x: x0 + 3, y: y + 14 }, g).textContent = s[2];
        }
      });
      return;
    }
    if (lane.kind === 'event') {
      lane.items.forEach(function (e, i) {
        if (e[0] < v0 || e[0] > v1) { return; }
        const px = x(e[0]);
        const d = e[3] === 'fault'
          ? 'M' + (px - 5) + ' ' + (y + 3) + 'h10l-5 14z'
          : 'M' + px + ' ' + (y + 2) + 'l6 8l-6 8l-6 -8z';
        el('path', { class: 'marker ' + e[3], d: d, 'data-i': i }, g);
      });
      return;
    }
    if (lane.kind === 'cmd') {
      lane.items.forEach(function (c, i) {
        if (c[C.end] < v0 || c[C.start] > v1) { return; }
        const x0 = clip(x(c[C.start]));
        const w = Math.max(1.5, clip(x(c[C.end])) - x0);
        const cls = 'cmd ' + c[C.protocol] + ' out-' + c[C.outcome] +
          (selected && selected.lane === li && selected.index === i ? ' selected' : '');
        el('rect', { class: cls, x: x0, y: y + 6, width: w, height: LANE_H - 8,
          'data-i': i }, g);
        if (c[C.outcome] !== 'ok') {
          el('rect', { class: 'outmark out-' + c[C.outcome], x: x0, y: y + 1,
            width: Math.max(w, 3), height: 4, 'data-i': i }, g);
        }
      });
      return;
    }
    /* irq, bm, srst: intervals; those closer than a pixel drawn as one */
    const draw1 = function (s, i, cls) {
      if (s[1] < v0 || s[0] > v1) { return; }
      const x0 = clip(x(s[0]));
      const x1 = Math.max(x0 + 1, clip(x(s[1])));
      if (last && last.cls === cls && x0 <= last.x1 + 0.5) {
        last.x1 = Math.max(last.x1, x1);
        last.rect.setAttribute('width', last.x1 - last.x0);
        return;
      }
      const sel = selected && selected.lane === li && selected.index === i;
      last = { cls: cls, x0: x0, x1: x1, rect: el('rect', { class: cls + (sel ? ' selected' : ''),
        x: x0, y: y + 4, width: x1 - x0, height: LANE_H - 8, 'data-i': i }, g) };
    };
    lane.items.forEach(function (s, i) {
      draw1(s, i, 'sig ' + lane.kind + (lane.kind === 'bm' && s[3] ? ' out' : ''));
    });
    (lane.repeats || []).forEach(function (s, i) {
      draw1(s, 'r' + i, 'sig repeat');
    });
  }

  /* ---- records ---- */
  function traceLines() {
    if (!lines) {
      lines = traceText.split('\n');
    }
    return lines;
  }

  /* Is the record line about channel ch (ataN, ctlN, irqN, bm chN)? */
  function onChannel(line, ch) {
    const f = line.split(' ', 4);
    const src = f[1] || '';
    if (src === 'bm') {
      /* an access: offsets 0-7 are the primary's, 8-15 the secondary's */
      return f[2] === 'r' || f[2] === 'w' ? (parseInt(f[3], 16) >= 8 ? 1 : 0) === ch
        : f[3] === 'ch' + ch;
    }
    return src === 'ata' + ch || src === 'ctl' + ch || src === 'irq' + ch || src === 'cfg';
  }

  function showRange(title, from, to, ch, mark) {
    detailTitle.textContent = title;
    detailRecords.textContent = formatRange(traceLines(), from, to, ch, mark);
  }

  /* Lines from..to of a trace (channel ch's, or all: null), numbered. */
  function formatRange(all, from, to, ch, mark) {
    const out = [];
    let skipped = 0;
    to = Math.min(to, all.length);
    for (let n = Math.max(from, 1); n <= to; n++) {
      const text = all[n - 1];
      if (!text || text[0] === '#' || (ch !== null && !onChannel(text, ch))) {
        continue;
      }
      if (out.length >= MAX_SHOWN) {
        skipped++;
        continue;
      }
      out.push((n === mark ? '>' : ' ') + String(n).padStart(7) + '  ' + text);
    }
    if (skipped) {
      out.push('... ' + skipped + ' more records of this channel up to line ' + to);
    }
    return out.join('\n');
  }

  /*
   * The lines of a command's records: from the register writes that set it
   * up (just before its cmd record) to its end, and on while the channel's
   * records still carry its seq= (a data block the writer held, the Status
   * reads that followed) up to the host's next register write.
   */
  function commandSpan(all, channel, drive, it) {
    /* seq= is followed by polls= and last= in a folded read */
    const tag = new RegExp(' seq=' + it[C.seq] + '( |$)');
    const dev = ' dev=' + (drive & 1);
    let from = it[C.line];
    let to = it[C.endLine] || all.length;
    for (let n = from - 1, k = 0; n >= 1 && k < 16; n--) {
      const text = all[n - 1];
      if (!onChannel(text, channel) || text.split(' ', 2)[1] === 'cfg') {
        continue;
      }
      if (text.split(' ', 3)[2] !== 'w' || text.indexOf(dev) < 0) {
        break;
      }
      from = n;
      k++;
    }
    for (let n = to + 1; n <= all.length && n <= to + 4000; n++) {
      const text = all[n - 1];
      if (!text || !onChannel(text, channel) || text.split(' ', 2)[1] === 'cfg') {
        continue;
      }
      if (!tag.test(text) || (text.indexOf(' dev=') >= 0 && text.indexOf(dev) < 0) ||
          text.split(' ', 3)[2] === 'w' || / cmd d[01] /.test(text)) {
        break;
      }
      to = n;
    }
    return [from, to];
  }

  function describe(lane, i) {
    const it = lane.items[i];
    if (lane.kind === 'cmd') {
      const dur = fmtTime(it[C.end] - it[C.start]);
      return lane.title.replace(' commands', '') + ' seq ' + it[C.seq] + ': ' +
        it[C.name] + (it[C.params] ? ' ' + it[C.params] : '') + ' — ' +
        (it[C.protocol] === 'none' ? 'non-data' : it[C.protocol].toUpperCase()) + ', ' +
        it[C.outcome] + (it[C.result] ? ' (' + it[C.result] + ')' : '') +
        ', ' + dur + ', ' + it[C.phase] + ' phase' +
        (it[C.bytes] ? ', ' + it[C.bytes] + ' bytes' : '') +
        (it[C.faults] ? ', ' + it[C.faults] + ' fault firing(s)' : '') +
        ' — lines ' + it[C.line] + '-' + (it[C.endLine] || 'end');
    }
    if (lane.kind === 'event') {
      return lane.title.replace(' faults, violations', '') + ' ' + it[3] + ' at ' +
        fmtTime(it[0] - model.t0) + ': ' + it[2] + ' (line ' + it[1] + ')';
    }
    if (lane.kind === 'timing') {
      return lane.title + ' from ' + fmtTime(it[0] - model.t0) + ': ' + it[3] +
        ' (line ' + it[1] + ')';
    }
    return lane.title + ' ' + fmtTime(it[0] - model.t0) + ' to ' +
      fmtTime(it[1] - model.t0) + ' (' + fmtTime(it[1] - it[0]) + ', line ' + it[2] + ')';
  }

  function show(li, i) {
    const lane = lanes[li];
    if (typeof i === 'string') {          /* a repeat span */
      const r = lane.repeats[+i.slice(1)];
      showRange(lane.title + ': ' + r[3] + ' folded cycles (line ' + r[2] + ')',
        r[2] - 20, r[2] + 2, lane.channel, r[2]);
      return;
    }
    const it = lane.items[i];
    selected = { lane: li, index: i };
    if (lane.kind === 'cmd') {
      const span = commandSpan(traceLines(), lane.channel, lane.drive, it);
      showRange(describe(lane, i), span[0], span[1], lane.channel, it[C.line]);
    } else if (lane.kind === 'event' || lane.kind === 'timing') {
      showRange(describe(lane, i), it[1] - 10, it[1] + 10, null, it[1]);
    } else {
      const end = lane.kind === 'irq' ? it[2] + 1 : it[2] + 200;
      showRange(describe(lane, i), it[2] - 15, end, lane.channel, it[2]);
    }
    draw();
  }

  function hit(target) {
    let e = target;
    while (e && e !== svg && !(e.getAttribute && e.getAttribute('data-i') !== null)) {
      e = e.parentNode;
    }
    if (!e || e === svg) {
      return null;
    }
    const g = e.parentNode;
    const li = g && g.getAttribute ? g.getAttribute('data-lane') : null;
    if (e.getAttribute('data-lane') === '-1') {
      return { reset: +e.getAttribute('data-i') };
    }
    if (li === null) {
      return null;
    }
    const raw = e.getAttribute('data-i');
    return { lane: +li, index: raw[0] === 'r' ? raw : +raw };
  }

  /* ---- interaction ---- */
  function zoomAt(px, factor) {
    const W = plotWidth();
    const at = v0 + (Math.min(Math.max(px - LABEL_W, 0), W) / W) * (v1 - v0);
    /* no closer than 50 ns, unless the view is already */
    const span = Math.max((v1 - v0) * factor, Math.min(50, v1 - v0));
    v0 = at - (at - v0) * (span / (v1 - v0));
    v1 = v0 + span;
    schedule();
  }

  let pending = false;
  function schedule() {
    if (!pending) {
      pending = true;
      requestAnimationFrame(function () { pending = false; draw(); });
    }
  }

  box.addEventListener('wheel', function (ev) {
    ev.preventDefault();
    const r = box.getBoundingClientRect();
    zoomAt(ev.clientX - r.left, Math.exp(ev.deltaY * 0.002));
  }, { passive: false });

  let drag = null;
  box.addEventListener('mousedown', function (ev) {
    drag = { x: ev.clientX, v0: v0, v1: v1, moved: false };
  });
  window.addEventListener('mousemove', function (ev) {
    if (drag) {
      const dx = ev.clientX - drag.x;
      if (Math.abs(dx) > 3) {
        drag.moved = true;
      }
      if (drag.moved) {
        const dt = dx * (drag.v1 - drag.v0) / plotWidth();
        v0 = drag.v0 - dt;
        v1 = drag.v1 - dt;
        schedule();
      }
      return;
    }
    const h = ev.target && box.contains(ev.target) ? hit(ev.target) : null;
    statusLine.textContent = h && h.lane !== undefined && typeof h.index === 'number'
      ? describe(lanes[h.lane], h.index) : '';
  });
  window.addEventListener('mouseup', function (ev) {
    const d = drag;
    drag = null;
    if (!d || d.moved) {
      return;
    }
    const h = hit(ev.target);
    if (h && h.reset !== undefined) {
      const r = model.resets[h.reset];
      showRange('controller reset at ' + fmtTime(r[0] - model.t0), r[1] - 10, r[1] + 10, null, r[1]);
    } else if (h) {
      show(h.lane, h.index);
    }
  });
  box.addEventListener('dblclick', function (ev) {
    const h = hit(ev.target);
    if (h && lanes[h.lane] && lanes[h.lane].kind === 'cmd') {
      const c = lanes[h.lane].items[h.index];
      const span = Math.max(c[C.end] - c[C.start], 1000);
      v0 = c[C.start] - span * 0.5;
      v1 = c[C.end] + span * 0.5;
      schedule();
    }
  });
  window.addEventListener('resize', schedule);

  function button(label, title, fn) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.addEventListener('click', fn);
    document.getElementById('controls').appendChild(b);
  }
  button('Fit', 'the whole run', function () { fit(); schedule(); });
  button('Zoom in', 'twice as close (or the mouse wheel)', function () {
    zoomAt(LABEL_W + plotWidth() / 2, 0.5);
  });
  button('Zoom out', 'twice as far', function () { zoomAt(LABEL_W + plotWidth() / 2, 2); });
  button('\u2190', 'earlier (or drag)', function () {
    const d = (v1 - v0) * 0.4; v0 -= d; v1 -= d; schedule();
  });
  button('\u2192', 'later (or drag)', function () {
    const d = (v1 - v0) * 0.4; v0 += d; v1 += d; schedule();
  });

  /* the legend */
  const legend = document.getElementById('legend');
  [['pio', 'PIO command'], ['dma', 'DMA command'], ['none', 'non-data command'],
    ['out-error', 'error'], ['out-aborted', 'aborted'], ['out-timed-out', 'timed out'],
    ['out-stuck', 'DMA stuck'], ['out-open', 'running at the end']].forEach(function (k) {
    const s = document.createElement('span');
    s.className = 'key';
    const i = document.createElement('i');
    i.className = k[0];
    s.appendChild(i);
    s.appendChild(document.createTextNode(k[1]));
    legend.appendChild(s);
  });
  legend.appendChild(document.createTextNode(
    'Red triangle: fault firing; amber diamond: violation, ignored write or core bug. ' +
    'Wheel: zoom; drag: pan; ' +
    'double click a command: zoom to it.'));

  const report = window.atalabReport = {
    commands: model.drives.reduce(function (n, d) { return n + d.cmds.length; }, 0),
    records: model.records,
    readyAt: 0,
    /* for tests: a lane's command, and the time in view */
    command: function (lane, i) { return lanes[lane].items[i]; },
    /* what a click on the drive's command seq shows */
    showCommand: function (drive, seq) {
      lanes.forEach(function (lane, li) {
        if (lane.kind === 'cmd' && lane.drive === drive) {
          lane.items.forEach(function (c, i) { if (c[C.seq] === seq) { show(li, i); } });
        }
      });
    },
    view: function () { return [v0, v1]; },
  };
  fit();
  draw();
  /* since the navigation began: what a person waits for */
  report.readyAt = performance.now();
  document.documentElement.setAttribute('data-ready', '1');
  /*
   * Two runs side by side (trace-report.c, trace_report_pair): the diff's
   * differences as a table, each drive's commands as the diff lined them
   * up, a row marked with the classes of the differences that fall in its
   * commands' records; a click shows the records of both runs.
   */
  function pairView() {
    const sides = { a: model.a, b: model.b };
    const lines = { a: null, b: null };
    const title = document.getElementById('detail-title');
    const pane = { a: document.getElementById('detail-a'), b: document.getElementById('detail-b') };
    const D = { cls: 0, space: 1, drive: 2, phase: 3, what: 4, a: 5, b: 6, aLine: 7, bLine: 8, detail: 9 };
    const rowsOf = [];          /* per drive: rows [a, b, [diff indices]] */
    const rowOfDiff = [];       /* per diff: [drive, row] it marks, or null */
    const report = window.atalabReport = { mode: 'pair', diffs: model.diffs.length,
      rows: 0, markedRows: 0, markedDiffs: 0, readyAt: 0 };

    function traceOf(side) {
      if (!lines[side]) {
        lines[side] = document.getElementById('atalab-trace-' + side).textContent.split('\n');
      }
      return lines[side];
    }

    /* The drive's command whose records hold line: the last one begun by then. */
    function cmdAt(cmds, line) {
      let lo = 0;
      let hi = cmds.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmds[mid][C.line] <= line) { lo = mid + 1; } else { hi = mid; }
      }
      return lo - 1;
    }

    function tag(name, cls, text) {
      const e = document.createElement(name);
      if (cls) { e.className = cls; }
      if (text !== undefined) { e.textContent = text; }
      return e;
    }

    function cmdText(c) {
      return c ? 'seq ' + c[C.seq] + ' ' + c[C.name] + (c[C.params] ? ' ' + c[C.params] : '') +
        ' \u2014 ' + c[C.outcome] + (c[C.result] ? ' (' + c[C.result] + ')' : '') : '';
    }

    /* rows, and which rows each difference marks */
    model.pairs.forEach(function (pairs, d) {
      const rowA = new Map();
      const rowB = new Map();
      rowsOf[d] = pairs.map(function (p, r) {
        if (p[0] >= 0) { rowA.set(p[0], r); }
        if (p[1] >= 0) { rowB.set(p[1], r); }
        return [p[0], p[1], []];
      });
      model.diffs.forEach(function (x, k) {
        if (x[D.drive] !== d) { return; }
        let row = -1;
        if (x[D.aLine]) {
          const i = cmdAt(sides.a.drives[d].cmds, x[D.aLine]);
          row = i >= 0 && rowA.has(i) ? rowA.get(i) : -1;
        }
        if (row < 0 && x[D.bLine]) {
          const j = cmdAt(sides.b.drives[d].cmds, x[D.bLine]);
          row = j >= 0 && rowB.has(j) ? rowB.get(j) : -1;
        }
        if (row >= 0) {
          rowsOf[d][row][2].push(k);
          rowOfDiff[k] = [d, row];
          report.markedDiffs++;
        }
      });
    });

    /* from 0: no line; what: the difference's text on that side, if any */
    function showLines(side, from, to, ch, mark, what) {
      if (!from) {
        pane[side].textContent = what === undefined || what === null
          ? '(not in ' + side.toUpperCase() + ')'
          : side.toUpperCase() + ': ' + what + '\n(the difference names no record of this run)';
        return;
      }
      pane[side].textContent = side.toUpperCase() + ': ' + sides[side].path + '\n' +
        formatRange(traceOf(side), from, to, ch, mark);
    }

    function showDiff(k) {
      const x = model.diffs[k];
      title.textContent = '#' + (k + 1) + ' ' + x[D.cls] + ', ' +
        (x[D.drive] >= 0 ? sides.a.drives[x[D.drive]].name : x[D.space]) +
        (x[D.phase] ? ', ' + x[D.phase] + ' phase' : '') + ': ' + x[D.what];
      showLines('a', x[D.aLine] && Math.max(1, x[D.aLine] - 8), x[D.aLine] + 8, null, x[D.aLine], x[D.a]);
      showLines('b', x[D.bLine] && Math.max(1, x[D.bLine] - 8), x[D.bLine] + 8, null, x[D.bLine], x[D.b]);
    }

    function showRow(d, r) {
      const row = rowsOf[d][r];
      title.textContent = sides.a.drives[d].name + ', row ' + (r + 1) +
        (row[2].length ? ': ' + row[2].map(function (k) {
          return '#' + (k + 1) + ' ' + model.diffs[k][D.cls] + ' ' + model.diffs[k][D.what];
        }).join('; ') : ': no difference');
      ['a', 'b'].forEach(function (side, n) {
        const c = row[n] >= 0 ? sides[side].drives[d].cmds[row[n]] : null;
        if (!c) {
          showLines(side, 0);
          return;
        }
        const span = commandSpan(traceOf(side), d >> 1, d, c);
        showLines(side, span[0], span[1], d >> 1, c[C.line]);
      });
    }

    /* the differences */
    const list = document.getElementById('diff-list');
    if (!model.diffs.length) {
      list.appendChild(tag('p', null, 'None: the runs are the same' +
        (model.ignored.length ? ' but for what is ignored (' + model.ignored.join(', ') + ')' : '') + '.'));
    } else {
      const t = tag('table', 'diffs');
      t.id = 'diff-table';
      const head = tag('tr');
      ['#', 'class', 'where', 'what', 'A', 'B', 'row'].forEach(function (h) { head.appendChild(tag('th', null, h)); });
      t.appendChild(head);
      model.diffs.forEach(function (x, k) {
        const tr = tag('tr', 'diff cls-' + x[D.cls]);
        const where = x[D.space] + (x[D.drive] >= 0 ? ' ' + sides.a.drives[x[D.drive]].name.split(' ')[1] : '') +
          (x[D.phase] ? ', ' + x[D.phase] : '');
        const at = rowOfDiff[k];
        [String(k + 1), x[D.cls], where, x[D.what] + (x[D.detail].length ? ' \u2014 ' + x[D.detail].join('; ') : ''),
          x[D.a] === null ? '(none)' : x[D.a], x[D.b] === null ? '(none)' : x[D.b],
          at ? sides.a.drives[at[0]].name + ' #' + (at[1] + 1) : ''].forEach(function (v) {
          tr.appendChild(tag('td', null, v));
        });
        tr.setAttribute('data-k', k);
        tr.addEventListener('click', function () { showDiff(k); });
        t.appendChild(tr);
      });
      list.appendChild(t);
    }

    /* the commands, lined up; long stretches without a difference folded */
    const aligned = document.getElementById('aligned-list');
    const KEEP = 2;
    rowsOf.forEach(function (rows, d) {
      if (!rows.length) { return; }
      aligned.appendChild(tag('h3', null, sides.a.drives[d].name + ': ' + rows.length + ' rows'));
      const t = tag('table', 'aligned');
      const head = tag('tr');
      ['#', 'A', 'differences', 'B'].forEach(function (h) { head.appendChild(tag('th', null, h)); });
      t.appendChild(head);
      const plain = function (r) { return rows[r][0] >= 0 && rows[r][1] >= 0 && !rows[r][2].length; };
      let r = 0;
      while (r < rows.length) {
        let end = r;
        while (end < rows.length && plain(end)) { end++; }
        if (end - r > 2 * KEEP + 2) {
          for (let i = r; i < r + KEEP; i++) { t.appendChild(rowElement(d, i)); }
          const fold = tag('tr', 'fold');
          const td = tag('td', null, '\u2026 ' + (end - r - 2 * KEEP) + ' rows the same in both runs (click to show)');
          td.colSpan = 4;
          fold.appendChild(td);
          const hidden = [];
          for (let i = r + KEEP; i < end - KEEP; i++) {
            const e = rowElement(d, i);
            e.hidden = true;
            hidden.push(e);
            t.appendChild(e);
          }
          fold.addEventListener('click', function () {
            hidden.forEach(function (e) { e.hidden = false; });
            fold.remove();
          });
          hidden[0].before(fold);
          for (let i = end - KEEP; i < end; i++) { t.appendChild(rowElement(d, i)); }
          r = end;
        } else if (end > r) {
          for (let i = r; i < end; i++) { t.appendChild(rowElement(d, i)); }
          r = end;
        } else {
          t.appendChild(rowElement(d, r));
          r++;
        }
      }
      aligned.appendChild(t);
      report.rows += rows.length;
    });

    function rowElement(d, r) {
      const row = rowsOf[d][r];
      const a = row[0] >= 0 ? sides.a.drives[d].cmds[row[0]] : null;
      const b = row[1] >= 0 ? sides.b.drives[d].cmds[row[1]] : null;
      const tr = tag('tr', 'row' + (row[2].length ? ' differs' : '') + (!a ? ' only-b' : '') + (!b ? ' only-a' : ''));
      const classes = Array.from(new Set(row[2].map(function (k) { return model.diffs[k][D.cls]; })));
      tr.appendChild(tag('td', null, String(r + 1)));
      tr.appendChild(tag('td', a ? 'cmd-a ' + a[C.protocol] : 'cmd-a', a ? cmdText(a) : '(only in B)'));
      tr.appendChild(tag('td', 'marks', classes.join(', ')));
      tr.appendChild(tag('td', b ? 'cmd-b ' + b[C.protocol] : 'cmd-b', b ? cmdText(b) : '(only in A)'));
      tr.setAttribute('data-drive', d);
      tr.setAttribute('data-row', r);
      tr.addEventListener('click', function () { showRow(d, r); });
      if (row[2].length) { report.markedRows++; }
      return tr;
    }

    report.readyAt = performance.now();
    document.documentElement.setAttribute('data-ready', '1');
  }
}());
