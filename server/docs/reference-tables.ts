import { ERROR_CODES, ERROR_CODE_LIST } from '../../shared/error-codes.js';
import { describeRequirement } from '../../shared/permissions.js';
import { listStreamOperations } from '../http/openapi-document.js';
import { RestRoutes } from '../http/rest-adapter.js';
import { STREAM_OPENAPI_PATHS } from '../http/stream-operations.js';
import { INVITE_TOKEN } from '../trpc/trpc.js';
import { appRouter } from '../trpc/app-router.js';

/**
 * The operation table of docs/api.md, generated from the router so it cannot drift: a test compares
 * docs/api.md with this output (`npm run --silent docs:tables` prints it).
 */
export function renderOperationsTable(): string {
  const rows = [
    ...new RestRoutes(appRouter).routes.map((route) => ({
      method: route.method,
      path: route.meta.openapi!.path as string,
      permission: route.meta.permission === INVITE_TOKEN ? INVITE_TOKEN : route.meta.permission ? describeRequirement(route.meta.permission) : '',
      status: route.meta.successStatus ?? 200,
      summary: route.meta.openapi!.summary ?? '',
    })),
    ...listStreamOperations(STREAM_OPENAPI_PATHS).map((operation) => ({
      ...operation,
      permission: operation.permission === INVITE_TOKEN ? INVITE_TOKEN : describeRequirement(operation.permission),
      status: operation.successStatus,
    })),
  ].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const lines = ['| Method | Path | Permission | Success | Operation |', '|---|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${row.method} | \`${row.path}\` | \`${row.permission}\` | ${row.status} | ${row.summary} |`);
  return lines.join('\n');
}

export function renderErrorTable(): string {
  const lines = ['| Code | Status | When |', '|---|---|---|'];
  for (const code of ERROR_CODE_LIST) lines.push(`| \`${code}\` | ${ERROR_CODES[code].status} | ${ERROR_CODES[code].description} |`);
  return lines.join('\n');
}
