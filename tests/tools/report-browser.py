#!/usr/bin/env python3
# Open a tools/atalab trace report page in headless Chromium (Debian's
# chromium package) through the DevTools protocol on a pipe, as a person
# would: wait until it has drawn, count the command bars, click one with a
# real mouse event, zoom with the wheel, and save a screenshot.  On a page
# of two runs side by side: count the differences and marked rows, and
# click the first difference and the first marked row.  Prints one
# JSON object: how long the page took to open, the bars, script errors and
# what the click showed.  Exit 0 when the page could be driven (the caller
# judges the figures), 2 when Chromium could not.
#
# usage: report-browser.py PAGE.html [--screenshot PNG] [--no-click] [--show DRIVE SEQ]
#
# SPDX-License-Identifier: GPL-2.0-or-later
import argparse
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def chromium_binary():
    # Debian's /usr/bin/chromium is a shell script that does not keep the
    # pipe's descriptors 3 and 4 open: the binary itself does.
    for path in ('/usr/lib/chromium/chromium', shutil.which('chromium') or ''):
        if path and os.access(path, os.X_OK):
            return path
    sys.exit('report-browser: no chromium (tools/atalab setup installs it)')


class Browser:
    def __init__(self, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # Chromium reads commands from fd 3 and writes answers to fd 4: the
        # child moves its ends there (both above 4 first, so that neither
        # is overwritten by the other's move).
        hi_r = fcntl.fcntl(to_r, fcntl.F_DUPFD, 10)
        hi_w = fcntl.fcntl(from_w, fcntl.F_DUPFD, 10)
        os.close(to_r)
        os.close(from_w)

        def move_fds():
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen(
            [chromium_binary(), '--headless', '--no-sandbox', '--disable-gpu',
             '--remote-debugging-pipe', '--user-data-dir=' + profile,
             '--no-first-run', '--hide-scrollbars', 'about:blank'],
            pass_fds=(3, 4, hi_r, hi_w), preexec_fn=move_fds,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(hi_r)
        os.close(hi_w)
        self.buf = b''
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_w, json.dumps(msg).encode() + b'\0')
        return self.next_id

    def receive(self, deadline):
        while b'\0' not in self.buf:
            if time.monotonic() > deadline:
                raise TimeoutError('no answer from chromium')
            data = os.read(self.from_r, 1 << 20)
            if not data:
                raise EOFError('chromium went away')
            self.buf += data
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=60):
        want = self.send(method, params, session)
        deadline = time.monotonic() + timeout
        while True:
            msg = self.receive(deadline)
            if msg.get('id') == want:
                if 'error' in msg:
                    raise RuntimeError('%s: %s' % (method, msg['error']))
                return msg.get('result', {})
            if 'method' in msg:
                self.events.append(msg)

    def wait_event(self, name, timeout=60):
        deadline = time.monotonic() + timeout
        for i, msg in enumerate(self.events):
            if msg.get('method') == name:
                del self.events[i]
                return msg
        while True:
            msg = self.receive(deadline)
            if msg.get('method') == name:
                return msg
            if 'method' in msg:
                self.events.append(msg)

    def close(self):
        try:
            self.send('Browser.close')
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


# The first command bar that a click at its centre lands on: its centre and
# its command (the page's model row).
FIND_BAR = """(function () {
  for (const r of document.querySelectorAll('#timeline rect.cmd')) {
    const b = r.getBoundingClientRect();
    const x = b.left + b.width / 2, y = b.top + b.height / 2;
    if (document.elementFromPoint(x, y) === r) {
      return {x: x, y: y, cmd: window.atalabReport.command(
        +r.parentNode.getAttribute('data-lane'), +r.getAttribute('data-i'))};
    }
  }
  return null;
})()"""


def click_at(b, s, x, y):
    for kind in ('mouseMoved', 'mousePressed', 'mouseReleased'):
        b.call('Input.dispatchMouseEvent', {
            'type': kind, 'x': x, 'y': y, 'button': 'left',
            'buttons': 1 if kind == 'mousePressed' else 0, 'clickCount': 1}, session=s)


def pair_page(b, s, js, result):
    """Two runs side by side: the page's counts, and a click on the first
    difference of the table and on the first marked row of commands."""
    result['mode'] = 'pair'
    for k in ('diffs', 'rows', 'markedRows', 'markedDiffs'):
        result[k] = js('window.atalabReport.%s' % k)
    result['diff_rows'] = js("document.querySelectorAll('#diff-table tr.diff').length")
    result['marked_rows'] = js("document.querySelectorAll('table.aligned tr.differs').length")
    for what, sel in (('diff', '#diff-table tr.diff'), ('row', 'table.aligned tr.differs')):
        at = js("""(function () {
          const e = document.querySelector('%s');
          if (!e) { return null; }
          e.scrollIntoView({block: 'center'});
          const r = e.getBoundingClientRect();
          return {x: r.left + 10, y: r.top + r.height / 2};
        })()""" % sel)
        if not at:
            continue
        click_at(b, s, at['x'], at['y'])
        result[what + '_title'] = js("document.getElementById('detail-title').textContent")
        result[what + '_a'] = js("document.getElementById('detail-a').textContent")
        result[what + '_b'] = js("document.getElementById('detail-b').textContent")


