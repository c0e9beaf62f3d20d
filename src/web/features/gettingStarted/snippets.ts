/** The "send your first trace" snippets, filled with this server's origin and the project. */

/** Inputs every snippet needs. */
export interface SnippetContext {
  origin: string;
  projectId: string;
  username: string;
}

/** One way to send traces. */
export interface Snippet {
  id: string;
  label: string;
  intro: string;
  code: string;
}

const KEY_HINT = '<your API key>';

/** Python SDK, TypeScript SDK, OpenTelemetry and plain curl. */
export function buildSnippets({ origin, projectId, username }: SnippetContext): Snippet[] {
  const keyCmd = `npx weft key create --user ${username}`;
  return [
    {
      id: 'python',
      label: 'Python',
      intro: `Install the Weave SDK (pip install weave), create an API key with \`${keyCmd}\`, then:`,
      code: `export WF_TRACE_SERVER_URL=${origin}
export WANDB_API_KEY=${KEY_HINT}

# app.py
import weave

weave.init("${projectId}")

@weave.op
def greet(name: str) -> str:
    return f"Hello, {name}!"

greet("world")`,
    },
    {
      id: 'typescript',
      label: 'TypeScript',
      intro: `Install the Weave SDK (npm install weave), create an API key with \`${keyCmd}\`, then:`,
      code: `// WF_TRACE_SERVER_URL=${origin} WANDB_API_KEY=${KEY_HINT} node app.mjs
import * as weave from 'weave';

await weave.init('${projectId}');

const greet = weave.op(async function greet(name) {
  return \`Hello, \${name}!\`;
});

await greet('world');`,
    },
    {
      id: 'otel',
      label: 'OpenTelemetry',
      intro:
        'Any OTLP/HTTP exporter works. Point it at Weft, name the project in a header, and authenticate with Basic auth (user api, password = your API key):',
      code: `export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${origin}/otel/v1/traces
export OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf
export OTEL_EXPORTER_OTLP_TRACES_HEADERS="project_id=${projectId},Authorization=Basic%20$(printf 'api:%s' "${KEY_HINT}" | base64)"

# Python, explicitly:
import base64
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
exporter = OTLPSpanExporter(
    endpoint="${origin}/otel/v1/traces",
    headers={"project_id": "${projectId}", "Authorization": "Basic " + base64.b64encode(b"api:${KEY_HINT}").decode()},
)`,
    },
    {
      id: 'curl',
      label: 'curl',
      intro: 'No SDK at all: start and end one call in a single request.',
      code: `ID=$(uuidgen | tr 'A-Z' 'a-z'); NOW=$(date -u +%Y-%m-%dT%H:%M:%SZ)
curl -u "api:${KEY_HINT}" ${origin}/call/upsert_batch \\
  -H 'content-type: application/json' \\
  -d '{"batch":[
    {"mode":"start","req":{"start":{"project_id":"${projectId}","id":"'$ID'","op_name":"hello","started_at":"'$NOW'","attributes":{},"inputs":{"question":"Hi?"}}}},
    {"mode":"end","req":{"end":{"project_id":"${projectId}","id":"'$ID'","ended_at":"'$NOW'","output":"Hello!","summary":{}}}}
  ]}'`,
    },
  ];
}
