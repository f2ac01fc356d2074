// build-scripts/wasm-sizes.mjs FILE.wasm [--symbols FILE.symbols] [--top N] [--json]: what each part
// of a wasm module costs. Reads the sections, and, when the module has a name section (em++
// --profiling-funcs) or a symbol map ("index:name" lines, as wasm-split --symbolmap writes), each
// function's body size under its name; groups the functions by the source they come from (the
// GROUPS table, first match wins) and prints raw and gzipped bytes per group and the largest
// functions. A group's gzipped bytes are its bodies gzipped together: an estimate of its share.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

// [group, pattern over the (demangled) function name]
export const GROUPS = [
  ['embind glue', /emscripten::|^embind_|_embind_|EmscriptenBindingInitializer/],
  ['json (nlohmann)', /nlohmann::/],
  ['torch export', /ap::torch|core_py|snippet/i],
  ['tasks', /ap::tasks?::|Task\b|task_/],
  ['config', /ap::config|Config|validate|variants/],
  ['io (safetensors, sha256)', /safetensors|sha256|Sha256/i],
  [
    'session (cold)',
    /ap::session::(?!Session::step)|replay|snapshot|explore|generate|intervention|head_stats|HeadStats|diagnos/i,
  ],
  ['position', /ap::position|Rope|Alibi|Kerple|T5|Fire|Cope|Xpos|rotary/i],
  ['normalization', /ap::normalization|ap::norm/],
  ['kernels (tensor)', /ap::tensor|ap::kernels|gemm|xsimd|ThreadPool/i],
  ['model', /ap::model|Transformer|attention/i],
  ['optim', /ap::optim|AdamW/i],
  ['xtensor', /xt::/],
  [
    'std / libc++',
    /std::|^__|^_ZNSt|^str|^mem|^malloc|^free|^dl|printf|^sn?printf|^vfprintf|^fmt_|^pop_arg|^__cxa|^operator new|^operator delete/,
  ],
];

function leb(buf, pos) {
  let v = 0,
    shift = 0,
    b;
  do {
    b = buf[pos++];
    v += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [v, pos];
}

/** { sections: [{id, name, size}], funcs: [{name, size, start, end}] } */
export function readModule(buf, symbols = new Map()) {
  const sections = [];
  const bodies = [];
  const names = new Map(symbols);
  let imported = 0;
  let pos = 8;
  while (pos < buf.length) {
    const id = buf[pos++];
    let size;
    [size, pos] = leb(buf, pos);
    const end = pos + size;
    let name =
      [
        'custom',
        'type',
        'import',
        'function',
        'table',
        'memory',
        'global',
        'export',
        'start',
        'element',
        'code',
        'data',
        'datacount',
      ][id] ?? `id${id}`;
    if (id === 0) {
      let n, p;
      [n, p] = leb(buf, pos);
      name = `custom:${buf.subarray(p, p + n).toString()}`;
      if (name === 'custom:name') readNames(buf, p + n, end, names);
    }
    if (id === 2) imported = countFunctionImports(buf, pos);
    if (id === 10) {
      let n, p;
      [n, p] = leb(buf, pos);
      for (let i = 0; i < n; i++) {
        let s;
        [s, p] = leb(buf, p);
        bodies.push({ index: imported + i, start: p, end: p + s, size: s });
        p += s;
      }
    }
    sections.push({ id, name, size });
    pos = end;
  }
  const funcs = bodies.map((b) => ({ ...b, name: names.get(b.index) ?? `f${b.index}` }));
  return { sections, funcs };
}

function countFunctionImports(buf, pos) {
  let n,
    count = 0;
  [n, pos] = leb(buf, pos);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 2; k++) {
      let l;
      [l, pos] = leb(buf, pos);
      pos += l;
    }
    const kind = buf[pos++];
    if (kind === 0) {
      [, pos] = leb(buf, pos);
      count++;
    } else if (kind === 1) {
      pos++;
      let f;
      [f, pos] = leb(buf, pos);
      [, pos] = leb(buf, pos);
      if (f & 1) [, pos] = leb(buf, pos);
    } else if (kind === 2) {
      let f;
      [f, pos] = leb(buf, pos);
      [, pos] = leb(buf, pos);
      if (f & 1) [, pos] = leb(buf, pos);
    } else if (kind === 3) pos += 2;
    else if (kind === 4) {
      pos++;
      [, pos] = leb(buf, pos);
    }
  }
  return count;
}

function readNames(buf, pos, end, names) {
  while (pos < end) {
    const sub = buf[pos++];
    let size;
    [size, pos] = leb(buf, pos);
    if (sub === 1) {
      let n,
        p = pos;
      [n, p] = leb(buf, p);
      for (let i = 0; i < n; i++) {
        let idx, l;
        [idx, p] = leb(buf, p);
        [l, p] = leb(buf, p);
        names.set(idx, buf.subarray(p, p + l).toString());
        p += l;
      }
    }
    pos += size;
  }
}

export function groupOf(name) {
  for (const [g, re] of GROUPS) if (re.test(name)) return g;
  return 'other';
}

const gz = (b) => gzipSync(b, { level: 9 }).length;

function main() {
  const args = process.argv.slice(2);
  const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--symbols' && args[i - 1] !== '--top');
  if (!file) throw new Error('usage: wasm-sizes.mjs FILE.wasm [--top N] [--json]');
  const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 40;
  const buf = readFileSync(file);
  const at = args.indexOf('--symbols');
  const symbols = new Map();
  if (at >= 0)
    for (const line of readFileSync(args[at + 1], 'utf8').split('\n')) {
      const colon = line.indexOf(':');
      // wasm-split escapes characters as \hh: \28 is '('
      const name = line.slice(colon + 1).replace(/\\([0-9a-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
      if (colon > 0) symbols.set(Number(line.slice(0, colon)), name);
    }
  const { sections, funcs } = readModule(buf, symbols);
  const groups = new Map();
  for (const f of funcs) {
    const g = groupOf(f.name);
    if (!groups.has(g)) groups.set(g, { raw: 0, count: 0, parts: [] });
    const e = groups.get(g);
    e.raw += f.size;
    e.count++;
    e.parts.push(buf.subarray(f.start, f.end));
  }
  const rows = [...groups].map(([g, e]) => ({
    group: g,
    functions: e.count,
    raw: e.raw,
    gzip: gz(Buffer.concat(e.parts)),
  }));
  rows.sort((a, b) => b.raw - a.raw);
  const out = {
    file,
    bytes: buf.length,
    gzip: gz(buf),
    sections,
    groups: rows,
    top: [...funcs]
      .sort((a, b) => b.size - a.size)
      .slice(0, top)
      .map((f) => ({ name: f.name, size: f.size, group: groupOf(f.name) })),
  };
  if (args.includes('--json')) return console.log(JSON.stringify(out, null, 1));
  console.log(`${file}: ${out.bytes} bytes, ${out.gzip} gzipped`);
  for (const s of sections) console.log(`  section ${s.name.padEnd(28)} ${String(s.size).padStart(9)}`);
  console.log('  group                          funcs       raw   gzip(alone)');
  for (const r of rows)
    console.log(
      `  ${r.group.padEnd(28)} ${String(r.functions).padStart(7)} ${String(r.raw).padStart(9)} ${String(r.gzip).padStart(9)}`,
    );
  console.log(`  largest ${top} functions:`);
  for (const f of out.top) console.log(`  ${String(f.size).padStart(8)}  [${f.group}] ${f.name.slice(0, 140)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
