// What connectFrame says on the host page when its frame stays silent (issue 44): an iframe without
// origin=, with a trailing slash or path in it, or with another page's origin failed silently.
// originProblem reads the frame's link as embed.js does and names what is likely wrong; a link that
// declares this page's origin has no problem. (The warning itself: widget-embed-api.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { originProblem, WARN_AFTER_MS } from '../../web/src/widgets/embed-host.js';

const HERE = 'https://blog.example';
const frame = (hash) => `https://widgets.example/embed.html#preset=rope${hash}`;

test('the link declares this page: no problem', () => {
  assert.equal(originProblem(frame(`&origin=${HERE}`), HERE), null);
  assert.equal(originProblem(frame(`&origin=${encodeURIComponent(`https://a.example,${HERE}`)}`), HERE), null);
});

test('no origin: says so and gives the origin to add', () => {
  assert.match(originProblem(frame(''), HERE), /declares no origin.*origin=https:\/\/blog\.example/);
});

test('a trailing slash or a path: says it is not an origin and which form is allowed', () => {
  for (const given of [`${HERE}/`, `${HERE}/posts`])
    assert.match(
      originProblem(frame(`&origin=${encodeURIComponent(given)}`), HERE),
      /is not an origin: write scheme:\/\/host\[:port\] with no path and no trailing slash, origin=https:\/\/blog\.example\./,
      given,
    );
});

test("another page's origin: names both", () => {
  assert.match(
    originProblem(frame('&origin=https://other.example'), HERE),
    /declares origin=https:\/\/other\.example, and this page's origin is https:\/\/blog\.example/,
  );
});

test('the warning waits a few seconds, not long', () => {
  assert.ok(WARN_AFTER_MS >= 2000 && WARN_AFTER_MS <= 10000, `${WARN_AFTER_MS} ms`);
});
