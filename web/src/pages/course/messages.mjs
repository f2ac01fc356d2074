// The course's part of the message table (common/messages.js), in both languages: a course page
// holds its lesson in both and switches between them; its build (pages.mjs, render.mjs) writes
// both. Importing this module adds them; then t(lang, key) finds the course's keys.
import { addMessages } from '../../common/messages.js';
import COURSE_EN from '../../common/messages/course.en.js';
import COURSE_ZH from '../../common/messages/course.zh.js';

addMessages('en', COURSE_EN);
addMessages('zh', COURSE_ZH);

export { t, hasMessage } from '../../common/messages.js';
