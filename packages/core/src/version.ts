// The version of the @toolbelt packages, one for all (changesets' fixed group), for what tells it
// to the world: `toolbelt --version`, MCP's serverInfo and clientInfo, the gateway's OpenAPI file.
// `npm run version-packages` rewrites it (scripts/sync-version.mjs); version.test.ts keeps it true.
export const VERSION = '0.1.0';
