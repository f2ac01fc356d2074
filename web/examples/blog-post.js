// The example post's own script (a file, not inline: the post's Content-Security-Policy allows
// scripts from the site only, as a careful blog would).
// The page starts in the reader's colour scheme; its theme switch also sets the widgets' `theme`
// attribute, so the post and its widgets always match.
const toggle = /** @type {HTMLElement} */ (document.getElementById('theme-toggle'));
/** @param {boolean} dark */
function setDark(dark) {
  document.body.classList.toggle('dark', dark);
  toggle.setAttribute('aria-pressed', String(dark));
  toggle.textContent = dark ? 'Light' : 'Dark';
  for (const w of document.querySelectorAll('attention-playground')) w.setAttribute('theme', dark ? 'dark' : 'light');
}
setDark(matchMedia('(prefers-color-scheme: dark)').matches);
toggle.addEventListener('click', () => setDark(!document.body.classList.contains('dark')));
// The iframe tells its height; fit the frame to it.
addEventListener('message', (e) => {
  const frame = /** @type {HTMLIFrameElement} */ (document.getElementById('embed-frame'));
  if (e.source === frame.contentWindow && e.data?.type === 'attention-playground:height')
    frame.height = String(e.data.height);
});
