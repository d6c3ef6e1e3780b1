// DOM building without HTML strings. Every piece of server or model text
// goes into the page as a text node: pages and model outputs are data, so
// nothing in the UI parses markup (web_test.go enforces it).

const SVG_NS = 'http://www.w3.org/2000/svg';

// h builds an element. props: class, text, dataset, on<Event> listeners,
// and any other key as an attribute (false/null/undefined leave it out,
// true sets it empty). Children may be nodes, strings, numbers, arrays or
// null.
export function h(tag, props = {}, ...children) {
  return build(document.createElement(tag), props, children);
}

// s builds an SVG element the same way.
export function s(tag, props = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children);
}

function build(el, props, children) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') {
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (key === 'text') {
      el.textContent = String(value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

// safeURL returns url when it is an http(s) URL, else null: a source's URL
// comes from ingested data and must never become a javascript: link.
export function safeURL(url) {
  if (typeof url !== 'string') return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

// link is an outbound link to a source, or plain text when the URL is not
// http(s).
export function link(url, text) {
  const href = safeURL(url);
  const label = text || url || '';
  if (!href) return h('span', { text: label });
  return h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, label,
    h('span', { class: 'sr-only', text: ' (opens in a new tab)' }));
}

const dateFmt = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

// date formats an RFC 3339 time as "3 Mar 2021" in a <time> element, or
// returns null for an absent or zero time.
export function date(iso) {
  if (!iso || iso.startsWith('0001-')) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return h('time', { datetime: iso, text: dateFmt.format(d) });
}

// fixed formats a number with the given decimals, or an en dash.
export function fixed(x, digits = 2) {
  return typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '–';
}

// pct formats a probability in [0,1] as a whole percentage.
export function pct(x) {
  return typeof x === 'number' && Number.isFinite(x) ? `${Math.round(x * 100)}%` : '–';
}

// truncate shortens text to n characters at a word boundary.
export function truncate(text, n) {
  if (!text || text.length <= n) return text || '';
  const cut = text.slice(0, n);
  const sp = cut.lastIndexOf(' ');
  return `${(sp > n * 0.6 ? cut.slice(0, sp) : cut).trimEnd()}…`;
}

// bar is a horizontal bar of value in [0,1]. Its width is set through the
// CSSOM, which the page's Content-Security-Policy allows (style attributes
// in markup it does not).
export function bar(value, cls = '') {
  const fill = h('span', { class: 'bar-fill' });
  fill.style.width = `${Math.max(0, Math.min(1, value || 0)) * 100}%`;
  return h('span', { class: ['bar', cls], 'aria-hidden': 'true' }, fill);
}

// sleep waits ms milliseconds or until signal aborts (then rejects).
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); }, { once: true });
  });
}

// isAbort tells an aborted request (the user navigated away) from a failure.
export function isAbort(err) {
  return err?.name === 'AbortError';
}

// page builds the frame most views share: a section with its heading
// (which takes focus on navigation) and lead paragraph, plus the alerts
// box, status line and result area the caller places. Ids are NAME-h,
// NAME-alerts and NAME-result.
export function page(name, title, lead) {
  const heading = h('h1', { id: `${name}-h`, tabindex: -1, text: title });
  return {
    heading,
    section: h('section', { class: `view view-${name}` },
      h('div', { class: 'view-head' }, heading, h('p', { class: 'lead', text: lead }))),
    alerts: h('div', { id: `${name}-alerts`, class: 'alerts' }),
    status: h('p', { class: 'status', role: 'status', 'aria-live': 'polite' }),
    result: h('div', { class: 'result', id: `${name}-result` }),
  };
}
