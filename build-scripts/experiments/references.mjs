// build-scripts/experiments/references.mjs — what a language model's loss past its training
// length means: unigram and bigram references computed from the corpus (the text task's split: the
// first 90% of its bytes train, the last 10% are held out), and each grid point's loss on the
// tokens past L alone. The sweep measures the held-out loss averaged over a whole window of m·L
// characters (eval_loss_x<m>); for a causal model the first L positions of such a window see the
// same context as a window of L, whose loss is eval_loss, so the loss past L is estimated as
// (m · loss_xm − loss_x1) / (m − 1): exact in expectation (both are averages over random windows
// of the same held-out text), not per batch. A model worse than the unigram reference past L
// uses nothing of what came before there: it does not extrapolate.

/**
 * Cross-entropies (nats per character) of the held-out part under the training part's unigram
 * and bigram distributions, add-one smoothed over the text's alphabet.
 * @param {Uint8Array} bytes the corpus
 */
export function corpusReferences(bytes) {
  const cut = Math.floor((bytes.length * 9) / 10);
  const alphabet = new Set(bytes);
  const V = alphabet.size;
  const uni = new Float64Array(256);
  const bi = new Float64Array(256 * 256);
  for (let i = 0; i < cut; i++) {
    uni[bytes[i]]++;
    if (i > 0) bi[bytes[i - 1] * 256 + bytes[i]]++;
  }
  let hu = 0;
  let hb = 0;
  for (let i = cut; i < bytes.length; i++) {
    const c = bytes[i];
    hu -= Math.log((uni[c] + 1) / (cut + V));
    const p = bytes[i - 1];
    hb -= Math.log((bi[p * 256 + c] + 1) / (uni[p] + V));
  }
  const n = bytes.length - cut;
  return { unigram: hu / n, bigram: hb / n, heldout_chars: n, alphabet: V };
}

/**
 * Per grid point and multiple m of eval_at: the estimated loss on the tokens past L alone.
 * @param {Record<string, string>[]} summary @param {number[]} evalAt
 * @returns {{row: Record<string, string>, past: Record<number, number>}[]}
 */
export function pastL(summary, evalAt) {
  return summary.map((row) => {
    /** @type {Record<number, number>} */
    const past = {};
    for (const m of evalAt) past[m] = (m * Number(row[`eval_loss_x${m}_mean`]) - Number(row.eval_loss_mean)) / (m - 1);
    return { row, past };
  });
}
