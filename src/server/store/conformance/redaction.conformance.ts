/**
 * Conformance suite for RedactionStore: add, list by scope (oldest first, only the scopes
 * asked), read one, delete (once), and an epoch that moves on every change and only then.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenStore } from '../../testing/tempStore.js';
import type { RedactionRuleRecord } from '../RedactionStore.js';
import type { Store } from '../Store.js';

const T0 = Date.UTC(2024, 0, 1) * 1000;

const rule = (id: string, scope: string, over: Partial<RedactionRuleRecord> = {}): RedactionRuleRecord => ({
  id,
  scope,
  kind: 'key',
  value: 'api_key',
  label: 'api_key',
  createdBy: 'alice',
  createdAt: T0,
  ...over,
});

export function describeRedactionConformance(open: OpenStore): void {
  describe('RedactionStore conformance', () => {
    let store: Store;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('adds rules and lists those of the scopes asked, oldest first, every field as given', async () => {
      const before = await store.redaction.epoch();
      await store.redaction.addRule(rule('r2', 'acme/a', { createdAt: T0 + 2, kind: 'regex', value: 'tok_[0-9]{4}', label: 'tok' }));
      await store.redaction.addRule(rule('r1', 'acme', { createdAt: T0 + 1, kind: 'builtin', value: 'email', label: 'email' }));
      await store.redaction.addRule(rule('r3', 'acme/b', { createdAt: T0 + 3 }));
      await store.redaction.addRule(rule('r4', 'other', { createdAt: T0 + 4 }));
      expect(await store.redaction.epoch()).not.toBe(before);

      const listed = await store.redaction.listRules(['acme', 'acme/a']);
      expect(listed).toEqual([
        rule('r1', 'acme', { createdAt: T0 + 1, kind: 'builtin', value: 'email', label: 'email' }),
        rule('r2', 'acme/a', { createdAt: T0 + 2, kind: 'regex', value: 'tok_[0-9]{4}', label: 'tok' }),
      ]);
      expect(await store.redaction.listRules([])).toEqual([]);
      expect(await store.redaction.getRule('r3')).toEqual(rule('r3', 'acme/b', { createdAt: T0 + 3 }));
      expect(await store.redaction.getRule('nope')).toBeNull();
    });

    it('deletes a rule once, and the epoch moves on a delete but not on reads', async () => {
      await store.redaction.addRule(rule('d1', 'del/p'));
      const afterAdd = await store.redaction.epoch();
      await store.redaction.listRules(['del/p']);
      expect(await store.redaction.epoch()).toBe(afterAdd);

      expect(await store.redaction.deleteRule('d1')).toBe(true);
      const afterDelete = await store.redaction.epoch();
      expect(afterDelete).not.toBe(afterAdd);
      expect(await store.redaction.listRules(['del/p'])).toEqual([]);
      expect(await store.redaction.getRule('d1')).toBeNull();
      expect(await store.redaction.deleteRule('d1')).toBe(false);
      expect(await store.redaction.epoch()).toBe(afterDelete);
    });
  });
}
