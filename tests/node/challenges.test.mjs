// The challenges' table and checks (web/src/run/challenges.js), without a browser: the decisive
// evaluation of a batch (the first that meets the goal, at the checked length), kept settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CHALLENGES,
  challengeById,
  brokenKeeps,
  decisive,
  meets,
  challengeHash,
} from '../../web/src/run/challenges.js';

test('every challenge has a goal, a start, hints, a check and a known solution; ids are unique', () => {
  assert.ok(CHALLENGES.length >= 3 && CHALLENGES.length <= 5);
  assert.equal(new Set(CHALLENGES.map((c) => c.id)).size, CHALLENGES.length);
  for (const c of CHALLENGES) {
    assert.ok(c.title && c.goal && c.hints.length && Object.keys(c.solution).length, c.id);
    assert.ok(c.check.min > 0 && c.check.min <= 1, c.id);
    for (const k of c.keep) assert.ok(!(k in c.solution), `${c.id}: the solution must not change kept ${k}`);
    assert.match(challengeHash(c), new RegExp(`^#task=${c.start.task}&.*&challenge=${c.id}$`));
  }
  assert.equal(challengeById('order')?.id, 'order');
  assert.equal(challengeById('nope'), undefined);
});

test('the decisive evaluation: the first at the checked length that meets the goal, else the last there', () => {
  const order = /** @type {any} */ (challengeById('order'));
  const evals = [
    { step: 300, length: 8, token_accuracy: 0.97 },
    { step: 300, length: 16, token_accuracy: 0.5 },
    { step: 350, length: 8, token_accuracy: 0.99 },
  ];
  assert.equal(decisive(order, evals, 8)?.step, 300);
  assert.equal(
    decisive(
      order,
      [
        { step: 50, length: 8, token_accuracy: 0.5 },
        { step: 100, length: 8, token_accuracy: 0.6 },
      ],
      8,
    )?.step,
    100,
  );
  assert.equal(decisive(order, [{ step: 50, length: 16, token_accuracy: 1 }], 8), undefined);
  const ext = /** @type {any} */ (challengeById('extrapolate'));
  assert.equal(decisive(ext, evals, 4)?.length, 16, 'at 4 × the training length');
  assert.ok(meets(ext, { token_accuracy: 0.95 }) && !meets(ext, { token_accuracy: 0.949 }));
});

test('kept settings: the ones that changed are named with their start value', () => {
  const probe = /** @type {any} */ (challengeById('probe'));
  assert.deepEqual(brokenKeeps(probe, { ...probe.start, anchors: 'cls_sep' }), []);
  assert.deepEqual(brokenKeeps(probe, { ...probe.start, position: 'learned', normalization: 'l2' }), [
    'position = rope',
    'normalization = softmax',
  ]);
});
