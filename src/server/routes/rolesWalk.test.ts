/**
 * Every endpoint with every role (docs/security/roles.md): one server, users with each role in
 * the entity `acme`, one with no role there, one whose only role is a per-project override, and
 * the global admin, each calling through their own API key. Every non-public endpoint is sent a
 * valid request (SAMPLES, typed by the contract: a new endpoint without a sample is a type
 * error) by every user at once. Allowed: anything but 401/403/5xx (a 404 for a missing id is
 * fine: the role is checked before the handler looks). Refused: 403 naming the role needed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type WeftClient } from '../../client/index.js';
import { HttpError } from '../../client/HttpError.js';
import { endpoints, type EndpointDef, type EndpointName, type Endpoints, type ReqOf } from '../../contract/endpoints.js';
import { roleAtLeast, type Role } from '../../contract/roles.js';
import type { AuditEntry } from '../audit/auditTrail.js';
import { createApiKey } from '../auth/apiKeys.js';
import { Authenticator } from '../auth/authenticate.js';
import { createUser, setUserRole } from '../domain/accounts/accounts.js';
import { fastHash } from '../auth/secrets.js';
import { publishEvaluation, type EvaluationFixture } from '../testing/evaluationFixture.js';
import { startTestServer, type TestServer } from '../testing/testServer.js';
import { testBackends } from '../testing/tempStore.js';

const ENTITY = 'acme';
const PROJECT = 'walk';
const P = `${ENTITY}/${PROJECT}`;
const PATH = { entity: ENTITY, project: PROJECT };
const PASSWORD = 'walk-password';

/** The walkers: their role in P (null: none), and how they got it. */
const WALKERS = {
  viewer: { role: 'viewer', setup: { entity: 'viewer' } },
  annotator: { role: 'annotator', setup: { entity: 'annotator' } },
  member: { role: 'member', setup: { entity: 'member' } },
  entityAdmin: { role: 'admin', setup: { entity: 'admin' } },
  outsider: { role: null, setup: { other: true } },
  override: { role: 'annotator', setup: { project: 'annotator' } },
  globalAdmin: { role: 'admin', setup: { global: true } },
} as const satisfies Record<string, { role: Role | null; setup: { entity?: Role; project?: Role; other?: true; global?: true } }>;
type Who = keyof typeof WALKERS;
const WHO = Object.keys(WALKERS) as Who[];

type PublicName = { [K in EndpointName]: Endpoints[K] extends { public: true } ? K : never }[EndpointName];
type Walked = Exclude<EndpointName, PublicName>;

interface Fixtures {
  callId: string;
  objDigest: string;
  tableDigest: string;
  rowDigest: string;
  fileDigest: string;
  queueId: string;
  itemId: string;
  feedbackId: string;
  evaluation: EvaluationFixture;
  runId: string;
  predictionId: string;
  scoreId: string;
  /** A redaction rule in P per walker, so each walker's delete finds one of its own. */
  redactionRuleIds: Record<Who, string>;
}

/** A valid request per endpoint, for a given walker (names that must differ per walker use `who`). */
type Samples = { [K in Walked]: (fx: Fixtures, who: Who) => ReqOf<K> };

const started = (id: string) => ({
  project_id: P,
  id,
  op_name: 'walk.op',
  started_at: '2026-01-01T00:00:00Z',
  trace_id: `t-${id}`,
  inputs: {},
});
const ended = (id: string) => ({ project_id: P, id, ended_at: '2026-01-01T00:00:01Z', summary: {} });
const idExpr = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] }) as const;

