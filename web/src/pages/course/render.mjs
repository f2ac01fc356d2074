// A lesson file (Markdown, one per language: web/course/lessons/<slug>.<lang>.md) to HTML, at build
// time, with markdown-it (pinned in package.json). Lessons are files of this repository, never
// text from a reader, and even so their raw HTML is held to an allow-list: the widget element
// with its attributes (as a blogger writes it), <output data-fact> for a widget's live numbers,
// <aside data-check> for the lesson's check (or <aside data-quiz="bh"></aside>, lesson 6's, built
// here from the committed verdicts: bh-quiz.mjs), <figure data-seeds="ID#K"></figure> for a
// verdict's per-seed points (seeds-figure.mjs), <figure data-theta="rope-scaling"></figure> for
// lesson 4's θ′/θ bars (theta-figure.mjs), and a few inline tags. TeX between $...$ or $$...$$
// is typeset by KaTeX here, so the page runs no TeX; {{exp:...}} references become the committed
// experiments' numbers (exp-facts.mjs). Each heading gets the id s-<k> (its index: the same in
// both languages, so a reader's place survives a switch). Runs under Node (the Vite config).
import MarkdownIt from 'markdown-it';
import katex from 'katex';
import { EXP_REF, escapeHtml, fillExpFacts } from './exp-facts.mjs';
import { bhQuizHtml } from './bh-quiz.mjs';
import { seedsFigureHtml } from './seeds-figure.mjs';
import { thetaFigureHtml } from './theta-figure.mjs';

/** Raw HTML a lesson may hold: tag -> the attributes it may carry (a RegExp over the name). */
export const ALLOWED_HTML = {
  // the widget's own attributes: any lower-case name but an event handler's and HTML's global
  // attributes that style, focus or show it (docs/course.md); `id` is checked by its value (ID)
  'attention-playground':
    /^(?!on)(?!(?:style|tabindex|autofocus|popover|hidden|inert|contenteditable|draggable|accesskey|slot|part|exportparts|is|nonce|dir|title|autocapitalize|enterkeyhint|inputmode|spellcheck|translate)$)[a-z][a-z0-9-]*$/,
  output: /^(data-fact|data-metric|data-format|id)$/,
  aside: /^(data-check|data-for|data-quiz|class)$/,
  figure: /^(class|data-seeds|data-theta)$/,
  figcaption: /^class$/,
  kbd: /^$/,
  sub: /^$/,
  sup: /^$/,
  br: /^$/,
  span: /^(lang|class)$/,
};
const TAG =
  /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>|<!--[\s\S]*?-->/g;
