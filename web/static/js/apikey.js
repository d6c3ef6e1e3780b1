// The API key the UI sends as "Authorization: Bearer KEY" when the server
// requires keys. It is kept in sessionStorage (this tab, until it closes),
// or in localStorage when the user asks to be remembered on this device,
// and asked for with a dialog when the server answers 401.

import { h } from './dom.js';

const STORAGE_KEY = 'verity.apiKey';

export function storedKey() {
  try {
    return sessionStorage.getItem(STORAGE_KEY) || localStorage.getItem(STORAGE_KEY) || '';
  } catch {
    return '';
  }
}

function storeKey(key, remember) {
  try {
    sessionStorage.setItem(STORAGE_KEY, key);
    if (remember) localStorage.setItem(STORAGE_KEY, key);
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage may be off (private mode); the key then lasts for this page.
  }
  memoryKey = key;
}

// forgetKey drops a key the server refused.
export function forgetKey() {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
  memoryKey = '';
}

let memoryKey = '';

export function currentKey() {
  return storedKey() || memoryKey;
}

let pending = null;

// askForKey shows the key dialog (one at a time: concurrent requests share
// it) and resolves with the key entered, or '' when the user cancels.
export function askForKey(refused) {
  if (pending) return pending;
  pending = new Promise((resolve) => {
    const input = h('input', { type: 'password', id: 'api-key-input', name: 'api-key', autocomplete: 'off', required: true, spellcheck: 'false' });
    const remember = h('input', { type: 'checkbox', id: 'api-key-remember' });
    const dialog = h('dialog', { class: 'key-dialog', 'aria-labelledby': 'api-key-title' },
      h('form', { method: 'dialog' },
        h('h2', { id: 'api-key-title', text: 'API key needed' }),
        h('p', { text: refused
          ? 'The server refused the API key. Enter another one.'
          : 'This server requires an API key. Ask its operator for one (verity keys create).' }),
        h('label', { for: 'api-key-input', text: 'API key' }),
        input,
        h('label', { class: 'key-remember' }, remember, ' Remember on this device'),
        h('div', { class: 'key-actions' },
          h('button', { type: 'submit', class: 'btn btn-primary', value: 'ok', text: 'Use key' }),
          h('button', { type: 'submit', class: 'btn', value: 'cancel', formnovalidate: true, text: 'Cancel' }))));
    dialog.addEventListener('close', () => {
      const key = dialog.returnValue === 'ok' ? input.value.trim() : '';
      if (key) storeKey(key, remember.checked);
      dialog.remove();
      pending = null;
      resolve(key);
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    input.focus();
  });
  return pending;
}