const SAMPLES: Samples = {
  projectsInfo: () => ({}),
  geolocate: () => ({}),
  callStart: (_, who) => ({ start: started(`start-${who}`) }),
  callEnd: (_, who) => ({ end: ended(`start-${who}`) }),
  callUpsertBatch: (_, who) => ({ batch: [{ mode: 'start', req: { start: started(`batch-${who}`) } }] }),
  callRead: (fx) => ({ project_id: P, id: fx.callId }),
  callUpdate: (fx) => ({ project_id: P, call_id: fx.callId, display_name: 'renamed' }),
  callsDelete: (_, who) => ({ project_id: P, call_ids: [`start-${who}`] }),
  callsQueryStats: () => ({ project_id: P }),
  callsStreamQuery: () => ({ project_id: P }),
  callsQuery: () => ({ project_id: P }),
  callsComplete: (_, who) => ({ ...PATH, batch: [{ ...started(`complete-${who}`), ended_at: '2026-01-01T00:00:01Z' }] }),
  callStartV2: (_, who) => ({ ...PATH, start: started(`v2-${who}`) }),
  callEndV2: (_, who) => ({ ...PATH, end: ended(`v2-${who}`) }),
  callStats: () => ({ project_id: P, start: '2026-01-01T00:00:00Z' }),
  callsUsage: (fx) => ({ project_id: P, call_ids: [fx.callId] }),
  traceUsage: () => ({ project_id: P }),
  threadsStreamQuery: () => ({ project_id: P }),
  threadsQueryStats: () => ({ project_id: P }),
  feedbackCreate: (fx) => ({ project_id: P, weave_ref: callRef(fx), feedback_type: 'wave.note', payload: { note: 'hi' } }),
  feedbackBatchCreate: (fx) => ({ batch: [{ project_id: P, weave_ref: callRef(fx), feedback_type: 'wave.note', payload: { note: 'b' } }] }),
  feedbackQuery: () => ({ project_id: P }),
  feedbackPurge: () => ({ project_id: P, query: { $expr: idExpr('no-such-feedback') } }),
  feedbackReplace: (fx) => ({
    project_id: P,
    feedback_id: fx.feedbackId,
    weave_ref: callRef(fx),
    feedback_type: 'wave.note',
    payload: { note: 'again' },
  }),
  feedbackStats: () => ({ project_id: P, start: '2026-01-01T00:00:00Z' }),
  feedbackAggregate: () => ({ project_id: P, after_ms: 0, before_ms: 1 }),
  feedbackPayloadSchema: () => ({ project_id: P, start: '2026-01-01T00:00:00Z' }),
  costCreate: (_, who) => ({ project_id: P, costs: { [`model-${who}`]: { prompt_token_cost: 1, completion_token_cost: 1 } } }),
  costQuery: () => ({ project_id: P }),
  costPurge: () => ({ project_id: P, query: { $expr: idExpr('no-such-cost') } }),
  otelExport: () => ({}),
  objCreate: (_, who) => ({ obj: { project_id: P, object_id: `obj-${who}`, val: { who } } }),
  objRead: (fx) => ({ project_id: P, object_id: 'walk-obj', digest: fx.objDigest }),
  objDelete: (_, who) => ({ project_id: P, object_id: `obj-${who}` }),
  objsQuery: () => ({ project_id: P }),
  objSetAliases: (fx) => ({ project_id: P, object_id: 'walk-obj', digest: fx.objDigest, aliases: ['prod'] }),
  objRemoveAliases: () => ({ project_id: P, object_id: 'walk-obj', aliases: ['prod'] }),
  objAddTags: (fx) => ({ project_id: P, object_id: 'walk-obj', digest: fx.objDigest, tags: ['good'] }),
  objRemoveTags: (fx) => ({ project_id: P, object_id: 'walk-obj', digest: fx.objDigest, tags: ['good'] }),
  tagsList: () => ({ project_id: P }),
  aliasesList: () => ({ project_id: P }),
  tableCreate: (_, who) => ({ table: { project_id: P, rows: [{ who }] } }),
  tableCreateFromDigests: (fx) => ({ project_id: P, row_digests: [fx.rowDigest] }),
  tableUpdate: (fx, who) => ({ project_id: P, base_digest: fx.tableDigest, updates: [{ append: { row: { who } } }] }),
  tableQuery: (fx) => ({ project_id: P, digest: fx.tableDigest }),
  tableQueryStream: (fx) => ({ project_id: P, digest: fx.tableDigest }),
  tableQueryStats: (fx) => ({ project_id: P, digest: fx.tableDigest }),
  tableQueryStatsBatch: (fx) => ({ project_id: P, digests: [fx.tableDigest] }),
  fileCreate: (_, who) => ({ project_id: P, file: new Blob([`file of ${who}`]) }),
  filesCreate: (_, who) => ({ project_id: P, file: new Blob([`files of ${who}`]) }),
  fileContent: (fx) => ({ project_id: P, digest: fx.fileDigest }),
  filesContent: (fx) => ({ project_id: P, digest: fx.fileDigest }),
  filesQueryStats: () => ({ project_id: P }),
  filesStats: () => ({ project_id: P }),
  projectStats: () => ({ project_id: P }),
  refsReadBatch: (fx) => ({ refs: [`weave:///${P}/object/walk-obj:${fx.objDigest}`] }),
  annotationQueueCreate: (_, who) => ({ project_id: P, name: `queue-${who}`, scorer_refs: [] }),
  annotationQueuesQuery: () => ({ project_id: P }),
  annotationQueuesStats: (fx) => ({ project_id: P, queue_ids: [fx.queueId] }),
  annotationQueueRead: (fx) => ({ project_id: P, queue_id: fx.queueId }),
  annotationQueueUpdate: (fx) => ({ project_id: P, queue_id: fx.queueId, description: 'updated' }),
  annotationQueueDelete: () => ({ project_id: P, queue_id: 'no-such-queue' }),
  annotationQueueAddCalls: (fx) => ({ project_id: P, queue_id: fx.queueId, call_ids: [fx.callId], display_fields: [] }),
  annotationQueueItemsQuery: (fx) => ({ project_id: P, queue_id: fx.queueId }),
  annotatorQueueItemsProgressUpdate: (fx) => ({ project_id: P, queue_id: fx.queueId, item_id: fx.itemId, annotation_state: 'in_progress' }),
  annotationQueueItemSubmit: (fx) => ({ project_id: P, queue_id: fx.queueId, item_id: fx.itemId, annotations: [], skip: true }),
  annotationQueueNextItem: (fx) => ({ project_id: P, queue_id: fx.queueId }),
  annotationQueueAddThreads: (fx) => ({ project_id: P, queue_id: fx.queueId, thread_ids: ['no-such-thread'] }),
  annotationQueueResults: (fx) => ({ project_id: P, queue_id: fx.queueId }),
  annotationQueueSummary: (fx) => ({ project_id: P, queue_id: fx.queueId }),
  annotationItemHistory: (fx) => ({ project_id: P, queue_id: fx.queueId, item_id: fx.itemId }),
  annotationQueueExport: (fx) => ({ project_id: P, queue_id: fx.queueId }),
  annotationQueueSaveDataset: (fx, who) => ({ project_id: P, queue_id: fx.queueId, name: `answers-${who}` }),
  opCreate: (_, who) => ({ ...PATH, name: `op_${who}`, source_code: 'def f(): return 1' }),
  opList: () => ({ ...PATH }),
  opRead: () => ({ ...PATH, object_id: 'no_such_op', digest: 'latest' }),
  opDelete: (_, who) => ({ ...PATH, object_id: `op_${who}` }),
  datasetCreate: (_, who) => ({ ...PATH, name: `ds-${who}`, rows: [{ who }] }),
  datasetList: () => ({ ...PATH }),
  datasetRead: () => ({ ...PATH, object_id: 'quiz', digest: 'latest' }),
  datasetDelete: (_, who) => ({ ...PATH, object_id: `ds-${who}` }),
  datasetAddFromTraces: (fx, who) => ({ project_id: P, dataset: `added-${who}`, source: { kind: 'calls', call_ids: [fx.callId] } }),
  scorerCreate: (_, who) => ({ ...PATH, name: `scorer-${who}`, op_source_code: 'def score(output): return 1' }),
  scorerList: () => ({ ...PATH }),
  scorerRead: () => ({ ...PATH, object_id: 'exact', digest: 'latest' }),
  scorerDelete: (_, who) => ({ ...PATH, object_id: `scorer-${who}` }),
  modelCreate: (_, who) => ({ ...PATH, name: `model-${who}`, source_code: 'def predict(q): return q' }),
  modelList: () => ({ ...PATH }),
  modelRead: () => ({ ...PATH, object_id: 'model-a', digest: 'latest' }),
  modelDelete: (_, who) => ({ ...PATH, object_id: `model-${who}` }),
  evaluationCreate: (fx, who) => ({ ...PATH, name: `eval-${who}`, dataset: fx.evaluation.dataset }),
  evaluationList: () => ({ ...PATH }),
  evaluationRead: () => ({ ...PATH, object_id: 'quiz-eval', digest: 'latest' }),
  evaluationDelete: (_, who) => ({ ...PATH, object_id: `eval-${who}` }),
  evaluationRunCreate: (fx) => ({ ...PATH, evaluation: fx.evaluation.evaluation, model: fx.evaluation.models.a }),
  evaluationRunList: () => ({ ...PATH }),
  evaluationRunRead: (fx) => ({ ...PATH, evaluation_run_id: fx.runId }),
  evaluationRunDelete: () => ({ ...PATH, evaluation_run_ids: ['no-such-run'] }),
  evaluationRunFinish: (fx) => ({ ...PATH, evaluation_run_id: fx.runId }),
  predictionCreate: (fx) => ({ ...PATH, model: fx.evaluation.models.a, inputs: { q: 1 }, output: 1 }),
  predictionList: () => ({ ...PATH }),
  predictionRead: (fx) => ({ ...PATH, prediction_id: fx.predictionId }),
  predictionDelete: () => ({ ...PATH, prediction_ids: ['no-such-prediction'] }),
  predictionFinish: (fx) => ({ ...PATH, prediction_id: fx.predictionId }),
  scoreCreate: (fx) => ({ ...PATH, prediction_id: fx.predictionId, scorer: fx.evaluation.scorers.exact, value: 1 }),
  scoreList: () => ({ ...PATH }),
  scoreRead: (fx) => ({ ...PATH, score_id: fx.scoreId }),
  scoreDelete: () => ({ ...PATH, score_ids: ['no-such-score'] }),
  evalResultsQuery: (fx) => ({ ...PATH, evaluation_call_ids: [fx.runId] }),
  evaluationStatus: (fx) => ({ project_id: P, call_id: fx.runId }),
  // Refs that resolve to nothing: the job is refused for its input (no background work, no network).
  evaluateModel: () => ({
    project_id: P,
    evaluation_ref: `weave:///${P}/object/nope:latest`,
    model_ref: `weave:///${P}/object/nope:latest`,
  }),
  evaluationRescore: () => ({ project_id: P, source_evaluation_run_id: 'no-such-run', scorer_refs: [`weave:///${P}/object/nope:latest`] }),
  callsScore: (fx) => ({ project_id: P, call_ids: [fx.callId], scorer_refs: [`weave:///${P}/object/nope:latest`] }),
  completionsCreate: () => ({ project_id: P, inputs: { model: 'no-provider/none', messages: [] }, track_llm_call: false }),
  completionsCreateStream: () => ({ project_id: P, inputs: { model: 'no-provider/none', messages: [] }, track_llm_call: false }),
  imageCreate: () => ({ project_id: P, inputs: { model: 'no-provider/none', prompt: 'a cat' }, track_llm_call: false }),
  whoami: () => ({}),
  traceOutline: () => ({ project_id: P, trace_id: 'walk-trace' }),
  traceOutlineStream: () => ({ project_id: P, trace_id: 'walk-trace' }),
  callPreview: () => ({ project_id: P, id: 'walk-call' }),
  callPayloadPart: () => ({ project_id: P, id: 'walk-call', field: 'inputs', path: [] }),
  callsExport: () => ({ project_id: P }),
  usersList: () => ({}),
  // A taken name: 409 once allowed, before any password is hashed (creating is accounts.test.ts's).
  userCreate: () => ({ username: 'walk-dummy', password: 'made-password', entities: [ENTITY], role: 'viewer' }),
  userRoleSet: () => ({ username: 'walk-dummy', scope: ENTITY, role: 'viewer' }),
  apiKeysList: () => ({}),
  apiKeyCreate: (_, who) => ({ name: `key of ${who}` }),
  apiKeyRevoke: () => ({ key_id: 'nosuchkeyid' }),
  defaultEntitySet: (_, who) => ({ entity: who === 'outsider' ? 'elsewhere' : ENTITY }),
  sessionsList: () => ({}),
  sessionRevoke: () => ({ session_id: 'no-such-session' }),
  userSessionsRevoke: () => ({ username: 'walk-dummy' }),
  // A wrong current password: 400 once allowed (a right one would cost a full password hash per walker).
  passwordChange: () => ({ current_password: 'not-the-password', new_password: `${PASSWORD}-2` }),
  userPasswordReset: () => ({ username: 'no-such-user', new_password: 'dummy-password-2' }),
  pricesList: () => ({ project_id: P }),
  alertsList: () => ({ project_id: P }),
  alertCreate: () => ({
    project_id: P,
    name: 'errors',
    metric: 'error_rate',
    comparison: 'above',
    threshold: 0.5,
    window_minutes: 5,
    webhook_url: 'https://hooks.example.com/alerts',
  }),
  alertUpdate: () => ({ project_id: P, rule_id: 'no-such-rule', name: 'renamed' }),
  alertDelete: () => ({ project_id: P, rule_id: 'no-such-rule' }),
  alertTest: () => ({ project_id: P, rule_id: 'no-such-rule' }),
  alertEvents: () => ({ project_id: P }),
  providersList: () => ({ project_id: P }),
  providerCreate: (_, who) => ({ project_id: P, name: `prov-${who.toLowerCase()}`, base_url: 'https://models.example.com/v1' }),
  providerUpdate: () => ({ project_id: P, provider_id: 'no-such-provider', name: 'renamed' }),
  providerDelete: () => ({ project_id: P, provider_id: 'no-such-provider' }),
  providerTest: () => ({ project_id: P, provider_id: 'no-such-provider' }),
  modelsList: () => ({ project_id: P }),
  judgeTry: (fx) => ({ project_id: P, call_id: fx.callId, scorer_ref: `weave:///${P}/object/nope:latest` }),
  judgeAgreement: () => ({ project_id: P }),
  callsScoreJob: (fx) => ({ project_id: P, call_ids: [fx.callId], scorer_refs: [`weave:///${P}/object/nope:latest`] }),
  jobsList: () => ({ project_id: P }),
  jobRead: () => ({ project_id: P, job_id: 'no-such-job' }),
  jobCancel: () => ({ project_id: P, job_id: 'no-such-job' }),
  redactionList: () => ({ project_id: P }),
  redactionAdd: (_, who) => ({ project_id: P, key: `walk_${who}` }),
  redactionDelete: (fx, who) => ({ rule_id: fx.redactionRuleIds[who] }),
  // A window far longer than the fixtures' age: nothing of the walk expires.
  retentionRead: () => ({ project_id: P }),
  retentionSet: () => ({ project_id: P, days: 36500 }),
  auditList: () => ({ project_id: P }),
  auditExport: () => ({ project_id: P, format: 'jsonl' }),
  // A tool call in P: each tool checks the role itself and refuses as a tool error (mcpToolCall below).
  mcp: () => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_calls', arguments: { project_id: P } } }),
  wandbGraphql: () => ({ query: `mutation { upsertModel(input: { name: "${PROJECT}", entityName: "${ENTITY}" }) { model { id } } }` }),
};

