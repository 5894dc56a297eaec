// A provider's SDK is loaded at its first model call, not when @toolbelt/agent is imported: the
// three SDKs take half a second to load, and a program talks to one of them.
export function lazy<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
