// The one message table of the course and of the widgets' visible strings: every key holds its
// English and its Simplified Chinese text. A string is looked up with t(lang, key, params), where
// {name} in the text is replaced by params.name (as text: callers put it into the page with
// textContent, never as markup). The table is kept in four files by who loads it, so that a
// widget downloads only its own strings: this one (the widget, its settings, the demos' shared
// words), messages-positions.js (the position panel), messages-permutation.js (the permutation
// demo) and messages-course.js (the course's pages); a part is passed as t's `part` (its keys
// first, then this file's). One key lives in one
// file. tests/node/course.test.mjs fails when a key lacks a language, when the two texts of a key
// use different {placeholders}, or when the code looks up a key no part has. No DOM here (common/
// is the lowest leaf).

/** @typedef {'en'|'zh'} Lang */
/** The languages, in the order the switch shows them. @type {Lang[]} */
export const LANGS = ['en', 'zh'];

/** Each language's name in itself, for the switch. @type {Record<Lang, string>} */
export const LANG_NAMES = { en: 'English', zh: '中文' };

/** Each language's BCP 47 tag for the page's lang attribute. @type {Record<Lang, string>} */
export const LANG_TAGS = { en: 'en', zh: 'zh-Hans' };

/** The widget's part of the table. @type {Record<string, Record<Lang, string>>} */
export const MESSAGES = {
  // --- the widget (<attention-playground>): its element, its header and charts (widgets/)
  'widget.placeholder': {
    en: 'A tiny transformer ({preset}) will train here, in your browser, when this box is on screen.',
    zh: '当这个框出现在屏幕上时，一个小型 Transformer（{preset}）会在你的浏览器里开始训练。',
  },
  'widget.couldNotStart': { en: 'This widget could not start.', zh: '这个组件无法启动。' },
  'widget.play': { en: 'Play', zh: '训练' },
  'widget.pause': { en: 'Pause', zh: '暂停' },
  'widget.step': { en: 'Step', zh: '单步' },
  'widget.reset': { en: 'Reset', zh: '重置' },
  'widget.stat.step': { en: 'step', zh: '步数' },
  'widget.stat.loss': { en: 'loss', zh: '损失' },
  'widget.stat.accuracy': { en: 'accuracy', zh: '准确率' },
  'widget.settings': { en: 'Settings', zh: '设置' },
  'widget.chart.loss': { en: 'Loss', zh: '损失' },
  'widget.chart.accuracy': { en: 'Token accuracy', zh: '词元准确率' },
  'widget.series.train': { en: 'train', zh: '训练' },
  'widget.series.eval': { en: 'eval @ length {n}', zh: '留出集 @ 长度 {n}' },
  'widget.series.long': { en: 'eval long', zh: '长序列评估' },
  'widget.series.longOff': { en: 'eval long (off)', zh: '长序列评估（关）' },
  'widget.trains': { en: 'Trains in your browser · {kind}', zh: '在你的浏览器中训练 · {kind}' },
  'widget.parameters': { en: '{n} parameters', zh: '{n} 个参数' },
  'widget.cannotTrain': { en: 'This combination cannot train: {error}', zh: '这个组合无法训练：{error}' },
  'widget.seeAbove': { en: 'see the message above', zh: '见上方说明' },
  'widget.stopped': { en: 'Training stopped: {reason}', zh: '训练已停止：{reason}' },
  'widget.readError': { en: 'Could not read the model: {message}', zh: '无法读取模型：{message}' },
  'widget.subtitle': { en: '{task} · {position} · {normalization}', zh: '{task} · {position} · {normalization}' },
  'view.chart': { en: 'Training curves', zh: '训练曲线' },
  'view.attention': { en: 'Attention (one held-out example)', zh: '注意力（一个留出样例）' },
  'view.positions': { en: 'Position encoding', zh: '位置编码' },
  'view.predictions': { en: 'Predictions', zh: '预测' },
  'view.generate': { en: 'Generate', zh: '生成' },
  'view.heads': { en: 'Heads (latest step)', zh: '注意力头（最新一步）' },
  'view.interventions': { en: 'Interventions (evaluation only)', zh: '干预（仅评估）' },
  'preset.encoding': { en: 'Position encoding: {name}', zh: '位置编码：{name}' },
  'preset.playground': { en: 'Attention playground', zh: '注意力实验场' },
  'preset.permutation': { en: 'Is attention order-blind? The permutation test', zh: '注意力看不见顺序吗？置换检验' },
  'preset.probe': { en: 'Which position can the model read? A probe', zh: '模型能读出哪种位置？一个探针' },
  'preset.extrapolation': { en: 'Longer than in training: extrapolation', zh: '比训练时更长：外推' },
  // the settings form's groups (panels/controls.js; the groups of state/properties.js)
  'group.task': { en: 'Task and data', zh: '任务与数据' },
  'group.model': { en: 'Model', zh: '模型' },
  'group.position': { en: 'Position encoding', zh: '位置编码' },
  'group.normalization': { en: 'Attention normalization', zh: '注意力归一化' },
  'group.optimizer': { en: 'Optimizer', zh: '优化器' },
  'group.advanced': { en: 'Advanced', zh: '高级' },
  // --- the demos' shared words (demos/seeds.js)
  'seeds.one': { en: 'seed {list}', zh: '种子 {list}' },
  'seeds.many': { en: 'seeds {list}', zh: '种子 {list}' },
  'seeds.of1': { en: '{k} of {n} seed', zh: '{n} 个种子中的 {k} 个' },
  'seeds.ofN': { en: '{k} of {n} seeds', zh: '{n} 个种子中的 {k} 个' },
};

/**
 * The language of a BCP 47 tag ('zh-CN', 'zh-Hans', 'en-GB' ...): zh for any Chinese, else en;
 * null for a tag that names neither.
 * @param {string|null|undefined} tag
 * @returns {Lang|null}
 */
export function langOf(tag) {
  const t = String(tag ?? '')
    .trim()
    .toLowerCase();
  if (t === 'zh' || t.startsWith('zh-')) return 'zh';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

/**
 * The first language of the reader's list (navigator.languages) that the table has, else en.
 * @param {readonly string[]|undefined} languages
 * @returns {Lang}
 */
export function pickLanguage(languages) {
  for (const tag of languages ?? []) {
    const l = langOf(tag);
    if (l) return l;
  }
  return 'en';
}

/**
 * The text of `key` in `lang`, its {placeholders} replaced by `params` (as text). An unknown key
 * is a programming error: it throws, naming the key.
 * @param {Lang} lang
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 * @param {Record<string, Record<Lang, string>>} [part] another part of the table, looked up first
 * @returns {string}
 */
export function t(lang, key, params = {}, part = MESSAGES) {
  const entry = Object.hasOwn(part, key) ? part[key] : Object.hasOwn(MESSAGES, key) ? MESSAGES[key] : null;
  if (!entry) throw new Error(`no message "${key}" in the message table (web/src/common/messages*.js)`);
  const text = entry[lang] ?? entry.en;
  return text.replace(/\{([a-zA-Z]+)\}/g, (all, name) => (Object.hasOwn(params, name) ? String(params[name]) : all));
}

/** Whether the table has `key`. @param {string} key */
export const hasMessage = (key) => Object.hasOwn(MESSAGES, key);

/**
 * A translator for one language (and a part of the table): (key, params) -> text.
 * @param {Lang} lang
 * @param {Record<string, Record<Lang, string>>} [part]
 */
export const translator =
  (lang, part = MESSAGES) =>
  (/** @type {string} */ key, /** @type {Record<string, string|number>} */ params = {}) =>
    t(lang, key, params, part);
