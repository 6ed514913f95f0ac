// Accounts (docs/accounts.md): the header's link, /account (sign in, sign
// up, or the signed-in account: its tables, password, passkeys, data) and
// /reset (the operator's one-time link). Guests never need any of it.

import { t, num } from './i18n.js';
import { $, h, api, store, showError, hideError, gameName } from './util.js';

// whoami is the signed-in account ({id, name, …}) or null, asked once per page.
let who = null;
export function whoami() {
  if (!who) who = api('GET', '/api/account').then((r) => r.account).catch(() => null);
  return who;
}

// initAccountLink names the signed-in account in the header, or offers to sign in.
export async function initAccountLink() {
  const me = await whoami();
  const link = $('#account-link');
  link.textContent = me ? me.name : t('account.signIn');
  link.setAttribute('aria-label', me ? t('account.linkLabel', { Name: me.name }) : t('account.signIn'));
}

// Passkeys need WebAuthn and a secure context (HTTPS, or localhost).
const passkeys = () => !!(window.PublicKeyCredential && window.isSecureContext && navigator.credentials);

const b64 = {
  decode(s) {
    const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0)).buffer;
  },
  encode(buf) {
    let bin = '';
    for (const b of new Uint8Array(buf)) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  },
};

// creationOptions and requestOptions turn the server's JSON options into
// what navigator.credentials takes (byte strings as ArrayBuffers).
function creationOptions(o) {
  const pk = o.publicKey;
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(pk);
  return { ...pk, challenge: b64.decode(pk.challenge), user: { ...pk.user, id: b64.decode(pk.user.id) },
    excludeCredentials: (pk.excludeCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })) };
}
function requestOptions(o) {
  const pk = o.publicKey;
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(pk);
  return { ...pk, challenge: b64.decode(pk.challenge),
    allowCredentials: (pk.allowCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })) };
}

// credentialJSON is a new or used credential as JSON for the server.
function credentialJSON(c) {
  if (c.toJSON) return c.toJSON();
  const r = c.response, out = { id: c.id, rawId: b64.encode(c.rawId), type: c.type, clientExtensionResults: c.getClientExtensionResults(), response: { clientDataJSON: b64.encode(r.clientDataJSON) } };
  if (r.attestationObject) {
    out.response.attestationObject = b64.encode(r.attestationObject);
    if (r.getTransports) out.response.transports = r.getTransports();
  } else {
    out.response.authenticatorData = b64.encode(r.authenticatorData);
    out.response.signature = b64.encode(r.signature);
    if (r.userHandle) out.response.userHandle = b64.encode(r.userHandle);
  }
  return out;
}

// ceremony runs one passkey ceremony: begin at the server, ask the browser, finish.
async function ceremony(kind, body) {
  const begun = await api('POST', '/api/account/passkey/' + kind + '/begin', body);
  let cred;
  try {
    cred = kind === 'signin'
      ? await navigator.credentials.get({ publicKey: requestOptions(begun.options) })
      : await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
  } catch (e) {
    throw new Error(t('account.passkeyCancelled'));
  }
  return api('POST', '/api/account/passkey/' + kind + '/finish', { ceremony: begun.ceremony, credential: credentialJSON(cred) });
}

// claimSeats hands the seats this browser took as a guest to the account
// just signed in to, so they follow it to other devices.
async function claimSeats() {
  const seats = [];
  for (const k of store.keys()) {
    if (!k.startsWith('pitch.seat.')) continue;
    try {
      const saved = JSON.parse(store.get(k));
      if (saved && saved.token) seats.push({ table: k.slice('pitch.seat.'.length), token: saved.token });
    } catch (e) { /* not ours */ }
  }
  if (seats.length) await api('POST', '/api/account/seats', { seats: seats.slice(0, 100) }).catch(() => null);
}

