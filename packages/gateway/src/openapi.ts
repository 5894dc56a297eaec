// The API description served at /api/openapi.json: the document's frame, with its routes in
// openapi/paths.ts and its shapes in openapi/schemas.ts (whose TypeScript form is core's wire.ts).
import { VERSION } from '@toolbelt/core';
import { PATHS } from './openapi/paths.js';
import { SCHEMAS } from './openapi/schemas.js';
import { SPACE_PATHS } from './openapi/space-paths.js';
import { CONSOLE_PATHS, CONSOLE_SCHEMAS } from './openapi/console-paths.js';

export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'toolbelt gateway',
    version: VERSION,
    description:
      'Tool calls over HTTP: validated, checked against the policy, approved by a person where needed, logged. Tools declared in the config wait for results from external executors or people. Spaces are shared rooms of people and agents, where visible calls are posted. See docs/gateway-api.md.',
  },
  servers: [{ url: 'http://127.0.0.1:7077' }],
  security: [{ bearer: [] }],
  paths: { ...PATHS, ...SPACE_PATHS, ...CONSOLE_PATHS },
  components: {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          'gateway.tokens in the config (tokenHash, tokenFile, tokenEnv or token), TOOLBELT_GATEWAY_TOKEN or TOOLBELT_GATEWAY_TOKEN_FILE; none needed on a loopback address without tokens',
      },
    },
    schemas: { ...SCHEMAS, ...CONSOLE_SCHEMAS },
  },
} as const;
