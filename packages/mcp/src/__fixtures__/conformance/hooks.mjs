// The resolve hook behind preload.mjs: "fs" and "node:fs" imported by the conformance suite resolve
// to fs-glob.mjs; every other import resolves as usual.
const SHIM = new URL('./fs-glob.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    context.parentURL?.includes('/@modelcontextprotocol/conformance/')
  ) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
