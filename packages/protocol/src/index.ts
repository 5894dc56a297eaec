// @toolbelt/protocol: the gateway's HTTP API in one place. The route table (./routes, plain data a
// browser can import), the wire types, and the Zod schemas of request bodies and answers that the
// gateway validates with and generates its OpenAPI document from.
export type * from './wire/index.js';
export * from './routes/index.js';
export * from './schemas/bodies.js';
export { CALL_STATUSES, callStatus, errorBody } from './schemas/shapes.js';
export { ROUTE_SCHEMAS, type RouteSchemas } from './schemas/routes.js';
