#!/usr/bin/env python3
# Read a tools/atalab trace report page with Python's own HTML and JSON
# parsers, not the page's script: the model it carries, the trace text it
# carries (compared with the trace file byte for byte: the escaping held),
# the summary table's cells, and anything the page would fetch from
# elsewhere.  Prints one JSON object of facts for the calling test.
#
# usage: report-check.py PAGE.html TRACE [TRACE_B]   (B: a page of two runs)
#
# SPDX-License-Identifier: GPL-2.0-or-later
import html.parser
import json
import sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.text = {}          # element id -> its text
        self.scripts = 0
        self.external = []      # src= / href= attributes
        self.cells = {}         # data-key -> [cell text, ...]
        self.cell_key = None
        self.capture = None
        self.differs = 0        # rows marked differs (headers side by side)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ('src', 'href'):
            if k in a:
                self.external.append('%s %s=%s' % (tag, k, a[k]))
        if tag == 'script':
            self.scripts += 1
        if a.get('id') in ('atalab-model', 'atalab-trace', 'atalab-trace-a',
                           'atalab-trace-b'):
            self.capture = a['id']
            self.text[self.capture] = []
        if tag == 'tr' and 'differs' in (a.get('class') or '').split():
            self.differs += 1
        if tag == 'td' and 'data-key' in a:
            self.cell_key = a['data-key']
            self.cells.setdefault(self.cell_key, []).append('')

    def handle_endtag(self, tag):
        if tag in ('script', 'pre'):
            self.capture = None
        if tag == 'td':
            self.cell_key = None

    def handle_data(self, data):
        if self.capture:
            self.text[self.capture].append(data)
        if self.cell_key:
            self.cells[self.cell_key][-1] += data


def main():
    page_path, traces = sys.argv[1], sys.argv[2:]
    p = Page()
    # newline='': byte for byte, a CR is not a line end here
    with open(page_path, encoding='utf-8', newline='') as f:
        p.feed(f.read())
    p.close()
    ids = ['atalab-trace'] if len(traces) == 1 else ['atalab-trace-a', 'atalab-trace-b']
    equal = True
    for path, id in zip(traces, ids):
        with open(path, encoding='utf-8', newline='') as f:
            equal = equal and ''.join(p.text.get(id, [''])) == f.read()
    model = json.loads(''.join(p.text.get('atalab-model', [''])))
    out = {
        'model': model,
        'trace_equal': equal,
        'scripts': p.scripts,
        'external': p.external,
        'cells': p.cells,
        'differs_rows': p.differs,
    }
    print(json.dumps(out))


if __name__ == '__main__':
    main()
