// The two tokenizers every figure in bench/tokens is counted with: o200k (GPT-4o and later) and
// cl100k (GPT-4, GPT-3.5), so a result does not hinge on one vocabulary.
import { encode as encodeO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';

const cl100k = new Tiktoken(cl100kRanks);

/** Tokens of `text` in both vocabularies. */
export function count(text) {
  // A file may contain "<|endoftext|>": counted as the plain text it is, never as a special token.
  return {
    o200k: encodeO200k(text, { disallowedSpecial: new Set() }).length,
    cl100k: cl100k.encode(text, [], []).length,
  };
}

/** A tool definition as a model pays for it: name, description and input schema, compact JSON. */
export function definitionText(tool) {
  return JSON.stringify({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
}

/** What a tools/call result puts before the model: every text block, plus structuredContent when sent. */
export function resultText(result) {
  const text = (result.content ?? []).map((b) => (b.type === 'text' ? b.text : JSON.stringify(b))).join('\n');
  return result.structuredContent === undefined ? text : `${text}\n${JSON.stringify(result.structuredContent)}`;
}
