// Entry of experiments.html: the experiments committed under docs/experiments/ (results.js reads
// them; experiment-view.js shows each), or in words that none is committed yet, and "Your own
// grid" (grid-builder.js). One worker pool for the page's re-runs and grids; the engine's
// registry gives the grid builder its settings (state/properties.js, as the playground's form).
import { WorkerPool } from '../../client/pool.js';
import { engineKind, engineNotice } from '../../panels/engine-notice.js';
import { loadMessages } from '../../common/messages.js';
import { buildProperties } from '../../state/properties.js';
import { injectStyles, el } from '../../demos/common.js';
import { experimentFiles, readExperiments } from './results.js';
import { experimentView } from './experiment-view.js';
import { mountGrid } from './grid-builder.js';
import '../../panels/style.css';
import '../demos/page.css';
import './experiments.css';
import registry from '../../state/registry.js';
import { currentHash } from '../../state/address.js';

const status = /** @type {HTMLElement} */ (document.getElementById('module-status'));
const main = /** @type {HTMLElement} */ (document.getElementById('demo'));
injectStyles(main);
const box = el('div', { class: 'apd xp' });
main.append(box);

const experiments = readExperiments(experimentFiles());
const pool = new WorkerPool();
const getPool = async () => pool;
box.append(
  el(
    'section',
    { class: 'apd-intro' },
    el('h2', {}, "Experiments: the source texts' claims, with seeds"),
    el(
      'p',
      {},
      'Each experiment trains a grid of small models natively, with several seeds per grid point, and commits the results: the table gives the mean ± standard deviation over the seeds, the chart every seed. The verdict says whether the claim holds at this toy scale, agrees, disagrees or is inside the noise. Re-run any row here, or build a grid of your own below.',
    ),
    experiments.length
      ? el(
          'ul',
          { class: 'xp-toc' },
          ...experiments.map((x) => el('li', {}, el('a', { href: `#x-${x.id}` }, x.def?.title ?? x.id))),
        )
      : null,
    el('p', { class: 'apd-small' }, el('a', { href: '#your-grid' }, 'Your own grid ↓')),
  ),
);
if (!experiments.length)
  box.append(
    el(
      'section',
      { class: 'apd-card xp-none' },
      el('h2', {}, 'No experiments committed yet'),
      el(
        'p',
        {},
        'The definitions and results live in ',
        el('code', {}, 'docs/experiments/'),
        ' (a definition ',
        el('code', {}, '<id>.json'),
        ', its runs ',
        el('code', {}, '<id>.csv'),
        ' and their summary ',
        el('code', {}, '<id>.summary.csv'),
        '); none is in this build. ',
        el('code', {}, 'npm run experiments'),
        ' makes them. The grid builder below works without them.',
      ),
    ),
  );
for (const ex of experiments) box.append(experimentView(ex, { pool: getPool }));
box.dataset.experiments = String(experiments.length);
// A link to one experiment (#x-<id>): its section exists only now, so scroll to it here.
const hash = currentHash();
if (/^#x-[a-z0-9-]+$/.test(hash)) document.getElementById(hash.slice(1))?.scrollIntoView();

try {
  const engine = await pool.engine();
  status.textContent = `Engine ${engine.version} · ${engineKind(engine)} (${engine.simdArch}) · ${pool.size} workers`;
  status.dataset.variant = engine.variant;
  status.dataset.ready = 'true';
  const grid = mountGrid(box, {
    pool: getPool,
    registry,
    props: buildProperties(registry),
    engine: `attnplay ${engine.version} (wasm ${engine.variant})`,
  });
  /** @type {any} */ (window).experimentsGrid = grid; // for the console and the browser tests
  window.demoPool = pool;
  await loadMessages('en', ['widget']); // the crash notice's words
  engineNotice(pool, box);
  box.dataset.ready = 'true';
  addEventListener('pagehide', () => pool.dispose());
} catch (err) {
  status.textContent = `The engine failed to load: ${/** @type {Error} */ (err).message}`;
  status.dataset.error = 'true';
  console.error(err);
}
