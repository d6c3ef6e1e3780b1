// Error banners (role="alert") and the inputs they point at, and the
// submit cycle of a form that asks the API one question.
import { h, isAbort } from './dom.js';

// showError replaces the contents of box with a banner for err: a problem
// document's title and detail and the field it names, or the message of
// any other error. fields maps API field names to the inputs that hold
// them; the named input is marked invalid and described by the banner.
export function showError(box, err, fields = {}) {
  clearError(box, fields);
  const id = `${box.id || 'alert'}-msg`;
  const field = err?.field || '';
  const banner = h('div', { class: 'alert alert-error', role: 'alert', id },
    h('strong', { class: 'alert-title', text: err?.title || 'Something went wrong' }),
    err?.detail || (!err?.title && err?.message) ? h('p', { text: err.detail || err.message }) : null,
    field ? h('p', { class: 'alert-field' }, 'Field: ', h('code', { text: field })) : null);
  box.replaceChildren(banner);
  // "sources[2]" is the input that holds sources.
  const input = field && (fields[field] || fields[field.replace(/\[\d+\]$/, '')]);
  if (input) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-errormessage', id);
    input.dataset.describedBefore = input.getAttribute('aria-describedby') || '';
    input.setAttribute('aria-describedby', `${input.dataset.describedBefore} ${id}`.trim());
  }
}

// showNotice shows a non-error message (a warning) in box.
export function showNotice(box, title, detail) {
  box.replaceChildren(h('div', { class: 'alert alert-warn', role: 'status' },
    h('strong', { class: 'alert-title', text: title }), detail ? h('p', { text: detail }) : null));
}

// clearError removes the banner and the invalid marks.
export function clearError(box, fields = {}) {
  box.replaceChildren();
  for (const input of Object.values(fields)) {
    if (!input || input.getAttribute('aria-invalid') !== 'true') continue;
    input.removeAttribute('aria-invalid');
    input.removeAttribute('aria-errormessage');
    const before = input.dataset.describedBefore;
    if (before) input.setAttribute('aria-describedby', before);
    else input.removeAttribute('aria-describedby');
    delete input.dataset.describedBefore;
  }
}

// onSubmit handles form's submit: it clears old errors, marks the form
// busy (its submit button disabled, aria-busy set, pending said in status),
// awaits work(), and shows a failure in alerts naming the field it concerns.
// work returns the status text of its answer; an abort (the user left the
// page) is silent.
export function onSubmit(form, { alerts, status, fields = {}, pending }, work) {
  const button = form.querySelector('button[type=submit]');
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearError(alerts, fields);
    button.disabled = true;
    form.setAttribute('aria-busy', 'true');
    status.textContent = pending;
    try {
      status.textContent = await work();
    } catch (err) {
      if (isAbort(err)) return;
      status.textContent = '';
      showError(alerts, err, fields);
    } finally {
      button.disabled = false;
      form.removeAttribute('aria-busy');
    }
  });
}
