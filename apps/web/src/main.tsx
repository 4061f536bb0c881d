import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { queryClient } from './app/queryClient';
import { startTagManager } from './platform/analytics';
import { initI18n } from './platform/i18n';
import { reloadOnStaleChunks } from './platform/staleChunks';

void initI18n();
reloadOnStaleChunks();
// The public settings, asked at once: the support number is known before anyone clicks a chat
// link, and the operator's tag manager (if any) hears the first analytics events.
void startTagManager(queryClient);

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
