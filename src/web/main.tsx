/** Dashboard entry: one query client, one router, the theme stylesheet. */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { NavigationBridge, outsideNavigation } from './app/routing.js';
import { Splash } from './app/Splash.js';
import { whoamiQueryOptions } from './features/auth/authQueries.js';
import { createQueryClient } from './lib/queryClient.js';
import { loginUrl, onSignedOutElsewhere } from './lib/signOut.js';
import { createRoutes } from './routes.js';
import './styles.css';

/** Our session ended (logout elsewhere, expiry, password change, an admin): to the login page, coming back here after. */
function toLogin() {
  queryClient.clear();
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname !== '/login') void outsideNavigation.navigate?.(loginUrl(here));
}

const queryClient = createQueryClient(toLogin);
const routes = createRoutes(queryClient);
onSignedOutElsewhere(toLogin);
// The session check before anything else: every page waits for its answer, and the first render
// (whose RequireSession would ask) waits behind the page modules startLoaderEarly fetches.
if (window.location.pathname !== '/login') void queryClient.prefetchQuery(whoamiQueryOptions());
routes.startLoaderEarly(new URL(window.location.href));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <NavigationBridge />
        {/* The first page's code is on its way. */}
        <Suspense fallback={<Splash />}>{routes.element}</Suspense>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
