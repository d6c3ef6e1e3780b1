// #/factcheck and #/factcheck/{messageId}: seed 001's fact-check mode.
// A run streams POST /v1/factcheck as server-sent events: claims appear
// underlined in the content and listed in the text's order in a side
// panel (a resolved claim beside the sentence as written), each
// claim's status moves from pending to its verdict as checkers finish, and
// the report brings the reliability gauge, a sortable evidence table, the
// annotated content and the findings by verdict. The stored result (GET
// /v1/factchecks/{messageId}) then adds each checker's evidence; a past
// fact-check opens from its link the same way.
import { h, link, date, bar, truncate, isAbort, page } from './dom.js';
import { factcheckStream, factcheckResult } from './api.js';
import { gauge } from './gauge.js';
import { showError, clearError, showNotice } from './alert.js';
import { table } from './table.js';

const VERDICTS = ['VERIFIED', 'DISPUTED', 'UNVERIFIABLE'];
const LABEL = { pending: 'Checking…', stopped: 'Not checked', VERIFIED: 'Verified', DISPUTED: 'Disputed', UNVERIFIABLE: 'Unverifiable' };
const GLYPH = { VERIFIED: '✓', DISPUTED: '✕', UNVERIFIABLE: '?', stopped: '–' };
const CONFIDENCE_ORDER = { HIGH: 3, MEDIUM: 2, LOW: 1 };
const RECENT_KEY = 'verity.recentFactchecks';
// SAMPLE shows each verdict on the demo corpus, a resolved pronoun ("He")
// and a skipped opinion; cmd/verity's TestUIExamples checks its verdicts
// through the real server.
export const SAMPLE = 'The Golden Gate Bridge opened in 1937. Tim Berners-Lee worked at CERN. '
  + 'He proposed the World Wide Web in 1995. The Eiffel Tower is repainted about every seven years. '
  + 'I think San Francisco is the most beautiful city in the world.';