const callRef = (fx: Fixtures) => `weave:///${P}/call/${fx.callId}`;

/** Who may call an endpoint, where the handler decides rather than the project role. */
const HANDLER_DECIDES: Partial<Record<Walked, { need: Role; allowed: (who: Who) => boolean }>> = {
  userSessionsRevoke: { need: 'admin', allowed: (who) => who === 'globalAdmin' },
  userPasswordReset: { need: 'admin', allowed: (who) => who === 'globalAdmin' },
  // upsertModel writes; lookups only need a role (checked in its own test below).
  wandbGraphql: { need: 'member', allowed: (who) => allowedByRole(who, 'member') },
};

/** Answers about the input that a valid sample still gets, by design. */
const EXPECTED_422 = ['defaultEntitySet:override'];

function allowedByRole(who: Who, need: Role): boolean {
  const have = WALKERS[who].role;
  return have !== null && roleAtLeast(have, need);
}

function expectation(name: Walked, who: Who): { allowed: boolean; need: Role | 'signed-in' } {
  const special = HANDLER_DECIDES[name];
  if (special) return { allowed: special.allowed(who), need: special.need };
  const need = (endpoints[name] as EndpointDef).role!;
  return { allowed: need === 'signed-in' || allowedByRole(who, need), need };
}

/** Destructive endpoints run after everything else, so reads find their fixtures. */
const ORDER = (name: string) => (/Delete|Purge|Revoke|Cancel|passwordChange/.test(name) ? 1 : 0);

