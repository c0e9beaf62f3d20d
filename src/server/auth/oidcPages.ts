/**
 * The pages a failed single sign-on shows: what failed, what to do, and a way to try again.
 * Plain HTML with no script (the server's CSP allows none inline), every text escaped.
 */

export interface FailurePage {
  status: number;
  title: string;
  html: string;
}

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const WHAT_TO_DO: Record<number, string> = {
  400: 'Start the sign-in again from the Weft login page, in this browser.',
  401: 'Try again. If it keeps failing, tell your administrator: the identity provider and Weft disagree about this sign-in (its clock, client id or keys).',
  403: 'Ask your administrator for access, then try again.',
  502: 'Try again in a minute. If it keeps failing, tell your administrator.',
  503: 'Try again in a minute, or sign in with a password if your administrator allows it.',
};

export function failurePage(status: number, title: string, detail: string): FailurePage {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Weft</title>
</head>
<body style="font-family: system-ui, sans-serif; max-width: 34rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5; color: #1f2328">
<main role="main" aria-labelledby="title">
<h1 id="title" style="font-size: 1.4rem">${escapeHtml(title)}</h1>
<p role="alert">${escapeHtml(detail)}</p>
<p>${escapeHtml(WHAT_TO_DO[status] ?? WHAT_TO_DO[400]!)}</p>
<p><a href="/login" style="display: inline-block; padding: 0.4rem 1rem; border: 1px solid #1f2328; border-radius: 6px; text-decoration: none; color: inherit">Try again</a></p>
</main>
</body>
</html>
`;
  return { status, title, html };
}
