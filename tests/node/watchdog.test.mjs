// The client's watchdog (web/src/client/watchdog.js) on a fake clock: a worker whose lock is
// released is dead at once, however long it was busy; without a lock, silence longer than the
// limit is death, and the limit grows with the longest synchronous work the worker reported;
// the time before the worker's first message, a frozen main thread or a hidden page does not
// count as the worker's silence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Watchdog, SILENT_MS } from '../../web/src/client/watchdog.js';

/** A fake clock and interval; tick(ms) advances time, running the interval every `every` ms. */
function fakeEnv({ locks = null, hidden = () => false } = {}) {
  let t = 0;
  let fn = null;
  let every = 0;
  let next = 0;
  const env = {
    now: () => t,
    locks,
    hidden,
    setInterval: (f, ms) => ((fn = f), (every = ms), (next = ms), 1),
    clearInterval: () => (fn = null),
  };
  const tick = (ms, step = every) => {
    const end = t + ms;
    while (fn && next <= end) {
      t = next;
      fn();
      next += step;
    }
    t = end;
  };
  const jump = (ms) => {
    t += ms;
    next = t;
  }; // the main thread was frozen for ms
  return { env, tick, jump };
}

/** A LockManager whose lock `name` is held until release(name). */
function fakeLocks() {
  const waiting = new Map();
  return {
    request(name, opts, cb) {
      return new Promise((resolve, reject) => {
        waiting.set(name, () => resolve(cb()));
        opts.signal?.addEventListener('abort', () =>
          reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
        );
      });
    },
    release(name) {
      waiting.get(name)?.();
    },
  };
}

test('without a lock: silent longer than SILENT_MS is dead, beats keep it alive', () => {
  const { env, tick } = fakeEnv();
  const dead = [];
  /** @type {string[]} */
  const codes = [];
  const w = new Watchdog((r) => dead.push(r.message) && codes.push(r.refusal.code), env);
  tick(60000); // the worker's script is still loading: no verdict yet
  assert.deepEqual(dead, []);
  for (let i = 0; i < 20; i++) {
    tick(1000);
    w.heard({ event: 'beat', longest: 30 });
  }
  assert.deepEqual(dead, []);
  tick(SILENT_MS - 600);
  assert.deepEqual(dead, []);
  tick(1200);
  assert.equal(dead.length, 1);
  assert.match(dead[0], /stopped responding \(no sign of life for \d+ s\)/);
  assert.equal(codes[0], 'page.worker_silent', 'the refusal crosses as a code');
  tick(20000);
  assert.equal(dead.length, 1, 'said once');
});

test('the silence limit grows with the longest synchronous work reported', () => {
  const { env, tick } = fakeEnv();
  const dead = [];
  /** @type {string[]} */
  const codes = [];
  const w = new Watchdog((r) => dead.push(r.message) && codes.push(r.refusal.code), env);
  w.heard({ event: 'beat', longest: 5000 });
  assert.equal(w.limit, 20000);
  tick(19000);
  assert.deepEqual(dead, []);
  tick(2000);
  assert.equal(dead.length, 1);
});

test("a frozen main thread or a hidden page is not the worker's silence", () => {
  let hidden = false;
  const { env, tick, jump } = fakeEnv({ hidden: () => hidden });
  const dead = [];
  /** @type {string[]} */
  const codes = [];
  const w = new Watchdog((r) => dead.push(r.message) && codes.push(r.refusal.code), env);
  w.heard({ event: 'beat', longest: 0 });
  tick(3000);
  jump(60000); // the laptop slept
  tick(3000);
  assert.deepEqual(dead, []);
  hidden = true;
  tick(60000);
  assert.deepEqual(dead, []);
  hidden = false;
  tick(SILENT_MS + 1000);
  assert.equal(dead.length, 1);
});

test('with a lock: dead when the lock is released, never for being busy', async () => {
  const locks = fakeLocks();
  const { env, tick } = fakeEnv({ locks });
  const dead = [];
  /** @type {string[]} */
  const codes = [];
  const w = new Watchdog((r) => dead.push(r.message) && codes.push(r.refusal.code), env);
  w.watchLock('engine-1');
  tick(10 * 60 * 1000); // ten minutes inside one long step: no beats, still alive
  assert.deepEqual(dead, []);
  locks.release('engine-1');
  await new Promise((r) => setImmediate(r));
  assert.equal(dead.length, 1);
  assert.match(dead[0], /worker stopped: terminated by the browser, or out of memory/);
});

test('a stopped watchdog says nothing (the worker was retired on purpose)', async () => {
  const locks = fakeLocks();
  const { env, tick } = fakeEnv({ locks });
  const dead = [];
  /** @type {string[]} */
  const codes = [];
  const w = new Watchdog((r) => dead.push(r.message) && codes.push(r.refusal.code), env);
  w.watchLock('engine-2');
  w.stop();
  locks.release('engine-2');
  tick(60000);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(dead, []);
});
