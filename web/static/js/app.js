// The UI shell: hash routes (#/verify, #/factcheck, #/factcheck/{messageId},
// #/citations, #/entailment, #/jury, #/corpus), the navigation's current page, focus on navigation, and the
// readiness line in the footer.
import { h, isAbort } from './dom.js';
import { readiness } from './api.js';
import * as verifyView from './verify.js';
import * as factcheckView from './factcheck.js';
import * as citationsView from './citations.js';
import * as entailmentView from './entailment.js';
import * as juryView from './jury.js';
import * as corpusView from './corpus.js';

const routes = [
  { re: /^#\/verify$/, nav: 'verify', title: 'Verify a claim', render: verifyView.render },
  { re: /^#\/factcheck$/, nav: 'factcheck', title: 'Fact-check', render: factcheckView.renderNew },
  { re: /^#\/factcheck\/([^/]+)$/, nav: 'factcheck', title: 'Fact-check', render: factcheckView.renderStored },
  { re: /^#\/citations$/, nav: 'citations', title: 'Check citations', render: citationsView.render },
  { re: /^#\/entailment$/, nav: 'entailment', title: 'Entailment audit', render: entailmentView.render },
  { re: /^#\/jury$/, nav: 'jury', title: 'Jury', render: juryView.render },
  { re: /^#\/corpus$/, nav: 'corpus', title: 'Corpus', render: corpusView.render },
];

const view = document.getElementById('view');
const main = document.getElementById('main');
let current = null;
let first = true;

function route() {
  const hash = location.hash;
  if (hash === '' || hash === '#' || hash === '#/') {
    history.replaceState(null, '', '#/verify');
    return route();
  }
  current?.abort();
  current = new AbortController();
  const r = routes.find((x) => x.re.test(hash));
  for (const a of document.querySelectorAll('.nav a')) {
    if (r && a.dataset.nav === r.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  view.replaceChildren();
  if (!r) {
    document.title = 'Not found · verity';
    view.append(h('section', { class: 'view' },
      h('h1', { tabindex: -1, text: 'Page not found' }),
      h('p', {}, 'There is no page at ', h('code', { text: hash }), '. Try ', h('a', { href: '#/verify', text: 'Verify' }), '.')));
  } else {
    document.title = `${r.title} · verity`;
    const params = hash.match(r.re).slice(1).map(decodeURIComponent);
    try {
      r.render(view, { signal: current.signal, params });
    } catch (err) {
      view.append(h('div', { class: 'alert alert-error', role: 'alert' },
        h('strong', { class: 'alert-title', text: 'This page failed to load' }), h('p', { text: String(err?.message || err) })));
    }
  }
  // Moving focus to the new heading tells screen-reader and keyboard users
  // that the page changed; the first load keeps the browser's own focus.
  if (!first) view.querySelector('h1')?.focus();
  first = false;
}

window.addEventListener('hashchange', route);
document.querySelector('.skip-link').addEventListener('click', (e) => {
  e.preventDefault();
  main.focus();
});
route();

// The footer says whether every backend answers (GET /readyz).
(async () => {
  const line = document.getElementById('readiness');
  try {
    const r = await readiness();
    const down = Object.entries(r.checks || {}).filter(([, v]) => v !== 'ok');
    line.dataset.state = r.status === 'ready' ? 'ready' : 'down';
    line.textContent = r.status === 'ready' ? 'All backends ready'
      : `Not ready: ${down.map(([k, v]) => `${k} ${v}`).join('; ')}`;
  } catch (err) {
    if (isAbort(err)) return;
    line.dataset.state = 'down';
    line.textContent = `Server unreachable: ${err.message}`;
  }
})();
