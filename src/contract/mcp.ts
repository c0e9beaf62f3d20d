/**
 * `/mcp`: the Model Context Protocol over streamable HTTP, for coding agents (docs/mcp.md). The
 * body is JSON-RPC 2.0, read by the MCP SDK's server transport; the contract only checks that it
 * is one message (the protocol dropped JSON-RPC batches in its 2025-06-18 revision), so a body
 * that is not JSON-RPC at all gets the usual 422.
 */
import { z } from 'zod';

/** One JSON-RPC message: a request, a notification or a response; the MCP SDK reads the rest. */
export const McpMessage = z.looseObject({
  jsonrpc: z.literal('2.0'),
  method: z.string().max(256).optional(),
  id: z.union([z.string(), z.number()]).nullish(),
});

// POST /mcp
export const McpReq = McpMessage;
/** The JSON-RPC answer; 202 with no body for a notification. */
export const McpRes = z.unknown();

// GET /mcp: the server offers no stream of its own (stateless), so the transport's answer is 405.
export const McpStreamReq = z.object({});
export const McpStreamRes = z.unknown();
