// #/citations: check a document's citations (POST /v1/citations, seed 003).
// verity fetches every cited URL and judges whether the page states the
// claim that cites it; the report lists each citation's status, the claims
// verified or not, unsourced claims, severities and recommendations.
import { h, link, date, truncate, page } from './dom.js';
import { checkCitations, checkCitationsUpload } from './api.js';
import { gauge } from './gauge.js';
import { onSubmit } from './alert.js';
import { table } from './table.js';

const SEVERITY = { high: 3, medium: 2, low: 1 };
const VERDICT_LABEL = {
  verified: 'Verified', false: 'False', misattributed: 'Misattributed', miscited: 'Miscited',
  source_unavailable: 'Source unavailable', unsourced: 'Unsourced',
};
const VERDICT_TONE = {
  verified: 'good', false: 'poor', misattributed: 'poor', miscited: 'poor', source_unavailable: 'fair', unsourced: 'fair',
};
// SAMPLE cites pages of the demo corpus, which verity reads offline (their
// reserved example domains resolve nowhere): one claim each source states,
// one a source contradicts, one whose subject is resolved from the
// sentence before, and one that cites nothing.
const SAMPLE = `# Harbour notes

The Golden Gate Bridge crosses the strait at the mouth of San Francisco Bay. It opened in 1937 [1].
The main span of the Golden Gate Bridge is 2,500 metres long [1].
More than 9,000 active spacecraft orbited Earth at the start of 2024 [2].
Our survey found that 73% of visitors walk across the bridge.

[1]: https://civil-engineering.example.org/landmarks/golden-gate-at-80
[2]: https://space-agency.example/publications/space-environment-report-2024
`;

export function render(root, { signal }) {
  const doc = h('textarea', { id: 'cite-doc', rows: 9, spellcheck: 'false', 'aria-describedby': 'cite-doc-hint' });
  const file = h('input', { id: 'cite-file', type: 'file', accept: '.md,.markdown,.html,.htm,.txt,.text', 'aria-describedby': 'cite-file-hint' });
  const format = h('select', { id: 'cite-format' },
    h('option', { value: '', text: 'Detect' }), h('option', { value: 'markdown', text: 'Markdown' }),
    h('option', { value: 'html', text: 'HTML' }), h('option', { value: 'text', text: 'Plain text' }));
  const name = h('input', { id: 'cite-path', type: 'text', maxlength: 300, autocomplete: 'off', placeholder: 'e.g. reports/q3-analysis.md' });
  const fields = { document: doc, file, format, path: name, body: doc };
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', text: 'Check citations' });
  const { section, alerts, status, result } = page('citations', 'Check citations',
    'verity fetches every URL a document cites and checks that the page really says what the document claims; it also flags claims that cite nothing.');

  const form = h('form', { class: 'card form', novalidate: true, 'aria-labelledby': 'citations-h' },
    h('div', { class: 'field' }, h('label', { for: 'cite-doc', text: 'Document' }), doc,
      h('p', { class: 'hint', id: 'cite-doc-hint' }, 'Paste Markdown, HTML or text (up to 2 MiB). Citations read: [1] and (1) markers and superscripts with a References, Sources or Notes list; reference links ([text][id], [id] with [id]: url definitions); [^1] footnotes; inline links; bare URLs; DOIs and arXiv ids; HTML <a>, <cite> and quotation cite attributes. Cited pages may be HTML, Markdown, text or PDF. ',
        h('button', { type: 'button', class: 'linkish', text: 'Use a sample document', onclick: () => { doc.value = SAMPLE; doc.focus(); } }))),
    h('div', { class: 'grid-3' },
      h('div', { class: 'field' }, h('label', { for: 'cite-file', text: 'Or upload a file' }), h('div', { class: 'dropzone' }, file),
        h('p', { class: 'hint', id: 'cite-file-hint', text: '.md, .html or .txt; a chosen file is checked instead of the text above.' })),
      h('div', { class: 'field' }, h('label', { for: 'cite-format', text: 'Format' }), format),
      h('div', { class: 'field' }, h('label', { for: 'cite-path', text: 'Document name (optional)' }), name)),
    h('div', { class: 'actions' }, submit));

  onSubmit(form, { alerts, status, fields, pending: 'Fetching every cited source and checking each claim… this can take up to a minute.' }, async () => {
    result.replaceChildren();
    let report;
    if (file.files.length) {
      const fd = new FormData();
      fd.append('file', file.files[0], file.files[0].name);
      if (format.value) fd.append('format', format.value);
      report = await checkCitationsUpload(fd, signal);
    } else {
      const req = { document: doc.value };
      if (format.value) req.format = format.value;
      if (name.value.trim()) req.path = name.value.trim();
      report = await checkCitations(req, signal);
    }
    result.replaceChildren(...renderReport(report));
    const s = report.summary || {};
    return `Checked ${s.citations_checked ?? 0} citations for ${s.total_claims ?? 0} claims: ${s.verified_claims ?? 0} verified, ${s.false_claims ?? 0} false.`;
  });

  section.append(form, alerts, status, result);
  root.append(section);
}

