import type { AnyTRPCProcedure, AnyTRPCRouter } from '@trpc/server';
// The low-level server, not `McpServer`: `McpServer` parses a tool's arguments with its own zod
// pass and answers its own error text, while here the procedure parses them once (as for REST
// and /trpc) and a mistake is answered in the API's error envelope with its field paths.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { API_VERSION } from '../../shared/api-version.js';
import { type PermissionRequirement, requiredPermissions } from '../../shared/permissions.js';
import type { ApiKeyAuth } from '../domains/common/caller.js';
import { describeError } from '../http/error-envelope.js';
import type { Logger } from '../logger.js';
import type { AppMeta } from '../trpc/trpc.js';
import { MCP_TOOLS, type McpToolDeclaration } from './tools.js';

/** A tool with what its procedure declares: its permission, and its schemas as JSON Schema. */
export interface McpTool {
  declaration: McpToolDeclaration;
  permission: PermissionRequirement;
  /** Held to read permissions only (`…:read`): what a read-only key is offered. */
  readOnly: boolean;
  definition: Tool;
}

type JsonObjectSchema = Tool['inputSchema'];

/**
 * A procedure's zod schema as the JSON Schema MCP clients read (draft 2020-12, as the SDK's own).
 * A schema with an id (`.meta({ id })`) comes out as a `$ref` to its `$defs` entry; MCP wants an
 * object at the root, so that entry is lifted there (the other `$defs` stay, for the refs inside).
 */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output', where: string): JsonObjectSchema {
  const { $schema: _dialect, ...generated } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });
  const rootRef = /^#\/\$defs\/(.+)$/.exec(typeof generated.$ref === 'string' ? generated.$ref : '')?.[1];
  let jsonSchema: Record<string, unknown> = generated;
  if (rootRef) {
    const { [rootRef]: root, ...defs } = generated.$defs ?? {};
    // The lifted entry stays in `$defs` only when something inside refers back to it.
    const referredTo = JSON.stringify({ root, defs }).includes(`"#/$defs/${rootRef}"`);
    jsonSchema = { ...(root as object), ...(referredTo ? { $defs: generated.$defs } : Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
  }
  if (typeof jsonSchema !== 'object' || jsonSchema.type !== 'object') throw new Error(`${where}: an MCP tool's ${io} must be an object schema.`);
  return jsonSchema as JsonObjectSchema;
}

/**
 * Every tool of `MCP_TOOLS`, read from its procedure; done once when the app is made, so a tool
 * naming a procedure that does not exist, or one without schemas, stops the service from starting.
 */
export function resolveMcpTools(appRouter: AnyTRPCRouter, declarations: readonly McpToolDeclaration[] = MCP_TOOLS): McpTool[] {
  const procedures = appRouter._def.procedures as Record<string, AnyTRPCProcedure | undefined>;
  return declarations.map((declaration) => {
    const where = `MCP tool ${declaration.name} (${declaration.procedure})`;
    const procedure = procedures[declaration.procedure];
    if (!procedure) throw new Error(`${where}: no such procedure.`);
    const def = procedure._def as { meta?: AppMeta; inputs: unknown[]; output?: unknown; type: 'query' | 'mutation' | 'subscription' };
    const permission = def.meta?.permission;
    if (!permission || (typeof permission !== 'string' && !Array.isArray(permission))) throw new Error(`${where}: the procedure takes no API key permission.`);
    const [input] = def.inputs;
    if (!(input instanceof z.ZodType) || !(def.output instanceof z.ZodType)) throw new Error(`${where}: the procedure declares no zod input and output.`);
    const readOnly = requiredPermissions(permission as PermissionRequirement).every((name) => name.endsWith(':read'));
    return {
      declaration,
      permission: permission as PermissionRequirement,
      readOnly,
      definition: {
        name: declaration.name,
        title: declaration.title,
        description: declaration.description,
        inputSchema: jsonSchemaOf(input, 'input', where),
        outputSchema: jsonSchemaOf(def.output, 'output', where),
        annotations: {
          title: declaration.title,
          readOnlyHint: readOnly,
          destructiveHint: false,
          idempotentHint: readOnly,
          openWorldHint: declaration.reachesOutside ?? false,
        },
      },
    };
  });
}

/** The tools an API key may call: those whose procedure's permission it holds (a read-only key sees read-only tools). */
export function toolsFor(auth: ApiKeyAuth, tools: readonly McpTool[]): McpTool[] {
  return tools.filter((tool) => requiredPermissions(tool.permission).every((permission) => auth.permissions.includes(permission)));
}

/** Calls a procedure by its dotted path with the request's context (a tRPC caller). */
export type ProcedureCall = (procedure: string, input: unknown) => Promise<unknown>;

/**
 * The MCP server of one request (stateless: every POST to `/mcp` carries its credentials and
 * gets a server of its own, so nothing of one key's is kept where another's request could see it).
 * It lists `offered` (the tools the key may call) and calls any tool of `tools`: one the key may
 * not call is refused by its procedure, with the same 403 envelope REST answers.
 */
export function buildMcpServer(
  { tools, offered }: { tools: readonly McpTool[]; offered: readonly McpTool[] },
  callProcedure: ProcedureCall,
  logger: Logger,
): Server {
  const server = new Server(
    { name: 'interview-service', title: 'AI interview service', version: API_VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Run AI-led interview studies: create_study makes one from questions and answers the link participants open; ' +
        'list_campaigns, list_sessions, get_transcript and get_insights read what participants said; search_transcripts, compare_segments ' +
        'and summarize_sessions work across interviews. A failed call answers the API error envelope ({"error": {"code", "message", "details"}}).',
    },
  );
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: offered.map((tool) => tool.definition) }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    // As the SDK's own server answers a name it does not know: a protocol error, not a tool's.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}.`);
    const input = request.params.arguments ?? {};
    try {
      const output = (await callProcedure(tool.declaration.procedure, input)) as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    } catch (error) {
      const described = describeError(error, { rawInput: input, source: 'body' });
      if (described.unexpected) logger.error({ err: error, tool: tool.definition.name }, 'unexpected error in an MCP tool');
      return { isError: true, content: [{ type: 'text', text: JSON.stringify(described.body) }] };
    }
  });
  return server;
}
