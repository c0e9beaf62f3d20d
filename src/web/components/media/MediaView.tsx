/**
 * Media of a call shown as media (docs/media.md): images inline, audio with controls, PDFs as a
 * link that opens them. Bytes come from the value itself (data: URIs, made into blob: URLs for
 * audio and PDFs) or from the project's files (`/file/content`, the SDKs' Content objects). A
 * URL on another site is only linked, never loaded by the page: the dashboard's CSP allows
 * images from this origin, data: and blob: only, so a trace cannot make viewers' browsers call
 * out (docs/media.md "URLs").
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from '../../lib/api.js';
import type { MediaItem, MediaKind } from './mediaModel.js';
import './media.css';

/** A data: URI's bytes as a Blob, decoded here (no fetch: connect-src is this origin only). */
function dataBlob(uri: string): Blob | null {
  const comma = uri.indexOf(',');
  if (comma < 0) return null;
  const head = uri.slice(5, comma);
  const mime = head.split(';')[0] || 'application/octet-stream';
  try {
    const body = uri.slice(comma + 1);
    if (!head.endsWith(';base64')) return new Blob([decodeURIComponent(body)], { type: mime });
    const bin = atob(body);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Blob([bytes], { type: mime });
  } catch {
    return null;
  }
}

/** A blob: URL for a Blob, revoked when the component leaves. */
function useObjectUrl(blob: Blob | null | undefined): string | null {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

interface FileMedia {
  blob: Blob;
  kind: MediaKind | null;
  name: string;
}

/** A project file's bytes and, for a Content object, its metadata's type and file name. */
function fileMediaQuery(projectId: string, digest: string, metadataDigest: string | null, fallbackMime: string | null) {
  return {
    queryKey: ['files', projectId, 'media', digest, metadataDigest] as const,
    staleTime: Infinity,
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<FileMedia> => {
      let mime = fallbackMime;
      let name = 'file';
      if (metadataDigest) {
        const meta = (await (await api.fileContent({ project_id: projectId, digest: metadataDigest }, { signal })).json()) as Record<
          string,
          unknown
        >;
        if (typeof meta.mimetype === 'string') mime = meta.mimetype;
        if (typeof meta.filename === 'string') name = meta.filename;
      }
      const bytes = await (await api.fileContent({ project_id: projectId, digest }, { signal })).arrayBuffer();
      const type = mime ?? 'application/octet-stream';
      const kind: MediaKind | null = type.startsWith('image/')
        ? 'image'
        : type.startsWith('audio/')
          ? 'audio'
          : type === 'application/pdf'
            ? 'pdf'
            : null;
      return { blob: new Blob([bytes], { type }), kind, name };
    },
  };
}

/** The media, one figure each. */
export function MediaList({ items, projectId }: { items: readonly MediaItem[]; projectId?: string }) {
  if (items.length === 0) return null;
  return (
    <div className="media-list">
      {items.map((item) => (
        <MediaFigure key={item.path} item={item} projectId={projectId} />
      ))}
    </div>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 60);
  }
}

function MediaFigure({ item, projectId }: { item: MediaItem; projectId?: string }) {
  const src = item.source;
  if (src.type === 'url') {
    return (
      <figure className="media">
        <a href={src.url} target="_blank" rel="noopener noreferrer" className="media-link">
          {item.kind === 'image' ? 'Image' : item.kind === 'audio' ? 'Audio' : 'PDF'} at {hostOf(src.url)} ↗
        </a>
        <figcaption className="muted small mono">{item.path} · not loaded here (another site)</figcaption>
      </figure>
    );
  }
  if (src.type === 'file') {
    return projectId ? <FileFigure item={item} projectId={projectId} /> : null;
  }
  return <DataFigure item={item} uri={src.uri} />;
}

function DataFigure({ item, uri }: { item: MediaItem; uri: string }) {
  // Images show from the data: URI itself; audio and PDFs need a blob: URL.
  const blob = useMemo(() => (item.kind === 'image' ? null : dataBlob(uri)), [item.kind, uri]);
  const url = useObjectUrl(blob);
  return <Figure kind={item.kind} url={item.kind === 'image' ? uri : url} path={item.path} name={`${item.path}.pdf`} />;
}

function FileFigure({ item, projectId }: { item: MediaItem; projectId: string }) {
  const src = item.source as Extract<MediaItem['source'], { type: 'file' }>;
  const { data, error } = useQuery(fileMediaQuery(projectId, src.digest, src.metadataDigest, item.mimetype));
  const url = useObjectUrl(data?.blob);
  if (error)
    return (
      <p className="muted small">
        Could not load {item.path}: {error.message}
      </p>
    );
  if (!data || !url) return <p className="muted small">Loading {item.path}…</p>;
  if (!data.kind) return null;
  return <Figure kind={data.kind} url={url} path={item.path} name={data.name} />;
}

function Figure({ kind, url, path, name }: { kind: MediaKind; url: string | null; path: string; name: string }) {
  if (!url) return <p className="muted small">{path}: media that could not be read</p>;
  return (
    <figure className="media">
      {kind === 'image' && <img className="media-image" src={url} alt={`Image at ${path}`} loading="lazy" />}
      {kind === 'audio' && <audio className="media-audio" src={url} controls aria-label={`Audio at ${path}`} />}
      {kind === 'pdf' && (
        <a className="media-link" href={url} target="_blank" rel="noopener noreferrer" download={name}>
          PDF · open {name}
        </a>
      )}
      <figcaption className="muted small mono">{path}</figcaption>
    </figure>
  );
}
