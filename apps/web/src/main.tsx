import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { queryClient } from './app/queryClient';
import { initI18n } from './platform/i18n';
import { reloadOnStaleChunks } from './platform/staleChunks';
import { publicConfigQuery } from './platform/support';

void initI18n();
reloadOnStaleChunks();
// Asked at once, so the support number is known before anyone clicks a chat link.
void queryClient.prefetchQuery(publicConfigQuery);

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