for (const backend of testBackends()) {
  describe(`every endpoint with every role (${backend.name})`, () => {
    let t: TestServer;
    let clients: Record<Who, WeftClient>;
    let keys: Record<Who, string>;
    let fx: Fixtures;

    async function setUp(): Promise<void> {
      t = await startTestServer({
        env: backend.serverEnv,
        // Provider base URLs are checked against DNS answers: a fixed public answer, no lookups.
        resolveHost: async () => [{ address: '93.184.216.34', family: 4 }],
      });
      const store = t.server.store;
      // A stored hash that verifies without scrypt's cost (secrets.ts accepts SHA-256 hashes).
      const passwordHash = fastHash(PASSWORD);
      keys = {} as Record<Who, string>;
      clients = {} as Record<Who, WeftClient>;
      for (const who of WHO) {
        const { setup } = WALKERS[who] as { setup: { entity?: Role; project?: Role; other?: true; global?: true } };
        const username = who === 'globalAdmin' ? 'admin' : `walk-${who.toLowerCase()}`;
        if (who !== 'globalAdmin') {
          await store.accounts.upsertUser({
            username,
            passwordHash,
            entities: setup.entity ? [ENTITY] : setup.other ? ['elsewhere'] : [],
            ...(setup.entity ? { role: setup.entity } : {}),
          });
          if (setup.project) await store.accounts.setRole(username, P, setup.project);
        }
        keys[who] = (await createApiKey(store, username)).key;
        clients[who] = createClient({ baseUrl: t.url, auth: { username: 'api', password: keys[who] } });
      }
      await store.accounts.upsertUser({ username: 'walk-dummy', passwordHash, entities: [ENTITY] });
      fx = await fixtures(clients.globalAdmin);
    }

    beforeAll(setUp, 60_000);
    afterAll(async () => {
      await t?.close();
    });

    it('answers each endpoint as its role says, for each role', { timeout: 120_000 }, async () => {
      {
        const names = (Object.keys(SAMPLES) as Walked[]).sort((a, b) => ORDER(a) - ORDER(b));
        const wrong: string[] = [];
        const got422: string[] = [];
        let ok2xx = 0;
        for (const name of names) {
          const results = await Promise.all(
            WHO.map(async (who) => ({ who, ...(await attempt(t, clients[who], keys[who], name, who, fx)) })),
          );
          for (const { who, status, message } of results) {
            const { allowed, need } = expectation(name, who);
            if (status === 422) got422.push(`${name}:${who}`);
            if (status >= 200 && status < 300) ok2xx++;
            if (allowed && (status === 401 || status === 403 || status >= 500)) wrong.push(`${name} as ${who}: ${status} ${message}`);
            if (!allowed && (status !== 403 || !new RegExp(`\\b${need}`).test(message)))
              wrong.push(`${name} as ${who}: expected 403 naming "${need}", got ${status} ${message}`);
          }
        }
        expect(wrong).toEqual([]);
        expect(got422.sort()).toEqual(EXPECTED_422);
        // Most samples are answered, not just past the role check.
        expect(ok2xx).toBeGreaterThan(names.length * 3);
      }
    });

    it("refuses a write to a viewer's API key, naming the role needed", async () => {
      const refused = await attempt(t, clients.viewer, keys.viewer, 'callsDelete', 'viewer', fx);
      expect(refused.status).toBe(403);
      expect(refused.message).toContain('walk-viewer');
      expect(refused.message).toMatch(/is a viewer in "acme\/walk"; to use POST \/calls\/delete they must be a member or above/);
    });

    it('lists the projects a role reaches: the entity for members of it, the one project for an override', async () => {
      await clients.globalAdmin.callStart({ start: { ...started('elsewhere-call'), project_id: `${ENTITY}/other` } });
      const listed = async (who: Who) =>
        (await clients[who].projectsInfo({}))
          .map((p) => p.external_project_id)
          .filter((id) => id.startsWith(`${ENTITY}/`))
          .sort();
      expect(await listed('viewer')).toEqual([`${ENTITY}/other`, P]);
      expect(await listed('override')).toEqual([P]);
      expect(await listed('outsider')).toEqual([]);
      // And the override reaches nothing else of the entity.
      const other = await clients.override.callsQueryStats({ project_id: `${ENTITY}/other` }).catch((err: unknown) => err);
      expect(other).toMatchObject({
        status: 403,
        message: expect.stringMatching(/has no role in "acme\/other"; .* must be a viewer or above/),
      });
    });

    it('records who created a user and who changed a role, in the audit trail', async () => {
      const entries: AuditEntry[] = [];
      const deps = {
        store: t.server.store,
        authenticator: new Authenticator(t.server.store),
        audit: { record: async (e: AuditEntry) => void entries.push(e) },
        address: '203.0.113.9',
      };
      const caller = await new Authenticator(t.server.store).authenticate(`Bearer ${keys.entityAdmin}`);
      await createUser(deps, caller, {
        username: 'audited',
        password: 'audited-password',
        entities: [ENTITY],
        role: 'viewer',
        is_admin: false,
      });
      await setUserRole(deps, caller, { username: 'audited', scope: P, role: 'member' });
      const actor = { username: 'walk-entityadmin', keyId: caller.keyId, via: 'api_key' };
      expect(entries).toEqual([
        {
          actor,
          address: '203.0.113.9',
          action: 'user.created',
          target: 'audited',
          entity: ENTITY,
          projectId: null,
          outcome: 'success',
          details: { role: 'viewer', is_admin: false },
        },
        {
          actor,
          address: '203.0.113.9',
          action: 'role.changed',
          target: 'audited',
          entity: ENTITY,
          projectId: P,
          outcome: 'success',
          details: { role: 'member', scope: P },
        },
      ]);
    });

    it("finds objects by id only in the request's project, and checks every project a ref batch names", async () => {
      // The outsider is a member of "elsewhere": naming their own project does not reach acme's queue or items.
      const mine = 'elsewhere/own';
      const read = await clients.outsider.annotationQueueRead({ project_id: mine, queue_id: fx.queueId }).catch((err: unknown) => err);
      expect(read).toMatchObject({ status: 404 });
      const submit = await clients.outsider
        .annotationQueueItemSubmit({ project_id: mine, queue_id: fx.queueId, item_id: fx.itemId, annotations: [], skip: true })
        .catch((err: unknown) => err);
      expect(submit).toMatchObject({ status: 404 });
      const refs = [`weave:///${mine}/object/x:latest`, `weave:///${P}/object/walk-obj:${fx.objDigest}`];
      const batch = await clients.outsider.refsReadBatch({ refs }).catch((err: unknown) => err);
      expect(batch).toMatchObject({ status: 403, message: expect.stringMatching(/has no role in "acme\/walk".*must be a viewer/) });
    });

    it('answers W&B GraphQL lookups to any role, and treats a project without one as absent', async () => {
      const lookup = async (who: Who) => {
        const res = await fetch(`${t.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`api:${keys[who]}`).toString('base64')}` },
          body: JSON.stringify({ query: `{ project(name: "${PROJECT}", entityName: "${ENTITY}") { id } }` }),
        });
        return ((await res.json()) as { data: { project: { id: string } | null } }).data.project;
      };
      expect(await lookup('viewer')).toEqual({ id: P });
      expect(await lookup('override')).toEqual({ id: P });
      expect(await lookup('outsider')).toBeNull();
    });
  });
}