const ATTR = /([^\s=>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
/** Attribute values that could reach a URL or a style: refused in every tag. */
const BAD_VALUE = /javascript:|data:|url\(|[<>\\]|&[#a-z]/i; // a backslash or an entity could spell either
/** An id a lesson may give: lower case, so it can never clobber a page global such as coursePage. */
const ID = /^[a-z][a-z0-9-]{0,40}$/;

/**
 * Problems with the raw HTML of one lesson's source: tags or attributes off the allow-list.
 * @param {string} source
 * @returns {string[]}
 */
export function htmlProblems(source) {
  const md = new MarkdownIt({ html: true });
  const problems = [];
  const check = (/** @type {string} */ html, /** @type {number} */ line) => {
    const rest = html.replace(TAG, (all, close, name, attrs) => {
      if (all.startsWith('<!--')) return '';
      const tag = String(name).toLowerCase();
      const allowed = /** @type {Record<string, RegExp>} */ (ALLOWED_HTML)[tag];
      if (!allowed) {
        problems.push(`line ${line}: <${tag}> is not allowed in a lesson`);
        return '';
      }
      if (close) return '';
      for (const [, a, v1, v2, v3] of String(attrs).matchAll(ATTR)) {
        const value = v1 ?? v2 ?? v3 ?? '';
        if (!allowed.test(a.toLowerCase())) problems.push(`line ${line}: <${tag} ${a}> is not allowed`);
        else if (a.toLowerCase() === 'id' && !ID.test(value))
          problems.push(`line ${line}: <${tag} id="${value.slice(0, 40)}"> is not allowed (lower case, digits and -)`);
        else if (BAD_VALUE.test(value))
          problems.push(`line ${line}: <${tag} ${a}="${value.slice(0, 40)}"> is not allowed`);
      }
      return '';
    });
    if (/[<>]/.test(rest.replace(/<\s|\s>|\s<\s/g, ''))) problems.push(`line ${line}: markup that is not a plain tag`);
  };
  const walk = (/** @type {any[]} */ tokens, /** @type {number} */ line) => {
    for (const tok of tokens) {
      const at = tok.map ? tok.map[0] + 1 : line;
      if (tok.type === 'html_block' || tok.type === 'html_inline') check(tok.content, at);
      if (tok.children) walk(tok.children, at);
    }
  };
  walk(md.parse(stash(source).text, {}), 1);
  return problems;
}

/**
 * The source with its TeX and experiment references set aside as @@k@@ markers (markdown-it would
 * read _ and * inside them as emphasis), and the list of what they stand for.
 * @param {string} source
 */
function stash(source) {
  /** @type {{kind: 'tex'|'display'|'exp', body: string}[]} */
  const items = [];
  const mark = (/** @type {'tex'|'display'|'exp'} */ kind, /** @type {string} */ body) =>
    `@@${items.push({ kind, body }) - 1}@@`;
  const text = source
    .replace(EXP_REF, (all) => mark('exp', all))
    .replace(/\$\$([\s\S]+?)\$\$/g, (_, body) => mark('display', body))
    .replace(/\$([^$\n]+?)\$/g, (_, body) => mark('tex', body));
  return { text, items };
}

/**
 * A lesson's HTML and its title (the first `# ` heading).
 * @param {string} source the Markdown
 * @param {import('../../common/messages.js').Lang} lang
 * @param {string} where the file, for the errors
 * @returns {{html: string, title: string, words: number}} words: its length in words (en) or characters (zh)
 */
export function renderLesson(source, lang, where) {
  const problems = htmlProblems(source);
  if (problems.length) throw new Error(`${where}: ${problems.join('; ')}`);
  const { text, items } = stash(source);
  const md = new MarkdownIt({ html: true, typographer: false });
  let k = 0;
  md.core.ruler.push('heading-ids', (state) => {
    for (const tok of state.tokens) if (tok.type === 'heading_open') tok.attrSet('id', `s-${k++}`);
  });
  const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? '';
  if (!title) throw new Error(`${where}: no title (a first line "# ...")`);
  const html = md.render(text).replace(/@@(\d+)@@/g, (_, i) => {
    const it = items[Number(i)];
    if (it.kind === 'exp') {
      const file = /\{\{exp:([^?#|]+)/.exec(it.body)?.[1] ?? '';
      const value = fillExpFacts(it.body, lang, where);
      return `<span class="exp-fact" title="docs/experiments/${escapeHtml(file)}">${escapeHtml(value)}</span>`;
    }
    try {
      return katex.renderToString(it.body, {
        displayMode: it.kind === 'display',
        throwOnError: true,
      });
    } catch (err) {
      throw new Error(`${where}: TeX "${it.body.slice(0, 60)}": ${/** @type {Error} */ (err).message}`);
    }
  });
  const QUIZ = /<aside data-quiz="bh"><\/aside>/g;
  const built = html
    .replace(QUIZ, () => bhQuizHtml(lang))
    .replace(/<figure data-seeds="([^"]*)"><\/figure>/g, (_, ref) => {
      try {
        return seedsFigureHtml(ref, lang);
      } catch (err) {
        throw new Error(`${where}: <figure data-seeds="${ref}">: ${/** @type {Error} */ (err).message}`);
      }
    })
    .replace(/<figure data-theta="([^"]*)"><\/figure>/g, (_, ref) => {
      try {
        return thetaFigureHtml(ref, lang);
      } catch (err) {
        throw new Error(`${where}: <figure data-theta="${ref}">: ${/** @type {Error} */ (err).message}`);
      }
    });
  if (/data-quiz=/.test(html.replace(QUIZ, '')))
    throw new Error(`${where}: a quiz is written <aside data-quiz="bh"></aside> (the only quiz)`);
  const plain = text.replace(/<[^>]*>|@@\d+@@|[#*_`>-]/g, ' ');
  const words =
    lang === 'zh' ? (plain.match(/[\u4e00-\u9fff]/g) ?? []).length : plain.split(/\s+/).filter(Boolean).length;
  return { html: built, title: title.replace(/@@\d+@@/g, ''), words };
}
