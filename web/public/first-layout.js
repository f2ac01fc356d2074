// Runs before the playground's modules load (they wait for the engine, about a second): a first
// visit (no address) and a link with a comparison open on the comparison's layout from the first
// paint, so the single run's panels never flash before it. pages/playground/compare.js takes over
// body[data-compare] (and turns it off when the link's comparison cannot be read). This file only
// tests the address for a comparison and sets a fixed value: nothing from the address is used.
(function () {
  var h = location.hash.replace(/^#/, '');
  if (!h || /(^|&)compare=/.test(h)) document.body.dataset.compare = 'on';
})();
