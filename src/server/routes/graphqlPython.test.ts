/**
 * The Python SDK's `weave.init` against Weft, replayed request by request with nothing set but
 * `WANDB_BASE_URL` and `WANDB_API_KEY` (so the trace server is `<base>/traces`): the documents
 * as gql re-prints them (graphql-core 3.2 and 3.3), httpx's headers and compact JSON, no
 * `variables` key for `DefaultEntity`, then the first trace write and reading it back
 * (docs/api/wandb-graphql.md §3). The `wandb` package's InternalApi path of older releases
 * and `wandb login` follow (§4). The texts and how they were made: testing/wandbClients.ts.
 */
import { describe, expect, it } from 'vitest';
import { projectNames, useTestServer } from '../testing/serverSuite.js';
import {
  GQL3_DEFAULT_ENTITY,
  GQL3_PROJECT,
  GQL3_UPSERT_MODEL,
  GQL4_UPSERT_MODEL,
  WANDB_PROBE_SERVER_CAPABILITIES,
  WANDB_PROJECT_DETAILS,
  WANDB_UPSERT_MODEL,
  WANDB_VIEWER,
  WANDB_VIEWER_ID,
  pythonHttpxHeaders,
  pythonJson,
  sendExactly,
  wandbRequestsHeaders,
} from '../testing/wandbClients.js';

const t = useTestServer();
const nextProject = projectNames('py');

/** One GraphQL request as the current thin client sends it (httpx, compact JSON). */
const thin = (document: string, variables?: Record<string, unknown>) =>
  sendExactly(`${t.url}/graphql`, {
    headers: pythonHttpxHeaders(t.alice.authHeader),
    body: pythonJson(variables ? { query: document, variables } : { query: document }, true),
  });

/** One GraphQL request as `wandb`'s InternalApi sends it (requests, ", " JSON, variables always). */
const legacy = (document: string, variables: Record<string, unknown>) =>
  sendExactly(`${t.url}/graphql`, {
    headers: wandbRequestsHeaders(t.alice.authHeader),
    body: pythonJson({ query: document, variables }, false),
  });

