// The message table's element part in English (common/messages.js says how the table works):
// the strings of the element before it loads (widgets/attention-playground.js; both languages ship in the entry).
// Its keys are those of element.zh.js; tests/node/course.test.mjs checks both.

/** @type {Record<string, string>} */
export default {
  // --- the widget (<attention-playground>): its element, its header and charts (widgets/)
  'widget.placeholder': 'A tiny transformer ({preset}) will train here, in your browser, when this box is on screen.',
  'widget.couldNotStart': 'This widget could not start.',
  // what a link gave that is no setting of the widget (attention-playground.js #showIgnored)
  'widget.ignored': 'Ignored from the link',
  'widget.ignoredList': ' (not settings of this widget): {list}.',
  // an origin= of the link that is no origin (embed.js, attention-playground.js #showIgnored)
  'widget.badOrigin': 'Malformed origin',
  'widget.badOriginWhy':
    ': origin="{value}" is not an origin. Write scheme://host[:port], http or https, with no path and no trailing slash (origin=https://blog.example). Until it is, the page around this frame can neither drive it nor hear its events.',
  // a bad attribute, in the widget's language (widgets/attributes.js; {attr} is name="value" as written)
  'attr.preset': '{attr}: no such preset. Presets: {allowed}.',
  'attr.view.unknown': '{attr}: unknown panel {bad}. Panels: {allowed}.',
  'attr.view.empty': '{attr}: name at least one panel ({allowed}).',
  'attr.controls': '{attr}: unknown control {bad}. Use {allowed}, none, all or config fields.',
  'attr.height': '{attr}: use a chart height in pixels from 60 to 2000.',
  'attr.inspectLen': "{attr}: use seq-len (the training length) or eval-len (the config's evaluation length).",
  'attr.theme': '{attr}: use light, dark or auto.',
  'attr.steps': '{attr}: use a whole number of training steps from 1 to 1000000.',
  'attr.unknown':
    '{attr}: unknown attribute. Use a config field ({fields}, or an option of the task, encoding or normalization) or one of {allowed}.',
  'attr.unknownDemo':
    '{attr}: unknown attribute. Use a config field ({fields}, or an option of the task, encoding or normalization), an option of this demo ({options}) or one of {allowed}.',
  'attr.field': '{attr}: {why}.',
  'attr.asIs': '{text}',
  // a widget's compare attribute (state/compare.js; {spec} as written, {why} a why.* sentence)
  'compare.demo': '{attr}: the {demo} demo compares its own models; compare is for config presets.',
  'compare.long': 'compare="{spec}": longer than {max} characters.',
  'compare.empty': 'compare="{spec}": names no setting; write field=value,value, e.g. position=none,learned.',
  'compare.fields': 'compare="{spec}": changes {n} settings; at most {max}.',
  'compare.pair': 'compare="{spec}": "{part}" is not field=value,value.',
  'compare.twice': 'compare="{spec}": {field} is given twice.',
  'compare.one': 'compare="{spec}": needs at least two runs: give some field two values (position=none,learned).',
  'compare.runs': 'compare="{spec}": asks for {n} runs; at most {max}.',
  'compare.uneven': 'compare="{spec}": {field} has {k} values for {n} runs (give one value, or one per run).',
  'compare.unknown': 'compare: {field} is not a setting of the model.',
  'compare.inactive': 'compare: {field} is {why} (run {run}).',
  'compare.value': 'compare: {field}={value} in run {run}: {why}.',
  'why.inactive': 'not an option of {selector} {value}',
  'why.bool': 'not true or false',
  'why.number': 'not a number',
  'why.whole': 'not a whole number',
  'why.min': 'below the minimum {min}',
  'why.max': 'above the maximum {max}',
  'why.choice': 'not one of {allowed}',
  'why.type': 'expected a {type}',
  'why.unknown': 'unknown setting',
};
