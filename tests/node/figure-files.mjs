// Readers of the figure files for the tests (tests/node/figure.test.mjs, tests/browser/figures.test.mjs,
// tests/native/cli_test.sh reads its SVG with the same python3 parser): the SVG through python3's
// XML parser (element counts by tag and class, every text), a PNG's size from its header.
import { execFileSync } from 'node:child_process';

const PY = `import sys, json, xml.etree.ElementTree as ET
root = ET.fromstring(sys.stdin.buffer.read())
ns = '{http://www.w3.org/2000/svg}'
count = {}
texts = []
for e in root.iter():
    tag = e.tag.replace(ns, '')
    key = tag + ('.' + e.get('class') if e.get('class') else '')
    count[key] = count.get(key, 0) + 1
    if tag == 'text': texts.append(e.text or '')
print(json.dumps({'root': root.tag.replace(ns, ''), 'count': count, 'texts': texts, 'width': float(root.get('width')), 'height': float(root.get('height'))}))`;

/**
 * Parse an SVG document (throws when it is not well-formed XML).
 * @param {string|Buffer} svg
 * @returns {{root: string, count: Record<string, number>, texts: string[], width: number, height: number}}
 */
export function parseSvg(svg) {
  return JSON.parse(execFileSync('python3', ['-c', PY], { input: svg }).toString());
}

/** A PNG's width and height (its IHDR chunk). @param {Buffer} b */
export function pngSize(b) {
  if (b.readUInt32BE(0) !== 0x89504e47 || b.toString('latin1', 12, 16) !== 'IHDR') throw new Error('not a PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}