function renderReport(r) {
  const s = r.summary || {};
  const vd = r.verification_details || {};
  const score = typeof s.accuracy_score === 'number' ? Math.round(s.accuracy_score) : null;
  const parts = [];

  parts.push(h('section', { class: 'card report-summary', 'aria-labelledby': 'cite-report-h' },
    h('h2', { id: 'cite-report-h', class: 'sr-only', text: 'Citation report' }),
    gauge(score, 'Accuracy score', { size: 150 }),
    h('div', { class: 'metrics' },
      r.analysis_path ? h('p', { class: 'muted small' }, 'Document ', h('code', { text: r.analysis_path })) : null,
      h('dl', { class: 'metrics-bar' },
        metric('Claims', s.total_claims), metric('Verified', s.verified_claims),
        metric('Unverified', s.unverified_claims), metric('False', s.false_claims)),
      h('p', { class: 'small muted' },
        `${s.citations_valid ?? 0} of ${s.citations_checked ?? 0} citations valid · ${vd.webfetch_successful ?? 0} of ${vd.webfetch_attempts ?? 0} pages fetched`,
        typeof vd.processing_time_seconds === 'number' ? ` · ${vd.processing_time_seconds.toFixed(1)} s` : '',
        r.timestamp ? ' · ' : '', date(r.timestamp)))));

  // Warnings say what limits the report: without claims there is no
  // accuracy to score, and the gauge shows none.
  const warnings = r.warnings || [];
  if (warnings.length) {
    parts.push(h('div', { class: 'alert alert-warn report-warnings', role: 'status' },
      h('strong', { class: 'alert-title', text: score === null ? 'No accuracy score' : 'Warning' }),
      warnings.map((w) => h('p', { text: w }))));
  }

  const critical = r.critical_issues || [];
  if (critical.length) {
    parts.push(h('section', { class: 'card', 'aria-labelledby': 'critical-h' },
      h('h2', { id: 'critical-h', text: `Critical issues (${critical.length})` }),
      h('ul', { class: 'issues' }, bySeverity(critical).map((i) => h('li', { class: 'issue', dataset: { severity: i.severity } },
        h('div', { class: 'issue-head' }, severityBadge(i.severity), h('strong', { text: i.issue || 'Issue' }),
          i.citation_id ? h('span', { class: 'muted small', text: ` ${i.citation_id}` }) : null),
        i.claim ? h('blockquote', { class: 'claim-quote small-quote', text: i.claim }) : null,
        meta(i.location, i.url),
        i.recommendation ? h('p', { class: 'recommendation' }, h('strong', { text: 'Do: ' }), i.recommendation) : null)))));
  }

  const issues = r.citation_issues || [];
  parts.push(h('section', { class: 'card', 'aria-labelledby': 'cite-issues-h' },
    h('h2', { id: 'cite-issues-h', text: `Citation issues (${issues.length})` }),
    issues.length ? table({
      caption: 'Citations with a problem and their status; choose a column heading to sort',
      columns: [
        { label: 'Ref', cell: (i) => i.citation_id || '–', value: (i) => i.citation_id || '' },
        { label: 'Status', cell: (i) => statusBadge(i.status, i.http_status), value: (i) => i.status || '' },
        { label: 'Claim and source', cell: citationCell, class: 'col-wide' },
        { label: 'Severity', cell: (i) => severityBadge(i.severity), value: (i) => SEVERITY[i.severity] || 0 },
        { label: 'Recommendation', cell: (i) => i.recommendation || '' },
      ],
      rows: issues,
      sort: { col: 3, dir: -1 },
      rowProps: (i) => ({ dataset: { status: i.status || '' } }),
    }) : h('p', { class: 'muted', text: s.citations_checked ? 'Every citation checks out.' : 'The document cites no URLs.' })));

  const claims = r.claims || [];
  if (claims.length) {
    parts.push(h('section', { class: 'card', 'aria-labelledby': 'cite-claims-h' },
      h('h2', { id: 'cite-claims-h', text: `Claims (${claims.length})` }),
      h('ol', { class: 'cite-claims' }, claims.map((c) => h('li', { class: 'cite-claim', dataset: { verdict: c.verdict || '' } },
        h('div', { class: 'issue-head' }, verdictBadge(c.verdict), c.kind ? h('span', { class: 'muted small', text: c.kind }) : null,
          c.location ? h('span', { class: 'muted small', text: c.location }) : null),
        h('p', { class: 'finding-claim', text: c.claim }),
        // The claim as checked, when its subject was resolved from the
        // sentences before ("It opened in 1937." names the bridge).
        c.resolved ? h('p', { class: 'claim-resolved muted small', text: `Checked as: “${c.resolved}”` }) : null,
        (c.citations || []).length ? h('ul', { class: 'mini-cites' }, c.citations.map((x) => h('li', {},
          x.citation_id ? `${x.citation_id} ` : '', link(x.url, truncate(x.url || '', 80)), ' ', statusBadge(x.status)))) : null)))));
  }

  const unsourced = r.unsourced_claims || [];
  if (unsourced.length) {
    parts.push(h('section', { class: 'card', 'aria-labelledby': 'unsourced-h' },
      h('h2', { id: 'unsourced-h', text: `Unsourced claims (${unsourced.length})` }),
      h('ul', { class: 'issues' }, bySeverity(unsourced).map((u) => h('li', { class: 'issue', dataset: { severity: u.severity } },
        h('div', { class: 'issue-head' }, severityBadge(u.severity), u.kind ? h('span', { class: 'badge badge-neutral', text: u.kind }) : null,
          u.location ? h('span', { class: 'muted small', text: u.location }) : null),
        h('p', { class: 'finding-claim', text: u.claim }),
        u.recommendation ? h('p', { class: 'recommendation' }, h('strong', { text: 'Do: ' }), u.recommendation) : null,
        alternative(u.alternative))))));
  }

  const recs = r.recommendations || [];
  if (recs.length) {
    parts.push(h('section', { class: 'card', 'aria-labelledby': 'recs-h' },
      h('h2', { id: 'recs-h', text: 'Recommendations' }),
      h('ol', { class: 'recs' }, recs.map((x) => h('li', { text: x })))));
  }

  const sources = r.sources || [];
  if (sources.length) {
    parts.push(h('details', { class: 'card sources-fetched' },
      h('summary', {}, h('span', { text: `Pages fetched (${sources.length})` }), h('span', { class: 'muted small', text: ' for reproducing the report' })),
      table({
        caption: 'Every cited URL as fetched',
        columns: [
          { label: 'URL', cell: (x) => h('span', {}, link(x.url, truncate(x.url || '', 90)),
            x.final_url && x.final_url !== x.url ? h('span', { class: 'small muted block' }, '→ ', truncate(x.final_url, 90)) : null,
            x.title ? h('span', { class: 'small block', text: x.title }) : null), class: 'col-wide' },
          { label: 'Status', cell: (x) => statusBadge(x.status, x.http_status), value: (x) => x.status || '' },
          { label: 'Words', cell: (x) => String(x.words ?? '–'), value: (x) => x.words || 0, numeric: true },
          { label: 'Notes', cell: (x) => [x.detail || '', x.ignored_instructions ? ` ${x.ignored_instructions} sentences addressed to the checker were left out.` : ''].join('').trim() },
        ],
        rows: sources,
      })));
  }
  return parts;
}

