// The client of verity's public HTTP API (GET /openapi.json describes every
// route used here). Errors are ApiError: a problem document's title, detail
// and field, or a clear message when the server could not be reached or a
// stream broke.

import { askForKey, currentKey, forgetKey } from './apikey.js';

export class ApiError extends Error {
  // status is the HTTP status, 0 when there was no answer.
  constructor({ status = 0, title = 'Request failed', detail = '', field = '' } = {}) {
    super(detail || title);
    this.name = 'ApiError';
    this.status = status;
    this.title = title;
    this.detail = detail;
    this.field = field;
  }
}

async function problem(resp) {
  let p = {};
  const type = resp.headers.get('Content-Type') || '';
  if (type.includes('json')) {
    try { p = await resp.json(); } catch { p = {}; }
  }
  if (resp.status === 404 && (p.detail || '').startsWith('no route ')) {
    // The route is documented but this server was started without it.
    return new ApiError({ status: 404, title: 'Not available on this server', detail: `${p.detail}: this server was started without the feature.` });
  }
  return new ApiError({
    status: resp.status,
    title: p.title || `The server answered ${resp.status} ${resp.statusText}`.trim(),
    detail: p.detail || '',
    field: p.field || '',
  });
}

function unreachable(err) {
  return new ApiError({ title: 'Could not reach the server', detail: `${err.message || err}. Check that verity serve is running.` });
}

// send makes one API request. When the server answers 401 it asks for an
// API key (apikey.js) and tries again with it; a cancelled prompt leaves
// the 401 as the error.
async function send(method, path, { json, form, signal, accept } = {}) {
  const init = { method, signal, headers: { Accept: accept || 'application/json' } };
  if (json !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (form) {
    init.body = form; // the browser sets the multipart boundary
  }
  for (;;) {
    const key = currentKey();
    if (key) init.headers.Authorization = `Bearer ${key}`;
    else delete init.headers.Authorization;
    let resp;
    try {
      resp = await fetch(path, init);
    } catch (err) {
      if (err.name === 'AbortError') throw err;
      throw unreachable(err);
    }
    if (resp.status === 401) {
      if (key) forgetKey();
      if (await askForKey(Boolean(key))) continue;
    }
    if (!resp.ok) throw await problem(resp);
    return resp;
  }
}

async function getJSON(path, signal) {
  const resp = await send('GET', path, { signal });
  return resp.json();
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

const seg = encodeURIComponent;

// verify answers POST /v1/verify.
export async function verify(req, signal) {
  return (await send('POST', '/v1/verify', { json: req, signal })).json();
}

// checkCitations answers POST /v1/citations for a document sent as JSON
// ({document, format, path}); checkCitationsUpload for a file upload
// (field "file", optional "format").
export async function checkCitations(req, signal) {
  return (await send('POST', '/v1/citations', { json: req, signal })).json();
}

export async function checkCitationsUpload(form, signal) {
  return (await send('POST', '/v1/citations', { form, signal })).json();
}

// entailment answers POST /v1/entailment ({claim, source_excerpt,
// source_type}); jury answers POST /v1/jury for one pair ({claim, truth}).
export async function entailment(req, signal) {
  return (await send('POST', '/v1/entailment', { json: req, signal })).json();
}

export async function jury(req, signal) {
  return (await send('POST', '/v1/jury', { json: req, signal })).json();
}

export function factcheckResult(messageId, signal) {
  return getJSON(`/v1/factchecks/${seg(messageId)}`, signal);
}

// ingestURLs enqueues a job for http(s) URLs; ingestForm for uploaded files
// (field "file") and "url" fields.
export async function ingestURLs(urls, signal) {
  return (await send('POST', '/v1/ingest', { json: { sources: urls }, signal })).json();
}

export async function ingestForm(form, signal) {
  return (await send('POST', '/v1/ingest', { form, signal })).json();
}

export const job = (id, signal) => getJSON(`/v1/jobs/${seg(id)}`, signal);
export const jobs = (limit, signal) => getJSON(`/v1/jobs${query({ limit })}`, signal);
export const sources = (params, signal) => getJSON(`/v1/sources${query(params)}`, signal);
export const stats = (signal) => getJSON('/v1/stats', signal);

// readiness answers GET /readyz; a 503 is an answer, not a failure.
export async function readiness(signal) {
  let resp;
  try {
    resp = await fetch('/readyz', { signal, headers: { Accept: 'application/json' } });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    throw unreachable(err);
  }
  return resp.json();
}

// factcheckStream runs POST /v1/factcheck as server-sent events, calling
// onEvent(name, data) for each event as it arrives. It resolves when the
// stream ends with "complete" and rejects with an ApiError when the request
// is refused, the stream carries an "error" event, or the stream ends
// without "complete" (a broken connection).
export async function factcheckStream(req, onEvent, signal) {
  const resp = await send('POST', '/v1/factcheck', { json: req, signal, accept: 'text/event-stream' });
  if (!(resp.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
    throw new ApiError({ status: resp.status, title: 'Unexpected answer', detail: 'The server did not answer with an event stream.' });
  }
  let complete = false;
  let failure = null;
  const parser = new EventParser((name, raw) => {
    let data;
    try {
      data = raw === '' ? {} : JSON.parse(raw);
    } catch {
      throw new ApiError({ title: 'The fact-check stream broke', detail: `The "${name}" event was not valid JSON.` });
    }
    if (name === 'error') {
      failure = new ApiError({ title: 'The fact-check failed', detail: data.message || 'The server reported an error.' });
    } else if (name === 'complete') {
      complete = true;
    }
    onEvent(name, data);
  });
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
  } catch (err) {
    if (err.name === 'AbortError' || err instanceof ApiError) throw err;
    throw new ApiError({ title: 'The fact-check stream broke', detail: `The connection failed before the fact-check finished (${err.message || err}). The stages that completed are stored; try again.` });
  } finally {
    reader.releaseLock?.();
  }
  if (failure) throw failure;
  if (!complete) {
    throw new ApiError({ title: 'The fact-check stream broke', detail: 'The connection closed before the fact-check finished. The stages that completed are stored; try again.' });
  }
}

// EventParser splits text/event-stream text into events as the HTML
// standard describes: lines end in CR, LF or CRLF; a blank line dispatches;
// "event" names it and "data" lines join with LF; lines starting with ":"
// are comments; an event cut off at the end of the stream is dropped.
// Written here because the browser's EventSource cannot send a POST body.
export class EventParser {
  constructor(dispatch) {
    this.dispatch = dispatch;
    this.buf = '';
    this.skipLF = false;
    this.name = '';
    this.data = [];
  }

  push(text) {
    if (!text) return;
    // A CR ends its line at once; an LF right after it (perhaps in the
    // next chunk) belongs to it.
    if (this.skipLF && text[0] === '\n') text = text.slice(1);
    this.skipLF = false;
    this.buf += text;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buf);
      if (!m) return;
      if (m[0] === '\r' && m.index === this.buf.length - 1) this.skipLF = true;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      this.line(line);
    }
  }

  line(line) {
    if (line === '') {
      if (this.data.length > 0) this.dispatch(this.name || 'message', this.data.join('\n'));
      this.name = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.name = value;
    else if (field === 'data') this.data.push(value);
  }
}
