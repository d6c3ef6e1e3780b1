// #/jury: does a claim faithfully represent its source truth? Seed 002's
// agentic jury (POST /v1/jury): the fact frame, the jurors' independent
// votes, the debate when they split, the revote and the foreperson's
// five-axis rubric.
import { h, page } from './dom.js';
import { jury } from './api.js';
import { onSubmit } from './alert.js';
import { table } from './table.js';

const TONE = { Faithful: 'good', Mutated: 'poor', Ambiguous: 'fair' };

export function render(root, { signal }) {
  const claim = h('textarea', { id: 'jury-claim', rows: 2, maxlength: 2000 });
  const truth = h('textarea', { id: 'jury-truth', rows: 4, maxlength: 5000, 'aria-describedby': 'jury-truth-hint' });
  const fields = { claim, truth };
  const { section, alerts, status, result } = page('jury', 'Jury',
    'A jury of independent jurors decides whether a claim is faithful to its source or mutated: they vote, debate when split, vote again, and a foreperson scores five fidelity axes.');
  const form = h('form', { class: 'card form', novalidate: true, 'aria-labelledby': 'jury-h' },
    h('div', { class: 'field' }, h('label', { for: 'jury-claim', text: 'Claim' }), claim),
    h('div', { class: 'field' }, h('label', { for: 'jury-truth', text: 'Source truth' }), truth,
      h('p', { class: 'hint', id: 'jury-truth-hint' }, 'What the source really says. ',
        h('button', { type: 'button', class: 'linkish', text: 'Use an example', onclick: () => {
          // cmd/verity's TestUIExamples checks that the jury finds this
          // claim Mutated: it widens "one study" to all drinkers and 20% to 50%.
          claim.value = 'All coffee drinkers have a 50% lower risk of heart disease.';
          truth.value = 'Coffee drinking was associated with a 20% lower risk of heart disease in one observational study.';
          claim.focus();
        } }))),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'btn btn-primary', text: 'Ask the jury' })));

  onSubmit(form, { alerts, status, fields, pending: 'The jurors are voting…' }, async () => {
    result.replaceChildren();
    const card = await jury({ claim: claim.value, truth: truth.value }, signal);
    result.replaceChildren(...renderCard(card));
    return `Verdict: ${card.verdict}, confidence ${Math.round((card.confidence || 0) * 100)}%.`;
  });

  section.append(form, alerts, status, result);
  root.append(section);
}

function renderCard(c) {
  const parts = [];
  parts.push(h('article', { class: 'card outcome-card', dataset: { tone: TONE[c.verdict] || 'neutral', verdict: c.verdict || '' }, 'aria-labelledby': 'jury-verdict-h' },
    h('p', { class: 'eyebrow', text: 'Verdict' }),
    h('h2', { id: 'jury-verdict-h', class: 'outcome-name', text: c.verdict || '–' }),
    h('p', {}, h('strong', { text: `${Math.round((c.confidence || 0) * 100)}%` }), h('span', { class: 'muted', text: ' confidence' })),
    c.reasoning ? h('p', { text: c.reasoning }) : null,
    c.minimal_edit ? h('p', { class: 'correction' }, h('strong', { text: 'Minimal edit: ' }), c.minimal_edit) : null,
    c.dissent_note ? h('p', { class: 'muted small', text: c.dissent_note }) : null));

  const rubric = c.rubric || [];
  parts.push(h('section', { class: 'card', 'aria-labelledby': 'rubric-h' },
    h('h2', { id: 'rubric-h', text: 'Foreperson’s rubric' }),
    table({
      caption: 'The five fidelity axes',
      columns: [
        { label: 'Axis', cell: (r) => h('span', {}, h('strong', { text: (r.axis || '').replaceAll('_', ' ') }), h('span', { class: 'small muted block', text: r.question || '' })), class: 'col-wide' },
        { label: 'Answer', cell: (r) => h('span', { class: ['badge', r.answer === 'Yes' ? 'badge-good' : 'badge-poor'], text: r.answer || '–' }) },
        { label: 'Reason', cell: (r) => r.reason || '' },
      ],
      rows: rubric,
      rowProps: (r) => ({ dataset: { axis: r.axis || '', answer: r.answer || '' } }),
    })));

  const votes = (round, list) => table({
    caption: `${round} votes`,
    columns: [
      { label: 'Juror', cell: (v) => v.juror, value: (v) => v.juror },
      { label: 'Vote', cell: (v) => h('span', { class: ['badge', `badge-${TONE[v.verdict] || 'neutral'}`], text: v.verdict }), value: (v) => v.verdict },
      { label: 'Confidence', cell: (v) => `${Math.round((v.confidence || 0) * 100)}%`, value: (v) => v.confidence || 0, numeric: true },
      { label: 'Reasoning', cell: (v) => v.reasoning || '', class: 'col-wide' },
    ],
    rows: list || [],
    showCaption: true,
  });
  const d = c.debate || {};
  parts.push(h('section', { class: 'card', 'aria-labelledby': 'votes-h' },
    h('h2', { id: 'votes-h', text: 'Votes and debate' }),
    votes('Round 0 (independent)', c.round0_votes),
    h('p', { class: 'small debate-line' }, d.held ? `Debate: ${d.rounds} round(s); ${d.stop_reason || ''}` : 'No debate: the first vote was not split.'),
    d.held && (d.transcript || []).length ? h('details', { class: 'transcript' },
      h('summary', { text: `Transcript (${d.transcript.length} turns)` }),
      h('ol', {}, d.transcript.map((turn) => h('li', {},
        h('span', { class: 'small muted', text: `Round ${turn.round}, ${turn.stage}, ${turn.juror} for ${turn.side}: ` }), turn.argument || '')))) : null,
    (c.round2_votes || []).length ? votes('Round 2 (revote)', c.round2_votes) : null,
    (c.excluded_jurors || []).length ? h('ul', { class: 'job-errors' }, c.excluded_jurors.map((x) => h('li', { text: `${x.juror} excluded at ${x.stage}: ${x.error}` }))) : null));

  const f = c.fact_frame || {};
  const sc = f.scope || {};
  const list = (xs) => (xs && xs.length ? xs.join(', ') : '–');
  parts.push(h('details', { class: 'card fact-frame' },
    h('summary', { text: 'Fact frame' }),
    h('dl', { class: 'frame' },
      term('Entities', list(f.entities)),
      term('Quantities', list((f.quantities || []).map((q) => `${q.value}${q.in_claim && !q.in_truth ? ' (claim only)' : ''}${q.in_truth && !q.in_claim ? ' (truth only)' : ''}`))),
      term('Scope', [sc.region, sc.group, sc.timeframe].filter(Boolean).join(' · ') || '–'),
      term('Modality', f.modality || '–'),
      term('Relationship', f.relationship_type || '–'),
      term('Caveats', list(f.caveats)))));
  return parts;
}

function term(name, value) {
  return h('div', {}, h('dt', { text: name }), h('dd', { text: value }));
}