async function fixtures(admin: WeftClient): Promise<Fixtures> {
  const callId = 'walk-call';
  await admin.callStart({ start: started(callId) });
  await admin.callEnd({ end: ended(callId) });
  const objDigest = (await admin.objCreate({ obj: { project_id: P, object_id: 'walk-obj', val: { a: 1 } } })).digest;
  const table = await admin.tableCreate({ table: { project_id: P, rows: [{ a: 1 }] } });
  const fileDigest = (await admin.fileCreate({ project_id: P, file: new Blob(['walk file']) })).digest;
  const queueId = (await admin.annotationQueueCreate({ project_id: P, name: 'walk-queue', scorer_refs: [] })).id;
  await admin.annotationQueueAddCalls({ project_id: P, queue_id: queueId, call_ids: [callId], display_fields: [] });
  const itemId = (await admin.annotationQueueItemsQuery({ project_id: P, queue_id: queueId })).items[0]!.id;
  const feedbackId = (
    await admin.feedbackCreate({ project_id: P, weave_ref: `weave:///${P}/call/${callId}`, feedback_type: 'wave.note', payload: {} })
  ).id;
  const evaluation = await publishEvaluation(admin, ENTITY, PROJECT);
  const runId = (await admin.evaluationRunCreate({ ...PATH, evaluation: evaluation.evaluation, model: evaluation.models.a }))
    .evaluation_run_id;
  const predictionId = (
    await admin.predictionCreate({ ...PATH, model: evaluation.models.a, inputs: { q: 1 }, output: 1, evaluation_run_id: runId })
  ).prediction_id;
  const scoreId = (await admin.scoreCreate({ ...PATH, prediction_id: predictionId, scorer: evaluation.scorers.exact, value: 1 })).score_id;
  const redactionRuleIds = {} as Record<Who, string>;
  for (const who of WHO) redactionRuleIds[who] = (await admin.redactionAdd({ project_id: P, key: `fixture_${who}` })).rule.id;
  return {
    callId,
    objDigest,
    tableDigest: table.digest,
    rowDigest: table.row_digests[0]!,
    fileDigest,
    queueId,
    itemId,
    feedbackId,
    evaluation,
    runId,
    predictionId,
    scoreId,
    redactionRuleIds,
  };
}

