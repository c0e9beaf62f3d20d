// A user's program with the npm `weave` SDK, configured only by its environment (WANDB_BASE_URL,
// WANDB_API_KEY, NODE_EXTRA_CA_CERTS...): `weave.init(<project>)`, one traced op, wait for the
// upload. Run as a child process, so Node reads NODE_EXTRA_CA_CERTS at start-up as it would for
// a user. Prints `RESULT {...}` or `FAILED "<message>"` as its last line.
import { createRequire } from 'node:module';

const weave = createRequire(import.meta.url)('weave');
const project = process.argv[2];

try {
  const client = await weave.init(project);
  const greet = weave.op(async (name) => `Hello, ${name}!`, { name: 'greet' });
  const output = await greet('Ada');
  await client.waitForBatchProcessing();
  console.log(`RESULT ${JSON.stringify({ projectId: client.projectId, output })}`);
  process.exit(0);
} catch (err) {
  console.log(`FAILED ${JSON.stringify(String(err?.message ?? err))}`);
  process.exit(1);
}
