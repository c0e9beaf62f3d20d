/**
 * Media in calls (docs/media.md): images, audio and PDFs in a call's inputs and output show in
 * the trace's call detail (data: URIs, OpenAI audio parts, a Weave Content object read from the
 * project's files; a URL on another site only linked) and in a thread's conversation (an
 * Anthropic base64 image part), without breaking the dashboard's CSP.
 */
import { randomUUID } from 'node:crypto';
import { expect, test } from './fixtures/test.js';

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n').toString('base64');

/** A 0.1 s silent mono 8 kHz WAV. */
function wav(): string {
  const samples = 800;
  const b = Buffer.alloc(44 + samples * 2);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + samples * 2, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(samples * 2, 40);
  return b.toString('base64');
}

const loaded = (img: import('@playwright/test').Locator) => img.evaluate((el) => (el as HTMLImageElement).naturalWidth);

test('images, audio and PDFs show in a call and in a thread', async ({ signedInPage: page, api, project }) => {
  const cspErrors: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) cspErrors.push(m.text());
  });
  // A Weave Content object as the SDKs store it: the bytes and metadata.json as project files.
  const content = await api.fileCreate({ project_id: project, file: new File([Buffer.from(PNG, 'base64')], 'content') });
  const meta = await api.fileCreate({
    project_id: project,
    file: new File([JSON.stringify({ mimetype: 'image/png', filename: 'dot.png', size: 70 })], 'metadata.json'),
  });
  const at = new Date(Date.now() - 60_000).toISOString();
  const callId = randomUUID();
  const traceId = randomUUID();
  const turnId = randomUUID();
  const threadId = `media-${randomUUID()}`;
  await api.callUpsertBatch({
    batch: [
      {
        mode: 'start',
        req: {
          start: {
            project_id: project,
            id: callId,
            trace_id: traceId,
            op_name: `weave:///${project}/op/describe:0123456789abcdef`,
            started_at: at,
            inputs: {
              photo: `data:image/png;base64,${PNG}`,
              clip: { type: 'input_audio', input_audio: { data: wav(), format: 'wav' } },
              doc: `data:application/pdf;base64,${PDF}`,
              remote: { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            },
          },
        },
      },
      {
        mode: 'end',
        req: {
          end: {
            project_id: project,
            id: callId,
            ended_at: at,
            output: {
              _type: 'CustomWeaveType',
              weave_type: { type: 'weave.type_wrappers.Content.content.Content' },
              files: { content: content.digest, 'metadata.json': meta.digest },
            },
          },
        },
      },
      {
        mode: 'start',
        req: {
          start: {
            project_id: project,
            id: turnId,
            trace_id: randomUUID(),
            thread_id: threadId,
            turn_id: turnId,
            op_name: `weave:///${project}/op/chat:0123456789abcdef`,
            started_at: at,
            inputs: {
              messages: [
                {
                  role: 'user',
                  content: [
                    { type: 'text', text: 'What is in this picture?' },
                    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
                  ],
                },
              ],
            },
          },
        },
      },
      { mode: 'end', req: { end: { project_id: project, id: turnId, ended_at: at, output: 'A dot.' } } },
    ],
  });

  await page.goto(`/${project}/traces/${traceId}`);
  const media = page.getByRole('complementary', { name: 'Call details' });
  await expect.poll(() => loaded(media.getByRole('img', { name: 'Image at inputs.photo' }))).toBe(1);
  await expect.poll(() => loaded(media.getByRole('img', { name: 'Image at output' }))).toBe(1);
  await expect(media.locator('audio[aria-label="Audio at inputs.clip"]')).toHaveAttribute('src', /^blob:/);
  await expect(media.getByRole('link', { name: /PDF · open/ })).toHaveAttribute('href', /^blob:/);
  // Another site's image is linked, never loaded by the page.
  await expect(media.getByRole('link', { name: 'Image at example.com ↗' })).toHaveAttribute('href', 'https://example.com/cat.png');
  await expect(page.locator('img[src^="https:"]')).toHaveCount(0);

  await page.goto(`/${project}/threads/${threadId}`);
  const turn = page.getByRole('region', { name: 'Conversation' }).getByRole('list', { name: 'Turn 1 messages' });
  await expect(turn).toContainText('What is in this picture?');
  await expect.poll(() => loaded(turn.getByRole('img', { name: 'Image at content.1' }))).toBe(1);
  expect(cspErrors).toEqual([]);
});
