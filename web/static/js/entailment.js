// #/entailment: does a source excerpt entail a claim? Seed 000's four
// isolated agents (POST /v1/entailment): the extractor's statements, the
// reliability rating, the judge's verdict and the adversarial auditor's
// downgrade, each shown with its reasoning.
import { h, bar, page } from './dom.js';
import { entailment } from './api.js';
import { onSubmit } from './alert.js';

const TONE = { SUPPORTED: 'good', CONTRADICTED: 'poor', 'NOT ENOUGH INFO': 'neutral', UNCHANGED: 'neutral' };

export function render(root, { signal }) {
  const claim = h('textarea', { id: 'ent-claim', rows: 2, maxlength: 1000 });
  const excerpt = h('textarea', { id: 'ent-excerpt', rows: 6, maxlength: 20000, 'aria-describedby': 'ent-excerpt-hint' });
  const type = h('input', { id: 'ent-type', type: 'text', maxlength: 300, autocomplete: 'off', placeholder: 'e.g. peer-reviewed journal article', 'aria-describedby': 'ent-type-hint' });
  const fields = { claim, source_excerpt: excerpt, source_type: type };
  const { section, alerts, status, result } = page('entailment', 'Entailment audit',
    'Four isolated agents decide whether a source excerpt supports a claim: one extracts its statements, one rates the source, one judges, and an adversarial auditor may only lower the confidence.');
  const form = h('form', { class: 'card form', novalidate: true, 'aria-labelledby': 'entailment-h' },
    h('div', { class: 'field' }, h('label', { for: 'ent-claim', text: 'Claim' }), claim),
    h('div', { class: 'field' }, h('label', { for: 'ent-excerpt', text: 'Source excerpt' }), excerpt,
      h('p', { class: 'hint', id: 'ent-excerpt-hint' }, 'The text to check the claim against, up to 20,000 characters. ',
        h('button', { type: 'button', class: 'linkish', text: 'Use an example', onclick: () => {
          // cmd/verity's TestUIExamples checks that this pair is SUPPORTED.
          claim.value = 'Sputnik 1 was launched in 1957.';
          excerpt.value = 'The Soviet Union launched Sputnik 1, the first artificial satellite, on 4 October 1957.';
          type.value = 'university news page';
          claim.focus();
        } }))),
    h('div', { class: 'field' }, h('label', { for: 'ent-type', text: 'Source type' }), type,
      h('p', { class: 'hint', id: 'ent-type-hint', text: 'Only the reliability agent sees it; reliability never decides entailment.' })),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'btn btn-primary', text: 'Audit' })));

  onSubmit(form, { alerts, status, fields, pending: 'The four agents are at work…' }, async () => {
    result.replaceChildren();
    const res = await entailment({ claim: claim.value, source_excerpt: excerpt.value, source_type: type.value }, signal);
    result.replaceChildren(...renderResult(res));
    return `Final verdict: ${res.final?.final_verdict}, confidence ${res.final?.final_confidence} out of 100.`;
  });

  section.append(form, alerts, status, result);
  root.append(section);
}

function renderResult(r) {
  const f = r.final || {};
  const x = r.extractor || {};
  const rel = r.reliability || {};
  const j = r.judge || {};
  const a = r.auditor || {};
  const card = h('article', { class: 'card outcome-card', dataset: { tone: TONE[f.final_verdict] || 'neutral', verdict: f.final_verdict || '' }, 'aria-labelledby': 'ent-verdict-h' },
    h('p', { class: 'eyebrow', text: 'Final verdict' }),
    h('h2', { id: 'ent-verdict-h', class: 'outcome-name', text: f.final_verdict || '–' }),
    confidence('Final confidence', f.final_confidence, 'ent-final'),
    h('p', { class: 'muted small', text: `Judge ${f.entailment_confidence ?? '–'} ${signed(a.confidence_adjustment)} (auditor) = ${f.final_confidence ?? '–'} · source reliability ${(f.reliability_rating || '–').toLowerCase()}` }),
    (f.notes || []).length ? h('ul', { class: 'report-notes' }, f.notes.map((n) => h('li', { text: n }))) : null);

  const agents = h('ol', { class: 'agents' },
    agent('1', 'Extractor', 'Takes the literal statements of the excerpt.',
      (x.statements || []).length ? h('ol', { class: 'statements' }, x.statements.map((s) => h('li', { value: s.id, text: s.text })))
        : h('p', { class: 'muted small', text: 'No statements: the excerpt is empty.' })),
    agent('2', 'Reliability', 'Rates the source type, and sees nothing else.',
      h('p', {}, badge(rel.reliability, { HIGH: 'good', MEDIUM: 'fair', LOW: 'poor' }[rel.reliability]), ' ', h('span', { class: 'muted small', text: rel.source_type || '' })),
      confidence('Confidence', rel.confidence)),
    agent('3', 'Entailment judge', 'Decides from the claim and the statements only.',
      h('p', {}, badge(j.verdict, TONE[j.verdict])), confidence('Confidence', j.confidence), reasons(j.reasoning)),
    agent('4', 'Adversarial auditor', 'May only lower the confidence (−20 to 0).',
      h('p', {}, badge(a.final_verdict, TONE[a.final_verdict]), ' ', h('span', { class: 'small', text: `adjustment ${signed(a.confidence_adjustment)}` })),
      reasons(a.auditor_reasoning, 'No objection.')));
  return [card, h('section', { class: 'card', 'aria-labelledby': 'agents-h' }, h('h2', { id: 'agents-h', text: 'The agents' }), agents)];
}

function agent(n, name, role, ...body) {
  return h('li', { class: 'agent' },
    h('div', { class: 'agent-head' }, h('span', { class: 'agent-n', 'aria-hidden': 'true', text: n }),
      h('div', {}, h('h3', { class: 'agent-name', text: name }), h('p', { class: 'muted small', text: role }))),
    h('div', { class: 'agent-body' }, body));
}

function confidence(label, value, id) {
  const v = typeof value === 'number' ? value : null;
  return h('div', { class: 'confidence', id },
    h('span', { class: 'small', text: `${label}: ` }), h('strong', { text: v === null ? '–' : `${v} / 100` }), bar(v === null ? 0 : v / 100, 'bar-accent'));
}

function reasons(list, none = '') {
  if (!list || !list.length) return none ? h('p', { class: 'muted small', text: none }) : null;
  return h('ul', { class: 'reasons' }, list.map((r) => h('li', { text: r })));
}

function badge(text, tone) {
  return h('span', { class: ['badge', `badge-${tone || 'neutral'}`], text: text || '–' });
}

function signed(n) {
  if (typeof n !== 'number') return '–';
  return n < 0 ? `− ${-n}` : `+ ${n}`;
}
