// Accounts (docs/accounts.md): the header's link, /account (sign in, sign
// up, or the signed-in account: its tables, password, passkeys, data) and
// /reset (the operator's one-time link). Guests never need any of it.

import { t, num } from './i18n.js';
import { $, h, api, store, showError, hideError, gameName, profileURL } from './util.js';

// whoami is the signed-in account ({id, name, …}) or null, asked once per page.
let who = null;
export function whoami() {
  if (!who) who = api('GET', '/api/account').then((r) => r.account).catch(() => null);
  return who;
}

// initAccountLink names the signed-in account in the header, or offers to
// sign in. The link shows once it knows which (index.html has it hidden):
// "Sign in" turning into a name would move the header's links.
export async function initAccountLink() {
  const me = await whoami();
  const link = $('#account-link');
  link.textContent = me ? me.name : t('account.signIn');
  link.setAttribute('aria-label', me ? t('account.linkLabel', { Name: me.name }) : t('account.signIn'));
  // A signed-in person's own profile (/u/NAME), beside the account (a
  // guest's header has no such link at all).
  if (me && !$('#profile-link')) {
    link.after(h('a', { id: 'profile-link', class: 'account-link', href: profileURL(me.name),
      'aria-label': t('account.profileLabel', { Name: me.name }), text: t('account.profileShort') }));
  }
  link.hidden = false;
}