function citationCell(i) {
  return h('div', { class: 'passage' },
    i.claim ? h('p', { class: 'finding-claim', text: i.claim }) : null,
    i.url ? h('div', { class: 'small' }, link(i.url, truncate(i.url, 90))) : null,
    i.location ? h('div', { class: 'small muted', text: i.location }) : null,
    i.actual ? h('p', { class: 'small' }, h('strong', { text: 'Source says: ' }), i.actual) : null,
    i.excerpt ? h('p', { class: 'snippet', text: `“${truncate(i.excerpt, 240)}”` }) : null,
    alternative(i.alternative));
}

function alternative(a) {
  if (!a || !(a.url || a.source_id)) return null;
  return h('p', { class: 'small alternative' }, h('strong', { text: 'In the corpus: ' }),
    link(a.url, a.title || a.url || a.source_id), a.excerpt ? ` — “${truncate(a.excerpt, 160)}”` : '');
}

function meta(location, url) {
  if (!location && !url) return null;
  return h('div', { class: 'meta' }, location ? h('span', { text: location }) : null, url ? link(url, truncate(url, 80)) : null);
}

function bySeverity(list) {
  return [...list].sort((a, b) => (SEVERITY[b.severity] || 0) - (SEVERITY[a.severity] || 0));
}

function metric(name, value) {
  return h('div', { class: 'metric' }, h('dt', { text: name }), h('dd', { text: String(value ?? 0) }));
}

function severityBadge(sev) {
  if (!sev) return h('span', { class: 'muted', text: '–' });
  const tone = { high: 'badge-poor', medium: 'badge-fair', low: 'badge-neutral' }[sev] || 'badge-neutral';
  return h('span', { class: ['badge', tone], text: sev });
}

function verdictBadge(v) {
  return h('span', { class: ['badge', `badge-${VERDICT_TONE[v] || 'neutral'}`], text: VERDICT_LABEL[v] || v || 'unknown' });
}

// statusBadge shows a citation or fetch status such as "verified" or
// "404_not_found" in words.
function statusBadge(status, httpStatus) {
  const s = status || 'unknown';
  const tone = s === 'verified' || s === 'ok' ? 'badge-good'
    : ['contradicted', 'claim_not_in_source', 'misattributed', '404_not_found', 'reference_missing'].includes(s) ? 'badge-poor'
      : 'badge-fair';
  const words = s.replace(/^(\d{3})_/, '$1 ').replaceAll('_', ' ');
  return h('span', { class: ['badge', tone], title: httpStatus ? `HTTP ${httpStatus}` : null, text: words });
}