// renderNew is #/factcheck: the request form, the live run and recent runs.
export function renderNew(root, { signal }) {
  const modeText = h('input', { type: 'radio', name: 'fc-mode', id: 'fc-mode-text', value: 'text', checked: true });
  const modeAsk = h('input', { type: 'radio', name: 'fc-mode', id: 'fc-mode-ask', value: 'ask' });
  const content = h('textarea', { id: 'fc-content', rows: 7, 'aria-describedby': 'fc-content-hint' });
  const title = h('input', { id: 'fc-title', type: 'text', maxlength: 200, autocomplete: 'off' });
  const question = h('textarea', { id: 'fc-question', rows: 2 });
  const generator = h('input', { id: 'fc-generator', type: 'text', autocomplete: 'off', placeholder: 'e.g. llama3.1:8b', 'aria-describedby': 'fc-generator-hint' });
  const extractor = h('input', { id: 'fc-extractor', type: 'text', autocomplete: 'off', placeholder: 'verity/extractor' });
  const checkers = h('input', { id: 'fc-checkers', type: 'text', autocomplete: 'off', placeholder: 'verity/evidence', 'aria-describedby': 'fc-checkers-hint' });
  const reporter = h('input', { id: 'fc-reporter', type: 'text', autocomplete: 'off', placeholder: 'verity/reporter' });
  const fields = {
    question: question, 'modeConfig.contentToCheck': content, 'modeConfig.generatorModel': generator,
    'modeConfig.extractorModel': extractor, 'modeConfig.checkerModels': checkers, 'modeConfig.reporterModel': reporter,
  };
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', text: 'Run fact-check' });
  const stop = h('button', { type: 'button', class: 'btn', text: 'Stop', hidden: true });
  const { section, alerts, status, result: runArea } = page('factcheck', 'Fact-check a text',
    'verity extracts the verifiable claims of a text, has independent checkers verify each one, and reports how reliable the text is.');
  const recent = h('div', { class: 'recent' });

  const textPanel = h('div', { class: 'mode-panel', id: 'fc-panel-text' },
    h('div', { class: 'field' }, h('label', { for: 'fc-content', text: 'Text to check' }), content,
      h('p', { class: 'hint', id: 'fc-content-hint' }, 'Paste an article, an answer or notes (up to 20,000 characters are checked). ',
        h('button', { type: 'button', class: 'linkish', text: 'Use a sample text', onclick: () => { content.value = SAMPLE; content.focus(); } }))),
    h('div', { class: 'field' }, h('label', { for: 'fc-title', text: 'Title (optional)' }), title));
  const askPanel = h('div', { class: 'mode-panel', id: 'fc-panel-ask', hidden: true },
    h('div', { class: 'field' }, h('label', { for: 'fc-question', text: 'Question' }), question),
    h('div', { class: 'field' }, h('label', { for: 'fc-generator', text: 'Generator model' }), generator,
      h('p', { class: 'hint', id: 'fc-generator-hint', text: 'A model of the backend configured on the server answers the question, then its answer is checked. Without a configured backend the server refuses and says why.' })));
  const syncMode = () => {
    textPanel.hidden = !modeText.checked;
    askPanel.hidden = !modeAsk.checked;
    fields.question = modeText.checked ? content : question;
  };
  modeText.addEventListener('change', syncMode);
  modeAsk.addEventListener('change', syncMode);
  syncMode();

  const form = h('form', { class: 'card form', novalidate: true, 'aria-labelledby': 'factcheck-h' },
    h('fieldset', { class: 'segmented' },
      h('legend', { text: 'What to check' }),
      h('span', { class: 'seg' }, modeText, h('label', { for: 'fc-mode-text', text: 'Paste text' })),
      h('span', { class: 'seg' }, modeAsk, h('label', { for: 'fc-mode-ask', text: 'Ask a question' }))),
    textPanel, askPanel,
    h('details', { class: 'options' }, h('summary', { text: 'Models' }),
      h('div', { class: 'grid-3' },
        h('div', { class: 'field' }, h('label', { for: 'fc-extractor', text: 'Claim extractor' }), extractor),
        h('div', { class: 'field' }, h('label', { for: 'fc-checkers', text: 'Checkers' }), checkers,
          h('p', { class: 'hint', id: 'fc-checkers-hint', text: '1 to 4, comma-separated.' })),
        h('div', { class: 'field' }, h('label', { for: 'fc-reporter', text: 'Reporter' }), reporter)),
      h('p', { class: 'hint', text: 'Names starting with verity/ are built-in roles that need no model: verity/evidence verifies each claim against the corpus.' })),
    h('div', { class: 'actions' }, submit, stop));

  let running = null;
  stop.addEventListener('click', () => running?.abort());

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearError(alerts, fields);
    const mc = {};
    let q;
    if (modeText.checked) {
      mc.contentToCheck = content.value;
      q = title.value.trim() || firstLine(content.value);
    } else {
      q = question.value;
      mc.generatorModel = generator.value.trim();
    }
    if (extractor.value.trim()) mc.extractorModel = extractor.value.trim();
    const cs = checkers.value.split(',').map((c) => c.trim()).filter(Boolean);
    if (cs.length) mc.checkerModels = cs;
    if (reporter.value.trim()) mc.reporterModel = reporter.value.trim();
    const req = { question: q, mode: 'fact_check', modeConfig: mc };

    running = new AbortController();
    const runSignal = AbortSignal.any([signal, running.signal]);
    const run = new Run(runArea, status, { userText: modeText.checked ? content.value : null });
    submit.disabled = true;
    stop.hidden = false;
    status.textContent = 'Starting the fact-check…';
    try {
      await factcheckStream(req, (name, data) => run.event(name, data), runSignal);
      status.textContent = 'Fact-check complete. Loading each checker’s evidence…';
      try {
        run.applyResult(await factcheckResult(run.messageId, runSignal));
        status.textContent = `Fact-check complete: ${run.summaryText()}.`;
      } catch (err) {
        if (isAbort(err)) throw err;
        status.textContent = `Fact-check complete: ${run.summaryText()}.`;
        showNotice(alerts, 'The evidence could not be loaded', `${err.message} The verdicts above are complete; open the link to try again.`);
      }
      remember(run.messageId, run.title || q);
      renderRecent(recent);
    } catch (err) {
      if (isAbort(err)) {
        if (signal.aborted) return; // the user left the page
        run.stopped();
        status.textContent = 'Stopped.';
        showNotice(alerts, 'Fact-check stopped', 'The stages that had finished are stored.');
        return;
      }
      run.stopped(err);
      status.textContent = 'The fact-check did not finish.';
      showError(alerts, err, fields);
    } finally {
      submit.disabled = false;
      stop.hidden = true;
      running = null;
    }
  });

  renderRecent(recent);
  section.append(form, alerts, status, runArea, recent);
  root.append(section);
}

// renderStored is #/factcheck/{messageId}: a past fact-check.
export async function renderStored(root, { signal, params: [id] }) {
  const { section, heading, alerts, status, result: runArea } = page('factcheck', 'Fact-check',
    'A stored fact-check, rebuilt from its deliberation stages.');
  status.textContent = 'Loading the fact-check…';
  section.append(h('p', {}, h('a', { href: '#/factcheck', text: 'Start a new fact-check' })), alerts, status, runArea);
  root.append(section);
  try {
    const res = await factcheckResult(id, signal);
    const run = new Run(runArea, status, { stored: true });
    run.applyResult(res);
    if (res.title) {
      heading.textContent = res.title;
      document.title = `${res.title} · verity`;
    }
    status.textContent = `Fact-check loaded: ${run.summaryText()}.`;
  } catch (err) {
    if (isAbort(err)) return;
    status.textContent = '';
    showError(alerts, err);
  }
}

