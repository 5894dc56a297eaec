// highlight.js with the languages agents edit most (the whole set would triple the page), and
// plaintext: diff2html highlights any file it has no language for as "plaintext", so without it a
// .txt, a README or a Makefile threw "Unknown language" and the card showed no diff.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import 'highlight.js/styles/github.css';

for (const [name, lang] of Object.entries({
  bash,
  c,
  css,
  go,
  ini,
  javascript,
  json,
  markdown,
  plaintext,
  python,
  rust,
  typescript,
  xml,
  yaml,
}))
  hljs.registerLanguage(name, lang);
hljs.registerAliases(['toml'], { languageName: 'ini' });

export { hljs };