// signedIn finishes any way of signing in: the guest's seats go to the
// account, and the page goes where it was asked to (?next=/t/ID) or to the account.
async function signedIn() {
  await claimSeats();
  const next = new URLSearchParams(location.search).get('next');
  location.assign(next && /^\/[A-Za-z0-9/_?=&.-]*$/.test(next) && !next.startsWith('//') ? next : '/account');
}

// busy disables a form's buttons while fn runs, and shows its error.
async function busy(form, fn) {
  const buttons = form.querySelectorAll('button');
  for (const b of buttons) b.disabled = true;
  try {
    hideError();
    await fn();
  } catch (e) {
    showError(e.message);
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

// initAccount shows /account (or /reset).
export async function initAccount() {
  const view = $('#account-view');
  view.hidden = false;
  view.classList.toggle('no-passkeys', !passkeys());
  if (location.pathname === '/reset') return initReset();
  const me = await whoami();
  if (!me) return initGuest();
  document.title = me.name + ' · Pitch';
  $('#acct-me').hidden = false;
  $('#me-h').textContent = me.name;
  $('#me-about').textContent = t('account.about', { Date: new Date(me.created).toLocaleDateString(document.documentElement.lang) });
  $('#pw-old-field').hidden = !me.has_password;
  $('#pw-h').textContent = t(me.has_password ? 'account.passwordTitle' : 'account.addPassword');
  $('#pk-count').textContent = t('account.passkeyCount', { Count: me.passkeys });
  $('#signout-btn').addEventListener('click', async () => {
    await api('POST', '/api/account/signout').catch((e) => showError(e.message));
    location.assign('/');
  });
  const pw = $('#pw-form');
  pw.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(pw, async () => {
      await api('POST', '/api/account/password', { old: $('#pw-old').value, new: $('#pw-new').value });
      location.reload();
    });
  });
  $('#pk-add').addEventListener('click', () => busy($('#pk-add').parentElement, async () => {
    await ceremony('add', {});
    location.reload();
  }));
  const del = $('#delete-form');
  del.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(del, async () => {
      await api('POST', '/api/account/delete', { name: $('#delete-name').value });
      location.assign('/');
    });
  });
  const seats = await api('GET', '/api/account/seats').then((r) => r.seats).catch((e) => { showError(e.message); return []; });
  $('#me-noseats').hidden = seats.length > 0;
  $('#me-seats').replaceChildren(...seats.map((s) => h('li', { class: 'table-item' },
    h('span', { text: gameName(s.variant) + ' · ' + t('account.seatNo', { N: num(s.seat + 1) }) }),
    h('a', { class: 'button primary', href: s.url, 'aria-label': t('lobby.openLabel', { ID: s.table }) }, t('lobby.open')))));
}

function initGuest() {
  document.title = t('account.signInTitle') + ' · Pitch';
  $('#acct-guest').hidden = false;
  const signin = $('#signin-form');
  signin.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(signin, async () => {
      await api('POST', '/api/account/signin', { name: $('#signin-name').value.trim(), password: $('#signin-password').value });
      await signedIn();
    });
  });
  $('#signin-passkey').addEventListener('click', () => busy(signin, async () => {
    await ceremony('signin', {});
    await signedIn();
  }));
  const signup = $('#signup-form');
  signup.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(signup, async () => {
      await api('POST', '/api/account/signup', { name: $('#signup-name').value.trim(), password: $('#signup-password').value });
      await signedIn();
    });
  });
  $('#signup-passkey').addEventListener('click', () => busy(signup, async () => {
    const name = $('#signup-name').value.trim();
    if (!name) {
      showError(t('account.nameFirst'));
      $('#signup-name').focus();
      return;
    }
    await ceremony('signup', { name });
    await signedIn();
  }));
}

function initReset() {
  document.title = t('account.resetTitle') + ' · Pitch';
  $('#acct-reset').hidden = false;
  const token = location.hash.slice(1);
  const form = $('#reset-form');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(form, async () => {
      await api('POST', '/api/account/reset', { token, password: $('#reset-password').value });
      history.replaceState(null, '', '/reset'); // the token is used: out of the address bar
      await signedIn();
    });
  });
}
