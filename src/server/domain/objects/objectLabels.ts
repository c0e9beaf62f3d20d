/**
 * Tags and aliases of object versions (evaluation-and-more.md §5). Tags are a set per
 * version; an alias names one version of an object at a time, so setting it moves it. Name
 * rules follow weave's tag/alias validation (W&B Models conventions); breaking one is a 400.
 * `latest` is virtual: it always follows the latest version and can be neither set nor removed.
 */
import { BadRequestError, NotFoundError } from '../../errors.js';
import type { Store } from '../../store/Store.js';
import { readLiveObject } from './objects.js';

const MAX_TAG_LENGTH = 256;
const MAX_ALIAS_LENGTH = 128;
const TAG = /^[-\p{L}\p{N}_]+( [-\p{L}\p{N}_]+)*$/u;

function checkTag(tag: string): void {
  if (!tag) throw new BadRequestError('tag name must not be empty');
  if (tag.length > MAX_TAG_LENGTH) throw new BadRequestError(`tag name must be at most ${MAX_TAG_LENGTH} characters`);
  if (!TAG.test(tag)) {
    throw new BadRequestError(
      `tag name ${JSON.stringify(tag)} is invalid: only alphanumeric characters, hyphens, underscores, and single spaces between words are allowed`,
    );
  }
}

function checkAlias(alias: string): void {
  if (alias === 'latest') throw new BadRequestError(`alias name 'latest' is reserved: it always names the latest version`);
  if (!alias.trim()) throw new BadRequestError('alias name must not be empty or whitespace-only');
  if (alias.length > MAX_ALIAS_LENGTH) throw new BadRequestError(`alias name must be at most ${MAX_ALIAS_LENGTH} characters`);
  const bad = [...alias].find((ch) => ch === '/' || ch === ':');
  if (bad) throw new BadRequestError(`alias name cannot contain character '${bad}'`);
  if (/^v\d+$/.test(alias)) throw new BadRequestError(`alias name '${alias}' is reserved (matches version pattern v<number>)`);
}

type VersionRef = { projectId: string; objectId: string; version: string };

/** Adds tags to a live version (404 when there is none). */
export async function addTags(store: Store, req: VersionRef & { tags: string[]; now: number }): Promise<void> {
  req.tags.forEach(checkTag);
  const { digest } = await readLiveObject(store, { ...req, metadataOnly: true });
  await store.objects.addTags({ projectId: req.projectId, objectId: req.objectId, digest, tags: req.tags, createdAt: req.now });
}

/** Removes tags; an unknown version or absent tag is not an error (as the reference). */
export async function removeTags(store: Store, req: VersionRef & { tags: string[] }): Promise<void> {
  const { digest } = await readLiveObject(store, { ...req, metadataOnly: true }).catch((err: unknown) => {
    if (err instanceof NotFoundError) return { digest: req.version };
    throw err;
  });
  await store.objects.removeTags({ projectId: req.projectId, objectId: req.objectId, digest, tags: req.tags });
}

/** Points each alias at a live version (404 when there is none), moving it if set elsewhere. */
export async function setAliases(store: Store, req: VersionRef & { aliases: string[]; now: number }): Promise<void> {
  req.aliases.forEach(checkAlias);
  const { digest } = await readLiveObject(store, { ...req, metadataOnly: true });
  await store.objects.setAliases({
    projectId: req.projectId,
    objectId: req.objectId,
    digest,
    aliases: req.aliases,
    createdAt: req.now,
  });
}

/** Removes aliases from an object; `latest` cannot be removed (400), absent ones are ignored. */
export async function removeAliases(store: Store, req: { projectId: string; objectId: string; aliases: string[] }): Promise<void> {
  if (req.aliases.includes('latest')) checkAlias('latest');
  await store.objects.removeAliases(req);
}
