// The gateway's HTTP API as types: the bodies it reads and writes, its answers and the events it
// streams. The gateway serves these and the client SDK and the console read them, all from here, so
// a change on one side that the other does not follow is a compile error. Types only: importing
// them costs nothing at run time, and a client needs nothing of the gateway to run.
export type * from './calls.js';
export type * from './inbox.js';
export type * from './events.js';
export type * from './bodies.js';
export type * from './answers.js';
export type * from './spaces.js';
export type * from './console.js';
