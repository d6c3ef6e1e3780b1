// #/corpus: the sources in the corpus (GET /v1/sources, /v1/stats), and
// ingest by URL or file upload (POST /v1/ingest) with the job's progress
// (GET /v1/jobs/{id}) shown live until it finishes.
import { h, link, date, fixed, sleep, isAbort } from './dom.js';
import * as api from './api.js';
import { showError, showNotice, clearError } from './alert.js';
import { table } from './table.js';

const PAGE = 25;
const FINISHED = new Set(['succeeded', 'partial', 'failed', 'canceled']);
const ACCEPT = '.html,.htm,.md,.markdown,.txt,.jsonl,.pdf';

// sourceLines reads the addresses box: one http(s) URL a line, blank lines
// and lines starting with "#" skipped. It returns the good URLs and, for
// each bad line, its number (from 1) and why it is bad, so that one bad
// line does not cost the others.
function isWebURL(s) {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

export function sourceLines(text) {
  const good = [];
  const bad = [];
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const s = raw.trim();
    if (!s || s.startsWith('#')) return;
    const parts = s.split(/\s+/);
    let reason = '';
    if (parts.length > 1) {
      reason = parts.every(isWebURL) ? 'holds more than one address; put one a line' : 'is not an http(s) URL';
    } else if (/^(\/|~|\.{1,2}\/|[a-z]:\\|file:)/i.test(s)) {
      reason = 'is a file path; the server reads no paths, so upload the file under Files';
    } else if (!isWebURL(s)) {
      reason = 'is not an http(s) URL';
    }
    if (reason) bad.push({ line: i + 1, text: s, reason });
    else good.push(s);
  });
  return { good, bad };
}