function firstLine(text) {
  const line = (text || '').trim().split(/\n/)[0] || '';
  return line.length > 120 ? truncate(line, 120) : line;
}

function majority(verdicts) {
  const n = {};
  for (const v of verdicts) n[v.verdict] = (n[v.verdict] || 0) + 1;
  let best = null;
  for (const k of VERDICTS) if (n[k] && (!best || n[k] > n[best])) best = k;
  return best;
}

// Run is one fact-check on screen: its state and the elements that show it.
class Run {
  // userText is the text the user submitted, shown from the start of a
  // live run; the stored result replaces it (the server may truncate it).
  constructor(area, status, { stored = false, userText = null } = {}) {
    this.status = status;
    this.stored = stored;
    this.userText = userText;
    this.messageId = '';
    this.title = '';
    this.checkerModels = [];
    this.checkerCount = 0;
    this.checkersDone = 0;
    this.content = null;
    this.claims = [];
    this.verdicts = new Map();
    this.consensus = new Map();
    this.report = null;
    this.items = new Map();
    this.notes = [];

    this.steps = {};
    const step = (key, label) => {
      const detail = h('span', { class: 'step-detail' });
      const el = h('li', { class: 'step', dataset: { step: key, state: 'waiting' } },
        h('span', { class: 'step-dot', 'aria-hidden': 'true' }), h('span', { class: 'step-label', text: label }), detail);
      this.steps[key] = { el, detail };
      return el;
    };
    this.headTitle = h('h2', { class: 'run-title', id: 'run-h', text: stored ? 'Result' : 'Live fact-check' });
    this.permalink = h('p', { class: 'permalink', hidden: true });
    this.configLine = h('p', { class: 'muted small run-config' });
    this.notices = h('div', { class: 'run-notices' });
    this.stepper = h('ol', { class: 'stepper', 'aria-label': 'Progress' },
      step('content', 'Content'), step('claims', 'Claims'), step('verify', 'Verification'), step('report', 'Report'));
    this.contentLabel = h('p', { class: 'content-source' });
    this.contentText = h('div', { class: 'content-text', 'aria-live': 'off' }, h('p', { class: 'muted', text: 'Waiting for the content…' }));
    this.contentNote = h('p', { class: 'muted small', hidden: true });
    this.countBadge = h('span', { class: 'count', text: '0' });
    this.groups = h('div', { class: 'claim-groups' }, h('p', { class: 'muted', text: 'Claims appear here as they are extracted.' }));
    this.reportArea = h('div', { class: 'report-area' });
    this.root = h('section', { class: ['run', stored && 'run-stored'], 'aria-labelledby': 'run-h' },
      h('div', { class: 'run-head' }, this.headTitle, this.permalink, this.stepper, this.configLine, this.notices),
      h('div', { class: 'fc-grid' },
        h('section', { class: 'card content-card', 'aria-labelledby': 'content-h' },
          h('h3', { id: 'content-h', text: 'Content' }), this.contentLabel, this.contentText, this.contentNote),
        h('aside', { class: 'card claims-panel', 'aria-labelledby': 'claims-h' },
          h('h3', { id: 'claims-h' }, 'Claims ', this.countBadge), this.groups)),
      this.reportArea);
    area.replaceChildren(this.root);
  }

  setStep(key, state, detail) {
    const s = this.steps[key];
    s.el.dataset.state = state;
    if (state === 'active') s.el.setAttribute('aria-current', 'step');
    else s.el.removeAttribute('aria-current');
    if (detail !== undefined) s.detail.textContent = detail;
  }

  say(text) {
    this.status.textContent = text;
  }

