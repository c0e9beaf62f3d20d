/**
 * How every MCP tool is registered (docs/mcp.md): read-only, its input checked by its zod
 * schema, the caller's role checked in the project it names before anything is read, the
 * answer bounded (toolBounds.ts), and failures answered as tool errors the agent can read
 * (`isError`, the same reason an HTTP answer would give) rather than as protocol errors.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ProjectId } from '../../../contract/common.js';
import type { AuthUser } from '../../auth/authenticate.js';
import { requireRole } from '../../auth/roles.js';
import type { Clock } from '../../core/clock.js';
import { ApiError } from '../../errors.js';
import type { Limits } from '../../limits.js';
import type { Logger } from '../../logger.js';
import type { Store } from '../../store/Store.js';
import { ToolDeadline } from './toolBounds.js';

/** What a tool reads with: the request's store, caller, clock, limits and log. */
export interface ToolDeps {
  store: Store;
  user: AuthUser;
  clock: Clock;
  limits: Limits;
  log: Logger;
}

/** What a tool's body gets besides its arguments. */
export interface ToolRun extends ToolDeps {
  deadline: ToolDeadline;
}

/** The `project_id` argument every tool but `list_projects` takes. */
export const projectArg = ProjectId.describe('The project, "<entity>/<project>" (list_projects lists them)');
/** A page size; capped by WEFT_MCP_MAX_ROWS, the answer says when. */
export const limitArg = (fallback: number) =>
  z.number().int().min(1).optional().describe(`Rows to answer (default ${fallback}; the server caps it, and says so)`);
export const offsetArg = z.number().int().min(0).optional().describe('Rows to skip, for the next page');

/** A read-only tool: its input schema, made once per process, and a body answering a JSON object. */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  body: (args: never, run: ToolRun) => Promise<Record<string, unknown>>;
}

/**
 * A tool, defined at module load: zod schemas cost ~0.2 ms each to build, and a stateless server
 * registers every tool on every request (mcpServer.ts).
 */
export function defineTool<S extends z.ZodRawShape>(
  name: string,
  config: { title: string; description: string; input: S },
  body: (args: z.output<z.ZodObject<S>>, run: ToolRun) => Promise<Record<string, unknown>>,
): ToolDef {
  // Strict: a misspelt argument is named in the error rather than silently ignored.
  return { name, title: config.title, description: config.description, input: z.strictObject(config.input), body };
}

/** Registers the tools on `server`, each reading as `deps.user` within its bounds. */
export function registerTools(server: McpServer, deps: ToolDeps, tools: readonly ToolDef[]): void {
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (async (args: Record<string, unknown>): Promise<CallToolResult> => {
        try {
          const projectId = args.project_id;
          if (typeof projectId === 'string') requireRole(deps.user, projectId, 'viewer', `read it with the MCP tool ${tool.name}`);
          const out = await tool.body(args as never, { ...deps, deadline: new ToolDeadline(deps.clock, deps.limits) });
          return { content: [{ type: 'text', text: JSON.stringify(out) }], structuredContent: out };
        } catch (err) {
          return toolError(err, tool.name, deps.log);
        }
      }) as never,
    );
  }
}

/** A failure as the agent sees it: the reason and status of an ApiError; anything else is logged, not shown. */
function toolError(err: unknown, name: string, log: Logger): CallToolResult {
  if (err instanceof ApiError && err.status < 500) return errorResult(`${err.status}: ${err.message}`);
  if (err instanceof ApiError && err.status === 504) return errorResult(`504: ${err.message}`);
  log.error(`MCP tool ${name} failed`, err);
  return errorResult(`500: the tool ${name} failed on the server; the server log has the details`);
}

const errorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });
