// Scripts the property test (safety.property.test.ts) once found running without asking while
// they wrote, created a file or opened a socket. Each stays here as a table case.
export const REGRESSIONS: [string, 'read' | 'asks' | 'code' | 'edit'][] = [
  // The glob expands to two files; uniq writes the second.
  ['uniq *.txt', 'asks'],
  ['xxd dir/*', 'asks'],
];
