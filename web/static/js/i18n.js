// Languages: the message catalogs (the same files the Go side reads, from
// /i18n/LANG.json), the player's language, and t(), which every string the
// page shows goes through.
//
// A message is a string, or for a number an object of CLDR plural forms
// ({"one": …, "other": …}) picked with Intl.PluralRules by the parameter
// Count. Placeholders are written {{.Name}}, as go-i18n writes them.

// LANGS are the languages offered, each named in itself.
export const LANGS = [
  ['en', 'English'], ['it', 'Italiano'], ['ms', 'Bahasa Melayu'], ['ja', '日本語'], ['el', 'Ελληνικά'], ['fr', 'Français'],
];

let lang = 'en';
let msgs = {};
let english = {};

// pickLang is the language to show: the one chosen before, else the first
// of the browser's languages (navigator.languages) that is offered.
export function pickLang() {
  let saved = null;
  try { saved = localStorage.getItem('pitch.lang'); } catch (e) { /* private mode */ }
  if (saved && LANGS.some(([l]) => l === saved)) return saved;
  for (const pref of navigator.languages || [navigator.language || 'en']) {
    const base = String(pref).toLowerCase().split('-')[0];
    if (LANGS.some(([l]) => l === base)) return base;
  }
  return 'en';
}

// chooseLang remembers the player's choice.
export function chooseLang(l) {
  try { localStorage.setItem('pitch.lang', l); } catch (e) { /* private mode */ }
}

async function fetchCatalog(l) {
  const res = await fetch('/i18n/' + l + '.json');
  if (!res.ok) throw new Error('catalog ' + l + ': ' + res.status);
  return res.json();
}

// loadLang loads the catalog of l (and English, the fallback) and makes it
// the page's language.
export async function loadLang(l) {
  english = await fetchCatalog('en');
  msgs = l === 'en' ? english : await fetchCatalog(l).catch(() => english);
  lang = l;
  document.documentElement.lang = l;
}

// currentLang is the page's language.
export function currentLang() { return lang; }

// num writes a number by the language's rules.
export function num(n) {
  return typeof n === 'number' ? new Intl.NumberFormat(lang).format(n) : String(n);
}

// has reports whether id is a message of the catalogs.
export function has(id) { return id in msgs || id in english; }

// t returns message id in the page's language with params filled in.
export function t(id, params) {
  let m = id in msgs ? msgs[id] : english[id];
  if (m == null) return id;
  if (typeof m === 'object') {
    const count = params && typeof params.Count === 'number' ? params.Count : 0;
    const form = new Intl.PluralRules(lang).select(count);
    m = m[form] != null ? m[form] : m.other;
  }
  if (!params) return String(m); // a template to fill in later (e.g. the fair-deal verifier's findings)
  return String(m).replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, k) => (k in params ? num(params[k]) : ''));
}

// translatePage fills every element marked data-i18n (its text) and
// data-i18n-attr ("attr:id;attr:id") under root.
export function translatePage(root) {
  for (const e of (root || document).querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of (root || document).querySelectorAll('[data-i18n-attr]')) {
    for (const pair of e.dataset.i18nAttr.split(';')) {
      const [attr, id] = pair.split(':');
      if (attr && id) e.setAttribute(attr, t(id));
    }
  }
}
