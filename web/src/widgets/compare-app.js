// The widget's comparison (compare="position=none,learned"): the shared comparison view
// (panels/compare-view.js) with the widget's light charts, and its runs (run/compare-runs.js over a
// run set) on the page's shared worker pool.
import { LightLineChart } from '../charts/light-line-chart.js';
import { CompareView } from '../panels/compare-view.js';
import { RunSet } from '../run/run-set.js';
import { CompareRuns } from '../run/compare-runs.js';
import { toConfig } from '../state/state.js';
import { hasMessage, t } from '../common/messages.js';

/**
 * Its title in its language: a hand-made preset's from the message table (`preset.<name>`), else the
 * preset's own (widget-app.js says an encoding's name the same way).
 * @param {import('./presets.js').Preset} preset @param {import('../common/messages.js').Lang} lang
 */
const titleOf = (preset, lang) => {
  const key = `preset.${preset.name}`;
  if (hasMessage(lang, key)) return t(lang, key);
  return lang === 'en' ? preset.title : t(lang, 'preset.encoding', { name: preset.name });
};

export class CompareApp extends CompareRuns {
  /**
   * @param {HTMLElement} box the widget's card, inside its shadow root
   * @param {import('./shared.js').WidgetEngine} engine
   * @param {import('./attributes.js').WidgetSettings & {preset: import('./presets.js').Preset,
   *   compare: {runs: import('../state/properties.js').State[], fields: string[]}}} settings
   */
  constructor(box, engine, settings) {
    const view = new CompareView(box, {
      pool: engine.pool,
      engineInfo: engine.info,
      LineChart: LightLineChart,
      title: titleOf(settings.preset, settings.lang ?? 'en'),
      compare: settings.compare,
      view: settings.view,
      height: settings.height,
      lang: settings.lang, // its words: the table's compare part, loaded by the element (attention-playground.js)
    });
    const { runs } = settings.compare;
    super(new RunSet(engine.pool), view, {
      configs: runs.map((st) => toConfig(engine.props, st)),
      steps: Number(runs[0].steps),
      autoplay: settings.autoplay,
    });
    this.settings = { view: settings.view }; // as the widget's apps (attention-playground.js reads nothing else)
  }
}