/** Sends one sample as one walker: the status and the error's reason ('' on success). */
async function attempt(
  t: TestServer,
  client: WeftClient,
  key: string,
  name: Walked,
  who: Who,
  fx: Fixtures,
): Promise<{ status: number; message: string }> {
  if (name === 'otelExport') return otelExport(t, key, who);
  if (name === 'wandbGraphql') return graphqlUpsert(t, key);
  if (name === 'mcp') return mcpToolCall(t, key);
  const endpoint = endpoints[name] as EndpointDef;
  const req = (SAMPLES[name] as (fx: Fixtures, who: Who) => unknown)(fx, who);
  const method = (client as unknown as Record<string, (req: unknown) => unknown>)[name]!;
  try {
    const out = method(req);
    if (endpoint.stream) {
      for await (const _ of out as AsyncIterable<unknown>) void _;
      return { status: 200, message: '' };
    }
    const answer = await (out as Promise<unknown>);
    if (answer instanceof Response) {
      await answer.arrayBuffer();
      return { status: answer.status, message: '' };
    }
    return { status: 200, message: '' };
  } catch (err) {
    if (err instanceof HttpError) return { status: err.status, message: err.message };
    throw err;
  }
}

/** OTLP/JSON with one span into P (an export without spans names no project). */
async function otelExport(t: TestServer, key: string, who: Who): Promise<{ status: number; message: string }> {
  const span = {
    traceId: '5b8efff798038103d269b633813fc60c',
    spanId: `eee19b7ec3c1b17${WHO.indexOf(who)}`,
    name: 'walk-span',
    startTimeUnixNano: '1704067200000000000',
    endTimeUnixNano: '1704067201500000000',
    attributes: [],
  };
  const res = await fetch(`${t.url}/otel/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'wandb-api-key': key, project_id: P },
    body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }),
  });
  const body = (await res.json()) as { reason?: string };
  return { status: res.status, message: body.reason ?? '' };
}

/** upsertModel of P: a GraphQL answer, refused as a PERMISSION_ERROR (reported here as 403). */
async function graphqlUpsert(t: TestServer, key: string): Promise<{ status: number; message: string }> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}` },
    body: JSON.stringify(SAMPLES.wandbGraphql({} as Fixtures, 'viewer')),
  });
  const body = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
  const error = body.errors?.[0];
  if (!error) return { status: res.status, message: '' };
  return { status: error.extensions?.code === 'PERMISSION_ERROR' ? 403 : 400, message: error.message };
}

