/**
 * A start-up check of the operator's own providers: an instance provider whose base URL is a
 * local or private address that WEFT_OUTBOUND_ALLOW does not open would fail on every request,
 * so the log says at once what to set (docs/security/outbound.md).
 */
import type { InstanceProviderConfig } from '../providers/instanceProviders.js';
import { OutboundError, type OutboundClient } from './outboundClient.js';

export async function unreachableInstanceProviders(
  providers: readonly InstanceProviderConfig[],
  outbound: OutboundClient,
): Promise<string[]> {
  const warnings: string[] = [];
  for (const p of providers) {
    try {
      await outbound.checkUrl(p.baseUrl, true);
    } catch (err) {
      if (!(err instanceof OutboundError)) throw err;
      const url = new URL(p.baseUrl);
      warnings.push(
        `Provider "${p.name}" (${p.baseUrl}) cannot be reached: ${err.message}. To use it, set WEFT_OUTBOUND_ALLOW=${url.host} (or its address range).`,
      );
    }
  }
  return warnings;
}
