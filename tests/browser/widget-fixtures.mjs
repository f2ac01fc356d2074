// Test pages for tests/browser/widgets.test.mjs, served next to dist/ (the widget's script comes
// from dist/, as on any host).
export const SCRIPT = '<script type="module" src="/attention-playground.js"></script>';
export const page = (body, head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">${head}${SCRIPT}</head><body>${body}</body></html>`;

export const FIXTURES = {
  // view="generate": continue a prompt with the widget's model (issue: generation).
  '/fixtures/generate.html': page('<attention-playground task="text" seq-len="16" steps="60" autoplay view="chart,generate"></attention-playground>'),
  '/fixtures/one.html': page('<attention-playground preset="sinusoidal" steps="60" autoplay></attention-playground>'),
  // Six widgets at once, in a grid, under a page stylesheet that would wreck anything it reached.
  '/fixtures/six.html': page(
    `<div class="grid">
      <attention-playground preset="playground" steps="150" height="90" autoplay view="chart"></attention-playground>
      <attention-playground preset="sinusoidal" steps="150" height="90" autoplay view="chart"></attention-playground>
      <attention-playground preset="learned" steps="150" height="90" autoplay theme="dark" view="chart"></attention-playground>
      <attention-playground preset="none" steps="150" height="90" autoplay view="chart"></attention-playground>
      <attention-playground task="reverse" position="sinusoidal" steps="150" height="90" autoplay controls="play,position"></attention-playground>
      <attention-playground task="copy" steps="150" height="90" autoplay view="chart,predictions"></attention-playground>
    </div>`,
    `<style>
      .grid { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 8px; }
      * { font-family: 'Comic Sans MS', cursive !important; color: hotpink; }
      div, section, header { border: 5px dotted lime; padding: 20px; }
      button { display: none; }
      canvas { opacity: 0.1; }
      .ap, .uplot, .ap-chart { display: none !important; }
    </style>`,
  ),
  // Bad attributes of several kinds beside one good widget.
  '/fixtures/bad.html': page(
    `<attention-playground id="bad-value" d-model="lots" autoplay></attention-playground>
     <attention-playground id="bad-preset" preset="nonsense"></attention-playground>
     <attention-playground id="bad-combo" heads="3" d-model="32"></attention-playground>
     <attention-playground id="bad-html" position="&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;" view="chart,&lt;b&gt;bold&lt;/b&gt;"></attention-playground>
     <attention-playground id="good" preset="sinusoidal" steps="60" autoplay></attention-playground>`,
    '<style>attention-playground { margin: 4px 0 !important; }</style>',
  ),
};

