/** Dashboard entry: one query client, one router, the theme stylesheet. */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from './lib/queryClient.js';
import { clearCredentials } from './lib/session.js';
import { createRoutes } from './routes.js';
import './styles.css';

const queryClient = createQueryClient(() => {
  // The server no longer accepts our credentials (password changed, key revoked): sign out.
  clearCredentials();
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname !== '/login') void router.navigate(`/login?next=${encodeURIComponent(here)}`);
});
const router = createBrowserRouter(createRoutes(queryClient));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