// passkeyBlock says why passkeys cannot work on this page, as a catalog
// key ('' when they can): they need WebAuthn, a secure context (HTTPS, or
// localhost) and a domain name, since a relying party ID is never an IP
// address (http://127.0.0.1 is a secure context, yet no passkey works
// there). docs/accounts.md.
function passkeyBlock() {
  if (!window.PublicKeyCredential || !navigator.credentials) return 'account.passkeyWhy.browser';
  if (!window.isSecureContext) return 'account.passkeyWhy.insecure';
  const host = location.hostname;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[') || host.includes(':')) return 'account.passkeyWhy.ip';
  return '';
}
// showPasskeyBlock hides the passkey buttons where passkeys cannot work
// and says why in their place (every .passkey-why of view).
function showPasskeyBlock(view) {
  const why = passkeyBlock();
  view.classList.toggle('no-passkeys', !!why);
  for (const p of view.querySelectorAll('.passkey-why')) {
    p.textContent = why ? t(why, { Host: location.hostname, HTTPS: 'https://', Local: 'localhost' }) : '';
    p.hidden = !why;
  }
}

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
    cred = kind === 'signin' || kind === 'reauth'
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

// confirmIt shows the confirmation panel after section and resolves
// once the person has confirmed it is them (the password, or a passkey);
// it rejects if they cancel.
function confirmIt(me, section) {
  const panel = $('#reauth'), form = $('#reauth-form');
  section.after(panel);
  $('#reauth-pw-field').hidden = $('#reauth-btn').hidden = !me.has_password;
  $('#reauth-passkey').hidden = !me.passkeys;
  panel.hidden = false;
  panel.scrollIntoView({ block: 'nearest' });
  if (me.has_password) $('#reauth-password').focus();
  return new Promise((resolve, reject) => {
    const done = (ok) => {
      form.onsubmit = $('#reauth-passkey').onclick = $('#reauth-cancel').onclick = null;
      $('#reauth-password').value = '';
      panel.hidden = true;
      if (ok) resolve(); else reject(new Error(t('account.reauthCancelled')));
    };
    form.onsubmit = (ev) => {
      ev.preventDefault();
      busy(form, async () => {
        await api('POST', '/api/account/reauth', { password: $('#reauth-password').value });
        done(true);
      });
    };
    $('#reauth-passkey').onclick = () => busy(form, async () => {
      await ceremony('reauth', {});
      done(true);
    });
    $('#reauth-cancel').onclick = () => done(false);
  });
}

// confirmed runs fn, and once more after the person confirms it is them
// if the server asks for that first (reauth_required).
async function confirmed(me, section, fn) {
  try {
    return await fn();
  } catch (e) {
    if (e.code !== 'reauth_required') throw e;
    hideError();
    await confirmIt(me, section);
    return fn();
  }
}

// showPasskeys lists the account's passkeys, each with its removal.
async function showPasskeys(me) {
  const r = await api('GET', '/api/account/passkeys');
  me.passkeys = r.passkeys.length;
  $('#pk-count').textContent = t('account.passkeyCount', { Count: r.passkeys.length });
  const lang = document.documentElement.lang, date = (d) => new Date(d).toLocaleDateString(lang);
  const section = $('#pk-h').parentElement;
  $('#pk-list').replaceChildren(...r.passkeys.map((k, i) => {
    const name = k.name || t('account.passkeyUnnamed', { N: num(i + 1) });
    const when = t('account.passkeyAdded', { Date: date(k.created) }) + ' · ' +
      (k.last_used ? t('account.passkeyLastUsed', { Date: date(k.last_used) }) : t('account.passkeyNeverUsed'));
    const rm = h('button', { type: 'button', class: 'pk-remove', 'aria-label': t('account.passkeyRemoveLabel', { Name: name }), text: t('account.passkeyRemove') });
    const item = h('li', { class: 'table-item pk-item' }, h('span', {}, h('strong', { text: name }), h('br'), h('span', { class: 'hint', text: when })), rm);
    rm.addEventListener('click', () => busy(item, async () => {
      await confirmed(me, section, () => api('POST', '/api/account/passkey/remove', { id: k.id }));
      await showPasskeys(me);
    }));
    return item;
  }));
}

// initAccount shows /account (or /reset).
export async function initAccount() {
  const view = $('#account-view');
  view.hidden = false;
  showPasskeyBlock(view);
  if (location.pathname === '/reset') return initReset();
  const me = await whoami();
  if (!me) return initGuest();
  document.title = me.name + ' · Pitch';
  $('#me-h').textContent = me.name;
  $('#me-profile').href = profileURL(me.name);
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
      const body = { old: $('#pw-old').value, new: $('#pw-new').value };
      await confirmed(me, pw.parentElement, () => api('POST', '/api/account/password', body));
      location.reload();
    });
  });
  $('#pk-add').addEventListener('click', () => busy($('#pk-add').parentElement, async () => {
    const name = $('#pk-name').value.trim();
    await confirmed(me, $('#pk-h').parentElement, () => ceremony('add', { name }));
    location.reload();
  }));
  const del = $('#delete-form');
  del.addEventListener('submit', (ev) => {
    ev.preventDefault();
    busy(del, async () => {
      const name = $('#delete-name').value;
      await confirmed(me, del.parentElement, () => api('POST', '/api/account/delete', { name }));
      location.assign('/');
    });
  });
  // The lists are filled before the page is shown: nothing moves down
  // under a finger as they come in.
  const [seats] = await Promise.all([
    api('GET', '/api/account/seats').then((r) => r.seats).catch((e) => { showError(e.message); return []; }),
    showPasskeys(me).catch((e) => showError(e.message)),
  ]);
  $('#me-noseats').hidden = seats.length > 0;
  $('#me-seats').replaceChildren(...seats.map((s) => h('li', { class: 'table-item' },
    h('span', { text: gameName(s.variant) + ' · ' + t('account.seatNo', { N: num(s.seat + 1) }) }),
    h('a', { class: 'button primary', href: s.url, 'aria-label': t('lobby.openLabel', { ID: s.table }) }, t('lobby.open')))));
  $('#acct-me').hidden = false;
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
      await api('POST', '/api/account/reset', { token, password: $('#reset-password').value, revoke_passkeys: $('#reset-revoke').checked });
      history.replaceState(null, '', '/reset'); // the token is used: out of the address bar
      await signedIn();
    });
  });
}
