// The pinned run's label (playground: Pin this run, then change a setting) names what differs from
// the current run, as docs/playground.md promises ("pinned: position=learned"), not every option of
// the pinned run's encoding at its default (issue 44: 3–4 lines a series, ~15 lines at 375 px).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadState } from './load.mjs';
import { withValue, differences } from '../../web/src/state/state.js';

let registry;
let props;
let base;
before(async () => {
  ({ registry, props, base } = await loadState());
});

test('a pinned RoPE run against a run without positions differs only in position', () => {
  const pinned = withValue(props, registry, base, 'position', 'rope');
  const current = withValue(props, registry, pinned, 'position', 'none');
  assert.deepEqual(differences(pinned, current, props), ['position=rope']);
});

test('a pinned ALiBi run against a learned one differs only in position', () => {
  const pinned = withValue(props, registry, base, 'position', 'alibi');
  const current = withValue(props, registry, pinned, 'position', 'learned');
  assert.deepEqual(differences(pinned, current, props), ['position=alibi']);
});

test('an option of the pinned encoding that was changed from its default is still named', () => {
  const rope = withValue(props, registry, base, 'position', 'rope');
  const pinned = withValue(props, registry, rope, 'rope_base', 500);
  const current = withValue(props, registry, pinned, 'position', 'none');
  assert.deepEqual(differences(pinned, current, props), ['position=rope', 'rope_base=500']);
});

test('an option both runs share is named when it differs', () => {
  const rope = withValue(props, registry, base, 'position', 'rope');
  const current = withValue(props, registry, rope, 'rope_base', 500);
  assert.deepEqual(differences(rope, current, props), ['rope_base=10000']);
});
