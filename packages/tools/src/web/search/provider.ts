// Web search backends plug in here; web_search only knows this interface.

export interface SearchResult {
  title: string;
  url: string;
  description: string;
}

export interface SearchProvider {
  /** Shown to the model ("Brave"). */
  readonly name: string;
  /** At most `count` results, best first. Throws a ToolError with a message for the model on failure. */
  search(query: string, count: number, signal: AbortSignal): Promise<SearchResult[]>;
}
