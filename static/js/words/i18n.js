// The page's words: catalogs keyed by message id, one a language, with {name} placeholders.
// A catalog entry is a string, or an object of plural forms (one, other) chosen by {n}.
import { EN } from "./en.js";
import { ZH } from "./zh.js";
import { recall, remember } from "../storage.js";

export const CATALOGS = { en: EN, zh: ZH };
const LOCALES = { en: "en", zh: "zh-CN" };
const STORED = "knights-tour-language";
let language = "en";

/** Tell whether the page has words for message id (the English catalog holds every id). */
export function hasWords(id) {
  return Object.hasOwn(EN, id);
}

/** Return message id in the page's language, its placeholders filled from params. */
export function t(id, params = {}) {
  const entry = CATALOGS[language][id] ?? EN[id];
  if (entry === undefined) {
    console.error(`No words for message ${id}`);
    return id;
  }
  const text = typeof entry === "string" ? entry : entry[formats().plural.select(Number(params.n))] ?? entry.other;
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = params[name];
    if (value === undefined || value === null) return `{${name}}`;
    return typeof value === "number" ? number(value) : String(value);
  });
}

// The language's plural rules and number format, made once a language: the views word counts
// on every frame of a running search, and making either costs more than using it.
const FORMATS = {};

function formats() {
  const locale = LOCALES[language];
  FORMATS[language] ??= { plural: new Intl.PluralRules(locale), number: new Intl.NumberFormat(locale) };
  return FORMATS[language];
}

/** Write a number as the page's language writes it. */
export function number(n) {
  return formats().number.format(n);
}

/** Return the language a link asks for (its lang=), else the one the user chose last time, else the browser's. */
export function preferredLanguage(asked = null) {
  if (Object.hasOwn(CATALOGS, asked ?? "")) return asked;
  const stored = recall(STORED);
  if (Object.hasOwn(CATALOGS, stored ?? "")) return stored;
  return navigator.language?.toLowerCase().startsWith("zh") ? "zh" : "en";
}

/** Keep lang as the reader's choice, for the pages they open next. */
export function rememberLanguage(lang) {
  if (Object.hasOwn(CATALOGS, lang)) remember(STORED, lang);
}

/**
 * Switch the page's words to lang and translate the marked elements. Only the reader's own
 * choice is remembered (rememberLanguage): an embed's lang is that embed's alone.
 */
export function setLanguage(lang) {
  language = Object.hasOwn(CATALOGS, lang) ? lang : "en";
  document.documentElement.lang = LOCALES[language];
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  document.title = t("page.title");
}

/** Return the language in use. */
export function currentLanguage() {
  return language;
}
