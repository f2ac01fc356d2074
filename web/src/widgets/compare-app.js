// The widget's comparison (compare="position=none,learned"): the shared comparison view
// (panels/compare-view.js) with the widget's light charts, and its runs (run/compare-runs.js over a
// run set) on the page's shared worker pool.
import { LightLineChart } from '../charts/light-line-chart.js';
import { CompareView } from '../panels/compare-view.js';
import { RunSet } from '../run/run-set.js';
import { CompareRuns } from '../run/compare-runs.js';
import { toConfig } from '../state/state.js';

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
      title: settings.preset.title,
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