def errors_of(events):
    """Script errors the page raised or logged."""
    out = []
    for e in events:
        m, p = e.get('method'), e.get('params', {})
        if m == 'Runtime.exceptionThrown':
            d = p.get('exceptionDetails', {})
            out.append('exception: %s %s' % (d.get('text', ''),
                       d.get('exception', {}).get('description', '')))
        elif m == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert'):
            out.append('console.%s: %s' % (p['type'], ' '.join(
                str(a.get('value', a.get('description', ''))) for a in p.get('args', []))))
        elif m == 'Log.entryAdded' and p.get('entry', {}).get('level') == 'error':
            out.append('log: %s' % p['entry'].get('text', ''))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('page')
    ap.add_argument('--screenshot')
    ap.add_argument('--no-click', action='store_true')
    ap.add_argument('--show', nargs=2, type=int, metavar=('DRIVE', 'SEQ'),
                    help="also what the page shows for that command (its own "
                    "click handler, called directly)")
    args = ap.parse_args()
    url = 'file://' + os.path.abspath(args.page)
    result = {}
    with tempfile.TemporaryDirectory(prefix='atalab-chromium.') as profile:
        b = Browser(profile)
        try:
            target = b.call('Target.createTarget', {'url': 'about:blank'})['targetId']
            s = b.call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
            for domain in ('Runtime', 'Log', 'Page'):
                b.call(domain + '.enable', session=s)
            b.call('Emulation.setDeviceMetricsOverride', {
                'width': 1400, 'height': 1000, 'deviceScaleFactor': 1, 'mobile': False}, session=s)

            def js(expr):
                r = b.call('Runtime.evaluate', {'expression': expr, 'returnByValue': True},
                           session=s)
                if 'exceptionDetails' in r:
                    raise RuntimeError('evaluate %s: %s' % (expr, r['exceptionDetails']))
                return r['result'].get('value')

            b.call('Page.navigate', {'url': url}, session=s)
            b.wait_event('Page.loadEventFired', timeout=120)
            deadline = time.monotonic() + 60
            while js("document.documentElement.getAttribute('data-ready')") != '1':
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            # Navigation start to the first drawing, as the page measured it.
            result['ready'] = js("document.documentElement.getAttribute('data-ready')") == '1'
            result['ready_ms'] = js('window.atalabReport ? window.atalabReport.readyAt : null')
            result['commands'] = js('window.atalabReport ? window.atalabReport.commands : null')
            result['records'] = js('window.atalabReport ? window.atalabReport.records : null')
            if args.show:
                js('window.atalabReport.showCommand(%d, %d)' % tuple(args.show))
                result['shown'] = js("document.getElementById('detail-records').textContent")
            if js("window.atalabReport ? window.atalabReport.mode || '' : ''") == 'pair':
                pair_page(b, s, js, result)
            result['bars'] = js("document.querySelectorAll('#timeline rect.cmd').length")
            result['fault_markers'] = js(
                "document.querySelectorAll('#timeline path.marker.fault').length")
            result['timed_out_bars'] = js(
                "document.querySelectorAll('#timeline rect.cmd.out-timed-out').length")
            if not args.no_click and result['bars']:
                # A bar not covered by another: the one a click lands on.
                js("document.getElementById('timeline').scrollIntoView()")
                target_bar = result['clicked'] = js(FIND_BAR)
                if target_bar:
                    click_at(b, s, target_bar['x'], target_bar['y'])
                    result['detail_title'] = js("document.getElementById('detail-title').textContent")
                    result['detail_records'] = js(
                        "document.getElementById('detail-records').textContent")
                    before = js('window.atalabReport.view()')
                    b.call('Input.dispatchMouseEvent', {
                        'type': 'mouseWheel', 'x': target_bar['x'], 'y': target_bar['y'],
                        'deltaX': 0, 'deltaY': -600}, session=s)
                    time.sleep(0.3)
                    after = js('window.atalabReport.view()')
                    result['view_before'] = before
                    result['view_after'] = after
                    result['bars_zoomed'] = js(
                        "document.querySelectorAll('#timeline rect.cmd').length")
                    # back to the whole run for the screenshot
                    js("document.querySelector('#controls button').click()")
                    time.sleep(0.3)
            if args.screenshot:
                shot = b.call('Page.captureScreenshot', {
                    'format': 'png', 'captureBeyondViewport': True}, session=s)
                with open(args.screenshot, 'wb') as f:
                    f.write(base64.b64decode(shot['data']))
            b.call('Runtime.evaluate', {'expression': '0'}, session=s)
            result['errors'] = errors_of(b.events)
        except (TimeoutError, EOFError, RuntimeError) as e:
            print(json.dumps({'failed': str(e)}))
            b.close()
            return 2
        b.close()
    print(json.dumps(result))
    return 0


if __name__ == '__main__':
    sys.exit(main())
