// The course's progress in this browser (localStorage): the language the reader chose, and per
// lesson the reader's place (the index of the last section heading passed) and the result of its
// check. Read like every other reader of state/: only the declared fields, each checked for its
// kind and range, the text at most MAX_CHARS; anything else is dropped, never guessed. A browser
// with storage blocked simply remembers nothing.

const KEY = 'attention-playground-course';
/** The longest stored text read back. */
export const MAX_CHARS = 16384;
/** The most lessons kept. */
export const MAX_LESSONS = 24;
const SLUG = /^[a-z0-9][a-z0-9-]{0,31}$/;
const SETTING = /^[a-z0-9_ =,.-]{1,80}$/;

/**
 * @typedef {{passed: boolean, step: number, accuracy: number, setting: string, prediction?: 'pass'|'fail'}}
 *   CheckResult the check's best result: passed or not, the step and held-out accuracy it was
 *   judged at, the setting that reached it ("position = rope"), and what the reader predicted for
 *   that model before it trained (none when the reader did not say)
 * @typedef {{place: number, check: CheckResult|null}} LessonProgress place: the index of the last
 *   section heading the reader passed (0: the top)
 * @typedef {{lang: 'en'|'zh'|null, last: string|null, lessons: Record<string, LessonProgress>}} CourseProgress
 */

/** @returns {CourseProgress} */
export const emptyProgress = () => ({ lang: null, last: null, lessons: {} });

const isInt = (/** @type {unknown} */ v, /** @type {number} */ lo, /** @type {number} */ hi) =>
  typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;

/** @param {unknown} v @returns {CheckResult|null} */
function readCheck(v) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const c = /** @type {Record<string, unknown>} */ (v);
  if (typeof c.passed !== 'boolean' || typeof c.step !== 'number' || !isInt(c.step, 0, 1e6)) return null;
  if (typeof c.accuracy !== 'number' || !(c.accuracy >= 0 && c.accuracy <= 1)) return null;
  if (typeof c.setting !== 'string' || !SETTING.test(c.setting)) return null;
  /** @type {CheckResult} */
  const out = { passed: c.passed, step: c.step, accuracy: c.accuracy, setting: c.setting };
  if (c.prediction === 'pass' || c.prediction === 'fail') out.prediction = c.prediction;
  return out;
}

/** @param {unknown} v @returns {LessonProgress|null} */
function readLesson(v) {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const l = /** @type {Record<string, unknown>} */ (v);
  return { place: isInt(l.place, 0, 999) ? /** @type {number} */ (l.place) : 0, check: readCheck(l.check) };
}

/**
 * The progress stored as `text` (JSON), keeping only the declared fields that are valid.
 * @param {string|null|undefined} text
 * @returns {CourseProgress}
 */
export function readProgress(text) {
  const out = emptyProgress();
  if (typeof text !== 'string' || text.length > MAX_CHARS) return out;
  let raw;
  try {
    raw = JSON.parse(text);
  } catch {
    return out;
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  if (raw.lang === 'en' || raw.lang === 'zh') out.lang = raw.lang;
  if (typeof raw.last === 'string' && SLUG.test(raw.last)) out.last = raw.last;
  const lessons = raw.lessons && typeof raw.lessons === 'object' && !Array.isArray(raw.lessons) ? raw.lessons : {};
  // The lesson read last first, so that it is never the one dropped when more than MAX_LESSONS are stored.
  const slugs = Object.keys(lessons).filter((slug) => SLUG.test(slug));
  const ordered = out.last && slugs.includes(out.last) ? [out.last, ...slugs.filter((x) => x !== out.last)] : slugs;
  for (const slug of ordered) {
    if (Object.keys(out.lessons).length >= MAX_LESSONS) break;
    const l = readLesson(lessons[slug]);
    if (l) out.lessons[slug] = l;
  }
  return out;
}

/** The progress kept in this browser (empty when none, or when storage is blocked). */
export function loadProgress() {
  try {
    return readProgress(localStorage.getItem(KEY));
  } catch {
    return emptyProgress();
  }
}

/**
 * Keep `progress` (what readProgress would read back; dropped silently when storage is blocked).
 * @param {CourseProgress} progress
 */
export function saveProgress(progress) {
  const text = JSON.stringify(readProgress(JSON.stringify(progress)));
  try {
    if (text.length <= MAX_CHARS) localStorage.setItem(KEY, text);
  } catch {
    // storage blocked or full: nothing is remembered
  }
}

/**
 * The lesson's progress in `progress`, made if missing.
 * @param {CourseProgress} progress
 * @param {string} slug
 * @returns {LessonProgress}
 */
export function lessonProgress(progress, slug) {
  return (progress.lessons[slug] ??= { place: 0, check: null });
}
