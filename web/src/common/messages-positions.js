// The message table's part of the position encoding's panel (common/messages.js says how the
// table works): its keys' captions, axes and labels, loaded with the panel only
// (panels/positions-panel.js). Each key holds its English and its Simplified Chinese text;
// tests/node/course.test.mjs checks both.

/** @type {Record<string, Record<import('./messages.js').Lang, string>>} */
export const POSITIONS_MESSAGES = {
  // the colour scale of its maps (charts/heatmap.js) and the download control (panels/figure-menu.js)
  'heatmap.signed': {
    en: 'blue below 0, {zero} at 0, red above; {range}',
    zh: '蓝色表示小于 0，{zero}表示 0，红色表示大于 0；{range}',
  },
  'heatmap.white': { en: 'white', zh: '白色' },
  'heatmap.darkGrey': { en: 'dark grey', zh: '深灰色' },
  'heatmap.largestAbs': { en: 'scaled to the largest |value|', zh: '按最大的 |值| 缩放' },
  'heatmap.largest': { en: 'scaled to the largest value', zh: '按最大值缩放' },
  'heatmap.masked': { en: '{grey}: masked (−∞)', zh: '{grey}：被掩码（−∞）' },
  'heatmap.grey': { en: 'grey', zh: '灰色' },
  'heatmap.lightGrey': { en: 'light grey', zh: '浅灰色' },
  'figure.download': { en: 'Download ▾', zh: '下载 ▾' },
  'figure.nothing': { en: 'nothing drawn yet', zh: '尚未绘制' },
  'figure.formats': { en: 'file format', zh: '文件格式' },
  'pos.caption.matrix': {
    en: 'the encoding: one row per position, one column per dimension',
    zh: '编码本身：每个位置一行，每个维度一列',
  },
  'pos.caption.similarity': {
    en: 'similarity of positions: row p, column q compares the encodings of p and q',
    zh: '位置之间的相似度：第 p 行第 q 列比较 p 和 q 的编码',
  },
  'pos.caption.bias': {
    en: 'bias added to the attention logits (query down, key across)',
    zh: '加到注意力 logits 上的偏置（纵向为查询，横向为键）',
  },
  'pos.caption.buckets': { en: 'relative-distance bucket of each query/key pair', zh: '每个查询/键对所属的相对距离桶' },
  'pos.caption.angles': {
    en: 'rotation angle of each position (down) and frequency (across)',
    zh: '每个位置（纵向）在每个频率（横向）上的旋转角',
  },
  'pos.caption.slopes': { en: 'slope of the distance penalty, per head', zh: '每个注意力头的距离惩罚斜率' },
  'pos.caption.theta': { en: 'rotation frequency of each dimension pair', zh: '每一对维度的旋转频率' },
  'pos.caption.wavelengths': { en: 'wavelength (in positions) of each frequency', zh: '每个频率的波长（以位置计）' },
  'pos.caption.embedding': { en: 'learned vector of each relative-distance bucket', zh: '每个相对距离桶的可学习向量' },
  'pos.caption.normalized_distance': {
    en: 'the normalized distance fed to the bias MLP',
    zh: '输入偏置 MLP 的归一化距离',
  },
  'pos.axis.dimension': { en: 'dimension', zh: '维度' },
  'pos.axis.position': { en: 'position', zh: '位置' },
  'pos.axis.positionQ': { en: 'position q', zh: '位置 q' },
  'pos.axis.positionP': { en: 'position p', zh: '位置 p' },
  'pos.axis.key': { en: 'key', zh: '键' },
  'pos.axis.query': { en: 'query', zh: '查询' },
  'pos.axis.frequency': { en: 'frequency', zh: '频率' },
  'pos.axis.column': { en: 'column', zh: '列' },
  'pos.axis.row': { en: 'row', zh: '行' },
  'pos.axis.head': { en: 'head', zh: '头' },
  'pos.axis.index': { en: 'index', zh: '序号' },
  'pos.heads': { en: '{n} heads', zh: '{n} 个头' },
  'pos.head': { en: 'head {n}', zh: '头 {n}' },
  'pos.values': { en: '{n} values', zh: '{n} 个值' },
  'pos.sameScale': { en: 'the same scale for every head', zh: '所有头使用同一色标' },
  'pos.nothing': { en: '{title} has nothing to draw: {where}.', zh: '{title} 没有可画的内容：{where}。' },
  'pos.cell': { en: '{name}: row {i}, column {j}: {v}', zh: '{name}：第 {i} 行，第 {j} 列：{v}' },
};
