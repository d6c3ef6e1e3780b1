// The circular 0-100 gauge of seed 001 ("green 70-100, amber 40-69, red
// 0-39"), used for the verify score and the fact-check reliability score.
import { h, s } from './dom.js';

// band names the colour band of a 0-100 score.
export function band(score) {
  if (typeof score !== 'number') return 'none';
  if (score >= 70) return 'high';
  if (score >= 40) return 'medium';
  return 'low';
}

const bandWords = { high: 'high, green band', medium: 'medium, amber band', low: 'low, red band', none: 'no score', neutral: 'grey' };

// gauge returns a meter for score (an integer 0-100, or null for "no
// score") named label. Screen readers get the label and "87 out of 100,
// high"; the drawing is hidden from them. tone, when set, overrides the
// colour band the score alone would get ('high', 'medium', 'low' or
// 'neutral'): a verdict's colour must not contradict the verdict, so a
// score of 88 under "Not enough evidence" is grey, not green.
export function gauge(score, label, { size = 132, tone = '' } = {}) {
  const has = typeof score === 'number' && Number.isFinite(score);
  const value = has ? Math.max(0, Math.min(100, Math.round(score))) : 0;
  const r = 52;
  const circumference = 2 * Math.PI * r;
  const arc = s('circle', {
    class: 'gauge-arc', cx: 60, cy: 60, r, 'stroke-dasharray': `${(circumference * value) / 100} ${circumference}`,
    transform: 'rotate(-90 60 60)',
  });
  const b = tone || band(has ? value : null);
  const el = h('div', {
    class: ['gauge', `band-${b}`], role: 'meter', 'aria-label': label,
    'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': has ? value : null,
    'aria-valuetext': has ? `${value} out of 100, ${bandWords[b]}` : 'no score',
  },
  s('svg', { viewBox: '0 0 120 120', width: size, height: size, 'aria-hidden': 'true', focusable: 'false' },
    s('circle', { class: 'gauge-track', cx: 60, cy: 60, r }), arc),
  h('div', { class: 'gauge-center', 'aria-hidden': 'true' },
    h('span', { class: 'gauge-value', text: has ? value : '–' }),
    h('span', { class: 'gauge-max', text: has ? '/ 100' : 'no score' })),
  h('div', { class: 'gauge-label', 'aria-hidden': 'true', text: label }));
  return el;
}
