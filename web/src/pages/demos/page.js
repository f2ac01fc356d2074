// Entry of the demo pages (permutation.html, probe.html, extrapolation.html): starts a worker
// pool, says which engine runs, and mounts the demo module named by <body data-demo>. URL
// parameters become the demo's options: ?steps=300&autoplay=0&compact=1&encodings=rope,alibi ...
import { WorkerPool } from '../../client/pool.js';
import { engineKind, engineNotice } from '../../panels/engine-notice.js';
import { LineChart } from '../../charts/line-chart.js';
import '../../panels/style.css';
import './page.css';
import { loadMessages } from '../../common/messages.js';
import registry from '../../state/registry.js';
import { parseValue } from '../../state/fields.js';

/** @type {Record<string, () => Promise<import('../../demos/common.js').DemoModule>>} */
const DEMOS = {
  permutation: () => import('../../demos/permutation/index.js'),
  probe: () => import('../../demos/probe/index.js'),
  extrapolation: () => import('../../demos/extrapolation/index.js'),
};

const status = /** @type {HTMLElement} */ (document.getElementById('module-status'));
const name = /** @type {string} */ (document.body.dataset.demo);
const params = Object.fromEntries(new URLSearchParams(location.search));
// the page's own switches read as every boolean field is (true/1, false/0; state/fields.js)
const BOOL = /** @type {import('../../state/properties.js').Property} */ ({
  key: '',
  kind: 'bool',
  group: '',
  help: '',
  default: false,
});
const flag = (/** @type {string|undefined} */ v, /** @type {boolean} */ fallback) => {
  const r = v === undefined ? null : parseValue(BOOL, v);
  return r && 'value' in r ? Boolean(r.value) : fallback;
};

try {
  const pool = new WorkerPool(params.workers ? { size: Number(params.workers) } : {});
  // the demo's strings (the page is in English): the widget part (the shared words) and its own
  const [engine, { mount }] = await Promise.all([pool.engine(), DEMOS[name](), loadMessages('en', ['widget', name])]);
  const kind = engineKind(engine);
  status.textContent = `Engine ${engine.version} · ${kind} (${engine.simdArch}) · ${pool.size} workers`;
  status.dataset.variant = engine.variant;
  status.dataset.ready = 'true';
  const box = /** @type {HTMLElement} */ (document.getElementById('demo'));
  const demo = mount(box, {
    pool,
    registry,
    LineChart, // uPlot on the pages; the widget mounts the demos with its LightLineChart
    compact: flag(params.compact, false),
    autoplay: flag(params.autoplay, true),
    config: params,
  });
  // an option the demo could not use, named with what is allowed (the demo took its default)
  for (const r of demo.refusals) status.textContent += ` · ${r.field}=${params[r.field] ?? ''} not used: ${r.why}`;
  status.classList.toggle('wraps', demo.refusals.length > 0); // a longer line than the badge holds on a phone
  window.demo = demo; // for the console and the browser tests
  window.demoPool = pool;
  engineNotice(pool, box); // says when a worker crashed and was restarted
  addEventListener('pagehide', () => pool.dispose());
} catch (err) {
  status.textContent = `The demo failed to load: ${/** @type {Error} */ (err).message}`;
  status.dataset.error = 'true';
  console.error(err);
}
