// The JavaScript's lint (make lint): ESLint's recommended rules over our own code, the page's
// modules with the browser's globals, the Node tests and scripts with Node's. The browser's
// third-party code is served from node_modules (npm's), which is not ours and not linted.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "instance/", "tests/artifacts/", "bench/results/"] },
  js.configs.recommended,
  {
    languageOptions: { ecmaVersion: "latest", sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  { files: ["static/js/**/*.js"], languageOptions: { globals: globals.browser } },
  { files: ["tests/js/**/*.js", ".ci/**/*.mjs", "eslint.config.js"], languageOptions: { globals: globals.node } },
];