export function render(root, { signal }) {
  const statSources = h('dd', { text: '–' });
  const statPassages = h('dd', { text: '–' });

  // Ingest.
  const urls = h('textarea', { id: 'ingest-urls', rows: 3, placeholder: 'https://example.org/article', 'aria-describedby': 'ingest-urls-hint', autocomplete: 'off' });
  const files = h('input', { id: 'ingest-files', type: 'file', multiple: true, accept: ACCEPT, 'aria-describedby': 'ingest-files-hint' });
  const ingestFields = { sources: urls, url: urls, file: files, body: urls };
  const ingestAlerts = h('div', { id: 'ingest-alerts', class: 'alerts' });
  const ingestButton = h('button', { type: 'submit', class: 'btn btn-primary', text: 'Ingest' });
  const jobBox = h('div', { class: 'job-box' });
  // Screen readers hear a job's state changes, not every progress tick.
  const jobStatus = h('p', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });
  const ingestForm = h('form', { class: 'form', novalidate: true, 'aria-labelledby': 'ingest-h' },
    h('div', { class: 'grid-2' },
      h('div', { class: 'field' }, h('label', { for: 'ingest-urls', text: 'Web addresses' }), urls,
        h('p', { class: 'hint', id: 'ingest-urls-hint', text: 'One http(s) URL a line; a bad line is reported by its number and the others still go in. Server paths are not read: upload files instead. Pages (HTML, Markdown, text, PDF) are fetched through a guarded fetcher that obeys robots.txt.' })),
      h('div', { class: 'field' }, h('label', { for: 'ingest-files', text: 'Files' }),
        h('div', { class: 'dropzone' }, files),
        h('p', { class: 'hint', id: 'ingest-files-hint', text: 'HTML, Markdown, text, JSONL or PDF; up to 20 files and 20 MiB together.' }))),
    h('div', { class: 'actions' }, ingestButton));

  // Sources.
  const q = h('input', { id: 'src-q', type: 'search', maxlength: 200, placeholder: 'Title, URL or domain', autocomplete: 'off' });
  const domain = h('input', { id: 'src-domain', type: 'text', placeholder: 'e.g. nasa.gov', autocomplete: 'off' });
  const since = h('input', { id: 'src-since', type: 'date' });
  const srcFields = { q, domain, since };
  const srcAlerts = h('div', { id: 'src-alerts', class: 'alerts' });
  const srcStatus = h('p', { class: 'muted small', role: 'status', 'aria-live': 'polite' });
  const srcTable = h('div', { class: 'sources-table' });
  const prev = h('button', { type: 'button', class: 'btn', text: 'Previous' });
  const next = h('button', { type: 'button', class: 'btn', text: 'Next' });
  const pager = h('div', { class: 'pager' }, prev, next);
  const searchForm = h('form', { class: 'filters', role: 'search', 'aria-label': 'Search the sources', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: 'src-q', text: 'Search' }), q),
    h('div', { class: 'field' }, h('label', { for: 'src-domain', text: 'Domain' }), domain),
    h('div', { class: 'field' }, h('label', { for: 'src-since', text: 'Published since' }), since),
    h('div', { class: 'field field-button' }, h('button', { type: 'submit', class: 'btn', text: 'Search' })));

  const jobsList = h('div', { class: 'jobs-list' });

  root.append(h('section', { class: 'view view-corpus' },
    h('div', { class: 'view-head' },
      h('h1', { id: 'corpus-h', tabindex: -1, text: 'Corpus' }),
      h('p', { class: 'lead', text: 'The sources verity verifies claims against. Add web pages or documents; each is split into passages and indexed.' })),
    h('dl', { class: 'stats' },
      h('div', { class: 'stat' }, h('dt', { text: 'Sources' }), statSources),
      h('div', { class: 'stat' }, h('dt', { text: 'Passages' }), statPassages)),
    h('section', { class: 'card', 'aria-labelledby': 'ingest-h' },
      h('h2', { id: 'ingest-h', text: 'Add sources' }), ingestForm, ingestAlerts, jobBox, jobStatus),
    h('section', { class: 'card', 'aria-labelledby': 'sources-h' },
      h('h2', { id: 'sources-h', text: 'Sources' }), searchForm, srcAlerts, srcStatus, srcTable, pager),
    h('section', { class: 'card', 'aria-labelledby': 'jobs-h' },
      h('h2', { id: 'jobs-h', text: 'Recent ingest jobs' }), jobsList)));

  let offset = 0;
  let total = 0;

  async function loadStats() {
    try {
      const st = await api.stats(signal);
      statSources.textContent = st.sources.toLocaleString('en');
      statPassages.textContent = st.passages.toLocaleString('en');
    } catch (err) {
      if (!isAbort(err)) statSources.textContent = statPassages.textContent = '?';
    }
  }

  async function loadSources() {
    clearError(srcAlerts, srcFields);
    srcStatus.textContent = 'Loading sources…';
    try {
      const res = await api.sources({ q: q.value.trim(), domain: domain.value.trim(), since: since.value, limit: PAGE, offset }, signal);
      total = res.total;
      const list = res.sources || [];
      srcStatus.textContent = total === 0 ? 'No sources match.'
        : `Showing ${offset + 1}–${offset + list.length} of ${total.toLocaleString('en')} sources.`;
      srcTable.replaceChildren(list.length ? table({
        caption: 'Sources in the corpus',
        columns: [
          { label: 'Title', cell: (s) => h('span', { class: 'source-title' }, link(s.url, s.title || s.url || s.id), !s.url ? h('span', { class: 'muted small block mono', text: s.id }) : null), value: (s) => (s.title || s.id).toLowerCase(), class: 'col-wide' },
          { label: 'Domain', cell: (s) => s.domain || '–', value: (s) => s.domain || '' },
          { label: 'Published', cell: (s) => date(s.published_at) || '–', value: (s) => s.published_at || '' },
          { label: 'Passages', cell: (s) => String(s.passages), value: (s) => s.passages, numeric: true },
          { label: 'Reliability', cell: (s) => fixed(s.reliability), value: (s) => s.reliability, numeric: true },
          { label: 'Ingested', cell: (s) => date(s.ingested_at) || '–', value: (s) => s.ingested_at || '' },
        ],
        rows: list,
        rowProps: (s) => ({ dataset: { sourceId: s.id } }),
      }) : '');
      prev.disabled = offset === 0;
      next.disabled = offset + list.length >= total;
      pager.hidden = total <= PAGE;
    } catch (err) {
      if (isAbort(err)) return;
      srcStatus.textContent = '';
      showError(srcAlerts, err, srcFields);
    }
  }

  async function loadJobs() {
    try {
      const res = await api.jobs(10, signal);
      const list = res.jobs || [];
      jobsList.replaceChildren(list.length ? h('ul', { class: 'jobs' }, list.map((j) => h('li', { class: 'job-row', dataset: { jobId: j.id, state: j.state } },
        stateBadge(j.state), ' ',
        h('span', { class: 'mono small', text: j.id.slice(0, 8) }), ' ',
        h('span', { text: `${j.done}/${j.total} sources · ${j.ingested} ingested · ${j.skipped} skipped · ${j.failed} failed` }), ' ',
        h('span', { class: 'muted small' }, date(j.created_at))))) : h('p', { class: 'muted', text: 'No ingest jobs yet.' }));
      return list;
    } catch (err) {
      if (!isAbort(err)) jobsList.replaceChildren(h('p', { class: 'muted', text: `Jobs could not be loaded: ${err.message}` }));
      return [];
    }
  }

  // follow polls a job until it finishes, then refreshes the lists. The
  // interval grows from 0.4 s to 3 s so long jobs cost little.
  async function follow(j) {
    let wait = 400;
    const announce = () => {
      jobStatus.textContent = FINISHED.has(j.state)
        ? `Ingest job ${j.state}: ${j.ingested} ingested, ${j.skipped} unchanged, ${j.failed} failed.`
        : `Ingest job ${j.state}.`;
    };
    showJob(jobBox, j);
    announce();
    try {
      while (!FINISHED.has(j.state)) {
        await sleep(wait, signal);
        wait = Math.min(wait * 1.5, 3000);
        const before = j.state;
        j = await api.job(j.id, signal);
        showJob(jobBox, j);
        if (j.state !== before) announce();
      }
    } catch (err) {
      if (isAbort(err)) return;
      showError(ingestAlerts, { title: 'Lost track of the ingest job', detail: `${err.message} The job keeps running on the server; reload to see it.` });
      return;
    }
    offset = 0;
    await Promise.all([loadStats(), loadSources(), loadJobs()]);
  }

  ingestForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearError(ingestAlerts, ingestFields);
    const { good: list, bad } = sourceLines(urls.value);
    if (bad.length) {
      // Each bad line is named by its number and stays in the box to be
      // fixed; the good ones are ingested.
      showNotice(ingestAlerts, `${bad.length} ${bad.length === 1 ? 'line was' : 'lines were'} left out`,
        bad.map((b) => `Line ${b.line} (${b.text.slice(0, 80)}) ${b.reason}.`).join(' '));
    }
    if (!list.length && !files.files.length) {
      if (!bad.length) showError(ingestAlerts, { title: 'Nothing to ingest', detail: 'Enter one http(s) URL a line, or choose files.' }, ingestFields);
      return;
    }
    ingestButton.disabled = true;
    try {
      let j;
      if (files.files.length) {
        const fd = new FormData();
        for (const f of files.files) fd.append('file', f, f.name);
        for (const u of list) fd.append('url', u);
        j = await api.ingestForm(fd, signal);
      } else {
        j = await api.ingestURLs(list, signal);
      }
      urls.value = bad.map((b) => b.text).join('\n');
      files.value = '';
      ingestButton.disabled = false;
      await follow(j);
    } catch (err) {
      if (!isAbort(err)) showError(ingestAlerts, err, ingestFields);
    } finally {
      ingestButton.disabled = false;
    }
  });

  searchForm.addEventListener('submit', (e) => {
    e.preventDefault();
    offset = 0;
    loadSources();
  });
  prev.addEventListener('click', () => { offset = Math.max(0, offset - PAGE); loadSources(); });
  next.addEventListener('click', () => { if (offset + PAGE < total) { offset += PAGE; loadSources(); } });

  loadStats();
  loadSources();
  loadJobs().then((list) => {
    // A job still running when the page opens is followed too.
    const live = list.find((j) => !FINISHED.has(j.state));
    if (live && !jobBox.hasChildNodes()) follow(live);
  });
}

