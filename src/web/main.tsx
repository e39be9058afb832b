// spec §9: must stay the first import, so console output is silenced before any other module runs.
import './lib/silence-console.js';
import './styles/global.css';
import './styles/posts.css';
import './styles/social.css';
import './styles/notifications-search.css';
import './styles/navigation.css';
import './styles/relationships.css';
import './styles/instance-moderation.css';
import './styles/moderation.css';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { createAppRouter } from './app/router.js';
import { getSessionQueryOptions } from './features/auth/api/get-session.js';
import { getInstanceQueryOptions } from './features/instance/api/get-instance.js';
import { watchFirstPage, whenPageSettled } from './lib/page-settled.js';
import { nextTask } from './lib/next-task.js';
import { createQueryClient } from './lib/query-client.js';
// How user text is shown, its tags and names linked (ADR 0054), travels with the entry: nearly every page
// shows some, and split by which pages use each piece, it made one more file in each first load (ADR 0037).
import './components/ui/rich-text.js';
import { registerServiceWorker } from './lib/service-worker.js';

const queryClient = createQueryClient();
// Ask for the session and the instance while the first page's code is still downloading.
// Failures are not lost: the screens' own queries show them and retry.
queryClient.query(getSessionQueryOptions()).catch(() => undefined);
queryClient.query(getInstanceQueryOptions()).catch(() => undefined);

// What the first page does not need waits until it has settled (ADR 0035).
watchFirstPage(queryClient);

// The router, then the first render, each in a task of its own: together with the modules' own evaluation
// they were one task of about 55 ms on a fast machine, over 200 ms on a phone (ADR 0037).
const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');
const router = nextTask().then(() => createAppRouter());
void router.then(async (created) => {
  await nextTask();
  // Dates and counts need no locale data (ADR 0045); links to addresses wait for the page to settle
  // (ADR 0054).
  createRoot(container).render(<App queryClient={queryClient} router={created} />);
});
// Repeat visits start from the cache, and a visit without a connection gets the offline page.
registerServiceWorker();
// Page performance, for a share of page loads: its code comes once the first page has settled (its
// observers read the page's earlier entries from the browser's buffer).
void whenPageSettled()
  .then(() => import('./lib/web-vitals-reporter.js'))
  .then(async ({ startWebVitals }) =>
    startWebVitals(await router, () =>
      queryClient.query(getInstanceQueryOptions()).then((i) => i.webVitalsSampleRate),
    ),
  )
  .catch(() => undefined);
