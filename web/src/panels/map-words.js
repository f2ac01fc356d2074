// The words of a map's colour scale (charts/heatmap.js) and of a figure's download control
// (panels/figure-menu.js) in one language: the message table's heatmap.* and figure.* (its widget
// part, loaded before). The position and attention panels and the probe demo pass them on.
import { t } from '../common/messages.js';

/**
 * @param {import('../common/messages.js').Lang} lang
 * @returns {{heatmap: import('../charts/heatmap.js').HeatmapWords, menu: {download: string, nothing: string, formats: string}}}
 */
export function mapWords(lang) {
  const w = (/** @type {string} */ k, /** @type {Record<string, string>} */ p = {}) => t(lang, k, p);
  return {
    heatmap: {
      signed: (/** @type {string} */ zero, /** @type {string} */ range) => w('heatmap.signed', { zero, range }),
      white: w('heatmap.white'),
      darkGrey: w('heatmap.darkGrey'),
      largestAbs: w('heatmap.largestAbs'),
      largest: w('heatmap.largest'),
      masked: (/** @type {string} */ grey) => w('heatmap.masked', { grey }),
      grey: w('heatmap.grey'),
      lightGrey: w('heatmap.lightGrey'),
    },
    menu: { download: w('figure.download'), nothing: w('figure.nothing'), formats: w('figure.formats') },
  };
}