  // event applies one server-sent event.
  event(name, d) {
    switch (name) {
      case 'factcheck_start': {
        this.messageId = d.messageId;
        const c = d.config || {};
        this.checkerModels = c.checkerModels || [];
        this.checkerCount = this.checkerModels.length;
        this.showPermalink();
        this.configLine.textContent = modelsLine(c.generatorModel, c.extractorModel, this.checkerModels, c.reporterModel);
        if (c.biasWarning) this.notice(c.biasWarning);
        if (c.contentSource === 'user_provided') {
          this.setStep('content', 'done', 'User content');
          if (this.userText !== null) {
            this.content = { source: 'user_provided', text: this.userText };
            this.renderContent();
          }
        } else {
          this.setStep('content', 'active', 'Generating…');
        }
        this.say('Fact-check started.');
        break;
      }
      case 'generate_start':
        this.setStep('content', 'active', 'Generating…');
        this.say('Generating the answer…');
        break;
      case 'generate_complete':
        this.content = { source: 'generated', model: d.model, text: d.content, responseTimeMs: d.responseTimeMs };
        this.setStep('content', 'done', `${d.responseTimeMs} ms`);
        this.renderContent();
        break;
      case 'extract_start':
        this.setStep('claims', 'active', 'Extracting…');
        this.say('Extracting claims…');
        break;
      case 'extract_complete':
        this.claims = (d.claims || []).map((c, i) => ({ ...c, n: i + 1 }));
        this.setStep('claims', 'done', `${this.claims.length} found`);
        this.buildPanel();
        this.renderContent();
        this.say(this.claims.length === 1 ? 'Extracted 1 claim.' : `Extracted ${this.claims.length} claims.`);
        break;
      case 'verify_start':
        this.checkerCount = d.checkerCount || this.checkerCount;
        this.setStep('verify', 'active', `0 of ${this.checkerCount} checkers`);
        this.say(`Verifying ${d.claimCount} claims with ${d.checkerCount} checkers…`);
        break;
      case 'checker_complete': {
        this.checkersDone++;
        for (const v of d.verifications || []) {
          if (!this.verdicts.has(v.claimId)) this.verdicts.set(v.claimId, []);
          this.verdicts.get(v.claimId).push({ ...v, checkerModel: d.model });
        }
        this.setStep('verify', 'active', `${this.checkersDone} of ${this.checkerCount} checkers`);
        for (const c of this.claims) this.updateClaim(c.id);
        this.renderContent();
        const s = d.summary || {};
        this.say(`Checker ${d.model} finished: ${s.verified} verified, ${s.disputed} disputed, ${s.unverifiable} unverifiable.`);
        break;
      }
      case 'all_checkers_complete':
        for (const c of d.consensus || []) this.consensus.set(c.claimId, c);
        for (const f of d.failedCheckers || []) this.notice(`Checker ${f.model} failed: ${f.error}`);
        this.setStep('verify', 'done', `${this.checkersDone} of ${this.checkerCount} checkers`);
        for (const c of this.claims) this.updateClaim(c.id);
        this.renderContent();
        this.say('All checkers finished; consensus reached.');
        break;
      case 'report_start':
        if (this.steps.verify.el.dataset.state === 'waiting') this.setStep('verify', 'skipped', 'No claims');
        this.setStep('report', 'active', 'Writing…');
        this.say('Writing the report…');
        break;
      case 'report_complete':
        this.report = { reliabilityScore: d.reliabilityScore, summary: d.summary || {}, model: d.model };
        if (d.summary?.note) this.notes = [d.summary.note];
        this.setStep('report', 'done', d.reliabilityScore === null ? 'No score' : `Score ${d.reliabilityScore}`);
        this.renderReport();
        this.say(`Report ready: reliability ${d.reliabilityScore === null ? 'not scored' : `${d.reliabilityScore} out of 100`}.`);
        break;
      case 'title_complete':
        this.title = d.title || '';
        if (this.title) this.headTitle.textContent = this.title;
        break;
      case 'complete':
        for (const key of ['content', 'claims', 'verify', 'report']) {
          const st = this.steps[key].el.dataset.state;
          if (st === 'waiting' || st === 'active') this.setStep(key, 'skipped', 'Skipped');
        }
        if (d.partial) this.notice(`The global time limit ended the run early; skipped: ${(d.skippedStages || []).join(', ')}.`);
        break;
      default:
        break; // "error" is reported by the caller; unknown events are ignored
    }
  }

  // stopped marks a run that ended without "complete": spinners stop and
  // unfinished steps say so.
  stopped(err) {
    this.root.classList.add('run-halted');
    for (const key of ['content', 'claims', 'verify', 'report']) {
      const st = this.steps[key].el.dataset.state;
      if (st === 'active') this.setStep(key, 'failed', err ? 'Failed' : 'Stopped');
    }
    for (const c of this.claims) {
      if (!this.consensus.has(c.id)) this.updateClaim(c.id, 'stopped');
    }
  }

  notice(text) {
    this.notices.append(h('p', { class: 'alert alert-warn', text }));
  }

  showPermalink() {
    if (!this.messageId) return;
    const href = `#/factcheck/${encodeURIComponent(this.messageId)}`;
    this.permalink.replaceChildren('Link to this fact-check: ', h('a', { href, class: 'mono', text: href }));
    this.permalink.hidden = false;
  }

