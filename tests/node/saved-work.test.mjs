// tests/node/saved-work.test.mjs — the saved runs' reader (state/saved-work.js validRuns): a
// record is a run only under its own key (run:<id>) and with a finite time. A record whose id
// differs from its key, or whose time is NaN, was offered again after every "Forget them"
// (forgetting goes by id and compares times).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validRuns } from '../../web/src/state/saved-work.js';

const run = (over = {}) => ({ id: 'a.b.1', tab: 'a', step: 10, task: 'copy', savedAt: 1000, ...over });

test('a saved run is read only under its own key and with a finite time', () => {
  assert.equal(validRuns([run()], ['run:a.b.1']).length, 1, 'a good record');
  assert.deepEqual(validRuns([run()], ['run:other']), [], 'its id is not its key');
  assert.deepEqual(validRuns([run({ savedAt: NaN })], ['run:a.b.1']), [], 'a NaN time');
  assert.deepEqual(validRuns([run({ savedAt: Infinity })], ['run:a.b.1']), [], 'an infinite time');
  assert.deepEqual(validRuns([run()], undefined), [], 'no keys: nothing');
  assert.deepEqual(
    validRuns([run(), run({ id: 'x' })], ['run:a.b.1', 'run:y']).map((r) => r.id),
    ['a.b.1'],
    'the good one of two',
  );
});
