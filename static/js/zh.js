// Simplified Chinese for every English string of the page (the keys of i18n.js's t()).
export const ZH = {
};