  // applyResult shows a whole stored result (GET /v1/factchecks/{id}).
  applyResult(res) {
    this.messageId = res.messageId || this.messageId;
    this.showPermalink();
    this.title = res.title || this.title;
    if (this.title) this.headTitle.textContent = this.title;
    const ct = res.content || {};
    this.content = { source: ct.source, model: ct.model, text: ct.text || '', responseTimeMs: ct.responseTimeMs, note: ct.note };
    const v = res.verification || {};
    const checkers = v.checkers || [];
    this.checkerModels = checkers.map((c) => c.model);
    this.checkerCount = Math.max(this.checkerCount, checkers.length + (v.failedCheckers || []).length);
    this.checkersDone = checkers.length;
    const claims = (res.extraction?.claims || []).map((c, i) => ({ ...c, n: i + 1 }));
    const sameClaims = claims.length === this.claims.length && claims.every((c, i) => c.id === this.claims[i].id);
    this.claims = claims;
    this.verdicts = new Map();
    this.consensus = new Map();
    for (const c of v.consensus || []) {
      this.consensus.set(c.claimId, c);
      this.verdicts.set(c.claimId, c.verdicts || []);
    }
    const r = res.report || {};
    this.report = { reliabilityScore: r.reliabilityScore ?? null, summary: r.summary || {}, model: r.model, reportText: r.reportText, fallback: r.fallback };
    this.notes = r.notes || this.notes;
    if (this.stored) {
      this.configLine.textContent = modelsLine(ct.model, res.extraction?.model, this.checkerModels, r.model);
      for (const f of v.failedCheckers || []) this.notice(`Checker ${f.model} failed: ${f.error}`);
      if (res.partial) this.notice(`The global time limit ended the run early; skipped: ${(res.skippedStages || []).join(', ')}.`);
      this.setStep('content', 'done', ct.source === 'generated' ? 'Generated' : 'User content');
      this.setStep('claims', 'done', `${claims.length} found`);
      this.setStep('verify', claims.length ? 'done' : 'skipped', claims.length ? `${checkers.length} checkers` : 'No claims');
      this.setStep('report', 'done', r.reliabilityScore === null || r.reliabilityScore === undefined ? 'No score' : `Score ${r.reliabilityScore}`);
    }
    if (sameClaims && this.items.size) {
      for (const c of this.claims) this.updateClaim(c.id);
    } else {
      this.buildPanel();
    }
    this.renderContent();
    this.renderReport();
  }

  summaryText() {
    const s = this.report?.summary || {};
    const score = this.report?.reliabilityScore;
    const n = this.claims.length;
    return `${n} ${n === 1 ? 'claim' : 'claims'}, ${s.verified || 0} verified, ${s.disputed || 0} disputed, ${s.unverifiable || 0} unverifiable`
      + (typeof score === 'number' ? `, reliability ${score} out of 100` : '');
  }

  statusOf(id) {
    const c = this.consensus.get(id);
    if (c) return { status: c.consensusVerdict, final: true };
    const vs = this.verdicts.get(id) || [];
    const m = majority(vs);
    return m ? { status: m, final: false } : { status: 'pending', final: false };
  }

  renderContent() {
    const ct = this.content;
    if (!ct) {
      if (this.claims.length) this.contentText.replaceChildren(h('p', { class: 'muted', text: 'The content is shown when the fact-check is stored.' }));
      return;
    }
    if (ct.source === 'generated') {
      this.contentLabel.replaceChildren(h('span', { class: 'badge badge-neutral', text: 'Generated' }), ' by ',
        h('code', { text: ct.model || 'a model' }), typeof ct.responseTimeMs === 'number' ? ` in ${ct.responseTimeMs} ms` : '');
    } else {
      this.contentLabel.replaceChildren(h('span', { class: 'badge badge-neutral', text: 'User Content' }));
    }
    this.contentNote.hidden = !ct.note;
    this.contentNote.textContent = ct.note || '';
    this.contentText.replaceChildren(...annotate(ct.text, this.claims, (c, text) => {
      const { status } = this.statusOf(c.id);
      return h('span', { class: 'claim-mark', dataset: { status, claim: c.id } }, text,
        h('sup', { class: 'claim-sup', 'aria-hidden': 'true', text: c.n }),
        h('span', { class: 'sr-only', text: ` (claim ${c.n}: ${LABEL[status]})` }));
    }));
  }

