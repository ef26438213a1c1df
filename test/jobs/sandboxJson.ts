/** A plain client for tests: GET a sandbox operation with the key, as JSON (no pathlab code). */

/**
 * A function that GETs `path` with `query` from the service at `baseUrl` with `apiKey` and returns
 * the parsed JSON; it throws naming the request when the status is not 2xx.
 */
export function sandboxGetJson(
  baseUrl: () => string,
  apiKey: string,
): <T>(path: string, query: Record<string, string | number>) => Promise<T> {
  return async <T>(path: string, query: Record<string, string | number>): Promise<T> => {
    const search = new URLSearchParams(
      Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
    );
    const response = await fetch(`${baseUrl()}${path}?${search}`, {
      headers: { Authorization: `Apikey ${apiKey}` },
    });
    if (!response.ok) throw new Error(`GET ${path}?${search}: ${response.status}`);
    return (await response.json()) as T;
  };
}
