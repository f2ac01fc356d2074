// The demos' options take the config's own names (position, normalization, rope_scaling,
// rope_factor ...); the names they had before are read too, so that old links and embeds keep
// working. No DOM (tests/node/demo-lists.test.mjs reads it).

/**
 * Each demo's options under their old names (links and embeds from before the demos took the
 * config's own names): old name -> the config's name.
 * @type {Record<string, Record<string, string>>}
 */
export const OLD_OPTION_NAMES = {
  permutation: { encoding: 'position' },
  probe: { positions: 'position', normalizations: 'normalization' },
  extrapolation: { encodings: 'position', scaling: 'rope_scaling', factor: 'rope_factor' },
};

/**
 * A demo's options with the old names read as the config's (the config's name wins when both are given).
 * @param {string} demo permutation, probe or extrapolation
 * @param {Record<string, any>} cfg the options as given (URL parameters, widget attributes)
 * @returns {Record<string, any>}
 */
export function demoConfig(demo, cfg) {
  const out = { ...cfg };
  for (const [old, name] of Object.entries(OLD_OPTION_NAMES[demo] ?? {}))
    if ((out[name] === undefined || out[name] === '') && out[old] !== undefined) out[name] = out[old];
  return out;
}
