// #/verify: one claim against the corpus (POST /v1/verify). The answer is
// a verdict card with the 0-100 gauge and 2-3 citations, the features the
// score is computed from, and the judged passages with their entail /
// contradict / neutral probabilities.
import { h, link, date, fixed, pct, bar, truncate, page } from './dom.js';
import { verify } from './api.js';
import { gauge } from './gauge.js';
import { onSubmit } from './alert.js';
import { table } from './table.js';

// examples are claims of the demo-claims benchmark (demo/claims.jsonl);
// cmd/verity's TestUIExamples checks through the real server that each
// gets the verdict the benchmark expects.
export const examples = [
  'The Golden Gate Bridge opened in 1937.',
  'The Golden Gate Bridge opened in 1950.',
  'The Brooklyn Bridge opened in 1883.',
];

// verdictTone colours the gauge by the verdict, not by the score alone.
const verdictTone = {
  'Supported': 'high', 'Refuted': 'low', 'Contested': 'medium', 'Not enough evidence': 'neutral',
};

// setAsideText explains a passage that does not count (see reason).
const setAsideText = {
  not_about_claim: 'not about the claim: cannot contradict it',
  unrelated: 'unrelated to the claim: neither entails nor contradicts it',
  superseded: 'superseded by a newer passage',
  before_claim_time: 'published before the time the claim names',
};

const verdictText = {
  'Supported': 'Passages from at least two independent origins entail the claim, and none strongly contradicts it.',
  'Refuted': 'A passage strongly contradicts the claim.',
  'Contested': 'Some passages strongly entail the claim and others contradict it.',
  'Not enough evidence': 'The evidence does not settle the claim under the verdict policy; the reason below says why.',
};

const verdictClass = {
  'Supported': 'supported', 'Refuted': 'refuted', 'Contested': 'contested', 'Not enough evidence': 'nei',
};

// The seed-004 features, in the order the score formula uses them.
const features = [
  { key: 'e_max', name: 'Strongest entailment', help: 'Highest probability that a passage entails the claim.', weight: '+0.40', unit: 'prob' },
  { key: 'e_mean3', name: 'Mean of top-3 entailment', help: 'Mean entailment of the three most entailing passages.', weight: '+0.20', unit: 'prob' },
  { key: 'agree_dom', name: 'Agreeing origins', help: 'Distinct origins (domains) whose passages agree with the claim; counts up to 3.', weight: '+0.15', unit: 'count' },
  { key: 'rel_avg', name: 'Source reliability', help: 'Mean reliability of the sources of the three most entailing passages.', weight: '+0.15', unit: 'prob' },
  { key: 'rec_max', name: 'Recency', help: 'Highest recency weight among the passages (newer is higher).', weight: '+0.10', unit: 'prob' },
  { key: 'c_max', name: 'Strongest contradiction', help: 'Highest probability that a passage contradicts the claim.', weight: '−0.25', unit: 'prob' },
];

