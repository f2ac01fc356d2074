// The published entry of the widget: `npm run build` writes it to dist/attention-playground.js.
// In development (`npm start`), pages load it from here as /attention-playground.js, just as a
// host page loads the built file (see web/examples/blog-post.html).
// It parses as a classic script too (no import or export statement, no import.meta): a page that
// loads it with <script src> but without type="module" would otherwise fail on a SyntaxError
// ("Private field '#e' must be declared ...") and show blank boxes. Run as a classic script
// (document.currentScript is set), it says in each <attention-playground> box, as text, how to
// fix the tag. Run as a module, it loads the widget (one small extra request).
(function () {
  var NOTE =
    'This widget could not start: the page loads attention-playground.js without type="module". ' +
    'Write the tag as <script type="module" src=".../attention-playground.js"></script>.';
  // The widget's module, relative to this file (the build writes its hashed name into dist/'s copy).
  var WIDGET = './src/widgets/attention-playground.js';
  var MOVED =
    'This widget could not load its module: attention-playground.js must stay beside its assets/ folder, ' +
    'which a bundler does not copy. Serve the package\'s dist/ folder as it is (docs/widgets.md, "Using it from HTML, a bundler, React or MDX").';
  var g = /** @type {any} */ (globalThis);
  // A sentence, as text, in each <attention-playground> box (once), and in the console.
  var say = function (/** @type {string} */ note) {
    var boxes = document.querySelectorAll('attention-playground');
    for (var i = 0; i < boxes.length; i++) {
      var box = /** @type {HTMLElement} */ (boxes[i]);
      if (box.dataset.apNote) continue;
      var p = document.createElement('p');
      p.setAttribute('role', 'alert');
      p.style.cssText =
        'display:block;margin:1em 0;padding:10px 12px;border:1px solid #f6aea9;border-radius:6px;background:#fce8e6;color:#a50e0e;font:14px/1.45 system-ui,sans-serif';
      p.textContent = note;
      box.dataset.apNote = 'module';
      box.replaceChildren(p);
    }
    console.error('attention-playground: ' + note);
  };
  var whenParsed = function (/** @type {() => void} */ f) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', f);
    else f();
  };
  if (!document.currentScript) {
    g.__attentionPlaygroundModule = true;
    // Fails when the file was moved away from its assets (a bundler that took it into its own chunk).
    import(/* @vite-ignore */ WIDGET).catch(function (e) {
      whenParsed(function () {
        say(MOVED + ' (' + String(e && e.message) + ')');
      });
    });
    return;
  }
  var explain = function () {
    // A module tag for the same widget elsewhere on the page wins (module scripts run before this).
    if (g.__attentionPlaygroundModule || customElements.get('attention-playground')) return;
    say(NOTE);
  };
  whenParsed(explain);
})();
