/** One JSON call to the service under test; anything but 2xx fails the benchmark with the answer. */
export async function callApi(base: string, method: 'GET' | 'POST', requestPath: string, authorization: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${requestPath}`, {
    method,
    headers: { Authorization: authorization, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${requestPath} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}