export function render(root, { signal }) {
  const claim = h('textarea', { id: 'claim', name: 'claim', rows: 3, maxlength: 1000, 'aria-describedby': 'claim-hint', autocomplete: 'off' });
  const k = h('input', { id: 'k', name: 'k', type: 'number', min: 1, max: 200, inputmode: 'numeric', placeholder: '20' });
  const topN = h('input', { id: 'top_n', name: 'top_n', type: 'number', min: 1, max: 20, inputmode: 'numeric', placeholder: '6' });
  const domains = h('input', { id: 'domains', name: 'domains', type: 'text', placeholder: 'e.g. nasa.gov, esa.int', 'aria-describedby': 'domains-hint' });
  const since = h('input', { id: 'since', name: 'since', type: 'date' });
  const fields = { claim, k, top_n: topN, domains, since };
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', text: 'Verify' });
  const { section, alerts, status, result } = page('verify', 'Verify a claim',
    'Check one claim against the evidence in the corpus. verity retrieves passages, judges whether each entails or contradicts the claim, and scores it from 0 to 100.');

  const form = h('form', { class: 'card form', novalidate: true, 'aria-labelledby': 'verify-h' },
    h('div', { class: 'field' },
      h('label', { for: 'claim', text: 'Claim' }),
      claim,
      h('p', { class: 'hint', id: 'claim-hint', text: 'One factual sentence, up to 1,000 characters. Press Enter to verify, Shift+Enter for a new line.' })),
    h('div', { class: 'examples' }, h('span', { class: 'examples-label', text: 'Try:' }),
      examples.map((ex) => h('button', { type: 'button', class: 'chip', text: ex, onclick: () => { claim.value = ex; claim.focus(); } }))),
    h('details', { class: 'options' },
      h('summary', { text: 'Retrieval options' }),
      h('div', { class: 'grid-4' },
        h('div', { class: 'field' }, h('label', { for: 'k', text: 'Passages retrieved (k)' }), k),
        h('div', { class: 'field' }, h('label', { for: 'top_n', text: 'Passages judged (top n)' }), topN),
        h('div', { class: 'field' }, h('label', { for: 'domains', text: 'Only these domains' }), domains,
          h('p', { class: 'hint', id: 'domains-hint', text: 'Comma-separated; empty for all.' })),
        h('div', { class: 'field' }, h('label', { for: 'since', text: 'Published since' }), since))),
    h('div', { class: 'actions' }, submit));

  claim.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      form.requestSubmit();
    }
  });

  onSubmit(form, { alerts, status, fields, pending: 'Retrieving and judging passages…' }, async () => {
    result.replaceChildren();
    const req = { claim: claim.value };
    if (k.value !== '') req.k = Number(k.value);
    if (topN.value !== '') req.top_n = Number(topN.value);
    const ds = domains.value.split(',').map((d) => d.trim()).filter(Boolean);
    if (ds.length) req.domains = ds;
    if (since.value) req.since = since.value;
    const res = await verify(req, signal);
    result.replaceChildren(...renderResult(res));
    return `Verdict: ${res.verdict}, score ${res.score} out of 100.`;
  });

  section.append(form, alerts, status, result);
  root.append(section);
}

function renderResult(res) {
  const cls = verdictClass[res.verdict] || 'nei';
  const cites = res.citations || [];
  const card = h('article', { class: ['card', 'verdict-card', `verdict-${cls}`], 'aria-labelledby': 'verdict-h', 'data-verdict': res.verdict },
    h('div', { class: 'verdict-head' },
      gauge(res.score, 'Evidence score', { tone: verdictTone[res.verdict] || 'neutral' }),
      h('div', { class: 'verdict-body' },
        h('p', { class: 'eyebrow', text: 'Verdict' }),
        h('h2', { id: 'verdict-h', class: 'verdict-name' }, h('span', { class: 'verdict-dot', 'aria-hidden': 'true' }), res.verdict),
        h('blockquote', { class: 'claim-quote', text: res.claim }),
        h('p', { class: 'muted', text: verdictText[res.verdict] || '' }),
        res.reason && res.reason.text ? h('p', { class: 'reason', dataset: { reason: res.reason.code } },
          h('span', { class: 'badge badge-neutral reason-code', text: res.reason.code.replace(/_/g, ' ') }), res.reason.text) : null)),
    h('h3', { class: 'section-title', text: cites.length ? `Citations (${cites.length})` : 'Citations' }),
    cites.length ? h('ol', { class: 'citations' }, cites.map(citation))
      : h('p', { class: 'muted', text: 'No passage was strong enough to cite.' }));

  const f = res.features || {};
  const featureCard = h('section', { class: 'card', 'aria-labelledby': 'features-h' },
    h('h2', { id: 'features-h', text: 'Why this score' }),
    h('p', { class: 'muted', text: 'The score is a weighted sum of these features, mapped to 0–100 by a sigmoid. Weights shown are the defaults; contradiction counts against the claim.' }),
    h('dl', { class: 'features' }, features.map((ft) => {
      const v = f[ft.key];
      return h('div', { class: 'feature', dataset: { feature: ft.key } },
        h('dt', {}, h('span', { class: 'feature-name', text: ft.name }), h('code', { text: ft.key })),
        h('dd', {},
          h('span', { class: 'feature-value', text: ft.unit === 'count' ? String(v ?? '–') : fixed(v) }),
          ft.unit === 'count' ? bar(Math.min((v || 0) / 3, 1), ft.key === 'c_max' ? 'bar-poor' : 'bar-good') : bar(v, ft.key === 'c_max' ? 'bar-poor' : 'bar-good'),
          h('span', { class: 'feature-weight', text: `weight ${ft.weight}` }),
          h('span', { class: 'feature-help', text: ft.help })));
    })),
    typeof f.num_ok === 'number' ? h('p', { class: 'muted small' }, 'Numbers and dates: ',
      h('strong', { text: f.num_ok === 1 ? 'agree with the sources' : f.num_ok === 0 ? 'a source disagrees' : 'no check applied' }),
      ` (num_ok ${fixed(f.num_ok, 1)}).`) : null);

  const passages = res.passages || [];
  const passageCard = h('section', { class: 'card', 'aria-labelledby': 'passages-h' },
    h('h2', { id: 'passages-h', text: `Judged passages (${passages.length})` }),
    passages.length ? table({
      caption: 'Judged passages with their probabilities',
      columns: [
        { label: '#', cell: (p) => String(p._n), value: (p) => p._n, numeric: true },
        { label: 'Passage', cell: passageCell, class: 'col-wide' },
        { label: 'Entail', cell: (p) => prob(p.entail, 'good'), value: (p) => p.entail, numeric: true },
        { label: 'Contradict', cell: (p) => prob(p.contradict, 'poor'), value: (p) => p.contradict, numeric: true },
        { label: 'Neutral', cell: (p) => prob(p.neutral, 'neutral'), value: (p) => p.neutral, numeric: true },
        { label: 'Relevance', cell: (p) => fixed(p.relevance), value: (p) => p.relevance, numeric: true },
        { label: 'Reliability', cell: (p) => fixed(p.reliability), value: (p) => p.reliability, numeric: true },
        { label: 'Recency', cell: (p) => fixed(p.recency), value: (p) => p.recency, numeric: true },
        { label: 'Numbers', cell: numCell },
      ],
      rows: passages.map((p, i) => ({ ...p, _n: i + 1 })),
    }) : h('p', { class: 'muted', text: 'The corpus returned no passages for this claim. Add sources on the Corpus page.' }));

  const t = res.timings_ms || {};
  const timing = Object.keys(t).length ? h('p', { class: 'muted small timings' },
    'Timings: ', Object.entries(t).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(' · ')) : null;
  return [card, featureCard, passageCard, timing].filter(Boolean);
}