  buildPanel() {
    this.items = new Map();
    this.countBadge.textContent = String(this.claims.length);
    this.countBadge.classList.remove('pop');
    void this.countBadge.offsetWidth; // restart the animation
    this.countBadge.classList.add('pop');
    if (!this.claims.length) {
      this.groups.replaceChildren(h('p', { class: 'muted', text: 'No verifiable factual claims were found in this content.' }));
      return;
    }
    // Claims read in the text's order, each with its type: grouping them
    // by type made them read 1, 3, 4, 2, 5.
    const ordered = [...this.claims].sort((a, b) => a.n - b.n);
    this.groups.replaceChildren(h('ul', { class: 'claim-list' }, ordered.map((c) => this.claimItem(c))));
  }

  claimItem(c) {
    const icon = h('span', { class: 'status-icon', 'aria-hidden': 'true' });
    const label = h('span', { class: 'status-label' });
    const detail = h('div', { class: 'claim-detail' });
    const li = h('li', { class: 'claim-item', dataset: { claimId: c.id, status: 'pending' } },
      h('details', {},
        h('summary', {},
          icon,
          h('span', { class: 'claim-main' },
            h('span', { class: 'claim-n', text: `${c.n}` }),
            typeBadge(c.type), ' ',
            h('span', { class: 'claim-text', text: c.claim }),
            asWritten(c)),
          label),
        detail));
    this.items.set(c.id, { li, icon, label, detail });
    this.updateClaim(c.id);
    return li;
  }

  // updateClaim shows a claim's status: pending, a provisional majority
  // while checkers are still running, then the consensus.
  updateClaim(id, force) {
    const item = this.items.get(id);
    if (!item) return;
    const { status, final } = force ? { status: force, final: false } : this.statusOf(id);
    item.li.dataset.status = status;
    item.li.dataset.final = String(final);
    item.icon.textContent = GLYPH[status] || '';
    const got = (this.verdicts.get(id) || []).length;
    const provisional = !final && status !== 'pending' && status !== 'stopped';
    item.label.textContent = provisional ? `${LABEL[status]} (${got} of ${this.checkerCount})` : LABEL[status];

    const cons = this.consensus.get(id);
    const vs = this.verdicts.get(id) || [];
    const parts = [];
    if (cons) {
      const rate = Number(cons.agreementRate) || 0;
      parts.push(h('div', { class: 'agreement' },
        h('span', { class: 'small', text: `Agreement ${Math.round(rate)}%` }), bar(rate / 100, 'bar-accent'),
        cons.consensusConfidence ? h('span', { class: 'small muted', text: `${cons.consensusConfidence.toLowerCase()} confidence` }) : null));
    }
    const rows = vs.map((v) => checkerRow(v));
    for (let i = vs.length; i < this.checkerCount; i++) {
      rows.push(h('li', { class: 'checker' }, h('span', { class: 'checker-model', text: this.checkerModels[i] || `Checker ${i + 1}` }),
        h('span', { class: 'muted small', text: item.li.dataset.status === 'stopped' ? 'no answer' : 'waiting…' })));
    }
    parts.push(rows.length ? h('ul', { class: 'checkers' }, rows) : h('p', { class: 'muted small', text: 'No checker has answered yet.' }));
    item.detail.replaceChildren(...parts);
  }

