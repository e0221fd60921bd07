import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { AppError } from '../errors.js';
import type { AppServices } from '../services.js';
import type { AppRouter } from '../trpc/app-router.js';
import { createContext } from '../trpc/context.js';
import { createCallerFactory } from '../trpc/trpc.js';
import { buildMcpServer, type McpTool, toolsFor } from './mcp-server.js';

export const MCP_PATH = '/mcp';

/**
 * `POST /mcp`: the MCP server (streamable HTTP, stateless, JSON answers). Authentication, the
 * key's rate limit and the JSON body are the API's (server/http/app.ts mounts this behind them);
 * only an API key is taken, and each tool call runs as that key's request to the procedure.
 * GET (a server-to-client stream) and DELETE (ending a session) have nothing to serve without
 * sessions: they answer 405 with the API's envelope.
 */
export function mcpRoutes(services: AppServices, appRouter: AppRouter, tools: readonly McpTool[]): Router {
  const routes = express.Router();
  const createCaller = createCallerFactory(appRouter);

  routes.post(MCP_PATH, async (req: Request, res: Response, next: NextFunction) => {
    try {
      const auth = req.auth;
      if (auth?.kind !== 'api_key') {
        throw new AppError('INVALID_API_KEY', 'The MCP server takes an API key: send it as "Authorization: Bearer <API_KEY>".');
      }
      // A JSON-RPC batch would run up to 100 calls on one unit of the key's rate limit; MCP
      // dropped batches in its 2025-06-18 revision, and one message per request is what clients send.
      if (Array.isArray(req.body)) {
        throw new AppError('INVALID_REQUEST', 'Send one JSON-RPC message per request: the MCP server does not take batches.', {
          fields: [{ path: 'body', message: 'must be one JSON-RPC message, not an array' }],
        });
      }
      // A tRPC caller runs the procedure as /trpc would: its permission check, its input parse
      // and its output schema; `via: 'trpc'` has it refuse text that cannot be stored, as there.
      const caller: unknown = createCaller(createContext(services, req, res, 'trpc'));
      const callProcedure = (procedure: string, input: unknown): Promise<unknown> => {
        const call = procedure.split('.').reduce((node, segment) => (node as Record<string, unknown>)[segment], caller) as (input: unknown) => Promise<unknown>;
        return call(input);
      };
      const server = buildMcpServer({ tools, offered: toolsFor(auth, tools) }, callProcedure, services.logger);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      // Typed as a bare IncomingMessage because the SDK types `req.auth` as its OAuth AuthInfo. It
      // still hands ours on as the handlers' `extra.authInfo`, which they do not read: the tools
      // act as the key through the tRPC caller above.
      await transport.handleRequest(req as IncomingMessage, res, req.body);
    } catch (error) {
      next(error);
    }
  });
  return routes;
}
