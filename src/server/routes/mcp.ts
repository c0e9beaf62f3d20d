/** `/mcp`: the Model Context Protocol for coding agents (domain/mcp/, docs/mcp.md). */
import { answerMcp } from '../domain/mcp/mcpServer.js';
import { defineRoutes } from '../http/defineRoutes.js';

const NO_STREAM = 'Method not allowed: this MCP server is stateless and sends nothing of its own; POST JSON-RPC to /mcp';

export const mcpRoutes = defineRoutes({
  mcp: {
    runs: 'read',
    // Each tool checks the viewer role in the project it names (toolKit.ts), so a refusal is a
    // tool error the agent reads, not an HTTP failure of the whole session.
    projects: () => [],
    handler: (message, { request, store, user, clock, limits, log }) => answerMcp(request, message, { store, user, clock, limits, log }),
  },
  // Stateless: no stream for the server to send on; the protocol's answer for that is 405.
  mcpStream: {
    runs: 'main',
    handler: async () =>
      Response.json(
        { jsonrpc: '2.0', error: { code: -32000, message: NO_STREAM }, id: null, reason: NO_STREAM },
        { status: 405, headers: { allow: 'POST' } },
      ),
  },
});
