import { describe, expect, it } from 'vitest';
import { readDashboardView, writeDashboardView } from './dashboardViewState.js';

describe('dashboard view in the URL', () => {
  it('reads an empty URL as the last day of every op, and writes it as an empty URL', () => {
    const view = readDashboardView(new URLSearchParams());
    expect(view).toEqual({ range: '24h', from: null, to: null, op: null, rootsOnly: true });
    expect(writeDashboardView(view).toString()).toBe('');
  });

  it('round-trips a custom range, an op and all calls', () => {
    const view = { range: 'custom' as const, from: '2025-01-01T00:00', to: '2025-01-02T00:00', op: 'generate', rootsOnly: false };
    expect(readDashboardView(writeDashboardView(view))).toEqual(view);
  });

  it('writes custom bounds only with the custom range, and reads an unknown range as the default', () => {
    const params = writeDashboardView({ range: '7d', from: '2025-01-01T00:00', to: null, op: null, rootsOnly: true });
    expect(params.toString()).toBe('range=7d');
    expect(readDashboardView(new URLSearchParams('range=1y&roots=no')).range).toBe('24h');
  });
});
