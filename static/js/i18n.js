// The page's words in English and Simplified Chinese. English text is the key; {name} marks a
// value filled in by t().
import { ZH } from "./zh.js";

const LANGUAGES = { en: null, zh: ZH };
const STORED = "knights-tour-language";
let language = "en";

/** Return text in the page's language, with {name} replaced by params.name. */
export function t(text, params = {}) {
  const table = LANGUAGES[language];
  const words = (table && table[text]) || text;
  return words.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? `{${name}}`));
}

/** Return the language the user chose last time (or the browser's, the first time). */
export function preferredLanguage() {
  const stored = localStorage.getItem(STORED);
  if (stored in LANGUAGES) return stored;
  return navigator.language?.toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** Switch the page to a language, remember the choice, and translate the marked elements. */
export function setLanguage(lang) {
  language = lang in LANGUAGES ? lang : "en";
  localStorage.setItem(STORED, language);
  document.documentElement.lang = language === "zh" ? "zh-CN" : "en";
  for (const el of document.querySelectorAll("[data-i18n]")) {
    el.dataset.i18nSource ??= el.textContent.trim();
    el.textContent = t(el.dataset.i18nSource);
  }
  for (const [attribute, target] of [["i18nLabel", "aria-label"], ["i18nPlaceholder", "placeholder"]]) {
    for (const el of document.querySelectorAll(`[data-${attribute === "i18nLabel" ? "i18n-label" : "i18n-placeholder"}]`)) {
      el.setAttribute(target, t(el.dataset[attribute]));
    }
  }
  document.title = t("Knight's Tour Live");
}

/** Return the language in use. */
export function currentLanguage() {
  return language;
}
