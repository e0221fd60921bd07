/** `/shared/{token}` → the token (as typed: the server answers 404 for anything that is not one). */
export function sharedTokenOf(pathname: string): string | null {
  const match = /^\/shared\/([^/]+)\/?$/.exec(pathname);
  return match ? match[1]! : null;
}