/** The trace server the Python client derives from WANDB_BASE_URL: `<base>/traces`; its bodies carry no Content-Type. */
const trace = (path: string, body?: unknown) =>
  sendExactly(`${t.url}/traces${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: [
      ['Accept', '*/*'],
      ['Accept-Encoding', 'gzip, deflate'],
      ['User-Agent', 'python-httpx/0.28.1'],
      ['Authorization', t.alice.authHeader],
    ],
    ...(body === undefined ? {} : { body: pythonJson(body, true) }),
  });

/** The first trace write after init: a call start with every optional field present as null, as pydantic dumps it. */
async function writeAndReadBack(projectId: string): Promise<void> {
  const start = {
    project_id: projectId,
    id: '0192f0a0-0000-7000-8000-000000000001',
    op_name: 'greet',
    display_name: null,
    trace_id: '0192f0a0-0000-7000-8000-000000000002',
    parent_id: null,
    thread_id: null,
    turn_id: null,
    started_at: '2026-01-01T00:00:00Z',
    attributes: {},
    inputs: { name: 'Ada' },
    otel_dump: null,
    wb_user_id: null,
    wb_run_id: null,
    wb_run_step: null,
  };
  const write = await trace('/call/upsert_batch', { batch: [{ mode: 'start', req: { start } }] });
  expect(write.status).toBe(200);
  const read = await trace('/calls/stream_query', { project_id: projectId, filter: null, limit: null, offset: null });
  expect(read.status).toBe(200);
  expect(
    read.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).inputs),
  ).toEqual([{ name: 'Ada' }]);
}

async function listedProjects(): Promise<string[]> {
  const res = await trace('/service/projects_info', {});
  return res.json.map((p: { external_project_id: string }) => p.external_project_id);
}

describe('Python weave.init("entity/project"), current thin client', () => {
  it('checks, creates, greets the user and traces into the project', async () => {
    const name = nextProject();
    const info = await trace('/server_info');
    expect(info.status).toBe(200);
    expect(info.json.min_required_weave_python_version).toEqual(expect.any(String));

    const lookup = await thin(GQL3_PROJECT, { entityName: 'alice-co', name });
    expect(lookup).toMatchObject({ status: 200, json: { data: { project: null } } });
    expect(lookup.contentType).toMatch(/^application\/json/);

    const created = await thin(GQL3_UPSERT_MODEL, { name, entity: 'alice-co', description: null });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ data: { upsertModel: { model: { name, description: null } } } });
    // The project exists before anything is written to it.
    expect(await listedProjects()).toContain(`alice-co/${name}`);

    const viewer = await thin(GQL3_DEFAULT_ENTITY);
    expect(viewer.json).toEqual({ data: { viewer: { username: 'alice', defaultEntity: { name: 'alice-co' } } } });

    await writeAndReadBack(`alice-co/${created.json.data.upsertModel.model.name}`);

    // A second init finds the project and skips upsertModel.
    expect((await thin(GQL3_PROJECT, { entityName: 'alice-co', name })).json).toEqual({ data: { project: { name } } });
  });

  it('accepts the graphql-core 3.3 printing (gql 4), idempotently', async () => {
    const name = nextProject();
    for (let i = 0; i < 2; i++) {
      const res = await thin(GQL4_UPSERT_MODEL, { name, entity: 'alice-co', description: null });
      expect(res.json).toEqual({ data: { upsertModel: { model: { name, description: null } } } });
    }
    expect((await listedProjects()).filter((p) => p === `alice-co/${name}`)).toHaveLength(1);
  });
});

describe('Python weave.init("project"), no entity', () => {
  it('asks for the default entity first (no variables key), then the same start-up', async () => {
    const name = nextProject();
    const first = await thin(GQL3_DEFAULT_ENTITY);
    expect(first.status).toBe(200);
    const entity = first.json.data.viewer.defaultEntity.name;
    expect(entity).toBe('alice-co');
    expect((await thin(GQL3_PROJECT, { entityName: entity, name })).json.data.project).toBeNull();
    expect((await thin(GQL3_UPSERT_MODEL, { name, entity, description: null })).json.data.upsertModel.model.name).toBe(name);
    expect((await thin(GQL3_DEFAULT_ENTITY)).json.data.viewer.username).toBe('alice');
    await writeAndReadBack(`${entity}/${name}`);
  });
});

describe('older Python releases: wandb InternalApi for the project, gql over requests for the viewer', () => {
  it('ProjectDetails, UpsertModel with "id": null, then finds the project', async () => {
    const name = nextProject();
    expect((await legacy(WANDB_PROJECT_DETAILS, { entity: 'alice-co', project: name })).json).toEqual({ data: { model: null } });
    const created = await legacy(WANDB_UPSERT_MODEL, { name, entity: 'alice-co', description: null, id: null });
    expect(created.json).toEqual({ data: { upsertModel: { model: { name, description: null } } } });
    const found = await legacy(WANDB_PROJECT_DETAILS, { entity: 'alice-co', project: name });
    expect(found.json.data.model).toMatchObject({ name, repo: null, dockerImage: null });
    expect(found.json.data.model.id).toEqual(expect.any(String));

    const viewer = await sendExactly(`${t.url}/graphql`, {
      headers: [...wandbRequestsHeaders(t.alice.authHeader)].map(([k, v]) => [k, k === 'User-Agent' ? 'python-requests/2.32.3' : v]),
      body: pythonJson({ query: GQL3_DEFAULT_ENTITY }, false),
    });
    expect(viewer.json.data.viewer).toEqual({ username: 'alice', defaultEntity: { name: 'alice-co' } });
    await writeAndReadBack(`alice-co/${name}`);
  });

  it('answers wandb login: the key check, the Viewer query and the capability probe', async () => {
    expect((await legacy(WANDB_VIEWER_ID, {})).json).toEqual({ data: { viewer: { id: expect.any(String) } } });
    const viewer = (await legacy(WANDB_VIEWER, {})).json.data.viewer;
    expect(viewer).toMatchObject({
      username: 'alice',
      entity: 'alice-co',
      flags: '{}',
      teams: { edges: [{ node: { name: 'alice-co' } }] },
    });
    const probe = (await legacy(WANDB_PROBE_SERVER_CAPABILITIES, {})).json.data;
    const names = (type: { fields: { name: string }[] }) => type.fields.map((f) => f.name);
    expect(names(probe.QueryType)).toEqual(expect.arrayContaining(['viewer', 'project', 'model']));
    expect(names(probe.MutationType)).toContain('upsertModel');
    // Without cliVersionInfo / latestLocalVersionInfo, wandb skips its version queries.
    expect(names(probe.ServerInfoType)).not.toContain('cliVersionInfo');
  });
});
