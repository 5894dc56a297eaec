// The API description served at /api/openapi.json, generated from the route table of
// @toolbelt/protocol: one operation per route, its body and answer schemas converted from the Zod
// schemas the gateway validates with. Nothing here is written by hand but the frame.
import { VERSION } from '@toolbelt/core';
import { ROUTES, type RouteKey, type RouteSpec } from '@toolbelt/protocol';
import { operation, openApiPath } from './openapi/operation.js';
import { documentSchemas } from './openapi/schemas.js';

function paths(schemas: ReturnType<typeof documentSchemas>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [key, spec] of Object.entries(ROUTES) as [RouteKey, RouteSpec][]) {
    const ops = (out[openApiPath(spec.path)] ??= {});
    ops[spec.method.toLowerCase()] = operation(key, spec, schemas.routes[key]);
  }
  return out;
}

export function openApiDocument() {
  const schemas = documentSchemas();
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'toolbelt gateway',
      version: VERSION,
      description:
        'Tool calls over HTTP: validated, checked against the policy, approved by a person where needed, logged. Tools declared in the config wait for results from external executors or people. Spaces are shared rooms of people and agents, where visible calls are posted. See docs/gateway-api.md.',
    },
    servers: [{ url: 'http://127.0.0.1:7077' }],
    security: [{ bearer: [] }],
    paths: paths(schemas),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'gateway.tokens in the config (tokenHash, tokenFile, tokenEnv or token), TOOLBELT_GATEWAY_TOKEN or TOOLBELT_GATEWAY_TOKEN_FILE; none needed on a loopback address without tokens',
        },
      },
      schemas: schemas.components,
    },
  };
}

export const OPENAPI = openApiDocument();
