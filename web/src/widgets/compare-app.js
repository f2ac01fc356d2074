// The widget's comparison (compare="position=none,learned"): the shared comparison view
// (panels/compare-view.js) with the widget's light charts, its runs (run/run-set.js) on the page's
// shared worker pool.
import { LightLineChart } from '../charts/light-line-chart.js';
import { CompareView } from '../panels/compare-view.js';
import { RunSet } from '../run/run-set.js';

export class CompareApp extends CompareView {
  /**
   * @param {HTMLElement} box the widget's card, inside its shadow root
   * @param {import('./shared.js').WidgetEngine} engine
   * @param {import('./attributes.js').WidgetSettings & {preset: import('./presets.js').Preset,
   *   compare: {runs: import('../state/properties.js').State[], fields: string[]}}} settings
   */
  constructor(box, engine, settings) {
    super(box, {
      runs: new RunSet(engine.pool),
      props: engine.props,
      engineInfo: engine.info,
      LineChart: LightLineChart,
      title: settings.preset.title,
      compare: settings.compare,
      view: settings.view,
      height: settings.height,
      autoplay: settings.autoplay,
    });
  }
}
