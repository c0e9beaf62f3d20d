/**
 * The MCP server behind `/mcp` (docs/mcp.md): stateless streamable HTTP, one McpServer and one
 * transport per request (the SDK's stateless mode, so any server process or request thread can
 * answer any request), JSON answers rather than an event stream (every tool answers once).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { WEFT_VERSION } from '../../version.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { annotationTools } from './annotationTools.js';
import { callTools } from './callTools.js';
import { evaluationTools } from './evaluationTools.js';
import { threadTools } from './threadTools.js';
import { registerTools, type ToolDeps } from './toolKit.js';

const INSTRUCTIONS =
  'Weft holds traces of LLM applications (Weave-compatible). Start with list_projects; every other tool takes a project_id. ' +
  'search_calls and search_threads find work, trace_outline shows a trace as a tree without payloads, read_call shows one call whole. ' +
  'Answers are bounded: a larger limit is capped (the answer says so; page with offset) and long payloads are cut.';

const TOOLS = [...callTools, ...threadTools, ...evaluationTools, ...annotationTools];
/** One validator for every request's server: each would otherwise build its own Ajv (~2 ms), for elicitation Weft never asks. */
const VALIDATOR = new AjvJsonSchemaValidator();

/** The MCP server with every tool, reading as `deps.user`. */
export function mcpServerFor(deps: ToolDeps): McpServer {
  const server = new McpServer(
    { name: 'weft', version: WEFT_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: VALIDATOR },
  );
  registerTools(server, deps, TOOLS);
  return server;
}

/** Answers one MCP POST whose JSON body has already been read and checked (`message`). */
export async function answerMcp(request: Request, message: unknown, deps: ToolDeps): Promise<Response> {
  const server = mcpServerFor(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    // With JSON answers the response is complete when this resolves, so closing after it is safe.
    return withReason(await transport.handleRequest(request, { parsedBody: message }));
  } finally {
    await server.close();
  }
}

/**
 * The transport refuses a request (406 without `Accept: application/json, text/event-stream`, 415,
 * 400) with a JSON-RPC error body; every Weft error also carries a `reason`
 * (docs/architecture.md "Conventions"), so it is added beside the JSON-RPC fields clients read.
 */
async function withReason(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const text = await res.text();
  let body: { error?: { message?: unknown } } & Record<string, unknown>;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = { reason: text || `MCP request refused (${res.status})` };
  }
  const reason =
    typeof body.error?.message === 'string' ? body.error.message : String(body.reason ?? `MCP request refused (${res.status})`);
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  headers.set('content-type', 'application/json');
  return new Response(JSON.stringify({ ...body, reason }), { status: res.status, headers });
}