  renderReport() {
    const rep = this.report;
    if (!rep) return;
    const score = rep.reliabilityScore;
    const s = rep.summary || {};
    const cons = this.claims.map((c) => ({ claim: c, cons: this.consensus.get(c.id), vs: this.verdicts.get(c.id) || [] }));
    const rates = cons.filter((x) => x.cons).map((x) => Number(x.cons.agreementRate) || 0);
    const avg = rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null;

    const summaryCard = h('section', { class: 'card report-summary', 'aria-labelledby': 'report-h' },
      h('h3', { id: 'report-h', class: 'sr-only', text: 'Report' }),
      gauge(score, 'Reliability score', { size: 150 }),
      h('div', { class: 'metrics' },
        h('dl', { class: 'metrics-bar' },
          metric('Total claims', String(this.claims.length)),
          metric('Reliability', typeof score === 'number' ? `${score} / 100` : 'Not scored'),
          metric('Avg. agreement', avg === null ? '–' : `${Math.round(avg)}%`),
          metric('Checkers', String(this.checkerCount || this.checkerModels.length))),
        breakdown(s),
        this.notes.length ? h('ul', { class: 'report-notes' }, this.notes.map((n) => h('li', { text: n }))) : null,
        rep.fallback ? h('p', { class: 'muted small', text: 'The reporter model failed; the template report stands in.' }) : null));

    const parts = [summaryCard];
    if (this.claims.length) {
      parts.push(h('section', { class: 'card', 'aria-labelledby': 'evidence-h' },
        h('h3', { id: 'evidence-h', text: 'Evidence table' }),
        table({
          caption: 'Claims with their consensus verdicts; choose a column heading to sort',
          columns: [
            { label: '#', cell: (x) => String(x.claim.n), value: (x) => x.claim.n, numeric: true },
            { label: 'Claim', cell: (x) => x.claim.claim, value: (x) => x.claim.claim, class: 'col-wide' },
            { label: 'Type', cell: (x) => typeBadge(x.claim.type), value: (x) => x.claim.type },
            { label: 'Verdict', cell: (x) => verdictBadge(this.statusOf(x.claim.id).status), value: (x) => VERDICTS.indexOf(this.statusOf(x.claim.id).status) },
            { label: 'Agreement', cell: (x) => agreementCell(x.cons), value: (x) => Number(x.cons?.agreementRate) || 0, numeric: true },
            { label: 'Confidence', cell: (x) => x.cons?.consensusConfidence || '–', value: (x) => CONFIDENCE_ORDER[x.cons?.consensusConfidence] || 0 },
          ],
          rows: cons,
        })));
      parts.push(h('section', { class: 'card', 'aria-labelledby': 'annotated-h' },
        h('h3', { id: 'annotated-h', text: 'Annotated content' }),
        this.content ? h('div', { class: 'content-text annotated' }, annotate(this.content.text, this.claims, (c, text) => {
          const { status } = this.statusOf(c.id);
          return h('mark', { class: 'marker', dataset: { status } }, text, ' ',
            h('span', { class: 'marker-tag', text: `[${status === 'pending' ? 'PENDING' : status}]` }));
        })) : h('p', { class: 'muted', text: 'The content is shown when the fact-check is stored.' })));
      parts.push(h('section', { class: 'card findings', 'aria-labelledby': 'findings-h' },
        h('h3', { id: 'findings-h', text: 'Findings by verdict' }),
        ['DISPUTED', 'UNVERIFIABLE', 'VERIFIED'].map((verdict) => {
          const xs = cons.filter((x) => this.statusOf(x.claim.id).status === verdict);
          return h('details', { class: 'finding-group', dataset: { verdict }, open: verdict === 'DISPUTED' && xs.length > 0 },
            h('summary', {}, verdictBadge(verdict), h('span', { class: 'muted', text: ` ${xs.length} ${xs.length === 1 ? 'claim' : 'claims'}` })),
            xs.length ? h('ol', { class: 'finding-list' }, xs.map((x) => h('li', { value: x.claim.n },
              h('p', { class: 'finding-claim' }, typeBadge(x.claim.type), ' ', x.claim.claim, asWritten(x.claim)),
              x.cons?.correction ? correction(x.cons.correction) : null,
              h('ul', { class: 'checkers' }, x.vs.map(checkerRow)))))
              : h('p', { class: 'muted small', text: 'None.' }));
        })));
    }
    if (rep.reportText) {
      parts.push(h('details', { class: 'card report-text-card' },
        h('summary', {}, h('span', { text: 'Full report' }), h('span', { class: 'muted small', text: rep.model ? ` by ${rep.model} (Markdown)` : ' (Markdown)' })),
        h('pre', { class: 'report-text', text: rep.reportText })));
    }
    this.reportArea.replaceChildren(...parts);
  }
}

// modelsLine names the models of a run: "Extractor x · Checkers y, z · ...".
function modelsLine(generator, extractor, checkers, reporter) {
  return [generator && `Generator ${generator}`, extractor && `Extractor ${extractor}`,
    checkers?.length && `Checkers ${checkers.join(', ')}`, reporter && `Reporter ${reporter}`].filter(Boolean).join(' · ');
}

function metric(name, value) {
  return h('div', { class: 'metric' }, h('dt', { text: name }), h('dd', { text: value }));
}

// breakdown is the verdict breakdown as a stacked bar with a legend.
function breakdown(s) {
  const counts = { VERIFIED: s.verified || 0, DISPUTED: s.disputed || 0, UNVERIFIABLE: s.unverifiable || 0 };
  const total = counts.VERIFIED + counts.DISPUTED + counts.UNVERIFIABLE;
  const words = VERDICTS.map((v) => `${counts[v]} ${v.toLowerCase()}`).join(', ');
  const stack = h('div', { class: 'stack', role: 'img', 'aria-label': `Verdict breakdown: ${words}` },
    VERDICTS.map((v) => {
      if (!counts[v]) return null;
      const seg = h('span', { class: 'stack-seg', dataset: { status: v } });
      seg.style.width = `${(counts[v] / total) * 100}%`;
      return seg;
    }));
  return h('div', { class: 'breakdown' },
    total ? stack : null,
    h('ul', { class: 'legend', 'aria-hidden': total ? 'true' : null }, VERDICTS.map((v) => h('li', { dataset: { status: v } },
      h('span', { class: 'legend-swatch', 'aria-hidden': 'true' }), `${LABEL[v]} ${counts[v]}`))));
}

function agreementCell(cons) {
  if (!cons) return '–';
  const rate = Number(cons.agreementRate) || 0;
  return h('span', { class: 'prob' }, h('span', { class: 'prob-value', text: `${Math.round(rate)}%` }), bar(rate / 100, 'bar-accent'));
}

// asWritten shows the sentence as the text wrote it beside a claim whose
// subject the extractor resolved ("It opened in 1937.").
function asWritten(c) {
  return c.original ? h('span', { class: 'claim-original muted small', text: ` (as written: “${c.original}”)` }) : null;
}

// correction shows a consensus correction once: a short quote and, when it
// ends with the source's URL, a link to it.
function correction(text) {
  const m = /\s(https?:\/\/\S+)$/.exec(text);
  const quote = m ? text.slice(0, m.index) : text;
  return h('p', { class: 'correction' }, h('strong', { text: 'Correction: ' }), truncate(quote, 320),
    m ? h('span', {}, ' ', link(m[1], 'source')) : null);
}

function typeBadge(type) {
  return h('span', { class: 'type-badge', dataset: { type: type || 'OTHER' }, text: type || 'OTHER' });
}

function verdictBadge(status) {
  return h('span', { class: 'verdict-badge', dataset: { status } },
    h('span', { class: 'verdict-glyph', 'aria-hidden': 'true', text: GLYPH[status] || '…' }), LABEL[status] || status);
}

function checkerRow(v) {
  const cites = v.citations || [];
  return h('li', { class: 'checker' },
    h('div', { class: 'checker-head' },
      h('span', { class: 'checker-model', text: v.checkerModel || 'checker' }),
      verdictBadge(v.verdict),
      v.confidence ? h('span', { class: 'small muted', text: `${v.confidence.toLowerCase()} confidence` }) : null),
    v.evidence ? h('p', { class: 'evidence', text: v.evidence }) : null,
    cites.length ? h('ul', { class: 'mini-cites' }, cites.map((c) => h('li', {},
      link(c.url, c.title || c.domain || c.url || c.sourceId), c.domain ? h('span', { class: 'domain', text: ` ${c.domain}` }) : null,
      c.publishedAt ? ' · ' : null, date(c.publishedAt)))) : null);
}

// annotate splits text into plain text and the claims found in it, each
// decorated by mark(claim, text). A claim is found by its own words, then
// without its final punctuation, then by its context; a claim whose words
// the extractor changed is still listed in the panel, just not marked.
function annotate(text, claims, mark) {
  const lower = text.toLowerCase();
  const spans = [];
  for (const c of claims) {
    const tries = [c.original, c.claim, (c.claim || '').replace(/[.!?;:]+$/, ''), c.context].filter((t) => t && t.trim().length >= 8);
    for (const t of tries) {
      const i = lower.indexOf(t.toLowerCase());
      if (i >= 0) {
        spans.push({ start: i, end: i + t.length, c });
        break;
      }
    }
  }
  spans.sort((a, b) => a.start - b.start);
  const out = [];
  let at = 0;
  for (const sp of spans) {
    if (sp.start < at) continue; // overlaps an earlier claim
    if (sp.start > at) out.push(document.createTextNode(text.slice(at, sp.start)));
    out.push(mark(sp.c, text.slice(sp.start, sp.end)));
    at = sp.end;
  }
  if (at < text.length) out.push(document.createTextNode(text.slice(at)));
  return out;
}

function remember(id, title) {
  if (!id) return;
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || '[]').filter((x) => x && x.id !== id);
    list.unshift({ id, title: truncate(title || '', 100), at: new Date().toISOString() });
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 10)));
  } catch {
    // Storage may be off (private browsing); the list is a convenience.
  }
}

function renderRecent(box) {
  let list = [];
  try {
    list = JSON.parse(localStorage.getItem(RECENT_KEY) || '[]');
  } catch {
    list = [];
  }
  list = Array.isArray(list) ? list.filter((x) => x && typeof x.id === 'string') : [];
  if (!list.length) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(h('section', { class: 'card recent-card', 'aria-labelledby': 'recent-h' },
    h('h2', { id: 'recent-h', text: 'Recent fact-checks in this browser' }),
    h('ul', { class: 'recent-list' }, list.map((x) => h('li', {},
      h('a', { href: `#/factcheck/${encodeURIComponent(x.id)}`, text: x.title || x.id }), ' ',
      date(x.at))))));
}