function stateBadge(state) {
  const cls = { succeeded: 'badge-good', partial: 'badge-fair', failed: 'badge-poor', canceled: 'badge-neutral', running: 'badge-accent', queued: 'badge-neutral' }[state] || 'badge-neutral';
  return h('span', { class: ['badge', cls], text: state });
}

// showJob draws one job's progress: a progress bar, the counts and each
// failed source's reason.
function showJob(box, j) {
  const done = FINISHED.has(j.state);
  const progress = h('progress', { id: 'job-progress', max: Math.max(j.total, 1), value: j.total ? j.done : (done ? 1 : 0), 'aria-labelledby': 'job-progress-label' });
  if (!j.total && !done) progress.removeAttribute('value'); // indeterminate until the job knows its size
  const errs = j.errors || [];
  box.replaceChildren(h('div', { class: 'job', dataset: { jobId: j.id, state: j.state } },
    h('div', { class: 'job-head' },
      h('span', { id: 'job-progress-label', class: 'job-title' }, 'Ingest job ', h('span', { class: 'mono', text: j.id.slice(0, 8) })),
      stateBadge(j.state)),
    progress,
    h('p', { class: 'small job-counts', text: `${j.done} of ${j.total} sources done · ${j.ingested} ingested · ${j.skipped} unchanged · ${j.failed} failed` }),
    j.message ? h('p', { class: 'small muted', text: j.message }) : null,
    errs.length ? h('ul', { class: 'job-errors' }, errs.map((er) => h('li', {}, h('code', { text: er.source }), ': ', er.reason))) : null));
}