function citation(c) {
  return h('li', { class: 'citation' },
    h('div', { class: 'citation-title' }, link(c.url, c.title || c.url || c.source_id)),
    h('div', { class: 'meta' },
      c.domain ? h('span', { class: 'domain', text: c.domain }) : null,
      date(c.published_at)),
    c.snippet ? h('p', { class: 'snippet', text: c.snippet }) : null);
}

function prob(x, kind) {
  return h('span', { class: 'prob' }, h('span', { class: 'prob-value', text: pct(x) }), bar(x, `bar-${kind}`));
}

function passageCell(p) {
  const text = p.text || '';
  const short = truncate(text, 160);
  return h('div', { class: 'passage' },
    h('div', { class: 'passage-title' }, link(p.url, p.title || p.url || p.source_id)),
    h('div', { class: 'meta' }, p.domain ? h('span', { class: 'domain', text: p.domain }) : null, date(p.published_at)),
    short === text ? h('p', { class: 'snippet', text })
      : h('details', { class: 'passage-text' }, h('summary', { text: short }), h('p', { text })),
    p.set_aside ? h('span', { class: 'badge badge-neutral set-aside', dataset: { setAside: p.set_aside }, text: setAsideText[p.set_aside] || p.set_aside }) : null,
    p.same_origin_as ? h('span', { class: 'badge badge-neutral set-aside', text: `near-copy of ${p.same_origin_as}: counts as that origin` }) : null);
}

function numCell(p) {
  const n = p.num || {};
  if (!n.applicable) return h('span', { class: 'muted', text: 'n/a' });
  if (n.ok) return h('span', { class: 'badge badge-good', text: 'agree' });
  const mm = (n.mismatches || []).map((m) => `${m.claim} vs ${m.source}`).join('; ');
  return h('span', {}, h('span', { class: 'badge badge-poor', text: 'differ' }), mm ? h('span', { class: 'small block', text: mm }) : null);
}
