// The engine's registry as the page reads it: the data written from the native build
// (registry.gen.js, build-scripts/registry.mjs), prose included. The module's own descriptions
// (a PositionDisplay's or an explore result's `describe`) carry no prose (core/common/doc.hpp):
// described() gives them the registry's by name.
import registry from './registry.gen.js';

export default registry;

/**
 * An encoding's description from the engine with the registry's title, formula, where and note.
 * @template {{name?: unknown}} D
 * @param {D} describe
 * @returns {D & {title?: string, formula?: string, where?: string, note?: string}}
 */
export function described(describe) {
  const e = registry.positions.find((x) => x.name === describe?.name);
  if (!e) return describe;
  return { ...describe, title: e.title, formula: e.formula, where: String(e.where ?? ''), note: e.note };
}
