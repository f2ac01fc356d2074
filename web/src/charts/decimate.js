// What a line chart draws of a long run: at most about `max` rows, kept up to date incrementally,
// so that a redraw costs the same at step 1000 and at step 1 000 000 (the charts redraw a few
// times a second while training). Rows are grouped in buckets of `per` consecutive rows (a power
// of two); a bucket keeps its first and last row and, for each line, the rows of its smallest and
// largest value (spikes stay visible), and every row of a sparse line (evaluations). Buckets more
// than `tail` rows behind the end are final and kept; when there are too many, pairs merge (the
// min/max of two buckets are among their kept rows). An edit inside the final buckets (rare: a
// late value for an old step) starts over. No DOM (tests/node/line-chart-base.test.mjs).

/** @typedef {{xs: number[], cols: Record<string, (number|null)[]>}} Rows */

export class Decimator {
  /** @param {number} max rows drawn at most (about) @param {number} [tail] rows kept raw-bucketed at the end */
  constructor(max, tail = 2048) {
    this.max = max;
    this.tail = tail;
    this.key = '';
    this.per = 1;
    /** @type {Rows[]} the final buckets, in order */
    this.done = [];
    this.doneRows = 0; // rows of the run the final buckets cover
    /** @type {Rows|null} the final buckets joined (null: to join again) */
    this.flat = null;
  }

  /** A row at `index` was inserted or changed. @param {number} index */
  edited(index) {
    if (index < this.doneRows) this.key = ''; // starts over on the next view()
  }

  /**
   * The rows to draw of `run` for the lines `keys` (sparse[i]: keep every point of keys[i]).
   * @param {Rows} run
   * @param {string[]} keys
   * @param {boolean[]} sparse
   * @returns {Rows}
   */
  view(run, keys, sparse) {
    const n = run.xs.length;
    if (n <= this.max)
      return { xs: run.xs.slice(), cols: Object.fromEntries(keys.map((k) => [k, run.cols[k].slice()])) };
    const key = `${keys.join()}|${sparse.join()}`;
    if (key !== this.key) ((this.key = key), (this.per = 1), (this.done = []), (this.doneRows = 0), (this.flat = null));
    const buckets = Math.max(1, Math.floor(this.max / (2 + 2 * keys.length)));
    while (n / this.per > buckets) this.#double(keys, sparse);
    while (this.doneRows + this.per <= n - this.tail) {
      this.done.push(reduce(run, keys, sparse, this.doneRows, this.doneRows + this.per));
      this.doneRows += this.per;
      this.flat = null;
    }
    this.flat ??= join(this.done, keys);
    /** @type {Rows[]} */
    const parts = [this.flat];
    for (let a = this.doneRows; a < n; a += this.per)
      parts.push(reduce(run, keys, sparse, a, Math.min(n, a + this.per)));
    return join(parts, keys);
  }

  /** Buckets twice as long: merge the final ones in pairs (an odd last one goes back to raw rows). */
  /** @param {string[]} keys @param {boolean[]} sparse */
  #double(keys, sparse) {
    this.per *= 2;
    /** @type {Rows[]} */
    const merged = [];
    for (let i = 0; i + 1 < this.done.length; i += 2) {
      const [a, b] = [this.done[i], this.done[i + 1]];
      const both = {
        xs: [...a.xs, ...b.xs],
        cols: Object.fromEntries(keys.map((k) => [k, [...a.cols[k], ...b.cols[k]]])),
      };
      merged.push(reduce(both, keys, sparse, 0, both.xs.length));
    }
    this.done = merged;
    this.doneRows = merged.length * this.per;
    this.flat = null;
  }
}

/** Buckets one after the other, as one set of rows. @param {Rows[]} parts @param {string[]} keys @returns {Rows} */
function join(parts, keys) {
  return {
    xs: parts.flatMap((p) => p.xs),
    cols: Object.fromEntries(keys.map((k) => [k, parts.flatMap((p) => p.cols[k])])),
  };
}

/**
 * One bucket: the kept rows of rows [a, b) of `rows`.
 * @param {Rows} rows
 * @param {string[]} keys
 * @param {boolean[]} sparse
 * @param {number} a
 * @param {number} b
 * @returns {Rows}
 */
function reduce(rows, keys, sparse, a, b) {
  const keep = [a, b - 1];
  keys.forEach((k, i) => {
    const col = rows.cols[k];
    let lo = -1;
    let hi = -1;
    for (let r = a; r < b; r++) {
      const v = col[r];
      if (v == null) continue;
      if (sparse[i]) keep.push(r);
      if (lo < 0 || v < /** @type {number} */ (col[lo])) lo = r;
      if (hi < 0 || v > /** @type {number} */ (col[hi])) hi = r;
    }
    if (lo >= 0) keep.push(lo, hi);
  });
  const idx = [...new Set(keep)].sort((x, y) => x - y);
  return {
    xs: idx.map((r) => rows.xs[r]),
    cols: Object.fromEntries(keys.map((k) => [k, idx.map((r) => rows.cols[k][r])])),
  };
}