/** An MCP tool call in P: a tool error "403: ..." is reported as 403, a tool result as 200. */
async function mcpToolCall(t: TestServer, key: string): Promise<{ status: number; message: string }> {
  const res = await fetch(`${t.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify(SAMPLES.mcp({} as Fixtures, 'viewer')),
  });
  if (!res.ok) return { status: res.status, message: await res.text() };
  const body = (await res.json()) as { result?: { isError?: boolean; content: { text: string }[] } };
  const text = body.result?.content[0]?.text ?? '';
  if (!body.result?.isError) return { status: 200, message: '' };
  return { status: Number(/^(\d{3}):/.exec(text)?.[1] ?? 500), message: text };
}

// Request threads get the caller from the main thread (threads/mainThreadAuth.ts): the roles
// and per-project roles must arrive with it, for reads and writes alike.
describe('roles in request threads', () => {
  let t: TestServer;
  const as = (key: string) => createClient({ baseUrl: t.url, auth: { username: 'api', password: key } });
  let viewer: WeftClient;
  let override: WeftClient;

  beforeAll(async () => {
    t = await startTestServer({ env: { WEFT_READ_THREADS: '1', WEFT_WRITE_THREADS: '1' } });
    const store = t.server.store;
    await store.accounts.upsertUser({ username: 'th-viewer', entities: [ENTITY], role: 'viewer' });
    await store.accounts.upsertUser({ username: 'th-override', entities: [] });
    await store.accounts.setRole('th-override', P, 'member');
    viewer = as((await createApiKey(store, 'th-viewer')).key);
    override = as((await createApiKey(store, 'th-override')).key);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a viewer a write and lets a per-project member write there only', async () => {
    expect(t.server.threads).not.toBeNull();
    expect(await viewer.callsQueryStats({ project_id: P })).toMatchObject({ count: 0 });
    const refused = await viewer.callsDelete({ project_id: P, call_ids: ['x'] }).catch((err: unknown) => err);
    expect(refused).toMatchObject({ status: 403, message: expect.stringMatching(/is a viewer in "acme\/walk".*must be a member/) });
    await override.callStart({ start: started('threaded') });
    expect(await override.callsQueryStats({ project_id: P })).toMatchObject({ count: 1 });
    const elsewhere = await override.callsQueryStats({ project_id: `${ENTITY}/other` }).catch((err: unknown) => err);
    expect(elsewhere).toMatchObject({ status: 403, message: expect.stringMatching(/has no role in "acme\/other"/) });
  });
});
