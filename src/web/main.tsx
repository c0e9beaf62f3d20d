/** Dashboard entry: one query client, one router, the theme stylesheet. */
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { createQueryClient } from './lib/queryClient.js';
import { loginUrl, onSignedOutElsewhere } from './lib/signOut.js';
import { createRoutes } from './routes.js';
import './styles.css';

/** Our session ended (logout elsewhere, expiry, password change, an admin): to the login page, coming back here after. */
function toLogin() {
  queryClient.clear();
  const here = window.location.pathname + window.location.search;
  if (window.location.pathname !== '/login') void router.navigate(loginUrl(here));
}

const queryClient = createQueryClient(toLogin);
const router = createBrowserRouter(createRoutes(queryClient));
onSignedOutElsewhere(toLogin);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
